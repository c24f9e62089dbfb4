//! The task timeline under the group: one row per task over time (grouped by the member
//! running it), on the scrubber's time axis: who ran it, when it was up, restoring or down,
//! when a learner replayed it and when a standby was kept, with the rounds marked. Only the
//! rows in view are drawn (a large group has thousands); the clock is a line over it, and a
//! click moves the clock there.

use super::colours::{Colours, DARK, LIGHT};
use super::hooks::{use_in_view, use_width};
use crate::playground::screen::{TaskTimeline, TimelineRow};
use crate::playground::{Action, Playback};
use crate::views::series::Availability;
use std::rc::Rc;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, HtmlElement};
use yew::prelude::*;

/// A row's height, in CSS pixels: roomy for a few tasks, tight for many.
fn row_height(rows: usize) -> f64 {
    if rows <= 12 {
        22.0
    } else {
        14.0
    }
}

/// The labels' font, as the canvas reports it back.
const FONT: &str = "600 10px system-ui, sans-serif";
/// The time axis's height above the rows.
const AXIS: f64 = 16.0;
/// The label column's width.
const LABELS: f64 = 78.0;
/// The most rows in view before the timeline scrolls.
const VISIBLE_ROWS: usize = 22;

/// Properties of the task timeline.
#[derive(Properties, PartialEq)]
pub struct TimelineProps {
    /// The rows and the axis.
    pub data: Rc<TaskTimeline>,
    /// The moment viewed, marked by a line.
    pub clock: u64,
    /// Dark theme colours.
    pub dark: bool,
    /// Carries out an action (seek).
    pub on_action: Callback<Action>,
}

/// The time at a horizontal position, and back.
fn x_of(t: u64, width: f64, end: u64) -> f64 {
    LABELS + (t as f64 / end.max(1) as f64).min(1.0) * (width - LABELS - 6.0)
}

fn t_of(x: f64, width: f64, end: u64) -> Option<u64> {
    let plot = width - LABELS - 6.0;
    (x >= LABELS && plot > 0.0)
        .then(|| (((x - LABELS) / plot).clamp(0.0, 1.0) * end as f64).round() as u64)
}

fn draw(
    ctx: &CanvasRenderingContext2d,
    data: &TaskTimeline,
    first: usize,
    width: f64,
    c: &Colours,
) {
    let visible = data.rows.len().clamp(1, VISIBLE_ROWS);
    let row_height = row_height(data.rows.len());
    let height = AXIS + visible as f64 * row_height;
    ctx.set_fill_style_str(c.panel);
    ctx.fill_rect(0.0, 0.0, width, height);
    draw_axis_and_rounds(ctx, data, width, height, c);
    for (i, row) in data.rows.iter().enumerate().skip(first).take(visible + 1) {
        let y = AXIS + (i - first) as f64 * row_height;
        draw_row(ctx, data, row, y, width, c);
    }
}

/// The time axis above the rows, and the rounds shaded over them.
fn draw_axis_and_rounds(
    ctx: &CanvasRenderingContext2d,
    data: &TaskTimeline,
    width: f64,
    height: f64,
    c: &Colours,
) {
    let x = |t: u64| x_of(t, width, data.end);
    // The time axis: a label every fifth of the scrubber's range.
    // One font for the axis and the rows, so that redrawing never has to set it again.
    super::dom::canvas_font(ctx, FONT);
    ctx.set_text_baseline("middle");
    ctx.set_fill_style_str(c.muted);
    for i in 0..=5u64 {
        let t = data.end * i / 5;
        ctx.set_text_align(match i {
            0 => "left",
            5 => "right",
            _ => "center",
        });
        let _ = ctx.fill_text(&crate::views::units::duration(t), x(t), AXIS / 2.0);
    }
    // Rounds: shaded from start to sync, a line at the start.
    for &(start, synced) in &data.rounds {
        let to = synced.unwrap_or(data.until);
        ctx.set_fill_style_str(c.line);
        ctx.set_global_alpha(0.35);
        ctx.fill_rect(x(start), AXIS, (x(to) - x(start)).max(1.0), height - AXIS);
        ctx.set_global_alpha(1.0);
        ctx.fill_rect(x(start), AXIS, 1.0, height - AXIS);
    }
}

