//! The task timeline under the group: one row per task over time (grouped by the member
//! running it), on the scrubber's time axis: who ran it, when it was up, restoring or down,
//! when a learner replayed it and when a standby was kept, with the rounds marked. Only the
//! rows in view are drawn (a large group has thousands); the clock is a line over it, and a
//! click moves the clock there.

use super::colours::{Colours, DARK, LIGHT};
use super::hooks::{use_in_view, use_width};
use crate::playground::screen::{TaskTimeline, TimelineRow};
use crate::playground::timeline::{AXIS, LABELS, VISIBLE_ROWS};
use crate::playground::{Action, Playback};
use crate::views::series::Availability;
use std::rc::Rc;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, HtmlElement};
use yew::prelude::*;

/// The labels' font, as the canvas reports it back.
const FONT: &str = "600 10px system-ui, sans-serif";

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

fn draw(
    ctx: &CanvasRenderingContext2d,
    data: &TaskTimeline,
    first: usize,
    width: f64,
    c: &Colours,
) {
    let (visible, row_height) = (data.visible_rows(), data.row_height());
    let height = data.view_height();
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
    let x = |t: u64| data.x_of(t, width);
    // One font for the axis and the rows, so that redrawing never has to set it again.
    super::dom::canvas_font(ctx, FONT);
    ctx.set_text_baseline("middle");
    ctx.set_fill_style_str(c.muted);
    let ticks = data.ticks();
    for (i, (t, label)) in ticks.iter().enumerate() {
        ctx.set_text_align(match i {
            0 => "left",
            i if i + 1 == ticks.len() => "right",
            _ => "center",
        });
        let _ = ctx.fill_text(label, x(*t), AXIS / 2.0);
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
    let x = |t: u64| data.x_of(t, width);
    let row_height = data.row_height();
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
        let scale = super::dom::pixel_ratio();
        let (pixels_wide, pixels_high) = ((w * scale) as u32, (data.view_height() * scale) as u32);
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
            style={format!("left: {:.0}px; top: {:.0}px", TaskTimeline::hover_left(x, width), y + 14.0)}>{ text }</div>
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
    // drawn again nor is its clock line moved until it is scrolled to, nor is the worker
    // asked for it. Its size follows.
    let reported = use_in_view(&scroller);
    {
        let on = props.on_action.clone();
        use_effect_with(reported, move |&reported| {
            if let Some(in_view) = reported {
                on.emit(Action::TimelineInView(in_view));
            }
        });
    }
    // Drawn until the observer first reports.
    let in_view = reported.unwrap_or(true);
    let shown = use_mut_ref(|| (props.data.clone(), props.clock));
    if in_view {
        *shown.borrow_mut() = (props.data.clone(), props.clock);
    }
    let (data, clock) = shown.borrow().clone();
    let rows = props.data.rows.len();
    use_timeline_drawing(&canvas, data.clone(), *first, props.dark, width);
    let on_scroll = {
        let (scroller, first, data) = (scroller.clone(), first.clone(), props.data.clone());
        Callback::from(move |_: Event| {
            if let Some(el) = scroller.cast::<HtmlElement>() {
                let row = data.first_row(f64::from(el.scroll_top()));
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
            let found = data.describe_at((x, y), width, first);
            hover.set(found.map(|text| (x, y, text)));
        })
    };
    let on_leave = {
        let hover = hover.clone();
        Callback::from(move |_| hover.set(None))
    };
    let on_click = {
        let (on, data) = (props.on_action.clone(), data.clone());
        Callback::from(move |e: MouseEvent| {
            if let Some(t) = data.t_of(f64::from(e.offset_x()), width) {
                on.emit(Action::Playback(Playback::Seek(t)));
            }
        })
    };
    let view_height = props.data.view_height();
    let clock_left = (width > 0.0).then(|| data.x_of(clock, width));
    html! {
        <section class="panel task-timeline" aria-labelledby="timeline-title" data-testid="task-timeline"
            data-rows={rows.to_string()} data-until={props.data.until.to_string()}>
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
                <div style={format!("height: {:.0}px", props.data.hidden_height())}></div>
            </div>
        </section>
    }
}
