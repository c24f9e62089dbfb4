//! A task's input backlog: while nobody processes the task its input piles up at its write
//! rate, and once it runs again it works the pile off at its processing rate less what keeps
//! arriving. Downtime alone flatters a long outage: the task is still behind after it is up.

/// A task's backlog as of `since`, and how long it has spent catching up.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Backlog {
    /// Records waiting to be processed at `since`.
    pub records: f64,
    /// When it was last brought up to date (the task started or stopped being processed).
    pub since: u64,
    /// Milliseconds spent processing a backlog, up to `since`.
    pub catching_up_ms: u64,
    /// When it last worked its backlog off, if it ever had one.
    pub caught_up_at: Option<u64>,
}

impl Backlog {
    /// The backlog at `now`: grown at `input` records a second while the task was down, or
    /// worked off at `process` less `input` while it ran.
    pub fn at(&self, now: u64, up: bool, input: f64, process: f64) -> Backlog {
        let ms = now.saturating_sub(self.since);
        let mut next = Backlog {
            since: now,
            ..*self
        };
        if !up {
            next.records += input * ms as f64 / 1000.0;
            return next;
        }
        if self.records <= 0.0 && process >= input {
            return next;
        }
        let gain = process - input;
        if gain <= 0.0 {
            // Processing no faster than the input arrives: behind for good.
            next.records -= gain * ms as f64 / 1000.0;
            next.catching_up_ms += ms;
            return next;
        }
        let to_zero = (self.records / gain * 1000.0).ceil() as u64;
        if to_zero <= ms {
            next.records = 0.0;
            next.catching_up_ms += to_zero;
            next.caught_up_at = Some(self.since + to_zero);
        } else {
            next.records -= gain * ms as f64 / 1000.0;
            next.catching_up_ms += ms;
        }
        next
    }

    /// Whether records are waiting.
    pub fn behind(&self) -> bool {
        self.records > 0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_outage_piles_input_up_and_running_again_works_it_off() {
        // 400 s down at 2,000 records/s: 800,000 records behind; processing 10,000 a second
        // while 2,000 keep arriving works them off in 100 s.
        let down = Backlog::default().at(400_000, false, 2_000.0, 10_000.0);
        assert_eq!(down.records, 800_000.0);
        let halfway = down.at(450_000, true, 2_000.0, 10_000.0);
        assert_eq!(halfway.records, 400_000.0);
        assert_eq!(halfway.catching_up_ms, 50_000);
        assert!(halfway.behind() && halfway.caught_up_at.is_none());
        let done = halfway.at(600_000, true, 2_000.0, 10_000.0);
        assert_eq!(done.records, 0.0);
        assert_eq!(done.catching_up_ms, 100_000);
        assert_eq!(done.caught_up_at, Some(500_000));
        assert_eq!(done.since, 600_000);
    }

    #[test]
    fn a_task_slower_than_its_input_never_catches_up() {
        let slow = Backlog::default().at(10_000, true, 100.0, 60.0);
        assert_eq!(slow.records, 400.0);
        assert_eq!(slow.catching_up_ms, 10_000);
        assert_eq!(slow.caught_up_at, None);
        let idle = Backlog::default().at(10_000, true, 100.0, 200.0);
        assert_eq!(
            idle,
            Backlog {
                since: 10_000,
                ..Backlog::default()
            }
        );
    }
}
