//! Which session the page opens with, as a pure function of what the browser knows at start:
//! the URL (a share link in the fragment; `embed`, `preset`, `tour`, `autoplay` in the query),
//! the autosaved session, the saved preferences and the system's media preferences.
//!
//! Precedence: a share link, else (outside embeds) the autosave, else the query's preset,
//! else the first preset. A link or autosave that cannot be opened, or an unknown preset or
//! tour, is named in one line and the default is shown instead; nothing is lost.

use super::{Effect, Playground, Preferences, Theme};
use crate::playground::link::SavedSession;
use crate::playground::tour::Tour;
use crate::presets::Preset;

/// The page's query parameters that matter at start.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Query {
    /// `embed` (any value but `0`): compact chrome, nothing saved.
    pub embed: bool,
    /// `autoplay` (any value but `0`): an embed starts playing.
    pub autoplay: bool,
    /// `preset=<id>`: the scenario to open.
    pub preset: Option<String>,
    /// `tour=<id>`: the tour to start.
    pub tour: Option<String>,
}

impl Query {
    /// Reads the parameters through a lookup (`URLSearchParams.get` in the browser).
    pub fn from_params(get: impl Fn(&str) -> Option<String>) -> Query {
        let on = |name: &str| get(name).is_some_and(|v| v != "0");
        Query {
            embed: on("embed"),
            autoplay: on("autoplay"),
            preset: get("preset"),
            tour: get("tour"),
        }
    }
}

/// Everything the browser knows when the page opens.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Startup {
    /// The URL fragment without its `#`.
    pub fragment: String,
    /// The query parameters.
    pub query: Query,
    /// The autosaved session's text, if any.
    pub autosave: Option<String>,
    /// The reader's saved preferences, if any.
    pub preferences: Option<Preferences>,
    /// The system prefers a dark colour scheme.
    pub prefers_dark: bool,
    /// The system prefers reduced motion.
    pub prefers_reduced_motion: bool,
    /// How many workers the browser offers (its logical processors): a sweep runs on as many.
    pub cores: usize,
}

/// What the page opens with, read off the browser's [`Startup`]: the session a link or the
/// autosave holds, decoded, and what could not be opened. Reading it is a task of its own
/// before the playground is made of it ([`Playground::open_with`]): a large group's link
/// takes a while to decode.
#[derive(Clone, Debug)]
pub struct OpensWith {
    /// The session to restore, and the notice saying where it came from.
    restored: Option<(SavedSession, &'static str)>,
    /// What could not be opened, in one line.
    problem: Option<String>,
    /// What the browser must do first (consume the link, set aside a bad autosave).
    effects: Vec<Effect>,
    /// The rest of what the browser knows.
    start: Startup,
}

impl Startup {
    /// Decodes the link or the autosave the page opens with.
    pub fn read(self) -> OpensWith {
        let embed = self.query.embed;
        let mut effects = Vec::new();
        let mut problem = None;
        let mut restored: Option<(SavedSession, &'static str)> = None;
        let fragment = &self.fragment;
        if let Some(text) = fragment.strip_prefix("s=") {
            match SavedSession::decode(text) {
                Ok(saved) => restored = Some((saved, "Opened the shared session.")),
                Err(e) => {
                    problem = Some(format!(
                        "The link could not be opened: {e}. Showing the default scenario instead."
                    ))
                }
            }
            if !embed {
                // The link is now the session: later reloads come back through the autosave.
                effects.push(Effect::ReplaceFragment(String::new()));
            }
        } else if !fragment.is_empty() {
            problem = Some(format!("The link could not be opened: the part after # is not a Handoff session ({} characters). Showing the default scenario instead.", fragment.len()));
            effects.push(Effect::ReplaceFragment(String::new()));
        }
        if restored.is_none() && !embed && problem.is_none() {
            if let Some(text) = &self.autosave {
                match SavedSession::read(text) {
                    Ok(saved) => restored = Some((saved, "Restored your last session.")),
                    Err(e) => {
                        problem = Some(format!(
                            "Your saved session could not be restored ({e}); it was set aside."
                        ));
                        effects.push(Effect::SetAside(text.clone()));
                    }
                }
            }
        }
        OpensWith {
            restored,
            problem,
            effects,
            start: self,
        }
    }
}

impl Playground {
    /// The playground the page opens with, and what the browser must do first (consume the
    /// link from the address bar, save the session).
    pub fn start(start: Startup) -> (Playground, Vec<Effect>) {
        Playground::open_with(start.read())
    }

    /// The playground made of what the page opens with ([`Startup::read`]).
    pub fn open_with(read: OpensWith) -> (Playground, Vec<Effect>) {
        let OpensWith {
            restored,
            mut problem,
            mut effects,
            start,
        } = read;
        let Startup {
            query,
            preferences,
            prefers_dark,
            prefers_reduced_motion,
            cores,
            ..
        } = start;
        let embed = query.embed;
        let mut pg = Playground::new();
        pg.embed = embed;
        pg.workers = cores.max(1);
        let play = embed && query.autoplay;
        let saved_tour = restored.as_ref().and_then(|(saved, _)| saved.tour.clone());
        let preset = query.preset.as_deref().filter(|_| restored.is_none());
        match (restored, preset) {
            (Some((saved, note)), _) => effects.extend(pg.restore(&saved, note.to_string(), true)),
            (None, Some(id)) if Preset::find(id).is_some() => {
                effects.extend(pg.load_preset(id, None))
            }
            (None, id) => {
                if let Some(id) = id {
                    problem = Some(format!(
                        "There is no preset named {id:?}; showing the default scenario."
                    ));
                }
                effects.extend(pg.load_preset(crate::presets::PRESETS[0].id, None));
            }
        }
        // What the page looks like once the session is open: the problem named, playing if
        // an embed asked to.
        if let Some(opening) = pg.pending_open() {
            opening.play = play;
            if problem.is_some() {
                opening.error = problem.clone();
            }
        }
        pg.theme = if prefers_dark {
            Theme::Dark
        } else {
            Theme::Light
        };
        pg.motion = !prefers_reduced_motion;
        // Choices the reader made override what the system suggests.
        if let Some(p) = preferences {
            pg.theme = p.theme.unwrap_or(pg.theme);
            pg.motion = p.motion.unwrap_or(pg.motion);
            pg.shortcuts = p.shortcuts.unwrap_or(pg.shortcuts);
        }
        if let Some(id) = query.tour.as_deref().filter(|_| saved_tour.is_none()) {
            if Tour::find(id).is_some() {
                effects.extend(pg.start_tour(id));
            } else if let Some(opening) = pg.pending_open() {
                opening.error = Some(format!(
                    "There is no tour named {id:?}; the playground is shown without one."
                ));
            }
        }
        // Embeds start paused unless asked to play (WCAG 2.2.2: moving content must be
        // pausable): from the start, and once the session is open.
        pg.playing = play;
        pg.continuous = false;
        (pg, effects)
    }
}
