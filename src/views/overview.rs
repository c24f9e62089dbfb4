//! The overview's numbers: what each member holds, counted by role, for its tile's bars (how
//! many of each, and how far their stores are replayed) and for its name in words.

use super::frame::state_text;
use super::frame::{Card, Chip, ChipRole, Dot};
use super::geometry::Rect;
use super::scene::{Scene, NAMED_TILE};
use super::units::back_in;
use crate::engine::member::MemberStatus;

/// How many tasks a member holds in each role: what its name says, which changes only when a
/// round or a finished restore changes it (not as replay goes on).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Held {
    /// Actives.
    pub active: u32,
    /// Actives not processing (restoring, or down while the member restarts).
    pub down: u32,
    /// Learners.
    pub learning: u32,
    /// Learners within the acceptable lag.
    pub ready: u32,
    /// Standby replicas.
    pub standby: u32,
}

impl Held {
    /// Counts the roles of a member's tasks, given as (role, processing, ready).
    fn of(tasks: impl Iterator<Item = (ChipRole, bool, bool)>) -> Held {
        let mut held = Held::default();
        for (role, up, ready) in tasks {
            match role {
                ChipRole::Active => {
                    held.active += 1;
                    held.down += u32::from(!up);
                }
                ChipRole::Learner => {
                    held.learning += 1;
                    held.ready += u32::from(ready);
                }
                ChipRole::Standby => held.standby += 1,
            }
        }
        held
    }

    /// What a member's marks hold.
    pub fn of_dots(dots: &[Dot]) -> Held {
        Held::of(dots.iter().map(|d| (d.role, d.up, d.ready)))
    }

    /// What a member's chips hold.
    pub fn of_chips(chips: &[Chip]) -> Held {
        Held::of(chips.iter().map(|c| (c.role, c.up, c.ready)))
    }

    /// In words, after the member's name: its actives that are not processing are
    /// restoring, or simply down while it is `away`.
    pub fn words(&self, away: bool) -> String {
        format!(
            ": {} active ({} {}), {} learning, {} standby",
            self.active,
            self.down,
            if away { "down" } else { "restoring" },
            self.learning,
            self.standby
        )
    }

    /// The most tasks it holds in any one role (the tiles' bars share a scale).
    pub fn widest(&self) -> u32 {
        self.active.max(self.learning).max(self.standby)
    }
}

/// What a member holds, in words, for a card whose tasks are drawn as marks: its tasks that
/// are not processed are restoring, or simply down while it is away.
pub fn marks_summary(dots: &[Dot], away: bool) -> String {
    Held::of_dots(dots).words(away)
}

/// A member's name in words, as its card or tile gives it: its state, its time until it is
/// back, its zone, its lead, then what it holds (`holds`, beginning with a colon).
pub fn member_label(
    name: &str,
    status: MemberStatus,
    back_in_ms: Option<u64>,
    zone: Option<&str>,
    leader: bool,
    holds: &str,
) -> String {
    format!(
        "member {name}, {}{}{}{}{holds}",
        state_text(status),
        back_in_ms
            .map(|ms| format!(", {}", back_in(ms)))
            .unwrap_or_default(),
        zone.map(|z| format!(", zone {z}")).unwrap_or_default(),
        if leader { ", leader" } else { "" },
    )
}

/// A member's tile: what it holds, and how far the stores it replays have come, in tasks (a
/// learner halfway counts a half).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tally {
    /// The counts.
    pub held: Held,
    /// The replayed share of its restoring actives, in tasks.
    pub restored: f64,
    /// The replayed share of its learners, in tasks.
    pub learned: f64,
    /// The replayed share of its standbys, in tasks.
    pub mirrored: f64,
}

impl Tally {
    /// The tally of a member's chips: its counts, then its replayed shares in one more pass
    /// (every tile is tallied on every drawing).
    pub fn of(chips: &[Chip]) -> Tally {
        let mut t = Tally {
            held: Held::of_chips(chips),
            ..Tally::default()
        };
        for c in chips {
            let replayed = f64::from(c.progress.min(100)) / 100.0;
            match c.role {
                ChipRole::Active if !c.up => t.restored += replayed,
                ChipRole::Active => {}
                ChipRole::Learner => t.learned += replayed,
                ChipRole::Standby => t.mirrored += replayed,
            }
        }
        t
    }
}

