//! A member's tasks in a large group, as small marks on a canvas (one per task, in the chips'
//! visual language: solid active, hatched restoring, paused while its member restarts, orange
//! learner filling up, dashed standby), redrawn only when that member's tasks change; a
//! pointer over a mark says what it is, a click finds the task everywhere. Marks change only
//! by tenths of replay, so a member is not drawn again on every frame.

use super::colours::{Colours, DARK, LIGHT};
use crate::playground::Action;
use crate::views::fixed;
use crate::views::frame::{ChipRole, Dot};
use std::rc::Rc;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};
use yew::prelude::*;

/// Marks per row.
const COLUMNS: usize = 16;
/// A mark's side and the step between marks, in CSS pixels.
const SIDE: f64 = 11.0;
const STEP: f64 = 14.0;

/// Properties of a member's marks.
#[derive(Properties, PartialEq)]
pub struct MiniProps {
    /// The member's tasks as marks.
    pub dots: Rc<[Dot]>,
    /// Task names.
    pub names: Rc<Vec<String>>,
    /// The member's name.
    pub member: AttrValue,
    /// Task names to ring (found, tour).
    pub highlight: Vec<String>,
    /// Dark theme colours.
    pub dark: bool,
    /// Whether the member is restarting: its active tasks wait for it, down.
    #[prop_or_default]
    pub away: bool,
    /// Carries out an action (find a task).
    pub on_action: Callback<Action>,
}

/// The canvas's drawing state as last set: a draw sets each part only when it changes, as
/// every setter is a call into JavaScript (a colour also copies its text) and a member's
/// marks come in runs alike (actives, then learners, then standbys).
struct Pen<'a> {
    ctx: &'a CanvasRenderingContext2d,
    fill: &'static str,
    stroke: &'static str,
    width: f64,
    dashed: Option<bool>,
}

impl<'a> Pen<'a> {
    fn new(ctx: &'a CanvasRenderingContext2d) -> Pen<'a> {
        Pen {
            ctx,
            fill: "",
            stroke: "",
            width: 0.0,
            dashed: None,
        }
    }

    fn fill(&mut self, colour: &'static str) {
        if self.fill != colour {
            self.ctx.set_fill_style_str(colour);
            self.fill = colour;
        }
    }

    fn stroke(&mut self, colour: &'static str, width: f64, dashed: bool) {
        if self.stroke != colour {
            self.ctx.set_stroke_style_str(colour);
            self.stroke = colour;
        }
        if self.width != width {
            self.ctx.set_line_width(width);
            self.width = width;
        }
        if self.dashed != Some(dashed) {
            let dash = js_sys::Array::new();
            if dashed {
                dash.push(&2.5.into());
                dash.push(&2.0.into());
            }
            let _ = self.ctx.set_line_dash(&dash);
            self.dashed = Some(dashed);
        }
    }
}

fn draw(
    ctx: &CanvasRenderingContext2d,
    chips: &[Dot],
    names: &[String],
    highlight: &[String],
    away: bool,
    c: &Colours,
) {
    let rows = chips.len().div_ceil(COLUMNS).max(1);
    ctx.clear_rect(0.0, 0.0, COLUMNS as f64 * STEP, rows as f64 * STEP);
    let mut pen = Pen::new(ctx);
    for (i, chip) in chips.iter().enumerate() {
        let x = (i % COLUMNS) as f64 * STEP + 1.5;
        let y = (i / COLUMNS) as f64 * STEP + 1.5;
        let filled = |pen: &mut Pen, colour: &'static str, share: f64| {
            let h = SIDE * share.clamp(0.0, 1.0);
            pen.fill(colour);
            ctx.fill_rect(x, y + SIDE - h, SIDE, h);
        };
        let outline = |pen: &mut Pen, colour: &'static str, dashed: bool| {
            pen.stroke(colour, 1.5, dashed);
            ctx.stroke_rect(x, y, SIDE, SIDE);
        };
        let progress = f64::from(chip.tenths) / 10.0;
        match chip.role {
            // Waiting for its restarting member: an outlined mark with a pause sign, as the
            // chips show it, not a restore in progress.
            ChipRole::Active if away => {
                filled(&mut pen, c.panel, 1.0);
                outline(&mut pen, c.down, false);
                pen.fill(c.down);
                ctx.fill_rect(x + 3.0, y + 2.5, 1.8, SIDE - 5.0);
                ctx.fill_rect(x + SIDE - 4.8, y + 2.5, 1.8, SIDE - 5.0);
            }
            ChipRole::Active if !chip.stateful => {
                pen.fill(c.active);
                ctx.begin_path();
                let _ = ctx.arc(x + SIDE / 2.0, y + SIDE / 2.0, SIDE / 2.0, 0.0, 6.3);
                ctx.fill();
            }
            ChipRole::Active if chip.up => filled(&mut pen, c.active, 1.0),
            ChipRole::Active => {
                filled(&mut pen, c.panel, 1.0);
                filled(&mut pen, c.active, progress * 0.85);
                outline(&mut pen, c.active, false);
            }
            ChipRole::Learner if chip.ready => {
                filled(&mut pen, c.ready, 1.0);
                outline(&mut pen, c.ready, false);
            }
            ChipRole::Learner => {
                filled(&mut pen, c.panel, 1.0);
                filled(&mut pen, c.learner, progress);
                outline(&mut pen, c.learner, false);
            }
            ChipRole::Standby => {
                filled(&mut pen, c.panel, 1.0);
                outline(&mut pen, c.standby, true);
            }
        }
        if chip.learned {
            pen.stroke(c.learned, 1.5, false);
            ctx.stroke_rect(x - 1.0, y - 1.0, SIDE + 2.0, SIDE + 2.0);
        }
        if highlight
            .iter()
            .any(|h| names.get(chip.task.index()) == Some(h))
        {
            pen.stroke(c.ink, 2.0, false);
            ctx.stroke_rect(x - 1.5, y - 1.5, SIDE + 3.0, SIDE + 3.0);
        }
    }
}

