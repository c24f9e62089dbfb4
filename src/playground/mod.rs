//! The playground's state machine, without the browser: the session (histories, clock) and
//! everything the page shows around it (playing, speed, view, tour, notices, theme...).
//! [`Playground::act`] takes an [`Action`] and returns the [`Effect`]s the browser must carry
//! out (save, copy, download), so every behaviour of the page is tested natively; the UI
//! only renders what this holds and runs the effects. Its building blocks serve only it: the
//! session of lanes ([`session`]), share links and the autosave ([`link`]), guided tours
//! ([`tour`]) and the glossary ([`glossary`]).

mod action;
mod application;
mod command_editor;
mod config_form;
mod export;
mod find;
mod form;
pub mod glossary;
mod join;
pub mod keys;
pub mod link;
mod loading;
mod log;
mod operations;
mod over_time;
mod playback;
mod preferences;
#[cfg(test)]
mod review_tests;
mod schedule;
#[cfg(test)]
mod schedule_tests;
pub mod screen;
pub mod session;
mod startup;
#[cfg(test)]
mod tests;
pub mod timeline;
pub mod tour;
mod track;

pub use action::{
    Action, Effect, Export, Playback, Preference, Theme, TourAction, SPEEDS, SPEED_LABELS,
};
pub use application::{ApplicationDraft, Field, FieldError, SubtopologyDraft, Totals};
pub use command_editor::{CommandDraft, CommandEditor, DraftError, DraftField, EditorAction};
pub use config_form::{ConfigAction, ConfigDraft, ConfigField, ConfigForm, MemberDraft, TaskDraft};
pub use form::{ApplicationForm, FormAction};
pub use join::{JoinAction, JoinDraft, JoinField};
pub use loading::{StrategyChoice, MIN_COMPARED};
pub use operations::{suggested_zone, Operations, RestartChoice};
pub use preferences::{Preferences, LEGACY_PREFERENCES_KEY, PREFERENCES_KEY};
pub use schedule::{CommandKind, Schedule, ScheduleEdit, ScheduleMark};
pub use startup::{Query, Startup};

use crate::playground::link::{SavedSession, TourPosition, ViewMode};
use crate::playground::session::Session;
use crate::presets::PRESETS;
use crate::views::scene::{Centre, Zoom};
use crate::views::travel::travel_ms;
use crate::views::units::exact_seconds;
use operations::DEFAULT_DOWN_MS;

/// Where the session is autosaved (its JSON; before, the text of a share link).
pub const AUTOSAVE_KEY: &str = "handoff.session.v1";

/// Where an autosave that could not be restored is kept, so that nothing is lost.
pub const SET_ASIDE_KEY: &str = "handoff.session.v1.unreadable";

/// While playing, the session is saved this often (real ms), so a crashed tab loses little.
const SAVE_WHILE_PLAYING_MS: f64 = 5_000.0;

/// While playing, each panel beside the group (the log, the measures with the compare charts,
/// the task timeline) follows the clock this often (real ms), not on every frame: four
/// readings a second are as many as a reader takes in (a figure changing ten times a second
/// is a blur), and at top speed every reading changes them, each read off the history and
/// laid out by the browser again. They take turns a third of this period apart (see
/// [`PanelTurns`]).
pub const PANELS_EVERY_MS: f64 = 250.0;

/// The most frames in a row the panels' turns wait for a frame in which nothing happened
/// (at 60 frames a second, 50 ms): events come in runs (members ready one after another).
const TURNS_WAIT_FRAMES: u8 = 3;

/// The notice shown when the playground paused itself because nothing more will happen.
const AT_REST: &str = "The group is at rest: nothing more will happen until you act.";

/// A panel beside the group, read at its own turn while playing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Panel {
    /// The log.
    Log,
    /// The measures, and the compare view's charts.
    Measures,
    /// The task timeline.
    Timeline,
}

/// While playing, the panels beside the group follow the clock in turns: the log every
/// [`PANELS_EVERY_MS`], the measures a third of that later, the task timeline two thirds,
/// so that one frame reads (and the browser lays out) one panel, not all three with the
/// group (in a group of hundreds of tasks each costs a frame milliseconds).
#[derive(Debug, Default)]
struct PanelTurns {
    /// When the log last followed the clock (real ms).
    at: f64,
    /// By [`Panel`]: moves each time the panel is to be read again.
    epochs: [u64; 3],
    /// By [`Panel`]: the panel's turn in this period is still to come.
    behind: [bool; 3],
    /// The frames in a row in which something happened and the panels' turns waited.
    held: u8,
}

