//! The `events` of a scenario file: each entry is one command at a moment (`join`, `drain`,
//! `crash`, `crash_leader`, `restart`, `rolling_restart`, `crash_zone`). [`CommandFile`] is an
//! entry as written; [`commands`] validates the list into the model's timed commands, naming
//! the entry and field of the first problem (`events[3].down_ms: ...`).

use super::validate::{check_name, member_spec};
use super::{defaults, ScenarioError, MAX_TIME_MS};
use crate::model::{Command, MemberSpec, TimedCommand, MAX_DOWN_MS};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeSet, HashSet};

/// A timed command as written in a scenario file (an entry of its `events`): exactly one of
/// `join`, `drain`, `crash`, `crash_leader`, `restart`, `rolling_restart`, `crash_zone`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CommandFile {
    /// When, in virtual milliseconds from the start.
    pub at_ms: u64,
    /// A new member joins.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub join: Option<String>,
    /// A member is told to drain.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub drain: Option<String>,
    /// A member is killed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub crash: Option<String>,
    /// Whoever leads at that moment is killed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub crash_leader: Option<bool>,
    /// Capacity of a joining member (default 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub capacity: Option<u32>,
    /// Restore rate of a joining member (default: the config's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub restore_rate: Option<u64>,
    /// Zone of a joining member (default: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zone: Option<String>,
    /// A member restarts: it stops, and is back `down_ms` later.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub restart: Option<String>,
    /// How long a restarting member is away (required with `restart`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub down_ms: Option<u64>,
    /// Whether a restarting member's stores survive (default true).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub keep_state: Option<bool>,
    /// Every live member restarts, one at a time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rolling_restart: Option<RollingRestartFile>,
    /// Every live member of this zone crashes at once.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub crash_zone: Option<String>,
}

/// The settings of a `rolling_restart` event.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RollingRestartFile {
    /// How long each member is away.
    pub down_ms: u64,
    /// Whether their stores survive (default true).
    #[serde(default = "defaults::yes")]
    pub keep_state: bool,
}

impl CommandFile {
    /// A command in the file format.
    pub fn of(command: &TimedCommand) -> CommandFile {
        let mut e = CommandFile {
            at_ms: command.at_ms,
            ..CommandFile::default()
        };
        match &command.command {
            Command::Join(spec) => {
                e.join = Some(spec.name.clone());
                e.capacity = (spec.capacity != 1).then_some(spec.capacity);
                e.restore_rate = spec.restore_rate;
                e.zone.clone_from(&spec.zone);
            }
            Command::Crash(m) => e.crash = Some(m.clone()),
            Command::Drain(m) => e.drain = Some(m.clone()),
            Command::CrashLeader => e.crash_leader = Some(true),
            Command::Restart {
                member,
                down_ms,
                keep_state,
            } => {
                e.restart = Some(member.clone());
                e.down_ms = Some(*down_ms);
                e.keep_state = Some(*keep_state);
            }
            Command::RollingRestart {
                down_ms,
                keep_state,
            } => {
                e.rolling_restart = Some(RollingRestartFile {
                    down_ms: *down_ms,
                    keep_state: *keep_state,
                });
            }
            Command::CrashZone(zone) => e.crash_zone = Some(zone.clone()),
        }
        e
    }
}

