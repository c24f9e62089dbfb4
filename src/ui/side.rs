//! The panels beside the group: live metrics with downtime per task, and the log in the
//! seed's notation (click a round to go there).

use super::term::term;
use crate::playground::screen::Broken;
use crate::playground::screen::{Log, LogRound};
use crate::playground::{Action, Playback};
use crate::views::counted;
use crate::views::metrics::Metrics;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// Properties of the metrics panel.
#[derive(Properties, PartialEq)]
pub struct MetricsProps {
    /// The measures at the clock.
    pub metrics: Metrics,
    /// The tasks down longest, with their downtime (ms), worst first.
    pub worst: Vec<(String, u64)>,
    /// How many other tasks had downtime.
    pub others_down: usize,
    /// When something last happened.
    pub last_change: u64,
    /// Under Kafka's streams protocol: the rebalances counted are group epochs.
    pub streams: bool,
}

/// Live measures.
#[function_component(MetricsPanel)]
pub fn metrics_panel(props: &MetricsProps) -> Html {
    let m = &props.metrics;
    let worst = m.max_task_downtime_ms.max(1);
    html! {
        <section class="panel" aria-labelledby="metrics-title" data-testid="metrics">
            <h2 id="metrics-title">{ "Metrics" }</h2>
            <dl class="metrics">
                <dt>{ term("downtime", "total downtime") }</dt>
                <dd data-testid="total-downtime">{ format!("{} ms", m.total_task_downtime_ms) }</dd>
                <dt>{ "longest outage" }</dt><dd>{ format!("{} ms", m.longest_outage_ms) }</dd>
                <dt>{ if props.streams { term("group epoch", "group epochs") } else { term("rebalance", "rebalances") } }</dt>
                <dd data-testid="rebalances">{ m.rebalances }</dd>
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
            <div class="downtime" role="list" aria-label="the tasks down longest">
                { for props.worst.iter().map(|(name, ms)| {
                    let width = format!("width: {:.1}%", *ms as f64 / worst as f64 * 100.0);
                    html! {
                        <div key={name.clone()} role="listitem">
                            <span>{ name }</span>
                            <span class="dbar" style={width}></span>
                            <span>{ format!("{ms} ms") }</span>
                        </div>
                    }
                }) }
            </div>
            if props.others_down > 0 {
                <p class="waiting">{ format!("and {} more tasks with downtime", props.others_down) }</p>
            }
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
    let everything = use_state(|| false);
    // Rounds the reader opened to read whole (by index).
    let opened = use_state(Vec::<u32>::new);
    let on_open = {
        let opened = opened.clone();
        use_callback(opened.clone(), move |index: u32, opened| {
            let mut now = (**opened).clone();
            now.push(index);
            opened.set(now);
        })
    };
    let container = use_node_ref();
    {
        // Follow the round in progress (or the last one): scroll it into the log's view. After
        // the frame is drawn (a zero timeout): reading where it is now, while the page is being
        // changed, would force the browser to lay the page out an extra time.
        let container = container.clone();
        use_effect_with((props.current, log.pending.is_some()), move |_| {
            gloo_timers::callback::Timeout::new(0, move || {
                if let Some(el) = container.cast::<web_sys::HtmlElement>() {
                    let target = el
                        .query_selector(".pending, .entry:has(.round.current)")
                        .ok()
                        .flatten()
                        .and_then(|t| t.dyn_into::<web_sys::HtmlElement>().ok());
                    if let Some(t) = target {
                        el.set_scroll_top(t.offset_top() - 4);
                    }
                }
            })
            .forget();
        });
    }
    let violation_html = |v: &Broken| {
        let jump = {
            let at = v.at_ms;
            props
                .on_action
                .reform(move |_: MouseEvent| Action::Playback(Playback::Seek(at)))
        };
        html! {
            <div class="violation" data-testid="violation" role="alert">
                <button class="jump" onclick={jump}>
                    { format!("{} ms{}: {} broken", v.at_ms, v.round.map(|r| format!(" (round {r})")).unwrap_or_default(), v.invariant) }
                </button>
                { format!(" {}", v.detail) }
            </div>
        }
    };
    // Only the latest rounds are drawn unless asked: a large group writes long rounds, and a
    // busy history many of them (the export has them all).
    let hidden = if *everything { 0 } else { log.left_out() };
    let show_all = {
        let everything = everything.clone();
        Callback::from(move |_| everything.set(true))
    };
    html! {
        <section class="panel" aria-labelledby="log-title">
            <h2 id="log-title">{ "Log" }</h2>
            <div class="log" data-testid="log" tabindex="0" aria-label="rebalance log in the seed's notation" ref={container}>
                if log.rounds.is_empty() && log.violations.is_empty() && log.pending.is_none() {
                    <div class="end">{ "No rebalance yet." }</div>
                }
                if hidden > 0 {
                    <button class="earlier" data-testid="log-earlier" onclick={show_all}>
                        { format!("show the earlier {}", counted(hidden as u64, "round")) }
                    </button>
                }
                <div class="rounds">
                    { for log.rounds.iter().skip(hidden).map(|r| html! {
                        <div key={r.index} class="entry">
                            <LogRoundView round={r.clone()} current={props.current == Some(r.index)}
                                opened={opened.contains(&r.index)} on_open={on_open.clone()} on_action={props.on_action.clone()} />
                            { for log.violations.iter().filter(|v| v.round == Some(r.index)).map(violation_html) }
                        </div>
                    }) }
                </div>
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

/// Properties of one round of the log.
#[derive(Properties, PartialEq)]
struct LogRoundProps {
    /// The round (shared: a round left as it was is not drawn again).
    round: Rc<LogRound>,
    /// It is the round in progress, or the last.
    current: bool,
    /// The reader opened it to read whole.
    opened: bool,
    /// Opens the round whose index it is given.
    on_open: Callback<u32>,
    /// Carries out an action (a seek here).
    on_action: Callback<Action>,
}

/// One round of the log: its heading jumps to it, and its lines follow, clipped until the
/// reader opens it.
#[function_component(LogRoundView)]
fn log_round_view(props: &LogRoundProps) -> Html {
    let r = &props.round;
    let jump = {
        let at = r.started_at;
        props
            .on_action
            .reform(move |_: MouseEvent| Action::Playback(Playback::Seek(at)))
    };
    let (body, left_out) = if props.opened {
        (r.body.as_str(), 0)
    } else {
        r.drawn(props.current)
    };
    let open = {
        let index = r.index;
        props.on_open.reform(move |_: MouseEvent| index)
    };
    html! {
        <div class={classes!("round", props.current.then_some("current"))}
            data-round={r.index.to_string()} data-at={r.started_at.to_string()}>
            <button class="jump" onclick={jump} title={format!("jump to {} ms", r.started_at)}>{ r.heading.clone() }</button>
            { "\n" }
            // A line per block: lines added to a round, or a round clipped to its first
            // lines, lay out only what changed, not all of the round's text again.
            { for body.lines().enumerate().map(|(i, line)| html! { <div key={i} class="line">{ line }{ "\n" }</div> }) }
            if left_out > 0 {
                <button class="more" data-testid="log-more" onclick={open}>
                    { format!("show the other {} of this round", counted(left_out as u64, "line")) }
                </button>
            }
        </div>
    }
}
