//! The playground's state and every action a person (or the clock) can take on it.
//!
//! The session (histories, snapshots) is large, so it lives behind `Rc<RefCell<..>>` and is
//! changed in place; `version` counts changes so that Yew re-renders when, and only when,
//! something changed.

use crate::link::{SavedSession, TourPosition, ViewMode};
use crate::model::Strategy;
use crate::model::{Command, Scenario};
use crate::presets::Preset;
use crate::session::Session;
use crate::tour::Tour;
use std::cell::RefCell;
use std::rc::Rc;
use yew::Reducible;

/// Playback speeds offered (virtual seconds per real second).
pub const SPEEDS: [f64; 7] = [0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0];

/// Light or dark.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Theme {
    /// Dark text on light.
    Light,
    /// Light text on dark.
    Dark,
}

/// The whole state of the page.
#[derive(Clone)]
pub struct AppState {
    /// The session: histories of every lane and the clock.
    pub session: Rc<RefCell<Session>>,
    /// Bumped whenever the session changes.
    pub version: u64,
    /// Bumped when something worth saving changed (not on every frame while playing).
    pub saved_version: u64,
    /// The clock runs.
    pub playing: bool,
    /// Virtual seconds per real second.
    pub speed: f64,
    /// The last animation frame's timestamp, while playing.
    pub last_frame: Option<f64>,
    /// Single playground or comparison.
    pub view: ViewMode,
    /// The preset loaded, if the scenario is one.
    pub preset: Option<&'static str>,
    /// The latest error, shown until dismissed.
    pub error: Option<String>,
    /// A short note (saved, copied, restored).
    pub notice: Option<String>,
    /// The last share link made, shown so it can be copied by hand too.
    pub share_link: Option<String>,
    /// The guided tour being read.
    pub tour: Option<TourPosition>,
    /// Single-key shortcuts are on (they can be turned off, WCAG 2.1.4).
    pub shortcuts: bool,
    /// The help dialog is open.
    pub help: bool,
    /// The colour theme.
    pub theme: Theme,
    /// Chip movements animate (off when the reader prefers reduced motion).
    pub motion: bool,
    /// The last change moved the clock a little (playing, stepping, acting): chips that moved
    /// are animated. A scrub or a load jumps, and chips are simply redrawn.
    pub continuous: bool,
    /// Compact chrome for embedding in docs.
    pub embed: bool,
    /// Bumped when the reader changes a preference (saved across visits).
    pub preferences_version: u64,
}

impl PartialEq for AppState {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.session, &other.session)
            && self.version == other.version
            && self.playing == other.playing
            && self.speed == other.speed
            && self.view == other.view
            && self.preset == other.preset
            && self.error == other.error
            && self.notice == other.notice
            && self.share_link == other.share_link
            && self.tour == other.tour
            && self.shortcuts == other.shortcuts
            && self.help == other.help
            && self.theme == other.theme
            && self.motion == other.motion
            && self.continuous == other.continuous
            && self.embed == other.embed
    }
}

