//! The members as the simulation runs them (what each owns in each role, its local state
//! stores, where it is in its life), the commands a person gives them (join, crash, drain:
//! docs/design.md, rules 6 and 7; restarts and zone outages are carried out in `restart.rs`)
//! and their readiness to rejoin (rule 5).

use super::cause::Cause;
use super::threads::Thread;
use super::{Engine, Event, EventKind, Timer};
use crate::model::{
    Command, MemberId, MemberSpec, Readiness, Strategy, TaskId, MAX_DOWN_MS, MAX_THREADS,
};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::rc::Rc;
use thiserror::Error;

/// Where a member is in its life, with the moments that matter there; its name (`live`,
/// `leaving`, ...) is what the UI and tests read (`data-state`). It changes only through
/// [`Member::transition`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, strum::IntoStaticStr)]
#[strum(serialize_all = "snake_case")]
pub enum MemberStatus {
    /// Running normally, in the group since `joined_at`.
    Live {
        /// When it joined the group (the longest-standing live member leads).
        joined_at: u64,
    },
    /// Draining: it was told to leave and gets no new work; in the group since `joined_at`.
    Leaving {
        /// When it joined the group.
        joined_at: u64,
    },
    /// Killed at `at`. The coordinator counts it as a member until its session times out.
    Crashed {
        /// When it crashed.
        at: u64,
        /// The coordinator has not noticed yet: it still counts as a member.
        in_group: bool,
    },
    /// Shut down at `at` by its operator, without leaving the group: Kafka Streams sends no
    /// LeaveGroup when it closes, so the coordinator counts it until its session times out.
    Closed {
        /// When it closed.
        at: u64,
        /// Its session has not timed out yet: it still counts as a member.
        in_group: bool,
    },
    /// Its process stopped; the absence says since when, when it is back, and whether its
    /// stores survive. While `joined_at` is set the coordinator still counts it as a member
    /// (its session has not timed out).
    Restarting {
        /// The restart.
        absence: Absence,
        /// When it joined the group, while the coordinator still counts it.
        joined_at: Option<u64>,
    },
    /// Left the group after draining (or at its scale-down timeout, or at once).
    Left,
}

impl MemberStatus {
    /// The name the UI and tests use (`data-state`).
    pub fn name(self) -> &'static str {
        self.into()
    }

    /// Whether the member is running (live or draining).
    pub fn alive(self) -> bool {
        matches!(
            self,
            MemberStatus::Live { .. } | MemberStatus::Leaving { .. }
        )
    }

    /// Whether it is running and not draining.
    pub fn live(self) -> bool {
        matches!(self, MemberStatus::Live { .. })
    }

    /// Whether it is draining.
    pub fn leaving(self) -> bool {
        matches!(self, MemberStatus::Leaving { .. })
    }

    /// Whether it crashed (noticed or not).
    pub fn crashed(self) -> bool {
        matches!(self, MemberStatus::Crashed { .. })
    }

    /// Whether it stopped, crashed or closed, and the coordinator still counts it.
    pub fn gone_unnoticed(self) -> bool {
        matches!(
            self,
            MemberStatus::Crashed { in_group: true, .. }
                | MemberStatus::Closed { in_group: true, .. }
        )
    }

    /// Whether its process is stopped for a restart.
    pub fn restarting(self) -> bool {
        matches!(self, MemberStatus::Restarting { .. })
    }

    /// The restart in progress, while it is restarting.
    pub fn absence(self) -> Option<Absence> {
        match self {
            MemberStatus::Restarting { absence, .. } => Some(absence),
            _ => None,
        }
    }

    /// When it joined the group, while the coordinator counts it as a member; `None` once it
    /// left, was removed, or crashed.
    pub fn joined_at(self) -> Option<u64> {
        match self {
            MemberStatus::Live { joined_at } | MemberStatus::Leaving { joined_at } => {
                Some(joined_at)
            }
            MemberStatus::Restarting { joined_at, .. } => joined_at,
            MemberStatus::Crashed { .. } | MemberStatus::Closed { .. } | MemberStatus::Left => None,
        }
    }

    /// Whether the coordinator counts it as a member (joined, not yet removed).
    pub fn in_group(self) -> bool {
        match self {
            MemberStatus::Crashed { in_group, .. } | MemberStatus::Closed { in_group, .. } => {
                in_group
            }
            other => other.joined_at().is_some(),
        }
    }

    /// Whether the coordinator waits for it in a join phase: counted as a member but silent
    /// (crashed or restarting before its session timed out).
    pub fn silent_in_group(self) -> bool {
        self.in_group() && matches!(self, Self::Crashed { .. } | Self::Restarting { .. })
    }
}

