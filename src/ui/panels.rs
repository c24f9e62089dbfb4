//! The panels around the group: the round banner, the member toolbar and legend, live
//! metrics, the log in the seed's notation, the configuration editor and the help.

use crate::engine::coordinator::Round;
use crate::format::{MemberFile, ScenarioFile, TaskFile};
use crate::glossary::{self, GLOSSARY};
use crate::history::invariants::Violation;
use crate::model::{Command, MemberSpec};
use crate::model::{HandoffMode, Readiness, Roster, Strategy};
use crate::views::frame::{PhaseView, RoundView};
use crate::views::metrics::Metrics;
use crate::views::notation;
use yew::prelude::*;

/// A term with its glossary definition as a tooltip.
#[derive(Properties, PartialEq)]
pub struct TermProps {
    /// The glossary term.
    pub term: AttrValue,
    /// The words shown (default: the term).
    #[prop_or_default]
    pub children: Html,
}

/// A term of the glossary, explained on hover and to screen readers.
#[function_component(Term)]
pub fn term(props: &TermProps) -> Html {
    let meaning = glossary::define(&props.term).unwrap_or_default();
    let text = if props.children == Html::default() {
        html! { { props.term.clone() } }
    } else {
        props.children.clone()
    };
    html! { <span class="term" title={meaning} aria-description={meaning}>{ text }</span> }
}

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
        (PhaseView::Syncing, PhaseView::Joining) => "done",
        _ => "",
    };
    html! {
        <div class="banner" data-testid="round">
            <span class="gen"><Term term="generation">{ format!("gen {}", r.generation) }</Term></span>
            <span>{ "leader " }<b data-testid="leader">{ r.leader.clone().unwrap_or_else(|| "none".into()) }</b></span>
            <span class="phases" data-testid="phase" data-phase={r.phase.describe()} aria-label={format!("phase: {}", r.phase.describe())}>
                <span class={phase_class(PhaseView::Stable)}>{ "stable" }</span>
                <span class={phase_class(PhaseView::Joining)}>{ "join" }</span>
                <span class={phase_class(PhaseView::Syncing)}>{ "assign \u{25B8} sync" }</span>
            </span>
            if props.at_rest {
                <span class="badge good" data-testid="at-rest"><Term term="at rest">{ "at rest" }</Term></span>
            }
            if props.balanced {
                <span class="badge good"><Term term="balanced">{ "balanced" }</Term></span>
            } else {
                <span class="badge warn"><Term term="balanced">{ "unbalanced" }</Term></span>
            }
            <span class="cause" data-testid="cause">
                if let Some(index) = r.index {
                    <em>{ format!("{} \u{00B7} ", notation::heading(index).trim_start_matches('#')) }</em>
                    { r.causes.join("; ") }
                } else {
                    { props.quiet.clone() }
                }
            </span>
        </div>
    }
}

/// Properties of the member toolbar.
#[derive(Properties, PartialEq)]
pub struct ToolbarProps {
    /// Names already taken, to pick the next one.
    pub names: Vec<String>,
    /// The default restore rate.
    pub default_rate: u64,
    /// Whether the leader can be crashed.
    pub can_crash_leader: bool,
    /// Carries out a command.
    pub on_command: Callback<Command>,
}

/// The next free member name: S1, S2, ...
pub fn next_member_name(names: &[String]) -> String {
    (1..)
        .map(|i| format!("S{i}"))
        .find(|n| !names.contains(n))
        .unwrap_or_else(|| "S?".into())
}

