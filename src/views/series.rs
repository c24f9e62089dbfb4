//! Series over time for the charts, read off a run's history: each task's availability
//! (up, restoring, down, with learner replay), each member's active load, and downtime
//! accumulated over time.

use crate::engine::EventKind;
use crate::history::Run;
use crate::model::{MemberId, TaskId};
use serde::{Deserialize, Serialize};
use std::mem::{discriminant, Discriminant};

/// What a task is doing over a span of time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Availability {
    /// Processed.
    Up,
    /// Its owner restores the store; the task is down meanwhile.
    Restoring,
    /// Nobody runs it.
    Down,
}

/// A stretch of time in one state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Span {
    /// From, in ms.
    pub from: u64,
    /// To, in ms.
    pub to: u64,
    /// The state.
    pub state: Availability,
}

/// One task over time.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaskLine {
    /// The task.
    pub task: TaskId,
    /// Consecutive spans from 0 to the end.
    pub spans: Vec<Span>,
    /// When some member was learning it.
    pub learning: Vec<(u64, u64)>,
    /// Who ran it (its active owner), over time: (from, to, member).
    pub owners: Vec<(u64, u64, MemberId)>,
    /// When some member kept a standby of it.
    pub standby: Vec<(u64, u64)>,
}

/// A member's active task count over time, as steps.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LoadLine {
    /// The member.
    pub member: MemberId,
    /// (time, active tasks from then on).
    pub steps: Vec<(u64, u32)>,
}

/// Availability of every task from 0 to `until`.
pub fn availability(run: &Run, until: u64) -> Vec<TaskLine> {
    let mut scan = AvailabilityScan::new(run);
    scan.advance(run, until);
    scan.into_lines(until)
}

/// Every task's availability read off a run's history, resumable: read up to a moment, then
/// to a later one, it goes on from where it stopped instead of reading the history from 0
/// again (in a group of thousands of tasks, a reading visits every task's every event).
/// The run must only have grown meanwhile; [`AvailabilityScan::follows`] tells.
#[derive(Debug)]
pub struct AvailabilityScan {
    /// The events read, and the last of them (to tell the history was not rewritten).
    read: usize,
    last: Option<(u64, Discriminant<EventKind>)>,
    /// The moment read up to.
    until: u64,
    /// By task, as of that moment: its active owner (and since when), whether it is up, its
    /// state (and since when), and the stretches of ownership and of states already closed.
    owner: Vec<Option<MemberId>>,
    up: Vec<bool>,
    owners: Vec<Vec<(u64, u64, MemberId)>>,
    owned_since: Vec<u64>,
    since: Vec<u64>,
    state: Vec<Availability>,
    spans: Vec<Vec<Span>>,
    /// The rounds read (for learners and standbys), each kind's open span and closed ones.
    rounds_read: usize,
    open: [Vec<Option<u64>>; 2],
    replicas: [Spans; 2],
}

/// When each task had a learner, and when a standby: from the sync that placed it to the
/// sync that removed it.
type Spans = Vec<Vec<(u64, u64)>>;

impl AvailabilityScan {
    /// A scan of `run` that has read nothing yet.
    pub fn new(run: &Run) -> AvailabilityScan {
        let n = run.engine().tasks().len();
        let mut owner: Vec<Option<MemberId>> = run
            .scenario()
            .initial
            .clone()
            .unwrap_or_else(|| vec![None; n]);
        owner.resize(n, None);
        AvailabilityScan {
            read: 0,
            last: None,
            until: 0,
            owner,
            up: vec![false; n],
            owners: vec![Vec::new(); n],
            owned_since: vec![0; n],
            since: vec![0; n],
            state: vec![Availability::Down; n],
            spans: vec![Vec::new(); n],
            rounds_read: 0,
            open: [vec![None; n], vec![None; n]],
            replicas: [vec![Vec::new(); n], vec![Vec::new(); n]],
        }
    }

    /// Whether this scan can go on reading `run` up to `until`: the run still holds the
    /// events read, unchanged, and `until` is not before the moment read up to.
    pub fn follows(&self, run: &Run, until: u64) -> bool {
        let events = run.events();
        until >= self.until
            && events.len() >= self.read
            && run.rounds().len() >= self.rounds_read
            && self.owner.len() == run.engine().tasks().len()
            && match (self.read.checked_sub(1), &self.last) {
                (Some(i), Some((at, kind))) => {
                    events[i].at == *at && discriminant(&events[i].kind) == *kind
                }
                (None, None) => true,
                _ => false,
            }
    }

