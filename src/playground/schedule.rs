//! The timeline editor: the scheduled commands of the history being viewed (the scenario's and
//! the person's) as marks on the scrubber's track, which a person adds, moves, changes and
//! deletes. An edit rebuilds the scenario with the edited commands and runs it again to the
//! clock: the history is deterministic, so everything before the edit is as it was, and after
//! it is what the edited scenario gives. An edit the scenario refuses (a command naming a
//! member that is not there by then, a drain after the crash) is named in one line and changes
//! nothing.

use super::requests::{Awaiting, Edit};
use super::wire::{Request, Timed};
use super::{Effect, Playground};
use crate::model::{Command, Scenario, TimedCommand};
use crate::views::units::moment;
use std::collections::BTreeSet;
use std::rc::Rc;

/// A change to the scheduled commands (indices are positions in the history's commands).
#[derive(Clone, Debug, PartialEq)]
pub enum ScheduleEdit {
    /// Select a mark, or none (which closes the command editor too).
    Select(Option<usize>),
    /// Schedule a new command.
    Add(TimedCommand),
    /// Move a command to another moment.
    Move {
        /// Which.
        index: usize,
        /// Its new moment.
        at_ms: u64,
    },
    /// Replace a command (its kind, member, settings or moment).
    Replace {
        /// Which.
        index: usize,
        /// What it becomes.
        command: TimedCommand,
    },
    /// Delete a command.
    Delete(usize),
}

/// The kinds of command a person can schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CommandKind {
    /// A new member joins.
    Join,
    /// A member drains.
    Drain,
    /// A member crashes.
    Crash,
    /// Whoever leads then crashes.
    CrashLeader,
    /// A member restarts.
    Restart,
    /// Every member restarts in turn.
    RollingRestart,
    /// A zone goes dark.
    CrashZone,
}

impl CommandKind {
    /// Every kind, in the order the add menu offers them.
    pub const ALL: [CommandKind; 7] = [
        CommandKind::Join,
        CommandKind::Drain,
        CommandKind::Crash,
        CommandKind::CrashLeader,
        CommandKind::Restart,
        CommandKind::RollingRestart,
        CommandKind::CrashZone,
    ];

    /// The kind of a command.
    pub fn of(command: &Command) -> CommandKind {
        match command {
            Command::Join(_) => CommandKind::Join,
            Command::Drain(_) => CommandKind::Drain,
            Command::Crash(_) => CommandKind::Crash,
            Command::CrashLeader => CommandKind::CrashLeader,
            Command::Restart { .. } => CommandKind::Restart,
            Command::RollingRestart { .. } => CommandKind::RollingRestart,
            Command::CrashZone(_) => CommandKind::CrashZone,
        }
    }

    /// A stable id (a select's value, a mark's data attribute).
    pub fn id(self) -> &'static str {
        match self {
            CommandKind::Join => "join",
            CommandKind::Drain => "drain",
            CommandKind::Crash => "crash",
            CommandKind::CrashLeader => "crash-leader",
            CommandKind::Restart => "restart",
            CommandKind::RollingRestart => "rolling-restart",
            CommandKind::CrashZone => "crash-zone",
        }
    }

    /// The kind with this id.
    pub fn from_id(id: &str) -> Option<CommandKind> {
        CommandKind::ALL.into_iter().find(|k| k.id() == id)
    }

    /// What the menu calls it.
    pub fn label(self) -> &'static str {
        match self {
            CommandKind::Join => "join",
            CommandKind::Drain => "drain",
            CommandKind::Crash => "crash",
            CommandKind::CrashLeader => "crash the leader",
            CommandKind::Restart => "restart",
            CommandKind::RollingRestart => "rolling restart",
            CommandKind::CrashZone => "zone outage",
        }
    }

    /// The mark's sign on the track.
    pub fn glyph(self) -> &'static str {
        match self {
            CommandKind::Join => "+",
            CommandKind::Drain => "\u{2193}",
            CommandKind::Crash => "\u{2715}",
            CommandKind::CrashLeader => "\u{2605}",
            CommandKind::Restart => "\u{21BB}",
            CommandKind::RollingRestart => "\u{21BB}\u{21BB}",
            CommandKind::CrashZone => "Z",
        }
    }

    /// Whether it names a member of the group.
    pub fn names_member(self) -> bool {
        matches!(
            self,
            CommandKind::Drain | CommandKind::Crash | CommandKind::Restart
        )
    }
}

