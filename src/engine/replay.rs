//! The arithmetic between events: changelogs grow at their write rate while their task is
//! processed, and every store a member replays (a restoring active, a learner, a standby)
//! advances at its share of the member's restore rate. Everything is linear between events,
//! so the engine only computes when the next threshold (a learner ready, a store caught up)
//! is reached.
//!
//! Nothing is brought up to date for the whole group at each event: a task's changelog end is
//! kept as of the moment its task last started or stopped being processed, and a member's
//! stores as of the last moment something it replays changed (its anchor). A step pays for
//! the members it touches, not for the group.

use super::backlog::Backlog;
use super::changelog::{Cleaner, Log};
use super::member::{Member, Store};
pub use super::member::{Replay, ReplayKind};
use super::threads::{consumer_order, deal, Thread, RUNNING};
use super::Engine;
use crate::model::{MemberId, TaskId};
use std::collections::BTreeSet;
use std::rc::Rc;

/// Lags closer than this to a threshold have reached it (float noise on millions of records).
pub(crate) const EPSILON: f64 = 1e-6;

/// How far a member's replica of a task has come ([`Engine::progress`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Progress {
    /// Records behind the changelog end now (the whole changelog without a store).
    pub lag: f64,
    /// The lag it replays towards: the acceptable recovery lag for a learner, else 0.
    pub target: f64,
    /// It reached its target: a learner is ready, anything else caught up.
    pub done: bool,
    /// How long until it reaches its target at the rate it replays now, in milliseconds;
    /// `None` when done, or when it does not gain on the changelog.
    pub eta_ms: Option<u64>,
}

/// A lag within float noise of zero is zero, as `touch` writes a store down at the end.
fn snap(lag: f64) -> f64 {
    if lag <= EPSILON {
        0.0
    } else {
        lag.max(0.0)
    }
}

/// Records replayed, by why.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Replayed {
    /// By learners and warm-ups.
    pub learners: f64,
    /// By active owners restoring before they could process.
    pub actives: f64,
    /// By standbys.
    pub standbys: f64,
}

/// Shares a member's restore rate evenly among what it replays (docs/design.md): a caught-up
/// replay only needs the task's write rate to stay caught up, and what it leaves over goes
/// to the others in equal parts (water-filling).
pub fn share_restore_rate(total: f64, replays: &mut [Replay]) {
    if replays.is_empty() {
        return;
    }
    // Every replay lagging (the usual case): equal shares, as the water-filling below gives.
    if replays.iter().all(|r| r.lag > EPSILON) {
        let fair = total / replays.len() as f64;
        for r in replays.iter_mut() {
            r.rate = fair;
        }
        return;
    }
    // Demand: a lagging replay takes all it can get; a caught-up one its write rate.
    water_fill(total, replays, |r| {
        if r.lag > EPSILON {
            f64::INFINITY
        } else {
            r.write_rate
        }
    });
}

/// Shares `total` among replays up to each one's demand: the smallest demands are met in
/// full, and the rest is split evenly among the others (max-min fairness).
fn water_fill(total: f64, replays: &mut [Replay], demand: impl Fn(&Replay) -> f64) {
    let mut order: Vec<(f64, usize)> = replays
        .iter()
        .enumerate()
        .map(|(i, r)| (demand(r), i))
        .collect();
    order.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let mut left = total;
    for (k, &(want, idx)) in order.iter().enumerate() {
        let fair = left / (order.len() - k) as f64;
        if want <= fair {
            replays[idx].rate = want;
            left -= want;
        } else {
            for &(_, rest) in &order[k..] {
                replays[rest].rate = fair;
            }
            break;
        }
    }
}

