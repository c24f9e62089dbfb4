//! RefinerFuzzSimulator: one scenario under one refiner, tick by tick, from the settled group
//! until it has converged on its final target assignment. Each tick: the scheduled events, one
//! tick of restoring and processing on every client, every member's offset report, the
//! intermediate assignment (derived afresh on a new target or a failover, else a refinement
//! step once the group is reconciled), one heartbeat of every member in member id order
//! through the reconciler, and the measurements.

use super::invariants;
use super::reconciler::{reconcile, task_set, Member, MemberState, TaskProcessIndex};
use super::scenario::{EventKind, Scenario};
use handoff::assignor::kip1071::java::JavaRandom;
use handoff::assignor::kip1071::refiner::{
    preserves_active_task_count, refine, target_of, MemberTaskOffsets, RefineInput,
    StreamsGroupMember, TasksTuple,
};
use handoff::assignor::kip1071::{
    assign, GroupSpec, MemberSpec, Subtopology, TaskId, Tasks, Topology,
};
use std::collections::{BTreeMap, BTreeSet, HashMap};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefinerKind {
    NoOp,
    Warmup,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Metrics {
    pub cold_hand_overs: i64,
    pub not_processing_task_ticks: i64,
    pub ticks: i64,
    pub refinement_steps: i64,
    pub converged: bool,
}

#[derive(Clone, Copy, Debug)]
struct StateCopy {
    position: i64,
    started: bool,
}

pub struct Simulator<'a> {
    scenario: &'a Scenario,
    refiner: RefinerKind,
    stateful: BTreeSet<String>,
    members: BTreeMap<String, Member>,
    next_member_index: BTreeMap<String, i32>,
    target: BTreeMap<String, TasksTuple>,
    intermediate: BTreeMap<String, TasksTuple>,
    epoch: i32,
    num_standby_replicas: i32,
    num_warmup_replicas: i32,
    assignor_pending: bool,
    changelog_end: HashMap<TaskId, i64>,
    state_by_process: BTreeMap<String, HashMap<TaskId, StateCopy>>,
    task_offsets: BTreeMap<String, MemberTaskOffsets>,
    silent: BTreeSet<String>,
    pub violations: Vec<String>,
    metrics: Metrics,
}

fn add_task(tasks: &mut Tasks, task: &TaskId) {
    tasks
        .entry(task.subtopology.to_string())
        .or_default()
        .insert(task.partition);
}

fn put(offsets: &mut BTreeMap<String, BTreeMap<i32, i64>>, task: &TaskId, value: i64) {
    offsets
        .entry(task.subtopology.to_string())
        .or_default()
        .insert(task.partition, value);
}

