//! The ideal placement, which ignores where state is: stateful actives dealt round-robin over
//! the clients and balanced over stream threads, the balancing pass shared with standbys, and
//! stateless tasks by lowest active load.

use super::client::{Client, PrioritySet};
use crate::model::TaskId;

/// Which of a client's task sets a balancing pass moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Active,
    Standby,
}

impl Kind {
    fn tasks(self, client: &Client) -> &std::collections::BTreeSet<TaskId> {
        match self {
            Kind::Active => &client.active,
            Kind::Standby => &client.standby,
        }
    }

    fn tasks_mut(self, client: &mut Client) -> &mut std::collections::BTreeSet<TaskId> {
        match self {
            Kind::Active => &mut client.active,
            Kind::Standby => &mut client.standby,
        }
    }
}

/// Deals the stateful tasks (in task order) round-robin over the clients (in client order),
/// then balances them over stream threads.
pub(crate) fn assign_active_stateful(clients: &mut [Client], stateful: &[TaskId]) {
    if clients.is_empty() {
        return;
    }
    for (i, &t) in stateful.iter().enumerate() {
        clients[i % clients.len()].active.insert(t);
    }
    balance(clients, Kind::Active, |_, _| true);
}

/// Kafka's `shouldMoveATask`: moving one task from `source` to `destination` strictly
/// improves their skew of assigned load (active and standby per thread) without reversing it.
pub fn should_move_a_task(source: &Client, destination: &Client) -> bool {
    let skew = source.assigned_load() - destination.assigned_load();
    if skew <= 0.0 {
        return false;
    }
    let at_destination =
        (destination.assigned_count() as f64 + 1.0) / f64::from(destination.capacity);
    let at_source = (source.assigned_count() as f64 - 1.0) / f64::from(source.capacity);
    let proposed = at_source - at_destination;
    proposed >= 0.0 && proposed < skew
}

/// Kafka's balancing pass: full passes over every (source, destination) pair in client
/// order, moving the source's tasks of `kind` (in task order) while [`should_move_a_task`]
/// holds and the destination does not hold the task and `allowed(source, destination)`;
/// repeated until a whole pass moves nothing.
pub(crate) fn balance(
    clients: &mut [Client],
    kind: Kind,
    allowed: impl Fn(&Client, &Client) -> bool,
) {
    let n = clients.len();
    let least_load = |clients: &[Client]| {
        clients
            .iter()
            .map(Client::assigned_load)
            .fold(f64::INFINITY, f64::min)
    };
    loop {
        let mut moved = false;
        let mut least = least_load(clients);
        for src in 0..n {
            // A source no more loaded than every client moves nothing in this loop.
            if clients[src].assigned_load() <= least {
                continue;
            }
            for dst in 0..n {
                if dst == src || !should_move_a_task(&clients[src], &clients[dst]) {
                    continue;
                }
                let snapshot: Vec<TaskId> = kind.tasks(&clients[src]).iter().copied().collect();
                for t in snapshot {
                    if !should_move_a_task(&clients[src], &clients[dst]) {
                        break;
                    }
                    if !clients[dst].holds(t) && allowed(&clients[src], &clients[dst]) {
                        kind.tasks_mut(&mut clients[src]).remove(&t);
                        kind.tasks_mut(&mut clients[dst]).insert(t);
                        moved = true;
                    }
                }
            }
            if moved {
                least = least_load(clients);
            }
        }
        if !moved {
            break;
        }
    }
}

/// Gives each stateless task (in task order) to the client with the lowest active load, ties
/// to client order; no stickiness.
pub(crate) fn assign_stateless(clients: &mut [Client], stateless: &[TaskId]) {
    let mut set = PrioritySet::new(
        0..clients.len(),
        |c| clients[c].active_load(),
        clients.len(),
    );
    for &t in stateless {
        let Some((_, c)) = set.least(|_| true) else {
            return;
        };
        clients[c].active.insert(t);
        set.update(c, clients[c].active_load());
    }
}
