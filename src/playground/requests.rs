//! The page's side of the conversation with the worker: what it asks (a session to open,
//! a moment to draw, the clock's steps), what it awaits for each request sent, and what it
//! does with each reply (docs/design.md, "Off the page's thread").

use super::link::{SavedSession, TourPosition, ViewMode};
use super::wire::{Ask, Body, Panels, Reply, Request, Seq, Target};
use super::{Effect, Panel, Playground, Want, AT_REST, TURNS_WAIT_FRAMES};
use crate::model::{Scenario, Strategy};
use crate::playground::tour::Tour;
use crate::presets::PRESETS;
use crate::views::counted;
use crate::views::units::moment;

/// What the page does when a request's reply comes.
#[derive(Debug)]
pub(super) enum Awaiting {
    /// A session opening.
    Open(Box<Opening>),
    /// A command: what it is, for the error line.
    Command(String),
    /// Other lanes.
    Lanes,
    /// An edit of the schedule.
    Reschedule(Edit),
    /// The log's export.
    Log,
    /// The report.
    Report,
}

/// An edit of the schedule, in words, and what it selects.
#[derive(Debug)]
pub(super) struct Edit {
    /// "Cannot move ...", the start of the line if it is refused.
    pub attempt: String,
    /// "Moved ...", the start of the notice once done.
    pub done: String,
    /// From when the history runs again.
    pub from: u64,
    /// The command selected afterwards.
    pub selected: Option<usize>,
}

/// A session the page asked the worker to open, and how the page looks once it is.
#[derive(Debug)]
pub(super) struct Opening {
    /// Its scenario, as the page parsed it.
    pub scenario: Scenario,
    /// Its strategies.
    pub strategies: Vec<Strategy>,
    /// Its clock.
    pub clock: u64,
    /// The preset it is, if it is one.
    pub preset: Option<&'static str>,
    /// The notice then.
    pub notice: Option<String>,
    /// The error line then (none: cleared).
    pub error: Option<String>,
    /// The tour then.
    pub tour: Option<TourPosition>,
    /// The view then.
    pub view: ViewMode,
    /// Playing then (an embed asked to play).
    pub play: bool,
    /// Then to the tour's first step (a tour was started).
    pub tour_step: bool,
    /// The sweep then.
    pub sweep: SweepThen,
    /// How a refusal reads.
    pub refused: Refused,
}

/// What becomes of the sweep panel when a session opens.
#[derive(Debug)]
pub(super) enum SweepThen {
    /// Another scenario: no sweep.
    Clear,
    /// A cell's run opened from the sweep: the sweep stays on show (not saved with it).
    Keep,
    /// A saved session's sweep: its question, run again in the sweep view.
    Restore(Option<crate::sweep::Question>),
}

/// How the page says a session could not be opened.
#[derive(Debug)]
pub(super) enum Refused {
    /// On the error line, after these words ("the scenario cannot run: ...").
    Line(String),
    /// On the error line, after these words, then the first preset is opened instead.
    Fallback(String),
    /// In the application form, which stays open.
    Application,
}

impl Playground {
    /// The number of the next request, awaited as `awaiting`.
    pub(super) fn await_reply(&mut self, awaiting: Awaiting) -> Seq {
        self.counts.0 += 1;
        self.awaiting.push((self.counts.0, awaiting));
        self.counts.0
    }

    /// Asks the worker to open a session: until it has, the page shows the one before.
    pub(super) fn open(&mut self, opening: Opening) -> Vec<Effect> {
        let saved = SavedSession::of(
            &opening.scenario,
            &opening.scenario.commands,
            opening.strategies.clone(),
            opening.clock,
            opening.view,
            opening.tour.clone(),
        );
        self.counts.1 += 1;
        let session = self.counts.1;
        let seq = self.await_reply(Awaiting::Open(Box::new(opening)));
        vec![Effect::Send(Request::Open {
            seq,
            session,
            saved: saved.to_json(),
        })]
    }

