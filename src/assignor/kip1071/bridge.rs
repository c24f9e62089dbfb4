//! Handoff's group in Kafka's terms, for the strategies `kip1071` and `kip1071-warmup`: a
//! Handoff member of capacity N is one Kafka Streams process of N members (its stream
//! threads), and each task is a (subtopology id, partition). The ids are Handoff's own:
//! process `S3`, members `S3-1` to `S3-N` (Kafka makes UUIDs, so which member of two equal
//! ones comes first differs from a real group's).

use super::group::{GroupSpec, MemberSpec, Offsets, Release, Subtopology, Tasks, Topology};
use super::java::{string_map_order, HashMapCapacity};
use super::refiner::{MemberTaskOffsets, RefineInput, Refiner, StreamsGroupMember, TasksTuple};
use super::AssignorError;
use crate::model::{MemberId, TaskId, TaskInfo};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// What one stream thread (a Kafka member) holds or is to hold.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ThreadTasks {
    /// Active tasks, sorted.
    pub active: Vec<TaskId>,
    /// Standby tasks, sorted.
    pub standby: Vec<TaskId>,
    /// Warm-up tasks, sorted.
    pub warmup: Vec<TaskId>,
}

impl ThreadTasks {
    /// Whether it holds `task` in any role.
    pub fn holds(&self, task: TaskId) -> bool {
        [&self.active, &self.standby, &self.warmup]
            .iter()
            .any(|l| l.binary_search(&task).is_ok())
    }
}

/// One process (a Handoff member) as the broker sees it: its threads' tasks.
#[derive(Clone, Debug, PartialEq)]
pub struct Process<'a> {
    /// The Handoff member.
    pub member: MemberId,
    /// Its name: Kafka's process id.
    pub name: &'a str,
    /// One entry per stream thread.
    pub threads: &'a [ThreadTasks],
}

/// Kafka's task ids for Handoff's tasks. Tasks are grouped by subtopology and by whether they
/// are stateful (Kafka decides standbys per subtopology), each group numbered from 0 in task
/// order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KafkaTasks {
    ids: Vec<Arc<str>>,
    of_task: Vec<(usize, i32)>,
    tasks_of: Vec<Vec<TaskId>>,
    topology: Topology,
}

impl KafkaTasks {
    /// The numbering of `tasks`.
    pub fn new(tasks: &[TaskInfo]) -> KafkaTasks {
        let mut keys: Vec<(u32, bool)> = Vec::new();
        let mut of_task = Vec::with_capacity(tasks.len());
        let mut tasks_of: Vec<Vec<TaskId>> = Vec::new();
        for (i, t) in tasks.iter().enumerate() {
            let key = (t.subtopology, t.stateful);
            let k = keys.iter().position(|&x| x == key).unwrap_or_else(|| {
                keys.push(key);
                tasks_of.push(Vec::new());
                keys.len() - 1
            });
            of_task.push((k, tasks_of[k].len() as i32));
            tasks_of[k].push(TaskId(i as u32));
        }
        let ids: Vec<Arc<str>> = (0..keys.len()).map(|k| Arc::from(k.to_string())).collect();
        let topology = Topology {
            subtopologies: keys
                .iter()
                .enumerate()
                .map(|(k, &(_, stateful))| Subtopology {
                    id: ids[k].to_string(),
                    partitions: tasks_of[k].len() as u32,
                    stateful,
                })
                .collect(),
        };
        KafkaTasks {
            ids,
            of_task,
            tasks_of,
            topology,
        }
    }

    /// The topology Kafka's assignor is given.
    pub fn topology(&self) -> &Topology {
        &self.topology
    }

    /// The ids of the stateful subtopologies.
    pub fn stateful_subtopologies(&self) -> BTreeSet<String> {
        self.topology
            .subtopologies
            .iter()
            .filter(|s| s.stateful)
            .map(|s| s.id.clone())
            .collect()
    }

    /// Kafka's map of these tasks.
    pub fn tasks(&self, list: &[TaskId]) -> Tasks {
        let mut out = Tasks::new();
        for t in list {
            let (k, p) = self.of_task[t.index()];
            out.entry(self.ids[k].to_string()).or_default().insert(p);
        }
        out
    }

    /// Kafka's offsets map of these (task, offset) pairs.
    pub fn offsets(&self, list: &[(TaskId, i64)]) -> Offsets {
        let mut out = Offsets::new();
        for &(t, offset) in list {
            let (k, p) = self.of_task[t.index()];
            out.entry(self.ids[k].to_string())
                .or_default()
                .insert(p, offset);
        }
        out
    }

    /// Handoff's tasks of a Kafka map, sorted.
    pub fn handoff(&self, tasks: &Tasks) -> Vec<TaskId> {
        let mut out: Vec<TaskId> =
            tasks
                .iter()
                .filter_map(|(id, ps)| {
                    let k = self.ids.iter().position(|x| &**x == id.as_str())?;
                    Some(ps.iter().filter_map(move |&p| {
                        self.tasks_of[k].get(usize::try_from(p).ok()?).copied()
                    }))
                })
                .flatten()
                .collect();
        out.sort_unstable();
        out
    }
}

/// Kafka's member id of a process's thread (from 0).
pub fn member_id(process: &str, thread: usize) -> String {
    format!("{process}-{}", thread + 1)
}

/// The members in the order Kafka iterates its members map (a `HashMap` by member id).
fn member_order(ids: &[String]) -> Vec<usize> {
    string_map_order(ids, HashMapCapacity::Default).0
}

