//! The group's chips on one canvas, under the cards' elements: each card's panel, its task
//! chips in the legend's shapes (solid active, hatched while it restores, hollow while its
//! member restarts, a striped learner with its replay bar, a double edge when ready, a dashed
//! standby, a pill for a stateless task, a ring for a learned one) and the tray's orphans.
//! When ownership moves, a chip travels from where it was to where it goes.

use super::colours::{mix, Colours, DARK, LIGHT};
use super::dom::{canvas_2d, canvas_font};
use super::mini::{draw_marks, MemberMarks};
use super::tiles::TilePainter;
use crate::views::frame::{Card, Chip, ChipRole, Dot};
use crate::views::geometry::Rect;
use crate::views::overview::{device, Redraw, Tally, Tile, TilesView};
use crate::views::scene::{ChipBox, Content, Holder, Scene};
use crate::views::travel::{moves, places, Move, Place};
use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::rc::Rc;
use web_sys::{CanvasPattern, CanvasRenderingContext2d, Element, HtmlCanvasElement};

/// A chip's identity across frames: its task, its role, and (for a replica) its member; an
/// active keeps its identity when it changes hands, so that it travels.
type Key = (u32, ChipRole, u32);

/// A chip on its way.
#[derive(Clone, Copy)]
struct Flight {
    /// Where it left from.
    from: Rect,
    /// When, in the page's ms.
    start: f64,
}

/// What the page shows in the group at a render: what the canvas draws.
#[derive(Default)]
pub struct Shown {
    /// The group laid out.
    pub scene: Rc<Scene>,
    /// A number that changes with the layout.
    pub layout: u64,
    /// The cards.
    pub cards: Rc<Vec<Card>>,
    /// With marks: each card's marks, in card order.
    pub dots: Vec<Rc<[Dot]>>,
    /// With tiles: each card's tally, in card order.
    pub tallies: Rc<Vec<Tally>>,
    /// Tasks nobody runs.
    pub unowned: Vec<Chip>,
    /// Task names (the marks' rings).
    pub names: Rc<Vec<String>>,
    /// Names to ring.
    pub highlight: Vec<String>,
    /// The dark theme.
    pub dark: bool,
    /// How long a chip that moves travels, in ms (none: it is simply drawn where it is).
    pub travel_ms: Option<f64>,
}

/// The group's canvas: what it shows and what it keeps between frames, so that a scroll or
/// a chip's flight draws it again without the page rendering.
#[derive(Default)]
pub struct Drawing {
    /// What the last render showed.
    shown: Shown,
    /// Where the group was last seen on the screen.
    pub seen: Seen,
    /// Where each chip was last laid out.
    placed: HashMap<Key, Rect>,
    /// The chips on their way.
    flights: HashMap<Key, Flight>,
    /// The hatches, for the theme they were made for.
    hatches: Option<(bool, Hatches)>,
    /// Each member's marks as last drawn, by member id.
    marks: HashMap<u32, MemberMarks>,
    /// What the canvas shows, to the pixel, when it shows marks.
    drawn: Option<u64>,
    /// What the canvas shows when it shows tiles.
    tiles: TilePainter,
    /// With tiles or marks: where each task's active was last drawn.
    places: Vec<Option<Place>>,
    /// With tiles or marks: the tasks on their way to another holder, and since when.
    travels: Vec<(Move, f64)>,
    /// The motion's canvas shows something.
    travelled: bool,
}

impl Drawing {
    /// What a new render of the page shows.
    pub fn show(&mut self, shown: Shown) {
        // A jump (a scrub, a load) or motion turned off: chips are simply drawn where they are.
        if shown.travel_ms.is_none() {
            self.flights.clear();
            self.travels.clear();
        }
        self.shown = shown;
    }
}

impl Drawing {
    /// With tiles or marks, starts the travels of the tasks that changed holder since the last
    /// drawing and ends those that landed; true while one is on its way.
    fn travel(&mut self, now: f64) -> bool {
        let s = &self.shown;
        // Nothing travels without motion: where tasks are is not even read.
        let Some(travel_ms) = s.travel_ms else {
            self.places.clear();
            self.travels.clear();
            return false;
        };
        let places = places(&s.scene, &s.cards, &s.unowned, s.names.len());
        if !self.places.is_empty() && !places.is_empty() {
            let started = moves(&self.places, &places).into_iter().map(|m| (m, now));
            self.travels.extend(started);
        }
        self.places = places;
        self.travels.retain(|(_, start)| now - start < travel_ms);
        !self.travels.is_empty()
    }
}

/// The fills of chips whose store is replaying.
struct Hatches {
    /// An active restoring.
    restoring: CanvasPattern,
    /// A learner.
    learner: CanvasPattern,
}

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
    let tile = super::dom::scratch_canvas(SIDE as u32, SIDE as u32)?;
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