    /// Reads the events and rounds of `run` from where the scan stopped up to `until`
    /// (which the caller checked with [`AvailabilityScan::follows`]).
    pub fn advance(&mut self, run: &Run, until: u64) {
        let events = run.events();
        while let Some(e) = events.get(self.read).filter(|e| e.at <= until) {
            self.read += 1;
            self.last = Some((e.at, discriminant(&e.kind)));
            self.event(e.at, &e.kind);
        }
        self.until = until;
        self.read_rounds(run, until);
    }

    fn event(&mut self, at: u64, kind: &EventKind) {
        let t = match *kind {
            EventKind::TaskStarted(t, m) => {
                let i = t.index();
                if let Some(previous) = self.owner[i].filter(|&p| p != m) {
                    self.owners[i].push((self.owned_since[i], at, previous));
                }
                if self.owner[i] != Some(m) {
                    self.owned_since[i] = at;
                }
                self.owner[i] = Some(m);
                t
            }
            EventKind::TaskStopped(t, m) => {
                let i = t.index();
                if self.owner[i] == Some(m) {
                    self.owners[i].push((self.owned_since[i], at, m));
                    self.owner[i] = None;
                }
                t
            }
            EventKind::TaskUp(t) => {
                self.up[t.index()] = true;
                t
            }
            EventKind::TaskDown(t) => {
                self.up[t.index()] = false;
                t
            }
            _ => return,
        };
        let i = t.index();
        let next = if self.up[i] {
            Availability::Up
        } else if self.owner[i].is_some() {
            Availability::Restoring
        } else {
            Availability::Down
        };
        if self.state[i] != next {
            if at > self.since[i] {
                self.spans[i].push(Span {
                    from: self.since[i],
                    to: at,
                    state: self.state[i],
                });
            }
            self.state[i] = next;
            self.since[i] = at;
        }
    }

    /// The rounds synced by `until`, in order: a round still syncing stops the reading (the
    /// rounds after it come later); an abandoned one never synced and is passed over.
    fn read_rounds(&mut self, run: &Run, until: u64) {
        let n = self.owner.len();
        // Which tasks a round gives learners and standbys, made only once a new round has
        // synced: most reads (one a rebuild of the timeline) find none.
        let mut flags: Option<[Vec<bool>; 2]> = None;
        for r in run.rounds().get(self.rounds_read..).unwrap_or_default() {
            let Some(synced) = r.synced_at.filter(|&s| s <= until) else {
                if r.abandoned {
                    self.rounds_read += 1;
                    continue;
                }
                break;
            };
            self.rounds_read += 1;
            let held = flags.get_or_insert_with(|| [vec![false; n], vec![false; n]]);
            held.iter_mut().for_each(|h| h.fill(false));
            for (_, a) in &r.assignment.members {
                for &t in &a.learning {
                    held[0][t.index()] = true;
                }
                for &t in &a.standby {
                    held[1][t.index()] = true;
                }
            }
            for (kind, held) in held.iter().enumerate() {
                for (t, &held) in held.iter().enumerate() {
                    match (self.open[kind][t], held) {
                        (None, true) => self.open[kind][t] = Some(synced),
                        (Some(from), false) => {
                            self.replicas[kind][t].push((from, synced));
                            self.open[kind][t] = None;
                        }
                        _ => {}
                    }
                }
            }
        }
    }

    /// Every task's line from 0 to `until` (the moment read up to): what is still going on
    /// then ends there. The scan is kept to read on from; each of its stretches is copied
    /// once, into room for the one still open (if any: most tasks have no learner).
    pub fn lines(&self, until: u64) -> Vec<TaskLine> {
        fn copy<T: Copy>(closed: &[T], open: bool) -> Vec<T> {
            let mut v = Vec::with_capacity(closed.len() + usize::from(open));
            v.extend_from_slice(closed);
            v
        }
        (0..self.owner.len())
            .map(|i| {
                self.close(
                    i,
                    until,
                    Closed {
                        owners: copy(&self.owners[i], self.owner[i].is_some()),
                        spans: copy(&self.spans[i], true),
                        learning: copy(&self.replicas[0][i], self.open[0][i].is_some()),
                        standby: copy(&self.replicas[1][i], self.open[1][i].is_some()),
                    },
                )
            })
            .collect()
    }

