//! The streams rebalance protocol (KIP-1071) as the protocol strip shows it: no join, assign
//! and sync rounds, but a group epoch the coordinator bumps, a target assignment it computes
//! at some member's heartbeat, and members that reconcile to it at their own heartbeats.

use super::units::duration;
use crate::engine::Engine;
use crate::model::Strategy;
use serde::{Deserialize, Serialize};

/// The streams group at a moment, read off the broker's record of it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StreamsView {
    /// Bumped by every change of membership (and on trunk by every refined assignment).
    pub group_epoch: u32,
    /// The group epoch of the target assignment the members reconcile to.
    pub assignment_epoch: u32,
    /// How often each member heartbeats (`group.streams.heartbeat.interval.ms`).
    pub heartbeat_ms: u64,
    /// The least time between two runs of the assignor (`assignment.interval.ms`).
    pub assignment_interval_ms: u64,
    /// Members that do not hold their target yet, by name.
    pub reconciling: Vec<String>,
    /// Trunk: active moves the refiner holds back until a warm-up has caught up.
    pub held_back: usize,
    /// The strategy: `kip1071`, or `kip1071-warmup` with trunk's warm-up refiner.
    pub strategy: Strategy,
    /// The next heartbeat that changes something: when, and whose (none: the delayed first
    /// assignment of an empty group).
    pub next_heartbeat: Option<(u64, Option<String>)>,
}

/// One step of the strip: who talks to whom, and what happens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StripStep {
    /// Its name, for tests and styles (`data-step`).
    pub id: &'static str,
    /// Who acts, in a few words.
    pub flow: String,
    /// What happens.
    pub what: String,
}

impl StreamsView {
    /// Whether trunk's warm-up refiner runs (kip1071-warmup).
    pub fn refiner(&self) -> bool {
        self.strategy == Strategy::Kip1071Warmup
    }

    /// The strip's heading line: the two epochs, and how the coordinator is driven.
    pub fn head(&self) -> String {
        format!(
            "group epoch {} \u{00B7} assignment epoch {} \u{00B7} the coordinator assigns at heartbeats (every {})",
            self.group_epoch,
            self.assignment_epoch,
            interval(self.heartbeat_ms)
        )
    }

    /// The three steps of a new target assignment: the epoch bumped, the target computed,
    /// the members reconciling at their heartbeats.
    pub fn steps(&self) -> [StripStep; 3] {
        let members = crate::views::counted(self.reconciling.len() as u64, "member");
        let reconcile = match (self.reconciling.as_slice(), self.held_back) {
            ([], 0) => {
                "members reconcile at their heartbeats: they give up first, then are granted"
                    .to_string()
            }
            (names, 0) => format!(
                "{} reconciling at their heartbeats: they give up first, then are granted",
                names.join(", ")
            ),
            (names, held) => format!(
                "{}the refiner holds {} back until {} caught up",
                if names.is_empty() {
                    String::new()
                } else {
                    format!("{} reconciling; ", names.join(", "))
                },
                crate::views::counted(held as u64, "move"),
                if held == 1 {
                    "its warm-up has"
                } else {
                    "their warm-ups have"
                }
            ),
        };
        [
            StripStep {
                id: "epoch",
                flow: format!("group epoch {}", self.group_epoch),
                what: if self.refiner() {
                    "epoch bumped: a member joined, left or was fenced, or the refiner promoted a caught-up warm-up".into()
                } else {
                    "epoch bumped: a member joined, left or was fenced".into()
                },
            },
            StripStep {
                id: "target",
                flow: format!("coordinator, assignment epoch {}", self.assignment_epoch),
                what: format!(
                    "target computed at a member's heartbeat, at most every {}",
                    interval(self.assignment_interval_ms)
                ),
            },
            StripStep {
                id: "reconcile",
                flow: format!("coordinator \u{21C4} {members}"),
                what: reconcile,
            },
        ]
    }

    /// When the next heartbeat that changes something falls, in words ("S2 heartbeats at
    /// 35.0 s"), if one is due.
    pub fn next_words(&self) -> Option<String> {
        self.next_heartbeat.as_ref().map(|(at, who)| match who {
            Some(name) => format!("{name} heartbeats at {}", seconds(*at)),
            None => format!("the delayed first assignment at {}", seconds(*at)),
        })
    }
}

