//! The seed's assignor: learners replay a changelog before ownership moves.
//!
//! One function per rule of docs/design.md, applied in this order by [`assign`]:
//! [`keep_existing_learners`] (rule 4), [`hand_over_ready_learners`] (rule 2),
//! [`Plan::assign_orphans`] (rule 3), [`drop_learners_of_reassigned_tasks`],
//! [`place_learners`] (rules 4 and 8) and [`Plan::place_standbys`] (rule 8). Rule 1 (never two
//! owners) holds by construction: a task is only handed to a member when no member reported
//! it in `assigned`, and a task revoked this round is assigned at the follow-up.

use super::balance::{match_receivers, plan_moves, Cost};
use super::plan::Plan;
use crate::model::Assignment;

/// Runs the learner assignor on indexed join metadata.
pub(crate) fn assign(mut plan: Plan<'_>) -> Assignment {
    keep_existing_learners(&mut plan);
    hand_over_ready_learners(&mut plan);
    let mut loads = plan.loads();
    plan.assign_orphans(&mut loads);
    drop_learners_of_reassigned_tasks(&mut plan);
    place_learners(&mut plan);
    plan.place_standbys();
    plan.into_assignment()
}

/// Rule 4, "keep the existing learner tasks running; we don't want to see half way bounce":
/// a learner stays unless its member is leaving (it gets no new work) or it now runs the
/// task itself.
pub(crate) fn keep_existing_learners(plan: &mut Plan<'_>) {
    for t in 0..plan.task_count() {
        let kept = plan.reported_learner[t]
            .filter(|&l| !plan.leaving(l) && plan.stateful(t) && plan.reported_owner[t] != Some(l));
        match kept {
            Some(l) => plan.add_learner(t, l),
            None => plan.drop_learner(t),
        }
    }
}

/// Rule 2: a task still run by its owner whose learner is ready is revoked now and handed to
/// the learner at the follow-up rebalance (`two_phase`). A released task with a ready learner
/// is an orphan and goes to that learner in this round (rule 3).
pub(crate) fn hand_over_ready_learners(plan: &mut Plan<'_>) {
    let acceptable = plan.input.config.acceptable_recovery_lag;
    for t in 0..plan.task_count() {
        let Some(l) = plan.learner(t) else { continue };
        let ready = plan.lag(t, l).is_some_and(|lag| lag <= acceptable);
        if ready && plan.owner(t).is_some() {
            plan.revoke(t);
        }
    }
}

/// A learner is kept only while its task stays with the member it was learning from: when a
/// task just went to someone else as an orphan (say a caught-up standby), learning it from
/// its old owner is moot, and the balance step decides afresh.
pub(crate) fn drop_learners_of_reassigned_tasks(plan: &mut Plan<'_>) {
    for t in 0..plan.task_count() {
        let Some(l) = plan.learner(t) else { continue };
        let owner = plan.owner(t);
        let unchanged = plan.revoking(t)
            || (owner.is_some()
                && (owner == plan.reported_owner[t]
                    || (plan.reported_owner[t].is_none() && owner == plan.releaser[t])));
        if owner == Some(l) || !unchanged {
            plan.drop_learner(t);
        }
    }
}

/// Rules 4 and 8: balance active tasks by capacity, stateful tasks first, counting learners
/// in flight as already moved. The tasks that move off an over-loaded member are those its
/// receivers would replay least (a receiver holding a task's state replays only its lag). A
/// stateful task leaving an over-loaded or leaving member gets a learner on an under-loaded
/// one (holders of its state first, `max_learners` permitting), unless nobody runs it yet and
/// the receiver is as far along as its owner, when it is handed over at once; a stateless
/// task has nothing to learn and is revoked, to be assigned at the follow-up rebalance (or
/// handed over at once if nobody runs it yet).
pub(crate) fn place_learners(plan: &mut Plan<'_>) {
    let mut loads = plan.loads();
    for t in 0..plan.task_count() {
        if let Some(l) = plan.learner(t) {
            loads.add(plan, l, t);
            if let Some(o) = plan.owner(t) {
                loads.remove(plan, o, t);
            }
        }
    }
    let learners = plan.learner_count() as u64;
    let mut room = plan
        .input
        .config
        .max_learners
        .map(|cap| u64::from(cap).saturating_sub(learners));
    let (stateful, stateless) = {
        let plan = &*plan;
        plan_moves(
            plan,
            &loads,
            |t| plan.learner(t).is_none() && !plan.revoking(t) && plan.owner(t).is_some(),
            Cost::Receiver,
        )
    };
    let mut gains = stateful.gains;
    for (t, receiver) in match_receivers(plan, &stateful.moving, &mut gains) {
        let lag = |p| plan.lag(t, p).unwrap_or(plan.move_cost(t));
        let owner_lag = plan.owner(t).map_or(u64::MAX, lag);
        let fresh = plan.reported_owner[t].is_none() && plan.releaser[t].is_none();
        if fresh && lag(receiver) <= owner_lag {
            // Nobody ran it until this round (an orphan placed now), and the receiver is as far
            // along as its owner: a learner would only replay what the receiver can restore.
            plan.assign(t, receiver);
            continue;
        }
        if room == Some(0) {
            continue;
        }
        plan.add_learner(t, receiver);
        if let Some(r) = room.as_mut() {
            *r -= 1;
        }
    }
    let mut gains = stateless.gains;
    for (t, receiver) in match_receivers(plan, &stateless.moving, &mut gains) {
        if plan.reported_owner[t].is_none() {
            // Nobody runs it yet (an orphan placed this round): hand it over directly.
            plan.assign(t, receiver);
        } else {
            plan.revoke(t);
        }
    }
}
