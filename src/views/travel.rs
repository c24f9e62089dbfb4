//! Tasks that change hands in a large group (marks or tiles, where no chip of their own can
//! travel): where each task's active is drawn, by member, so that the page sends a small mark
//! from where a task was to where it goes, through the tray of tasks nobody runs.

use super::frame::{Card, Chip, ChipRole};
use super::geometry::Rect;
use super::marks;
use super::scene::{Content, Scene};

/// Where a task's active is drawn, and who holds it (`None`: the tray).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Place {
    /// The member's id; `None` while nobody runs it.
    pub holder: Option<u32>,
    /// Where its mark is, in the group.
    pub rect: Rect,
}

/// A task on its way from one holder to another.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Move {
    /// The task's index.
    pub task: usize,
    /// Where it was.
    pub from: Rect,
    /// Where it goes.
    pub to: Rect,
}

/// The side of a travelling mark over tiles, in CSS pixels.
const TILE_MARK: f64 = 6.0;

/// Where every task's active is drawn (indexed by task), for a scene of marks or tiles: its
/// mark in its member's card, or the middle of its member's tile, or the start of the tray.
/// Empty for chips, which travel themselves.
pub fn places(scene: &Scene, cards: &[Card], unowned: &[Chip], tasks: usize) -> Vec<Option<Place>> {
    let mut out = vec![None; tasks];
    if !matches!(scene.content, Content::Marks | Content::Bars) {
        return Vec::new();
    }
    for m in &scene.members {
        let Some(card) = cards.get(m.card) else {
            continue;
        };
        for (i, chip) in card.chips.iter().enumerate() {
            if chip.role != ChipRole::Active {
                continue;
            }
            let rect = match scene.content {
                Content::Marks => {
                    let c = marks::cell(i);
                    Rect::new(
                        m.content.x + c.x * m.scale,
                        m.content.y + c.y * m.scale,
                        c.w * m.scale,
                        c.h * m.scale,
                    )
                }
                _ => Rect::new(
                    m.rect.x + m.rect.w / 2.0 - TILE_MARK / 2.0,
                    m.rect.y + m.rect.h / 2.0 - TILE_MARK / 2.0,
                    TILE_MARK,
                    TILE_MARK,
                ),
            };
            if let Some(slot) = out.get_mut(chip.task.index()) {
                *slot = Some(Place {
                    holder: Some(card.id.0),
                    rect,
                });
            }
        }
    }
    if let Some(tray) = scene.tray {
        let side = TILE_MARK.max(10.0);
        for (i, chip) in unowned.iter().enumerate() {
            // The tray is one line of names: its orphans wait in a row at its left.
            let x = tray.x + 10.0 + (i % 40) as f64 * (side + 2.0);
            let rect = Rect::new(
                x.min(tray.x + tray.w - side),
                tray.y + tray.h - side - 6.0,
                side,
                side,
            );
            if let Some(slot) = out.get_mut(chip.task.index()) {
                *slot = Some(Place { holder: None, rect });
            }
        }
    }
    out
}

/// How long a task's travel lasts at 1x, in ms of real time.
const TRAVEL_AT_1X_MS: f64 = 300.0;

/// How long a task's travel lasts in real time when the story plays at `speed`: 300 ms at
/// 1x, scaled with the speed (a faster story's moves land before its next ones set off),
/// but never under 100 ms, six frames still seen moving, nor over 1.2 s in slow motion.
pub fn travel_ms(speed: f64) -> u32 {
    (TRAVEL_AT_1X_MS / speed).clamp(100.0, 1_200.0).round() as u32
}

/// The tasks that changed holder from `before` to `after` (a task appearing or leaving the
/// group does not travel).
pub fn moves(before: &[Option<Place>], after: &[Option<Place>]) -> Vec<Move> {
    before
        .iter()
        .zip(after)
        .enumerate()
        .filter_map(|(task, pair)| match pair {
            (Some(was), Some(now)) if was.holder != now.holder => Some(Move {
                task,
                from: was.rect,
                to: now.rect,
            }),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::views::fixtures::{active, member};
    use crate::views::scene::Density;

    fn card(id: u32, tasks: &[u32]) -> Card {
        member(id, tasks.iter().map(|&t| active(t)).collect(), None)
    }

    #[test]
    fn a_task_that_changes_hands_travels_from_its_old_mark_to_its_new_one() {
        let before = [card(0, &[0, 1, 2]), card(1, &[3])];
        let after = [card(0, &[0, 2]), card(1, &[1, 3])];
        let scene = |cards: &[Card]| Scene::of(cards, 0, Density::Cards, Content::Marks, 800.0);
        let (a, b) = (scene(&before), scene(&after));
        let was = places(&a, &before, &[], 4);
        let now = places(&b, &after, &[], 4);
        let moved = moves(&was, &now);
        assert_eq!(
            moved.len(),
            1,
            "T3 moved within S1's marks: it does not travel"
        );
        let m = moved[0];
        assert_eq!(m.task, 1);
        assert!(a.members[0].content.holds(&m.from), "from S1's second mark");
        assert!(b.members[1].content.holds(&m.to), "to S2's first mark");
        assert_eq!(
            m.to.x,
            b.members[1].content.x + marks::cell(0).x * b.members[1].scale
        );
    }

    #[test]
    fn a_crashed_members_tasks_drop_into_the_tray_and_are_picked_up_from_it() {
        let group = [card(0, &[0]), card(1, &[1])];
        let crashed = [card(0, &[0]), card(1, &[])];
        let picked = [card(0, &[0, 1]), card(1, &[])];
        let overview = |cards: &[Card], unowned: &[Chip]| {
            let s = Scene::overview(cards, unowned.len(), 600.0, 400.0);
            places(&s, cards, unowned, 2)
        };
        let first = overview(&group, &[]);
        let down = overview(&crashed, &[active(1)]);
        let up = overview(&picked, &[]);
        let tray = Scene::overview(&crashed, 1, 600.0, 400.0)
            .tray
            .expect("a tray");
        let dropped = moves(&first, &down);
        assert_eq!(dropped.len(), 1);
        assert!(tray.holds(&dropped[0].to), "into the tray");
        let taken = moves(&down, &up);
        assert_eq!(taken.len(), 1);
        assert_eq!(taken[0].from, dropped[0].to, "picked up where it waited");
        assert!(moves(&up, &up).is_empty(), "nothing moves twice");
    }

    #[test]
    fn chips_travel_on_their_own() {
        let cards = [card(0, &[0])];
        let scene = Scene::of(&cards, 0, Density::Cards, Content::Chips, 800.0);
        assert!(places(&scene, &cards, &[], 1).is_empty());
    }

    #[test]
    fn a_travel_lasts_300_ms_at_1x_and_scales_with_the_speed_within_bounds() {
        assert_eq!(travel_ms(1.0), 300);
        assert_eq!(travel_ms(2.0), 150);
        assert_eq!(travel_ms(0.5), 600);
        assert_eq!(travel_ms(16.0), 100, "still seen moving at the top speed");
        assert_eq!(travel_ms(0.25), 1_200);
        let speeds = crate::playground::SPEEDS;
        assert!(speeds
            .windows(2)
            .all(|w| travel_ms(w[0]) >= travel_ms(w[1])));
    }
}