/// What the engine keeps to pay per step only for what changed: the members whose replays
/// must be worked out again, each member's next threshold, and who replicates each task. It
/// follows from the history like the rest of the state, and two engines at the same moment of
/// the same history hold the same, so comparing two engines leaves it out.
#[derive(Debug, Default)]
pub(crate) struct Pending {
    /// Members whose replays changed, in the order they were touched.
    dirty: Vec<MemberId>,
    /// Whether each member is in `dirty`.
    is_dirty: Vec<bool>,
    /// Each member's next threshold, by (moment, member).
    thresholds: BTreeSet<(u64, u32)>,
    /// The moment each member has in `thresholds`.
    threshold_of: Vec<Option<u64>>,
    /// The members learning or keeping a standby of each task, as last indexed; a copy of the
    /// engine (a snapshot, a view of the past) builds it again if it takes a step.
    replicas: Vec<Vec<MemberId>>,
    /// The tasks each member was last indexed under.
    indexed: Vec<Vec<TaskId>>,
}

impl Clone for Pending {
    fn clone(&self) -> Pending {
        Pending {
            dirty: self.dirty.clone(),
            is_dirty: self.is_dirty.clone(),
            thresholds: self.thresholds.clone(),
            threshold_of: self.threshold_of.clone(),
            replicas: Vec::new(),
            indexed: Vec::new(),
        }
    }
}

impl PartialEq for Pending {
    fn eq(&self, _: &Pending) -> bool {
        true
    }
}

impl Pending {
    /// Room for `members` members.
    fn fit(&mut self, members: usize) {
        if self.is_dirty.len() < members {
            self.is_dirty.resize(members, false);
            self.threshold_of.resize(members, None);
        }
    }

    /// Builds the index of replicas from the members' lists, unless it is there.
    fn build_index(&mut self, members: &[Rc<Member>], tasks: usize) {
        if self.replicas.len() == tasks {
            // Built: a member that joined since is indexed under nothing yet.
            self.indexed.resize_with(members.len(), Vec::new);
            return;
        }
        self.replicas = vec![Vec::new(); tasks];
        self.indexed = vec![Vec::new(); members.len()];
        for (i, member) in members.iter().enumerate() {
            let replicas: Vec<TaskId> = member
                .learning
                .iter()
                .chain(&member.standby)
                .copied()
                .collect();
            self.index(MemberId(i as u32), replicas);
        }
    }

    fn mark(&mut self, id: MemberId) {
        if !self.is_dirty[id.index()] {
            self.is_dirty[id.index()] = true;
            self.dirty.push(id);
        }
    }

    /// Indexes member `id` under the tasks it now replicates.
    fn index(&mut self, id: MemberId, tasks: Vec<TaskId>) {
        for t in std::mem::take(&mut self.indexed[id.index()]) {
            self.replicas[t.index()].retain(|&m| m != id);
        }
        for &t in &tasks {
            self.replicas[t.index()].push(id);
        }
        self.indexed[id.index()] = tasks;
    }

    /// Sets member `id`'s next threshold.
    fn set_threshold(&mut self, id: MemberId, at: Option<u64>) {
        if let Some(old) = self.threshold_of[id.index()].take() {
            self.thresholds.remove(&(old, id.0));
        }
        if let Some(at) = at {
            self.thresholds.insert((at, id.0));
        }
        self.threshold_of[id.index()] = at;
    }
}

impl Engine {
    /// What the log cleaner is set to.
    pub(super) fn cleaner(&self) -> Cleaner {
        Cleaner {
            dirty_ratio: self.config.dirty_ratio,
            segment: self.config.segment_records.map(|s| s as f64),
        }
    }

    /// A task's changelog now: it grows (and is cleaned) while its task is processed.
    pub(super) fn log(&self, task: TaskId) -> Log {
        let t = task.index();
        let log = self.logs[t];
        if self.up[t] {
            let spec = &self.tasks[t];
            let (write, keys) = (spec.write_rate as f64, spec.key_growth as f64);
            log.at(self.time, write, keys, spec.cleanup, self.cleaner())
        } else {
            log
        }
    }

    /// The end offset of a task's changelog.
    #[inline]
    pub fn changelog_end(&self, task: TaskId) -> f64 {
        self.log(task).end
    }

    /// The offset a store of a task with no state starts reading at: its changelog's end less
    /// what the log holds (what was compacted or deleted is never read).
    pub fn changelog_start(&self, task: TaskId) -> f64 {
        let spec = &self.tasks[task.index()];
        self.log(task).start(spec.cleanup, spec.write_rate as f64)
    }

