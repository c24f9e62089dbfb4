//! The simulation: virtual time in milliseconds, discrete events, no clock and no randomness
//! of its own. The same scenario and the same commands at the same times always give the
//! same history.
//!
//! Between events everything moves linearly (changelogs grow at their write rate, stores
//! replay at their share of the member's restore rate), so the engine jumps from one event to
//! the next: a timer (a round's join deadline or sync, a session timeout, a scale-down
//! deadline, a probing rebalance) or a replay reaching a threshold (a learner ready, an
//! active store caught up).

pub mod coordinator;
pub mod history;
pub mod member;

use crate::assignor::{self, AssignInput};
use crate::model::{
    Assignment, Config, HandoffMode, JoinMetadata, MemberId, Readiness, Roster, Strategy, Task,
    TaskId, TaskInfo,
};
use crate::scenario::{Command, MemberSpec, Scenario};
use coordinator::{Cause, Coordinator, Phase, Round, RoundInProgress};
use member::{share_restore_rate, Member, MemberStatus, Replay, ReplayKind, Store, EPSILON};
use thiserror::Error;

/// A command that cannot be carried out now; the state is left as it was.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum CommandError {
    /// No member has this name.
    #[error("there is no member named {0}")]
    UnknownMember(String),
    /// A member with this name already exists.
    #[error("a member named {0} already exists")]
    DuplicateMember(String),
    /// Capacity must be at least one.
    #[error("member {0} needs a capacity of at least 1")]
    ZeroCapacity(String),
    /// A restore rate must be positive.
    #[error("member {0} needs a restore rate above 0 records/s")]
    ZeroRestoreRate(String),
    /// The member already crashed.
    #[error("{0} has already crashed")]
    AlreadyCrashed(String),
    /// The member already left the group.
    #[error("{0} has already left the group")]
    AlreadyLeft(String),
    /// The member is already draining.
    #[error("{0} is already draining")]
    AlreadyDraining(String),
    /// Nobody is alive to lead.
    #[error("no live member leads the group")]
    NoLeader,
}

/// Why a member left the group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LeaveReason {
    /// It drained and its assignment held nothing more.
    Drained,
    /// Its scale-down timeout passed.
    Timeout,
    /// It left at once when told to drain (designs without learners).
    Graceful,
}

/// Something that happened at a moment of the simulation.
#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    /// When, in virtual milliseconds.
    pub at: u64,
    /// What.
    pub kind: EventKind,
}

/// The kinds of [`Event`].
#[derive(Clone, Debug, PartialEq)]
pub enum EventKind {
    /// A member joined the group.
    MemberJoined(MemberId),
    /// A member was killed.
    MemberCrashed(MemberId),
    /// A member was told to drain.
    DrainStarted(MemberId),
    /// The coordinator removed a crashed member after its session timed out.
    CrashDetected(MemberId),
    /// A member left the group.
    MemberLeft(MemberId, LeaveReason),
    /// A rebalance round began: members rejoin.
    RoundStarted {
        /// Its index in the run.
        index: u32,
        /// Why.
        causes: Vec<Cause>,
    },
    /// The join phase closed and the leader assigned.
    RoundAssigned(Box<Round>),
    /// The members received the assignment; draining members left with nothing shut down.
    RoundSynced {
        /// The round's index.
        index: u32,
        /// Members that shut down on receiving it.
        departed: Vec<MemberId>,
    },
    /// The leader crashed before the sync; the assignment was lost.
    RoundAbandoned(u32),
    /// A learner caught up to the acceptable recovery lag.
    LearnerReady(MemberId, TaskId),
    /// A member stopped running a task (released at join, revoked, crashed, left).
    TaskStopped(TaskId, MemberId),
    /// A member started running a task (it may still have to restore).
    TaskStarted(TaskId, MemberId),
    /// A task stopped being processed.
    TaskDown(TaskId),
    /// A task is processed again.
    TaskUp(TaskId),
    /// The group came to rest: no learner, no rebalance pending, every task running.
    AtRest,
}

/// Timers the engine waits on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Timer {
    JoinDeadline,
    Sync,
    CrashDetection(MemberId),
    DrainDeadline(MemberId),
    Probing,
}

