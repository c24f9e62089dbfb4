//! The member toolbar's new member as typed: its restore rate, capacity and zone, kept as the
//! text a person typed, read with the scenario format's own checks (each problem in one line
//! naming its field), and joined only when nothing is wrong.

use super::application::FieldError;
use super::{Effect, Playground};
use crate::format::member_spec;
use crate::model::{Command, MemberSpec};

/// A field of the new member.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JoinField {
    /// Records per second it restores (empty: the configuration's).
    RestoreRate,
    /// Its stream threads.
    Capacity,
    /// Its zone (empty: none).
    Zone,
}

impl JoinField {
    /// How its problems name it.
    pub fn path(self) -> &'static str {
        match self {
            JoinField::RestoreRate => "new member.restore_rate",
            JoinField::Capacity => "new member.capacity",
            JoinField::Zone => "new member.zone",
        }
    }
}

/// The new member as typed.
#[derive(Clone, Debug, PartialEq)]
pub struct JoinDraft {
    /// The restore rate as typed.
    pub restore_rate: String,
    /// The capacity as typed.
    pub capacity: String,
    /// The zone picked (`Some("")` for none), or the suggestion while nothing is picked.
    pub zone: Option<String>,
}

impl Default for JoinDraft {
    fn default() -> JoinDraft {
        JoinDraft {
            restore_rate: String::new(),
            capacity: "1".into(),
            zone: None,
        }
    }
}

/// What a person does in the member toolbar.
#[derive(Clone, Debug, PartialEq)]
pub enum JoinAction {
    /// A field changed to this text.
    Edit(JoinField, String),
    /// The new member joins, if nothing is wrong with it.
    Add,
}

/// A whole number of a field, or its problem.
fn whole<T: std::str::FromStr>(field: JoinField, text: &str) -> Result<T, FieldError> {
    text.trim().parse().map_err(|_| FieldError {
        field: field.path().into(),
        reason: if text.trim().is_empty() {
            "give a whole number".into()
        } else {
            format!("{:?} is not a whole number of at least 1", text.trim())
        },
    })
}

impl Playground {
    /// The zone the new member goes to, of the group's `zones`: the one picked while it still
    /// exists, else the suggestion (the zone with the fewest live members); none when no
    /// member has a zone.
    pub(super) fn join_zone(&self, zones: &[String]) -> Option<String> {
        self.join
            .zone
            .clone()
            .filter(|z| z.is_empty() || zones.contains(z))
            .or_else(|| super::suggested_zone(&self.shown.main().frame, zones))
            .filter(|z| !z.is_empty())
    }

    /// The new member the toolbar gives, or the problem of each field that is wrong.
    pub(super) fn join_spec(
        &self,
        name: &str,
        zone: Option<&str>,
    ) -> Result<MemberSpec, Vec<FieldError>> {
        let mut errors = Vec::new();
        let capacity = whole::<u32>(JoinField::Capacity, &self.join.capacity)
            .map_err(|e| errors.push(e))
            .ok();
        let rate = self.join.restore_rate.trim();
        let restore_rate = if rate.is_empty() {
            Some(None)
        } else {
            whole::<u64>(JoinField::RestoreRate, rate)
                .map(Some)
                .map_err(|e| errors.push(e))
                .ok()
        };
        let (Some(capacity), Some(restore_rate)) = (capacity, restore_rate) else {
            return Err(errors);
        };
        member_spec("new member", name, capacity, restore_rate, zone).map_err(|e| vec![e.into()])
    }

    /// Carries out what a person does in the member toolbar.
    pub(super) fn join_member(&mut self, action: JoinAction) -> Vec<Effect> {
        match action {
            JoinAction::Edit(JoinField::RestoreRate, text) => self.join.restore_rate = text,
            JoinAction::Edit(JoinField::Capacity, text) => self.join.capacity = text,
            JoinAction::Edit(JoinField::Zone, text) => self.join.zone = Some(text),
            JoinAction::Add => {
                let toolbar = self.toolbar();
                let (name, zone) = (toolbar.next_name, toolbar.zone);
                // Named from the group drawn, which may be behind the clock: the member takes
                // the first free name when it joins.
                return match self.join_spec(&name, zone.as_deref()) {
                    Ok(spec) => self.send_command(Command::Join(spec), true),
                    Err(_) => Vec::new(),
                };
            }
        }
        Vec::new()
    }
}
