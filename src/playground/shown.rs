//! What the page knows of its session (docs/design.md, "Off the page's thread"): the
//! scenario it loaded, and what the worker last told it: the history's summary, how far the
//! histories are computed, the moment drawn and the panels beside it. The page draws from
//! here alone; a moment not received yet is drawn as the last one that was.

use super::log::{Log, LogRound};
use super::over_time::{Charts, TaskTimeline, TimelineRow};
use super::screen::Measures;
use super::wire::{Ask, History, LaneMoment, LogUpdate, Moment, PanelsUpdate, Progress, Seq};
use crate::model::{Scenario, Strategy, TimedCommand};
use crate::views::charts::Series;
use crate::views::frame::{Card, Frame};
use std::rc::Rc;

/// The page's copy of what the worker computed.
#[derive(Debug)]
pub struct Shown {
    /// The number of the session shown (replies about another are old news).
    session: u64,
    /// The scenario as loaded (before any command a person added).
    scenario: Rc<Scenario>,
    /// Its tasks' names by task: the page names what the worker sends by task.
    names: Rc<[Rc<str>]>,
    /// The strategies, one lane each.
    strategies: Vec<Strategy>,
    /// Every command of the history being viewed.
    commands: Vec<TimedCommand>,
    /// The history's summary.
    history: History,
    /// How far computed, and how far the reader has been.
    progress: Progress,
    /// The moment drawn (its panels taken out into the fields below).
    moment: Moment,
    /// What is drawn before any moment came: a group of nobody.
    nobody: LaneMoment,
    /// The measures as last sent.
    measures: Rc<Measures>,
    /// The log as last sent, and how many times it changed.
    log: (Log, u64),
    /// The task timeline as last sent.
    timeline: Rc<TaskTimeline>,
    /// The compare charts as last sent.
    charts: Rc<Charts>,
    /// Panels received and not shown yet (see [`Shown::show_panels`]).
    incoming: Incoming,
    /// Each lane's changed cards sent ahead of the next moment.
    ahead: Vec<Vec<(usize, Card)>>,
    /// The task timeline's rows sent ahead of the next panels.
    rows_ahead: Vec<TimelineRow>,
    /// The moment asked for and not answered yet.
    in_flight: Option<Ask>,
    /// The last moment asked for that was answered.
    answered: Option<Ask>,
    /// The session changed since then (a command, an edit, other lanes): ask again.
    stale: bool,
}

impl Shown {
    /// Nothing shown yet, with the scenario about to be opened.
    pub fn new(scenario: Scenario) -> Shown {
        Shown {
            session: 0,
            strategies: vec![scenario.config.strategy],
            commands: scenario.commands.clone(),
            names: names_of(&scenario),
            scenario: Rc::new(scenario),
            history: History::default(),
            progress: Progress::default(),
            moment: Moment::empty(),
            nobody: LaneMoment {
                strategy: Strategy::default(),
                frame: Frame::default(),
                cards: Default::default(),
                at_rest: false,
                balanced: false,
                metrics: None,
            },
            measures: Rc::default(),
            log: (Log::default(), 0),
            timeline: Rc::default(),
            charts: Rc::default(),
            incoming: Incoming::default(),
            ahead: Vec::new(),
            rows_ahead: Vec::new(),
            in_flight: None,
            answered: None,
            stale: true,
        }
    }

    /// Shows another session: its scenario and number; nothing of it is drawn yet but the
    /// last moment of the one before (until the first of its own comes).
    pub fn replace(&mut self, session: u64, scenario: Scenario, strategies: Vec<Strategy>) {
        self.session = session;
        self.commands = scenario.commands.clone();
        self.names = names_of(&scenario);
        self.scenario = Rc::new(scenario);
        self.strategies = strategies;
        self.history = History::default();
        self.progress = Progress::default();
        self.measures = Rc::default();
        self.log = (Log::default(), self.log.1 + 1);
        self.timeline = Rc::default();
        self.charts = Rc::default();
        self.incoming = Incoming::default();
        self.ahead.clear();
        self.rows_ahead.clear();
        self.in_flight = None;
        self.answered = None;
        self.stale = true;
    }

    /// The number of the session shown.
    pub fn session(&self) -> u64 {
        self.session
    }

    /// The scenario as loaded.
    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    /// The scenario as loaded, shared.
    pub fn scenario_rc(&self) -> &Rc<Scenario> {
        &self.scenario
    }

