//! What each part of the page shows, as plain data read off the playground: the transport's
//! marks and words, the round banner's words, the log, the compare view's lanes and charts.
//! Components take these as props (they compare by value, so an unchanged part is not
//! redrawn); the costly ones are kept until what they are read from changes.

use super::Playground;
use crate::format::ScenarioFile;
use crate::history::invariants::Violation;
use crate::model::{Command, Strategy};
use crate::session::Lane;
use crate::views::charts::{ChartData, ChartKind, Series};
use crate::views::frame::{ChipRole, Frame, PhaseView};
use crate::views::metrics::Metrics;
use crate::views::notation;
use crate::views::timeline::{self, Availability};
use std::cell::RefCell;
use std::rc::Rc;

/// Something drawn on the timeline under the scrubber.
#[derive(Clone, Debug, PartialEq)]
pub enum Mark {
    /// A rebalance round started.
    Round(u64),
    /// A person's (or the scenario's) command.
    Command(u64, String),
    /// An invariant broke.
    Violation(u64),
    /// An abandoned branch: forked at, had run until.
    Fork(u64, u64),
}

/// A round scale above `ms` (1, 2 or 5 times a power of ten, with room to spare), so that
/// the scrubber's marks and the charts' axes stay put while the history grows.
pub fn nice_scale(ms: u64) -> u64 {
    let wanted = ms + ms / 10 + 1;
    let mut unit = 1_000u64;
    loop {
        for m in [1, 2, 5] {
            if unit * m >= wanted {
                return unit * m;
            }
        }
        unit *= 10;
    }
}

/// What the member toolbar needs.
#[derive(Clone, Debug, PartialEq)]
pub struct Toolbar {
    /// Names already taken, to pick the next one.
    pub names: Vec<String>,
    /// The scenario's restore rate, the default for a new member.
    pub default_rate: u64,
    /// Whether the leader can be crashed now.
    pub can_crash_leader: bool,
}

/// The log in the seed's notation, as known at the clock.
#[derive(Clone, Debug, PartialEq)]
pub struct Log {
    /// One entry per round assigned by the clock.
    pub rounds: Rc<Vec<LogRound>>,
    /// Invariant violations seen by the clock.
    pub violations: Vec<Violation>,
    /// The round in its join phase, not yet assigned, in words.
    pub pending: Option<String>,
    /// The last lines when the group is at rest.
    pub ending: Option<String>,
}

/// One round of the log.
#[derive(Clone, Debug, PartialEq)]
pub struct LogRound {
    /// Its index (1 = first).
    pub index: u32,
    /// When it started.
    pub started_at: u64,
    /// Its heading line (`#First Rebalance ...`).
    pub heading: String,
    /// The lines under the heading.
    pub body: String,
}

/// Everything the single view shows at the clock.
#[derive(Clone, Debug, PartialEq)]
pub struct Single {
    /// The group at the clock.
    pub frame: Frame,
    /// The measures at the clock.
    pub metrics: Metrics,
    /// The tasks down longest, with their downtime (ms), worst first.
    pub worst: Vec<(String, u64)>,
    /// How many other tasks had downtime.
    pub others_down: usize,
    /// What is going on between rounds, in words.
    pub quiet: &'static str,
    /// When something last happened.
    pub last_change: u64,
    /// Names the tour highlights.
    pub highlight: Vec<String>,
    /// The log.
    pub log: Log,
    /// The round highlighted in the log (in progress, or the last).
    pub current_round: Option<u32>,
    /// The member toolbar.
    pub toolbar: Toolbar,
    /// The group is large: members show their tasks as small marks, not one chip each.
    pub compact: bool,
    /// What the reader looked for, if anything.
    pub found: Option<Found>,
}

/// Where a task or a member looked for by name is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// The name looked for, as the group spells it.
    pub name: String,
    /// What it is and where, in words.
    pub text: String,
    /// The member to bring into view (the member itself, or the task's active owner).
    pub member: Option<String>,
}