    /// Records a task's changelog holds: what a member without its state replays.
    pub fn changelog_records(&self, task: TaskId) -> f64 {
        let spec = &self.tasks[task.index()];
        self.log(task).held(spec.cleanup, spec.write_rate as f64)
    }

    /// A task's input backlog now: what piled up while it was down, less what it has worked
    /// off since it runs again.
    pub fn backlog(&self, task: TaskId) -> Backlog {
        let t = task.index();
        let spec = &self.tasks[t];
        let process = spec.process_rate.unwrap_or(self.config.process_rate) as f64;
        let input = spec.write_rate as f64;
        self.tally.backlog[t].at(self.time, self.up[t], input, process)
    }

    /// Brings a task's changelog up to now, before whether it is processed changes.
    pub(super) fn fold_log(&mut self, task: TaskId) {
        self.logs[task.index()] = Log {
            since: self.time,
            ..self.log(task)
        };
    }

    /// Seconds since member `id`'s stores were last brought up to date.
    #[inline]
    fn since_anchor(&self, id: MemberId) -> f64 {
        (self.time - self.members[id.index()].anchor) as f64 / 1000.0
    }

    /// How far a member's store of a task lags behind the changelog end, in offsets (as
    /// Kafka Streams reports it: a store left behind counts every offset written since, even
    /// those compacted away).
    pub fn lag(&self, member: MemberId, task: TaskId) -> Option<f64> {
        let store = self.members[member.index()].stores.get(&task)?;
        Some(self.store_lag(member, task, store))
    }

    /// [`Engine::lag`] of a store already in hand: its changelog's end is worked out once.
    pub(super) fn store_lag(&self, member: MemberId, task: TaskId, store: &Store) -> f64 {
        let end = self.changelog_end(task);
        snap(end - self.store_position(member, task, store, end).0)
    }

    /// Where a member's store of a task is now, in offsets, its changelog ending at `end`,
    /// and the replay that moves it.
    fn store_position(
        &self,
        member: MemberId,
        task: TaskId,
        store: &Store,
        end: f64,
    ) -> (f64, Option<&Replay>) {
        if self.up[task.index()] && self.owner[task.index()] == Some(member) {
            return (end, None);
        }
        let replay = self.members[member.index()]
            .replays
            .iter()
            .find(|x| x.task == task);
        let rate = replay.map_or(0.0, |x| x.rate);
        let read = store.position + rate * self.since_anchor(member);
        (read.min(end), replay)
    }

    /// The records a member's store of a task has still to read, and the replay reading
    /// them: what its log holds past where the store is (a store further behind than the
    /// log's start reads from there).
    fn to_read(&self, member: MemberId, task: TaskId) -> Option<(f64, Option<&Replay>)> {
        let store = self.members[member.index()].stores.get(&task)?;
        let spec = &self.tasks[task.index()];
        let log = self.log(task);
        let (position, replay) = self.store_position(member, task, store, log.end);
        let start = log.start(spec.cleanup, spec.write_rate as f64);
        Some((snap(log.end - position.max(start)), replay))
    }

    /// Where a store starts reading a task's changelog: where it is, or the log's start if
    /// that was compacted or deleted past it.
    pub(super) fn reading_from(&self, position: f64, task: TaskId) -> f64 {
        position.max(self.changelog_start(task))
    }

    /// How far a member's replica of a task has come, and whether it is done: a learner when
    /// it is within the acceptable recovery lag (rule 5), anything else when it has caught
    /// up. The one place readiness is decided: the engine's rejoins and the page's chips ask
    /// it.
    pub fn progress(&self, member: MemberId, task: TaskId, learner: bool) -> Progress {
        let found = self.to_read(member, task);
        let lag = found.map_or_else(|| self.changelog_records(task), |(lag, _)| lag);
        let target = if learner {
            self.config.ready_lag() as f64
        } else {
            0.0
        };
        let done = lag <= target + EPSILON && (found.is_some() || !learner);
        let eta_ms = found
            .and_then(|(_, replay)| replay)
            .filter(|_| !done && self.members[member.index()].status.alive())
            .map(|r| r.rate - r.write_rate)
            .filter(|&gain| gain > 1e-9)
            .map(|gain| ((lag - target) / gain * 1000.0).ceil() as u64);
        Progress {
            lag,
            target,
            done,
            eta_ms,
        }
    }

