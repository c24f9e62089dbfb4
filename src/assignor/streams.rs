//! The strategies `kip1071` and `kip1071-warmup` behind the leader's interface, for a group
//! known only by its join metadata (`handoff assign`, the playground's "what would the leader
//! do"): each member's tasks are dealt to its stream threads in task order, Kafka's sticky
//! assignor places them, and under `kip1071-warmup` trunk's refiner holds back the moves that
//! need a warm-up. The engine runs the protocol itself, with each thread's real tasks.

use super::kip1071::bridge::{
    assign_processes, refine_processes, KafkaTasks, Process, ProcessState, ThreadTasks,
};
use super::kip1071::Release;
use super::plan::Plan;
use super::AssignError;
use crate::model::{Assignment, JoinMetadata, MemberAssignment, Strategy, TaskId};
use std::rc::Rc;

/// Deals a list over `threads` threads in turn.
fn deal(list: &[TaskId], threads: usize) -> Vec<Vec<TaskId>> {
    let mut out = vec![Vec::new(); threads];
    for (i, &t) in list.iter().enumerate() {
        out[i % threads].push(t);
    }
    out
}

/// A member's tasks over its threads, as the broker would last have placed them.
fn threads_of(meta: &JoinMetadata) -> Vec<ThreadTasks> {
    let n = meta.capacity.max(1) as usize;
    let (active, standby, warmup) = (
        deal(&meta.assigned, n),
        deal(&meta.standby, n),
        deal(&meta.learning, n),
    );
    (0..n)
        .map(|i| ThreadTasks {
            active: active[i].clone(),
            standby: standby[i].clone(),
            warmup: warmup[i].clone(),
        })
        .collect()
}

/// The union of a process's threads' tasks of one role, sorted.
fn union(threads: &[ThreadTasks], role: fn(&ThreadTasks) -> &Vec<TaskId>) -> Vec<TaskId> {
    let mut all: Vec<TaskId> = threads.iter().flat_map(|t| role(t).clone()).collect();
    all.sort_unstable();
    all
}

/// Kafka's decision for the members of `plan`, as Handoff's assignment.
pub fn assign(plan: Plan<'_>) -> Result<Assignment, AssignError> {
    let input = plan.input;
    if input.members.is_empty() {
        return Ok(Assignment::default());
    }
    let config = input.config;
    let tasks = KafkaTasks::new(input.tasks);
    let names: Vec<String> = input
        .members
        .iter()
        .map(|m| format!("S{}", m.member.0 + 1))
        .collect();
    let threads: Vec<Vec<ThreadTasks>> = input.members.iter().map(threads_of).collect();
    let processes: Vec<Process<'_>> = input
        .members
        .iter()
        .zip(&names)
        .zip(&threads)
        .map(|((m, name), threads)| Process {
            member: m.member,
            name,
            threads,
        })
        .collect();
    let warmup = config.strategy == Strategy::Kip1071Warmup;
    // Trunk's members report offset sums of their state; 4.1 to 4.3's report none.
    let offsets: Vec<Vec<(TaskId, i64, Option<i64>)>> = input
        .members
        .iter()
        .map(|m| {
            m.lags
                .iter()
                .filter(|_| warmup)
                .map(|&(t, lag)| {
                    let end = input.tasks[t.index()].changelog;
                    let held = m.learning.contains(&t) || m.standby.contains(&t);
                    (
                        t,
                        end.saturating_sub(lag) as i64,
                        held.then_some(end as i64),
                    )
                })
                .collect()
        })
        .collect();
    let sums: Vec<Vec<(TaskId, i64)>> = offsets
        .iter()
        .map(|l| l.iter().map(|&(t, p, _)| (t, p)).collect())
        .collect();
    let release = if warmup {
        Release::Trunk
    } else {
        Release::Kafka43
    };
    let mut target = assign_processes(
        &tasks,
        &processes,
        &sums,
        config.num_standby_replicas,
        release,
    )
    .map_err(AssignError::Streams)?;
    if warmup {
        let none: Vec<ThreadTasks> = Vec::new();
        let states: Vec<ProcessState<'_>> = processes
            .iter()
            .zip(&offsets)
            .map(|(p, offsets)| ProcessState {
                process: p.clone(),
                pending_revocation: &none,
                offsets,
            })
            .collect();
        target = refine_processes(
            &tasks,
            &states,
            &target,
            config.max_learners.unwrap_or(0),
            config.acceptable_recovery_lag,
        );
    }
    let members = input
        .members
        .iter()
        .zip(&target)
        .map(|(meta, threads)| {
            let assigned = union(threads, |t| &t.active);
            let revoked = meta
                .assigned
                .iter()
                .copied()
                .filter(|t| assigned.binary_search(t).is_err())
                .collect();
            let given = MemberAssignment {
                assigned,
                revoked,
                learning: union(threads, |t| &t.warmup),
                standby: union(threads, |t| &t.standby),
                learned: Vec::new(),
            };
            (meta.member, Rc::new(given))
        })
        .collect();
    Ok(Assignment {
        members,
        followup: false,
        probing: false,
    })
}