/// Above this many tasks, members show their tasks as small marks on a canvas rather than one
/// chip (a few DOM nodes) each: hundreds of chips changing every frame cost more than a
/// frame, and no eye reads them one by one.
pub const COMPACT_TASKS: usize = 150;

/// Looks a task or a member up by name (case does not matter) in a frame.
pub fn find(frame: &Frame, roster: &crate::model::Roster, query: &str) -> Option<Found> {
    let query = query.trim();
    if query.is_empty() {
        return None;
    }
    let same = |name: &str| name.eq_ignore_ascii_case(query);
    if let Some(card) = frame.cards.iter().find(|c| same(&c.name)) {
        let count = |role: ChipRole| card.chips.iter().filter(|c| c.role == role).count();
        let down = card
            .chips
            .iter()
            .filter(|c| c.role == ChipRole::Active && !c.up)
            .count();
        return Some(Found {
            name: card.name.clone(),
            text: format!(
                "{}: {}{}, {} active ({} restoring), {} learning, {} standby",
                card.name,
                card.status.name(),
                if card.leader { ", leader" } else { "" },
                count(ChipRole::Active),
                down,
                count(ChipRole::Learner),
                count(ChipRole::Standby)
            ),
            member: Some(card.name.clone()),
        });
    }
    let Some(task) = roster.tasks.iter().find(|t| same(t)) else {
        return Some(Found {
            name: query.to_string(),
            text: format!("No task or member is named \"{query}\"."),
            member: None,
        });
    };
    let mut places = Vec::new();
    let mut owner = None;
    for card in &frame.cards {
        for chip in card.chips.iter().filter(|c| &c.name == task) {
            let state = match chip.role {
                ChipRole::Active if chip.up => "running".to_string(),
                ChipRole::Active => format!("restoring, {}% replayed", chip.progress),
                ChipRole::Learner if chip.ready => "ready".to_string(),
                _ => format!("{}% replayed", chip.progress),
            };
            if chip.role == ChipRole::Active {
                owner = Some(card.name.clone());
            }
            places.push(format!("{} on {} ({state})", chip.role.name(), card.name));
        }
    }
    if frame.unowned.iter().any(|c| &c.name == task) {
        places.push("no member runs it (down)".to_string());
    }
    Some(Found {
        name: task.clone(),
        text: format!("{task}: {}", places.join(" \u{00B7} ")),
        member: owner,
    })
}

/// One strategy's lane in the compare view.
#[derive(Clone, Debug, PartialEq)]
pub struct LaneView {
    /// Its strategy.
    pub strategy: Strategy,
    /// Its group at the clock.
    pub frame: Frame,
    /// Its measures at the clock.
    pub metrics: Metrics,
}

/// The compare view's three charts.
#[derive(Clone, Debug, PartialEq)]
pub struct Charts {
    /// Downtime so far, every strategy.
    pub cumulative: ChartData,
    /// Availability of each task in the chosen lane.
    pub availability: ChartData,
    /// Active tasks per member in the chosen lane.
    pub load: ChartData,
}

/// The task timeline: one row per task over time, grouped by the member running it at the
/// end of the history shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaskTimeline {
    /// The end of the time axis (the scrubber's), in ms.
    pub end: u64,
    /// How far the rows go, in ms.
    pub until: u64,
    /// The rows, grouped.
    pub rows: Vec<TimelineRow>,
    /// Rounds: when each started and when it synced (if it did by `until`).
    pub rounds: Vec<(u64, Option<u64>)>,
    /// Member names, for the owners.
    pub members: Vec<String>,
}

/// One task's row in the task timeline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimelineRow {
    /// The task's name.
    pub name: String,
    /// The first row of a group: the group's member (or `None`: nobody runs these).
    pub group: Option<Option<String>>,
    /// The task over time.
    pub line: timeline::TaskLine,
}

/// A value kept until what it was read from changes (the key).
#[derive(Debug)]
pub struct Memo<K, V>(RefCell<Option<(K, Rc<V>)>>);

impl<K, V> Default for Memo<K, V> {
    fn default() -> Self {
        Memo(RefCell::new(None))
    }
}

