//! The group's canvas, under the cards' elements: each card's panel and what it holds where
//! the view shows it (chips, or a large group's marks), or the overview's tiles; and over it
//! a second canvas for the tasks on their way between holders. It draws again only what
//! would change a pixel, and, while something travels, on every animation frame.

mod chips;
mod fills;
mod marks;
mod tiles;

use super::colours::{Colours, DARK, LIGHT};
use super::dom::{canvas_2d, pixel_ratio};
use crate::views::flights::{chip_of, ChipFlights, MarkTravels};
use crate::views::frame::{Card, Chip, Dot};
use crate::views::geometry::Rect;
use crate::views::overview::{device, Redraw, Tally, Tile, TilesView};
use crate::views::scene::{ChipBox, Content, Holder, Scene};
use chips::ChipPainter;
use marks::{draw_marks, MemberMarks};
use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::rc::Rc;
use tiles::TilePainter;
use web_sys::{CanvasRenderingContext2d, Element, HtmlCanvasElement};

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
    /// The chips on their way, and where each was last laid out.
    flights: ChipFlights,
    /// The chips' fills.
    chips: ChipPainter,
    /// Each member's marks as last drawn, by member id.
    marks: HashMap<u32, MemberMarks>,
    /// What the canvas shows, to the pixel, when it shows marks or resting chips.
    drawn: Option<u64>,
    /// What the canvas shows when it shows tiles.
    tiles: TilePainter,
    /// With tiles or marks: the tasks on their way to another holder.
    travels: MarkTravels,
    /// The motion's canvas shows something.
    travelled: bool,
}

impl Drawing {
    /// What a new render of the page shows.
    pub fn show(&mut self, shown: Shown) {
        // A jump (a scrub, a load) or motion turned off: chips are simply drawn where they are.
        if shown.travel_ms.is_none() {
            self.flights.land();
            self.travels.land();
        }
        self.shown = shown;
    }
}

/// Where the group's top was on the screen, and when that was read (the page's ms).
#[derive(Clone, Copy, Default)]
pub struct Seen {
    /// The group's top, from the top of the view.
    top: f64,
    /// When it was read; `None`: never, or a scroll since.
    at: Option<f64>,
}

/// How long a reading of the group's place stays good while nothing scrolls (what is above
/// the group may change height): then it is read again after the frame ([`Seen::read`]).
const SEEN_FOR_MS: f64 = 250.0;

impl Seen {
    /// The group's top on the screen: the last reading, unless there is none or the page
    /// scrolled since (then read now: the drawing needs it).
    fn top(&mut self, group: &Element, now: f64) -> f64 {
        if self.at.is_none() {
            self.read(group, now);
        }
        self.top
    }

    /// The reading is older than [`SEEN_FOR_MS`].
    pub fn old(&self, now: f64) -> bool {
        self.at.is_some_and(|at| now - at > SEEN_FOR_MS)
    }

    /// Reads the group's top again, which makes the browser lay out the page if it is not:
    /// done in a task after the frame, not while drawing one. Says whether the top moved.
    pub fn read(&mut self, group: &Element, now: f64) -> bool {
        let top = group.get_bounding_client_rect().top();
        let moved = self.at.is_none() || top != self.top;
        *self = Seen { top, at: Some(now) };
        moved
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
    let ratio = pixel_ratio();
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
    let ratio = pixel_ratio();
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
    let s = &d.shown;
    let group_now = (&*s.scene, &s.cards[..], &s.unowned[..]);
    let travelling = d
        .travels
        .advance(group_now, s.names.len(), now, s.travel_ms);
    let c = if d.shown.dark { &DARK } else { &LIGHT };
    match scene.content {
        Content::Bars => draw_tiles(canvas, d, rows, c),
        Content::Marks => {
            let key = Some(drawn_key(d, rows));
            if key != d.drawn {
                d.drawn = key;
                if let Some(ctx) = cover(canvas, &scene, rows, true) {
                    draw_panels(&ctx, &scene, rows.0, rows.1, c);
                    let s = &d.shown;
                    draw_marks(
                        &ctx,
                        (&s.scene, &s.cards, &s.dots),
                        (&s.names, &s.highlight),
                        &mut d.marks,
                        rows,
                        c,
                    );
                }
            }
        }
        Content::Chips => {
            // Chips travel themselves, on the tasks' canvas, drawn again on every frame of a
            // travel and otherwise only when a pixel would change.
            d.travels.land();
            draw_travels(motion, d, rows, now, c);
            let s = &d.shown;
            let (shown, moving) =
                d.flights
                    .positions((&s.scene, &s.cards, &s.unowned), now, s.travel_ms);
            let key = (!moving).then(|| chips_key(d, rows, &shown));
            if key.is_some() && key == d.drawn {
                return false;
            }
            d.drawn = key;
            let Some(ctx) = cover(canvas, &scene, rows, true) else {
                return false;
            };
            draw_panels(&ctx, &scene, rows.0, rows.1, c);
            let s = &d.shown;
            let chips = chips_between(s, &shown, rows.0, rows.1)
                .map(|(b, at, chip, away)| (at, chip, away, b.holder == Holder::Tray));
            d.chips.draw(&ctx, chips, (&s.highlight, s.dark), c);
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
    let shown = d.travels.moving();
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
    for r in d.travels.at(now, travel_ms) {
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
    let ratio = pixel_ratio();
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