/// Add a member (with its restore rate and capacity), crash the leader.
#[function_component(MemberToolbar)]
pub fn member_toolbar(props: &ToolbarProps) -> Html {
    let rate = use_state(String::new);
    let capacity = use_state(|| "1".to_string());
    let name = next_member_name(&props.names);
    let add = {
        let (on, rate, capacity, name) = (
            props.on_command.clone(),
            rate.clone(),
            capacity.clone(),
            name.clone(),
        );
        Callback::from(move |_| {
            let restore_rate = rate.trim().parse::<u64>().ok().filter(|&r| r > 0);
            let capacity = capacity
                .trim()
                .parse::<u32>()
                .ok()
                .filter(|&c| c > 0)
                .unwrap_or(1);
            on.emit(Command::Join(MemberSpec {
                name: name.clone(),
                capacity,
                restore_rate,
                zone: None,
            }));
        })
    };
    let crash_leader = props
        .on_command
        .reform(|_: MouseEvent| Command::CrashLeader);
    let on_rate = {
        let rate = rate.clone();
        Callback::from(move |e: InputEvent| {
            rate.set(
                e.target_unchecked_into::<web_sys::HtmlInputElement>()
                    .value(),
            )
        })
    };
    let on_capacity = {
        let capacity = capacity.clone();
        Callback::from(move |e: InputEvent| {
            capacity.set(
                e.target_unchecked_into::<web_sys::HtmlInputElement>()
                    .value(),
            )
        })
    };
    html! {
        <div class="toolbar">
            <button data-testid="add-member" class="primary" onclick={add} title="A new member joins the group now">
                { format!("+ add member {name}") }
            </button>
            <label>{ "restore rate " }
                <input data-testid="add-restore-rate" type="number" min="1" step="1000" placeholder={props.default_rate.to_string()}
                    value={(*rate).clone()} oninput={on_rate} aria-label="restore rate of the new member, records per second" />
            </label>
            <label>{ "capacity " }
                <input data-testid="add-capacity" type="number" min="1" max="16" value={(*capacity).clone()} oninput={on_capacity}
                    aria-label="capacity of the new member" />
            </label>
            <button data-testid="crash-leader" class="danger" disabled={!props.can_crash_leader} onclick={crash_leader}
                title="Kill whichever member leads now">{ "crash leader" }</button>
        </div>
    }
}

/// What each shape means.
#[function_component(Legend)]
pub fn legend() -> Html {
    let chip = |role: &str, extra: &[(&str, &str)], glyph: &str, label: &str, term: &str| {
        let mut attrs = vec![("data-role", role.to_string())];
        attrs.extend(extra.iter().map(|(k, v)| (*k, v.to_string())));
        let get = |k: &str| attrs.iter().find(|(a, _)| *a == k).map(|(_, v)| v.clone());
        html! {
            <span>
                <span class="chip" aria-hidden="true" data-role={get("data-role")} data-up={get("data-up")}
                    data-learned={get("data-learned")} data-ready={get("data-ready")} data-stateful={get("data-stateful")}>
                    <span class="label"><span class="glyph">{ glyph.to_string() }</span>{ "T" }</span>
                </span>
                { " " }<Term term={term.to_string()}>{ label.to_string() }</Term>
            </span>
        }
    };
    html! {
        <div class="legend" aria-label="legend">
            { chip("active", &[("data-up", "true")], "\u{25A0}", "active", "active") }
            { chip("active", &[("data-up", "false")], "\u{25D4}", "restoring (down)", "downtime") }
            { chip("active", &[("data-up", "true"), ("data-learned", "true")], "\u{25A0}", "learned", "learned") }
            { chip("learner", &[], "\u{25D0}", "learner", "learner") }
            { chip("learner", &[("data-ready", "true")], "\u{2713}", "ready", "ready") }
            { chip("standby", &[], "\u{25A2}", "standby", "standby") }
            { chip("active", &[("data-up", "true"), ("data-stateful", "false")], "\u{25CB}", "stateless", "task") }
        </div>
    }
}

/// Properties of the metrics panel.
#[derive(Properties, PartialEq)]
pub struct MetricsProps {
    /// The measures at the clock.
    pub metrics: Metrics,
    /// Task names.
    pub roster: Roster,
    /// When something last happened.
    pub last_change: u64,
}

/// Live measures.
#[function_component(MetricsPanel)]
pub fn metrics_panel(props: &MetricsProps) -> Html {
    let m = &props.metrics;
    let worst = m
        .task_downtime
        .iter()
        .map(|d| d.total_ms)
        .max()
        .unwrap_or(0)
        .max(1);
    html! {
        <section class="panel" aria-labelledby="metrics-title" data-testid="metrics">
            <h2 id="metrics-title">{ "Metrics" }</h2>
            <dl class="metrics">
                <dt><Term term="downtime">{ "total downtime" }</Term></dt>
                <dd data-testid="total-downtime">{ format!("{} ms", m.total_task_downtime_ms) }</dd>
                <dt>{ "longest outage" }</dt><dd>{ format!("{} ms", m.longest_outage_ms) }</dd>
                <dt><Term term="rebalance">{ "rebalances" }</Term></dt><dd data-testid="rebalances">{ m.rebalances }</dd>
                <dt>{ "moves" }</dt><dd>{ m.moves }</dd>
                <dt>{ "records replayed" }</dt><dd>{ m.records_replayed }</dd>
                <dt>{ "since last change" }</dt><dd>{ format!("{} ms", m.at_ms.saturating_sub(props.last_change)) }</dd>
                <dt>{ "time to balance" }</dt>
                <dd>{ m.time_to_balance_ms.map_or("not yet".to_string(), |t| format!("{t} ms")) }</dd>
                <dt>{ "state" }</dt>
                <dd>
                    { if m.at_rest { "at rest" } else { "moving" } }
                    { if m.balanced { ", balanced" } else { ", unbalanced" } }
                </dd>
            </dl>
            <div class="downtime" role="list" aria-label="downtime per task">
                { for m.task_downtime.iter().enumerate().filter(|(_, d)| d.total_ms > 0).map(|(t, d)| {
                    let name = props.roster.tasks.get(t).cloned().unwrap_or_default();
                    let width = format!("width: {:.1}%", d.total_ms as f64 / worst as f64 * 100.0);
                    html! {
                        <div key={name.clone()} role="listitem">
                            <span>{ name }</span>
                            <span class="dbar" style={width}></span>
                            <span>{ format!("{} ms", d.total_ms) }</span>
                        </div>
                    }
                }) }
            </div>
        </section>
    }
}

