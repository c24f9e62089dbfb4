//! The seed's log format: a heading per rebalance with its cause, the join lines, then
//! `S1 performs task assignments:` and one `S1(assigned: [T1, T2], revoked: [], learning: [T3])`
//! line per member (with `standby: [...]` when standbys are configured).

use crate::engine::coordinator::{Cause, Round};
use crate::engine::Engine;
use crate::model::{JoinMetadata, MemberAssignment, Roster, TaskId};
use crate::views::metrics::Metrics;
use std::fmt::Write;
use std::rc::Rc;

const ORDINALS: [&str; 20] = [
    "First",
    "Second",
    "Third",
    "Fourth",
    "Fifth",
    "Sixth",
    "Seventh",
    "Eighth",
    "Ninth",
    "Tenth",
    "Eleventh",
    "Twelfth",
    "Thirteenth",
    "Fourteenth",
    "Fifteenth",
    "Sixteenth",
    "Seventeenth",
    "Eighteenth",
    "Nineteenth",
    "Twentieth",
];

/// The heading of a round, such as `#First Rebalance`.
pub fn heading(index: u32) -> String {
    match ORDINALS.get(index.saturating_sub(1) as usize) {
        Some(word) if index > 0 => format!("#{word} Rebalance"),
        _ => format!("#Rebalance {index}"),
    }
}

fn list(roster: &Roster, tasks: &[TaskId]) -> String {
    let names: Vec<&str> = tasks.iter().map(|&t| roster.task(t)).collect();
    format!("[{}]", names.join(", "))
}

/// One member's line: `S1(assigned: [T1], revoked: [], learning: [T3])`.
pub fn member_line(
    roster: &Roster,
    name: &str,
    assigned: &[TaskId],
    revoked: &[TaskId],
    learning: &[TaskId],
    standby: Option<&[TaskId]>,
) -> String {
    let mut line = format!(
        "{name}(assigned: {}, revoked: {}, learning: {}",
        list(roster, assigned),
        list(roster, revoked),
        list(roster, learning)
    );
    if let Some(standby) = standby {
        let _ = write!(line, ", standby: {}", list(roster, standby));
    }
    line.push(')');
    line
}

/// A join line, with the seed's kind of comment when a member is leaving or has learners.
pub fn join_line(roster: &Roster, meta: &JoinMetadata, standbys: bool, ready_lag: u64) -> String {
    let name = roster.member(meta.member);
    let mut line = member_line(
        roster,
        name,
        &meta.assigned,
        &meta.revoked,
        &meta.learning,
        standbys.then_some(meta.standby.as_slice()),
    );
    let mut notes = Vec::new();
    if meta.leaving {
        notes.push("leaving".to_string());
    }
    if !meta.learning.is_empty() {
        let ready: Vec<TaskId> = meta
            .learning
            .iter()
            .copied()
            .filter(|&t| meta.lag(t).is_some_and(|l| l <= ready_lag))
            .collect();
        notes.push(if ready.is_empty() {
            "not ready yet".to_string()
        } else if ready.len() == meta.learning.len() {
            "ready".to_string()
        } else {
            format!("ready: {}", list(roster, &ready))
        });
    }
    if !notes.is_empty() {
        let _ = write!(line, " // {}", notes.join(", "));
    }
    line
}

/// An assignment line.
pub fn assignment_line(
    roster: &Roster,
    name: &str,
    a: &MemberAssignment,
    standbys: bool,
) -> String {
    member_line(
        roster,
        name,
        &a.assigned,
        &a.revoked,
        &a.learning,
        standbys.then_some(a.standby.as_slice()),
    )
}

fn names(roster: &Roster, joined: &[Rc<JoinMetadata>]) -> String {
    let names: Vec<&str> = joined.iter().map(|m| roster.member(m.member)).collect();
    names.join(", ")
}

/// One round in the seed's notation.
pub fn round(roster: &Roster, round: &Round, standbys: bool, ready_lag: u64) -> String {
    round_showing(roster, round, standbys, ready_lag, |_| true)
}

