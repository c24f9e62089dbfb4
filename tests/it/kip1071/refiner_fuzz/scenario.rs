//! RefinerFuzzScenario: a topology, a group settled on the sticky assignor's assignment, and a
//! schedule of events, all drawn from one seed with `java.util.Random` in Kafka's order.

use handoff::assignor::kip1071::java::JavaRandom;
use handoff::assignor::kip1071::TaskId;
use std::collections::BTreeMap;

/// How big a scenario can get (Kafka's `Profile.CI`).
pub struct Profile {
    pub min_subtopologies: i32,
    pub max_subtopologies: i32,
    pub min_partitions: i32,
    pub max_partitions: i32,
    pub min_processes: i32,
    pub max_processes: i32,
    pub min_members_per_process: i32,
    pub max_members_per_process: i32,
    pub stateless_one_in: i32,
    pub max_mid_run_episodes: i32,
}

pub const CI: Profile = Profile {
    min_subtopologies: 1,
    max_subtopologies: 3,
    min_partitions: 1,
    max_partitions: 12,
    min_processes: 1,
    max_processes: 6,
    min_members_per_process: 1,
    max_members_per_process: 3,
    stateless_one_in: 4,
    max_mid_run_episodes: 2,
};

fn draw(r: &mut JavaRandom, min: i32, max: i32) -> i32 {
    min + r.next_int_bounded(max - min + 1)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventKind {
    AddProcess,
    RemoveProcess,
    RestartProcess,
    AddMember,
    RemoveMember,
    SetStandbyReplicas,
    SetWarmupBudget,
    Failover,
    StickyTarget,
    SyntheticTarget,
}

#[derive(Clone, Debug)]
pub struct Event {
    pub tick: i32,
    pub kind: EventKind,
    pub process: String,
    pub value: i32,
    pub seed: i64,
}

const MAX_COMPACTED_SIZE: i32 = 30_000;
const WARMUP_BUDGETS: [i32; 7] = [1, 1, 2, 2, 3, 5, 20];
const ACCEPTABLE_RECOVERY_LAGS: [i64; 3] = [0, 100, 10_000];

pub struct Scenario {
    /// Subtopology id to (partitions, stateful), in id order.
    pub subtopologies: BTreeMap<String, (i32, bool)>,
    pub stateful_tasks: Vec<TaskId>,
    pub initial_end_offsets: BTreeMap<TaskId, i64>,
    pub compacted_sizes: BTreeMap<TaskId, i64>,
    pub write_rates: BTreeMap<TaskId, i64>,
    pub restore_rate: i64,
    pub acceptable_recovery_lag: i64,
    pub initial_standby_replicas: i32,
    pub initial_warmup_budget: i32,
    pub initial_processes: BTreeMap<String, i32>,
    pub events: Vec<Event>,
    pub last_event_tick: i32,
    pub max_ticks: i32,
}

pub fn process_id(index: i32) -> String {
    format!("p{index:02}")
}

impl Scenario {
    pub fn generate(seed: i64, profile: &Profile) -> Scenario {
        let mut r = JavaRandom::new(seed);
        let mut subtopologies = BTreeMap::new();
        for index in 0..draw(&mut r, profile.min_subtopologies, profile.max_subtopologies) {
            let partitions = draw(&mut r, profile.min_partitions, profile.max_partitions);
            let stateful = r.next_int_bounded(profile.stateless_one_in) != 0;
            subtopologies.insert(format!("s{index}"), (partitions, stateful));
        }
        let mut stateful_tasks: Vec<TaskId> = subtopologies
            .iter()
            .filter(|(_, (_, stateful))| *stateful)
            .flat_map(|(id, (n, _))| (0..*n).map(|p| TaskId::new(id.clone(), p)))
            .collect();
        stateful_tasks.sort();
        let (mut initial_end_offsets, mut compacted_sizes, mut write_rates) =
            (BTreeMap::new(), BTreeMap::new(), BTreeMap::new());
        for task in &stateful_tasks {
            let size = if r.next_int_bounded(5) == 0 {
                0
            } else {
                i64::from(r.next_int_bounded(MAX_COMPACTED_SIZE))
            };
            compacted_sizes.insert(task.clone(), size);
            initial_end_offsets.insert(
                task.clone(),
                size + i64::from(r.next_int_bounded(MAX_COMPACTED_SIZE)),
            );
            write_rates.insert(task.clone(), i64::from(r.next_int_bounded(200)));
        }
        let restore_rate = 2_000 + i64::from(r.next_int_bounded(8_000));
        let acceptable_recovery_lag = ACCEPTABLE_RECOVERY_LAGS[r.next_int_bounded(3) as usize];
        let initial_warmup_budget = WARMUP_BUDGETS[r.next_int_bounded(7) as usize];
        let mut initial_processes = BTreeMap::new();
        let process_count = draw(&mut r, profile.min_processes, profile.max_processes);
        for p in 0..process_count {
            initial_processes.insert(
                process_id(p),
                draw(
                    &mut r,
                    profile.min_members_per_process,
                    profile.max_members_per_process,
                ),
            );
        }
        let initial_standby_replicas = r.next_int_bounded(2.min(process_count - 1) + 1);
        let events = Planner::new(&mut r, profile, &initial_processes).plan();
        let last_event_tick = events.last().map_or(0, |e| e.tick);
        let ticks_per_migration = i64::from(MAX_COMPACTED_SIZE) / restore_rate + 10;
        let max_ticks = (i64::from(last_event_tick)
            + 100
            + ticks_per_migration * (stateful_tasks.len() as i64).max(1))
            as i32;
        Scenario {
            subtopologies,
            stateful_tasks,
            initial_end_offsets,
            compacted_sizes,
            write_rates,
            restore_rate,
            acceptable_recovery_lag,
            initial_standby_replicas,
            initial_warmup_budget,
            initial_processes,
            events,
            last_event_tick,
            max_ticks,
        }
    }
}

/// The `EventPlanner`: tracks the membership the events imply, so that each names a process
/// that exists then and the group never runs out of members.
struct Planner<'a> {
    r: &'a mut JavaRandom,
    profile: &'a Profile,
    members_by_process: BTreeMap<String, i32>,
    planned: Vec<Event>,
    next_process: i32,
}

