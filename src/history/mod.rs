//! The history of a run: the scenario, every command with its time, the events and rounds
//! they produced, and snapshots of the engine from which any moment is replayed exactly.
//! After every step it checks the design's invariants ([`invariants`]) on the engine, which
//! knows nothing of them.
//!
//! Nothing is stored per frame. The state at a past moment is the nearest earlier snapshot
//! run forward, which gives the same state the first run had, since the engine is
//! deterministic. Acting at a past moment forks: the commands after it are dropped (and kept
//! in [`Fork`] so the timeline can show them), and the history goes on from there.

pub mod invariants;

use crate::engine::coordinator::Round;
use crate::engine::{CommandError, Engine, Event, EventKind, RecordedRound};
use crate::model::{Command, JoinMetadata, MemberAssignment, MemberId, Scenario, TimedCommand};
use invariants::{StateChecker, Violation};
use std::rc::Rc;

/// Steps between two snapshots in a small group: replaying at most this many events answers
/// any scrub.
const SNAPSHOT_EVERY: usize = 24;

/// Tasks and members per step between two snapshots in a large group: a snapshot holds a copy
/// of what is kept per task, and a step costs what it changes, so spacing them out with the
/// group keeps the history's memory in proportion to its events.
const GROUP_PER_STEP: usize = 200;

/// Tasks and members, summed over the snapshots a history keeps (a 22,000 group keeps 18):
/// past that, snapshots are dropped where they are densest, so a long history of a large
/// group holds a bounded number of copies of it, spread evenly over what replaying costs.
const SNAPSHOT_BUDGET: usize = 400_000;

/// The fewest snapshots a history keeps before it thins them.
const MIN_SNAPSHOTS: usize = 16;

/// Snapshots a history thins one at a time ([`Run::thin_snapshots`]).
const THIN_ONE_AT_A_TIME: usize = 256;

/// What a snapshot holds besides its tasks and members (the coordinator, the timers, the
/// vectors' own records), counted as this many of them against [`SNAPSHOT_BUDGET`]: a group
/// of a few members keeps thousands of snapshots, not tens of thousands.
const SNAPSHOT_OVERHEAD: usize = 64;

/// How long a run may go on after its last command before it is cut, if the group never
/// comes to rest (for example a learner that restores slower than its task writes).
pub const REST_LIMIT_MS: u64 = 24 * 3_600_000;

/// The most rebalances [`Run::run_to_end`] simulates: a group that never comes to rest (say,
/// writes outrunning every restore under KIP-441's probing rebalances, for a year) stops
/// there, where it is, in a bounded time.
pub const MAX_ROUNDS: usize = 10_000;

/// A round of the history as a replay applies it: its reports and assignment shared.
fn recorded(round: &Round) -> RecordedRound {
    RecordedRound {
        index: round.index,
        assigned_at: round.assigned_at,
        joined: round.joined.clone(),
        assignment: round.assignment.clone(),
        changed: round.synced_at.map(|_| round.changed.clone()),
    }
}

#[derive(Clone, Debug)]
struct Snapshot {
    engine: Engine,
    next_command: usize,
    /// The history's work before it ([`Run::work`]): what replaying from it costs.
    work: usize,
}

/// Something each member had at its latest round: most members of a large group report and
/// are given the same from one round to the next, so the rounds share one copy of it.
#[derive(Clone, Debug)]
struct Latest<T>(Vec<Option<Rc<T>>>);

impl<T: PartialEq> Latest<T> {
    /// Points `item` at the member's earlier one when they are the same, else keeps it as the
    /// member's latest.
    fn share(&mut self, member: MemberId, item: &mut Rc<T>) {
        let i = member.index();
        if self.0.len() <= i {
            self.0.resize(i + 1, None);
        }
        match &self.0[i] {
            Some(earlier) if **earlier == **item => *item = earlier.clone(),
            _ => self.0[i] = Some(item.clone()),
        }
    }
}

/// A view of a history at some moment: the engine there and the next command to apply.
#[derive(Clone, Debug)]
pub struct Cursor {
    engine: Engine,
    next_command: usize,
}

impl Cursor {
    /// The state at the cursor's moment.
    pub fn engine(&self) -> &Engine {
        &self.engine
    }
}

