//! The timeline editor's command editor, as the playground keeps it: a new command's or a
//! scheduled one's fields as typed (nothing typed is changed or lost while it does not read),
//! each problem beside its field, checked on every edit; submitted, an unchanged command just
//! closes, a good one is scheduled (or replaces the one edited) and a bad one stays with its
//! problems. Any change to the scheduled commands (this editor's, a drag, a command at the
//! clock, another scenario) closes it: what it was opened on is gone.

use super::schedule::{CommandKind, Schedule, ScheduleEdit};
use super::{Effect, Playground};
use crate::model::{Command, MemberSpec, TimedCommand};

/// A field of the command editor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DraftField {
    /// When, in ms.
    At,
    /// The member the command names (a new one for a join).
    Member,
    /// A joining member's capacity.
    Capacity,
    /// A joining member's restore rate (empty: the configuration's).
    RestoreRate,
    /// A joining member's zone, or the zone of an outage.
    Zone,
    /// How long a restart keeps its member away, in ms.
    Down,
    /// Whether a restart keeps the member's stores (`true` or `false`).
    KeepState,
}

impl DraftField {
    /// What the editor calls it, as its problems name it.
    pub fn label(self) -> &'static str {
        match self {
            DraftField::At => "at (ms)",
            DraftField::Member => "member",
            DraftField::Capacity => "capacity",
            DraftField::RestoreRate => "restore rate",
            DraftField::Zone => "zone",
            DraftField::Down => "down time (ms)",
            DraftField::KeepState => "keeps its state",
        }
    }
}

/// What is wrong with a field as typed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DraftError {
    /// The field.
    pub field: DraftField,
    /// Why, in a few words.
    pub reason: String,
}

impl std::fmt::Display for DraftError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.field.label(), self.reason)
    }
}

/// A command as typed in the editor, to add one or change one.
#[derive(Clone, Debug, PartialEq)]
pub struct CommandDraft {
    /// Its kind.
    pub kind: CommandKind,
    /// When, in ms.
    pub at_ms: String,
    /// The member it names (a new one for a join).
    pub member: String,
    /// A joining member's capacity.
    pub capacity: String,
    /// A joining member's restore rate (empty: the configuration's).
    pub restore_rate: String,
    /// A joining member's zone, or the zone of an outage.
    pub zone: String,
    /// How long a restart keeps its member away, in ms.
    pub down_ms: String,
    /// A restart keeps the member's stores.
    pub keep_state: bool,
}

/// A whole number as typed in `field`, or its problem.
fn whole<T: std::str::FromStr>(
    errors: &mut Vec<DraftError>,
    field: DraftField,
    text: &str,
) -> Option<T> {
    let text = text.trim();
    let reason = if text.is_empty() || !text.chars().all(|c| c.is_ascii_digit()) {
        format!("give a whole number, not \"{text}\"")
    } else {
        match text.parse() {
            Ok(v) => return Some(v),
            Err(_) => format!("{text} is too large"),
        }
    };
    errors.push(DraftError { field, reason });
    None
}

impl CommandDraft {
    /// A new command of a kind at a moment, with the schedule's first member and zone.
    pub fn new(kind: CommandKind, at_ms: u64, schedule: &Schedule) -> CommandDraft {
        CommandDraft {
            kind,
            at_ms: at_ms.to_string(),
            member: match kind {
                CommandKind::Join => schedule.next_member.clone(),
                _ => schedule.members.first().cloned().unwrap_or_default(),
            },
            capacity: "1".into(),
            restore_rate: String::new(),
            zone: match kind {
                CommandKind::CrashZone => schedule.zones.first().cloned().unwrap_or_default(),
                _ => String::new(),
            },
            down_ms: "30000".into(),
            keep_state: true,
        }
    }

    /// A fresh draft of another kind, keeping the moment as typed (read or not).
    pub fn of_kind(&self, kind: CommandKind, schedule: &Schedule) -> CommandDraft {
        CommandDraft {
            at_ms: self.at_ms.clone(),
            ..CommandDraft::new(kind, 0, schedule)
        }
    }

