//! The application form, as a dialog: subtopologies (partitions, changelog sizes, write
//! rates) and instances (count, threads, zones), the totals they give and each problem on one
//! line under its row, all live as the person types; applying restarts the session.
//!
//! Test ids: `application-summary` and `application-open` (beside the group), `application`
//! (the dialog), `app-name`, `app-seed`, per subtopology `i`
//! `app-sub-name-i`, `app-partitions-i`, `app-stateful-i`, `app-min-i`, `app-max-i`,
//! `app-distribution-i`, `app-write-rate-i`, `app-remove-i`; `app-add-subtopology`,
//! `app-count`, `app-threads`, `app-zones`, `app-restore-rate`, `app-running`,
//! `app-keep-commands`, `app-totals`, `app-error` (one per problem, with `data-field`),
//! `app-problem`, `app-apply`, `app-close`.

use crate::playground::{
    Action, ApplicationForm, Field, FieldError, FormAction, SubtopologyDraft, Totals,
};
use crate::views::units::grouped;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// Properties of the application dialog.
#[derive(Properties, PartialEq)]
pub struct ApplicationProps {
    /// The form: the draft, its totals and problems.
    pub form: ApplicationForm,
    /// Carries out an action (edit, apply, close).
    pub on_action: Callback<Action>,
}

/// Properties of the application's summary.
#[derive(Properties, PartialEq)]
pub struct SummaryProps {
    /// The application in a few words.
    pub summary: AttrValue,
    /// Carries out an action (open the form).
    pub on_action: Callback<Action>,
}

/// The application in a few words, and the button that opens its form.
#[function_component(ApplicationSummary)]
pub fn application_summary(props: &SummaryProps) -> Html {
    let open = props
        .on_action
        .reform(|_: MouseEvent| Action::Application(FormAction::Open));
    html! {
        <section class="panel app-summary" aria-labelledby="app-summary-title">
            <h2 id="app-summary-title">{ "Application" }</h2>
            <p>
                <span data-testid="application-summary">{ props.summary.clone() }</span>
                <button data-testid="application-open" onclick={open}
                    title="Describe your application: subtopologies, partitions, changelog sizes, write rates, instances, threads, zones">
                    { "describe yours\u{2026}" }
                </button>
            </p>
        </section>
    }
}

/// A number of the totals, or a dash while its fields do not read.
fn total(n: Option<u64>) -> String {
    n.map_or("\u{2013}".to_string(), grouped)
}

/// The id of the element listing the problems under `prefix`.
fn errors_id(prefix: &str) -> String {
    let id: String = prefix
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    format!("app-errors-{id}")
}

/// Problems, one line each, listed under the id their fields are described by.
fn problems<'a>(errors: impl Iterator<Item = &'a FieldError>, prefix: &str) -> Html {
    let lines: Vec<Html> = errors
        .map(|e| {
            html! {
                <li data-testid="app-error" data-field={e.field.clone()}>
                    <code>{ e.field.clone() }</code>{ format!(": {}", e.reason) }
                </li>
            }
        })
        .collect();
    if lines.is_empty() {
        return html! {};
    }
    html! { <ul class="app-errors" id={errors_id(prefix)}>{ for lines }</ul> }
}

/// The problems of exactly this field.
fn problems_at(form: &ApplicationForm, field: &str) -> Html {
    problems(form.errors.iter().filter(|e| e.field == field), field)
}

/// A field's test id: `app-partitions-2`.
fn testid(field: Field) -> String {
    let sub = |name: &str, i: usize| format!("app-{name}-{i}");
    match field {
        Field::Name => "app-name".into(),
        Field::Seed => "app-seed".into(),
        Field::SubtopologyName(i) => sub("sub-name", i),
        Field::Partitions(i) => sub("partitions", i),
        Field::Stateful(i) => sub("stateful", i),
        Field::Min(i) => sub("min", i),
        Field::Max(i) => sub("max", i),
        Field::Distribution(i) => sub("distribution", i),
        Field::WriteRate(i) => sub("write-rate", i),
        Field::Cleanup(i) => sub("cleanup", i),
        Field::Retention(i) => sub("retention", i),
        Field::KeyGrowth(i) => sub("key-growth", i),
        Field::Count => "app-count".into(),
        Field::Threads => "app-threads".into(),
        Field::Zones => "app-zones".into(),
        Field::RestoreRate => "app-restore-rate".into(),
        Field::Running => "app-running".into(),
        Field::KeepCommands => "app-keep-commands".into(),
    }
}

