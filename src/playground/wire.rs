//! The messages between the page and the simulation worker (docs/design.md, "Off the page's
//! thread"): the page's [`Request`]s and the worker's [`Reply`]s, plain serde data, and the
//! codec that carries them (bincode: compact, and quick to read for a frame of thousands of
//! chips). The page holds a [`super::Playground`], the worker a [`super::Simulation`]; the
//! browser only moves these bytes.

use super::log::{Broken, LogRound};
use super::over_time::{Charts, TaskTimeline, TimelineRow};
use super::screen::Measures;
use crate::model::{Command, MemberSpec, Strategy, TimedCommand};
use crate::sweep::Question;
use crate::views::frame::{Card, Frame};
use crate::views::metrics::Metrics;
use bincode::Options;
use serde::{Deserialize, Serialize};
use std::rc::Rc;

/// A request's number, counted by the page: a reply names the request it answers.
pub type Seq = u64;

/// What the page asks of the worker. The worker carries requests out in the order sent.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Request {
    /// Start a session, replacing the worker's (kept if this one cannot start).
    Open {
        /// The request.
        seq: Seq,
        /// The session's number, which every reply about it carries.
        session: u64,
        /// The saved session's JSON ([`super::link::SavedSession`]): the scenario with its
        /// commands, the strategies, the clock.
        saved: String,
    },
    /// Other strategies for the same session: the lanes already computed are kept.
    Lanes {
        /// The request.
        seq: Seq,
        /// The strategies, one lane each.
        strategies: Vec<Strategy>,
    },
    /// Show a moment.
    Show(Ask),
    /// Carry out a command at a moment (the clock the reader saw).
    Command {
        /// The request.
        seq: Seq,
        /// When.
        at_ms: u64,
        /// What.
        #[serde(with = "CommandDef")]
        command: Command,
        /// A member who joins takes the first free name (S1, S2, ...) then, if the one it
        /// was given is taken by then (the page named it from the group it had drawn).
        free_name: bool,
    },
    /// Replace the commands from `from_ms` on and run the histories again from there.
    Reschedule {
        /// The request.
        seq: Seq,
        /// From when.
        from_ms: u64,
        /// Every command, in time order.
        commands: Vec<Timed>,
    },
    /// The main lane's log up to the clock, in the seed's notation, as a download.
    ExportLog {
        /// The request.
        seq: Seq,
    },
    /// The design-review report of the session, as a download.
    Report {
        /// The request.
        seq: Seq,
    },
    /// Run one cell of a sweep (a sweep's worker: it needs no session).
    Cell {
        /// The worker, of the page's sweep workers.
        slot: usize,
        /// The sweep.
        sweep: u64,
        /// The cell.
        index: usize,
        /// The sweep's question.
        question: Question,
        /// The scenario swept, as its file's JSON.
        scenario: String,
    },
}

/// Which moment the page wants drawn.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Target {
    /// This time.
    At(u64),
    /// The next event after this time.
    NextEvent(u64),
    /// The last event before this time.
    PreviousEvent(u64),
    /// The start of the next rebalance round after this time.
    NextRound(u64),
    /// A step of a guided tour.
    Tour {
        /// The tour's id.
        tour: String,
        /// The step.
        step: usize,
    },
}

/// The panels beside the group the page reads at this moment (they take turns while
/// playing).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Panels {
    /// The log.
    pub log: bool,
    /// The measures.
    pub measures: bool,
    /// The task timeline.
    pub timeline: bool,
    /// The compare view's charts.
    pub charts: bool,
}

/// What the page wants to draw.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Ask {
    /// The request.
    pub seq: Seq,
    /// The moment.
    pub target: Target,
    /// Every lane, each with its measures (the compare view), or the main lane only.
    pub compare: bool,
    /// The panels due.
    pub panels: Panels,
    /// The lane whose charts the compare view shows.
    pub chart_lane: usize,
    /// The end of the scrubber's axis, which the charts and the task timeline share.
    pub end: u64,
    /// What a rolling restart would be now (the operations' check).
    #[serde(with = "CommandDef")]
    pub rolling_restart: Command,
    /// Virtual ms per real ms while playing (how far to compute ahead), 0 when paused.
    pub speed: f64,
}

