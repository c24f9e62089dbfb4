//! A playground session: one scenario run under one or more strategies ("lanes") on one
//! clock, with one command stream. The simulation worker holds it ([`super::Simulation`]) and
//! computes its histories ahead of the clock ([`Session::compute`]); what it shows is the
//! history as far as the reader has been ([`Session::frontier`]), exactly as a session that
//! never computed ahead would show it.

use crate::compare::Comparison;
use crate::engine::coordinator::Round;
use crate::engine::{CommandError, Engine, EventKind};
use crate::history::{Cursor, Fork, Run, RunError};
use crate::model::Strategy;
use crate::model::{Command, Scenario, TimedCommand};

/// The most strategies compared side by side.
pub const MAX_LANES: usize = 4;

/// One strategy's history and the view of it at the session's clock.
#[derive(Clone, Debug)]
pub struct Lane {
    /// The strategy this lane simulates.
    pub strategy: Strategy,
    /// Its history.
    pub run: Run,
    /// The view at the clock when the clock is behind the frontier.
    cursor: Option<Cursor>,
}

impl Lane {
    /// The state at the session's clock.
    pub fn view(&self) -> &Engine {
        self.cursor
            .as_ref()
            .map_or(self.run.engine(), Cursor::engine)
    }

    /// Rounds that had assigned by a moment.
    pub fn rounds_until(&self, time: u64) -> &[Round] {
        let n = self.run.rounds().partition_point(|r| r.assigned_at <= time);
        &self.run.rounds()[..n]
    }

    /// Rounds as they were known at a moment (a sync still to come is not shown yet).
    pub fn rounds_as_of(&self, time: u64) -> Vec<Round> {
        self.rounds_until(time)
            .iter()
            .map(|r| r.as_of(time))
            .collect()
    }

    /// Carries out a command at `at_ms`, the clock: forking the history before it (`fork`),
    /// or, where the history was only computed ahead of it, running it again from there with
    /// the command after those already due then.
    fn act(&mut self, at_ms: u64, fork: bool, command: &Command) -> Result<(), CommandError> {
        if fork || at_ms >= self.run.frontier() {
            return self.run.command(at_ms, command.clone());
        }
        let commands = self.run.commands();
        let due = commands.partition_point(|c| c.at_ms < at_ms);
        let after = commands.partition_point(|c| c.at_ms <= at_ms);
        let mut later = commands[due..after].to_vec();
        later.push(TimedCommand {
            at_ms,
            command: command.clone(),
        });
        later.extend_from_slice(&commands[after..]);
        self.run.reschedule(at_ms, later);
        self.run.advance_to(at_ms).map_err(|e| e.error)
    }

    fn seek(&mut self, time: u64) -> Result<(), RunError> {
        if time >= self.run.frontier() {
            self.run.advance_to(time)?;
            self.cursor = None;
        } else {
            match &mut self.cursor {
                Some(cursor) => self.run.move_cursor(cursor, time),
                None => self.cursor = Some(self.run.cursor_at(time)),
            }
        }
        Ok(())
    }
}

/// A lane of a scenario under a strategy, at its first moment.
fn lane(scenario: &Scenario, strategy: Strategy) -> Lane {
    Lane {
        strategy,
        run: Run::new(scenario.with_strategy(strategy)),
        cursor: None,
    }
}

/// A scenario on one clock under one or more strategies.
#[derive(Clone, Debug)]
pub struct Session {
    scenario: Scenario,
    lanes: Vec<Lane>,
    clock: u64,
    /// The furthest the clock has been: the history as far as the reader knows it.
    reached: u64,
    /// The branches the reader abandoned by acting before `reached`.
    forks: Vec<Fork>,
}

impl Session {
    /// Starts a session at time 0 (commands due at 0 carried out). With no strategy given,
    /// the scenario's own is used.
    pub fn new(scenario: Scenario, strategies: &[Strategy]) -> Result<Session, RunError> {
        let strategies: Vec<Strategy> = if strategies.is_empty() {
            vec![scenario.config.strategy]
        } else {
            strategies.iter().copied().take(MAX_LANES).collect()
        };
        let lanes = strategies
            .into_iter()
            .map(|strategy| lane(&scenario, strategy))
            .collect();
        let mut session = Session {
            scenario,
            lanes,
            clock: 0,
            reached: 0,
            forks: Vec::new(),
        };
        session.seek(0)?;
        Ok(session)
    }

