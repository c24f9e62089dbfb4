//! The arithmetic between events: changelogs grow at their write rate while their task is
//! processed, and every store a member replays (a restoring active, a learner, a standby)
//! advances at its share of the member's restore rate. Everything is linear between events,
//! so the engine only computes when the next threshold (a learner ready, a store caught up)
//! is reached.

use super::Engine;
use crate::model::{MemberId, TaskId};

/// Lags closer than this to a threshold have reached it (float noise on millions of records).
pub(crate) const EPSILON: f64 = 1e-6;

/// Why a member replays a changelog.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReplayKind {
    /// It owns the task and must catch up before processing (the task is down).
    Active,
    /// It learns the task while another member runs it.
    Learner,
    /// It keeps a standby replica.
    Standby,
}

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

/// One changelog a member replays, with the rate it gets.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Replay {
    /// The task.
    pub task: TaskId,
    /// Why.
    pub kind: ReplayKind,
    /// Records behind the end.
    pub lag: f64,
    /// Records per second appended to the changelog right now.
    pub write_rate: f64,
    /// Records per second this replay gets from the member's restore rate.
    pub rate: f64,
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
    let demand = |r: &Replay| {
        if r.lag > EPSILON {
            f64::INFINITY
        } else {
            r.write_rate
        }
    };
    let mut order: Vec<usize> = (0..replays.len()).collect();
    order.sort_by(|&a, &b| {
        demand(&replays[a])
            .total_cmp(&demand(&replays[b]))
            .then(a.cmp(&b))
    });
    let mut left = total;
    for (i, &idx) in order.iter().enumerate() {
        let fair = left / (order.len() - i) as f64;
        let want = demand(&replays[idx]);
        if want <= fair {
            replays[idx].rate = want;
            left -= want;
        } else {
            for &rest in &order[i..] {
                replays[rest].rate = fair;
            }
            break;
        }
    }
}

impl Engine {
    /// Seconds since the continuous quantities were last brought up to date.
    #[inline]
    pub(super) fn since_anchor(&self) -> f64 {
        (self.time - self.anchor) as f64 / 1000.0
    }

    /// The end offset of a task's changelog.
    #[inline]
    pub fn changelog_end(&self, task: TaskId) -> f64 {
        let t = task.index();
        if self.up[t] {
            self.changelog[t] + self.tasks[t].write_rate as f64 * self.since_anchor()
        } else {
            self.changelog[t]
        }
    }

    /// How far a member's store of a task lags behind the changelog end.
    pub fn lag(&self, member: MemberId, task: TaskId) -> Option<f64> {
        self.lag_and_rate(member, task).map(|(lag, _)| lag)
    }

    /// The lag of a member's store of a task now and the rate it replays at, reading the
    /// store and the member's replays once.
    fn lag_and_rate(&self, member: MemberId, task: TaskId) -> Option<(f64, Option<&Replay>)> {
        let m = &self.members[member.index()];
        let store = m.stores.get(&task)?;
        let end = self.changelog_end(task);
        if self.up[task.index()] && self.owner[task.index()] == Some(member) {
            return Some((0.0, None));
        }
        let replay = self
            .rates
            .get(member.index())
            .and_then(|r| r.iter().find(|x| x.task == task));
        let rate = replay.map_or(0.0, |x| x.rate);
        let position = (store.position + rate * self.since_anchor()).min(end);
        Some(((end - position).max(0.0), replay))
    }