impl<'a> Planner<'a> {
    fn new(
        r: &'a mut JavaRandom,
        profile: &'a Profile,
        initial: &BTreeMap<String, i32>,
    ) -> Planner<'a> {
        Planner {
            r,
            profile,
            members_by_process: initial.clone(),
            planned: Vec::new(),
            next_process: initial.len() as i32,
        }
    }

    fn plan(mut self) -> Vec<Event> {
        let mut tick = self.change_episode(1);
        let episodes = self
            .r
            .next_int_bounded(self.profile.max_mid_run_episodes + 1);
        for _ in 0..episodes {
            tick += 1 + self.r.next_int_bounded(40);
            match self.r.next_int_bounded(4) {
                0 => self.add(tick, EventKind::Failover, "", 0),
                1 => {
                    let budget = WARMUP_BUDGETS[self.r.next_int_bounded(7) as usize];
                    self.add(tick, EventKind::SetWarmupBudget, "", budget);
                }
                _ => tick = self.change_episode(tick),
            }
        }
        self.planned
    }

    fn change_episode(&mut self, tick: i32) -> i32 {
        let changes = 1 + self.r.next_int_bounded(3);
        for _ in 0..changes {
            self.change(tick);
        }
        let stale = self.r.next_int_bounded(5) == 0 && self.can_remove_member();
        self.add_target(tick);
        if !stale {
            return tick;
        }
        self.remove_some_member(tick);
        let catch_up = tick + 1 + self.r.next_int_bounded(5);
        self.add(catch_up, EventKind::StickyTarget, "", 0);
        catch_up
    }

    fn change(&mut self, tick: i32) {
        match self.r.next_int_bounded(7) {
            0 => {
                if (self.members_by_process.len() as i32) < self.profile.max_processes + 2 {
                    let p = process_id(self.next_process);
                    self.next_process += 1;
                    let members = draw(
                        self.r,
                        self.profile.min_members_per_process,
                        self.profile.max_members_per_process,
                    );
                    self.members_by_process.insert(p.clone(), members);
                    self.add(tick, EventKind::AddProcess, &p, members);
                }
            }
            1 => {
                if self.members_by_process.len() > 1 {
                    let p = self.pick_process();
                    self.members_by_process.remove(&p);
                    self.add(tick, EventKind::RemoveProcess, &p, 0);
                }
            }
            2 => {
                let p = self.pick_process();
                self.add(tick, EventKind::RestartProcess, &p, 0);
            }
            3 => {
                let p = self.pick_process();
                *self.members_by_process.entry(p.clone()).or_default() += 1;
                self.add(tick, EventKind::AddMember, &p, 0);
            }
            4 => self.remove_some_member(tick),
            5 => {
                let bound = 2.min(self.members_by_process.len() as i32 - 1) + 1;
                let value = self.r.next_int_bounded(bound);
                self.add(tick, EventKind::SetStandbyReplicas, "", value);
            }
            _ => self.add(tick, EventKind::Failover, "", 0),
        }
    }

    fn can_remove_member(&self) -> bool {
        self.members_by_process.values().any(|&m| m > 1) || self.members_by_process.len() > 1
    }

    fn remove_some_member(&mut self, tick: i32) {
        let candidates: Vec<String> = self
            .members_by_process
            .iter()
            .filter(|(_, &m)| m > 1)
            .map(|(p, _)| p.clone())
            .collect();
        if !candidates.is_empty() {
            let p = candidates[self.r.next_int_bounded(candidates.len() as i32) as usize].clone();
            *self.members_by_process.entry(p.clone()).or_default() -= 1;
            self.add(tick, EventKind::RemoveMember, &p, 0);
        } else if self.members_by_process.len() > 1 {
            let p = self.pick_process();
            self.members_by_process.remove(&p);
            self.add(tick, EventKind::RemoveProcess, &p, 0);
        }
    }

    fn add_target(&mut self, tick: i32) {
        if self.r.next_int_bounded(10) < 7 {
            self.add(tick, EventKind::StickyTarget, "", 0);
        } else {
            let seed = self.r.next_long();
            self.planned.push(Event {
                tick,
                kind: EventKind::SyntheticTarget,
                process: String::new(),
                value: 0,
                seed,
            });
        }
    }

    fn pick_process(&mut self) -> String {
        let processes: Vec<&String> = self.members_by_process.keys().collect();
        processes[self.r.next_int_bounded(processes.len() as i32) as usize].clone()
    }

    fn add(&mut self, tick: i32, kind: EventKind, process: &str, value: i32) {
        self.planned.push(Event {
            tick,
            kind,
            process: process.to_string(),
            value,
            seed: 0,
        });
    }
}
