//! Kafka's streams rebalance protocol (KIP-1071) for the strategies `kip1071` (what Kafka 4.1 to
//! 4.3 ship) and `kip1071-warmup` (trunk's warm-up refiner, not released): no rounds, only
//! heartbeats. As Kafka's group coordinator does (`GroupMetadataManager.streamsGroupHeartbeat`,
//! `CurrentAssignmentBuilder`):
//!
//! - a member joining, leaving or fenced (its session over) bumps the **group epoch**;
//! - the broker's sticky assignor computes a **target assignment** for the new epoch inside
//!   some member's heartbeat, at most once per `assignment.interval.ms` (4.3), and an empty
//!   group's first one waits `initial.rebalance.delay.ms` (4.2);
//! - each member **reconciles** at its own heartbeats: it first gives up what it must (and
//!   acknowledges at once), and is granted a task only once its old owner has released it;
//! - on trunk, the refiner holds a stateful move back until a warm-up on the new owner has
//!   caught up, and a caught-up warm-up is promoted with a refined epoch, no assignor run.
//!
//! A Handoff member of capacity N is one Kafka Streams process of N members, its stream threads;
//! its threads heartbeat together, every `group.streams.heartbeat.interval.ms` from their last
//! send. Only heartbeats that change something are events.

use super::coordinator::Cause;
use super::member::Store;
use super::threads::Thread;
use super::{Engine, Event, EventKind, Timer};
use crate::assignor::kip1071::bridge::{
    assign_processes, refine_processes, KafkaTasks, Process, ProcessState, ThreadTasks,
};
use crate::assignor::kip1071::Release;
use crate::engine::coordinator::{shared, Round};
use crate::model::{Assignment, MemberAssignment, MemberId, Strategy, TaskId};
use std::rc::Rc;

/// The broker's record of a streams group.
#[derive(Clone, Debug, PartialEq)]
pub struct StreamsGroup {
    /// Bumped by every change of membership and, on trunk, by every refined assignment.
    pub group_epoch: u32,
    /// The group epoch of the current target assignment.
    pub assignment_epoch: u32,
    /// When the assignor last ran (the next run waits `assignment.interval.ms`).
    last_assignment_at: Option<u64>,
    /// When an empty group's delayed first assignment runs.
    delayed_until: Option<u64>,
    /// Why the group epoch moved since the last assignment, and since when.
    causes: Vec<Cause>,
    bumped_at: Option<u64>,
    /// The round of the history that recorded the last target assignment, and its causes.
    last_round: Option<(u32, Vec<Cause>)>,
    /// Per member (by id), the assignor's target per thread; empty once it left.
    target: Vec<Vec<ThreadTasks>>,
    /// Per member, what it is to hold now per thread: the target, or trunk's refinement.
    intended: Vec<Vec<ThreadTasks>>,
    /// Per member, what it was told to give up and has not acknowledged, per thread.
    revoking: Vec<Vec<ThreadTasks>>,
    /// Per member, its last offsets report (trunk): (task, position, end for a replay).
    reports: Vec<Vec<(TaskId, i64, Option<i64>)>>,
    /// Per member, when it last reported (trunk): it reports again every
    /// `task.offset.interval.ms` while a move waits for the refiner.
    reported_at: Vec<u64>,
    /// Each task's active holder as the broker records it: its owner, until that owner has
    /// acknowledged giving it up.
    holder: Vec<Option<MemberId>>,
    /// Kafka's ids of the tasks (shared by every snapshot).
    names: Rc<KafkaTasks>,
}

impl StreamsGroup {
    /// Nothing left to do: the target is computed, every member holds what it should and has
    /// acknowledged, and no move waits for a warm-up.
    pub fn settled(&self) -> bool {
        self.group_epoch == self.assignment_epoch
            && self.delayed_until.is_none()
            && self.revoking.iter().all(|r| r.iter().all(is_empty))
            && self.intended == self.target
    }
}

impl StreamsGroup {
    /// Why the group epoch moved since the last target assignment, and when it first did
    /// (nothing while the target is the epoch's).
    pub fn pending(&self) -> (&[Cause], Option<u64>) {
        (&self.causes, self.bumped_at)
    }

    /// When the assignor last computed a target assignment.
    pub fn last_assignment_at(&self) -> Option<u64> {
        self.last_assignment_at
    }

