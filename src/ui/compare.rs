//! The compare view: two to four strategies on one clock and one command stream, each with
//! its own group, a live metrics table, and charts drawn with plotters on canvases.

use super::dom;
use super::group::GroupView;
use super::panels::MemberToolbar;
use super::state::{Action, AppState};
use crate::model::Command;
use crate::model::Strategy;
use crate::session::MAX_LANES;
use crate::views::charts::{self, PlotMap};
use crate::views::frame::Frame;
use crate::views::metrics::Metrics;
use crate::views::timeline::{self, Availability};
use plotters::prelude::*;
use plotters_canvas::CanvasBackend;
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

/// Properties of the compare view.
#[derive(Properties, PartialEq)]
pub struct CompareProps {
    /// The playground's state.
    pub state: UseReducerHandle<AppState>,
    /// Carries out a command in every lane.
    pub on_command: Callback<Command>,
    /// Moves the clock.
    pub on_seek: Callback<u64>,
}

/// Which chart a canvas shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChartKind {
    /// Task downtime accumulated, every strategy.
    Cumulative,
    /// Per-task availability of one lane.
    Availability,
    /// Per-member load of one lane.
    Load,
}

impl ChartKind {
    fn id(self) -> &'static str {
        match self {
            ChartKind::Cumulative => "cumulative",
            ChartKind::Availability => "availability",
            ChartKind::Load => "load",
        }
    }
}

/// The most tasks the availability chart draws: those with the most downtime.
const AVAILABILITY_ROWS: usize = 40;

const SIZE: (u32, u32) = (640, 300);

/// Draws one chart on any backend; returns how pixels map to data.
fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    kind: ChartKind,
    session: &crate::session::Session,
    lane: usize,
) -> Result<PlotMap, String> {
    let until = session.frontier().max(session.clock()).max(1);
    let clock = session.clock();
    let lane = &session.lanes()[lane.min(session.lanes().len() - 1)];
    match kind {
        ChartKind::Cumulative => {
            let curves: Vec<_> = session
                .lanes()
                .iter()
                .map(|l| (l.strategy, timeline::cumulative_downtime(&l.run, until)))
                .collect();
            charts::draw_cumulative(area, &curves, until, clock)
        }
        ChartKind::Availability => {
            let mut lines = timeline::availability(&lane.run, until);
            let total = lines.len();
            if total > AVAILABILITY_ROWS {
                let down = |l: &timeline::TaskLine| {
                    l.spans
                        .iter()
                        .filter(|s| s.state != Availability::Up)
                        .map(|s| s.to - s.from)
                        .sum::<u64>()
                };
                lines.sort_by_key(|l| std::cmp::Reverse(down(l)));
                lines.truncate(AVAILABILITY_ROWS);
                lines.sort_by_key(|l| l.task);
            }
            let names = lane.run.engine().roster().tasks.clone();
            let title = if total > AVAILABILITY_ROWS {
                format!(
                    "{}: {} of {} tasks, most downtime first",
                    lane.strategy, AVAILABILITY_ROWS, total
                )
            } else {
                format!("{}: task availability", lane.strategy)
            };
            charts::draw_availability(area, &title, &lines, &names, until, clock)
        }
        ChartKind::Load => {
            let lines = timeline::member_load(&lane.run, until);
            let names = lane.run.engine().roster().members.clone();
            charts::draw_load(
                area,
                &format!("{}: active tasks per member", lane.strategy),
                &lines,
                &names,
                until,
                clock,
            )
        }
    }
}

