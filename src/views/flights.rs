//! Motion as the group's canvas draws it, at any moment of the page's clock: a chip on its
//! way from where it was laid out to where it is now (its identity across frames, a flight
//! re-aimed when its chip moves again, the easing), and tasks travelling between the marks or
//! tiles of a large group ([`super::travel`]). Pure: the page passes the time.

use super::frame::{Card, Chip, ChipRole};
use super::geometry::Rect;
use super::scene::{ChipBox, Holder, Scene};
use super::travel::{moves, places, Move, Place};
use std::collections::HashMap;

/// Slow in, slow out: `t` (clamped to 0 to 1) of the way in time, the share of the way gone.
pub fn ease(t: f64) -> f64 {
    let t = t.clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

/// A chip's identity across frames: its task, its role, and (for a replica) its member; an
/// active keeps its identity when it changes hands, so that it travels.
pub type ChipKey = (u32, ChipRole, u32);

/// The chip a box draws, and its member's id (`u32::MAX` for the tray).
pub fn chip_of<'a>(cards: &'a [Card], unowned: &'a [Chip], b: &ChipBox) -> Option<(&'a Chip, u32)> {
    match b.holder {
        Holder::Member(i) => cards
            .get(i)
            .and_then(|c| Some((c.chips.get(b.index)?, c.id.0))),
        Holder::Tray => unowned.get(b.index).map(|c| (c, u32::MAX)),
    }
}

/// The identity of `chip`, held by the member of id `member`.
pub fn chip_key(chip: &Chip, member: u32) -> ChipKey {
    let holder = if chip.role == ChipRole::Active {
        u32::MAX
    } else {
        member
    };
    (chip.task.0, chip.role, holder)
}

/// A chip on its way.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Flight {
    /// Where it left from.
    from: Rect,
    /// When, in the page's ms.
    start: f64,
}

impl Flight {
    /// Where it is drawn at `now` on its way to `to`.
    fn at(&self, to: &Rect, now: f64, travel_ms: f64) -> Rect {
        self.from.toward(to, ease((now - self.start) / travel_ms))
    }
}

/// The chips of a group of chips: where each was last laid out, and those on their way.
#[derive(Debug, Default)]
pub struct ChipFlights {
    /// Where each chip was last laid out.
    placed: HashMap<ChipKey, Rect>,
    /// The chips on their way.
    flights: HashMap<ChipKey, Flight>,
}

impl ChipFlights {
    /// Lands every chip on its way (a jump: a scrub, a load, motion turned off).
    pub fn land(&mut self) {
        self.flights.clear();
    }