    /// Whether a member's store of a task has caught up with the changelog end (no store
    /// counts as the whole changelog behind).
    pub fn caught_up(&self, member: MemberId, task: TaskId) -> bool {
        self.progress(member, task, false).done
    }

    /// Whether a member's learner of a task is within the acceptable recovery lag.
    pub fn learner_ready(&self, member: MemberId, task: TaskId) -> bool {
        self.progress(member, task, true).done
    }

    /// What a member replays right now and the rate each replay gets; their `lag` is as of
    /// the last time something it replays changed ([`Engine::lag`] gives it now).
    pub fn replays(&self, id: MemberId) -> &[Replay] {
        &self.members[id.index()].replays
    }

    /// Records replayed so far: the tally, and what each member replayed since its anchor.
    pub fn replayed(&self) -> Replayed {
        let tally = &self.tally;
        let mut replayed = Replayed {
            learners: tally.replayed_by_learners,
            actives: tally.replayed_by_actives,
            standbys: tally.replayed_by_standbys,
        };
        for (i, member) in self.members.iter().enumerate() {
            let seconds = self.since_anchor(MemberId(i as u32));
            for r in &member.replays {
                let records = r.rate * seconds;
                match r.kind {
                    ReplayKind::Active => replayed.actives += records,
                    ReplayKind::Learner => replayed.learners += records,
                    ReplayKind::Standby => replayed.standbys += records,
                }
            }
        }
        replayed
    }

    /// A member stops processing a task it ran: its store, at the changelog's end while it ran
    /// the task, is written down there.
    pub(super) fn keep_store_at_end(&mut self, id: MemberId, task: TaskId) {
        if self.up[task.index()] && self.owner[task.index()] == Some(id) {
            let end = self.changelog_end(task);
            if let Some(store) = self.member_mut(id).stores.get_mut(&task) {
                store.position = end;
            }
        }
    }

    /// Something member `id` replays is about to change: its stores are brought up to now,
    /// and its replays are worked out again at the end of the step.
    pub(super) fn touch(&mut self, id: MemberId) {
        self.pending.fit(self.members.len());
        let seconds = self.since_anchor(id);
        if seconds > 0.0 {
            let replays = std::mem::take(&mut self.member_mut(id).replays);
            for r in &replays {
                let (start, end) = (self.changelog_start(r.task), self.changelog_end(r.task));
                let Some(store) = self.member_mut(id).stores.get_mut(&r.task) else {
                    continue;
                };
                // What it read since its anchor (from its store, or the log's start then if
                // that was past it) counts, even where the log was compacted or deleted past
                // it meanwhile; it then goes on from the log's start.
                let before = store.position.max(end - r.write_rate * seconds - r.lag);
                let read = (store.position + r.rate * seconds).min(end);
                store.position = read.max(start);
                if end - store.position <= EPSILON {
                    store.position = end;
                }
                let replayed = (read - before).max(0.0);
                match r.kind {
                    ReplayKind::Active => self.tally.replayed_by_actives += replayed,
                    ReplayKind::Learner => self.tally.replayed_by_learners += replayed,
                    ReplayKind::Standby => self.tally.replayed_by_standbys += replayed,
                }
            }
            self.member_mut(id).replays = replays;
        }
        let now = self.time;
        self.member_mut(id).anchor = now;
        self.pending.mark(id);
        self.note_member_change(id);
    }

