//! The browser playground: a thin Yew layer that renders the core's state and sends it
//! commands. Everything it shows is read off [`crate::session::Session`] through
//! [`crate::views::frame::Frame`]; nothing here decides anything about rebalancing.

mod compare;
mod controls;
mod dom;
mod group;
mod panels;
mod state;
mod tour;

use crate::engine::coordinator::Round;
use crate::link::{SavedSession, ViewMode};
use crate::model::{Command, Scenario};
use crate::presets::{Preset, PRESETS};
use crate::tour::TOURS;
use crate::views::frame::Frame;
use crate::views::metrics::Metrics;
use crate::views::notation;
use controls::{Mark, Transport};
use group::GroupView;
use panels::{Banner, ConfigPanel, HelpDialog, LogPanel, MemberToolbar, MetricsPanel};
use state::{Action, AppState, Theme, SPEEDS};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;
use yew::Reducible;

/// Mounts the playground into `#app`.
pub fn start() {
    let root = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("app"));
    match root {
        Some(root) => {
            yew::Renderer::<App>::with_root(root).render();
        }
        None => {
            yew::Renderer::<App>::new().render();
        }
    }
}

/// The session to open: a share link, an embed's preset, the autosave, or the first preset.
fn initial_state() -> AppState {
    let embed = dom::query("embed").is_some_and(|v| v != "0");
    let fragment = dom::fragment();
    let link = fragment.strip_prefix("s=").map(str::to_string);
    let mut problem = None;
    let mut restored: Option<(SavedSession, String)> = None;
    if let Some(text) = link {
        match SavedSession::decode(&text) {
            Ok(saved) => restored = Some((saved, "Opened the shared session.".into())),
            Err(e) => {
                problem = Some(format!(
                    "The link could not be opened: {e}. Showing the default scenario instead."
                ))
            }
        }
        if !embed {
            // The link is now the session: later reloads come back through the autosave.
            dom::replace_fragment("");
        }
    } else if !fragment.is_empty() {
        problem = Some(format!("The link could not be opened: the part after # is not a Handoff session ({} characters). Showing the default scenario instead.", fragment.len()));
        dom::replace_fragment("");
    }
    if restored.is_none() && !embed && problem.is_none() {
        if let Some(text) = dom::load(dom::AUTOSAVE_KEY) {
            match SavedSession::decode(&text) {
                Ok(saved) => restored = Some((saved, "Restored your last session.".into())),
                Err(e) => {
                    problem = Some(format!(
                        "Your saved session could not be restored ({e}); it was set aside."
                    ))
                }
            }
        }
    }
    let (session, preset) = AppState::default_session();
    let mut state = AppState::new(session, Some(preset));
    state.embed = embed;
    if let Some(id) = dom::query("preset").filter(|_| restored.is_none()) {
        match Preset::find(&id).map(|p| p.scenario()) {
            Some(Ok(scenario)) => {
                if let Ok(session) = crate::session::Session::new(scenario, &[]) {
                    state = AppState::new(session, Preset::find(&id).map(|p| p.id));
                    state.embed = embed;
                }
            }
            _ => {
                problem = Some(format!(
                    "There is no preset named {id:?}; showing the default scenario."
                ))
            }
        }
    }
    let mut state = match restored {
        Some((saved, note)) => {
            let next = Rc::new(state.clone()).reduce(Action::Restore(Box::new(saved), note));
            (*next).clone()
        }
        None => state,
    };
    if let Some(p) = problem {
        state.error = Some(p);
    }
    state.theme = if dom::media("(prefers-color-scheme: dark)") {
        Theme::Dark
    } else {
        Theme::Light
    };
    state.motion = !dom::media("(prefers-reduced-motion: reduce)");
    // Choices the reader made override what the system suggests.
    for setting in dom::load(dom::PREFERENCES_KEY)
        .unwrap_or_default()
        .split(';')
    {
        match setting {
            "theme=dark" => state.theme = Theme::Dark,
            "theme=light" => state.theme = Theme::Light,
            "motion=reduce" => state.motion = false,
            "motion=full" => state.motion = true,
            "shortcuts=off" => state.shortcuts = false,
            _ => {}
        }
    }
    if let Some(tour) = dom::query("tour").filter(|_| state.tour.is_none()) {
        if let Some(t) = TOURS.iter().find(|t| t.id == tour) {
            state = (*Rc::new(state).reduce(Action::StartTour(t.id))).clone();
        }
    }
    // Embeds start paused unless asked to play (WCAG 2.2.2: moving content must be pausable).
    state.playing = embed && dom::query("autoplay").is_some_and(|v| v != "0");
    state
}