/// A member's tile as the page's parallel element says it: who it is, its state, what it
/// holds and what can be done to it. It changes with rounds, restores and restarts, not as
/// replay goes on, so the page writes a tile's element again only when this changes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TileView {
    /// The member's name.
    pub name: String,
    /// Its state.
    pub status: MemberStatus,
    /// Whether it leads the group.
    pub leader: bool,
    /// Its zone.
    pub zone: Option<String>,
    /// While it restarts, how long until it is back.
    pub back_in_ms: Option<u64>,
    /// What it holds, by role.
    pub held: Held,
    /// It can be crashed.
    pub can_crash: bool,
    /// It can be drained.
    pub can_drain: bool,
    /// It can be restarted.
    pub can_restart: bool,
}

impl TileView {
    /// The tile of `card`, which holds `held`.
    pub fn of(card: &Card, held: Held) -> TileView {
        TileView {
            name: card.name.clone(),
            status: card.status,
            leader: card.leader,
            zone: card.zone.clone(),
            back_in_ms: card.restart.map(|c| c.back_in_ms),
            held,
            can_crash: card.can_crash,
            can_drain: card.can_drain,
            can_restart: card.can_restart,
        }
    }
}

/// Every member's tally and tile, in card order: the members' chips are counted once per
/// frame, for the canvas's bars and the tiles' elements alike.
pub fn tiles(cards: &[Card]) -> (Vec<Tally>, Vec<TileView>) {
    cards
        .iter()
        .map(|card| {
            let tally = Tally::of(&card.chips);
            (tally, TileView::of(card, tally.held))
        })
        .unzip()
}

/// How a tile's panel and edge show its member's state, as a card's do: a draining member's
/// edge is dashed, a crashed one's panel striped, a restarting one's banded, a departed one's
/// dotted and greyed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TileState {
    /// Live.
    Live,
    /// Draining.
    Draining,
    /// Crashed.
    Crashed,
    /// Restarting.
    Restarting,
    /// Left the group.
    Left,
}

impl TileState {
    /// The state a member's tile shows.
    pub fn of(status: MemberStatus) -> TileState {
        match status {
            MemberStatus::Live { .. } => TileState::Live,
            MemberStatus::Leaving { .. } => TileState::Draining,
            MemberStatus::Crashed { .. } => TileState::Crashed,
            MemberStatus::Closed { .. } => TileState::Left,
            MemberStatus::Restarting { .. } => TileState::Restarting,
            MemberStatus::Left => TileState::Left,
        }
    }
}

/// A tile's three bars, in CSS pixels: each a track (how many tasks it holds in the role) and
/// a fill (how far their stores are replayed).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Bars {
    /// Actives processing.
    pub active: f64,
    /// Actives restoring (or down while the member is away).
    pub restoring: f64,
    /// How far the restoring actives are replayed.
    pub restored: f64,
    /// Learners.
    pub learning: f64,
    /// How far they are replayed.
    pub learned: f64,
    /// Standbys.
    pub standby: f64,
    /// How far they are replayed.
    pub mirrored: f64,
}

impl Bars {
    /// The bars of a member's tally, `unit` pixels a task.
    pub fn of(t: &Tally, unit: f64) -> Bars {
        let h = t.held;
        Bars {
            active: f64::from(h.active - h.down) * unit,
            restoring: f64::from(h.down) * unit,
            restored: t.restored * unit,
            learning: f64::from(h.learning) * unit,
            learned: t.learned * unit,
            standby: f64::from(h.standby) * unit,
            mirrored: t.mirrored * unit,
        }
    }

    /// Every width, in the order they are filled.
    pub fn widths(&self) -> [f64; 7] {
        [
            self.active,
            self.restoring,
            self.restored,
            self.learning,
            self.learned,
            self.standby,
            self.mirrored,
        ]
    }
}

/// What the canvas shows of one tile, to the device pixel: a tile is drawn again only when
/// this changes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TileLook {
    /// The tile's left, top, width and height.
    pub rect: [i64; 4],
    /// Its member's state.
    pub state: TileState,
    /// Whether its member leads (a thicker edge in the active colour, a star by its name).
    pub leader: bool,
    /// The bars' widths, in the order of [`Bars::widths`].
    pub bars: [i64; 7],
    /// Ringed: its member holds a task found.
    pub ring: bool,
}