    /// The strategies, one lane each.
    pub fn strategies(&self) -> &[Strategy] {
        &self.strategies
    }

    /// Every command of the history being viewed, in time order.
    pub fn commands(&self) -> &[TimedCommand] {
        &self.commands
    }

    /// The history's summary (marks, forks).
    pub fn history(&self) -> &History {
        &self.history
    }

    /// How far computed, and how far the reader has been.
    pub fn progress(&self) -> Progress {
        self.progress
    }

    /// The moment drawn.
    pub fn moment(&self) -> &Moment {
        &self.moment
    }

    /// The main lane as drawn (a group of nobody before the first moment).
    pub fn main(&self) -> &LaneMoment {
        self.moment.lanes.first().unwrap_or(&self.nobody)
    }

    /// The measures as last sent.
    pub fn measures(&self) -> Rc<Measures> {
        self.measures.clone()
    }

    /// The log as last sent.
    pub fn log(&self) -> &Log {
        &self.log.0
    }

    /// How many times the log changed.
    pub fn log_version(&self) -> u64 {
        self.log.1
    }

    /// The task timeline as last sent.
    pub fn timeline(&self) -> Rc<TaskTimeline> {
        self.timeline.clone()
    }

    /// The compare charts as last sent.
    pub fn charts(&self) -> Rc<Charts> {
        self.charts.clone()
    }

    /// The moment asked for and not answered yet.
    pub fn in_flight(&self) -> Option<&Ask> {
        self.in_flight.as_ref()
    }

    /// Whether `ask` would show anything the moment drawn does not: another moment, other
    /// lanes or axis, a panel due, or a session changed since.
    pub fn wants(&self, ask: &Ask) -> bool {
        if self.stale || ask.panels != Default::default() {
            return true;
        }
        self.answered.as_ref().is_none_or(|a| {
            a.target != ask.target
                || a.compare != ask.compare
                || a.chart_lane != ask.chart_lane
                || a.end != ask.end
                || a.rolling_restart != ask.rolling_restart
        })
    }

    /// A moment was asked for.
    pub fn asked(&mut self, ask: Ask) {
        self.in_flight = Some(ask);
        self.stale = false;
    }

    /// The commands of the history become the scenario's (an edit of the schedule).
    pub fn schedule_commands(&mut self) {
        Rc::make_mut(&mut self.scenario).commands = self.commands.clone();
    }

    /// The session changed in the worker: the moment drawn is to be asked for again.
    pub fn changed(&mut self) {
        self.stale = true;
    }

    /// The moment asked for will not come (the worker refused it, or another session
    /// started): asking again is up to the page.
    pub fn forget(&mut self, seq: Seq) {
        if self.in_flight.as_ref().is_some_and(|a| a.seq == seq) {
            self.in_flight = None;
        }
    }

    /// What a reply says of the history and of how far it is computed.
    pub fn learn(&mut self, history: Option<History>, progress: Progress) {
        self.progress = progress;
        if let Some(history) = history {
            self.commands = history.commands.iter().map(|t| t.0.clone()).collect();
            self.strategies.clone_from(&history.strategies);
            self.history = history;
        }
    }

    /// A moment came: drawn from now on (its panels once [`Shown::show_panels`] says).
    /// Returns the ask it answers, if it answers one.
    pub fn receive(&mut self, mut moment: Moment) -> Option<Ask> {
        for (lane, ahead) in moment.lanes.iter_mut().zip(self.ahead.drain(..)) {
            let changed = std::mem::replace(&mut lane.cards.changed, ahead);
            lane.cards.changed.extend(changed);
        }
        for (i, lane) in moment.lanes.iter_mut().enumerate() {
            let before = self
                .moment
                .lanes
                .get(i)
                .filter(|b| b.strategy == lane.strategy);
            self.assemble(lane, before.map(|b| &b.frame.cards));
        }
        self.receive_panels(std::mem::take(&mut moment.panels));
        let answered = moment
            .seq
            .filter(|&seq| self.in_flight.as_ref().is_some_and(|a| a.seq == seq))
            .and_then(|_| self.in_flight.take());
        if let Some(ask) = &answered {
            self.answered = Some(ask.clone());
        }
        self.moment = moment;
        answered
    }