/// The chip under a pointer at (x, y) CSS pixels.
fn at(chips: &[Dot], x: i32, y: i32) -> Option<&Dot> {
    let (col, row) = ((x as f64 / STEP) as usize, (y as f64 / STEP) as usize);
    (col < COLUMNS)
        .then(|| chips.get(row * COLUMNS + col))
        .flatten()
}

/// A member's tasks as marks.
#[function_component(MiniChips)]
pub fn mini_chips(props: &MiniProps) -> Html {
    let canvas = use_node_ref();
    // The canvas's context, asked of the browser once.
    let context = use_mut_ref(|| None::<CanvasRenderingContext2d>);
    let hover = use_state(|| None::<(i32, i32, String)>);
    let rows = props.dots.len().div_ceil(COLUMNS).max(1);
    {
        let (canvas, context) = (canvas.clone(), context.clone());
        use_effect_with(
            (
                props.dots.clone(),
                props.names.clone(),
                props.highlight.clone(),
                props.away,
                props.dark,
            ),
            move |(dots, names, highlight, away, dark)| {
                let mut context = context.borrow_mut();
                if context.is_none() {
                    *context = canvas
                        .cast::<HtmlCanvasElement>()
                        .and_then(|c| super::dom::canvas_2d(&c));
                }
                if let Some(ctx) = context.as_ref() {
                    let scale = super::dom::pixel_ratio();
                    let _ = ctx.set_transform(scale, 0.0, 0.0, scale, 0.0, 0.0);
                    draw(
                        ctx,
                        dots,
                        names,
                        highlight,
                        *away,
                        if *dark { &DARK } else { &LIGHT },
                    );
                }
            },
        );
    }
    let on_move = {
        let (hover, dots, names, member, away) = (
            hover.clone(),
            props.dots.clone(),
            props.names.clone(),
            props.member.clone(),
            props.away,
        );
        Callback::from(move |e: MouseEvent| {
            let (x, y) = (e.offset_x(), e.offset_y());
            hover.set(at(&dots, x, y).map(|d| {
                let name = names.get(d.task.index()).map_or("", String::as_str);
                let text = if away && d.role == ChipRole::Active {
                    format!("{name} on {member} \u{00B7} active, down while {member} restarts")
                } else {
                    d.describe(name, &member)
                };
                (x, y, text)
            }));
        })
    };
    let on_leave = {
        let hover = hover.clone();
        Callback::from(move |_| hover.set(None))
    };
    let on_click = {
        let (on, dots, names) = (
            props.on_action.clone(),
            props.dots.clone(),
            props.names.clone(),
        );
        Callback::from(move |e: MouseEvent| {
            let found =
                at(&dots, e.offset_x(), e.offset_y()).and_then(|d| names.get(d.task.index()));
            if let Some(name) = found {
                on.emit(Action::Find(name.clone()));
            }
        })
    };
    let (width, height) = (COLUMNS as f64 * STEP, rows as f64 * STEP);
    let scale = super::dom::pixel_ratio();
    html! {
        <div class="mini">
            <canvas ref={canvas} data-testid="mini" width={fixed(width * scale, 0)} height={fixed(height * scale, 0)}
                style={format!("width: {}px; height: {}px", fixed(width, 0), fixed(height, 0))} aria-hidden="true"
                onmousemove={on_move} onmouseleave={on_leave} onclick={on_click}></canvas>
            if let Some((x, y, text)) = &*hover {
                <div class="hover" style={format!("left: {}px; top: {}px", x + 10, y + 14)} data-testid="mini-hover">{ text }</div>
            }
        </div>
    }
}
