//! Share links and saved sessions: the whole session (scenario, every command with its time,
//! the moment viewed, the strategies compared) as versioned JSON, compressed with lz-string
//! into a URL fragment. The browser autosaves the same JSON, uncompressed.

use crate::format::{ScenarioError, ScenarioFile};
use crate::history::RunError;
use crate::model::{Scenario, Strategy, TimedCommand};
use crate::playground::session::{Session, MAX_LANES};
use crate::sweep::Question;
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// The format version this build writes and reads.
pub const VERSION: u32 = 1;

/// Which view the session was in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ViewMode {
    /// One group, the full playground.
    #[default]
    Single,
    /// Several strategies side by side.
    Compare,
    /// A setting swept: its runs in a table and charts.
    Sweep,
}

impl ViewMode {
    /// The view a button of the view `button` leads to: that view, or back to the single
    /// view when it is the one shown.
    pub fn toggled(self, button: ViewMode) -> ViewMode {
        if self == button {
            ViewMode::Single
        } else {
            button
        }
    }
}

/// Where a reader is in a guided tour.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TourPosition {
    /// The tour's id.
    pub tour: String,
    /// The step, from 0.
    pub step: usize,
}

/// Everything needed to reproduce a view exactly.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedSession {
    /// The format version.
    pub v: u32,
    /// The scenario, with every command of the current history as its events.
    pub scenario: ScenarioFile,
    /// The strategies, one lane each.
    pub strategies: Vec<Strategy>,
    /// The moment being viewed, in virtual milliseconds.
    pub clock: u64,
    /// The view.
    #[serde(default)]
    pub view: ViewMode,
    /// The tour step being read, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tour: Option<TourPosition>,
    /// The sweep's question, if the session has one (its results are run again).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sweep: Option<Question>,
}

/// Only the format version of a saved session, read before the rest.
#[derive(Deserialize)]
struct Version {
    v: Option<u64>,
}