    /// Whether a task is processed changes: its changelog end is brought up to now, and its
    /// owner and replicas replay at another write rate from now on.
    pub(super) fn processing_changes(&mut self, task: TaskId) {
        let t = task.index();
        self.tally.backlog[t] = self.backlog(task);
        if let Some(owner) = self.owner[t] {
            self.touch(owner);
        }
        self.fold_log(task);
        self.pending.build_index(&self.members, self.tasks.len());
        // In member order: the tally adds what each replayed, and a rebuilt index (a copy
        // of the engine) lists them in another order.
        let mut replicas = self.pending.replicas[t].clone();
        replicas.sort();
        for m in replicas {
            self.touch(m);
        }
    }

    /// Members whose next threshold is due now: brought up to now, to be read again.
    pub(super) fn touch_due(&mut self) {
        while let Some(&(at, m)) = self.pending.thresholds.first() {
            if at > self.time {
                break;
            }
            self.pending.thresholds.pop_first();
            self.pending.threshold_of[m as usize] = None;
            self.touch(MemberId(m));
        }
    }

    /// The members touched since the last refresh, in member order, without forgetting them.
    pub(super) fn touched(&self) -> Vec<MemberId> {
        let mut ids = self.pending.dirty.clone();
        ids.sort();
        ids
    }

    /// Works out what a member replays and the rates, as of now, into `replays`. Each stream
    /// thread restores at the member's restore rate through its own restore consumer; while
    /// one of its actives restores, it reads only active changelogs and its standbys, warm-ups
    /// and learners wait (Kafka's `StoreChangelogReader`: `enforceRestoreActive`, then
    /// `transitToUpdateStandbysIfOnlyStandbysLeft`). A disk rate caps the threads together.
    fn compute_replays(&self, id: MemberId, replays: &mut Vec<Replay>) {
        replays.clear();
        let member = &self.members[id.index()];
        if !member.status.alive() {
            return;
        }
        let replay = |task: TaskId, kind: ReplayKind| {
            let t = task.index();
            member.stores.get(&task).map(|store| {
                let start = self.changelog_start(task);
                let lag = (self.changelog_end(task) - store.position.max(start)).max(0.0);
                let write_rate = if self.up[t] {
                    self.tasks[t].write_rate as f64
                } else {
                    0.0
                };
                Replay {
                    task,
                    kind,
                    lag,
                    write_rate,
                    rate: 0.0,
                }
            })
        };
        for thread in &member.threads {
            let first = replays.len();
            let restoring = thread.active.iter().filter(|&&t| {
                member.runs(t) && self.tasks[t.index()].stateful && !self.up[t.index()]
            });
            replays.extend(restoring.filter_map(|&t| replay(t, ReplayKind::Active)));
            let actives = replays.len() - first;
            let replicas = thread.replicas.iter().filter_map(|&t| {
                if member.learns(t) {
                    replay(t, ReplayKind::Learner)
                } else if member.standby.binary_search(&t).is_ok() {
                    replay(t, ReplayKind::Standby)
                } else {
                    None
                }
            });
            replays.extend(replicas);
            let own = &mut replays[first..];
            if actives > 0 {
                share_restore_rate(member.restore_rate, &mut own[..actives]);
            } else {
                share_restore_rate(member.restore_rate, own);
            }
        }
        // A shared disk serves the threads' replays up to its ceiling, so a caught-up replica
        // keeps its write rate before the lagging ones share the rest.
        if let Some(disk) = self.config.disk_rate {
            let total: f64 = replays.iter().map(|r| r.rate).sum();
            if total > disk as f64 {
                water_fill(disk as f64, replays, |r| r.rate);
            }
        }
    }

    /// Deals member `id`'s tasks to its stream threads as Kafka Streams does, each thread
    /// keeping what it held (running actives first, then the most caught-up stores) within an
    /// even share. The stores no thread held go to the first thread, as the first to lock its
    /// task directories at a rebalance does.
    pub(super) fn deal_threads(&mut self, id: MemberId) {
        let threads = self.dealt_threads(id);
        self.member_mut(id).threads = threads;
    }

