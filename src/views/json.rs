//! The JSON the command line prints: a run's rounds and metrics, an assignment, a comparison.
//! These formats are public (tests and reviews read them): fields may be added, never renamed.
//! Each is a struct that serializes in its field order; maps keyed by member or task name keep
//! join order and task order.

use crate::engine::coordinator::Round;
use crate::engine::Engine;
use crate::model::{Assignment, JoinMetadata, MemberAssignment, Roster, TaskId};
use crate::views::metrics::{Metrics, SubtopologyBalance};
use crate::views::notation::cause_sentences;
use indexmap::IndexMap;
use serde::Serialize;

/// Names of a list of tasks.
fn names(roster: &Roster, tasks: &[TaskId]) -> Vec<String> {
    roster.task_names(tasks)
}

/// One member's join metadata.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct JoinJson {
    /// Tasks it still runs.
    pub assigned: Vec<String>,
    /// Tasks it released since its last assignment.
    pub revoked: Vec<String>,
    /// Tasks it learns.
    pub learning: Vec<String>,
    /// Tasks it keeps a standby of.
    pub standby: Vec<String>,
    /// Records behind, for every task whose state it holds.
    pub lags: IndexMap<String, u64>,
    /// Whether it is draining.
    pub leaving: bool,
}

impl JoinJson {
    /// Names the lists of a member's join metadata.
    pub fn of(roster: &Roster, meta: &JoinMetadata) -> JoinJson {
        JoinJson {
            assigned: names(roster, &meta.assigned),
            revoked: names(roster, &meta.revoked),
            learning: names(roster, &meta.learning),
            standby: names(roster, &meta.standby),
            lags: meta
                .lags
                .iter()
                .map(|&(t, lag)| (roster.task(t).to_string(), lag))
                .collect(),
            leaving: meta.leaving,
        }
    }
}

/// One member's assignment.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MemberAssignmentJson {
    /// Active tasks it runs from now on.
    pub assigned: Vec<String>,
    /// Tasks it ran before and no longer runs.
    pub revoked: Vec<String>,
    /// Tasks it learns.
    pub learning: Vec<String>,
    /// Tasks it keeps a standby of.
    pub standby: Vec<String>,
    /// Its active tasks that a learner replays.
    pub learned: Vec<String>,
}

impl MemberAssignmentJson {
    /// Names the lists of one member's assignment.
    pub fn of(roster: &Roster, a: &MemberAssignment) -> MemberAssignmentJson {
        MemberAssignmentJson {
            assigned: names(roster, &a.assigned),
            revoked: names(roster, &a.revoked),
            learning: names(roster, &a.learning),
            standby: names(roster, &a.standby),
            learned: names(roster, &a.learned),
        }
    }
}

/// Every member's assignment by name, in join order.
fn members(roster: &Roster, assignment: &Assignment) -> IndexMap<String, MemberAssignmentJson> {
    assignment
        .members
        .iter()
        .map(|(m, a)| {
            (
                roster.member(*m).to_string(),
                MemberAssignmentJson::of(roster, a),
            )
        })
        .collect()
}

/// What `handoff assign` prints: member name to its assignment, and the follow-up and
/// probing flags.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AssignmentJson {
    /// Each member's assignment, in join order.
    pub members: IndexMap<String, MemberAssignmentJson>,
    /// Another rebalance is needed at once.
    pub followup: bool,
    /// A probing rebalance is needed later (KIP-441: warm-ups are catching up).
    pub probing: bool,
}

impl AssignmentJson {
    /// Names an assignment.
    pub fn of(roster: &Roster, assignment: &Assignment) -> AssignmentJson {
        AssignmentJson {
            members: members(roster, assignment),
            followup: assignment.followup,
            probing: assignment.probing,
        }
    }
}

/// One round of a run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RoundJson {
    /// Its index in the run, from 1.
    pub round: u32,
    /// The generation it created.
    pub generation: u32,
    /// When it started.
    pub at_ms: u64,
    /// When the leader assigned.
    pub assigned_at_ms: u64,
    /// When the members received the assignment, if they did.
    pub synced_at_ms: Option<u64>,
    /// The leader crashed before the sync.
    pub abandoned: bool,
    /// The leader's name.
    pub leader: String,
    /// Why it ran, in words.
    pub cause: String,
    /// Why it ran, as kinds (`member_joined`, ...).
    pub causes: Vec<&'static str>,
    /// What each member reported, in join order.
    pub joined: IndexMap<String, JoinJson>,
    /// What the leader decided.
    pub assignment: IndexMap<String, MemberAssignmentJson>,
    /// Another rebalance follows at once.
    pub followup: bool,
    /// A probing rebalance follows later (KIP-441).
    pub probing: bool,
    /// Draining members that shut down on receiving it.
    pub departed: Vec<String>,
}

