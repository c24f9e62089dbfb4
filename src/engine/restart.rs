//! The operations people run on a group in production (docs/design.md, "Operations"):
//! restarts, rolling restarts and zone outages, with Kafka's two kinds of membership.
//!
//! A restarting member's process is down for `down_ms`; its stores survive if it keeps its
//! state (a persistent disk), else it comes back with nothing. What the coordinator does
//! depends on the membership:
//! - static (KIP-345, `group.instance.id`): the member keeps its identity and its
//!   assignment. Its tasks are down while it is away; back within the session timeout, it
//!   runs them again with no rebalance. Away longer, the coordinator removes it when its
//!   session times out (a rebalance) and its return is a join (another).
//! - dynamic: the process sends no LeaveGroup, so the coordinator holds the old identity
//!   (and waits for it in any join phase) until its session times out; the process comes
//!   back as a new member, which joins the group (a rebalance). Its tasks are orphans the
//!   next leader hands out by rule 3, first to whoever holds their state.
//!
//! A rolling restart restarts the live members one at a time in join order, each once the
//! previous one is back and the group is at rest. A zone outage crashes every live member
//! of a zone at once.

use super::coordinator::{Cause, Phase, RoundInProgress};
use super::member::{Absence, Store, Transition};
use super::{Engine, Event, EventKind, Timer};
use crate::model::MemberId;

/// A rolling restart under way: the members still to restart, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RollingRestart {
    /// How long each member is away.
    pub down_ms: u64,
    /// Whether their stores survive.
    pub keep_state: bool,
    /// Members not restarted yet, in the order they will be.
    pub queue: Vec<MemberId>,
    /// The member restarted last, once the first has been.
    pub current: Option<MemberId>,
}

impl Engine {
    /// The rolling restart under way, if any.
    pub fn rolling_restart(&self) -> Option<&RollingRestart> {
        self.rolling.as_ref()
    }

    /// Every zone some member was ever in, sorted.
    pub fn zones(&self) -> Vec<String> {
        let mut zones: Vec<String> = self.members.iter().filter_map(|m| m.zone.clone()).collect();
        zones.sort();
        zones.dedup();
        zones
    }

    /// The members a rolling restart would restart now: the live (not draining) members of
    /// the group, longest-standing first.
    pub(super) fn rolling_restart_order(&self) -> Vec<MemberId> {
        self.participants()
            .into_iter()
            .filter(|m| self.members[m.index()].status.live())
            .collect()
    }

    /// Stops a member's process for `down_ms`.
    pub(super) fn restart(
        &mut self,
        id: MemberId,
        down_ms: u64,
        keep_state: bool,
        out: &mut Vec<Event>,
    ) {
        let now = self.time;
        let keeps_identity = self.config.static_membership;
        if keeps_identity {
            // The coordinator keeps its assignment for it: the tasks stay its own, run by
            // nobody while it is away.
            let tasks = self.members[id.index()].active.clone();
            for t in tasks {
                out.push(self.event(EventKind::TaskStopped(t, id)));
            }
        } else {
            self.stop_all(id, out);
        }
        let absence = Absence {
            since: now,
            back_at: now + down_ms,
            keep_state,
        };
        self.transition(
            id,
            Transition::Restart {
                absence,
                keeps_identity,
            },
        );
        let stateful = self.tasks.clone();
        let member = self.member_mut(id);
        if !keep_state {
            member.stores.clear();
            // What it still owns, learns or keeps as a standby restores from nothing.
            let kept: Vec<_> = member
                .active
                .iter()
                .chain(&member.learning)
                .chain(&member.standby)
                .copied()
                .filter(|t| stateful[t.index()].stateful)
                .collect();
            for t in kept {
                member.stores.insert(t, Store::at(0.0));
            }
        }
        let restart = member.restarts;
        let in_group = member.status.in_group();
        out.push(self.event(EventKind::MemberRestarted(id)));
        self.timers.push((
            now + down_ms,
            Timer::Return {
                member: id,
                restart,
            },
        ));
        if in_group {
            self.timers.push((
                self.session_ends(id, now),
                Timer::SessionExpiry {
                    member: id,
                    restart,
                },
            ));
        }
    }