/// A command at a moment, as it crosses.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Timed(#[serde(with = "TimedCommandDef")] pub TimedCommand);

/// What the worker sends the page.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Reply {
    /// The session it is about.
    pub session: u64,
    /// What it says.
    pub body: Body,
    /// The history's summary, when it changed since the last reply.
    pub history: Option<History>,
    /// How far the histories are computed.
    pub progress: Progress,
}

/// What a reply says.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Body {
    /// The session asked for started (its lanes and commands are in the history).
    Opened(Seq),
    /// A request carried out: a command, an edit of the schedule, other lanes.
    Done(Seq),
    /// A request that could not be carried out, and why.
    Refused(Seq, String),
    /// A moment: the one asked for, or an early one while the worker computes it.
    Moment(Box<Moment>),
    /// Panels of the moment sent just before, sent apart from its group when the whole would
    /// be large ([`in_parts`]).
    Panels(Box<PanelsUpdate>),
    /// A share of the next moment's changed cards, sent ahead of it when the whole would be
    /// large ([`in_parts`]): the moment shows them with its own.
    Cards {
        /// The lane.
        lane: usize,
        /// The cards, with their places, in order.
        cards: Vec<(usize, Card)>,
    },
    /// A share of the rows of the task timeline in the next panels, sent ahead of them when
    /// it would be large ([`in_parts`]): the panels show them before their own rows.
    TimelineRows(Vec<TimelineRow>),
    /// A step asked for leads nowhere: nothing more happens.
    Nowhere(Seq),
    /// A file to offer.
    Download {
        /// The request.
        seq: Seq,
        /// Its name.
        name: String,
        /// Its media type.
        mime: String,
        /// Its text.
        text: String,
    },
    /// How far the histories are computed (and the summary, if it changed).
    Progress,
    /// A sweep's cell done: its figures, or why it could not run.
    Cell {
        /// The worker that ran it.
        slot: usize,
        /// The sweep.
        sweep: u64,
        /// The cell.
        index: usize,
        /// Its figures, or why not.
        result: Result<CellFigures, String>,
    },
}

/// A sweep's cell as it crosses: what the run gave (its values and strategy are the
/// question's, at its index).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CellFigures {
    /// Whether the run came to rest within the scenario's horizon.
    pub at_rest: bool,
    /// Every measure's figure, by the measures' table.
    pub figures: Vec<Option<u64>>,
}

/// How far the histories are computed, and how far the reader has been.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Progress {
    /// Every lane is simulated to here (or, once it rests with nothing to do, as far as asked).
    pub computed: u64,
    /// Every lane rests with every command carried out: any later moment is there at once.
    pub finished: bool,
    /// The furthest the reader's clock has been: what the page shows as simulated.
    pub reached: u64,
}

/// What the page reads off the histories as a whole: the commands, the marks under the
/// scrubber, how far the reader has been.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct History {
    /// The strategies, one lane each.
    pub strategies: Vec<Strategy>,
    /// Every command of the history being viewed, in time order.
    pub commands: Vec<Timed>,
    /// When each rebalance round started, up to `reached`.
    pub rounds: Vec<u64>,
    /// When each invariant broke, up to `reached`.
    pub violations: Vec<u64>,
    /// Earlier branches: forked at, had run until.
    pub forks: Vec<(u64, u64)>,
    /// A command the worker could not carry out on its way, and why (it stopped there).
    pub blocked: Option<String>,
}

/// One lane at a moment.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LaneMoment {
    /// Its strategy.
    pub strategy: Strategy,
    /// Its group (its cards, and its chips' names, filled in by the page: see `cards`).
    pub frame: Frame,
    /// The group's cards as they changed since the lane's last moment sent.
    pub cards: Cards,
    /// No learner, no rebalance pending, every task running.
    pub at_rest: bool,
    /// Active tasks spread by capacity.
    pub balanced: bool,
    /// Its measures, in the compare view.
    pub metrics: Option<Metrics>,
}

