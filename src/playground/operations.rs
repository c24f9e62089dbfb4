//! The operations controls (restarts, rolling restarts, zone outages) as plain data: the time
//! away and the disk choice every restart button uses, what a restart will do under the
//! scenario's membership, which zones can fail and the rolling restart under way; and the
//! zone a new member is suggested.

use super::{Effect, Playground};
use crate::model::{Command, MAX_DOWN_MS};
use crate::views::frame::{Frame, RollingView, ZoneView};
use crate::views::units::{back_in, exact_seconds};

/// How long a restart keeps its member away until the reader says otherwise: shorter than
/// the default session timeout, so static membership shows its point.
pub const DEFAULT_DOWN_MS: u64 = 6_000;

/// What every restart button (and the rolling restart) does: the time away, and whether the
/// member's stores survive (a persistent disk).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RestartChoice {
    /// How long the member is away, in ms.
    pub down_ms: u64,
    /// Its stores survive the restart.
    pub keep_state: bool,
}

impl Default for RestartChoice {
    fn default() -> Self {
        RestartChoice {
            down_ms: DEFAULT_DOWN_MS,
            keep_state: true,
        }
    }
}

impl RestartChoice {
    /// The restart of one member.
    pub fn restart(&self, member: &str) -> Command {
        Command::Restart {
            member: member.to_string(),
            down_ms: self.down_ms,
            keep_state: self.keep_state,
        }
    }

    /// A rolling restart of the group.
    pub fn rolling_restart(&self) -> Command {
        Command::RollingRestart {
            down_ms: self.down_ms,
            keep_state: self.keep_state,
        }
    }

    /// The choice in words: "away 6 s, keeps its disk".
    pub fn describe(&self) -> String {
        format!(
            "away {} s, {}",
            exact_seconds(self.down_ms),
            if self.keep_state {
                "keeps its disk"
            } else {
                "loses its disk"
            }
        )
    }
}

/// Why a time away typed in seconds was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DownTimeError {
    /// Nothing was typed.
    #[error("time away: write how many seconds a restarted member is away (above 0, at most {}: a day)", MAX_DOWN_MS / 1000)]
    Empty,
    /// What was typed is not a time above 0 and at most a day.
    #[error("time away: write seconds above 0 and at most {max} (a day), not \"{0}\"", max = MAX_DOWN_MS / 1000)]
    Unreadable(String),
}

/// Reads a time away typed in seconds (`6`, `0.5`, `12.25`) exactly, to the millisecond: at
/// most three decimals, more than 0, at most a day.
pub fn parse_down_time(text: &str) -> Result<u64, DownTimeError> {
    let text = text.trim();
    let refuse = || DownTimeError::Unreadable(text.to_string());
    if text.is_empty() {
        return Err(DownTimeError::Empty);
    }
    let (whole, part) = text.split_once('.').unwrap_or((text, ""));
    let digits = |s: &str| s.chars().all(|c| c.is_ascii_digit());
    if (whole.is_empty() && part.is_empty()) || part.len() > 3 || !digits(whole) || !digits(part) {
        return Err(refuse());
    }
    let whole: u64 = if whole.is_empty() {
        0
    } else {
        whole.parse().map_err(|_| refuse())?
    };
    let part: u64 = if part.is_empty() {
        0
    } else {
        format!("{part:0<3}").parse().map_err(|_| refuse())?
    };
    let ms = whole
        .checked_mul(1000)
        .and_then(|w| w.checked_add(part))
        .ok_or_else(refuse)?;
    if ms == 0 || ms > MAX_DOWN_MS {
        return Err(refuse());
    }
    Ok(ms)
}

