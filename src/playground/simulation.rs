//! The worker's side of the playground (docs/design.md, "Off the page's thread"): the session
//! with every lane's history, computed ahead of the clock, and the views read off it. It takes
//! the page's [`Request`]s in the order sent and answers with [`Reply`]s; between them the
//! worker's driver gives it slices of time ([`Simulation::work`]) to compute ahead and to
//! reach a moment asked for that is not computed yet. Like the page's
//! [`super::Playground`], it never reads a clock: what a slice is, the driver decides.

use super::link::SavedSession;
use super::log::{log_of, Log, LogMemo, LogRound};
use super::over_time::{charts_of, task_timeline_of, Charts, OverTimeMemo, TaskTimeline};
use super::screen::{measures_of, next_member_name, Measures};
use super::session::Session;
use super::tour::Tour;
use super::wire::{
    Ask, Body, Cards, CellFigures, Checks, History, LaneMoment, LogUpdate, Moment, PanelsUpdate,
    Progress, Reply, Request, Seq, Target, Timed,
};
use crate::model::{Command, Scenario, Strategy};
use crate::sweep::Question;
use crate::views::frame::{Card, Frame};
use crate::views::metrics::Metrics;
use crate::views::notation;
use std::collections::VecDeque;
use std::rc::Rc;

/// What a request about a session says when there is none yet.
const NO_SESSION: &str = "no session is open yet";

/// How far ahead of the clock the worker computes at least (virtual ms): a few steps or a
/// scrub forward are there at once.
const AHEAD_MS: u64 = 10_000;

/// While playing, the worker computes this much real time of play ahead (ms), at the speed:
/// enough to ride out a burst of rounds, not so much that it takes a core from the page for
/// long (on a machine of two cores the page's frames would wait for it).
const AHEAD_REAL_MS: f64 = 2_000.0;

/// What the page was last sent, so that a reply carries only what changed.
#[derive(Debug, Default)]
struct Sent {
    /// What the history's summary was made from.
    history: Option<HistoryKey>,
    /// How far computed.
    progress: Option<Progress>,
    /// The log's rounds, and the rest of it.
    log: Option<(Vec<Rc<LogRound>>, Log)>,
    /// The measures.
    measures: Option<Measures>,
    /// The task timeline.
    timeline: Option<Rc<TaskTimeline>>,
    /// The compare charts.
    charts: Option<Rc<Charts>>,
    /// Each lane's cards, by the lane's place, with its strategy.
    cards: Vec<(Strategy, Rc<Vec<Card>>)>,
}

/// What the history's summary is made from: when any of it changes, the page is sent it.
type HistoryKey = (u64, usize, usize, usize, u64, bool);

/// The session of the worker, and what it was asked.
#[derive(Debug, Default)]
pub struct Simulation {
    /// The session, once the page opened one.
    session: Option<Session>,
    /// Its number, as the page gave it.
    id: u64,
    /// Counts the changes requests made to the session (commands, edits, lanes).
    version: u64,
    /// A moment asked for that is not computed yet, and whether the group was sent early.
    waiting: Option<(Ask, bool)>,
    /// Requests that came while a moment was awaited: carried out once it is answered.
    inbox: VecDeque<Request>,
    /// Compute ahead up to here.
    horizon: u64,
    /// A command the histories could not carry out on their way: they stop there.
    blocked: Option<String>,
    /// The views over time read off the session, kept between moments.
    over_time: OverTimeMemo,
    /// The log's rounds written so far.
    log: LogMemo,
    /// What the page has.
    sent: Sent,
    /// The scenario of the sweep whose cells this worker runs.
    swept: Option<(u64, Scenario)>,
}

impl Simulation {
    /// A worker with no session yet.
    pub fn new() -> Simulation {
        Simulation::default()
    }

    /// The session, once one is open.
    pub fn session(&self) -> Option<&Session> {
        self.session.as_ref()
    }

    /// Carries out a request, or keeps it until the moment awaited is there (an open starts
    /// at once: it replaces whatever was awaited).
    pub fn handle(&mut self, request: Request) -> Vec<Reply> {
        if let Request::Open {
            seq,
            session,
            saved,
        } = request
        {
            return self.open(seq, session, &saved);
        }
        if self.waiting.is_some() || !self.inbox.is_empty() {
            self.inbox.push_back(request);
            return Vec::new();
        }
        self.carry_out(request)
    }

