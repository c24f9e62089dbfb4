//! The style sheet's colours for what is drawn on canvases (Okabe-Ito, per theme); the names
//! follow the style sheet's variables.

/// The theme's colours, as the style sheet has them.
pub struct Colours {
    /// Active tasks, the leader.
    pub active: &'static str,
    /// Learners replaying.
    pub learner: &'static str,
    /// Standby replicas.
    pub standby: &'static str,
    /// Learners ready.
    pub ready: &'static str,
    /// Actives some learner replays.
    pub learned: &'static str,
    /// The panel behind.
    pub panel: &'static str,
    /// Text and rings.
    pub ink: &'static str,
    /// Tasks down.
    pub down: &'static str,
    /// Text about tasks down, on the panel.
    pub down_ink: &'static str,
    /// Quiet text and grid.
    pub muted: &'static str,
    /// Separators.
    pub line: &'static str,
    /// Text on an active colour.
    pub chip_ink: &'static str,
    /// A member restarting.
    pub restart: &'static str,
}

/// The light theme.
pub const LIGHT: Colours = Colours {
    active: "#0072b2",
    learner: "#e69f00",
    standby: "#009e73",
    ready: "#009e73",
    learned: "#cc79a7",
    panel: "#ffffff",
    ink: "#1d1d1f",
    down: "#d55e00",
    down_ink: "#b04a00",
    muted: "#5c5c66",
    line: "#d4d4da",
    chip_ink: "#ffffff",
    restart: "#cc79a7",
};

/// The dark theme.
pub const DARK: Colours = Colours {
    active: "#56b4e9",
    learner: "#e69f00",
    standby: "#2bc18f",
    ready: "#2bc18f",
    learned: "#e08dbd",
    panel: "#1e1e23",
    ink: "#ececf1",
    down: "#ff7a3d",
    down_ink: "#ff7a3d",
    muted: "#a8a8b3",
    line: "#3a3a44",
    chip_ink: "#0d0d10",
    restart: "#e08dbd",
};

/// `a` mixed with `b`, `share` of it `a` (as the style sheet's `color-mix(in srgb, ...)`), for
/// colours written `#rrggbb`; `b` when `a` is written otherwise.
pub fn mix(a: &str, b: &str, share: f64) -> String {
    let channels = |c: &str| -> Option<[f64; 3]> {
        let hex = c.strip_prefix('#').filter(|h| h.len() == 6)?;
        let at = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).ok().map(f64::from);
        Some([at(0)?, at(2)?, at(4)?])
    };
    match (channels(a), channels(b)) {
        (Some(a), Some(b)) => {
            let c = |i: usize| (a[i] * share + b[i] * (1.0 - share)).round() as u8;
            format!("#{:02x}{:02x}{:02x}", c(0), c(1), c(2))
        }
        _ => b.to_string(),
    }
}