/// A rolling restart under way, in words: who is away, who is next.
fn rolling_words(rolling: &RollingView, frame: &Frame) -> String {
    let next = match rolling.remaining.as_slice() {
        [] => "the last one".to_string(),
        [one] => format!("then {one}"),
        [first, rest @ ..] => format!("then {first} and {} more", rest.len()),
    };
    let away = |name: &str| {
        frame
            .cards
            .iter()
            .find(|c| c.name == name)
            .and_then(|c| c.restart.filter(|_| c.status.restarting()))
    };
    match &rolling.current {
        None => match rolling.remaining.first() {
            Some(first) => format!(
                "Rolling restart: {first} first, once the group is at rest ({} to go)",
                rolling.remaining.len()
            ),
            None => "Rolling restart: nothing left to restart".to_string(),
        },
        Some(current) => match away(current) {
            Some(c) => format!(
                "Rolling restart: {current} is restarting, {} \u{00B7} {next}",
                back_in(c.back_in_ms)
            ),
            None if rolling.remaining.is_empty() => {
                format!("Rolling restart: {current} is back, the last one")
            }
            None => format!(
                "Rolling restart: {current} is back \u{00B7} {next}, once the group is at rest"
            ),
        },
    }
}

/// Everything the operations controls show.
#[derive(Clone, Debug, PartialEq)]
pub struct Operations {
    /// What a restart button does.
    pub restart: RestartChoice,
    /// The time away, in seconds, as typed.
    pub down_time: String,
    /// Why the time away typed does not read (the restart buttons use the last that did).
    pub down_time_problem: Option<String>,
    /// What a restart will do under this membership and session timeout, in words.
    pub outcome: String,
    /// Whether a rolling restart would be taken now (by every lane).
    pub can_rolling_restart: bool,
    /// The rolling restart under way, in words, if any.
    pub rolling: Option<String>,
    /// The zones; `can_crash` only where every lane would take the outage.
    pub zones: Vec<ZoneView>,
}

/// The zone a new member is suggested among the group's `zones`: the one with the fewest
/// live members (the first by name among equals), as a deployment spreads its members; none
/// when no member has a zone.
pub fn suggested_zone(frame: &Frame, zones: &[String]) -> Option<String> {
    let live = frame
        .cards
        .iter()
        .filter(|c| c.status.alive())
        .filter_map(|c| c.zone.as_deref());
    least_used_zone(zones, live)
}

/// Of `zones` (in name order), the one the fewest of `members` (their zones) are in, the
/// first among equals; none when there are no zones.
pub fn least_used_zone<'a>(
    zones: &[String],
    members: impl Iterator<Item = &'a str> + Clone,
) -> Option<String> {
    zones
        .iter()
        .min_by_key(|zone| members.clone().filter(|m| m == zone).count())
        .cloned()
}

impl Playground {
    /// Sets the restart's time away from what was typed, which the field keeps as typed; a
    /// slip is named beside the field and the last good time kept (the clock plays on).
    pub(super) fn set_down_time(&mut self, text: String) -> Vec<Effect> {
        let problem = match parse_down_time(&text) {
            Ok(ms) => {
                self.restart.down_ms = ms;
                None
            }
            Err(e) => Some(e.to_string()),
        };
        self.down_time = (text, problem);
        Vec::new()
    }

    /// What every restart button does now.
    pub fn restart_choice(&self) -> RestartChoice {
        self.restart
    }

    /// The operations controls, read off the main lane's frame (a command is refused unless
    /// every lane takes it, so a control is enabled only then).
    pub fn operations(&self, frame: &Frame) -> Operations {
        let config = &self.scenario().config;
        let checks = &self.shown.moment().checks;
        let timeout = exact_seconds(config.session_timeout_ms);
        let outcome = match config.static_membership {
            true if self.restart.down_ms < config.session_timeout_ms => format!(
                "Static membership: back within the {timeout} s session timeout, a member gets its tasks back without a rebalance."
            ),
            true => format!(
                "Static membership, but away longer than the {timeout} s session timeout: a member is removed, then rejoins."
            ),
            false => format!(
                "Dynamic membership: a restarted member comes back as a new one (a rebalance); its old session times out after {timeout} s."
            ),
        };
        Operations {
            restart: self.restart,
            down_time: self.down_time.0.clone(),
            down_time_problem: self.down_time.1.clone(),
            outcome,
            can_rolling_restart: frame.can_rolling_restart && checks.rolling_restart,
            rolling: frame
                .rolling_restart
                .as_ref()
                .map(|r| rolling_words(r, frame)),
            zones: frame
                .zones
                .iter()
                .enumerate()
                .map(|(i, z)| ZoneView {
                    can_crash: z.can_crash && checks.crash_zone.get(i).copied().unwrap_or(false),
                    ..z.clone()
                })
                .collect(),
        }
    }
}
