//! A large group's marks: every member's tasks drawn as small marks (the paths of
//! [`crate::views::marks`]) on the group's canvas; and over each card's marks a transparent
//! area that says what the mark under the pointer is and finds the task on a click, and that
//! the keyboard moves over, a task at a time.
//!
//! One canvas for the group rather than an SVG or a canvas per member: a drawing per member
//! was laid out and painted by the browser on every frame the marks changed, and every canvas
//! is a composited layer of its own.

use super::chips::Shown;
use super::colours::Colours;
use super::dom::pixel_ratio;
use crate::playground::Action;
use crate::views::frame::{ChipRole, Dot};
use crate::views::geometry::{Rect, Step};
use crate::views::marks::{self, at, origin_and_scale, paths, Layer, LAYERS};
use std::collections::HashMap;
use std::rc::Rc;
use web_sys::{CanvasRenderingContext2d, Element, Path2d};
use yew::prelude::*;

/// Properties of a member's marks area.
#[derive(Properties, PartialEq)]
pub struct MiniProps {
    /// The member's tasks as marks.
    pub dots: Rc<[Dot]>,
    /// Task names.
    pub names: Rc<Vec<String>>,
    /// The member's name.
    pub member: AttrValue,
    /// Where the marks are drawn, relative to the card.
    pub place: Rect,
    /// Where the marks are drawn, in the group.
    pub in_group: Rect,
    /// Says what lies under the pointer (`None`: nothing), in the group's coordinates.
    pub on_hover: Callback<Option<Hover>>,
    /// Whether the member is restarting: its active tasks wait for it, down.
    #[prop_or_default]
    pub away: bool,
    /// Carries out an action (find a task).
    pub on_action: Callback<Action>,
}

/// The width at which the element under a pointer event is shown, in CSS pixels.
fn shown_width(e: &MouseEvent) -> i32 {
    e.current_target()
        .and_then(|t| wasm_bindgen::JsCast::dyn_into::<Element>(t).ok())
        .map_or(0, |el| el.client_width())
}

/// What the mark under the pointer is, and where the pointer is in the group.
#[derive(Clone, Debug, PartialEq)]
pub struct Hover {
    /// Left, in CSS pixels from the group's corner.
    pub x: f64,
    /// Top.
    pub y: f64,
    /// The mark's task in words.
    pub text: String,
}

/// A mark in words, as the pointer's read-out and the keyboard's option say it: an active of
/// a member away waits for it.
fn mark_words(d: &Dot, names: &[String], member: &str, away: bool) -> String {
    let name = names.get(d.task.index()).map_or("", String::as_str);
    if away && d.role == ChipRole::Active {
        format!("{name} on {member} \u{00B7} active, down while {member} restarts")
    } else {
        d.describe(name, member)
    }
}

/// The area over a member's marks: what the mark under the pointer is, and a click finds it.
/// For the keyboard it is a list of the member's tasks that names one at a time (its size and
/// the option's place in it said, as a long list shown in part does): the arrow keys, Home
/// and End move over the marks, Enter finds the task, and the mark is outlined.
#[function_component(MiniChips)]
pub fn mini_chips(props: &MiniProps) -> Html {
    let current = use_state_eq(|| 0usize);
    let index = (*current).min(props.dots.len().saturating_sub(1));
    let on_move = {
        let (hover, at_group, dots, names, member, away) = (
            props.on_hover.clone(),
            props.in_group,
            props.dots.clone(),
            props.names.clone(),
            props.member.clone(),
            props.away,
        );
        Callback::from(move |e: MouseEvent| {
            let (x, y) = (e.offset_x(), e.offset_y());
            hover.emit(at(&dots, x, y, shown_width(&e)).map(|d| Hover {
                x: at_group.x + f64::from(x),
                y: at_group.y + f64::from(y),
                text: mark_words(d, &names, &member, away),
            }));
        })
    };
    let on_leave = props.on_hover.reform(|_: MouseEvent| None);
    let find = {
        let (on, names) = (props.on_action.clone(), props.names.clone());
        move |d: &Dot| {
            if let Some(name) = names.get(d.task.index()) {
                on.emit(Action::Find(name.clone()));
            }
        }
    };
    let on_click = {
        let (dots, current, find) = (props.dots.clone(), current.clone(), find.clone());
        Callback::from(move |e: MouseEvent| {
            let shown = shown_width(&e);
            if let Some(d) = at(&dots, e.offset_x(), e.offset_y(), shown) {
                if let Some(i) = dots.iter().position(|x| x.task == d.task) {
                    current.set(i);
                }
                find(d);
            }
        })
    };
    let on_key = {
        let (dots, current) = (props.dots.clone(), current.clone());
        Callback::from(move |e: KeyboardEvent| {
            let key = e.key();
            if key == "Enter" || key == " " {
                e.prevent_default();
                e.stop_propagation();
                if let Some(d) = dots.get(index) {
                    find(d);
                }
                return;
            }
            let Some(step) = Step::of_key(&key) else {
                return;
            };
            // The playground's own arrow keys (step, back) do not act meanwhile.
            e.prevent_default();
            e.stop_propagation();
            if let Some(to) = marks::step(index, dots.len(), step) {
                current.set(to);
            }
        })
    };
    let p = props.place;
    let id = format!("marks-{}", props.member);
    // The drawing is shrunk to a narrow card: so is the mark's place in it.
    let scale = p.w / f64::from(marks::drawing(0).0);
    let option = props.dots.get(index).map(|d| {
        let c = marks::cell(index);
        html! {
            <div id={format!("{id}-task")} class="mark-focus" role="option" aria-selected="true"
                aria-setsize={props.dots.len().to_string()} aria-posinset={(index + 1).to_string()}
                aria-label={mark_words(d, &props.names, &props.member, props.away)}
                data-testid="task" data-task-id={props.names.get(d.task.index()).cloned()}
                data-role={d.role.name()} data-stateful={d.stateful.to_string()} data-learned={d.learned.to_string()}
                data-up={d.up.to_string()} data-ready={(d.role == ChipRole::Learner).then(|| d.ready.to_string())}
                data-progress={(d.role != ChipRole::Active || !d.up).then(|| (u32::from(d.tenths) * 10).to_string())}
                style={format!("left: {}px; top: {}px; width: {}px; height: {}px", c.x * scale, c.y * scale, c.w * scale, c.h * scale)}>
            </div>
        }
    });
    html! {
        <div class="mini" data-testid="mini" role="listbox" tabindex="0"
            aria-label={format!("tasks of {}: the arrow keys move, Enter finds", props.member)}
            aria-activedescendant={option.is_some().then(|| format!("{id}-task"))}
            style={format!("left: {}px; top: {}px; width: {}px; height: {}px", p.x, p.y, p.w, p.h)}
            onmousemove={on_move} onmouseleave={on_leave} onclick={on_click} onkeydown={on_key}>
            { for option }
        </div>
    }
}