/// Commands dropped when a person acted at a past moment.
#[derive(Clone, Debug, PartialEq)]
pub struct Fork {
    /// The moment the history forked.
    pub at_ms: u64,
    /// Where the abandoned branch had been simulated to.
    pub abandoned_until_ms: u64,
    /// The commands that were dropped.
    pub dropped: Vec<TimedCommand>,
}

/// A command from a scenario that could not be carried out.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("events: {command} at {at_ms} ms: {error}")]
pub struct RunError {
    /// When.
    pub at_ms: u64,
    /// What, in words.
    pub command: String,
    /// Why not.
    pub error: CommandError,
}

/// A simulation with its whole history.
#[derive(Clone, Debug)]
pub struct Run {
    scenario: Scenario,
    commands: Vec<TimedCommand>,
    next_command: usize,
    engine: Engine,
    events: Vec<Event>,
    rounds: Vec<Round>,
    /// Each member's latest report at a round, shared by the rounds where it reported the
    /// same.
    reports: Latest<JoinMetadata>,
    /// Each member's latest assignment, shared likewise.
    given: Latest<MemberAssignment>,
    violations: Vec<Violation>,
    snapshots: Vec<Snapshot>,
    steps_since_snapshot: usize,
    /// Steps simulated so far and the events they made, the abandoned branches of forks
    /// included: a step's cost follows what it changes, and a round changes the most.
    work: usize,
    /// Tasks and members summed over the snapshots kept ([`SNAPSHOT_BUDGET`]).
    snapshot_budget: usize,
    forks: Vec<Fork>,
    check_invariants: bool,
    /// Who runs what, as the invariant checks last read it.
    checker: StateChecker,
}

impl Run {
    /// Starts a run of a scenario at time 0; its events are the first commands.
    pub fn new(scenario: Scenario) -> Run {
        let mut events = Vec::new();
        let mut engine = Engine::new(&scenario, &mut events);
        engine.keep_changes();
        engine.take_changes();
        let (checker, violations) = StateChecker::new(&engine);
        let commands = scenario.commands.clone();
        let mut run = Run {
            scenario,
            commands,
            next_command: 0,
            engine,
            events: Vec::new(),
            rounds: Vec::new(),
            reports: Latest(Vec::new()),
            given: Latest(Vec::new()),
            violations,
            snapshots: Vec::new(),
            steps_since_snapshot: 0,
            work: 0,
            snapshot_budget: SNAPSHOT_BUDGET,
            forks: Vec::new(),
            check_invariants: true,
            checker,
        };
        run.record(events);
        run.snapshots.push(Snapshot {
            engine: run.view_of_now(),
            next_command: 0,
            work: 0,
        });
        run
    }

    /// Turns the invariant checks off (benchmarks measure the simulation alone).
    pub fn without_invariant_checks(mut self) -> Run {
        self.check_invariants = false;
        self.engine.drop_changes();
        self
    }

    /// The scenario.
    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    /// The engine at the latest simulated moment.
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// The latest simulated moment.
    pub fn frontier(&self) -> u64 {
        self.engine.time()
    }

    /// Every command of this history (the scenario's, then the person's), in time order.
    pub fn commands(&self) -> &[TimedCommand] {
        &self.commands
    }

    /// Everything that happened, in order.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// The rounds that reached an assignment, in order.
    pub fn rounds(&self) -> &[Round] {
        &self.rounds
    }

    /// Broken invariants, in order.
    pub fn violations(&self) -> &[Violation] {
        &self.violations
    }

    /// Earlier branches of the history.
    pub fn forks(&self) -> &[Fork] {
        &self.forks
    }

    /// Whether every command has been carried out and the group is at rest.
    pub fn finished(&self) -> bool {
        self.next_command >= self.commands.len() && self.engine.at_rest()
    }