/// One task's row from `y` down: its group's heading, its name, its states, its learners and
/// standbys, and who ran it.
fn draw_row(
    ctx: &CanvasRenderingContext2d,
    data: &TaskTimeline,
    row: &TimelineRow,
    y: f64,
    width: f64,
    c: &Colours,
) {
    let x = |t: u64| x_of(t, width, data.end);
    let row_height = row_height(data.rows.len());
    // Roomy rows get thicker bars.
    let bar = if row_height > 20.0 { 1.4 } else { 1.0 };
    let mid = y + row_height / 2.0;
    if let Some(group) = &row.group {
        ctx.set_fill_style_str(c.muted);
        ctx.fill_rect(0.0, y, width, 1.0);
        ctx.set_text_align("left");
        ctx.set_fill_style_str(c.ink);
        let _ = ctx.fill_text(group.as_deref().unwrap_or("nobody"), 2.0, mid);
    }
    ctx.set_text_align("right");
    ctx.set_fill_style_str(c.ink);
    let _ = ctx.fill_text(&row.name, LABELS - 6.0, mid);
    for span in &row.line.spans {
        let (colour, h) = match span.state {
            Availability::Up => (c.active, 6.0 * bar),
            Availability::Restoring => (c.learner, 8.0 * bar),
            Availability::Down => (c.down, 10.0 * bar),
        };
        ctx.set_fill_style_str(colour);
        ctx.fill_rect(
            x(span.from),
            mid - h / 2.0,
            (x(span.to) - x(span.from)).max(0.5),
            h,
        );
    }
    // A learner replaying it (above) and a standby kept (below).
    ctx.set_fill_style_str(c.learned);
    for &(from, to) in &row.line.learning {
        ctx.fill_rect(x(from), y + 1.0, (x(to) - x(from)).max(0.5), 2.0);
    }
    ctx.set_fill_style_str(c.standby);
    for &(from, to) in &row.line.standby {
        ctx.fill_rect(
            x(from),
            y + row_height - 3.0,
            (x(to) - x(from)).max(0.5),
            2.0,
        );
    }
    // Who ran it: a tick where the owner changes, the name where there is room.
    for (k, &(from, to, member)) in row.line.owners.iter().enumerate() {
        if k > 0 {
            ctx.set_fill_style_str(c.ink);
            ctx.fill_rect(x(from) - 0.5, mid - 6.0 * bar, 1.5, 12.0 * bar);
        }
        if x(to) - x(from) > 26.0 {
            ctx.set_text_align("left");
            ctx.set_fill_style_str(c.chip_ink);
            let name = data.members.get(member.index()).map_or("", String::as_str);
            let _ = ctx.fill_text(name, x(from) + 3.0, mid);
        }
    }
}

/// What a point of the timeline shows, in words.
fn describe(data: &TaskTimeline, row: usize, t: u64) -> Option<String> {
    let row = data.rows.get(row)?;
    let state = row.line.spans.iter().find(|s| s.from <= t && t < s.to);
    let owner = row
        .line
        .owners
        .iter()
        .find(|o| o.0 <= t && t < o.1)
        .and_then(|o| data.members.get(o.2.index()));
    let mut words = vec![format!(
        "{} at {}",
        row.name,
        crate::views::units::duration(t)
    )];
    words.push(match (state.map(|s| s.state), owner) {
        (Some(Availability::Up), Some(m)) => format!("running on {m}"),
        (Some(Availability::Restoring), Some(m)) => format!("restoring on {m} (down)"),
        (Some(Availability::Down), _) => "down: nobody runs it".into(),
        _ => "not simulated yet".into(),
    });
    if row.line.learning.iter().any(|&(f, to)| f <= t && t < to) {
        words.push("a learner replays it".into());
    }
    if row.line.standby.iter().any(|&(f, to)| f <= t && t < to) {
        words.push("a standby is kept".into());
    }
    Some(words.join(" \u{00B7} "))
}

/// Draws the rows from `first` on the canvas again whenever the data, the scroll, the theme
/// or the width change.
#[hook]
fn use_timeline_drawing(
    canvas: &NodeRef,
    data: Rc<TaskTimeline>,
    first: usize,
    dark: bool,
    width: f64,
) {
    let canvas = canvas.clone();
    use_effect_with((data, first, dark, width), move |(data, first, dark, w)| {
        let Some(c) = canvas.cast::<HtmlCanvasElement>() else {
            return;
        };
        if *w <= 0.0 {
            return;
        }
        // The backing store is sized only when the size changes (that reallocates
        // it); every draw paints the whole canvas anyway.
        let rows = data.rows.len();
        let scale = super::dom::pixel_ratio();
        let (pixels_wide, pixels_high) = (
            (w * scale) as u32,
            ((AXIS + rows.clamp(1, VISIBLE_ROWS) as f64 * row_height(rows)) * scale) as u32,
        );
        if c.width() != pixels_wide || c.height() != pixels_high {
            c.set_width(pixels_wide);
            c.set_height(pixels_high);
        }
        if let Some(ctx) = super::dom::canvas_2d(&c) {
            let _ = ctx.set_transform(scale, 0.0, 0.0, scale, 0.0, 0.0);
            draw(&ctx, data, *first, *w, if *dark { &DARK } else { &LIGHT });
        }
    });
}

