//! The protocol strip: the round in progress as its three steps (the members send their join
//! metadata to the coordinator, the leader computes the assignment, the assignment is synced
//! back), the step under way lit with a dot travelling along it, and why the round runs. Under
//! Kafka's streams protocol, the group's epochs and heartbeats instead: the epoch bumped, the
//! target computed, the members reconciling.

use crate::views::frame::{PhaseView, RoundView};
use crate::views::notation;
use crate::views::strategy_mark;
use crate::views::streams::StreamsView;
use yew::prelude::*;

/// Properties of the protocol strip.
#[derive(Properties, PartialEq)]
pub struct ProtocolProps {
    /// The round at the clock.
    pub round: RoundView,
    /// How far the step under way is, in thousandths: not the clock, which moves on every
    /// frame of play while the strip only changes during a round.
    pub progress: u16,
}

/// The round as three steps.
#[function_component(ProtocolStrip)]
pub fn protocol_strip(props: &ProtocolProps) -> Html {
    let r = &props.round;
    let progress = f64::from(props.progress) / 1000.0;
    if let Some(streams) = &r.streams {
        return streams_strip(r, streams, progress);
    }
    let state = |step: PhaseView| match (r.phase, step) {
        (a, b) if a == b => "on",
        (PhaseView::Syncing, PhaseView::Joining) => "done",
        _ => "",
    };
    let dot = |step: PhaseView| track(r.phase == step, progress);
    let leader = r.leader.clone().unwrap_or_else(|| "the leader".into());
    let members = format!(
        "{} member{}",
        r.members,
        if r.members == 1 { "" } else { "s" }
    );
    let title = match r.index {
        Some(i) => notation::heading(i).trim_start_matches('#').to_string(),
        None => "No rebalance under way".to_string(),
    };
    html! {
        <div class={classes!("protocol", (r.phase == PhaseView::Stable).then_some("idle"))} data-testid="protocol"
            data-phase={r.phase.describe()} role="group" aria-label="the rebalance protocol, step by step">
            <div class="protocol-head">
                <b>{ title }</b>
                if !r.cause_labels.is_empty() {
                    <span class="causes" data-testid="protocol-causes" title={r.cause_labels.join(", ")}>
                        { for r.cause_labels.iter().map(|c| html! { <span class="cause-chip">{ c }</span> }) }
                    </span>
                }
            </div>
            <ol class="steps">
                <li class={classes!("step", state(PhaseView::Joining))} data-step="join">
                    <span class="flow">{ format!("{members} \u{2192} coordinator") }</span>
                    <span class="what">{ "send their join metadata: what they run, learn and have replayed" }</span>
                    { dot(PhaseView::Joining) }
                </li>
                <li class={classes!("step", (r.phase == PhaseView::Syncing).then_some("done"))} data-step="assign">
                    <span class="flow">{ format!("leader {leader}") }</span>
                    <span class="what">{ "computes the assignment from the metadata" }</span>
                </li>
                <li class={classes!("step", state(PhaseView::Syncing))} data-step="sync">
                    <span class="flow">{ format!("coordinator \u{2192} {members}") }</span>
                    <span class="what">{ "the assignment is synced back; moves happen here" }</span>
                    { dot(PhaseView::Syncing) }
                </li>
            </ol>
        </div>
    }
}

/// A step's track with its dot `progress` of the way along, hidden unless the step is `on`.
/// Every step with a duration keeps its track, hidden while it is not theirs: a track coming
/// and going changed the steps' children, and Yew rebuilt their spans in place.
fn track(on: bool, progress: f64) -> Html {
    let left = if on { progress * 100.0 } else { 0.0 };
    html! {
        <span class={classes!("track", (!on).then_some("off"))} aria-hidden="true">
            <span class="dot" style={format!("left: {:.1}%", left)}></span>
        </span>
    }
}

/// The strip under Kafka's streams protocol: the two epochs and the heartbeats that drive the
/// coordinator, then the epoch bumped, the target computed and the members reconciling, the
/// dot travelling to the next heartbeat that changes something.
fn streams_strip(r: &RoundView, s: &StreamsView, progress: f64) -> Html {
    let [epoch, target, reconcile] = s.steps();
    let state = |id: &str| match (r.phase, id) {
        (PhaseView::Bumped, "epoch") | (PhaseView::Reconciling, "reconcile") => "on",
        (PhaseView::Reconciling, _) => "done",
        _ => "",
    };
    let step = |step: &crate::views::streams::StripStep, tracked: Option<PhaseView>| {
        html! {
            <li class={classes!("step", state(step.id))} data-step={step.id}>
                <span class="flow">{ step.flow.clone() }</span>
                <span class="what">{ step.what.clone() }</span>
                if let Some(phase) = tracked { { track(r.phase == phase, progress) } }
            </li>
        }
    };
    let next = s.next_words().map(|w| format!("next: {w}"));
    html! {
        <div class={classes!("protocol", "streams", (r.phase == PhaseView::Stable).then_some("idle"))} data-testid="protocol"
            data-phase={r.phase.describe()} role="group" aria-label="the streams protocol: epochs and heartbeats">
            <div class="protocol-head">
                <b data-testid="protocol-epochs">{ s.head() }</b>
                if let Some(mark) = strategy_mark(s.strategy) {
                    <span class="caveat-mark" data-testid="caveat" title={s.strategy.caveat()}>{ mark }</span>
                }
                if !r.cause_labels.is_empty() {
                    <span class="causes" data-testid="protocol-causes" title={r.cause_labels.join(", ")}>
                        { for r.cause_labels.iter().map(|c| html! { <span class="cause-chip">{ c }</span> }) }
                    </span>
                } else if let Some(next) = next.clone() {
                    <span class="causes next" data-testid="protocol-next" title={next.clone()}>{ next }</span>
                }
            </div>
            <ol class="steps">
                { step(&epoch, Some(PhaseView::Bumped)) }
                { step(&target, None) }
                { step(&reconcile, Some(PhaseView::Reconciling)) }
            </ol>
        </div>
    }
}