impl<K: PartialEq, V> Memo<K, V> {
    /// The value for `key`, computed only if the key changed.
    fn get(&self, key: K, compute: impl FnOnce() -> V) -> Rc<V> {
        let mut slot = self.0.borrow_mut();
        if let Some((k, v)) = slot.as_ref() {
            if *k == key {
                return v.clone();
            }
        }
        let value = Rc::new(compute());
        *slot = Some((key, value.clone()));
        value
    }

    /// Forgets the value (the session it was read from was replaced).
    pub fn clear(&mut self) {
        *self.0.get_mut() = None;
    }
}

/// The views read off the session that are kept between frames.
#[derive(Debug, Default)]
pub struct Memos {
    /// The compare charts: by lane, history shown, events and forks, axis.
    charts: Memo<(usize, u64, usize, usize, u64), Charts>,
    /// The log's rounds: by rounds assigned, synced and abandoned by the clock, and forks.
    log: Memo<(usize, usize, usize, usize), Vec<LogRound>>,
    /// The scenario as a file, for the configuration editor.
    scenario: Memo<(), ScenarioFile>,
    /// The tasks' names.
    task_names: Memo<(), Vec<String>>,
    /// The task timeline: by history shown, events and forks, axis.
    timeline: Memo<(u64, usize, usize, u64), TaskTimeline>,
}

impl Memos {
    /// Forgets everything (the session was replaced).
    pub fn clear(&mut self) {
        self.charts.clear();
        self.log.clear();
        self.scenario.clear();
        self.task_names.clear();
        self.timeline.clear();
    }
}

/// The most tasks the metrics panel lists by downtime.
pub const WORST_TASKS: usize = 12;

/// The most tasks the availability chart draws: those with the most downtime.
pub const AVAILABILITY_ROWS: usize = 40;

/// How finely the charts follow a growing history: a redraw per this share of the axis.
const CHART_STEPS: u64 = 200;

impl Playground {
    /// The scrubber's range: its end stays put while the history grows.
    pub fn scale(&self) -> u64 {
        nice_scale(self.session.frontier().max(self.session.clock()))
    }

    /// The marks under the scrubber: rounds, commands, violations, abandoned branches.
    pub fn marks(&self) -> Vec<Mark> {
        let run = &self.session.main().run;
        run.rounds()
            .iter()
            .map(|r| Mark::Round(r.started_at))
            .chain(
                run.commands()
                    .iter()
                    .map(|c| Mark::Command(c.at_ms, c.command.to_string())),
            )
            .chain(run.violations().iter().map(|v| Mark::Violation(v.at_ms)))
            .chain(
                run.forks()
                    .iter()
                    .map(|f| Mark::Fork(f.at_ms, f.abandoned_until_ms)),
            )
            .collect()
    }

    /// The scrubber's position in words, for screen readers.
    pub fn position_text(&self, frame: &Frame) -> String {
        format!(
            "{} ms, generation {}, {}",
            self.session.clock(),
            frame.round.generation,
            match frame.round.index {
                Some(i) => format!("rebalance {i} in progress"),
                None => "stable".into(),
            }
        )
    }

    /// What a screen reader hears when the round changes.
    pub fn announcement(&self, frame: &Frame, at_rest: bool) -> String {
        match frame.round.index {
            Some(i) => format!(
                "{}: {}. Phase: {}.",
                notation::heading(i).trim_start_matches('#'),
                frame.round.causes.join("; "),
                frame.round.phase.describe()
            ),
            None => format!(
                "Generation {}, {}.",
                frame.round.generation,
                if at_rest {
                    "at rest"
                } else {
                    "stable, learners replaying"
                }
            ),
        }
    }

    /// What the member toolbar needs.
    pub fn toolbar(&self) -> Toolbar {
        Toolbar {
            names: self.session.main().view().roster().members.clone(),
            default_rate: self.session.scenario().config.restore_rate,
            can_crash_leader: self.session.check(&Command::CrashLeader).is_ok(),
        }
    }

