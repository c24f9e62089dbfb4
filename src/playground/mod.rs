//! The playground's state machine, without the browser, in two halves that talk in messages
//! ([`wire`]; docs/design.md, "Off the page's thread"). The page's: [`Playground`], the clock
//! and everything the page shows around the group (playing, speed, view, tour, notices,
//! theme...) and what the worker last sent ([`shown`]); [`Playground::act`] takes an
//! [`Action`] and returns the [`Effect`]s the browser must carry out (send to the worker, save,
//! copy, download). The worker's: [`Simulation`], the session of lanes ([`session`]) computed
//! ahead of the clock, and the views read off it. [`Local`] joins the two in one thread, so
//! every behaviour of the page is tested natively; the UI only renders what the playground
//! holds and runs the effects. Their building blocks serve only them: share links and the
//! autosave ([`link`]), guided tours ([`tour`]) and the glossary ([`glossary`]).

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
mod local;
mod log;
mod memo;
mod operations;
mod over_time;
mod playback;
mod preferences;
mod requests;
#[cfg(test)]
mod review_tests;
mod schedule;
#[cfg(test)]
mod schedule_tests;
pub mod screen;
pub mod session;
pub mod shown;
mod simulation;
mod startup;
pub mod sweep;
#[cfg(test)]
mod tests;
pub mod timeline;
pub mod tour;
mod track;
pub mod wire;

pub use action::{
    Action, Effect, Export, Playback, Preference, Redraw, Theme, TourAction, SPEEDS, SPEED_LABELS,
};
pub use application::{ApplicationDraft, Field, FieldError, SubtopologyDraft, Totals};
pub use command_editor::{CommandDraft, CommandEditor, DraftError, DraftField, EditorAction};
pub use config_form::{ConfigAction, ConfigDraft, ConfigField, ConfigForm, MemberDraft, TaskDraft};
pub use form::{ApplicationForm, FormAction};
pub use join::{JoinAction, JoinDraft, JoinField};
pub use loading::{StrategyChoice, MIN_COMPARED};
pub use local::Local;
pub use operations::{suggested_zone, Operations, RestartChoice};
pub use preferences::{Preferences, LEGACY_PREFERENCES_KEY, PREFERENCES_KEY};
pub use schedule::{CommandKind, Schedule, ScheduleEdit, ScheduleMark};
pub use simulation::Simulation;
pub use startup::{OpensWith, Query, Startup};

use crate::model::{Scenario, Strategy, TimedCommand};
use crate::playground::link::{SavedSession, TourPosition, ViewMode};
use crate::playground::shown::Shown;
use crate::playground::wire::{Seq, Target};
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

/// The most moments in a row the panels read at their turn wait, while playing, for a moment
/// in which nothing happened (at 60 frames a second, 50 ms): events come in runs (members
/// ready one after another), and a moment in which something happened draws the group, the
/// banner and the protocol strip anew.
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
/// so that one frame shows (and the browser lays out) one panel, not all three with the
/// group (in a group of hundreds of tasks each costs a frame milliseconds).
#[derive(Debug, Default)]
struct PanelTurns {
    /// When the log last followed the clock (real ms).
    at: f64,
    /// By [`Panel`]: moves each time the panel is to be read again.
    epochs: [u64; 3],
    /// By [`Panel`]: the panel's turn in this period is still to come.
    behind: [bool; 3],
}

impl PanelTurns {
    /// Every panel follows the clock at once (the reader acted, or play stopped).
    fn all(&mut self) {
        for epoch in &mut self.epochs {
            *epoch += 1;
        }
        self.behind = [false; 3];
    }

