//! Checks shared by the scenario and assign formats: names, capacities, restore rates and the
//! configuration. Each names the field it refuses.

use super::{ScenarioError, MAX_CHANGELOG, MAX_RATE, MAX_THREADS, MAX_TIME_MS};
use crate::model::{Cleanup, CleanupPolicy, Config, MemberSpec, DEFAULT_WINDOW_RETENTION_MS};
use std::collections::HashSet;

/// A name people read and the notation prints: not empty, short, and free of the characters
/// the notation uses as separators.
pub(super) fn check_name(field: &str, name: &str) -> Result<(), ScenarioError> {
    if name.trim().is_empty() {
        return Err(ScenarioError::invalid(field, "a name cannot be empty"));
    }
    if name.len() > 40 {
        return Err(ScenarioError::invalid(
            field,
            "a name is at most 40 characters",
        ));
    }
    if name
        .chars()
        .any(|c| c.is_control() || c == ',' || c == '[' || c == ']')
    {
        return Err(ScenarioError::invalid(
            field,
            format!("{name:?} holds a character names cannot use (control characters, commas, brackets)"),
        ));
    }
    Ok(())
}

/// Checks every name of a list (`tasks` or `members`, read as `{list}[i].id`) and that none
/// is listed twice; `what` is the noun of the message ("task", "member").
pub(super) fn unique_names<'a>(
    list: &str,
    what: &str,
    names: impl IntoIterator<Item = &'a str>,
) -> Result<HashSet<String>, ScenarioError> {
    let mut seen = HashSet::new();
    for (i, name) in names.into_iter().enumerate() {
        let field = format!("{list}[{i}].id");
        check_name(&field, name)?;
        if !seen.insert(name.to_string()) {
            return Err(ScenarioError::invalid(
                field,
                format!("{what} {name} is listed twice"),
            ));
        }
    }
    Ok(seen)
}

/// A member's capacity, its stream threads: at least one, at most [`MAX_THREADS`].
pub(super) fn check_capacity(field: &str, name: &str, capacity: u32) -> Result<(), ScenarioError> {
    if capacity == 0 {
        return Err(ScenarioError::invalid(
            format!("{field}.capacity"),
            format!("member {name} needs a capacity of at least 1"),
        ));
    }
    if capacity > MAX_THREADS {
        return Err(ScenarioError::invalid(
            format!("{field}.capacity"),
            format!(
                "member {name} has {capacity} stream threads, over the {MAX_THREADS} an instance may run"
            ),
        ));
    }
    Ok(())
}

/// A write or restore rate within [`MAX_RATE`] records per second.
pub(super) fn check_rate(field: &str, rate: u64) -> Result<(), ScenarioError> {
    if rate > MAX_RATE {
        return Err(ScenarioError::invalid(
            field,
            format!("{rate} records/s is over the {MAX_RATE} records/s a scenario may give"),
        ));
    }
    Ok(())
}

/// A changelog size within [`MAX_CHANGELOG`] records.
pub(super) fn check_changelog(field: &str, records: u64) -> Result<(), ScenarioError> {
    if records > MAX_CHANGELOG {
        return Err(ScenarioError::invalid(
            field,
            format!("{records} records is over the {MAX_CHANGELOG} records a changelog may hold"),
        ));
    }
    Ok(())
}

/// The cleanup of a task's changelog as a file gives it (`field` names the task or the
/// subtopology): a retention only with `compact,delete`, at least 1 ms and at most a year.
pub(super) fn cleanup(
    field: &str,
    policy: CleanupPolicy,
    retention_ms: Option<u64>,
    key_growth: u64,
) -> Result<Cleanup, ScenarioError> {
    check_rate(&format!("{field}.key_growth"), key_growth)?;
    match (policy, retention_ms) {
        (CleanupPolicy::CompactDelete, retention) => {
            let retention_ms = retention.unwrap_or(DEFAULT_WINDOW_RETENTION_MS);
            if retention_ms == 0 || retention_ms > MAX_TIME_MS {
                return Err(ScenarioError::invalid(
                    format!("{field}.retention_ms"),
                    "a windowed changelog keeps records between 1 ms and a year",
                ));
            }
            Ok(Cleanup::Windowed { retention_ms })
        }
        (policy, Some(_)) => Err(ScenarioError::invalid(
            format!("{field}.retention_ms"),
            format!(
                "only a \"compact,delete\" changelog (a windowed store's) has a retention; this one is \"{}\"",
                <&str>::from(policy)
            ),
        )),
        (CleanupPolicy::Compact, None) => Ok(Cleanup::Compact),
        (CleanupPolicy::Append, None) => Ok(Cleanup::Append),
    }
}

/// A task's processing rate as a file gives it (`field` names the task or the subtopology):
/// above 0 when given.
pub(super) fn process_rate(field: &str, rate: Option<u64>) -> Result<Option<u64>, ScenarioError> {
    if rate == Some(0) {
        return Err(ScenarioError::invalid(
            format!("{field}.process_rate"),
            "a task needs a processing rate above 0 records/s (leave it out for the configuration's)",
        ));
    }
    if let Some(rate) = rate {
        check_rate(&format!("{field}.process_rate"), rate)?;
    }
    Ok(rate)
}