/// What a pointer over a chart points at, in words.
fn describe(
    kind: ChartKind,
    session: &crate::session::Session,
    lane: usize,
    time: f64,
    value: f64,
) -> String {
    let t = time.max(0.0) as u64;
    let lane_ref = &session.lanes()[lane.min(session.lanes().len() - 1)];
    match kind {
        ChartKind::Cumulative => {
            let mut lines = vec![format!("{t} ms")];
            for l in session.lanes() {
                let curve = timeline::cumulative_downtime(&l.run, session.frontier().max(1));
                let value = at_time(&curve, t);
                lines.push(format!("{}: {} ms down", l.strategy, value));
            }
            lines.join("\n")
        }
        ChartKind::Availability => {
            let lines = timeline::availability(&lane_ref.run, session.frontier().max(1));
            let rows = lines.len().min(AVAILABILITY_ROWS);
            let row = rows.saturating_sub(value.ceil().max(1.0) as usize);
            let state = lines
                .get(row)
                .and_then(|l| l.spans.iter().find(|s| s.from <= t && t < s.to));
            let name = lines
                .get(row)
                .map(|l| lane_ref.run.engine().roster().task(l.task).to_string())
                .unwrap_or_default();
            format!(
                "{t} ms\n{name}: {}",
                match state.map(|s| s.state) {
                    Some(Availability::Up) => "up",
                    Some(Availability::Restoring) => "restoring (down)",
                    Some(Availability::Down) => "down",
                    None => "-",
                }
            )
        }
        ChartKind::Load => {
            let lines = timeline::member_load(&lane_ref.run, session.frontier().max(1));
            let roster = lane_ref.run.engine().roster();
            let mut text = vec![format!("{t} ms")];
            for l in lines {
                let v = l.steps.iter().rev().find(|s| s.0 <= t).map_or(0, |s| s.1);
                text.push(format!("{}: {v}", roster.member(l.member)));
            }
            text.join("\n")
        }
    }
}

fn at_time(curve: &[(u64, u64)], t: u64) -> u64 {
    let i = curve.partition_point(|p| p.0 <= t);
    match (i.checked_sub(1).and_then(|j| curve.get(j)), curve.get(i)) {
        (Some(&(t0, v0)), Some(&(t1, v1))) if t1 > t0 => v0 + (v1 - v0) * (t - t0) / (t1 - t0),
        (Some(&(_, v0)), _) => v0,
        _ => 0,
    }
}

/// Properties of one chart.
#[derive(Properties, PartialEq)]
pub struct ChartProps {
    /// The playground's state (the chart reads the session).
    pub state: UseReducerHandle<AppState>,
    /// Which chart.
    pub kind: ChartKind,
    /// Which lane, for the per-lane charts.
    pub lane: usize,
    /// When to redraw.
    pub redraw: u64,
    /// Move the clock.
    pub on_seek: Callback<u64>,
}

/// A chart on a canvas, with hover values, click to seek, and PNG and SVG export.
#[function_component(Chart)]
pub fn chart(props: &ChartProps) -> Html {
    let canvas = use_node_ref();
    let map = use_mut_ref(|| None::<PlotMap>);
    let hover = use_state(|| None::<(i32, i32, String)>);
    {
        let (canvas, map, state, kind, lane) = (
            canvas.clone(),
            map.clone(),
            props.state.clone(),
            props.kind,
            props.lane,
        );
        use_effect_with((props.redraw, lane, kind), move |_| {
            if let Some(c) = canvas.cast::<HtmlCanvasElement>() {
                if let Some(backend) = CanvasBackend::with_canvas_object(c) {
                    let area = backend.into_drawing_area();
                    let session = state.session.borrow();
                    *map.borrow_mut() = draw(&area, kind, &session, lane).ok();
                    let _ = area.present();
                }
            }
        });
    }
    let to_chart = |canvas: &NodeRef, e: &MouseEvent| -> Option<(i32, i32, i32, i32)> {
        let c = canvas.cast::<HtmlCanvasElement>()?;
        let scale = c.width() as f64 / c.client_width().max(1) as f64;
        let (x, y) = (e.offset_x(), e.offset_y());
        Some(((x as f64 * scale) as i32, (y as f64 * scale) as i32, x, y))
    };
    let on_move = {
        let (canvas, map, hover, state, kind, lane) = (
            canvas.clone(),
            map.clone(),
            hover.clone(),
            props.state.clone(),
            props.kind,
            props.lane,
        );
        Callback::from(move |e: MouseEvent| {
            let Some((bx, by, x, y)) = to_chart(&canvas, &e) else {
                return;
            };
            let found = map.borrow().and_then(|m| m.at(bx, by));
            match found {
                Some((t, v)) => {
                    let text = describe(kind, &state.session.borrow(), lane, t, v);
                    hover.set(Some((x, y, text)));
                }
                None => hover.set(None),
            }
        })
    };
    let on_leave = {
        let hover = hover.clone();
        Callback::from(move |_| hover.set(None))
    };
    let on_click = {
        let (canvas, map, on_seek) = (canvas.clone(), map.clone(), props.on_seek.clone());
        Callback::from(move |e: MouseEvent| {
            let Some((bx, by, _, _)) = to_chart(&canvas, &e) else {
                return;
            };
            if let Some((t, _)) = map.borrow().and_then(|m| m.at(bx, by)) {
                on_seek.emit(t.max(0.0).round() as u64);
            }
        })
    };
    let export_png = {
        let (canvas, kind) = (canvas.clone(), props.kind);
        Callback::from(move |_| {
            if let Some(c) = canvas.cast::<HtmlCanvasElement>() {
                if let Ok(url) = c.to_data_url() {
                    dom::download_url(&format!("handoff-{}.png", kind.id()), &url);
                }
            }
        })
    };
    let export_svg = {
        let (state, kind, lane) = (props.state.clone(), props.kind, props.lane);
        Callback::from(move |_| {
            let session = state.session.borrow();
            match charts::svg(SIZE, |area| draw(area, kind, &session, lane)) {
                Ok(text) => dom::download_text(
                    &format!("handoff-{}.svg", kind.id()),
                    "image/svg+xml",
                    &text,
                ),
                Err(e) => state.dispatch(Action::Error(format!(
                    "the chart could not be exported: {e}"
                ))),
            }
        })
    };
    let label = match props.kind {
        ChartKind::Cumulative => "Task downtime accumulated over time, one line per strategy",
        ChartKind::Availability => {
            "Availability of each task over time: up, restoring or down, with learner replay shaded"
        }
        ChartKind::Load => "Active tasks per member over time",
    };
    html! {
        <figure class="chart panel" data-testid={format!("chart-{}", props.kind.id())}>
            <canvas ref={canvas} width={SIZE.0.to_string()} height={SIZE.1.to_string()} role="img" aria-label={label}
                onmousemove={on_move} onmouseleave={on_leave} onclick={on_click}></canvas>
            if let Some((x, y, text)) = &*hover {
                <div class="hover" style={format!("left: {}px; top: {}px", x + 12, y + 12)} data-testid="chart-hover">{ text }</div>
            }
            <figcaption class="chart-actions">
                <span>{ label }</span>
                <button data-testid={format!("export-png-{}", props.kind.id())} onclick={export_png}>{ "PNG" }</button>
                <button data-testid={format!("export-svg-{}", props.kind.id())} onclick={export_svg}>{ "SVG" }</button>
            </figcaption>
        </figure>
    }
}

