//! A member's tasks in a large group, as small marks in one small SVG (one mark per task, in
//! the chips' visual language: solid active, hatched restoring, paused while its member
//! restarts, orange learner filling up, dashed standby); a pointer over a mark says what it
//! is, a click finds the task everywhere. Marks change only by tenths of replay, so a member's
//! paths are not written again on every frame.
//!
//! SVG rather than a canvas per member: every canvas is a composited layer of its own, and with
//! dozens of members the browser spent more time layering and committing them than drawing.
//! Marks alike share one path (a handful of paths per member, whatever its tasks), and the
//! colours come from the style sheet, so a theme change draws nothing again.

use crate::playground::Action;
use crate::views::frame::{ChipRole, Dot};
use std::fmt::Write;
use std::rc::Rc;
use web_sys::Element;
use yew::prelude::*;

/// Marks per row.
const COLUMNS: usize = 16;
/// The step between marks, in CSS pixels (hit testing).
const STEP: i32 = 14;
/// SVG user units per CSS pixel: every coordinate below is a whole number of them, so paths
/// are written with integers only.
const UNIT: i32 = 20;
/// A mark's side, the step between marks and the margin before the first, in user units.
const SIDE: i32 = 11 * UNIT;
const PITCH: i32 = STEP * UNIT;
const MARGIN: i32 = 3 * UNIT / 2;
// The squares' sides are written out in `Paths::square`.
const _: () = assert!(SIDE == 220 && SIDE + 2 * UNIT == 260 && SIDE + 2 * MARGIN == 280);

/// The marks' paths, each drawn as the style sheet's class of the same name says, in this
/// order (later over earlier): the panel behind outlined marks, the fills, the outlines, the
/// rings.
const LAYERS: [&str; 12] = [
    "m-panel",
    "m-active",
    "m-learner",
    "m-ready",
    "m-down",
    "m-line-active",
    "m-line-learner",
    "m-line-ready",
    "m-line-down",
    "m-line-standby",
    "m-ring-learned",
    "m-ring-found",
];

/// A layer's index in [`LAYERS`].
#[derive(Clone, Copy)]
enum Layer {
    Panel,
    Active,
    Learner,
    Ready,
    Down,
    LineActive,
    LineLearner,
    LineReady,
    LineDown,
    LineStandby,
    RingLearned,
    RingFound,
}

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
    /// Whether the member is restarting: its active tasks wait for it, down.
    #[prop_or_default]
    pub away: bool,
    /// Carries out an action (find a task).
    pub on_action: Callback<Action>,
}

/// The marks' paths as they are written, one per layer.
#[derive(Default)]
struct Paths([String; 12]);

impl Paths {
    /// A rectangle, `w` by `h` user units, its corner at (`x`, `y`).
    fn rect(&mut self, layer: Layer, x: i32, y: i32, w: i32, h: i32) {
        let _ = write!(self.0[layer as usize], "M{x} {y}h{w}v{h}h{}z", -w);
    }

    /// A mark's square at (`x`, `y`), grown by `grown` on every side (rings). The sides are
    /// written as constants: a member's paths are mostly squares.
    fn square(&mut self, layer: Layer, x: i32, y: i32, grown: i32) {
        let sides = match grown {
            0 => "h220v220h-220z",
            UNIT => "h260v260h-260z",
            _ => "h280v280h-280z",
        };
        let path = &mut self.0[layer as usize];
        let _ = write!(path, "M{} {}", x - grown, y - grown);
        path.push_str(sides);
    }

    /// A mark at (`x`, `y`) filled from the bottom, `h` user units high.
    fn filled(&mut self, layer: Layer, x: i32, y: i32, h: i32) {
        if h > 0 {
            self.rect(layer, x, y + SIDE - h, SIDE, h);
        }
    }
}

