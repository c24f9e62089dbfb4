//! The broker-side coordinator: the generation, the leader (the longest-standing live member),
//! why a rebalance happens, and the rounds themselves: members rejoin with their metadata, the
//! leader runs the assignor, members receive the assignment at the sync.

use super::member::{LeaveReason, Store};
use super::{Engine, Event, EventKind, Timer};
use crate::assignor::{self, AssignInput};
use crate::model::{
    Assignment, HandoffMode, JoinMetadata, MemberAssignment, MemberId, Strategy, TaskId, TaskInfo,
};
use std::rc::Rc;

pub use super::cause::Cause;

/// One rebalance round as the history keeps it: who joined with what, what the leader
/// decided, and when each phase ended.
#[derive(Clone, Debug, PartialEq)]
pub struct Round {
    /// 1 for the first round of the run, and so on.
    pub index: u32,
    /// The group generation this round created.
    pub generation: u32,
    /// Why it ran (several causes when they arrived during the join phase).
    pub causes: Vec<Cause>,
    /// When the coordinator asked the members to rejoin.
    pub started_at: u64,
    /// When the join phase closed and the leader assigned.
    pub assigned_at: u64,
    /// When the members received their assignment; `None` while syncing or if abandoned.
    pub synced_at: Option<u64>,
    /// The leader crashed before the sync: the assignment never reached the members.
    pub abandoned: bool,
    /// The member that ran the assignor (under the streams protocol, the member whose
    /// heartbeat the coordinator's assignor ran in).
    pub leader: MemberId,
    /// The group coordinator assigned (Kafka's streams protocol, KIP-1071), not a leader.
    pub by_coordinator: bool,
    /// The previous round's leader, when the leadership changed hands.
    pub previous_leader: Option<MemberId>,
    /// What each member reported, in join order (shared with the member's report at an
    /// earlier round when it is the same: a history keeps one copy of it).
    pub joined: Vec<Rc<JoinMetadata>>,
    /// What the leader decided.
    pub assignment: Assignment,
    /// Draining members that shut down on receiving this assignment.
    pub departed: Vec<MemberId>,
    /// The members receiving it that it changed, in member order, once synced: the others
    /// already ran, learned and kept what it gave them, their threads dealt alike, and were
    /// left as they were ([`Engine::already_holds`]). A replay applies this rather than
    /// comparing each member again. Empty under the streams protocol, whose members take
    /// their assignments by heartbeat.
    pub changed: Vec<MemberId>,
}

/// The reports of a round, each behind its own pointer. Built into a vector of their own
/// size: collecting in place would keep the reports' buffer, twenty times larger, for as long
/// as the round is kept.
pub(super) fn shared(joined: Vec<JoinMetadata>) -> Vec<Rc<JoinMetadata>> {
    let mut shared = Vec::with_capacity(joined.len());
    shared.extend(joined.into_iter().map(Rc::new));
    shared
}

impl Round {
    /// The round without what each member reported and was given: what a history's event
    /// list keeps of it, the whole round being in its list of rounds.
    pub fn header(&self) -> Round {
        Round {
            causes: self.causes.clone(),
            joined: Vec::new(),
            assignment: Assignment {
                members: Vec::new(),
                ..self.assignment
            },
            departed: Vec::new(),
            changed: Vec::new(),
            ..*self
        }
    }

    /// The round as known at a moment: a sync (and the departures it caused) after that
    /// moment has not happened yet.
    pub fn as_of(&self, time: u64) -> Round {
        let mut r = self.clone();
        if r.synced_at.is_some_and(|s| s > time) {
            r.synced_at = None;
            r.departed.clear();
            r.changed.clear();
            r.abandoned = false;
        }
        r
    }
}

/// The phase of the round in progress.
#[derive(Clone, Debug, PartialEq)]
pub enum Phase {
    /// Members are rejoining; the round closes its join phase at `deadline` (later if it
    /// waits for a crashed member's session to time out).
    Joining {
        /// When the join phase is due to close.
        deadline: u64,
    },
    /// The leader has assigned; members receive the assignment at `sync_at`.
    Syncing {
        /// When the members receive their assignment.
        sync_at: u64,
        /// The round's record.
        round: Box<Round>,
    },
}

