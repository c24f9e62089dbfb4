//! The JSON the command line prints: a run's rounds and metrics, an assignment. These formats
//! are public (tests and reviews read them): fields may be added, never renamed.

use crate::engine::coordinator::Round;
use crate::engine::Engine;
use crate::metrics::Metrics;
use crate::model::{Assignment, JoinMetadata, MemberAssignment, Roster, TaskId};
use serde_json::{json, Map, Value};

fn names(roster: &Roster, tasks: &[TaskId]) -> Value {
    Value::from(roster.task_names(tasks))
}

/// One member's join metadata.
pub fn join_metadata(roster: &Roster, meta: &JoinMetadata) -> Value {
    let lags: Map<String, Value> = meta
        .lags
        .iter()
        .map(|&(t, lag)| (roster.task(t).to_string(), Value::from(lag)))
        .collect();
    json!({
        "assigned": names(roster, &meta.assigned),
        "revoked": names(roster, &meta.revoked),
        "learning": names(roster, &meta.learning),
        "standby": names(roster, &meta.standby),
        "lags": lags,
        "leaving": meta.leaving,
    })
}

/// One member's assignment.
pub fn member_assignment(roster: &Roster, a: &MemberAssignment) -> Value {
    json!({
        "assigned": names(roster, &a.assigned),
        "revoked": names(roster, &a.revoked),
        "learning": names(roster, &a.learning),
        "standby": names(roster, &a.standby),
        "learned": names(roster, &a.learned),
    })
}

/// An assignment: member name to its assignment, in join order, and the follow-up flag.
pub fn assignment(roster: &Roster, assignment: &Assignment) -> Value {
    let members: Map<String, Value> = assignment
        .members
        .iter()
        .map(|(m, a)| (roster.member(*m).to_string(), member_assignment(roster, a)))
        .collect();
    json!({ "members": members, "followup": assignment.followup })
}

/// One round.
pub fn round(roster: &Roster, round: &Round) -> Value {
    let joined: Map<String, Value> = round
        .joined
        .iter()
        .map(|m| {
            (
                roster.member(m.member).to_string(),
                join_metadata(roster, m),
            )
        })
        .collect();
    let members: Map<String, Value> = round
        .assignment
        .members
        .iter()
        .map(|(m, a)| (roster.member(*m).to_string(), member_assignment(roster, a)))
        .collect();
    let causes = crate::engine::coordinator::Cause::describe_all(&round.causes, roster);
    json!({
        "round": round.index,
        "generation": round.generation,
        "at_ms": round.started_at,
        "assigned_at_ms": round.assigned_at,
        "synced_at_ms": round.synced_at,
        "abandoned": round.abandoned,
        "leader": roster.member(round.leader),
        "cause": causes.join("; "),
        "causes": round.causes.iter().map(|c| c.kind()).collect::<Vec<_>>(),
        "joined": joined,
        "assignment": members,
        "followup": round.assignment.followup,
        "departed": round.departed.iter().map(|&m| roster.member(m)).collect::<Vec<_>>(),
    })
}

/// The metrics of a run.
pub fn metrics(roster: &Roster, m: &Metrics) -> Value {
    let per_task: Map<String, Value> = m
        .task_downtime
        .iter()
        .enumerate()
        .map(|(t, d)| {
            (
                roster.task(TaskId(t as u32)).to_string(),
                Value::from(d.total_ms),
            )
        })
        .collect();
    let longest: Map<String, Value> = m
        .task_downtime
        .iter()
        .enumerate()
        .map(|(t, d)| {
            (
                roster.task(TaskId(t as u32)).to_string(),
                Value::from(d.longest_ms),
            )
        })
        .collect();
    let assignment: Map<String, Value> = m
        .assignment
        .iter()
        .map(|(member, tasks)| (roster.member(*member).to_string(), names(roster, tasks)))
        .collect();
    json!({
        "ended_at_ms": m.at_ms,
        "rebalances": m.rebalances,
        "time_to_balance_ms": m.time_to_balance_ms,
        "total_task_downtime_ms": m.total_task_downtime_ms,
        "max_task_downtime_ms": m.max_task_downtime_ms,
        "longest_outage_ms": m.longest_outage_ms,
        "task_downtime_ms": per_task,
        "task_longest_outage_ms": longest,
        "records_replayed": m.records_replayed,
        "standby_records_replayed": m.standby_records_replayed,
        "moves": m.moves,
        "at_rest": m.at_rest,
        "balanced": m.balanced,
        "assignment": assignment,
    })
}

/// A whole run: `{"rounds": [...], "metrics": {...}}`.
pub fn run(engine: &Engine, rounds: &[Round]) -> Value {
    let roster = engine.roster();
    json!({
        "rounds": rounds.iter().map(|r| round(roster, r)).collect::<Vec<_>>(),
        "metrics": metrics(roster, &Metrics::of(engine)),
    })
}
