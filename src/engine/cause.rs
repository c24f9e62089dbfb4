//! Why the group's assignment is computed again: the causes a rebalance round (or, under the
//! streams protocol, a new group epoch) runs for.

use crate::model::MemberId;

/// Why a rebalance round runs. Its one-word kind (`member_joined`, ...) is what the JSON log
/// and the UI use.
#[derive(Clone, Debug, PartialEq, Eq, Hash, strum::IntoStaticStr)]
#[strum(serialize_all = "snake_case")]
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
    /// A restarted member's session timed out: the coordinator removed it, or the identity it
    /// had before it came back as a new member.
    SessionTimeout(MemberId),
    /// A restarted member came back and joined the group as a new member (without static
    /// membership, or after its session timed out).
    Returned(MemberId),
    /// A member that closed without leaving the group (a drain under Kafka's classic
    /// strategies) was removed when its session timed out.
    Closed(MemberId),
    /// Trunk's refiner changed what the members are to hold (a warm-up caught up): a new
    /// group epoch without the assignor (KIP-1071).
    Refined,
}