/// A member as a scenario gives it (at the start or in a join command).
pub fn member_spec(
    field: &str,
    name: &str,
    capacity: u32,
    restore_rate: Option<u64>,
    zone: Option<&str>,
) -> Result<MemberSpec, ScenarioError> {
    check_capacity(field, name, capacity)?;
    if let Some(zone) = zone {
        check_name(&format!("{field}.zone"), zone)?;
    }
    if restore_rate == Some(0) {
        return Err(ScenarioError::invalid(
            format!("{field}.restore_rate"),
            format!("member {name} needs a restore rate above 0 records/s"),
        ));
    }
    if let Some(rate) = restore_rate {
        check_rate(&format!("{field}.restore_rate"), rate)?;
    }
    Ok(MemberSpec {
        name: name.to_string(),
        capacity,
        restore_rate,
        zone: zone.map(str::to_string),
    })
}

/// `max_learners` caps learners group-wide; zero would forbid them all.
pub(super) fn check_max_learners(max_learners: Option<u32>) -> Result<(), ScenarioError> {
    if max_learners == Some(0) {
        return Err(ScenarioError::invalid(
            "config.max_learners",
            "0 would forbid every learner, so no stateful task could ever move; use null for no cap",
        ));
    }
    Ok(())
}

/// Kafka Streams' own bounds on the `kip441` settings.
pub(super) fn check_kip441(max_warmup_replicas: u32) -> Result<(), ScenarioError> {
    if max_warmup_replicas == 0 {
        return Err(ScenarioError::invalid(
            "config.kip441.max_warmup_replicas",
            "must be at least 1, as in Kafka Streams",
        ));
    }
    Ok(())
}

/// Checks settings the simulation cannot work with.
pub fn validate_config(config: &Config) -> Result<(), ScenarioError> {
    if let Some(round) = config.rebalance_ms {
        if round < 2 {
            return Err(ScenarioError::invalid(
                "config.rebalance_ms",
                "a rebalance round needs at least 2 ms (a join phase and a sync phase); use null for rounds as long as Kafka's heartbeats make them",
            ));
        }
        if round > MAX_TIME_MS {
            return Err(ScenarioError::invalid(
                "config.rebalance_ms",
                "longer than a year",
            ));
        }
    }
    if config.session_timeout_ms == 0 || config.session_timeout_ms > MAX_TIME_MS {
        return Err(ScenarioError::invalid(
            "config.session_timeout_ms",
            "must be between 1 ms and a year",
        ));
    }
    let heartbeat = config.heartbeat_interval_ms;
    if heartbeat == 0 || (config.rebalance_ms.is_none() && heartbeat >= config.session_timeout_ms) {
        return Err(ScenarioError::invalid(
            "config.heartbeat_interval_ms",
            format!(
                "{heartbeat} ms: a member heartbeats at least once a session ({} ms), and at least every millisecond's worth",
                config.session_timeout_ms
            ),
        ));
    }
    for (field, value) in [
        ("config.round_trip_ms", config.round_trip_ms),
        ("config.assign_ms", config.assign_ms),
        (
            "config.initial_rebalance_delay_ms",
            config.initial_rebalance_delay_ms,
        ),
        ("config.heartbeat_interval_ms", heartbeat),
    ] {
        if value > MAX_TIME_MS {
            return Err(ScenarioError::invalid(field, "longer than a year"));
        }
    }
    if config.state_cleanup_delay_ms == 0 || config.state_cleanup_delay_ms > MAX_TIME_MS {
        return Err(ScenarioError::invalid(
            "config.state_cleanup_delay_ms",
            "the state cleaner runs between every 1 ms and every year",
        ));
    }
    if config.process_rate == 0 {
        return Err(ScenarioError::invalid(
            "config.process_rate",
            "tasks need a processing rate above 0 records/s",
        ));
    }
    check_rate("config.process_rate", config.process_rate)?;
    if config.restore_rate == 0 {
        return Err(ScenarioError::invalid(
            "config.restore_rate",
            "members need a restore rate above 0 records/s",
        ));
    }
    check_rate("config.restore_rate", config.restore_rate)?;
    if config.disk_rate == Some(0) {
        return Err(ScenarioError::invalid(
            "config.disk_rate",
            "an instance's disk needs a rate above 0 records/s; use null for no limit",
        ));
    }
    if let Some(rate) = config.disk_rate {
        check_rate("config.disk_rate", rate)?;
    }
    check_max_learners(config.max_learners)?;
    if !(config.dirty_ratio > 0.0 && config.dirty_ratio < 1.0) {
        return Err(ScenarioError::invalid(
            "config.dirty_ratio",
            format!(
                "{} is not a share of the log: the cleaner needs a ratio above 0 and below 1 (Kafka's default is 0.5)",
                config.dirty_ratio
            ),
        ));
    }
    if config.segment_records == Some(0) {
        return Err(ScenarioError::invalid(
            "config.segment_records",
            "a segment holds at least 1 record; use null for segments small beside the store",
        ));
    }
    if config
        .scale_down_timeout_ms
        .is_some_and(|t| t > MAX_TIME_MS)
    {
        return Err(ScenarioError::invalid(
            "config.scale_down_timeout_ms",
            "longer than a year",
        ));
    }
    check_kip441(config.kip441.max_warmup_replicas)?;
    if config.kip441.probing_interval_ms < 1 || config.kip441.probing_interval_ms > MAX_TIME_MS {
        return Err(ScenarioError::invalid(
            "config.kip441.probing_interval_ms",
            "must be between 1 ms and a year",
        ));
    }
    Ok(())
}
