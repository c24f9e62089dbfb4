//! What each part of the page shows, as plain data read off the playground: the transport's
//! marks and words, the round banner's words, the log, the compare view's lanes and charts.
//! Components take these as props (they compare by value, so an unchanged part is not
//! redrawn); the costly ones are kept until what they are read from changes.

use super::Playground;
use crate::format::ScenarioFile;
use crate::history::invariants::Violation;
use crate::model::{Command, Roster, Strategy};
use crate::session::Lane;
use crate::views::charts::{self, ChartData, ChartKind, Series};
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
    /// Task names (for the downtime list).
    pub roster: Roster,
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
}

impl Memos {
    /// Forgets everything (the session was replaced).
    pub fn clear(&mut self) {
        self.charts.clear();
        self.log.clear();
        self.scenario.clear();
    }
}

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
        let highlight = self
            .tour
            .as_ref()
            .and_then(|p| crate::tour::Tour::find(&p.tour).and_then(|t| t.steps.get(p.step)))
            .map(|s| s.highlight.iter().map(|h| h.to_string()).collect())
            .unwrap_or_default();
        Single {
            current_round: frame.round.index.or(log.rounds.last().map(|r| r.index)),
            last_change: main
                .run
                .events()
                .iter()
                .rev()
                .find(|e| e.at <= clock)
                .map_or(0, |e| e.at),
            roster: view.roster().clone(),
            toolbar: self.toolbar(),
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
            let text = notation::round(roster, r, standbys, ready_lag);
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
pub fn chart_svg(pg: &Playground, kind: ChartKind) -> Result<String, String> {
    let charts = pg.charts();
    let data = match kind {
        ChartKind::Cumulative => &charts.cumulative,
        ChartKind::Availability => &charts.availability,
        ChartKind::Load => &charts.load,
    };
    charts::svg(CHART_SIZE, |area| data.draw(area, Some(pg.session.clock())))
}