    /// The opening of the scenario of `saved`, or why it cannot be (its scenario read here).
    pub(super) fn opening_of(saved: &SavedSession) -> Result<Opening, String> {
        let scenario = Scenario::from_file(saved.scenario.clone())
            .map_err(|e| super::link::LinkError::Scenario(e).to_string())?;
        Ok(Opening {
            scenario,
            strategies: saved.strategies.clone(),
            clock: saved.clock,
            preset: PRESETS
                .iter()
                .find(|p| p.name == saved.scenario.name)
                .map(|p| p.id),
            notice: None,
            error: None,
            tour: saved.tour.clone(),
            view: saved.view,
            play: false,
            tour_step: false,
            sweep: SweepThen::Restore(saved.sweep.clone()),
            refused: Refused::Line(String::new()),
        })
    }

    /// The session being opened last, to say how the page looks once it is.
    pub(super) fn pending_open(&mut self) -> Option<&mut Opening> {
        self.awaiting.iter_mut().rev().find_map(|(_, a)| match a {
            Awaiting::Open(opening) => Some(&mut **opening),
            _ => None,
        })
    }

    /// Whether the page awaits the worker: a moment asked for, or a request's reply.
    pub fn waiting(&self) -> bool {
        self.shown.in_flight().is_some() || !self.awaiting.is_empty()
    }

    /// The progress line: what the page waits for from the worker (a session opening, the
    /// history computed as far as the clock), and the actions waiting for it; none while
    /// nothing does.
    pub fn progress(&self) -> Option<String> {
        let progress = self.shown.progress();
        let mut parts = Vec::new();
        if self.shown.session() == 0 || self.opening() {
            parts.push("Opening the session\u{2026}".to_string());
        } else if !progress.finished
            && progress.computed < self.clock
            && self.shown.moment().time != self.clock
            && self.shown.history().blocked.is_none()
        {
            parts.push(format!(
                "Computing the history: {} of {}\u{2026}",
                moment(progress.computed),
                moment(self.clock)
            ));
        }
        let waiting = self
            .awaiting
            .iter()
            .filter(|(_, a)| {
                matches!(
                    a,
                    Awaiting::Command(_) | Awaiting::Reschedule(_) | Awaiting::Lanes
                )
            })
            .count();
        if waiting > 0 {
            parts.push(format!(
                "{} waiting for the simulation, in the order taken.",
                counted(waiting as u64, "action")
            ));
        }
        (!parts.is_empty()).then(|| parts.join(" "))
    }

    /// Whether a session is being opened.
    fn opening(&self) -> bool {
        self.awaiting
            .iter()
            .any(|(_, a)| matches!(a, Awaiting::Open(_)))
    }

    /// The moment the page wants drawn, if the worker has not drawn it yet and no moment is
    /// asked for already (one at a time).
    pub(super) fn ask(&mut self) -> Option<Effect> {
        if self.shown.in_flight().is_some() || self.opening() || self.shown.session() == 0 {
            return None;
        }
        let epochs = [Panel::Log, Panel::Measures, Panel::Timeline].map(|p| self.turns.epoch(p));
        let due = |p: Panel| epochs[p as usize] != self.epochs.1[p as usize];
        let compare = self.view == ViewMode::Compare && self.strategies().len() > 1;
        let panels = Panels {
            log: !compare && due(Panel::Log),
            measures: !compare && due(Panel::Measures),
            timeline: !compare && self.timeline_in_view && due(Panel::Timeline),
            charts: compare && due(Panel::Measures),
        };
        let ask = Ask {
            seq: self.counts.0 + 1,
            target: self.want.target.clone(),
            compare,
            panels,
            chart_lane: self.chart_lane(),
            end: self.scale(),
            rolling_restart: self.restart.rolling_restart(),
            speed: if self.playing { self.speed } else { 0.0 },
        };
        if !self.shown.wants(&ask) {
            return None;
        }
        self.counts.0 += 1;
        // A panel due and not asked for (out of the view, or in the other view) stays due.
        let asked = [
            panels.log,
            panels.measures || panels.charts,
            panels.timeline,
        ];
        self.epochs.0 = std::array::from_fn(|p| {
            if asked[p] {
                epochs[p]
            } else {
                self.epochs.1[p]
            }
        });
        self.shown.asked(ask.clone());
        Some(Effect::Send(Request::Show(ask)))
    }