    /// The draft of a scheduled command, to change it.
    pub fn of(command: &TimedCommand) -> CommandDraft {
        let mut draft = CommandDraft {
            kind: CommandKind::of(&command.command),
            at_ms: command.at_ms.to_string(),
            member: String::new(),
            capacity: "1".into(),
            restore_rate: String::new(),
            zone: String::new(),
            down_ms: "30000".into(),
            keep_state: true,
        };
        match &command.command {
            Command::Join(spec) => {
                draft.member.clone_from(&spec.name);
                draft.capacity = spec.capacity.to_string();
                draft.restore_rate = spec.restore_rate.map(|r| r.to_string()).unwrap_or_default();
                draft.zone = spec.zone.clone().unwrap_or_default();
            }
            Command::Drain(m) | Command::Crash(m) => draft.member.clone_from(m),
            Command::Restart {
                member,
                down_ms,
                keep_state,
            } => {
                draft.member.clone_from(member);
                draft.down_ms = down_ms.to_string();
                draft.keep_state = *keep_state;
            }
            Command::RollingRestart {
                down_ms,
                keep_state,
            } => {
                draft.down_ms = down_ms.to_string();
                draft.keep_state = *keep_state;
            }
            Command::CrashZone(zone) => draft.zone.clone_from(zone),
            Command::CrashLeader => {}
        }
        draft
    }

    /// Sets a field to the text typed (`true` or `false` for whether a restart keeps state).
    pub fn set(&mut self, field: DraftField, text: String) {
        match field {
            DraftField::At => self.at_ms = text,
            DraftField::Member => self.member = text,
            DraftField::Capacity => self.capacity = text,
            DraftField::RestoreRate => self.restore_rate = text,
            DraftField::Zone => self.zone = text,
            DraftField::Down => self.down_ms = text,
            DraftField::KeepState => self.keep_state = text == "true",
        }
    }

    /// The command, or every field of its kind that does not read, in the editor's order.
    /// Whether the group can carry it out is judged when it is scheduled.
    pub fn command(&self) -> Result<TimedCommand, Vec<DraftError>> {
        let mut errors = Vec::new();
        let at_ms = whole::<u64>(&mut errors, DraftField::At, &self.at_ms);
        let mut member = || {
            let name = self.member.trim();
            if name.is_empty() {
                errors.push(DraftError {
                    field: DraftField::Member,
                    reason: "choose a member".into(),
                });
            }
            name.to_string()
        };
        let name = match self.kind {
            CommandKind::Join | CommandKind::Drain | CommandKind::Crash | CommandKind::Restart => {
                member()
            }
            _ => String::new(),
        };
        let command =
            match self.kind {
                CommandKind::Join => {
                    let capacity = whole(&mut errors, DraftField::Capacity, &self.capacity);
                    let restore_rate = match self.restore_rate.trim() {
                        "" => Some(None),
                        rate => whole(&mut errors, DraftField::RestoreRate, rate).map(Some),
                    };
                    let zone = Some(self.zone.trim().to_string()).filter(|z| !z.is_empty());
                    capacity.zip(restore_rate).map(|(capacity, restore_rate)| {
                        Command::Join(MemberSpec {
                            name,
                            capacity,
                            restore_rate,
                            zone,
                        })
                    })
                }
                CommandKind::Drain => Some(Command::Drain(name)),
                CommandKind::Crash => Some(Command::Crash(name)),
                CommandKind::CrashLeader => Some(Command::CrashLeader),
                CommandKind::Restart => {
                    whole(&mut errors, DraftField::Down, &self.down_ms).map(|down_ms| {
                        Command::Restart {
                            member: name,
                            down_ms,
                            keep_state: self.keep_state,
                        }
                    })
                }
                CommandKind::RollingRestart => whole(&mut errors, DraftField::Down, &self.down_ms)
                    .map(|down_ms| Command::RollingRestart {
                        down_ms,
                        keep_state: self.keep_state,
                    }),
                CommandKind::CrashZone => match self.zone.trim() {
                    "" => {
                        errors.push(DraftError {
                            field: DraftField::Zone,
                            reason: "choose a zone".into(),
                        });
                        None
                    }
                    zone => Some(Command::CrashZone(zone.to_string())),
                },
            };
        match (at_ms, command) {
            (Some(at_ms), Some(command)) if errors.is_empty() => {
                Ok(TimedCommand { at_ms, command })
            }
            _ => Err(errors),
        }
    }
}

