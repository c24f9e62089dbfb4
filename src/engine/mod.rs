//! The simulation: virtual time in milliseconds, discrete events, no clock and no randomness
//! of its own. The same scenario and the same commands at the same times always give the
//! same history.
//!
//! Between events everything moves linearly (changelogs grow at their write rate, stores
//! replay at their share of the member's restore rate), so the engine jumps from one event to
//! the next: a timer (a round's join deadline or sync, a session timeout, a scale-down
//! deadline, a probing rebalance) or a replay reaching a threshold (a learner ready, an
//! active store caught up).

//!
//! The engine is split by job: this file holds the state, the clock and the events;
//! `coordinator.rs` the broker's side (generations, the leader, rounds: join, assign, sync);
//! `member.rs` the members and the commands a person gives them (join, crash, drain) and
//! readiness; `restart.rs` restarts, rolling restarts and zone outages, with static or
//! dynamic membership; `replay.rs` the arithmetic of changelogs and stores between events.

pub mod backlog;
mod cause;
mod changelog;
pub mod coordinator;
pub mod member;
pub mod replay;
pub mod restart;
pub mod streams;
pub mod threads;

use crate::assignor::measure::{zones_in_use, MemberLoad, Skew};
use crate::model::{
    subtopologies, Assignment, Config, JoinMetadata, MemberId, Roster, Scenario, Task, TaskId,
};
use backlog::Backlog;
use changelog::Log;
use coordinator::{Cause, Coordinator, Round};
pub use member::{CommandError, LeaveReason};
use member::{Member, Store, Transition};
use replay::Pending;
use restart::RollingRestart;
use std::rc::Rc;
use streams::StreamsGroup;

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
        /// The members receiving it that it changed, in member order ([`Round::changed`]).
        changed: Vec<MemberId>,
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
    /// A member's process stopped for a restart.
    MemberRestarted(MemberId),
    /// A restarted member is back: with static membership and within its session, it runs
    /// its tasks again; otherwise it joins the group as a new member.
    MemberReturned(MemberId),
    /// The session of a restarted member timed out: the coordinator removed it (it was still
    /// away) or the identity it had before its restart (it came back as a new member).
    SessionTimedOut(MemberId),
    /// Every live member of this zone crashed at once (their crashes follow).
    ZoneCrashed(String),
    /// The last member of a rolling restart is back and the group is at rest.
    RollingRestartFinished,
    /// The group came to rest: no learner, no rebalance pending, every task running.
    AtRest,
}

/// Timers the engine waits on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Timer {
    JoinDeadline,
    /// Members whose heartbeat falls now learn of the round and rejoin.
    Rejoin,
    Sync,
    /// The session of a member that crashed or closed without leaving times out.
    SessionEnds(MemberId),
    DrainDeadline(MemberId),
    Probing,
    /// A restarted member is back; `restart` is the number of the restart it ends.
    Return {
        member: MemberId,
        restart: u32,
    },
    /// The session of a restarted member times out; `restart` as above.
    SessionExpiry {
        member: MemberId,
        restart: u32,
    },
    /// A member's heartbeat under the streams protocol that changes something.
    StreamsHeartbeat(MemberId),
    /// A member's heartbeat under trunk's streams protocol that only reports its offsets:
    /// moot once no move waits for the refiner.
    StreamsReport(MemberId),
    /// An empty streams group's delayed first assignment.
    DelayedAssignment,
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
    /// Records replayed by learners (and warm-ups), up to each member's anchor
    /// ([`Engine::replayed`] adds what was replayed since).
    pub replayed_by_learners: f64,
    /// Records replayed by active owners restoring before they could process.
    pub replayed_by_actives: f64,
    /// Records replayed by standbys.
    pub replayed_by_standbys: f64,
    /// When the first command arrived.
    pub first_command_at: Option<u64>,
    /// When the group last came to rest (`None` while it is not at rest).
    pub rest_since: Option<u64>,
    /// Each task's input backlog, as of the last time it started or stopped being processed
    /// ([`Engine::backlog`] reads it now).
    pub backlog: Vec<Backlog>,
}

