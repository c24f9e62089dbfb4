//! Where the group is drawn: the rectangle of every zone, member card, task chip or member's
//! marks, in CSS pixels from the group's top left corner, from a frame's cards and the width
//! there is. Pure arithmetic on counts (never on measured text), so that the page's canvas
//! (chips and marks), the cards' elements over it and the tests all read one layout.

use super::frame::Card;
use super::geometry::{Rect, Step};
use super::marks;

/// How the members are laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Density {
    /// Cards in a grid (the main view).
    Cards,
    /// One row per member (the compare view's lanes).
    Lanes,
    /// Small tiles, the overview of a group too large for its cards to fit the view: the
    /// size is a step of [`TILES`], from the largest.
    Tiles(usize),
}

/// The tiles' sizes (width, height) the overview tries, largest first.
pub const TILES: [(f64, f64); 9] = [
    (132.0, 48.0),
    (108.0, 42.0),
    (88.0, 36.0),
    (72.0, 32.0),
    (60.0, 28.0),
    (48.0, 24.0),
    (38.0, 20.0),
    (30.0, 16.0),
    (24.0, 13.0),
];

/// The lowest tile that still has room for its member's name above its bars.
pub const NAMED_TILE: f64 = 24.0;

/// How far the group is zoomed: a person's choice, or (none chosen) the cards when they fit
/// the view and the overview when they do not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Zoom {
    /// Every member as a tile, the whole group in view.
    Overview,
    /// Every member as a card, with its tasks and buttons.
    Cards,
}

impl Zoom {
    /// The zoom the page shows: the one `chosen`, else the cards when they are no taller than
    /// the `room` the view has for them, else the overview.
    pub fn shown(chosen: Option<Zoom>, cards_height: f64, room: f64) -> Zoom {
        match chosen {
            Some(zoom) => zoom,
            None if cards_height <= room => Zoom::Cards,
            None => Zoom::Overview,
        }
    }
}

/// What a zoom into the cards brings to the middle of the view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Centre {
    /// A member's card, by name.
    Member(String),
    /// A zone's band, by name.
    Zone(String),
}

/// How a card shows its tasks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Content {
    /// A chip per task, with its name and replay bar.
    #[default]
    Chips,
    /// A small mark per task, sixteen to a row ([`marks`]): a large group.
    Marks,
    /// Three bars per member (its actives, learners and standbys, filled by how far their
    /// stores are replayed): the overview's tiles.
    Bars,
}

/// Who holds a chip.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Holder {
    /// The card at this index of the frame's cards.
    Member(usize),
    /// The tray of tasks no member runs.
    Tray,
}

/// Where one chip is drawn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChipBox {
    /// Its member, or the tray.
    pub holder: Holder,
    /// Its index among its holder's chips (the card's, or the frame's unowned).
    pub index: usize,
    /// Where it is drawn.
    pub rect: Rect,
}

/// Where one member's card is drawn, and its parts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MemberBox {
    /// The card's index in the frame's cards.
    pub card: usize,
    /// The whole card.
    pub rect: Rect,
    /// Its tasks: the chips' rows, or its marks as [`marks::paths`] draws them scaled by
    /// `scale`.
    pub content: Rect,
    /// The marks' scale: below 1 when the card is narrower than a row of sixteen marks.
    pub scale: f64,
}

/// One availability zone's band, around its members' cards.
#[derive(Clone, Debug, PartialEq)]
pub struct ZoneBand {
    /// The zone's name; `None` for the members without one.
    pub zone: Option<String>,
    /// The band.
    pub rect: Rect,
    /// Indices of its members' cards.
    pub members: Vec<usize>,
}

/// The whole group, laid out.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Scene {
    /// What the cards hold.
    pub content: Content,
    /// The width laid out for.
    pub width: f64,
    /// The height it takes.
    pub height: f64,
    /// The zones' bands (none when no member has a zone).
    pub zones: Vec<ZoneBand>,
    /// The cards, in the frame's order.
    pub members: Vec<MemberBox>,
    /// With chips: every chip, the members' in card order, then the tray's.
    pub chips: Vec<ChipBox>,
    /// The tray of the tasks no member runs, below the cards: one line with marks, rows of
    /// chips with chips (none when every task runs).
    pub tray: Option<Rect>,
}