    /// [`AvailabilityScan::lines`], for a scan read once: its stretches are moved, not copied.
    pub fn into_lines(mut self, until: u64) -> Vec<TaskLine> {
        let owners = std::mem::take(&mut self.owners);
        let spans = std::mem::take(&mut self.spans);
        let [learning, standby] = std::mem::take(&mut self.replicas);
        owners
            .into_iter()
            .zip(spans)
            .zip(learning.into_iter().zip(standby))
            .enumerate()
            .map(|(i, ((owners, spans), (learning, standby)))| {
                self.close(
                    i,
                    until,
                    Closed {
                        owners,
                        spans,
                        learning,
                        standby,
                    },
                )
            })
            .collect()
    }

    /// Task `i`'s line to `until`: its closed stretches and what is still open then.
    fn close(&self, i: usize, until: u64, closed: Closed) -> TaskLine {
        let Closed {
            mut owners,
            mut spans,
            mut learning,
            mut standby,
        } = closed;
        owners.retain(|&(from, to, _)| to > from);
        if let Some(m) = self.owner[i] {
            if until > self.owned_since[i] {
                owners.push((self.owned_since[i], until, m));
            }
        }
        if until > self.since[i] {
            spans.push(Span {
                from: self.since[i],
                to: until,
                state: self.state[i],
            });
        }
        learning.extend(self.open[0][i].map(|from| (from, until)));
        standby.extend(self.open[1][i].map(|from| (from, until)));
        TaskLine {
            task: TaskId(i as u32),
            spans,
            learning,
            owners,
            standby,
        }
    }
}

/// One task's stretches already closed, as a scan holds them.
struct Closed {
    owners: Vec<(u64, u64, MemberId)>,
    spans: Vec<Span>,
    learning: Vec<(u64, u64)>,
    standby: Vec<(u64, u64)>,
}

/// How many task lines a chart of a large group draws: beyond this, rows get too thin to
/// read and the drawing too large to ship.
pub const CHART_TASKS: usize = 40;

/// The time a task line spends not up (down or restoring).
pub fn time_not_up(line: &TaskLine) -> u64 {
    line.spans
        .iter()
        .filter(|s| s.state != Availability::Up)
        .map(|s| s.to - s.from)
        .sum()
}

/// At most `n` task lines: those with the most time not up (ties: the first tasks), back in
/// task order. All of them when there are at most `n`.
pub fn most_downtime(mut lines: Vec<TaskLine>, n: usize) -> Vec<TaskLine> {
    if lines.len() > n {
        lines.sort_by_key(|l| std::cmp::Reverse(time_not_up(l)));
        lines.truncate(n);
        lines.sort_by_key(|l| l.task);
    }
    lines
}

/// At most `n` load lines: those of the members whose load changed most often (ties: the
/// first members), back in join order. All of them when there are at most `n`.
pub fn most_changes(mut lines: Vec<LoadLine>, n: usize) -> Vec<LoadLine> {
    if lines.len() > n {
        lines.sort_by_key(|l| std::cmp::Reverse(l.steps.len()));
        lines.truncate(n);
        lines.sort_by_key(|l| l.member);
    }
    lines
}

/// Active tasks per member over time, from 0 to `until`.
pub fn member_load(run: &Run, until: u64) -> Vec<LoadLine> {
    let members = run.engine().members().len();
    let mut count = vec![0u32; members];
    if let Some(initial) = &run.scenario().initial {
        for m in initial.iter().flatten() {
            count[m.index()] += 1;
        }
    }
    let mut lines: Vec<LoadLine> = (0..members)
        .map(|m| LoadLine {
            member: MemberId(m as u32),
            steps: vec![(0, count[m])],
        })
        .collect();
    for e in run.events().iter().take_while(|e| e.at <= until) {
        let (m, delta): (MemberId, i32) = match e.kind {
            EventKind::TaskStarted(_, m) => (m, 1),
            EventKind::TaskStopped(_, m) => (m, -1),
            _ => continue,
        };
        let c = &mut count[m.index()];
        *c = (*c as i32 + delta).max(0) as u32;
        let steps = &mut lines[m.index()].steps;
        match steps.last_mut() {
            Some(last) if last.0 == e.at => last.1 = *c,
            _ => steps.push((e.at, *c)),
        }
    }
    lines
}