/// The ways a member's life changes, each carried out whole by [`Member::transition`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Transition {
    /// Told to drain: it stays in the group and gets no new work.
    Drain,
    /// Killed.
    Crash,
    /// The coordinator noticed its crash, or that its session after it closed timed out, and
    /// removed it.
    SessionOver,
    /// Shut down without leaving the group (a drain under Kafka's classic strategies).
    Close,
    /// It left the group (drained, at its deadline, or at once).
    Leave,
    /// Its process stops until the absence ends; without its identity kept (dynamic
    /// membership) it learns and keeps nothing meanwhile.
    Restart {
        /// The restart.
        absence: Absence,
        /// The coordinator keeps its identity and assignment (static membership).
        keeps_identity: bool,
    },
    /// Back from a restart: with its identity (static membership within its session) it runs
    /// its assignment again; otherwise it joins as a new member.
    Return {
        /// It keeps the identity (and assignment) it had.
        keeps_identity: bool,
    },
    /// The coordinator removed it while it was away.
    SessionExpired,
}

/// A restart in progress: when the member went away, when it is back, and whether its stores
/// survive.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Absence {
    /// When its process stopped.
    pub since: u64,
    /// When it is back.
    pub back_at: u64,
    /// Its stores survive (a persistent disk); without, it comes back with nothing.
    pub keep_state: bool,
}

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

/// One changelog a member replays, with the rate it gets.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Replay {
    /// The task.
    pub task: TaskId,
    /// Why.
    pub kind: ReplayKind,
    /// Records behind the end, as of the member's anchor.
    pub lag: f64,
    /// Records per second appended to the changelog right now.
    pub write_rate: f64,
    /// Records per second this replay gets from the member's restore rate.
    pub rate: f64,
}

/// A local state store: how far into the task's changelog it has replayed, as of its member's
/// anchor (the engine's `lag` reads it now).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Store {
    /// Records of the changelog applied to this store.
    pub position: f64,
    /// When its member stopped holding its task in any role: the instance's state cleaner
    /// deletes it once it has been left `state.cleanup.delay.ms`.
    pub released_at: Option<u64>,
}

impl Store {
    /// A store held by its member, at `position`.
    pub fn at(position: f64) -> Store {
        Store {
            position,
            released_at: None,
        }
    }
}