/// The round in progress.
#[derive(Clone, Debug, PartialEq)]
pub struct RoundInProgress {
    /// Its index in the run.
    pub index: u32,
    /// When it started.
    pub started_at: u64,
    /// Why it runs.
    pub causes: Vec<Cause>,
    /// Where it is.
    pub phase: Phase,
}

pub use state::Coordinator;

/// The coordinator's record, changed only through its methods (as raft-rs's
/// `ProgressTracker`): the engine asks it, it does not reach into it.
mod state {
    use super::{Cause, Phase, Round, RoundInProgress};
    use crate::model::MemberId;

    /// What the coordinator keeps between events.
    #[derive(Clone, Debug, Default, PartialEq)]
    pub struct Coordinator {
        generation: u32,
        rounds: u32,
        round: Option<RoundInProgress>,
        pending: Vec<Cause>,
        leader: Option<MemberId>,
        stale_sessions: Vec<(MemberId, u64)>,
    }

    impl Coordinator {
        /// A group that starts stable, led by `leader`.
        pub(crate) fn led_by(leader: Option<MemberId>) -> Coordinator {
            Coordinator {
                leader,
                ..Coordinator::default()
            }
        }

        /// The current generation (0 for a group that starts stable).
        pub fn generation(&self) -> u32 {
            self.generation
        }

        /// The round in progress.
        pub fn round(&self) -> Option<&RoundInProgress> {
            self.round.as_ref()
        }

        /// Causes that arrived while a round was syncing; they start the next round.
        pub fn pending(&self) -> &[Cause] {
            &self.pending
        }

        /// The leader of the last round that assigned.
        pub fn last_leader(&self) -> Option<MemberId> {
            self.leader
        }

        /// Whether it still holds the identity a member had before it came back as a new
        /// member (Kafka Streams sends no LeaveGroup when it closes): a join phase waits for
        /// it until its session times out.
        pub fn holds_stale_session(&self) -> bool {
            !self.stale_sessions.is_empty()
        }

        /// Asks for a rebalance: joins the round in its join phase, else waits for the next.
        pub(crate) fn trigger(&mut self, cause: Cause) {
            let causes = match &mut self.round {
                Some(RoundInProgress {
                    phase: Phase::Joining { .. },
                    causes,
                    ..
                }) => causes,
                _ => &mut self.pending,
            };
            if !causes.contains(&cause) {
                causes.push(cause);
            }
        }

        /// Drops the pending causes: nobody is left to run a round for them.
        pub(crate) fn drop_pending(&mut self) {
            self.pending.clear();
        }

        /// Opens a round at `now` for the pending causes, its join phase due to close at
        /// `deadline`; returns its index and causes.
        pub(crate) fn open_round(&mut self, now: u64, deadline: u64) -> (u32, Vec<Cause>) {
            self.rounds += 1;
            let causes = std::mem::take(&mut self.pending);
            self.round = Some(RoundInProgress {
                index: self.rounds,
                started_at: now,
                causes: causes.clone(),
                phase: Phase::Joining { deadline },
            });
            (self.rounds, causes)
        }

        /// Moves the join phase's end to `at` if it is in its join phase and ends sooner;
        /// returns whether it did.
        pub(crate) fn extend_join(&mut self, at: u64) -> bool {
            match &mut self.round {
                Some(RoundInProgress {
                    phase: Phase::Joining { deadline },
                    ..
                }) if *deadline < at => {
                    *deadline = at;
                    true
                }
                _ => false,
            }
        }

        /// Takes the round in progress out, to close it.
        pub(crate) fn take_round(&mut self) -> Option<RoundInProgress> {
            self.round.take()
        }

        /// Puts a round back unchanged (it was not in the phase the caller closes).
        pub(crate) fn keep_round(&mut self, round: RoundInProgress) {
            self.round = Some(round);
        }

        /// The leader assigned: a new generation, led by `leader`. Returns the generation and
        /// the previous leader, when the leadership changed hands.
        pub(crate) fn new_generation(&mut self, leader: MemberId) -> (u32, Option<MemberId>) {
            self.generation += 1;
            let previous = self.leader.filter(|&l| l != leader);
            self.leader = Some(leader);
            (self.generation, previous)
        }