    /// The same session under other strategies (at most [`MAX_LANES`]): a lane whose strategy
    /// stays is kept as it is computed; a new lane runs the same commands from 0 and is
    /// computed to the clock by [`Session::compute`] (or by the next seek).
    pub fn relane(&mut self, strategies: &[Strategy]) {
        let scenario = Scenario {
            commands: self.main().run.commands().to_vec(),
            ..self.scenario.clone()
        };
        let mut old = std::mem::take(&mut self.lanes);
        self.lanes = strategies
            .iter()
            .take(MAX_LANES)
            .map(
                |&strategy| match old.iter().position(|l| l.strategy == strategy) {
                    Some(i) => old.swap_remove(i),
                    None => lane(&scenario, strategy),
                },
            )
            .collect();
    }

    /// The scenario as loaded (before any command a person added), with the schedule's
    /// edits.
    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    /// The lanes, one per strategy.
    pub fn lanes(&self) -> &[Lane] {
        &self.lanes
    }

    /// The strategies of the lanes.
    pub fn strategies(&self) -> Vec<Strategy> {
        self.lanes.iter().map(|l| l.strategy).collect()
    }

    /// The first lane: the one the single view shows.
    pub fn main(&self) -> &Lane {
        &self.lanes[0]
    }

    /// The moment being viewed.
    pub fn clock(&self) -> u64 {
        self.clock
    }

    /// How far the reader has been: the history as the page shows it (its marks, charts and
    /// timeline go this far, whatever was computed beyond).
    pub fn frontier(&self) -> u64 {
        self.reached
    }

    /// How far every lane is computed: the least of their frontiers, leaving out lanes at
    /// rest with every command carried out (any later moment of those is there at once);
    /// `None` when every lane is so.
    pub fn computed(&self) -> Option<u64> {
        self.lanes
            .iter()
            .filter(|l| !l.run.finished())
            .map(|l| l.run.frontier())
            .min()
    }

    /// Whether the moment `time` is computed in every lane.
    pub fn has(&self, time: u64) -> bool {
        self.computed().is_none_or(|c| time <= c)
    }

    /// Simulates one step further toward `until` (an event, or a command) in the lane
    /// furthest behind; false when every lane is there (or rests with nothing to do).
    pub fn compute(&mut self, until: u64) -> Result<bool, RunError> {
        let clock = self.clock;
        let Some(lane) = self
            .lanes
            .iter_mut()
            .filter(|l| !l.run.finished() && l.run.frontier() < until)
            .min_by_key(|l| l.run.frontier())
        else {
            return Ok(false);
        };
        // The view at the clock was the history's end: it stays there as a cursor.
        if lane.cursor.is_none() {
            lane.cursor = Some(lane.run.cursor_at(clock));
        }
        let run = &mut lane.run;
        let frontier = run.frontier();
        let next_command = run
            .commands()
            .iter()
            .map(|c| c.at_ms)
            .find(|&at| at > frontier);
        let next = [run.engine().next_event_time(), next_command]
            .into_iter()
            .flatten()
            .min()
            .map_or(until, |t| t.clamp(frontier + 1, until));
        run.advance_to(next)?;
        Ok(true)
    }

    /// The branches the reader abandoned by acting in the past, as a session that never
    /// computed ahead would have recorded them.
    pub fn forks(&self) -> &[Fork] {
        &self.forks
    }

    /// Moves the clock to any moment; past the frontier the histories are simulated on.
    pub fn seek(&mut self, time: u64) -> Result<(), RunError> {
        for lane in &mut self.lanes {
            lane.seek(time)?;
        }
        self.clock = time;
        self.reached = self.reached.max(time);
        Ok(())
    }

    /// Whether a command would do anything now, judged on the first lane (all lanes see
    /// the same members).
    pub fn check(&self, command: &Command) -> Result<(), CommandError> {
        self.lanes[0].view().check(command)
    }