/// Where a field's problems are listed: its subtopology's row, the instances, or its own.
fn group(field: Field) -> String {
    match field {
        Field::SubtopologyName(i)
        | Field::Partitions(i)
        | Field::Stateful(i)
        | Field::Min(i)
        | Field::Max(i)
        | Field::Distribution(i)
        | Field::WriteRate(i)
        | Field::Cleanup(i)
        | Field::Retention(i)
        | Field::KeyGrowth(i) => format!("topology.subtopologies[{i}]"),
        Field::Count | Field::Threads | Field::Zones | Field::RestoreRate | Field::Running => {
            "instances".into()
        }
        other => other.path(),
    }
}

/// A text field: its value as typed, marked invalid and described by its group's problems.
/// (One copy of this code serves every field: it is not inlined.)
#[inline(never)]
fn text_input(on: &Callback<Action>, form: &ApplicationForm, field: Field, label: String) -> Html {
    let oninput = on.reform(move |e: InputEvent| {
        Action::Application(FormAction::Edit(
            field,
            e.target_unchecked_into::<web_sys::HtmlInputElement>()
                .value(),
        ))
    });
    let numeric = !matches!(
        field,
        Field::Name | Field::SubtopologyName(_) | Field::Zones
    );
    let invalid = form.invalid(field);
    html! {
        <input type="text" data-testid={testid(field)} value={form.draft.get(field)} aria-label={label} {oninput}
            inputmode={numeric.then_some("numeric")} spellcheck="false" autocomplete="off"
            aria-invalid={invalid.then_some("true")}
            aria-describedby={invalid.then(|| errors_id(&group(field)))} />
    }
}

/// A checkbox of the form.
#[inline(never)]
fn checkbox(on: &Callback<Action>, form: &ApplicationForm, field: Field, label: String) -> Html {
    let onchange = on.reform(move |e: Event| {
        Action::Application(FormAction::Edit(
            field,
            e.target_unchecked_into::<web_sys::HtmlInputElement>()
                .checked()
                .to_string(),
        ))
    });
    html! {
        <input type="checkbox" data-testid={testid(field)} checked={form.draft.get(field) == "true"}
            aria-label={label} {onchange} />
    }
}

/// How the sizes of a subtopology's changelogs spread: uniform or zipf.
fn distribution_select(
    on: &Callback<Action>,
    form: &ApplicationForm,
    i: usize,
    s: &SubtopologyDraft,
    named: &str,
) -> Html {
    let distribution = on.reform(move |e: Event| {
        Action::Application(FormAction::Edit(
            Field::Distribution(i),
            e.target_unchecked_into::<web_sys::HtmlSelectElement>()
                .value(),
        ))
    });
    html! {
        <select data-testid={format!("app-distribution-{i}")} aria-label={format!("how sizes spread in {named}")} onchange={distribution}
            aria-invalid={form.invalid(Field::Distribution(i)).then_some("true")}>
            <option value="uniform" selected={s.distribution == "uniform"}>{ "uniform" }</option>
            <option value="zipf" selected={s.distribution == "zipf"}>{ "zipf: a few hot" }</option>
        </select>
    }
}

/// How a subtopology's changelogs keep records: compacted, windowed or append-only.
fn cleanup_select(
    on: &Callback<Action>,
    form: &ApplicationForm,
    i: usize,
    s: &SubtopologyDraft,
    named: &str,
) -> Html {
    let cleanup = on.reform(move |e: Event| {
        Action::Application(FormAction::Edit(
            Field::Cleanup(i),
            e.target_unchecked_into::<web_sys::HtmlSelectElement>()
                .value(),
        ))
    });
    let option = |value: &'static str, label: &'static str| {
        html! { <option value={value} selected={s.cleanup == value}>{ label }</option> }
    };
    html! {
        <select data-testid={format!("app-cleanup-{i}")} aria-label={format!("how the changelogs of {named} keep records")} onchange={cleanup}
            aria-invalid={form.invalid(Field::Cleanup(i)).then_some("true")}>
            { option("compact", "compact (keys)") }
            { option("compact,delete", "compact,delete (windowed)") }
            { option("append", "append only") }
        </select>
    }
}