    /// The index of the round of the history that recorded the last target assignment (the
    /// assignor's or the refiner's), and why it was computed.
    pub fn last_round(&self) -> Option<(u32, &[Cause])> {
        self.last_round.as_ref().map(|(i, c)| (*i, c.as_slice()))
    }

    /// Trunk: how many active tasks of the target the refiner holds back on their old owner
    /// until a warm-up on the new one has caught up.
    pub fn held_back(&self) -> usize {
        self.target
            .iter()
            .zip(&self.intended)
            .map(|(target, intended)| {
                let runs = |t: &TaskId| intended.iter().any(|th| th.active.contains(t));
                target
                    .iter()
                    .flat_map(|th| &th.active)
                    .filter(|t| !runs(t))
                    .count()
            })
            .sum()
    }
}

fn is_empty(t: &ThreadTasks) -> bool {
    t.active.is_empty() && t.standby.is_empty() && t.warmup.is_empty()
}

fn insert_sorted(list: &mut Vec<TaskId>, task: TaskId) {
    if let Err(pos) = list.binary_search(&task) {
        list.insert(pos, task);
    }
}

fn remove(list: &mut Vec<TaskId>, task: TaskId) {
    list.retain(|&t| t != task);
}

impl Engine {
    /// Under the streams protocol, whether the group has nothing left to do: settled, and
    /// every live member holds what it is to hold.
    pub(super) fn streams_settled(&self) -> bool {
        let Some(g) = self.streams.as_deref() else {
            return true;
        };
        g.settled()
            && self
                .participants()
                .into_iter()
                .all(|m| g.intended[m.index()] == self.held(m))
    }

    /// The streams group, under the strategies that run Kafka's streams protocol.
    pub fn streams(&self) -> Option<&StreamsGroup> {
        self.streams.as_deref()
    }

    /// Under the streams protocol, the members that do not hold what they are to hold yet:
    /// they reconcile at their next heartbeats.
    pub fn streams_reconciling(&self) -> Vec<MemberId> {
        let Some(g) = self.streams.as_deref() else {
            return Vec::new();
        };
        self.participants()
            .into_iter()
            .filter(|m| {
                g.intended
                    .get(m.index())
                    .is_some_and(|i| *i != self.held(*m))
                    || g.revoking
                        .get(m.index())
                        .is_some_and(|r| !r.iter().all(is_empty))
            })
            .collect()
    }

    /// Under the streams protocol, the next heartbeat that changes something (or the delayed
    /// first assignment of an empty group): when, and whose (none for the delayed one).
    pub fn next_streams_heartbeat(&self) -> Option<(u64, Option<MemberId>)> {
        self.timers
            .iter()
            .filter_map(|&(at, timer)| match timer {
                Timer::StreamsHeartbeat(m) | Timer::StreamsReport(m) => Some((at, Some(m))),
                Timer::DelayedAssignment => Some((at, None)),
                _ => None,
            })
            .min()
    }

    fn gref(&self) -> &StreamsGroup {
        self.streams
            .as_deref()
            .expect("the streams protocol runs only with its group")
    }

    fn group(&mut self) -> &mut StreamsGroup {
        self.streams
            .as_deref_mut()
            .expect("the streams protocol runs only with its group")
    }

    /// The broker's record of a group that starts as the scenario gives it: stable, each
    /// member's threads holding what they were dealt, which is also the target.
    pub(super) fn start_streams_group(&mut self, stable: bool) {
        if !self.config.strategy.streams_protocol() {
            return;
        }
        let names = Rc::new(KafkaTasks::new(&self.task_infos()));
        let held: Vec<Vec<ThreadTasks>> = (0..self.members.len())
            .map(|i| self.held(MemberId(i as u32)))
            .collect();
        let mut holder = vec![None; self.tasks.len()];
        for (t, owner) in self.owner.iter().enumerate() {
            holder[t] = *owner;
        }
        let stable = stable && !self.members.is_empty();
        self.streams = Some(Box::new(StreamsGroup {
            group_epoch: u32::from(stable),
            assignment_epoch: u32::from(stable),
            last_assignment_at: None,
            delayed_until: None,
            causes: Vec::new(),
            bumped_at: None,
            last_round: None,
            target: held.clone(),
            intended: held,
            revoking: vec![Vec::new(); self.members.len()],
            reports: vec![Vec::new(); self.members.len()],
            reported_at: vec![0; self.members.len()],
            holder,
            names,
        }));
        // Trunk: each member of the group at the start reported its offsets as it joined.
        for m in self.participants() {
            self.report_offsets(m);
        }
    }