/// Running totals behind the metrics.
#[derive(Clone, Debug, PartialEq)]
pub struct Tally {
    /// Since when each task is down (while some member is alive).
    pub down_since: Vec<Option<u64>>,
    /// Downtime of finished outages, per task.
    pub downtime: Vec<u64>,
    /// The longest finished outage, per task.
    pub longest: Vec<u64>,
    /// Outages per task.
    pub outages: Vec<u32>,
    /// Rounds that reached the assignment (generations created in this run).
    pub rebalances: u32,
    /// Times a task's active ownership moved to another member.
    pub moves: u32,
    /// Records replayed by learners (and warm-ups).
    pub replayed_by_learners: f64,
    /// Records replayed by active owners restoring before they could process.
    pub replayed_by_actives: f64,
    /// Records replayed by standbys.
    pub replayed_by_standbys: f64,
    /// When the first command arrived.
    pub first_command_at: Option<u64>,
    /// When the group last came to rest (`None` while it is not at rest).
    pub rest_since: Option<u64>,
}

/// The state of the simulated system at one moment.
#[derive(Clone, Debug, PartialEq)]
pub struct Engine {
    config: Config,
    roster: Roster,
    tasks: Vec<Task>,
    changelog: Vec<f64>,
    members: Vec<Member>,
    owner: Vec<Option<MemberId>>,
    last_owner: Vec<Option<MemberId>>,
    up: Vec<bool>,
    /// The moment being looked at.
    time: u64,
    /// The moment changelogs and stores were last brought up to date. Between events they
    /// move linearly at `rates`, so they are only updated at events and commands: the
    /// arithmetic, and so the history, is the same wherever a person stops the clock.
    anchor: u64,
    /// What each member replays and at what rate, as of `anchor`.
    rates: Vec<Vec<Replay>>,
    coordinator: Coordinator,
    timers: Vec<(u64, Timer)>,
    tally: Tally,
}

impl Engine {
    /// The state at time 0: initial members running their initial tasks, caught up. If
    /// some task has no owner and someone could take it, the first round starts at once.
    pub fn new(scenario: &Scenario, out: &mut Vec<Event>) -> Engine {
        let n = scenario.tasks.len();
        let mut engine = Engine {
            config: scenario.config.clone(),
            roster: Roster {
                tasks: scenario.tasks.iter().map(|t| t.name.clone()).collect(),
                members: Vec::new(),
            },
            tasks: scenario.tasks.clone(),
            changelog: scenario.tasks.iter().map(|t| t.changelog as f64).collect(),
            members: Vec::new(),
            owner: vec![None; n],
            last_owner: vec![None; n],
            up: vec![false; n],
            time: 0,
            anchor: 0,
            rates: Vec::new(),
            coordinator: Coordinator::default(),
            timers: Vec::new(),
            tally: Tally {
                down_since: vec![None; n],
                downtime: vec![0; n],
                longest: vec![0; n],
                outages: vec![0; n],
                rebalances: 0,
                moves: 0,
                replayed_by_learners: 0.0,
                replayed_by_actives: 0.0,
                replayed_by_standbys: 0.0,
                first_command_at: None,
                rest_since: None,
            },
        };
        for spec in &scenario.members {
            engine.add_member(spec);
        }
        if let Some(initial) = &scenario.initial {
            for (t, owner) in initial.iter().enumerate() {
                if let Some(m) = *owner {
                    let task = TaskId(t as u32);
                    let end = engine.changelog[t];
                    let member = &mut engine.members[m.index()];
                    member.active.push(task);
                    member.last_assigned.push(task);
                    if engine.tasks[t].stateful {
                        member.stores.insert(task, Store { position: end });
                    }
                    engine.owner[t] = Some(m);
                    engine.last_owner[t] = Some(m);
                }
            }
            engine.coordinator.leader = engine.members.first().map(|_| MemberId(0));
            engine.place_initial_standbys();
        }
        let unowned = engine.owner.iter().any(Option::is_none);
        if unowned && !engine.members.is_empty() {
            engine.trigger(Cause::Startup);
        }
        engine.settle(out);
        engine
    }

    /// A stable group already keeps its standbys: place them as the assignor would, caught up.
    fn place_initial_standbys(&mut self) {
        if self.config.num_standby_replicas == 0 || self.members.is_empty() {
            return;
        }
        let joined = self.join_metadata(&self.participants());
        let assignment = self.run_assignor(&joined);
        let Ok(assignment) = assignment else { return };
        for (m, a) in assignment.members {
            for &t in &a.standby {
                if self.owner[t.index()] == Some(m) {
                    continue;
                }
                let end = self.changelog[t.index()];
                let member = &mut self.members[m.index()];
                member.standby.push(t);
                member.stores.insert(t, Store { position: end });
            }
        }
    }

    // ----- reading the state -----