    /// A restarted member is back (if this is its current restart).
    pub(super) fn come_back(&mut self, id: MemberId, restart: u32, out: &mut Vec<Event>) {
        let keeps_identity = self.config.static_membership;
        let member = &self.members[id.index()];
        let Some(absence) = member
            .status
            .absence()
            .filter(|_| member.restarts == restart)
        else {
            return;
        };
        let in_group = member.status.in_group();
        let stale_until = self.session_ends(id, absence.since);
        let returns_as_itself = in_group && keeps_identity;
        self.transition(
            id,
            Transition::Return {
                keeps_identity: returns_as_itself,
            },
        );
        out.push(self.event(EventKind::MemberReturned(id)));
        if returns_as_itself {
            // Static membership: its assignment back, no rebalance (KIP-345).
            let tasks = self.members[id.index()].active.clone();
            for t in tasks {
                out.push(self.event(EventKind::TaskStarted(t, id)));
            }
            let joining = matches!(
                self.coordinator.round(),
                Some(RoundInProgress {
                    phase: Phase::Joining { .. },
                    ..
                })
            );
            if joining {
                // It rejoins the round that waited for it, as every member does.
                self.release_at_join(id, out);
            }
            return;
        }
        if in_group {
            // The coordinator still holds the identity it had; that one times out later.
            self.coordinator.hold_stale_session(id, stale_until);
        }
        self.trigger(Cause::Returned(id));
    }

    /// A restarted member's session timed out: if it is still away the coordinator removes
    /// it; if it came back as a new member, the coordinator drops the identity it had.
    pub(super) fn expire_session(&mut self, id: MemberId, restart: u32, out: &mut Vec<Event>) {
        let now = self.time;
        let member = &self.members[id.index()];
        if member.restarts == restart && member.status.restarting() && member.status.in_group() {
            self.stop_all(id, out);
            self.transition(id, Transition::SessionExpired);
        } else if !self.coordinator.expire_stale_session(id, now) {
            return;
        }
        out.push(self.event(EventKind::SessionTimedOut(id)));
        self.trigger(Cause::SessionTimeout(id));
    }

    /// Starts a rolling restart of the live members; the first restarts as soon as the group
    /// is at rest (at once if it is).
    pub(super) fn start_rolling_restart(&mut self, down_ms: u64, keep_state: bool) {
        self.rolling = Some(RollingRestart {
            down_ms,
            keep_state,
            queue: self.rolling_restart_order(),
            current: None,
        });
    }

    /// Restarts the next member of the rolling restart once the group is at rest; members
    /// that crashed, left or began draining meanwhile are skipped.
    pub(super) fn continue_rolling_restart(&mut self, out: &mut Vec<Event>) {
        if self.rolling.is_none() || !self.quiet() {
            return;
        }
        while let Some(rolling) = self.rolling.as_mut() {
            if rolling.queue.is_empty() {
                self.rolling = None;
                out.push(self.event(EventKind::RollingRestartFinished));
                return;
            }
            let next = rolling.queue.remove(0);
            let (down_ms, keep_state) = (rolling.down_ms, rolling.keep_state);
            let member = &self.members[next.index()];
            if member.status.live() {
                if let Some(rolling) = self.rolling.as_mut() {
                    rolling.current = Some(next);
                }
                self.restart(next, down_ms, keep_state, out);
                return;
            }
        }
    }

    /// Every live member of a zone crashes at once.
    pub(super) fn crash_zone(&mut self, zone: &str, out: &mut Vec<Event>) {
        out.push(self.event(EventKind::ZoneCrashed(zone.to_string())));
        let victims: Vec<MemberId> = (0..self.members.len())
            .map(|i| MemberId(i as u32))
            .filter(|m| {
                let member = &self.members[m.index()];
                member.status.alive() && member.zone.as_deref() == Some(zone)
            })
            .collect();
        for id in victims {
            self.crash(id, out);
        }
    }
}
