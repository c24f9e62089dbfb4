//! Kafka Streams' high-availability task assignor (KIP-441, the default since Kafka 2.6), the
//! `kip441` strategy.
//!
//! Every decision starts from scratch and ignores who ran what: stateful actives are dealt
//! round-robin over the clients in id order and balanced over stream threads
//! ([`should_move_a_task`]); standbys go to the least loaded clients (by zone first with
//! rack-aware standbys, KIP-708). Stickiness comes from state only: an active or standby whose
//! ideal client is not caught up (lag above `acceptable.recovery.lag`) runs on a caught-up
//! client for now, and the ideal client gets a warm-up replica, at most
//! `max.warmup.replicas` of them group-wide. Stateless tasks go to the lowest active load.
//! While any movement was needed the leader asks for a probing rebalance, which re-runs the
//! assignor and so promotes the warm-ups that caught up.
//!
//! The playground keeps its rule "never two owners": a task that Kafka would hand from one
//! running member to another in one rebalance is revoked now and assigned at the follow-up
//! rebalance (as Kafka Streams itself does under the cooperative protocol), and its new owner
//! keeps a temporary standby meanwhile if it holds a store of it (Kafka counts every store a
//! client reports as a previous standby). Warm-ups show as learners.

mod client;
mod ideal;
mod movement;
mod standby;

pub use client::{Client, Lag, Lags};
pub use ideal::should_move_a_task;
pub use movement::{assign_active_task_movements, assign_standby_task_movements, Movements};
pub use standby::{assign_standbys, standby_move_allowed};

use super::plan::{Plan, Pos};
use crate::model::{Assignment, TaskId};
use std::collections::HashSet;

/// The settings one decision uses (Kafka's `AssignmentConfigs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// `acceptable.recovery.lag`: a client this close to the end is caught up (`u64::MAX`:
    /// every client is).
    pub acceptable_recovery_lag: u64,
    /// `max.warmup.replicas`: warm-ups given out per decision.
    pub max_warmup_replicas: u32,
    /// `num.standby.replicas`.
    pub num_standby_replicas: u32,
    /// Standbys are spread over zones (rack-aware assignment tags, KIP-708).
    pub zone_aware: bool,
}

/// What a decision adds to the clients' task sets.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Decision {
    /// Warm-ups of active tasks, as (client index, task): the task's ideal client, catching up
    /// while a caught-up client runs it. They are among the client's standbys.
    pub active_warmups: Vec<(usize, TaskId)>,
    /// Warm-ups of standbys: a standby's ideal client keeps it, catching up, while a
    /// caught-up client holds another copy.
    pub standby_warmups: Vec<(usize, TaskId)>,
    /// Some movement was needed: a probing rebalance should follow.
    pub probing: bool,
}

/// Kafka's `HighAvailabilityTaskAssignor.assign` on clients sorted by id with empty task sets:
/// fills their active and standby sets and says which standbys are warm-ups.
pub fn decide(
    clients: &mut [Client],
    stateful: &[TaskId],
    stateless: &[TaskId],
    lags: &Lags,
    settings: &Settings,
) -> Decision {
    ideal::assign_active_stateful(clients, stateful);
    assign_standbys(
        clients,
        stateful,
        settings.num_standby_replicas,
        settings.zone_aware,
    );
    let acceptable = settings.acceptable_recovery_lag;
    let mut budget = i64::from(settings.max_warmup_replicas);
    let active = assign_active_task_movements(clients, lags, acceptable, &mut budget);
    let standby =
        assign_standby_task_movements(clients, lags, acceptable, &mut budget, &active.warmups);
    ideal::assign_stateless(clients, stateless);
    Decision {
        probing: active.count + standby.count > 0,
        active_warmups: active.warmups,
        standby_warmups: standby.warmups,
    }
}

