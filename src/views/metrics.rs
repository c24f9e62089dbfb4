//! What the playground measures (docs/design.md, "What the playground measures"), read off the
//! engine at any moment.

use crate::engine::backlog::Backlog;
use crate::engine::Engine;
use crate::model::{MemberId, Task, TaskId};
use serde::{Deserialize, Serialize};

/// Downtime of one task.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
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
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
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
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Metrics {
    /// The moment.
    pub at_ms: u64,
    /// Rebalance rounds that reached an assignment.
    pub rebalances: u32,
    /// Times a task's ownership moved to another member.
    pub moves: u32,
    /// From the first command to the moment the group came to rest, if it is at rest.
    pub time_to_balance_ms: Option<u64>,
    /// From the first command to the moment the last task worked off the input that piled
    /// up while it was down, if the group is at rest and every backlog drains (a task
    /// processing no faster than its input never catches up).
    pub time_to_catch_up_ms: Option<u64>,
    /// Time spent working backlogs off, summed over tasks, so far.
    pub catching_up_ms: u64,
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
        let replayed = engine.replayed();
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
        let backlogs: Vec<Backlog> = (0..engine.tasks().len())
            .map(|t| engine.backlog(TaskId(t as u32)))
            .collect();
        let time_to_catch_up_ms = at_rest
            .then(|| caught_up(engine, &backlogs))
            .flatten()
            .map(|at| at.saturating_sub(tally.first_command_at.unwrap_or(0)));
        Metrics {
            at_ms: now,
            rebalances: tally.rebalances,
            moves: tally.moves,
            time_to_balance_ms,
            time_to_catch_up_ms,
            catching_up_ms: backlogs.iter().map(|b| b.catching_up_ms).sum(),
            total_task_downtime_ms: task_downtime.iter().map(|d| d.total_ms).sum(),
            max_task_downtime_ms: task_downtime.iter().map(|d| d.total_ms).max().unwrap_or(0),
            longest_outage_ms: task_downtime
                .iter()
                .map(|d| d.longest_ms)
                .max()
                .unwrap_or(0),
            task_downtime,
            records_replayed: (replayed.learners + replayed.actives).round() as u64,
            standby_records_replayed: replayed.standbys.round() as u64,
            at_rest,
            balanced: engine.balanced(),
            rest_since_ms: if at_rest { tally.rest_since } else { None },
            subtopology_balance: subtopology_balance(engine.tasks(), &assignment),
            assignment,
        }
    }
}

/// When the last task of a group at rest works its backlog off: the latest moment a task did,
/// or will at its processing rate less its input (nothing else happens at rest); `None` when a
/// task processes no faster than its input and is behind.
fn caught_up(engine: &Engine, backlogs: &[Backlog]) -> Option<u64> {
    let mut last = 0;
    for (t, b) in backlogs.iter().enumerate() {
        let spec = &engine.tasks()[t];
        let at = if b.behind() {
            let process = spec.process_rate.unwrap_or(engine.config().process_rate) as f64;
            let gain = process - spec.write_rate as f64;
            if gain <= 0.0 {
                return None;
            }
            b.since + (b.records / gain * 1000.0).ceil() as u64
        } else {
            b.caught_up_at.unwrap_or(0)
        };
        last = last.max(at);
    }
    Some(last)
}

/// How a measure's figures read: a duration, a count of rounds or moves, or records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// Milliseconds of virtual time.
    Ms,
    /// A count (rebalances, moves, tasks).
    Count,
    /// Changelog records.
    Records,
}

/// One measure of a run, as the comparison and the sweep show it: one row of [`MEASURES`].
/// Every measure is a cost, lower is better (the sweep's knee rule relies on it).
#[derive(Clone, Copy, Debug)]
pub struct Measure {
    /// Its name on the command line and in JSON: `total_downtime_ms`.
    pub id: &'static str,
    /// Its column in tables: `total downtime ms`.
    pub column: &'static str,
    /// What it is in a sentence: `total downtime`.
    pub name: &'static str,
    /// How its figures read.
    pub unit: Unit,
    /// Shown only for scenarios with a topology.
    pub topology_only: bool,
    /// Among a sweep's measures unless others are asked for.
    pub swept_by_default: bool,
    /// Its figure off the metrics: `None` when the run never got there (not at rest).
    read: fn(&Metrics) -> Option<u64>,
}

impl PartialEq for Measure {
    fn eq(&self, other: &Measure) -> bool {
        self.id == other.id
    }
}

impl Eq for Measure {}