/// What each colour and mark of the timeline means.
fn timeline_legend() -> Html {
    html! {
        <p class="timeline-legend" aria-hidden="true">
            <span class="key up"></span>{ "running (owner named)" }
            <span class="key restoring"></span>{ "restoring (down)" }
            <span class="key down"></span>{ "down, nobody runs it" }
            <span class="key learning"></span>{ "learner replaying" }
            <span class="key standby"></span>{ "standby kept" }
            <span class="key round"></span>{ "a round, start to sync" }
        </p>
    }
}

/// The words for the point under the pointer, beside it and kept inside the timeline.
fn hover_box(x: f64, y: f64, text: &str, width: f64) -> Html {
    html! {
        <div class="hover" data-testid="timeline-hover"
            style={format!("left: {:.0}px; top: {:.0}px", (x + 12.0).min(width - 260.0).max(0.0), y + 14.0)}>{ text }</div>
    }
}

/// The task timeline.
#[function_component(TaskTimelineView)]
pub fn task_timeline(props: &TimelineProps) -> Html {
    let canvas = use_node_ref();
    let scroller = use_node_ref();
    let first = use_state(|| 0usize);
    let width = use_width(&canvas);
    let hover = use_state(|| None::<(f64, f64, String)>);
    // Out of the view (below the fold), the canvas keeps what it showed last: it is neither
    // drawn again nor is its clock line moved until it is scrolled to. Its size follows.
    let in_view = use_in_view(&scroller);
    let shown = use_mut_ref(|| (props.data.clone(), props.clock));
    if in_view {
        *shown.borrow_mut() = (props.data.clone(), props.clock);
    }
    let (data, clock) = shown.borrow().clone();
    let rows = props.data.rows.len();
    use_timeline_drawing(&canvas, data.clone(), *first, props.dark, width);
    let on_scroll = {
        let (scroller, first) = (scroller.clone(), first.clone());
        Callback::from(move |_: Event| {
            if let Some(el) = scroller.cast::<HtmlElement>() {
                let row = (f64::from(el.scroll_top()) / row_height(rows)) as usize;
                if row != *first {
                    first.set(row);
                }
            }
        })
    };
    let on_move = {
        let (hover, data, first) = (hover.clone(), data.clone(), *first);
        Callback::from(move |e: MouseEvent| {
            let (x, y) = (f64::from(e.offset_x()), f64::from(e.offset_y()));
            let row = ((y - AXIS) / row_height(data.rows.len())).floor();
            let found = (row >= 0.0)
                .then(|| t_of(x, width, data.end))
                .flatten()
                .and_then(|t| describe(&data, first + row as usize, t));
            hover.set(found.map(|text| (x, y, text)));
        })
    };
    let on_leave = {
        let hover = hover.clone();
        Callback::from(move |_| hover.set(None))
    };
    let on_click = {
        let (on, end) = (props.on_action.clone(), data.end);
        Callback::from(move |e: MouseEvent| {
            if let Some(t) = t_of(f64::from(e.offset_x()), width, end) {
                on.emit(Action::Playback(Playback::Seek(t)));
            }
        })
    };
    let visible = rows.clamp(1, VISIBLE_ROWS);
    let row = row_height(rows);
    let view_height = AXIS + visible as f64 * row;
    let clock_left = (width > 0.0).then(|| x_of(clock, width, data.end));
    html! {
        <section class="panel task-timeline" aria-labelledby="timeline-title" data-testid="task-timeline"
            data-rows={rows.to_string()}>
            <h2 id="timeline-title">{ "Task timeline" }</h2>
            { timeline_legend() }
            // Scrolled through by the keyboard too, when it has more rows than it shows.
            <div class="tt-scroll" ref={scroller} onscroll={on_scroll}
                tabindex={(rows > VISIBLE_ROWS).then_some("0")} role="region"
                aria-label="the task timeline's rows (the arrow keys scroll them)"
                style={format!("height: {:.0}px", view_height)}>
                <div class="tt-view" style={format!("height: {:.0}px", view_height)}>
                    <canvas ref={canvas} data-testid="task-timeline-canvas" role="img" class={classes!((!in_view).then_some("away"))}
                        aria-label="Each task over time: who ran it, when it was up, restoring or down, learner replay and standbys, with the rounds; click to move the clock there"
                        onmousemove={on_move} onmouseleave={on_leave} onclick={on_click}></canvas>
                    if let Some(left) = clock_left {
                        <span class="clock-line" style={format!("left: {:.1}px", left)} aria-hidden="true"></span>
                    }
                    if let Some((x, y, text)) = &*hover {
                        { hover_box(*x, *y, text, width) }
                    }
                </div>
                <div style={format!("height: {:.0}px", (rows - visible.min(rows)) as f64 * row)}></div>
            </div>
        </section>
    }
}
