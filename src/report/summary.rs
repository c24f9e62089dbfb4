//! The report's first section: the scenario as a reviewer checks it before reading results
//! (the application, the members and zones, the configuration, the commands over time).

use super::page::{escape, table};
use crate::model::{Command, Config, Scenario, Task, Topology};
use crate::views::units::{grouped, seconds};
use std::fmt::Write;

/// Lists longer than this are summarised rather than printed row by row.
const LISTED_ROWS: usize = 60;

/// Writes the scenario section.
pub(super) fn scenario_section(out: &mut String, scenario: &Scenario) {
    out.push_str("<section id=\"scenario\">\n<h2>Scenario</h2>\n");
    facts(out, scenario);
    out.push_str("<h3>Application</h3>\n");
    match &scenario.topology {
        Some(topology) => subtopologies(out, topology, &scenario.tasks),
        None => tasks(out, &scenario.tasks),
    }
    out.push_str("<h3>Members</h3>\n");
    members(out, scenario);
    out.push_str("<h3>Configuration</h3>\n");
    config(out, scenario);
    out.push_str("<h3>Commands</h3>\n");
    commands(out, scenario);
    out.push_str("</section>\n");
}

/// The figures in one list: tasks, subtopologies, members, zones, how the group starts.
fn facts(out: &mut String, scenario: &Scenario) {
    let stateful = scenario.tasks.iter().filter(|t| t.stateful).count();
    let records: u64 = scenario.tasks.iter().map(|t| t.changelog).sum();
    let capacity: u64 = scenario.members.iter().map(|m| u64::from(m.capacity)).sum();
    let joins = scenario
        .commands
        .iter()
        .filter(|c| matches!(c.command, Command::Join(_)))
        .count();
    let owned = scenario
        .initial
        .as_ref()
        .map_or(0, |o| o.iter().flatten().count());
    let start = if scenario.tasks.is_empty() {
        "no tasks".to_string()
    } else if owned == scenario.tasks.len() {
        "running: every task owned and caught up".to_string()
    } else if owned == 0 {
        "empty: the first rebalance places every task, which restores from its changelog"
            .to_string()
    } else {
        format!(
            "{owned} of {} tasks owned and caught up; the others are placed by the first rebalance",
            scenario.tasks.len()
        )
    };
    let mut items = vec![
        (
            "Tasks",
            format!(
                "{} ({stateful} stateful, {} changelog records in all)",
                scenario.tasks.len(),
                grouped(records)
            ),
        ),
        (
            "Members at the start",
            format!(
                "{} ({capacity} threads in all); {joins} more join later",
                scenario.members.len()
            ),
        ),
        ("Zones", zones(scenario)),
        ("The group starts", start),
    ];
    if let Some(t) = &scenario.topology {
        items.insert(1, ("Subtopologies", t.subtopologies.len().to_string()));
    }
    if let Some(until) = scenario.until_ms {
        items.push(("Runs until", seconds(until)));
    }
    out.push_str("<table class=\"config facts\">\n<tbody>\n");
    for (label, value) in items {
        let _ = writeln!(
            out,
            "<tr><th scope=\"row\">{label}</th><td>{}</td></tr>",
            escape(&value)
        );
    }
    out.push_str("</tbody>\n</table>\n");
}