        /// The round goes on to its sync at `sync_at`.
        pub(crate) fn sync_at(&mut self, round: RoundInProgress, sync_at: u64, record: Round) {
            self.round = Some(RoundInProgress {
                phase: Phase::Syncing {
                    sync_at,
                    round: Box::new(record),
                },
                ..round
            });
        }

        /// Records an assignment of a streams group (KIP-1071), computed by `leader`'s heartbeat
        /// for group epoch `epoch`; returns its index among the run's rounds.
        pub(crate) fn streams_round(&mut self, epoch: u32, leader: MemberId) -> u32 {
            self.rounds += 1;
            self.generation = epoch;
            self.leader = Some(leader);
            self.rounds
        }

        /// Holds a member's old identity until `until` (the later of two, if it is held).
        pub(crate) fn hold_stale_session(&mut self, member: MemberId, until: u64) {
            match self.stale_sessions.iter_mut().find(|(m, _)| *m == member) {
                Some((_, held)) => *held = (*held).max(until),
                None => self.stale_sessions.push((member, until)),
            }
        }

        /// Drops a member's old identity if its session is over at `now`; returns whether it
        /// did.
        pub(crate) fn expire_stale_session(&mut self, member: MemberId, now: u64) -> bool {
            let before = self.stale_sessions.len();
            self.stale_sessions
                .retain(|&(m, until)| m != member || until > now);
            self.stale_sessions.len() < before
        }

        /// Whether it holds this member's old identity.
        pub fn holds_stale_session_of(&self, member: MemberId) -> bool {
            self.stale_sessions.iter().any(|&(m, _)| m == member)
        }
    }
}

/// Whether a cause comes from a member new to the group (a join, or a return as a new
/// member).
fn is_new(cause: &Cause) -> bool {
    matches!(cause, Cause::MemberJoined(_) | Cause::Returned(_))
}

impl Cause {
    /// The one-word kind, such as `member_joined`.
    pub fn kind(&self) -> &'static str {
        self.into()
    }
}

impl Engine {
    /// The leader as the coordinator sees it: the last round's leader while it is still in
    /// the group (a crashed leader leads until its session times out); before any round, the
    /// longest-standing member.
    pub fn leader(&self) -> Option<MemberId> {
        match self.coordinator.last_leader() {
            Some(l) => Some(l).filter(|&l| self.members[l.index()].status.in_group()),
            None => self.participants().first().copied(),
        }
    }

    /// The leader, if it is alive (crashing it would do something).
    pub(super) fn live_leader(&self) -> Option<MemberId> {
        self.leader()
            .filter(|&l| self.members[l.index()].status.alive())
    }

    /// Members that would join a round now: in the group and alive, longest-standing first.
    pub fn participants(&self) -> Vec<MemberId> {
        let mut ids: Vec<MemberId> = (0..self.members.len())
            .map(|i| MemberId(i as u32))
            .filter(|m| self.members[m.index()].status.alive())
            .collect();
        ids.sort_by_key(|m| (self.members[m.index()].status.joined_at(), *m));
        ids
    }

    /// A stable group already keeps its standbys, caught up. Kafka's assignor (`kip441`)
    /// places them beside the owners as it places standbys. The sticky designs are asked with
    /// the owners running their tasks and the standbys of their last answer reported caught
    /// up, until they keep them where they are (a fixed point; the third answer at most is
    /// taken). Each question costs what one round costs: the members report only what they
    /// hold.
    pub(super) fn place_initial_standbys(&mut self) {
        const ROUNDS: usize = 3;
        if self.config.num_standby_replicas == 0 || self.members.is_empty() {
            return;
        }
        let base = self.join_metadata(&self.participants());
        let once =
            self.config.strategy == Strategy::Kip441 || self.config.strategy.streams_protocol();
        let mut standbys: Vec<Vec<TaskId>> = vec![Vec::new(); base.len()];
        for _ in 0..ROUNDS {
            let mut joined = base.clone();
            for (meta, held) in joined.iter_mut().zip(&standbys) {
                meta.standby.clone_from(held);
                meta.lags.extend(held.iter().map(|&t| (t, 0)));
                meta.lags.sort();
            }
            let Ok(assignment) = self.stable_standbys(&joined) else {
                return;
            };
            let next: Vec<Vec<TaskId>> = assignment
                .members
                .iter()
                .map(|(m, a)| {
                    let unowned = |t: &&TaskId| self.owner[t.index()] != Some(*m);
                    a.standby.iter().filter(unowned).copied().collect()
                })
                .collect();
            let settled = once || next == standbys;
            standbys = next;
            if settled {
                break;
            }
        }
        for (meta, held) in base.iter().zip(standbys) {
            for t in held {
                let end = self.changelog_end(t);
                let member = self.member_mut(meta.member);
                member.standby.push(t);
                member.stores.insert(t, Store::at(end));
            }
        }
    }