/// A member of the group.
#[derive(Clone, Debug, PartialEq)]
pub struct Member {
    /// Its name, such as `S4`.
    pub name: String,
    /// Its capacity: actives are balanced in proportion to it.
    pub capacity: u32,
    /// Its availability zone, if the scenario uses zones.
    pub zone: Option<String>,
    /// Records per second each of its stream threads restores (each thread has its own
    /// restore consumer), shared by what that thread replays.
    pub restore_rate: f64,
    /// What each of its stream threads (its capacity) runs and replicates.
    pub threads: Vec<Thread>,
    /// When its process started: its state cleaner runs every `state.cleanup.delay.ms` from
    /// then.
    pub(super) started_at: u64,
    /// Where it is in its life.
    pub status: MemberStatus,
    /// Tasks it runs (or restores as their active owner), sorted.
    pub active: Vec<TaskId>,
    /// Tasks it learns, sorted.
    pub learning: Vec<TaskId>,
    /// Tasks it keeps a standby of, sorted.
    pub standby: Vec<TaskId>,
    /// Its active tasks that a learner replays (from its last assignment).
    pub learned: Vec<TaskId>,
    /// The active tasks of its last assignment; what it released since is `revoked`.
    pub last_assigned: Vec<TaskId>,
    /// Its local state stores, including leftovers of tasks it no longer has.
    pub stores: BTreeMap<TaskId, Store>,
    /// Learners that are ready now (within the acceptable recovery lag).
    pub ready: Vec<TaskId>,
    /// Ready learners it already rejoined for, so it rejoins once for each.
    pub reported: Vec<TaskId>,
    /// Restarts so far: the timers of a restart carry its number, so that those of an
    /// earlier restart do nothing.
    pub restarts: u32,
    /// What it replays and at what rate, as of `anchor`.
    pub(super) replays: Vec<Replay>,
    /// When its stores were last brought up to date. Between events they move linearly at
    /// `replays`, so they are only updated at events and commands that change what it
    /// replays: the arithmetic, and so the history, is the same wherever a person stops the
    /// clock.
    pub(super) anchor: u64,
}

impl Member {
    /// A member that just joined as `spec` says, holding nothing.
    pub fn new(spec: &MemberSpec, restore_rate: f64, joined_at: u64) -> Member {
        Member {
            name: spec.name.clone(),
            capacity: spec.capacity,
            zone: spec.zone.clone(),
            restore_rate,
            started_at: joined_at,
            threads: vec![Thread::default(); spec.capacity.max(1) as usize],
            status: MemberStatus::Live { joined_at },
            active: Vec::new(),
            learning: Vec::new(),
            standby: Vec::new(),
            learned: Vec::new(),
            last_assigned: Vec::new(),
            stores: BTreeMap::new(),
            ready: Vec::new(),
            reported: Vec::new(),
            restarts: 0,
            replays: Vec::new(),
            anchor: joined_at,
        }
    }

    /// Changes where the member is in its life, and everything that goes with it: what it no
    /// longer learns, keeps or reports. Its active tasks are the engine's to stop first (the
    /// engine's record of ownership changes with them).
    pub(crate) fn transition(&mut self, transition: Transition, now: u64) {
        let joined_at = self.status.joined_at();
        match transition {
            Transition::Drain => {
                self.status = MemberStatus::Leaving {
                    joined_at: joined_at.unwrap_or(now),
                };
            }
            Transition::Crash => {
                self.status = MemberStatus::Crashed {
                    at: now,
                    in_group: self.status.in_group(),
                };
                self.forget_replicas();
            }
            Transition::SessionOver => match self.status {
                MemberStatus::Crashed { at, .. } => {
                    self.status = MemberStatus::Crashed {
                        at,
                        in_group: false,
                    };
                }
                MemberStatus::Closed { at, .. } => {
                    self.status = MemberStatus::Closed {
                        at,
                        in_group: false,
                    };
                }
                _ => {}
            },
            Transition::Close => {
                self.status = MemberStatus::Closed {
                    at: now,
                    in_group: self.status.in_group(),
                };
                self.forget_replicas();
            }
            Transition::Leave => {
                self.status = MemberStatus::Left;
                self.forget_replicas();
            }
            Transition::Restart {
                absence,
                keeps_identity,
            } => {
                self.status = MemberStatus::Restarting { absence, joined_at };
                self.restarts += 1;
                if keeps_identity {
                    self.ready.clear();
                    self.reported.clear();
                } else {
                    self.forget_replicas();
                }
            }
            Transition::Return { keeps_identity } => {
                self.started_at = now;
                self.status = MemberStatus::Live {
                    joined_at: joined_at.filter(|_| keeps_identity).unwrap_or(now),
                };
                if !keeps_identity {
                    self.last_assigned.clear();
                    self.learned.clear();
                }
            }
            Transition::SessionExpired => {
                if let MemberStatus::Restarting { absence, .. } = self.status {
                    self.status = MemberStatus::Restarting {
                        absence,
                        joined_at: None,
                    };
                }
                self.forget_replicas();
            }
        }
    }