    /// Changed cards of the next moment came ahead of it.
    pub fn receive_cards(&mut self, lane: usize, cards: Vec<(usize, Card)>) {
        if self.ahead.len() <= lane {
            self.ahead.resize_with(lane + 1, Vec::new);
        }
        self.ahead[lane].extend(cards);
    }

    /// Rows of the task timeline in the next panels came ahead of them.
    pub fn receive_timeline_rows(&mut self, rows: Vec<TimelineRow>) {
        self.rows_ahead.extend(rows);
    }

    /// Panels came (with their moment, or just after it): shown once
    /// [`Shown::show_panels`] says.
    pub fn receive_panels(&mut self, mut panels: PanelsUpdate) {
        if let Some(timeline) = panels.timeline.as_mut().map(Rc::make_mut) {
            timeline
                .rows
                .splice(0..0, std::mem::take(&mut self.rows_ahead));
            for row in &mut timeline.rows {
                row.name = self.name(row.line.task.index());
            }
        }
        if let Some(charts) = panels.charts.as_mut().and_then(Rc::get_mut) {
            if let Series::Availability { names, .. } = &mut charts.availability.series {
                *names = self.names.clone();
            }
        }
        let incoming = &mut self.incoming;
        if let Some(measures) = panels.measures {
            incoming.measures = Some(measures);
        }
        incoming.log.extend(panels.log);
        if let Some(timeline) = panels.timeline {
            incoming.timeline = Some(timeline);
        }
        if let Some(charts) = panels.charts {
            incoming.charts = Some(charts);
        }
    }

    /// A lane's cards as they are now: those that changed, named, and the others as they
    /// were (`before`); the same list as before if none changed.
    fn assemble(&self, lane: &mut LaneMoment, before: Option<&Rc<Vec<Card>>>) {
        for chip in &mut lane.frame.unowned {
            chip.name = self.name(chip.task.index());
        }
        if let Some(before) =
            before.filter(|b| lane.cards.changed.is_empty() && b.len() == lane.cards.count)
        {
            lane.frame.cards = before.clone();
            return;
        }
        let before = before.map_or(&[][..], |b| &b[..]);
        let mut changed = std::mem::take(&mut lane.cards.changed)
            .into_iter()
            .peekable();
        let mut cards = Vec::with_capacity(lane.cards.count);
        for j in 0..lane.cards.count {
            match changed.next_if(|(k, _)| *k == j) {
                Some((_, mut card)) => {
                    // Decoded just now: the card's chips are its own.
                    for chip in Rc::make_mut(&mut card.chips) {
                        chip.name = self.name(chip.task.index());
                    }
                    cards.push(card);
                }
                None => cards.extend(before.get(j).cloned()),
            }
        }
        lane.frame.cards = Rc::new(cards);
    }

    /// The name of a task.
    fn name(&self, task: usize) -> Rc<str> {
        self.names.get(task).cloned().unwrap_or_else(|| "T?".into())
    }

    /// Shows the panels received since they were last shown.
    pub fn show_panels(&mut self) {
        let incoming = std::mem::take(&mut self.incoming);
        if let Some(measures) = incoming.measures {
            self.measures = Rc::new(measures);
        }
        for update in incoming.log {
            self.update_log(update);
        }
        if let Some(timeline) = incoming.timeline {
            self.timeline = timeline;
        }
        if let Some(charts) = incoming.charts {
            self.charts = charts;
        }
    }

    fn update_log(&mut self, update: LogUpdate) {
        let (log, version) = &mut self.log;
        let mut rounds: Vec<Rc<LogRound>> = log.rounds.iter().take(update.keep).cloned().collect();
        rounds.extend(update.rounds.into_iter().map(Rc::new));
        *log = Log {
            rounds: Rc::new(rounds),
            violations: update.violations,
            pending: update.pending,
            ending: update.ending,
        };
        *version += 1;
    }
}

/// Panels received and not shown yet.
#[derive(Debug, Default)]
struct Incoming {
    /// The measures.
    measures: Option<Measures>,
    /// The log's changes, in the order sent.
    log: Vec<LogUpdate>,
    /// The task timeline.
    timeline: Option<Rc<TaskTimeline>>,
    /// The compare charts.
    charts: Option<Rc<Charts>>,
}

/// The names of a scenario's tasks, by task.
fn names_of(scenario: &Scenario) -> Rc<[Rc<str>]> {
    scenario
        .tasks
        .iter()
        .map(|t| Rc::from(t.name.as_str()))
        .collect()
}
