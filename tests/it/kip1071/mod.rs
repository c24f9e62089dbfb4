//! Kafka's own tests of its broker-side streams assignor (KIP-1071) and of trunk's warm-up
//! refiner, ported to `handoff::assignor::kip1071` under their names (snake_case):
//!
//! - `sticky`: StickyTaskAssignorTest (Kafka trunk, the version with KAFKA-21001's warm-up
//!   tests; file id 68869782522), every test that applies to trunk's assignor: 52 of 54.
//!   Skipped, as they assert the unmerged stateful/stateless split of PR 23482 and fail on
//!   trunk's assignor: `shouldBalanceStatefulAndStatelessActiveTasksIndependently` and
//!   `shouldKeepEachFlavorStickyOnlyWithinItsOwnQuotaWhenScalingUp` (the module says what trunk
//!   does instead). The split's three other tests hold on trunk too and are kept.
//! - `fuzz`: the invariants of StickyTaskAssignorFuzzTest, TaskAssignorTestbed and
//!   AssignmentInvariants, as a property over random groups under random changes.
//! - `refiner`: AssignmentRefinerTest.
//! - `refiner_fuzz`: RefinerFuzzTest's scenarios (seed 1071, 100 scenarios) through a port of
//!   RefinerFuzzScenario, RefinerFuzzSimulator, RefinerInvariants and the reconciler
//!   (CurrentAssignmentBuilder), against Kafka's pinned totals.

mod fuzz;
mod refiner;
mod refiner_fuzz;
mod sticky;

use handoff::assignor::kip1071::{
    assign, GroupAssignment, GroupSpec, MemberSpec, Offsets, Subtopology, Tasks, Topology,
};
use std::collections::{BTreeMap, BTreeSet};

/// `mkMap(mkEntry(subtopology, Set.of(partitions...)), ...)`.
pub(super) fn tasks(entries: &[(&str, &[i32])]) -> Tasks {
    entries
        .iter()
        .filter(|(_, ps)| !ps.is_empty())
        .map(|(s, ps)| (s.to_string(), ps.iter().copied().collect()))
        .collect()
}

/// A set of partitions.
pub(super) fn set(partitions: &[i32]) -> BTreeSet<i32> {
    partitions.iter().copied().collect()
}

/// `createMemberMetadata(processId)`: a member with nothing.
pub(super) fn member(process: &str) -> MemberSpec {
    MemberSpec {
        process_id: process.to_string(),
        ..MemberSpec::default()
    }
}

/// `createMemberMetadata(processId, active, standby, warmup)`.
pub(super) fn member_with(
    process: &str,
    active: Tasks,
    standby: Tasks,
    warmup: Tasks,
) -> MemberSpec {
    MemberSpec {
        process_id: process.to_string(),
        active,
        standby,
        warmup,
        ..MemberSpec::default()
    }
}

/// Offsets by subtopology and partition.
pub(super) fn offsets(entries: &[(&str, &[(i32, i64)])]) -> Offsets {
    entries
        .iter()
        .map(|(s, os)| {
            (
                s.to_string(),
                os.iter().copied().collect::<BTreeMap<i32, i64>>(),
            )
        })
        .collect()
}

/// `createMemberMetadataWithOffsets(processId, taskOffsets)`.
pub(super) fn member_with_offsets(process: &str, task_offsets: Offsets) -> MemberSpec {
    MemberSpec {
        process_id: process.to_string(),
        task_offsets,
        ..MemberSpec::default()
    }
}

/// The test's `TopologyDescriberImpl(numTasks, isStateful, subtopologies)`.
pub(super) fn topology(partitions: u32, stateful: bool, ids: &[&str]) -> Topology {
    Topology {
        subtopologies: ids
            .iter()
            .map(|id| Subtopology {
                id: id.to_string(),
                partitions,
                stateful,
            })
            .collect(),
    }
}

/// A group of the members in the given order (Kafka's fixtures are insertion-ordered maps).
pub(super) fn group(members: Vec<(&str, MemberSpec)>, standbys: u32) -> GroupSpec {
    GroupSpec {
        members: members
            .into_iter()
            .map(|(id, m)| (id.to_string(), m))
            .collect(),
        num_standby_replicas: standbys,
        ..GroupSpec::default()
    }
}

/// Runs the assignor on a group Kafka's tests build.
pub(super) fn run(group: &GroupSpec, topology: &Topology) -> GroupAssignment {
    assign(group, topology).expect("a group the assignor accepts")
}
