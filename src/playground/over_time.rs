//! The views of the history over time: every lane at the clock for the compare view, its
//! charts, and the task timeline. The worker reads them off the histories ([`charts_of`],
//! [`task_timeline_of`]), rebuilt only when the history they show grows by a step of the
//! axis, forks, or another lane is chosen; the page draws what it was sent.

use super::memo::Memo;
use super::session::Session;
use super::Playground;
use crate::compare::Table;
use crate::engine::EventKind;
use crate::model::Strategy;
use crate::playground::session::Lane;
use crate::views::charts::{ChartData, ChartKind, Series};
use crate::views::frame::Frame;
use crate::views::metrics::Metrics;
use crate::views::series::{self, AvailabilityScan};
use plotters::drawing::DrawingAreaErrorKind;
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::rc::Rc;

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
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
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
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimelineRow {
    /// The task's name (shared with the roster). Not sent: the page names the rows from its
    /// own table of tasks.
    #[serde(skip)]
    pub name: Rc<str>,
    /// The first row of a group: the group's member (or `None`: nobody runs these).
    pub group: Option<Option<String>>,
    /// The task over time.
    pub line: series::TaskLine,
}

/// The most tasks the availability chart draws: those with the most downtime.
pub const AVAILABILITY_ROWS: usize = 40;

/// How finely the charts follow a growing history: a redraw per this share of the axis.
const CHART_STEPS: u64 = 200;

impl Default for Charts {
    /// No chart yet (before the worker sent the first).
    fn default() -> Charts {
        let empty = || ChartData {
            end: 1,
            series: Series::Cumulative(Vec::new()),
        };
        Charts {
            cumulative: empty(),
            availability: empty(),
            load: empty(),
        }
    }
}

impl Playground {
    /// Every lane's group and measures at the moment drawn, for the compare view.
    pub fn lanes(&self) -> Vec<LaneView> {
        self.shown
            .moment()
            .lanes
            .iter()
            .map(|l| LaneView {
                strategy: l.strategy,
                frame: l.frame.clone(),
                metrics: l.metrics.clone().unwrap_or_default(),
            })
            .collect()
    }

    /// The compare view's table of `lanes`' measures at the clock, its best figures marked:
    /// a measure not reached reads "not yet", since the clock can play on.
    pub fn compare_table(&self, lanes: &[LaneView]) -> Table {
        let runs: Vec<(Strategy, &Metrics)> =
            lanes.iter().map(|l| (l.strategy, &l.metrics)).collect();
        Table::of(&runs, false)
    }

    /// The compare view's charts as last sent (while playing, read again with the measures).
    pub fn charts(&self) -> Rc<Charts> {
        self.shown.charts()
    }

    /// The task timeline as last sent (while playing, read again at its turn).
    pub fn task_timeline(&self) -> Rc<TaskTimeline> {
        self.shown.timeline()
    }
}

/// What the views over time were last read from, in the worker.
#[derive(Debug, Default)]
pub struct OverTimeMemo {
    /// The compare charts: by lane, history shown, events and forks, axis.
    charts: Memo<(usize, u64, usize, usize, u64), Charts>,
    /// The task timeline: by history shown, events and forks, axis.
    timeline: Memo<(u64, usize, usize, u64), TaskTimeline>,
    /// The main lane's availability as last read for the task timeline, with the forks it
    /// had then: the next rebuild reads on from there.
    timeline_scan: RefCell<Option<(usize, AvailabilityScan)>>,
}

/// The compare view's charts of `session` (for the lane `chart_lane`, on an axis to `end`),
/// rebuilt only when the history they show grew by a step of the axis (or gained events up
/// to there), forked, or another lane was chosen.
pub fn charts_of(
    session: &Session,
    chart_lane: usize,
    end: u64,
    memo: &OverTimeMemo,
) -> Rc<Charts> {
    let chart_lane = chart_lane.min(session.lanes().len().saturating_sub(1));
    let step = (end / CHART_STEPS).max(1);
    let until = ((session.frontier() / step) * step).max(1);
    let events = session.lanes().iter().map(|l| events_by(l, until)).sum();
    let forks = session.lanes().iter().map(|l| l.run.forks().len()).sum();
    let key = (chart_lane, until, events, forks, end);
    memo.charts
        .get(key, || build_charts(session, chart_lane, until, end))
}

