//! Why a run did not come to rest, in a sentence a reviewer understands: what was still under
//! way when it stopped, and whether it could ever end.

use super::counted;
use super::units::{duration, grouped};
use crate::engine::Engine;
use crate::model::{Strategy, TaskId};

/// A learner or warm-up still replaying when the run stopped.
struct Pending {
    task: TaskId,
    member: String,
    /// Records still to replay to be ready.
    left: f64,
    /// How long until ready at the rate it replays now; `None`: it does not gain.
    eta_ms: Option<u64>,
    write_rate: f64,
    rate: f64,
}

/// Why the group is not at rest at the end of `engine`'s run, or `None` if it is.
pub fn why_not_at_rest(engine: &Engine) -> Option<String> {
    if engine.at_rest() {
        return None;
    }
    let strategy = engine.config().strategy;
    let pending = pending_learners(engine);
    let roster = engine.roster();
    let stuck: Vec<&Pending> = pending.iter().filter(|p| p.eta_ms.is_none()).collect();
    let mut out = format!(
        "Not at rest when the run stopped at {}: ",
        duration(engine.time())
    );
    if let Some(p) = stuck.first() {
        out.push_str(&format!(
            "{}'s {} on {} is {} records short of ready and replays at {} records/s, no faster than its changelog grows ({} records/s), so it never catches up",
            roster.task(p.task),
            replica_word(strategy),
            p.member,
            grouped(p.left.round() as u64),
            grouped(p.rate.round() as u64),
            grouped(p.write_rate.round() as u64),
        ));
        if stuck.len() > 1 {
            out.push_str(&format!(" ({} such in all)", stuck.len()));
        }
        out.push('.');
        return Some(out);
    }
    let slowest = pending.iter().filter_map(|p| p.eta_ms).max();
    let under_way = match (pending.len(), slowest) {
        (0, _) | (_, None) => String::new(),
        (n, Some(eta)) => format!(
            "{} still under way (the slowest ready in about {})",
            counted(n as u64, replica_word(strategy)),
            duration(eta)
        ),
    };
    out.push_str(&match strategy {
        Strategy::Kip441 => {
            let k = &engine.config().kip441;
            format!(
                "Kafka Streams' assignor promotes warm-ups only at a probing rebalance, every {}, at most {} at a time, and places the next ones as those move{}; tasks still away from the members it deals them to wait for later probes.",
                duration(k.probing_interval_ms),
                k.max_warmup_replicas,
                if under_way.is_empty() { String::new() } else { format!(": {under_way}") },
            )
        }
        _ if !under_way.is_empty() => format!("{under_way}; each move waits for its own."),
        _ => "members were still rebalancing, or away, when the scenario's horizon came.".into(),
    });
    Some(out)
}

fn replica_word(strategy: Strategy) -> &'static str {
    match strategy {
        Strategy::Kip441 | Strategy::Kip1071Warmup => "warm-up",
        _ => "learner",
    }
}

/// Every learner or warm-up of a live member not ready yet, with what it has left.
fn pending_learners(engine: &Engine) -> Vec<Pending> {
    let mut pending = Vec::new();
    for (i, m) in engine.members().iter().enumerate() {
        if !m.status.alive() {
            continue;
        }
        let id = crate::model::MemberId(i as u32);
        for &t in &m.learning {
            let p = engine.progress(id, t, true);
            if p.done {
                continue;
            }
            let replay = engine.replays(id).iter().find(|r| r.task == t);
            pending.push(Pending {
                task: t,
                member: m.name.clone(),
                left: (p.lag - p.target).max(0.0),
                eta_ms: p.eta_ms,
                write_rate: replay.map_or(engine.tasks()[t.index()].write_rate as f64, |r| {
                    r.write_rate
                }),
                rate: replay.map_or(0.0, |r| r.rate),
            });
        }
    }
    pending
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Scenario;

    fn end_of(json: &str, until: u64) -> Engine {
        let scenario = Scenario::from_json(json).expect("valid scenario");
        let mut out = Vec::new();
        let mut engine = Engine::new(&scenario, &mut out);
        for c in &scenario.commands {
            engine.advance_to(c.at_ms, &mut out);
            engine.apply(&c.command, &mut out).expect("applies");
        }
        engine.advance_to(until, &mut out);
        engine
    }

    #[test]
    fn a_learner_slower_than_its_changelog_never_catches_up() {
        // S2 replays T1 at 500 records/s while T1 is written at 1,000 records/s.
        let e = end_of(
            r#"{ "name": "slow", "config": { "rebalance_ms": 500, "restore_rate": 500 },
                "tasks": [ { "id": "T1", "changelog": 100000, "write_rate": 1000 },
                           { "id": "T2", "changelog": 100000, "write_rate": 1000 } ],
                "members": [ { "id": "S1" } ], "initial": { "S1": ["T1", "T2"] },
                "events": [ { "at_ms": 0, "join": "S2" } ] }"#,
            600_000,
        );
        let why = why_not_at_rest(&e).expect("not at rest");
        assert!(
            why.starts_with("Not at rest when the run stopped at 10 min: T"),
            "{why}"
        );
        assert!(
            why.contains("replays at 500 records/s, no faster than its changelog grows (1,000 records/s), so it never catches up"),
            "{why}"
        );
    }

    #[test]
    fn a_group_at_rest_needs_no_explanation() {
        let e = end_of(
            r#"{ "name": "rest", "config": { "rebalance_ms": 500 },
                "tasks": [ { "id": "T1", "changelog": 1000 } ],
                "members": [ { "id": "S1" } ], "initial": { "S1": ["T1"] } }"#,
            60_000,
        );
        assert_eq!(why_not_at_rest(&e), None);
    }

    #[test]
    fn kip441_waiting_for_probes_says_so() {
        // Two warm-ups at a time, one probe every 10 min, six tasks to move to a new member:
        // an hour in, the group still waits for probes.
        let tasks: Vec<String> = (1..=12)
            .map(|i| format!(r#"{{ "id": "T{i}", "changelog": 100000 }}"#))
            .collect();
        let json = format!(
            r#"{{ "name": "probes", "config": {{ "strategy": "kip441", "rebalance_ms": 500, "kip441": {{ "max_warmup_replicas": 1, "acceptable_recovery_lag": 0 }} }},
                "tasks": [ {} ], "members": [ {{ "id": "S1" }} ],
                "events": [ {{ "at_ms": 1000, "join": "S2" }} ] }}"#,
            tasks.join(", ")
        );
        let e = end_of(&json, 1_500_000);
        let why = why_not_at_rest(&e).expect("not at rest");
        assert!(
            why.contains(
                "promotes warm-ups only at a probing rebalance, every 10 min, at most 1 at a time"
            ),
            "{why}"
        );
    }
}
