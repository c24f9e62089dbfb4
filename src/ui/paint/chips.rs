//! A group's chips on the canvas, in the legend's shapes: solid active, hatched while it
//! restores, hollow while its member restarts, a striped learner with its replay bar, a
//! double edge when ready, a dashed standby, a pill for a stateless task, a ring for a
//! learned one, a dashed ring for one found, and the tray's orphans crossed out.

use super::super::colours::{mix, Colours};
use super::super::dom::canvas_font;
use super::fills::stripes;
use crate::views::frame::{Chip, ChipRole};
use crate::views::geometry::Rect;
use web_sys::{CanvasPattern, CanvasRenderingContext2d};

/// The fills of chips whose store is replaying.
struct Hatches {
    /// An active restoring.
    restoring: CanvasPattern,
    /// A learner.
    learner: CanvasPattern,
}

/// The hatches for the theme, made once per theme and kept in `slot`.
fn hatches<'a>(
    slot: &'a mut Option<(bool, Hatches)>,
    dark: bool,
    ctx: &CanvasRenderingContext2d,
    c: &Colours,
) -> Option<&'a Hatches> {
    if slot.as_ref().is_none_or(|(made_for, _)| *made_for != dark) {
        let restoring = stripes(ctx, c.active, &mix(c.active, c.panel, 0.45), false, 0.5)?;
        let learner = stripes(ctx, &mix(c.learner, c.panel, 0.22), c.panel, true, 0.5)?;
        *slot = Some((dark, Hatches { restoring, learner }));
    }
    slot.as_ref().map(|(_, h)| h)
}

/// The chips' fills, made once per theme.
#[derive(Default)]
pub struct ChipPainter {
    /// The hatches, for the theme they were made for.
    hatches: Option<(bool, Hatches)>,
}

impl ChipPainter {
    /// Draws `chips` (each where it is drawn, the chip, whether its member is away and
    /// whether it lies in the tray), a dashed ring around those `highlight` names.
    pub fn draw<'a>(
        &mut self,
        ctx: &CanvasRenderingContext2d,
        chips: impl Iterator<Item = (&'a Rect, &'a Chip, bool, bool)>,
        (highlight, dark): (&[String], bool),
        c: &Colours,
    ) {
        let Some(hatches) = hatches(&mut self.hatches, dark, ctx, c) else {
            return;
        };
        canvas_font(ctx, "bold 12px system-ui, sans-serif");
        ctx.set_text_baseline("middle");
        for (at, chip, away, orphan) in chips {
            draw_chip(ctx, chip, at, away, orphan, c, hatches);
            if highlight.iter().any(|h| **h == *chip.name) {
                ctx.set_stroke_style_str(c.ink);
                ctx.set_line_width(3.0);
                let _ = ctx.set_line_dash(&js_sys::Array::of2(&6.0.into(), &4.0.into()));
                rounded(
                    ctx,
                    &Rect::new(at.x - 4.5, at.y - 4.5, at.w + 9.0, at.h + 9.0),
                    7.0,
                );
                ctx.stroke();
                let _ = ctx.set_line_dash(&js_sys::Array::new());
            }
        }
    }
}

/// A rounded rectangle's path.
pub fn rounded(ctx: &CanvasRenderingContext2d, r: &Rect, radius: f64) {
    ctx.begin_path();
    let _ = ctx.round_rect_with_f64(r.x, r.y, r.w, r.h, radius);
}

/// Draws one chip at `r`.
fn draw_chip(
    ctx: &CanvasRenderingContext2d,
    chip: &Chip,
    r: &Rect,
    away: bool,
    orphan: bool,
    c: &Colours,
    h: &Hatches,
) {
    let radius = if chip.stateful { 5.0 } else { r.h / 2.0 };
    let inner = Rect::new(r.x + 1.0, r.y + 1.0, r.w - 2.0, r.h - 2.0);
    let restoring = chip.role == ChipRole::Active && !chip.up && !away && !orphan;
    // The fill, the edge (colour, dashed, double) and the ink of the name.
    let (edge, ink) = match chip.role {
        _ if orphan => (Some(c.down), c.down_ink),
        ChipRole::Active if away => (Some(c.active), c.ink),
        ChipRole::Active => (None, c.chip_ink),
        ChipRole::Learner => (Some(c.learner), c.ink),
        ChipRole::Standby => (Some(c.standby), c.ink),
    };
    rounded(ctx, r, radius);
    match chip.role {
        _ if orphan || away => ctx.set_fill_style_str(c.panel),
        ChipRole::Active if restoring => ctx.set_fill_style_canvas_pattern(&h.restoring),
        ChipRole::Active => ctx.set_fill_style_str(c.active),
        ChipRole::Learner => ctx.set_fill_style_canvas_pattern(&h.learner),
        ChipRole::Standby => ctx.set_fill_style_str(c.panel),
    }
    ctx.fill();
    if let Some(edge) = edge {
        ctx.set_stroke_style_str(edge);
        let ready = chip.role == ChipRole::Learner && chip.ready;
        ctx.set_line_width(if ready { 1.5 } else { 2.0 });
        if chip.role == ChipRole::Standby {
            let _ = ctx.set_line_dash(&js_sys::Array::of2(&5.0.into(), &3.0.into()));
        }
        rounded(ctx, &inner, radius - 1.0);
        ctx.stroke();
        if ready {
            rounded(
                ctx,
                &Rect::new(r.x + 3.5, r.y + 3.5, r.w - 7.0, r.h - 7.0),
                radius - 3.0,
            );
            ctx.stroke();
        }
        let _ = ctx.set_line_dash(&js_sys::Array::new());
    }
    if chip.learned {
        ctx.set_stroke_style_str(c.learned);
        ctx.set_line_width(2.0);
        rounded(
            ctx,
            &Rect::new(r.x - 3.0, r.y - 3.0, r.w + 6.0, r.h + 6.0),
            radius + 3.0,
        );
        ctx.stroke();
    }
    let bar = chip.shows_bar(away) && !orphan;
    let label_y = if bar { r.y + 10.5 } else { r.y + r.h / 2.0 };
    if restoring {
        // Its name on a solid backing: over the hatch it would not read.
        ctx.set_fill_style_str(c.active);
        ctx.fill_rect(r.x + 3.0, label_y - 7.0, r.w - 6.0, 14.0);
    }
    ctx.set_fill_style_str(ink);
    let glyph = if orphan { "\u{2715}" } else { chip.glyph(away) };
    let _ = ctx.fill_text(glyph, r.x + 6.0, label_y);
    let _ = ctx.fill_text_with_max_width(&chip.name, r.x + 19.0, label_y, r.w - 24.0);
    if bar {
        let track = Rect::new(r.x + 6.0, r.y + r.h - 10.0, r.w - 12.0, 5.0);
        let (back, fill) = match chip.role {
            ChipRole::Active => (mix(c.chip_ink, c.active, 0.35), c.chip_ink),
            ChipRole::Learner if chip.ready => (mix(c.muted, c.panel, 0.35), c.ready),
            ChipRole::Learner => (mix(c.muted, c.panel, 0.35), c.learner),
            ChipRole::Standby => (mix(c.muted, c.panel, 0.35), c.standby),
        };
        ctx.set_fill_style_str(&back);
        rounded(ctx, &track, 2.5);
        ctx.fill();
        ctx.set_fill_style_str(fill);
        rounded(
            ctx,
            &Rect::new(
                track.x,
                track.y,
                track.w * f64::from(chip.progress.min(100)) / 100.0,
                track.h,
            ),
            2.5,
        );
        ctx.fill();
    }
}