/// Properties of the log.
#[derive(Properties, PartialEq)]
pub struct LogProps {
    /// Rounds assigned by the clock (with what happened later taken off).
    pub rounds: super::Shared<Vec<Round>>,
    /// Invariant violations seen by the clock.
    pub violations: Vec<Violation>,
    /// Names.
    pub roster: Roster,
    /// Standbys are configured.
    pub standbys: bool,
    /// The lag under which a learner is ready.
    pub ready_lag: u64,
    /// The round in progress or last, highlighted.
    pub current: Option<u32>,
    /// The last line (at rest, balanced).
    pub ending: Option<String>,
    /// The round in its join phase, not yet assigned: (heading, causes).
    pub pending: Option<String>,
    /// Jump the clock.
    pub on_seek: Callback<u64>,
}

/// The rounds in the seed's notation, with violations in red.
#[function_component(LogPanel)]
pub fn log_panel(props: &LogProps) -> Html {
    let round_html = |r: &Round| {
        let text = notation::round(&props.roster, r, props.standbys, props.ready_lag);
        let (heading, body) = text.split_once('\n').unwrap_or((&text, ""));
        let jump = {
            let on = props.on_seek.clone();
            let at = r.started_at;
            Callback::from(move |_| on.emit(at))
        };
        html! {
            <div key={r.index} class={classes!("round", (props.current == Some(r.index)).then_some("current"))}
                data-round={r.index.to_string()} data-at={r.started_at.to_string()}>
                <button class="jump" onclick={jump} title={format!("jump to {} ms", r.started_at)}>{ heading.to_string() }</button>
                { format!("\n{body}") }
            </div>
        }
    };
    let violation_html = |v: &Violation| {
        let jump = {
            let on = props.on_seek.clone();
            let at = v.at_ms;
            Callback::from(move |_| on.emit(at))
        };
        html! {
            <div class="violation" data-testid="violation" role="alert">
                <button class="jump" onclick={jump}>
                    { format!("{} ms{}: {} broken", v.at_ms, v.round.map(|r| format!(" (round {r})")).unwrap_or_default(), v.invariant.name()) }
                </button>
                { format!(" {}", v.detail) }
            </div>
        }
    };
    html! {
        <section class="panel" aria-labelledby="log-title">
            <h2 id="log-title">{ "Log" }</h2>
            <div class="log" data-testid="log" tabindex="0" aria-label="rebalance log in the seed's notation">
                if props.rounds.is_empty() && props.violations.is_empty() && props.pending.is_none() {
                    <div class="end">{ "No rebalance yet." }</div>
                }
                { for props.rounds.iter().map(|r| {
                    let violations: Html = props.violations.iter().filter(|v| v.round == Some(r.index)).map(violation_html).collect();
                    html! { <>{ round_html(r) }{ violations }</> }
                }) }
                { for props.violations.iter().filter(|v| v.round.is_none()).map(violation_html) }
                if let Some(pending) = &props.pending {
                    <div class="pending">{ pending }</div>
                }
                if let Some(end) = &props.ending {
                    <div class="end">{ end }</div>
                }
            </div>
        </section>
    }
}