/// Validates the `events` of a file against the members it starts with: sorted by time (ties
/// keep the file's order), each naming a member present by then, each zone one some member
/// has by then. Returns the commands and how many members the scenario has in all.
pub(super) fn commands(
    events: &[CommandFile],
    members: &[MemberSpec],
) -> Result<(Vec<TimedCommand>, usize), ScenarioError> {
    let mut order: Vec<usize> = (0..events.len()).collect();
    order.sort_by_key(|&i| events[i].at_ms);
    let mut known: HashSet<String> = members.iter().map(|m| m.name.clone()).collect();
    // Extended, not collected: collecting into a set compiles another sort.
    let mut zones = BTreeSet::new();
    zones.extend(members.iter().filter_map(|m| m.zone.clone()));
    let mut commands = Vec::with_capacity(order.len());
    for i in order {
        let e = &events[i];
        let field = format!("events[{i}]");
        if e.at_ms > MAX_TIME_MS {
            return Err(ScenarioError::invalid(
                format!("{field}.at_ms"),
                format!(
                    "{} ms is beyond the {MAX_TIME_MS} ms a scenario may cover",
                    e.at_ms
                ),
            ));
        }
        let command = command_of(&field, e)?;
        let absent = |name: &str| {
            format!(
                "{command} names member {name}, which is not in `members` and has not joined by {} ms",
                e.at_ms
            )
        };
        match &command {
            Command::Join(spec) => {
                if !known.insert(spec.name.clone()) {
                    return Err(ScenarioError::invalid(
                        format!("{field}.join"),
                        format!("member {} already exists", spec.name),
                    ));
                }
                zones.extend(spec.zone.clone());
            }
            Command::Crash(name) | Command::Drain(name) => {
                if !known.contains(name) {
                    return Err(ScenarioError::invalid(field, absent(name)));
                }
            }
            Command::Restart { member, .. } => {
                if !known.contains(member) {
                    return Err(ScenarioError::invalid(
                        format!("{field}.restart"),
                        absent(member),
                    ));
                }
            }
            Command::CrashZone(zone) => {
                if !zones.contains(zone) {
                    let listed: Vec<&str> = zones.iter().map(String::as_str).collect();
                    return Err(ScenarioError::invalid(
                        format!("{field}.crash_zone"),
                        if listed.is_empty() {
                            format!(
                                "no member is in zone {zone}: no member has a zone by {} ms",
                                e.at_ms
                            )
                        } else {
                            format!(
                                "no member is in zone {zone} by {} ms (zones: {})",
                                e.at_ms,
                                listed.join(", ")
                            )
                        },
                    ));
                }
            }
            Command::CrashLeader | Command::RollingRestart { .. } => {}
        }
        commands.push(TimedCommand {
            at_ms: e.at_ms,
            command,
        });
    }
    Ok((commands, known.len()))
}

/// A restart's time away: at least 1 ms, at most a day.
fn check_down_ms(field: &str, down_ms: u64) -> Result<u64, ScenarioError> {
    if down_ms == 0 {
        return Err(ScenarioError::invalid(
            field,
            "a restart keeps its member away at least 1 ms",
        ));
    }
    if down_ms > MAX_DOWN_MS {
        return Err(ScenarioError::invalid(
            field,
            format!(
                "{down_ms} ms is longer than a day ({MAX_DOWN_MS} ms): a member away that long has crashed (use crash, then join)"
            ),
        ));
    }
    Ok(down_ms)
}