    /// Computes up to `steps` steps (an event or a command in one lane each) toward the
    /// moment awaited or ahead of the clock; answers the moment once it is there (or, after
    /// a first slice without it, sends the group as computed so far), then the requests kept
    /// meanwhile. Returns the replies, and whether there is more to do.
    pub fn work(&mut self, steps: usize) -> (Vec<Reply>, bool) {
        let Some(session) = self.session.as_mut() else {
            return (Vec::new(), false);
        };
        let goal = match &self.waiting {
            Some((ask, _)) => target_time(&ask.target).max(self.horizon),
            None => self.horizon,
        };
        let mut more = false;
        if self.blocked.is_none() {
            for _ in 0..steps {
                match session.compute(goal) {
                    Ok(true) => more = true,
                    Ok(false) => {
                        more = false;
                        break;
                    }
                    Err(e) => {
                        self.blocked = Some(e.to_string());
                        more = false;
                        break;
                    }
                }
            }
        }
        let mut replies = Vec::new();
        if let Some((ask, early)) = self.waiting.take() {
            let time = target_time(&ask.target);
            let session = self.session.as_ref().map(|s| s.has(time));
            match (session, &self.blocked) {
                (Some(true), _) => replies.extend(self.show(ask)),
                (_, Some(error)) => {
                    let error = error.clone();
                    replies.push(self.reply(Body::Refused(ask.seq, error)));
                }
                _ if !early => {
                    replies.push(self.early_moment());
                    self.waiting = Some((ask, true));
                }
                _ => self.waiting = Some((ask, true)),
            }
        }
        while self.waiting.is_none() {
            let Some(request) = self.inbox.pop_front() else {
                break;
            };
            replies.extend(self.carry_out(request));
        }
        if replies.is_empty() && self.progress() != self.sent.progress.unwrap_or_default() {
            replies.push(self.reply(Body::Progress));
        }
        (replies, more || self.waiting.is_some())
    }

    fn carry_out(&mut self, request: Request) -> Vec<Reply> {
        let body = match request {
            Request::Open { .. } => return Vec::new(),
            Request::Show(ask) => return self.ask(ask),
            Request::Command {
                seq,
                at_ms,
                command,
                free_name,
            } => self.command(seq, at_ms, command, free_name),
            Request::Lanes { seq, strategies } => match self.session.as_mut() {
                Some(session) => {
                    session.relane(&strategies);
                    self.version += 1;
                    self.over_time = OverTimeMemo::default();
                    Body::Done(seq)
                }
                None => Body::Refused(seq, NO_SESSION.into()),
            },
            Request::Reschedule {
                seq,
                from_ms,
                commands,
            } => self.reschedule(seq, from_ms, commands),
            Request::ExportLog { seq } => match self.session.as_ref() {
                Some(session) => {
                    let lane = session.main();
                    let rounds = lane.rounds_as_of(session.clock());
                    Body::Download {
                        seq,
                        name: "handoff-log.txt".into(),
                        mime: "text/plain".into(),
                        text: notation::log(lane.view(), &rounds),
                    }
                }
                None => Body::Refused(seq, NO_SESSION.into()),
            },
            Request::Cell {
                slot,
                sweep,
                index,
                question,
                scenario,
            } => Body::Cell {
                slot,
                sweep,
                index,
                result: self.cell(sweep, index, &question, &scenario),
            },
            Request::Report { seq } => match self.session.as_ref().map(Session::report) {
                Some(Ok(text)) => Body::Download {
                    seq,
                    name: "handoff-report.html".into(),
                    mime: "text/html".into(),
                    text,
                },
                Some(Err(e)) => Body::Refused(seq, e.to_string()),
                None => Body::Refused(seq, NO_SESSION.into()),
            },
        };
        vec![self.reply(body)]
    }

    /// The commands from `from_ms` on replaced, the histories run again from there (on a
    /// copy: a command the group cannot carry out leaves the session as it was).
    fn reschedule(&mut self, seq: Seq, from_ms: u64, commands: Vec<Timed>) -> Body {
        let Some(session) = self.session.as_mut() else {
            return Body::Refused(seq, NO_SESSION.into());
        };
        let commands: Vec<_> = commands.into_iter().map(|t| t.0).collect();
        let later = &commands[commands.partition_point(|c| c.at_ms < from_ms)..];
        let mut edited = session.clone();
        match edited.reschedule(from_ms, later) {
            Ok(()) => {
                *session = edited;
                self.version += 1;
                self.blocked = None;
                // An edit from the first moment runs the history again without a fork, which
                // is what the memos' keys tell branches apart by.
                self.log = LogMemo::default();
                self.over_time = OverTimeMemo::default();
                Body::Done(seq)
            }
            Err(e) => Body::Refused(seq, e.to_string()),
        }
    }