    /// What member `id`'s threads hold, by role.
    fn held(&self, id: MemberId) -> Vec<ThreadTasks> {
        let member = &self.members[id.index()];
        member
            .threads
            .iter()
            .map(|th| {
                let mut t = ThreadTasks {
                    active: th.active.clone(),
                    ..ThreadTasks::default()
                };
                for &r in &th.replicas {
                    if member.learning.binary_search(&r).is_ok() {
                        t.warmup.push(r);
                    } else {
                        t.standby.push(r);
                    }
                }
                t.active.sort_unstable();
                t.warmup.sort_unstable();
                t.standby.sort_unstable();
                t
            })
            .collect()
    }

    /// Makes room for a member new to the group in the broker's records; its threads hold
    /// nothing yet.
    fn fit_group(&mut self, id: MemberId) {
        let n = self.members[id.index()].threads.len();
        self.member_mut(id).threads = vec![Thread::default(); n];
        let g = self.group();
        let len = (id.index() + 1).max(g.target.len());
        for list in [&mut g.target, &mut g.intended, &mut g.revoking] {
            list.resize(len, Vec::new());
        }
        g.reports.resize(len, Vec::new());
        g.reported_at.resize(len, 0);
        for list in [&mut g.target, &mut g.intended, &mut g.revoking] {
            list[id.index()] = vec![ThreadTasks::default(); n];
        }
    }

    /// A cause under the streams protocol: a member joining (or coming back as a new one)
    /// heartbeats into the group now; one that left or was fenced is dropped, its tasks
    /// released.
    pub(super) fn streams_trigger(&mut self, cause: Cause) {
        match cause {
            Cause::MemberJoined(id) | Cause::Returned(id) => self.streams_join(id, cause),
            Cause::CrashDetected(id)
            | Cause::MemberLeft(id)
            | Cause::SessionTimeout(id)
            | Cause::Closed(id) => self.fence(id, cause),
            Cause::Startup => {
                let first = self.group().group_epoch == 0;
                self.bump(cause);
                if first {
                    self.delay_first_assignment();
                } else {
                    self.schedule_assignment();
                }
            }
            _ => {}
        }
    }

    /// The group epoch moves on.
    fn bump(&mut self, cause: Cause) {
        let now = self.time;
        self.tally.rebalances += 1;
        let g = self.group();
        g.group_epoch += 1;
        g.bumped_at.get_or_insert(now);
        if !g.causes.contains(&cause) {
            g.causes.push(cause);
        }
    }

    /// An empty group's first assignment waits `initial.rebalance.delay.ms` (Kafka 4.2).
    fn delay_first_assignment(&mut self) {
        let at = self.time + self.config.kip1071.initial_rebalance_delay_ms;
        self.group().delayed_until = Some(at);
        self.timers.push((at, Timer::DelayedAssignment));
    }

    /// A member's first heartbeat: it joins with epoch 0 and the group epoch moves on. Into
    /// an empty group, the assignment waits; otherwise this heartbeat may run the assignor,
    /// and the member gets what is free at once.
    fn streams_join(&mut self, id: MemberId, cause: Cause) {
        self.fit_group(id);
        let others = self
            .participants()
            .into_iter()
            .any(|m| m != id && !self.group().target[m.index()].is_empty());
        let empty = !others && self.group().delayed_until.is_none();
        self.bump(cause);
        self.heartbeat_from[id.index()] = self.time;
        if empty && self.config.kip1071.initial_rebalance_delay_ms > 0 {
            self.delay_first_assignment();
        } else {
            self.beat_at(id, self.time);
        }
    }

    /// A member leaves or is fenced: the group epoch moves on and its tasks are released at
    /// once; the next assignment runs at some member's heartbeat.
    fn fence(&mut self, id: MemberId, cause: Cause) {
        if self
            .group()
            .target
            .get(id.index())
            .is_none_or(Vec::is_empty)
        {
            return;
        }
        self.bump(cause);
        let n = self.members[id.index()].threads.len();
        self.member_mut(id).threads = vec![Thread::default(); n];
        let g = self.group();
        g.target[id.index()].clear();
        g.intended[id.index()].clear();
        g.revoking[id.index()].clear();
        g.reports[id.index()].clear();
        let released: Vec<TaskId> = (0..g.holder.len())
            .filter(|&t| g.holder[t] == Some(id))
            .map(|t| TaskId(t as u32))
            .collect();
        for &t in &released {
            g.holder[t.index()] = None;
        }
        if self.group_members().is_empty() {
            // The last member left (a static member away still counts): nothing to assign
            // until someone joins.
            let g = self.group();
            g.assignment_epoch = g.group_epoch;
            g.last_assignment_at = None;
            g.causes.clear();
            g.bumped_at = None;
            return;
        }
        self.notify_waiters(&released);
        self.schedule_assignment();
    }

