//! The leader's decision: a pure function from what the members report when they join to
//! what each of them runs, learns and keeps as a standby.
//!
//! [`assign`] dispatches on the strategy. The seed's rules live in [`learner`]; the designs it
//! is compared with live beside it ([`sticky`] for eager and cooperative, [`kip441`] for Kafka
//! Streams' high-availability assignor). They share the bookkeeping of one decision in
//! `plan.rs` (who owns what after the join, who holds which state, orphans, revocations);
//! the sticky ones also share the balance step in `balance.rs` (each member's share, which
//! tasks must move and to whom, over `load.rs`) and the standby rule in `standby.rs`.
//! [`measure`] says how balanced a group is, by Kafka Streams' own measures.

mod balance;
pub mod kip1071;
pub mod kip441;
pub mod learner;
mod load;
pub mod measure;
mod plan;
mod standby;
pub mod sticky;
mod streams;

use crate::model::{
    Assignment, AssignorConfig, JoinMetadata, MemberId, Strategy, TaskId, TaskInfo,
};
use plan::Plan;
use thiserror::Error;

/// What the leader reads: the configuration, the tasks and every member's join metadata.
#[derive(Clone, Copy, Debug)]
pub struct AssignInput<'a> {
    /// The assignor's settings.
    pub config: &'a AssignorConfig,
    /// Every task of the application, indexed by [`TaskId`].
    pub tasks: &'a [TaskInfo],
    /// The members that joined, in join order; the first is the leader.
    pub members: &'a [JoinMetadata],
}

/// Join metadata that no correct member could have sent.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum AssignError {
    /// Two members report running the same task: the rule "never two owners" is broken.
    #[error("task {task:?} is reported as assigned by two members, {first:?} and {second:?}")]
    OwnedTwice {
        /// The task.
        task: TaskId,
        /// The first member reporting it.
        first: MemberId,
        /// The second member reporting it.
        second: MemberId,
    },
    /// A member joined twice in the same round.
    #[error("member {0:?} joined twice")]
    DuplicateMember(MemberId),
    /// A task id beyond the task list.
    #[error("member {member:?} reports task {task:?}, which does not exist")]
    UnknownTask {
        /// The member.
        member: MemberId,
        /// The task id it reported.
        task: TaskId,
    },
    /// A member with no capacity cannot be balanced against.
    #[error("member {0:?} has capacity 0")]
    ZeroCapacity(MemberId),
    /// Kafka's streams assignor refused the group.
    #[error("Kafka's streams assignor: {0}")]
    Streams(kip1071::AssignorError),
}

/// Runs the assignor of the configured strategy.
pub fn assign(input: AssignInput<'_>) -> Result<Assignment, AssignError> {
    let plan = Plan::new(input)?;
    Ok(match input.config.strategy {
        Strategy::Learner => learner::assign(plan),
        Strategy::Eager | Strategy::Cooperative => sticky::assign(plan),
        Strategy::Kip441 => kip441::assign(plan),
        Strategy::Kip1071 | Strategy::Kip1071Warmup => streams::assign(plan)?,
    })
}

/// Where the configured strategy keeps the standbys of a stable group that runs what its
/// members report: Kafka's assignor (`kip441`) places them beside the owners as it places
/// standbys; the sticky designs answer as at any round (the engine asks until they keep
/// them).
pub fn standbys_of_a_stable_group(input: AssignInput<'_>) -> Result<Assignment, AssignError> {
    let plan = Plan::new(input)?;
    Ok(match input.config.strategy {
        Strategy::Kip441 => kip441::standbys_beside_owners(plan),
        _ => assign(input)?,
    })
}
