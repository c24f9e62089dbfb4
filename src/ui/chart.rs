//! One compare chart on a canvas: drawn by plotters from its data when the data changes,
//! with the clock as a line over it (so playing moves a line, not a redraw), values under the
//! pointer, click to seek, and PNG and SVG export.

use super::colours::DARK;
use super::dom;
use super::hooks::maybe;
use crate::playground::screen::{Charts, CHART_SIZE};
use crate::playground::{Action, Export, Playback};
use crate::views::charts::{load_fonts, ChartData, ChartKind, Paper, PlotMap};
use plotters::prelude::*;
use plotters_canvas::CanvasBackend;
use std::rc::Rc;
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

/// Loads the charts' fonts ([`load_fonts`]) on a canvas of its own, in a task of its own
/// after the view holding charts first renders: its charts then draw without that cost.
#[hook]
pub fn use_chart_fonts() {
    use_effect_with((), |_| {
        let load = gloo_timers::callback::Timeout::new(0, || {
            if let Some(area) = dom::new_canvas()
                .and_then(CanvasBackend::with_canvas_object)
                .map(IntoDrawingArea::into_drawing_area)
            {
                let _ = load_fonts(&area);
            }
        });
        move || drop(load)
    });
}

/// Properties of one chart.
#[derive(Properties, PartialEq)]
pub struct ChartProps {
    /// The compare view's charts (this one draws one of them).
    pub charts: Rc<Charts>,
    /// Which chart.
    pub kind: ChartKind,
    /// The moment viewed, marked by a line.
    pub clock: u64,
    /// Dark theme: the paper, text and grid in the theme's colours (exports stay light).
    pub dark: bool,
    /// Carries out an action (seek, export, error).
    pub on_action: Callback<Action>,
}

fn data(charts: &Charts, kind: ChartKind) -> &ChartData {
    match kind {
        ChartKind::Cumulative => &charts.cumulative,
        ChartKind::Availability => &charts.availability,
        ChartKind::Load => &charts.load,
    }
}

/// A style sheet colour (`#rrggbb`) as plotters takes it; black if it is not one.
fn rgb(css: &str) -> RGBColor {
    let channel = |i: usize| {
        css.get(i..i + 2)
            .and_then(|h| u8::from_str_radix(h, 16).ok())
            .unwrap_or(0)
    };
    RGBColor(channel(1), channel(3), channel(5))
}

/// The paper of a theme: white, or the dark theme's panel, text and separators.
pub fn paper(dark: bool) -> Paper {
    if dark {
        Paper {
            background: rgb(DARK.panel),
            ink: rgb(DARK.ink),
            grid: rgb(DARK.line),
        }
    } else {
        Paper::LIGHT
    }
}

/// Draws `chart` on `canvas` on a theme's paper; how its pixels map back, if it was drawn.
fn draw_on(canvas: HtmlCanvasElement, chart: &ChartData, dark: bool) -> Option<PlotMap> {
    let area = CanvasBackend::with_canvas_object(canvas)?.into_drawing_area();
    let map = chart.draw(&area, paper(dark), None).ok()?;
    area.present().ok()?;
    Some(map)
}

/// The chart drawn light on a canvas of its own, as a PNG data URL: an export looks the same
/// in either theme, as the SVG export does.
fn light_png(chart: &ChartData) -> Option<String> {
    let canvas = dom::new_canvas()?;
    canvas.set_width(CHART_SIZE.0);
    canvas.set_height(CHART_SIZE.1);
    draw_on(canvas.clone(), chart, false)?;
    canvas.to_data_url().ok()
}

/// The canvas pixel under a pointer, and the pointer's place in the figure.
fn pixel(canvas: &NodeRef, e: &MouseEvent) -> Option<(i32, i32, i32, i32)> {
    let c = canvas.cast::<HtmlCanvasElement>()?;
    let scale = c.width() as f64 / c.client_width().max(1) as f64;
    let (x, y) = (e.offset_x(), e.offset_y());
    Some(((x as f64 * scale) as i32, (y as f64 * scale) as i32, x, y))
}

