//! One glossary for every term the playground uses, in our own words; every tooltip and every
//! tour reads its definitions here.

/// A term and what it means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The term, lower case.
    pub term: &'static str,
    /// Its meaning, one or two sentences.
    pub meaning: &'static str,
}

/// Every term, alphabetically.
pub const GLOSSARY: [Entry; 40] = [
    Entry { term: "acceptable lag", meaning: "How many records behind the changelog end a learner or standby may be and still count as ready (caught up)." },
    Entry { term: "active", meaning: "The member processes this task. A stateful active whose store lags must first restore, and the task is down meanwhile." },
    Entry { term: "assignment epoch", meaning: "Under Kafka's streams protocol, the group epoch the current target assignment was computed for. Behind the group epoch, the coordinator has a new target to compute at the next heartbeat." },
    Entry { term: "at rest", meaning: "No rebalance running or pending, no learner, and every task processed: nothing more happens until something changes." },
    Entry { term: "backlog", meaning: "Input that piled up while a task was down, at its write rate. Once the task runs again it works the backlog off at its processing rate less the input that keeps arriving." },
    Entry { term: "balanced", meaning: "Work is spread in proportion to capacity, as Kafka Streams measures it: per unit of capacity, members' active tasks, stateful active tasks and stateful replicas (active, learner, standby) each differ by at most one." },
    Entry { term: "capacity", meaning: "How many stream threads a member runs: active tasks are balanced in proportion to it, and each thread restores at the restore rate." },
    Entry { term: "changelog", meaning: "The log a stateful task writes its state changes to; replaying it rebuilds the task's store on another member." },
    Entry { term: "closed", meaning: "A member shut down without leaving the group, as Kafka Streams closes an instance under the classic protocol: the coordinator counts it, and its tasks stay down, until its session times out." },
    Entry { term: "compacted", meaning: "A changelog that keeps one record per key once the log cleaner has run (Kafka's cleanup.policy=compact): it holds the store's keys plus what was written since the last cleaning." },
    Entry { term: "dirty ratio", meaning: "The share of a compacted changelog written since its last cleaning at which the log cleaner compacts it again (Kafka's min.cleanable.dirty.ratio, 0.5: the log swings between one and two times its keys)." },
    Entry { term: "downtime", meaning: "Time during which no member processes a task although some member is alive or restarting: from the moment its owner stops until a new owner runs it with a caught-up store." },
    Entry { term: "drain", meaning: "An operator tells a member to leave. In the learner design it rejoins as leaving, its tasks move to learners on the others, and it shuts down once it runs nothing; under the other strategies it closes at once." },
    Entry { term: "generation", meaning: "The group's version number: each rebalance that reaches an assignment creates the next generation." },
    Entry { term: "group epoch", meaning: "Under Kafka's streams protocol (KIP-1071), the group's version number: the coordinator bumps it when a member joins, leaves or is fenced (and, with trunk's refiner, when a warm-up is promoted); each new epoch gets a new target assignment. It stands where the classic protocol's generation stands." },
    Entry { term: "heartbeat", meaning: "A member's regular word to the coordinator, every 3 s by default. A member that did not cause a rebalance learns of it at its next heartbeat and rejoins then; a session runs from the last one. Under Kafka's streams protocol heartbeats (every 5 s) carry everything: the coordinator assigns in them and members reconcile in them." },
    Entry { term: "leader", meaning: "The longest-standing live member. It computes every assignment, only from what the members report when they join, so a new leader decides exactly as the old one would." },
    Entry { term: "learned", meaning: "An active task that some learner is replaying elsewhere (the seed's isLearned); its owner will hand it over once the learner is ready." },
    Entry { term: "learner", meaning: "A member replaying the changelog of a task that another member still runs (the seed's isLearner). The task stays up meanwhile." },
    Entry { term: "leaving", meaning: "A member told to drain: it gets no new work and leaves once it runs nothing (or at its scale-down timeout)." },
    Entry { term: "member", meaning: "A stream worker in the group (a Kafka Streams instance). It runs tasks, learns them or keeps standbys, and restores state on each of its stream threads." },
    Entry { term: "orphan", meaning: "A task no live member runs (new, released, or left by a crashed member). It is assigned in the same round, to the most caught-up member." },
    Entry { term: "ready", meaning: "A learner within the acceptable lag of the changelog end (the seed's isReady). A ready learner can take the task over with almost no pause." },
    Entry { term: "rebalance", meaning: "A round in which every member rejoins with its metadata, the leader assigns, and the members receive the assignment." },
    Entry { term: "reconcile", meaning: "Under Kafka's streams protocol, what a member does at its heartbeats to reach its target assignment: it first gives up what it must and says so, and is granted a task only once the task's old owner has given it up." },
    Entry { term: "refiner", meaning: "Kafka trunk's warm-up refiner, proposed and not merged (nothing released has it): on top of the streams protocol's target, it holds a stateful move back while a warm-up on the new owner catches up, and promotes the warm-up with a new group epoch as soon as it has (the seed's idea)." },
    Entry { term: "release at join", meaning: "A handoff mode: an owner releases its learned tasks when it rejoins, and the leader gives each to its ready learner, or back to the owner." },
    Entry { term: "restart", meaning: "A member's process stops and starts again (a deployment, a pod moved to another node). Its stores survive if its disk does; with static membership and a return within the session timeout, nothing is rebalanced." },
    Entry { term: "restore rate", meaning: "Records per second one stream thread of a member replays, shared by what that thread replays: its restoring active tasks first, its standbys and learners only once none is left." },
    Entry { term: "rolling restart", meaning: "A deployment: every member restarts in turn, each once the previous one is back and the group is at rest." },
    Entry { term: "session timeout", meaning: "How long after a member's last heartbeat the coordinator declares it gone (45 s by default) and rebalances to reassign its tasks; a crashed or closed member's tasks wait that long." },
    Entry { term: "standby", meaning: "A long-lived replica kept close to the changelog end; its holder is the first choice for a learner and for an orphan." },
    Entry { term: "static membership", meaning: "Kafka's group.instance.id (KIP-345): a member keeps its identity across a restart, so back within the session timeout it gets its assignment back without a rebalance. Without it, a restarted member joins as a new one." },
    Entry { term: "streams protocol", meaning: "Kafka's streams rebalance protocol (KIP-1071, Kafka 4.1 to 4.3 as kip1071): the broker's group coordinator assigns, driven by heartbeats and group epochs; no rebalance rounds, no leader, no warm-ups (a stateful task moved to a member without its state restores while down)." },
    Entry { term: "target assignment", meaning: "Under Kafka's streams protocol, what the coordinator's assignor computed for the current group epoch; members reconcile to it at their heartbeats." },
    Entry { term: "task", meaning: "A unit of stream processing. A stateful task keeps a store backed by a changelog; a stateless one has nothing to restore." },
    Entry { term: "time to catch up", meaning: "From the first command until the last task has worked off the backlog its outages left, read while the group is at rest; never if a task that is behind processes no faster than its input." },
    Entry { term: "two phase", meaning: "A handoff mode: the leader revokes a learned task once its learner is ready, and assigns it at the follow-up rebalance." },
    Entry { term: "warm-up", meaning: "Kafka Streams' learner (KIP-441): a replica warming up on its future owner, promoted only at a probing rebalance. With Kafka trunk's refiner (proposed, not released), one is promoted as soon as it has caught up." },
    Entry { term: "zone", meaning: "An availability zone (a rack): its members can fail together, so a task's standby is kept in another zone than its active while there is one (KIP-708)." },
];

/// What a term means, if it is in the glossary.
pub fn define(term: &str) -> Option<&'static str> {
    let term = term.to_ascii_lowercase();
    GLOSSARY.iter().find(|e| e.term == term).map(|e| e.meaning)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_glossary_is_sorted_and_unique() {
        for pair in GLOSSARY.windows(2) {
            assert!(
                pair[0].term < pair[1].term,
                "{} then {}",
                pair[0].term,
                pair[1].term
            );
        }
        assert!(define("Learner").is_some());
        assert!(define("gremlin").is_none());
    }
}