/// A scheduled command on the track.
#[derive(Clone, Debug, PartialEq)]
pub struct ScheduleMark {
    /// When.
    pub at_ms: u64,
    /// What, in words (`crash S2`).
    pub what: String,
    /// Its kind.
    pub kind: CommandKind,
    /// The row it is drawn on, so that marks close in time do not cover one another.
    pub row: u8,
    /// Carried out by the clock.
    pub done: bool,
    /// The command itself, for its editor.
    pub command: TimedCommand,
}

/// What the timeline editor shows and offers.
#[derive(Clone, Debug, PartialEq)]
pub struct Schedule {
    /// The scheduled commands, in time order.
    pub marks: Vec<ScheduleMark>,
    /// The mark selected.
    pub selected: Option<usize>,
    /// The track's end (the scrubber's).
    pub scale: u64,
    /// An arrow key moves a command this far.
    pub step_ms: u64,
    /// Shift and an arrow key move it this far.
    pub big_step_ms: u64,
    /// A dragged command lands on a multiple of this.
    pub snap_ms: u64,
    /// Members of the scenario, at the start or joining, for the menus.
    pub members: Rc<Vec<String>>,
    /// Zones of the scenario's members.
    pub zones: Rc<Vec<String>>,
    /// The name a new member gets.
    pub next_member: String,
}

/// Rows marks are stacked on at most.
const ROWS: u8 = 3;

/// The members for the timeline editor's menus (at the start, then those that join, each
/// once), their zones, and the name a new member gets. Read again only when the commands
/// change: a group of hundreds is a set of hundreds of names.
fn menu_names(scenario: &Scenario, commands: &[TimedCommand]) -> super::screen::MenuNames {
    let mut members: Vec<String> = Vec::new();
    let mut named: BTreeSet<&str> = BTreeSet::new();
    let mut zones: Vec<String> = Vec::new();
    let joined = commands.iter().filter_map(|c| match &c.command {
        Command::Join(spec) => Some(spec),
        _ => None,
    });
    for spec in scenario.members.iter().chain(joined) {
        if named.insert(&spec.name) {
            members.push(spec.name.clone());
        }
        if let Some(zone) = &spec.zone {
            if !zones.contains(zone) {
                zones.push(zone.clone());
            }
        }
    }
    zones.sort();
    let next_member = (1..)
        .map(|i| format!("S{i}"))
        .find(|n| !named.contains(n.as_str()))
        .unwrap_or_default();
    (Rc::new(members), Rc::new(zones), next_member)
}

/// Inserts a command after those at the same moment or before; returns where.
fn insert(commands: &mut Vec<TimedCommand>, command: TimedCommand) -> usize {
    let at = commands.partition_point(|c| c.at_ms <= command.at_ms);
    commands.insert(at, command);
    at
}

impl Playground {
    /// The timeline editor's marks and menus, made again only when they change: when the
    /// commands, the track's end or the command selected change, or the clock passes a
    /// command (for a given list, how many are done says which).
    pub fn schedule(&self) -> Rc<Schedule> {
        let (scale, clock, commands) = (self.scale(), self.clock(), self.commands());
        let done = commands.iter().filter(|c| c.at_ms <= clock).count();
        let selected = self.selected_command.filter(|&i| i < commands.len());
        self.memos.schedule.get_when(
            |(c, s, d, sel)| (*s, *d, *sel) == (scale, done, selected) && c == commands,
            || (commands.to_vec(), scale, done, selected),
            || self.make_schedule(scale, clock, selected),
        )
    }

