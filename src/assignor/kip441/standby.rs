//! Standby replicas as Kafka Streams places them: each to the least loaded client not holding
//! the task, or, rack-aware (KIP-708, with the zone as the one tag), first to clients in zones
//! the task's active and earlier standbys do not use, while such zones remain.

use super::client::{Client, PrioritySet};
use super::ideal::{balance, Kind};
use crate::model::TaskId;

/// Places `replicas` standbys of every stateful task (in task order), then balances them over
/// stream threads; `zone_aware` picks the rack-aware placement, whose balancing only moves a
/// standby between clients of the same zone.
pub fn assign_standbys(
    clients: &mut [Client],
    stateful: &[TaskId],
    replicas: u32,
    zone_aware: bool,
) {
    if replicas == 0 {
        return;
    }
    if zone_aware {
        assign_by_zone(clients, stateful, replicas);
        balance(clients, Kind::Standby, standby_move_allowed);
    } else {
        let mut set = least_loaded(clients);
        for &t in stateful {
            fill(clients, &mut set, t, replicas);
        }
        balance(clients, Kind::Standby, |_, _| true);
    }
}

/// Whether the balancing pass may move a standby from `source` to `destination`: with
/// rack-aware standbys, only within a zone (every tag of the source must match).
pub fn standby_move_allowed(source: &Client, destination: &Client) -> bool {
    source.zone.is_none() || source.zone == destination.zone
}

/// Every client by assigned load.
fn least_loaded(clients: &[Client]) -> PrioritySet {
    PrioritySet::new(
        0..clients.len(),
        |c| clients[c].assigned_load(),
        clients.len(),
    )
}

/// Gives a task up to `wanted` standbys on the least loaded clients not holding it; returns
/// how many could not be placed.
fn fill(clients: &mut [Client], set: &mut PrioritySet, task: TaskId, wanted: u32) -> u32 {
    let mut remaining = wanted;
    while remaining > 0 {
        let Some((_, c)) = set.least(|c| !clients[c].holds(task)) else {
            break;
        };
        clients[c].standby.insert(task);
        set.update(c, clients[c].assigned_load());
        remaining -= 1;
    }
    remaining
}

/// The client-tag-aware assignor with one tag, the zone: for each task with an active, each
/// standby goes to the least loaded client whose zone differs from the zones already used by
/// the task (its active's first); once as many clients are used as there are zones, the
/// zone stops constraining. What cannot be placed that way is placed least loaded.
fn assign_by_zone(clients: &mut [Client], stateful: &[TaskId], replicas: u32) {
    let mut zones: Vec<&str> = clients.iter().filter_map(|c| c.zone.as_deref()).collect();
    zones.sort();
    zones.dedup();
    let zone_count = zones.len();
    let zone_of: Vec<Option<usize>> = clients
        .iter()
        .map(|c| c.zone.as_deref().and_then(|z| zones.binary_search(&z).ok()))
        .collect();
    let mut owner = std::collections::HashMap::new();
    for (c, client) in clients.iter().enumerate() {
        for &t in &client.active {
            owner.entry(t).or_insert(c);
        }
    }
    let mut set = least_loaded(clients);
    let mut remaining: Vec<(TaskId, u32)> = Vec::new();
    for &t in stateful {
        let Some(&active) = owner.get(&t) else {
            remaining.push((t, replicas));
            continue;
        };
        let mut used: Vec<usize> = Vec::new();
        let mut used_clients = 1;
        let mut left = replicas;
        let mut last = active;
        loop {
            if let Some(z) = zone_of[last] {
                if zone_count <= used_clients {
                    used.clear();
                } else if !used.contains(&z) {
                    used.push(z);
                }
            }
            let pick = set
                .least(|c| !clients[c].holds(t) && zone_of[c].is_none_or(|z| !used.contains(&z)));
            let Some((_, c)) = pick else { break };
            clients[c].standby.insert(t);
            set.update(c, clients[c].assigned_load());
            used_clients += 1;
            left -= 1;
            last = c;
            if left == 0 {
                break;
            }
        }
        if left > 0 {
            remaining.push((t, left));
        }
    }
    for (t, left) in remaining {
        fill(clients, &mut set, t, left);
    }
}