    /// Carries out a command at the clock in every lane; before the furthest moment the
    /// reader has been, this forks each history. What was computed ahead of the clock is
    /// dropped without a fork: the history becomes the one acting there with nothing
    /// computed ahead gives. If any lane refuses, none changes.
    pub fn command(&mut self, command: Command) -> Result<(), CommandError> {
        for lane in &self.lanes {
            lane.view().check(&command)?;
        }
        let (clock, forking) = (self.clock, self.clock < self.reached);
        let dropped: Vec<TimedCommand> = match forking {
            true => self.main().run.commands()[..]
                .iter()
                .filter(|c| c.at_ms > clock)
                .cloned()
                .collect(),
            false => Vec::new(),
        };
        let mut done = Vec::with_capacity(self.lanes.len());
        for lane in &mut self.lanes {
            let before = lane.clone();
            match lane.act(clock, forking, &command) {
                Ok(()) => {
                    lane.cursor = None;
                    done.push(before);
                }
                Err(e) => {
                    // Put back the lanes already changed, so the session stays whole.
                    for (lane, before) in self.lanes.iter_mut().zip(done) {
                        *lane = before;
                    }
                    return Err(e);
                }
            }
        }
        if forking {
            self.forks.push(Fork {
                at_ms: clock,
                abandoned_until_ms: self.reached,
                dropped,
            });
        }
        self.reached = clock;
        Ok(())
    }

    /// Replaces the commands at `from_ms` and later with `later` in every lane, runs the
    /// histories again from that moment (what came before is kept) and puts the clock back
    /// where it was. The histories are simulated to the last command, so that a command the
    /// group cannot carry out is found now; on error the session is unchanged. The edited
    /// commands become the scenario's: starting over replays them.
    pub fn reschedule(&mut self, from_ms: u64, later: &[TimedCommand]) -> Result<(), RunError> {
        let mut edited = self.clone();
        // As a history never computed ahead: a fork where that one had been simulated past
        // the edit, with the commands it drops.
        if from_ms == 0 {
            // Run again from the first moment: nothing before it is kept, nor a fork made.
            edited.reached = 0;
        } else if from_ms - 1 < self.reached {
            let before = from_ms - 1;
            edited.forks.push(Fork {
                at_ms: before,
                abandoned_until_ms: self.reached,
                dropped: self
                    .main()
                    .run
                    .commands()
                    .iter()
                    .filter(|c| c.at_ms > before)
                    .cloned()
                    .collect(),
            });
            edited.reached = before;
        }
        for lane in &mut edited.lanes {
            lane.run.reschedule(from_ms, later.to_vec());
            lane.cursor = None;
        }
        let last = later.last().map_or(0, |c| c.at_ms);
        edited.seek(last.max(self.clock))?;
        edited.seek(self.clock)?;
        edited.scenario.commands = edited.main().run.commands().to_vec();
        *self = edited;
        Ok(())
    }

    /// The next moment after the clock when something happens in any lane (an event or a
    /// command), simulating ahead if needed.
    pub fn next_event(&mut self) -> Option<u64> {
        let clock = self.clock;
        self.lanes
            .iter()
            .filter_map(|lane| {
                let from_history = lane
                    .run
                    .events()
                    .iter()
                    .find(|e| e.at > clock)
                    .map(|e| e.at);
                let ahead = lane.run.engine().next_event_time().filter(|&t| t > clock);
                let command = lane
                    .run
                    .commands()
                    .iter()
                    .find(|c| c.at_ms > clock)
                    .map(|c| c.at_ms);
                [from_history, ahead, command].into_iter().flatten().min()
            })
            .min()
    }

    /// The last moment before the clock when something happened in any lane.
    pub fn previous_event(&self) -> Option<u64> {
        let clock = self.clock;
        self.lanes
            .iter()
            .filter_map(|lane| {
                lane.run
                    .events()
                    .iter()
                    .rev()
                    .find(|e| e.at < clock)
                    .map(|e| e.at)
            })
            .max()
    }

    /// The start of the next rebalance round after the clock, simulating ahead until one
    /// starts or the group rests with nothing left to do.
    pub fn next_round(&mut self) -> Result<Option<u64>, RunError> {
        let clock = self.clock;
        let find = |s: &Session| {
            s.lanes
                .iter()
                .filter_map(|lane| {
                    lane.run.events().iter().find_map(|e| match e.kind {
                        EventKind::RoundStarted { .. } if e.at > clock => Some(e.at),
                        _ => None,
                    })
                })
                .min()
        };
        loop {
            if let Some(t) = find(self) {
                return Ok(Some(t));
            }
            let ahead: Vec<u64> = self
                .lanes
                .iter()
                .filter(|l| !l.run.finished())
                .filter_map(|l| {
                    let next_command = l
                        .run
                        .commands()
                        .iter()
                        .find(|c| c.at_ms > l.run.frontier())
                        .map(|c| c.at_ms);
                    [l.run.engine().next_event_time(), next_command]
                        .into_iter()
                        .flatten()
                        .min()
                })
                .collect();
            let Some(&next) = ahead.iter().min() else {
                return Ok(None);
            };
            for lane in &mut self.lanes {
                lane.run.advance_to(next.max(lane.run.frontier()))?;
            }
        }
    }