impl Drawing {
    /// Where each chip is drawn now, moving chips on their way; true while any still moves.
    fn positions(&mut self, now: f64) -> (Vec<(ChipBox, Rect)>, bool) {
        let mut placed = HashMap::with_capacity(self.shown.scene.chips.len());
        let mut out = Vec::with_capacity(self.shown.scene.chips.len());
        let mut moving = false;
        let travel_ms = self.shown.travel_ms.unwrap_or(0.0);
        for b in &self.shown.scene.chips {
            let Some((chip, member)) = chip_of(&self.shown.cards, &self.shown.unowned, b) else {
                continue;
            };
            let key: Key = (
                chip.task.0,
                chip.role,
                if chip.role == ChipRole::Active {
                    u32::MAX
                } else {
                    member
                },
            );
            let shown = |f: &Flight| f.from.toward(&b.rect, ease((now - f.start) / travel_ms));
            if let (true, Some(&was)) = (self.shown.travel_ms.is_some(), self.placed.get(&key)) {
                if (was.x - b.rect.x).abs() > 1.0 || (was.y - b.rect.y).abs() > 1.0 {
                    let from = self.flights.get(&key).map_or(was, shown);
                    self.flights.insert(key, Flight { from, start: now });
                }
            }
            let at = match self.flights.get(&key) {
                Some(f) if now - f.start < travel_ms => {
                    moving = true;
                    shown(f)
                }
                _ => {
                    self.flights.remove(&key);
                    b.rect
                }
            };
            placed.insert(key, b.rect);
            out.push((*b, at));
        }
        self.placed = placed;
        (out, moving)
    }
}

/// Slow in, slow out.
fn ease(t: f64) -> f64 {
    let t = t.clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

/// The chip a box draws, and its member's id (`u32::MAX` for the tray).
fn chip_of<'a>(cards: &'a [Card], unowned: &'a [Chip], b: &ChipBox) -> Option<(&'a Chip, u32)> {
    match b.holder {
        Holder::Member(i) => cards
            .get(i)
            .and_then(|c| Some((c.chips.get(b.index)?, c.id.0))),
        Holder::Tray => unowned.get(b.index).map(|c| (c, u32::MAX)),
    }
}

/// A rounded rectangle's path.
fn rounded(ctx: &CanvasRenderingContext2d, r: &Rect, radius: f64) {
    ctx.begin_path();
    let _ = ctx.round_rect_with_f64(r.x, r.y, r.w, r.h, radius);
}

/// Where the group's top was on the screen, and when that was read (the page's ms).
#[derive(Clone, Copy, Default)]
pub struct Seen {
    /// The group's top, from the top of the view.
    top: f64,
    /// When it was read; `None`: never, or a scroll since.
    at: Option<f64>,
}

/// How long a reading of the group's place stays good while nothing scrolls: reading it
/// makes the browser lay out the page there and then, which every frame would pay for.
const SEEN_FOR_MS: f64 = 250.0;

impl Seen {
    /// The group's top on the screen, read again when a scroll made it stale or it is old
    /// (what is above the group may have changed height).
    fn top(&mut self, group: &Element, now: f64) -> f64 {
        if self.at.is_none_or(|at| now - at > SEEN_FOR_MS) {
            *self = Seen {
                top: group.get_bounding_client_rect().top(),
                at: Some(now),
            };
        }
        self.top
    }

    /// The page scrolled: the group is elsewhere on the screen.
    pub fn scrolled(&mut self) {
        self.at = None;
    }
}

/// The page's clock, in ms.
pub fn now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// The heights of the group the view shows, from its top.
fn shown_rows(group: &Element, scene: &Scene, seen: &mut Seen) -> Option<(f64, f64)> {
    let view = web_sys::window()?.inner_height().ok()?.as_f64()?;
    let top_on_screen = seen.top(group, now());
    let top = (-top_on_screen).clamp(0.0, scene.height);
    let bottom = (view - top_on_screen).clamp(top, scene.height);
    Some((top, bottom))
}

/// The canvas moved and sized to cover the group's rows from `top` to `bottom`, and cleared
/// when `clear`: its context, scaled to CSS pixels from the group's top left corner.
fn cover(
    canvas: &HtmlCanvasElement,
    scene: &Scene,
    (top, bottom): (f64, f64),
    clear: bool,
) -> Option<CanvasRenderingContext2d> {
    let ratio = super::dom::pixel_ratio();
    let (width, height) = (
        (scene.width * ratio).round() as u32,
        ((bottom - top) * ratio).round() as u32,
    );
    let style = canvas.style();
    if canvas.width() != width || canvas.height() != height {
        canvas.set_width(width);
        canvas.set_height(height);
        let _ = style.set_property("width", &format!("{}px", scene.width));
        let _ = style.set_property("height", &format!("{}px", bottom - top));
    }
    let moved = format!("translateY({top}px)");
    if style.get_property_value("transform").ok().as_deref() != Some(moved.as_str()) {
        let _ = style.set_property("transform", &moved);
    }
    let ctx = canvas_2d(canvas)?;
    if clear {
        let _ = ctx.set_transform(1.0, 0.0, 0.0, 1.0, 0.0, 0.0);
        ctx.clear_rect(0.0, 0.0, f64::from(width), f64::from(height));
    }
    let _ = ctx.set_transform(ratio, 0.0, 0.0, ratio, 0.0, -top * ratio);
    Some(ctx)
}