    /// Asks for a rebalance: joins the round in its join phase, else waits for the next. A
    /// member that asks rejoins at once, so a join phase under way lasts until it is in.
    pub(super) fn trigger(&mut self, cause: Cause) {
        if self.config.strategy.streams_protocol() {
            self.streams_trigger(cause);
            return;
        }
        let joining = matches!(
            self.coordinator.round(),
            Some(RoundInProgress {
                phase: Phase::Joining { .. },
                ..
            })
        );
        let asker = self.asker(&cause);
        let new = is_new(&cause);
        self.coordinator.trigger(cause);
        if let (true, None, Some(_)) = (joining, self.config.rebalance_ms, asker) {
            let at = self.time + self.rejoin_delay(new);
            if self.coordinator.extend_join(at) {
                self.timers.push((at, Timer::JoinDeadline));
            }
        }
    }

    /// The member a cause comes from, which rejoins at once rather than at its next
    /// heartbeat: a new or returning member, one whose learner is ready, one told to drain,
    /// the leader asking for its probing rebalance.
    fn asker(&self, cause: &Cause) -> Option<MemberId> {
        match cause {
            Cause::MemberJoined(id)
            | Cause::LearnerReady(id)
            | Cause::Drain(id)
            | Cause::Returned(id) => Some(*id),
            Cause::Probing => self.leader(),
            _ => None,
        }
    }

    /// How long a member takes to be in the join phase once it rejoins: a round trip, and one
    /// more for a member new to the group (the coordinator answers its first JoinGroup with
    /// MEMBER_ID_REQUIRED).
    fn rejoin_delay(&self, new: bool) -> u64 {
        self.config.round_trip_ms * if new { 2 } else { 1 }
    }

    /// When member `id` next heartbeats after `at`: its heartbeats follow the last answer to
    /// its JoinGroup (`heartbeat.interval.ms` apart).
    pub(super) fn next_heartbeat(&self, id: MemberId, at: u64) -> u64 {
        let from = self.heartbeat_from[id.index()];
        let h = self.config.heartbeat_interval_ms.max(1);
        let beats = at.saturating_sub(from).div_ceil(h).max(1);
        from + beats * h
    }

    /// When the coordinator notices that member `id`, silent since `at`, is gone: its session
    /// runs from its last heartbeat (in the seed's teaching rounds, from `at`).
    pub(super) fn session_ends(&self, id: MemberId, at: u64) -> u64 {
        let streams = self.config.strategy.streams_protocol();
        let last = match self.config.rebalance_ms {
            Some(_) if !streams => at,
            _ => {
                let from = self.heartbeat_from[id.index()].min(at);
                let h = if streams {
                    self.config.kip1071.heartbeat_interval_ms
                } else {
                    self.config.heartbeat_interval_ms
                }
                .max(1);
                from + (at - from) / h * h
            }
        };
        last + self.config.session_timeout_ms
    }