    /// Runs one cell of a sweep: the scenario (read once per sweep) with the cell's values,
    /// under its strategy, to the end.
    fn cell(
        &mut self,
        sweep: u64,
        index: usize,
        question: &Question,
        file: &str,
    ) -> Result<CellFigures, String> {
        if self.swept.as_ref().is_none_or(|(s, _)| *s != sweep) {
            let scenario = Scenario::from_json(file).map_err(|e| e.to_string())?;
            self.swept = Some((sweep, scenario));
        }
        let Some((_, scenario)) = &self.swept else {
            return Err(NO_SESSION.into());
        };
        let cell = crate::sweep::run_cell(question, scenario, index).map_err(|e| e.to_string())?;
        Ok(CellFigures {
            at_rest: cell.at_rest,
            figures: cell.figures,
        })
    }

    /// Starts the session of a saved one at its first moment: the page asks for its clock
    /// next, which is computed in slices.
    fn open(&mut self, seq: Seq, id: u64, saved: &str) -> Vec<Reply> {
        let started = SavedSession::read(saved).and_then(|s| s.start());
        match started {
            Ok(session) => {
                *self = Simulation {
                    session: Some(session),
                    id,
                    version: self.version + 1,
                    ..Simulation::default()
                };
                vec![self.reply(Body::Opened(seq))]
            }
            Err(e) => vec![self.reply_about(id, Body::Refused(seq, e.to_string()))],
        }
    }

    /// A command at `at_ms`, the clock the reader saw; a member who joins takes the first
    /// free name then (`free_name`) if its own is taken.
    fn command(&mut self, seq: Seq, at_ms: u64, mut command: Command, free_name: bool) -> Body {
        let Some(session) = self.session.as_mut() else {
            return Body::Refused(seq, NO_SESSION.into());
        };
        let done = session
            .seek(at_ms)
            .map_err(|e| e.to_string())
            .and_then(|()| {
                if let Command::Join(spec) = &mut command {
                    let names = &session.main().view().roster().members;
                    if free_name && names.contains(&spec.name) {
                        spec.name = next_member_name(names);
                    }
                }
                session.command(command).map_err(|e| e.to_string())
            });
        match done {
            Ok(()) => {
                self.version += 1;
                self.blocked = None;
                Body::Done(seq)
            }
            Err(e) => Body::Refused(seq, e),
        }
    }

    /// A moment asked for: at once where its time is known and computed, else once computed.
    fn ask(&mut self, ask: Ask) -> Vec<Reply> {
        let Some(session) = self.session.as_mut() else {
            return Vec::new();
        };
        let resolved = match &ask.target {
            Target::At(t) => Ok(Some(*t)),
            Target::NextEvent(from) => session.seek(*from).map(|()| session.next_event()),
            Target::PreviousEvent(from) => session
                .seek(*from)
                .map(|()| Some(session.previous_event().unwrap_or(0))),
            Target::NextRound(from) => session.seek(*from).and_then(|()| session.next_round()),
            Target::Tour { tour, step } => match Tour::find(tour) {
                Some(tour) => match tour.moment(session, *step) {
                    Ok(t) => Ok(Some(t)),
                    Err(e) => return vec![self.reply(Body::Refused(ask.seq, e))],
                },
                None => {
                    return vec![
                        self.reply(Body::Refused(ask.seq, format!("there is no tour {tour}")))
                    ]
                }
            },
        };
        let time = match resolved {
            Ok(Some(t)) => t,
            Ok(None) => return vec![self.reply(Body::Nowhere(ask.seq))],
            Err(e) => return vec![self.reply(Body::Refused(ask.seq, e.to_string()))],
        };
        let ask = Ask {
            target: Target::At(time),
            ..ask
        };
        let ahead = if ask.speed > 0.0 {
            ((AHEAD_REAL_MS * ask.speed) as u64).max(AHEAD_MS)
        } else {
            AHEAD_MS
        };
        self.horizon = self.horizon.max(time.saturating_add(ahead));
        if session.has(time) {
            self.show(ask)
        } else {
            self.waiting = Some((ask, false));
            Vec::new()
        }
    }