/// The state of the simulated system at one moment.
#[derive(Clone, Debug, PartialEq)]
pub struct Engine {
    config: Config,
    roster: Roster,
    /// The tasks, as the scenario gives them (shared by every snapshot).
    tasks: Rc<[Task]>,
    /// Each task's subtopology as the leader groups them (shared by every snapshot).
    subtopologies: Rc<[u32]>,
    /// Each task's changelog end, as of the moment its task last started or stopped being
    /// processed.
    logs: Vec<Log>,
    /// Every member that ever joined, each shared with the snapshots that hold it unchanged.
    members: Vec<Rc<Member>>,
    /// When the coordinator last answered each member's JoinGroup (or it joined or came
    /// back): its heartbeats fall every `heartbeat.interval.ms` from then. Kept beside the
    /// members, not in them, so that a round, which sets it for every member, copies none of
    /// them out of the snapshots that share them.
    heartbeat_from: Vec<u64>,
    /// How many members are alive or restarting (a task nobody runs counts as down only
    /// then).
    present: usize,
    owner: Vec<Option<MemberId>>,
    last_owner: Vec<Option<MemberId>>,
    up: Vec<bool>,
    /// The moment being looked at.
    time: u64,
    coordinator: Coordinator,
    timers: Vec<(u64, Timer)>,
    tally: Tally,
    /// The rolling restart under way: part of the state, so that scrubbing and forks replay
    /// it like everything else.
    rolling: Option<RollingRestart>,
    /// The members that revoked tasks in the last assignment: they rejoin the follow-up round
    /// at once.
    revoked_last: Vec<MemberId>,
    /// What the last reading of the tasks' status saw.
    readings: Readings,
    /// Who must be read again, and when the next replay threshold is.
    pending: Pending,
    /// What changed since the history last asked, while it asks.
    changes: Journal,
    /// The broker's streams group, under the strategies of Kafka's streams protocol.
    streams: Option<Box<StreamsGroup>>,
    /// While a history replays a stretch it simulated before: its rounds as they went then,
    /// so that the replay applies them instead of working them out again.
    recorded: Recorded,
}

/// The members and tasks changed since the history last asked ([`Engine::take_changes`]):
/// what its invariant checks read again after a step.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Changes {
    /// Members whose roles, stores or life changed, in the order they were touched.
    pub members: Vec<MemberId>,
    /// Tasks whose owner changed.
    pub tasks: Vec<TaskId>,
}

/// What the engine holds beside its state, for a reader or a replay: two engines with the
/// same state are equal whatever they hold here.
#[derive(Clone, Debug, Default)]
struct Aside<T>(T);

impl<T> PartialEq for Aside<T> {
    fn eq(&self, _: &Aside<T>) -> bool {
        true
    }
}

/// [`Changes`] kept only while someone reads them (a history's live engine, not its views of
/// the past).
type Journal = Aside<Option<Changes>>;

/// What a replay applies as recorded ([`Engine::replay_to`]).
type Recorded = Aside<Replaying>;

/// The rounds of a stretch simulated before, while a history replays it.
#[derive(Clone, Debug, Default)]
struct Replaying {
    /// Rounds still to assign, in order.
    rounds: std::collections::VecDeque<RecordedRound>,
    /// The round assigned from its record and syncing now, with the members it changed.
    syncing: Option<(u32, Vec<MemberId>)>,
}

/// A round as a history recorded it, for a replay to apply rather than compute again.
#[derive(Clone, Debug)]
pub struct RecordedRound {
    /// The round's index.
    pub index: u32,
    /// The moment its leader assigned.
    pub assigned_at: u64,
    /// What the members reported as they joined.
    pub joined: Vec<Rc<JoinMetadata>>,
    /// What the leader gave them.
    pub assignment: Assignment,
    /// The members it changed when they received it ([`Round::changed`]); `None` if the
    /// history has not synced it.
    pub changed: Option<Vec<MemberId>>,
}