/// The command of one entry of `events`.
fn command_of(field: &str, e: &CommandFile) -> Result<Command, ScenarioError> {
    let actions = [
        e.join.is_some(),
        e.drain.is_some(),
        e.crash.is_some(),
        e.crash_leader.is_some(),
        e.restart.is_some(),
        e.rolling_restart.is_some(),
        e.crash_zone.is_some(),
    ];
    let count = actions.iter().filter(|&&a| a).count();
    if count != 1 {
        return Err(ScenarioError::invalid(
            field,
            format!("an event needs exactly one of join, drain, crash, crash_leader, restart, rolling_restart, crash_zone; this one has {count}"),
        ));
    }
    if e.join.is_none() && (e.capacity.is_some() || e.restore_rate.is_some() || e.zone.is_some()) {
        return Err(ScenarioError::invalid(
            field,
            "capacity, restore_rate and zone belong to a join event",
        ));
    }
    if e.restart.is_none() && (e.down_ms.is_some() || e.keep_state.is_some()) {
        return Err(ScenarioError::invalid(
            field,
            "down_ms and keep_state belong to a restart event (a rolling_restart takes them inside)",
        ));
    }
    Ok(if let Some(name) = &e.join {
        check_name(&format!("{field}.join"), name)?;
        Command::Join(member_spec(
            field,
            name,
            e.capacity.unwrap_or(1),
            e.restore_rate,
            e.zone.as_deref(),
        )?)
    } else if let Some(name) = &e.drain {
        Command::Drain(name.clone())
    } else if let Some(name) = &e.crash {
        Command::Crash(name.clone())
    } else if let Some(name) = &e.restart {
        let Some(down_ms) = e.down_ms else {
            return Err(ScenarioError::invalid(
                format!("{field}.down_ms"),
                "a restart needs down_ms: how long the member is away",
            ));
        };
        Command::Restart {
            member: name.clone(),
            down_ms: check_down_ms(&format!("{field}.down_ms"), down_ms)?,
            keep_state: e.keep_state.unwrap_or(true),
        }
    } else if let Some(rolling) = &e.rolling_restart {
        Command::RollingRestart {
            down_ms: check_down_ms(&format!("{field}.rolling_restart.down_ms"), rolling.down_ms)?,
            keep_state: rolling.keep_state,
        }
    } else if let Some(zone) = &e.crash_zone {
        check_name(&format!("{field}.crash_zone"), zone)?;
        Command::CrashZone(zone.clone())
    } else if e.crash_leader == Some(true) {
        Command::CrashLeader
    } else {
        return Err(ScenarioError::invalid(
            format!("{field}.crash_leader"),
            "crash_leader must be true (leave the event out otherwise)",
        ));
    })
}

#[cfg(test)]
mod tests {
    use crate::model::{Command, Scenario};

    fn scenario(events: &str) -> Scenario {
        Scenario::from_json(&format!(
            r#"{{ "name": "x", "tasks": [ {{ "id": "T1" }} ],
                 "members": [ {{ "id": "S1", "zone": "a" }}, {{ "id": "S2" }} ], "events": [ {events} ] }}"#
        ))
        .expect("parses")
    }

    #[test]
    fn operations_read_as_written_and_keep_state_by_default() {
        let s = scenario(
            r#"{ "at_ms": 5, "restart": "S2", "down_ms": 3000 },
               { "at_ms": 6, "restart": "S1", "down_ms": 10, "keep_state": false },
               { "at_ms": 7, "rolling_restart": { "down_ms": 30000 } },
               { "at_ms": 8, "crash_zone": "a" }"#,
        );
        let commands: Vec<&Command> = s.commands.iter().map(|c| &c.command).collect();
        assert_eq!(
            commands,
            [
                &Command::Restart {
                    member: "S2".into(),
                    down_ms: 3000,
                    keep_state: true
                },
                &Command::Restart {
                    member: "S1".into(),
                    down_ms: 10,
                    keep_state: false
                },
                &Command::RollingRestart {
                    down_ms: 30000,
                    keep_state: true
                },
                &Command::CrashZone("a".into()),
            ]
        );
        let again = Scenario::from_json(&s.to_json(&s.commands)).expect("parses again");
        assert_eq!(again, s);
    }

    #[test]
    fn operations_are_written_in_the_public_format() {
        let s = scenario(
            r#"{ "at_ms": 5, "restart": "S2", "down_ms": 3000 },
               { "at_ms": 7, "rolling_restart": { "down_ms": 30000, "keep_state": false } },
               { "at_ms": 8, "crash_zone": "a" }"#,
        );
        let file: serde_json::Value = serde_json::from_str(&s.to_json(&s.commands)).expect("json");
        assert_eq!(
            file["events"],
            serde_json::json!([
                { "at_ms": 5, "restart": "S2", "down_ms": 3000, "keep_state": true },
                { "at_ms": 7, "rolling_restart": { "down_ms": 30000, "keep_state": false } },
                { "at_ms": 8, "crash_zone": "a" }
            ])
        );
    }
}
