//! The broker-side coordinator's bookkeeping: why a rebalance happens, the rounds themselves
//! (join, leader assigns, sync) and their record in the history.

use crate::model::{Assignment, JoinMetadata, MemberId, Roster};

/// Why a rebalance round runs.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Cause {
    /// The scenario starts with members and tasks nobody runs yet.
    Startup,
    /// A new member joined the group.
    MemberJoined(MemberId),
    /// A member rejoined to report ready learners.
    LearnerReady(MemberId),
    /// A member was told to drain and rejoined saying it is leaving.
    Drain(MemberId),
    /// The coordinator noticed a crashed member after the session timeout.
    CrashDetected(MemberId),
    /// A member left the group at once (a drain under a design without learners).
    MemberLeft(MemberId),
    /// A draining member reached its scale-down timeout and left.
    ScaleDownTimeout(MemberId),
    /// The previous round revoked tasks that now need an owner.
    FollowUp,
    /// A probing rebalance checks whether warm-ups caught up (KIP-441).
    Probing,
}

impl Cause {
    /// A short sentence in the seed's style, such as "New member S4 joins the group".
    pub fn describe(&self, roster: &Roster) -> String {
        match self {
            Cause::Startup => "The group forms and takes its unassigned tasks".to_string(),
            Cause::MemberJoined(m) => joined_sentence(&[roster.member(*m)]),
            Cause::LearnerReady(m) => ready_sentence(&[roster.member(*m)]),
            Cause::Drain(m) => format!(
                "Member {} joins the group and claims that it is leaving",
                roster.member(*m)
            ),
            Cause::CrashDetected(m) => format!(
                "{} crashed; the coordinator notices after the session timeout",
                roster.member(*m)
            ),
            Cause::MemberLeft(m) => format!("Member {} leaves the group", roster.member(*m)),
            Cause::ScaleDownTimeout(m) => format!(
                "Member {} reaches its scale-down timeout and leaves",
                roster.member(*m)
            ),
            Cause::FollowUp => "Follow-up rebalance: revoked tasks get their new owner".to_string(),
            Cause::Probing => "Probing rebalance: caught-up warm-ups are promoted".to_string(),
        }
    }

    /// Sentences for a round's causes: members that joined (or got ready) together are named
    /// in one sentence, as the seed does ("New members S2, S3 join the group").
    pub fn describe_all(causes: &[Cause], roster: &Roster) -> Vec<String> {
        let mut joined = Vec::new();
        let mut ready = Vec::new();
        let mut rest = Vec::new();
        for cause in causes {
            match cause {
                Cause::MemberJoined(m) => joined.push(roster.member(*m)),
                Cause::LearnerReady(m) => ready.push(roster.member(*m)),
                other => rest.push(other.describe(roster)),
            }
        }
        let mut out = Vec::new();
        if !joined.is_empty() {
            out.push(joined_sentence(&joined));
        }
        if !ready.is_empty() {
            out.push(ready_sentence(&ready));
        }
        out.extend(rest);
        out
    }

    /// A one-word kind, for the UI and the JSON log.
    pub fn kind(&self) -> &'static str {
        match self {
            Cause::Startup => "startup",
            Cause::MemberJoined(_) => "member_joined",
            Cause::LearnerReady(_) => "learner_ready",
            Cause::Drain(_) => "drain",
            Cause::CrashDetected(_) => "crash_detected",
            Cause::MemberLeft(_) => "member_left",
            Cause::ScaleDownTimeout(_) => "scale_down_timeout",
            Cause::FollowUp => "follow_up",
            Cause::Probing => "probing",
        }
    }
}

/// One rebalance round as the history keeps it: who joined with what, what the leader
/// decided, and when each phase ended.
#[derive(Clone, Debug, PartialEq)]
pub struct Round {
    /// 1 for the first round of the run, and so on.
    pub index: u32,
    /// The group generation this round created.
    pub generation: u32,
    /// Why it ran (several causes when they arrived during the join phase).
    pub causes: Vec<Cause>,
    /// When the coordinator asked the members to rejoin.
    pub started_at: u64,
    /// When the join phase closed and the leader assigned.
    pub assigned_at: u64,
    /// When the members received their assignment; `None` while syncing or if abandoned.
    pub synced_at: Option<u64>,
    /// The leader crashed before the sync: the assignment never reached the members.
    pub abandoned: bool,
    /// The member that ran the assignor.
    pub leader: MemberId,
    /// The previous round's leader, when the leadership changed hands.
    pub previous_leader: Option<MemberId>,
    /// What each member reported, in join order.
    pub joined: Vec<JoinMetadata>,
    /// What the leader decided.
    pub assignment: Assignment,
    /// Draining members that shut down on receiving this assignment.
    pub departed: Vec<MemberId>,
}

impl Round {
    /// The round as known at a moment: a sync (and the departures it caused) after that
    /// moment has not happened yet.
    pub fn as_of(&self, time: u64) -> Round {
        let mut r = self.clone();
        if r.synced_at.is_some_and(|s| s > time) {
            r.synced_at = None;
            r.departed.clear();
            r.abandoned = false;
        }
        r
    }
}

/// The phase of the round in progress.
#[derive(Clone, Debug, PartialEq)]
pub enum Phase {
    /// Members are rejoining; the round closes its join phase at `deadline` (later if it
    /// waits for a crashed member's session to time out).
    Joining {
        /// When the join phase is due to close.
        deadline: u64,
    },
    /// The leader has assigned; members receive the assignment at `sync_at`.
    Syncing {
        /// When the members receive their assignment.
        sync_at: u64,
        /// The round's record.
        round: Box<Round>,
    },
}

/// The round in progress.
#[derive(Clone, Debug, PartialEq)]
pub struct RoundInProgress {
    /// Its index in the run.
    pub index: u32,
    /// When it started.
    pub started_at: u64,
    /// Why it runs.
    pub causes: Vec<Cause>,
    /// Where it is.
    pub phase: Phase,
}

/// What the coordinator keeps between events.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Coordinator {
    /// The current generation (0 for a group that starts stable).
    pub generation: u32,
    /// Rounds started so far in this run.
    pub rounds: u32,
    /// The round in progress.
    pub round: Option<RoundInProgress>,
    /// Causes that arrived while a round was syncing; they start the next round.
    pub pending: Vec<Cause>,
    /// The leader of the last round that assigned.
    pub leader: Option<MemberId>,
}

fn joined_sentence(names: &[&str]) -> String {
    match names {
        [one] => format!("New member {one} joins the group"),
        _ => format!("New members {} join the group", names.join(", ")),
    }
}

fn ready_sentence(names: &[&str]) -> String {
    match names {
        [one] => format!(
            "Member {one} finishes its replay and becomes ready, re-attempts to join the group"
        ),
        _ => format!(
            "Members {} finish their replay and become ready, re-attempt to join the group",
            names.join(", ")
        ),
    }
}