/// Runs Kafka's sticky assignor over the processes: each thread's previous target is its
/// stickiness, `offsets` (per process: on-disk offset sums, reported on trunk only) rank the
/// holders of state. Returns each process's threads' new target, in the order given.
pub fn assign_processes(
    tasks: &KafkaTasks,
    processes: &[Process<'_>],
    offsets: &[Vec<(TaskId, i64)>],
    num_standby_replicas: u32,
    release: Release,
) -> Result<Vec<Vec<ThreadTasks>>, AssignorError> {
    let mut ids = Vec::new();
    let mut specs = Vec::new();
    for (p, process) in processes.iter().enumerate() {
        for (i, thread) in process.threads.iter().enumerate() {
            ids.push(member_id(process.name, i));
            // A process's state on disk is reported by its first thread.
            let task_offsets = match (i, offsets.get(p)) {
                (0, Some(list)) => tasks.offsets(list),
                _ => Offsets::new(),
            };
            specs.push(MemberSpec {
                process_id: process.name.to_string(),
                active: tasks.tasks(&thread.active),
                standby: tasks.tasks(&thread.standby),
                warmup: tasks.tasks(&thread.warmup),
                task_offsets,
            });
        }
    }
    let order = member_order(&ids);
    let group = GroupSpec {
        members: order
            .iter()
            .map(|&m| (ids[m].clone(), specs[m].clone()))
            .collect(),
        num_standby_replicas,
        release,
    };
    let result = super::assign(&group, tasks.topology())?;
    let mut out = Vec::with_capacity(processes.len());
    for process in processes {
        let threads = (0..process.threads.len())
            .map(|i| {
                let a = result.members.get(&member_id(process.name, i));
                ThreadTasks {
                    active: a.map(|a| tasks.handoff(&a.active)).unwrap_or_default(),
                    standby: a.map(|a| tasks.handoff(&a.standby)).unwrap_or_default(),
                    warmup: Vec::new(),
                }
            })
            .collect();
        out.push(threads);
    }
    Ok(out)
}

/// What trunk's refiner is told of one process: what its threads hold, what they were told
/// to give up and have not yet released, and the offsets the process last reported (each
/// task's position and, for a replica or a restoring active, its changelog's end).
#[derive(Clone, Debug, PartialEq)]
pub struct ProcessState<'a> {
    /// The process.
    pub process: Process<'a>,
    /// Per thread, what it was told to give up and has not released.
    pub pending_revocation: &'a [ThreadTasks],
    /// Its last report: (task, position, end offset if it replays the task).
    pub offsets: &'a [(TaskId, i64, Option<i64>)],
}

/// Runs trunk's warm-up refiner on a target: what each process's threads are to hold now.
pub fn refine_processes(
    tasks: &KafkaTasks,
    states: &[ProcessState<'_>],
    target: &[Vec<ThreadTasks>],
    num_warmup_replicas: u32,
    acceptable_recovery_lag: u64,
) -> Vec<Vec<ThreadTasks>> {
    let tuple = |t: &ThreadTasks| TasksTuple {
        active: tasks.tasks(&t.active),
        standby: tasks.tasks(&t.standby),
        warmup: tasks.tasks(&t.warmup),
    };
    let mut members = Vec::new();
    let mut task_offsets = BTreeMap::new();
    let mut targets = BTreeMap::new();
    for (state, threads) in states.iter().zip(target) {
        let name = state.process.name;
        for (i, held) in state.process.threads.iter().enumerate() {
            let id = member_id(name, i);
            members.push(StreamsGroupMember {
                member_id: id.clone(),
                process_id: name.to_string(),
                assigned: tuple(held),
                pending_revocation: state
                    .pending_revocation
                    .get(i)
                    .map(tuple)
                    .unwrap_or_default(),
            });
            if let Some(t) = threads.get(i) {
                targets.insert(id.clone(), tuple(t));
            }
            // Each thread reports the tasks it holds; the first, the state no thread holds.
            let all = state.process.threads;
            let reports =
                |t: TaskId| held.holds(t) || (i == 0 && !all.iter().any(|other| other.holds(t)));
            let mine: Vec<&(TaskId, i64, Option<i64>)> =
                state.offsets.iter().filter(|o| reports(o.0)).collect();
            if !mine.is_empty() {
                let positions: Vec<(TaskId, i64)> = mine.iter().map(|&&(t, p, _)| (t, p)).collect();
                let ends: Vec<(TaskId, i64)> = mine
                    .iter()
                    .filter_map(|&&(t, _, end)| end.map(|e| (t, e)))
                    .collect();
                task_offsets.insert(
                    id,
                    MemberTaskOffsets {
                        offsets: tasks.offsets(&positions),
                        end_offsets: tasks.offsets(&ends),
                    },
                );
            }
        }
    }
    let stateful = tasks.stateful_subtopologies();
    let refiner = Refiner::new(RefineInput {
        members: &members,
        target: &targets,
        task_offsets: &task_offsets,
        stateful_subtopologies: &stateful,
        num_warmup_replicas,
        acceptable_recovery_lag: i64::try_from(acceptable_recovery_lag).unwrap_or(i64::MAX),
    });
    let refined = refiner.refine().to_map();
    states
        .iter()
        .zip(target)
        .map(|(state, threads)| {
            (0..threads.len())
                .map(|i| {
                    let id = member_id(state.process.name, i);
                    refined
                        .get(&id)
                        .map(|t| ThreadTasks {
                            active: tasks.handoff(&t.active),
                            standby: tasks.handoff(&t.standby),
                            warmup: tasks.handoff(&t.warmup),
                        })
                        .unwrap_or_default()
                })
                .collect()
        })
        .collect()
}