    /// Everything the single view shows.
    pub fn single(&self) -> Single {
        let session = &self.session;
        let clock = session.clock();
        let main = session.main();
        let view = main.view();
        let frame = Frame::of(view);
        let metrics = Metrics::of(view);
        let log = self.log(&frame, metrics.at_rest);
        let chips = || frame.cards.iter().flat_map(|c| c.chips.iter());
        let quiet = if metrics.at_rest {
            "nothing to do: the group is at rest"
        } else if chips().any(|c| c.role == ChipRole::Learner) {
            "learners replaying"
        } else if chips().any(|c| c.role == ChipRole::Active && !c.up) {
            "tasks restoring on their new owners (down)"
        } else if !frame.unowned.is_empty() {
            "tasks down until the coordinator notices (session timeout)"
        } else {
            "waiting for the next round"
        };
        let mut down: Vec<(usize, u64)> = metrics
            .task_downtime
            .iter()
            .enumerate()
            .filter(|(_, d)| d.total_ms > 0)
            .map(|(t, d)| (t, d.total_ms))
            .collect();
        down.sort_by_key(|&(t, ms)| (std::cmp::Reverse(ms), t));
        let others_down = down.len().saturating_sub(WORST_TASKS);
        let worst = down
            .into_iter()
            .take(WORST_TASKS)
            .map(|(t, ms)| (view.roster().tasks[t].clone(), ms))
            .collect();
        let found = find(&frame, view.roster(), &self.find);
        let mut highlight: Vec<String> = self
            .tour
            .as_ref()
            .and_then(|p| crate::tour::Tour::find(&p.tour).and_then(|t| t.steps.get(p.step)))
            .map(|s| s.highlight.iter().map(|h| h.to_string()).collect())
            .unwrap_or_default();
        highlight.extend(found.as_ref().map(|f| f.name.clone()));
        Single {
            current_round: frame.round.index.or(log.rounds.last().map(|r| r.index)),
            last_change: main
                .run
                .events()
                .iter()
                .rev()
                .find(|e| e.at <= clock)
                .map_or(0, |e| e.at),
            worst,
            others_down,
            toolbar: self.toolbar(),
            compact: view.tasks().len() > COMPACT_TASKS,
            found,
            frame,
            metrics,
            quiet,
            highlight,
            log,
        }
    }

    /// Every lane's group and measures at the clock.
    pub fn lanes(&self) -> Vec<LaneView> {
        self.session
            .lanes()
            .iter()
            .map(|l| LaneView {
                strategy: l.strategy,
                frame: Frame::of(l.view()),
                metrics: Metrics::of(l.view()),
            })
            .collect()
    }

    /// The compare view's charts, rebuilt only when the history they show grew by a step
    /// of the axis, forked, or another lane was chosen.
    pub fn charts(&self) -> Rc<Charts> {
        let session = &self.session;
        let end = self.scale();
        let step = (end / CHART_STEPS).max(1);
        let until = ((session.frontier() / step) * step).max(1);
        let events = session.lanes().iter().map(|l| l.run.events().len()).sum();
        let forks = session.lanes().iter().map(|l| l.run.forks().len()).sum();
        let key = (self.chart_lane(), until, events, forks, end);
        self.memos
            .charts
            .get(key, || build_charts(self, until, end))
    }

    /// The scenario as loaded, as a file (the configuration editor's draft starts from it).
    pub fn scenario_file(&self) -> Rc<ScenarioFile> {
        let scenario = self.session.scenario();
        self.memos
            .scenario
            .get((), || scenario.to_file(&scenario.commands))
    }

    /// The task timeline of the main lane, rebuilt as the history grows by a step of the
    /// axis (or forks).
    pub fn task_timeline(&self) -> Rc<TaskTimeline> {
        let lane = self.session.main();
        let end = self.scale();
        let step = (end / CHART_STEPS).max(1);
        let until = ((lane.run.frontier() / step) * step).max(1);
        let key = (until, lane.run.events().len(), lane.run.forks().len(), end);
        self.memos
            .timeline
            .get(key, || task_timeline(lane, until, end))
    }

    /// The tasks' names, shared by every member's marks in a large group.
    pub fn task_names(&self) -> Rc<Vec<String>> {
        let roster = self.session.main().run.engine().roster();
        self.memos.task_names.get((), || roster.tasks.clone())
    }