/// A chart with hover values, click to seek, and exports.
#[function_component(Chart)]
pub fn chart(props: &ChartProps) -> Html {
    let canvas = use_node_ref();
    let map = use_state(|| None::<PlotMap>);
    let hover = use_state(|| None::<(i32, i32, String)>);
    {
        let (canvas, map) = (canvas.clone(), map.clone());
        use_effect_with(
            (props.charts.clone(), props.kind, props.dark),
            move |(charts, kind, dark)| {
                if let Some(c) = canvas.cast::<HtmlCanvasElement>() {
                    let drawn = draw_on(c, data(charts, *kind), *dark);
                    if *map != drawn {
                        map.set(drawn);
                    }
                }
            },
        );
    }
    let on_move = {
        let (canvas, map, hover, charts, kind) = (
            canvas.clone(),
            map.clone(),
            hover.clone(),
            props.charts.clone(),
            props.kind,
        );
        Callback::from(move |e: MouseEvent| {
            let Some((bx, by, x, y)) = pixel(&canvas, &e) else {
                return;
            };
            match map.and_then(|m| m.at(bx, by)) {
                Some((t, v)) => hover.set(Some((x, y, data(&charts, kind).describe(t, v)))),
                None => hover.set(None),
            }
        })
    };
    let on_leave = {
        let hover = hover.clone();
        Callback::from(move |_| hover.set(None))
    };
    let on_click = {
        let (canvas, map) = (canvas.clone(), map.clone());
        maybe(&props.on_action, move |e: MouseEvent| {
            let (bx, by, _, _) = pixel(&canvas, &e)?;
            let (t, _) = map.and_then(|m| m.at(bx, by))?;
            Some(Action::Playback(Playback::Seek(t.max(0.0).round() as u64)))
        })
    };
    let export_png = {
        let (charts, kind) = (props.charts.clone(), props.kind);
        Callback::from(move |_| {
            if let Some(url) = light_png(data(&charts, kind)) {
                dom::download_url(&format!("handoff-{}.png", kind.id()), &url);
            }
        })
    };
    let kind = props.kind;
    let export_svg = props
        .on_action
        .reform(move |_: MouseEvent| Action::Export(Export::Chart(kind)));
    // The clock's line, placed over the plot in percent of the canvas.
    let clock_line = map.map(|m| {
        let end = data(&props.charts, kind).end.max(1) as f64;
        let fx = (props.clock as f64 / end).min(1.0);
        let x = m.x_pixels.0 as f64 + fx * (m.x_pixels.1 - m.x_pixels.0) as f64;
        format!(
            "left: {:.2}%; top: {:.2}%; height: {:.2}%",
            x / CHART_SIZE.0 as f64 * 100.0,
            m.y_pixels.0 as f64 / CHART_SIZE.1 as f64 * 100.0,
            (m.y_pixels.1 - m.y_pixels.0) as f64 / CHART_SIZE.1 as f64 * 100.0
        )
    });
    html! {
        <figure class="chart panel" data-testid={format!("chart-{}", kind.id())}>
            <div class="plot">
                <canvas ref={canvas} width={CHART_SIZE.0.to_string()} height={CHART_SIZE.1.to_string()} role="img"
                    aria-label={kind.label()} onmousemove={on_move} onmouseleave={on_leave} onclick={on_click}></canvas>
                if let Some(style) = clock_line {
                    <span class="clock-line" style={style} aria-hidden="true"></span>
                }
            </div>
            if let Some((x, y, text)) = &*hover {
                <div class="hover" style={format!("left: {}px; top: {}px", x + 12, y + 12)} data-testid="chart-hover">{ text }</div>
            }
            <figcaption class="chart-actions">
                <span>{ kind.label() }</span>
                <button data-testid={format!("export-png-{}", kind.id())} onclick={export_png}>{ "PNG" }</button>
                <button data-testid={format!("export-svg-{}", kind.id())} onclick={export_svg}>{ "SVG" }</button>
            </figcaption>
        </figure>
    }
}