    /// A frame of play at `now` (real ms): the panels whose turn came follow the clock (all
    /// of those due, when frames are far apart).
    fn frame(&mut self, now: f64) {
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

/// Where the page wants the clock: a moment to draw, and whether the clock goes to the
/// moment's time when it comes (playing, a step, a tour: the worker says when that is).
#[derive(Clone, Debug, PartialEq)]
struct Want {
    /// The moment.
    target: Target,
    /// The clock follows the answer.
    follow: bool,
}

/// The whole state of the page.
#[derive(Debug)]
pub struct Playground {
    /// What the worker computed, as last sent, and the scenario.
    shown: Shown,
    /// The moment viewed (virtual ms).
    clock: u64,
    /// The moment to draw next.
    want: Want,
    /// Steps taken while one was on its way, taken in turn from where it lands.
    steps: std::collections::VecDeque<Target>,
    /// Virtual ms of play owed while the page waited for a moment (at most a frame's worth
    /// of 100 ms: a long wait is not played through).
    owed: f64,
    /// The panels' epochs the moment asked for was read at, and the last received.
    epochs: ([u64; 3], [u64; 3]),
    /// The number of the last request sent, and of the last session.
    counts: (Seq, u64),
    /// Requests sent whose reply is awaited, and what to do then.
    awaiting: Vec<(Seq, requests::Awaiting)>,
    playing: bool,
    speed: f64,
    /// The last animation frame's timestamp, while playing.
    last_frame: Option<f64>,
    /// When the session was last saved while playing (real ms).
    last_save: f64,
    /// When each panel beside the group is to be read again.
    turns: PanelTurns,
    /// The moments in a row in which something happened while panels read waited.
    held: u8,
    /// The playground paused itself at rest; a reader's command plays on.
    paused_at_rest: bool,
    view: ViewMode,
    chart_lane: usize,
    /// The page said the task timeline is in the view: until then, and out of it, the worker
    /// is not asked for it (in a group of thousands of tasks it is hundreds of kilobytes at
    /// each turn, and it is below the fold).
    timeline_in_view: bool,
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
    /// The sweep panel: its form and the last sweep run.
    sweep: sweep::SweepPanel,
    /// How many workers the browser offers a sweep's runs.
    workers: usize,
    /// Views read off the scenario, kept between frames.
    memos: screen::Memos,
}

impl Default for Playground {
    fn default() -> Playground {
        Playground::new()
    }
}

impl Playground {
    /// A playground with nothing open yet: it shows a group of nobody until the worker
    /// sends the first moment of the session it is asked to open ([`Playground::open`]).
    pub fn new() -> Playground {
        let placeholder = crate::presets::scale_out(0, 0, 0);
        Playground {
            shown: Shown::new(placeholder),
            clock: 0,
            want: Want {
                target: Target::At(0),
                follow: false,
            },
            steps: std::collections::VecDeque::new(),
            owed: 0.0,
            epochs: ([0; 3], [u64::MAX; 3]),
            counts: (0, 0),
            awaiting: Vec::new(),
            playing: false,
            speed: 1.0,
            last_frame: None,
            last_save: 0.0,
            turns: PanelTurns::default(),
            held: 0,
            paused_at_rest: false,
            view: ViewMode::Single,
            chart_lane: 0,
            timeline_in_view: false,
            find: String::new(),
            zoom: None,
            preset: None,
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
            sweep: sweep::SweepPanel::default(),
            workers: 1,
            memos: screen::Memos::default(),
        }
    }

    /// The moment viewed (virtual ms).
    pub fn clock(&self) -> u64 {
        self.clock
    }
    /// How far the reader has been: the history as the scrubber shows it.
    pub fn frontier(&self) -> u64 {
        self.shown.progress().reached
    }
    /// The scenario as loaded (before any command a person added).
    pub fn scenario(&self) -> &Scenario {
        self.shown.scenario()
    }
    /// The strategies of the lanes.
    pub fn strategies(&self) -> &[Strategy] {
        self.shown.strategies()
    }
    /// Every command of the history viewed, in time order.
    pub fn commands(&self) -> &[TimedCommand] {
        self.shown.commands()
    }
    /// What the worker last sent: the moment drawn, the panels, the history's summary.
    pub fn shown(&self) -> &Shown {
        &self.shown
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
    /// Whether the compare view is shown (asked for, with at least two lanes drawn).
    pub fn comparing(&self) -> bool {
        self.view == ViewMode::Compare && self.shown.moment().lanes.len() > 1
    }
    /// The lane whose per-lane charts the compare view shows.
    pub fn chart_lane(&self) -> usize {
        self.chart_lane
            .min(self.shown.strategies().len().saturating_sub(1))
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
    /// overwrites the full playground's session, and before any session is open.
    pub fn autosave_text(&self) -> Option<String> {
        self.saving().then(|| self.saved().to_json())
    }

    /// The autosave compressed as a share link's text, for a storage too full for the JSON
    /// (about a fifth of its length, and slow to write: see [`SavedSession::to_json`]).
    pub fn autosave_compressed(&self) -> Option<String> {
        self.saving().then(|| self.saved().encode())
    }

    fn saving(&self) -> bool {
        !self.embed && self.shown.session() > 0
    }

    fn saved(&self) -> SavedSession {
        SavedSession {
            sweep: self.sweep_question(),
            ..SavedSession::of(
                self.scenario(),
                self.commands(),
                self.strategies().to_vec(),
                self.clock,
                self.view,
                self.tour.clone(),
            )
        }
    }

    /// Carries out an action; returns what the browser must do.
    pub fn act(&mut self, action: Action) -> Vec<Effect> {
        let reply = matches!(action, Action::Reply(_));
        // A reply draws what the action that asked for it started (a step moves, a scrub
        // jumps); the task timeline coming into the view starts nothing.
        if !reply && !matches!(action, Action::TimelineInView(_)) {
            self.continuous = matches!(
                action,
                Action::Playback(Playback::Frame(_))
                    | Action::Playback(Playback::StepEvent)
                    | Action::Playback(Playback::StepRound)
                    | Action::Command(_)
                    | Action::Tour(TourAction::Step(_))
            );
        }
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
        // Frames, and the task timeline coming into the view, leave the panels to their turns.
        let frame = matches!(
            action,
            Action::Playback(Playback::Frame(_)) | Action::TimelineInView(_)
        );
        let notice = self.notice.clone();
        // What the command editor was opened over: once the commands change, it is closed.
        let commands = self
            .command_editor
            .is_some()
            .then(|| self.commands().to_vec());
        let playing = self.playing;
        let mut effects = self.carry_out(action);
        if commands.is_some_and(|c| c != self.commands()) {
            self.command_editor = None;
        }
        // Anything a reader does but a frame of play, and whatever ends play, is shown
        // everywhere at once; frames refresh the panels beside the group at their own pace
        // (see `frame`).
        if (playing && !self.playing) || (!reply && !frame) {
            self.turns.all();
        }
        // A share link is shown with the notice that announced it, and goes with it.
        if !sharing && self.notice != notice {
            self.share_link = None;
        }
        effects.extend(self.ask());
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
                if let Some(opening) = self.pending_open() {
                    opening.notice = Some("Started a clean session.".into());
                }
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
            Action::TimelineInView(in_view) => {
                self.timeline_in_view = in_view;
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
            Action::Reply(reply) => self.receive(reply),
            Action::Sweep(action) => self.sweep_action(action),
        }
    }

    /// A command at the clock, sent to the worker (the reply says whether it was carried out).
    fn command(&mut self, command: crate::model::Command) -> Vec<Effect> {
        self.send_command(command, false)
    }

    /// Sends a command at the clock; a member who joins takes the first free name then
    /// (`free_name`), if its own is taken by then.
    fn send_command(&mut self, command: crate::model::Command, free_name: bool) -> Vec<Effect> {
        let what = command.to_string();
        let seq = self.await_reply(requests::Awaiting::Command(what));
        vec![Effect::Send(wire::Request::Command {
            seq,
            at_ms: self.clock,
            command,
            free_name,
        })]
    }

    /// A command was carried out.
    fn commanded(&mut self) -> Vec<Effect> {
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

    /// Forgets the drafts made on the previous scenario (another session is shown).
    fn forget_drafts(&mut self) {
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

    fn fail(&mut self, message: String) -> Vec<Effect> {
        self.error = Some(message);
        self.playing = false;
        self.last_frame = None;
        Vec::new()
    }
}