    /// Opens a round. In the seed's teaching rounds every member rejoins at once and the join
    /// phase lasts half a round. Otherwise the members that caused it rejoin at once and the
    /// others at their next heartbeat (Kafka's coordinator answers it with
    /// REBALANCE_IN_PROGRESS), each a round trip later; a group that was empty waits
    /// `group.initial.rebalance.delay.ms` first. Under `release_at_join` a member releases its
    /// learned tasks as it rejoins, and under `eager` everything it runs.
    pub(super) fn start_round(&mut self, out: &mut Vec<Event>) {
        let now = self.time;
        let participants = self.participants();
        let revoked = std::mem::take(&mut self.revoked_last);
        let new: Vec<MemberId> = self
            .coordinator
            .pending()
            .iter()
            .filter(|c| is_new(c))
            .filter_map(|c| self.asker(c))
            .collect();
        let askers: Vec<MemberId> = self
            .coordinator
            .pending()
            .iter()
            .filter_map(|c| self.asker(c))
            .chain(revoked)
            .collect();
        let rejoin = |e: &Engine, id: MemberId| match e.config.rebalance_ms {
            Some(_) => now,
            None if askers.contains(&id) => now,
            None => e.next_heartbeat(id, now),
        };
        let deadline = match self.config.rebalance_ms {
            Some(round) => now + round / 2,
            None => {
                let empty = participants.iter().all(|&p| askers.contains(&p))
                    && self.coordinator.generation() == 0;
                let latest = participants
                    .iter()
                    .map(|&p| rejoin(self, p) + self.rejoin_delay(new.contains(&p)))
                    .max()
                    .unwrap_or(now);
                if empty {
                    latest.max(now + self.config.initial_rebalance_delay_ms)
                } else {
                    latest
                }
            }
        };
        let (index, causes) = self.coordinator.open_round(now, deadline);
        out.push(self.event(EventKind::RoundStarted { index, causes }));
        let mut later: Vec<u64> = Vec::new();
        for id in participants {
            let at = rejoin(self, id);
            if at == now {
                self.release_at_join(id, out);
            } else if !later.contains(&at) {
                later.push(at);
            }
        }
        for at in later {
            self.timers.push((at, Timer::Rejoin));
        }
        self.timers.push((deadline, Timer::JoinDeadline));
    }

    /// The members whose heartbeat falls now learn of the round in its join phase and
    /// rejoin, releasing what they release at a join.
    pub(super) fn rejoin_at_heartbeat(&mut self, out: &mut Vec<Event>) {
        let Some(RoundInProgress {
            phase: Phase::Joining { .. },
            started_at,
            ..
        }) = self.coordinator.round()
        else {
            return;
        };
        let started = *started_at;
        for id in self.participants() {
            if self.next_heartbeat(id, started) == self.time {
                self.release_at_join(id, out);
            }
        }
    }