/// What a group's layout depends on beside the room it is laid out in: each card's zone, the
/// room its tasks take (as many chips, or rows of marks, as they are shown; nothing for
/// tiles) and whether its member restarts, and how many tasks no member runs when they are
/// chips (with marks or tiles the tray is one line). Two frames of one shape lay out alike,
/// so the page lays the group out again only when its shape changes (a round that changes
/// what members hold, a join, a restart), not on every frame of replay.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Shape {
    /// The zones named, in the order first met.
    zones: Vec<Option<String>>,
    /// Per card: its zone (an index into `zones`), the room its tasks take, and whether it
    /// restarts.
    cards: Vec<(usize, usize, bool)>,
    /// Tasks nobody runs, as chips.
    unowned: usize,
}

impl Shape {
    /// The shape of a frame's `cards`, holding their tasks as `content`, and of its
    /// `unowned` tasks.
    pub fn of(cards: &[Card], unowned: usize, content: Content) -> Shape {
        let mut shape = Shape {
            unowned: if content == Content::Chips {
                unowned
            } else {
                0
            },
            ..Shape::default()
        };
        for card in cards {
            let zone = card.zone.as_deref();
            let index = match shape.zones.iter().position(|z| z.as_deref() == zone) {
                Some(i) => i,
                None => {
                    shape.zones.push(zone.map(str::to_string));
                    shape.zones.len() - 1
                }
            };
            let room = match content {
                Content::Chips => card.chips.len(),
                Content::Marks => marks::drawing(card.chips.len()).1 as usize,
                Content::Bars => 0,
            };
            shape.cards.push((index, room, card.restart.is_some()));
        }
        shape
    }
}

/// The sizes a density draws with, in CSS pixels.
struct Sizes {
    /// A card's narrowest width in a grid.
    card_min: f64,
    /// The space between cards, zones and the tray.
    gap: f64,
    /// A card's border and padding, each side.
    inset: f64,
    /// A card's header (lanes: its first line, with the countdown and the buttons).
    header: f64,
    /// A restarting member's countdown, below the header (not in lanes).
    countdown: f64,
    /// The buttons' line, below the marks (not in lanes).
    actions: f64,
    /// The space between a card's parts.
    spacing: f64,
    /// A zone's padding.
    zone_pad: f64,
    /// A zone's heading line.
    zone_head: f64,
    /// A zone's narrowest width (zones sit side by side where there is room).
    zone_min: f64,
    /// The tray's height, above its chips.
    tray: f64,
    /// A tile's height (tiles only: a card's height otherwise follows what it holds).
    tile_h: Option<f64>,
    /// A chip's width.
    chip_w: f64,
    /// A chip's height.
    chip_h: f64,
    /// The space between chips.
    chip_gap: f64,
}

impl Density {
    /// A card's border, which the page draws: what the card holds is placed from inside it.
    pub fn border(self) -> f64 {
        match self {
            Density::Cards => 2.0,
            Density::Lanes | Density::Tiles(_) => 1.0,
        }
    }

    /// The sizes this density draws with (the style sheet sizes the cards' parts to match).
    fn sizes(self, content: Content) -> Sizes {
        let cards = match self {
            Density::Cards => Sizes {
                card_min: 236.0,
                gap: 8.0,
                inset: 10.0,
                header: 21.0,
                countdown: 38.0,
                actions: 24.0,
                spacing: 6.0,
                zone_pad: 6.0,
                zone_head: 24.0,
                zone_min: 256.0,
                tray: 58.0,
                tile_h: None,
                chip_w: 58.0,
                chip_h: 30.0,
                chip_gap: 4.0,
            },
            Density::Lanes => Sizes {
                card_min: 200.0,
                gap: 4.0,
                inset: 4.0,
                header: 22.0,
                countdown: 0.0,
                actions: 0.0,
                spacing: 4.0,
                zone_pad: 4.0,
                zone_head: 20.0,
                zone_min: f64::INFINITY,
                tray: 50.0,
                tile_h: None,
                chip_w: 46.0,
                chip_h: 24.0,
                chip_gap: 4.0,
            },
            Density::Tiles(step) => {
                let (w, h) = TILES[step.min(TILES.len() - 1)];
                Sizes {
                    card_min: w,
                    gap: 3.0,
                    inset: 3.0,
                    header: 0.0,
                    countdown: 0.0,
                    actions: 0.0,
                    spacing: 2.0,
                    zone_pad: 4.0,
                    zone_head: 22.0,
                    zone_min: (4.0 * (w + 3.0)).max(200.0),
                    tray: 58.0,
                    tile_h: Some(h),
                    chip_w: 0.0,
                    chip_h: 0.0,
                    chip_gap: 0.0,
                }
            }
        };
        match (self, content) {
            (_, Content::Marks | Content::Bars) | (Density::Tiles(_), _) => cards,
            // A tray of chips: its heading, then the chips' rows.
            (Density::Cards, Content::Chips) => Sizes {
                card_min: 200.0,
                zone_min: 215.0,
                tray: 37.0,
                ..cards
            },
            (Density::Lanes, Content::Chips) => Sizes {
                tray: 29.0,
                ..cards
            },
        }
    }
}