    /// The current virtual time in milliseconds.
    pub fn time(&self) -> u64 {
        self.time
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Names of tasks and members.
    pub fn roster(&self) -> &Roster {
        &self.roster
    }

    /// The tasks.
    pub fn tasks(&self) -> &[Task] {
        &self.tasks
    }

    /// Every member that ever joined, in join order.
    pub fn members(&self) -> &[Member] {
        &self.members
    }

    /// One member.
    pub fn member(&self, id: MemberId) -> &Member {
        &self.members[id.index()]
    }

    /// The member running (or restoring) a task as its active owner.
    pub fn owner(&self, task: TaskId) -> Option<MemberId> {
        self.owner[task.index()]
    }

    /// Whether a task is being processed right now.
    pub fn is_up(&self, task: TaskId) -> bool {
        self.up[task.index()]
    }

    /// Seconds since the continuous quantities were last brought up to date.
    fn since_anchor(&self) -> f64 {
        (self.time - self.anchor) as f64 / 1000.0
    }

    /// The end offset of a task's changelog.
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
        let m = &self.members[member.index()];
        let store = m.stores.get(&task)?;
        let end = self.changelog_end(task);
        if self.up[task.index()] && self.owner[task.index()] == Some(member) {
            return Some(0.0);
        }
        let rate = self
            .rates
            .get(member.index())
            .and_then(|r| r.iter().find(|x| x.task == task))
            .map_or(0.0, |x| x.rate);
        let position = (store.position + rate * self.since_anchor()).min(end);
        Some((end - position).max(0.0))
    }

    /// Whether a member's learner of a task is within the acceptable recovery lag.
    pub fn learner_ready(&self, member: MemberId, task: TaskId) -> bool {
        self.lag(member, task)
            .is_some_and(|l| l <= self.config.ready_lag() as f64 + EPSILON)
    }

    /// The coordinator's state: generation, round in progress, pending causes.
    pub fn coordinator(&self) -> &Coordinator {
        &self.coordinator
    }

    /// The running totals behind the metrics.
    pub fn tally(&self) -> &Tally {
        &self.tally
    }

    /// The leader as the coordinator sees it: the last round's leader while it is still in
    /// the group (a crashed leader leads until its session times out); before any round, the
    /// longest-standing member.
    pub fn leader(&self) -> Option<MemberId> {
        match self.coordinator.leader {
            Some(l) => Some(l).filter(|&l| self.members[l.index()].in_group),
            None => self.participants().first().copied(),
        }
    }

    /// The leader, if it is alive (crashing it would do something).
    fn live_leader(&self) -> Option<MemberId> {
        self.leader()
            .filter(|&l| self.members[l.index()].status.alive())
    }

    /// Members that would join a round now: in the group and alive, longest-standing first.
    pub fn participants(&self) -> Vec<MemberId> {
        let mut ids: Vec<MemberId> = (0..self.members.len())
            .map(|i| MemberId(i as u32))
            .filter(|m| {
                let member = &self.members[m.index()];
                member.in_group && member.status.alive()
            })
            .collect();
        ids.sort_by_key(|m| (self.members[m.index()].joined_at, *m));
        ids
    }

    /// Whether any member is alive.
    pub fn anyone_alive(&self) -> bool {
        self.members.iter().any(|m| m.status.alive())
    }

    /// At rest: no round running or pending, nobody draining or crashed unnoticed, no
    /// learner, and every task processed (when anyone is alive to process it).
    pub fn at_rest(&self) -> bool {
        self.coordinator.round.is_none()
            && self.coordinator.pending.is_empty()
            && self.members.iter().all(|m| {
                !(m.in_group && matches!(m.status, MemberStatus::Crashed | MemberStatus::Leaving))
                    && (!m.status.alive() || m.learning.is_empty())
            })
            && (!self.anyone_alive() || self.up.iter().all(|&u| u))
    }

    /// Whether the active tasks are spread by capacity over the members that stay: each
    /// within its share rounded down and up (system.md rule 8).
    pub fn balanced(&self) -> bool {
        let staying: Vec<&Member> = self
            .members
            .iter()
            .filter(|m| m.in_group && m.status == MemberStatus::Live)
            .collect();
        let capacity: u64 = staying.iter().map(|m| u64::from(m.capacity)).sum();
        if capacity == 0 {
            return true;
        }
        let n = self.tasks.len() as u64;
        staying.iter().all(|m| {
            let exact = n * u64::from(m.capacity);
            let count = m.active.len() as u64;
            count >= exact / capacity && count <= exact.div_ceil(capacity)
        })
    }

