//! How evenly work is spread, by the measures Kafka Streams' own tests use for "balanced":
//! active tasks per unit of capacity, stateful active tasks per unit of capacity, and stateful
//! replicas (active, standby or learner) per unit of capacity, each differing by at most one
//! between members (docs/design.md, rule 8).

/// What one member holds, as the measures read it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MemberLoad {
    /// Its capacity (at least 1).
    pub capacity: u32,
    /// Its zone, if it reports one.
    pub zone: Option<String>,
    /// Active tasks it runs.
    pub active: usize,
    /// Stateful active tasks it runs.
    pub stateful_active: usize,
    /// Stateful tasks it holds a replica of: active, standby or learner.
    pub stateful_replicas: usize,
}

/// The spread of each measure: the most loaded member's tasks per unit of capacity minus the
/// least loaded one's. Balanced means each is at most 1.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Skew {
    /// Active tasks per unit of capacity.
    pub active: f64,
    /// Stateful active tasks per unit of capacity.
    pub stateful_active: f64,
    /// Stateful replicas per unit of capacity. A member that already holds every stateful
    /// task cannot take more, so it does not count as the least loaded; and where replicas
    /// are spread over zones first ([`zones_in_use`]), members are compared within their zone.
    pub stateful_replicas: f64,
}

/// Rounding slack when comparing loads computed as fractions.
const SLACK: f64 = 1e-9;

impl Skew {
    /// The skews of a group: `stateful_tasks` is the number of stateful tasks of the
    /// application, `by_zone` whether replicas are spread over zones first.
    pub fn of(members: &[MemberLoad], stateful_tasks: usize, by_zone: bool) -> Skew {
        let per_capacity = |n: usize, m: &MemberLoad| n as f64 / f64::from(m.capacity.max(1));
        let spread = |value: &dyn Fn(&MemberLoad) -> f64| {
            let values = members.iter().map(value);
            let max = values.clone().fold(f64::NEG_INFINITY, f64::max);
            let min = values.fold(f64::INFINITY, f64::min);
            if members.is_empty() {
                0.0
            } else {
                max - min
            }
        };
        let mut replicas: f64 = 0.0;
        for (i, m) in members.iter().enumerate() {
            let same_group = |o: &&MemberLoad| !by_zone || o.zone == m.zone;
            let first_of_group = members[..i].iter().all(|o| !same_group(&o));
            if !first_of_group {
                continue;
            }
            let group: Vec<&MemberLoad> = members.iter().filter(same_group).collect();
            let max = group
                .iter()
                .map(|o| per_capacity(o.stateful_replicas, o))
                .fold(f64::NEG_INFINITY, f64::max);
            let min = group
                .iter()
                .filter(|o| o.stateful_replicas < stateful_tasks)
                .map(|o| per_capacity(o.stateful_replicas, o))
                .fold(f64::INFINITY, f64::min);
            if min.is_finite() {
                replicas = replicas.max(max - min);
            }
        }
        Skew {
            active: spread(&|m| per_capacity(m.active, m)),
            stateful_active: spread(&|m| per_capacity(m.stateful_active, m)),
            stateful_replicas: replicas,
        }
    }

    /// Whether every measure is at most 1.
    pub fn balanced(&self) -> bool {
        self.active <= 1.0 + SLACK
            && self.stateful_active <= 1.0 + SLACK
            && self.stateful_replicas <= 1.0 + SLACK
    }
}

/// Whether replicas are spread over zones: zone-aware placement is on and every member
/// reports a zone (as Kafka Streams uses rack-aware assignment only when every client has a
/// rack).
pub fn zones_in_use<'a>(
    rack_aware: bool,
    mut zones: impl Iterator<Item = Option<&'a str>>,
) -> bool {
    rack_aware && zones.all(|z| z.is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(
        capacity: u32,
        zone: &str,
        active: usize,
        stateful: usize,
        replicas: usize,
    ) -> MemberLoad {
        MemberLoad {
            capacity,
            zone: (!zone.is_empty()).then(|| zone.to_string()),
            active,
            stateful_active: stateful,
            stateful_replicas: replicas,
        }
    }

    #[test]
    fn loads_are_compared_per_unit_of_capacity() {
        let skew = Skew::of(&[load(2, "", 4, 2, 4), load(1, "", 1, 1, 2)], 4, false);
        assert_eq!(skew.active, 1.0);
        assert_eq!(skew.stateful_active, 0.0);
        assert_eq!(skew.stateful_replicas, 0.0);
        assert!(skew.balanced());
    }

    #[test]
    fn the_issue_example_is_not_balanced() {
        let totals = [3, 3, 4, 4, 10, 10, 10, 10, 10, 10, 10, 10, 10, 11];
        let members: Vec<MemberLoad> = totals.iter().map(|&t| load(1, "", 0, 0, t)).collect();
        let skew = Skew::of(&members, 100, false);
        assert_eq!(skew.stateful_replicas, 8.0);
        assert!(!skew.balanced());
    }

    #[test]
    fn a_member_holding_every_stateful_task_is_not_the_least_loaded() {
        // Capacities 1 and 3, three stateful tasks with one standby: both hold all three.
        let skew = Skew::of(&[load(1, "", 2, 2, 3), load(3, "", 1, 1, 3)], 3, false);
        assert_eq!(skew.stateful_replicas, 0.0);
        assert!(
            Skew::of(&[load(1, "", 0, 0, 3), load(1, "", 0, 0, 1)], 4, false).stateful_replicas
                == 2.0
        );
    }

    #[test]
    fn with_zones_replicas_are_compared_within_a_zone() {
        let members = [
            load(1, "a", 1, 1, 5),
            load(1, "b", 1, 1, 2),
            load(1, "b", 1, 1, 3),
        ];
        assert_eq!(Skew::of(&members, 9, true).stateful_replicas, 1.0);
        assert_eq!(Skew::of(&members, 9, false).stateful_replicas, 3.0);
    }

    #[test]
    fn zones_count_only_when_every_member_has_one() {
        assert!(zones_in_use(true, [Some("a"), Some("b")].into_iter()));
        assert!(!zones_in_use(true, [Some("a"), None].into_iter()));
        assert!(!zones_in_use(false, [Some("a")].into_iter()));
    }
}
