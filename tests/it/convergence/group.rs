//! The members' side of `handoff assign`: a group whose members join with what they run,
//! released, learn and keep as standby and how far behind each store is, and carry out each
//! assignment; and the checks of every decision and every fixed point.

use super::{Churn, Event};
use handoff::assignor::measure::{zones_in_use, MemberLoad, Skew};
use handoff::assignor::{self, AssignInput};
use handoff::model::{
    Assignment, Config, HandoffMode, JoinMetadata, MemberId, Strategy as Design, TaskId, TaskInfo,
};
use std::collections::BTreeMap;

/// One member as the harness plays it.
#[derive(Clone, Debug)]
struct Member {
    id: MemberId,
    capacity: u32,
    zone: Option<String>,
    running: Vec<TaskId>,
    last_assigned: Vec<TaskId>,
    learning: Vec<TaskId>,
    standby: Vec<TaskId>,
    learned: Vec<TaskId>,
    /// Local stores: records behind, per task.
    stores: BTreeMap<TaskId, u64>,
}

impl Member {
    fn new(id: u32, capacity: u32, zone: Option<String>) -> Member {
        Member {
            id: MemberId(id),
            capacity,
            zone,
            running: Vec::new(),
            last_assigned: Vec::new(),
            learning: Vec::new(),
            standby: Vec::new(),
            learned: Vec::new(),
            stores: BTreeMap::new(),
        }
    }
}

/// The group: present members in join order, dropped ones with their stores.
struct Group {
    config: Config,
    tasks: Vec<TaskInfo>,
    present: Vec<Member>,
    dropped: Vec<Member>,
    ids: u32,
}

/// What one fixed point looked like.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Rest {
    pub(super) calls: usize,
    pub(super) skew: Skew,
    pub(super) equal_capacities: bool,
}

impl Group {
    fn new(churn: &Churn) -> Group {
        let mut group = Group {
            config: churn.config.clone(),
            tasks: churn.tasks.clone(),
            present: Vec::new(),
            dropped: Vec::new(),
            ids: 0,
        };
        for &(capacity, zone) in &churn.initial {
            group.add(capacity, zone_name(&churn.zones, zone));
        }
        group
    }

    fn add(&mut self, capacity: u32, zone: Option<String>) {
        self.ids += 1;
        self.present.push(Member::new(self.ids, capacity, zone));
    }

    fn stateful(&self, t: TaskId) -> bool {
        self.tasks[t.index()].stateful
    }

    fn equal_capacities(&self) -> bool {
        self.present
            .iter()
            .all(|m| m.capacity == self.present[0].capacity)
    }

    fn stateful_count(&self) -> usize {
        self.tasks.iter().filter(|t| t.stateful).count()
    }

    /// What each member reports as it joins.
    fn join_metadata(&self) -> Vec<JoinMetadata> {
        self.present
            .iter()
            .map(|m| {
                let released: Vec<TaskId> = match (self.config.strategy, self.config.handoff) {
                    (Design::Eager, _) => m.running.clone(),
                    (Design::Learner, HandoffMode::ReleaseAtJoin) => m
                        .running
                        .iter()
                        .copied()
                        .filter(|t| m.learned.contains(t))
                        .collect(),
                    _ => Vec::new(),
                };
                let assigned: Vec<TaskId> = m
                    .running
                    .iter()
                    .copied()
                    .filter(|t| !released.contains(t))
                    .collect();
                JoinMetadata {
                    member: m.id,
                    capacity: m.capacity,
                    zone: m.zone.clone(),
                    leaving: false,
                    revoked: m
                        .last_assigned
                        .iter()
                        .copied()
                        .filter(|t| !assigned.contains(t))
                        .collect(),
                    assigned,
                    learning: m.learning.clone(),
                    standby: m.standby.clone(),
                    lags: m.stores.iter().map(|(&t, &l)| (t, l)).collect(),
                }
            })
            .collect()
    }

    /// One decision of the leader, checked and carried out by the members.
    fn call(&mut self) -> Result<Assignment, String> {
        let joined = self.join_metadata();
        let config = self.config.assignor();
        let out = assignor::assign(AssignInput {
            config: &config,
            tasks: &self.tasks,
            members: &joined,
        })
        .map_err(|e| e.to_string())?;
        self.check_call(&joined, &out)?;
        let stale = self
            .config
            .assignor()
            .acceptable_recovery_lag
            .saturating_add(1);
        for (member, (id, a)) in self.present.iter_mut().zip(&out.members) {
            assert_eq!(member.id, *id);
            member.running = a.assigned.clone();
            member.last_assigned = a.assigned.clone();
            member.learning = a.learning.clone();
            member.standby = a.standby.clone();
            member.learned = a.learned.clone();
            for (t, lag) in member.stores.iter_mut() {
                *lag = (*lag).max(stale).min(self.tasks[t.index()].changelog);
            }
            for &t in a.assigned.iter().chain(&a.learning).chain(&a.standby) {
                if self.tasks[t.index()].stateful {
                    member.stores.insert(t, 0);
                }
            }
        }
        Ok(out)
    }