    /// The moment asked for, its time computed in every lane.
    fn show(&mut self, ask: Ask) -> Vec<Reply> {
        let time = target_time(&ask.target);
        let Some(session) = self.session.as_mut() else {
            return Vec::new();
        };
        if let Err(e) = session.seek(time) {
            return vec![self.reply(Body::Refused(ask.seq, e.to_string()))];
        }
        let moment = self.moment(Some(&ask));
        vec![self.reply(Body::Moment(Box::new(moment)))]
    }

    /// The group as far as it is computed, sent while the moment asked for is not: the page
    /// shows it at once, with how far the rest has come.
    fn early_moment(&mut self) -> Reply {
        if let Some(session) = self.session.as_mut() {
            let at = session.computed().unwrap_or_else(|| session.clock());
            // A moment computed in every lane: seeking it simulates nothing.
            let _ = session.seek(at);
        }
        let moment = self.moment(None);
        self.reply(Body::Moment(Box::new(moment)))
    }

    /// Everything drawn at the session's clock; `ask` says which lanes and panels (none: the
    /// main lane's group only).
    fn moment(&mut self, ask: Option<&Ask>) -> Moment {
        let Some(session) = self.session.as_ref() else {
            return Moment::empty();
        };
        let compare = ask.is_some_and(|a| a.compare);
        let lanes: Vec<LaneMoment> = session
            .lanes()
            .iter()
            .take(if compare { usize::MAX } else { 1 })
            .enumerate()
            .map(|(i, lane)| {
                let view = lane.view();
                let frame = Frame::of(view);
                LaneMoment {
                    strategy: lane.strategy,
                    cards: self.sent.cards(i, lane.strategy, &frame.cards),
                    frame,
                    at_rest: view.at_rest(),
                    balanced: view.balanced(),
                    metrics: compare.then(|| figures(Metrics::of(view))),
                }
            })
            .collect();
        let every_lane = |command: &Command| {
            session
                .lanes()
                .iter()
                .all(|l| l.view().check(command).is_ok())
        };
        let main = &lanes[0];
        let checks = Checks {
            crash_leader: session.check(&Command::CrashLeader).is_ok(),
            rolling_restart: ask.is_some_and(|a| every_lane(&a.rolling_restart)),
            crash_zone: main
                .frame
                .zones
                .iter()
                .map(|z| every_lane(&Command::CrashZone(z.name.clone())))
                .collect(),
        };
        let clock = session.clock();
        let panels = ask.map(|a| a.panels).unwrap_or_default();
        let log = panels.log.then(|| {
            let lane = session.main();
            log_of(lane, clock, &main.frame, main.at_rest, &self.log)
        });
        let measures = panels.measures.then(|| {
            let measures = measures_of(session);
            Measures {
                metrics: figures(measures.metrics),
                ..measures
            }
        });
        let (end, chart_lane) = ask.map_or((1, 0), |a| (a.end.max(1), a.chart_lane));
        let timeline = panels
            .timeline
            .then(|| task_timeline_of(session, end, &self.over_time));
        let charts = panels
            .charts
            .then(|| charts_of(session, chart_lane, end, &self.over_time));
        Moment {
            seq: ask.map(|a| a.seq),
            time: clock,
            settled: session.settled(),
            events: session
                .main()
                .run
                .events()
                .partition_point(|e| e.at <= clock),
            checks,
            panels: PanelsUpdate {
                log: log.and_then(|log| self.sent.log_update(log)),
                measures: measures.and_then(|m| changed(&mut self.sent.measures, m)),
                timeline: timeline.and_then(|t| changed_rc(&mut self.sent.timeline, t)),
                charts: charts.and_then(|c| changed_rc(&mut self.sent.charts, c)),
            },
            lanes,
        }
    }

    /// How far the histories are computed.
    fn progress(&self) -> Progress {
        let Some(session) = self.session.as_ref() else {
            return Progress::default();
        };
        let computed = session.computed();
        Progress {
            computed: computed.unwrap_or_else(|| session.clock().max(session.frontier())),
            finished: computed.is_none(),
            reached: session.frontier(),
        }
    }

