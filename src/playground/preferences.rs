//! The reader's preferences (theme, motion, shortcuts), kept across visits as a small JSON
//! object; the first format (`theme=dark;motion=reduce;shortcuts=off`) is still read, so a
//! returning reader keeps their choices.

use super::action::{Preference, Theme};
use super::{Effect, Playground};
use serde::{Deserialize, Serialize};

/// Where the preferences are kept now (JSON).
pub const PREFERENCES_KEY: &str = "handoff.preferences.v2";

/// Where the first format was kept; read once, then moved to [`PREFERENCES_KEY`].
pub const LEGACY_PREFERENCES_KEY: &str = "handoff.preferences.v1";

/// Choices the reader made; each overrides what the system suggests. `None`: never chosen.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Preferences {
    /// Light or dark.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub theme: Option<Theme>,
    /// Chip movements animate.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub motion: Option<bool>,
    /// Single-key shortcuts are on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shortcuts: Option<bool>,
}

impl Preferences {
    /// Reads the first format: `;`-separated `key=value` settings; anything else is ignored.
    pub fn from_legacy(text: &str) -> Preferences {
        let mut p = Preferences::default();
        for setting in text.split(';') {
            match setting.trim() {
                "theme=dark" => p.theme = Some(Theme::Dark),
                "theme=light" => p.theme = Some(Theme::Light),
                "motion=reduce" => p.motion = Some(false),
                "motion=full" => p.motion = Some(true),
                "shortcuts=off" => p.shortcuts = Some(false),
                "shortcuts=on" => p.shortcuts = Some(true),
                _ => {}
            }
        }
        p
    }
}

impl Playground {
    /// Sets a preference and saves them all.
    pub(super) fn set_preference(&mut self, preference: Preference) -> Vec<Effect> {
        match preference {
            Preference::Shortcuts(on) => self.shortcuts = on,
            Preference::Theme(theme) => self.theme = theme,
            Preference::Motion(on) => self.motion = on,
        }
        vec![Effect::SavePreferences(self.preferences())]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_format_is_still_read() {
        let p = Preferences::from_legacy("theme=dark;motion=reduce;shortcuts=off");
        assert_eq!(
            p,
            Preferences {
                theme: Some(Theme::Dark),
                motion: Some(false),
                shortcuts: Some(false),
            }
        );
        let partial = Preferences::from_legacy("motion=full;colour=pink;");
        assert_eq!(partial.motion, Some(true));
        assert_eq!((partial.theme, partial.shortcuts), (None, None));
        assert_eq!(Preferences::from_legacy("garbage"), Preferences::default());
    }

    #[test]
    fn preferences_round_trip_as_json() {
        let p = Preferences {
            theme: Some(Theme::Light),
            motion: None,
            shortcuts: Some(true),
        };
        let text = serde_json::to_string(&p).expect("serializes");
        assert_eq!(text, r#"{"theme":"light","shortcuts":true}"#);
        assert_eq!(
            serde_json::from_str::<Preferences>(&text).expect("reads"),
            p
        );
        assert_eq!(
            serde_json::from_str::<Preferences>("{}").expect("reads"),
            Preferences::default()
        );
    }
}
