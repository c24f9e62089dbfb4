//! What a person (or a scenario) does to the group: the commands, each at a moment.

use std::fmt;

/// A member to add: its name, capacity and restore rate.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MemberSpec {
    /// Its name.
    pub name: String,
    /// Its capacity, at least 1.
    pub capacity: u32,
    /// Its restore rate in records per second, or the config's.
    pub restore_rate: Option<u64>,
    /// Its availability zone (rack), if the scenario uses zones.
    pub zone: Option<String>,
}

/// Something a person (or a scenario) does to the group.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Command {
    /// A new member joins.
    Join(MemberSpec),
    /// A member is killed.
    Crash(String),
    /// A member is told to drain.
    Drain(String),
    /// The current leader is killed.
    CrashLeader,
}

impl fmt::Display for Command {
    /// A short description, such as "crash S1".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Join(spec) => write!(f, "join {}", spec.name),
            Command::Crash(m) => write!(f, "crash {m}"),
            Command::Drain(m) => write!(f, "drain {m}"),
            Command::CrashLeader => f.write_str("crash the leader"),
        }
    }
}

/// A command at a moment.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TimedCommand {
    /// When, in virtual milliseconds.
    pub at_ms: u64,
    /// What.
    pub command: Command,
}
