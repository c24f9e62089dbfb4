//! The top bar (scenario, compare, tours, share, import and export, theme, help) and the
//! messages under it (the error, the notice with a share link).

use super::dom;
use super::hooks::maybe;
use crate::playground::link::ViewMode;
use crate::playground::tour::TOURS;
use crate::playground::{Action, Export, Preference, Theme, TourAction};
use crate::presets::PRESETS;
use yew::prelude::*;

/// Properties of the top bar.
#[derive(Properties, PartialEq)]
pub struct TopBarProps {
    /// The preset loaded, if the scenario is one.
    pub preset: Option<&'static str>,
    /// Single or compare.
    pub view: ViewMode,
    /// The colour theme.
    pub theme: Theme,
    /// Compact chrome for embedding.
    pub embed: bool,
    /// Carries out an action.
    pub on_action: Callback<Action>,
}

/// Scenario, view, tours, share, files, theme, help.
#[function_component(TopBar)]
pub fn top_bar(props: &TopBarProps) -> Html {
    let on = &props.on_action;
    let on_preset = on.reform(|e: Event| {
        Action::Preset(
            e.target_unchecked_into::<web_sys::HtmlSelectElement>()
                .value(),
        )
    });
    let on_tour = maybe(on, |e: Event| {
        let select = e.target_unchecked_into::<web_sys::HtmlSelectElement>();
        let id = select.value();
        select.set_value("");
        (!id.is_empty()).then_some(Action::Tour(TourAction::Start(id)))
    });
    let view = props.view;
    let on_view = on.reform(move |_: MouseEvent| Action::View(view.toggled(ViewMode::Compare)));
    let on_sweep = on.reform(move |_: MouseEvent| Action::View(view.toggled(ViewMode::Sweep)));
    let on_share = on.reform(|_: MouseEvent| Action::Export(Export::Share(dom::address())));
    let on_export = on.reform(|_: MouseEvent| Action::Export(Export::Scenario));
    let on_export_log = on.reform(|_: MouseEvent| Action::Export(Export::Log));
    let on_export_report = on.reform(|_: MouseEvent| Action::Export(Export::Report));
    let on_new_session = on.reform(|_: MouseEvent| Action::NewSession);
    let dark = props.theme == Theme::Dark;
    let on_theme = on.reform(move |_: MouseEvent| {
        Action::Preference(Preference::Theme(if dark {
            Theme::Light
        } else {
            Theme::Dark
        }))
    });
    let on_help = on.reform(|_: MouseEvent| Action::Help(true));
    let on_import = {
        let on = on.clone();
        Callback::from(move |e: Event| {
            let input = e.target_unchecked_into::<web_sys::HtmlInputElement>();
            let on = on.clone();
            wasm_bindgen_futures::spawn_local(async move {
                let name = input
                    .files()
                    .and_then(|f| f.get(0))
                    .map(|f| f.name())
                    .unwrap_or_default();
                on.emit(match dom::read_file(input.clone()).await {
                    Some(text) => Action::Import { name, text },
                    None => Action::Unreadable(name),
                });
                input.set_value("");
            });
        })
    };
    html! {
        <header class="topbar">
            <h1>{ "Handoff" }</h1>
            <label for="preset">{ "scenario" }</label>
            <select id="preset" data-testid="preset" onchange={on_preset}>
                if props.preset.is_none() {
                    <option value="" selected=true>{ "custom" }</option>
                }
                { for PRESETS.iter().map(|p| html! {
                    <option value={p.id} selected={props.preset == Some(p.id)}>{ p.name }</option>
                }) }
            </select>
            <button data-testid="view-toggle" aria-pressed={(props.view == ViewMode::Compare).to_string()} onclick={on_view}
                title="Run the same commands under several strategies side by side">
                { "compare" }
            </button>
            <button data-testid="sweep-toggle" class="full-only" aria-pressed={(props.view == ViewMode::Sweep).to_string()} onclick={on_sweep}
                title="Run a setting of the scenario at several values, under each strategy, and chart what it changes">
                { "sweep" }
            </button>
            <label for="tour" class="visually-hidden">{ "guided tour" }</label>
            <select id="tour" data-testid="tour-select" class="full-only" onchange={on_tour}>
                <option value="" selected=true>{ "guided tours\u{2026}" }</option>
                { for TOURS.iter().map(|t| html! { <option value={t.id}>{ t.title }</option> }) }
            </select>
            <span class="spacer"></span>
            <button data-testid="share" onclick={on_share} title="Copy a link to exactly this moment">{ "share link" }</button>
            <label class="file-button full-only" title="Load a scenario file (the command line's format)">
                { "import JSON" }
                <input data-testid="import" type="file" accept=".json,application/json" onchange={on_import} />
            </label>
            <button data-testid="export" class="full-only" onclick={on_export} title="Save the scenario with every command as JSON">{ "export JSON" }</button>
            <button data-testid="export-log" class="full-only" onclick={on_export_log} title="Save the log in the seed's notation">{ "export log" }</button>
            <button data-testid="export-report" class="full-only" onclick={on_export_report} aria-label="export report"
                title="Save a design-review report of this session under its strategies: one self-contained HTML page">{ "report" }</button>
            <button data-testid="new-session" class="full-only" onclick={on_new_session} title="Forget the saved session and start clean">{ "new session" }</button>
            <button data-testid="theme" onclick={on_theme} aria-label="switch light or dark theme" title="light or dark">{ if dark { "\u{2600}" } else { "\u{263E}" } }</button>
            <button data-testid="help-button" onclick={on_help} aria-label="help and keyboard shortcuts">{ "?" }</button>
            if props.embed {
                <a href="./" target="_blank" rel="noopener">{ "open full playground \u{2197}" }</a>
            }
        </header>
    }
}

/// Properties of the messages.
#[derive(Properties, PartialEq)]
pub struct MessagesProps {
    /// The error, until dismissed.
    pub error: Option<AttrValue>,
    /// The notice.
    pub notice: Option<AttrValue>,
    /// A share link shown with the notice.
    pub share_link: Option<AttrValue>,
    /// Carries out an action (dismiss).
    pub on_action: Callback<Action>,
}

/// The error (dismissable) and the notice, with a share link to copy by hand.
#[function_component(Messages)]
pub fn messages(props: &MessagesProps) -> Html {
    let dismiss = props.on_action.reform(|_: MouseEvent| Action::DismissError);
    let select = Callback::from(|e: FocusEvent| {
        if let Some(input) = e.target_dyn_into::<web_sys::HtmlInputElement>() {
            input.select();
        }
    });
    html! {
        <>
            if let Some(error) = &props.error {
                <div class="error" data-testid="error" role="alert">
                    <span>{ error }</span>
                    <button onclick={dismiss} aria-label="dismiss the error">{ "dismiss" }</button>
                </div>
            }
            if let Some(notice) = &props.notice {
                <div class="notice" data-testid="notice" role="status">
                    { notice }
                    if let Some(link) = &props.share_link {
                        { " " }
                        <input class="share-url" data-testid="share-url" type="text" readonly=true value={link.clone()}
                            aria-label="share link" onfocus={select} />
                    }
                </div>
            }
        </>
    }
}
