//! Kafka's broker-side streams task assignor (KIP-1071), `StickyTaskAssignor` of the group
//! coordinator, and trunk's warm-up refiner ([`refiner`]), re-implemented as pure functions in
//! Kafka's own vocabulary: members (stream threads) of processes (Kafka Streams instances),
//! tasks as (subtopology id, partition), and the group's current and target assignments.
//!
//! The assignor follows trunk's `StickyTaskAssignor` after KAFKA-20719 (on-disk offsets rank
//! previous holders) with KAFKA-21001's ranking of warm-ups as previous standbys, not the
//! stateful/stateless split of PR 23482; `docs/kip1071.md` names the files it follows. Ties are
//! decided as Kafka decides them, through `HashMap` iteration and `PriorityQueue` order, which
//! [`java`] reproduces. It is independent of Handoff's engine: a Handoff member of capacity N is
//! one Kafka process of N members.

mod group;
pub mod java;
mod process;
pub mod refiner;
mod sticky;

pub use group::{
    AssignorError, GroupAssignment, GroupSpec, MemberAssignment, MemberSpec, Offsets, Release,
    Subtopology, TaskId, Tasks, Topology,
};
pub use sticky::assign;

/// The assignor's name in Kafka (`group.streams.assignors`).
pub const NAME: &str = "sticky";