/// Shared data that compares by identity: a prop that only changes when rebuilt.
#[derive(Debug)]
pub struct Shared<T>(pub Rc<T>);

impl<T> Clone for Shared<T> {
    fn clone(&self) -> Self {
        Shared(self.0.clone())
    }
}

impl<T> PartialEq for Shared<T> {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl<T> std::ops::Deref for Shared<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

/// Keyboard shortcuts on the window; ignored while typing in a field.
#[hook]
fn use_shortcuts(state: UseReducerHandle<AppState>) {
    let dispatcher = state.dispatcher();
    let enabled = state.shortcuts;
    let help = state.help;
    use_effect_with((enabled, help), move |&(enabled, help)| {
        let listener = web_sys::window().map(|w| {
            gloo_events::EventListener::new_with_options(
                &w,
                "keydown",
                gloo_events::EventListenerOptions::enable_prevent_default(),
                move |e| {
                    let Some(key) = e.dyn_ref::<web_sys::KeyboardEvent>() else {
                        return;
                    };
                    if key.ctrl_key() || key.meta_key() || key.alt_key() {
                        return;
                    }
                    if key.key() == "Escape" && help {
                        dispatcher.dispatch(Action::Help(false));
                        return;
                    }
                    let target = e
                        .target()
                        .and_then(|t| t.dyn_into::<web_sys::Element>().ok());
                    let tag = target
                        .as_ref()
                        .map(|t| t.tag_name().to_ascii_lowercase())
                        .unwrap_or_default();
                    if matches!(tag.as_str(), "input" | "select" | "textarea") {
                        return;
                    }
                    if !enabled {
                        return;
                    }
                    match key.key().as_str() {
                        // A focused button handles space itself.
                        " " if tag != "button" => {
                            e.prevent_default();
                            dispatcher.dispatch(Action::TogglePlay);
                        }
                        "ArrowRight" => {
                            e.prevent_default();
                            dispatcher.dispatch(Action::StepEvent);
                        }
                        "ArrowLeft" => {
                            e.prevent_default();
                            dispatcher.dispatch(Action::StepBack);
                        }
                        "?" => dispatcher.dispatch(Action::Help(!help)),
                        k => {
                            if let Some(speed) = k
                                .parse::<usize>()
                                .ok()
                                .and_then(|n| n.checked_sub(1))
                                .and_then(|i| SPEEDS.get(i))
                            {
                                dispatcher.dispatch(Action::Speed(*speed));
                            }
                        }
                    }
                },
            )
        });
        move || drop(listener)
    });
}

/// Drives the clock with animation frames while playing.
#[hook]
fn use_playback(state: &UseReducerHandle<AppState>) {
    let dispatcher = state.dispatcher();
    let frame = use_mut_ref(|| None::<gloo_render::AnimationFrame>);
    use_effect_with(state.playing, move |&playing| {
        fn arm(
            slot: Rc<RefCell<Option<gloo_render::AnimationFrame>>>,
            d: UseReducerDispatcher<AppState>,
        ) {
            let again = slot.clone();
            *slot.borrow_mut() = Some(gloo_render::request_animation_frame(move |ts| {
                d.dispatch(Action::Frame(ts));
                arm(again, d);
            }));
        }
        if playing {
            arm(frame.clone(), dispatcher);
        } else {
            frame.borrow_mut().take();
        }
        move || {
            frame.borrow_mut().take();
        }
    });
}

/// The playground.
#[function_component(App)]
pub fn app() -> Html {
    let state = use_reducer(initial_state);
    use_playback(&state);
    use_shortcuts(state.clone());
    {
        let (theme, motion) = (state.theme, state.motion);
        use_effect_with((theme, motion), move |&(theme, motion)| {
            dom::set_root_attribute(
                "data-theme",
                if theme == Theme::Dark {
                    "dark"
                } else {
                    "light"
                },
            );
            dom::set_root_attribute("data-motion", if motion { "full" } else { "reduce" });
        });
    }
    {
        let (theme, motion, shortcuts) = (state.theme, state.motion, state.shortcuts);
        use_effect_with(state.preferences_version, move |&changed| {
            if changed > 0 {
                let preferences = [
                    if theme == Theme::Dark {
                        "theme=dark"
                    } else {
                        "theme=light"
                    },
                    if motion {
                        "motion=full"
                    } else {
                        "motion=reduce"
                    },
                    if shortcuts {
                        "shortcuts=on"
                    } else {
                        "shortcuts=off"
                    },
                ];
                dom::save(dom::PREFERENCES_KEY, &preferences.join(";"));
            }
        });
    }
    {
        // Autosave whenever something worth keeping changed (not on every frame).
        let (session, view, tour, embed) = (
            state.session.clone(),
            state.view,
            state.tour.clone(),
            state.embed,
        );
        use_effect_with(state.saved_version, move |_| {
            if !embed {
                let saved = SavedSession::capture(&session.borrow(), view, tour);
                dom::save(dom::AUTOSAVE_KEY, &saved.encode());
            }
        });
    }

    let dispatch = |make: fn() -> Action| {
        let d = state.dispatcher();
        Callback::from(move |_| d.dispatch(make()))
    };
    // Callbacks handed to many components are made once, so that their props compare equal
    // and unchanged members are not redrawn on every frame.
    let on_command = {
        let d = state.dispatcher();
        use_callback((), move |c: Command, _| d.dispatch(Action::Command(c)))
    };
    let on_seek = {
        let d = state.dispatcher();
        use_callback((), move |t: u64, _| d.dispatch(Action::Seek(t)))
    };

    let session = state.session.borrow();
    let clock = session.clock();
    let main = session.main();
    let view = main.view();
    let frame = Frame::of(view);
    let metrics = Metrics::of(view);
    let roster = view.roster().clone();
    // The log's rounds are only needed in the single view, and only rebuilt when a round
    // starts, syncs or is forked away, not on every frame.
    let single = state.view == ViewMode::Single || session.lanes().len() < 2;
    let known = main.rounds_until(clock);
    let rounds_key = (
        format!("{:p}", Rc::as_ptr(&state.session)),
        single,
        known.len(),
        known
            .iter()
            .filter(|r| r.synced_at.is_some_and(|s| s <= clock))
            .count(),
        main.run.forks().len(),
    );
    let rounds: Shared<Vec<Round>> = (*use_memo(rounds_key, |_| {
        Shared(Rc::new(if single {
            main.rounds_as_of(clock)
        } else {
            Vec::new()
        }))
    }))
    .clone();
    let violations: Vec<_> = main
        .run
        .violations()
        .iter()
        .filter(|v| v.at_ms <= clock)
        .cloned()
        .collect();
    let last_change = main
        .run
        .events()
        .iter()
        .rev()
        .find(|e| e.at <= clock)
        .map_or(0, |e| e.at);
    let marks: Vec<Mark> = main
        .run
        .rounds()
        .iter()
        .map(|r| Mark::Round(r.started_at))
        .chain(
            main.run
                .commands()
                .iter()
                .map(|c| Mark::Command(c.at_ms, c.command.to_string())),
        )
        .chain(
            main.run
                .violations()
                .iter()
                .map(|v| Mark::Violation(v.at_ms)),
        )
        .chain(
            main.run
                .forks()
                .iter()
                .map(|f| Mark::Fork(f.at_ms, f.abandoned_until_ms)),
        )
        .collect();
    let current_round = frame.round.index.or(rounds.last().map(|r| r.index));
    let chips = || frame.cards.iter().flat_map(|c| c.chips.iter());
    let quiet = if metrics.at_rest {
        "nothing to do: the group is at rest"
    } else if chips().any(|c| c.role == crate::views::frame::ChipRole::Learner) {
        "learners replaying"
    } else if chips().any(|c| c.role == crate::views::frame::ChipRole::Active && !c.up) {
        "tasks restoring on their new owners (down)"
    } else if !frame.unowned.is_empty() {
        "tasks down until the coordinator notices (session timeout)"
    } else {
        "waiting for the next round"
    };
    let position_text = format!(
        "{} ms, generation {}, {}",
        clock,
        frame.round.generation,
        if let Some(i) = frame.round.index {
            format!("rebalance {i} in progress")
        } else {
            "stable".into()
        }
    );
    let pending = (frame.round.phase == crate::views::frame::PhaseView::Joining).then(|| {
        format!(
            "{}\n{}\nMembers joining\u{2026}",
            notation::heading(frame.round.index.unwrap_or(0)),
            frame.round.causes.join("\n")
        )
    });
    let ending = (metrics.at_rest && !rounds.is_empty()).then(|| {
        let text = notation::log(view, &[]);
        text.trim().to_string()
    });
    let highlight: Vec<String> = state
        .tour
        .as_ref()
        .and_then(|p| crate::tour::Tour::find(&p.tour).and_then(|t| t.steps.get(p.step)))
        .map(|s| s.highlight.iter().map(|h| h.to_string()).collect())
        .unwrap_or_default();
    let announcement = match frame.round.index {
        Some(i) => format!(
            "{}: {}. Phase: {}.",
            notation::heading(i).trim_start_matches('#'),
            frame.round.causes.join("; "),
            frame.round.phase.describe()
        ),
        None => format!(
            "Generation {}, {}.",
            frame.round.generation,
            if metrics.at_rest {
                "at rest"
            } else {
                "stable, learners replaying"
            }
        ),
    };
    let scenario_file = (*use_memo(format!("{:p}", Rc::as_ptr(&state.session)), |_| {
        session.scenario().to_file(&session.scenario().commands)
    }))
    .clone();
    let can_crash_leader = session.check(&Command::CrashLeader).is_ok();
    let names: Vec<String> = roster.members.clone();
    let default_rate = session.scenario().config.restore_rate;
    let standbys = view.config().num_standby_replicas > 0;
    let ready_lag = view.config().ready_lag();
    let lanes_count = session.lanes().len();
    drop(session);

    let on_preset = {
        let d = state.dispatcher();
        Callback::from(move |e: Event| {
            let id = e
                .target_unchecked_into::<web_sys::HtmlSelectElement>()
                .value();
            if let Some(p) = PRESETS.iter().find(|p| p.id == id) {
                d.dispatch(Action::Preset(p.id));
            }
        })
    };
    let on_tour = {
        let d = state.dispatcher();
        Callback::from(move |e: Event| {
            let select = e.target_unchecked_into::<web_sys::HtmlSelectElement>();
            let id = select.value();
            if let Some(t) = TOURS.iter().find(|t| t.id == id) {
                d.dispatch(Action::StartTour(t.id));
            }
            select.set_value("");
        })
    };
    let on_view = {
        let d = state.dispatcher();
        let current = state.view;
        Callback::from(move |_| {
            d.dispatch(Action::View(if current == ViewMode::Single {
                ViewMode::Compare
            } else {
                ViewMode::Single
            }))
        })
    };
    let on_share = {
        let (d, session, view, tour) = (
            state.dispatcher(),
            state.session.clone(),
            state.view,
            state.tour.clone(),
        );
        Callback::from(move |_| {
            let saved = SavedSession::capture(&session.borrow(), view, tour.clone());
            let url = dom::url_with_fragment(&format!("s={}", saved.encode()));
            let copied = dom::copy(&url);
            d.dispatch(Action::Shared(url, copied));
        })
    };
    let on_export = {
        let session = state.session.clone();
        Callback::from(move |_| {
            let s = session.borrow();
            let json = s.scenario().to_json(s.main().run.commands());
            dom::download_text("handoff-scenario.json", "application/json", &json);
        })
    };
    let on_export_log = {
        let session = state.session.clone();
        Callback::from(move |_| {
            let s = session.borrow();
            let lane = s.main();
            let rounds = lane.rounds_as_of(s.clock());
            dom::download_text(
                "handoff-log.txt",
                "text/plain",
                &notation::log(lane.view(), &rounds),
            );
        })
    };
    let on_import = {
        let d = state.dispatcher();
        Callback::from(move |e: Event| {
            let input = e.target_unchecked_into::<web_sys::HtmlInputElement>();
            let d = d.clone();
            wasm_bindgen_futures::spawn_local(async move {
                let name = input
                    .files()
                    .and_then(|f| f.get(0))
                    .map(|f| f.name())
                    .unwrap_or_default();
                match dom::read_file(input.clone()).await {
                    Some(text) => match Scenario::from_json(&text) {
                        Ok(scenario) => d.dispatch(Action::Load {
                            scenario: Box::new(scenario),
                            preset: None,
                            notice: Some(format!("Imported {name}.")),
                        }),
                        Err(e) => d.dispatch(Action::Error(format!(
                            "{name} was not imported: {e}. The current session is kept."
                        ))),
                    },
                    None => d.dispatch(Action::Error(format!(
                        "{name} could not be read. The current session is kept."
                    ))),
                }
                input.set_value("");
            });
        })
    };
    let on_apply = {
        let d = state.dispatcher();
        use_callback(
            (),
            move |file: crate::format::ScenarioFile, _| match Scenario::from_file(file) {
                Ok(scenario) => d.dispatch(Action::Load {
                    scenario: Box::new(scenario),
                    preset: None,
                    notice: Some("Restarted with the new configuration.".into()),
                }),
                Err(e) => d.dispatch(Action::Error(format!(
                    "not applied: {e}. The current session is kept."
                ))),
            },
        )
    };
    let on_new_session = {
        let d = state.dispatcher();
        Callback::from(move |_| {
            dom::forget(dom::AUTOSAVE_KEY);
            d.dispatch(Action::Preset(PRESETS[0].id));
            d.dispatch(Action::Notice(Some("Started a clean session.".into())));
        })
    };
    let theme = {
        let (d, theme) = (state.dispatcher(), state.theme);
        Callback::from(move |_| {
            d.dispatch(Action::Theme(if theme == Theme::Dark {
                Theme::Light
            } else {
                Theme::Dark
            }))
        })
    };
    let help = dispatch(|| Action::Help(true));
    let dismiss = dispatch(|| Action::DismissError);

    html! {
        <div class={classes!("app", state.embed.then_some("embed"))}>
            <a href="#stage" class="visually-hidden">{ "Skip to the group" }</a>
            <header class="topbar">
                <h1>{ "Handoff" }</h1>
                <label for="preset">{ "scenario" }</label>
                <select id="preset" data-testid="preset" onchange={on_preset}>
                    if state.preset.is_none() {
                        <option value="" selected=true>{ "custom" }</option>
                    }
                    { for PRESETS.iter().map(|p| html! {
                        <option value={p.id} selected={state.preset == Some(p.id)}>{ p.name }</option>
                    }) }
                </select>
                <button data-testid="view-toggle" aria-pressed={(state.view == ViewMode::Compare).to_string()} onclick={on_view}
                    title="Run the same commands under several strategies side by side">
                    { "compare" }
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
                <button data-testid="new-session" class="full-only" onclick={on_new_session} title="Forget the saved session and start clean">{ "new session" }</button>
                <button onclick={theme} aria-label="switch light or dark theme" title="light or dark">{ if state.theme == Theme::Dark { "\u{2600}" } else { "\u{263E}" } }</button>
                <button data-testid="help-button" onclick={help} aria-label="help and keyboard shortcuts">{ "?" }</button>
                if state.embed {
                    <a href="./" target="_blank" rel="noopener">{ "open full playground \u{2197}" }</a>
                }
            </header>
            <Transport
                playing={state.playing} speed={state.speed} clock={clock}
                frontier={state.session.borrow().frontier()} generation={frame.round.generation}
                position_text={position_text} marks={marks}
                on_play={{ let d = state.dispatcher(); Callback::from(move |p| d.dispatch(Action::Play(p))) }}
                on_step={{ let d = state.dispatcher(); Callback::from(move |_| d.dispatch(Action::StepEvent)) }}
                on_step_round={{ let d = state.dispatcher(); Callback::from(move |_| d.dispatch(Action::StepRound)) }}
                on_back={{ let d = state.dispatcher(); Callback::from(move |_| d.dispatch(Action::StepBack)) }}
                on_reset={{ let d = state.dispatcher(); Callback::from(move |_| d.dispatch(Action::Reset)) }}
                on_speed={{ let d = state.dispatcher(); Callback::from(move |s| d.dispatch(Action::Speed(s))) }}
                on_seek={on_seek.clone()}
            />
            if let Some(error) = &state.error {
                <div class="error" data-testid="error" role="alert">
                    <span>{ error }</span>
                    <button onclick={dismiss} aria-label="dismiss the error">{ "dismiss" }</button>
                </div>
            }
            if let Some(notice) = &state.notice {
                <div class="notice" data-testid="notice" role="status">
                    { notice }
                    if let Some(link) = &state.share_link {
                        { " " }
                        <input class="share-url" data-testid="share-url" type="text" readonly=true value={link.clone()}
                            aria-label="share link" onfocus={Callback::from(|e: FocusEvent| {
                                if let Some(input) = e.target_dyn_into::<web_sys::HtmlInputElement>() { input.select(); }
                            })} />
                    }
                </div>
            }
            if let Some(position) = &state.tour {
                <tour::TourPanel position={position.clone()}
                    on_step={{ let d = state.dispatcher(); Callback::from(move |s| d.dispatch(Action::TourStep(s))) }}
                    on_leave={{ let d = state.dispatcher(); Callback::from(move |_| d.dispatch(Action::LeaveTour)) }} />
            }
            <div class="visually-hidden" aria-live="polite" data-testid="announce">{ announcement }</div>
            if state.view == ViewMode::Compare && lanes_count > 1 {
                <main id="stage" class="body compare">
                    <compare::CompareView state={state.clone()} on_command={on_command.clone()} on_seek={on_seek.clone()} />
                </main>
            } else {
                <main class="body">
                    <section id="stage" class="panel" aria-label="the group">
                        <Banner round={frame.round.clone()} at_rest={metrics.at_rest} balanced={metrics.balanced} quiet={quiet} />
                        <GroupView cards={frame.cards.clone()} unowned={frame.unowned.clone()} highlight={highlight.clone()}
                            on_command={on_command.clone()} motion={state.motion && state.continuous} label="members of the group" />
                        <MemberToolbar names={names} default_rate={default_rate} can_crash_leader={can_crash_leader} on_command={on_command.clone()} />
                        <panels::Legend />
                    </section>
                    <aside class="side">
                        <MetricsPanel metrics={metrics.clone()} roster={roster.clone()} last_change={last_change} />
                        <LogPanel rounds={rounds} violations={violations} roster={roster.clone()} standbys={standbys}
                            ready_lag={ready_lag} current={current_round} ending={ending} pending={pending} on_seek={on_seek.clone()} />
                        <ConfigPanel scenario={scenario_file} on_apply={on_apply} />
                    </aside>
                </main>
            }
            if state.help {
                <HelpDialog shortcuts={state.shortcuts} motion={state.motion}
                    on_shortcuts={{ let d = state.dispatcher(); Callback::from(move |on| d.dispatch(Action::Shortcuts(on))) }}
                    on_motion={{ let d = state.dispatcher(); Callback::from(move |on| d.dispatch(Action::Motion(on))) }}
                    on_close={{ let d = state.dispatcher(); Callback::from(move |_| d.dispatch(Action::Help(false))) }} />
            }
        </div>
    }
}
