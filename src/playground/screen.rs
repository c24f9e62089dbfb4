//! What each part of the page shows, as plain data read off the playground: the transport's
//! marks and words, the round banner's words, the log, the compare view's lanes and charts.
//! Components take these as props (they compare by value, so an unchanged part is not
//! redrawn); the costly ones are kept until what they are read from changes. The group and
//! the panels are what the worker last sent ([`super::shown`]); the measures are read there
//! ([`measures_of`]).

use super::memo::Memo;
use super::session::Session;
use super::Playground;
use crate::format::ScenarioFile;
use crate::model::TimedCommand;
use crate::views::frame::{ChipRole, Frame};
use crate::views::metrics::Metrics;
use crate::views::notation;
use serde::{Deserialize, Serialize};
use std::rc::Rc;

pub use super::find::{find, Found, COMPACT_TASKS};
pub use super::log::{Broken, Log, LogRound, LOG_FULL_MEMBERS};
pub use super::over_time::{
    chart_svg, Charts, LaneView, TaskTimeline, TimelineRow, AVAILABILITY_ROWS, CHART_SIZE,
};

/// Something drawn on the timeline under the scrubber.
#[derive(Clone, Debug, PartialEq)]
pub enum Mark {
    /// A rebalance round started.
    Round(u64),
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
    /// The name a new member gets: the first of S1, S2, ... not taken.
    pub next_name: String,
    /// The scenario's restore rate, the default for a new member.
    pub default_rate: u64,
    /// Whether the leader can be crashed now.
    pub can_crash_leader: bool,
    /// The zones a new member can be put in (none when no member has a zone).
    pub zones: Vec<String>,
    /// The zone it goes to: the one picked, else the one with the fewest live members.
    pub zone: Option<String>,
    /// Its fields as typed.
    pub join: super::JoinDraft,
    /// What is wrong with them, each naming its field (nothing joins until they are fixed).
    pub errors: Vec<super::FieldError>,
}

/// Words with their first letter capitalized, to open a sentence.
fn capitalized(words: &str) -> String {
    let mut chars = words.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// The first free member name of S1, S2, ... (read on every frame of a group of hundreds:
/// one pass over the names taken, and one name written).
pub fn next_member_name<S: AsRef<str>>(names: &[S]) -> String {
    // Of S1 to S(n + 1), one is free: mark those taken, by names written as `S` and a number
    // without leading zeros (`S01` does not take `S1`).
    let mut taken = vec![false; names.len() + 2];
    for number in names
        .iter()
        .filter_map(|n| n.as_ref().strip_prefix('S'))
        .filter(|d| !d.starts_with('0') && d.bytes().all(|b| b.is_ascii_digit()))
        .filter_map(|d| d.parse::<usize>().ok())
    {
        if let Some(slot) = taken.get_mut(number) {
            *slot = true;
        }
    }
    let free = (1..taken.len()).find(|&i| !taken[i]).unwrap_or(taken.len());
    format!("S{free}")
}

/// Everything the single view shows at the clock.
#[derive(Clone, Debug, PartialEq)]
pub struct Single {
    /// The group at the clock.
    pub frame: Frame,
    /// The group is at rest at the clock (see [`Metrics::at_rest`]). The rest of the
    /// measures are read at their turn ([`Playground::measures`]), not on every frame.
    pub at_rest: bool,
    /// Active tasks are spread by capacity at the clock (see [`Metrics::balanced`]).
    pub balanced: bool,
    /// What is going on between rounds, in words.
    pub quiet: &'static str,
    /// Names the tour highlights.
    pub highlight: Vec<String>,
    /// The member toolbar.
    pub toolbar: Toolbar,
    /// The group is large: members show their tasks as small marks, not one chip each.
    pub compact: bool,
    /// What the reader looked for, if anything.
    pub found: Option<Found>,
}

/// What the measures panel shows. While playing it follows the clock at its turn (see
/// [`super::PANELS_EVERY_MS`]), not on every frame.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Measures {
    /// The measures.
    pub metrics: Metrics,
    /// The tasks down longest, with their downtime (ms), worst first.
    pub worst: Vec<(String, u64)>,
    /// How many other tasks had downtime.
    pub others_down: usize,
    /// When something last happened.
    pub last_change: u64,
}

/// What the log panel shows. While playing it follows the clock at its turn (see
/// [`super::PANELS_EVERY_MS`]), not on every frame.
#[derive(Clone, Debug, PartialEq)]
pub struct ShownLog {
    /// The log.
    pub log: Log,
    /// The round highlighted in the log (in progress, or the last).
    pub current_round: Option<u32>,
}

/// The timeline editor's members, zones and next member's name (see [`Playground::schedule`]).
pub type MenuNames = (Rc<Vec<String>>, Rc<Vec<String>>, String);

/// The views read off the session's scenario that are kept between frames.
#[derive(Debug, Default)]
pub struct Memos {
    /// The scenario as a file, for the configuration editor.
    pub(super) scenario: Memo<(), ScenarioFile>,
    /// The tasks' names.
    pub(super) task_names: Memo<(), Vec<String>>,
    /// The timeline editor's marks and menus: by the scheduled commands, the track's end,
    /// how many of the commands are done and the one selected.
    pub(super) schedule: Memo<(Vec<TimedCommand>, u64, usize, Option<usize>), super::Schedule>,
    /// The timeline editor's menus: by the scheduled commands (the clock passing one does not
    /// change them, and in a group of thousands they take a while to make).
    pub(super) menus: Memo<Vec<TimedCommand>, MenuNames>,
    /// The log as shown: by the rounds the worker sent.
    pub(super) shown_log: Memo<(usize, u64), ShownLog>,
    /// The settings the scenario offers a sweep.
    pub(super) sweep_names: Memo<(), Vec<String>>,
}