/// A group's cards as they changed since the last moment sent: how many there are, and each
/// that differs (all of them when the page has none of this lane's).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Cards {
    /// How many cards the group has.
    pub count: usize,
    /// The cards that changed, with their places.
    pub changed: Vec<(usize, Card)>,
}

/// What the operations controls may do now, in every lane.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Checks {
    /// The leader can be crashed.
    pub crash_leader: bool,
    /// The rolling restart asked about would be taken.
    pub rolling_restart: bool,
    /// Each zone of the main lane's frame, in its order: an outage would be taken.
    pub crash_zone: Vec<bool>,
}

/// The log as it changed: the rounds the page keeps, the new ones, and the rest.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LogUpdate {
    /// How many of the rounds the page has it keeps.
    pub keep: usize,
    /// The rounds after those.
    pub rounds: Vec<LogRound>,
    /// Invariant violations seen by the clock.
    pub violations: Vec<Broken>,
    /// The round in its join phase, not yet assigned, in words.
    pub pending: Option<String>,
    /// The last lines when the group is at rest.
    pub ending: Option<String>,
}

/// Everything drawn at one moment.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Moment {
    /// The request answered; an early moment answers none.
    pub seq: Option<Seq>,
    /// The moment.
    pub time: u64,
    /// The main lane first, then (in the compare view) the others.
    pub lanes: Vec<LaneMoment>,
    /// Every lane rests and every command is carried out by now.
    pub settled: bool,
    /// How many of the main lane's events happened by now.
    pub events: usize,
    /// What the operations may do.
    pub checks: Checks,
    /// The panels beside the group, those asked and changed.
    pub panels: PanelsUpdate,
}

/// The panels beside the group as they changed at a moment: each there when asked and
/// changed since it was last sent.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PanelsUpdate {
    /// The measures.
    pub measures: Option<Measures>,
    /// The log.
    pub log: Option<LogUpdate>,
    /// The task timeline.
    pub timeline: Option<Rc<TaskTimeline>>,
    /// The compare charts.
    pub charts: Option<Rc<Charts>>,
}

impl PanelsUpdate {
    /// Each panel there, as an update of its own.
    fn apart(self) -> Vec<PanelsUpdate> {
        let PanelsUpdate {
            measures,
            log,
            timeline,
            charts,
        } = self;
        let mut parts = Vec::new();
        if let Some(log) = log {
            parts.push(PanelsUpdate {
                log: Some(log),
                ..Default::default()
            });
        }
        if let Some(timeline) = timeline {
            parts.push(PanelsUpdate {
                timeline: Some(timeline),
                ..Default::default()
            });
        }
        if measures.is_some() || charts.is_some() {
            parts.push(PanelsUpdate {
                measures,
                charts,
                ..Default::default()
            });
        }
        parts
    }
}

impl Moment {
    /// No group: what the page draws before the worker sent its first moment.
    pub fn empty() -> Moment {
        Moment {
            seq: None,
            time: 0,
            lanes: Vec::new(),
            settled: false,
            events: 0,
            checks: Checks::default(),
            panels: PanelsUpdate::default(),
        }
    }
}

/// Why a message did not decode.
#[derive(Debug, thiserror::Error)]
#[error("a message between the page and its worker did not decode: {0}")]
pub struct WireError(String);

/// A message as bytes (integers as varints: most are small).
pub fn encode<T: Serialize>(message: &T) -> Vec<u8> {
    // Plain data of known shape: serializing it into memory cannot fail.
    bincode::DefaultOptions::new()
        .serialize(message)
        .unwrap_or_default()
}

/// A reply of more bytes than this that is a moment goes as its parts.
pub const PARTS_OVER: usize = 128 * 1024;

