//! The sweep panel: the form (a setting or two of the scenario, their values as typed, the
//! strategies), the runs' progress with a cancel, the table filling in, and the charts. It
//! takes the plain data the playground reads ([`SweepView`]) and sends its actions.

use super::chart::{paper, use_chart_fonts};
use super::hooks::maybe;
use super::term::strategy_name;
use crate::model::Strategy;
use crate::playground::sweep::{
    SweepAction, SweepField, SweepFigure, SweepProblem, SweepView, SWEEP_CHART_SIZE, SWEPT,
};
use crate::playground::Action;
use plotters::prelude::IntoDrawingArea;
use plotters_canvas::CanvasBackend;
use yew::prelude::*;

/// Properties of the sweep panel.
#[derive(Properties, PartialEq)]
pub struct SweepProps {
    /// What it shows.
    pub view: SweepView,
    /// Dark theme.
    pub dark: bool,
    /// Carries out an action.
    pub on_action: Callback<Action>,
}

/// Properties of one of the sweep's charts.
#[derive(Properties, PartialEq)]
struct CanvasProps {
    figure: SweepFigure,
    dark: bool,
    /// Its place among the charts: which frame draws it.
    index: usize,
}

/// The sweep's charts drawn in one frame at most: each canvas drawn adds its pixels to the
/// frame's commit (a few ms each without a GPU), and one cell can change every chart.
const CHARTS_PER_FRAME: usize = 3;

/// A frame, in ms (60 Hz).
const FRAME_MS: usize = 17;

/// One of the sweep's charts on a canvas, drawn by the files' own function, again only when
/// its data changed (a cell changes a few charts). Each chart is drawn in a task of its own,
/// [`CHARTS_PER_FRAME`] a frame: a cell that changes every chart would otherwise draw them
/// all in one task and one frame, over 50 ms on a busy machine.
#[function_component(SweepCanvas)]
fn sweep_canvas(props: &CanvasProps) -> Html {
    let canvas = use_node_ref();
    {
        let canvas = canvas.clone();
        let after = (props.index / CHARTS_PER_FRAME * FRAME_MS) as u32;
        use_effect_with(
            (props.figure.chart.clone(), props.dark),
            move |(chart, dark)| {
                let (chart, dark) = (chart.clone(), *dark);
                let draw = gloo_timers::callback::Timeout::new(after, move || {
                    if let Some(area) = canvas
                        .cast::<web_sys::HtmlCanvasElement>()
                        .and_then(CanvasBackend::with_canvas_object)
                        .map(IntoDrawingArea::into_drawing_area)
                    {
                        if chart.draw(&area, paper(dark)).is_ok() {
                            let _ = area.present();
                        }
                    }
                });
                // A chart changed again before it was drawn is drawn once, as it is now.
                move || drop(draw)
            },
        );
    }
    let f = &props.figure;
    html! {
        <figure class="sweep-chart" data-testid="sweep-chart" data-chart={f.id.clone()}>
            <canvas ref={canvas} width={SWEEP_CHART_SIZE.0.to_string()} height={SWEEP_CHART_SIZE.1.to_string()}
                role="img" aria-label={f.caption.clone()}></canvas>
            <figcaption aria-hidden="true">{ f.caption.clone() }</figcaption>
        </figure>
    }
}

/// The problems of the form beside `field`.
fn problems_of(problems: &[SweepProblem], field: Option<SweepField>) -> Html {
    html! {
        { for problems.iter().filter(|p| p.field == field).map(|p| html! {
            <p class="field-problem" data-testid="sweep-problem" role="alert">{ p.reason.clone() }</p>
        }) }
    }
}