    /// Simulates up to `time`, carrying out the commands due by then.
    pub fn advance_to(&mut self, time: u64) -> Result<(), RunError> {
        loop {
            let due = self
                .commands
                .get(self.next_command)
                .map(|c| c.at_ms)
                .filter(|&at| at <= time);
            let limit = due.unwrap_or(time);
            self.steps_to(limit);
            let Some(at) = due else { break };
            while let Some(c) = self
                .commands
                .get(self.next_command)
                .filter(|c| c.at_ms == at)
            {
                let mut out = Vec::new();
                let command = c.command.clone();
                self.engine
                    .apply(&command, &mut out)
                    .map_err(|error| RunError {
                        at_ms: at,
                        command: command.to_string(),
                        error,
                    })?;
                self.next_command += 1;
                self.record(out);
                self.after_step();
            }
        }
        Ok(())
    }

    /// Simulates until every command ran and the group is at rest, stopping at `until_ms`
    /// (or [`REST_LIMIT_MS`] after the last command if it never rests), or after
    /// [`MAX_ROUNDS`] rebalances.
    pub fn run_to_end(&mut self) -> Result<(), RunError> {
        let last_command = self.commands.last().map_or(0, |c| c.at_ms);
        let limit = self
            .scenario
            .until_ms
            .unwrap_or(last_command.saturating_add(REST_LIMIT_MS));
        // From event to event, so that a group that rebalances without end stops at the cap.
        while self.rounds.len() < MAX_ROUNDS && self.frontier() < limit && !self.finished() {
            let next = self
                .engine
                .next_event_time()
                .into_iter()
                .chain(self.commands.get(self.next_command).map(|c| c.at_ms))
                .min();
            match next {
                Some(t) => self.advance_to(t.min(limit))?,
                None => break,
            }
        }
        if let Some(until) = self.scenario.until_ms {
            if self.frontier() < until && !self.finished() && self.rounds.len() < MAX_ROUNDS {
                self.advance_to(until)?;
            }
        }
        Ok(())
    }

    fn steps_to(&mut self, limit: u64) {
        let mut out = Vec::new();
        while self.engine.step(limit, &mut out) {
            self.record(std::mem::take(&mut out));
            self.after_step();
        }
        self.engine.advance_to(limit, &mut out);
        self.record(out);
    }

    fn record(&mut self, events: Vec<Event>) {
        self.work += events.len();
        for mut event in events {
            match &mut event.kind {
                EventKind::RoundAssigned(round) => {
                    if self.check_invariants {
                        self.violations
                            .extend(invariants::check_round(&self.engine, round));
                    }
                    // The round's record lives in `rounds`; its event keeps only the header.
                    let header = Box::new(round.header());
                    let mut taken = *std::mem::replace(round, header);
                    self.share_with_earlier_rounds(&mut taken);
                    self.rounds.push(taken);
                    // A snapshot after each assignment: going back to any moment then never
                    // runs the assignor again, the costly part of a step in a large group.
                    self.steps_since_snapshot = usize::MAX;
                }
                EventKind::RoundSynced {
                    index,
                    departed,
                    changed,
                } => {
                    let at = event.at;
                    if let Some(r) = self.rounds.iter_mut().rev().find(|r| r.index == *index) {
                        r.synced_at = Some(at);
                        r.departed.clone_from(departed);
                        // The round's record keeps the list, not its event.
                        r.changed = std::mem::take(changed);
                    }
                }
                EventKind::RoundAbandoned(index) => {
                    if let Some(r) = self.rounds.iter_mut().rev().find(|r| r.index == *index) {
                        r.abandoned = true;
                    }
                }
                _ => {}
            }
            self.events.push(event);
        }
    }

    /// Points each report and assignment of `round` at the member's earlier one when they are
    /// the same.
    fn share_with_earlier_rounds(&mut self, round: &mut Round) {
        for report in &mut round.joined {
            self.reports.share(report.member, report);
        }
        for (member, given) in &mut round.assignment.members {
            self.given.share(*member, given);
        }
    }

    fn after_step(&mut self) {
        if self.check_invariants {
            let changes = self.engine.take_changes();
            let found = self
                .checker
                .check(&self.engine, &changes.members, &changes.tasks);
            self.violations.extend(found);
        }
        self.work += 1;
        self.steps_since_snapshot = self.steps_since_snapshot.saturating_add(1);
        if self.steps_since_snapshot >= self.snapshot_every() {
            self.steps_since_snapshot = 0;
            self.snapshots.push(Snapshot {
                engine: self.view_of_now(),
                next_command: self.next_command,
                work: self.work,
            });
            self.thin_snapshots();
        }
    }