/// Why a link or a saved session could not be opened.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum LinkError {
    /// Nothing after `#s=`.
    #[error("the link holds no session")]
    Empty,
    /// The text is not lz-string compressed data (damaged, truncated or foreign).
    #[error("the link is damaged or truncated: it does not decompress")]
    Damaged,
    /// The data decompressed but is not a session.
    #[error("the link is not a Handoff session: {0}")]
    NotASession(String),
    /// A newer Handoff wrote it.
    #[error(
        "the link was made by a newer Handoff (format {found}; this one reads format {VERSION})"
    )]
    FromTheFuture {
        /// The version found.
        found: u32,
    },
    /// The scenario inside is invalid.
    #[error("the link's scenario is invalid: {0}")]
    Scenario(#[from] ScenarioError),
    /// A command inside cannot be carried out.
    #[error("the link's history cannot be replayed: {0}")]
    Replay(#[from] RunError),
    /// Too many or no strategies.
    #[error("the link compares {0} strategies; between 1 and {MAX_LANES} can be shown")]
    Strategies(usize),
}

impl SavedSession {
    /// Captures a session and how it is viewed.
    pub fn capture(session: &Session, view: ViewMode, tour: Option<TourPosition>) -> SavedSession {
        SavedSession::of(
            session.scenario(),
            session.main().run.commands(),
            session.strategies(),
            session.clock(),
            view,
            tour,
        )
    }

    /// A session as the page holds it: its scenario with these commands, its strategies,
    /// clock, view and tour.
    pub fn of(
        scenario: &Scenario,
        commands: &[TimedCommand],
        strategies: Vec<Strategy>,
        clock: u64,
        view: ViewMode,
        tour: Option<TourPosition>,
    ) -> SavedSession {
        SavedSession {
            v: VERSION,
            scenario: scenario.to_file(commands),
            strategies,
            clock,
            view,
            tour,
            sweep: None,
        }
    }

    /// Rebuilds the session at the saved moment.
    pub fn restore(&self) -> Result<Session, LinkError> {
        let mut session = self.start()?;
        session.seek(self.clock)?;
        Ok(session)
    }

    /// Starts the saved session at its first moment (the worker computes it to the saved
    /// moment in slices).
    pub fn start(&self) -> Result<Session, LinkError> {
        if self.strategies.is_empty() || self.strategies.len() > MAX_LANES {
            return Err(LinkError::Strategies(self.strategies.len()));
        }
        let scenario = Scenario::from_file(self.scenario.clone())?;
        Ok(Session::new(scenario, &self.strategies)?)
    }

    /// The compressed text that goes after `#s=`.
    pub fn encode(&self) -> String {
        lz_str::compress_to_encoded_uri_component(self.to_json().as_str())
    }

    /// The session as JSON, uncompressed: what the browser autosaves every few seconds of
    /// play (compressing a large scenario would cost frames; docs/benchmarks.md has figures).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Reads the text after `#s=`.
    pub fn decode(text: &str) -> Result<SavedSession, LinkError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(LinkError::Empty);
        }
        let units =
            lz_str::decompress_from_encoded_uri_component(text).ok_or(LinkError::Damaged)?;
        if units.is_empty() {
            return Err(LinkError::Damaged);
        }
        let json = String::from_utf16(&units).map_err(|_| LinkError::Damaged)?;
        Self::from_json(&json)
    }

    /// Reads a saved session: an autosave's JSON ([`SavedSession::to_json`]), or a link's
    /// compressed text ([`SavedSession::encode`]), which autosaves held before they were JSON
    /// (a JSON object starts with `{`, which the compressed alphabet never uses).
    pub fn read(text: &str) -> Result<SavedSession, LinkError> {
        let text = text.trim();
        if text.starts_with('{') {
            Self::from_json(text)
        } else {
            Self::decode(text)
        }
    }

    fn from_json(json: &str) -> Result<SavedSession, LinkError> {
        // Read the version first, so a newer format is named as such rather than as garbage.
        let version: Version =
            serde_json::from_str(json).map_err(|e| LinkError::NotASession(e.to_string()))?;
        match version.v {
            None => return Err(LinkError::NotASession("no format version".to_string())),
            Some(v) if v > u64::from(VERSION) => {
                return Err(LinkError::FromTheFuture {
                    found: u32::try_from(v).unwrap_or(u32::MAX),
                })
            }
            Some(_) => {}
        }
        crate::format::parse(json).map_err(|e| LinkError::NotASession(e.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Command, MemberSpec};
    use crate::presets::Preset;
    use crate::views::frame::Frame;

    #[test]
    fn a_link_after_a_fork_keeps_only_the_current_history() {
        let scenario = Preset::find("scale-up-running")
            .expect("preset")
            .scenario()
            .expect("parses");
        let mut s = Session::new(scenario, &[]).expect("starts");
        s.seek(3_000).expect("runs");
        s.seek(1_000).expect("back");
        s.command(Command::Crash("S3".into()))
            .expect("forks before S5 joins");
        let saved = SavedSession::capture(&s, ViewMode::Single, None);
        let joins: Vec<_> = saved
            .scenario
            .commands
            .iter()
            .filter_map(|e| e.join.clone())
            .collect();
        assert_eq!(
            joins,
            ["S4"],
            "S5's join at 2000 ms was dropped by the fork"
        );
        let back = saved.restore().expect("restores");
        assert_eq!(back.main().view(), s.main().view());
    }

    fn session() -> Session {
        let scenario = Preset::find("scale-down-running")
            .expect("preset")
            .scenario()
            .expect("parses");
        let mut s = Session::new(scenario, &[Strategy::Learner, Strategy::Eager]).expect("starts");
        s.seek(3_000).expect("runs");
        s.command(Command::Join(MemberSpec {
            name: "S7".into(),
            capacity: 2,
            restore_rate: Some(4_000),
            zone: None,
        }))
        .expect("joins");
        s.seek(7_500).expect("runs");
        s
    }

    #[test]
    fn a_link_reproduces_the_same_view() {
        let s = session();
        let text = SavedSession::capture(&s, ViewMode::Compare, None).encode();
        assert!(text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "+-$".contains(c)));
        let saved = SavedSession::decode(&text).expect("decodes");
        assert_eq!(saved.view, ViewMode::Compare);
        let back = saved.restore().expect("restores");
        assert_eq!(back.clock(), 7_500);
        for (a, b) in s.lanes().iter().zip(back.lanes()) {
            assert_eq!(a.strategy, b.strategy);
            assert_eq!(Frame::of(a.view()), Frame::of(b.view()));
            assert_eq!(a.view(), b.view());
        }
    }

    #[test]
    fn a_link_carries_the_topology_not_every_task() {
        let scenario = Scenario::from_json(include_str!(
            "../../scenarios/review/scale-out-under-load.json"
        ))
        .expect("parses");
        let mut s = Session::new(scenario, &[Strategy::Learner]).expect("starts");
        s.seek(70_000).expect("runs");
        let saved = SavedSession::capture(&s, ViewMode::Single, None);
        assert!(saved.scenario.tasks.is_empty() && saved.scenario.members.is_empty());
        assert!(saved.scenario.topology.is_some() && saved.scenario.instances.is_some());
        let text = saved.encode();
        assert!(text.len() < 2_000, "{} characters", text.len());
        let back = SavedSession::decode(&text)
            .expect("decodes")
            .restore()
            .expect("restores");
        assert_eq!(back.scenario(), s.scenario());
        assert_eq!(back.main().view(), s.main().view());
    }

    #[test]
    fn a_saved_session_is_read_from_its_json_or_from_a_link() {
        let saved = SavedSession::capture(&session(), ViewMode::Compare, None);
        let json = saved.to_json();
        assert!(json.starts_with("{\"v\":1,"), "{}", &json[..20]);
        assert_eq!(SavedSession::read(&json), Ok(saved.clone()));
        assert_eq!(
            SavedSession::read(&format!("  {json}\n")),
            Ok(saved.clone())
        );
        // An autosave written before autosaves were JSON is the link's text.
        assert_eq!(SavedSession::read(&saved.encode()), Ok(saved));
        assert!(matches!(
            SavedSession::read(&json[..json.len() / 2]),
            Err(LinkError::NotASession(_))
        ));
        assert!(matches!(
            SavedSession::read("{\"hello\": 1}"),
            Err(LinkError::NotASession(_))
        ));
        assert_eq!(
            SavedSession::read("{\"v\": 7, \"anything\": true}"),
            Err(LinkError::FromTheFuture { found: 7 })
        );
        assert_eq!(SavedSession::read("  "), Err(LinkError::Empty));
    }

    #[test]
    fn bad_links_are_named_not_panicked() {
        assert_eq!(SavedSession::decode(""), Err(LinkError::Empty));
        assert_eq!(
            SavedSession::decode("!!!notvalid###"),
            Err(LinkError::Damaged)
        );
        assert_eq!(SavedSession::decode("abc"), Err(LinkError::Damaged));
        let good = SavedSession::capture(&session(), ViewMode::Single, None).encode();
        let truncated = &good[..good.len() / 2];
        assert!(SavedSession::decode(truncated).is_err());
        let foreign = lz_str::compress_to_encoded_uri_component("{\"hello\": 1}");
        assert!(matches!(
            SavedSession::decode(&foreign),
            Err(LinkError::NotASession(_))
        ));
        let future = lz_str::compress_to_encoded_uri_component("{\"v\": 7, \"anything\": true}");
        assert_eq!(
            SavedSession::decode(&future),
            Err(LinkError::FromTheFuture { found: 7 })
        );
    }

    #[test]
    fn a_link_whose_history_cannot_replay_is_refused() {
        let mut saved = SavedSession::capture(&session(), ViewMode::Single, None);
        saved.scenario.commands.push(crate::format::CommandFile {
            at_ms: 100,
            crash: Some("S9".into()),
            ..Default::default()
        });
        assert!(matches!(saved.restore(), Err(LinkError::Scenario(_))));
        saved.scenario.commands.pop();
        saved.strategies = vec![Strategy::Learner; 5];
        assert_eq!(saved.restore().err(), Some(LinkError::Strategies(5)));
    }

    #[test]
    fn a_link_carries_restarts_and_zone_outages_mid_way() {
        let scenario = Preset::find("zone-failure")
            .expect("preset")
            .scenario()
            .expect("parses");
        let mut s = Session::new(scenario, &Strategy::ALL[..3]).expect("starts");
        s.seek(6_000).expect("runs");
        s.command(Command::RollingRestart {
            down_ms: 2_000,
            keep_state: false,
        })
        .expect("rolls");
        s.seek(7_000).expect("runs");
        s.command(Command::CrashZone("c".into())).expect("fails");
        s.seek(8_000).expect("runs");
        let text = SavedSession::capture(&s, ViewMode::Compare, None).encode();
        let back = SavedSession::decode(&text)
            .expect("decodes")
            .restore()
            .expect("restores");
        for (a, b) in s.lanes().iter().zip(back.lanes()) {
            assert!(a.view().rolling_restart().is_some(), "{}", a.strategy);
            assert_eq!(Frame::of(a.view()), Frame::of(b.view()));
            assert_eq!(a.view(), b.view());
        }
    }
}