/// How a layer is drawn: its fill, its outline, the outline's width in path units, dashed.
fn layer_style(
    layer: Layer,
    c: &Colours,
) -> (Option<&'static str>, Option<&'static str>, f64, bool) {
    match layer {
        Layer::LineActive => (Some(c.panel), Some(c.active), 30.0, false),
        Layer::LineLearner => (Some(c.panel), Some(c.learner), 30.0, false),
        Layer::LineDown => (Some(c.panel), Some(c.down), 30.0, false),
        Layer::LineStandby => (Some(c.panel), Some(c.standby), 30.0, true),
        Layer::Active => (Some(c.active), None, 0.0, false),
        Layer::Learner => (Some(c.learner), None, 0.0, false),
        Layer::Down => (Some(c.down), None, 0.0, false),
        Layer::Ready => (Some(c.ready), Some(c.ready), 30.0, false),
        Layer::RingLearned => (None, Some(c.learned), 30.0, false),
        Layer::RingFound => (None, Some(c.ink), 40.0, false),
    }
}

/// Draws one layer's path.
fn draw_layer(ctx: &CanvasRenderingContext2d, layer: Layer, path: &Path2d, c: &Colours) {
    let (fill, stroke, width, dashed) = layer_style(layer, c);
    if let Some(fill) = fill {
        ctx.set_fill_style_str(fill);
        ctx.fill_with_path_2d(path);
    }
    if let Some(stroke) = stroke {
        ctx.set_stroke_style_str(stroke);
        ctx.set_line_width(width);
        let dash = if dashed {
            js_sys::Array::of2(&50.0.into(), &40.0.into())
        } else {
            js_sys::Array::new()
        };
        let _ = ctx.set_line_dash(&dash);
        ctx.stroke_with_path(path);
    }
}

/// A member's marks as the canvas draws them, and what they were drawn from: a member whose
/// marks did not change is drawn with the same paths, not parsed again.
pub struct MemberMarks {
    /// Its marks.
    dots: Rc<[Dot]>,
    /// Whether it was restarting.
    away: bool,
    /// The names ringed.
    highlight: Vec<String>,
    /// Each layer used, with its path.
    layers: Vec<(Layer, Path2d)>,
}

impl MemberMarks {
    /// The paths of `dots`, kept with what they were drawn from.
    fn of(dots: Rc<[Dot]>, away: bool, names: &[String], highlight: &[String]) -> MemberMarks {
        let paths = paths(&dots, names, highlight, away);
        let layers = LAYERS
            .iter()
            .zip(paths.iter())
            .filter(|(_, d)| !d.is_empty())
            .filter_map(|(layer, d)| Path2d::new_with_path_string(d).ok().map(|p| (*layer, p)))
            .collect();
        MemberMarks {
            dots,
            away,
            highlight: highlight.to_vec(),
            layers,
        }
    }

    /// Whether these paths still draw the marks of `dots`.
    fn draws(&self, dots: &[Dot], away: bool, highlight: &[String]) -> bool {
        *self.dots == *dots && self.away == away && self.highlight == highlight
    }
}

/// Draws the marks of the cards shown between the heights `top` and `bottom`, keeping each
/// member's paths in `kept` (by member id) for the next frame.
pub fn draw_marks(
    ctx: &CanvasRenderingContext2d,
    d: &Shown,
    kept: &mut HashMap<u32, MemberMarks>,
    (top, bottom): (f64, f64),
    colours: &Colours,
) {
    let ratio = pixel_ratio();
    let (margin, units) = origin_and_scale();
    for m in d.scene.members_between(top, bottom) {
        let (Some(card), Some(dots)) = (d.cards.get(m.card), d.dots.get(m.card)) else {
            continue;
        };
        let away = card.restart.is_some();
        let marks = match kept.get(&card.id.0) {
            Some(k) if k.draws(dots, away, &d.highlight) => k,
            _ => {
                kept.insert(
                    card.id.0,
                    MemberMarks::of(dots.clone(), away, &d.names, &d.highlight),
                );
                &kept[&card.id.0]
            }
        };
        let s = m.scale * ratio / units;
        let x = (m.content.x + margin * m.scale) * ratio;
        let y = (m.content.y - top + margin * m.scale) * ratio;
        let _ = ctx.set_transform(s, 0.0, 0.0, s, x, y);
        for (layer, path) in &marks.layers {
            draw_layer(ctx, *layer, path, colours);
        }
    }
}