/// The marks' paths, one per layer.
fn paths(dots: &[Dot], names: &[String], highlight: &[String], away: bool) -> [AttrValue; 12] {
    let mut p = Paths::default();
    for (i, dot) in dots.iter().enumerate() {
        let x = (i % COLUMNS) as i32 * PITCH;
        let y = (i / COLUMNS) as i32 * PITCH;
        let tenths = i32::from(dot.tenths.min(10));
        match dot.role {
            // Waiting for its restarting member: an outlined mark with a pause sign, as the
            // chips show it, not a restore in progress.
            ChipRole::Active if away => {
                p.square(Layer::Panel, x, y, 0);
                p.square(Layer::LineDown, x, y, 0);
                let (w, h) = (36, SIDE - 5 * UNIT);
                p.rect(Layer::Down, x + 3 * UNIT, y + 50, w, h);
                p.rect(Layer::Down, x + SIDE - 96, y + 50, w, h);
            }
            ChipRole::Active if !dot.stateful => {
                let r = SIDE / 2;
                let _ = write!(
                    p.0[Layer::Active as usize],
                    "M{x} {}a{r} {r} 0 1 0 {SIDE} 0a{r} {r} 0 1 0 {} 0z",
                    y + r,
                    -SIDE
                );
            }
            ChipRole::Active if dot.up => p.square(Layer::Active, x, y, 0),
            ChipRole::Active => {
                p.square(Layer::Panel, x, y, 0);
                // A restore fills up to 85 %: full means running.
                p.filled(Layer::Active, x, y, SIDE * 85 * tenths / 1000);
                p.square(Layer::LineActive, x, y, 0);
            }
            ChipRole::Learner if dot.ready => {
                p.square(Layer::Ready, x, y, 0);
                p.square(Layer::LineReady, x, y, 0);
            }
            ChipRole::Learner => {
                p.square(Layer::Panel, x, y, 0);
                p.filled(Layer::Learner, x, y, SIDE * tenths / 10);
                p.square(Layer::LineLearner, x, y, 0);
            }
            ChipRole::Standby => {
                p.square(Layer::Panel, x, y, 0);
                p.square(Layer::LineStandby, x, y, 0);
            }
        }
        if dot.learned {
            p.square(Layer::RingLearned, x, y, UNIT);
        }
        if highlight
            .iter()
            .any(|h| names.get(dot.task.index()) == Some(h))
        {
            p.square(Layer::RingFound, x, y, MARGIN);
        }
    }
    p.0.map(AttrValue::from)
}

/// The mark under a pointer at (`x`, `y`) CSS pixels of a drawing shown `shown` pixels wide.
fn at(dots: &[Dot], x: i32, y: i32, shown: i32) -> Option<&Dot> {
    let full = COLUMNS as i32 * STEP;
    // Shrunk to a narrow card, the drawing keeps its proportions.
    let (x, y) = if shown > 0 && shown < full {
        (x * full / shown, y * full / shown)
    } else {
        (x, y)
    };
    let (col, row) = ((x / STEP) as usize, (y / STEP) as usize);
    (x >= 0 && y >= 0 && col < COLUMNS)
        .then(|| dots.get(row * COLUMNS + col))
        .flatten()
}

/// The width at which the element under a pointer event is shown, in CSS pixels.
fn shown_width(e: &MouseEvent) -> i32 {
    e.current_target()
        .and_then(|t| wasm_bindgen::JsCast::dyn_into::<Element>(t).ok())
        .map_or(0, |el| el.client_width())
}

/// A member's tasks as marks.
#[function_component(MiniChips)]
pub fn mini_chips(props: &MiniProps) -> Html {
    let hover = use_state(|| None::<(i32, i32, String)>);
    let rows = props.dots.len().div_ceil(COLUMNS).max(1) as i32;
    let layers = use_memo(
        (
            props.dots.clone(),
            props.names.clone(),
            props.highlight.clone(),
            props.away,
        ),
        |(dots, names, highlight, away)| paths(dots, names, highlight, *away),
    );
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
            hover.set(at(&dots, x, y, shown_width(&e)).map(|d| {
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
            let found = at(&dots, e.offset_x(), e.offset_y(), shown_width(&e))
                .and_then(|d| names.get(d.task.index()));
            if let Some(name) = found {
                on.emit(Action::Find(name.clone()));
            }
        })
    };
    let (width, height) = (COLUMNS as i32 * STEP, rows * STEP);
    let view_box = format!("{} {} {} {}", -MARGIN, -MARGIN, width * UNIT, height * UNIT);
    html! {
        <div class="mini">
            <svg data-testid="mini" width={width.to_string()} height={height.to_string()} viewBox={view_box}
                aria-hidden="true" onmousemove={on_move} onmouseleave={on_leave} onclick={on_click}>
                // Every layer, used or not (an empty path draws nothing): a layer coming into use
                // then changes its own path only, not the place of the others.
                { for LAYERS.iter().zip(layers.iter()).map(|(class, d)| html! {
                    <path class={*class} d={d.clone()} />
                }) }
            </svg>
            if let Some((x, y, text)) = &*hover {
                <div class="hover" style={format!("left: {}px; top: {}px", x + 10, y + 14)} data-testid="mini-hover">{ text }</div>
            }
        </div>
    }
}