/// A row of sixteen marks, at full size.
fn marks_width() -> f64 {
    f64::from(marks::drawing(0).0)
}

/// How many chips fit in a row of `width`, at least one.
fn per_row(width: f64, s: &Sizes) -> usize {
    (((width + s.chip_gap) / (s.chip_w + s.chip_gap)).floor() as usize).max(1)
}

/// The height `count` chips take in rows of `width` (one row's height when there are none).
fn chips_height(count: usize, width: f64, s: &Sizes) -> f64 {
    let rows = count.div_ceil(per_row(width, s)).max(1) as f64;
    rows * s.chip_h + (rows - 1.0) * s.chip_gap
}

/// Places `count` chips in rows from `(x, y)` in `width`.
fn place_chips(
    holder: Holder,
    count: usize,
    (x, y): (f64, f64),
    width: f64,
    s: &Sizes,
) -> impl Iterator<Item = ChipBox> + '_ {
    let n = per_row(width, s);
    (0..count).map(move |index| ChipBox {
        holder,
        index,
        rect: Rect::new(
            x + (index % n) as f64 * (s.chip_w + s.chip_gap),
            y + (index / n) as f64 * (s.chip_h + s.chip_gap),
            s.chip_w,
            s.chip_h,
        ),
    })
}

/// Lays out one card in `r`: its header (and countdown) on top, its tasks below: chips in
/// rows, or marks scaled down to the card's width when narrower than a row of sixteen.
fn place_card(
    index: usize,
    card: &Card,
    r: Rect,
    density: Density,
    content: Content,
    s: &Sizes,
) -> MemberBox {
    let width = r.w - 2.0 * s.inset;
    let countdown = match density {
        Density::Cards if card.restart.is_some() => s.countdown + s.spacing,
        _ => 0.0,
    };
    let top = r.y + s.inset + s.header + s.spacing + countdown;
    let (content, scale) = match content {
        Content::Bars => {
            // The name's line above the bars, when the tile is tall enough for it.
            let name = if r.h >= NAMED_TILE { 14.0 } else { 0.0 };
            let y = r.y + s.inset + name;
            (
                Rect::new(r.x + s.inset, y, width, (r.y + r.h - s.inset - y).max(0.0)),
                1.0,
            )
        }
        Content::Marks => {
            let scale = (width / marks_width()).clamp(0.0, 1.0);
            let (w, h) = marks::drawing(card.chips.len());
            (
                Rect::new(
                    r.x + s.inset,
                    top,
                    f64::from(w) * scale,
                    f64::from(h) * scale,
                ),
                scale,
            )
        }
        Content::Chips => (
            Rect::new(
                r.x + s.inset,
                top,
                width,
                chips_height(card.chips.len(), width, s),
            ),
            1.0,
        ),
    };
    MemberBox {
        card: index,
        rect: r,
        content,
        scale,
    }
}

/// A card's height when `width` wide: its tasks, then (not in lanes) its buttons.
fn card_height(card: &Card, width: f64, density: Density, content: Content, s: &Sizes) -> f64 {
    if let Some(h) = s.tile_h {
        return h;
    }
    let probe = place_card(
        0,
        card,
        Rect::new(0.0, 0.0, width, 0.0),
        density,
        content,
        s,
    );
    let buttons = match density {
        Density::Cards => s.spacing + s.actions,
        Density::Lanes | Density::Tiles(_) => 0.0,
    };
    probe.content.y + probe.content.h + buttons + s.inset
}

/// How the group is laid out: its density and what its cards hold.
#[derive(Clone, Copy)]
struct Layout {
    density: Density,
    content: Content,
}