/// A subtopology's row of the table, and the row of its problems under it when it has any.
fn subtopology_row(
    on: &Callback<Action>,
    form: &ApplicationForm,
    i: usize,
    s: &SubtopologyDraft,
) -> Html {
    let text = |field: Field, label: String| text_input(on, form, field, label);
    let flag = |field: Field, label: String| checkbox(on, form, field, label);
    let prefix = format!("topology.subtopologies[{i}]");
    let named = if s.name.trim().is_empty() {
        format!("subtopology {i}")
    } else {
        s.name.clone()
    };
    let remove =
        on.reform(move |_: MouseEvent| Action::Application(FormAction::RemoveSubtopology(i)));
    let stateless = !s.stateful;
    html! {
        <>
            <tr key={format!("sub-{i}")} class={classes!(stateless.then_some("stateless"))}>
                <th scope="row">{ i }</th>
                <td>{ text(Field::SubtopologyName(i), format!("name of subtopology {i}")) }</td>
                <td>{ text(Field::Partitions(i), format!("partitions of {named}")) }</td>
                <td class="flag">{ flag(Field::Stateful(i), format!("{named} is stateful")) }</td>
                if stateless {
                    <td colspan="7" class="muted">{ "no state: nothing to restore" }</td>
                } else {
                    <td>{ text(Field::Min(i), format!("smallest changelog of {named}, records")) }</td>
                    <td>{ text(Field::Max(i), format!("largest changelog of {named}, records")) }</td>
                    <td>{ distribution_select(on, form, i, s, &named) }</td>
                    <td>{ text(Field::WriteRate(i), format!("records per second each task of {named} writes")) }</td>
                    <td>{ cleanup_select(on, form, i, s, &named) }</td>
                    <td>{ text(Field::Retention(i), format!("how long the windowed changelogs of {named} keep records, ms")) }</td>
                    <td>{ text(Field::KeyGrowth(i), format!("keys per second each store of {named} gains")) }</td>
                }
                <td>
                    <button data-testid={format!("app-remove-{i}")} onclick={remove} disabled={form.draft.subtopologies.len() == 1}
                        aria-label={format!("remove {named}")}>{ "\u{2715}" }</button>
                </td>
            </tr>
            if form.errors_under(&prefix).next().is_some() {
                <tr key={format!("errors-{i}")} class="errors-row"><td></td><td colspan="11">{ problems(form.errors_under(&prefix), &prefix) }</td></tr>
            }
        </>
    }
}

/// The table of subtopologies, one row each.
fn subtopology_table(on: &Callback<Action>, form: &ApplicationForm) -> Html {
    let rows = form
        .draft
        .subtopologies
        .iter()
        .enumerate()
        .map(|(i, s)| subtopology_row(on, form, i, s));
    html! {
        <table class="app-table" aria-label="subtopologies">
            <thead><tr>
                <th scope="col">{ "#" }</th><th scope="col">{ "subtopology" }</th><th scope="col">{ "partitions" }</th>
                <th scope="col">{ "stateful" }</th><th scope="col">{ "changelog min" }</th><th scope="col">{ "max (records)" }</th>
                <th scope="col">{ "sizes" }</th><th scope="col">{ "writes/s per task" }</th>
                <th scope="col">{ "cleanup" }</th><th scope="col">{ "retention ms" }</th><th scope="col">{ "new keys/s" }</th><th></th>
            </tr></thead>
            <tbody>{ for rows }</tbody>
        </table>
    }
}

/// The instances: how many, their threads, zones and restore rate, and their problems.
fn instances_fieldset(on: &Callback<Action>, form: &ApplicationForm) -> Html {
    let text = |field: Field, label: String| text_input(on, form, field, label);
    html! {
        <fieldset class="app-instances">
            <legend>{ "Instances" }</legend>
            <label>{ "count " }{ text(Field::Count, "number of instances".into()) }</label>
            <label>{ "threads each " }{ text(Field::Threads, "stream threads per instance".into()) }</label>
            <label>{ "zones " }{ text(Field::Zones, "zones, dealt in turn (for example: a, b, c)".into()) }</label>
            <label>{ "restore rate " }{ text(Field::RestoreRate, "records per second each instance restores (empty: the configuration's)".into()) }</label>
            <label class="check">{ checkbox(on, form, Field::Running, "the instances already run the application, caught up".into()) }
                { " already running, caught up" }</label>
            { problems(form.errors_under("instances"), "instances") }
        </fieldset>
    }
}