    /// It learns, keeps and reports nothing more.
    fn forget_replicas(&mut self) {
        self.learning.clear();
        self.standby.clear();
        self.learned.clear();
        self.ready.clear();
        self.reported.clear();
    }

    /// What it released since its last assignment.
    pub fn revoked(&self) -> Vec<TaskId> {
        self.last_assigned
            .iter()
            .copied()
            .filter(|t| self.active.binary_search(t).is_err())
            .collect()
    }

    /// Whether it holds a task in any role (runs, learns or keeps a standby of it).
    pub fn holds(&self, task: TaskId) -> bool {
        self.runs(task) || self.learns(task) || self.standby.binary_search(&task).is_ok()
    }

    /// Its store of a task, unless its state cleaner deleted it by `now`: a store no role
    /// holds goes at the first run of the cleaner (every `delay` ms from its start) once it
    /// has been left more than `delay` ms (Kafka's StateDirectory.cleanRemovedTasks).
    pub fn kept_store(&self, task: TaskId, now: u64, delay: u64) -> Option<&Store> {
        self.stores
            .get(&task)
            .filter(|store| self.keeps(store, now, delay))
    }

    /// Whether its store `store` is still on disk at `now` ([`Member::kept_store`]).
    pub fn keeps(&self, store: &Store, now: u64, delay: u64) -> bool {
        let Some(released) = store.released_at else {
            return true;
        };
        let delay = delay.max(1);
        let due = released + delay;
        let runs = due.saturating_sub(self.started_at) / delay + 1;
        let deleted_at = self.started_at + runs * delay;
        deleted_at > now
    }

    /// Whether it runs a task.
    pub fn runs(&self, task: TaskId) -> bool {
        self.active.binary_search(&task).is_ok()
    }

    /// Whether it learns a task.
    pub fn learns(&self, task: TaskId) -> bool {
        self.learning.binary_search(&task).is_ok()
    }
}

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
    /// More stream threads than an instance may run.
    #[error("member {0} has more than {MAX_THREADS} stream threads")]
    TooManyThreads(String),
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
    /// The member is restarting: it is down until it is back.
    #[error("{0} is restarting")]
    Restarting(String),
    /// A draining member is not restarted: it leaves once its tasks have moved.
    #[error("{0} is draining: it leaves once its tasks have moved")]
    Draining(String),
    /// A restart keeps its member away between 1 ms and a day.
    #[error("a restart keeps its member away between 1 ms and a day, not {0} ms")]
    DownTime(u64),
    /// A rolling restart needs live members.
    #[error("no live member to restart")]
    NoLiveMember,
    /// One rolling restart at a time.
    #[error("a rolling restart is already under way")]
    RollingRestartRunning,
    /// No member was ever in this zone.
    #[error("no member is in zone {0}")]
    UnknownZone(String),
    /// Every member of this zone is down already.
    #[error("no live member is left in zone {0}")]
    ZoneDown(String),
}

