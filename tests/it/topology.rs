//! Property tests of the application short forms: any valid `topology` expands into the tasks
//! Kafka Streams would name, with sizes in range and the same every time; files keep the short
//! forms; and running `instances` start balanced within every subtopology, as the metrics
//! measure it.

use handoff::format::{ChangelogSizes, Instances, SizeDistribution, Subtopology, Topology};
use handoff::history::Run;
use handoff::model::{CleanupPolicy, Scenario};
use handoff::views::metrics::Metrics;
use proptest::prelude::*;
use std::collections::HashSet;

fn subtopology() -> impl Strategy<Value = Subtopology> {
    (
        1u32..120,
        any::<bool>(),
        0u64..5_000_000,
        0u64..5_000_000,
        prop_oneof![
            Just(SizeDistribution::Uniform),
            Just(SizeDistribution::Zipf)
        ],
        0u64..5_000,
    )
        .prop_map(
            |(partitions, stateful, a, b, distribution, write_rate)| Subtopology {
                name: String::new(),
                partitions,
                stateful,
                changelog: stateful.then_some(ChangelogSizes {
                    min: a.min(b),
                    max: a.max(b),
                    distribution,
                }),
                write_rate: if stateful { write_rate } else { 0 },
                cleanup: CleanupPolicy::Compact,
                retention_ms: None,
                key_growth: 0,
                process_rate: None,
            },
        )
}

fn topology() -> impl Strategy<Value = Topology> {
    (any::<u64>(), prop::collection::vec(subtopology(), 1..5)).prop_map(|(seed, mut subs)| {
        for (i, s) in subs.iter_mut().enumerate() {
            s.name = format!("sub{i}");
        }
        Topology {
            seed,
            subtopologies: subs,
        }
    })
}

fn scenario(topology: &Topology, instances: &Instances) -> String {
    serde_json::json!({
        "name": "generated",
        "topology": topology,
        "instances": instances,
    })
    .to_string()
}

proptest! {
    /// Every partition is a task named `<subtopology>_<partition>`, with its subtopology's
    /// settings and a size within its range, and the same file gives the same tasks.
    #[test]
    fn a_topology_expands_into_kafka_streams_tasks(t in topology()) {
        let instances = Instances { count: 1, threads: 1, zones: Vec::new(), restore_rate: None, running: false };
        let text = scenario(&t, &instances);
        let s = Scenario::from_json(&text).expect("valid");
        prop_assert_eq!(s.tasks.len() as u64, t.task_count());
        let mut names = HashSet::new();
        let mut at = 0;
        for (index, sub) in t.subtopologies.iter().enumerate() {
            for p in 0..sub.partitions as usize {
                let task = &s.tasks[at];
                at += 1;
                prop_assert_eq!(&task.name, &format!("{index}_{p}"));
                prop_assert_eq!(task.subtopology, Some(index as u32));
                prop_assert_eq!(task.stateful, sub.stateful);
                prop_assert_eq!(task.write_rate, sub.write_rate);
                let range = sub.changelog.unwrap_or_default();
                prop_assert!((range.min..=range.max).contains(&task.changelog));
                prop_assert!(names.insert(task.name.clone()));
            }
            if let Some(c) = sub.changelog.filter(|c| c.distribution == SizeDistribution::Zipf) {
                let mut sizes: Vec<u64> = s.tasks[at - sub.partitions as usize..at].iter().map(|t| t.changelog).collect();
                sizes.sort_by(|a, b| b.cmp(a));
                let expected: Vec<u64> = (1..=u64::from(sub.partitions)).map(|k| (c.max / k).clamp(c.min, c.max)).collect();
                prop_assert_eq!(sizes, expected);
            }
        }
        prop_assert_eq!(&Scenario::from_json(&text).expect("valid again"), &s);
    }

    /// A file written from the scenario holds the short forms and reads back the same.
    #[test]
    fn files_keep_the_short_forms(t in topology(), count in 1u32..30, threads in 1u32..4, zones in 0usize..4, running in any::<bool>()) {
        let instances = Instances {
            count,
            threads,
            zones: (0..zones).map(|z| format!("z{z}")).collect(),
            restore_rate: None,
            running,
        };
        let s = Scenario::from_json(&scenario(&t, &instances)).expect("valid");
        let file = s.to_file(&s.commands);
        prop_assert!(file.tasks.is_empty() && file.members.is_empty());
        prop_assert_eq!(file.topology.as_ref(), Some(&t));
        prop_assert_eq!(file.instances.as_ref(), Some(&instances));
        prop_assert_eq!(Scenario::from_json(&s.to_json(&s.commands)).expect("reads back"), s);
    }

    /// Running instances start with every task, balanced overall and within every
    /// subtopology (spread at most 1), as the metrics measure it at time 0.
    #[test]
    fn running_instances_start_balanced_in_every_subtopology(t in topology(), count in 1u32..40, threads in 1u32..4) {
        let instances = Instances { count, threads, zones: Vec::new(), restore_rate: None, running: true };
        let s = Scenario::from_json(&scenario(&t, &instances)).expect("valid");
        let run = Run::new(s);
        let m = Metrics::of(run.engine());
        prop_assert!(m.at_rest && m.balanced);
        prop_assert_eq!(m.rebalances, 0);
        prop_assert_eq!(m.subtopology_balance.len(), t.subtopologies.len());
        for b in &m.subtopology_balance {
            prop_assert!(b.spread() <= 1, "{:?}", b);
            prop_assert_eq!(b.tasks, t.subtopologies[b.subtopology as usize].partitions);
        }
    }
}