impl PanelTurns {
    /// Every panel follows the clock at once (the reader acted, or play stopped).
    fn all(&mut self) {
        for epoch in &mut self.epochs {
            *epoch += 1;
        }
        self.behind = [false; 3];
        self.held = 0;
    }

    /// A frame of play at `now` (real ms): the panels whose turn came follow the clock (all
    /// of those due, when frames are far apart). A frame in which something `happened` (a
    /// member ready, a step of a round) draws the group, the banner and the protocol strip
    /// anew: the turns wait for a frame in which nothing happened ([`TURNS_WAIT_FRAMES`] at
    /// most).
    fn frame(&mut self, now: f64, happened: bool) {
        if happened && self.held < TURNS_WAIT_FRAMES {
            self.held += 1;
            return;
        }
        self.held = 0;
        let since = now - self.at;
        for panel in [Panel::Measures, Panel::Timeline] {
            let i = panel as usize;
            if self.behind[i] && since >= PANELS_EVERY_MS * i as f64 / 3.0 {
                self.epochs[i] += 1;
                self.behind[i] = false;
            }
        }
        if since >= PANELS_EVERY_MS {
            self.at = now;
            self.epochs[Panel::Log as usize] += 1;
            self.behind = [false, true, true];
        }
    }

    /// Moves each time `panel` is to be read again.
    fn epoch(&self, panel: Panel) -> u64 {
        self.epochs[panel as usize]
    }
}

/// The whole state of the page.
#[derive(Debug)]
pub struct Playground {
    session: Session,
    playing: bool,
    speed: f64,
    /// The last animation frame's timestamp, while playing.
    last_frame: Option<f64>,
    /// When the session was last saved while playing (real ms).
    last_save: f64,
    /// When each panel beside the group is to be read again.
    turns: PanelTurns,
    /// The playground paused itself at rest; a reader's command plays on.
    paused_at_rest: bool,
    view: ViewMode,
    chart_lane: usize,
    find: String,
    /// How far the group is zoomed (none chosen: as it fits), and what was zoomed into.
    zoom: Option<(Zoom, Option<Centre>)>,
    preset: Option<&'static str>,
    /// What the page's error line shows until it is dismissed or fixed: something that
    /// could not be done (an import, a link, a command), in one line.
    error: Option<String>,
    notice: Option<String>,
    share_link: Option<String>,
    tour: Option<TourPosition>,
    shortcuts: bool,
    help: bool,
    theme: Theme,
    motion: bool,
    continuous: bool,
    embed: bool,
    /// What every restart button does: the time away and the disk.
    restart: RestartChoice,
    /// The time away as typed, and why it does not read (the last time that read is kept).
    down_time: (String, Option<String>),
    /// The application form's draft, while the scenario it was opened on is loaded.
    application: Option<ApplicationForm>,
    /// The application form is open.
    application_open: bool,
    /// The configuration form's draft, kept while closed until another scenario is loaded.
    config_form: Option<ConfigForm>,
    /// Whether the configuration form is open.
    config_open: bool,
    /// The member toolbar's new member, as typed.
    join: JoinDraft,
    /// The scheduled command selected on the track.
    selected_command: Option<usize>,
    /// The command editor, while it is open.
    command_editor: Option<CommandEditor>,
    /// Views read off the session, kept between frames.
    memos: screen::Memos,
}

impl Playground {
    /// A playground showing a session, paused at its clock.
    pub fn new(session: Session, preset: Option<&'static str>) -> Playground {
        Playground {
            session,
            playing: false,
            speed: 1.0,
            last_frame: None,
            last_save: 0.0,
            turns: PanelTurns::default(),
            paused_at_rest: false,
            view: ViewMode::Single,
            chart_lane: 0,
            find: String::new(),
            zoom: None,
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
            restart: RestartChoice::default(),
            down_time: (exact_seconds(DEFAULT_DOWN_MS), None),
            application: None,
            application_open: false,
            config_form: None,
            config_open: false,
            join: JoinDraft::default(),
            selected_command: None,
            command_editor: None,
            memos: screen::Memos::default(),
        }
    }