/// One round in the seed's notation with only the members `show` keeps in its join and
/// assignment lines, and a line counting the others (as [`round`] when it keeps them all).
pub fn round_showing(
    roster: &Roster,
    round: &Round,
    standbys: bool,
    ready_lag: u64,
    show: impl Fn(&JoinMetadata) -> bool,
) -> String {
    let shown: Vec<&JoinMetadata> = round
        .joined
        .iter()
        .map(|m| &**m)
        .filter(|m| show(m))
        .collect();
    let quiet = round.joined.len() - shown.len();
    let mut out = String::new();
    let epoch = if round.by_coordinator {
        "group epoch"
    } else {
        "generation"
    };
    let _ = writeln!(
        out,
        "{} ({epoch} {}, {} ms)",
        heading(round.index),
        round.generation,
        round.started_at
    );
    for sentence in cause_sentences(&round.causes, roster) {
        let _ = writeln!(out, "{sentence}");
    }
    if let Some(previous) = round.previous_leader {
        let _ = writeln!(
            out,
            "{} takes over the leader from {}.",
            roster.member(round.leader),
            roster.member(previous)
        );
    }
    let leader = if round.by_coordinator {
        "The group coordinator".to_string()
    } else {
        roster.member(round.leader).to_string()
    };
    if quiet == 0 {
        let (noun, verb) = match (round.joined.len() == 1, round.by_coordinator) {
            (true, false) => ("Member", "joins"),
            (false, false) => ("Members", "join"),
            (true, true) => ("Member", "heartbeats"),
            (false, true) => ("Members", "heartbeat"),
        };
        let _ = writeln!(
            out,
            "{noun} {} {verb} with following metadata:",
            names(roster, &round.joined)
        );
        for meta in &round.joined {
            let _ = writeln!(out, "\t{}", join_line(roster, meta, standbys, ready_lag));
        }
        let _ = writeln!(out, "{leader} performs task assignments:");
        for (member, a) in &round.assignment.members {
            let _ = writeln!(
                out,
                "\t{}",
                assignment_line(roster, roster.member(*member), a, standbys)
            );
        }
    } else {
        let _ = writeln!(
            out,
            "{} members {} with following metadata:",
            round.joined.len(),
            if round.by_coordinator {
                "heartbeat"
            } else {
                "join"
            }
        );
        for meta in &shown {
            let _ = writeln!(out, "\t{}", join_line(roster, meta, standbys, ready_lag));
        }
        let _ = writeln!(out, "\t({quiet} more, with nothing to report)");
        let _ = writeln!(out, "{leader} performs task assignments:");
        for meta in &shown {
            if let Some(a) = round.assignment.of(meta.member) {
                let _ = writeln!(
                    out,
                    "\t{}",
                    assignment_line(roster, roster.member(meta.member), a, standbys)
                );
            }
        }
        let _ = writeln!(out, "\t({quiet} more, unchanged)");
    }
    if round.abandoned {
        let _ = writeln!(
            out,
            "{leader} was gone before the sync: this assignment never reached the members."
        );
    }
    for &m in &round.departed {
        let _ = writeln!(
            out,
            "{} shuts itself down upon the new assignment since there is no assigned task left.",
            roster.member(m)
        );
    }
    out
}