/// A restart's time away: at least 1 ms, at most [`MAX_DOWN_MS`].
fn check_down_ms(down_ms: u64) -> Result<(), CommandError> {
    if down_ms == 0 || down_ms > MAX_DOWN_MS {
        Err(CommandError::DownTime(down_ms))
    } else {
        Ok(())
    }
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

impl Engine {
    /// Carries out a command at the current time. On error nothing changes.
    pub fn apply(&mut self, command: &Command, out: &mut Vec<Event>) -> Result<(), CommandError> {
        self.check(command)?;
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
            Command::Restart {
                member,
                down_ms,
                keep_state,
            } => {
                let id = self.find_member(member)?;
                self.restart(id, *down_ms, *keep_state, out);
            }
            Command::RollingRestart {
                down_ms,
                keep_state,
            } => self.start_rolling_restart(*down_ms, *keep_state),
            Command::CrashZone(zone) => self.crash_zone(zone, out),
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
                } else if spec.capacity > MAX_THREADS {
                    Err(CommandError::TooManyThreads(spec.name.clone()))
                } else if spec.restore_rate == Some(0) {
                    Err(CommandError::ZeroRestoreRate(spec.name.clone()))
                } else {
                    Ok(())
                }
            }
            Command::Crash(name) => self.check_crash(self.find_member(name)?),
            Command::CrashLeader => self.live_leader().map(|_| ()).ok_or(CommandError::NoLeader),
            Command::Drain(name) => self.check_drain(self.find_member(name)?),
            Command::Restart {
                member, down_ms, ..
            } => {
                check_down_ms(*down_ms)?;
                self.check_restart(self.find_member(member)?)
            }
            Command::RollingRestart { down_ms, .. } => {
                check_down_ms(*down_ms)?;
                if self.rolling_restart().is_some() {
                    Err(CommandError::RollingRestartRunning)
                } else if self.rolling_restart_order().is_empty() {
                    Err(CommandError::NoLiveMember)
                } else {
                    Ok(())
                }
            }
            Command::CrashZone(zone) => {
                let in_zone = |m: &&Rc<Member>| m.zone.as_deref() == Some(zone.as_str());
                if !self.members.iter().any(|m| in_zone(&m)) {
                    Err(CommandError::UnknownZone(zone.clone()))
                } else if !self
                    .members
                    .iter()
                    .filter(in_zone)
                    .any(|m| m.status.alive())
                {
                    Err(CommandError::ZoneDown(zone.clone()))
                } else {
                    Ok(())
                }
            }
        }
    }

    /// Whether member `id` could be crashed now: [`Engine::check`] of a crash, for a member
    /// already known by id (the playground asks this of every member on every frame).
    pub fn check_crash(&self, id: MemberId) -> Result<(), CommandError> {
        self.check_alive(id)
    }

    /// Whether member `id` could be drained now (see [`Engine::check_crash`]).
    pub fn check_drain(&self, id: MemberId) -> Result<(), CommandError> {
        self.check_staying(id, CommandError::AlreadyDraining)
    }

    /// Whether member `id` could be restarted now, for a valid time away (see
    /// [`Engine::check_crash`]).
    pub fn check_restart(&self, id: MemberId) -> Result<(), CommandError> {
        self.check_staying(id, CommandError::Draining)
    }

    /// Alive and not draining; a draining member is refused with `leaving` of its name.
    fn check_staying(
        &self,
        id: MemberId,
        leaving: fn(String) -> CommandError,
    ) -> Result<(), CommandError> {
        self.check_alive(id)?;
        let member = &self.members[id.index()];
        if member.status.leaving() {
            Err(leaving(member.name.clone()))
        } else {
            Ok(())
        }
    }

    pub(super) fn find_member(&self, name: &str) -> Result<MemberId, CommandError> {
        self.roster
            .member_id(name)
            .ok_or_else(|| CommandError::UnknownMember(name.to_string()))
    }

    pub(super) fn check_alive(&self, id: MemberId) -> Result<(), CommandError> {
        let member = &self.members[id.index()];
        match member.status {
            MemberStatus::Crashed { .. } => Err(CommandError::AlreadyCrashed(member.name.clone())),
            MemberStatus::Left | MemberStatus::Closed { .. } => {
                Err(CommandError::AlreadyLeft(member.name.clone()))
            }
            MemberStatus::Restarting { .. } => Err(CommandError::Restarting(member.name.clone())),
            MemberStatus::Live { .. } | MemberStatus::Leaving { .. } => Ok(()),
        }
    }

    pub(super) fn note_command(&mut self) {
        self.tally.first_command_at.get_or_insert(self.time);
    }

    pub(super) fn add_member(&mut self, spec: &MemberSpec) -> MemberId {
        let id = MemberId(self.members.len() as u32);
        let rate = spec.restore_rate.unwrap_or(self.config.restore_rate) as f64;
        self.members
            .push(Rc::new(Member::new(spec, rate, self.time)));
        self.heartbeat_from.push(self.time);
        self.roster.members.push(spec.name.clone());
        self.present += 1;
        self.touch(id);
        id
    }

    pub(super) fn crash(&mut self, id: MemberId, out: &mut Vec<Event>) {
        self.stop_all(id, out);
        let now = self.time;
        self.transition(id, Transition::Crash);
        let in_group = self.members[id.index()].status.in_group();
        out.push(self.event(EventKind::MemberCrashed(id)));
        if in_group {
            let at = self.session_ends(id, now);
            self.timers.push((at, Timer::SessionEnds(id)));
        }
    }

    pub(super) fn drain(&mut self, id: MemberId, out: &mut Vec<Event>) {
        let now = self.time;
        out.push(self.event(EventKind::DrainStarted(id)));
        if self.config.strategy == Strategy::Learner {
            self.transition(id, Transition::Drain);
            if let Some(timeout) = self.config.scale_down_timeout_ms {
                self.timers.push((now + timeout, Timer::DrainDeadline(id)));
            }
            self.trigger(Cause::Drain(id));
        } else if self.config.static_membership || self.config.strategy.streams_protocol() {
            // Nothing is pre-warmed. A static member closes with CloseOptions.leaveGroup(true)
            // (KafkaStreams removes it from the group), and under the streams protocol every
            // member leaves as it closes (epoch -1): it leaves at once.
            self.leave(id, LeaveReason::Graceful, out);
            self.trigger(Cause::MemberLeft(id));
        } else {
            // Kafka Streams sends no LeaveGroup when it closes (internal.leave.group.on.close
            // is false): its tasks wait until its session times out.
            self.stop_all(id, out);
            self.transition(id, Transition::Close);
            let at = self.session_ends(id, now);
            self.timers.push((at, Timer::SessionEnds(id)));
        }
    }

    /// Stops everything a member runs; the tasks become orphans.
    pub(super) fn stop_all(&mut self, id: MemberId, out: &mut Vec<Event>) {
        let tasks = self.members[id.index()].active.clone();
        for t in tasks {
            self.stop_task(id, t, out);
        }
    }

    pub(super) fn leave(&mut self, id: MemberId, reason: LeaveReason, out: &mut Vec<Event>) {
        self.stop_all(id, out);
        self.transition(id, Transition::Leave);
        out.push(self.event(EventKind::MemberLeft(id, reason)));
    }

    /// Changes member `id`'s life ([`Member::transition`]): its stores are brought up to now,
    /// its tasks' status is read again and its replays are worked out again.
    pub(super) fn transition(&mut self, id: MemberId, transition: Transition) {
        for t in self.members[id.index()].active.clone() {
            self.keep_store_at_end(id, t);
        }
        self.touch(id);
        let counts = |m: &Member| m.status.alive() || m.status.restarting();
        let now = self.time;
        if matches!(transition, Transition::Return { .. }) {
            self.heartbeat_from[id.index()] = now;
        }
        let member = self.member_mut(id);
        let before = counts(member);
        member.transition(transition, now);
        let after = counts(member);
        let active = member.active.clone();
        self.readings.moved.extend(active);
        self.present = self.present + usize::from(after) - usize::from(before);
    }

    /// Records learners that reached readiness; under the learner design their member
    /// rejoins (rule 5: `eager` at the first ready learner, `stable` when all are). Only the
    /// members touched this step can have a learner newly ready: a learner reaches readiness
    /// at its replay's threshold, or at once when it is handed out.
    pub(super) fn note_ready_learners(&mut self, out: &mut Vec<Event>) {
        let rejoins = self.config.strategy == Strategy::Learner;
        for id in self.touched() {
            let i = id.index();
            if !self.members[i].status.alive() {
                continue;
            }
            if self.members[i].learning.is_empty() {
                // Nothing to be ready for, nothing to report: what the steps below come to.
                if !self.members[i].ready.is_empty() {
                    self.member_mut(id).ready.clear();
                }
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
            let member = self.member_mut(id);
            // A learner that fell behind after its member reported it is reported again
            // when it is ready again: the join in between may have found it behind.
            member.reported.retain(|t| ready_now.contains(t));
            member.ready = ready_now;
            if rejoins && wants_rejoin {
                member.reported.clone_from(&member.ready);
                self.trigger(Cause::LearnerReady(id));
            }
            if !newly.is_empty() {
                self.report_ready_warmups(id);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn member(joined_at: u64) -> Member {
        let spec = MemberSpec {
            name: "S1".into(),
            capacity: 1,
            restore_rate: None,
            zone: None,
        };
        let mut m = Member::new(&spec, 1000.0, joined_at);
        m.learning = vec![TaskId(1)];
        m.standby = vec![TaskId(2)];
        m.learned = vec![TaskId(0)];
        m.last_assigned = vec![TaskId(0)];
        m
    }

    fn away(since: u64) -> Absence {
        Absence {
            since,
            back_at: since + 500,
            keep_state: true,
        }
    }

    #[test]
    fn a_crashed_member_counts_until_the_coordinator_notices() {
        let mut m = member(100);
        m.transition(Transition::Crash, 900);
        assert_eq!(
            m.status,
            MemberStatus::Crashed {
                at: 900,
                in_group: true
            }
        );
        assert!(m.status.silent_in_group() && m.learning.is_empty() && m.standby.is_empty());
        m.transition(Transition::SessionOver, 10_900);
        assert!(!m.status.in_group() && m.status.crashed());
        assert_eq!(m.status.joined_at(), None);
    }

    #[test]
    fn a_drained_member_keeps_its_seniority_until_it_leaves() {
        let mut m = member(100);
        m.transition(Transition::Drain, 900);
        assert_eq!(m.status, MemberStatus::Leaving { joined_at: 100 });
        assert!(m.status.alive() && m.status.in_group());
        m.transition(Transition::Leave, 2000);
        assert_eq!(m.status, MemberStatus::Left);
        assert!(!m.status.in_group() && m.learned.is_empty() && m.learning.is_empty());
    }

    #[test]
    fn a_static_member_back_within_its_session_is_the_same_member() {
        let mut m = member(100);
        let keeps_identity = true;
        m.transition(
            Transition::Restart {
                absence: away(900),
                keeps_identity,
            },
            900,
        );
        assert_eq!(m.restarts, 1);
        assert!(m.status.silent_in_group());
        assert_eq!(m.learning, [TaskId(1)], "its assignment is kept for it");
        m.transition(Transition::Return { keeps_identity }, 1400);
        assert_eq!(m.status, MemberStatus::Live { joined_at: 100 });
        assert_eq!(m.learned, [TaskId(0)]);
    }

    #[test]
    fn a_dynamic_member_comes_back_as_the_newest_member() {
        let mut m = member(100);
        m.transition(
            Transition::Restart {
                absence: away(900),
                keeps_identity: false,
            },
            900,
        );
        assert!(m.learning.is_empty() && m.standby.is_empty());
        assert!(m.status.in_group(), "its old session still counts");
        m.transition(Transition::SessionExpired, 1000);
        assert_eq!(m.status.absence(), Some(away(900)));
        assert!(!m.status.in_group());
        m.transition(
            Transition::Return {
                keeps_identity: false,
            },
            1400,
        );
        assert_eq!(m.status, MemberStatus::Live { joined_at: 1400 });
        assert!(m.last_assigned.is_empty() && m.learned.is_empty());
    }
}