    /// What the worker said.
    pub(super) fn receive(&mut self, reply: Reply) -> Vec<Effect> {
        let opened = match &reply.body {
            Body::Opened(seq) | Body::Refused(seq, _) => self.take_open(*seq),
            _ => None,
        };
        if let Some(opening) = opened {
            return match reply.body {
                Body::Opened(_) => {
                    let effects = self.opened(reply.session, *opening);
                    self.shown.learn(reply.history, reply.progress);
                    effects
                }
                Body::Refused(_, e) => self.refused(*opening, &e),
                _ => Vec::new(),
            };
        }
        if let Body::Cell {
            slot,
            sweep,
            index,
            result,
        } = reply.body
        {
            return self.cell_done((slot, sweep, index), result);
        }
        if reply.session != self.shown.session() {
            // About a session the page left.
            return Vec::new();
        }
        self.shown.learn(reply.history, reply.progress);
        match reply.body {
            Body::Opened(_) | Body::Progress | Body::Cell { .. } => Vec::new(),
            Body::Done(seq) => self.done(seq),
            Body::Refused(seq, e) => self.refusal(seq, &e),
            Body::Moment(moment) => {
                let (time, settled) = (moment.time, moment.settled);
                let happened = moment.events != self.shown.moment().events;
                let answered = self.shown.receive(*moment);
                // While playing, panels read at their turn wait for a moment in which
                // nothing happened (a few at most) to be shown.
                if self.playing && happened && self.held < TURNS_WAIT_FRAMES {
                    self.held += 1;
                } else {
                    self.held = 0;
                    self.shown.show_panels();
                }
                match answered {
                    Some(ask) => self.answered(&ask, time, settled),
                    None => Vec::new(),
                }
            }
            Body::Cards { lane, cards } => {
                self.shown.receive_cards(lane, cards);
                Vec::new()
            }
            Body::TimelineRows(rows) => {
                self.shown.receive_timeline_rows(rows);
                Vec::new()
            }
            Body::Panels(panels) => {
                // Shown now if the moment they belong to showed its own.
                self.shown.receive_panels(*panels);
                if self.held == 0 {
                    self.shown.show_panels();
                }
                Vec::new()
            }
            Body::Nowhere(seq) => {
                let target = self.shown.in_flight().map(|a| a.target.clone());
                self.shown.forget(seq);
                self.steps.clear();
                self.want = Want {
                    target: Target::At(self.clock),
                    follow: false,
                };
                self.notice = Some(
                    match target {
                        Some(Target::NextRound(_)) => "No further rebalance: the group is at rest.",
                        _ => "Nothing more happens: the group is at rest.",
                    }
                    .into(),
                );
                Vec::new()
            }
            Body::Download {
                seq,
                name,
                mime,
                text,
            } => self.downloaded(seq, name, mime, text),
        }
    }

    fn take(&mut self, seq: Seq) -> Option<Awaiting> {
        let i = self.awaiting.iter().position(|(s, _)| *s == seq)?;
        Some(self.awaiting.remove(i).1)
    }

    fn take_open(&mut self, seq: Seq) -> Option<Box<Opening>> {
        let i = self
            .awaiting
            .iter()
            .position(|(s, a)| *s == seq && matches!(a, Awaiting::Open(_)))?;
        match self.awaiting.remove(i).1 {
            Awaiting::Open(opening) => Some(opening),
            _ => None,
        }
    }

    /// The session asked for is open: the page shows it (its first moment is asked next).
    fn opened(&mut self, session: u64, o: Opening) -> Vec<Effect> {
        // What was awaited of the session before will not come.
        self.awaiting
            .retain(|(_, a)| matches!(a, Awaiting::Open(_)));
        self.shown.replace(session, o.scenario, o.strategies);
        self.epochs.1 = [u64::MAX; 3];
        self.clock = o.clock;
        self.want = Want {
            target: Target::At(o.clock),
            follow: false,
        };
        self.forget_drafts();
        self.preset = o.preset;
        self.notice = o.notice;
        self.error = o.error;
        self.tour = o.tour;
        self.view = o.view;
        self.playing = o.play;
        self.last_frame = None;
        self.owed = 0.0;
        let mut effects = if self.embed {
            Vec::new()
        } else {
            vec![Effect::Autosave]
        };
        match o.sweep {
            SweepThen::Clear => effects.extend(self.restore_sweep(None)),
            SweepThen::Keep => {}
            SweepThen::Restore(question) => effects.extend(self.restore_sweep(question)),
        }
        if o.tour_step {
            effects.extend(self.tour_step(0));
        }
        effects
    }

