//! Finding a task or a member by name in the group (a large group is drawn compactly, so
//! the reader asks where something is): what it is and where, in words.

use crate::views::frame::{ChipRole, Frame};

/// Where a task or a member looked for by name is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// The name looked for, as the group spells it.
    pub name: String,
    /// What it is and where, in words.
    pub text: String,
    /// The member to bring into view (the member itself, or the task's active owner).
    pub member: Option<String>,
}

/// Above this many tasks, members show their tasks as small marks in one drawing rather than one
/// chip (a few DOM nodes) each: hundreds of chips changing every frame cost more than a
/// frame, and no eye reads them one by one.
pub const COMPACT_TASKS: usize = 150;

/// Looks a task or a member up by name (case does not matter) in a frame, whose tasks are
/// named `tasks`.
pub fn find(frame: &Frame, tasks: &[String], query: &str) -> Option<Found> {
    let query = query.trim();
    if query.is_empty() {
        return None;
    }
    let same = |name: &str| name.eq_ignore_ascii_case(query);
    if let Some(card) = frame.cards.iter().find(|c| same(&c.name)) {
        let count = |role: ChipRole| card.chips.iter().filter(|c| c.role == role).count();
        let down = card
            .chips
            .iter()
            .filter(|c| c.role == ChipRole::Active && !c.up)
            .count();
        return Some(Found {
            name: card.name.clone(),
            text: format!(
                "{}: {}{}{}{}, {} active ({} {}), {} learning, {} standby",
                card.name,
                card.status.name(),
                card.restart
                    .map(|c| format!(", {}", crate::views::units::back_in(c.back_in_ms)))
                    .unwrap_or_default(),
                card.zone
                    .as_ref()
                    .map(|z| format!(", zone {z}"))
                    .unwrap_or_default(),
                if card.leader { ", leader" } else { "" },
                count(ChipRole::Active),
                down,
                // A restarting member's tasks are not restoring: they wait for it.
                if card.restart.is_some() {
                    "down"
                } else {
                    "restoring"
                },
                count(ChipRole::Learner),
                count(ChipRole::Standby)
            ),
            member: Some(card.name.clone()),
        });
    }
    let Some(task) = tasks.iter().find(|t| same(t)) else {
        return Some(Found {
            name: query.to_string(),
            text: format!("No task or member is named \"{query}\"."),
            member: None,
        });
    };
    let mut places = Vec::new();
    let mut owner = None;
    for card in frame.cards.iter() {
        for chip in card.chips.iter().filter(|c| *c.name == **task) {
            let state = match chip.role {
                ChipRole::Active if chip.up => "running".to_string(),
                ChipRole::Active => format!("restoring, {}% replayed", chip.progress),
                ChipRole::Learner if chip.ready => "ready".to_string(),
                _ => format!("{}% replayed", chip.progress),
            };
            if chip.role == ChipRole::Active {
                owner = Some(card.name.clone());
            }
            places.push(format!("{} on {} ({state})", chip.role.name(), card.name));
        }
    }
    if frame.unowned.iter().any(|c| *c.name == **task) {
        places.push("no member runs it (down)".to_string());
    }
    Some(Found {
        name: task.to_string(),
        text: format!("{task}: {}", places.join(" \u{00B7} ")),
        member: owner,
    })
}
