//! The configuration editor: the playground's configuration form (the config, the tasks and
//! the starting members of the scenario, as typed) drawn with each problem beside its field,
//! applied with a restart. It decides nothing: every edit goes to the playground, which reads
//! and checks it. Its tables can hold hundreds of rows, so they are drawn only while it is
//! open.

use super::term::term;
use crate::model::{HandoffMode, Readiness, Strategy};
use crate::playground::{Action, ConfigAction, ConfigField, ConfigForm, FormAction};
use crate::views::strategy_label;
use yew::prelude::*;

/// Properties of the configuration editor.
#[derive(Properties, PartialEq)]
pub struct ConfigProps {
    /// The form, while the editor is open.
    pub form: Option<ConfigForm>,
    /// Carries out an action (edit, apply).
    pub on_action: Callback<Action>,
}

/// The action of editing a field.
fn edit(field: ConfigField, text: String) -> Action {
    Action::Config(ConfigAction::Edit(field, text))
}

/// The id of a field's problem line, for `aria-describedby`.
fn error_id(field: ConfigField) -> String {
    format!(
        "config-error-{}",
        field.path().replace(['.', '[', ']'], "-")
    )
}

/// A field's problem, in one line beside it.
fn problem(form: &ConfigForm, field: ConfigField) -> Html {
    match form.error(field) {
        Some(e) => html! {
            <span class="app-error" id={error_id(field)} data-testid="config-error">{ e.to_string() }</span>
        },
        None => html! {},
    }
}

/// A text field: its value as typed, marked invalid and described by its problem.
#[inline(never)]
fn text_input(
    on: &Callback<Action>,
    form: &ConfigForm,
    field: ConfigField,
    label: String,
    testid: Option<&'static str>,
    placeholder: Option<&'static str>,
) -> Html {
    let oninput = on.reform(move |e: InputEvent| {
        edit(
            field,
            e.target_unchecked_into::<web_sys::HtmlInputElement>()
                .value(),
        )
    });
    let invalid = form.error(field).is_some();
    let numeric = !matches!(field, ConfigField::MemberZone(_));
    html! {
        <input type="text" data-testid={testid} value={form.draft.get(field)} aria-label={label} {oninput}
            inputmode={numeric.then_some("numeric")} placeholder={placeholder} spellcheck="false" autocomplete="off"
            class={classes!((!numeric).then_some("zone"))}
            aria-invalid={invalid.then_some("true")}
            aria-describedby={invalid.then(|| error_id(field))} />
    }
}

/// A checkbox of the form.
#[inline(never)]
fn checkbox(
    on: &Callback<Action>,
    form: &ConfigForm,
    field: ConfigField,
    label: String,
    testid: Option<&'static str>,
) -> Html {
    let onchange = on.reform(move |e: Event| {
        edit(
            field,
            e.target_unchecked_into::<web_sys::HtmlInputElement>()
                .checked()
                .to_string(),
        )
    });
    html! {
        <input type="checkbox" data-testid={testid} checked={form.draft.get(field) == "true"}
            aria-label={label} {onchange} />
    }
}

