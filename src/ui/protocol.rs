//! The protocol strip: the round in progress as its three steps (the members send their join
//! metadata to the coordinator, the leader computes the assignment, the assignment is synced
//! back), the step under way lit with a dot travelling along it, and why the round runs.

use crate::views::frame::{PhaseView, RoundView};
use crate::views::notation;
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
    let state = |step: PhaseView| match (r.phase, step) {
        (a, b) if a == b => "on",
        (PhaseView::Syncing, PhaseView::Joining) => "done",
        _ => "",
    };
    // Both steps with a duration keep their track, hidden while it is not theirs: a track
    // coming and going changed the steps' children, and Yew rebuilt their spans in place.
    let dot = |step: PhaseView| {
        let on = r.phase == step;
        let left = if on { progress * 100.0 } else { 0.0 };
        html! {
            <span class={classes!("track", (!on).then_some("off"))} aria-hidden="true">
                <span class="dot" style={format!("left: {:.1}%", left)}></span>
            </span>
        }
    };
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
