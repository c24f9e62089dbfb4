//! The short forms of a scenario file, expanded into the model's tasks and members: a
//! `topology` gives tasks named as Kafka Streams names them (`<subtopology>_<partition>`) with
//! changelog sizes derived from a seed, and `instances` gives members by count, with threads
//! and zones, optionally already running the application.
//!
//! Sizes come from no randomness source: the size of partition `p` of subtopology `s` is a
//! function of the topology's `seed` and the task's position `(s << 32) | p` through
//! [`splitmix64`], so the same file always gives the same tasks, natively and in wasm.

use super::validate::{
    check_changelog, check_name, check_rate, cleanup, member_spec, process_rate,
};
use super::{ScenarioError, MAX_MEMBERS, MAX_TASKS, MAX_THREADS};
pub use crate::model::{ChangelogSizes, Instances, SizeDistribution, Subtopology, Topology};
use crate::model::{MemberId, MemberSpec, Task};
use std::collections::HashSet;

/// The increment of the splitmix64 generator (2^64 divided by the golden ratio).
const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// The `n`-th output (from 0) of Steele, Lea and Flood's splitmix64 generator started at
/// `seed`: the state after `n + 1` steps of `+ GOLDEN_GAMMA`, through its mixing function.
/// A well-known, well-mixed hash of `(seed, n)` that any language can reproduce.
pub fn splitmix64(seed: u64, n: u64) -> u64 {
    let mut z = seed.wrapping_add(GOLDEN_GAMMA.wrapping_mul(n.wrapping_add(1)));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The hash of one task of a topology: [`splitmix64`] of the seed at the task's position
/// `(subtopology << 32) | partition`, so that sizes in one subtopology do not change when
/// another gains partitions.
fn task_hash(seed: u64, subtopology: u32, partition: u32) -> u64 {
    splitmix64(seed, (u64::from(subtopology) << 32) | u64::from(partition))
}

/// The changelog sizes of one subtopology's partitions, in partition order.
///
/// - `uniform`: `min + hash % (max - min + 1)`.
/// - `zipf`: partitions are ranked by their hash (smallest first, ties by partition); the
///   partition of rank `k` (from 1) holds `max / k` records (integer division), at least
///   `min`. So the largest partition holds `max`, the next `max / 2`, then `max / 3`: a few
///   hot partitions, as keyed data often has; which partitions are hot depends on the seed.
pub fn changelog_sizes(
    seed: u64,
    subtopology: u32,
    partitions: u32,
    sizes: ChangelogSizes,
) -> Vec<u64> {
    let hashes: Vec<u64> = (0..partitions)
        .map(|p| task_hash(seed, subtopology, p))
        .collect();
    match sizes.distribution {
        SizeDistribution::Uniform => {
            // `max - min + 1` overflows only for the full range, where the hash itself is the
            // uniform draw (and `min` is 0).
            let span = sizes.max.saturating_sub(sizes.min).checked_add(1);
            hashes
                .iter()
                .map(|&h| sizes.min + span.map_or(h, |span| h % span))
                .collect()
        }
        SizeDistribution::Zipf => {
            let mut order: Vec<(u64, u32)> = hashes.iter().copied().zip(0..partitions).collect();
            order.sort();
            let mut out = vec![0; partitions as usize];
            for (rank, &(_, p)) in (1u64..).zip(&order) {
                out[p as usize] = (sizes.max / rank).clamp(sizes.min, sizes.max);
            }
            out
        }
    }
}

/// The tasks of a topology, subtopology by subtopology, partition by partition; refuses bad
/// input with the field that is wrong (`topology.subtopologies[1].partitions: ...`). What a
/// scenario file's `topology` becomes; a form can call it to check its input as it changes.
pub fn topology_tasks(topology: &Topology) -> Result<Vec<Task>, ScenarioError> {
    if topology.subtopologies.is_empty() {
        return Err(ScenarioError::invalid(
            "topology.subtopologies",
            "an application needs at least one subtopology",
        ));
    }
    let mut names = HashSet::new();
    for (i, s) in topology.subtopologies.iter().enumerate() {
        let field = format!("topology.subtopologies[{i}]");
        check_name(&format!("{field}.name"), &s.name)?;
        if !names.insert(s.name.as_str()) {
            return Err(ScenarioError::invalid(
                format!("{field}.name"),
                format!("subtopology {} is listed twice", s.name),
            ));
        }
        if s.partitions == 0 {
            return Err(ScenarioError::invalid(
                format!("{field}.partitions"),
                "a subtopology needs at least 1 partition (one task per partition)",
            ));
        }
        if s.partitions as usize > MAX_TASKS {
            return Err(too_many_tasks(
                &format!("{field}.partitions"),
                u64::from(s.partitions),
            ));
        }
        check_rate(&format!("{field}.write_rate"), s.write_rate)?;
        if let Some(c) = s.changelog {
            check_changelog(&format!("{field}.changelog.max"), c.max)?;
        }
        match (s.stateful, s.changelog) {
            (true, Some(c)) if c.min > c.max => {
                return Err(ScenarioError::invalid(
                    format!("{field}.changelog"),
                    format!("min ({}) is above max ({})", c.min, c.max),
                ))
            }
            (false, Some(_)) => {
                return Err(ScenarioError::invalid(
                    format!("{field}.changelog"),
                    "a stateless subtopology has no changelog (leave it out or set stateful to true)",
                ))
            }
            (false, None) if s.write_rate > 0 => {
                return Err(ScenarioError::invalid(
                    format!("{field}.write_rate"),
                    "a stateless subtopology writes no changelog (leave it out or set stateful to true)",
                ))
            }
            _ => {}
        }
    }
    let total = topology.task_count();
    if total > MAX_TASKS as u64 {
        return Err(too_many_tasks("topology", total));
    }
    let mut tasks = Vec::with_capacity(total as usize);
    for (index, s) in (0u32..).zip(&topology.subtopologies) {
        let sizes = changelog_sizes(
            topology.seed,
            index,
            s.partitions,
            s.changelog.unwrap_or_default(),
        );
        let field = format!("topology.subtopologies[{index}]");
        let cleanup = cleanup(&field, s.cleanup, s.retention_ms, s.key_growth)?;
        let process_rate = process_rate(&field, s.process_rate)?;
        for (p, changelog) in sizes.into_iter().enumerate() {
            tasks.push(Task {
                subtopology: Some(index),
                cleanup,
                key_growth: if s.stateful { s.key_growth } else { 0 },
                process_rate,
                ..Task::new(format!("{index}_{p}"), s.stateful, changelog, s.write_rate)
            });
        }
    }
    Ok(tasks)
}

/// The error for more tasks than a scenario may have, at `field`.
fn too_many_tasks(field: &str, tasks: u64) -> ScenarioError {
    ScenarioError::invalid(
        field,
        format!(
            "{tasks} tasks, over the limit of {MAX_TASKS} a scenario may have: the playground draws every task"
        ),
    )
}

/// The members of `instances`: `S1` to `S<count>`, zones dealt in turn; refuses bad input
/// with the field that is wrong (`instances.threads: ...`).
pub fn instance_members(instances: &Instances) -> Result<Vec<MemberSpec>, ScenarioError> {
    if instances.count == 0 {
        return Err(ScenarioError::invalid(
            "instances.count",
            "give at least 1 instance (or leave `instances` out)",
        ));
    }
    if instances.count as usize > MAX_MEMBERS {
        return Err(ScenarioError::invalid(
            "instances.count",
            format!(
                "{} instances, over the limit of {MAX_MEMBERS} members a scenario may have: the playground draws every member",
                instances.count
            ),
        ));
    }
    if instances.threads == 0 || instances.threads > MAX_THREADS {
        return Err(ScenarioError::invalid(
            "instances.threads",
            format!("an instance runs between 1 and {MAX_THREADS} threads"),
        ));
    }
    let mut zones = HashSet::new();
    for (i, zone) in instances.zones.iter().enumerate() {
        check_name(&format!("instances.zones[{i}]"), zone)?;
        if !zones.insert(zone.as_str()) {
            return Err(ScenarioError::invalid(
                format!("instances.zones[{i}]"),
                format!("zone {zone} is listed twice"),
            ));
        }
    }
    (0..instances.count as usize)
        .map(|i| {
            member_spec(
                "instances",
                &Instances::name(i),
                instances.threads,
                instances.restore_rate,
                instances.zone(i),
            )
        })
        .collect()
}

/// The owners of a running start: the stateful tasks dealt in turn over the members, then
/// the stateless ones, the turn going on where it stopped. With equal capacities this is
/// balanced as the leader balances (active tasks and stateful tasks per member differ by at
/// most one) and within every subtopology (its tasks are dealt consecutively).
pub fn running_owners(tasks: &[Task], members: usize) -> Vec<Option<MemberId>> {
    let mut owners = vec![None; tasks.len()];
    if members == 0 {
        return owners;
    }
    let stateful = (0..tasks.len()).filter(|&t| tasks[t].stateful);
    let stateless = (0..tasks.len()).filter(|&t| !tasks[t].stateful);
    for (turn, t) in stateful.chain(stateless).enumerate() {
        owners[t] = Some(MemberId((turn % members) as u32));
    }
    owners
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::CleanupPolicy;
    use crate::model::Scenario;

    fn subtopology(partitions: u32, min: u64, max: u64, d: SizeDistribution) -> Topology {
        Topology {
            seed: 7,
            subtopologies: vec![Subtopology {
                name: "orders".to_string(),
                partitions,
                stateful: true,
                changelog: Some(ChangelogSizes {
                    min,
                    max,
                    distribution: d,
                }),
                write_rate: 10,
                cleanup: CleanupPolicy::Compact,
                retention_ms: None,
                key_growth: 0,
                process_rate: None,
            }],
        }
    }

    #[test]
    fn splitmix64_gives_the_reference_outputs() {
        // The first outputs of splitmix64 seeded with 0, as its reference implementation
        // prints them.
        assert_eq!(splitmix64(0, 0), 0xE220_A839_7B1D_CDAF);
        assert_eq!(splitmix64(0, 1), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(splitmix64(0, 2), 0x06C4_5D18_8009_454F);
    }

    #[test]
    fn uniform_sizes_stay_in_range_and_depend_on_the_seed_only() {
        let sizes = ChangelogSizes {
            min: 1_000,
            max: 2_000,
            distribution: SizeDistribution::Uniform,
        };
        let a = changelog_sizes(1, 0, 500, sizes);
        assert!(a.iter().all(|&s| (1_000..=2_000).contains(&s)));
        assert_eq!(a, changelog_sizes(1, 0, 500, sizes), "deterministic");
        assert_ne!(a, changelog_sizes(2, 0, 500, sizes), "another seed");
        assert_ne!(a, changelog_sizes(1, 1, 500, sizes), "another subtopology");
        // A growing subtopology keeps the sizes of its first partitions.
        assert_eq!(a[..100], changelog_sizes(1, 0, 100, sizes)[..]);
        // Spread over the range: both ends' tenths are hit.
        assert!(a.iter().any(|&s| s < 1_100) && a.iter().any(|&s| s > 1_900));
        let full = ChangelogSizes {
            min: 0,
            max: u64::MAX,
            distribution: SizeDistribution::Uniform,
        };
        assert_eq!(changelog_sizes(3, 0, 4, full).len(), 4, "no overflow");
    }

    #[test]
    fn zipf_sizes_are_max_over_rank_clamped_and_shuffled() {
        let sizes = ChangelogSizes {
            min: 1_000,
            max: 60_000,
            distribution: SizeDistribution::Zipf,
        };
        let got = changelog_sizes(7, 0, 100, sizes);
        let mut sorted = got.clone();
        sorted.sort_by(|a, b| b.cmp(a));
        let expected: Vec<u64> = (1..=100u64).map(|k| (60_000 / k).max(1_000)).collect();
        assert_eq!(sorted, expected, "rank k holds max / k, at least min");
        assert_ne!(
            got, expected,
            "the hot partitions are not simply the first ones"
        );
        assert_eq!(got, changelog_sizes(7, 0, 100, sizes));
    }

    #[test]
    fn tasks_are_named_as_kafka_streams_names_them() {
        let mut t = subtopology(3, 5, 5, SizeDistribution::Uniform);
        t.subtopologies.push(Subtopology {
            name: "enrich".to_string(),
            partitions: 2,
            stateful: false,
            changelog: None,
            write_rate: 0,
            cleanup: CleanupPolicy::Compact,
            retention_ms: None,
            key_growth: 0,
            process_rate: None,
        });
        let tasks = topology_tasks(&t).expect("valid");
        let names: Vec<&str> = tasks.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["0_0", "0_1", "0_2", "1_0", "1_1"]);
        assert!(tasks[..3]
            .iter()
            .all(|t| t.changelog == 5 && t.write_rate == 10));
        assert!(tasks[3..].iter().all(|t| !t.stateful && t.changelog == 0));
        let subs: Vec<Option<u32>> = tasks.iter().map(|t| t.subtopology).collect();
        assert_eq!(subs, [Some(0), Some(0), Some(0), Some(1), Some(1)]);
    }

    #[test]
    fn bad_topologies_name_the_field() {
        let field = |t: Topology| match topology_tasks(&t) {
            Err(ScenarioError::Invalid { field, .. }) => field,
            other => panic!("expected an invalid field, got {other:?}"),
        };
        assert_eq!(
            field(subtopology(0, 1, 2, SizeDistribution::Uniform)),
            "topology.subtopologies[0].partitions"
        );
        assert_eq!(
            field(subtopology(4, 3, 2, SizeDistribution::Zipf)),
            "topology.subtopologies[0].changelog"
        );
        assert_eq!(
            field(subtopology(50_001, 1, 2, SizeDistribution::Zipf)),
            "topology.subtopologies[0].partitions"
        );
        let mut two = subtopology(30_000, 1, 2, SizeDistribution::Uniform);
        two.subtopologies.push(Subtopology {
            name: "other".to_string(),
            ..two.subtopologies[0].clone()
        });
        assert_eq!(field(two.clone()), "topology");
        two.subtopologies[1].name = "orders".to_string();
        assert_eq!(field(two), "topology.subtopologies[1].name");
        assert_eq!(
            field(Topology {
                seed: 0,
                subtopologies: Vec::new()
            }),
            "topology.subtopologies"
        );
    }

    #[test]
    fn instances_deal_zones_in_turn() {
        let members = instance_members(&Instances {
            count: 4,
            threads: 2,
            zones: vec!["a".to_string(), "b".to_string(), "c".to_string()],
            restore_rate: Some(5),
            running: false,
        })
        .expect("valid");
        let got: Vec<(&str, u32, Option<&str>)> = members
            .iter()
            .map(|m| (m.name.as_str(), m.capacity, m.zone.as_deref()))
            .collect();
        assert_eq!(
            got,
            [
                ("S1", 2, Some("a")),
                ("S2", 2, Some("b")),
                ("S3", 2, Some("c")),
                ("S4", 2, Some("a"))
            ]
        );
        assert!(members.iter().all(|m| m.restore_rate == Some(5)));
    }

    #[test]
    fn a_running_start_deals_stateful_tasks_first_and_each_subtopology_in_turn() {
        let task = |stateful: bool| Task::new("", stateful, 0, 0);
        // A stateful subtopology of 3, a stateless one of 4, a stateful one of 3, on 4 members.
        let tasks: Vec<Task> = [
            true, true, true, false, false, false, false, true, true, true,
        ]
        .into_iter()
        .map(task)
        .collect();
        let owners = running_owners(&tasks, 4);
        let count = |m: u32, range: std::ops::Range<usize>, stateful: Option<bool>| {
            range
                .filter(|&t| stateful.is_none_or(|s| tasks[t].stateful == s))
                .filter(|&t| owners[t] == Some(MemberId(m)))
                .count()
        };
        for m in 0..4 {
            assert!((2..=3).contains(&count(m, 0..10, None)), "all tasks");
            assert!(
                (1..=2).contains(&count(m, 0..10, Some(true))),
                "stateful tasks"
            );
            assert!(count(m, 0..3, None) <= 1 && count(m, 3..7, None) == 1);
        }
        assert!(running_owners(&tasks[..3], 0).iter().all(Option::is_none));
    }

    const APPLICATION: &str = r#"{ "name": "shop",
        "topology": { "seed": 9, "subtopologies": [
            { "name": "orders", "partitions": 5, "changelog": { "min": 10, "max": 900, "distribution": "zipf" }, "write_rate": 3 },
            { "name": "enrich", "partitions": 3, "stateful": false } ] },
        "instances": { "count": 3, "threads": 2, "zones": ["a", "b"], "running": true },
        "events": [ { "at_ms": 10, "join": "S4", "zone": "b" } ] }"#;

    #[test]
    fn a_topology_and_instances_expand_into_tasks_members_and_a_running_start() {
        let s = Scenario::from_json(APPLICATION).expect("parses");
        let names: Vec<&str> = s.tasks.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(
            names,
            ["0_0", "0_1", "0_2", "0_3", "0_4", "1_0", "1_1", "1_2"]
        );
        let members: Vec<(&str, u32, Option<&str>)> = s
            .members
            .iter()
            .map(|m| (m.name.as_str(), m.capacity, m.zone.as_deref()))
            .collect();
        assert_eq!(
            members,
            [
                ("S1", 2, Some("a")),
                ("S2", 2, Some("b")),
                ("S3", 2, Some("a"))
            ]
        );
        let owners: Vec<u32> = s
            .initial
            .as_ref()
            .expect("running")
            .iter()
            .map(|o| o.expect("every task owned").0)
            .collect();
        assert_eq!(owners, [0, 1, 2, 0, 1, 2, 0, 1]);
        assert_eq!(
            Scenario::from_json(APPLICATION).expect("parses again"),
            s,
            "the same file gives the same tasks"
        );
    }

    #[test]
    fn files_and_links_keep_the_topology_and_instances_rather_than_every_task() {
        let s = Scenario::from_json(APPLICATION).expect("parses");
        let file = s.to_file(&s.commands);
        assert!(file.tasks.is_empty() && file.members.is_empty() && file.initial.is_none());
        assert_eq!(file.topology, s.topology);
        assert_eq!(file.instances, s.instances);
        let json = s.to_json(&s.commands);
        assert!(!json.contains("\"0_1\""), "no expanded task in {json}");
        assert_eq!(Scenario::from_json(&json).expect("parses again"), s);
    }

    #[test]
    fn short_forms_and_long_forms_do_not_mix() {
        let refused = |text: &str, field: &str| {
            let err = Scenario::from_json(text).expect_err("refused");
            assert!(err.to_string().starts_with(field), "{err}");
            assert_eq!(err.to_string().lines().count(), 1);
        };
        refused(
            r#"{ "name": "x", "tasks": [ { "id": "T1" } ],
                 "topology": { "subtopologies": [ { "name": "a", "partitions": 1 } ] } }"#,
            "topology: give the application's tasks one by one",
        );
        refused(
            r#"{ "name": "x", "members": [ { "id": "S1" } ], "instances": { "count": 2 } }"#,
            "instances: give the members one by one",
        );
        refused(
            r#"{ "name": "x", "tasks": [ { "id": "T1" } ], "instances": { "count": 1, "running": true },
                 "initial": { "S1": ["T1"] } }"#,
            "instances.running",
        );
        refused(
            r#"{ "name": "x", "topology": { "subtopologies": [
                 { "name": "a", "partitions": 2, "changelog": { "min": 1, "max": 2, "distribution": "pareto" } } ] } }"#,
            "topology.subtopologies[0].changelog.distribution: unknown variant `pareto`",
        );
        refused(
            r#"{ "name": "x", "instances": { "count": 2, "threads": 0 } }"#,
            "instances.threads",
        );
    }
}