    /// How far a member's replica of a task has come, and whether it is done: a learner when
    /// it is within the acceptable recovery lag (rule 5), anything else when it has caught
    /// up. The one place readiness is decided: the engine's rejoins and the page's chips ask
    /// it.
    pub fn progress(&self, member: MemberId, task: TaskId, learner: bool) -> Progress {
        let found = self.lag_and_rate(member, task);
        let lag = found.map_or_else(|| self.changelog_end(task), |(lag, _)| lag);
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
    /// the last event or command ([`Engine::lag`] gives it now).
    pub fn replays(&self, id: MemberId) -> &[Replay] {
        self.rates.get(id.index()).map_or(&[], Vec::as_slice)
    }

    /// Works out what a member replays and the rates, as of `anchor`, into `replays`.
    fn compute_replays(&self, id: MemberId, replays: &mut Vec<Replay>) {
        replays.clear();
        let member = &self.members[id.index()];
        if !member.status.alive() {
            return;
        }
        let mut push = |task: TaskId, kind: ReplayKind| {
            let t = task.index();
            if let Some(lag) = member.lag(task, self.changelog[t]) {
                let write_rate = if self.up[t] {
                    self.tasks[t].write_rate as f64
                } else {
                    0.0
                };
                replays.push(Replay {
                    task,
                    kind,
                    lag,
                    write_rate,
                    rate: 0.0,
                });
            }
        };
        for &t in &member.active {
            if self.tasks[t.index()].stateful && !self.up[t.index()] {
                push(t, ReplayKind::Active);
            }
        }
        for &t in &member.learning {
            push(t, ReplayKind::Learner);
        }
        for &t in &member.standby {
            push(t, ReplayKind::Standby);
        }
        share_restore_rate(member.restore_rate, replays);
    }

    /// Recomputes every member's replays after the state changed, in the lists the last
    /// step left (a step runs this for every member, so the lists are refilled rather than
    /// allocated anew each time).
    pub(super) fn refresh_rates(&mut self) {
        let mut rates = std::mem::take(&mut self.rates);
        rates.resize_with(self.members.len(), Vec::new);
        for (i, replays) in rates.iter_mut().enumerate() {
            self.compute_replays(MemberId(i as u32), replays);
        }
        self.rates = rates;
    }

    /// The earliest moment a replay reaches zero lag or a learner reaches readiness.
    pub(super) fn next_replay_threshold(&self) -> Option<u64> {
        let ready_lag = self.config.ready_lag() as f64;
        let mut best: Option<u64> = None;
        for (member, replays) in self.members.iter().zip(&self.rates) {
            if !member.status.alive() {
                continue;
            }
            for r in replays {
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
                let at = self.anchor.saturating_add(ms);
                best = Some(best.map_or(at, |b| b.min(at)));
            }
        }
        best
    }

    /// Brings changelogs and stores from `anchor` up to `time`: changelogs grow while their
    /// task is processed, stores replay at their share of their member's restore rate.
    pub(super) fn materialize(&mut self) {
        if self.time <= self.anchor {
            return;
        }
        let seconds = self.since_anchor();
        for t in 0..self.tasks.len() {
            if self.up[t] {
                self.changelog[t] += self.tasks[t].write_rate as f64 * seconds;
            }
        }
        // A processed task's owner keeps its store at the changelog's end: each member's
        // stores are walked in order (one lookup per task in its member's map cost more).
        let (up, owner, changelog) = (&self.up, &self.owner, &self.changelog);
        for (i, member) in self.members.iter_mut().enumerate() {
            if member.active.is_empty() {
                continue;
            }
            for (task, store) in member.stores.iter_mut() {
                let t = task.index();
                if up[t] && owner[t] == Some(MemberId(i as u32)) {
                    store.position = changelog[t];
                }
            }
        }
        for (i, replays) in self.rates.iter().enumerate() {
            for r in replays {
                let end = self.changelog[r.task.index()];
                let Some(store) = self.members[i].stores.get_mut(&r.task) else {
                    continue;
                };
                let before = store.position;
                store.position = (store.position + r.rate * seconds).min(end);
                if end - store.position <= EPSILON {
                    store.position = end;
                }
                let replayed = store.position - before;
                match r.kind {
                    ReplayKind::Active => self.tally.replayed_by_actives += replayed,
                    ReplayKind::Learner => self.tally.replayed_by_learners += replayed,
                    ReplayKind::Standby => self.tally.replayed_by_standbys += replayed,
                }
            }
        }
        self.anchor = self.time;
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
}