    /// A static member back from its restart within its session (trunk) heartbeats at once,
    /// with its assignment kept.
    pub(super) fn streams_back(&mut self, id: MemberId) {
        if self.streams.is_some() {
            self.beat_at(id, self.time);
        }
    }

    /// The heartbeat interval of the streams protocol.
    fn streams_beat_ms(&self) -> u64 {
        self.config.kip1071.heartbeat_interval_ms.max(1)
    }

    /// When member `id` next heartbeats at or after `at` (its beats follow its last send).
    fn next_beat(&self, id: MemberId, at: u64) -> u64 {
        let from = self.heartbeat_from[id.index()];
        let h = self.streams_beat_ms();
        if at <= from {
            return from;
        }
        from + (at - from).div_ceil(h) * h
    }

    /// Member `id` heartbeats at `at` (unless an earlier heartbeat of its is already due).
    fn beat_at(&mut self, id: MemberId, at: u64) {
        let already = self
            .timers
            .iter()
            .any(|&(t, timer)| timer == Timer::StreamsHeartbeat(id) && t <= at);
        if !already {
            self.timers.push((at, Timer::StreamsHeartbeat(id)));
        }
    }

    /// The assignor runs at the first heartbeat of any member once the interval since its
    /// last run has passed (no timer is armed for it in Kafka: the heartbeats carry it).
    fn schedule_assignment(&mut self) {
        let g = self.group();
        if g.group_epoch == g.assignment_epoch || g.delayed_until.is_some() {
            return;
        }
        let earliest = g
            .last_assignment_at
            .map_or(0, |last| last + self.config.kip1071.assignment_interval_ms)
            .max(self.time);
        let next = self
            .participants()
            .into_iter()
            .map(|m| (self.next_beat(m, earliest), m))
            .min();
        if let Some((at, m)) = next {
            self.beat_at(m, at);
        }
    }

    /// The members granted none of these released tasks yet although they are to run them
    /// learn of it at their next heartbeat.
    fn notify_waiters(&mut self, released: &[TaskId]) {
        if released.is_empty() {
            return;
        }
        let now = self.time;
        let waiting: Vec<MemberId> = self
            .participants()
            .into_iter()
            .filter(|m| {
                self.group().intended[m.index()]
                    .iter()
                    .any(|th| released.iter().any(|t| th.active.binary_search(t).is_ok()))
            })
            .collect();
        for m in waiting {
            let at = self.next_beat(m, now + 1);
            self.beat_at(m, at);
        }
    }

    /// The empty group's delayed first assignment.
    pub(super) fn run_delayed_assignment(&mut self, out: &mut Vec<Event>) {
        if self.group().delayed_until.take().is_none() {
            return;
        }
        self.run_streams_assignor(None, out);
    }

    /// Member `id` heartbeats now: an acknowledgement releases what it gave up; the assignor
    /// runs if the epoch moved and its interval allows; trunk's refiner reads the offsets it
    /// reports; then the member reconciles.
    pub(super) fn streams_heartbeat(&mut self, id: MemberId, out: &mut Vec<Event>) {
        let member = &self.members[id.index()];
        if !member.status.alive() || self.group().target.get(id.index()).is_none() {
            return;
        }
        let now = self.time;
        self.heartbeat_from[id.index()] = now;
        let revoked = std::mem::take(&mut self.group().revoking[id.index()]);
        let mut released = Vec::new();
        for t in revoked.iter().flat_map(|th| th.active.iter().copied()) {
            if self.group().holder[t.index()] == Some(id) {
                self.group().holder[t.index()] = None;
                released.push(t);
            }
        }
        self.notify_waiters(&released);
        self.report_offsets(id);
        self.maybe_assign(id, out);
        self.maybe_refine(out);
        self.reconcile(id, out);
        self.schedule_reports();
    }

