//! The panels beside the group: live metrics with downtime per task, and the log in the
//! seed's notation (click a round to go there).

use super::term::Term;
use crate::history::invariants::Violation;
use crate::model::Roster;
use crate::playground::screen::{Log, LogRound};
use crate::playground::Action;
use crate::views::metrics::Metrics;
use yew::prelude::*;

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
    /// The log as known at the clock.
    pub log: Log,
    /// The round in progress or last, highlighted.
    pub current: Option<u32>,
    /// Carries out an action (a seek here).
    pub on_action: Callback<Action>,
}

/// The rounds in the seed's notation, with violations in red.
#[function_component(LogPanel)]
pub fn log_panel(props: &LogProps) -> Html {
    let log = &props.log;
    let round_html = |r: &LogRound| {
        let jump = {
            let at = r.started_at;
            props
                .on_action
                .reform(move |_: MouseEvent| Action::Seek(at))
        };
        html! {
            <div key={r.index} class={classes!("round", (props.current == Some(r.index)).then_some("current"))}
                data-round={r.index.to_string()} data-at={r.started_at.to_string()}>
                <button class="jump" onclick={jump} title={format!("jump to {} ms", r.started_at)}>{ r.heading.clone() }</button>
                { format!("\n{}", r.body) }
            </div>
        }
    };
    let violation_html = |v: &Violation| {
        let jump = {
            let at = v.at_ms;
            props
                .on_action
                .reform(move |_: MouseEvent| Action::Seek(at))
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
                if log.rounds.is_empty() && log.violations.is_empty() && log.pending.is_none() {
                    <div class="end">{ "No rebalance yet." }</div>
                }
                { for log.rounds.iter().map(|r| {
                    let violations: Html = log.violations.iter().filter(|v| v.round == Some(r.index)).map(violation_html).collect();
                    html! { <>{ round_html(r) }{ violations }</> }
                }) }
                { for log.violations.iter().filter(|v| v.round.is_none()).map(violation_html) }
                if let Some(pending) = &log.pending {
                    <div class="pending">{ pending }</div>
                }
                if let Some(end) = &log.ending {
                    <div class="end">{ end }</div>
                }
            </div>
        </section>
    }
}
