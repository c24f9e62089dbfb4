//! Playback: play and pause, step, reset, speed, the scrubber and the timeline of rounds,
//! violations and forks under it, with the scheduled commands' editor on its track.

use super::hooks::maybe;
use super::schedule::ScheduleTrack;
use crate::playground::screen::Mark;
use crate::playground::{Action, CommandEditor, Playback, Schedule, SPEEDS, SPEED_LABELS};
use crate::views::units::moment;
use std::rc::Rc;
use yew::prelude::*;

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
    /// The scrubber's end, in ms.
    pub scale: u64,
    /// The generation at the clock (the group epoch under the streams protocol).
    pub generation: u32,
    /// What it counts: "generation", or "group epoch" under the streams protocol.
    pub counter: &'static str,
    /// Words for the scrubber's position.
    pub position_text: AttrValue,
    /// What the timeline shows.
    pub marks: Rc<Vec<Mark>>,
    /// The scheduled commands on the track.
    pub schedule: Rc<Schedule>,
    /// The timeline editor's command editor, while it is open.
    pub editor: Option<CommandEditor>,
    /// The number of the session shown.
    pub session: u64,
    /// Carries out an action.
    pub on_action: Callback<Action>,
}

/// Properties of the marks under the scrubber.
#[derive(Properties, PartialEq)]
struct MarksProps {
    marks: Rc<Vec<Mark>>,
    scale: u64,
}

/// Rounds, violations and abandoned branches under the scrubber; redrawn only when they
/// change, not on every frame.
#[function_component(Marks)]
fn marks(props: &MarksProps) -> Html {
    let max = props.scale.max(1) as f64;
    let pos = |t: u64| format!("left: {:.3}%", (t as f64 / max * 100.0).min(100.0));
    let width = |a: u64, b: u64| {
        format!(
            "left: {:.3}%; width: {:.3}%",
            (a as f64 / max * 100.0).min(100.0),
            (b.saturating_sub(a) as f64 / max * 100.0).min(100.0)
        )
    };
    html! {
        <>
            { for props.marks.iter().map(|m| match m {
                Mark::Round(t) => html! { <span class="tick" style={pos(*t)}></span> },
                Mark::Violation(t) => html! { <span class="tick violation" style={pos(*t)}></span> },
                Mark::Fork(a, b) => html! { <span class="fork" style={width(*a, *b)} title={format!("abandoned branch from {} to {}", moment(*a), moment(*b))}></span> },
            }) }
        </>
    }
}

/// Properties of the playback buttons.
#[derive(Properties, PartialEq)]
struct ButtonsProps {
    playing: bool,
    speed: f64,
    on_action: Callback<Action>,
}

/// Play, step, reset and speed: drawn again when playing or the speed changes, not on every
/// frame as the clock moves.
#[function_component(PlaybackButtons)]
fn playback_buttons(props: &ButtonsProps) -> Html {
    let on = &props.on_action;
    let playing = props.playing;
    let play = on.reform(move |_: MouseEvent| Action::Playback(Playback::Play(!playing)));
    let step = on.reform(|_: MouseEvent| Action::Playback(Playback::StepEvent));
    let step_round = on.reform(|_: MouseEvent| Action::Playback(Playback::StepRound));
    let back = on.reform(|_: MouseEvent| Action::Playback(Playback::StepBack));
    let reset = on.reform(|_: MouseEvent| Action::Playback(Playback::Reset));
    let speed = maybe(on, |e: Event| {
        let value = e
            .target_unchecked_into::<web_sys::HtmlSelectElement>()
            .value();
        let index = SPEED_LABELS.iter().position(|l| *l == value)?;
        SPEEDS
            .get(index)
            .map(|&s| Action::Playback(Playback::Speed(s)))
    });
    html! {
        <div class="buttons">
            <button data-testid="play" class="primary" aria-pressed={props.playing.to_string()} onclick={play}
                aria-label={if props.playing { "pause" } else { "play" }} title="Play or pause (space)">
                { if props.playing { "\u{2016} Pause" } else { "\u{25B6} Play" } }
            </button>
            <button data-testid="back" onclick={back} title="Back to the previous event (left arrow)" aria-label="back to the previous event">{ "\u{25C2} back" }</button>
            <button data-testid="step" onclick={step} title="Step to the next event (right arrow)" aria-label="next event">{ "event \u{25B8}" }</button>
            <button data-testid="step-round" onclick={step_round} title="Step to the next rebalance round" aria-label="next round">{ "round \u{25B8}\u{25B8}" }</button>
            <button data-testid="reset" onclick={reset} title="Start this scenario again from 0 ms" aria-label="reset">{ "\u{27F2}" }</button>
            <label for="speed" class="visually-hidden">{ "speed" }</label>
            <select id="speed" data-testid="speed" onchange={speed} title="Speed (keys 1 to 7)">
                { for SPEEDS.iter().zip(SPEED_LABELS).map(|(&s, label)| html! {
                    <option value={label} selected={(s - props.speed).abs() < 1e-9}>{ format!("{label}\u{00D7}") }</option>
                }) }
            </select>
        </div>
    }
}

/// The transport bar.
#[function_component(Transport)]
pub fn transport(props: &TransportProps) -> Html {
    let on = &props.on_action;
    let seek = maybe(on, |e: InputEvent| {
        let value = e
            .target_unchecked_into::<web_sys::HtmlInputElement>()
            .value();
        value
            .parse::<u64>()
            .ok()
            .map(|t| Action::Playback(Playback::Seek(t)))
    });
    let max = props.scale;
    html! {
        <section class="transport" aria-label="playback">
            <PlaybackButtons playing={props.playing} speed={props.speed} on_action={on.clone()} />
            <div class="scrub" data-frontier={props.frontier.to_string()}>
                <label for="scrubber" class="visually-hidden">{ "time" }</label>
                <input id="scrubber" data-testid="scrubber" type="range" min="0" max={max.to_string()} step="1"
                    value={props.clock.to_string()} oninput={seek} aria-valuetext={props.position_text.clone()} />
                <div class="timeline" aria-hidden="true">
                    <Marks marks={props.marks.clone()} scale={props.scale} />
                    <span class="frontier" style={format!("left: {:.3}%", (props.frontier as f64 / max.max(1) as f64 * 100.0).min(100.0))}
                        title="simulated so far"></span>
                </div>
                <ScheduleTrack schedule={props.schedule.clone()} editor={props.editor.clone()} session={props.session} on_action={on.clone()} />
            </div>
            <div class="readout" aria-live="off">
                <span title="virtual time"><b><span data-testid="clock">{ props.clock }</span></b>{ " ms" }</span>
                <span class="term" title={crate::playground::glossary::define(props.counter).unwrap_or_default()}>
                    { props.counter }{ " " }<b data-testid="generation">{ props.generation }</b>
                </span>
            </div>
        </section>
    }
}