/// The totals the draft gives: tasks, changelog records, instances and threads.
fn totals_line(t: &Totals) -> Html {
    html! {
        <p class="app-totals" data-testid="app-totals" aria-live="polite">
            <b>{ total(t.tasks) }</b>{ " tasks (" }<b>{ total(t.stateful) }</b>{ " stateful), " }
            <b>{ total(t.changelog) }</b>{ " changelog records, " }
            <b>{ total(t.instances) }</b>{ " instances, " }<b>{ total(t.threads) }</b>{ " threads" }
        </p>
    }
}

/// Close, and apply while the draft has no problem (else how many are left to fix).
fn dialog_toolbar(on: &Callback<Action>, form: &ApplicationForm) -> Html {
    let close = on.reform(|_: MouseEvent| Action::Application(FormAction::Close));
    let apply = on.reform(|_: MouseEvent| Action::Application(FormAction::Apply));
    html! {
        <div class="toolbar">
            <button data-testid="app-close" onclick={close}>{ "Close" }</button>
            <button data-testid="app-apply" class="primary" onclick={apply} disabled={!form.errors.is_empty()}>
                { "Apply and restart" }
            </button>
            if !form.errors.is_empty() {
                <span class="muted">{ format!("{} to fix first", if form.errors.len() == 1 { "1 problem".to_string() } else { format!("{} problems", form.errors.len()) }) }</span>
            }
        </div>
    }
}

/// Describes the application and restarts with it.
#[function_component(ApplicationDialog)]
pub fn application_dialog(props: &ApplicationProps) -> Html {
    let form = &props.form;
    let on = &props.on_action;
    use_effect_with((), move |_| {
        // The first field has the focus when the dialog opens.
        let first = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.query_selector("[data-testid=app-name]").ok().flatten())
            .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok());
        if let Some(first) = first {
            let _ = first.focus();
        }
    });
    let text = |field: Field, label: String| text_input(on, form, field, label);
    let add = on.reform(|_: MouseEvent| Action::Application(FormAction::AddSubtopology));
    let on_key = {
        let on = on.clone();
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Escape" {
                e.stop_propagation();
                on.emit(Action::Application(FormAction::Close));
            }
        })
    };
    html! {
        <div class="dialog-backdrop">
            <div class="dialog application" role="dialog" aria-modal="true" aria-labelledby="app-title" data-testid="application"
                onkeydown={on_key}>
                <h2 id="app-title">{ "Your application" }</h2>
                <p class="hint">
                    { "Describe it as Kafka Streams sees it: each subtopology has one task per input partition (tasks " }
                    <code>{ "0_0" }</code>{ ", " }<code>{ "0_1" }</code>
                    { ", \u{2026}), changelog sizes drawn between min and max from the seed; the instances run them with their threads, in zones dealt in turn. The configuration is kept." }
                </p>
                <div class="app-line">
                    <label>{ "name " }{ text(Field::Name, "name of the scenario".into()) }</label>
                    <label>{ "seed " }{ text(Field::Seed, "seed of the changelog sizes".into()) }</label>
                </div>
                { problems_at(form, "name") }
                { problems_at(form, "topology.seed") }
                { subtopology_table(on, form) }
                <button data-testid="app-add-subtopology" onclick={add}>{ "+ subtopology" }</button>
                { problems_at(form, "topology") }
                { problems_at(form, "topology.subtopologies") }
                { instances_fieldset(on, form) }
                if form.commands > 0 {
                    <label class="check">{ checkbox(on, form, Field::KeepCommands, format!("keep the {} scheduled commands", form.commands)) }
                        { format!(" keep the {} scheduled commands", form.commands) }</label>
                }
                { totals_line(&form.totals) }
                if let Some(problem) = &form.problem {
                    <p class="app-problem" role="alert" data-testid="app-problem">{ problem.clone() }</p>
                }
                { dialog_toolbar(on, form) }
            </div>
        </div>
    }
}
