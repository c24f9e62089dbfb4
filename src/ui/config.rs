//! The configuration editor: the config, the tasks and the starting members of the scenario,
//! edited as a draft and applied with a restart. Its tables can hold hundreds of rows, so
//! they are drawn only while it is open.

use super::term::Term;
use crate::format::{MemberFile, ScenarioFile, TaskFile};
use crate::model::{HandoffMode, Readiness, Strategy};
use crate::playground::screen::next_member_name;
use crate::playground::{Action, FormAction};
use std::rc::Rc;
use yew::prelude::*;

/// Properties of the configuration editor.
#[derive(Properties, PartialEq)]
pub struct ConfigProps {
    /// The scenario as it was loaded.
    pub scenario: Rc<ScenarioFile>,
    /// Carries out an action (apply the edited scenario and restart).
    pub on_action: Callback<Action>,
}

fn number<T: std::str::FromStr>(text: &str) -> Option<T> {
    text.trim().parse().ok()
}

/// A callback that applies a change to a copy of the draft and stores the copy.
fn change<E: 'static>(
    draft: &UseStateHandle<ScenarioFile>,
    f: impl Fn(&mut ScenarioFile, &E) + 'static,
) -> Callback<E> {
    let draft = draft.clone();
    Callback::from(move |e: E| {
        let mut next = (*draft).clone();
        f(&mut next, &e);
        draft.set(next);
    })
}

/// The value of the input an event came from.
fn input_value(e: &Event) -> String {
    e.target_unchecked_into::<web_sys::HtmlInputElement>()
        .value()
}

/// The zone a member added to the table is put in: the one with the fewest members (the
/// first by name among equals); none when no member has a zone.
fn least_used_zone(members: &[MemberFile]) -> Option<String> {
    let mut counts: Vec<(&str, usize)> = Vec::new();
    for zone in members.iter().filter_map(|m| m.zone.as_deref()) {
        match counts.iter_mut().find(|(z, _)| *z == zone) {
            Some((_, n)) => *n += 1,
            None => counts.push((zone, 1)),
        }
    }
    counts
        .into_iter()
        .min_by_key(|&(z, n)| (n, z))
        .map(|(z, _)| z.to_string())
}