    /// Runs the assignor if the group epoch moved, unless the first assignment is delayed or
    /// the last ran less than `assignment.interval.ms` ago (then a later heartbeat runs it).
    fn maybe_assign(&mut self, id: MemberId, out: &mut Vec<Event>) {
        let interval = self.config.kip1071.assignment_interval_ms;
        let now = self.time;
        let g = self.group();
        if g.group_epoch == g.assignment_epoch || g.delayed_until.is_some() {
            return;
        }
        if g.last_assignment_at
            .is_some_and(|last| now < last + interval)
        {
            self.schedule_assignment();
            return;
        }
        self.run_streams_assignor(Some(id), out);
    }

    /// Kafka's sticky assignor over every member in the group, each thread sticky to its last
    /// target; on trunk the members' on-disk state ranks its holders, and the refiner then
    /// holds back the moves that need a warm-up. Every member whose tasks change learns of
    /// it at its next heartbeat (`by`, whose heartbeat runs it, at once).
    fn run_streams_assignor(&mut self, by: Option<MemberId>, out: &mut Vec<Event>) {
        let now = self.time;
        let trunk = self.config.strategy == Strategy::Kip1071Warmup;
        let in_group = self.group_members();
        let names = self.group().names.clone();
        let previous: Vec<Vec<ThreadTasks>> = in_group
            .iter()
            .map(|m| self.group().target[m.index()].clone())
            .collect();
        let processes: Vec<Process<'_>> = in_group
            .iter()
            .zip(&previous)
            .map(|(&m, threads)| Process {
                member: m,
                name: &self.members[m.index()].name,
                threads,
            })
            .collect();
        let offsets: Vec<Vec<(TaskId, i64)>> = if trunk {
            in_group.iter().map(|&m| self.on_disk(m)).collect()
        } else {
            Vec::new()
        };
        let release = if trunk {
            Release::Trunk
        } else {
            Release::Kafka43
        };
        let Ok(target) = assign_processes(
            &names,
            &processes,
            &offsets,
            self.config.num_standby_replicas,
            release,
        ) else {
            return;
        };
        let g = self.group();
        g.assignment_epoch = g.group_epoch;
        g.last_assignment_at = Some(now);
        for (m, threads) in in_group.iter().zip(target) {
            g.target[m.index()] = threads;
        }
        let intended = self.refined(&in_group);
        self.set_intended(&in_group, intended, by, out);
        self.schedule_reports();
    }

    /// The members the coordinator counts, silent ones not fenced yet included.
    fn group_members(&self) -> Vec<MemberId> {
        (0..self.members.len())
            .map(|i| MemberId(i as u32))
            .filter(|m| self.members[m.index()].status.in_group())
            .filter(|m| {
                self.gref()
                    .target
                    .get(m.index())
                    .is_some_and(|t| !t.is_empty())
            })
            .collect()
    }

    /// What each of these members is to hold now: the target, or on trunk its refinement by
    /// the members' last reports.
    fn refined(&self, members: &[MemberId]) -> Vec<Vec<ThreadTasks>> {
        let g = self.gref();
        let target: Vec<Vec<ThreadTasks>> = members
            .iter()
            .map(|m| g.target[m.index()].clone())
            .collect();
        if self.config.strategy != Strategy::Kip1071Warmup {
            return target;
        }
        let held: Vec<Vec<ThreadTasks>> = members.iter().map(|&m| self.held(m)).collect();
        let states: Vec<ProcessState<'_>> = members
            .iter()
            .zip(&held)
            .map(|(&m, threads)| ProcessState {
                process: Process {
                    member: m,
                    name: &self.members[m.index()].name,
                    threads,
                },
                pending_revocation: &g.revoking[m.index()],
                offsets: &g.reports[m.index()],
            })
            .collect();
        refine_processes(
            &g.names,
            &states,
            &target,
            self.config.kip1071.num_warmup_replicas,
            self.config.kip1071.acceptable_recovery_lag,
        )
    }

    /// Records a new assignment to reconcile to, as a round of the history, and tells every
    /// member whose tasks change at its next heartbeat.
    fn set_intended(
        &mut self,
        members: &[MemberId],
        intended: Vec<Vec<ThreadTasks>>,
        by: Option<MemberId>,
        out: &mut Vec<Event>,
    ) {
        let now = self.time;
        for (m, threads) in members.iter().zip(intended) {
            self.group().intended[m.index()] = threads;
        }
        self.record_streams_round(members, by, out);
        for &m in members {
            if Some(m) != by && self.gref().intended[m.index()] != self.held(m) {
                let at = self.next_beat(m, now + 1);
                self.beat_at(m, at);
            }
        }
    }

