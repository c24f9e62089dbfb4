//! Kafka's task movements: an active or standby that the ideal placement put on a client that
//! is not caught up, while another client is more caught up, runs on a caught-up client for
//! now, and the ideal client gets a warm-up replica while the shared budget
//! (`max.warmup.replicas`) lasts. Swapping with a caught-up standby costs no budget.

use super::client::{Client, Lags};
use crate::model::TaskId;

/// What the movements did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Movements {
    /// Movements scheduled (active) or carried out (standby): a probing rebalance is needed
    /// when there are any.
    pub count: usize,
    /// Warm-ups given out, as (client index, task): the task's ideal client, catching up.
    pub warmups: Vec<(usize, TaskId)>,
}

/// Whether a task should move off a client: the client is not caught up and some client has
/// a strictly smaller lag.
fn needs_move(lags: &Lags, acceptable: u64, clients: usize, task: TaskId, client: usize) -> bool {
    if lags.caught_up(client, task, acceptable) {
        return false;
    }
    lags.best_lag(task, clients)
        .is_some_and(|best| best < lags.lag(client, task))
}

/// The least loaded client (assigned load, then client order) among `candidates` that
/// satisfies `accept`.
fn least_loaded(
    clients: &[Client],
    candidates: &[usize],
    accept: impl Fn(usize) -> bool,
) -> Option<usize> {
    candidates
        .iter()
        .copied()
        .filter(|&c| accept(c))
        .min_by(|&a, &b| {
            clients[a]
                .assigned_load()
                .total_cmp(&clients[b].assigned_load())
                .then(a.cmp(&b))
        })
}

/// Puts movements listed in (client, task) order in the order Kafka handles them: it offers
/// them, in that order, to a `java.util.PriorityQueue` ordered by how many clients are caught
/// up, then by task, and by nothing else, and polls them. Movements of one task to different
/// clients tie, and the binary heap's sifting decides their order (not the client): a later
/// movement can then take the caught-up source an earlier one would have had.
fn fewest_caught_up_first(scheduled: &mut [(usize, TaskId, usize)]) {
    let mut queue = JavaPriorityQueue::default();
    for &movement in scheduled.iter() {
        queue.offer(movement);
    }
    for slot in scheduled.iter_mut() {
        if let Some(movement) = queue.poll() {
            *slot = movement;
        }
    }
}

/// `java.util.PriorityQueue` with a comparator, as Java 17 sifts: a binary heap in an array,
/// where equal elements keep whatever order the sifting leaves them in. Movements compare by
/// (caught-up clients, task).
#[derive(Default)]
struct JavaPriorityQueue {
    heap: Vec<(usize, TaskId, usize)>,
}

impl JavaPriorityQueue {
    fn key(movement: &(usize, TaskId, usize)) -> (usize, TaskId) {
        (movement.0, movement.1)
    }

    /// `offer`: sifts up from the end while the parent is strictly greater.
    fn offer(&mut self, movement: (usize, TaskId, usize)) {
        let mut k = self.heap.len();
        self.heap.push(movement);
        while k > 0 {
            let parent = (k - 1) / 2;
            if Self::key(&movement) >= Self::key(&self.heap[parent]) {
                break;
            }
            self.heap[k] = self.heap[parent];
            k = parent;
        }
        self.heap[k] = movement;
    }

    /// `poll`: takes the root, moves the last element to the root and sifts it down while a
    /// child is strictly smaller (the right child only when strictly smaller than the left).
    fn poll(&mut self) -> Option<(usize, TaskId, usize)> {
        let last = self.heap.pop()?;
        let Some(&root) = self.heap.first() else {
            return Some(last);
        };
        let n = self.heap.len();
        let mut k = 0;
        while k < n / 2 {
            let mut child = 2 * k + 1;
            if child + 1 < n && Self::key(&self.heap[child]) > Self::key(&self.heap[child + 1]) {
                child += 1;
            }
            if Self::key(&last) <= Self::key(&self.heap[child]) {
                break;
            }
            self.heap[k] = self.heap[child];
            k = child;
        }
        self.heap[k] = last;
        Some(root)
    }
}

/// Takes one unit of the warm-up budget; true if there was one (the budget is decremented
/// even when it is already spent, as Kafka's counter is).
fn take_budget(budget: &mut i64) -> bool {
    let old = *budget;
    *budget -= 1;
    old > 0
}