    /// Whether every lane has carried out its commands and come to rest by the clock.
    pub fn settled(&self) -> bool {
        self.lanes
            .iter()
            .all(|l| l.view().at_rest() && l.run.commands().iter().all(|c| c.at_ms <= self.clock))
    }

    /// The design-review report of the session: its scenario with every command of the
    /// history being viewed (the loaded ones and the person's), run to the end under each of
    /// its strategies, as one HTML page.
    pub fn report(&self) -> Result<String, RunError> {
        let scenario = Scenario {
            commands: self.main().run.commands().to_vec(),
            ..self.scenario().clone()
        };
        let comparison = Comparison::run(&scenario, &self.strategies())?;
        Ok(crate::report::html(&scenario, &comparison))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::MemberSpec;
    use crate::presets::Preset;

    fn scale_up() -> Scenario {
        Preset::find("scale-up-running")
            .expect("preset")
            .scenario()
            .expect("parses")
    }

    #[test]
    fn seeking_back_and_forth_shows_the_same_states() {
        let mut s = Session::new(scale_up(), &[]).expect("starts");
        s.seek(9_000).expect("runs");
        let at_9000 = s.main().view().clone();
        s.seek(3_000).expect("back");
        assert_eq!(s.main().view().time(), 3_000);
        assert_eq!(*s.main().view(), s.main().run.state_at(3_000));
        s.seek(9_000).expect("forward");
        assert_eq!(*s.main().view(), at_9000);
    }

    #[test]
    fn a_command_applies_to_every_lane_and_can_fork() {
        let mut s =
            Session::new(scale_up(), &[Strategy::Learner, Strategy::Eager]).expect("starts");
        s.seek(9_000).expect("runs");
        s.seek(1_000).expect("back");
        let join = Command::Join(MemberSpec {
            name: "S9".into(),
            capacity: 1,
            restore_rate: None,
            zone: None,
        });
        s.command(join).expect("joins");
        for lane in s.lanes() {
            assert!(lane.view().roster().member_id("S9").is_some());
            assert_eq!(lane.run.forks().len(), 1, "{}", lane.strategy);
            assert_eq!(lane.run.frontier(), 1_000);
        }
    }

    #[test]
    fn a_refused_command_changes_nothing() {
        let mut s =
            Session::new(scale_up(), &[Strategy::Learner, Strategy::Cooperative]).expect("starts");
        s.seek(100).expect("runs");
        let err = s
            .command(Command::Crash("S42".into()))
            .expect_err("unknown");
        assert_eq!(err, CommandError::UnknownMember("S42".into()));
        s.command(Command::Crash("S2".into())).expect("crash");
        let err = s.command(Command::Drain("S2".into())).expect_err("crashed");
        assert_eq!(err, CommandError::AlreadyCrashed("S2".into()));
    }

    #[test]
    fn rounds_are_shown_as_known_at_the_clock() {
        let mut s = Session::new(scale_up(), &[]).expect("starts");
        s.seek(3_000).expect("runs");
        let lane = s.main();
        assert_eq!(
            lane.rounds_as_of(300).len(),
            1,
            "the first round assigned at 250 ms"
        );
        assert_eq!(
            lane.rounds_as_of(300)[0].synced_at,
            None,
            "its sync at 500 ms is still to come"
        );
        assert_eq!(lane.rounds_as_of(600)[0].synced_at, Some(500));
        assert!(lane.rounds_as_of(100).is_empty());
    }

    /// Everything a lane's history holds that the page reads, to compare two histories.
    fn history(lane: &Lane) -> impl PartialEq + std::fmt::Debug {
        (
            lane.run.events().to_vec(),
            lane.run.rounds().to_vec(),
            lane.run.commands().to_vec(),
            lane.run.violations().to_vec(),
            lane.view().clone(),
        )
    }

    fn computed_to(s: &mut Session, until: u64) {
        while s.compute(until).expect("runs") {}
    }

    /// A session that computed ahead of its clock shows what one that never did shows, and a
    /// command at the clock there leaves the history one that never computed ahead makes,
    /// without a fork; before the furthest moment the reader had been, it forks as before.
    #[test]
    fn computing_ahead_changes_nothing_the_reader_sees_nor_what_acting_makes() {
        let join = |name: &str| {
            Command::Join(MemberSpec {
                name: name.into(),
                capacity: 1,
                restore_rate: None,
                zone: None,
            })
        };
        let strategies = [Strategy::Learner, Strategy::Kip441, Strategy::Eager];
        for clock in [0, 250, 1_700, 2_000, 6_000] {
            let mut plain = Session::new(scale_up(), &strategies).expect("starts");
            let mut ahead = plain.clone();
            plain.seek(clock).expect("runs");
            ahead.seek(clock).expect("runs");
            computed_to(&mut ahead, clock + 30_000);
            assert!(ahead.lanes().iter().all(|l| l.run.frontier() > clock));
            assert_eq!(ahead.frontier(), plain.frontier(), "at {clock} ms");
            for (a, p) in ahead.lanes().iter().zip(plain.lanes()) {
                assert_eq!(a.view(), p.view(), "{} at {clock} ms", a.strategy);
            }
            plain.command(join("S9")).expect("joins");
            ahead.command(join("S9")).expect("joins");
            assert!(
                ahead.forks().is_empty(),
                "no fork at the clock ({clock} ms)"
            );
            for (a, p) in ahead.lanes().iter().zip(plain.lanes()) {
                assert_eq!(history(a), history(p), "{} at {clock} ms", a.strategy);
            }
            // Both go on alike, and acting again before where the reader had been forks both.
            plain.seek(clock + 9_000).expect("runs");
            ahead.seek(clock + 9_000).expect("runs");
            computed_to(&mut ahead, clock + 40_000);
            ahead.seek(clock + 1_000).expect("runs");
            plain.seek(clock + 1_000).expect("runs");
            plain.command(Command::Crash("S2".into())).expect("crash");
            ahead.command(Command::Crash("S2".into())).expect("crash");
            assert_eq!(ahead.forks().len(), 1);
            assert_eq!(plain.main().run.forks().last(), ahead.forks().last());
            for (a, p) in ahead.lanes().iter().zip(plain.lanes()) {
                assert_eq!(history(a), history(p), "{} after a fork", a.strategy);
            }
        }
    }

    #[test]
    fn other_lanes_keep_the_lanes_computed_and_start_the_new_ones() {
        let mut s = Session::new(scale_up(), &[Strategy::Learner]).expect("starts");
        s.seek(3_000).expect("runs");
        s.command(Command::Crash("S2".into())).expect("crash");
        s.seek(5_000).expect("runs");
        let learner = history(s.main());
        s.relane(&[Strategy::Eager, Strategy::Learner]);
        assert_eq!(s.strategies(), [Strategy::Eager, Strategy::Learner]);
        assert_eq!(history(&s.lanes()[1]), learner, "kept as it was");
        assert_eq!(s.lanes()[0].run.frontier(), 0, "a new lane starts");
        assert!(!s.has(5_000));
        computed_to(&mut s, 5_000);
        s.seek(5_000).expect("runs");
        // The new lane carried out the same commands, the reader's crash among them.
        let fresh = Session::new(
            Scenario {
                commands: s.lanes()[1].run.commands().to_vec(),
                ..scale_up()
            },
            &[Strategy::Eager],
        )
        .and_then(|mut f| f.seek(5_000).map(|()| f))
        .expect("runs");
        assert_eq!(s.lanes()[0].view(), fresh.main().view());
    }

    #[test]
    fn stepping_finds_events_and_rounds() {
        let mut s = Session::new(scale_up(), &[]).expect("starts");
        let first = s.next_event().expect("the join at 0 ms is pending");
        assert_eq!(first, 250, "the first round's join phase closes at 250 ms");
        s.seek(first).expect("runs");
        let round = s.next_round().expect("runs").expect("S5 joins at 2000 ms");
        assert_eq!(round, 2_000);
        s.seek(round).expect("runs");
        assert_eq!(s.previous_event(), Some(500));
    }
}