/// Reads one measure off the metrics (`None`: not reached yet).
type MetricOf = fn(&Metrics) -> Option<u64>;

/// The comparison.
#[function_component(CompareView)]
pub fn compare_view(props: &CompareProps) -> Html {
    let chart_lane = use_state(|| 0usize);
    let state = &props.state;
    let session = state.session.borrow();
    let clock = session.clock();
    let strategies = session.strategies();
    let lanes: Vec<(Strategy, Frame, Metrics)> = session
        .lanes()
        .iter()
        .map(|l| (l.strategy, Frame::of(l.view()), Metrics::of(l.view())))
        .collect();
    let names = session.main().view().roster().members.clone();
    let default_rate = session.scenario().config.restore_rate;
    let can_crash_leader = session.check(&Command::CrashLeader).is_ok();
    drop(session);
    // Charts redraw on every deliberate change, and every 15th frame while playing.
    let redraw = state.saved_version * 1_000_003 + state.version / 15;

    let toggle = |s: Strategy| {
        let (d, current) = (state.dispatcher(), strategies.clone());
        Callback::from(move |_| {
            let mut next: Vec<Strategy> = current.clone();
            if let Some(i) = next.iter().position(|x| *x == s) {
                if next.len() > 2 {
                    next.remove(i);
                }
            } else if next.len() < MAX_LANES {
                next.push(s);
            }
            let ordered: Vec<Strategy> = Strategy::ALL
                .iter()
                .copied()
                .filter(|x| next.contains(x))
                .collect();
            d.dispatch(Action::Strategies(ordered));
        })
    };
    let best = |f: MetricOf| -> Option<u64> { lanes.iter().filter_map(|(_, _, m)| f(m)).min() };
    let columns: [(&str, MetricOf); 7] = [
        ("total downtime (ms)", |m| Some(m.total_task_downtime_ms)),
        ("longest outage (ms)", |m| Some(m.longest_outage_ms)),
        ("worst task (ms)", |m| Some(m.max_task_downtime_ms)),
        ("rebalances", |m| Some(m.rebalances as u64)),
        ("time to balance (ms)", |m| m.time_to_balance_ms),
        ("records replayed", |m| Some(m.records_replayed)),
        ("moves", |m| Some(m.moves as u64)),
    ];
    let pick_lane = {
        let chart_lane = chart_lane.clone();
        Callback::from(move |e: Event| {
            let v = e
                .target_unchecked_into::<web_sys::HtmlSelectElement>()
                .value();
            chart_lane.set(v.parse().unwrap_or(0));
        })
    };
    let lane_class = format!("lanes lanes-{}", lanes.len());
    html! {
        <div class="compare" data-testid="compare">
            <section class="panel">
                <div class="strategy-pick" role="group" aria-label="strategies compared">
                    <b>{ "Strategies:" }</b>
                    { for Strategy::ALL.iter().map(|&s| html! {
                        <label>
                            <input type="checkbox" data-testid={format!("strategy-{}", s.name())} checked={strategies.contains(&s)}
                                disabled={strategies.contains(&s) && strategies.len() <= 2 || !strategies.contains(&s) && strategies.len() >= MAX_LANES}
                                onchange={toggle(s)} />
                            { format!(" {}", s.name()) }
                        </label>
                    }) }
                    <span class="waiting">{ "Commands apply to every lane at the same moment." }</span>
                </div>
                <MemberToolbar names={names} default_rate={default_rate} can_crash_leader={can_crash_leader} on_command={props.on_command.clone()} />
            </section>
            <div class={lane_class}>
                { for lanes.iter().map(|(s, frame, m)| html! {
                    <section class="panel lane" data-testid="lane" data-strategy={s.name()} aria-label={format!("{} lane", s.name())}>
                        <h2>
                            <span class="what">{ s.name() }</span>
                            <span>{ format!("gen {} \u{00B7} {}", frame.round.generation, frame.round.phase.describe()) }</span>
                        </h2>
                        <p class="waiting">{ format!("downtime {} ms \u{00B7} {} rebalances{}", m.total_task_downtime_ms, m.rebalances, if m.at_rest { " \u{00B7} at rest" } else { "" }) }</p>
                        <GroupView cards={frame.cards.clone()} unowned={frame.unowned.clone()} on_command={props.on_command.clone()}
                            motion={state.motion && state.continuous} compact=true label={format!("members under {}", s.name())} />
                    </section>
                }) }
            </div>
            <section class="panel">
                <h2>{ format!("Metrics at {clock} ms") }</h2>
                <table class="compare-table" data-testid="compare-table">
                    <thead>
                        <tr><th>{ "strategy" }</th>{ for columns.iter().map(|(name, _)| html! { <th scope="col">{ *name }</th> }) }</tr>
                    </thead>
                    <tbody>
                        { for lanes.iter().map(|(s, _, m)| html! {
                            <tr data-strategy={s.name()}>
                                <th scope="row">{ s.name() }</th>
                                { for columns.iter().map(|(name, f)| {
                                    let v = f(m);
                                    let is_best = v.is_some() && v == best(*f) && lanes.len() > 1;
                                    html! {
                                        <td class={classes!(is_best.then_some("best"))} data-metric={*name}>
                                            { v.map_or("not yet".to_string(), |v| v.to_string()) }
                                            if is_best { <span class="visually-hidden">{ " (best)" }</span> }
                                        </td>
                                    }
                                }) }
                            </tr>
                        }) }
                    </tbody>
                </table>
            </section>
            <section class="panel">
                <h2>
                    { "Charts " }
                    <label>{ "per-lane charts for " }
                        <select data-testid="chart-lane" onchange={pick_lane}>
                            { for lanes.iter().enumerate().map(|(i, (s, _, _))| html! {
                                <option value={i.to_string()} selected={i == *chart_lane}>{ s.name() }</option>
                            }) }
                        </select>
                    </label>
                </h2>
                <div class="charts">
                    <Chart state={state.clone()} kind={ChartKind::Cumulative} lane={0} redraw={redraw} on_seek={props.on_seek.clone()} />
                    <Chart state={state.clone()} kind={ChartKind::Availability} lane={*chart_lane} redraw={redraw} on_seek={props.on_seek.clone()} />
                    <Chart state={state.clone()} kind={ChartKind::Load} lane={*chart_lane} redraw={redraw} on_seek={props.on_seek.clone()} />
                </div>
            </section>
        </div>
    }
}