    /// The session asked for could not be opened: the one shown stays, and the page says why.
    fn refused(&mut self, o: Opening, error: &str) -> Vec<Effect> {
        match o.refused {
            Refused::Line(prefix) => self.fail(format!("{prefix}{error}")),
            Refused::Fallback(prefix) => {
                let message = format!("{prefix}{error}. Showing the default scenario instead.");
                self.fail(message.clone());
                let mut effects = self.load_preset(PRESETS[0].id, None);
                if let Some(opening) = self.pending_open() {
                    opening.error = Some(message);
                }
                effects.extend(self.ask());
                effects
            }
            Refused::Application => {
                if let Some(form) = &mut self.application {
                    form.problem = Some(format!(
                        "Not applied: the scenario cannot run: {error}. The current session is kept."
                    ));
                }
                Vec::new()
            }
        }
    }

    /// A request carried out.
    fn done(&mut self, seq: Seq) -> Vec<Effect> {
        self.shown.changed();
        match self.take(seq) {
            Some(Awaiting::Command(_)) => self.commanded(),
            Some(Awaiting::Lanes) => {
                self.memos.clear();
                // The panels show the lanes: all are read again, the compare charts too.
                self.turns.all();
                vec![Effect::Autosave]
            }
            Some(Awaiting::Reschedule(edit)) => {
                // The edited commands become the scenario's: starting over replays them.
                self.shown.schedule_commands();
                self.memos.clear();
                self.playing = false;
                self.last_frame = None;
                self.error = None;
                self.selected_command = edit.selected;
                self.notice = Some(format!(
                    "{}: the history was run again from {}.",
                    edit.done,
                    moment(edit.from)
                ));
                vec![Effect::Autosave]
            }
            _ => Vec::new(),
        }
    }

    /// A request refused: the page says why.
    fn refusal(&mut self, seq: Seq, error: &str) -> Vec<Effect> {
        if self.shown.in_flight().is_some_and(|a| a.seq == seq) {
            self.shown.forget(seq);
            self.want = Want {
                target: Target::At(self.clock),
                follow: false,
            };
            return self.fail(error.to_string());
        }
        match self.take(seq) {
            Some(Awaiting::Command(what)) => self.fail(format!("{what}: {error}")),
            Some(Awaiting::Reschedule(edit)) => self.fail(format!(
                "{}: {error}. The timeline is unchanged.",
                edit.attempt
            )),
            Some(Awaiting::Report) => self.fail(format!("the report could not be made: {error}")),
            _ => self.fail(error.to_string()),
        }
    }

    /// The moment asked for came: a step's or a frame's moves the clock there.
    fn answered(&mut self, ask: &Ask, time: u64, settled: bool) -> Vec<Effect> {
        self.epochs.1 = self.epochs.0;
        let follow = self.want.follow && self.want.target == ask.target;
        if !follow {
            return Vec::new();
        }
        self.clock = time;
        self.want = Want {
            target: Target::At(time),
            follow: false,
        };
        self.next_step();
        if self.playing {
            if settled {
                self.playing = false;
                self.last_frame = None;
                self.paused_at_rest = true;
                self.notice = Some(AT_REST.into());
                return vec![Effect::Autosave];
            }
            return Vec::new();
        }
        vec![Effect::Autosave]
    }

    /// A file the worker made.
    fn downloaded(&mut self, seq: Seq, name: String, mime: String, text: String) -> Vec<Effect> {
        if let Some(Awaiting::Report) = self.take(seq) {
            self.notice = Some(format!(
                "Report saved: {} under {}, as one HTML page.",
                self.scenario().name,
                self.strategies()
                    .iter()
                    .map(|s| s.name())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        vec![Effect::Download { name, mime, text }]
    }

    /// Goes to a step of the tour being read: a moment of the real simulation, which the
    /// worker finds.
    pub(super) fn tour_step(&mut self, step: usize) -> Vec<Effect> {
        let Some(tour) = self.tour.as_ref().and_then(|p| Tour::find(&p.tour)) else {
            return Vec::new();
        };
        let step = step.min(tour.steps.len().saturating_sub(1));
        self.tour = Some(TourPosition {
            tour: tour.id.to_string(),
            step,
        });
        self.playing = false;
        self.want = Want {
            target: Target::Tour {
                tour: tour.id.to_string(),
                step,
            },
            follow: true,
        };
        Vec::new()
    }
}