impl Scene {
    /// Lays out the group: its cards (by zone when members have zones), then the tray of the
    /// `unowned` tasks.
    pub fn of(
        cards: &[Card],
        unowned: usize,
        density: Density,
        content: Content,
        width: f64,
    ) -> Scene {
        let s = density.sizes(content);
        let layout = Layout { density, content };
        let width = width.max(s.card_min + 2.0 * s.zone_pad);
        let mut scene = Scene {
            content,
            width,
            ..Scene::default()
        };
        let zones = zones(cards);
        let bottom = if zones.is_empty() {
            let all: Vec<usize> = (0..cards.len()).collect();
            scene.grid(cards, &all, (0.0, 0.0), width, layout, &s)
        } else {
            scene.zoned(cards, &zones, layout, &s)
        };
        let top = if cards.is_empty() {
            0.0
        } else {
            bottom + s.gap
        };
        let tray = match content {
            Content::Marks | Content::Bars => Some(Rect::new(0.0, top, width, s.tray)),
            Content::Chips if unowned == 0 => None,
            Content::Chips => {
                let inner = width - 2.0 * s.inset;
                let h = s.tray + chips_height(unowned, inner, &s) + s.inset;
                let at = (s.inset, top + s.tray);
                scene
                    .chips
                    .extend(place_chips(Holder::Tray, unowned, at, inner, &s));
                Some(Rect::new(0.0, top, width, h))
            }
        };
        scene.height = tray.map_or(bottom, |t| t.y + t.h).ceil();
        scene.tray = tray;
        scene
    }

    /// Lays out the cards `members` (indices into `cards`) as a grid from `at` in `width`;
    /// returns where the grid ends below.
    fn grid(
        &mut self,
        cards: &[Card],
        members: &[usize],
        at: (f64, f64),
        width: f64,
        layout: Layout,
        s: &Sizes,
    ) -> f64 {
        let Layout { density, content } = layout;
        let columns = match density {
            Density::Cards | Density::Tiles(_) => (((width + s.gap) / (s.card_min + s.gap)).floor()
                as usize)
                .clamp(1, members.len().max(1)),
            Density::Lanes => 1,
        };
        let card_w = (width - s.gap * (columns - 1) as f64) / columns as f64;
        let mut top = at.1;
        for row in members.chunks(columns) {
            // A row's cards are as tall as its tallest, as a grid's are.
            let h = row
                .iter()
                .map(|&i| card_height(&cards[i], card_w, density, content, s))
                .fold(0.0, f64::max);
            for (column, &i) in row.iter().enumerate() {
                let r = Rect::new(at.0 + column as f64 * (card_w + s.gap), top, card_w, h);
                let card = place_card(i, &cards[i], r, density, content, s);
                if content == Content::Chips {
                    let c = card.content;
                    let count = cards[i].chips.len();
                    self.chips
                        .extend(place_chips(Holder::Member(i), count, (c.x, c.y), c.w, s));
                }
                self.members.push(card);
            }
            top += h + s.gap;
        }
        if members.is_empty() {
            at.1
        } else {
            top - s.gap
        }
    }

    /// Lays out the zones' bands, side by side where there is room, each a grid of its
    /// members; returns where they end below.
    fn zoned(&mut self, cards: &[Card], zones: &[Option<&str>], layout: Layout, s: &Sizes) -> f64 {
        let across =
            (((self.width + s.gap) / (s.zone_min + s.gap)).floor() as usize).clamp(1, zones.len());
        let zone_w = (self.width - s.gap * (across - 1) as f64) / across as f64;
        let mut top = 0.0;
        for row in zones.chunks(across) {
            let first = self.zones.len();
            let mut bottom: f64 = top;
            for (column, zone) in row.iter().enumerate() {
                let members: Vec<usize> = (0..cards.len())
                    .filter(|&i| cards[i].zone.as_deref() == *zone)
                    .collect();
                let x = column as f64 * (zone_w + s.gap);
                let inner = zone_w - 2.0 * s.zone_pad;
                let end = self.grid(
                    cards,
                    &members,
                    (x + s.zone_pad, top + s.zone_head),
                    inner,
                    layout,
                    s,
                );
                bottom = bottom.max(end + s.zone_pad);
                self.zones.push(ZoneBand {
                    zone: zone.map(str::to_string),
                    rect: Rect::new(x, top, zone_w, 0.0),
                    members,
                });
            }
            // The zones of a row are as tall as its tallest, as a wrapping row of boxes is.
            for band in &mut self.zones[first..] {
                band.rect.h = bottom - top;
            }
            top = bottom + s.gap;
        }
        top - s.gap
    }