    /// Trunk: in a stable group, the members' newest reports may let the refiner promote a
    /// caught-up warm-up (or start another): a refined epoch, without the assignor.
    fn maybe_refine(&mut self, out: &mut Vec<Event>) {
        if self.config.strategy != Strategy::Kip1071Warmup {
            return;
        }
        let members = self.group_members();
        let stable = {
            let g = self.group();
            g.group_epoch == g.assignment_epoch
                && g.delayed_until.is_none()
                && g.revoking.iter().all(|r| r.iter().all(is_empty))
        };
        if !stable || members.iter().any(|&m| self.awaits_grant(m)) {
            return;
        }
        let refined = self.refined(&members);
        let changed = members
            .iter()
            .zip(&refined)
            .any(|(m, r)| &self.group().intended[m.index()] != r);
        if changed {
            self.bump(Cause::Refined);
            let g = self.group();
            g.assignment_epoch = g.group_epoch;
            self.set_intended(&members, refined, None, out);
        }
    }

    /// Whether member `id` is to run a task it has not been granted yet.
    fn awaits_grant(&self, id: MemberId) -> bool {
        let g = self.gref();
        let member = &self.members[id.index()];
        g.intended[id.index()]
            .iter()
            .flat_map(|th| &th.active)
            .any(|t| !member.runs(*t))
    }

    /// Trunk: a member with a warm-up now within the acceptable lag reports its offsets at
    /// its next regular heartbeat (Kafka's heartbeat manager adds them then; no early beat).
    pub(super) fn report_ready_warmups(&mut self, id: MemberId) {
        if self.config.strategy == Strategy::Kip1071Warmup {
            let at = self.next_beat(id, self.time + 1);
            self.beat_at(id, at);
        }
    }

    /// Trunk: the offsets a member reports in its heartbeat: every store it keeps on disk,
    /// with the changelog's end for what it replays (a running active is left out).
    fn report_offsets(&mut self, id: MemberId) {
        if self.config.strategy != Strategy::Kip1071Warmup {
            return;
        }
        let now = self.time;
        let member = &self.members[id.index()];
        let report: Vec<(TaskId, i64, Option<i64>)> = member
            .stores
            .keys()
            .copied()
            .filter(|&t| self.kept_store(id, t).is_some())
            .filter(|&t| !(member.runs(t) && self.up[t.index()]))
            .map(|t| {
                let end = self.changelog_end(t);
                let position = end - self.lag(id, t).unwrap_or(end);
                let replays = member.holds(t);
                (t, position as i64, replays.then_some(end as i64))
            })
            .collect();
        let g = self.group();
        g.reports[id.index()] = report;
        g.reported_at[id.index()] = now;
    }

    /// Trunk: while the refiner holds a move of the target back, every member heartbeats
    /// its offsets again `task.offset.interval.ms` after its last report (Kafka's heartbeat
    /// manager sends them that often even when nothing changed).
    fn schedule_reports(&mut self) {
        if self.config.strategy != Strategy::Kip1071Warmup {
            return;
        }
        if !self.streams_refining() {
            return;
        }
        let interval = self.config.kip1071.task_offset_interval_ms.max(1);
        for m in self.participants() {
            let due = self.gref().reported_at[m.index()] + interval;
            let at = self.next_beat(m, due.max(self.time + 1));
            let already = self
                .timers
                .iter()
                .any(|&(t, timer)| timer == Timer::StreamsReport(m) && t <= at);
            if !already {
                self.timers.push((at, Timer::StreamsReport(m)));
            }
        }
    }

    /// Trunk: whether the refiner holds a move of the target back (reports may release it).
    pub(super) fn streams_refining(&self) -> bool {
        self.streams
            .as_deref()
            .is_some_and(|g| g.intended != g.target)
    }

    /// A heartbeat that only reports offsets: a full heartbeat while a move waits.
    pub(super) fn streams_report(&mut self, id: MemberId, out: &mut Vec<Event>) {
        if self.streams_refining() {
            self.streams_heartbeat(id, out);
        }
    }

    /// Trunk: a member's state on disk as offset sums, which rank its holders.
    fn on_disk(&self, id: MemberId) -> Vec<(TaskId, i64)> {
        let member = &self.members[id.index()];
        member
            .stores
            .keys()
            .copied()
            .filter(|&t| self.kept_store(id, t).is_some())
            .map(|t| {
                let end = self.changelog_end(t);
                (t, (end - self.lag(id, t).unwrap_or(end)) as i64)
            })
            .collect()
    }

