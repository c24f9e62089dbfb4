//! The overview's tiles on the group's canvas: each member's panel and edge in its state (as
//! a card's), its name, and its three bars (actives, learners, standbys, filled by how far
//! their stores are replayed), batched by colour; only the tiles whose pixels change are
//! drawn again (`views::overview::DrawnTiles` plans it).

use super::super::colours::{mix, Colours};
use super::super::dom::canvas_font;
use super::fills::{bands, stripes};
use crate::views::geometry::Rect;
use crate::views::overview::{DrawnTiles, Redraw, Tile, TileState, TilesView};
use web_sys::{CanvasPattern, CanvasRenderingContext2d};

/// The fills of a crashed and of a restarting member's panel.
pub struct Panels {
    /// Crashed: diagonal stripes in the down colour.
    crashed: CanvasPattern,
    /// Restarting: level bands in the restart colour (paused, not broken).
    restarting: CanvasPattern,
}

impl Panels {
    /// The theme's panel fills.
    fn of(ctx: &CanvasRenderingContext2d, c: &Colours) -> Option<Panels> {
        Some(Panels {
            crashed: stripes(ctx, &mix(c.down, c.panel, 0.16), c.panel, false, 1.0 / 3.0)?,
            restarting: bands(ctx, &mix(c.restart, c.panel, 0.2), c.panel)?,
        })
    }
}

/// What the overview's canvas keeps between drawings: what it shows (so that only the tiles
/// whose pixels change are drawn again) and the theme's panel fills.
#[derive(Default)]
pub struct TilePainter {
    /// What the canvas shows.
    drawn: DrawnTiles,
    /// The panel fills, and the theme they were made for.
    panels: Option<(bool, Panels)>,
}

impl TilePainter {
    /// What must be drawn to show `shown` in `view`.
    pub fn plan(&self, view: TilesView, shown: &[Tile]) -> Redraw {
        self.drawn.plan(view, shown)
    }

    /// Draws the tiles `redraw` asks for (the canvas is cleared first for a whole drawing;
    /// a tile drawn again is cleared first) and keeps what the canvas shows.
    pub fn paint(
        &mut self,
        ctx: &CanvasRenderingContext2d,
        (redraw, shown, view): (&Redraw, &[Tile], TilesView),
        cards: usize,
        c: &Colours,
    ) {
        if self
            .panels
            .as_ref()
            .is_none_or(|(made_for, _)| *made_for != view.dark)
        {
            self.panels = Panels::of(ctx, c).map(|p| (view.dark, p));
        }
        let Some((_, panels)) = &self.panels else {
            return;
        };
        match redraw {
            Redraw::Nothing => return,
            Redraw::Whole => paint_tiles(ctx, &shown.iter().collect::<Vec<_>>(), c, panels),
            Redraw::Parts { tiles, bars } => {
                let tiles: Vec<&Tile> = tiles.iter().filter_map(|&i| shown.get(i)).collect();
                for t in &tiles {
                    ctx.clear_rect(t.rect.x, t.rect.y, t.rect.w, t.rect.h);
                }
                paint_tiles(ctx, &tiles, c, panels);
                // Only the bars changed: their area is filled as the panel and drawn again.
                let bars: Vec<&Tile> = bars.iter().filter_map(|&i| shown.get(i)).collect();
                paint_panels(ctx, &bars, c, panels, true);
                paint_bars(ctx, &bars, c);
            }
        }
        self.drawn.drawn(redraw, shown, view, cards);
    }
}

/// Rectangles to fill in one colour, filled in one go.
#[derive(Default)]
struct Batch(Vec<Rect>);

impl Batch {
    /// Adds the left part of `r`, `width` wide (nothing when that is empty).
    fn add(&mut self, r: Rect, width: f64) {
        if width > 0.0 {
            self.0.push(Rect::new(r.x, r.y, width.min(r.w), r.h));
        }
    }

    /// Fills them all in the fill style set.
    fn fill_set(&self, ctx: &CanvasRenderingContext2d) {
        if self.0.is_empty() {
            return;
        }
        ctx.begin_path();
        for r in &self.0 {
            ctx.rect(r.x, r.y, r.w, r.h);
        }
        ctx.fill();
    }

    /// Fills them all in `colour`.
    fn fill(&self, ctx: &CanvasRenderingContext2d, colour: &str) {
        if !self.0.is_empty() {
            ctx.set_fill_style_str(colour);
            self.fill_set(ctx);
        }
    }
}

/// The tiles' edges of one style: their colour, width and dashes.
struct Edges {
    colour: &'static str,
    width: f64,
    dash: Option<(f64, f64)>,
    tiles: Vec<Rect>,
}