/// The form's fields of setting `i`: its picker and its values.
fn setting_fields(v: &SweepView, i: usize, on: &Callback<Action>) -> Html {
    let pick = maybe(on, move |e: Event| {
        let value = e
            .target_unchecked_into::<web_sys::HtmlSelectElement>()
            .value();
        Some(Action::Sweep(SweepAction::Edit(
            SweepField::Setting(i),
            value,
        )))
    });
    let values = maybe(on, move |e: InputEvent| {
        let value = e
            .target_unchecked_into::<web_sys::HtmlInputElement>()
            .value();
        Some(Action::Sweep(SweepAction::Edit(
            SweepField::Values(i),
            value,
        )))
    });
    let chosen = v.settings[i].clone();
    let invalid = v
        .problems
        .iter()
        .any(|p| p.field == Some(SweepField::Values(i)));
    html! {
        <div class="sweep-setting">
            <label>
                { if i == 0 { "setting" } else { "and (optional)" } }
                <select data-testid={format!("sweep-setting-{i}")} onchange={pick}>
                    <option value="" selected={chosen.is_empty()}>{ if i == 0 { "pick a setting" } else { "none" } }</option>
                    { for v.names.iter().map(|n| html! {
                        <option value={n.clone()} selected={*n == chosen}>{ n.clone() }</option>
                    }) }
                </select>
            </label>
            { problems_of(&v.problems, Some(SweepField::Setting(i))) }
            <label>
                { "values" }
                <input data-testid={format!("sweep-values-{i}")} type="text" value={v.values[i].clone()}
                    placeholder="0,1,2 or 1..8 or 1e3..1e6x10" oninput={values} aria-invalid={invalid.to_string()} />
            </label>
            { problems_of(&v.problems, Some(SweepField::Values(i))) }
        </div>
    }
}

/// The table: a row per run, those done clickable to open their run in the compare view.
fn table(v: &SweepView, on: &Callback<Action>) -> Html {
    if v.rows.is_empty() {
        return html! {};
    }
    html! {
        <table class="sweep-table" data-testid="sweep-table">
            <thead><tr>{ for v.header.iter().map(|h| html! { <th scope="col">{ h.clone() }</th> }) }<th></th></tr></thead>
            <tbody>
                { for v.rows.iter().map(|row| {
                    let index = row.index;
                    let open = on.reform(move |_: MouseEvent| Action::Sweep(SweepAction::Open(index)));
                    html! {
                        <tr data-testid="sweep-row" data-done={row.done.to_string()}>
                            { for row.cells.iter().map(|c| html! { <td>{ c.clone() }</td> }) }
                            <td>
                                if row.done {
                                    <button type="button" data-testid="sweep-open" onclick={open}
                                        title="Open this run in the compare view, at these values">{ "open" }</button>
                                } else {
                                    <span class="muted">{ "\u{2026}" }</span>
                                }
                            </td>
                        </tr>
                    }
                }) }
            </tbody>
        </table>
    }
}

/// The sweep panel.
#[function_component(SweepPanel)]
pub fn sweep_panel(props: &SweepProps) -> Html {
    let v = &props.view;
    let on = &props.on_action;
    let run = on.reform(|_: MouseEvent| Action::Sweep(SweepAction::Run));
    let cancel = on.reform(|_: MouseEvent| Action::Sweep(SweepAction::Cancel));
    let toggle =
        |s: Strategy| on.reform(move |_: Event| Action::Sweep(SweepAction::ToggleStrategy(s)));
    let (done, all) = v.progress;
    use_chart_fonts();
    html! {
        <section class="panel sweep" aria-labelledby="sweep-title" data-testid="sweep">
            <h2 id="sweep-title">{ "Sweep a setting" }</h2>
            <div class="sweep-form">
                { for (0..SWEPT).map(|i| setting_fields(v, i, on)) }
                <fieldset class="sweep-strategies">
                    <legend>{ "under" }</legend>
                    { for v.strategies.iter().map(|&(s, on)| html! {
                        <label><input type="checkbox" data-testid="sweep-strategy" data-strategy={s.name()}
                            checked={on} onchange={toggle(s)} />{ strategy_name(s) }</label>
                    }) }
                </fieldset>
                { problems_of(&v.problems, None) }
                <button class="primary" data-testid="sweep-run" onclick={run} disabled={!v.problems.is_empty()}>{ "run the sweep" }</button>
                if v.running {
                    <button data-testid="sweep-cancel" onclick={cancel}>{ "cancel" }</button>
                }
            </div>
            if all > 0 {
                <p class="sweep-progress" data-testid="sweep-progress" role="status" data-done={done.to_string()} data-all={all.to_string()}>
                    { format!("{done} of {all} runs done{}", if v.running { ", the others running off the page" } else { "" }) }
                    if let Some(why) = &v.stopped {
                        { format!(" \u{00B7} {why}") }
                    }
                </p>
            }
            { table(v, on) }
            <div class="sweep-charts">
                { for v.charts.iter().enumerate().map(|(index, c)| html! {
                    <SweepCanvas key={c.id.clone()} figure={c.clone()} dark={props.dark} {index} />
                }) }
            </div>
        </section>
    }
}