/// A setting's interval as people write it: whole seconds bare ("5 s"), others as durations.
fn interval(ms: u64) -> String {
    if ms % 1000 == 0 && ms < 60_000 {
        format!("{} s", ms / 1000)
    } else {
        duration(ms)
    }
}

/// A moment in seconds to a tenth.
fn seconds(ms: u64) -> String {
    format!("{}.{} s", ms / 1000, ms % 1000 / 100)
}

impl StreamsView {
    /// The streams group of `engine` as the strip shows it, or `None` under the classic
    /// protocol.
    pub fn of(engine: &Engine) -> Option<StreamsView> {
        let g = engine.streams()?;
        let roster = engine.roster();
        let config = engine.config();
        Some(StreamsView {
            group_epoch: g.group_epoch,
            assignment_epoch: g.assignment_epoch,
            heartbeat_ms: config.kip1071.heartbeat_interval_ms,
            assignment_interval_ms: config.kip1071.assignment_interval_ms,
            reconciling: engine
                .streams_reconciling()
                .iter()
                .map(|&m| roster.member(m).to_string())
                .collect(),
            held_back: g.held_back(),
            strategy: config.strategy,
            next_heartbeat: engine
                .next_streams_heartbeat()
                .map(|(at, m)| (at, m.map(|m| roster.member(m).to_string()))),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::history::Run;
    use crate::model::Scenario;
    use crate::views::frame::{Frame, PhaseView, RoundView};

    /// The round view of the engine's frame under the streams protocol.
    fn round_view(engine: &Engine) -> Option<RoundView> {
        let round = Frame::of(engine).round;
        round.streams.is_some().then_some(round)
    }

    /// Three members running five tasks; S4 joins at 0 and S5 at 2 s under `strategy`, or
    /// with `close`, S5 at 0.5 s: within `assignment.interval.ms` (1 s) of the first
    /// assignment, so its epoch waits for a heartbeat after the interval.
    fn scale_out(strategy: Strategy, close: bool) -> Run {
        let mut json: serde_json::Value =
            serde_json::from_str(include_str!("../../scenarios/scale-up-running.json"))
                .expect("parses");
        if close {
            json["events"][1]["at_ms"] = serde_json::json!(500);
        }
        let mut scenario = Scenario::from_json(&json.to_string()).expect("parses");
        scenario.config.strategy = strategy;
        Run::new(scenario)
    }

    fn view_at(run: &mut Run, t: u64) -> RoundView {
        run.advance_to(t).expect("runs");
        round_view(run.engine()).expect("the streams protocol")
    }

    #[test]
    fn the_classic_protocol_has_no_streams_view() {
        let mut run = scale_out(Strategy::Learner, false);
        run.advance_to(0).expect("runs");
        assert_eq!(round_view(run.engine()), None);
    }

    #[test]
    fn a_join_too_soon_bumps_the_epoch_then_members_reconcile_then_the_group_is_stable() {
        let mut run = scale_out(Strategy::Kip1071, true);
        let mut phases = Vec::new();
        let mut t = 0;
        while !run.finished() && t < 600_000 {
            let v = view_at(&mut run, t);
            let s = v.streams.clone().expect("streams");
            assert_eq!(v.generation, s.group_epoch);
            assert!(s.assignment_epoch <= s.group_epoch);
            if v.phase == PhaseView::Bumped {
                // S5's join at 0.5 s bumped it; the target waits for a heartbeat at or
                // after 1 s, the interval since S4's assignment at 0.
                assert_eq!(s.group_epoch, s.assignment_epoch + 1);
                assert_eq!(v.cause_labels, ["S5 joins"]);
                let (from, until) = v.phase_span.expect("a heartbeat is due");
                assert_eq!(from, 500);
                assert!(until >= 1000 && until > t, "{until}");
            }
            if v.phase == PhaseView::Reconciling {
                assert!(!s.reconciling.is_empty());
                assert!(v.index.is_some(), "the round being reconciled");
            }
            if phases.last() != Some(&v.phase) {
                phases.push(v.phase);
            }
            t += 250;
        }
        assert!(
            phases.contains(&PhaseView::Bumped) && phases.contains(&PhaseView::Reconciling),
            "{phases:?}"
        );
        let last = round_view(run.engine()).expect("streams");
        assert_eq!(last.phase, PhaseView::Stable);
        let s = last.streams.expect("streams");
        assert_eq!(s.group_epoch, s.assignment_epoch);
        assert!(s.reconciling.is_empty());
    }

    #[test]
    fn the_join_at_zero_names_its_cause_and_the_heartbeat_that_computes_the_target() {
        let mut run = scale_out(Strategy::Kip1071, false);
        run.advance_to(0).expect("runs");
        let engine = run.engine();
        let g = engine.streams().expect("streams");
        // The scenario starts stable at epoch 1; S4's join bumps it to 2, and its own first
        // heartbeat, now, runs the assignor: the target is already the epoch's.
        assert_eq!(g.group_epoch, 2);
        let v = round_view(engine).expect("streams");
        let s = v.streams.clone().expect("streams");
        assert_eq!(s.heartbeat_ms, 5000);
        assert!(s
            .head()
            .starts_with("group epoch 2 \u{00B7} assignment epoch "));
        assert!(
            s.head()
                .ends_with("the coordinator assigns at heartbeats (every 5 s)"),
            "{}",
            s.head()
        );
        assert_eq!(
            (v.counter().as_str(), v.counter_short().as_str()),
            ("group epoch 2", "epoch 2")
        );
        let frame = Frame::of(engine);
        assert!(
            frame.cards.iter().all(|c| !c.leader),
            "no member leads: the coordinator assigns"
        );
    }

    #[test]
    fn the_steps_read_bumped_computed_reconciling() {
        let v = StreamsView {
            group_epoch: 4,
            assignment_epoch: 3,
            heartbeat_ms: 5000,
            assignment_interval_ms: 1000,
            reconciling: vec!["S4".into(), "S5".into()],
            held_back: 0,
            strategy: Strategy::Kip1071,
            next_heartbeat: Some((35_000, Some("S2".into()))),
        };
        assert_eq!(
            v.head(),
            "group epoch 4 \u{00B7} assignment epoch 3 \u{00B7} the coordinator assigns at heartbeats (every 5 s)"
        );
        let [epoch, target, reconcile] = v.steps();
        assert_eq!(
            (epoch.id, target.id, reconcile.id),
            ("epoch", "target", "reconcile")
        );
        assert_eq!(epoch.flow, "group epoch 4");
        assert!(epoch.what.starts_with("epoch bumped"));
        assert!(!epoch.what.contains("refiner"));
        assert_eq!(target.flow, "coordinator, assignment epoch 3");
        assert!(
            target.what.ends_with("at most every 1 s"),
            "{}",
            target.what
        );
        assert_eq!(reconcile.flow, "coordinator \u{21C4} 2 members");
        assert!(reconcile
            .what
            .starts_with("S4, S5 reconciling at their heartbeats"));
        assert_eq!(v.next_words().as_deref(), Some("S2 heartbeats at 35.0 s"));
        let trunk = StreamsView {
            strategy: Strategy::Kip1071Warmup,
            reconciling: Vec::new(),
            held_back: 1,
            next_heartbeat: None,
            ..v
        };
        let [epoch, _, reconcile] = trunk.steps();
        assert!(epoch.what.contains("the refiner promoted"));
        assert_eq!(
            reconcile.what,
            "the refiner holds 1 move back until its warm-up has caught up"
        );
        assert_eq!(trunk.next_words(), None);
    }

    #[test]
    fn under_trunk_a_move_waits_for_its_warm_up_then_the_refiner_bumps_the_epoch() {
        let mut run = scale_out(Strategy::Kip1071Warmup, false);
        let mut held = false;
        let mut refined = false;
        let mut t = 0;
        while !run.finished() && t < 600_000 {
            let v = view_at(&mut run, t);
            let s = v.streams.expect("streams");
            held |= s.held_back > 0;
            refined |= held && v.cause_kinds.iter().any(|k| k == "refined");
            t += 250;
        }
        assert!(held, "the refiner held a move back for a warm-up");
        assert!(refined, "then promoted it with a new epoch");
    }
}