/// Properties of the configuration editor.
#[derive(Properties, PartialEq)]
pub struct ConfigProps {
    /// The scenario as it was loaded.
    pub scenario: ScenarioFile,
    /// Apply the edited scenario and restart.
    pub on_apply: Callback<ScenarioFile>,
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

/// Edits the configuration, the tasks and the members, then restarts.
#[function_component(ConfigPanel)]
pub fn config_panel(props: &ConfigProps) -> Html {
    let draft = use_state(|| props.scenario.clone());
    {
        // A new scenario (a preset, an import, an applied edit) replaces the draft.
        let draft = draft.clone();
        use_effect_with(props.scenario.clone(), move |scenario| {
            draft.set(scenario.clone())
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
        let (draft, on) = (draft.clone(), props.on_apply.clone());
        Callback::from(move |_| on.emit((*draft).clone()))
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
            zone: None,
        });
    });
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
                e.crash.as_deref() != Some(&removed.id) && e.drain.as_deref() != Some(&removed.id)
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
                <td><button onclick={remove} aria-label={format!("remove {}", m.id)}>{ "\u{2715}" }</button></td>
            </tr>
        }
    });
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
            <table class="tasks-table" aria-label="tasks">
                <thead><tr><th>{ "task" }</th><th>{ "stateful" }</th><th><Term term="changelog">{ "changelog" }</Term></th><th>{ "writes/s" }</th><th></th></tr></thead>
                <tbody>{ for task_rows }</tbody>
            </table>
            <button onclick={add_task}>{ "+ task" }</button>
            <table class="tasks-table" aria-label="members at the start">
                <thead><tr><th>{ "member" }</th><th><Term term="capacity">{ "capacity" }</Term></th><th>{ "restore rate" }</th><th></th></tr></thead>
                <tbody>{ for member_rows }</tbody>
            </table>
            <div class="toolbar">
                <button onclick={add_member}>{ "+ member at start" }</button>
                <button data-testid="apply-config" class="primary" onclick={apply}>{ "Apply and restart" }</button>
            </div>
        </details>
    }
}

/// Properties of the help dialog.
#[derive(Properties, PartialEq)]
pub struct HelpProps {
    /// Single-key shortcuts are on.
    pub shortcuts: bool,
    /// Chip movements animate.
    pub motion: bool,
    /// Turn shortcuts on or off.
    pub on_shortcuts: Callback<bool>,
    /// Turn animation on or off.
    pub on_motion: Callback<bool>,
    /// Close.
    pub on_close: Callback<()>,
}

/// Keyboard shortcuts, settings and the glossary.
#[function_component(HelpDialog)]
pub fn help_dialog(props: &HelpProps) -> Html {
    let close = props.on_close.reform(|_: MouseEvent| ());
    let toggle = {
        let (on, value) = (props.on_shortcuts.clone(), props.shortcuts);
        Callback::from(move |_| on.emit(!value))
    };
    let motion = {
        let (on, value) = (props.on_motion.clone(), props.motion);
        Callback::from(move |_| on.emit(!value))
    };
    html! {
        <div class="dialog-backdrop">
            <div class="dialog" role="dialog" aria-modal="true" aria-labelledby="help-title" data-testid="help">
                <h2 id="help-title">{ "Help" }</h2>
                <table>
                    <tr><th><kbd>{ "space" }</kbd></th><td>{ "play or pause" }</td></tr>
                    <tr><th><kbd>{ "\u{2192}" }</kbd>{ " " }<kbd>{ "\u{2190}" }</kbd></th><td>{ "next event, previous event" }</td></tr>
                    <tr><th><kbd>{ "1" }</kbd>{ " \u{2026} " }<kbd>{ "7" }</kbd></th><td>{ "speed 0.25\u{00D7} to 16\u{00D7}" }</td></tr>
                    <tr><th><kbd>{ "?" }</kbd></th><td>{ "this help" }</td></tr>
                    <tr><th><kbd>{ "Esc" }</kbd></th><td>{ "close" }</td></tr>
                </table>
                <p>
                    <label><input type="checkbox" data-testid="shortcuts-toggle" checked={props.shortcuts} onchange={toggle} />
                        { " single-key shortcuts (turn off if they get in the way of your screen reader or voice control)" }</label>
                </p>
                <p>
                    <label><input type="checkbox" checked={props.motion} onchange={motion} />{ " animate tasks moving between members" }</label>
                </p>
                <h3>{ "Glossary" }</h3>
                <dl>
                    { for GLOSSARY.iter().map(|e| html! { <><dt><b>{ e.term }</b></dt><dd>{ e.meaning }</dd></> }) }
                </dl>
                <button class="primary" onclick={close} autofocus=true>{ "Close" }</button>
            </div>
        </div>
    }
}