/// The most changed cards a moment in parts carries in one message (about 60 KB of a large
/// group's).
pub const CARDS_PER_PART: usize = 250;

/// The most task timeline rows a moment in parts carries in one message (about 65 KB).
pub const ROWS_PER_PART: usize = 2_500;

/// A reply as the messages that carry it: one, or for a moment over `limit` bytes, its
/// changed cards [`CARDS_PER_PART`] at a time, the moment, and then each of its panels (the
/// task timeline's rows [`ROWS_PER_PART`] at a time before it), so that the page decodes and
/// draws each in a task of its own (a large group's cards come to hundreds of kilobytes, its
/// log and task timeline to megabytes).
pub fn in_parts(reply: Reply, limit: usize) -> Vec<Vec<u8>> {
    let whole = encode(&reply);
    let Reply {
        session,
        body: Body::Moment(mut moment),
        history,
        progress,
    } = reply
    else {
        return vec![whole];
    };
    if whole.len() <= limit {
        return vec![whole];
    }
    let part = |body| {
        encode(&Reply {
            session,
            body,
            history: None,
            progress,
        })
    };
    let mut parts = Vec::new();
    for (lane, l) in moment.lanes.iter_mut().enumerate() {
        let (shares, rest) = shares_ahead(std::mem::take(&mut l.cards.changed), CARDS_PER_PART);
        parts.extend(
            shares
                .into_iter()
                .map(|cards| part(Body::Cards { lane, cards })),
        );
        l.cards.changed = rest;
    }
    let panels = std::mem::take(&mut moment.panels).apart();
    parts.push(encode(&Reply {
        session,
        body: Body::Moment(moment),
        history,
        progress,
    }));
    for mut panel in panels {
        if let Some(timeline) = panel
            .timeline
            .as_mut()
            .filter(|t| t.rows.len() > ROWS_PER_PART)
        {
            // The worker keeps the timeline it sent: the panel carries a copy.
            let timeline = Rc::make_mut(timeline);
            let (shares, rest) = shares_ahead(std::mem::take(&mut timeline.rows), ROWS_PER_PART);
            parts.extend(
                shares
                    .into_iter()
                    .map(|rows| part(Body::TimelineRows(rows))),
            );
            timeline.rows = rest;
        }
        parts.push(part(Body::Panels(Box::new(panel))));
    }
    parts
}

/// `items` as whole shares of `per`, sent ahead, and the rest (one item at least), sent with
/// the message they come ahead of.
fn shares_ahead<T>(items: Vec<T>, per: usize) -> (Vec<Vec<T>>, Vec<T>) {
    let mut items = items.into_iter();
    let ahead = items.len().saturating_sub(1) / per;
    let shares = (0..ahead)
        .map(|_| items.by_ref().take(per).collect())
        .collect();
    (shares, items.collect())
}

/// A message from bytes.
pub fn decode<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Result<T, WireError> {
    bincode::DefaultOptions::new()
        .deserialize(bytes)
        .map_err(|e| WireError(e.to_string()))
}

/// A command as it crosses (the model's type is serde's remote).
#[derive(Serialize, Deserialize)]
#[serde(remote = "Command")]
enum CommandDef {
    Join(#[serde(with = "MemberSpecDef")] MemberSpec),
    Crash(String),
    Drain(String),
    CrashLeader,
    Restart {
        member: String,
        down_ms: u64,
        keep_state: bool,
    },
    RollingRestart {
        down_ms: u64,
        keep_state: bool,
    },
    CrashZone(String),
}

/// A new member as it crosses.
#[derive(Serialize, Deserialize)]
#[serde(remote = "MemberSpec")]
struct MemberSpecDef {
    name: String,
    capacity: u32,
    restore_rate: Option<u64>,
    zone: Option<String>,
}

/// A command at a moment as it crosses.
#[derive(Serialize, Deserialize)]
#[serde(remote = "TimedCommand")]
struct TimedCommandDef {
    at_ms: u64,
    #[serde(with = "CommandDef")]
    command: Command,
}
