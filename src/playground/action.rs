//! What can happen to the playground ([`Action`]: a person's click or key, a frame of the
//! clock) and what the browser must do about it ([`Effect`]: save, copy, download).

use super::command_editor::EditorAction;
use super::config_form::ConfigAction;
use super::form::FormAction;
use super::join::JoinAction;
use super::schedule::ScheduleEdit;
use crate::model::{Command, Strategy};
use crate::playground::link::ViewMode;
use crate::views::charts::ChartKind;
use crate::views::scene::{Centre, Zoom};
use serde::{Deserialize, Serialize};

/// Playback speeds offered (virtual seconds per real second).
pub const SPEEDS: [f64; 7] = [0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0];

/// The speeds as written (the same order).
pub const SPEED_LABELS: [&str; 7] = ["0.25", "0.5", "1", "2", "4", "8", "16"];

/// Light or dark.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Theme {
    /// Dark text on light.
    Light,
    /// Light text on dark.
    Dark,
}

/// Something that changes the playground.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// The clock: frames, play and pause, steps, seeking, speed (`playback.rs`).
    Playback(Playback),
    /// Load a preset by its id.
    Preset(String),
    /// Load a scenario file a person chose: its name and its text.
    Import {
        /// The file's name.
        name: String,
        /// Its contents.
        text: String,
    },
    /// A file a person chose could not be read at all.
    Unreadable(String),
    /// Open, edit, close or apply the configuration form.
    Config(ConfigAction),
    /// Edit the member toolbar's new member, or add it.
    Join(JoinAction),
    /// Open, edit, close or apply the application form.
    Application(FormAction),
    /// Add, move, change, delete or select a scheduled command (the timeline editor).
    Schedule(ScheduleEdit),
    /// Open, edit, submit or close the timeline editor's command editor.
    Editor(EditorAction),
    /// Forget the session and start the first preset afresh.
    NewSession,
    /// Do something to the group at the clock.
    Command(Command),
    /// How long a restart keeps its member away, in seconds as typed (`6`, `0.5`).
    DownTime(String),
    /// Whether a restarted member keeps its stores (a persistent disk).
    KeepState(bool),
    /// Switch views.
    View(ViewMode),
    /// Add a strategy to the comparison, or take it out.
    ToggleStrategy(Strategy),
    /// Find a task or a member by name in the group (empty: stop finding).
    Find(String),
    /// Show the group as an overview or as cards, and bring a member or zone to the middle.
    Zoom {
        /// How far.
        zoom: Zoom,
        /// What to bring to the middle of the view (zooming into the cards).
        centre: Option<Centre>,
    },
    /// Which lane the compare view's per-lane charts show.
    ChartLane(usize),
    /// The task timeline came into the view (true) or left it: out of it, it is not read.
    TimelineInView(bool),
    /// Show an error that happened in the browser.
    Error(String),
    /// Hide the error.
    DismissError,
    /// Open or close the help.
    Help(bool),
    /// A share link or a download (`export.rs`).
    Export(Export),
    /// A reader's preference, saved as it changes (`preferences.rs`).
    Preference(Preference),
    /// Start, step through or leave a tour (`loading.rs`).
    Tour(TourAction),
    /// What the worker said (`requests.rs`).
    Reply(super::wire::Reply),
    /// Edit, run, cancel or open a cell of the sweep panel (`sweep.rs`).
    Sweep(super::sweep::SweepAction),
}

/// When the page is drawn again after an action.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Redraw {
    /// At once (a reader's action).
    Now,
    /// At the next animation frame, once for every reply until then: the worker's replies
    /// come in runs, and a frame draws them together (and in a task of its own).
    NextFrame,
    /// Not for this action: the next frame of play draws it.
    No,
}

impl Redraw {
    /// Once the action is carried out (`waiting`: the page still awaits the worker): a reply
    /// that leaves nothing awaited is drawn at once, for the reader's wait ends there.
    pub fn settled(self, waiting: bool) -> Redraw {
        match self {
            Redraw::NextFrame if !waiting => Redraw::Now,
            other => other,
        }
    }
}