    /// The log of the main lane as known at the clock.
    fn log(&self, frame: &Frame, at_rest: bool) -> Log {
        let lane = self.session.main();
        let clock = self.session.clock();
        let known = lane.rounds_until(clock);
        let synced = known
            .iter()
            .filter(|r| r.synced_at.is_some_and(|s| s <= clock))
            .count();
        let abandoned = known.iter().filter(|r| r.abandoned).count();
        let key = (known.len(), synced, abandoned, lane.run.forks().len());
        let rounds = self.memos.log.get(key, || log_rounds(lane, clock));
        let view = lane.view();
        Log {
            violations: lane
                .run
                .violations()
                .iter()
                .filter(|v| v.at_ms <= clock)
                .cloned()
                .collect(),
            pending: (frame.round.phase == PhaseView::Joining).then(|| {
                format!(
                    "{}\n{}\nMembers joining\u{2026}",
                    notation::heading(frame.round.index.unwrap_or(0)),
                    frame.round.causes.join("\n")
                )
            }),
            ending: (at_rest && !rounds.is_empty())
                .then(|| notation::log(view, &[]).trim().to_string()),
            rounds,
        }
    }
}

/// The rounds of a lane as known at the clock, in the seed's notation.
fn log_rounds(lane: &Lane, clock: u64) -> Vec<LogRound> {
    let view = lane.view();
    let roster = view.roster();
    let standbys = view.config().num_standby_replicas > 0;
    let ready_lag = view.config().ready_lag();
    lane.rounds_as_of(clock)
        .iter()
        .map(|r| {
            let text = if r.joined.len() > LOG_FULL_MEMBERS {
                condensed_round(roster, r, standbys, ready_lag)
            } else {
                notation::round(roster, r, standbys, ready_lag)
            };
            let (heading, body) = text.split_once('\n').unwrap_or((&text, ""));
            LogRound {
                index: r.index,
                started_at: r.started_at,
                heading: heading.to_string(),
                body: body.to_string(),
            }
        })
        .collect()
}

/// Rounds of groups larger than this show only the members with something to report or a
/// change to receive (the export has every line).
pub const LOG_FULL_MEMBERS: usize = 12;

/// A round in the seed's notation, keeping only the members that report something (leaving,
/// revoked, learning) or receive a change; a line counts the others.
fn condensed_round(
    roster: &crate::model::Roster,
    round: &crate::engine::coordinator::Round,
    standbys: bool,
    ready_lag: u64,
) -> String {
    use std::fmt::Write;
    let notable = |meta: &crate::model::JoinMetadata| {
        let changed = round.assignment.of(meta.member).is_some_and(|a| {
            a.assigned != meta.assigned
                || a.learning != meta.learning
                || !a.revoked.is_empty()
                || (standbys && a.standby != meta.standby)
        });
        meta.leaving
            || !meta.revoked.is_empty()
            || !meta.learning.is_empty()
            || changed
            || meta.member == round.leader
    };
    let shown: Vec<&crate::model::JoinMetadata> =
        round.joined.iter().filter(|m| notable(m)).collect();
    let quiet = round.joined.len() - shown.len();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} (generation {}, {} ms)",
        notation::heading(round.index),
        round.generation,
        round.started_at
    );
    for sentence in notation::cause_sentences(&round.causes, roster) {
        let _ = writeln!(out, "{sentence}");
    }
    if let Some(previous) = round.previous_leader {
        let _ = writeln!(
            out,
            "{} takes over the leader from {}.",
            roster.member(round.leader),
            roster.member(previous)
        );
    }
    let _ = writeln!(
        out,
        "{} members join with following metadata:",
        round.joined.len()
    );
    for meta in &shown {
        let _ = writeln!(
            out,
            "\t{}",
            notation::join_line(roster, meta, standbys, ready_lag)
        );
    }
    let _ = writeln!(out, "\t({quiet} more, with nothing to report)");
    let _ = writeln!(
        out,
        "{} performs task assignments:",
        roster.member(round.leader)
    );
    for meta in &shown {
        if let Some(a) = round.assignment.of(meta.member) {
            let _ = writeln!(
                out,
                "\t{}",
                notation::assignment_line(roster, roster.member(meta.member), a, standbys)
            );
        }
    }
    let _ = writeln!(out, "\t({quiet} more, unchanged)");
    if round.abandoned {
        let _ = writeln!(
            out,
            "{} was gone before the sync: this assignment never reached the members.",
            roster.member(round.leader)
        );
    }
    for &m in &round.departed {
        let _ = writeln!(
            out,
            "{} shuts itself down upon the new assignment since there is no assigned task left.",
            roster.member(m)
        );
    }
    out
}