    /// Past the budget, keeps the snapshots spread evenly over the history's work (the
    /// first and the latest always), so that a moment anywhere is replayed, exactly, from
    /// about as little work back as the budget allows. While they are few, the snapshot whose
    /// neighbours are closest goes, one at a time; when thousands are kept (a small group's
    /// long history), an eighth goes at once, so that thinning costs a pass over them once
    /// every so many new ones rather than at each.
    fn thin_snapshots(&mut self) {
        let group = self.engine.tasks().len() + self.engine.members().len();
        let most = (self.snapshot_budget / (group + SNAPSHOT_OVERHEAD)).max(MIN_SNAPSHOTS);
        let count = self.snapshots.len();
        if count <= most {
            return;
        }
        if most <= THIN_ONE_AT_A_TIME {
            while self.snapshots.len() > most {
                let s = &self.snapshots;
                let Some(drop) = (1..s.len() - 1).min_by_key(|&i| s[i + 1].work - s[i - 1].work)
                else {
                    break;
                };
                self.snapshots.remove(drop);
            }
            return;
        }
        let keep = most * 7 / 8;
        let (first, latest) = (self.snapshots[0].work, self.snapshots[count - 1].work);
        // For each of `keep` moments evenly apart in work, the snapshot nearest to it.
        let mut kept = vec![false; count];
        let mut i = 0;
        for j in 0..keep {
            let target = first + (latest - first) * j / (keep - 1);
            while i + 1 < count
                && self.snapshots[i + 1].work.abs_diff(target)
                    <= self.snapshots[i].work.abs_diff(target)
            {
                i += 1;
            }
            if i >= count {
                break;
            }
            kept[i] = true;
            i += 1;
        }
        kept[count - 1] = true;
        let mut index = 0;
        self.snapshots.retain(|_| {
            index += 1;
            kept[index - 1]
        });
    }

    /// A copy of the latest state that keeps no record of its changes (nobody reads them).
    fn view_of_now(&self) -> Engine {
        let mut engine = self.engine.clone();
        engine.drop_changes();
        engine
    }

    /// Steps between two snapshots: [`SNAPSHOT_EVERY`], more in a large group.
    fn snapshot_every(&self) -> usize {
        let group = self.engine.tasks().len() + self.engine.members().len();
        SNAPSHOT_EVERY.max(group / GROUP_PER_STEP)
    }

    /// The state at any moment up to the frontier, replayed from the nearest snapshot.
    pub fn state_at(&self, time: u64) -> Engine {
        self.cursor_at(time).engine
    }

    /// A view of the history at a moment, which can then move forward cheaply.
    pub fn cursor_at(&self, time: u64) -> Cursor {
        if time >= self.frontier() {
            return Cursor {
                engine: self.view_of_now(),
                next_command: self.next_command,
            };
        }
        let snapshot = self.snapshot_before(time);
        let mut cursor = Cursor {
            engine: snapshot.engine.clone(),
            next_command: snapshot.next_command,
        };
        self.move_cursor(&mut cursor, time);
        cursor
    }

    /// Moves a view to another moment (at most the frontier): forward by running on from
    /// where it is, unless a snapshot lies between (then, as backward, by replaying from the
    /// nearest snapshot).
    pub fn move_cursor(&self, cursor: &mut Cursor, time: u64) {
        let time = time.min(self.frontier());
        if time < cursor.engine.time()
            || self.snapshot_before(time).engine.time() > cursor.engine.time()
        {
            *cursor = self.cursor_at(time);
            return;
        }
        let mut sink = Vec::new();
        while let Some(c) = self
            .commands
            .get(cursor.next_command)
            .filter(|c| c.at_ms <= time)
        {
            let rounds = self.assigned_between(cursor.engine.time(), c.at_ms);
            cursor.engine.replay_to(c.at_ms, rounds, &mut sink);
            // Commands in the history were carried out once already; they cannot fail now.
            let _ = cursor.engine.apply(&c.command, &mut sink);
            sink.clear();
            cursor.next_command += 1;
        }
        let rounds = self.assigned_between(cursor.engine.time(), time);
        cursor.engine.replay_to(time, rounds, &mut sink);
    }