/// The task timeline of the main lane on an axis to `end`, rebuilt as the history grows by a
/// step of the axis (or forks): a 200th of it, up to a 25th for a group of thousands of tasks,
/// where a rebuild reads every task's history.
pub fn task_timeline_of(session: &Session, end: u64, memo: &OverTimeMemo) -> Rc<TaskTimeline> {
    let lane = session.main();
    let tasks = lane.run.engine().tasks().len().max(1) as u64;
    let steps = (CHART_STEPS * 500 / tasks).clamp(CHART_STEPS / 8, CHART_STEPS);
    let step = (end / steps).max(1);
    let until = ((session.frontier() / step) * step).max(1);
    let key = (until, events_by(lane, until), lane.run.forks().len(), end);
    memo.timeline.get(key, || {
        task_timeline(lane, until, end, &mut memo.timeline_scan.borrow_mut())
    })
}

/// How many of a lane's events happened by `until`: what a view of the history up to there
/// depends on (events after it, recorded on every frame of play, do not count).
fn events_by(lane: &Lane, until: u64) -> usize {
    lane.run.events().partition_point(|e| e.at <= until)
}

/// The task timeline of `lane` up to `until` on an axis to `end`, reading availability on
/// with `scan` where it follows (see [`AvailabilityScan::follows`]), else from the start.
pub(super) fn task_timeline(
    lane: &Lane,
    until: u64,
    end: u64,
    scan: &mut Option<(usize, AvailabilityScan)>,
) -> TaskTimeline {
    let roster = lane.run.engine().roster();
    // Read on from the last rebuild, unless the history forked (or was read further than
    // this, as when the axis grew and its steps with it).
    let forks = lane.run.forks().len();
    if !matches!(scan, Some((f, s)) if *f == forks && s.follows(&lane.run, until)) {
        *scan = None;
    }
    let (_, scan) = scan.get_or_insert_with(|| (forks, AvailabilityScan::new(&lane.run)));
    scan.advance(&lane.run, until);
    // Grouped by the member running each task at the end, in task order within a group (the
    // lines come in task order: sorting into a bucket per member keeps it); tasks nobody
    // runs come last.
    let last_owner = |l: &series::TaskLine| {
        l.owners
            .last()
            .filter(|o| o.1 >= until)
            .map(|o| o.2.index())
    };
    let mut groups: Vec<Vec<series::TaskLine>> = vec![Vec::new(); roster.members.len() + 1];
    for line in scan.lines(until) {
        let group = last_owner(&line).map_or(roster.members.len(), |m| m.min(roster.members.len()));
        groups[group].push(line);
    }
    let mut rows = Vec::with_capacity(groups.iter().map(Vec::len).sum());
    for (m, lines) in groups.into_iter().enumerate() {
        for (i, line) in lines.into_iter().enumerate() {
            rows.push(TimelineRow {
                name: roster.task_shared(line.task),
                group: (i == 0).then(|| roster.members.get(m).cloned()),
                line,
            });
        }
    }
    TaskTimeline {
        end,
        until,
        rows,
        // Rounds as known by then: assigned (the history's end may be computed beyond).
        rounds: lane
            .run
            .rounds()
            .iter()
            .filter(|r| r.started_at <= until && r.assigned_at <= until)
            .map(|r| (r.started_at, r.synced_at.filter(|&s| s <= until)))
            .collect(),
        members: roster.members[..members_by(lane, until).min(roster.members.len())].to_vec(),
    }
}

/// How many members had joined by `until`: the history's end may be computed beyond, with
/// members who join later.
fn members_by(lane: &Lane, until: u64) -> usize {
    let joined = lane.run.events()[..events_by(lane, until)]
        .iter()
        .filter_map(|e| match e.kind {
            EventKind::MemberJoined(m) => Some(m.index() + 1),
            _ => None,
        })
        .max();
    joined.unwrap_or(0).max(lane.run.scenario().members.len())
}

fn build_charts(session: &Session, chart_lane: usize, until: u64, end: u64) -> Charts {
    let lane = &session.lanes()[chart_lane];
    let cumulative = session
        .lanes()
        .iter()
        .map(|l| (l.strategy, series::cumulative_downtime(&l.run, until)))
        .collect();
    let lines = series::availability(&lane.run, until);
    let total = lines.len();
    let lines = series::most_downtime(lines, AVAILABILITY_ROWS);
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
                lines: series::member_load(&lane.run, until),
                names: roster.members.clone(),
            },
        },
    }
}

/// The size the charts are drawn at (and exported at).
pub const CHART_SIZE: (u32, u32) = (640, 300);

/// A compare chart as SVG text, with the clock marked.
pub fn chart_svg(
    pg: &Playground,
    kind: ChartKind,
) -> Result<String, DrawingAreaErrorKind<std::io::Error>> {
    let charts = pg.charts();
    let data = match kind {
        ChartKind::Cumulative => &charts.cumulative,
        ChartKind::Availability => &charts.availability,
        ChartKind::Load => &charts.load,
    };
    data.svg(CHART_SIZE, Some(pg.clock()))
}
