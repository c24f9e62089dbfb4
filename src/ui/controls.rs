//! Playback: play and pause, step, reset, speed, the scrubber and the timeline of rounds,
//! commands, violations and forks under it.

use super::state::SPEEDS;
use yew::prelude::*;

/// Something drawn on the timeline.
#[derive(Clone, Debug, PartialEq)]
pub enum Mark {
    /// A rebalance round started.
    Round(u64),
    /// A person's (or the scenario's) command.
    Command(u64, String),
    /// An invariant broke.
    Violation(u64),
    /// An abandoned branch: forked at, had run until.
    Fork(u64, u64),
}

/// Properties of the transport bar.
#[derive(Properties, PartialEq)]
pub struct TransportProps {
    /// The clock runs.
    pub playing: bool,
    /// Virtual seconds per real second.
    pub speed: f64,
    /// The moment viewed, in ms.
    pub clock: u64,
    /// How far the history goes, in ms.
    pub frontier: u64,
    /// The generation at the clock.
    pub generation: u32,
    /// Words for the scrubber's position.
    pub position_text: AttrValue,
    /// What the timeline shows.
    pub marks: Vec<Mark>,
    /// Play or pause.
    pub on_play: Callback<bool>,
    /// Next event.
    pub on_step: Callback<()>,
    /// Next round.
    pub on_step_round: Callback<()>,
    /// Previous event.
    pub on_back: Callback<()>,
    /// Restart.
    pub on_reset: Callback<()>,
    /// New speed.
    pub on_speed: Callback<f64>,
    /// Move the clock.
    pub on_seek: Callback<u64>,
}

/// A round scale for the scrubber above `ms` (1, 2 or 5 times a power of ten, with room to
/// spare), so that the marks under it stay put while the history grows.
pub fn nice_scale(ms: u64) -> u64 {
    let wanted = ms + ms / 10 + 1;
    let mut unit = 1_000u64;
    loop {
        for m in [1, 2, 5] {
            if unit * m >= wanted {
                return unit * m;
            }
        }
        unit *= 10;
    }
}

fn seconds(ms: u64) -> String {
    format!("{}.{:03} s", ms / 1000, ms % 1000)
}

/// The transport bar.
#[function_component(Transport)]
pub fn transport(props: &TransportProps) -> Html {
    let play = {
        let on = props.on_play.clone();
        let playing = props.playing;
        Callback::from(move |_| on.emit(!playing))
    };
    let step = props.on_step.reform(|_: MouseEvent| ());
    let step_round = props.on_step_round.reform(|_: MouseEvent| ());
    let back = props.on_back.reform(|_: MouseEvent| ());
    let reset = props.on_reset.reform(|_: MouseEvent| ());
    let speed = {
        let on = props.on_speed.clone();
        Callback::from(move |e: Event| {
            let value = e
                .target_unchecked_into::<web_sys::HtmlSelectElement>()
                .value();
            if let Ok(v) = value.parse::<f64>() {
                on.emit(v);
            }
        })
    };
    let seek = {
        let on = props.on_seek.clone();
        Callback::from(move |e: InputEvent| {
            let value = e
                .target_unchecked_into::<web_sys::HtmlInputElement>()
                .value();
            if let Ok(v) = value.parse::<f64>() {
                on.emit(v.max(0.0) as u64);
            }
        })
    };
    let max = nice_scale(props.frontier.max(props.clock));
    let pos = |t: u64| format!("left: {:.3}%", (t as f64 / max as f64 * 100.0).min(100.0));
    let width = |a: u64, b: u64| {
        format!(
            "left: {:.3}%; width: {:.3}%",
            (a as f64 / max as f64 * 100.0).min(100.0),
            ((b.saturating_sub(a)) as f64 / max as f64 * 100.0).min(100.0)
        )
    };
    html! {
        <section class="transport" aria-label="playback">
            <div class="buttons">
                <button data-testid="play" class="primary" aria-pressed={props.playing.to_string()} onclick={play}
                    aria-label={if props.playing { "pause" } else { "play" }} title="Play or pause (space)">
                    { if props.playing { "\u{2016} Pause" } else { "\u{25B6} Play" } }
                </button>
                <button data-testid="back" onclick={back} title="Back to the previous event (left arrow)" aria-label="previous event">{ "\u{25C2} back" }</button>
                <button data-testid="step" onclick={step} title="Step to the next event (right arrow)" aria-label="next event">{ "event \u{25B8}" }</button>
                <button data-testid="step-round" onclick={step_round} title="Step to the next rebalance round" aria-label="next round">{ "round \u{25B8}\u{25B8}" }</button>
                <button data-testid="reset" onclick={reset} title="Start this scenario again from 0 ms" aria-label="reset">{ "\u{27F2}" }</button>
                <label for="speed" class="visually-hidden">{ "speed" }</label>
                <select id="speed" data-testid="speed" onchange={speed} title="Speed (keys 1 to 7)">
                    { for SPEEDS.iter().map(|&s| html! {
                        <option value={s.to_string()} selected={(s - props.speed).abs() < 1e-9}>{ format!("{s}\u{00D7}") }</option>
                    }) }
                </select>
            </div>
            <div class="scrub" data-frontier={props.frontier.to_string()}>
                <label for="scrubber" class="visually-hidden">{ "time" }</label>
                <input id="scrubber" data-testid="scrubber" type="range" min="0" max={max.to_string()} step="1"
                    value={props.clock.to_string()} oninput={seek} aria-valuetext={props.position_text.clone()} />
                <div class="timeline" aria-hidden="true">
                    { for props.marks.iter().map(|m| match m {
                        Mark::Round(t) => html! { <span class="tick" style={pos(*t)}></span> },
                        Mark::Command(t, what) => html! { <span class="tick command" style={pos(*t)} title={what.clone()}></span> },
                        Mark::Violation(t) => html! { <span class="tick violation" style={pos(*t)}></span> },
                        Mark::Fork(a, b) => html! { <span class="fork" style={width(*a, *b)} title={format!("abandoned branch from {} to {}", seconds(*a), seconds(*b))}></span> },
                    }) }
                    <span class="frontier" style={pos(props.frontier)} title="simulated so far"></span>
                </div>
            </div>
            <div class="readout" aria-live="off">
                <span title="virtual time"><b><span data-testid="clock">{ props.clock }</span></b>{ " ms" }</span>
                <span class="term" title={crate::glossary::define("generation").unwrap_or_default()}>
                    { "generation " }<b data-testid="generation">{ props.generation }</b>
                </span>
            </div>
        </section>
    }
}