fn task_timeline(lane: &Lane, until: u64, end: u64) -> TaskTimeline {
    let roster = lane.run.engine().roster();
    let mut lines = timeline::availability(&lane.run, until);
    // Group by the member running each task at the end; tasks nobody runs come last.
    let last_owner = |l: &timeline::TaskLine| {
        l.owners
            .last()
            .filter(|o| o.1 >= until)
            .map(|o| o.2.index())
    };
    lines.sort_by_key(|l| (last_owner(l).map_or(usize::MAX, |m| m), l.task));
    let mut previous = None;
    let rows = lines
        .into_iter()
        .map(|line| {
            let owner = last_owner(&line);
            let group = (previous != Some(owner)).then(|| owner.map(|m| roster.members[m].clone()));
            previous = Some(owner);
            TimelineRow {
                name: roster.tasks[line.task.index()].clone(),
                group,
                line,
            }
        })
        .collect();
    TaskTimeline {
        end,
        until,
        rows,
        rounds: lane
            .run
            .rounds()
            .iter()
            .filter(|r| r.started_at <= until)
            .map(|r| (r.started_at, r.synced_at.filter(|&s| s <= until)))
            .collect(),
        members: roster.members.clone(),
    }
}

fn build_charts(pg: &Playground, until: u64, end: u64) -> Charts {
    let session = &pg.session;
    let lane = &session.lanes()[pg.chart_lane()];
    let cumulative = session
        .lanes()
        .iter()
        .map(|l| (l.strategy, timeline::cumulative_downtime(&l.run, until)))
        .collect();
    let mut lines = timeline::availability(&lane.run, until);
    let total = lines.len();
    if total > AVAILABILITY_ROWS {
        let down = |l: &timeline::TaskLine| {
            l.spans
                .iter()
                .filter(|s| s.state != Availability::Up)
                .map(|s| s.to - s.from)
                .sum::<u64>()
        };
        lines.sort_by_key(|l| std::cmp::Reverse(down(l)));
        lines.truncate(AVAILABILITY_ROWS);
        lines.sort_by_key(|l| l.task);
    }
    let roster = lane.run.engine().roster();
    Charts {
        cumulative: ChartData {
            end,
            series: Series::Cumulative(cumulative),
        },
        availability: ChartData {
            end,
            series: Series::Availability {
                title: if total > AVAILABILITY_ROWS {
                    format!(
                        "{}: {} of {} tasks, most downtime first",
                        lane.strategy, AVAILABILITY_ROWS, total
                    )
                } else {
                    format!("{}: task availability", lane.strategy)
                },
                lines,
                names: roster.tasks.clone(),
            },
        },
        load: ChartData {
            end,
            series: Series::Load {
                title: format!("{}: active tasks per member", lane.strategy),
                lines: timeline::member_load(&lane.run, until),
                names: roster.members.clone(),
            },
        },
    }
}

/// The size the charts are drawn at (and exported at).
pub const CHART_SIZE: (u32, u32) = (640, 300);

/// A compare chart as SVG text, with the clock marked.
pub fn chart_svg(pg: &Playground, kind: ChartKind) -> String {
    let charts = pg.charts();
    let data = match kind {
        ChartKind::Cumulative => &charts.cumulative,
        ChartKind::Availability => &charts.availability,
        ChartKind::Load => &charts.load,
    };
    data.svg(CHART_SIZE, Some(pg.session.clock()))
}