    /// The history's summary, if it changed since it was last sent.
    fn history(&mut self) -> Option<History> {
        let session = self.session.as_ref()?;
        let main = session.main();
        let reached = session.frontier();
        // As known by then: a round is in the history once its leader assigned.
        let rounds = main
            .run
            .rounds()
            .partition_point(|r| r.assigned_at <= reached);
        let violations = main
            .run
            .violations()
            .iter()
            .filter(|v| v.at_ms <= reached)
            .count();
        let key = (
            self.version,
            rounds,
            violations,
            session.forks().len(),
            reached.min(main.run.commands().last().map_or(0, |c| c.at_ms)),
            self.blocked.is_some(),
        );
        if self.sent.history == Some(key) {
            return None;
        }
        self.sent.history = Some(key);
        Some(History {
            strategies: session.strategies(),
            commands: main.run.commands().iter().cloned().map(Timed).collect(),
            rounds: main.run.rounds()[..rounds]
                .iter()
                .map(|r| r.started_at)
                .collect(),
            violations: main
                .run
                .violations()
                .iter()
                .filter(|v| v.at_ms <= reached)
                .map(|v| v.at_ms)
                .collect(),
            forks: session
                .forks()
                .iter()
                .map(|f| (f.at_ms, f.abandoned_until_ms))
                .collect(),
            blocked: self.blocked.clone(),
        })
    }

    fn reply(&mut self, body: Body) -> Reply {
        let id = self.id;
        self.reply_about(id, body)
    }

    fn reply_about(&mut self, session: u64, body: Body) -> Reply {
        let progress = self.progress();
        self.sent.progress = Some(progress);
        Reply {
            session,
            history: self.history(),
            progress,
            body,
        }
    }
}

impl Sent {
    /// The cards of lane `i` (of `strategy`) that changed since its last moment sent: all of
    /// them when the page has none of this lane's.
    fn cards(&mut self, i: usize, strategy: Strategy, cards: &Rc<Vec<Card>>) -> Cards {
        let before = self
            .cards
            .get(i)
            .filter(|(s, _)| *s == strategy)
            .map(|(_, c)| c.clone());
        let changed = cards
            .iter()
            .enumerate()
            .filter(|&(j, card)| before.as_ref().and_then(|b| b.get(j)) != Some(card))
            .map(|(j, card)| (j, card.clone()))
            .collect();
        self.cards.truncate(i);
        self.cards.push((strategy, cards.clone()));
        Cards {
            count: cards.len(),
            changed,
        }
    }

    /// The log as it changed since it was last sent: the rounds the page keeps (those the
    /// worker reused since), the new ones, and the rest; `None` when nothing changed.
    fn log_update(&mut self, log: Log) -> Option<LogUpdate> {
        let (before, rest) = match &self.log {
            Some((rounds, rest)) => (rounds.as_slice(), Some(rest)),
            None => (&[][..], None),
        };
        let keep = before
            .iter()
            .zip(log.rounds.iter())
            .take_while(|(a, b)| Rc::ptr_eq(a, b))
            .count();
        let same_rest = rest.is_some_and(|r| {
            r.violations == log.violations && r.pending == log.pending && r.ending == log.ending
        });
        if keep == before.len() && keep == log.rounds.len() && same_rest {
            return None;
        }
        let update = LogUpdate {
            keep,
            rounds: log.rounds[keep..].iter().map(|r| (**r).clone()).collect(),
            violations: log.violations.clone(),
            pending: log.pending.clone(),
            ending: log.ending.clone(),
        };
        self.log = Some((log.rounds.to_vec(), log));
        Some(update)
    }
}

/// The measures as the page reads them: the figures, without the lists per task and per member
/// (a large group's hundreds of kilobytes a reading).
fn figures(metrics: Metrics) -> Metrics {
    Metrics {
        task_downtime: Vec::new(),
        assignment: Vec::new(),
        ..metrics
    }
}

/// `value` if it differs from what was sent (which it then is).
fn changed<T: PartialEq + Clone>(sent: &mut Option<T>, value: T) -> Option<T> {
    if sent.as_ref() == Some(&value) {
        return None;
    }
    *sent = Some(value.clone());
    Some(value)
}

/// `value` if it is not the very value that was sent (which it then is).
fn changed_rc<T>(sent: &mut Option<Rc<T>>, value: Rc<T>) -> Option<Rc<T>> {
    if sent.as_ref().is_some_and(|s| Rc::ptr_eq(s, &value)) {
        return None;
    }
    *sent = Some(value.clone());
    Some(value)
}

/// The time of a target already resolved to one (others are resolved before they wait).
fn target_time(target: &Target) -> u64 {
    match target {
        Target::At(t) => *t,
        _ => 0,
    }
}
