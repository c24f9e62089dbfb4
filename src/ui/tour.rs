//! The guided tour panel: the step's narration, the terms it introduces, and next, back
//! and leave.

use super::term::Term;
use crate::playground::glossary;
use crate::playground::link::TourPosition;
use crate::playground::tour::Tour;
use crate::playground::{Action, TourAction};
use yew::prelude::*;

/// Properties of the tour panel.
#[derive(Properties, PartialEq)]
pub struct TourProps {
    /// Where the reader is.
    pub position: TourPosition,
    /// Carries out an action (a step, leaving).
    pub on_action: Callback<Action>,
}

/// The tour being read.
#[function_component(TourPanel)]
pub fn tour_panel(props: &TourProps) -> Html {
    let Some(tour) = Tour::find(&props.position.tour) else {
        return html! {};
    };
    let index = props.position.step.min(tour.steps.len().saturating_sub(1));
    let Some(step) = tour.steps.get(index) else {
        return html! {};
    };
    let on = &props.on_action;
    let back =
        on.reform(move |_: MouseEvent| Action::Tour(TourAction::Step(index.saturating_sub(1))));
    let next = on.reform(move |_: MouseEvent| Action::Tour(TourAction::Step(index + 1)));
    let leave = on.reform(|_: MouseEvent| Action::Tour(TourAction::Leave));
    let last = index + 1 == tour.steps.len();
    html! {
        <aside class="tour" data-testid="tour" data-step={index.to_string()} aria-labelledby="tour-title" role="region">
            <h2 id="tour-title">{ tour.title }</h2>
            <div><b data-testid="tour-step-title">{ step.title }</b></div>
            <p class="caption" data-testid="tour-caption" aria-live="polite">{ step.caption }</p>
            if !step.terms.is_empty() {
                <p class="waiting">
                    { "Terms: " }
                    { for step.terms.iter().enumerate().map(|(i, t)| html! {
                        <>
                            if i > 0 { { ", " } }
                            <Term term={t.to_string()}>{ t.to_string() }</Term>
                            <span class="visually-hidden">{ format!(": {}", glossary::define(t).unwrap_or_default()) }</span>
                        </>
                    }) }
                </p>
            }
            <div class="nav">
                <span class="count">{ format!("step {} of {}", index + 1, tour.steps.len()) }</span>
                <button data-testid="tour-back" onclick={back} disabled={index == 0}>{ "\u{2190} back" }</button>
                if last {
                    <button data-testid="tour-leave" class="primary" onclick={leave}>{ "finish: play freely" }</button>
                } else {
                    <button data-testid="tour-next" class="primary" onclick={next}>{ "next \u{2192}" }</button>
                    <button data-testid="tour-leave" onclick={leave} title="Leave the tour and play from this moment">{ "leave tour" }</button>
                }
            </div>
        </aside>
    }
}
