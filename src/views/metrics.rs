//! What the playground measures (docs/design.md, "What the playground measures"), read off the
//! engine at any moment.

use crate::engine::Engine;
use crate::model::{MemberId, Task, TaskId};

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

/// How evenly one subtopology's active tasks are spread, as Kafka Streams measures it: over
/// the members in the group, the most and the fewest of its tasks one member runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SubtopologyBalance {
    /// The subtopology's index (the first number of its task names).
    pub subtopology: u32,
    /// Its tasks (partitions).
    pub tasks: u32,
    /// The fewest of its active tasks on one member in the group.
    pub min: u32,
    /// The most of its active tasks on one member in the group.
    pub max: u32,
}

impl SubtopologyBalance {
    /// `max - min`: 0 or 1 when the subtopology is balanced.
    pub fn spread(&self) -> u32 {
        self.max - self.min
    }
}

/// The balance of every subtopology (none when the tasks have no subtopology) for the active
/// tasks of each member in the group.
pub fn subtopology_balance(
    tasks: &[Task],
    assignment: &[(MemberId, Vec<TaskId>)],
) -> Vec<SubtopologyBalance> {
    let count = tasks
        .iter()
        .filter_map(|t| t.subtopology)
        .max()
        .map_or(0, |s| s as usize + 1);
    (0..count)
        .map(|s| {
            let ours = |t: &TaskId| {
                tasks
                    .get(t.index())
                    .is_some_and(|task| task.subtopology == Some(s as u32))
            };
            let per_member = assignment
                .iter()
                .map(|(_, active)| active.iter().filter(|t| ours(t)).count() as u32);
            SubtopologyBalance {
                subtopology: s as u32,
                tasks: tasks
                    .iter()
                    .filter(|t| t.subtopology == Some(s as u32))
                    .count() as u32,
                min: per_member.clone().min().unwrap_or(0),
                max: per_member.max().unwrap_or(0),
            }
        })
        .collect()
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
    /// The balance of each subtopology, when the scenario has a topology.
    pub subtopology_balance: Vec<SubtopologyBalance>,
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
        let assignment: Vec<(MemberId, Vec<TaskId>)> = engine
            .participants()
            .into_iter()
            .map(|m| (m, engine.member(m).active.clone()))
            .collect();
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
            subtopology_balance: subtopology_balance(engine.tasks(), &assignment),
            assignment,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn task(subtopology: Option<u32>) -> Task {
        Task {
            name: String::new(),
            stateful: true,
            changelog: 0,
            write_rate: 0,
            subtopology,
        }
    }

    #[test]
    fn subtopology_balance_counts_each_members_share_including_none() {
        let tasks = vec![
            task(Some(0)),
            task(Some(0)),
            task(Some(0)),
            task(Some(1)),
            task(Some(1)),
        ];
        let assignment = vec![
            (MemberId(0), vec![TaskId(0), TaskId(1), TaskId(3)]),
            (MemberId(1), vec![TaskId(2), TaskId(4)]),
            (MemberId(2), vec![]),
        ];
        let b = subtopology_balance(&tasks, &assignment);
        assert_eq!(
            b,
            [
                SubtopologyBalance {
                    subtopology: 0,
                    tasks: 3,
                    min: 0,
                    max: 2
                },
                SubtopologyBalance {
                    subtopology: 1,
                    tasks: 2,
                    min: 0,
                    max: 1
                }
            ]
        );
        assert_eq!(b[0].spread(), 2);
        assert!(subtopology_balance(&[task(None)], &assignment).is_empty());
        assert_eq!(
            subtopology_balance(&tasks, &[])[0].max,
            0,
            "nobody in the group"
        );
    }
}