/// Draws `tiles`, batched by colour: the panels, the edges, the names, the bars and the rings.
fn paint_tiles(ctx: &CanvasRenderingContext2d, tiles: &[&Tile], c: &Colours, p: &Panels) {
    let radius = |r: &Rect| (r.h / 4.0).min(4.0);
    paint_panels(ctx, tiles, c, p, false);
    // The edges, inside the tile, by style.
    let mut edges: Vec<Edges> = Vec::new();
    for t in tiles {
        let (colour, dash) = match t.look.state {
            TileState::Draining => (c.learner, Some((4.0, 3.0))),
            TileState::Crashed => (c.down, None),
            TileState::Restarting => (c.restart, None),
            TileState::Left => (c.line, Some((1.0, 2.0))),
            TileState::Live if t.look.leader => (c.active, None),
            TileState::Live => (c.line, None),
        };
        let width = if t.look.leader { 2.0 } else { 1.0 };
        match edges
            .iter_mut()
            .find(|e| e.colour == colour && e.width == width && e.dash == dash)
        {
            Some(e) => e.tiles.push(t.rect),
            None => edges.push(Edges {
                colour,
                width,
                dash,
                tiles: vec![t.rect],
            }),
        }
    }
    for e in &edges {
        ctx.set_stroke_style_str(e.colour);
        ctx.set_line_width(e.width);
        if let Some((on, off)) = e.dash {
            let _ = ctx.set_line_dash(&js_sys::Array::of2(&on.into(), &off.into()));
        }
        ctx.begin_path();
        let inset = e.width / 2.0;
        for r in &e.tiles {
            let _ = ctx.round_rect_with_f64(
                r.x + inset,
                r.y + inset,
                r.w - e.width,
                r.h - e.width,
                radius(r),
            );
        }
        ctx.stroke();
        if e.dash.is_some() {
            let _ = ctx.set_line_dash(&js_sys::Array::new());
        }
    }
    paint_names(ctx, tiles, c);
    paint_bars(ctx, tiles, c);
    ctx.set_stroke_style_str(c.ink);
    ctx.set_line_width(2.0);
    for t in tiles.iter().filter(|t| t.look.ring) {
        let r = t.rect;
        ctx.stroke_rect(r.x - 2.0, r.y - 2.0, r.w + 4.0, r.h + 4.0);
    }
}

/// Fills each tile's area (`bars`: only its bars' area, square; else the whole tile, its
/// corners rounded) as its member's panel: plain, greyed when it left, striped when it
/// crashed, banded while it restarts.
fn paint_panels(
    ctx: &CanvasRenderingContext2d,
    tiles: &[&Tile],
    c: &Colours,
    p: &Panels,
    bars: bool,
) {
    let mut panels: [Batch; 4] = Default::default();
    for t in tiles {
        let kind = match t.look.state {
            TileState::Live | TileState::Draining => 0,
            TileState::Left => 1,
            TileState::Crashed => 2,
            TileState::Restarting => 3,
        };
        let r = if bars { t.content } else { t.rect };
        panels[kind].add(r, r.w);
    }
    let left = mix(c.muted, c.panel, 0.08);
    for (kind, batch) in panels.iter().enumerate() {
        if batch.0.is_empty() {
            continue;
        }
        match kind {
            0 => ctx.set_fill_style_str(c.panel),
            1 => ctx.set_fill_style_str(&left),
            2 => ctx.set_fill_style_canvas_pattern(&p.crashed),
            _ => ctx.set_fill_style_canvas_pattern(&p.restarting),
        }
        if bars {
            batch.fill_set(ctx);
            continue;
        }
        ctx.begin_path();
        for r in &batch.0 {
            let _ = ctx.round_rect_with_f64(r.x, r.y, r.w, r.h, (r.h / 4.0).min(4.0));
        }
        ctx.fill();
    }
}

/// The members' names on the tiles tall enough for them, a star after the leader's; a name
/// wider than its tile is narrowed to fit (nothing is measured).
fn paint_names(ctx: &CanvasRenderingContext2d, tiles: &[&Tile], c: &Colours) {
    if tiles.iter().all(|t| t.name.is_none()) {
        return;
    }
    canvas_font(ctx, "600 11px system-ui, sans-serif");
    ctx.set_text_baseline("top");
    for departed in [false, true] {
        ctx.set_fill_style_str(if departed { c.muted } else { c.ink });
        for t in tiles
            .iter()
            .filter(|t| (t.look.state == TileState::Left) == departed)
        {
            let Some(name) = t.name else { continue };
            let r = t.rect;
            let text = if t.look.leader {
                format!("{name} \u{2605}")
            } else {
                name.to_string()
            };
            let _ = ctx.fill_text_with_max_width(&text, r.x + 3.0, r.y + 2.0, r.w - 6.0);
        }
    }
}

/// The tiles' three bars, each a track and its fill, batched by colour.
fn paint_bars(ctx: &CanvasRenderingContext2d, tiles: &[&Tile], c: &Colours) {
    let mut batches: [Batch; 7] = Default::default();
    for t in tiles {
        let r = t.content;
        let row = ((r.h - 2.0) / 3.0).max(1.0);
        let line = |i: f64| Rect::new(r.x, r.y + i * (row + 1.0), r.w, row);
        let b = t.bars;
        let actives = line(0.0);
        batches[0].add(actives, b.active);
        let down = Rect::new(actives.x + b.active, actives.y, b.restoring, row);
        batches[1].add(down, down.w);
        batches[2].add(down, b.restored);
        batches[3].add(line(1.0), b.learning);
        batches[4].add(line(1.0), b.learned);
        batches[5].add(line(2.0), b.standby);
        batches[6].add(line(2.0), b.mirrored);
    }
    let colours = [
        c.active.to_string(),
        mix(c.active, c.panel, 0.25),
        mix(c.active, c.panel, 0.6),
        mix(c.learner, c.panel, 0.3),
        c.learner.to_string(),
        mix(c.standby, c.panel, 0.3),
        c.standby.to_string(),
    ];
    for (batch, colour) in batches.iter().zip(&colours) {
        batch.fill(ctx, colour);
    }
}
