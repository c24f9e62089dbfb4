//! The overview's numbers: what each member holds, counted by role, for its tile's bars (how
//! many of each, and how far their stores are replayed) and for its name in words.

use super::frame::{Chip, ChipRole, Dot};

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::views::fixtures::active;

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
}
