//! The canvas's repeating fills: diagonal stripes (a restoring active, a learner, a crashed
//! member's panel) and level bands (a restarting member's panel).

use super::super::dom::{canvas_2d, scratch_canvas};
use web_sys::{CanvasPattern, CanvasRenderingContext2d};

/// A tile of diagonal stripes, `on` over `off` (`on` covering a `share` of it), as a
/// repeating pattern.
pub fn stripes(
    ctx: &CanvasRenderingContext2d,
    on: &str,
    off: &str,
    rising: bool,
    share: f64,
) -> Option<CanvasPattern> {
    const SIDE: f64 = 12.0;
    let tile = scratch_canvas(SIDE as u32, SIDE as u32)?;
    let t = canvas_2d(&tile)?;
    t.set_fill_style_str(off);
    t.fill_rect(0.0, 0.0, SIDE, SIDE);
    t.set_stroke_style_str(on);
    t.set_line_width(SIDE * share / std::f64::consts::SQRT_2);
    for k in -1..=1 {
        let k = f64::from(k) * SIDE;
        t.begin_path();
        if rising {
            t.move_to(k, SIDE);
            t.line_to(k + SIDE, 0.0);
        } else {
            t.move_to(k, 0.0);
            t.line_to(k + SIDE, SIDE);
        }
        t.stroke();
    }
    ctx.create_pattern_with_html_canvas_element(&tile, "repeat")
        .ok()
        .flatten()
}

/// Level bands, 2 of every 9 pixels `on`, the rest `off`, as a repeating pattern.
pub fn bands(ctx: &CanvasRenderingContext2d, on: &str, off: &str) -> Option<CanvasPattern> {
    let tile = scratch_canvas(1, 9)?;
    let t = canvas_2d(&tile)?;
    t.set_fill_style_str(off);
    t.fill_rect(0.0, 0.0, 1.0, 9.0);
    t.set_fill_style_str(on);
    t.fill_rect(0.0, 7.0, 1.0, 2.0);
    ctx.create_pattern_with_html_canvas_element(&tile, "repeat")
        .ok()
        .flatten()
}