    /// The rules every single decision keeps.
    fn check_call(&self, joined: &[JoinMetadata], out: &Assignment) -> Result<(), String> {
        let n = self.tasks.len();
        let mut owner: Vec<Option<MemberId>> = vec![None; n];
        for (pos, (id, a)) in out.members.iter().enumerate() {
            for &t in &a.assigned {
                if owner[t.index()].replace(*id).is_some() {
                    return Err(format!("{t:?} assigned twice"));
                }
                if joined
                    .iter()
                    .enumerate()
                    .any(|(p, m)| p != pos && m.assigned.contains(&t))
                {
                    return Err(format!("{t:?} goes to {id:?} while another member runs it"));
                }
                if a.learning.contains(&t) || a.standby.contains(&t) {
                    return Err(format!("{id:?} runs {t:?} and replicates it"));
                }
            }
            for &t in a.learning.iter().chain(&a.standby) {
                if !self.stateful(t) {
                    return Err(format!("{id:?} replicates stateless {t:?}"));
                }
            }
        }
        let waiting = |t: usize| {
            out.followup
                && out
                    .members
                    .iter()
                    .any(|(_, a)| a.revoked.contains(&TaskId(t as u32)))
        };
        if let Some(t) = (0..n).find(|&t| owner[t].is_none() && !waiting(t)) {
            return Err(format!("T{t} has no owner after the call"));
        }
        Ok(())
    }

    /// Calls until the output is a fixed point: no learner, revocation, follow-up or probing,
    /// and the next call gives the same. Returns the number of calls to the fixed point.
    fn converge(&mut self, limit: usize) -> Result<Rest, String> {
        let mut previous: Option<Assignment> = None;
        for call in 1..=limit + 1 {
            let out = self.call()?;
            if let Some(prev) = previous {
                let quiet = !prev.followup
                    && !prev.probing
                    && prev
                        .members
                        .iter()
                        .all(|(_, a)| a.learning.is_empty() && a.revoked.is_empty());
                if quiet && prev == out {
                    let skew = self.check_rest(&out)?;
                    return Ok(Rest {
                        calls: call - 1,
                        skew,
                        equal_capacities: self.equal_capacities(),
                    });
                }
            }
            previous = Some(out);
        }
        Err(format!("no fixed point within {limit} calls"))
    }

    /// The fixed point's standbys, balance and zones.
    fn check_rest(&self, out: &Assignment) -> Result<Skew, String> {
        let k = out.members.len();
        let replicas = self.config.num_standby_replicas as usize;
        let stateful = self.stateful_count();
        let zoned = zones_in_use(
            self.config.rack_aware_standbys,
            self.present.iter().map(|m| m.zone.as_deref()),
        );
        let zones = {
            let mut z: Vec<&str> = self
                .present
                .iter()
                .filter_map(|m| m.zone.as_deref())
                .collect();
            z.sort();
            z.dedup();
            z.len()
        };
        for t in 0..self.tasks.len() {
            let task = TaskId(t as u32);
            if !self.stateful(task) {
                continue;
            }
            let holders: Vec<usize> = (0..k)
                .filter(|&p| {
                    let a = &out.members[p].1;
                    a.assigned.contains(&task) || a.standby.contains(&task)
                })
                .collect();
            let standbys = holders.len() - 1;
            if standbys != replicas.min(k - 1) {
                return Err(format!("{task:?} has {standbys} standbys at rest"));
            }
            if zoned {
                let mut used: Vec<&str> = holders
                    .iter()
                    .filter_map(|&p| self.present[p].zone.as_deref())
                    .collect();
                used.sort();
                used.dedup();
                if used.len() < holders.len().min(zones) {
                    return Err(format!(
                        "{task:?}'s {} replicas use only {} of {zones} zones",
                        holders.len(),
                        used.len()
                    ));
                }
            }
        }
        let loads: Vec<MemberLoad> = self
            .present
            .iter()
            .zip(&out.members)
            .map(|(m, (_, a))| {
                let stateful_active = a.assigned.iter().filter(|&&t| self.stateful(t)).count();
                MemberLoad {
                    capacity: m.capacity,
                    zone: m.zone.clone(),
                    active: a.assigned.len(),
                    stateful_active,
                    stateful_replicas: stateful_active + a.standby.len(),
                }
            })
            .collect();
        let skew = Skew::of(&loads, stateful, zoned);
        // Kafka Streams' assignor balances stateful replicas over equal capacities only: with
        // unequal ones its standby balancing can be blocked (see the kip441 tests).
        let exempt = self.config.strategy == Design::Kip441 && !self.equal_capacities();
        let over = |x: f64| x > 1.0 + 1e-9;
        if over(skew.active)
            || over(skew.stateful_active)
            || (!exempt && over(skew.stateful_replicas))
        {
            return Err(format!("not balanced at rest: {skew:?} {loads:?}"));
        }
        if self.config.strategy != Design::Kip441 {
            if let Some((group, spread)) = self.worst_subtopology_spread(out) {
                if over(spread) {
                    return Err(format!(
                        "subtopology {group} spread {spread} per thread at rest: {out:?}"
                    ));
                }
            }
        }
        // The seed's rule: each member's stateful replicas within 0.5x to 2x of its share,
        // wherever that share is at least one task (below that, a member holding nothing
        // cannot be helped). Over equal capacities Kafka's measure implies it; over unequal
        // ones it does not (one stateful replica per unit of capacity apart can be 0 against a
        // share of 1.09), so it is checked over equal capacities.
        let capacity: u32 = self.present.iter().map(|m| m.capacity).sum();
        let units = (stateful * (replicas + 1).min(k)) as f64;
        if !zoned && self.equal_capacities() {
            for (m, load) in self.present.iter().zip(&loads) {
                let share = units * f64::from(m.capacity) / f64::from(capacity);
                let total = load.stateful_replicas as f64;
                if share >= 1.0 && (total < 0.5 * share || total > 2.0 * share) {
                    return Err(format!("{:?} holds {total} of a share of {share}", m.id));
                }
            }
        }
        Ok(skew)
    }

