//! Guided tours of the seed's four scenarios and of the operations presets (rolling
//! deployments, a zone outage, a lost disk), and one in the compare view (the learner design
//! against Kafka's streams protocol, with and without trunk's warm-up refiner), written as
//! data: each step waits for the real simulation event it describes, so the same tour plays
//! in the app, in an embed and from a share link, and stays true if the engine changes.

use crate::engine::coordinator::Round;
use crate::engine::{EventKind, LeaveReason};
use crate::model::Strategy;
use crate::playground::session::Session;

/// The simulation event a step is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wait {
    /// The start, before anything happens.
    Start,
    /// The members received the assignment of the round with this index (1 = first): what
    /// the leader decided is on screen.
    Assigned(u32),
    /// The members received the assignment of the round with this index.
    Synced(u32),
    /// A member's learner of a task became ready.
    LearnerReady(&'static str, &'static str),
    /// A member crashed.
    Crashed(&'static str),
    /// The coordinator noticed a crash.
    CrashDetected(&'static str),
    /// A draining member shut down.
    Departed(&'static str),
    /// A member's process stopped for a restart.
    Restarted(&'static str),
    /// A restarted member is back.
    Returned(&'static str),
    /// Every live member of a zone crashed at once.
    ZoneCrashed(&'static str),
    /// A member starts running a task (the first time it does).
    Started(&'static str, &'static str),
    /// A task runs again, the first time after it was down.
    BackUp(&'static str),
    /// The group came to rest after everything happened.
    Rest,
    /// What the other wait names, in the lane of this strategy (the others wait in the
    /// first lane).
    In(Strategy, &'static Wait),
}

/// One step of a tour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// A short title.
    pub title: &'static str,
    /// The narration.
    pub caption: &'static str,
    /// The event the step shows.
    pub wait: Wait,
    /// Members and tasks to highlight.
    pub highlight: &'static [&'static str],
    /// Glossary terms the caption introduces.
    pub terms: &'static [&'static str],
}

/// A guided tour of one preset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tour {
    /// A stable id, used in links.
    pub id: &'static str,
    /// Its title.
    pub title: &'static str,
    /// The preset it plays.
    pub preset: &'static str,
    /// The strategies it compares, a lane each, in the compare view; none: the single view
    /// under the preset's own strategy.
    pub compare: &'static [Strategy],
    /// The steps.
    pub steps: &'static [Step],
}

/// Every tour, in the order the playground lists them.
pub const TOURS: [Tour; 9] = [
    Tour {
        id: "scale-up-running",
        title: "Scaling up a running application",
        preset: "scale-up-running",
        compare: &[],
        steps: &[
            Step {
                title: "A stable group",
                caption: "Three members share five tasks. Each task has a store backed by a changelog: a member that takes a task over must first replay that changelog. S1 is the leader: the longest-standing member, which computes every assignment from what the members report.",
                wait: Wait::Start,
                highlight: &["S1"],
                terms: &["member", "task", "leader", "active"],
            },
            Step {
                title: "S4 joins: it learns, it does not take",
                caption: "S4 joins and a rebalance starts (generation 1). Instead of moving a task to S4 at once, which would stop it while S4 restores, the leader gives S4 a learner for T1: S4 replays T1's changelog while S1 keeps running it. T1 is now learned on S1 (double outline).",
                wait: Wait::Assigned(1),
                highlight: &["S4", "T1"],
                terms: &["generation", "learner", "learned"],
            },
            Step {
                title: "S5 joins while S4 still learns",
                caption: "Under release at join, S1 releases its learned task T1 when it rejoins; S4 is not ready, so the leader hands T1 straight back to S1: a pause of one round for T1. S5 gets a learner for T3, the cheapest task of the most loaded member.",
                wait: Wait::Assigned(2),
                highlight: &["S5", "T3", "T1"],
                terms: &["release at join"],
            },
            Step {
                title: "S4 is ready",
                caption: "S4's store of T1 has caught up with the changelog: the learner is ready. S4 rejoins the group to say so; that starts the third rebalance.",
                wait: Wait::LearnerReady("S4", "T1"),
                highlight: &["S4", "T1"],
                terms: &["ready"],
            },
            Step {
                title: "Ownership moves",
                caption: "S1 released T1 at this join, and its learner is ready: the leader gives T1 to S4, which runs it at once with a caught-up store. T1 was down only for the round itself.",
                wait: Wait::Synced(3),
                highlight: &["S4", "T1"],
                terms: &[],
            },
            Step {
                title: "S5 takes T3",
                caption: "S5's learner of T3 is ready in turn; the fourth rebalance hands T3 to S5. Five members, five tasks: the group is balanced and at rest, and no further rebalance happens.",
                wait: Wait::Rest,
                highlight: &["S5", "T3"],
                terms: &["at rest"],
            },
        ],
    },
    Tour {
        id: "scale-up-empty",
        title: "Scaling up from an empty group",
        preset: "scale-up-empty",
        compare: &[],
        steps: &[
            Step {
                title: "Nobody runs anything",
                caption: "Five tasks, no member. There is nothing to learn yet: the changelogs are empty.",
                wait: Wait::Start,
                highlight: &[],
                terms: &["task"],
            },
            Step {
                title: "S1 takes everything at once",
                caption: "S1 joins and becomes the leader. No member runs any task, so there is no owner to learn from: every task is an orphan and goes to S1 in this very round.",
                wait: Wait::Synced(1),
                highlight: &["S1"],
                terms: &["leader", "orphan"],
            },
            Step {
                title: "S2 and S3 learn their share",
                caption: "S2 and S3 join together, in one round. The leader keeps T1 and T2 on S1 and hands learners to the newcomers: T3 and T4 to S2, T5 to S3. The changelogs are tiny, so the learners are ready as soon as they start.",
                wait: Wait::Assigned(2),
                highlight: &["S2", "S3"],
                terms: &["learner"],
            },
            Step {
                title: "Balanced after three rounds",
                caption: "Both newcomers rejoin as ready; S1 releases its learned tasks and the leader gives each to its learner. Two, two and one: balanced by capacity.",
                wait: Wait::Rest,
                highlight: &["S1", "S2", "S3"],
                terms: &["ready", "balanced"],
            },
        ],
    },
    Tour {
        id: "scale-down-running",
        title: "Scaling down: draining a member",
        preset: "scale-down-running",
        compare: &[],
        steps: &[
            Step {
                title: "S2 is told to leave",
                caption: "An operator drains S2. S2 rejoins saying it is leaving: it gets no new work, and its tasks must move to the members that stay, without stopping them.",
                wait: Wait::Start,
                highlight: &["S2"],
                terms: &["leaving", "drain"],
            },
            Step {
                title: "Learners on the members that stay",
                caption: "The leader gives S1 a learner for T3 and S3 a learner for T4. S2 keeps running both meanwhile.",
                wait: Wait::Assigned(1),
                highlight: &["S1", "S3", "T3", "T4"],
                terms: &["learner", "learned"],
            },
            Step {
                title: "S3 is ready first",
                caption: "S3 restores faster than S1. Its learner of T4 is ready, so S3 rejoins. S2 releases both learned tasks at this join: T4 goes to S3, T3 goes back to S2 because S1 is not ready yet.",
                wait: Wait::Assigned(2),
                highlight: &["S3", "T4", "T3"],
                terms: &["ready", "release at join"],
            },
            Step {
                title: "S2 shuts down",
                caption: "S1 is ready; T3 moves to it. S2 runs nothing any more and shuts itself down. No task restored while down: each moved only with a caught-up store.",
                wait: Wait::Departed("S2"),
                highlight: &["S1", "S2", "T3"],
                terms: &[],
            },
        ],
    },
    Tour {
        id: "leader-transfer",
        title: "The leader crashes mid-scaling",
        preset: "leader-transfer",
        compare: &[],
        steps: &[
            Step {
                title: "S4 learns T1",
                caption: "As in the scale-up, S4 joins and learns T1 from the leader, S1.",
                wait: Wait::Assigned(1),
                highlight: &["S4", "T1", "S1"],
                terms: &["leader", "learner"],
            },
            Step {
                title: "S1 crashes",
                caption: "S1 is killed before S4 is ready. Its tasks T1 and T2 stop at once, but the coordinator only notices when S1's session times out.",
                wait: Wait::Crashed("S1"),
                highlight: &["S1", "T1", "T2"],
                terms: &["session timeout"],
            },
            Step {
                title: "A new leader, the same decision",
                caption: "The coordinator removes S1 and S2, now the longest-standing member, leads. The leader keeps no memory of its own, so S2 decides from what members report: T1 has no owner and S4 is the most caught up, so T1 goes to S4 at once; T2 goes to the least loaded member, S3.",
                wait: Wait::Assigned(2),
                highlight: &["S2", "S4", "S3", "T1", "T2"],
                terms: &["generation", "orphan"],
            },
            Step {
                title: "Back to balance",
                caption: "S4 restores what it still lacked of T1, S3 restores T2 from scratch (nobody had its state), and the group is at rest again with three members.",
                wait: Wait::Rest,
                highlight: &["S3", "S4"],
                terms: &["at rest"],
            },
        ],
    },
    Tour {
        id: "rolling-deployment-static",
        title: "A rolling deployment with static membership",
        preset: "rolling-deployment-static",
        compare: &[],
        steps: &[
            Step {
                title: "A deployment begins",
                caption: "A deployment is about to restart S1, S2 and S3 one at a time; each is away 6 s and keeps its disk. The members use static membership (Kafka's group.instance.id): each keeps its identity across a restart.",
                wait: Wait::Start,
                highlight: &["S1", "S2", "S3"],
                terms: &["restart", "rolling restart", "static membership"],
            },
            Step {
                title: "S1 restarts",
                caption: "S1 stops. The coordinator keeps its identity and its assignment until its session times out, 10 s from now, so nothing is rebalanced. T1 and T2 are down while S1 is away: no other member may run them.",
                wait: Wait::Restarted("S1"),
                highlight: &["S1", "T1", "T2"],
                terms: &["session timeout"],
            },
            Step {
                title: "Back within its session",
                caption: "S1 is back before its session timed out: it gets T1 and T2 back and runs them at once, since its stores survived and nobody wrote to those changelogs meanwhile. Still no rebalance. The group is at rest, so the deployment moves on to S2.",
                wait: Wait::Returned("S1"),
                highlight: &["S1", "T1", "T2", "S2"],
                terms: &[],
            },
            Step {
                title: "Three restarts, no rebalance",
                caption: "The generation never changed: each task was down exactly while its own member was away, and every other task kept running. A member away longer than its session timeout would have been removed (a rebalance), and its return would have been a join (another). The dynamic-membership preset runs the same deployment without static membership.",
                wait: Wait::Rest,
                highlight: &[],
                terms: &["generation", "at rest"],
            },
        ],
    },
    Tour {
        id: "rolling-deployment-dynamic",
        title: "A rolling deployment with dynamic membership",
        preset: "rolling-deployment-dynamic",
        compare: &[],
        steps: &[
            Step {
                title: "The same deployment",
                caption: "S1, S2 and S3 restart one at a time, each away 6 s with its disk, as in the static-membership preset. Here the members have no static identity: a restarted process comes back as a new member.",
                wait: Wait::Start,
                highlight: &["S1", "S2", "S3"],
                terms: &["rolling restart", "static membership"],
            },
            Step {
                title: "S1 restarts without a word",
                caption: "S1 stops. Kafka Streams sends no LeaveGroup when it closes, so the coordinator still counts S1 until its session times out, 10 s from now. Nothing moves; T1 and T2 are down.",
                wait: Wait::Restarted("S1"),
                highlight: &["S1", "T1", "T2"],
                terms: &["restart", "session timeout"],
            },
            Step {
                title: "Back as a new member",
                caption: "S1 is back after 6 s and joins the group as a new member: a rebalance begins. Its join phase cannot close while the coordinator waits for S1's old identity, which only goes when that session times out.",
                wait: Wait::Returned("S1"),
                highlight: &["S1"],
                terms: &["rebalance"],
            },
            Step {
                title: "The old session times out",
                caption: "The old identity is gone and the round closes. The returning S1 is now the newest member, so S2 leads. T1 and T2 have no owner, and S1's stores of them are caught up, so they go back to S1 at once: down about 10 s, 4 s longer than the restart itself.",
                wait: Wait::Assigned(1),
                highlight: &["S2", "S1", "T1", "T2"],
                terms: &["leader", "orphan"],
            },
            Step {
                title: "A rebalance per restart",
                caption: "Three restarts, three rebalances, and each member's tasks stayed down until its old session timed out. In the compare view eager pays the most: every member releases every task when a round begins, so all six tasks stop while the round waits for the old session.",
                wait: Wait::Rest,
                highlight: &[],
                terms: &["at rest"],
            },
        ],
    },
    Tour {
        id: "zone-failure",
        title: "A zone fails, with zone-aware standbys",
        preset: "zone-failure",
        compare: &[],
        steps: &[
            Step {
                title: "Three zones",
                caption: "Six members in three availability zones (S1 and S4 in zone a, S2 and S5 in b, S3 and S6 in c), one task each, one standby per task. The standbys are zone-aware: each lives in another zone than its task's active, so no zone holds both copies of a task.",
                wait: Wait::Start,
                highlight: &["S1", "S4"],
                terms: &["zone", "standby"],
            },
            Step {
                title: "Zone a goes dark",
                caption: "S1 and S4 crash at once; T1 and T4 stop. The coordinator notices when their sessions time out.",
                wait: Wait::ZoneCrashed("a"),
                highlight: &["S1", "S4", "T1", "T4"],
                terms: &["session timeout"],
            },
            Step {
                title: "Standbys in other zones take over",
                caption: "Both sessions time out together: one rebalance. T1 and T4 have no owner; their standbys, in zones that survived, are caught up, so the members holding them run them at once. Each was down only for the session timeout and the round. New standbys are placed on the members left.",
                wait: Wait::Assigned(1),
                highlight: &["T1", "T4"],
                terms: &["orphan"],
            },
            Step {
                title: "Four members, every task covered",
                caption: "The group is at rest on four members. Had a task's standby sat in zone a beside its active, it would have died with it, and the task would have restored its whole changelog while down.",
                wait: Wait::Rest,
                highlight: &[],
                terms: &["at rest"],
            },
        ],
    },
    Tour {
        id: "lost-disk",
        title: "A restart that lost its disk",
        preset: "lost-disk",
        compare: &[],
        steps: &[
            Step {
                title: "A pod moves to a new node",
                caption: "S2 is about to restart on another node, without its volume: it will come back with no state at all. Each task has a standby on another member.",
                wait: Wait::Start,
                highlight: &["S2"],
                terms: &["restart", "standby"],
            },
            Step {
                title: "S2 stops",
                caption: "Without static membership S2 sends no LeaveGroup, so the coordinator still counts it. T3 and T4 are down.",
                wait: Wait::Restarted("S2"),
                highlight: &["S2", "T3", "T4"],
                terms: &["session timeout"],
            },
            Step {
                title: "Back, with an empty disk",
                caption: "S2 is back after 6 s as a new member and reports no state. It joins, and the round waits for its old session to time out.",
                wait: Wait::Returned("S2"),
                highlight: &["S2"],
                terms: &["rebalance"],
            },
            Step {
                title: "Standbys take over, S2 learns",
                caption: "The old session is gone: T3 and T4 have no owner. Their standbys are caught up, so the members holding them run them at once. S2 gets learners, which replay their changelogs from nothing while the tasks keep running.",
                wait: Wait::Assigned(1),
                highlight: &["T3", "T4", "S2"],
                terms: &["orphan", "learner"],
            },
            Step {
                title: "Replay time, not downtime",
                caption: "Balanced again, and no task restored while down: the lost disk cost replay time in the background. In the compare view eager and cooperative move tasks to S2 at once and restore them from nothing while they are down. With static membership, S2 would have got T3 and T4 back with no rebalance, and restored both from nothing while they were down.",
                wait: Wait::Rest,
                highlight: &[],
                terms: &["at rest"],
            },
        ],
    },
    Tour {
        id: "streams-protocol",
        title: "The seed's idea in Kafka's trunk",
        preset: "scale-up-realistic",
        compare: &[Strategy::Learner, Strategy::Kip1071Warmup, Strategy::Kip1071],
        steps: &[
            Step {
                title: "One scale-out, three designs",
                caption: "The seed's scale-up with production-sized stores: about 5 million records per task, restored at 50,000 records/s, so a store takes about two minutes to rebuild. S4 joins now, S5 at 30 s. Left, the learner design; middle, kip1071-warmup: Kafka's streams protocol with the warm-up refiner proposed on Kafka's trunk (not merged, not released); right, kip1071: the streams protocol as Kafka 4.3 ships it.",
                wait: Wait::Start,
                highlight: &["S4"],
                terms: &["streams protocol", "refiner", "learner"],
            },
            Step {
                title: "S4 joins: three first decisions",
                caption: "Under kip1071 S4's first heartbeat bumps the group epoch and the coordinator computes the target at once: T4 moves from S2 to S4. S2 gives T4 up at its next heartbeat and S4 is granted it at its own; S4 has none of T4's state, so T4 is down while S4 restores it. kip1071-warmup's refiner holds that move back and gives S4 a warm-up of T4 instead; T4 keeps running on S2. The learner design gave S4 a learner of T1 in its first round.",
                wait: Wait::In(Strategy::Kip1071, &Wait::Started("T4", "S4")),
                highlight: &["S4", "T4", "T1"],
                terms: &["group epoch", "target assignment", "warm-up"],
            },
            Step {
                title: "S5 joins",
                caption: "A third epoch: kip1071 moves T2 from S1 to S5 cold, a second task restoring while down, once both have reconciled at their heartbeats. kip1071-warmup gives S5 a warm-up of T2. In the learner design S5 learns T3, and S1, which released its learned T1 at this join, got it back: S4 is not ready yet.",
                wait: Wait::In(Strategy::Kip1071, &Wait::Started("T2", "S5")),
                highlight: &["S5", "T2", "T3", "T1"],
                terms: &["reconcile", "release at join"],
            },
            Step {
                title: "The learner moves at its round",
                caption: "S4's learner of T1 has caught up: S4 rejoins at once and the round hands T1 over; T1 was down only for the round. In the middle lane S4's warm-up of T4, a larger store, is still replaying: the refiner promotes it only once S4's offsets, reported at a heartbeat, show it within the acceptable lag.",
                wait: Wait::Synced(3),
                highlight: &["S4", "T1", "T4"],
                terms: &["ready"],
            },
            Step {
                title: "The refiner promotes the warm-up",
                caption: "kip1071-warmup: the refiner read S4's caught-up warm-up of T4 and promotes it with a new group epoch, without running the assignor. S2 gives T4 up at its heartbeat, S4 is granted it at its next: T4 is down at most about a heartbeat, and starts on a caught-up store. This is the seed's idea, moved into Kafka's broker.",
                wait: Wait::In(Strategy::Kip1071Warmup, &Wait::Assigned(3)),
                highlight: &["S4", "T4", "S2"],
                terms: &["refiner", "heartbeat"],
            },
            Step {
                title: "kip1071's cold move ends",
                caption: "In the right lane S4 has only now restored T4's store and runs it: T4 was down for the whole restore, about two minutes. T2 on S5 is still restoring.",
                wait: Wait::In(Strategy::Kip1071, &Wait::BackUp("T4")),
                highlight: &["S4", "T4", "T2"],
                terms: &["downtime"],
            },
            Step {
                title: "Three groups at rest",
                caption: "Every lane is balanced on five members. The table below counts the difference: the learner design paid a round per move, the trunk refiner about a heartbeat per move, kip1071 the whole restore of every task it moved. Its rebalances column counts group epochs for the two streams-protocol lanes.",
                wait: Wait::In(Strategy::Kip1071Warmup, &Wait::Rest),
                highlight: &[],
                terms: &["at rest", "assignment epoch"],
            },
        ],
    },
];

impl Tour {
    /// Finds a tour by id.
    pub fn find(id: &str) -> Option<&'static Tour> {
        TOURS.iter().find(|t| t.id == id)
    }

    /// The moment of a step in the session's first lane: when the event it waits for
    /// happened, simulating ahead until it does.
    pub fn moment(&self, session: &mut Session, step: usize) -> Result<u64, String> {
        let step = self.steps.get(step).ok_or("the tour has no such step")?;
        let (lane, wait) = match step.wait {
            Wait::In(strategy, wait) => (
                session
                    .lanes()
                    .iter()
                    .position(|l| l.strategy == strategy)
                    .ok_or_else(|| {
                        format!("the tour's step \"{}\" needs a {strategy} lane", step.title)
                    })?,
                *wait,
            ),
            wait => (0, wait),
        };
        loop {
            let lane = &session.lanes()[lane];
            if let Some(t) = find(wait, lane.run.events(), lane.run.rounds(), lane) {
                return Ok(t);
            }
            let run = &lane.run;
            let next = [
                run.engine().next_event_time(),
                run.commands()
                    .iter()
                    .find(|c| c.at_ms > run.frontier())
                    .map(|c| c.at_ms),
            ]
            .into_iter()
            .flatten()
            .min();
            match next {
                Some(t) => session.seek(t).map_err(|e| e.to_string())?,
                None => {
                    return Err(format!(
                        "the tour's step \"{}\" waits for something that never happens",
                        step.title
                    ))
                }
            }
        }
    }
}

fn find(
    wait: Wait,
    events: &[crate::engine::Event],
    rounds: &[Round],
    lane: &crate::playground::session::Lane,
) -> Option<u64> {
    let roster = lane.run.engine().roster();
    let member = |name: &str| roster.member_id(name);
    // When the first event of a kind happened.
    let first =
        |kind: &dyn Fn(&EventKind) -> bool| events.iter().find(|e| kind(&e.kind)).map(|e| e.at);
    match wait {
        Wait::Start => Some(0),
        Wait::Assigned(index) => rounds
            .iter()
            .find(|r| r.index == index)
            .and_then(|r| r.synced_at.or(r.abandoned.then_some(r.assigned_at))),
        Wait::Synced(index) => rounds
            .iter()
            .find(|r| r.index == index)
            .and_then(|r| r.synced_at),
        Wait::LearnerReady(m, t) => {
            let (m, t) = (member(m)?, roster.task_id(t)?);
            first(&|k| matches!(k, EventKind::LearnerReady(em, et) if *em == m && *et == t))
        }
        Wait::Crashed(m) => {
            let m = member(m)?;
            first(&|k| matches!(k, EventKind::MemberCrashed(em) if *em == m))
        }
        Wait::CrashDetected(m) => {
            let m = member(m)?;
            first(&|k| matches!(k, EventKind::CrashDetected(em) if *em == m))
        }
        Wait::Departed(m) => {
            let m = member(m)?;
            first(&|k| matches!(k, EventKind::MemberLeft(em, LeaveReason::Drained) if *em == m))
        }
        Wait::Restarted(m) => {
            let m = member(m)?;
            first(&|k| matches!(k, EventKind::MemberRestarted(em) if *em == m))
        }
        Wait::Returned(m) => {
            let m = member(m)?;
            first(&|k| matches!(k, EventKind::MemberReturned(em) if *em == m))
        }
        Wait::ZoneCrashed(zone) => first(&|k| matches!(k, EventKind::ZoneCrashed(z) if z == zone)),
        Wait::Started(t, m) => {
            let (t, m) = (roster.task_id(t)?, member(m)?);
            first(&|k| matches!(k, EventKind::TaskStarted(et, em) if *et == t && *em == m))
        }
        Wait::BackUp(t) => {
            let t = roster.task_id(t)?;
            let down = events
                .iter()
                .position(|e| matches!(e.kind, EventKind::TaskDown(et) if et == t))?;
            events[down..]
                .iter()
                .find(|e| matches!(e.kind, EventKind::TaskUp(et) if et == t))
                .map(|e| e.at)
        }
        Wait::Rest => {
            let done = lane.run.finished();
            done.then(|| lane.run.engine().tally().rest_since).flatten()
        }
        // Tour::moment picks the lane and unwraps the wait; one nested further waits in it.
        Wait::In(_, wait) => find(*wait, events, rounds, lane),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::playground::glossary;
    use crate::presets::Preset;
    use crate::views::frame::{ChipRole, Frame};

    #[test]
    fn every_step_of_every_tour_happens_in_order() {
        for tour in &TOURS {
            let scenario = Preset::find(tour.preset)
                .expect("preset")
                .scenario()
                .expect("parses");
            let mut session = Session::new(scenario, tour.compare).expect("starts");
            let mut last = 0;
            for (i, step) in tour.steps.iter().enumerate() {
                let t = tour
                    .moment(&mut session, i)
                    .unwrap_or_else(|e| panic!("{}: {e}", tour.id));
                assert!(
                    t >= last,
                    "{} step {i} at {t} ms comes before {last} ms",
                    tour.id
                );
                last = t;
                for name in step.highlight {
                    let roster = session.main().run.engine().roster();
                    assert!(
                        roster.member_id(name).is_some() || roster.task_id(name).is_some(),
                        "{} step {i} highlights unknown {name}",
                        tour.id
                    );
                }
                for term in step.terms {
                    assert!(
                        glossary::define(term).is_some(),
                        "{} step {i}: {term} is not in the glossary",
                        tour.id
                    );
                }
            }
        }
    }

    /// The role of `task` on member `member` in a lane's frame, and whether it is up.
    fn chip(
        session: &Session,
        lane: Strategy,
        member: &str,
        task: &str,
    ) -> Option<(ChipRole, bool)> {
        let lane = session.lanes().iter().find(|l| l.strategy == lane)?;
        let frame = Frame::of(lane.view());
        let card = frame.cards.iter().find(|c| c.name == member)?;
        let chip = card.chips.iter().find(|c| &*c.name == task)?;
        Some((chip.role, chip.up))
    }

    #[test]
    fn the_streams_tour_shows_a_cold_move_a_warm_up_and_a_learner() {
        let tour = Tour::find("streams-protocol").expect("tour");
        let scenario = Preset::find(tour.preset)
            .expect("preset")
            .scenario()
            .expect("parses");
        let mut session = Session::new(scenario, tour.compare).expect("starts");
        let at = |session: &mut Session, step: usize| {
            let t = tour.moment(session, step).expect("happens");
            session.seek(t).expect("runs");
            t
        };
        // S4's first decisions: kip1071 moves T4 to S4 cold (down, restoring); the refiner
        // keeps T4 on S2 and warms it up on S4; the learner design teaches S4 T1.
        at(&mut session, 1);
        use Strategy::{Kip1071, Kip1071Warmup, Learner};
        assert_eq!(
            chip(&session, Kip1071, "S4", "T4"),
            Some((ChipRole::Active, false))
        );
        assert_eq!(
            chip(&session, Kip1071Warmup, "S4", "T4"),
            Some((ChipRole::Learner, false))
        );
        assert_eq!(
            chip(&session, Kip1071Warmup, "S2", "T4"),
            Some((ChipRole::Active, true))
        );
        assert_eq!(
            chip(&session, Learner, "S4", "T1"),
            Some((ChipRole::Learner, false))
        );
        // S5's: kip1071 moves T2 cold to S5 as well.
        at(&mut session, 2);
        assert_eq!(
            chip(&session, Kip1071, "S5", "T2"),
            Some((ChipRole::Active, false))
        );
        assert_eq!(
            chip(&session, Kip1071Warmup, "S5", "T2"),
            Some((ChipRole::Learner, false))
        );
        assert_eq!(
            chip(&session, Learner, "S5", "T3"),
            Some((ChipRole::Learner, false))
        );
        assert_eq!(
            chip(&session, Learner, "S1", "T1"),
            Some((ChipRole::Active, true))
        );
        // The learner's round hands T1 to S4; the warm-up of T4 still replays.
        at(&mut session, 3);
        assert_eq!(
            chip(&session, Learner, "S4", "T1"),
            Some((ChipRole::Active, true))
        );
        assert_eq!(
            chip(&session, Kip1071Warmup, "S4", "T4"),
            Some((ChipRole::Learner, false))
        );
        // The refiner's epoch: T4 to S4, no assignor run.
        let refined = at(&mut session, 4);
        let warm = &session.lanes()[1];
        let round = warm
            .run
            .rounds()
            .iter()
            .find(|r| r.synced_at == Some(refined))
            .expect("round");
        assert_eq!(round.causes, [crate::engine::coordinator::Cause::Refined]);
        let s4 = warm.run.engine().roster().member_id("S4").expect("S4");
        let t4 = warm.run.engine().roster().task_id("T4").expect("T4");
        assert!(round
            .assignment
            .members
            .iter()
            .any(|(m, a)| *m == s4 && a.assigned.contains(&t4)));
        // kip1071's S4 runs T4 at last, once restored.
        at(&mut session, 5);
        assert_eq!(
            chip(&session, Kip1071, "S4", "T4"),
            Some((ChipRole::Active, true))
        );
        at(&mut session, tour.steps.len() - 1);
        let downtime: Vec<u64> = session
            .lanes()
            .iter()
            .map(|l| crate::views::metrics::Metrics::of(l.view()).total_task_downtime_ms)
            .collect();
        assert!(
            session.lanes().iter().all(|l| l.view().at_rest()),
            "every lane at rest"
        );
        assert!(
            downtime[0] < downtime[1] && downtime[1] < downtime[2],
            "{downtime:?}"
        );
    }

    #[test]
    fn tours_explain_the_key_terms() {
        let taught: Vec<&str> = TOURS
            .iter()
            .flat_map(|t| t.steps.iter().flat_map(|s| s.terms.iter().copied()))
            .collect();
        for term in [
            "learner",
            "learned",
            "ready",
            "release at join",
            "leaving",
            "generation",
            "leader",
        ] {
            assert!(taught.contains(&term), "no tour explains {term}");
        }
    }
}