/// What a drawing shows in common, whatever it holds: the layout (a new one after the
/// overview's tiles drew on the canvas), the rows shown, the width, the theme, what is
/// highlighted, and the members' panels, to the device pixel.
fn drawn_hasher(d: &Drawing, rows: (f64, f64)) -> DefaultHasher {
    let s = &d.shown;
    let mut h = DefaultHasher::new();
    let px = device_px();
    (
        s.layout,
        s.scene.content as u8,
        px(rows.0),
        px(rows.1),
        px(s.scene.width),
        s.dark,
        &s.highlight,
    )
        .hash(&mut h);
    for m in s.scene.members_between(rows.0, rows.1) {
        let r = m.rect;
        (px(r.x), px(r.y), px(r.w), px(r.h)).hash(&mut h);
    }
    h
}

/// Lengths in CSS pixels as whole device pixels, at the page's ratio now.
fn device_px() -> impl Fn(f64) -> i64 {
    let ratio = super::dom::pixel_ratio();
    move |v| device(v, ratio)
}

/// What a drawing of marks shows, to the device pixel: the same twice, and the canvas is
/// left as it is (a frame where only the clock moved changes no pixel of most).
fn drawn_key(d: &Drawing, rows: (f64, f64)) -> u64 {
    let s = &d.shown;
    let mut h = drawn_hasher(d, rows);
    for m in s.scene.members_between(rows.0, rows.1) {
        let away = s.cards.get(m.card).is_some_and(|c| c.restart.is_some());
        away.hash(&mut h);
        for dot in s.dots.get(m.card).iter().flat_map(|d| d.iter()) {
            let Dot {
                task,
                role,
                stateful,
                up,
                learned,
                ready,
                tenths,
            } = *dot;
            (task.0, role as u8, stateful, up, learned, ready, tenths).hash(&mut h);
        }
    }
    h.finish()
}

/// What a drawing of chips resting where `shown` puts them shows, to the device pixel: what
/// [`draw_chip`] reads of each chip in the rows, and where it is.
fn chips_key(d: &Drawing, rows: (f64, f64), shown: &[(ChipBox, Rect)]) -> u64 {
    let s = &d.shown;
    let mut h = drawn_hasher(d, rows);
    let px = device_px();
    for (b, at, chip, away) in chips_between(s, shown, rows.0, rows.1) {
        (b.holder, px(at.x), px(at.y), px(at.w), px(at.h), away).hash(&mut h);
        let Chip {
            name,
            role,
            stateful,
            learned,
            ready,
            progress,
            up,
            ..
        } = chip;
        (name, role, stateful, learned, ready, progress, up).hash(&mut h);
    }
    h.finish()
}

/// Fills the panels of the cards the view shows (the cards' elements over them draw their
/// edges and words).
pub fn draw_panels(
    ctx: &CanvasRenderingContext2d,
    scene: &Scene,
    top: f64,
    bottom: f64,
    c: &Colours,
) {
    ctx.set_fill_style_str(c.panel);
    ctx.begin_path();
    for m in scene.members_between(top, bottom) {
        let r = m.rect;
        let _ = ctx.round_rect_with_f64(r.x, r.y, r.w, r.h, (r.h / 4.0).min(8.0));
    }
    ctx.fill();
}