impl Action {
    /// When the page is drawn again after this action (`playing`: frames draw it).
    pub fn redraw(&self, playing: bool) -> Redraw {
        match (self, playing) {
            // Cards ahead of their moment, and rows ahead of their panel, show nothing until
            // it comes.
            (Action::Reply(r), _)
                if matches!(
                    r.body,
                    super::wire::Body::Cards { .. } | super::wire::Body::TimelineRows(_)
                ) =>
            {
                Redraw::No
            }
            // Nothing shows that the task timeline came into the view: what is sent draws it.
            (Action::TimelineInView(_), _) => Redraw::No,
            (Action::Reply(_), true) => Redraw::No,
            (Action::Reply(_), false) => Redraw::NextFrame,
            _ => Redraw::Now,
        }
    }
}

/// The clock.
#[derive(Clone, Debug, PartialEq)]
pub enum Playback {
    /// An animation frame at this timestamp (real ms).
    Frame(f64),
    /// Play or pause.
    Play(bool),
    /// Toggle play and pause.
    Toggle,
    /// Jump to the next event.
    StepEvent,
    /// Jump back to the previous event.
    StepBack,
    /// Jump to the start of the next rebalance round.
    StepRound,
    /// Move the clock (and pause).
    Seek(u64),
    /// Set the speed.
    Speed(f64),
    /// Restart the current scenario from time 0.
    Reset,
}

/// A share link or a download.
#[derive(Clone, Debug, PartialEq)]
pub enum Export {
    /// Make a share link of this moment; the page's address without its fragment is given.
    Share(String),
    /// Download the scenario with every command as JSON.
    Scenario,
    /// Download the log in the seed's notation.
    Log,
    /// Download a compare chart as SVG.
    Chart(ChartKind),
    /// Download the design-review report of the session's scenario, commands and strategies.
    Report,
}

/// A reader's preference.
#[derive(Clone, Debug, PartialEq)]
pub enum Preference {
    /// Turn single-key shortcuts on or off.
    Shortcuts(bool),
    /// Set the theme.
    Theme(Theme),
    /// Animate chip movements or not.
    Motion(bool),
}

/// A tour.
#[derive(Clone, Debug, PartialEq)]
pub enum TourAction {
    /// Start a tour by its id.
    Start(String),
    /// Go to a tour step.
    Step(usize),
    /// Leave the tour and play freely from here.
    Leave,
}

/// What the browser must do after an action.
#[derive(Clone, Debug, PartialEq)]
pub enum Effect {
    /// Send a request to the simulation worker.
    Send(super::wire::Request),
    /// Send a request to the sweep's worker `slot` (started if it is not).
    SweepSend {
        /// Which of the sweep's workers.
        slot: usize,
        /// A cell to run.
        request: super::wire::Request,
    },
    /// Stop the sweep's workers (a cancel): what they run is dropped.
    SweepStop,
    /// Something worth keeping changed: save [`crate::playground::Playground::autosave_text`]
    /// under the autosave key.
    Autosave,
    /// Keep an autosave that could not be restored under
    /// [`crate::playground::SET_ASIDE_KEY`], before it is overwritten.
    SetAside(String),
    /// Save the reader's preferences.
    SavePreferences(super::Preferences),
    /// Replace the URL fragment without a new history entry (empty removes it).
    ReplaceFragment(String),
    /// Copy text to the clipboard.
    Copy(String),
    /// Offer text as a file download.
    Download {
        /// The file name.
        name: String,
        /// Its media type.
        mime: String,
        /// Its contents.
        text: String,
    },
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::playground::wire::{Body, Progress, Reply};

    #[test]
    fn a_reply_waits_for_a_frame_and_a_readers_action_is_drawn_at_once() {
        let reply = Action::Reply(Reply {
            session: 1,
            body: Body::Nowhere(7),
            history: None,
            progress: Progress::default(),
        });
        assert_eq!(reply.redraw(false), Redraw::NextFrame);
        assert_eq!(reply.redraw(true), Redraw::No);
        for playing in [false, true] {
            assert_eq!(Action::Help(true).redraw(playing), Redraw::Now);
            assert_eq!(Action::TimelineInView(true).redraw(playing), Redraw::No);
        }
        assert_eq!(
            reply.redraw(false).settled(false),
            Redraw::Now,
            "the last awaited"
        );
        assert_eq!(reply.redraw(false).settled(true), Redraw::NextFrame);
        assert_eq!(
            reply.redraw(true).settled(false),
            Redraw::No,
            "frames of play draw it"
        );
    }
}