/// The command editor open: on a new command, or on a scheduled one.
#[derive(Clone, Debug, PartialEq)]
pub struct CommandEditor {
    /// The scheduled command being changed (its index in the history's commands), or none
    /// for a new one.
    pub index: Option<usize>,
    /// The fields as typed.
    pub draft: CommandDraft,
    /// Every problem of the draft, in the editor's order.
    pub errors: Vec<DraftError>,
}

impl CommandEditor {
    /// An editor over a draft, checked.
    fn new(index: Option<usize>, draft: CommandDraft) -> CommandEditor {
        let mut editor = CommandEditor {
            index,
            draft,
            errors: Vec::new(),
        };
        editor.recheck();
        editor
    }

    fn recheck(&mut self) {
        self.errors = self.draft.command().err().unwrap_or_default();
    }

    /// The problem of a field, if it has one.
    pub fn error(&self, field: DraftField) -> Option<&DraftError> {
        self.errors.iter().find(|e| e.field == field)
    }
}

/// What a person does to the command editor.
#[derive(Clone, Debug, PartialEq)]
pub enum EditorAction {
    /// Open it on a new command at a moment (a join, with the next free name).
    New(u64),
    /// Open it on a new command at the clock (the schedule is not drawn again as the clock
    /// moves, so it does not carry the clock).
    NewAtClock,
    /// Select a scheduled command and open it on that command.
    Scheduled(usize),
    /// Another kind of command, keeping the moment as typed.
    Kind(CommandKind),
    /// A field changed to this text.
    Type(DraftField, String),
    /// Schedule the draft (or change the command edited to it).
    Submit,
    /// Close it; nothing is scheduled.
    Close,
}

impl Playground {
    /// The command editor, while it is open.
    pub fn command_editor(&self) -> Option<&CommandEditor> {
        self.command_editor.as_ref()
    }

    /// Carries out what a person does to the command editor.
    pub(super) fn edit_command(&mut self, action: EditorAction) -> Vec<Effect> {
        match action {
            EditorAction::New(at_ms) => {
                let draft = CommandDraft::new(CommandKind::Join, at_ms, &self.schedule());
                self.command_editor = Some(CommandEditor::new(None, draft));
            }
            EditorAction::NewAtClock => return self.edit_command(EditorAction::New(self.clock())),
            EditorAction::Scheduled(index) => {
                let Some(command) = self.commands().get(index).cloned() else {
                    return Vec::new();
                };
                self.selected_command = Some(index);
                self.command_editor =
                    Some(CommandEditor::new(Some(index), CommandDraft::of(&command)));
            }
            EditorAction::Kind(kind) => {
                let schedule = self.schedule();
                if let Some(editor) = &mut self.command_editor {
                    editor.draft = editor.draft.of_kind(kind, &schedule);
                    editor.recheck();
                }
            }
            EditorAction::Type(field, text) => {
                if let Some(editor) = &mut self.command_editor {
                    editor.draft.set(field, text);
                    editor.recheck();
                }
            }
            EditorAction::Submit => return self.submit_command(),
            EditorAction::Close => self.command_editor = None,
        }
        Vec::new()
    }

    /// Submits the editor's draft: with a problem nothing happens (the problems are shown);
    /// a scheduled command left as it was just closes the editor; otherwise the command is
    /// scheduled, or replaces the one edited, and the editor closes if the group can carry
    /// it out (if not, the page's error says why and what was typed stays).
    fn submit_command(&mut self) -> Vec<Effect> {
        let Some(editor) = &self.command_editor else {
            return Vec::new();
        };
        let Ok(command) = editor.draft.command() else {
            return Vec::new();
        };
        let commands = self.commands();
        let edit = match editor.index {
            Some(index) if commands.get(index) == Some(&command) => {
                self.command_editor = None;
                return Vec::new();
            }
            Some(index) => ScheduleEdit::Replace { index, command },
            None => ScheduleEdit::Add(command),
        };
        self.edit_schedule(edit)
    }
}