/// The zones of the members at the start, with how many members each holds.
fn zones(scenario: &Scenario) -> String {
    let mut zones: Vec<&str> = scenario
        .members
        .iter()
        .filter_map(|m| m.zone.as_deref())
        .collect();
    if zones.is_empty() {
        return "none given".to_string();
    }
    zones.sort();
    zones
        .chunk_by(|a, b| a == b)
        .map(|same| format!("{} ({} members)", same[0], same.len()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// One row per subtopology: its tasks, sizes as given and as derived, its write rate.
fn subtopologies(out: &mut String, topology: &Topology, tasks: &[Task]) {
    let rows: Vec<Vec<String>> = (0u32..)
        .zip(&topology.subtopologies)
        .map(|(index, s)| {
            let ours: Vec<&Task> = tasks
                .iter()
                .filter(|t| t.subtopology == Some(index))
                .collect();
            let given = match (s.stateful, s.changelog) {
                (false, _) => "stateless".to_string(),
                (true, None) => "empty".to_string(),
                (true, Some(c)) => format!(
                    "{} to {}, {}",
                    grouped(c.min),
                    grouped(c.max),
                    c.distribution
                ),
            };
            let smallest = ours.iter().map(|t| t.changelog).min().unwrap_or(0);
            let largest = ours.iter().map(|t| t.changelog).max().unwrap_or(0);
            let total: u64 = ours.iter().map(|t| t.changelog).sum();
            let last = s.partitions.saturating_sub(1);
            vec![
                format!("{index}: {}", s.name),
                format!("{} ({index}_0 to {index}_{last})", s.partitions),
                given,
                format!("{} to {}", grouped(smallest), grouped(largest)),
                grouped(total),
                grouped(s.write_rate),
            ]
        })
        .collect();
    table(
        out,
        "subtopologies",
        &[
            "subtopology",
            "tasks",
            "changelog records (given)",
            "smallest to largest (derived)",
            "records in all",
            "writes/s per task",
        ],
        &rows,
    );
    let _ = writeln!(
        out,
        "<p class=\"note\">Changelog sizes are derived from seed {} (splitmix64 of the seed and each task's position): the same file always gives the same tasks.</p>",
        topology.seed
    );
}

/// The tasks one by one, or summarised when there are many.
fn tasks(out: &mut String, tasks: &[Task]) {
    let rows: Vec<Vec<String>> = tasks
        .iter()
        .take(LISTED_ROWS)
        .map(|t| {
            vec![
                t.name.clone(),
                if t.stateful { "yes" } else { "no" }.to_string(),
                grouped(t.changelog),
                grouped(t.write_rate),
            ]
        })
        .collect();
    table(
        out,
        "tasks",
        &["task", "stateful", "changelog records", "writes/s"],
        &rows,
    );
    more(out, tasks.len(), "tasks");
}

/// Says how many rows a summarised list left out.
fn more(out: &mut String, total: usize, what: &str) {
    if total > LISTED_ROWS {
        let _ = writeln!(
            out,
            "<p class=\"note\">The first {LISTED_ROWS} of {total} {what}.</p>"
        );
    }
}

/// The members at the start and those that join later, with threads, zone and restore rate.
fn members(out: &mut String, scenario: &Scenario) {
    let default_rate = scenario.config.restore_rate;
    let row = |spec: &crate::model::MemberSpec, joins: String| {
        vec![
            spec.name.clone(),
            spec.capacity.to_string(),
            spec.zone.clone().unwrap_or_else(|| "-".to_string()),
            grouped(spec.restore_rate.unwrap_or(default_rate)),
            joins,
        ]
    };
    let mut rows: Vec<Vec<String>> = scenario
        .members
        .iter()
        .map(|m| row(m, "at the start".to_string()))
        .collect();
    for c in &scenario.commands {
        if let Command::Join(spec) = &c.command {
            rows.push(row(spec, format!("joins at {}", seconds(c.at_ms))));
        }
    }
    let total = rows.len();
    rows.truncate(LISTED_ROWS);
    if let Some(i) = &scenario.instances {
        let _ = writeln!(
            out,
            "<p>{} instances with {} threads each{}.</p>",
            i.count,
            i.threads,
            if i.zones.is_empty() {
                String::new()
            } else {
                format!(", zones dealt in turn: {}", escape(&i.zones.join(", ")))
            }
        );
    }
    table(
        out,
        "members",
        &[
            "member",
            "threads",
            "zone",
            "restores records/s",
            "in the group",
        ],
        &rows,
    );
    more(out, total, "members");
}

/// Every configuration setting, as the file names it.
fn config(out: &mut String, scenario: &Scenario) {
    out.push_str(
        "<p class=\"note\">As loaded; each strategy's run below replaces <code>strategy</code>.</p>\n",
    );
    table(
        out,
        "config",
        &["setting", "value"],
        &settings(&scenario.config),
    );
}

/// The rows of the configuration table, in the file's order, `kip441.`-prefixed for the
/// `kip441` settings. Listed here rather than read off the serialized JSON: that took a JSON
/// value tree (and its number printing) into the browser build only for this table; a test
/// checks the list against the file format.
fn settings(c: &Config) -> Vec<Vec<String>> {
    let none = |v: Option<String>| v.unwrap_or_else(|| "none".to_string());
    let k = &c.kip441;
    [
        ("strategy", c.strategy.name().to_string()),
        ("handoff", <&str>::from(c.handoff).to_string()),
        ("readiness", <&str>::from(c.readiness).to_string()),
        (
            "acceptable_recovery_lag",
            c.acceptable_recovery_lag.to_string(),
        ),
        ("num_standby_replicas", c.num_standby_replicas.to_string()),
        ("max_learners", none(c.max_learners.map(|n| n.to_string()))),
        ("rebalance_ms", none(c.rebalance_ms.map(|n| n.to_string()))),
        ("heartbeat_interval_ms", c.heartbeat_interval_ms.to_string()),
        ("round_trip_ms", c.round_trip_ms.to_string()),
        ("assign_ms", c.assign_ms.to_string()),
        (
            "initial_rebalance_delay_ms",
            c.initial_rebalance_delay_ms.to_string(),
        ),
        ("session_timeout_ms", c.session_timeout_ms.to_string()),
        (
            "scale_down_timeout_ms",
            none(c.scale_down_timeout_ms.map(|n| n.to_string())),
        ),
        ("static_membership", c.static_membership.to_string()),
        ("rack_aware_standbys", c.rack_aware_standbys.to_string()),
        ("restore_rate", c.restore_rate.to_string()),
        ("disk_rate", none(c.disk_rate.map(|n| n.to_string()))),
        ("dirty_ratio", c.dirty_ratio.to_string()),
        (
            "segment_records",
            none(c.segment_records.map(|n| n.to_string())),
        ),
        (
            "state_cleanup_delay_ms",
            c.state_cleanup_delay_ms.to_string(),
        ),
        ("process_rate", c.process_rate.to_string()),
        (
            "kip441.max_warmup_replicas",
            k.max_warmup_replicas.to_string(),
        ),
        (
            "kip441.acceptable_recovery_lag",
            k.acceptable_recovery_lag.to_string(),
        ),
        (
            "kip441.probing_interval_ms",
            k.probing_interval_ms.to_string(),
        ),
    ]
    .into_iter()
    .map(|(name, value)| vec![name.to_string(), value])
    .collect()
}

/// The commands over time.
fn commands(out: &mut String, scenario: &Scenario) {
    if scenario.commands.is_empty() {
        out.push_str("<p>No commands: the run shows the group settling from its start.</p>\n");
        return;
    }
    out.push_str("<ol class=\"commands\">\n");
    for c in &scenario.commands {
        let detail = match &c.command {
            Command::Join(spec) => {
                let mut parts = vec![format!(
                    "{} thread{}",
                    spec.capacity,
                    if spec.capacity == 1 { "" } else { "s" }
                )];
                if let Some(zone) = &spec.zone {
                    parts.push(format!("zone {zone}"));
                }
                format!(" ({})", parts.join(", "))
            }
            _ => String::new(),
        };
        let _ = writeln!(
            out,
            "<li><time>{}</time> {}{}</li>",
            seconds(c.at_ms),
            escape(&c.command.to_string()),
            escape(&detail)
        );
    }
    out.push_str("</ol>\n");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{HandoffMode, Strategy};

    /// `kip441.probing_interval_ms`-style rows of a JSON object, strings without quotes and
    /// null as `none`: the table as the file format spells the settings.
    fn flatten(prefix: &str, value: &serde_json::Value, rows: &mut Vec<Vec<String>>) {
        match value {
            serde_json::Value::Object(map) => {
                for (key, v) in map {
                    let name = if prefix.is_empty() {
                        key.clone()
                    } else {
                        format!("{prefix}.{key}")
                    };
                    flatten(&name, v, rows);
                }
            }
            serde_json::Value::Null => rows.push(vec![prefix.to_string(), "none".to_string()]),
            serde_json::Value::String(s) => rows.push(vec![prefix.to_string(), s.clone()]),
            other => rows.push(vec![prefix.to_string(), other.to_string()]),
        }
    }

    #[test]
    fn the_settings_are_those_of_the_file_format_in_its_order() {
        let mut changed = Config {
            strategy: Strategy::Kip441,
            handoff: HandoffMode::TwoPhase,
            max_learners: Some(3),
            scale_down_timeout_ms: Some(60_000),
            static_membership: true,
            ..Config::default()
        };
        changed.kip441.max_warmup_replicas = 5;
        for config in [Config::default(), changed] {
            let mut expected = Vec::new();
            flatten(
                "",
                &serde_json::to_value(&config).expect("serializes"),
                &mut expected,
            );
            assert_eq!(settings(&config), expected);
        }
    }
}