/// Draws the cards' panels and what they hold where the view shows them, unless tiles or
/// marks would draw the very pixels already there; true while a chip or a task's mark still
/// travels (the caller draws again on the next animation frame).
pub fn draw(
    group: &Element,
    (canvas, motion): (&HtmlCanvasElement, &HtmlCanvasElement),
    d: &mut Drawing,
) -> bool {
    let scene = d.shown.scene.clone();
    let Some(rows) = shown_rows(group, &scene, &mut d.seen) else {
        return false;
    };
    let now = now();
    let travelling = d.travel(now);
    let c = if d.shown.dark { &DARK } else { &LIGHT };
    match scene.content {
        Content::Bars => draw_tiles(canvas, d, rows, c),
        Content::Marks => {
            let key = Some(drawn_key(d, rows));
            if key != d.drawn {
                d.drawn = key;
                if let Some(ctx) = cover(canvas, &scene, rows, true) {
                    draw_panels(&ctx, &scene, rows.0, rows.1, c);
                    let mut kept = std::mem::take(&mut d.marks);
                    draw_marks(&ctx, &d.shown, &mut kept, rows, c);
                    d.marks = kept;
                }
            }
        }
        Content::Chips => {
            // Chips travel themselves, on the tasks' canvas, drawn again on every frame of a
            // travel and otherwise only when a pixel would change.
            d.travels.clear();
            draw_travels(motion, d, rows, now, c);
            let (shown, moving) = d.positions(now);
            let key = (!moving).then(|| chips_key(d, rows, &shown));
            if key.is_some() && key == d.drawn {
                return false;
            }
            d.drawn = key;
            let Some(ctx) = cover(canvas, &scene, rows, true) else {
                return false;
            };
            draw_panels(&ctx, &scene, rows.0, rows.1, c);
            draw_chips(&ctx, d, &shown, rows.0, rows.1, c);
            return moving;
        }
    }
    draw_travels(motion, d, rows, now, c);
    travelling
}

/// Draws the tasks on their way between holders on the motion's canvas, over the tasks':
/// a small active mark each. The canvas is hidden when nothing travels.
fn draw_travels(
    motion: &HtmlCanvasElement,
    d: &mut Drawing,
    rows: (f64, f64),
    now: f64,
    c: &Colours,
) {
    let shown = !d.travels.is_empty();
    if shown != d.travelled {
        d.travelled = shown;
        let _ = motion
            .style()
            .set_property("display", if shown { "block" } else { "none" });
    }
    if !shown {
        return;
    }
    let Some(ctx) = cover(motion, &d.shown.scene, rows, true) else {
        return;
    };
    ctx.set_fill_style_str(c.active);
    ctx.set_stroke_style_str(c.ink);
    ctx.set_line_width(1.0);
    ctx.begin_path();
    let travel_ms = d.shown.travel_ms.unwrap_or(1.0);
    for (m, start) in &d.travels {
        let r = m.from.toward(&m.to, ease((now - start) / travel_ms));
        ctx.rect(r.x, r.y, r.w, r.h);
    }
    ctx.fill();
    ctx.stroke();
}

/// Draws the overview's tiles shown in `rows`: all of them after a scroll, a resize, a new
/// theme or layout; otherwise only those whose pixels changed, and of those whose bars only
/// changed, only their bars.
fn draw_tiles(canvas: &HtmlCanvasElement, d: &mut Drawing, rows: (f64, f64), c: &Colours) {
    let s = &d.shown;
    let ratio = super::dom::pixel_ratio();
    let view = TilesView {
        rows: (device(rows.0, ratio), device(rows.1, ratio)),
        width: device(s.scene.width, ratio),
        ratio,
        dark: s.dark,
        layout: s.layout,
    };
    let shown = Tile::shown(&s.scene, &s.cards, &s.tallies, &s.highlight, rows, ratio);
    let redraw = d.tiles.plan(view, &shown);
    if redraw == Redraw::Nothing {
        return;
    }
    if let Some(ctx) = cover(canvas, &s.scene, rows, redraw == Redraw::Whole) {
        d.tiles
            .paint(&ctx, (&redraw, &shown, view), s.cards.len(), c);
    }
}

/// The chips `shown` puts between the heights `top` and `bottom`: each with its place, its
/// chip, and whether its member is away (restarting).
fn chips_between<'a>(
    s: &'a Shown,
    shown: &'a [(ChipBox, Rect)],
    top: f64,
    bottom: f64,
) -> impl Iterator<Item = (&'a ChipBox, &'a Rect, &'a Chip, bool)> {
    shown
        .iter()
        .filter(move |(_, at)| at.y < bottom && at.y + at.h > top)
        .filter_map(|(b, at)| {
            let (chip, _) = chip_of(&s.cards, &s.unowned, b)?;
            let away = match b.holder {
                Holder::Member(i) => s.cards.get(i).is_some_and(|card| card.restart.is_some()),
                Holder::Tray => false,
            };
            Some((b, at, chip, away))
        })
}

/// Draws the chips where `shown` puts them, those between the heights `top` and `bottom`.
fn draw_chips(
    ctx: &CanvasRenderingContext2d,
    d: &mut Drawing,
    shown: &[(ChipBox, Rect)],
    top: f64,
    bottom: f64,
    c: &Colours,
) {
    let Some(hatches) = hatches(&mut d.hatches, d.shown.dark, ctx, c) else {
        return;
    };
    let highlight = &d.shown.highlight;
    canvas_font(ctx, "bold 12px system-ui, sans-serif");
    ctx.set_text_baseline("middle");
    for (b, at, chip, away) in chips_between(&d.shown, shown, top, bottom) {
        draw_chip(ctx, chip, at, away, b.holder == Holder::Tray, c, hatches);
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
