//! The operations people run on a group in production: the time away and the disk choice
//! that every restart button uses, a rolling restart (and how far it is), and an outage of
//! each availability zone.

use super::term::term;
use crate::model::Command;
use crate::playground::{Action, Operations};
use yew::prelude::*;

/// Properties of the operations controls.
#[derive(Properties, PartialEq)]
pub struct OperationsProps {
    /// What the controls show.
    pub operations: Operations,
    /// Carries out an action (a command, or a restart choice).
    pub on_action: Callback<Action>,
}

/// Restarts (time away, disk), the rolling restart, and a zone outage per zone.
#[function_component(OperationsBar)]
pub fn operations_bar(props: &OperationsProps) -> Html {
    let ops = &props.operations;
    let on = &props.on_action;
    let down_time = on.reform(|e: Event| {
        Action::DownTime(
            e.target_unchecked_into::<web_sys::HtmlInputElement>()
                .value(),
        )
    });
    let keep_state = on.reform(|e: Event| {
        Action::KeepState(
            e.target_unchecked_into::<web_sys::HtmlInputElement>()
                .checked(),
        )
    });
    let rolling = {
        let command = ops.restart.rolling_restart();
        on.reform(move |_: MouseEvent| Action::Command(command.clone()))
    };
    let choice = ops.restart.describe();
    html! {
        <section class="operations" aria-label="operations: restarts and outages">
            <div class="ops-row">
                <span class="ops-title">{ term("restart", "Restarts") }</span>
                <label>{ "away " }
                    <input data-testid="down-time" type="text" inputmode="decimal" value={ops.down_time.clone()}
                        onchange={down_time} aria-label="time away of a restart, in seconds"
                        aria-invalid={ops.down_time_problem.is_some().then_some("true")}
                        aria-describedby={ops.down_time_problem.is_some().then_some("down-time-problem")} />
                    { " s" }
                </label>
                <label class="check">
                    <input data-testid="keep-state" type="checkbox" checked={ops.restart.keep_state} onchange={keep_state} />
                    { " keeps its disk" }
                </label>
                <button data-testid="rolling-restart" disabled={!ops.can_rolling_restart} onclick={rolling}
                    title={if ops.can_rolling_restart {
                        format!("Restart every live member in turn, each {choice}, once the group is at rest")
                    } else if ops.rolling.is_some() {
                        "A rolling restart is under way".to_string()
                    } else {
                        "No live member to restart".to_string()
                    }}>
                    <span aria-hidden="true">{ "\u{27F3} " }</span>{ "rolling restart" }
                </button>
            </div>
            if let Some(problem) = &ops.down_time_problem {
                <p class="field-problem" id="down-time-problem" data-testid="down-time-problem">{ problem.clone() }</p>
            }
            <p class="ops-hint" data-testid="restart-outcome">{ ops.outcome.clone() }</p>
            if let Some(words) = &ops.rolling {
                <p class="ops-rolling" data-testid="rolling-status" role="status">{ words.clone() }</p>
            }
            if !ops.zones.is_empty() {
                <div class="ops-row" role="group" aria-label="zone outage">
                    <span class="ops-title">{ term("zone", "Zone outage") }</span>
                    { for ops.zones.iter().map(|zone| {
                        let name = zone.name.clone();
                        let crash = on.reform(move |_: MouseEvent| Action::Command(Command::CrashZone(name.clone())));
                        html! {
                            <button data-testid="crash-zone" data-zone={zone.name.clone()} class="danger" disabled={!zone.can_crash}
                                onclick={crash}
                                title={if zone.can_crash { "Every live member of this zone crashes at once" } else { "No live member left in this zone" }}>
                                { format!("crash zone {}", zone.name) }
                                <span class="count">{ format!(" ({} of {} live)", zone.alive, zone.members.len()) }</span>
                            </button>
                        }
                    }) }
                </div>
            }
        </section>
    }
}
