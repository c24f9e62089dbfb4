//! Kafka Streams' high-availability assignor (KIP-441), as the playground models it.
//!
//! Warm-up replicas play the learners' part, but: at most `max.warmup.replicas` of them run
//! group-wide; a task moves at once (two phases) when its new owner is already caught up
//! (lag at most `acceptable.recovery.lag`); and members do not rejoin when a warm-up is ready,
//! so promotion waits for the next probing rebalance (the engine schedules those). A drained
//! member is not pre-warmed: it simply leaves.

use super::learner::{
    drop_learners_of_reassigned_tasks, hand_over_ready_learners, keep_existing_learners,
    place_learners, MovePolicy,
};
use super::plan::Plan;
use crate::model::Assignment;

/// Runs the KIP-441 assignor on indexed join metadata.
pub(crate) fn assign(mut plan: Plan<'_>) -> Assignment {
    keep_existing_learners(&mut plan);
    hand_over_ready_learners(&mut plan);
    let mut loads = plan.active_counts();
    plan.assign_orphans(&mut loads);
    drop_learners_of_reassigned_tasks(&mut plan);
    place_learners(&mut plan, MovePolicy::WarmUpUnlessCaughtUp);
    plan.place_standbys();
    plan.into_assignment()
}