/// Downtime summed over tasks, accumulated from 0: (time, ms of task downtime so far) at
/// every change of slope, ending at `until`.
pub fn cumulative_downtime(run: &Run, until: u64) -> Vec<(u64, u64)> {
    let lines = availability(run, until);
    let mut changes: Vec<(u64, i64)> = Vec::new();
    for line in &lines {
        for s in &line.spans {
            if s.state != Availability::Up {
                changes.push((s.from, 1));
                changes.push((s.to, -1));
            }
        }
    }
    changes.sort();
    let mut out = vec![(0, 0)];
    let (mut down, mut total, mut last) = (0i64, 0u64, 0u64);
    for (at, delta) in changes {
        total += down.max(0) as u64 * (at - last);
        last = at;
        down += delta;
        match out.last_mut() {
            Some(p) if p.0 == at => p.1 = total,
            _ => out.push((at, total)),
        }
    }
    if last < until {
        total += down.max(0) as u64 * (until - last);
        out.push((until, total));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presets::Preset;
    use crate::views::metrics::Metrics;

    fn run(id: &str) -> Run {
        let mut run = Run::new(
            Preset::find(id)
                .expect("preset")
                .scenario()
                .expect("parses"),
        );
        run.run_to_end().expect("runs");
        run
    }

    #[test]
    fn availability_shows_the_release_at_join_pauses() {
        let r = run("scale-down-running");
        let end = r.frontier();
        let lines = availability(&r, end);
        let t4 = &lines[3];
        let down: Vec<&Span> = t4
            .spans
            .iter()
            .filter(|s| s.state != Availability::Up)
            .collect();
        assert_eq!(down.len(), 1, "{:?}", t4.spans);
        assert_eq!(down[0].to - down[0].from, 500);
        assert!(!t4.learning.is_empty(), "T4 had a learner on S3");
        // T4 ran on S2, then on S3.
        let owners: Vec<(MemberId, u64)> = t4.owners.iter().map(|&(f, _, m)| (m, f)).collect();
        assert_eq!(owners.first().map(|o| o.0), Some(MemberId(1)), "{owners:?}");
        assert_eq!(owners.last().map(|o| o.0), Some(MemberId(2)), "{owners:?}");
        assert_eq!(t4.owners.last().map(|o| o.1), Some(end));
        assert_eq!(t4.spans.first().map(|s| s.from), Some(0));
        assert_eq!(t4.spans.last().map(|s| s.to), Some(end));
    }

    #[test]
    fn standbys_show_over_time() {
        let mut scenario = Preset::find("scale-up-running")
            .expect("preset")
            .scenario()
            .expect("parses");
        scenario.config.num_standby_replicas = 1;
        let mut r = Run::new(scenario);
        r.run_to_end().expect("runs");
        let lines = availability(&r, r.frontier());
        assert!(
            lines.iter().all(|l| !l.standby.is_empty()),
            "every task got a standby"
        );
    }

    #[test]
    fn cumulative_downtime_ends_at_the_metric() {
        for id in [
            "scale-up-running",
            "scale-down-running",
            "leader-transfer",
            "scale-up-empty",
        ] {
            let r = run(id);
            let curve = cumulative_downtime(&r, r.frontier());
            let total = Metrics::of(r.engine()).total_task_downtime_ms;
            assert_eq!(curve.last().map(|p| p.1), Some(total), "{id}");
            assert!(
                curve
                    .windows(2)
                    .all(|w| w[0].1 <= w[1].1 && w[0].0 <= w[1].0),
                "{id}: monotone"
            );
        }
    }

    #[test]
    fn large_groups_keep_the_tasks_with_the_most_downtime_in_task_order() {
        let r = run("scale-down-running");
        let lines = availability(&r, r.frontier());
        let kept = most_downtime(lines.clone(), 2);
        let tasks: Vec<TaskId> = kept.iter().map(|l| l.task).collect();
        // T3 is down twice, T4 once; the others never.
        assert_eq!(tasks, [TaskId(2), TaskId(3)]);
        assert!(kept.iter().all(|l| time_not_up(l) > 0));
        assert_eq!(most_downtime(lines.clone(), 10), lines);
        let load = member_load(&r, r.frontier());
        let busiest = most_changes(load.clone(), 1);
        let steps = busiest[0].steps.len();
        assert!(load.iter().all(|l| l.steps.len() <= steps));
    }

    #[test]
    fn member_load_follows_the_moves() {
        let r = run("scale-up-running");
        let lines = member_load(&r, r.frontier());
        let s1 = &lines[0];
        assert_eq!(s1.steps.first(), Some(&(0, 2)));
        assert_eq!(s1.steps.last().map(|s| s.1), Some(1));
        let s5 = &lines[4];
        assert_eq!(s5.steps.last().map(|s| s.1), Some(1));
    }
}