    /// A member reconciles to what it is to hold: first it gives up what it must and
    /// acknowledges at once (Kafka's UNREVOKED_TASKS: nothing new meanwhile); then it is
    /// granted every task no other member holds (the rest waits: UNRELEASED_TASKS), and
    /// takes its standbys and warm-ups. On trunk a standby or warm-up of its own becomes the
    /// active in place, and an active becomes a standby at once.
    fn reconcile(&mut self, id: MemberId, out: &mut Vec<Event>) {
        let intended = self.group().intended[id.index()].clone();
        let held = self.held(id);
        if intended.len() != held.len() {
            return;
        }
        let trunk = self.config.strategy == Strategy::Kip1071Warmup;
        let revoke = revocations(&held, &intended, trunk);
        if revoke.iter().any(|r| !is_empty(r)) {
            self.give_up(id, &revoke, &intended, trunk, out);
            self.group().revoking[id.index()] = revoke;
            let ack = self.time + self.config.round_trip_ms.max(1);
            self.beat_at(id, ack);
            return;
        }
        if self.grant(id, &intended, trunk, out) {
            let ack = self.time + self.config.round_trip_ms.max(1);
            self.beat_at(id, ack);
        }
    }

    /// Member `id` stops what it gives up; on trunk an active to keep as a standby or
    /// warm-up stays on disk as that replica at once.
    fn give_up(
        &mut self,
        id: MemberId,
        revoke: &[ThreadTasks],
        intended: &[ThreadTasks],
        trunk: bool,
        out: &mut Vec<Event>,
    ) {
        self.touch(id);
        for (i, r) in revoke.iter().enumerate() {
            for &t in &r.active {
                self.stop_task(id, t, out);
                let member = self.member_mut(id);
                remove(&mut member.threads[i].active, t);
                if trunk && intended[i].standby.contains(&t) {
                    insert_sorted(&mut member.standby, t);
                    member.threads[i].replicas.push(t);
                } else if trunk && intended[i].warmup.contains(&t) {
                    insert_sorted(&mut member.learning, t);
                    member.threads[i].replicas.push(t);
                }
            }
            for &t in r.standby.iter().chain(&r.warmup) {
                let member = self.member_mut(id);
                remove(&mut member.standby, t);
                remove(&mut member.learning, t);
                remove(&mut member.threads[i].replicas, t);
            }
        }
        self.note_member_change(id);
    }

    /// Grants member `id` what it is to hold and no one else holds; returns whether anything
    /// changed.
    fn grant(
        &mut self,
        id: MemberId,
        intended: &[ThreadTasks],
        trunk: bool,
        out: &mut Vec<Event>,
    ) -> bool {
        let mut changed = false;
        self.touch(id);
        for (i, want) in intended.iter().enumerate() {
            for &t in &want.active {
                if self.members[id.index()].runs(t) {
                    continue;
                }
                let free = self.group().holder[t.index()].is_none_or(|h| h == id);
                if !free || self.owner[t.index()].is_some() {
                    continue;
                }
                if trunk {
                    // Its own standby or warm-up is promoted in place (KAFKA-20665).
                    let member = self.member_mut(id);
                    remove(&mut member.standby, t);
                    remove(&mut member.learning, t);
                    for th in &mut member.threads {
                        remove(&mut th.replicas, t);
                    }
                }
                self.start_task(id, t, out);
                self.group().holder[t.index()] = Some(id);
                self.member_mut(id).threads[i].active.push(t);
                changed = true;
            }
            for &t in &want.standby {
                changed |= self.take_replica(id, i, t, false);
            }
            for &t in &want.warmup {
                changed |= self.take_replica(id, i, t, true);
            }
        }
        if changed {
            let member = self.member_mut(id);
            member.last_assigned = member.active.clone();
            self.note_member_change(id);
        }
        changed
    }