/// A choice among a setting's named values.
fn select(
    on: &Callback<Action>,
    form: &ConfigForm,
    field: ConfigField,
    choices: &[(&'static str, String)],
    testid: Option<&'static str>,
) -> Html {
    let onchange = on.reform(move |e: Event| {
        edit(
            field,
            e.target_unchecked_into::<web_sys::HtmlSelectElement>()
                .value(),
        )
    });
    let current = form.draft.get(field);
    html! {
        <select data-testid={testid} {onchange}>
            { for choices.iter().map(|(value, words)| html! {
                <option value={*value} selected={current == *value}>{ words.clone() }</option>
            }) }
        </select>
    }
}

/// One labelled setting with its problem.
fn setting(label: Html, input: Html, problem: Html) -> Html {
    html! { <label>{ label }{ input }{ problem }</label> }
}

/// The configuration's settings.
fn settings(on: &Callback<Action>, form: &ConfigForm) -> Html {
    use ConfigField as F;
    let strategies: Vec<(&'static str, String)> = Strategy::ALL
        .iter()
        .map(|&s| (s.name(), strategy_label(s)))
        .collect();
    let handoffs = [
        (
            <&str>::from(HandoffMode::ReleaseAtJoin),
            "release at join".into(),
        ),
        (<&str>::from(HandoffMode::TwoPhase), "two phase".into()),
    ];
    let readiness = [
        (
            <&str>::from(Readiness::Eager),
            "eager: first ready learner".into(),
        ),
        (
            <&str>::from(Readiness::Stable),
            "stable: all learners ready".into(),
        ),
    ];
    // The strategy chosen, if Kafka has not released it, says so under its choice.
    let caveat = form
        .draft
        .get(F::Strategy)
        .parse::<Strategy>()
        .ok()
        .and_then(Strategy::caveat);
    let strategy_problem = html! {
        <>
            { problem(form, F::Strategy) }
            if let Some(caveat) = caveat {
                <span class="caveat-line" data-testid="config-caveat">{ caveat }</span>
            }
        </>
    };
    html! {
        <div class="config-grid">
            { setting(html! { "strategy" }, select(on, form, F::Strategy, &strategies, Some("config-strategy")), strategy_problem) }
            { setting(term("release at join", "handoff"), select(on, form, F::Handoff, &handoffs, None), problem(form, F::Handoff)) }
            { setting(html! { "readiness" }, select(on, form, F::Readiness, &readiness, None), problem(form, F::Readiness)) }
            { for GROUP_SETTINGS.iter().map(|s| number_setting(on, form, s)) }
            <label class="check">
                <span>{ checkbox(on, form, F::StaticMembership, "static membership".into(), Some("config-static")) }
                { " " }{ term("static membership", "static membership") }</span>
            </label>
            <label class="check">
                <span>{ checkbox(on, form, F::RackAwareStandbys, "zone-aware standbys".into(), Some("config-rack-aware")) }
                { " " }{ term("zone", "zone-aware standbys") }</span>
            </label>
            { for RATE_SETTINGS.iter().map(|s| number_setting(on, form, s)) }
        </div>
    }
}

/// A setting typed as a number: its field, the glossary term its words link to, its words,
/// its test id and the placeholder of an optional one.
type NumberSetting = (
    ConfigField,
    Option<&'static str>,
    &'static str,
    Option<&'static str>,
    Option<&'static str>,
);

/// The numbers of the group's rules and rounds, in the order the form shows them.
const GROUP_SETTINGS: [NumberSetting; 6] = [
    (
        ConfigField::AcceptableLag,
        Some("acceptable lag"),
        "acceptable lag (records)",
        Some("config-lag"),
        None,
    ),
    (
        ConfigField::Standbys,
        Some("standby"),
        "standby replicas",
        None,
        None,
    ),
    (
        ConfigField::MaxLearners,
        None,
        "max learners",
        None,
        Some("no cap"),
    ),
    (
        ConfigField::Rebalance,
        Some("rebalance"),
        "rebalance round (ms)",
        Some("config-rebalance"),
        None,
    ),
    (
        ConfigField::SessionTimeout,
        Some("session timeout"),
        "session timeout (ms)",
        None,
        None,
    ),
    (
        ConfigField::ScaleDownTimeout,
        None,
        "scale-down timeout (ms)",
        None,
        Some("none"),
    ),
];

/// The numbers of restoring, of Kafka's warm-ups and of its streams protocol, after the
/// membership's checkboxes.
const RATE_SETTINGS: [NumberSetting; 5] = [
    (
        ConfigField::RestoreRate,
        Some("restore rate"),
        "restore rate (records/s)",
        None,
        None,
    ),
    (
        ConfigField::MaxWarmups,
        Some("warm-up"),
        "kip441: max warm-ups",
        None,
        None,
    ),
    (
        ConfigField::ProbingInterval,
        None,
        "kip441: probing interval (ms)",
        None,
        None,
    ),
    (
        ConfigField::StreamsHeartbeat,
        Some("heartbeat"),
        "kip1071: heartbeat interval (ms)",
        None,
        None,
    ),
    (
        ConfigField::StreamsWarmups,
        Some("refiner"),
        "kip1071-warmup: max warm-ups",
        None,
        None,
    ),
];

/// One setting typed as a number, labelled, with its problem.
#[inline(never)]
fn number_setting(
    on: &Callback<Action>,
    form: &ConfigForm,
    &(field, glossary, words, testid, placeholder): &NumberSetting,
) -> Html {
    let label = match glossary {
        Some(glossary) => term(glossary, words),
        None => html! { { words } },
    };
    let input = text_input(on, form, field, words.to_string(), testid, placeholder);
    setting(label, input, problem(form, field))
}

/// The tasks' and the starting members' tables.
fn tables(on: &Callback<Action>, form: &ConfigForm) -> Html {
    use ConfigField as F;
    let task_rows = form.draft.tasks.iter().enumerate().map(|(i, t)| {
        let remove = on.reform(move |_: MouseEvent| Action::Config(ConfigAction::RemoveTask(i)));
        html! {
            <tr key={t.id.clone()}>
                <td>{ &t.id }</td>
                <td>{ checkbox(on, form, F::TaskStateful(i), format!("{} is stateful", t.id), None) }</td>
                <td>{ text_input(on, form, F::TaskChangelog(i), format!("changelog records of {}", t.id), None, None) }
                    { problem(form, F::TaskChangelog(i)) }</td>
                <td>{ text_input(on, form, F::TaskWriteRate(i), format!("write rate of {}", t.id), None, None) }
                    { problem(form, F::TaskWriteRate(i)) }</td>
                <td><button onclick={remove} aria-label={format!("remove {}", t.id)}>{ "\u{2715}" }</button></td>
            </tr>
        }
    });
    let member_rows = form.draft.members.iter().enumerate().map(|(i, m)| {
        let remove = on.reform(move |_: MouseEvent| Action::Config(ConfigAction::RemoveMember(i)));
        html! {
            <tr key={m.id.clone()}>
                <td>{ &m.id }</td>
                <td>{ text_input(on, form, F::MemberCapacity(i), format!("capacity of {}", m.id), None, None) }
                    { problem(form, F::MemberCapacity(i)) }</td>
                <td>{ text_input(on, form, F::MemberRestoreRate(i), format!("restore rate of {}", m.id), None, Some("default")) }
                    { problem(form, F::MemberRestoreRate(i)) }</td>
                <td>{ text_input(on, form, F::MemberZone(i), format!("zone of {}", m.id), Some("config-zone"), Some("none")) }
                    { problem(form, F::MemberZone(i)) }</td>
                <td><button onclick={remove} aria-label={format!("remove {}", m.id)}>{ "\u{2715}" }</button></td>
            </tr>
        }
    });
    let add_task = on.reform(|_: MouseEvent| Action::Config(ConfigAction::AddTask));
    html! {
        <>
            <table class="tasks-table" aria-label="tasks">
                <thead><tr><th>{ "task" }</th><th>{ "stateful" }</th><th>{ term("changelog", "changelog") }</th><th>{ "writes/s" }</th><th></th></tr></thead>
                <tbody>{ for task_rows }</tbody>
            </table>
            <button onclick={add_task}>{ "+ task" }</button>
            <table class="tasks-table" aria-label="members at the start">
                <thead><tr><th>{ "member" }</th><th>{ term("capacity", "capacity") }</th><th>{ "restore rate" }</th><th>{ term("zone", "zone") }</th><th></th></tr></thead>
                <tbody>{ for member_rows }</tbody>
            </table>
        </>
    }
}

/// Edits the configuration, the tasks and the members, then restarts.
#[function_component(ConfigPanel)]
pub fn config_panel(props: &ConfigProps) -> Html {
    let on = &props.on_action;
    let on_toggle = on.reform(|e: Event| {
        let open = e
            .target_unchecked_into::<web_sys::HtmlDetailsElement>()
            .open();
        Action::Config(if open {
            ConfigAction::Open
        } else {
            ConfigAction::Close
        })
    });
    let Some(form) = &props.form else {
        return html! {
            <details class="panel config" ontoggle={on_toggle}>
                <summary data-testid="config-open">{ "Configuration, tasks and members" }</summary>
            </details>
        };
    };
    let apply = on.reform(|_: MouseEvent| Action::Config(ConfigAction::Apply));
    let add_member = on.reform(|_: MouseEvent| Action::Config(ConfigAction::AddMember));
    let open_application = on.reform(|_: MouseEvent| Action::Application(FormAction::Open));
    let from_application = form.draft.from_application();
    html! {
        <details class="panel config" open=true ontoggle={on_toggle}>
            <summary data-testid="config-open">{ "Configuration, tasks and members" }</summary>
            { settings(on, form) }
            if from_application {
                <p class="config-note" data-testid="config-application">
                    { "The tasks and members come from the application's topology and instances. " }
                    <button onclick={open_application}>{ "edit your application\u{2026}" }</button>
                </p>
            } else {
                { tables(on, form) }
            }
            { for form.other_errors().map(|e| html! { <p class="app-error" data-testid="config-error">{ e.to_string() }</p> }) }
            if let Some(problem) = &form.problem {
                <p class="app-error" role="alert" data-testid="config-problem">{ problem }</p>
            }
            <div class="toolbar">
                if !from_application {
                    <button onclick={add_member}>{ "+ member at start" }</button>
                }
                <button data-testid="apply-config" class="primary" onclick={apply}>{ "Apply and restart" }</button>
            </div>
        </details>
    }
}
