//! The rules of the design that must hold at every moment, checked by the history after every
//! event (as Runway and Spectacle do). A violation is a finding about the design or the code,
//! shown in red in the playground's log and failing the property tests.

use crate::engine::coordinator::Round;
use crate::engine::Engine;
use crate::model::{JoinMetadata, MemberAssignment, MemberId, Strategy, TaskId};

/// A rule that must always hold; its name (as the log shows it) is its `Display`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, strum::Display, strum::IntoStaticStr)]
pub enum Invariant {
    /// Rule 1: no task is run by two members at once, nor handed to a member while another
    /// reports running it.
    #[strum(to_string = "never two owners")]
    NeverTwoOwners,
    /// No member learns, or keeps a standby of, a task it runs itself.
    #[strum(to_string = "no learner or standby beside its active")]
    NoReplicaBesideActive,
    /// A draining member gets no new work: no new active, learner or standby.
    #[strum(to_string = "no new work for a leaving member")]
    NoNewWorkWhileLeaving,
    /// Rule 2 and 4: a stateful task taken from a live owner goes to a ready learner (or,
    /// two-phase, is revoked while a ready learner waits for it). Under KIP-441: to a member
    /// within the acceptable recovery lag, or, for a task still restoring, to one at least as
    /// far along as its owner.
    #[strum(to_string = "a planned handoff waits for a ready learner")]
    PlannedHandoffWaitsForReadyLearner,
    /// Rule 3: after a round, every task has an owner unless it waits for the follow-up.
    #[strum(to_string = "every task has an owner after a round")]
    EveryTaskOwned,
    /// The engine's owner of each task is the member that runs it, and a task nobody runs
    /// has no owner (the two records of ownership never drift apart).
    #[strum(to_string = "one record of who owns a task")]
    OwnershipAgrees,
}

impl Invariant {
    /// A short name for the log.
    pub fn name(self) -> &'static str {
        self.into()
    }
}

/// A broken invariant, with when and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// When it was seen.
    pub at_ms: u64,
    /// The rule.
    pub invariant: Invariant,
    /// The round it belongs to, for a decision of the leader.
    pub round: Option<u32>,
    /// What exactly, in words.
    pub detail: String,
}

/// Checks the state of the group at this moment, whole.
pub fn check_state(engine: &Engine) -> Vec<Violation> {
    StateChecker::new(engine).1
}

/// The state's invariants checked step by step: after a step, only the members and tasks it
/// changed are read again. The checker keeps its own record of who runs what, built from the
/// members' lists, so that it can tell when the engine's record of ownership drifts from them.
#[derive(Clone, Debug, Default)]
pub struct StateChecker {
    /// Each member's active tasks, as last read.
    active_of: Vec<Vec<TaskId>>,
    /// The members whose lists hold each task, as last read.
    holders: Vec<Vec<MemberId>>,
}

impl StateChecker {
    /// Reads the whole group, and what breaks an invariant in it.
    pub fn new(engine: &Engine) -> (StateChecker, Vec<Violation>) {
        let mut checker = StateChecker {
            active_of: vec![Vec::new(); engine.members().len()],
            holders: vec![Vec::new(); engine.tasks().len()],
        };
        let members: Vec<MemberId> = (0..engine.members().len())
            .map(|i| MemberId(i as u32))
            .collect();
        let tasks: Vec<TaskId> = (0..engine.tasks().len())
            .map(|t| TaskId(t as u32))
            .collect();
        let found = checker.check(engine, &members, &tasks);
        (checker, found)
    }

    /// Reads again the members and tasks a step changed, and what breaks an invariant there.
    pub fn check(
        &mut self,
        engine: &Engine,
        members: &[MemberId],
        tasks: &[TaskId],
    ) -> Vec<Violation> {
        if self.active_of.len() < engine.members().len() {
            self.active_of.resize(engine.members().len(), Vec::new());
        }
        let mut read: Vec<TaskId> = tasks.to_vec();
        for &id in members {
            let now = &engine.member(id).active;
            let before = std::mem::replace(&mut self.active_of[id.index()], now.clone());
            for &t in &before {
                self.holders[t.index()].retain(|&m| m != id);
            }
            for &t in now {
                self.holders[t.index()].push(id);
            }
            read.extend(before);
            read.extend_from_slice(now);
        }
        read.sort();
        read.dedup();
        let mut found = Vec::new();
        for &id in members {
            self.beside_active(engine, id, &mut found);
        }
        for t in read {
            self.owners(engine, t, &mut found);
        }
        found
    }