    /// The subtopology whose active tasks per thread differ most between two members, and
    /// by how much, among those of one kind (a subtopology of both kinds is spread as well as
    /// the balance of all tasks allows, and the only one is that balance).
    fn worst_subtopology_spread(&self, out: &Assignment) -> Option<(u32, f64)> {
        let groups = self.tasks.iter().map(|t| t.subtopology).max()?;
        let one_kind = |g: u32| {
            let mut kinds = self
                .tasks
                .iter()
                .filter(|t| t.subtopology == g)
                .map(|t| t.stateful);
            let first = kinds.next();
            kinds.all(|k| Some(k) == first)
        };
        (0..=groups)
            .filter(|&g| one_kind(g))
            .map(|g| {
                let per_thread = self.present.iter().zip(&out.members).map(|(m, (_, a))| {
                    let n = a
                        .assigned
                        .iter()
                        .filter(|t| self.tasks[t.index()].subtopology == g)
                        .count();
                    n as f64 / f64::from(m.capacity)
                });
                let max = per_thread.clone().fold(f64::NEG_INFINITY, f64::max);
                let min = per_thread.fold(f64::INFINITY, f64::min);
                (g, max - min)
            })
            .max_by(|a, b| a.1.total_cmp(&b.1))
    }

    /// Carries out a membership change; returns whether anyone is left.
    fn apply(&mut self, event: &Event, churn: &Churn) -> bool {
        let zones = &churn.zones;
        match event {
            Event::Drop(picks) => {
                for &i in picks {
                    if self.present.is_empty() {
                        break;
                    }
                    let mut m = self.present.remove(i % self.present.len());
                    m.running.clear();
                    m.last_assigned.clear();
                    m.learning.clear();
                    m.standby.clear();
                    m.learned.clear();
                    self.dropped.push(m);
                }
            }
            Event::Join(picks) => {
                for &(back, zone, capacity) in picks {
                    match back {
                        Some(i) if !self.dropped.is_empty() => {
                            let m = self.dropped.remove(i % self.dropped.len());
                            self.present.push(m);
                        }
                        _ => self.add(1 + capacity % churn.max_capacity, zone_name(zones, zone)),
                    }
                }
            }
        }
        !self.present.is_empty()
    }
}

fn zone_name(zones: &[String], pick: usize) -> Option<String> {
    (!zones.is_empty()).then(|| zones[pick % zones.len()].clone())
}

/// Plays a churned cluster; returns its fixed points (the fresh one first).
pub(super) fn play(churn: &Churn) -> Result<Vec<Rest>, String> {
    let mut group = Group::new(churn);
    let s = group.stateful_count();
    let r = churn.config.num_standby_replicas as usize;
    let bound = 2 * (s + s * r) + 2;
    let fresh = group.converge(2).map_err(|e| format!("fresh group: {e}"))?;
    let mut rests = vec![fresh];
    for (i, event) in churn.events.iter().enumerate() {
        if group.apply(event, churn) {
            let rest = group
                .converge(bound)
                .map_err(|e| format!("after event {i} ({event:?}): {e}"))?;
            rests.push(rest);
        }
    }
    Ok(rests)
}
