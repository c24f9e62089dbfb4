//! The browser playground: a thin Yew layer over [`crate::playground::Playground`]. It reads
//! what the browser knows at start, holds the playground behind a hook, renders what it
//! shows as plain-data props, and carries out its effects; nothing here decides anything.

mod application;
mod banner;
mod cards;
mod chart;
mod colours;
mod compare;
mod config;
mod controls;
mod dom;
mod find;
mod help;
mod hooks;
mod later;
mod operations;
mod paint;
mod protocol;
mod schedule;
mod side;
mod simulation;
mod sweep;
mod task_timeline;
mod term;
mod toolbar;
mod topbar;
mod tour;
mod worker;

use crate::playground::link::ViewMode;
use crate::playground::{Effect, Playground, Query, Startup, Theme};
use std::rc::Rc;
use yew::prelude::*;

/// Mounts the playground into `#app`; in a Web Worker (the page started it on the same wasm),
/// runs the simulation instead.
pub fn start() {
    if web_sys::window().is_none() {
        simulation::run();
        return;
    }
    // Unpacking the wasm, decoding what the page opens with (a large group's link), making
    // the playground of it and the first render each take a task of their own: together
    // they held the page over 50 ms.
    gloo_timers::callback::Timeout::new(0, || {
        let read = startup().read();
        gloo_timers::callback::Timeout::new(0, move || {
            let started = Playground::open_with(read);
            STARTED.with(|s| *s.borrow_mut() = Some(started));
            gloo_timers::callback::Timeout::new(0, render).forget();
        })
        .forget();
    })
    .forget();
}

thread_local! {
    /// The playground as the page opens, read before the first render, which takes it.
    static STARTED: std::cell::RefCell<Option<(Playground, Vec<Effect>)>> =
        const { std::cell::RefCell::new(None) };
}