/// One tile as the canvas draws it.
#[derive(Clone, Debug, PartialEq)]
pub struct Tile<'a> {
    /// Its card's index.
    pub card: usize,
    /// The tile, its edges on device pixels.
    pub rect: Rect,
    /// Its bars' area, its edges on device pixels.
    pub content: Rect,
    /// Its member's name, when the tile is tall enough for it.
    pub name: Option<&'a str>,
    /// Its bars.
    pub bars: Bars,
    /// What it shows, to the device pixel.
    pub look: TileLook,
}

/// `v` CSS pixels in the device's pixels, at `ratio` device pixels a CSS pixel.
pub fn device(v: f64, ratio: f64) -> i64 {
    (v * ratio).round() as i64
}

impl<'a> Tile<'a> {
    /// The tiles of `scene` shown between the heights `top` and `bottom`, at `ratio` device
    /// pixels a CSS pixel, each ringed when its member holds a task named in `highlight`.
    pub fn shown(
        scene: &Scene,
        cards: &'a [Card],
        tallies: &[Tally],
        highlight: &[String],
        (top, bottom): (f64, f64),
        ratio: f64,
    ) -> Vec<Tile<'a>> {
        // One scale for every tile, so that a glance compares how much members hold.
        let widest = tallies
            .iter()
            .map(|t| t.held.widest())
            .max()
            .unwrap_or(0)
            .max(1);
        scene
            .members_between(top, bottom)
            .filter_map(|m| {
                let (card, tally) = (cards.get(m.card)?, tallies.get(m.card)?);
                let (rect, content) = (m.rect.snapped(ratio), m.content.snapped(ratio));
                let bars = Bars::of(tally, content.w / f64::from(widest));
                let ring = !highlight.is_empty()
                    && card
                        .chips
                        .iter()
                        .any(|chip| highlight.iter().any(|h| **h == *chip.name));
                Some(Tile {
                    card: m.card,
                    rect,
                    content,
                    name: (m.rect.h >= NAMED_TILE).then_some(card.name.as_str()),
                    bars,
                    look: TileLook {
                        rect: [rect.x, rect.y, rect.w, rect.h].map(|v| device(v, ratio)),
                        state: TileState::of(card.status),
                        leader: card.leader,
                        bars: bars.widths().map(|w| device(w, ratio)),
                        ring,
                    },
                })
            })
            .collect()
    }
}

/// What a whole drawing of the tiles is made for: the rows shown and the width (in device
/// pixels), the pixel ratio, the theme and the layout (a number that changes with it).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TilesView {
    /// The top and bottom of the rows shown, in device pixels.
    pub rows: (i64, i64),
    /// The group's width, in device pixels.
    pub width: i64,
    /// Device pixels a CSS pixel.
    pub ratio: f64,
    /// The dark theme.
    pub dark: bool,
    /// The layout's number.
    pub layout: u64,
}

/// What a drawing of the tiles must do.
#[derive(Clone, Debug, PartialEq)]
pub enum Redraw {
    /// Nothing: every tile shown looks as drawn.
    Nothing,
    /// Every tile shown, on a cleared canvas.
    Whole,
    /// Some tiles over their old selves (indices into the tiles shown): `tiles` whole, and
    /// of `bars` only their bars (replay went on; nothing else changed).
    Parts {
        /// The tiles drawn whole.
        tiles: Vec<usize>,
        /// The tiles whose bars only are drawn.
        bars: Vec<usize>,
    },
}

/// What the tiles' canvas shows: the view its last whole drawing was made for, and each
/// tile's look as last drawn, so that a frame where replay went on draws again only the
/// tiles whose pixels changed.
#[derive(Clone, Debug, Default)]
pub struct DrawnTiles {
    /// The view of the last whole drawing; `None` when the next must be whole.
    view: Option<TilesView>,
    /// Each tile's look as last drawn, by card index.
    looks: Vec<Option<TileLook>>,
}