/// Moves every active task whose ideal client is not caught up to a caught-up client (or the
/// most caught-up one when none is), fewest caught-up clients first: a caught-up standby swaps
/// with it (no budget), otherwise the task moves and the ideal client keeps a warm-up if
/// budget remains. Returns the movements scheduled and the warm-ups given.
pub fn assign_active_task_movements(
    clients: &mut [Client],
    lags: &Lags,
    acceptable: u64,
    budget: &mut i64,
) -> Movements {
    let n = clients.len();
    let mut scheduled: Vec<(usize, TaskId, usize)> = Vec::new();
    for (c, client) in clients.iter().enumerate() {
        for &t in &client.active {
            if needs_move(lags, acceptable, n, t, c) {
                scheduled.push((lags.caught_up_count(t, acceptable, n), t, c));
            }
        }
    }
    fewest_caught_up_first(&mut scheduled);
    let mut done = Movements {
        count: scheduled.len(),
        warmups: Vec::new(),
    };
    for (_, t, target) in scheduled {
        let caught_up = lags.caught_up_clients(t, acceptable, n);
        if let Some(h) = least_loaded(clients, &caught_up, |x| clients[x].standby.contains(&t)) {
            swap(clients, t, h, target);
        } else if let Some(h) = least_loaded(clients, &caught_up, |_| true) {
            move_active(clients, t, h, target, budget, &mut done.warmups);
        } else if let Some(h) = lags.by_lag(t, n).take_while(|&x| x != target).next() {
            if clients[h].standby.contains(&t) {
                swap(clients, t, h, target);
            } else {
                move_active(clients, t, h, target, budget, &mut done.warmups);
            }
        }
    }
    done
}

/// The holder's standby of a task becomes its active, and the ideal client keeps a standby.
fn swap(clients: &mut [Client], task: TaskId, holder: usize, target: usize) {
    clients[holder].standby.remove(&task);
    clients[holder].active.insert(task);
    clients[target].active.remove(&task);
    clients[target].standby.insert(task);
}

/// The holder runs the task; the ideal client keeps a warm-up if budget remains.
fn move_active(
    clients: &mut [Client],
    task: TaskId,
    holder: usize,
    target: usize,
    budget: &mut i64,
    warmups: &mut Vec<(usize, TaskId)>,
) {
    clients[holder].active.insert(task);
    clients[target].active.remove(&task);
    if take_budget(budget) {
        clients[target].standby.insert(task);
        warmups.push((target, task));
    }
}

/// Moves every standby (but the warm-ups just given) whose client is not caught up, while
/// another client is more caught up, to the least loaded caught-up client not holding the
/// task (else the most caught-up such client ahead of it); the client keeps it as a warm-up
/// if budget remains. Returns the movements carried out and the warm-ups kept.
pub fn assign_standby_task_movements(
    clients: &mut [Client],
    lags: &Lags,
    acceptable: u64,
    budget: &mut i64,
    active_warmups: &[(usize, TaskId)],
) -> Movements {
    let n = clients.len();
    let mut scheduled: Vec<(usize, TaskId, usize)> = Vec::new();
    for (c, client) in clients.iter().enumerate() {
        for &t in &client.standby {
            if !active_warmups.contains(&(c, t)) && needs_move(lags, acceptable, n, t, c) {
                scheduled.push((lags.caught_up_count(t, acceptable, n), t, c));
            }
        }
    }
    fewest_caught_up_first(&mut scheduled);
    let mut done = Movements::default();
    for (_, t, target) in scheduled {
        let caught_up = lags.caught_up_clients(t, acceptable, n);
        let holder = least_loaded(clients, &caught_up, |x| !clients[x].holds(t)).or_else(|| {
            lags.by_lag(t, n)
                .take_while(|&x| x != target)
                .find(|&x| !clients[x].holds(t))
        });
        let Some(h) = holder else { continue };
        clients[h].standby.insert(t);
        if take_budget(budget) {
            done.warmups.push((target, t));
        } else {
            clients[target].standby.remove(&t);
        }
        done.count += 1;
    }
    done
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn movements_come_sorted_by_caught_up_clients_then_task() {
        let mut seed = 5_u64;
        let mut next = |m: u64| {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            (seed >> 33) % m
        };
        let mut scheduled = Vec::new();
        for client in 0..40 {
            for task in 0..60 {
                if next(3) == 0 {
                    scheduled.push((next(4) as usize, TaskId(task), client));
                }
            }
        }
        let mut polled = scheduled.clone();
        fewest_caught_up_first(&mut polled);
        let keys: Vec<(usize, TaskId)> = polled.iter().map(|&(c, t, _)| (c, t)).collect();
        assert!(keys.windows(2).all(|w| w[0] <= w[1]));
        let (mut a, mut b) = (scheduled, polled.clone());
        a.sort();
        b.sort();
        assert_eq!(a, b, "every movement comes out once");
        // The same movements offered to java.util.PriorityQueue (Java 17) and polled, folded
        // as h = 31 h + 100000 caught-up + 100 task + client.
        let h = polled.iter().fold(0i64, |h, &(c, t, client)| {
            h.wrapping_mul(31)
                .wrapping_add((c * 100_000 + t.index() * 100 + client) as i64)
        });
        assert_eq!((polled.len(), h), (814, -8_417_733_273_111_423_137));
    }

    #[test]
    fn tied_movements_come_in_the_java_heaps_order_not_by_client() {
        // Offered in client order, all of one task with one caught-up client: Java 17's
        // PriorityQueue polls them 0, 3, 2, 1 (checked against java.util.PriorityQueue).
        let mut scheduled: Vec<(usize, TaskId, usize)> =
            (0..4).map(|client| (1, TaskId(7), client)).collect();
        fewest_caught_up_first(&mut scheduled);
        let clients: Vec<usize> = scheduled.iter().map(|&(_, _, c)| c).collect();
        assert_eq!(clients, [0, 3, 2, 1]);
    }
}