    /// How [`Engine::deal_threads`] would deal member `id`'s tasks now.
    pub(super) fn dealt_threads(&self, id: MemberId) -> Vec<Thread> {
        let member = &self.members[id.index()];
        let lag = |t: TaskId| -> i64 {
            if self.up[t.index()] && self.owner[t.index()] == Some(id) {
                RUNNING
            } else {
                self.lag(id, t).map_or(i64::MAX, |l| l.ceil() as i64)
            }
        };
        let mut previous: Vec<Vec<(i64, TaskId)>> = member
            .threads
            .iter()
            .map(|th| {
                th.active
                    .iter()
                    .chain(&th.replicas)
                    .map(|&t| (lag(t), t))
                    .collect()
            })
            .collect();
        let mut held: Vec<TaskId> = previous.iter().flatten().map(|&(_, t)| t).collect();
        held.sort_unstable();
        let first = consumer_order(previous.len())[0];
        let delay = self.config.state_cleanup_delay_ms;
        previous[first].extend(
            member
                .stores
                .iter()
                .filter(|(t, store)| {
                    held.binary_search(t).is_err() && member.keeps(store, self.time, delay)
                })
                .map(|(&t, _)| (lag(t), t)),
        );
        let stateful = |t: &&TaskId| self.tasks[t.index()].stateful;
        let actives: Vec<TaskId> = member.active.iter().filter(stateful).copied().collect();
        let stateless: Vec<TaskId> = member
            .active
            .iter()
            .filter(|t| !stateful(t))
            .copied()
            .collect();
        let mut replicas: Vec<TaskId> = member
            .learning
            .iter()
            .chain(&member.standby)
            .copied()
            .collect();
        replicas.sort();
        deal(previous, &actives, &replicas, &stateless)
    }

    /// A member's store of a task, unless its state cleaner deleted it by now.
    pub(super) fn kept_store(&self, id: MemberId, task: TaskId) -> Option<&Store> {
        let delay = self.config.state_cleanup_delay_ms;
        self.members[id.index()].kept_store(task, self.time, delay)
    }

    /// Marks the stores member `id` no longer holds in any role as released now (the state
    /// cleaner's clock starts), and drops those the cleaner has deleted.
    fn release_stores(&mut self, id: MemberId) {
        let now = self.time;
        let member = &self.members[id.index()];
        let gone: Vec<TaskId> = member
            .stores
            .keys()
            .copied()
            .filter(|&t| self.kept_store(id, t).is_none())
            .collect();
        let stale = member
            .stores
            .iter()
            .any(|(&t, s)| s.released_at.is_some() == member.holds(t));
        if gone.is_empty() && !stale {
            return;
        }
        let member = self.member_mut(id);
        for t in gone {
            member.stores.remove(&t);
        }
        let held: Vec<TaskId> = member
            .stores
            .keys()
            .copied()
            .filter(|&t| member.holds(t))
            .collect();
        for (t, store) in member.stores.iter_mut() {
            if held.binary_search(t).is_ok() {
                store.released_at = None;
            } else {
                store.released_at.get_or_insert(now);
            }
        }
    }

    /// Works the replays of every member touched this step out again, with their next
    /// thresholds, and indexes them under the tasks they replicate.
    pub(super) fn refresh_rates(&mut self) {
        self.pending.fit(self.members.len());
        self.pending.build_index(&self.members, self.tasks.len());
        for id in std::mem::take(&mut self.pending.dirty) {
            self.pending.is_dirty[id.index()] = false;
            self.release_stores(id);
            let mut replays = std::mem::take(&mut self.member_mut(id).replays);
            self.compute_replays(id, &mut replays);
            self.member_mut(id).replays = replays;
            let member = &self.members[id.index()];
            let replicas: Vec<TaskId> = member
                .learning
                .iter()
                .chain(&member.standby)
                .copied()
                .collect();
            self.pending.index(id, replicas);
            let next = self.next_threshold(id);
            self.pending.set_threshold(id, next);
        }
    }