    /// Where each chip of `scene` is drawn at `now` (the page's ms), and whether any is still
    /// on its way. A chip laid out more than a pixel from where it was last sets off from
    /// where it is drawn now (from its last place, or from where its flight had taken it) to
    /// its new place, for `travel_ms`; without `travel_ms` every chip is where it is laid out.
    pub fn positions(
        &mut self,
        (scene, cards, unowned): (&Scene, &[Card], &[Chip]),
        now: f64,
        travel_ms: Option<f64>,
    ) -> (Vec<(ChipBox, Rect)>, bool) {
        let mut placed = HashMap::with_capacity(scene.chips.len());
        let mut out = Vec::with_capacity(scene.chips.len());
        let mut moving = false;
        for b in &scene.chips {
            let Some((chip, member)) = chip_of(cards, unowned, b) else {
                continue;
            };
            let key = chip_key(chip, member);
            if let (Some(travel_ms), Some(&was)) = (travel_ms, self.placed.get(&key)) {
                if (was.x - b.rect.x).abs() > 1.0 || (was.y - b.rect.y).abs() > 1.0 {
                    let from = self
                        .flights
                        .get(&key)
                        .map_or(was, |f| f.at(&was, now, travel_ms));
                    self.flights.insert(key, Flight { from, start: now });
                }
            }
            let at = match (self.flights.get(&key), travel_ms) {
                (Some(f), Some(travel_ms)) if now - f.start < travel_ms => {
                    moving = true;
                    f.at(&b.rect, now, travel_ms)
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

/// The tasks of a group of marks or tiles travelling to another holder: where each task's
/// active was last drawn, and those on their way since when.
#[derive(Debug, Default)]
pub struct MarkTravels {
    /// Where each task's active was last drawn.
    places: Vec<Option<Place>>,
    /// The tasks on their way, and since when (the page's ms).
    travels: Vec<(Move, f64)>,
}

impl MarkTravels {
    /// Lands every task on its way.
    pub fn land(&mut self) {
        self.travels.clear();
    }

    /// Starts the travels of the tasks whose holder changed since the last call and ends
    /// those that landed by `now`; true while one is on its way. Without `travel_ms` nothing
    /// travels, and where tasks are is not even read.
    pub fn advance(
        &mut self,
        (scene, cards, unowned): (&Scene, &[Card], &[Chip]),
        tasks: usize,
        now: f64,
        travel_ms: Option<f64>,
    ) -> bool {
        let Some(travel_ms) = travel_ms else {
            self.places.clear();
            self.travels.clear();
            return false;
        };
        let places = places(scene, cards, unowned, tasks);
        if !self.places.is_empty() && !places.is_empty() {
            let started = moves(&self.places, &places).into_iter().map(|m| (m, now));
            self.travels.extend(started);
        }
        self.places = places;
        self.travels.retain(|(_, start)| now - start < travel_ms);
        !self.travels.is_empty()
    }

    /// Whether a task is on its way.
    pub fn moving(&self) -> bool {
        !self.travels.is_empty()
    }

    /// Where each task on its way is drawn at `now`.
    pub fn at(&self, now: f64, travel_ms: f64) -> Vec<Rect> {
        self.travels
            .iter()
            .map(|(m, start)| m.from.toward(&m.to, ease((now - start) / travel_ms)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::TaskId;
    use crate::views::fixtures::{active, member};
    use crate::views::scene::{Content, Density};

    fn lay(cards: &[Card]) -> Scene {
        Scene::of(cards, 0, Density::Cards, Content::Chips, 800.0)
    }

    /// Where task `task`'s active is drawn, among `shown`.
    fn drawn(shown: &[(ChipBox, Rect)], cards: &[Card], task: u32) -> Rect {
        shown
            .iter()
            .find(|(b, _)| chip_of(cards, &[], b).is_some_and(|(c, _)| c.task == TaskId(task)))
            .map(|(_, r)| *r)
            .expect("drawn")
    }

    #[test]
    fn easing_starts_and_ends_at_rest_and_passes_halfway_at_half_time() {
        assert_eq!(ease(0.0), 0.0);
        assert_eq!(ease(1.0), 1.0);
        assert_eq!(ease(0.5), 0.5);
        assert_eq!((ease(-2.0), ease(3.0)), (0.0, 1.0), "clamped");
        assert!(ease(0.1) < 0.1 && ease(0.9) > 0.9, "slow in, slow out");
        let steps: Vec<f64> = (0..=20).map(|i| ease(f64::from(i) / 20.0)).collect();
        assert!(steps.windows(2).all(|w| w[0] <= w[1]), "never backwards");
    }

    #[test]
    fn an_active_keeps_its_identity_across_hands_and_a_replica_is_its_members() {
        let chip = active(7);
        assert_eq!(chip_key(&chip, 1), chip_key(&chip, 2));
        let learner = Chip {
            role: ChipRole::Learner,
            ..active(7)
        };
        assert_ne!(chip_key(&learner, 1), chip_key(&learner, 2));
        assert_ne!(chip_key(&learner, 1), chip_key(&chip, 1));
    }

    #[test]
    fn a_chip_that_changes_hands_travels_eased_and_lands() {
        let before = [
            member(0, vec![active(0), active(1)], None),
            member(1, vec![], None),
        ];
        let after = [
            member(0, vec![active(0)], None),
            member(1, vec![active(1)], None),
        ];
        let (a, b) = (lay(&before), lay(&after));
        let mut f = ChipFlights::default();
        let (shown, moving) = f.positions((&a, &before, &[]), 0.0, Some(300.0));
        assert!(!moving, "the first drawing has nothing to travel from");
        let from = drawn(&shown, &before, 1);
        let to = b
            .chips
            .iter()
            .find(|c| c.holder == Holder::Member(1))
            .map(|c| c.rect)
            .expect("on S2");
        let (shown, moving) = f.positions((&b, &after, &[]), 1_000.0, Some(300.0));
        assert!(moving);
        assert_eq!(
            drawn(&shown, &after, 1),
            from,
            "it sets off from where it was"
        );
        let (shown, _) = f.positions((&b, &after, &[]), 1_150.0, Some(300.0));
        assert_eq!(
            drawn(&shown, &after, 1),
            from.toward(&to, 0.5),
            "halfway at half time"
        );
        let (shown, moving) = f.positions((&b, &after, &[]), 1_300.0, Some(300.0));
        assert!(!moving, "landed");
        assert_eq!(drawn(&shown, &after, 1), to);
    }

    #[test]
    fn a_chip_moved_again_on_its_way_sets_off_from_where_it_is_drawn() {
        let one = [
            member(0, vec![active(1)], None),
            member(1, vec![], None),
            member(2, vec![], None),
        ];
        let two = [
            member(0, vec![], None),
            member(1, vec![active(1)], None),
            member(2, vec![], None),
        ];
        let three = [
            member(0, vec![], None),
            member(1, vec![], None),
            member(2, vec![active(1)], None),
        ];
        let mut f = ChipFlights::default();
        let at = |f: &mut ChipFlights, cards: &[Card], now: f64| {
            let (shown, _) = f.positions((&lay(cards), cards, &[]), now, Some(300.0));
            drawn(&shown, cards, 1)
        };
        let start = at(&mut f, &one, 0.0);
        at(&mut f, &two, 100.0);
        let middle = at(&mut f, &two, 250.0);
        // Re-aimed at 250 ms: it leaves from where it was drawn then, not from its start nor
        // from its second place.
        assert_eq!(at(&mut f, &three, 250.0), middle);
        assert_ne!(middle, start);
        let end = lay(&three)
            .chips
            .iter()
            .find(|c| c.holder == Holder::Member(2))
            .map(|c| c.rect)
            .expect("on S3");
        assert_eq!(at(&mut f, &three, 400.0), middle.toward(&end, 0.5));
        assert_eq!(at(&mut f, &three, 550.0), end);
    }

    #[test]
    fn without_motion_or_after_a_jump_every_chip_is_where_it_is_laid_out() {
        let before = [member(0, vec![active(1)], None), member(1, vec![], None)];
        let after = [member(0, vec![], None), member(1, vec![active(1)], None)];
        let mut f = ChipFlights::default();
        f.positions((&lay(&before), &before, &[]), 0.0, None);
        let (shown, moving) = f.positions((&lay(&after), &after, &[]), 10.0, None);
        assert!(!moving);
        assert!(shown.iter().all(|(b, at)| b.rect == *at));
        f.positions((&lay(&before), &before, &[]), 20.0, Some(300.0));
        f.land();
        let (_, moving) = f.positions((&lay(&before), &before, &[]), 30.0, Some(300.0));
        assert!(!moving);
    }

    #[test]
    fn tasks_between_marks_travel_for_their_time_and_land() {
        let before = [
            member(0, vec![active(0), active(1)], None),
            member(1, vec![], None),
        ];
        let after = [
            member(0, vec![active(0)], None),
            member(1, vec![active(1)], None),
        ];
        let marks = |cards: &[Card]| Scene::of(cards, 0, Density::Cards, Content::Marks, 800.0);
        let mut t = MarkTravels::default();
        assert!(!t.advance((&marks(&before), &before, &[]), 2, 0.0, Some(300.0)));
        assert!(t.advance((&marks(&after), &after, &[]), 2, 100.0, Some(300.0)));
        let was = places(&marks(&before), &before, &[], 2)[1]
            .expect("T1")
            .rect;
        let now = places(&marks(&after), &after, &[], 2)[1].expect("T1").rect;
        assert!(t.moving());
        assert_eq!(t.at(100.0, 300.0), [was]);
        assert_eq!(t.at(250.0, 300.0), [was.toward(&now, 0.5)]);
        assert!(
            !t.advance((&marks(&after), &after, &[]), 2, 400.0, Some(300.0)),
            "landed"
        );
        assert!(t.at(400.0, 300.0).is_empty());
        assert!(!t.moving());
        // Without motion nothing travels.
        assert!(!t.advance((&marks(&before), &before, &[]), 2, 500.0, None));
        assert!(!t.advance((&marks(&after), &after, &[]), 2, 600.0, Some(300.0)));
    }
}