impl<'a> Simulator<'a> {
    pub fn new(scenario: &'a Scenario, refiner: RefinerKind) -> Simulator<'a> {
        let stateful = scenario
            .subtopologies
            .iter()
            .filter(|(_, (_, s))| *s)
            .map(|(id, _)| id.clone())
            .collect();
        Simulator {
            scenario,
            refiner,
            stateful,
            members: BTreeMap::new(),
            next_member_index: BTreeMap::new(),
            target: BTreeMap::new(),
            intermediate: BTreeMap::new(),
            epoch: 0,
            num_standby_replicas: 0,
            num_warmup_replicas: 0,
            assignor_pending: false,
            changelog_end: HashMap::new(),
            state_by_process: BTreeMap::new(),
            task_offsets: BTreeMap::new(),
            silent: BTreeSet::new(),
            violations: Vec::new(),
            metrics: Metrics::default(),
        }
    }

    fn stateful_tasks(&self, tasks: &Tasks) -> BTreeSet<TaskId> {
        task_set(tasks)
            .into_iter()
            .filter(|t| self.stateful.contains(&*t.subtopology))
            .collect()
    }

    pub fn run(mut self) -> (Metrics, Vec<String>) {
        self.initialize();
        let events = &self.scenario.events;
        let mut next_event = 0;
        let mut converged = false;
        let mut tick = 1;
        while tick <= self.scenario.max_ticks && !converged {
            let mut derive = false;
            while next_event < events.len() && events[next_event].tick == tick {
                derive |= self.apply(next_event);
                next_event += 1;
            }
            self.advance_clients();
            self.report_offsets();
            self.derive_intermediate(derive);
            let active_before = self.active_holders();
            self.heartbeat_all();
            self.measure(&active_before);
            converged = tick >= self.scenario.last_event_tick && self.is_converged();
            tick += 1;
        }
        self.metrics.ticks = i64::from(tick - 1);
        self.metrics.converged = converged;
        if !converged {
            self.violations.push(format!(
                "liveness: no convergence within {} ticks",
                self.scenario.max_ticks
            ));
        }
        (self.metrics, self.violations)
    }

    /// The group starts settled on the sticky assignor's assignment, every copy caught up.
    fn initialize(&mut self) {
        self.num_standby_replicas = self.scenario.initial_standby_replicas;
        self.num_warmup_replicas = self.scenario.initial_warmup_budget;
        self.changelog_end = self
            .scenario
            .initial_end_offsets
            .iter()
            .map(|(t, e)| (t.clone(), *e))
            .collect();
        for (process, &count) in &self.scenario.initial_processes {
            for _ in 0..count {
                self.add_member(process);
            }
        }
        self.silent.clear();
        self.target = self.run_sticky_assignor();
        self.epoch = 1;
        self.intermediate = self.target.clone();
        let ids: Vec<String> = self.members.keys().cloned().collect();
        for id in ids {
            let tasks = self.target.get(&id).cloned().unwrap_or_default();
            let process = self.members[&id].process.clone();
            let mut caught_up = self.stateful_tasks(&tasks.active);
            caught_up.extend(self.stateful_tasks(&tasks.standby));
            let states = self.state_by_process.entry(process).or_default();
            for task in caught_up {
                states.insert(
                    task.clone(),
                    StateCopy {
                        position: self.changelog_end[&task] + 1,
                        started: true,
                    },
                );
            }
            let member = self.members.get_mut(&id).expect("a member");
            member.epoch = 1;
            member.state = MemberState::Stable;
            member.assigned = tasks;
        }
    }

    /// One event; whether the intermediate assignment has to be derived afresh.
    fn apply(&mut self, event_index: usize) -> bool {
        let event = &self.scenario.events[event_index];
        match event.kind {
            EventKind::AddProcess => {
                for _ in 0..event.value {
                    self.add_member(&event.process);
                }
                self.assignor_pending = true;
            }
            EventKind::RemoveProcess => {
                for m in self.members_of(&event.process) {
                    self.remove_member(&m);
                }
                self.state_by_process.remove(&event.process);
                self.assignor_pending = true;
            }
            EventKind::RestartProcess => {
                let restarted = self.members_of(&event.process);
                for m in &restarted {
                    self.remove_member(m);
                }
                for _ in &restarted {
                    self.add_member(&event.process);
                }
                self.assignor_pending = true;
            }
            EventKind::AddMember => {
                self.add_member(&event.process);
                self.assignor_pending = true;
            }
            EventKind::RemoveMember => {
                if let Some(last) = self.members_of(&event.process).pop() {
                    self.remove_member(&last);
                }
                self.assignor_pending = true;
            }
            EventKind::SetStandbyReplicas => {
                self.num_standby_replicas = event.value;
                self.assignor_pending = true;
            }
            EventKind::SetWarmupBudget => self.num_warmup_replicas = event.value,
            EventKind::Failover => {
                self.task_offsets.clear();
                self.silent.extend(self.members.keys().cloned());
                return true;
            }
            EventKind::StickyTarget => {
                let target = self.run_sticky_assignor();
                self.set_target(target);
                return true;
            }
            EventKind::SyntheticTarget => {
                let target = self.synthetic_target(&mut JavaRandom::new(event.seed));
                self.set_target(target);
                return true;
            }
        }
        false
    }

    fn set_target(&mut self, target: BTreeMap<String, TasksTuple>) {
        self.target = target;
        self.epoch += 1;
        self.assignor_pending = false;
    }

    fn add_member(&mut self, process: &str) {
        let index = self
            .next_member_index
            .entry(process.to_string())
            .or_default();
        let id = format!("{process}-m{:02}", *index);
        *index += 1;
        let member = Member {
            id: id.clone(),
            process: process.to_string(),
            epoch: 0,
            state: MemberState::Stable,
            assigned: TasksTuple::default(),
            pending: TasksTuple::default(),
        };
        self.members.insert(id.clone(), member);
        // A new member reports its offsets from its second heartbeat on.
        self.silent.insert(id);
    }

    fn remove_member(&mut self, id: &str) {
        self.members.remove(id);
        self.task_offsets.remove(id);
        self.silent.remove(id);
    }

    fn members_of(&self, process: &str) -> Vec<String> {
        self.members
            .values()
            .filter(|m| m.process == process)
            .map(|m| m.id.clone())
            .collect()
    }

    fn run_sticky_assignor(&self) -> BTreeMap<String, TasksTuple> {
        let members = self
            .members
            .values()
            .map(|m| {
                let offsets = self
                    .task_offsets
                    .get(&m.id)
                    .map(|o| o.offsets.clone())
                    .unwrap_or_default();
                let spec = MemberSpec {
                    process_id: m.process.clone(),
                    active: m.assigned.active.clone(),
                    standby: m.assigned.standby.clone(),
                    warmup: m.assigned.warmup.clone(),
                    task_offsets: offsets,
                };
                (m.id.clone(), spec)
            })
            .collect();
        let group = GroupSpec {
            members,
            num_standby_replicas: self.num_standby_replicas as u32,
            ..GroupSpec::default()
        };
        let topology = Topology {
            subtopologies: self
                .scenario
                .subtopologies
                .iter()
                .map(|(id, &(partitions, stateful))| Subtopology {
                    id: id.clone(),
                    partitions: partitions as u32,
                    stateful,
                })
                .collect(),
        };
        let result = assign(&group, &topology).expect("the sticky assignor assigns every scenario");
        target_of(&result)
    }

    /// A random target with the assignor's structure: each task active once, and up to
    /// `num.standby.replicas` standbys of each stateful task on other processes.
    fn synthetic_target(&self, r: &mut JavaRandom) -> BTreeMap<String, TasksTuple> {
        let ids: Vec<&String> = self.members.keys().collect();
        let mut by_process: BTreeMap<&str, Vec<&String>> = BTreeMap::new();
        for m in self.members.values() {
            by_process
                .entry(m.process.as_str())
                .or_default()
                .push(&m.id);
        }
        let mut target: BTreeMap<String, TasksTuple> = ids
            .iter()
            .map(|id| ((*id).clone(), TasksTuple::default()))
            .collect();
        for (sub, &(partitions, stateful)) in &self.scenario.subtopologies {
            for p in 0..partitions {
                let task = TaskId::new(sub.clone(), p);
                let owner = ids[r.next_int_bounded(ids.len() as i32) as usize];
                add_task(&mut target.get_mut(owner).expect("a member").active, &task);
                if !stateful {
                    continue;
                }
                let owner_process = self.members[owner].process.as_str();
                let mut others: Vec<&str> = by_process.keys().copied().collect();
                if let Some(i) = others.iter().position(|p| *p == owner_process) {
                    others.remove(i);
                }
                r.shuffle(&mut others);
                for other in others
                    .iter()
                    .take((self.num_standby_replicas.max(0) as usize).min(others.len()))
                {
                    let candidates = &by_process[other];
                    let m = candidates[r.next_int_bounded(candidates.len() as i32) as usize];
                    add_task(&mut target.get_mut(m).expect("a member").standby, &task);
                }
            }
        }
        target
    }

    fn running_actives(&self, m: &Member) -> BTreeSet<TaskId> {
        let mut tasks = self.stateful_tasks(&m.assigned.active);
        tasks.extend(self.stateful_tasks(&m.pending.active));
        tasks
    }

    fn copies(&self, m: &Member) -> BTreeSet<TaskId> {
        let mut tasks = BTreeSet::new();
        for tuple in [&m.assigned, &m.pending] {
            tasks.extend(self.stateful_tasks(&tuple.standby));
            tasks.extend(self.stateful_tasks(&tuple.warmup));
        }
        let running = self.running_actives(m);
        tasks.retain(|t| !running.contains(t));
        tasks
    }

    fn compacted_start(&self, task: &TaskId) -> i64 {
        (self.changelog_end[task] - self.scenario.compacted_sizes[task]).max(0)
    }

    fn restore(&self, task: &TaskId, state: &mut StateCopy) {
        let end = self.changelog_end[task];
        state.position = (end + 1)
            .min(state.position.max(self.compacted_start(task)) + self.scenario.restore_rate);
    }

    /// One tick of restoring and processing: an active restores until it has the whole
    /// changelog and then processes (growing it); copies restore unless their member restores
    /// an active.
    fn advance_clients(&mut self) {
        let mut restoring_an_active = BTreeSet::new();
        let members: Vec<Member> = self.members.values().cloned().collect();
        for m in &members {
            for task in self.running_actives(m) {
                let start = self.compacted_start(&task);
                let mut state = self
                    .state_by_process
                    .entry(m.process.clone())
                    .or_default()
                    .get(&task)
                    .copied()
                    .unwrap_or(StateCopy {
                        position: start,
                        started: true,
                    });
                state.started = true;
                let end = self.changelog_end[&task];
                if state.position > end {
                    let new_end = end + self.scenario.write_rates[&task];
                    self.changelog_end.insert(task.clone(), new_end);
                    state.position = new_end + 1;
                } else {
                    restoring_an_active.insert(m.id.clone());
                    self.restore(&task, &mut state);
                }
                self.state_by_process
                    .entry(m.process.clone())
                    .or_default()
                    .insert(task, state);
            }
        }
        for m in &members {
            let paused = restoring_an_active.contains(&m.id);
            for task in self.copies(m) {
                let existing = self
                    .state_by_process
                    .entry(m.process.clone())
                    .or_default()
                    .get(&task)
                    .copied();
                let state = match existing {
                    None => StateCopy {
                        position: self.compacted_start(&task),
                        started: false,
                    },
                    Some(mut state) if !paused => {
                        state.started = true;
                        self.restore(&task, &mut state);
                        state
                    }
                    Some(state) => state,
                };
                self.state_by_process
                    .entry(m.process.clone())
                    .or_default()
                    .insert(task, state);
            }
        }
    }

    /// What the members report: a restoring active's offsets, every copy's (`i64::MAX` before
    /// it starts), and, from one member of each process, the state on disk no member holds.
    fn report_offsets(&mut self) {
        let mut held_by_process: BTreeMap<String, BTreeSet<TaskId>> = BTreeMap::new();
        for m in self.members.values() {
            let held = held_by_process.entry(m.process.clone()).or_default();
            held.extend(self.running_actives(m));
            held.extend(self.copies(m));
        }
        let mut reported_dormant_for = BTreeSet::new();
        let members: Vec<Member> = self.members.values().cloned().collect();
        for m in &members {
            if self.silent.remove(&m.id) {
                continue;
            }
            let states = self
                .state_by_process
                .entry(m.process.clone())
                .or_default()
                .clone();
            let mut report = MemberTaskOffsets::default();
            for task in self.running_actives(m) {
                let state = states[&task];
                if state.position <= self.changelog_end[&task] {
                    put(&mut report.offsets, &task, state.position);
                    put(&mut report.end_offsets, &task, self.changelog_end[&task]);
                }
            }
            for task in self.copies(m) {
                let state = states[&task];
                put(
                    &mut report.offsets,
                    &task,
                    if state.started {
                        state.position
                    } else {
                        i64::MAX
                    },
                );
                put(&mut report.end_offsets, &task, self.changelog_end[&task]);
            }
            if reported_dormant_for.insert(m.process.clone()) {
                let held = held_by_process.get(&m.process);
                for (task, state) in &states {
                    if state.started && !held.is_some_and(|h| h.contains(task)) {
                        put(&mut report.offsets, task, state.position);
                    }
                }
            }
            self.task_offsets.insert(m.id.clone(), report);
        }
    }

    fn derive_intermediate(&mut self, derive: bool) {
        if derive {
            self.intermediate = self.refine_and_check();
        } else if !self.assignor_pending
            && self
                .members
                .values()
                .all(|m| m.is_reconciled_to(self.epoch))
        {
            let candidate = self.refine_and_check();
            let changes = self
                .members
                .values()
                .any(|m| candidate.get(&m.id).cloned().unwrap_or_default() != m.assigned);
            if changes {
                self.epoch += 1;
                self.metrics.refinement_steps += 1;
                self.intermediate = candidate;
            }
        }
    }

    fn refine_and_check(&mut self) -> BTreeMap<String, TasksTuple> {
        let members: Vec<StreamsGroupMember> = self
            .members
            .values()
            .map(|m| StreamsGroupMember {
                member_id: m.id.clone(),
                process_id: m.process.clone(),
                assigned: m.assigned.clone(),
                pending_revocation: m.pending.clone(),
            })
            .collect();
        let input = RefineInput {
            members: &members,
            target: &self.target,
            task_offsets: &self.task_offsets,
            stateful_subtopologies: &self.stateful,
            num_warmup_replicas: self.num_warmup_replicas as u32,
            acceptable_recovery_lag: self.scenario.acceptable_recovery_lag,
        };
        let refined = match self.refiner {
            RefinerKind::NoOp => self.target.clone(),
            RefinerKind::Warmup => refine(input).to_map(),
        };
        let mut found = invariants::check(&input, &refined, self.refiner == RefinerKind::Warmup);
        if self.refiner == RefinerKind::Warmup {
            let mut reversed = members.clone();
            reversed.reverse();
            let again = refine(RefineInput {
                members: &reversed,
                ..input
            });
            if again.to_map() != refined {
                found.push("determinism: the members in reverse order gave another result".into());
            }
        }
        self.violations.extend(found.into_iter().take(20));
        if preserves_active_task_count(&self.target, &refined) {
            refined
        } else {
            self.target.clone()
        }
    }

    fn heartbeat_all(&mut self) {
        let mut index = TaskProcessIndex::new(self.members.values());
        let ids: Vec<String> = self.members.keys().cloned().collect();
        for id in ids {
            let member = &self.members[&id];
            let target = self.intermediate.get(&id).cloned().unwrap_or_default();
            let updated = reconcile(member, self.epoch, &target, &index);
            if updated != *member {
                index.update(member, -1);
                index.update(&updated, 1);
                self.members.insert(id, updated);
            }
        }
    }

    fn is_converged(&self) -> bool {
        !self.assignor_pending
            && self.target.keys().all(|m| self.members.contains_key(m))
            && self.members.values().all(|m| {
                m.is_reconciled_to(self.epoch)
                    && m.pending.is_empty()
                    && self.target.get(&m.id).cloned().unwrap_or_default() == m.assigned
            })
    }

    fn active_holders(&self) -> BTreeMap<TaskId, String> {
        let mut holders = BTreeMap::new();
        for m in self.members.values() {
            for task in self.stateful_tasks(&m.assigned.active) {
                holders.insert(task, m.id.clone());
            }
        }
        holders
    }

    /// Whether the process holds the task's state within the acceptable lag.
    fn is_warm(&self, process: &str, task: &TaskId) -> bool {
        self.state_by_process
            .get(process)
            .and_then(|s| s.get(task))
            .is_some_and(|s| {
                s.started
                    && self.changelog_end[task] - s.position
                        <= self.scenario.acceptable_recovery_lag
            })
    }

    /// Cold hand-overs (an active granted to a member whose process is not warm) and the
    /// stateful tasks nobody processes this tick.
    fn measure(&mut self, active_before: &BTreeMap<TaskId, String>) {
        let active_now = self.active_holders();
        for (task, member) in &active_now {
            let process = &self.members[member].process;
            if active_before.get(task) != Some(member) && !self.is_warm(process, task) {
                self.metrics.cold_hand_overs += 1;
            }
        }
        for task in &self.scenario.stateful_tasks {
            let processing = active_now.get(task).is_some_and(|m| {
                let process = &self.members[m].process;
                self.state_by_process
                    .get(process)
                    .and_then(|s| s.get(task))
                    .is_some_and(|s| s.position > self.changelog_end[task])
            });
            if !processing {
                self.metrics.not_processing_task_ticks += 1;
            }
        }
    }
}