    /// No member replicates a task it runs.
    fn beside_active(&self, engine: &Engine, id: MemberId, found: &mut Vec<Violation>) {
        let member = engine.member(id);
        if !(member.status.alive() || member.status.restarting()) {
            return;
        }
        for &t in &member.active {
            if member.learns(t) || member.standby.binary_search(&t).is_ok() {
                found.push(state_violation(
                    engine,
                    Invariant::NoReplicaBesideActive,
                    format!(
                        "{} runs {} and also replicates it",
                        member.name,
                        engine.roster().task(t)
                    ),
                ));
            }
        }
    }

    /// A task runs on one member at most (a restarting static member still owns its tasks),
    /// and the engine's owner of it is the member whose list holds it.
    fn owners(&self, engine: &Engine, task: TaskId, found: &mut Vec<Violation>) {
        let roster = engine.roster();
        let holders = &self.holders[task.index()];
        let running: Vec<MemberId> = holders
            .iter()
            .copied()
            .filter(|&m| {
                let status = engine.member(m).status;
                status.alive() || status.restarting()
            })
            .collect();
        if let [first, second, ..] = running[..] {
            found.push(state_violation(
                engine,
                Invariant::NeverTwoOwners,
                format!(
                    "{} runs on both {} and {}",
                    roster.task(task),
                    roster.member(first.min(second)),
                    roster.member(first.max(second))
                ),
            ));
        }
        let held = holders.iter().copied().max();
        let owner = engine.owner(task);
        if owner != held {
            let name = |m: Option<MemberId>| m.map_or("nobody", |m| roster.member(m));
            found.push(state_violation(
                engine,
                Invariant::OwnershipAgrees,
                format!(
                    "{} is owned by {} but run by {}",
                    roster.task(task),
                    name(owner),
                    name(held)
                ),
            ));
        }
    }
}

/// A violation of the state at the engine's moment.
fn state_violation(engine: &Engine, invariant: Invariant, detail: String) -> Violation {
    Violation {
        at_ms: engine.time(),
        invariant,
        round: None,
        detail,
    }
}

/// Checks a leader's decision against what the members reported.
pub fn check_round(engine: &Engine, round: &Round) -> Vec<Violation> {
    let roster = engine.roster();
    let mut check = RoundCheck::new(engine, round);
    // Member by member, so that the violations come in the order the leader handed work out.
    for (pos, (member, a)) in round.assignment.members.iter().enumerate() {
        let name = roster.member(*member);
        let meta = &round.joined[pos];
        check.never_two_owners(pos, name, a);
        check.no_replica_beside_active(name, a);
        check.no_new_work_while_leaving(name, meta, a);
    }
    check.every_task_owned();
    check.planned_handoffs_wait_for_ready_learners();
    check.found
}

/// A leader's decision under check: who reported each task, who is handed it, what broke.
struct RoundCheck<'a> {
    /// The group the round ran in.
    engine: &'a Engine,
    /// The round checked.
    round: &'a Round,
    /// For each task, the first member (by join position) that reported it, running or revoked.
    reported: Vec<Option<usize>>,
    /// For each task, the first member (by join position) that reported still running it.
    running: Vec<Option<usize>>,
    /// For each task, the member (by join position) the leader hands it to.
    owner: Vec<Option<usize>>,
    /// The violations found, in the order they were seen.
    found: Vec<Violation>,
}

impl<'a> RoundCheck<'a> {
    /// Reads what the members reported, before any member's assignment is checked.
    fn new(engine: &'a Engine, round: &'a Round) -> Self {
        let n = engine.tasks().len();
        let mut reported: Vec<Option<usize>> = vec![None; n];
        let mut running: Vec<Option<usize>> = vec![None; n];
        for (pos, meta) in round.joined.iter().enumerate() {
            for &t in meta.assigned.iter().chain(&meta.revoked) {
                reported[t.index()].get_or_insert(pos);
            }
            for &t in &meta.assigned {
                running[t.index()].get_or_insert(pos);
            }
        }
        RoundCheck {
            engine,
            round,
            reported,
            running,
            owner: vec![None; n],
            found: Vec::new(),
        }
    }

    /// Records a violation of this round.
    fn violation(&mut self, invariant: Invariant, detail: String) {
        self.found.push(Violation {
            at_ms: self.round.assigned_at,
            invariant,
            round: Some(self.round.index),
            detail,
        });
    }

