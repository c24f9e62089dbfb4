//! The assignor of the designs without learners, `eager` and `cooperative`: a sticky,
//! balanced assignment where a moved stateful task restores on its new owner while down.
//!
//! The two differ in what members do at join, not in the leader's decision: under `eager`
//! every member releases every task when it joins (so every task is an orphan and goes back
//! to whoever ran it unless balance says otherwise, moving at once); under `cooperative` the
//! members keep running, and a task that must move is revoked now and assigned at the
//! follow-up rebalance (KIP-429's two phases).

use super::balance::{match_receivers, plan_moves, Cost};
use super::plan::Plan;
use crate::model::Assignment;

/// Runs the sticky assignor on indexed join metadata.
pub(crate) fn assign(mut plan: Plan<'_>) -> Assignment {
    let mut loads = plan.loads();
    plan.assign_orphans(&mut loads);
    let (stateful, stateless) = {
        let plan = &plan;
        plan_moves(plan, &loads, |t| plan.owner(t).is_some(), Cost::Changelog)
    };

    for level in [stateful, stateless] {
        let mut gains = level.gains;
        for (t, receiver) in match_receivers(&plan, &level.moving, &mut gains) {
            if plan.reported_owner[t].is_some() {
                // Someone still runs it: revoke now, assign at the follow-up (rule 1).
                plan.revoke(t);
            } else {
                plan.assign(t, receiver);
            }
        }
    }
    plan.place_standbys();
    plan.into_assignment()
}
