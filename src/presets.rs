//! Ready-made scenarios: the seed's four examples, an empty group and the operations people
//! run in production (a rolling deployment with static and with dynamic membership, a zone
//! outage, a restart that lost its disk), the seed's scale-up with production-sized stores,
//! shipped as files in `scenarios/` and compiled in;
//! and generated groups of any size for benchmarks and the playground's large demo.

use crate::format::ScenarioError;
use crate::model::{Command, MemberSpec, Scenario, TimedCommand};
use crate::model::{Config, MemberId, Task};

/// A scenario that ships with Handoff.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Preset {
    /// A stable identifier, used in links.
    pub id: &'static str,
    /// The title people see (the seed's own scenario names).
    pub name: &'static str,
    /// The scenario file.
    pub json: &'static str,
}

/// The presets, in the order the playground lists them.
pub const PRESETS: [Preset; 10] = [
    Preset {
        id: "scale-up-running",
        name: "Scale Up Running Application",
        json: include_str!("../scenarios/scale-up-running.json"),
    },
    Preset {
        id: "scale-up-empty",
        name: "Scale Up from Empty Group",
        json: include_str!("../scenarios/scale-up-empty.json"),
    },
    Preset {
        id: "scale-down-running",
        name: "Scale Down Running Application",
        json: include_str!("../scenarios/scale-down-running.json"),
    },
    Preset {
        id: "leader-transfer",
        name: "Leader Transfer During Scaling",
        json: include_str!("../scenarios/leader-transfer.json"),
    },
    Preset {
        id: "empty-group",
        name: "Empty group",
        json: include_str!("../scenarios/empty-group.json"),
    },
    Preset {
        id: "rolling-deployment-static",
        name: "Rolling deployment: static membership",
        json: include_str!("../scenarios/rolling-deployment-static.json"),
    },
    Preset {
        id: "rolling-deployment-dynamic",
        name: "Rolling deployment: dynamic membership",
        json: include_str!("../scenarios/rolling-deployment-dynamic.json"),
    },
    Preset {
        id: "zone-failure",
        name: "A zone fails, with zone-aware standbys",
        json: include_str!("../scenarios/zone-failure.json"),
    },
    Preset {
        id: "lost-disk",
        name: "A restart that lost its disk",
        json: include_str!("../scenarios/lost-disk.json"),
    },
    Preset {
        id: "scale-up-realistic",
        name: "Scale Up Running Application, realistic changelogs",
        json: include_str!("../scenarios/realistic/scale-up.json"),
    },
];

impl Preset {
    /// Finds a preset by its id.
    pub fn find(id: &str) -> Option<Preset> {
        PRESETS.into_iter().find(|p| p.id == id)
    }

    /// The preset's scenario.
    pub fn scenario(&self) -> Result<Scenario, ScenarioError> {
        Scenario::from_json(self.json)
    }
}

/// A stable group of `before` members sharing `tasks` stateful tasks evenly, which grows to
/// `after` members at time 0: the scale-out the benchmarks measure. Changelogs vary from task
/// to task so that the cheapest-first rule has something to choose.
pub fn scale_out(before: usize, after: usize, tasks: usize) -> Scenario {
    let task_list: Vec<Task> = (0..tasks)
        .map(|i| {
            let changelog = 20_000 + (i as u64 * 7_919) % 60_000;
            Task::new(format!("T{}", i + 1), true, changelog, 50)
        })
        .collect();
    let members: Vec<MemberSpec> = (0..before)
        .map(|i| MemberSpec {
            name: format!("S{}", i + 1),
            capacity: 1,
            restore_rate: None,
            zone: None,
        })
        .collect();
    let initial = (before > 0).then(|| {
        (0..tasks)
            .map(|t| Some(MemberId((t % before) as u32)))
            .collect()
    });
    let commands = (before..after)
        .map(|i| TimedCommand {
            at_ms: 0,
            command: Command::Join(MemberSpec {
                name: format!("S{}", i + 1),
                capacity: 1,
                restore_rate: None,
                zone: None,
            }),
        })
        .collect();
    Scenario {
        name: format!("Scale out from {before} to {after} members with {tasks} tasks"),
        description: String::new(),
        config: Config {
            restore_rate: 50_000,
            ..Config::default()
        },
        tasks: task_list,
        members,
        initial,
        commands,
        until_ms: None,
        topology: None,
        instances: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_parses_under_its_name() {
        for preset in PRESETS {
            let scenario = preset.scenario().expect("preset parses");
            assert_eq!(scenario.name, preset.name);
        }
        assert!(Preset::find("leader-transfer").is_some());
        assert!(Preset::find("nope").is_none());
    }

    #[test]
    fn scale_out_starts_balanced_and_grows() {
        let s = scale_out(3, 5, 10);
        assert_eq!(s.members.len(), 3);
        assert_eq!(s.commands.len(), 2);
        let owners = s.initial.expect("stable start");
        assert_eq!(
            owners.iter().filter(|o| **o == Some(MemberId(0))).count(),
            4
        );
    }
}