impl RoundJson {
    /// Names a round.
    pub fn of(roster: &Roster, round: &Round) -> RoundJson {
        RoundJson {
            round: round.index,
            generation: round.generation,
            at_ms: round.started_at,
            assigned_at_ms: round.assigned_at,
            synced_at_ms: round.synced_at,
            abandoned: round.abandoned,
            leader: roster.member(round.leader).to_string(),
            cause: cause_sentences(&round.causes, roster).join("; "),
            causes: round.causes.iter().map(|c| c.kind()).collect(),
            joined: round
                .joined
                .iter()
                .map(|m| (roster.member(m.member).to_string(), JoinJson::of(roster, m)))
                .collect(),
            assignment: members(roster, &round.assignment),
            followup: round.assignment.followup,
            probing: round.assignment.probing,
            departed: round
                .departed
                .iter()
                .map(|&m| roster.member(m).to_string())
                .collect(),
        }
    }
}

/// The metrics of a run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MetricsJson {
    /// The moment they were read.
    pub ended_at_ms: u64,
    /// Rounds that reached an assignment.
    pub rebalances: u32,
    /// From the first command to rest, if the group is at rest.
    pub time_to_balance_ms: Option<u64>,
    /// From the first command to the moment the last task worked off its backlog, if the
    /// group is at rest and every backlog drains.
    pub time_to_catch_up_ms: Option<u64>,
    /// Time spent working backlogs off, summed over tasks.
    pub catching_up_ms: u64,
    /// Downtime summed over tasks.
    pub total_task_downtime_ms: u64,
    /// The largest downtime of any one task.
    pub max_task_downtime_ms: u64,
    /// The longest single outage.
    pub longest_outage_ms: u64,
    /// Downtime per task.
    pub task_downtime_ms: IndexMap<String, u64>,
    /// Longest outage per task.
    pub task_longest_outage_ms: IndexMap<String, u64>,
    /// Records replayed by learners and restoring actives.
    pub records_replayed: u64,
    /// Records replayed by standbys.
    pub standby_records_replayed: u64,
    /// Times a task's ownership moved.
    pub moves: u32,
    /// No learner, no rebalance pending, every task running.
    pub at_rest: bool,
    /// Active tasks spread by capacity.
    pub balanced: bool,
    /// Each member's active tasks, in join order.
    pub assignment: IndexMap<String, Vec<String>>,
    /// The balance of each subtopology (empty unless the scenario has a topology).
    pub subtopology_balance: Vec<SubtopologyBalanceJson>,
}

/// How evenly one subtopology's active tasks are spread over the members in the group.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SubtopologyBalanceJson {
    /// Its index: the first number of its task names.
    pub subtopology: u32,
    /// Its name in the scenario.
    pub name: String,
    /// Its tasks.
    pub tasks: u32,
    /// The fewest of its active tasks on one member.
    pub min: u32,
    /// The most of its active tasks on one member.
    pub max: u32,
    /// `max - min` (Kafka Streams' measure: balanced at 0 or 1).
    pub spread: u32,
}

impl SubtopologyBalanceJson {
    /// Names one subtopology's balance.
    pub fn of(roster: &Roster, b: &SubtopologyBalance) -> SubtopologyBalanceJson {
        SubtopologyBalanceJson {
            subtopology: b.subtopology,
            name: roster
                .subtopologies
                .get(b.subtopology as usize)
                .cloned()
                .unwrap_or_else(|| b.subtopology.to_string()),
            tasks: b.tasks,
            min: b.min,
            max: b.max,
            spread: b.spread(),
        }
    }
}

impl MetricsJson {
    /// Names the metrics of a run.
    pub fn of(roster: &Roster, m: &Metrics) -> MetricsJson {
        let per_task = |f: fn(&crate::views::metrics::TaskDowntime) -> u64| {
            m.task_downtime
                .iter()
                .enumerate()
                .map(|(t, d)| (roster.task(TaskId(t as u32)).to_string(), f(d)))
                .collect()
        };
        MetricsJson {
            ended_at_ms: m.at_ms,
            rebalances: m.rebalances,
            time_to_balance_ms: m.time_to_balance_ms,
            time_to_catch_up_ms: m.time_to_catch_up_ms,
            catching_up_ms: m.catching_up_ms,
            total_task_downtime_ms: m.total_task_downtime_ms,
            max_task_downtime_ms: m.max_task_downtime_ms,
            longest_outage_ms: m.longest_outage_ms,
            task_downtime_ms: per_task(|d| d.total_ms),
            task_longest_outage_ms: per_task(|d| d.longest_ms),
            records_replayed: m.records_replayed,
            standby_records_replayed: m.standby_records_replayed,
            moves: m.moves,
            at_rest: m.at_rest,
            balanced: m.balanced,
            assignment: m
                .assignment
                .iter()
                .map(|(member, tasks)| (roster.member(*member).to_string(), names(roster, tasks)))
                .collect(),
            subtopology_balance: m
                .subtopology_balance
                .iter()
                .map(|b| SubtopologyBalanceJson::of(roster, b))
                .collect(),
        }
    }
}

/// What `handoff run --format json` prints: every round, then the metrics.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RunJson {
    /// The rounds, in order.
    pub rounds: Vec<RoundJson>,
    /// The metrics at the end.
    pub metrics: MetricsJson,
}

impl RunJson {
    /// Names a whole run.
    pub fn of(engine: &Engine, rounds: &[Round]) -> RunJson {
        let roster = engine.roster();
        RunJson {
            rounds: rounds.iter().map(|r| RoundJson::of(roster, r)).collect(),
            metrics: MetricsJson::of(roster, &Metrics::of(engine)),
        }
    }
}