/// Runs the KIP-441 assignor on indexed join metadata: the members that stay are Kafka's
/// clients, a member running a task with its store at the end reports it as running, and the
/// decision is carried out under the rule "never two owners".
pub(crate) fn assign(mut plan: Plan<'_>) -> Assignment {
    let mut order: Vec<Pos> = plan.receivers();
    order.sort_by_key(|&p| plan.input.members[p].member);
    let k = plan.input.members.len();
    let mut index_of: Vec<Option<usize>> = vec![None; k];
    for (c, &p) in order.iter().enumerate() {
        index_of[p] = Some(c);
    }
    let mut clients: Vec<Client> = order
        .iter()
        .map(|&p| {
            let meta = &plan.input.members[p];
            Client::new(meta.member, meta.capacity, meta.zone.clone())
        })
        .collect();
    let mut lags = Lags::new(plan.input.tasks.iter().map(|t| t.changelog).collect());
    let (mut stateful, mut stateless) = (Vec::new(), Vec::new());
    for t in 0..plan.task_count() {
        let task = TaskId(t as u32);
        if !plan.stateful(t) {
            stateless.push(task);
            continue;
        }
        stateful.push(task);
        for &(p, lag) in &plan.holders[t] {
            if let Some(c) = index_of[p] {
                lags.report(c, task, Lag::Records(lag));
            }
        }
        if let Some(c) = plan.reported_owner[t].and_then(|p| index_of[p]) {
            if plan.lag(t, order[c]).is_none_or(|lag| lag == 0) {
                lags.report(c, task, Lag::Running);
            }
        }
    }
    let config = plan.input.config;
    let settings = Settings {
        acceptable_recovery_lag: config.acceptable_recovery_lag,
        max_warmup_replicas: config.max_learners.unwrap_or(u32::MAX),
        num_standby_replicas: config.num_standby_replicas,
        zone_aware: plan.zoned,
    };
    let decision = decide(&mut clients, &stateful, &stateless, &lags, &settings);
    carry_out(&mut plan, &clients, &order, &decision);
    Assignment {
        probing: decision.probing,
        ..plan.into_assignment()
    }
}

/// Kafka's standby placement for a group whose actives stay where they run: its clients hold
/// the reported owners' stateful tasks, and the standbys go to the least loaded clients (rack-aware
/// with zones), balanced over stream threads. What a long-running group keeps beside the
/// actives a scenario gives it.
pub(crate) fn standbys_beside_owners(mut plan: Plan<'_>) -> Assignment {
    let mut order: Vec<Pos> = plan.receivers();
    order.sort_by_key(|&p| plan.input.members[p].member);
    let mut clients: Vec<Client> = order
        .iter()
        .map(|&p| {
            let meta = &plan.input.members[p];
            let mut client = Client::new(meta.member, meta.capacity, meta.zone.clone());
            // Kafka places standbys once the stateful actives are dealt, before the stateless.
            let stateful = meta.assigned.iter().filter(|t| plan.stateful(t.index()));
            client.active.extend(stateful);
            client
        })
        .collect();
    let stateful: Vec<TaskId> = (0..plan.task_count())
        .filter(|&t| plan.stateful(t))
        .map(|t| TaskId(t as u32))
        .collect();
    let config = plan.input.config;
    assign_standbys(
        &mut clients,
        &stateful,
        config.num_standby_replicas,
        plan.zoned,
    );
    for (c, client) in clients.iter().enumerate() {
        for &task in &client.standby {
            plan.add_standby(task.index(), order[c]);
        }
    }
    plan.into_assignment()
}

/// Writes a decision into the plan: a task changes owner at once if nobody runs it, else it
/// is revoked now and assigned at the follow-up (its new owner keeping a temporary standby
/// meanwhile if it holds a store of it, as Kafka does); warm-ups become learners.
fn carry_out(plan: &mut Plan<'_>, clients: &[Client], order: &[Pos], decision: &Decision) {
    let active_warmups: HashSet<&(usize, TaskId)> = decision.active_warmups.iter().collect();
    let standby_warmups: HashSet<&(usize, TaskId)> = decision.standby_warmups.iter().collect();
    let mut pending: Vec<(usize, Pos)> = Vec::new();
    for (c, client) in clients.iter().enumerate() {
        let pos = order[c];
        for &task in &client.active {
            let t = task.index();
            match plan.reported_owner[t] {
                Some(r) if r != pos => {
                    plan.revoke(t);
                    pending.push((t, pos));
                }
                _ => plan.assign(t, pos),
            }
        }
        for &task in &client.standby {
            let t = task.index();
            if active_warmups.contains(&(c, task)) {
                plan.add_learner(t, pos);
            } else if standby_warmups.contains(&(c, task)) {
                plan.add_warmup(t, pos);
            } else {
                plan.add_standby(t, pos);
            }
        }
    }
    // Kafka's `ClientState` counts every store a client reports and does not run as one of
    // its previous standbys, and `StreamsPartitionAssignor` keeps a previous standby of a task
    // still owned elsewhere as a temporary standby until the follow-up.
    for (t, pos) in pending {
        if plan.stateful(t) && plan.lag(t, pos).is_some() {
            plan.add_standby(t, pos);
        }
    }
}