impl DrawnTiles {
    /// What must be drawn to show `shown` in `view`. A scroll, a resize, a theme or a new
    /// layout, a tile not drawn before, and a ring come or gone (it lies outside its tile,
    /// over the gap its neighbours share) draw every tile again; otherwise only the tiles
    /// whose look changed, and of those whose bars only changed, only their bars.
    pub fn plan(&self, view: TilesView, shown: &[Tile]) -> Redraw {
        if self.view != Some(view) {
            return Redraw::Whole;
        }
        let (mut tiles, mut bars) = (Vec::new(), Vec::new());
        for (i, t) in shown.iter().enumerate() {
            let Some(was) = self.looks.get(t.card).copied().flatten() else {
                return Redraw::Whole;
            };
            if was == t.look {
                continue;
            }
            if (TileLook {
                bars: was.bars,
                ..t.look
            }) == was
            {
                bars.push(i);
            } else if was.ring || t.look.ring {
                return Redraw::Whole;
            } else {
                tiles.push(i);
            }
        }
        if tiles.is_empty() && bars.is_empty() {
            Redraw::Nothing
        } else {
            Redraw::Parts { tiles, bars }
        }
    }

    /// Keeps what a drawing by `redraw` of `shown` in `view` showed (`cards`: how many
    /// tiles there are in all).
    pub fn drawn(&mut self, redraw: &Redraw, shown: &[Tile], view: TilesView, cards: usize) {
        let drawn: Vec<&Tile> = match redraw {
            Redraw::Nothing => return,
            Redraw::Whole => {
                self.looks = vec![None; cards];
                shown.iter().collect()
            }
            Redraw::Parts { tiles, bars } => tiles
                .iter()
                .chain(bars)
                .filter_map(|&i| shown.get(i))
                .collect(),
        };
        for t in drawn {
            if let Some(slot) = self.looks.get_mut(t.card) {
                *slot = Some(t.look);
            }
        }
        self.view = Some(view);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::views::fixtures::{active, member};
    use crate::views::scene::{Content, Density};

    fn chip(role: ChipRole, up: bool, ready: bool, progress: u8) -> Chip {
        Chip {
            role,
            up,
            ready,
            progress,
            ..active(0)
        }
    }

    #[test]
    fn a_member_is_named_with_its_state_time_away_zone_lead_and_tasks() {
        assert_eq!(
            member_label(
                "S2",
                MemberStatus::Live { joined_at: 0 },
                None,
                None,
                false,
                ": runs T1"
            ),
            "member S2, live: runs T1"
        );
        assert_eq!(
            member_label(
                "S3",
                MemberStatus::Leaving { joined_at: 0 },
                Some(4_200),
                Some("b"),
                true,
                ""
            ),
            "member S3, draining, back in 4.2 s, zone b, leader"
        );
    }

    #[test]
    fn a_tally_counts_each_role_and_how_far_its_stores_are_replayed() {
        let chips = [
            chip(ChipRole::Active, true, false, 100),
            chip(ChipRole::Active, false, false, 40),
            chip(ChipRole::Learner, false, false, 30),
            chip(ChipRole::Learner, false, true, 100),
            chip(ChipRole::Standby, false, false, 50),
        ];
        let t = Tally::of(&chips);
        assert_eq!(
            t.held,
            Held {
                active: 2,
                down: 1,
                learning: 2,
                ready: 1,
                standby: 1
            }
        );
        assert!((t.restored - 0.4).abs() < 1e-9, "only the restoring active");
        assert!((t.learned - 1.3).abs() < 1e-9);
        assert!((t.mirrored - 0.5).abs() < 1e-9);
        assert_eq!(t.held.widest(), 2);
        assert_eq!(
            t.held.words(false),
            ": 2 active (1 restoring), 2 learning, 1 standby"
        );
        assert_eq!(
            t.held.words(true),
            ": 2 active (1 down), 2 learning, 1 standby"
        );
        let dots: Vec<Dot> = chips.iter().map(Dot::of).collect();
        assert_eq!(Held::of_dots(&dots), t.held, "marks and chips count alike");
    }

    /// Four members as tiles: S1 runs T0 and T1, S2 learns T2 (half replayed), S3 runs T3,
    /// S4 holds nothing; laid out 100 pixels high, named.
    fn group() -> (Vec<Card>, Scene) {
        let cards = vec![
            member(0, vec![active(0), active(1)], None),
            member(1, vec![chip(ChipRole::Learner, false, false, 50)], None),
            member(2, vec![active(3)], None),
            member(3, vec![], None),
        ];
        let scene = Scene::of(&cards, 0, Density::Tiles(0), Content::Bars, 700.0);
        (cards, scene)
    }

    fn view(top: f64) -> TilesView {
        TilesView {
            rows: (device(top, 1.0), 100),
            width: 700,
            ratio: 1.0,
            dark: false,
            layout: 1,
        }
    }

    #[test]
    fn every_member_is_tallied_once_for_its_bars_and_its_tile() {
        let (cards, _) = group();
        let (tallies, views) = tiles(&cards);
        assert_eq!(tallies.len(), 4);
        assert_eq!(views[0].held.active, 2);
        assert_eq!(views[1].held, tallies[1].held);
        assert!((tallies[1].learned - 0.5).abs() < 1e-9);
        assert_eq!(views[1].name, "S2");
        assert!(views[0].leader && !views[1].leader);
    }

    #[test]
    fn tiles_are_shown_on_device_pixels_with_bars_on_one_scale_and_rings_on_what_was_found() {
        let (cards, scene) = group();
        let (tallies, _) = tiles(&cards);
        let found = vec!["T3".to_string()];
        let shown = Tile::shown(&scene, &cards, &tallies, &found, (0.0, 1000.0), 2.0);
        assert_eq!(shown.len(), 4);
        for t in &shown {
            for v in [t.rect.x, t.rect.y, t.rect.w, t.rect.h] {
                assert_eq!((v * 2.0).fract(), 0.0, "{:?} on device pixels", t.rect);
            }
            assert!(t.rect.holds(&t.content));
            assert_eq!(
                t.name,
                Some(cards[t.card].name.as_str()),
                "tall enough for a name"
            );
        }
        // S1's two actives fill its bar, on the scale of the widest: S2's one learner half.
        assert!((shown[0].bars.active - shown[0].content.w).abs() < 1e-9);
        assert!((shown[1].bars.learning - shown[1].content.w / 2.0).abs() < 1e-9);
        assert!((shown[1].bars.learned - shown[1].content.w / 4.0).abs() < 1e-9);
        let ringed: Vec<bool> = shown.iter().map(|t| t.look.ring).collect();
        assert_eq!(ringed, [false, false, true, false], "S3 holds T3");
        assert_eq!(shown[0].look.state, TileState::Live);
        // Only the rows in view.
        let below = Tile::shown(&scene, &cards, &tallies, &[], (2000.0, 3000.0), 1.0);
        assert!(below.is_empty());
    }

    #[test]
    fn only_what_changed_is_drawn_again_and_a_new_view_draws_everything() {
        let (mut cards, scene) = group();
        let (tallies, _) = tiles(&cards);
        let shown = Tile::shown(&scene, &cards, &tallies, &[], (0.0, 100.0), 1.0);
        let mut drawn = DrawnTiles::default();
        assert_eq!(
            drawn.plan(view(0.0), &shown),
            Redraw::Whole,
            "nothing drawn yet"
        );
        drawn.drawn(&Redraw::Whole, &shown, view(0.0), cards.len());
        assert_eq!(drawn.plan(view(0.0), &shown), Redraw::Nothing);
        assert_eq!(drawn.plan(view(5.0), &shown), Redraw::Whole, "scrolled");
        // S2's learner replays on: its bars only.
        std::rc::Rc::make_mut(&mut cards[1].chips)[0].progress = 90;
        let (tallies, _) = tiles(&cards);
        let later = Tile::shown(&scene, &cards, &tallies, &[], (0.0, 100.0), 1.0);
        let bars = drawn.plan(view(0.0), &later);
        assert_eq!(
            bars,
            Redraw::Parts {
                tiles: vec![],
                bars: vec![1]
            }
        );
        drawn.drawn(&bars, &later, view(0.0), cards.len());
        assert_eq!(drawn.plan(view(0.0), &later), Redraw::Nothing);
        // S3 crashes: its whole tile.
        cards[2].status = MemberStatus::Crashed {
            at: 0,
            in_group: true,
        };
        let crashed = Tile::shown(&scene, &cards, &tallies, &[], (0.0, 100.0), 1.0);
        assert_eq!(
            drawn.plan(view(0.0), &crashed),
            Redraw::Parts {
                tiles: vec![2],
                bars: vec![]
            }
        );
        // A ring comes: drawn whole, for it lies over the neighbours' gap.
        let found = vec!["T0".to_string()];
        let ringed = Tile::shown(&scene, &cards, &tallies, &found, (0.0, 100.0), 1.0);
        assert_eq!(drawn.plan(view(0.0), &ringed), Redraw::Whole);
    }
}