/// Something that changes the state.
pub enum Action {
    /// An animation frame at this timestamp (ms).
    Frame(f64),
    /// Play or pause.
    Play(bool),
    /// Toggle play and pause.
    TogglePlay,
    /// Jump to the next event.
    StepEvent,
    /// Jump back to the previous event.
    StepBack,
    /// Jump to the start of the next rebalance round.
    StepRound,
    /// Move the clock.
    Seek(u64),
    /// Set the speed.
    Speed(f64),
    /// Restart the current scenario from time 0.
    Reset,
    /// Load a preset.
    Preset(&'static str),
    /// Load a scenario (imported, edited or from a link).
    Load {
        /// The scenario.
        scenario: Box<Scenario>,
        /// The preset it is, if any.
        preset: Option<&'static str>,
        /// A note to show.
        notice: Option<String>,
    },
    /// Restore a saved session (link or autosave).
    Restore(Box<SavedSession>, String),
    /// Do something to the group at the clock.
    Command(Command),
    /// Switch views.
    View(ViewMode),
    /// Choose the strategies compared.
    Strategies(Vec<Strategy>),
    /// Show an error.
    Error(String),
    /// Hide the error.
    DismissError,
    /// Show or hide a note.
    Notice(Option<String>),
    /// Show a share link.
    Shared(String, bool),
    /// Open or close the help.
    Help(bool),
    /// Turn single-key shortcuts on or off.
    Shortcuts(bool),
    /// Set the theme.
    Theme(Theme),
    /// Animate or not.
    Motion(bool),
    /// Start a tour.
    StartTour(&'static str),
    /// Go to a tour step.
    TourStep(usize),
    /// Leave the tour and play freely from here.
    LeaveTour,
}

impl AppState {
    /// A state showing a session.
    pub fn new(session: Session, preset: Option<&'static str>) -> AppState {
        AppState {
            session: Rc::new(RefCell::new(session)),
            version: 0,
            saved_version: 0,
            playing: false,
            speed: 1.0,
            last_frame: None,
            view: ViewMode::Single,
            preset,
            error: None,
            notice: None,
            share_link: None,
            tour: None,
            shortcuts: true,
            help: false,
            theme: Theme::Light,
            motion: true,
            continuous: false,
            embed: false,
            preferences_version: 0,
        }
    }

    /// The first preset, as a fallback that always works.
    pub fn default_session() -> (Session, &'static str) {
        let preset = crate::presets::PRESETS[0];
        let scenario = preset
            .scenario()
            .unwrap_or_else(|_| crate::presets::scale_out(1, 1, 1));
        let session =
            Session::new(scenario.clone(), &[]).unwrap_or_else(|_| fallback_session(scenario));
        (session, preset.id)
    }

    fn changed(mut self, saved: bool) -> Rc<AppState> {
        self.version += 1;
        if saved {
            self.saved_version += 1;
        }
        Rc::new(self)
    }

    fn fail(mut self, message: String) -> Rc<AppState> {
        self.error = Some(message);
        self.playing = false;
        self.last_frame = None;
        self.changed(false)
    }

    fn seek(self, time: u64, saved: bool) -> Rc<AppState> {
        let result = self.session.borrow_mut().seek(time);
        match result {
            Ok(()) => self.changed(saved),
            Err(e) => self.fail(e.to_string()),
        }
    }

    fn load(mut self, scenario: Scenario, strategies: &[Strategy]) -> Rc<AppState> {
        match Session::new(scenario, strategies) {
            Ok(session) => {
                self.session = Rc::new(RefCell::new(session));
                self.playing = false;
                self.last_frame = None;
                self.error = None;
                self.changed(true)
            }
            Err(e) => self.fail(format!("the scenario cannot run: {e}")),
        }
    }

    fn strategies_for(&self, view: ViewMode) -> Vec<Strategy> {
        let current = self.session.borrow().strategies();
        match view {
            ViewMode::Single => vec![current[0]],
            ViewMode::Compare if current.len() >= 2 => current,
            ViewMode::Compare => vec![
                Strategy::Learner,
                Strategy::Kip441,
                Strategy::Cooperative,
                Strategy::Eager,
            ],
        }
    }

    /// Rebuilds the session with other strategies, keeping the commands and the clock.
    fn relane(self, strategies: Vec<Strategy>) -> Rc<AppState> {
        let session = self.session.borrow();
        let mut saved = SavedSession::capture(&session, self.view, self.tour.clone());
        drop(session);
        saved.strategies = strategies;
        match saved.restore() {
            Ok(session) => {
                let mut next = self;
                next.session = Rc::new(RefCell::new(session));
                next.changed(true)
            }
            Err(e) => self.fail(e.to_string()),
        }
    }

    fn tour_step(mut self, step: usize) -> Rc<AppState> {
        let Some(position) = &self.tour else {
            return Rc::new(self);
        };
        let Some(tour) = Tour::find(&position.tour) else {
            return Rc::new(self);
        };
        let step = step.min(tour.steps.len().saturating_sub(1));
        self.tour = Some(TourPosition {
            tour: position.tour.clone(),
            step,
        });
        self.playing = false;
        // A tour step is a moment of the real simulation: find it and go there.
        let moment = tour.moment(&mut self.session.borrow_mut(), step);
        match moment {
            Ok(time) => self.seek(time, true),
            Err(e) => self.fail(e),
        }
    }
}

/// A session that cannot fail to start: the scenario without its commands.
fn fallback_session(mut scenario: Scenario) -> Session {
    scenario.commands.clear();
    Session::new(scenario, &[]).unwrap_or_else(|_| {
        let empty = crate::presets::scale_out(0, 0, 0);
        Session::new(empty, &[]).expect("an empty scenario has nothing that can fail")
    })
}

impl Reducible for AppState {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let mut next = (*self).clone();
        next.continuous = matches!(
            action,
            Action::Frame(_)
                | Action::StepEvent
                | Action::StepRound
                | Action::Command(_)
                | Action::TourStep(_)
        );
        match action {
            Action::Frame(now) => {
                if !next.playing {
                    return self;
                }
                let Some(last) = next.last_frame.replace(now) else {
                    return next.changed(false);
                };
                // A long gap (a hidden tab) is not played through.
                let real = (now - last).clamp(0.0, 100.0);
                let virtual_ms = (real * next.speed).round() as u64;
                if virtual_ms == 0 {
                    return Rc::new(next);
                }
                let clock = next.session.borrow().clock();
                // While playing, save every few seconds too, so a crashed tab loses little.
                let save = next.version % 300 == 0;
                let state = next.seek(clock + virtual_ms, save);
                if state.session.borrow().settled() {
                    let mut paused = (*state).clone();
                    paused.playing = false;
                    paused.last_frame = None;
                    paused.notice = Some(
                        "The group is at rest: nothing more will happen until you act.".into(),
                    );
                    return paused.changed(true);
                }
                state
            }
            Action::Play(play) => {
                next.playing = play;
                next.last_frame = None;
                if play {
                    next.notice = None;
                }
                next.changed(!play)
            }
            Action::TogglePlay => {
                next.playing = !next.playing;
                next.last_frame = None;
                let paused = !next.playing;
                next.changed(paused)
            }
            Action::StepEvent => {
                next.playing = false;
                let target = next.session.borrow_mut().next_event();
                match target {
                    Some(t) => next.seek(t, true),
                    None => {
                        next.notice = Some("Nothing more happens: the group is at rest.".into());
                        next.changed(false)
                    }
                }
            }
            Action::StepBack => {
                next.playing = false;
                let target = next.session.borrow().previous_event().unwrap_or(0);
                next.seek(target, true)
            }
            Action::StepRound => {
                next.playing = false;
                let target = next.session.borrow_mut().next_round();
                match target {
                    Ok(Some(t)) => next.seek(t, true),
                    Ok(None) => {
                        next.notice = Some("No further rebalance: the group is at rest.".into());
                        next.changed(false)
                    }
                    Err(e) => next.fail(e.to_string()),
                }
            }
            Action::Seek(t) => {
                next.playing = false;
                next.seek(t, true)
            }
            Action::Speed(speed) => {
                next.speed = speed.clamp(SPEEDS[0], SPEEDS[SPEEDS.len() - 1]);
                next.changed(false)
            }
            Action::Reset => {
                let (scenario, strategies) = {
                    let s = next.session.borrow();
                    (s.scenario().clone(), s.strategies())
                };
                next.notice = None;
                next.tour = None;
                next.load(scenario, &strategies)
            }
            Action::Preset(id) => match Preset::find(id).map(|p| p.scenario()) {
                Some(Ok(scenario)) => {
                    next.preset = Some(id);
                    next.notice = None;
                    next.tour = None;
                    let strategies = next.strategies_for(next.view);
                    next.load(scenario, &strategies)
                }
                Some(Err(e)) => next.fail(format!("preset {id}: {e}")),
                None => next.fail(format!("there is no preset {id}")),
            },
            Action::Load {
                scenario,
                preset,
                notice,
            } => {
                next.preset = preset;
                next.notice = notice;
                next.tour = None;
                let strategies = next.strategies_for(next.view);
                next.load(*scenario, &strategies)
            }
            Action::Restore(saved, note) => match saved.restore() {
                Ok(session) => {
                    next.session = Rc::new(RefCell::new(session));
                    next.view = saved.view;
                    next.tour = saved.tour.clone();
                    next.preset = crate::presets::PRESETS
                        .iter()
                        .find(|p| p.name == saved.scenario.name)
                        .map(|p| p.id);
                    next.playing = false;
                    next.error = None;
                    next.notice = Some(note);
                    next.changed(true)
                }
                Err(e) => next.fail(format!("{note}: {e}. The current session is kept.")),
            },
            Action::Command(command) => {
                let what = command.to_string();
                let result = next.session.borrow_mut().command(command);
                match result {
                    Ok(()) => {
                        next.error = None;
                        next.changed(true)
                    }
                    Err(e) => next.fail(format!("{what}: {e}")),
                }
            }
            Action::View(view) => {
                if view == next.view {
                    return self;
                }
                next.view = view;
                let strategies = next.strategies_for(view);
                next.relane(strategies)
            }
            Action::Strategies(strategies) => {
                if strategies.is_empty() {
                    return next.fail("pick at least one strategy".into());
                }
                next.relane(strategies)
            }
            Action::Error(message) => next.fail(message),
            Action::DismissError => {
                next.error = None;
                next.changed(false)
            }
            Action::Notice(notice) => {
                next.notice = notice;
                next.share_link = None;
                next.changed(false)
            }
            Action::Shared(link, copied) => {
                next.notice = Some(if copied {
                    format!(
                        "Link copied ({} characters): it opens exactly this moment.",
                        link.len()
                    )
                } else {
                    "Copy this link: it opens exactly this moment.".into()
                });
                next.share_link = Some(link);
                next.changed(false)
            }
            Action::Help(open) => {
                next.help = open;
                next.changed(false)
            }
            Action::Shortcuts(on) => {
                next.shortcuts = on;
                next.preferences_version += 1;
                next.changed(false)
            }
            Action::Theme(theme) => {
                next.theme = theme;
                next.preferences_version += 1;
                next.changed(false)
            }
            Action::Motion(on) => {
                next.motion = on;
                next.preferences_version += 1;
                next.changed(false)
            }
            Action::StartTour(id) => {
                let Some(tour) = Tour::find(id) else {
                    return next.fail(format!("there is no tour {id}"));
                };
                match Preset::find(tour.preset).map(|p| p.scenario()) {
                    Some(Ok(scenario)) => match Session::new(scenario, &[]) {
                        Ok(session) => {
                            next.session = Rc::new(RefCell::new(session));
                            next.preset = Some(tour.preset);
                            next.view = ViewMode::Single;
                            next.error = None;
                            next.notice = None;
                            next.tour = Some(TourPosition {
                                tour: id.to_string(),
                                step: 0,
                            });
                            next.tour_step(0)
                        }
                        Err(e) => next.fail(e.to_string()),
                    },
                    _ => next.fail(format!("tour {id} names a missing preset")),
                }
            }
            Action::TourStep(step) => next.tour_step(step),
            Action::LeaveTour => {
                next.tour = None;
                next.notice = Some("You left the tour: play on freely from here.".into());
                next.changed(true)
            }
        }
    }
}