    /// The overview: the group as tiles, of the largest size at which all of it fits in
    /// `height` (the smallest when none does).
    pub fn overview(cards: &[Card], unowned: usize, width: f64, height: f64) -> Scene {
        let mut scene = Scene::default();
        for step in 0..TILES.len() {
            scene = Scene::of(cards, unowned, Density::Tiles(step), Content::Bars, width);
            if scene.height <= height {
                break;
            }
        }
        scene
    }

    /// Where the focus goes from the member box at `from` (an index into `members`) on a
    /// `step`: reading order, or the nearest box above or below that shares some of its
    /// columns (in the next zone's band when its own has none there).
    pub fn step(&self, from: usize, step: Step) -> Option<usize> {
        let last = self.members.len().checked_sub(1)?;
        let r = self.members.get(from)?.rect;
        let centre = r.x + r.w / 2.0;
        let column = |down: bool| {
            self.members
                .iter()
                .enumerate()
                .filter(|(_, m)| {
                    let below = m.rect.y >= r.y + r.h;
                    let above = m.rect.y + m.rect.h <= r.y;
                    (if down { below } else { above })
                        && m.rect.x < r.x + r.w
                        && r.x < m.rect.x + m.rect.w
                })
                .min_by(|(_, a), (_, b)| {
                    let key = |m: &MemberBox| {
                        (
                            (m.rect.y - r.y).abs(),
                            (m.rect.x + m.rect.w / 2.0 - centre).abs(),
                        )
                    };
                    key(a)
                        .partial_cmp(&key(b))
                        .unwrap_or(std::cmp::Ordering::Equal)
                })
                .map(|(i, _)| i)
        };
        match step {
            Step::Next => (from < last).then_some(from + 1),
            Step::Previous => from.checked_sub(1),
            Step::Down => column(true),
            Step::Up => column(false),
            Step::First => Some(0),
            Step::Last => Some(last),
        }
    }

    /// The member box at the point `(x, y)`, if a card or tile is there.
    pub fn member_at(&self, x: f64, y: f64) -> Option<&MemberBox> {
        let point = Rect::new(x, y, 0.0, 0.0);
        self.members.iter().find(|m| m.rect.holds(&point))
    }

    /// The boxes of each zone's members, band by band, in the order they are laid out (one
    /// pass over the members, where asking each band for its members read them all again).
    pub fn members_by_band(&self) -> Vec<(&ZoneBand, Vec<&MemberBox>)> {
        let mut at: Vec<Option<&MemberBox>> = Vec::new();
        for m in &self.members {
            if at.len() <= m.card {
                at.resize(m.card + 1, None);
            }
            at[m.card] = Some(m);
        }
        self.zones
            .iter()
            .map(|band| {
                let boxes = band
                    .members
                    .iter()
                    .filter_map(|&card| at.get(card).copied().flatten())
                    .collect();
                (band, boxes)
            })
            .collect()
    }

    /// The member boxes of the cards that show between the heights `top` and `bottom`.
    pub fn members_between(&self, top: f64, bottom: f64) -> impl Iterator<Item = &MemberBox> {
        self.members
            .iter()
            .filter(move |m| m.rect.meets_rows(top, bottom))
    }

    /// The chips of one member's card (or of the tray), in order.
    pub fn chips_of(&self, holder: Holder) -> impl Iterator<Item = &ChipBox> {
        self.chips.iter().filter(move |c| c.holder == holder)
    }
}

/// The zones of the cards, by name, and `None` last for members without one; empty when no
/// member has a zone (the cards are then not grouped).
pub fn zones(cards: &[Card]) -> Vec<Option<&str>> {
    if cards.iter().all(|c| c.zone.is_none()) {
        return Vec::new();
    }
    let mut zones: Vec<Option<&str>> = cards.iter().map(|c| c.zone.as_deref()).collect();
    zones.sort_by_key(|zone| (zone.is_none(), *zone));
    zones.dedup();
    zones
}

#[cfg(test)]
#[path = "scene_tests.rs"]
mod tests;