    // ----- commands -----

    /// Carries out a command at the current time. On error nothing changes.
    pub fn apply(&mut self, command: &Command, out: &mut Vec<Event>) -> Result<(), CommandError> {
        self.check(command)?;
        self.materialize();
        self.note_command();
        match command {
            Command::Join(spec) => {
                let id = self.add_member(spec);
                out.push(self.event(EventKind::MemberJoined(id)));
                self.trigger(Cause::MemberJoined(id));
            }
            Command::Crash(name) => {
                let id = self.find_member(name)?;
                self.crash(id, out);
            }
            Command::CrashLeader => {
                let id = self.live_leader().ok_or(CommandError::NoLeader)?;
                self.crash(id, out);
            }
            Command::Drain(name) => {
                let id = self.find_member(name)?;
                self.drain(id, out);
            }
        }
        self.settle(out);
        Ok(())
    }

    /// Whether a command would change anything now; the UI disables the others.
    pub fn check(&self, command: &Command) -> Result<(), CommandError> {
        match command {
            Command::Join(spec) => {
                if self.roster.member_id(&spec.name).is_some() {
                    Err(CommandError::DuplicateMember(spec.name.clone()))
                } else if spec.capacity == 0 {
                    Err(CommandError::ZeroCapacity(spec.name.clone()))
                } else if spec.restore_rate == Some(0) {
                    Err(CommandError::ZeroRestoreRate(spec.name.clone()))
                } else {
                    Ok(())
                }
            }
            Command::Crash(name) => self.check_alive(self.find_member(name)?),
            Command::CrashLeader => self.live_leader().map(|_| ()).ok_or(CommandError::NoLeader),
            Command::Drain(name) => {
                let id = self.find_member(name)?;
                self.check_alive(id)?;
                if self.members[id.index()].status == MemberStatus::Leaving {
                    Err(CommandError::AlreadyDraining(name.clone()))
                } else {
                    Ok(())
                }
            }
        }
    }

    fn find_member(&self, name: &str) -> Result<MemberId, CommandError> {
        self.roster
            .member_id(name)
            .ok_or_else(|| CommandError::UnknownMember(name.to_string()))
    }

    fn check_alive(&self, id: MemberId) -> Result<(), CommandError> {
        let member = &self.members[id.index()];
        match member.status {
            MemberStatus::Crashed => Err(CommandError::AlreadyCrashed(member.name.clone())),
            MemberStatus::Left => Err(CommandError::AlreadyLeft(member.name.clone())),
            MemberStatus::Live | MemberStatus::Leaving => Ok(()),
        }
    }

    fn note_command(&mut self) {
        self.tally.first_command_at.get_or_insert(self.time);
    }

    fn add_member(&mut self, spec: &MemberSpec) -> MemberId {
        let id = MemberId(self.members.len() as u32);
        let rate = spec.restore_rate.unwrap_or(self.config.restore_rate) as f64;
        self.members.push(Member::new(
            spec.name.clone(),
            spec.capacity,
            rate,
            self.time,
        ));
        self.roster.members.push(spec.name.clone());
        id
    }

    fn crash(&mut self, id: MemberId, out: &mut Vec<Event>) {
        self.stop_all(id, out);
        let now = self.time;
        let member = &mut self.members[id.index()];
        member.status = MemberStatus::Crashed;
        member.crashed_at = Some(now);
        member.learning.clear();
        member.standby.clear();
        member.ready.clear();
        member.reported.clear();
        out.push(self.event(EventKind::MemberCrashed(id)));
        if self.members[id.index()].in_group {
            let at = now + self.config.session_timeout_ms;
            self.timers.push((at, Timer::CrashDetection(id)));
        }
    }

    fn drain(&mut self, id: MemberId, out: &mut Vec<Event>) {
        let now = self.time;
        out.push(self.event(EventKind::DrainStarted(id)));
        self.members[id.index()].drained_at = Some(now);
        if self.config.strategy == Strategy::Learner {
            self.members[id.index()].status = MemberStatus::Leaving;
            if let Some(timeout) = self.config.scale_down_timeout_ms {
                self.timers.push((now + timeout, Timer::DrainDeadline(id)));
            }
            self.trigger(Cause::Drain(id));
        } else {
            // Nothing is pre-warmed: the member hands its tasks back and leaves at once.
            self.leave(id, LeaveReason::Graceful, out);
            self.trigger(Cause::MemberLeft(id));
        }
    }