/// Every measure, in the order the comparison's columns show them: adding a measure is adding
/// a row here (its column then appears in `handoff compare`, the report and sweeps).
#[rustfmt::skip]
pub const MEASURES: &[Measure] = &[
    Measure { id: "total_downtime_ms", column: "total downtime ms", name: "total downtime", unit: Unit::Ms, topology_only: false, swept_by_default: true, read: |m| Some(m.total_task_downtime_ms) },
    Measure { id: "longest_outage_ms", column: "longest outage ms", name: "longest outage", unit: Unit::Ms, topology_only: false, swept_by_default: false, read: |m| Some(m.longest_outage_ms) },
    Measure { id: "worst_task_ms", column: "worst task ms", name: "worst task", unit: Unit::Ms, topology_only: false, swept_by_default: true, read: |m| Some(m.max_task_downtime_ms) },
    Measure { id: "rebalances", column: "rebalances", name: "rebalances", unit: Unit::Count, topology_only: false, swept_by_default: true, read: |m| Some(u64::from(m.rebalances)) },
    Measure { id: "time_to_balance_ms", column: "time to balance ms", name: "time to balance", unit: Unit::Ms, topology_only: false, swept_by_default: true, read: |m| m.time_to_balance_ms },
    Measure { id: "time_to_catch_up_ms", column: "time to catch up ms", name: "time to catch up", unit: Unit::Ms, topology_only: false, swept_by_default: true, read: |m| m.time_to_catch_up_ms },
    Measure { id: "records_replayed", column: "records replayed", name: "records replayed", unit: Unit::Records, topology_only: false, swept_by_default: true, read: |m| Some(m.records_replayed) },
    Measure { id: "moves", column: "moves", name: "moves", unit: Unit::Count, topology_only: false, swept_by_default: true, read: |m| Some(u64::from(m.moves)) },
    Measure { id: "subtopology_spread", column: "subtopology spread", name: "subtopology spread", unit: Unit::Count, topology_only: true, swept_by_default: false, read: |m| Some(u64::from(m.subtopology_balance.iter().map(SubtopologyBalance::spread).max().unwrap_or(0))) },
];

impl Measure {
    /// The measure of this id, if there is one.
    pub fn find(id: &str) -> Option<Measure> {
        MEASURES.iter().find(|m| m.id == id).copied()
    }

    /// The ids of every measure, in table order.
    pub fn ids() -> impl Iterator<Item = &'static str> {
        MEASURES.iter().map(|m| m.id)
    }

    /// Its figure off the metrics of a run: `None` when the run never got there.
    pub fn read(&self, m: &Metrics) -> Option<u64> {
        (self.read)(m)
    }

    /// Its figure as tables print it.
    pub fn cell(&self, m: &Metrics) -> String {
        figure(self.read(m))
    }
}

/// A measure's figure as tables print it: the number, or `never` for a run that did not get
/// there within its horizon (not at rest).
pub fn figure(value: Option<u64>) -> String {
    value.map_or("never".to_string(), |v| v.to_string())
}

impl serde::Serialize for Measure {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.id)
    }
}

impl<'de> serde::Deserialize<'de> for Measure {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Measure, D::Error> {
        let id = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        Measure::find(&id).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "unknown measure `{id}`, expected one of {}",
                Measure::ids().collect::<Vec<_>>().join(", ")
            ))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn task(subtopology: Option<u32>) -> Task {
        Task {
            subtopology,
            ..Task::new("", true, 0, 0)
        }
    }

    #[test]
    fn each_measure_has_one_id_and_column_and_reads_its_metric() {
        for (i, m) in MEASURES.iter().enumerate() {
            assert_eq!(Measure::find(m.id), Some(*m));
            assert!(MEASURES[..i]
                .iter()
                .all(|o| o.id != m.id && o.column != m.column));
            let json = serde_json::to_string(m).expect("serializes");
            assert_eq!(json, format!("\"{}\"", m.id));
            assert_eq!(serde_json::from_str::<Measure>(&json).expect("parses"), *m);
        }
        assert!(Measure::find("speed").is_none());
        let e = serde_json::from_str::<Measure>("\"speed\"").expect_err("unknown");
        assert!(
            e.to_string()
                .contains("expected one of total_downtime_ms, "),
            "{e}"
        );
        let metrics = Metrics {
            at_ms: 9,
            rebalances: 3,
            moves: 4,
            time_to_balance_ms: None,
            time_to_catch_up_ms: Some(12),
            catching_up_ms: 8,
            total_task_downtime_ms: 500,
            max_task_downtime_ms: 300,
            longest_outage_ms: 200,
            task_downtime: Vec::new(),
            records_replayed: 70,
            standby_records_replayed: 0,
            at_rest: false,
            balanced: true,
            rest_since_ms: None,
            assignment: Vec::new(),
            subtopology_balance: vec![SubtopologyBalance {
                subtopology: 0,
                tasks: 4,
                min: 1,
                max: 3,
            }],
        };
        let cells: Vec<String> = MEASURES.iter().map(|m| m.cell(&metrics)).collect();
        assert_eq!(
            cells,
            ["500", "200", "300", "3", "never", "12", "70", "4", "2"]
        );
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