    /// The earliest moment one of a member's replays reaches zero lag or, for a learner,
    /// readiness.
    fn next_threshold(&self, id: MemberId) -> Option<u64> {
        let member = &self.members[id.index()];
        if !member.status.alive() {
            return None;
        }
        let ready_lag = self.config.ready_lag() as f64;
        let anchor = member.anchor;
        let mut best: Option<u64> = None;
        for r in &member.replays {
            // Far behind in a compacted log, a replay gets closer when the cleaner runs.
            if let Some(at) = self.deep_cleaning(r) {
                best = Some(best.map_or(at, |b| b.min(at)));
            }
            let closing = r.rate - r.write_rate;
            if r.lag <= EPSILON || closing <= 0.0 {
                continue;
            }
            let target = if r.kind == ReplayKind::Learner
                && r.lag > ready_lag + EPSILON
                && !member.ready.contains(&r.task)
            {
                ready_lag
            } else {
                0.0
            };
            let ms = ((r.lag - target) / closing * 1000.0).ceil().max(1.0) as u64;
            let at = anchor.saturating_add(ms);
            best = Some(best.map_or(at, |b| b.min(at)));
        }
        best
    }

    /// When the cleaner next compacts the log of a replay's task, if the replay reads below
    /// the records the log holds beyond its keys (a cleaning moves it on). A replay slower
    /// than the writes is passed by every cleaning once it is within them: it is moved on
    /// when its member is next touched, not at each cleaning, which could come every
    /// millisecond for a replay that never catches up.
    fn deep_cleaning(&self, replay: &Replay) -> Option<u64> {
        let t = replay.task.index();
        let spec = &self.tasks[t];
        if !self.up[t] {
            return None;
        }
        let log = self.log(replay.task);
        if replay.lag <= log.keys || replay.rate <= replay.write_rate {
            return None;
        }
        let seconds = log.next_cleaning(spec.write_rate as f64, spec.cleanup, self.cleaner())?;
        let ms = (seconds * 1000.0).ceil().max(1.0) as u64;
        Some(self.time.saturating_add(ms))
    }

    /// The earliest moment some member's replay reaches a threshold.
    pub(super) fn next_replay_threshold(&self) -> Option<u64> {
        self.pending.thresholds.first().map(|&(at, _)| at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn replay(lag: f64, write_rate: f64) -> Replay {
        Replay {
            task: TaskId(0),
            kind: ReplayKind::Learner,
            lag,
            write_rate,
            rate: 0.0,
        }
    }

    #[test]
    fn restore_rate_is_shared_evenly_among_lagging_replays() {
        let mut r = vec![replay(100.0, 0.0), replay(5.0, 50.0), replay(7.0, 0.0)];
        share_restore_rate(9000.0, &mut r);
        assert!(r.iter().all(|x| (x.rate - 3000.0).abs() < 1e-9));
    }

    #[test]
    fn caught_up_replays_take_only_their_write_rate() {
        let mut r = vec![replay(0.0, 100.0), replay(1000.0, 0.0), replay(0.0, 300.0)];
        share_restore_rate(1000.0, &mut r);
        assert_eq!(r[0].rate, 100.0);
        assert_eq!(r[2].rate, 300.0);
        assert_eq!(r[1].rate, 600.0);
    }

    #[test]
    fn caught_up_replays_fall_behind_when_the_rate_is_too_small() {
        let mut r = vec![replay(0.0, 800.0), replay(0.0, 800.0)];
        share_restore_rate(1000.0, &mut r);
        assert_eq!(r[0].rate, 500.0);
        assert_eq!(r[1].rate, 500.0);
    }

    #[test]
    fn a_shared_disk_keeps_a_caught_up_replica_at_its_write_rate() {
        // Two threads at 20,000 records/s under a disk of 10,000: one keeps a standby caught
        // up (1 record/s) beside a lagging learner, the other restores one store.
        let mut r = vec![replay(0.0, 1.0), replay(500.0, 0.0), replay(900.0, 0.0)];
        share_restore_rate(20_000.0, &mut r[..2]);
        share_restore_rate(20_000.0, &mut r[2..]);
        water_fill(10_000.0, &mut r, |x| x.rate);
        assert_eq!(r[0].rate, 1.0);
        assert_eq!(r[1].rate, 4_999.5);
        assert_eq!(r[2].rate, 4_999.5);
    }
}
