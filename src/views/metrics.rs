//! What the playground measures (docs/design.md, "What the playground measures"), read off the
//! engine at any moment.

use crate::engine::Engine;
use crate::model::{MemberId, TaskId};

/// Downtime of one task.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TaskDowntime {
    /// Total time down while some member was alive.
    pub total_ms: u64,
    /// The longest single outage.
    pub longest_ms: u64,
    /// How many outages.
    pub outages: u32,
}

/// The measures of a run at one moment.
#[derive(Clone, Debug, PartialEq)]
pub struct Metrics {
    /// The moment.
    pub at_ms: u64,
    /// Rebalance rounds that reached an assignment.
    pub rebalances: u32,
    /// Times a task's ownership moved to another member.
    pub moves: u32,
    /// From the first command to the moment the group came to rest, if it is at rest.
    pub time_to_balance_ms: Option<u64>,
    /// Downtime summed over tasks.
    pub total_task_downtime_ms: u64,
    /// The largest downtime of any one task.
    pub max_task_downtime_ms: u64,
    /// The longest single outage of any task.
    pub longest_outage_ms: u64,
    /// Downtime of each task.
    pub task_downtime: Vec<TaskDowntime>,
    /// Records replayed by learners and by restoring actives.
    pub records_replayed: u64,
    /// Records replayed by standbys keeping up.
    pub standby_records_replayed: u64,
    /// No learner, no rebalance pending, every task running.
    pub at_rest: bool,
    /// Active tasks spread by capacity.
    pub balanced: bool,
    /// When the group last came to rest, if it is at rest.
    pub rest_since_ms: Option<u64>,
    /// The active tasks of each member in the group, in join order.
    pub assignment: Vec<(MemberId, Vec<TaskId>)>,
}

impl Metrics {
    /// Reads the measures off the engine, counting outages still going on up to now.
    pub fn of(engine: &Engine) -> Metrics {
        let tally = engine.tally();
        let now = engine.time();
        let task_downtime: Vec<TaskDowntime> = (0..engine.tasks().len())
            .map(|t| {
                let open = tally.down_since[t].map_or(0, |since| now - since);
                TaskDowntime {
                    total_ms: tally.downtime[t] + open,
                    longest_ms: tally.longest[t].max(open),
                    outages: tally.outages[t],
                }
            })
            .collect();
        let at_rest = engine.at_rest();
        let time_to_balance_ms = match (at_rest, tally.rest_since) {
            (true, Some(rest)) => Some(rest.saturating_sub(tally.first_command_at.unwrap_or(0))),
            _ => None,
        };
        Metrics {
            at_ms: now,
            rebalances: tally.rebalances,
            moves: tally.moves,
            time_to_balance_ms,
            total_task_downtime_ms: task_downtime.iter().map(|d| d.total_ms).sum(),
            max_task_downtime_ms: task_downtime.iter().map(|d| d.total_ms).max().unwrap_or(0),
            longest_outage_ms: task_downtime
                .iter()
                .map(|d| d.longest_ms)
                .max()
                .unwrap_or(0),
            task_downtime,
            records_replayed: (tally.replayed_by_learners + tally.replayed_by_actives).round()
                as u64,
            standby_records_replayed: tally.replayed_by_standbys.round() as u64,
            at_rest,
            balanced: engine.balanced(),
            rest_since_ms: if at_rest { tally.rest_since } else { None },
            assignment: engine
                .participants()
                .into_iter()
                .map(|m| (m, engine.member(m).active.clone()))
                .collect(),
        }
    }
}