/// Mounts the app into `#app` (or the body).
fn render() {
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

/// The single view's stage and side panels. As the page opens, the parts under the group come
/// a frame after the rest and the side panels a frame after those: the first render of each
/// is a task apart, not one that holds the page.
fn single_view(
    pg: &Playground,
    single: &crate::playground::screen::Single,
    operations: crate::playground::Operations,
    on_action: &Callback<crate::playground::Action>,
) -> Html {
    let (frame, clock, dark) = (&single.frame, pg.clock(), pg.theme() == Theme::Dark);
    let restart = operations.restart;
    let (measures, shown_log) = (pg.measures(), pg.shown_log(single));
    html! {
        <main class="body">
            <section id="stage" class="panel" aria-label="the group" data-shown-at={frame.time.to_string()}>
                <banner::Banner round={frame.round.clone()} at_rest={single.at_rest}
                    balanced={single.balanced} quiet={single.quiet} />
                <protocol::ProtocolStrip round={frame.round.clone()} progress={frame.round.phase_progress(clock)} />
                // The find box and the zoom bar stay in view while the group scrolls by,
                // and no further: not over the toolbars under it.
                <div class="group-area">
                    if single.compact {
                        <find::FindBox found={single.found.clone()} on_action={on_action.clone()} />
                    }
                    <cards::GroupView cards={frame.cards.clone()} unowned={frame.unowned.clone()}
                        highlight={single.highlight.clone()} on_action={on_action.clone()} travel_ms={pg.travel_ms()} motion_switch={pg.motion()}
                        mini={single.compact} names={pg.task_names()} restart={restart} dark={dark} label="members of the group"
                        zoom={pg.zoom()} />
                </div>
                <later::Later frames={1}>
                    <toolbar::MemberToolbar toolbar={single.toolbar.clone()} on_action={on_action.clone()} />
                    <operations::OperationsBar operations={operations} on_action={on_action.clone()} />
                    <toolbar::Legend />
                    <task_timeline::TaskTimelineView data={pg.task_timeline()} clock={clock} dark={dark}
                        on_action={on_action.clone()} />
                </later::Later>
            </section>
            <aside class="side"><later::Later frames={2}>
                <side::MetricsPanel metrics={measures.metrics.clone()} worst={measures.worst.clone()} others_down={measures.others_down}
                    last_change={measures.last_change} streams={frame.round.streams.is_some()} />
                <side::LogPanel log={shown_log.log.clone()} current={shown_log.current_round} on_action={on_action.clone()} />
                <application::ApplicationSummary summary={pg.application_summary()} on_action={on_action.clone()} />
                <config::ConfigPanel form={pg.config_form().cloned()}
                    on_action={on_action.clone()} />
            </later::Later></aside>
        </main>
    }
}

/// What the browser knows when the page opens.
fn startup() -> Startup {
    Startup {
        fragment: dom::fragment(),
        query: Query::from_params(dom::query),
        autosave: dom::autosave(),
        preferences: dom::preferences(),
        prefers_dark: dom::media("(prefers-color-scheme: dark)"),
        prefers_reduced_motion: dom::media("(prefers-reduced-motion: reduce)"),
        cores: dom::cores(),
    }
}

/// The playground.
#[function_component(App)]
pub fn app() -> Html {
    dom::mark(hooks::VIEW);
    let (shared, on_action) = hooks::use_playground(|| {
        STARTED
            .with(|s| s.borrow_mut().take())
            .unwrap_or_else(|| Playground::start(startup()))
    });
    let pg = shared.borrow();
    hooks::use_playback(pg.playing(), on_action.clone());
    hooks::use_shortcuts(pg.shortcuts(), pg.help(), on_action.clone());
    use_effect_with((pg.theme(), pg.motion()), |&(theme, motion)| {
        let theme = if theme == Theme::Dark {
            "dark"
        } else {
            "light"
        };
        dom::set_root_attribute("data-theme", theme);
        dom::set_root_attribute("data-motion", if motion { "full" } else { "reduce" });
    });

    let clock = pg.clock();
    let comparing = pg.comparing();
    let travel_ms = pg.travel_ms();
    let dark = pg.theme() == Theme::Dark;
    // The single view's data is read even when comparing: the transport and banner use it.
    let single = pg.single();
    let frame = &single.frame;
    let operations = pg.operations(frame);
    let body = if pg.view() == ViewMode::Sweep {
        html! {
            <main id="stage" class="body sweep-view" data-shown-at={frame.time.to_string()}>
                <sweep::SweepPanel view={pg.sweep_view()} dark={dark} on_action={on_action.clone()} />
            </main>
        }
    } else if comparing {
        let lanes = pg.lanes();
        let table = pg.compare_table(&lanes);
        html! {
            <main id="stage" class="body compare" data-shown-at={frame.time.to_string()}>
                <compare::CompareView lanes={lanes} table={table} strategies={pg.strategy_choices()} clock={clock} toolbar={single.toolbar.clone()}
                    charts={pg.charts()} chart_lane={pg.chart_lane()} travel_ms={travel_ms} mini={single.compact} names={pg.task_names()} dark={dark}
                    operations={operations} on_action={on_action.clone()} />
            </main>
        }
    } else {
        single_view(&pg, &single, operations, &on_action)
    };
    // The children render after this body returns; the app's effect runs once they have.
    use_effect(|| dom::measure(hooks::RENDER));
    let page = html! {
        <div class={classes!("app", pg.embed().then_some("embed"))} data-waiting={pg.waiting().then_some("true")}>
            <a href="#stage" class="visually-hidden">{ "Skip to the group" }</a>
            <topbar::TopBar preset={pg.preset()} view={pg.view()} theme={pg.theme()} embed={pg.embed()}
                on_action={on_action.clone()} />
            <controls::Transport playing={pg.playing()} speed={pg.speed()} clock={clock}
                frontier={pg.frontier()} scale={pg.scale()} generation={frame.round.generation}
                counter={frame.round.counter_name()}
                position_text={pg.position_text(frame)} marks={Rc::new(pg.marks())} schedule={pg.schedule()} editor={pg.command_editor().cloned()}
                session={pg.shown().session()} on_action={on_action.clone()} />
            if let Some(line) = pg.progress() {
                <p class="progress" data-testid="progress" role="status">{ line }</p>
            }
            <topbar::Messages error={pg.error().map(|e| AttrValue::from(e.to_string()))}
                notice={pg.notice().map(|n| AttrValue::from(n.to_string()))}
                share_link={pg.share_link().map(|l| AttrValue::from(l.to_string()))} on_action={on_action.clone()} />
            if let Some(position) = pg.tour() {
                <tour::TourPanel position={position.clone()} on_action={on_action.clone()} />
            }
            <div class="visually-hidden" aria-live="polite" data-testid="announce">
                { pg.announcement(frame, single.at_rest) }
            </div>
            { body }
            if let Some(form) = pg.application() {
                <application::ApplicationDialog form={form.clone()} on_action={on_action.clone()} />
            }
            if pg.help() {
                <help::HelpDialog shortcuts={pg.shortcuts()} motion={pg.motion()} on_action={on_action.clone()} />
            }
        </div>
    };
    dom::measure(hooks::VIEW);
    dom::mark(hooks::RENDER);
    page
}
