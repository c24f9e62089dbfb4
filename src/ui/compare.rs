//! The compare view: two to four strategies on one clock and one command stream, each with
//! its own group, a live metrics table, and the charts. It takes plain data read off the
//! playground, never the playground itself.

use super::cards::GroupView;
use super::chart::{use_chart_fonts, Chart};
use super::hooks::maybe;
use super::later::Later;
use super::operations::OperationsBar;
use super::term::strategy_name;
use super::toolbar::MemberToolbar;
use crate::compare::Table;
use crate::playground::screen::{Charts, LaneView, Toolbar};
use crate::playground::{Action, Operations, StrategyChoice};
use crate::views::charts::ChartKind;
use crate::views::{counted, strategy_label};
use std::rc::Rc;
use yew::prelude::*;

/// Properties of the compare view.
#[derive(Properties, PartialEq)]
pub struct CompareProps {
    /// One lane per strategy, at the clock.
    pub lanes: Vec<LaneView>,
    /// The lanes' measures, their best marked.
    pub table: Table,
    /// The strategies offered, which are compared and which a click can add or take out.
    pub strategies: Vec<StrategyChoice>,
    /// The moment viewed.
    pub clock: u64,
    /// What the member toolbar needs.
    pub toolbar: Toolbar,
    /// The charts.
    pub charts: Rc<Charts>,
    /// The lane the per-lane charts show.
    pub chart_lane: usize,
    /// How long a chip that moves travels, in ms (none: it is simply drawn where it is).
    pub travel_ms: Option<u32>,
    /// Tasks as small marks (a large group).
    pub mini: bool,
    /// Task names, for the marks.
    pub names: Rc<Vec<String>>,
    /// Dark theme.
    pub dark: bool,
    /// Restarts, the rolling restart and zone outages.
    pub operations: Operations,
    /// Carries out an action (in every lane).
    pub on_action: Callback<Action>,
}

/// The comparison.
#[function_component(CompareView)]
pub fn compare_view(props: &CompareProps) -> Html {
    let on = &props.on_action;
    let lanes = &props.lanes;
    use_chart_fonts();
    let pick_lane = maybe(on, |e: Event| {
        let v = e
            .target_unchecked_into::<web_sys::HtmlSelectElement>()
            .value();
        v.parse().ok().map(Action::ChartLane)
    });
    html! {
        <div class="compare" data-testid="compare">
            <section class="panel">
                <div class="strategy-pick" role="group" aria-label="strategies compared">
                    <b>{ "Strategies:" }</b>
                    { for props.strategies.iter().map(|c| {
                        let s = c.strategy;
                        html! {
                            <label>
                                <input type="checkbox" data-testid={format!("strategy-{}", s.name())} checked={c.compared}
                                    disabled={!c.can_toggle}
                                    onchange={props.on_action.reform(move |_: Event| Action::ToggleStrategy(s))} />
                                { " " }{ strategy_name(s) }
                            </label>
                        }
                    }) }
                    <span class="waiting">{ "Commands apply to every lane at the same moment." }</span>
                </div>
                <MemberToolbar toolbar={props.toolbar.clone()} on_action={on.clone()} />
                <OperationsBar operations={props.operations.clone()} on_action={on.clone()} />
            </section>
            <div class={format!("lanes lanes-{}", lanes.len())}>
                { for lanes.iter().enumerate().map(|(i, lane)| {
                    let (s, frame, m) = (lane.strategy, &lane.frame, &lane.metrics);
                    let state = format!("{} \u{00B7} {}", frame.round.counter_short(), frame.round.phase.describe());
                    // What the protocol strip's head says, on hover: the two epochs under Kafka's streams protocol.
                    let state_title = frame.round.streams.as_ref().map_or_else(|| state.clone(), |s| s.head());
                    let counted_as = if s.streams_protocol() { "group epoch" } else { "rebalance" };
                    let figures = format!("downtime {} ms \u{00B7} {}{}", m.total_task_downtime_ms, counted(m.rebalances, counted_as), if m.at_rest { " \u{00B7} at rest" } else { "" });
                    html! {
                        <section class="panel lane" data-testid="lane" data-strategy={s.name()} aria-label={format!("{} lane", s.name())}>
                            <h2>
                                <span class="what">{ strategy_name(s) }</span>
                                <span data-testid="lane-state" title={state_title}>{ state }</span>
                            </h2>
                            <p class="waiting" title={figures.clone()}>{ figures }</p>
                            // Each lane's group a frame after the one before: the four take a task each.
                            <Later frames={i + 1}>
                                <GroupView cards={frame.cards.clone()} unowned={frame.unowned.clone()} on_action={on.clone()}
                                    travel_ms={props.travel_ms} small=true mini={props.mini} names={props.names.clone()}
                                    restart={props.operations.restart} dark={props.dark}
                                    label={format!("members under {}", s.name())} />
                            </Later>
                        </section>
                    }
                }) }
            </div>
            <section class="panel">
                <h2>{ format!("Metrics at {} ms", props.clock) }</h2>
                <table class="compare-table" data-testid="compare-table">
                    <thead>
                        <tr><th>{ "strategy" }</th>{ for props.table.titles.iter().map(|title| html! { <th scope="col">{ *title }</th> }) }</tr>
                    </thead>
                    <tbody>
                        { for props.table.rows.iter().map(|row| html! {
                            <tr data-strategy={row.strategy.name()}>
                                <th scope="row">{ strategy_name(row.strategy) }</th>
                                { for row.cells.iter().zip(&props.table.titles).map(|(cell, title)| html! {
                                    <td class={classes!(cell.best.then_some("best"))} data-metric={*title}>
                                        { cell.text.clone() }
                                        if cell.best { <span class="visually-hidden">{ " (best)" }</span> }
                                    </td>
                                }) }
                            </tr>
                        }) }
                    </tbody>
                </table>
                <ul class="table-notes" data-testid="compare-notes">
                    { for props.table.notes().into_iter().map(|note| html! { <li>{ note }</li> }) }
                </ul>
            </section>
            <section class="panel">
                <h2>{ "Charts" }</h2>
                <p class="chart-pick">
                    <label>{ "per-lane charts for " }
                        <select data-testid="chart-lane" onchange={pick_lane}>
                            { for lanes.iter().enumerate().map(|(i, l)| html! {
                                <option value={i.to_string()} selected={i == props.chart_lane} title={l.strategy.caveat()}>{ strategy_label(l.strategy) }</option>
                            }) }
                        </select>
                    </label>
                </p>
                // The charts after the lanes' groups, their fonts loaded by then, a frame
                // apart: the three in one frame drew for 20 to 25 ms.
                <div class="charts">
                    { for [ChartKind::Cumulative, ChartKind::Availability, ChartKind::Load].into_iter().enumerate().map(|(k, kind)| html! {
                        <Later frames={lanes.len() + 1 + k}>
                            <Chart charts={props.charts.clone()} kind={kind} clock={props.clock} dark={props.dark} on_action={on.clone()} />
                        </Later>
                    }) }
                </div>
            </section>
        </div>
    }
}
