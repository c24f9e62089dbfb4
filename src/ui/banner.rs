//! The round banner above the group: generation, leader, the round's phase and why it runs.

use super::term::{term, Term};
use crate::views::frame::{PhaseView, RoundView};
use crate::views::notation;
use yew::prelude::*;

/// Properties of the round banner.
#[derive(Properties, PartialEq)]
pub struct BannerProps {
    /// The round.
    pub round: RoundView,
    /// Whether the group is at rest and balanced.
    pub at_rest: bool,
    /// Whether it is balanced.
    pub balanced: bool,
    /// What is going on between rounds, in words.
    pub quiet: AttrValue,
}

/// Generation, leader, phase and cause of the round.
#[function_component(Banner)]
pub fn banner(props: &BannerProps) -> Html {
    let r = &props.round;
    let phase_class = |p: PhaseView| match (r.phase, p) {
        (a, b) if a == b => "on",
        (PhaseView::Syncing, PhaseView::Joining) | (PhaseView::Reconciling, PhaseView::Bumped) => {
            "done"
        }
        _ => "",
    };
    let heading = r
        .index
        .map(|i| notation::heading(i).trim_start_matches('#').to_string());
    let heading = heading.as_deref().unwrap_or_default();
    let causes = r.causes.join("; ");
    // Under the streams protocol, no join and sync: the epoch bumped, then reconciling.
    let (first, second) = match r.streams {
        Some(_) => (
            (PhaseView::Bumped, "epoch bumped"),
            (PhaseView::Reconciling, "target \u{25B8} reconcile"),
        ),
        None => (
            (PhaseView::Joining, "join"),
            (PhaseView::Syncing, "assign \u{25B8} sync"),
        ),
    };
    html! {
        <div class="banner" data-testid="round">
            <span class="gen"><Term term={r.counter_name()}>{ r.counter_short() }</Term></span>
            if r.streams.is_some() {
                <span>{ "assigned by " }<b data-testid="leader">{ "the coordinator" }</b></span>
            } else {
                <span>{ "leader " }<b data-testid="leader">{ r.leader.clone().unwrap_or_else(|| "none".into()) }</b></span>
            }
            <span class="phases" data-testid="phase" data-phase={r.phase.describe()} aria-label={format!("phase: {}", r.phase.describe())}>
                <span class={phase_class(PhaseView::Stable)}>{ "stable" }</span>
                <span class={phase_class(first.0)}>{ first.1 }</span>
                <span class={phase_class(second.0)}>{ second.1 }</span>
            </span>
            if props.at_rest {
                <span class="badge good" data-testid="at-rest">{ term("at rest", "at rest") }</span>
            }
            if props.balanced {
                <span class="badge good">{ term("balanced", "balanced") }</span>
            } else {
                <span class="badge warn">{ term("balanced", "unbalanced") }</span>
            }
            // One line, cut short where it does not fit (the whole of it on hover): a line
            // wrapping as the causes change moved everything under it, and the browser
            // repainted the whole page.
            if r.index.is_some() {
                <span class="cause" data-testid="cause" title={format!("{heading} \u{00B7} {causes}")}>
                    <em>{ format!("{heading} \u{00B7} ") }</em>
                    { causes }
                </span>
            } else {
                <span class="cause" data-testid="cause" title={props.quiet.clone()}>{ props.quiet.clone() }</span>
            }
        </div>
    }
}
