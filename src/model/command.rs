//! What a person (or a scenario) does to the group: the commands, each at a moment.

use std::fmt;

/// The longest a restart may keep a member away: a member gone for longer than a day has
/// crashed, and a scenario says so with `crash` (and `join` if it ever comes back).
pub const MAX_DOWN_MS: u64 = 24 * 3_600_000;

/// The most stream threads (capacity) a member may have: each restores on its own.
pub const MAX_THREADS: u32 = 1_000;

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
    /// A member's process stops and starts again `down_ms` later (a deployment, a pod
    /// rescheduled). With `keep_state` its stores survive the restart (a persistent disk);
    /// without, it comes back with nothing.
    Restart {
        /// The member.
        member: String,
        /// How long it is away, in milliseconds (1 ms to [`MAX_DOWN_MS`]).
        down_ms: u64,
        /// Its stores survive the restart.
        keep_state: bool,
    },
    /// A deployment: every live member restarts, one at a time in join order, each once the
    /// previous one is back and the group is at rest.
    RollingRestart {
        /// How long each member is away, in milliseconds (1 ms to [`MAX_DOWN_MS`]).
        down_ms: u64,
        /// Their stores survive the restarts.
        keep_state: bool,
    },
    /// An availability zone goes dark: every live member in it crashes at once.
    CrashZone(String),
}

impl fmt::Display for Command {
    /// A short description, such as "crash S1".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Join(spec) => write!(f, "join {}", spec.name),
            Command::Crash(m) => write!(f, "crash {m}"),
            Command::Drain(m) => write!(f, "drain {m}"),
            Command::CrashLeader => f.write_str("crash the leader"),
            Command::Restart { member, .. } => write!(f, "restart {member}"),
            Command::RollingRestart { .. } => f.write_str("rolling restart"),
            Command::CrashZone(zone) => write!(f, "crash zone {zone}"),
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