    /// What a member releases as it joins a round: under `release_at_join` its learned
    /// tasks, under `eager` everything it runs.
    pub(super) fn release_at_join(&mut self, id: MemberId, out: &mut Vec<Event>) {
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
            self.stop_task(id, t, out);
        }
    }

    /// Closes the join phase once its deadline passed and it waits for no member that is
    /// silent but still counted: crashed or restarting before its session timed out, or the
    /// old identity of a member that came back as a new one. The leader then assigns.
    /// Returns whether it changed anything (it closed the phase, or dropped the round).
    pub(super) fn try_close_join(&mut self, out: &mut Vec<Event>) -> bool {
        let Some(RoundInProgress {
            phase: Phase::Joining { deadline },
            ..
        }) = self.coordinator.round()
        else {
            return false;
        };
        let waiting_for_silent = self.coordinator.holds_stale_session()
            || self.members.iter().any(|m| m.status.silent_in_group());
        if self.time < *deadline || waiting_for_silent {
            return false;
        }
        let participants = self.participants();
        let Some(round) = self.coordinator.take_round() else {
            return false;
        };
        let Some(&leader) = participants.first() else {
            // Nobody left to lead: the round is dropped.
            return true;
        };
        let (joined, assigned) = match self.recorded_round(round.index) {
            Some(r) => (r.joined, Ok(r.assignment)),
            None => {
                let joined = self.join_metadata(&participants);
                let assigned = self.run_assignor(&joined);
                (shared(joined), assigned)
            }
        };
        let assignment = match assigned {
            Ok(a) => a,
            Err(_) => {
                // The engine only builds consistent metadata; should it not, the round is
                // dropped rather than applying a broken assignment. Invariant checks flag it.
                out.push(self.event(EventKind::RoundAbandoned(round.index)));
                return true;
            }
        };
        let (generation, previous_leader) = self.coordinator.new_generation(leader);
        self.tally.rebalances += 1;
        for &id in &participants {
            // The JoinGroup responses restart every member's heartbeats.
            self.heartbeat_from[id.index()] = self.time;
        }
        let record = Round {
            index: round.index,
            generation,
            causes: round.causes.clone(),
            started_at: round.started_at,
            assigned_at: self.time,
            synced_at: None,
            abandoned: false,
            leader,
            by_coordinator: false,
            previous_leader,
            joined,
            assignment,
            departed: Vec::new(),
            changed: Vec::new(),
        };
        out.push(self.event(EventKind::RoundAssigned(Box::new(record.clone()))));
        let sync_at = self.time
            + match self.config.rebalance_ms {
                Some(round) => round - round / 2,
                None => self.config.assign_ms + self.config.round_trip_ms,
            };
        self.timers.push((sync_at, Timer::Sync));
        self.coordinator.sync_at(round, sync_at, record);
        true
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
    pub(super) fn join_metadata(&self, participants: &[MemberId]) -> Vec<JoinMetadata> {
        let delay = self.config.state_cleanup_delay_ms;
        participants
            .iter()
            .map(|&id| {
                let member = &self.members[id.index()];
                JoinMetadata {
                    member: id,
                    capacity: member.capacity,
                    zone: member.zone.clone(),
                    leaving: member.status.leaving(),
                    assigned: member.active.clone(),
                    revoked: member.revoked(),
                    learning: member.learning.clone(),
                    standby: member.standby.clone(),
                    lags: member
                        .stores
                        .iter()
                        .filter(|(_, store)| member.keeps(store, self.time, delay))
                        .map(|(&t, store)| (t, self.store_lag(id, t, store).ceil() as u64))
                        .collect(),
                }
            })
            .collect()
    }

    pub(super) fn run_assignor(
        &self,
        joined: &[JoinMetadata],
    ) -> Result<Assignment, assignor::AssignError> {
        let config = self.config.assignor();
        assignor::assign(AssignInput {
            config: &config,
            tasks: &self.task_infos(),
            members: joined,
        })
    }

    /// Where the strategy keeps the standbys of a stable group running what `joined` report.
    fn stable_standbys(
        &self,
        joined: &[JoinMetadata],
    ) -> Result<Assignment, assignor::AssignError> {
        let config = self.config.assignor();
        assignor::standbys_of_a_stable_group(AssignInput {
            config: &config,
            tasks: &self.task_infos(),
            members: joined,
        })
    }

    /// The tasks as the leader knows them.
    pub(super) fn task_infos(&self) -> Vec<TaskInfo> {
        self.tasks
            .iter()
            .zip(self.subtopologies.iter())
            .enumerate()
            .map(|(i, (t, &subtopology))| {
                let task = TaskId(i as u32);
                TaskInfo {
                    stateful: t.stateful,
                    changelog: self.changelog_end(task).ceil() as u64,
                    records: self.changelog_records(task).ceil() as u64,
                    subtopology,
                }
            })
            .collect()
    }

    /// The members receive the assignment: they stop what they lost, start what they got
    /// (restoring first where their store lags), and learn and keep standbys as told. A
    /// draining member left with nothing shuts down. If the leader crashed meanwhile, the
    /// assignment never arrives. A member restarting under static membership gets its
    /// assignment too: the coordinator keeps it and hands it over when the member is back.
    pub(super) fn finish_sync(&mut self, out: &mut Vec<Event>) {
        let Some(progress) = self.coordinator.take_round() else {
            return;
        };
        let Phase::Syncing { round, .. } = progress.phase else {
            self.coordinator.keep_round(progress);
            return;
        };
        let mut round = *round;
        let leader = &self.members[round.leader.index()];
        if !leader.status.alive() {
            round.abandoned = true;
            out.push(self.event(EventKind::RoundAbandoned(round.index)));
            if leader.status.restarting() {
                // A crashed leader is noticed at its session timeout, which starts the next
                // round; a restarting one may be back before that without a word (static
                // membership), so what this round was for is asked for again.
                for cause in round.causes {
                    self.trigger(cause);
                }
            }
            return;
        }
        let keeps_identity = self.config.static_membership;
        let receivers: Vec<(MemberId, Rc<MemberAssignment>)> = round
            .assignment
            .members
            .iter()
            .filter(|(m, _)| {
                let member = &self.members[m.index()];
                member.status.alive()
                    || (keeps_identity && member.status.in_group() && member.status.restarting())
            })
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
                self.stop_task(*id, t, out);
            }
        }
        let recorded = self.recorded_changes(round.index);
        for (id, a) in &receivers {
            let left_as_it_is = match &recorded {
                Some(changed) => changed.binary_search(id).is_err(),
                None => self.already_holds(*id, a),
            };
            if !left_as_it_is {
                self.receive(*id, a, out);
                round.changed.push(*id);
            }
        }
        round.changed.sort_unstable();
        for (id, a) in &receivers {
            if self.members[id.index()].status.leaving() && a.assigned.is_empty() {
                self.leave(*id, LeaveReason::Drained, out);
                round.departed.push(*id);
            }
        }
        round.synced_at = Some(self.time);
        out.push(self.event(EventKind::RoundSynced {
            index: round.index,
            departed: round.departed.clone(),
            changed: std::mem::take(&mut round.changed),
        }));
        if round.assignment.followup {
            // The members that revoked tasks rejoin at once (KIP-429's second round).
            self.revoked_last = round
                .assignment
                .members
                .iter()
                .filter(|(_, a)| !a.revoked.is_empty())
                .map(|&(m, _)| m)
                .collect();
            self.trigger(Cause::FollowUp);
        }
        // Each assignment sets the next probing rebalance, or cancels it (as Kafka Streams'
        // `nextRebalanceMs` does): the assignor asks for one while warm-ups catch up.
        self.timers.retain(|(_, t)| *t != Timer::Probing);
        if round.assignment.probing {
            let at = self.time + self.config.kip441.probing_interval_ms;
            self.timers.push((at, Timer::Probing));
        }
    }

    /// Member `id` takes assignment `a`: starts the tasks it gains, replicates from its kept
    /// stores and deals its threads again.
    fn receive(&mut self, id: MemberId, a: &MemberAssignment, out: &mut Vec<Event>) {
        self.touch(id);
        for &t in &a.assigned {
            if self.members[id.index()].runs(t) {
                continue;
            }
            if self.owner[t.index()].is_some() {
                // Never two owners: the assignor cannot produce this, and the invariant
                // checks would flag it; the task stays with its current owner.
                continue;
            }
            self.start_task(id, t, out);
        }
        // A replica reads from its store, or from the log's start if that is past it.
        let reading: Vec<(TaskId, f64)> = a
            .learning
            .iter()
            .chain(&a.standby)
            .map(|&t| {
                let kept = self.kept_store(id, t);
                (t, self.reading_from(kept.map_or(0.0, |s| s.position), t))
            })
            .collect();
        let member = self.member_mut(id);
        member.learning = a.learning.clone();
        member.standby = a.standby.clone();
        member.learned = a.learned.clone();
        member.last_assigned = a.assigned.clone();
        member.ready.retain(|t| a.learning.binary_search(t).is_ok());
        member
            .reported
            .retain(|t| a.learning.binary_search(t).is_ok());
        for (t, position) in reading {
            member.stores.insert(t, Store::at(position));
        }
        self.deal_threads(id);
    }

    /// Whether member `id` already runs, learns and keeps standbys of what `a` gives it, with
    /// a store for each replica and its threads dealt as they would be: receiving it changes
    /// nothing, so the member is left as it is (and stays shared with the history's snapshots
    /// of it).
    fn already_holds(&self, id: MemberId, a: &MemberAssignment) -> bool {
        let member = &self.members[id.index()];
        let learns = |t: &TaskId| a.learning.binary_search(t).is_ok();
        member.active == a.assigned
            && member.last_assigned == a.assigned
            && member.learning == a.learning
            && member.standby == a.standby
            && member.learned == a.learned
            && member.ready.iter().all(learns)
            && member.reported.iter().all(learns)
            && a.learning.iter().chain(&a.standby).all(|&t| {
                self.kept_store(id, t).is_some_and(|s| {
                    s.released_at.is_none() && s.position >= self.changelog_start(t)
                })
            })
            && self.dealt_threads(id) == member.threads
    }

    pub(super) fn start_task(&mut self, id: MemberId, task: TaskId, out: &mut Vec<Event>) {
        let t = task.index();
        self.own(id, task);
        if self.tasks[t].stateful {
            let kept = self.kept_store(id, task);
            let position = self.reading_from(kept.map_or(0.0, |s| s.position), task);
            self.member_mut(id).stores.insert(task, Store::at(position));
        }
        if let Some(previous) = self.last_owner[t] {
            if previous != id {
                self.tally.moves += 1;
            }
        }
        self.last_owner[t] = Some(id);
        out.push(self.event(EventKind::TaskStarted(task, id)));
    }
}