/// The whole log of a run: every round, then how the run ended.
pub fn log(engine: &Engine, rounds: &[Round]) -> String {
    let roster = engine.roster();
    let standbys = engine.config().num_standby_replicas > 0;
    let ready_lag = engine.config().ready_lag();
    let mut out = String::new();
    for (i, r) in rounds.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str(&round(roster, r, standbys, ready_lag));
    }
    let metrics = Metrics::of(engine);
    let members = super::counted(metrics.assignment.len() as u64, "member");
    let tasks = super::counted(engine.tasks().len() as u64, "task");
    if !rounds.is_empty() {
        out.push('\n');
    }
    if metrics.at_rest && metrics.balanced {
        let _ = writeln!(
            out,
            "Now the group reaches balance with {members} and {tasks} ({} ms).",
            metrics.rest_since_ms.unwrap_or(engine.time())
        );
    } else if metrics.at_rest {
        let _ = writeln!(
            out,
            "The group is at rest with {members} and {tasks} ({} ms).",
            metrics.rest_since_ms.unwrap_or(engine.time())
        );
    } else if rounds.len() >= crate::history::MAX_ROUNDS {
        let _ = writeln!(
            out,
            "The run stopped at {} ms after {} rebalances, the most a run is simulated for, before the group came to rest.",
            engine.time(),
            rounds.len()
        );
    } else {
        let _ = writeln!(
            out,
            "The run stopped at {} ms before the group came to rest.",
            engine.time()
        );
    }
    out
}

/// A short sentence in the seed's style for why a round runs, such as "New member S4 joins
/// the group".
pub fn cause_sentence(cause: &Cause, roster: &Roster) -> String {
    match cause {
        Cause::Startup => "The group forms and takes its unassigned tasks".to_string(),
        Cause::MemberJoined(m) => joined_sentence(&[roster.member(*m)]),
        Cause::LearnerReady(m) => ready_sentence(&[roster.member(*m)]),
        Cause::Drain(m) => format!(
            "Member {} joins the group and claims that it is leaving",
            roster.member(*m)
        ),
        Cause::CrashDetected(m) => format!(
            "{} crashed; the coordinator notices after the session timeout",
            roster.member(*m)
        ),
        Cause::MemberLeft(m) => format!("Member {} leaves the group", roster.member(*m)),
        Cause::ScaleDownTimeout(m) => format!(
            "Member {} reaches its scale-down timeout and leaves",
            roster.member(*m)
        ),
        Cause::FollowUp => "Follow-up rebalance: revoked tasks get their new owner".to_string(),
        Cause::Probing => "Probing rebalance: caught-up warm-ups are promoted".to_string(),
        Cause::SessionTimeout(m) => format!(
            "{} restarted; the coordinator removes its old session after the session timeout",
            roster.member(*m)
        ),
        Cause::Returned(m) => format!(
            "Member {} comes back from its restart and joins the group as a new member",
            roster.member(*m)
        ),
        Cause::Closed(m) => format!(
            "{} closed without leaving the group; the coordinator removes it after the session timeout",
            roster.member(*m)
        ),
        Cause::Refined => {
            "The refiner promotes a caught-up warm-up: a new group epoch without the assignor"
                .to_string()
        }
    }
}

/// Sentences for a round's causes: members that joined (or got ready) together are named in
/// one sentence, as the seed does ("New members S2, S3 join the group").
pub fn cause_sentences(causes: &[Cause], roster: &Roster) -> Vec<String> {
    let mut joined = Vec::new();
    let mut ready = Vec::new();
    let mut rest = Vec::new();
    for cause in causes {
        match cause {
            Cause::MemberJoined(m) => joined.push(roster.member(*m)),
            Cause::LearnerReady(m) => ready.push(roster.member(*m)),
            other => rest.push(cause_sentence(other, roster)),
        }
    }
    let mut out = Vec::new();
    if !joined.is_empty() {
        out.push(joined_sentence(&joined));
    }
    if !ready.is_empty() {
        out.push(ready_sentence(&ready));
    }
    out.extend(rest);
    out
}

fn joined_sentence(names: &[&str]) -> String {
    match names {
        [one] => format!("New member {one} joins the group"),
        _ => format!("New members {} join the group", names.join(", ")),
    }
}

fn ready_sentence(names: &[&str]) -> String {
    match names {
        [one] => format!(
            "Member {one} finishes its replay and becomes ready, re-attempts to join the group"
        ),
        _ => format!(
            "Members {} finish their replay and become ready, re-attempt to join the group",
            names.join(", ")
        ),
    }
}