    /// The timeline editor's marks and menus, made afresh from the readings its key was
    /// made of: the track's end `scale`, the `clock` and the command `selected`.
    fn make_schedule(&self, scale: u64, clock: u64, selected: Option<usize>) -> Schedule {
        let scenario = self.scenario();
        let commands = self.commands();
        // Marks closer than a 60th of the track go on another row.
        let gap = scale / 60;
        let mut last: Vec<Option<u64>> = vec![None; usize::from(ROWS)];
        let marks = commands
            .iter()
            .map(|c| {
                let free = last
                    .iter()
                    .position(|l| l.is_none_or(|l| c.at_ms >= l + gap));
                let row = free.unwrap_or_else(|| {
                    (0..last.len())
                        .min_by_key(|&r| last[r].unwrap_or(0))
                        .unwrap_or(0)
                });
                last[row] = Some(c.at_ms);
                ScheduleMark {
                    at_ms: c.at_ms,
                    what: c.command.to_string(),
                    kind: CommandKind::of(&c.command),
                    row: row as u8,
                    done: c.at_ms <= clock,
                    command: c.clone(),
                }
            })
            .collect();
        let menus = self.memos.menus.get_when(
            |c| c == commands,
            || commands.to_vec(),
            || menu_names(scenario, commands),
        );
        let (members, zones, next_member) = (menus.0.clone(), menus.1.clone(), menus.2.clone());
        Schedule {
            marks,
            selected,
            scale,
            step_ms: scale / 100,
            big_step_ms: scale / 10,
            snap_ms: (scale / 200).max(1),
            members,
            zones,
            next_member,
        }
    }

    /// Carries out an edit of the scheduled commands.
    pub(super) fn edit_schedule(&mut self, edit: ScheduleEdit) -> Vec<Effect> {
        let mut commands = self.commands().to_vec();
        let missing = |i: usize| {
            format!(
                "there is no scheduled command {}. The timeline is unchanged.",
                i + 1
            )
        };
        let (attempt, done, from, selected) = match edit {
            ScheduleEdit::Select(index) => {
                self.selected_command = index.filter(|&i| i < commands.len());
                // Leaving the track (Escape on a mark) closes the editor too.
                if index.is_none() {
                    self.command_editor = None;
                }
                return Vec::new();
            }
            ScheduleEdit::Add(command) => {
                let what = format!("{} at {}", command.command, moment(command.at_ms));
                let from = command.at_ms;
                let at = insert(&mut commands, command);
                (
                    format!("Cannot schedule {what}"),
                    format!("Scheduled {what}"),
                    from,
                    Some(at),
                )
            }
            ScheduleEdit::Move { index, at_ms } => {
                if index >= commands.len() {
                    return self.fail(missing(index));
                }
                let mut command = commands.remove(index);
                if command.at_ms == at_ms {
                    return Vec::new();
                }
                let what = command.command.to_string();
                let from = command.at_ms.min(at_ms);
                let (a, b) = (moment(command.at_ms), moment(at_ms));
                command.at_ms = at_ms;
                let at = insert(&mut commands, command);
                (
                    format!("Cannot move {what} from {a} to {b}"),
                    format!("Moved {what} from {a} to {b}"),
                    from,
                    Some(at),
                )
            }
            ScheduleEdit::Replace { index, command } => {
                if index >= commands.len() {
                    return self.fail(missing(index));
                }
                let old = commands.remove(index);
                if old == command {
                    return Vec::new();
                }
                let (before, after) = (
                    format!("{} at {}", old.command, moment(old.at_ms)),
                    format!("{} at {}", command.command, moment(command.at_ms)),
                );
                let from = old.at_ms.min(command.at_ms);
                let at = insert(&mut commands, command);
                (
                    format!("Cannot change {before} to {after}"),
                    format!("Changed {before} to {after}"),
                    from,
                    Some(at),
                )
            }
            ScheduleEdit::Delete(index) => {
                if index >= commands.len() {
                    return self.fail(missing(index));
                }
                let old = commands.remove(index);
                let what = format!("{} at {}", old.command, moment(old.at_ms));
                // The neighbour is selected, so that the keyboard stays on the track.
                let next = (!commands.is_empty()).then(|| index.min(commands.len() - 1));
                (
                    format!("Cannot delete {what}"),
                    format!("Deleted {what}"),
                    old.at_ms,
                    next,
                )
            }
        };
        // The commands are checked as a scenario file's would be, then run by the worker.
        let file = self.scenario().to_file(&commands);
        if let Err(e) = Scenario::from_file(file) {
            return self.fail(format!("{attempt}: {e}. The timeline is unchanged."));
        }
        let seq = self.await_reply(Awaiting::Reschedule(Edit {
            attempt,
            done,
            from,
            selected,
        }));
        vec![Effect::Send(Request::Reschedule {
            seq,
            from_ms: from,
            commands: commands.into_iter().map(Timed).collect(),
        })]
    }
}