    /// The session: histories of every lane and the clock.
    pub fn session(&self) -> &Session {
        &self.session
    }
    /// The clock runs.
    pub fn playing(&self) -> bool {
        self.playing
    }
    /// Virtual seconds per real second.
    pub fn speed(&self) -> f64 {
        self.speed
    }
    /// Single playground or comparison.
    pub fn view(&self) -> ViewMode {
        self.view
    }
    /// Whether the compare view is shown (asked for, with at least two lanes).
    pub fn comparing(&self) -> bool {
        self.view == ViewMode::Compare && self.session.lanes().len() > 1
    }
    /// The lane whose per-lane charts the compare view shows.
    pub fn chart_lane(&self) -> usize {
        self.chart_lane
            .min(self.session.lanes().len().saturating_sub(1))
    }
    /// What the reader looks for in the group (a task or member name), if anything.
    pub fn find(&self) -> &str {
        &self.find
    }
    /// The preset loaded, if the scenario is one.
    pub fn preset(&self) -> Option<&'static str> {
        self.preset
    }
    /// The latest error, shown until dismissed.
    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }
    /// A short note (saved, copied, restored, at rest).
    pub fn notice(&self) -> Option<&str> {
        self.notice.as_deref()
    }
    /// The last share link made, shown so it can be copied by hand too.
    pub fn share_link(&self) -> Option<&str> {
        self.share_link.as_deref()
    }
    /// The guided tour being read.
    pub fn tour(&self) -> Option<&TourPosition> {
        self.tour.as_ref()
    }
    /// Single-key shortcuts are on (they can be turned off, WCAG 2.1.4).
    pub fn shortcuts(&self) -> bool {
        self.shortcuts
    }
    /// The help dialog is open.
    pub fn help(&self) -> bool {
        self.help
    }
    /// The colour theme.
    pub fn theme(&self) -> Theme {
        self.theme
    }
    /// How far the group is zoomed, if a person chose, and what they zoomed into.
    pub fn zoom(&self) -> Option<(Zoom, Option<Centre>)> {
        self.zoom.clone()
    }

    /// Chip movements animate (off when the reader prefers reduced motion).
    pub fn motion(&self) -> bool {
        self.motion
    }
    /// How long a task that changes hands travels, in ms of real time: scaled with the speed
    /// ([`travel_ms`]); `None` when nothing travels: the motion switch is off, or the last
    /// change jumped (a scrub or a load) instead of moving the clock a little (playing,
    /// stepping, acting).
    pub fn travel_ms(&self) -> Option<u32> {
        (self.motion && self.continuous).then(|| travel_ms(self.speed))
    }
    /// Compact chrome for embedding in docs; nothing is saved.
    pub fn embed(&self) -> bool {
        self.embed
    }
    /// The application form, while it is open.
    pub fn application(&self) -> Option<&ApplicationForm> {
        self.application.as_ref().filter(|_| self.application_open)
    }

    /// The preferences as they are now, to be saved when the reader changes one.
    pub fn preferences(&self) -> Preferences {
        Preferences {
            theme: Some(self.theme),
            motion: Some(self.motion),
            shortcuts: Some(self.shortcuts),
        }
    }

    /// The text to autosave (the session's JSON), or `None` in an embed, which never
    /// overwrites the full playground's session.
    pub fn autosave_text(&self) -> Option<String> {
        (!self.embed).then(|| self.saved().to_json())
    }

    /// The autosave compressed as a share link's text, for a storage too full for the JSON
    /// (about a fifth of its length, and slow to write: see [`SavedSession::to_json`]).
    pub fn autosave_compressed(&self) -> Option<String> {
        (!self.embed).then(|| self.saved().encode())
    }

    fn saved(&self) -> SavedSession {
        SavedSession::capture(&self.session, self.view, self.tour.clone())
    }

    /// Carries out an action; returns what the browser must do.
    pub fn act(&mut self, action: Action) -> Vec<Effect> {
        self.continuous = matches!(
            action,
            Action::Playback(Playback::Frame(_))
                | Action::Playback(Playback::StepEvent)
                | Action::Playback(Playback::StepRound)
                | Action::Command(_)
                | Action::Tour(TourAction::Step(_))
        );
        // Taking the clock in hand (or loading anything) ends "play on when the reader acts".
        if matches!(
            action,
            Action::Playback(Playback::Play(_))
                | Action::Playback(Playback::Toggle)
                | Action::Playback(Playback::StepEvent)
                | Action::Playback(Playback::StepBack)
                | Action::Playback(Playback::StepRound)
                | Action::Playback(Playback::Seek(_))
                | Action::Playback(Playback::Reset)
                | Action::Preset(_)
                | Action::Import { .. }
                | Action::Config(ConfigAction::Apply)
                | Action::Join(JoinAction::Add)
                | Action::Application(FormAction::Apply)
                | Action::Schedule(_)
                | Action::Editor(EditorAction::Submit)
                | Action::NewSession
                | Action::Tour(TourAction::Start(_))
                | Action::Tour(TourAction::Step(_))
        ) {
            self.paused_at_rest = false;
        }
        let sharing = matches!(action, Action::Export(Export::Share(_)));
        let frame = matches!(action, Action::Playback(Playback::Frame(_)));
        let notice = self.notice.clone();
        // What the command editor was opened over: once the commands change, it is closed.
        let commands = self
            .command_editor
            .is_some()
            .then(|| self.session.main().run.commands().to_vec());
        let effects = self.carry_out(action);
        if commands.is_some_and(|c| c != self.session.main().run.commands()) {
            self.command_editor = None;
        }
        // Anything but a frame of play, or a frame that ends it, is shown everywhere at once;
        // frames refresh the panels beside the group at their own pace (see `frame`).
        if !frame || !self.playing {
            self.turns.all();
        }
        // A share link is shown with the notice that announced it, and goes with it.
        if !sharing && self.notice != notice {
            self.share_link = None;
        }
        effects
    }

    fn carry_out(&mut self, action: Action) -> Vec<Effect> {
        match action {
            Action::Playback(action) => self.playback(action),
            // Scenarios, sessions and lanes (`loading.rs`).
            Action::Preset(id) => self.load_preset(&id, None),
            Action::Import { name, text } => self.import(&name, &text),
            Action::Unreadable(name) => self.fail(format!(
                "{name} could not be read. The current session is kept."
            )),
            Action::NewSession => {
                let effects = self.load_preset(PRESETS[0].id, None);
                self.notice = Some("Started a clean session.".into());
                effects
            }
            Action::View(view) => self.show_view(view),
            Action::ToggleStrategy(strategy) => self.toggle_strategy(strategy),
            Action::Tour(action) => self.take_tour(action),
            // Forms, the schedule and commands.
            Action::Config(action) => self.configure(action),
            Action::Join(action) => self.join_member(action),
            Action::Application(action) => self.application_form(action),
            Action::Schedule(edit) => self.edit_schedule(edit),
            Action::Editor(action) => self.edit_command(action),
            Action::Command(command) => self.command(command),
            Action::DownTime(text) => self.set_down_time(text),
            Action::KeepState(keep) => {
                self.restart.keep_state = keep;
                Vec::new()
            }
            // What the page shows.
            Action::Find(text) => {
                self.find = text.trim().to_string();
                Vec::new()
            }
            Action::Zoom { zoom, centre } => {
                self.zoom = Some((zoom, centre));
                Vec::new()
            }
            Action::ChartLane(lane) => {
                self.chart_lane = lane;
                Vec::new()
            }
            Action::Error(message) => self.fail(message),
            Action::DismissError => {
                self.error = None;
                Vec::new()
            }
            Action::Help(open) => {
                self.help = open;
                Vec::new()
            }
            Action::Export(action) => self.export(action),
            Action::Preference(preference) => self.set_preference(preference),
        }
    }

    fn command(&mut self, command: crate::model::Command) -> Vec<Effect> {
        let what = command.to_string();
        match self.session.command(command) {
            Ok(()) => {
                self.error = None;
                // After pausing itself at rest, the playground plays on when the reader acts.
                if std::mem::take(&mut self.paused_at_rest) {
                    self.playing = true;
                    self.last_frame = None;
                    if self.notice.as_deref() == Some(AT_REST) {
                        self.notice = None;
                    }
                }
                vec![Effect::Autosave]
            }
            Err(e) => self.fail(format!("{what}: {e}")),
        }
    }

    /// Shows another session; drafts made on the previous scenario are forgotten.
    fn replace_session(&mut self, session: Session) {
        self.session = session;
        self.memos.clear();
        self.zoom = None;
        self.application = None;
        self.application_open = false;
        // An open configuration form shows the new scenario.
        self.config_form = self
            .config_open
            .then(|| ConfigForm::of(&self.scenario_file()));
        self.join = JoinDraft::default();
        self.selected_command = None;
        self.command_editor = None;
    }

    /// Shows another session of the same scenario (other lanes, edited commands): the drafts
    /// stay.
    fn rebuild_session(&mut self, session: Session) {
        self.session = session;
        self.memos.clear();
    }

    fn fail(&mut self, message: String) -> Vec<Effect> {
        self.error = Some(message);
        self.playing = false;
        self.last_frame = None;
        Vec::new()
    }
}