    /// Member `id`'s thread `i` takes a standby (or a warm-up) of `task`, reading from its
    /// store if it kept one; returns whether it is new.
    fn take_replica(&mut self, id: MemberId, i: usize, task: TaskId, warmup: bool) -> bool {
        let member = &self.members[id.index()];
        let has = if warmup {
            member.learning.binary_search(&task).is_ok()
        } else {
            member.standby.binary_search(&task).is_ok()
        };
        if has || member.runs(task) {
            return false;
        }
        let kept = self.kept_store(id, task);
        let position = self.reading_from(kept.map_or(0.0, |s| s.position), task);
        let member = self.member_mut(id);
        remove(&mut member.standby, task);
        remove(&mut member.learning, task);
        for th in &mut member.threads {
            remove(&mut th.replicas, task);
        }
        if warmup {
            insert_sorted(&mut member.learning, task);
        } else {
            insert_sorted(&mut member.standby, task);
        }
        member.threads[i].replicas.push(task);
        member.stores.insert(task, Store::at(position));
        true
    }

    /// Records an assignment of the streams group as a round of the history: what the
    /// members held, what they are to hold now.
    fn record_streams_round(
        &mut self,
        members: &[MemberId],
        by: Option<MemberId>,
        out: &mut Vec<Event>,
    ) {
        let now = self.time;
        let joined = self.join_metadata(members);
        let g = self.group();
        let causes = std::mem::take(&mut g.causes);
        let started_at = g.bumped_at.take().unwrap_or(now);
        let epoch = g.group_epoch;
        let assignment = Assignment {
            members: members
                .iter()
                .zip(&joined)
                .map(|(&m, meta)| {
                    let given = assignment_of(&g.intended[m.index()], &meta.assigned);
                    (m, Rc::new(given))
                })
                .collect(),
            followup: false,
            probing: false,
        };
        let leader = by
            .or_else(|| members.first().copied())
            .unwrap_or(MemberId(0));
        let index = self.coordinator.streams_round(epoch, leader);
        self.group().last_round = Some((index, causes.clone()));
        out.push(self.event(EventKind::RoundStarted {
            index,
            causes: causes.clone(),
        }));
        let round = Round {
            index,
            generation: epoch,
            causes,
            started_at,
            assigned_at: now,
            synced_at: Some(now),
            abandoned: false,
            leader,
            by_coordinator: true,
            previous_leader: None,
            joined: shared(joined),
            assignment,
            departed: Vec::new(),
            changed: Vec::new(),
        };
        out.push(self.event(EventKind::RoundAssigned(Box::new(round))));
        out.push(self.event(EventKind::RoundSynced {
            index,
            departed: Vec::new(),
            changed: Vec::new(),
        }));
    }
}

/// What a member must give up to hold `intended`, per thread. On trunk a role changes in place
/// (an active kept as a replica is still given up as an active; a standby or warm-up to run
/// stays until granted); on 4.1 to 4.3 a copy the process keeps of a task it is to run is
/// given up first.
fn revocations(held: &[ThreadTasks], intended: &[ThreadTasks], trunk: bool) -> Vec<ThreadTasks> {
    let runs_anywhere = |t: &TaskId| intended.iter().any(|th| th.active.contains(t));
    held.iter()
        .zip(intended)
        .map(|(h, want)| {
            let keep_replica = |t: &TaskId, own: &Vec<TaskId>, other: &Vec<TaskId>| {
                own.contains(t) || (trunk && (other.contains(t) || want.active.contains(t)))
            };
            ThreadTasks {
                active: h
                    .active
                    .iter()
                    .copied()
                    .filter(|t| !want.active.contains(t))
                    .collect(),
                standby: h
                    .standby
                    .iter()
                    .copied()
                    .filter(|t| {
                        !keep_replica(t, &want.standby, &want.warmup)
                            || (!trunk && runs_anywhere(t))
                    })
                    .collect(),
                warmup: h
                    .warmup
                    .iter()
                    .copied()
                    .filter(|t| {
                        !keep_replica(t, &want.warmup, &want.standby)
                            || (!trunk && runs_anywhere(t))
                    })
                    .collect(),
            }
        })
        .collect()
}

/// A member's part of an assignment of the streams group, as Handoff's records show it.
fn assignment_of(threads: &[ThreadTasks], held: &[TaskId]) -> MemberAssignment {
    let union = |role: fn(&ThreadTasks) -> &Vec<TaskId>| {
        let mut all: Vec<TaskId> = threads.iter().flat_map(|t| role(t).clone()).collect();
        all.sort_unstable();
        all
    };
    let assigned = union(|t| &t.active);
    MemberAssignment {
        revoked: held
            .iter()
            .copied()
            .filter(|t| assigned.binary_search(t).is_err())
            .collect(),
        assigned,
        learning: union(|t| &t.warmup),
        standby: union(|t| &t.standby),
        learned: Vec::new(),
    }
}
