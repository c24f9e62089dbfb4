//! A large group's marks on the group's canvas: every member's tasks as small marks, the
//! paths of [`crate::views::marks`] drawn as `Path2D`, one layer's path at a time, each kept
//! while its member's marks are unchanged.
//!
//! One canvas for the group rather than an SVG or a canvas per member: the browser lays out
//! and paints a drawing per member on every frame its marks change, and every canvas is a
//! composited layer of its own.

use super::super::colours::Colours;
use super::super::dom::pixel_ratio;
use crate::views::frame::{Card, Dot};
use crate::views::marks::{origin_and_scale, paths, Layer, LAYERS};
use crate::views::scene::Scene;
use std::collections::HashMap;
use std::rc::Rc;
use web_sys::{CanvasRenderingContext2d, Path2d};

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

/// Draws the marks (`dots`, by card) of the cards shown between the heights `top` and
/// `bottom`, ringing the tasks `highlight` names, keeping each member's paths in `kept` (by
/// member id) for the next frame.
pub fn draw_marks(
    ctx: &CanvasRenderingContext2d,
    (scene, cards, dots): (&Scene, &[Card], &[Rc<[Dot]>]),
    (names, highlight): (&[String], &[String]),
    kept: &mut HashMap<u32, MemberMarks>,
    (top, bottom): (f64, f64),
    colours: &Colours,
) {
    let ratio = pixel_ratio();
    let (margin, units) = origin_and_scale();
    for m in scene.members_between(top, bottom) {
        let (Some(card), Some(dots)) = (cards.get(m.card), dots.get(m.card)) else {
            continue;
        };
        let away = card.restart.is_some();
        let marks = match kept.get(&card.id.0) {
            Some(k) if k.draws(dots, away, highlight) => k,
            _ => {
                kept.insert(
                    card.id.0,
                    MemberMarks::of(dots.clone(), away, names, highlight),
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