/// What [`Engine::refresh_status`] last saw, so that it reads again only the tasks whose
/// status can have changed since: a task that was up stays up while its owner stays the same
/// member in the same state (its store follows its changelog). Derived from the rest of the
/// state, so it plays no part in comparing two engines.
#[derive(Clone, Debug, Default)]
struct Readings {
    /// Whether some member was alive or restarting (`None`: never read).
    any_alive: Option<bool>,
    /// The tasks down, in task order.
    down: Vec<TaskId>,
    /// The tasks whose owner changed since.
    moved: Vec<TaskId>,
}

impl PartialEq for Readings {
    fn eq(&self, _: &Readings) -> bool {
        true
    }
}

impl Engine {
    /// The state at time 0: initial members running their initial tasks, caught up. If
    /// some task has no owner and someone could take it, the first round starts at once.
    pub fn new(scenario: &Scenario, out: &mut Vec<Event>) -> Engine {
        let n = scenario.tasks.len();
        let mut engine = Engine {
            config: scenario.config.clone(),
            roster: Roster {
                tasks: scenario
                    .tasks
                    .iter()
                    .map(|t| t.name.as_str().into())
                    .collect(),
                members: Vec::new(),
                subtopologies: scenario.topology.as_ref().map_or_else(Vec::new, |t| {
                    t.subtopologies.iter().map(|s| s.name.clone()).collect()
                }),
            },
            tasks: scenario.tasks.as_slice().into(),
            subtopologies: subtopologies(scenario.tasks.iter().map(|t| t.name.as_str())).into(),
            logs: scenario
                .tasks
                .iter()
                .map(|t| Log::new(t.changelog))
                .collect(),
            members: Vec::new(),
            heartbeat_from: Vec::new(),
            present: 0,
            owner: vec![None; n],
            last_owner: vec![None; n],
            up: vec![false; n],
            time: 0,
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
                backlog: vec![Backlog::default(); n],
            },
            rolling: None,
            revoked_last: Vec::new(),
            readings: Readings::default(),
            pending: Pending::default(),
            changes: Journal::default(),
            streams: None,
            recorded: Recorded::default(),
        };
        for spec in &scenario.members {
            engine.add_member(spec);
        }
        if let Some(initial) = &scenario.initial {
            for (t, owner) in initial.iter().enumerate() {
                if let Some(m) = *owner {
                    let task = TaskId(t as u32);
                    let end = engine.logs[t].end;
                    engine.own(m, task);
                    let stateful = engine.tasks[t].stateful;
                    let member = engine.member_mut(m);
                    member.last_assigned.push(task);
                    if stateful {
                        member.stores.insert(task, Store::at(end));
                    }
                    engine.last_owner[t] = Some(m);
                }
            }
            engine.coordinator = Coordinator::led_by(engine.members.first().map(|_| MemberId(0)));
            engine.place_initial_standbys();
        }
        for i in 0..engine.members.len() {
            engine.deal_threads(MemberId(i as u32));
        }
        engine.start_streams_group(scenario.initial.is_some());
        let unowned = engine.owner.iter().any(Option::is_none);
        if unowned && !engine.members.is_empty() {
            engine.trigger(Cause::Startup);
        }
        engine.settle(out);
        engine
    }

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
    pub fn members(&self) -> &[Rc<Member>] {
        &self.members
    }

    /// A member to change: a copy of its own if a snapshot still holds it as it was.
    pub(super) fn member_mut(&mut self, id: MemberId) -> &mut Member {
        Rc::make_mut(&mut self.members[id.index()])
    }

    /// One member.
    pub fn member(&self, id: MemberId) -> &Member {
        &self.members[id.index()]
    }

    /// A member takes a task as its active owner. With [`Engine::stop_task`], the only writer
    /// of ownership: the engine's owner of each task and the member's active tasks change
    /// together, and `history::invariants` checks that they agree.
    fn own(&mut self, id: MemberId, task: TaskId) {
        self.touch(id);
        self.note_task_change(task);
        let active = &mut self.member_mut(id).active;
        let pos = active.partition_point(|&x| x < task);
        active.insert(pos, task);
        self.owner[task.index()] = Some(id);
        self.readings.moved.push(task);
    }

    /// A member stops running a task: it has no owner until one starts it.
    fn stop_task(&mut self, id: MemberId, task: TaskId, out: &mut Vec<Event>) {
        self.keep_store_at_end(id, task);
        self.touch(id);
        self.note_task_change(task);
        self.member_mut(id).active.retain(|&x| x != task);
        self.owner[task.index()] = None;
        self.readings.moved.push(task);
        out.push(self.event(EventKind::TaskStopped(task, id)));
    }

    /// Starts keeping the members and tasks that change, for [`Engine::take_changes`].
    pub fn keep_changes(&mut self) {
        self.changes.0.get_or_insert_with(Changes::default);
    }

    /// Stops keeping them (a view of the past has nobody to read them).
    pub fn drop_changes(&mut self) {
        self.changes.0 = None;
    }

    /// What changed since the last call (nothing unless [`Engine::keep_changes`] was called).
    pub fn take_changes(&mut self) -> Changes {
        self.changes
            .0
            .as_mut()
            .map(std::mem::take)
            .unwrap_or_default()
    }

    pub(super) fn note_task_change(&mut self, task: TaskId) {
        if let Some(changes) = &mut self.changes.0 {
            changes.tasks.push(task);
        }
    }

    pub(super) fn note_member_change(&mut self, id: MemberId) {
        if let Some(changes) = &mut self.changes.0 {
            changes.members.push(id);
        }
    }

    /// The member running (or restoring) a task as its active owner.
    pub fn owner(&self, task: TaskId) -> Option<MemberId> {
        self.owner[task.index()]
    }

    /// Whether a task is being processed right now.
    pub fn is_up(&self, task: TaskId) -> bool {
        self.up[task.index()]
    }

    /// The coordinator's state: generation, round in progress, pending causes.
    pub fn coordinator(&self) -> &Coordinator {
        &self.coordinator
    }

    /// The running totals behind the metrics.
    pub fn tally(&self) -> &Tally {
        &self.tally
    }

    /// Whether any member is alive.
    pub fn anyone_alive(&self) -> bool {
        self.members.iter().any(|m| m.status.alive())
    }

    /// At rest: no round running or pending (nor a probing rebalance scheduled), nobody
    /// draining, restarting or crashed unnoticed, no learner, no rolling restart under way, and
    /// every task processed (when anyone is alive to process it).
    pub fn at_rest(&self) -> bool {
        self.rolling.is_none() && self.quiet()
    }

    /// At rest but for a rolling restart under way: the moment it restarts its next member.
    pub(super) fn quiet(&self) -> bool {
        self.coordinator.round().is_none()
            && self.coordinator.pending().is_empty()
            && !self.coordinator.holds_stale_session()
            && !self.timers.iter().any(|(_, t)| {
                matches!(
                    t,
                    Timer::Probing | Timer::StreamsHeartbeat(_) | Timer::DelayedAssignment
                )
            })
            && (!self
                .timers
                .iter()
                .any(|(_, t)| matches!(t, Timer::StreamsReport(_)))
                || !self.streams_refining())
            && self.streams_settled()
            && self.members.iter().all(|m| {
                let waiting =
                    m.status.restarting() || m.status.leaving() || m.status.gone_unnoticed();
                !waiting && (!m.status.alive() || m.learning.is_empty())
            })
            && (!self.anyone_alive() || self.up.iter().all(|&u| u))
    }

    /// How evenly the members that stay share the work, by Kafka Streams' measures: active
    /// tasks, stateful active tasks and stateful replicas (active, learner, standby) per unit
    /// of capacity.
    pub fn skew(&self) -> Skew {
        let staying: Vec<&Rc<Member>> = self.members.iter().filter(|m| m.status.live()).collect();
        let stateful = |t: &TaskId| self.tasks[t.index()].stateful;
        let loads: Vec<MemberLoad> = staying
            .iter()
            .map(|m| {
                let stateful_active = m.active.iter().filter(|t| stateful(t)).count();
                MemberLoad {
                    capacity: m.capacity,
                    zone: m.zone.clone(),
                    active: m.active.len(),
                    stateful_active,
                    stateful_replicas: stateful_active
                        + m.learning
                            .iter()
                            .chain(&m.standby)
                            .filter(|t| stateful(t))
                            .count(),
                }
            })
            .collect();
        let zoned = zones_in_use(
            self.config.rack_aware_standbys,
            staying.iter().map(|m| m.zone.as_deref()),
        );
        let stateful_tasks = self.tasks.iter().filter(|t| t.stateful).count();
        Skew::of(&loads, stateful_tasks, zoned)
    }

    /// Whether the work is balanced (docs/design.md, rule 8): each measure of [`Engine::skew`]
    /// is at most 1.
    pub fn balanced(&self) -> bool {
        self.skew().balanced()
    }

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
                self.touch_due();
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

    /// [`Engine::advance_to`] over a stretch simulated before, its rounds' reports,
    /// assignments and the members each changed (`rounds`, in order, from the one syncing
    /// now if any) applied as they were recorded instead of worked out again: all are
    /// deterministic, and the costliest steps of a large group's replay.
    pub fn replay_to(
        &mut self,
        time: u64,
        rounds: impl IntoIterator<Item = RecordedRound>,
        out: &mut Vec<Event>,
    ) {
        let syncing = self
            .coordinator
            .round()
            .filter(|r| matches!(r.phase, coordinator::Phase::Syncing { .. }))
            .map(|r| r.index);
        for round in rounds {
            if Some(round.index) == syncing {
                self.recorded.0.syncing = round.changed.map(|changed| (round.index, changed));
            } else {
                self.recorded.0.rounds.push_back(round);
            }
        }
        self.advance_to(time, out);
        // A replay may stop mid-round and go on live, from another branch.
        self.recorded.0 = Replaying::default();
    }

    /// Round `index` as recorded, assigned now, if the replay has it; the members it
    /// changed are kept for its sync ([`Engine::recorded_changes`]).
    pub(super) fn recorded_round(&mut self, index: u32) -> Option<RecordedRound> {
        let now = self.time;
        let rounds = &mut self.recorded.0.rounds;
        while let Some(r) = rounds.front() {
            if r.assigned_at > now || (r.assigned_at == now && r.index >= index) {
                break;
            }
            rounds.pop_front();
        }
        let mut round = rounds
            .front()
            .is_some_and(|r| r.index == index && r.assigned_at == now)
            .then(|| rounds.pop_front())
            .flatten()?;
        self.recorded.0.syncing = round.changed.take().map(|changed| (index, changed));
        Some(round)
    }

    /// The members round `index`, syncing now, changed when the history simulated it, if
    /// the replay assigned it from its record.
    pub(super) fn recorded_changes(&mut self, index: u32) -> Option<Vec<MemberId>> {
        self.recorded
            .0
            .syncing
            .take()
            .filter(|&(i, _)| i == index)
            .map(|(_, changed)| changed)
    }

    pub(super) fn event(&self, kind: EventKind) -> Event {
        Event {
            at: self.time,
            kind,
        }
    }

    /// Fires the timers due now, in a fixed order.
    pub(super) fn fire_due(&mut self, out: &mut Vec<Event>) {
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
                Timer::SessionEnds(id) => {
                    let status = self.members[id.index()].status;
                    if status.gone_unnoticed() {
                        self.transition(id, Transition::SessionOver);
                        if status.crashed() {
                            out.push(self.event(EventKind::CrashDetected(id)));
                            self.trigger(Cause::CrashDetected(id));
                        } else {
                            out.push(self.event(EventKind::SessionTimedOut(id)));
                            self.trigger(Cause::Closed(id));
                        }
                    }
                }
                Timer::DrainDeadline(id) => {
                    let member = &self.members[id.index()];
                    if member.status.leaving() {
                        self.leave(id, LeaveReason::Timeout, out);
                        self.trigger(Cause::ScaleDownTimeout(id));
                    }
                }
                Timer::Probing => self.trigger(Cause::Probing),
                Timer::Return { member, restart } => self.come_back(member, restart, out),
                Timer::SessionExpiry { member, restart } => {
                    self.expire_session(member, restart, out);
                }
                Timer::Rejoin => self.rejoin_at_heartbeat(out),
                Timer::StreamsHeartbeat(id) => self.streams_heartbeat(id, out),
                Timer::StreamsReport(id) => self.streams_report(id, out),
                Timer::DelayedAssignment => self.run_delayed_assignment(out),
                Timer::JoinDeadline => {}
            }
        }
        self.try_close_join(out);
    }

    /// Brings everything else up to date at the current time: learners that became ready,
    /// a round to start, the join phase to close, tasks that went up or down.
    pub(super) fn settle(&mut self, out: &mut Vec<Event>) {
        self.note_ready_learners(out);
        // A task handed over by a sync is up, even if the next round releases it again at
        // the same moment: record both.
        self.refresh_status(out);
        // Whether the coordinator changed anything since: if not, the tasks' status and the
        // tally are what `refresh_status` just made them, and reading them again would change
        // nothing.
        let mut changed = false;
        if self.coordinator.round().is_none() && !self.coordinator.pending().is_empty() {
            if self.participants().is_empty() {
                // Nobody to run a round: the causes wait for a restarting member to come
                // back, or are moot.
                let returning = self.members.iter().any(|m| m.status.restarting());
                if !returning {
                    self.coordinator.drop_pending();
                    changed = true;
                }
            } else {
                self.start_round(out);
                changed = true;
            }
        }
        changed |= self.try_close_join(out);
        if changed {
            self.refresh_status(out);
        }
        if self.rolling.is_some() {
            self.continue_rolling_restart(out);
            self.refresh_status(out);
        }
        self.refresh_rates();
    }

    /// Recomputes which tasks are processed and keeps the downtime tally: a task is down
    /// while nobody processes it and some member is alive or restarting (a group whose
    /// only member restarts is down because of the restart). Reads the tasks that were down,
    /// changed owner, or whose owner changed state since the last reading: no other task's
    /// status or tally can have changed.
    pub(super) fn refresh_status(&mut self, out: &mut Vec<Event>) {
        let alive = self.present > 0;
        let now = self.time;
        let mut down = Vec::new();
        for task in self.status_to_read(alive) {
            let t = task.index();
            let up = self.owner[t].is_some_and(|o| {
                self.members[o.index()].status.alive()
                    && (!self.tasks[t].stateful || self.caught_up(o, task))
            });
            if !up {
                down.push(task);
            }
            if up != self.up[t] {
                self.processing_changes(task);
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
        self.readings.down = down;
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

    /// Forgets what the last reading of the tasks' status saw: the next reads every task.
    #[cfg(test)]
    pub(super) fn forget_readings(&mut self) {
        self.readings = Readings::default();
    }

    /// The tasks whose status can have changed since the last reading, in task order: every
    /// task at the first reading or when whether some member is alive changed; otherwise those
    /// down, those whose owner changed, and those of a member whose state changed (each
    /// change of a member's life marks its tasks).
    fn status_to_read(&mut self, any_alive: bool) -> Vec<TaskId> {
        let r = &mut self.readings;
        if r.any_alive != Some(any_alive) {
            r.any_alive = Some(any_alive);
            r.moved.clear();
            return (0..self.tasks.len()).map(|t| TaskId(t as u32)).collect();
        }
        let mut read = std::mem::take(&mut r.down);
        read.append(&mut r.moved);
        read.sort();
        read.dedup();
        read
    }
}

#[cfg(test)]
mod tests;
