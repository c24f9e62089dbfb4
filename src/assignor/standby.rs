//! Standby replicas (the design's rule 8): never beside the task's active or learner, never on
//! a leaving member, each member's total within twice its share.

use super::balance::{LeastLoaded, LoadKey};
use super::plan::{Plan, Pos};

impl Plan<'_> {
    /// Places standby replicas (docs/design.md, rule 8): never beside the task's active or
    /// learner, never on a leaving member, each member's total within twice its share.
    /// Existing standbys are kept; a learner counts as one of its task's replicas, since it
    /// holds a warm copy and its old owner keeps one once the task moves. New standbys go to
    /// the least loaded members, and among those to one that already holds the state.
    pub fn place_standbys(&mut self) {
        let replicas = self.input.config.num_standby_replicas as usize;
        if replicas == 0 {
            return;
        }
        let k = self.input.members.len();
        let receivers: Vec<Pos> = (0..k).filter(|&p| !self.leaving(p)).collect();
        if receivers.is_empty() {
            return;
        }
        let stateful = (0..self.task_count()).filter(|&t| self.stateful(t)).count() as u64;
        let units = self.task_count() as u64 + stateful * replicas as u64;
        let total_capacity: u64 = receivers.iter().map(|&p| self.capacity(p)).sum();
        // Twice the expected share, rounded up so that a share under one still allows one.
        let max_total: Vec<u64> = (0..k)
            .map(|p| (2 * units * self.capacity(p)).div_ceil(total_capacity))
            .collect();
        let mut totals = self.active_counts();
        for &l in self.learner.iter().flatten() {
            totals[l] += 1;
        }
        let mut kept_per_task: Vec<Vec<Pos>> = vec![Vec::new(); self.task_count()];
        for (t, kept) in kept_per_task.iter_mut().enumerate() {
            if !self.stateful(t) {
                continue;
            }
            let (owner, learner) = (self.owner[t], self.learner[t]);
            *kept = self.reported_standbys[t]
                .iter()
                .copied()
                .filter(|&p| !self.leaving(p) && Some(p) != owner && Some(p) != learner)
                .collect();
            kept.sort_by_key(|&p| (self.lag(t, p).unwrap_or(u64::MAX), p));
            kept.truncate(replicas.saturating_sub(usize::from(learner.is_some())));
            for &p in kept.iter() {
                totals[p] += 1;
            }
        }
        let mut least = LeastLoaded::new(&receivers, &totals, |p| self.capacity(p));
        for (t, mut kept) in kept_per_task.into_iter().enumerate() {
            if !self.stateful(t) {
                continue;
            }
            let (owner, learner) = (self.owner[t], self.learner[t]);
            let wanted = replicas.saturating_sub(usize::from(learner.is_some()));
            let eligible = |p: Pos, kept: &[Pos], totals: &[u64]| {
                Some(p) != owner
                    && Some(p) != learner
                    && !kept.contains(&p)
                    && totals[p] < max_total[p]
            };
            while kept.len() < wanted {
                // Set aside the least loaded members that cannot take this task.
                let mut skipped = Vec::new();
                let pick = loop {
                    match least.pop_least(&totals) {
                        None => break None,
                        Some(p) if totals[p] >= max_total[p] => least.discard(p),
                        Some(p) if !eligible(p, &kept, &totals) => {
                            skipped.push(p);
                            least.discard(p);
                        }
                        Some(p) => break Some(p),
                    }
                };
                for p in skipped {
                    least.update(p, &totals);
                }
                let Some(p) = pick else { break };
                // Among members as lightly loaded as the pick, prefer one holding the state.
                let key = LoadKey::new(totals[p], self.capacity(p));
                let warm = self.holders[t]
                    .iter()
                    .filter(|&&(h, _)| {
                        !self.leaving(h)
                            && eligible(h, &kept, &totals)
                            && LoadKey::new(totals[h], self.capacity(h)) == key
                    })
                    .min_by_key(|&&(h, lag)| (lag, h))
                    .map(|&(h, _)| h);
                let chosen = warm.unwrap_or(p);
                totals[chosen] += 1;
                least.update(chosen, &totals);
                kept.push(chosen);
            }
            kept.sort_unstable();
            self.standbys[t] = kept;
        }
    }
}