/// Edits the configuration, the tasks and the members, then restarts.
#[function_component(ConfigPanel)]
pub fn config_panel(props: &ConfigProps) -> Html {
    let draft = use_state(|| (*props.scenario).clone());
    {
        // A new scenario (a preset, an import, an applied edit) replaces the draft.
        let draft = draft.clone();
        use_effect_with(props.scenario.clone(), move |scenario| {
            draft.set((**scenario).clone())
        });
    }
    // The editor's tables can hold hundreds of rows: drawn only while it is open.
    let open = use_state(|| false);
    let on_toggle = {
        let open = open.clone();
        Callback::from(move |e: Event| {
            open.set(
                e.target_unchecked_into::<web_sys::HtmlDetailsElement>()
                    .open(),
            );
        })
    };
    let edit = |f: fn(&mut ScenarioFile, String)| {
        change(&draft, move |next, e: &Event| f(next, input_value(e)))
    };
    let edit_select = |f: fn(&mut ScenarioFile, String)| {
        change(&draft, move |next, e: &Event| {
            f(
                next,
                e.target_unchecked_into::<web_sys::HtmlSelectElement>()
                    .value(),
            )
        })
    };
    let c = &draft.config;
    let apply = {
        let (draft, on) = (draft.clone(), props.on_action.clone());
        Callback::from(move |_| on.emit(Action::Apply(Box::new((*draft).clone()))))
    };
    let add_task = change(&draft, |next, _: &MouseEvent| {
        let id = (1..)
            .map(|i| format!("T{i}"))
            .find(|n| next.tasks.iter().all(|t| &t.id != n))
            .unwrap_or_default();
        next.tasks.push(TaskFile {
            id,
            stateful: true,
            changelog: 50_000,
            write_rate: 100,
        });
    });
    let add_member = change(&draft, |next, _: &MouseEvent| {
        let names: Vec<String> = next.members.iter().map(|m| m.id.clone()).collect();
        next.members.push(MemberFile {
            id: next_member_name(&names),
            capacity: 1,
            restore_rate: None,
            zone: least_used_zone(&next.members),
        });
    });
    let toggle = |f: fn(&mut ScenarioFile, bool)| {
        change(&draft, move |next, e: &Event| {
            f(
                next,
                e.target_unchecked_into::<web_sys::HtmlInputElement>()
                    .checked(),
            )
        })
    };
    let task_rows = draft.tasks.iter().enumerate().map(|(i, t)| {
        let set = |f: fn(&mut TaskFile, String)| {
            change(&draft, move |next, e: &Event| {
                if let Some(task) = next.tasks.get_mut(i) {
                    f(task, input_value(e));
                }
            })
        };
        let toggle = change(&draft, move |next, e: &Event| {
            if let Some(task) = next.tasks.get_mut(i) {
                task.stateful = e.target_unchecked_into::<web_sys::HtmlInputElement>().checked();
            }
        });
        let remove = change(&draft, move |next, _: &MouseEvent| {
            let removed = next.tasks.remove(i);
            if let Some(initial) = next.initial.as_mut() {
                for tasks in initial.values_mut() {
                    tasks.retain(|t| t != &removed.id);
                }
            }
        });
        html! {
            <tr key={t.id.clone()}>
                <td>{ &t.id }</td>
                <td><input type="checkbox" checked={t.stateful} onchange={toggle} aria-label={format!("{} is stateful", t.id)} /></td>
                <td><input type="number" min="0" step="10000" value={t.changelog.to_string()} aria-label={format!("changelog records of {}", t.id)}
                    onchange={set(|t, v| t.changelog = number(&v).unwrap_or(t.changelog))} /></td>
                <td><input type="number" min="0" step="10" value={t.write_rate.to_string()} aria-label={format!("write rate of {}", t.id)}
                    onchange={set(|t, v| t.write_rate = number(&v).unwrap_or(t.write_rate))} /></td>
                <td><button onclick={remove} aria-label={format!("remove {}", t.id)}>{ "\u{2715}" }</button></td>
            </tr>
        }
    });
    let member_rows = draft.members.iter().enumerate().map(|(i, m)| {
        let set = |f: fn(&mut MemberFile, String)| {
            change(&draft, move |next, e: &Event| {
                if let Some(member) = next.members.get_mut(i) {
                    f(member, input_value(e));
                }
            })
        };
        let remove = change(&draft, move |next, _: &MouseEvent| {
            let removed = next.members.remove(i);
            if let Some(initial) = next.initial.as_mut() {
                initial.remove(&removed.id);
            }
            next.commands.retain(|e| {
                [&e.crash, &e.drain, &e.restart]
                    .iter()
                    .all(|m| m.as_deref() != Some(&removed.id))
            });
        });
        html! {
            <tr key={m.id.clone()}>
                <td>{ &m.id }</td>
                <td><input type="number" min="1" max="16" value={m.capacity.to_string()} aria-label={format!("capacity of {}", m.id)}
                    onchange={set(|m, v| m.capacity = number(&v).unwrap_or(m.capacity))} /></td>
                <td><input type="number" min="1" step="1000" placeholder="default" value={m.restore_rate.map(|r| r.to_string()).unwrap_or_default()}
                    aria-label={format!("restore rate of {}", m.id)}
                    onchange={set(|m, v| m.restore_rate = number(&v))} /></td>
                <td><input type="text" class="zone" data-testid="config-zone" placeholder="none" value={m.zone.clone().unwrap_or_default()}
                    aria-label={format!("zone of {}", m.id)} autocomplete="off" spellcheck="false"
                    onchange={set(|m, v| m.zone = Some(v.trim().to_string()).filter(|z| !z.is_empty()))} /></td>
                <td><button onclick={remove} aria-label={format!("remove {}", m.id)}>{ "\u{2715}" }</button></td>
            </tr>
        }
    });
    let open_application = props
        .on_action
        .reform(|_: MouseEvent| Action::Application(FormAction::Open));
    if !*open {
        return html! {
            <details class="panel config" ontoggle={on_toggle}>
                <summary data-testid="config-open">{ "Configuration, tasks and members" }</summary>
            </details>
        };
    }
    html! {
        <details class="panel config" open=true ontoggle={on_toggle}>
            <summary data-testid="config-open">{ "Configuration, tasks and members" }</summary>
            <div class="config-grid">
                <label>{ "strategy" }
                    <select data-testid="config-strategy" onchange={edit_select(|s, v| s.config.strategy = v.parse().unwrap_or_default())}>
                        { for Strategy::ALL.iter().map(|st| html! { <option value={st.name()} selected={*st == c.strategy}>{ st.name() }</option> }) }
                    </select>
                </label>
                <label><Term term="release at join">{ "handoff" }</Term>
                    <select onchange={edit_select(|s, v| s.config.handoff = v.parse().unwrap_or_default())}>
                        <option value="release_at_join" selected={c.handoff == HandoffMode::ReleaseAtJoin}>{ "release at join" }</option>
                        <option value="two_phase" selected={c.handoff == HandoffMode::TwoPhase}>{ "two phase" }</option>
                    </select>
                </label>
                <label>{ "readiness" }
                    <select onchange={edit_select(|s, v| s.config.readiness = v.parse().unwrap_or_default())}>
                        <option value="eager" selected={c.readiness == Readiness::Eager}>{ "eager: first ready learner" }</option>
                        <option value="stable" selected={c.readiness == Readiness::Stable}>{ "stable: all learners ready" }</option>
                    </select>
                </label>
                <label><Term term="acceptable lag">{ "acceptable lag (records)" }</Term>
                    <input data-testid="config-lag" type="number" min="0" value={c.acceptable_recovery_lag.to_string()}
                        onchange={edit(|s, v| s.config.acceptable_recovery_lag = number(&v).unwrap_or(s.config.acceptable_recovery_lag))} /></label>
                <label><Term term="standby">{ "standby replicas" }</Term>
                    <input type="number" min="0" max="5" value={c.num_standby_replicas.to_string()}
                        onchange={edit(|s, v| s.config.num_standby_replicas = number(&v).unwrap_or(s.config.num_standby_replicas))} /></label>
                <label>{ "max learners (empty: no cap)" }
                    <input type="number" min="1" value={c.max_learners.map(|m| m.to_string()).unwrap_or_default()}
                        onchange={edit(|s, v| s.config.max_learners = number(&v))} /></label>
                <label><Term term="rebalance">{ "rebalance round (ms)" }</Term>
                    <input data-testid="config-rebalance" type="number" min="2" step="100" value={c.rebalance_ms.to_string()}
                        onchange={edit(|s, v| s.config.rebalance_ms = number(&v).unwrap_or(0))} /></label>
                <label><Term term="session timeout">{ "session timeout (ms)" }</Term>
                    <input type="number" min="1" step="1000" value={c.session_timeout_ms.to_string()}
                        onchange={edit(|s, v| s.config.session_timeout_ms = number(&v).unwrap_or(0))} /></label>
                <label>{ "scale-down timeout (ms, empty: none)" }
                    <input type="number" min="1" step="1000" value={c.scale_down_timeout_ms.map(|m| m.to_string()).unwrap_or_default()}
                        onchange={edit(|s, v| s.config.scale_down_timeout_ms = number(&v))} /></label>
                <label class="check">
                    <span><input data-testid="config-static" type="checkbox" checked={c.static_membership}
                        onchange={toggle(|s, on| s.config.static_membership = on)} />
                    { " " }<Term term="static membership">{ "static membership" }</Term></span>
                </label>
                <label class="check">
                    <span><input data-testid="config-rack-aware" type="checkbox" checked={c.rack_aware_standbys}
                        onchange={toggle(|s, on| s.config.rack_aware_standbys = on)} />
                    { " " }<Term term="zone">{ "zone-aware standbys" }</Term></span>
                </label>
                <label><Term term="restore rate">{ "restore rate (records/s)" }</Term>
                    <input type="number" min="1" step="1000" value={c.restore_rate.to_string()}
                        onchange={edit(|s, v| s.config.restore_rate = number(&v).unwrap_or(0))} /></label>
                <label><Term term="warm-up">{ "kip441: max warm-ups" }</Term>
                    <input type="number" min="1" value={c.kip441.max_warmup_replicas.to_string()}
                        onchange={edit(|s, v| s.config.kip441.max_warmup_replicas = number(&v).unwrap_or(0))} /></label>
                <label>{ "kip441: probing interval (ms)" }
                    <input type="number" min="1" step="1000" value={c.kip441.probing_interval_ms.to_string()}
                        onchange={edit(|s, v| s.config.kip441.probing_interval_ms = number(&v).unwrap_or(0))} /></label>
            </div>
            if draft.topology.is_some() || draft.instances.is_some() {
                // The tasks and members come from the application's short forms: edited there.
                <p class="config-note" data-testid="config-application">
                    { "The tasks and members come from the application's topology and instances. " }
                    <button onclick={open_application}>{ "edit your application\u{2026}" }</button>
                </p>
            } else {
                <table class="tasks-table" aria-label="tasks">
                    <thead><tr><th>{ "task" }</th><th>{ "stateful" }</th><th><Term term="changelog">{ "changelog" }</Term></th><th>{ "writes/s" }</th><th></th></tr></thead>
                    <tbody>{ for task_rows }</tbody>
                </table>
                <button onclick={add_task}>{ "+ task" }</button>
                <table class="tasks-table" aria-label="members at the start">
                    <thead><tr><th>{ "member" }</th><th><Term term="capacity">{ "capacity" }</Term></th><th>{ "restore rate" }</th><th><Term term="zone">{ "zone" }</Term></th><th></th></tr></thead>
                    <tbody>{ for member_rows }</tbody>
                </table>
            }
            <div class="toolbar">
                if draft.topology.is_none() && draft.instances.is_none() {
                    <button onclick={add_member}>{ "+ member at start" }</button>
                }
                <button data-testid="apply-config" class="primary" onclick={apply}>{ "Apply and restart" }</button>
            </div>
        </details>
    }
}