impl Memos {
    /// Forgets everything (the session was replaced).
    pub fn clear(&mut self) {
        self.scenario.clear();
        self.task_names.clear();
        self.schedule.clear();
        self.menus.clear();
        self.shown_log.clear();
        self.sweep_names.clear();
    }
}

/// The most tasks the metrics panel lists by downtime.
pub const WORST_TASKS: usize = 12;

impl Playground {
    /// The scrubber's range: its end stays put while the history grows, and takes in every
    /// scheduled command (the timeline editor shows them on the track).
    pub fn scale(&self) -> u64 {
        let last_command = self.shown.commands().last().map_or(0, |c| c.at_ms);
        nice_scale(self.frontier().max(self.clock()).max(last_command))
    }

    /// The marks under the scrubber: rounds, violations, abandoned branches (the commands
    /// are the timeline editor's, [`Playground::schedule`]).
    pub fn marks(&self) -> Vec<Mark> {
        let history = self.shown.history();
        history
            .rounds
            .iter()
            .map(|&at| Mark::Round(at))
            .chain(history.violations.iter().map(|&at| Mark::Violation(at)))
            .chain(
                history
                    .forks
                    .iter()
                    .map(|&(at, until)| Mark::Fork(at, until)),
            )
            .collect()
    }

    /// The scrubber's position in words, for screen readers.
    pub fn position_text(&self, frame: &Frame) -> String {
        let r = &frame.round;
        format!(
            "{} ms, {}, {}",
            self.clock(),
            r.counter(),
            match (r.index, r.streams.is_some()) {
                (_, true) => r.phase.describe().to_string(),
                (Some(i), false) => format!("rebalance {i} in progress"),
                (None, false) => "stable".into(),
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
                "{}, {}.",
                capitalized(&frame.round.counter()),
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
        let frame = &self.shown.main().frame;
        let names: Vec<&str> = frame.cards.iter().map(|c| c.name.as_str()).collect();
        let next_name = next_member_name(&names);
        let zones: Vec<String> = frame.zones.iter().map(|z| z.name.clone()).collect();
        let zone = self.join_zone(&zones);
        Toolbar {
            default_rate: self.scenario().config.restore_rate,
            can_crash_leader: self.shown.moment().checks.crash_leader,
            errors: self
                .join_spec(&next_name, zone.as_deref())
                .err()
                .unwrap_or_default(),
            zones,
            zone,
            join: self.join.clone(),
            next_name,
        }
    }

    /// Everything the single view shows: the main lane as the worker last sent it.
    pub fn single(&self) -> Single {
        let main = self.shown.main();
        let frame = main.frame.clone();
        let at_rest = main.at_rest;
        let chips = || frame.cards.iter().flat_map(|c| c.chips.iter());
        let quiet = if at_rest {
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
        let found = find(&frame, &self.task_names(), &self.find);
        let mut highlight: Vec<String> = self
            .tour
            .as_ref()
            .and_then(|p| {
                crate::playground::tour::Tour::find(&p.tour).and_then(|t| t.steps.get(p.step))
            })
            .map(|s| s.highlight.iter().map(|h| h.to_string()).collect())
            .unwrap_or_default();
        highlight.extend(found.as_ref().map(|f| f.name.clone()));
        Single {
            toolbar: self.toolbar(),
            compact: self.scenario().tasks.len() > COMPACT_TASKS,
            found,
            balanced: main.balanced,
            frame,
            at_rest,
            quiet,
            highlight,
        }
    }

    /// What the measures panel shows, as the worker read it at its last turn (the reader
    /// acted, or a [`super::PANELS_EVERY_MS`] of play went by).
    pub fn measures(&self) -> Rc<Measures> {
        self.shown.measures()
    }

    /// What the log panel shows, as the worker wrote it at its last turn: `single` is the
    /// group as [`Playground::single`] read it now.
    pub fn shown_log(&self, single: &Single) -> Rc<ShownLog> {
        let log = self.shown.log();
        let key = (log.rounds.len(), self.shown.log_version());
        self.memos.shown_log.get(key, || ShownLog {
            current_round: single
                .frame
                .round
                .index
                .or(log.rounds.last().map(|r| r.index)),
            log: log.clone(),
        })
    }

    /// The scenario as loaded, as a file (the configuration editor's draft starts from it).
    pub fn scenario_file(&self) -> Rc<ScenarioFile> {
        let scenario = self.scenario();
        self.memos
            .scenario
            .get((), || scenario.to_file(&scenario.commands))
    }

    /// The tasks' names, shared by every member's marks in a large group.
    pub fn task_names(&self) -> Rc<Vec<String>> {
        let scenario = self.scenario();
        self.memos.task_names.get((), || {
            scenario.tasks.iter().map(|t| t.name.clone()).collect()
        })
    }
}

/// What the measures panel shows of a session at its clock: the measures of its main lane,
/// the tasks down longest, and when something last happened.
pub fn measures_of(session: &Session) -> Measures {
    let main = session.main();
    let view = main.view();
    let clock = session.clock();
    let metrics = Metrics::of(view);
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
        .map(|(t, ms)| (view.roster().tasks[t].to_string(), ms))
        .collect();
    Measures {
        last_change: main
            .run
            .events()
            .iter()
            .rev()
            .find(|e| e.at <= clock)
            .map_or(0, |e| e.at),
        worst,
        others_down,
        metrics,
    }
}