    /// The rounds assigned from `from` to `to` (both included), and the one before (which
    /// may be syncing at `from`), in order, as a replay applies them.
    fn assigned_between(&self, from: u64, to: u64) -> impl Iterator<Item = RecordedRound> + '_ {
        let first = self
            .rounds
            .partition_point(|r| r.assigned_at < from)
            .saturating_sub(1);
        self.rounds[first..]
            .iter()
            .take_while(move |r| r.assigned_at <= to)
            .map(recorded)
    }

    fn snapshot_before(&self, time: u64) -> &Snapshot {
        let i = self
            .snapshots
            .partition_point(|s| s.engine.time() <= time)
            .max(1);
        &self.snapshots[i - 1]
    }

    /// Carries out a command at `at_ms` (the frontier, or a past moment, which forks the
    /// history). Checked first: on error the history is unchanged.
    pub fn command(&mut self, at_ms: u64, command: Command) -> Result<(), CommandError> {
        if at_ms < self.frontier() {
            let state = self.state_at(at_ms);
            state.check(&command)?;
            self.fork_at(at_ms, state);
        } else {
            self.advance_to(at_ms).map_err(|e| e.error)?;
            self.engine.check(&command)?;
        }
        self.commands
            .insert(self.next_command, TimedCommand { at_ms, command });
        self.advance_to(at_ms).map_err(|e| e.error)
    }

    /// Replaces the commands at `from_ms` and later with `later` (in time order) and takes
    /// the history back to just before that moment, keeping everything that happened earlier;
    /// simulating on (`advance_to`) then runs the new commands. What was simulated after it
    /// becomes a fork, as when acting in the past.
    pub fn reschedule(&mut self, from_ms: u64, later: Vec<TimedCommand>) {
        if from_ms == 0 {
            // Nothing before it to keep: start again from the first moment.
            let mut fresh = Run::new(self.scenario.clone());
            fresh.check_invariants = self.check_invariants;
            fresh.forks = std::mem::take(&mut self.forks);
            fresh.commands = later;
            *self = fresh;
            return;
        }
        let before = from_ms - 1;
        if before < self.frontier() {
            let state = self.state_at(before);
            self.fork_at(before, state);
        }
        let keep = self.commands.partition_point(|c| c.at_ms < from_ms);
        self.commands.truncate(keep);
        self.commands.extend(later);
    }

    /// Drops everything after `at_ms` and continues from `state` (the state at that moment).
    fn fork_at(&mut self, at_ms: u64, state: Engine) {
        let keep = self.commands.partition_point(|c| c.at_ms <= at_ms);
        let dropped = self.commands.split_off(keep);
        self.forks.push(Fork {
            at_ms,
            abandoned_until_ms: self.frontier(),
            dropped,
        });
        self.next_command = keep;
        self.engine = state;
        if self.check_invariants {
            // What was checked up to the fork stands; the checker reads the state afresh.
            self.engine.keep_changes();
            self.checker = StateChecker::new(&self.engine).0;
        }
        self.events.retain(|e| e.at <= at_ms);
        self.violations.retain(|v| v.at_ms <= at_ms);
        self.snapshots.retain(|s| s.engine.time() <= at_ms);
        self.steps_since_snapshot = 0;
        self.rounds.retain(|r| r.assigned_at <= at_ms);
        for r in &mut self.rounds {
            if r.synced_at.is_some_and(|s| s > at_ms) {
                r.synced_at = None;
                r.departed.clear();
                r.changed.clear();
            }
        }
        let live_round = self.engine.coordinator().round().map(|r| r.index);
        for r in &mut self.rounds {
            if r.abandoned && Some(r.index) == live_round {
                r.abandoned = false;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Ten members and forty tasks, a member joining every 2 s for two minutes: hundreds of
    /// assignments, each followed by a snapshot.
    fn busy() -> Scenario {
        let tasks: Vec<String> = (1..=40)
            .map(|i| format!(r#"{{ "id": "T{i}", "changelog": 20000, "write_rate": 10 }}"#))
            .collect();
        let joins: Vec<String> = (11..=70)
            .map(|i| format!(r#"{{ "at_ms": {}, "join": "S{i}" }}"#, (i - 11) * 2000))
            .collect();
        let members: Vec<String> = (1..=10).map(|i| format!(r#"{{ "id": "S{i}" }}"#)).collect();
        Scenario::from_json(&format!(
            r#"{{ "name": "busy", "config": {{ "rebalance_ms": 500, "num_standby_replicas": 1 }},
                "tasks": [ {} ], "members": [ {} ], "events": [ {} ] }}"#,
            tasks.join(", "),
            members.join(", "),
            joins.join(", ")
        ))
        .expect("valid scenario")
    }

    #[test]
    fn a_history_past_its_snapshot_budget_keeps_few_and_still_replays_every_moment_exactly() {
        let mut thin = Run::new(busy());
        thin.snapshot_budget = 0;
        thin.run_to_end().expect("runs");
        let mut full = Run::new(busy());
        full.snapshot_budget = usize::MAX;
        full.run_to_end().expect("runs");
        assert!(
            full.snapshots.len() > 2 * MIN_SNAPSHOTS,
            "{}",
            full.snapshots.len()
        );
        assert!(
            thin.snapshots.len() <= MIN_SNAPSHOTS,
            "{}",
            thin.snapshots.len()
        );
        assert_eq!(thin.snapshots[0].engine.time(), 0, "the start is kept");
        // Spread evenly: no moment is much further in work from a snapshot than another.
        let steps: Vec<usize> = thin.snapshots.iter().map(|s| s.work).collect();
        let widest = steps.windows(2).map(|w| w[1] - w[0]).max().unwrap_or(0);
        let even = (steps[steps.len() - 1] - steps[0]) / (steps.len() - 1);
        assert!(widest <= 3 * even, "{steps:?}");
        // And in what replaying costs: the events between two snapshots kept.
        let times: Vec<u64> = thin.snapshots.iter().map(|s| s.engine.time()).collect();
        let events = |from: u64, to: u64| {
            let at = |t: u64| thin.events.partition_point(|e| e.at <= t);
            at(to) - at(from)
        };
        let gaps: Vec<usize> = times.windows(2).map(|w| events(w[0], w[1])).collect();
        let even = events(0, times[times.len() - 1]) / gaps.len();
        assert!(gaps.iter().all(|&g| g <= 3 * even), "{gaps:?}");
        let end = thin.frontier();
        for k in 0..=20 {
            let at = end * k / 20;
            assert!(thin.state_at(at) == full.state_at(at), "at {at} ms");
        }
    }

    #[test]
    fn thousands_of_snapshots_are_thinned_an_eighth_at_once_and_stay_even() {
        let mut run = Run::new(busy());
        let group = run.engine.tasks().len() + run.engine.members().len();
        let most = 2 * THIN_ONE_AT_A_TIME;
        run.snapshot_budget = most * (group + SNAPSHOT_OVERHEAD);
        let first = run.snapshots[0].engine.clone();
        run.snapshots = (0..=most)
            .map(|i| Snapshot {
                engine: first.clone(),
                next_command: 0,
                // Denser in the second half, as new snapshots come.
                work: if i < most / 2 {
                    i * 48
                } else {
                    most * 24 + (i - most / 2) * 24
                },
            })
            .collect();
        run.thin_snapshots();
        let count = run.snapshots.len();
        assert!(
            count <= most * 7 / 8 + 1 && count >= most * 7 / 8 - 1,
            "{count} of {most}"
        );
        let steps: Vec<usize> = run.snapshots.iter().map(|s| s.work).collect();
        assert_eq!(steps[0], 0, "the start is kept");
        assert_eq!(steps[count - 1], most * 36, "the latest is kept");
        let widest = steps.windows(2).map(|w| w[1] - w[0]).max().unwrap_or(0);
        let even = (steps[count - 1] - steps[0]) / (count - 1);
        assert!(widest <= 2 * even, "widest {widest}, even {even}");
    }

    #[test]
    fn a_replay_applies_the_reports_and_assignments_recorded_for_its_rounds() {
        let mut run = Run::new(busy());
        run.run_to_end().expect("runs");
        let rounds = run.rounds();
        let (round, other) = rounds
            .iter()
            .zip(rounds.iter().skip(1))
            .find(|(r, o)| {
                r.assigned_at > 0 && r.assignment != o.assignment && r.joined != o.joined
            })
            .expect("two rounds that reported and assigned differently");
        let given = |engine: &mut Engine, recorded: Vec<RecordedRound>| {
            let mut out = Vec::new();
            engine.replay_to(round.assigned_at, recorded, &mut out);
            out.into_iter().find_map(|e| match e.kind {
                EventKind::RoundAssigned(r) if r.index == round.index => {
                    Some((r.joined, r.assignment))
                }
                _ => None,
            })
        };
        let before = run.state_at(round.assigned_at - 1);
        let as_if = |index: u32| RecordedRound {
            index,
            assigned_at: round.assigned_at,
            ..recorded(other)
        };
        assert_eq!(
            given(&mut before.clone(), vec![as_if(round.index)]),
            Some((other.joined.clone(), other.assignment.clone())),
            "the recorded reports and assignment, not computed again"
        );
        assert_eq!(
            given(&mut before.clone(), vec![as_if(round.index + 1)]),
            Some((round.joined.clone(), round.assignment.clone())),
            "another round's record is not applied"
        );
        // Every moment replayed from the snapshots is the state the history simulated.
        let mut live = Run::new(busy());
        for k in 1..=20 {
            let at = run.frontier() * k / 20;
            live.advance_to(at).expect("runs");
            assert!(run.state_at(at) == *live.engine(), "at {at} ms");
        }
    }

    #[test]
    fn a_replay_changes_at_a_sync_the_members_the_history_recorded() {
        let mut run = Run::new(busy());
        run.run_to_end().expect("runs");
        let round = run
            .rounds()
            .iter()
            .find(|r| r.assigned_at > 0 && !r.changed.is_empty() && r.synced_at.is_some())
            .expect("a round that changed members");
        let synced_at = round.synced_at.expect("synced");
        // From the moment it was assigned: the replay starts with the round syncing.
        let syncing = run.state_at(round.assigned_at);
        let synced = |changed: Vec<MemberId>| {
            let mut engine = syncing.clone();
            let record = RecordedRound {
                changed: Some(changed),
                ..recorded(round)
            };
            engine.replay_to(synced_at, vec![record], &mut Vec::new());
            engine
        };
        assert!(synced(round.changed.clone()) == run.state_at(synced_at));
        let first = round.changed[0];
        let given = round
            .assignment
            .members
            .iter()
            .find(|(m, _)| *m == first)
            .map(|(_, a)| a.assigned.clone());
        let left = synced(round.changed[1..].to_vec());
        assert_ne!(
            Some(left.member(first).last_assigned.clone()),
            given,
            "a member the record says nothing of is left as it was"
        );
        assert!(left != run.state_at(synced_at));
    }

    #[test]
    fn rounds_and_snapshots_share_what_a_round_left_as_it_was() {
        let mut run = Run::new(busy());
        run.run_to_end().expect("runs");
        let (mut same, mut shared) = (0, 0);
        for pair in run.rounds().windows(2) {
            for (member, given) in &pair[1].assignment.members {
                if let Some((_, earlier)) =
                    pair[0].assignment.members.iter().find(|(m, _)| m == member)
                {
                    if earlier == given {
                        same += 1;
                        shared += usize::from(Rc::ptr_eq(earlier, given));
                    }
                }
            }
        }
        assert!(same > 1000, "{same} assignments repeated");
        assert_eq!(shared, same, "every repeated assignment is the earlier one");
        // The last snapshot holds most members as the live engine does: the rounds since
        // changed the roles of a few.
        let last = &run.snapshots[run.snapshots.len() - 1].engine;
        let now = run.engine().members();
        let kept = last
            .members()
            .iter()
            .zip(now)
            .filter(|(a, b)| Rc::ptr_eq(a, b))
            .count();
        assert!(
            kept * 2 > last.members().len(),
            "{kept} of {} members shared",
            last.members().len()
        );
    }
}