    /// Never two owners: the member at `pos` gets no task handed twice or still run elsewhere.
    fn never_two_owners(&mut self, pos: usize, name: &str, a: &MemberAssignment) {
        let roster = self.engine.roster();
        for &t in &a.assigned {
            if self.owner[t.index()].replace(pos).is_some() {
                self.violation(
                    Invariant::NeverTwoOwners,
                    format!("{} is assigned twice", roster.task(t)),
                );
            }
            // Under the streams protocol the broker grants a task only once its old owner has
            // released it (the state checks see every step); its target may name a new owner.
            let streams = self.engine.config().strategy.streams_protocol();
            let runner = self.running[t.index()];
            if !streams && runner.is_some_and(|r| r != pos) {
                let still_runs = self.round.joined[runner.unwrap_or(pos)].member;
                self.violation(
                    Invariant::NeverTwoOwners,
                    format!(
                        "{} goes to {name} while {} still runs it",
                        roster.task(t),
                        roster.member(still_runs)
                    ),
                );
            }
        }
    }

    /// No member gets a task both to run and to replicate.
    fn no_replica_beside_active(&mut self, name: &str, a: &MemberAssignment) {
        let roster = self.engine.roster();
        for &t in a.learning.iter().chain(&a.standby) {
            if a.assigned.binary_search(&t).is_ok() {
                self.violation(
                    Invariant::NoReplicaBesideActive,
                    format!(
                        "{name} gets {} both as active and as replica",
                        roster.task(t)
                    ),
                );
            }
        }
    }

    /// A leaving member gets no new work, unless every member is leaving.
    fn no_new_work_while_leaving(&mut self, name: &str, meta: &JoinMetadata, a: &MemberAssignment) {
        if !meta.leaving {
            return;
        }
        let new_active: Vec<TaskId> = a
            .assigned
            .iter()
            .copied()
            .filter(|t| !meta.assigned.contains(t) && !meta.revoked.contains(t))
            .collect();
        if !new_active.is_empty() || !a.learning.is_empty() || !a.standby.is_empty() {
            let leaving_alone = self.round.joined.iter().all(|m| m.leaving);
            if !leaving_alone {
                self.violation(
                    Invariant::NoNewWorkWhileLeaving,
                    format!("{name} is leaving but gets new work"),
                );
            }
        }
    }

    /// Every task has an owner after the round, unless it was revoked for the follow-up.
    fn every_task_owned(&mut self) {
        let round = self.round;
        if round.joined.is_empty() {
            return;
        }
        let roster = self.engine.roster();
        let mut revoked = vec![false; self.owner.len()];
        for (_, a) in &round.assignment.members {
            for &t in &a.revoked {
                revoked[t.index()] = true;
            }
        }
        let unowned: Vec<TaskId> = self
            .owner
            .iter()
            .enumerate()
            .filter(|&(t, o)| o.is_none() && !(revoked[t] && round.assignment.followup))
            .map(|(t, _)| TaskId(t as u32))
            .collect();
        for task in unowned {
            self.violation(
                Invariant::EveryTaskOwned,
                format!("{} has no owner after the round", roster.task(task)),
            );
        }
    }

    /// A stateful task taken from the member that reported it goes to a member ready for it.
    fn planned_handoffs_wait_for_ready_learners(&mut self) {
        let engine = self.engine;
        if !matches!(
            engine.config().strategy,
            Strategy::Learner | Strategy::Kip441
        ) {
            return;
        }
        let roster = engine.roster();
        for t in 0..engine.tasks().len() {
            let task = TaskId(t as u32);
            if !engine.tasks()[t].stateful {
                continue;
            }
            let Some(from) = self.reported[t] else {
                continue;
            };
            let new_owner = self.owner[t];
            if new_owner == Some(from) {
                continue;
            }
            let fine = match new_owner {
                Some(to) => self.ready(task, to, from),
                None => {
                    (0..self.round.joined.len()).any(|p| p != from && self.ready(task, p, from))
                }
            };
            if !fine {
                let left = self.round.joined[from].member;
                self.violation(
                    Invariant::PlannedHandoffWaitsForReadyLearner,
                    format!(
                        "{} leaves {} without a ready learner to take it",
                        roster.task(task),
                        roster.member(left)
                    ),
                );
            }
        }
    }

    /// Whether the member at `pos` is ready to take `task` from the member at `from`.
    fn ready(&self, task: TaskId, pos: usize, from: usize) -> bool {
        let config = self.engine.config();
        let ready_lag = config.ready_lag();
        // Without local state a member is as far behind as the whole changelog.
        let lag = |pos: usize| {
            self.round.joined[pos]
                .lag(task)
                .unwrap_or(self.engine.changelog_end(task).ceil() as u64)
        };
        let meta = &self.round.joined[pos];
        match config.strategy {
            Strategy::Learner => {
                meta.learning.contains(&task) && meta.lag(task).is_some_and(|l| l <= ready_lag)
            }
            // Kafka Streams also moves a task that is still restoring to a member
            // at least as far along, when nobody is caught up: it loses nothing.
            _ => lag(pos) <= ready_lag || lag(pos) <= lag(from),
        }
    }
}