    /// Stops everything a member runs; the tasks become orphans.
    fn stop_all(&mut self, id: MemberId, out: &mut Vec<Event>) {
        let tasks = std::mem::take(&mut self.members[id.index()].active);
        for t in tasks {
            self.owner[t.index()] = None;
            out.push(self.event(EventKind::TaskStopped(t, id)));
        }
    }

    fn leave(&mut self, id: MemberId, reason: LeaveReason, out: &mut Vec<Event>) {
        self.stop_all(id, out);
        let now = self.time;
        let member = &mut self.members[id.index()];
        member.status = MemberStatus::Left;
        member.in_group = false;
        member.left_at = Some(now);
        member.learning.clear();
        member.standby.clear();
        member.learned.clear();
        member.ready.clear();
        member.reported.clear();
        out.push(self.event(EventKind::MemberLeft(id, reason)));
    }

    // ----- time -----

    /// When the next event happens, if anything is still to happen.
    pub fn next_event_time(&self) -> Option<u64> {
        let timer = self.timers.iter().map(|&(at, _)| at).min();
        let replay = self.next_replay_threshold();
        match (timer, replay) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Processes the events due at the next event time, if it is at most `limit`. Returns
    /// whether it did; the caller may check invariants between steps.
    pub fn step(&mut self, limit: u64, out: &mut Vec<Event>) -> bool {
        match self.next_event_time() {
            Some(next) if next <= limit => {
                self.time = next;
                self.materialize();
                self.fire_due(out);
                self.settle(out);
                true
            }
            _ => false,
        }
    }

    /// Runs every event up to `time` and moves the clock there.
    pub fn advance_to(&mut self, time: u64, out: &mut Vec<Event>) {
        while self.step(time, out) {}
        self.time = self.time.max(time);
    }

    fn event(&self, kind: EventKind) -> Event {
        Event {
            at: self.time,
            kind,
        }
    }

    /// What a member replays right now, with the rate each replay gets and its lag.
    pub fn replays(&self, id: MemberId) -> Vec<Replay> {
        let mut replays = self.rates.get(id.index()).cloned().unwrap_or_default();
        for r in &mut replays {
            r.lag = self.lag(id, r.task).unwrap_or(0.0);
        }
        replays
    }

    /// Works out what a member replays and the rates, as of `anchor`.
    fn compute_replays(&self, id: MemberId) -> Vec<Replay> {
        let member = &self.members[id.index()];
        if !member.status.alive() {
            return Vec::new();
        }
        let mut replays = Vec::new();
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
        share_restore_rate(member.restore_rate, &mut replays);
        replays
    }

    /// Recomputes every member's replays after the state changed.
    fn refresh_rates(&mut self) {
        self.rates = (0..self.members.len())
            .map(|i| self.compute_replays(MemberId(i as u32)))
            .collect();
    }

    /// The earliest moment a replay reaches zero lag or a learner reaches readiness.
    fn next_replay_threshold(&self) -> Option<u64> {
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
                let at = self.anchor + ms;
                best = Some(best.map_or(at, |b| b.min(at)));
            }
        }
        best
    }

    /// Brings changelogs and stores from `anchor` up to `time`: changelogs grow while their
    /// task is processed, stores replay at their share of their member's restore rate.
    fn materialize(&mut self) {
        if self.time <= self.anchor {
            return;
        }
        let seconds = self.since_anchor();
        for t in 0..self.tasks.len() {
            if self.up[t] {
                self.changelog[t] += self.tasks[t].write_rate as f64 * seconds;
                if let Some(o) = self.owner[t] {
                    if let Some(store) = self.members[o.index()].stores.get_mut(&TaskId(t as u32)) {
                        store.position = self.changelog[t];
                    }
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

    /// Fires the timers due now, in a fixed order.
    fn fire_due(&mut self, out: &mut Vec<Event>) {
        let now = self.time;
        let mut due: Vec<Timer> = Vec::new();
        self.timers.retain(|&(at, timer)| {
            if at <= now {
                due.push(timer);
                false
            } else {
                true
            }
        });
        for timer in due {
            match timer {
                Timer::Sync => self.finish_sync(out),
                Timer::CrashDetection(id) => {
                    let member = &mut self.members[id.index()];
                    if member.in_group && member.status == MemberStatus::Crashed {
                        member.in_group = false;
                        member.left_at = Some(now);
                        out.push(self.event(EventKind::CrashDetected(id)));
                        self.trigger(Cause::CrashDetected(id));
                    }
                }
                Timer::DrainDeadline(id) => {
                    let member = &self.members[id.index()];
                    if member.in_group && member.status == MemberStatus::Leaving {
                        self.leave(id, LeaveReason::Timeout, out);
                        self.trigger(Cause::ScaleDownTimeout(id));
                    }
                }
                Timer::Probing => {
                    let warming = self
                        .members
                        .iter()
                        .any(|m| m.status.alive() && !m.learning.is_empty());
                    if warming {
                        self.trigger(Cause::Probing);
                    }
                }
                Timer::JoinDeadline => {}
            }
        }
        self.try_close_join(out);
    }

    /// Brings everything else up to date at the current time: learners that became ready,
    /// a round to start, the join phase to close, tasks that went up or down.
    fn settle(&mut self, out: &mut Vec<Event>) {
        self.note_ready_learners(out);
        // A task handed over by a sync is up, even if the next round releases it again at
        // the same moment: record both.
        self.refresh_status(out);
        if self.coordinator.round.is_none() && !self.coordinator.pending.is_empty() {
            if self.participants().is_empty() {
                self.coordinator.pending.clear();
            } else {
                self.start_round(out);
            }
        }
        self.try_close_join(out);
        self.refresh_status(out);
        self.refresh_rates();
    }

    /// Records learners that reached readiness; under the learner design their member
    /// rejoins (rule 5: `eager` at the first ready learner, `stable` when all are).
    fn note_ready_learners(&mut self, out: &mut Vec<Event>) {
        let rejoins = self.config.strategy == Strategy::Learner;
        for i in 0..self.members.len() {
            let id = MemberId(i as u32);
            if !self.members[i].status.alive() {
                continue;
            }
            let learning = self.members[i].learning.clone();
            let ready_now: Vec<TaskId> = learning
                .iter()
                .copied()
                .filter(|&t| self.learner_ready(id, t))
                .collect();
            let member = &self.members[i];
            let newly: Vec<TaskId> = ready_now
                .iter()
                .copied()
                .filter(|t| !member.ready.contains(t))
                .collect();
            let unreported = ready_now.iter().any(|t| !member.reported.contains(t));
            for &t in &newly {
                out.push(self.event(EventKind::LearnerReady(id, t)));
            }
            let wants_rejoin = unreported
                && match self.config.readiness {
                    Readiness::Eager => true,
                    Readiness::Stable => ready_now.len() == learning.len(),
                };
            let member = &mut self.members[i];
            member.ready = ready_now;
            if rejoins && wants_rejoin {
                member.reported.clone_from(&member.ready);
                self.trigger(Cause::LearnerReady(id));
            }
        }
    }

    /// Asks for a rebalance: joins the round in its join phase, else waits for the next.
    fn trigger(&mut self, cause: Cause) {
        match &mut self.coordinator.round {
            Some(RoundInProgress {
                phase: Phase::Joining { .. },
                causes,
                ..
            }) => {
                if !causes.contains(&cause) {
                    causes.push(cause);
                }
            }
            _ => {
                if !self.coordinator.pending.contains(&cause) {
                    self.coordinator.pending.push(cause);
                }
            }
        }
    }

    /// Opens a round: every member rejoins; under `release_at_join` a member releases its
    /// learned tasks as it joins, and under `eager` every member releases everything.
    fn start_round(&mut self, out: &mut Vec<Event>) {
        self.coordinator.rounds += 1;
        let index = self.coordinator.rounds;
        let causes = std::mem::take(&mut self.coordinator.pending);
        let deadline = self.time + self.config.rebalance_ms / 2;
        out.push(self.event(EventKind::RoundStarted {
            index,
            causes: causes.clone(),
        }));
        for id in self.participants() {
            let member = &self.members[id.index()];
            let release: Vec<TaskId> = match self.config.strategy {
                Strategy::Eager => member.active.clone(),
                Strategy::Learner if self.config.handoff == HandoffMode::ReleaseAtJoin => member
                    .learned
                    .iter()
                    .copied()
                    .filter(|&t| member.runs(t))
                    .collect(),
                _ => Vec::new(),
            };
            for t in release {
                self.members[id.index()].active.retain(|&x| x != t);
                self.owner[t.index()] = None;
                out.push(self.event(EventKind::TaskStopped(t, id)));
            }
        }
        self.coordinator.round = Some(RoundInProgress {
            index,
            started_at: self.time,
            causes,
            phase: Phase::Joining { deadline },
        });
        self.timers.push((deadline, Timer::JoinDeadline));
    }

    /// Closes the join phase once its deadline passed and no member it waits for is a
    /// crashed one whose session has not timed out yet; the leader then assigns.
    fn try_close_join(&mut self, out: &mut Vec<Event>) {
        let Some(round) = &self.coordinator.round else {
            return;
        };
        let Phase::Joining { deadline } = round.phase else {
            return;
        };
        let waiting_for_crashed = self
            .members
            .iter()
            .any(|m| m.in_group && m.status == MemberStatus::Crashed);
        if self.time < deadline || waiting_for_crashed {
            return;
        }
        let participants = self.participants();
        let Some(round) = self.coordinator.round.take() else {
            return;
        };
        let Some(&leader) = participants.first() else {
            return;
        };
        let joined = self.join_metadata(&participants);
        let assignment = match self.run_assignor(&joined) {
            Ok(a) => a,
            Err(_) => {
                // The engine only builds consistent metadata; should it not, the round is
                // dropped rather than applying a broken assignment. Invariant checks flag it.
                out.push(self.event(EventKind::RoundAbandoned(round.index)));
                return;
            }
        };
        self.coordinator.generation += 1;
        self.tally.rebalances += 1;
        let previous_leader = self.coordinator.leader.filter(|&l| l != leader);
        self.coordinator.leader = Some(leader);
        let record = Round {
            index: round.index,
            generation: self.coordinator.generation,
            causes: round.causes.clone(),
            started_at: round.started_at,
            assigned_at: self.time,
            synced_at: None,
            abandoned: false,
            leader,
            previous_leader,
            joined,
            assignment,
            departed: Vec::new(),
        };
        out.push(self.event(EventKind::RoundAssigned(Box::new(record.clone()))));
        let sync_at = self.time + (self.config.rebalance_ms - self.config.rebalance_ms / 2);
        self.timers.push((sync_at, Timer::Sync));
        self.coordinator.round = Some(RoundInProgress {
            phase: Phase::Syncing {
                sync_at,
                round: Box::new(record),
            },
            ..round
        });
    }

    /// What the members would report if a round started now (for tests and the UI's
    /// "what would the leader do" checks).
    pub fn current_metadata(&self) -> Vec<JoinMetadata> {
        self.join_metadata(&self.participants())
    }

    /// What the leader would decide if a round started now.
    pub fn assign_now(&self) -> Result<Assignment, assignor::AssignError> {
        self.run_assignor(&self.current_metadata())
    }

    /// What each participant reports as it joins.
    fn join_metadata(&self, participants: &[MemberId]) -> Vec<JoinMetadata> {
        participants
            .iter()
            .map(|&id| {
                let member = &self.members[id.index()];
                JoinMetadata {
                    member: id,
                    capacity: member.capacity,
                    leaving: member.status == MemberStatus::Leaving,
                    assigned: member.active.clone(),
                    revoked: member.revoked(),
                    learning: member.learning.clone(),
                    standby: member.standby.clone(),
                    lags: member
                        .stores
                        .iter()
                        .map(|(&t, s)| {
                            (
                                t,
                                (self.changelog[t.index()] - s.position).max(0.0).ceil() as u64,
                            )
                        })
                        .collect(),
                }
            })
            .collect()
    }

    fn run_assignor(&self, joined: &[JoinMetadata]) -> Result<Assignment, assignor::AssignError> {
        let config = self.config.assignor();
        let tasks: Vec<TaskInfo> = self
            .tasks
            .iter()
            .zip(&self.changelog)
            .map(|(t, &end)| TaskInfo {
                stateful: t.stateful,
                changelog: end.ceil() as u64,
            })
            .collect();
        assignor::assign(AssignInput {
            config: &config,
            tasks: &tasks,
            members: joined,
        })
    }

    /// The members receive the assignment: they stop what they lost, start what they got
    /// (restoring first where their store lags), and learn and keep standbys as told. A
    /// draining member left with nothing shuts down. If the leader crashed meanwhile, the
    /// assignment never arrives.
    fn finish_sync(&mut self, out: &mut Vec<Event>) {
        let Some(progress) = self.coordinator.round.take() else {
            return;
        };
        let Phase::Syncing { round, .. } = progress.phase else {
            self.coordinator.round = Some(progress);
            return;
        };
        let mut round = *round;
        if !self.members[round.leader.index()].status.alive() {
            round.abandoned = true;
            out.push(self.event(EventKind::RoundAbandoned(round.index)));
            return;
        }
        let receivers: Vec<(MemberId, crate::model::MemberAssignment)> = round
            .assignment
            .members
            .iter()
            .filter(|(m, _)| self.members[m.index()].status.alive())
            .cloned()
            .collect();
        for (id, a) in &receivers {
            let lost: Vec<TaskId> = self.members[id.index()]
                .active
                .iter()
                .copied()
                .filter(|t| a.assigned.binary_search(t).is_err())
                .collect();
            for t in lost {
                self.members[id.index()].active.retain(|&x| x != t);
                self.owner[t.index()] = None;
                out.push(self.event(EventKind::TaskStopped(t, *id)));
            }
        }
        for (id, a) in &receivers {
            for &t in &a.assigned {
                if self.members[id.index()].runs(t) {
                    continue;
                }
                if self.owner[t.index()].is_some() {
                    // Never two owners: the assignor cannot produce this, and the invariant
                    // checks would flag it; the task stays with its current owner.
                    continue;
                }
                self.start_task(*id, t, out);
            }
            let member = &mut self.members[id.index()];
            member.learning = a.learning.clone();
            member.standby = a.standby.clone();
            member.learned = a.learned.clone();
            member.last_assigned = a.assigned.clone();
            member.ready.retain(|t| a.learning.binary_search(t).is_ok());
            member
                .reported
                .retain(|t| a.learning.binary_search(t).is_ok());
            for &t in a.learning.iter().chain(&a.standby) {
                member.stores.entry(t).or_insert(Store { position: 0.0 });
            }
        }
        for (id, a) in &receivers {
            if self.members[id.index()].status == MemberStatus::Leaving && a.assigned.is_empty() {
                self.leave(*id, LeaveReason::Drained, out);
                round.departed.push(*id);
            }
        }
        round.synced_at = Some(self.time);
        out.push(self.event(EventKind::RoundSynced {
            index: round.index,
            departed: round.departed.clone(),
        }));
        if round.assignment.followup {
            self.trigger(Cause::FollowUp);
        }
        let warming = receivers.iter().any(|(_, a)| !a.learning.is_empty());
        if self.config.strategy == Strategy::Kip441
            && warming
            && !self.timers.iter().any(|(_, t)| *t == Timer::Probing)
        {
            let at = self.time + self.config.kip441.probing_interval_ms;
            self.timers.push((at, Timer::Probing));
        }
    }

    fn start_task(&mut self, id: MemberId, task: TaskId, out: &mut Vec<Event>) {
        let t = task.index();
        let member = &mut self.members[id.index()];
        let pos = member.active.partition_point(|&x| x < task);
        member.active.insert(pos, task);
        if self.tasks[t].stateful {
            member.stores.entry(task).or_insert(Store { position: 0.0 });
        }
        self.owner[t] = Some(id);
        if let Some(previous) = self.last_owner[t] {
            if previous != id {
                self.tally.moves += 1;
            }
        }
        self.last_owner[t] = Some(id);
        out.push(self.event(EventKind::TaskStarted(task, id)));
    }

    /// Recomputes which tasks are processed and keeps the downtime tally: a task is down
    /// while nobody processes it and some member is alive.
    fn refresh_status(&mut self, out: &mut Vec<Event>) {
        let alive = self.anyone_alive();
        let now = self.time;
        for t in 0..self.tasks.len() {
            let task = TaskId(t as u32);
            let up = self.owner[t].is_some_and(|o| {
                let member = &self.members[o.index()];
                member.status.alive()
                    && (!self.tasks[t].stateful
                        || member
                            .lag(task, self.changelog[t])
                            .is_some_and(|l| l <= EPSILON))
            });
            if up != self.up[t] {
                self.up[t] = up;
                out.push(self.event(if up {
                    EventKind::TaskUp(task)
                } else {
                    EventKind::TaskDown(task)
                }));
            }
            let counting = !up && alive;
            match (self.tally.down_since[t], counting) {
                (None, true) => {
                    self.tally.down_since[t] = Some(now);
                    self.tally.outages[t] += 1;
                }
                (Some(since), false) => {
                    let outage = now - since;
                    self.tally.downtime[t] += outage;
                    self.tally.longest[t] = self.tally.longest[t].max(outage);
                    self.tally.down_since[t] = None;
                }
                _ => {}
            }
        }
        let rest = self.at_rest();
        match (rest, self.tally.rest_since) {
            (true, None) => {
                self.tally.rest_since = Some(now);
                out.push(self.event(EventKind::AtRest));
            }
            (false, Some(_)) => self.tally.rest_since = None,
            _ => {}
        }
    }
}
