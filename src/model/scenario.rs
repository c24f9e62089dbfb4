//! A validated scenario: the group, its tasks, the configuration and the commands over time.
//! Scenario files are read into one by the `format` module; the engine starts from one.

use super::{Config, Instances, MemberId, MemberSpec, Task, TimedCommand, Topology};

/// A validated scenario, ready to simulate.
#[derive(Clone, Debug, PartialEq)]
pub struct Scenario {
    /// A title.
    pub name: String,
    /// What it shows.
    pub description: String,
    /// Settings.
    pub config: Config,
    /// The tasks.
    pub tasks: Vec<Task>,
    /// The members at the start, in join order.
    pub members: Vec<MemberSpec>,
    /// The initial owner of each task, if the group starts stable.
    pub initial: Option<Vec<Option<MemberId>>>,
    /// Commands, sorted by time (ties keep the file's order).
    pub commands: Vec<TimedCommand>,
    /// Where a run stops at the latest.
    pub until_ms: Option<u64>,
    /// The topology the tasks were derived from, if the file gave one: kept so that files
    /// and links written from this scenario carry it rather than every task.
    pub topology: Option<Topology>,
    /// The instances the members were derived from, if the file gave them by count.
    pub instances: Option<Instances>,
}

impl Scenario {
    /// The same scenario under another strategy.
    pub fn with_strategy(&self, strategy: super::Strategy) -> Scenario {
        let mut s = self.clone();
        s.config.strategy = strategy;
        s
    }
}
