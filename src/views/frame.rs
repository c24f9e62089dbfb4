//! What the playground draws at one moment, read off the engine: a card per member with its
//! task chips, the round in progress, the tasks nobody runs. Pure data, so that the UI only
//! lays it out and tests can check it without a browser.

use crate::engine::coordinator::{Cause, Phase};
use crate::engine::member::MemberStatus;
use crate::engine::Engine;
use crate::model::Command;
use crate::model::{MemberId, TaskId};
use crate::views::streams::StreamsView;
use crate::views::units::duration;
use serde::{Deserialize, Serialize};
use std::rc::Rc;

/// The role a chip shows; its name (`active`, ...) is what tests and styles read
/// (`data-role`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, strum::IntoStaticStr, Serialize, Deserialize)]
#[strum(serialize_all = "snake_case")]
pub enum ChipRole {
    /// The member runs the task.
    Active,
    /// The member replays the task's changelog while another runs it.
    Learner,
    /// The member keeps a standby replica.
    Standby,
}

impl ChipRole {
    /// The name tests and styles use (`data-role`).
    pub fn name(self) -> &'static str {
        self.into()
    }
}

/// A task as one member holds it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Chip {
    /// The task.
    pub task: TaskId,
    /// Its name (shared with the roster). Not serialized: whoever reads a chip back names it
    /// from its own table of tasks.
    #[serde(skip)]
    pub name: Rc<str>,
    /// The member's role for it.
    pub role: ChipRole,
    /// Whether it has state.
    pub stateful: bool,
    /// An active task that some learner replays (`isLearned`).
    pub learned: bool,
    /// A learner within the acceptable recovery lag (`isReady`).
    pub ready: bool,
    /// The share of the changelog this member's store holds, 0 to 100.
    pub progress: u8,
    /// Records this member's store is behind, to two significant digits (so that a chip is
    /// redrawn when the figure changes visibly, not on every frame).
    pub lag: u64,
    /// For an active chip: the task is being processed (not restoring).
    pub up: bool,
    /// For a store still replaying (a learner, a restoring active): virtual ms until it is
    /// ready (caught up), at the rate it replays now, to two significant digits.
    pub ready_in_ms: Option<u64>,
}

impl Chip {
    /// Whether the chip shows a replay bar: a stateful task that is replayed here (a learner,
    /// a standby, an active still restoring), unless its member is away.
    pub fn shows_bar(&self, away: bool) -> bool {
        self.stateful && !away && (self.role != ChipRole::Active || !self.up)
    }

    /// The glyph before the chip's name, which says its role without its colour: an active
    /// waiting for its restarting member (`away`), stateless, restoring or running; a learner
    /// ready or replaying; a standby.
    pub fn glyph(&self, away: bool) -> &'static str {
        match self.role {
            ChipRole::Active if away => "\u{2016}",
            ChipRole::Active if !self.stateful => "\u{25CB}",
            ChipRole::Active if !self.up => "\u{25D4}",
            ChipRole::Active => "\u{25A0}",
            ChipRole::Learner if self.ready => "\u{2713}",
            ChipRole::Learner => "\u{25D0}",
            ChipRole::Standby => "\u{25A2}",
        }
    }

    /// The chip's accessible name: [`Chip::describe`], or, for an active whose member is
    /// restarting, that it is down until the member is back.
    pub fn label(&self, member: &str, away: bool) -> String {
        if away && self.role == ChipRole::Active {
            format!(
                "{} on {member} \u{00B7} active, down while {member} restarts",
                self.name
            )
        } else {
            self.describe(member)
        }
    }

    /// What the replay bar says on hover and focus: how far, and how long to go.
    pub fn bar_tip(&self, away: bool) -> Option<String> {
        self.shows_bar(away).then(|| match self.ready_in_ms {
            Some(ms) if self.role == ChipRole::Learner => {
                format!("{}% \u{00B7} ready in {}", self.progress, duration(ms))
            }
            Some(ms) => format!("{}% \u{00B7} caught up in {}", self.progress, duration(ms)),
            None if self.role == ChipRole::Learner && self.ready => {
                format!("{}% \u{00B7} ready", self.progress)
            }
            None => format!("{}%", self.progress),
        })
    }

    /// The chip in words, as one member holds it: role, state, replay progress and the
    /// time to ready (tooltips and screen readers).
    pub fn describe(&self, member: &str) -> String {
        let mut parts = vec![format!("{} on {member}", self.name)];
        parts.push(
            match (self.role, self.up) {
                (ChipRole::Active, true) => "active, running",
                (ChipRole::Active, false) if self.stateful => {
                    "active, restoring its store (task down)"
                }
                (ChipRole::Active, false) => "active, starting",
                (ChipRole::Learner, _) => "learner",
                (ChipRole::Standby, _) => "standby",
            }
            .to_string(),
        );
        if self.learned {
            parts.push("learned: a learner replays it elsewhere".into());
        }
        if !self.stateful {
            parts.push("stateless".into());
        } else if self.role != ChipRole::Active || !self.up {
            parts.push(format!(
                "{}% replayed, about {} records behind",
                self.progress, self.lag
            ));
        }
        if self.role == ChipRole::Learner {
            parts.push(if self.ready {
                "ready".into()
            } else {
                "not ready yet".into()
            });
        }
        if let Some(ms) = self.ready_in_ms {
            let what = if self.role == ChipRole::Learner {
                "ready"
            } else {
                "caught up"
            };
            parts.push(format!("{what} in about {}", duration(ms)));
        }
        parts.join(" \u{00B7} ")
    }
}

/// A chip as a small mark draws it in a large group: what changes its look and nothing
/// finer, so that a member whose marks look the same is not drawn again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dot {
    /// The task.
    pub task: TaskId,
    /// The member's role for it.
    pub role: ChipRole,
    /// Whether it has state.
    pub stateful: bool,
    /// For an active: processed (not restoring).
    pub up: bool,
    /// An active some learner replays.
    pub learned: bool,
    /// A learner within the acceptable lag.
    pub ready: bool,
    /// Replay progress in tenths (0 to 10).
    pub tenths: u8,
}

impl Dot {
    /// The mark of a chip.
    pub fn of(chip: &Chip) -> Dot {
        Dot {
            task: chip.task,
            role: chip.role,
            stateful: chip.stateful,
            up: chip.up,
            learned: chip.learned,
            ready: chip.ready,
            tenths: chip.progress / 10,
        }
    }

    /// The mark in words (a pointer over it); the chip itself says more.
    pub fn describe(&self, task: &str, member: &str) -> String {
        let what = match self.role {
            ChipRole::Active if !self.stateful => "active, stateless".to_string(),
            ChipRole::Active if self.up => "active, running".to_string(),
            ChipRole::Active => {
                format!("active, restoring (down), about {}0% replayed", self.tenths)
            }
            ChipRole::Learner if self.ready => "learner, ready".to_string(),
            ChipRole::Learner => format!("learner, about {}0% replayed", self.tenths),
            ChipRole::Standby => format!("standby, about {}0% replayed", self.tenths),
        };
        let learned = if self.learned {
            " \u{00B7} learned"
        } else {
            ""
        };
        format!("{task} on {member} \u{00B7} {what}{learned}")
    }
}

/// What a member's state is called on its card and in its accessible name (a leaving member
/// is draining).
pub fn state_text(status: MemberStatus) -> &'static str {
    match status {
        MemberStatus::Leaving { .. } => "draining",
        other => other.name(),
    }
}

/// What a member holds, in words, for a card whose tasks are chips: the tasks it runs, learns
/// (with how much it has replayed) and keeps standbys of, the first few of each by name
/// ("runs T1 and T4, learns T2 (43 %), standby for T5").
pub fn chips_summary(chips: &[Chip]) -> String {
    const NAMED: usize = 6;
    let listed = |role: ChipRole, with_progress: bool| -> Option<String> {
        let of: Vec<&Chip> = chips.iter().filter(|c| c.role == role).collect();
        let named: Vec<String> = of
            .iter()
            .take(NAMED)
            .map(|c| match with_progress {
                true => format!("{} ({} %)", c.name, c.progress),
                false => c.name.to_string(),
            })
            .collect();
        let more = of.len().saturating_sub(NAMED);
        match (named.split_last(), more) {
            (None, _) => None,
            (Some((last, [])), 0) => Some(last.clone()),
            (Some((last, rest)), 0) => Some(format!("{} and {last}", rest.join(", "))),
            (Some(_), more) => Some(format!("{} and {more} more", named.join(", "))),
        }
    };
    let parts: Vec<String> = [
        listed(ChipRole::Active, false).map(|t| format!("runs {t}")),
        listed(ChipRole::Learner, true).map(|t| format!("learns {t}")),
        listed(ChipRole::Standby, false).map(|t| format!("standby for {t}")),
    ]
    .into_iter()
    .flatten()
    .collect();
    if parts.is_empty() {
        ": no tasks".to_string()
    } else {
        format!(": {}", parts.join(", "))
    }
}

/// The tasks nobody runs, in words: how many, and the first few by name.
pub fn orphans_text(chips: &[Chip]) -> String {
    const NAMED: usize = 24;
    if chips.is_empty() {
        return "none".to_string();
    }
    let names: Vec<&str> = chips.iter().take(NAMED).map(|c| &*c.name).collect();
    let more = chips.len().saturating_sub(NAMED);
    format!(
        "{}: {}{}",
        super::counted(chips.len() as u64, "task"),
        names.join(", "),
        if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        }
    )
}

/// A member's card.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Card {
    /// The member.
    pub id: MemberId,
    /// Its name.
    pub name: String,
    /// Live, leaving, crashed or left.
    pub status: MemberStatus,
    /// Whether it leads the group.
    pub leader: bool,
    /// Its capacity.
    pub capacity: u32,
    /// Its restore rate in records per second.
    pub restore_rate: u64,
    /// Actives first, then learners, then standbys, each in task order (shared: the page
    /// keeps a moment's unchanged cards for the next by cloning them).
    pub chips: Rc<[Chip]>,
    /// Whether crashing it would do anything.
    pub can_crash: bool,
    /// Whether draining it would do anything.
    pub can_drain: bool,
    /// Whether restarting it would do anything (it is live and not draining).
    pub can_restart: bool,
    /// Its availability zone, if the scenario uses zones.
    pub zone: Option<String>,
    /// While it restarts: when it went, when it is back, and the time left.
    pub restart: Option<Countdown>,
}

/// A restarting member's way back, for its card's countdown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Countdown {
    /// When its process stopped.
    pub since: u64,
    /// When it is back.
    pub back_at: u64,
    /// Milliseconds until it is back, rounded up to a tenth of a second (so that a card is
    /// redrawn when the figure shown changes, not on every frame).
    pub back_in_ms: u64,
    /// Its stores survive the restart; without, it restores from nothing.
    pub keep_state: bool,
}

/// An availability zone: the zone outage control has one entry per zone, and cards are
/// grouped by zone.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ZoneView {
    /// Its name, such as `a`.
    pub name: String,
    /// Members that were ever in it, in join order.
    pub members: Vec<MemberId>,
    /// How many of them are alive (live or draining).
    pub alive: usize,
    /// Whether a zone outage would do anything.
    pub can_crash: bool,
}

/// A rolling restart under way.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RollingView {
    /// The member restarted last, once the first has been.
    pub current: Option<String>,
    /// Members still to restart, in order.
    pub remaining: Vec<String>,
}

/// The round in progress, or the quiet between rounds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum PhaseView {
    /// No round runs.
    #[default]
    Stable,
    /// Members are rejoining and reporting.
    Joining,
    /// The leader assigned; members receive it.
    Syncing,
    /// Streams protocol: the group epoch moved; the coordinator computes the target at a
    /// member's heartbeat.
    Bumped,
    /// Streams protocol: the target is computed; members reconcile to it at their
    /// heartbeats.
    Reconciling,
}

impl PhaseView {
    /// Words for the phase.
    pub fn describe(self) -> &'static str {
        match self {
            PhaseView::Stable => "stable",
            PhaseView::Joining => "members joining",
            PhaseView::Syncing => "leader assigned, members syncing",
            PhaseView::Bumped => "group epoch bumped, target at a heartbeat",
            PhaseView::Reconciling => "members reconciling at their heartbeats",
        }
    }
}

/// What the round banner shows.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RoundView {
    /// The current generation.
    pub generation: u32,
    /// The index of the round in progress.
    pub index: Option<u32>,
    /// The phase.
    pub phase: PhaseView,
    /// The leader's name.
    pub leader: Option<String>,
    /// Why the round in progress runs, in words.
    pub causes: Vec<String>,
    /// Kinds of the causes (`member_joined`, `learner_ready`, ...).
    pub cause_kinds: Vec<String>,
    /// The causes in a few words each ("S4 joins", "S3 is ready").
    pub cause_labels: Vec<String>,
    /// When it started.
    pub started_at: Option<u64>,
    /// When the phase under way began and when it ends (the join deadline, the sync).
    pub phase_span: Option<(u64, u64)>,
    /// How many members take part (rejoin, or receive the assignment).
    pub members: usize,
    /// Under Kafka's streams protocol, its epochs and heartbeats (no rounds to show).
    pub streams: Option<StreamsView>,
}

impl RoundView {
    /// The group's counter in words: its generation, or under the streams protocol its
    /// group epoch ("generation 3", "group epoch 3").
    pub fn counter(&self) -> String {
        format!("{} {}", self.counter_name(), self.generation)
    }

    /// What the counter counts: "generation", or "group epoch" under the streams protocol
    /// (both glossary terms).
    pub fn counter_name(&self) -> &'static str {
        match self.streams {
            Some(_) => "group epoch",
            None => "generation",
        }
    }

    /// The counter in a few letters, for banners and lane headers ("gen 3", "epoch 3").
    pub fn counter_short(&self) -> String {
        match self.streams {
            Some(_) => format!("epoch {}", self.generation),
            None => format!("gen {}", self.generation),
        }
    }

    /// How far the phase under way is at `clock`, in thousandths (0 without a phase under
    /// way): what the protocol strip's dot shows, in steps a frame of play rarely repeats but
    /// a group at rest never leaves.
    pub fn phase_progress(&self, clock: u64) -> u16 {
        self.phase_span.map_or(0, |(from, until)| {
            let span = until.saturating_sub(from).max(1);
            (clock.saturating_sub(from).min(span) * 1000 / span) as u16
        })
    }
}

/// Everything drawn at one moment (by default: a group of nobody, before any is read).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Frame {
    /// The moment.
    pub time: u64,
    /// One card per member that ever joined, in join order (shared: the group view takes
    /// them on every frame, and a large group's cards hold thousands of chips, too many to
    /// copy a frame). Not serialized: a frame is sent with only the cards that changed.
    #[serde(skip)]
    pub cards: Rc<Vec<Card>>,
    /// Tasks no member runs.
    pub unowned: Vec<Chip>,
    /// The round.
    pub round: RoundView,
    /// The zones, sorted by name; empty when no member has a zone.
    pub zones: Vec<ZoneView>,
    /// The rolling restart under way, if any.
    pub rolling_restart: Option<RollingView>,
    /// Whether a rolling restart would do anything now.
    pub can_rolling_restart: bool,
}

/// A cause in a few words, for the protocol strip.
pub fn cause_label(cause: &Cause, roster: &crate::model::Roster) -> String {
    let name = |m: &MemberId| roster.member(*m).to_string();
    match cause {
        Cause::Startup => "the group forms".into(),
        Cause::MemberJoined(m) => format!("{} joins", name(m)),
        Cause::LearnerReady(m) => format!("{} is ready", name(m)),
        Cause::Drain(m) => format!("{} is leaving", name(m)),
        Cause::CrashDetected(m) => format!("{} timed out (crashed)", name(m)),
        Cause::MemberLeft(m) => format!("{} left", name(m)),
        Cause::ScaleDownTimeout(m) => format!("{} gave up draining", name(m)),
        Cause::FollowUp => "revoked tasks need owners".into(),
        Cause::Probing => "probing warm-ups".into(),
        Cause::SessionTimeout(m) => format!("{}'s old session timed out", name(m)),
        Cause::Returned(m) => format!("{} is back", name(m)),
        Cause::Closed(m) => format!("{} closed and timed out", name(m)),
        Cause::Refined => "a warm-up caught up".into(),
    }
}

/// Rounds to two significant digits: 12,345 becomes 12,000.
fn two_digits(n: u64) -> u64 {
    let mut scale = 1;
    while n / scale >= 100 {
        scale *= 10;
    }
    (n / scale) * scale
}

fn percent(part: f64, whole: f64) -> u8 {
    if whole <= 0.0 {
        100
    } else {
        ((part / whole) * 100.0).floor().clamp(0.0, 100.0) as u8
    }
}

impl Frame {
    /// Reads the frame off an engine.
    pub fn of(engine: &Engine) -> Frame {
        let n = engine.tasks().len();
        // Actives some live learner replays are drawn as learned.
        let mut learned = vec![false; n];
        for m in engine.members() {
            if m.status.alive() {
                for &t in &m.learning {
                    learned[t.index()] = true;
                }
            }
        }
        let cards = (0..engine.members().len())
            .map(|i| card(engine, MemberId(i as u32), &learned))
            .collect::<Vec<_>>();
        let roster = engine.roster();
        let unowned = (0..n)
            .map(|t| TaskId(t as u32))
            .filter(|&t| engine.owner(t).is_none())
            .map(|t| Chip {
                task: t,
                name: roster.task_shared(t),
                role: ChipRole::Active,
                stateful: engine.tasks()[t.index()].stateful,
                learned: false,
                ready: false,
                progress: 0,
                lag: 0,
                up: false,
                ready_in_ms: None,
            })
            .collect();
        let rolling_restart = engine.rolling_restart().map(|r| RollingView {
            current: r.current.map(|m| roster.member(m).to_string()),
            remaining: r
                .queue
                .iter()
                .map(|&m| roster.member(m).to_string())
                .collect(),
        });
        let can_rolling_restart = engine
            .check(&Command::RollingRestart {
                down_ms: 1,
                keep_state: true,
            })
            .is_ok();
        Frame {
            time: engine.time(),
            cards: Rc::new(cards),
            unowned,
            round: round_view(engine),
            zones: zone_views(engine),
            rolling_restart,
            can_rolling_restart,
        }
    }
}

/// One member's card: its state, role, countdown and actions, and its tasks as chips.
fn card(engine: &Engine, id: MemberId, learned: &[bool]) -> Card {
    let m = engine.member(id);
    let mut chips: Vec<Chip> =
        Vec::with_capacity(m.active.len() + m.learning.len() + m.standby.len());
    chips.extend(
        m.active
            .iter()
            .map(|&t| chip(engine, id, t, ChipRole::Active, learned)),
    );
    // A member restarting under static membership keeps its learners and standbys.
    if m.status.alive() || m.status.restarting() {
        chips.extend(
            m.learning
                .iter()
                .map(|&t| chip(engine, id, t, ChipRole::Learner, learned)),
        );
        chips.extend(
            m.standby
                .iter()
                .map(|&t| chip(engine, id, t, ChipRole::Standby, learned)),
        );
    }
    Card {
        id,
        name: m.name.clone(),
        status: m.status,
        // The streams protocol has no leader: the coordinator assigns.
        leader: engine.streams().is_none() && engine.leader() == Some(id),
        capacity: m.capacity,
        restore_rate: m.restore_rate.round() as u64,
        chips: chips.into(),
        can_crash: engine.check_crash(id).is_ok(),
        can_drain: engine.check_drain(id).is_ok(),
        can_restart: engine.check_restart(id).is_ok(),
        zone: m.zone.clone(),
        restart: m.status.absence().map(|a| Countdown {
            since: a.since,
            back_at: a.back_at,
            back_in_ms: a.back_at.saturating_sub(engine.time()).div_ceil(100) * 100,
            keep_state: a.keep_state,
        }),
    }
}

/// A task on a member's card in a role: how far its store has come, whether it is up, ready,
/// and when it will be (at the rate it replays now).
fn chip(engine: &Engine, id: MemberId, task: TaskId, role: ChipRole, learned: &[bool]) -> Chip {
    let spec = &engine.tasks()[task.index()];
    let up = role == ChipRole::Active && engine.is_up(task);
    let settled = Chip {
        task,
        name: engine.roster().task_shared(task),
        role,
        stateful: spec.stateful,
        learned: role == ChipRole::Active && learned[task.index()],
        ready: false,
        progress: 100,
        lag: 0,
        up,
        ready_in_ms: None,
    };
    // Most chips of a large group: a stateful task processed by its owner, whose store is
    // caught up with its changelog by definition.
    if up && spec.stateful {
        return settled;
    }
    let progress = engine.progress(id, task, role == ChipRole::Learner);
    let (lag, done) = (progress.lag, progress.done);
    let records = engine.changelog_records(task);
    let replaying = spec.stateful && !done && !up;
    let ready_in_ms = progress.eta_ms.filter(|_| replaying).map(two_digits);
    Chip {
        ready: role == ChipRole::Learner && done,
        progress: if spec.stateful {
            percent(records - lag, records)
        } else {
            100
        },
        lag: two_digits(lag.ceil() as u64),
        ready_in_ms,
        ..settled
    }
}

/// The round in progress, or the stable group between rounds.
fn round_view(engine: &Engine) -> RoundView {
    if let Some(streams) = StreamsView::of(engine) {
        return streams_round_view(engine, streams);
    }
    let roster = engine.roster();
    let leader = engine.leader();
    let coordinator = engine.coordinator();
    let Some(r) = coordinator.round() else {
        return RoundView {
            generation: coordinator.generation(),
            index: None,
            phase: PhaseView::Stable,
            leader: leader.map(|l| roster.member(l).to_string()),
            causes: Vec::new(),
            cause_kinds: Vec::new(),
            cause_labels: Vec::new(),
            started_at: None,
            phase_span: None,
            members: engine.participants().len(),
            streams: None,
        };
    };
    RoundView {
        generation: coordinator.generation(),
        index: Some(r.index),
        phase: match r.phase {
            Phase::Joining { .. } => PhaseView::Joining,
            Phase::Syncing { .. } => PhaseView::Syncing,
        },
        leader: match &r.phase {
            Phase::Syncing { round, .. } => Some(roster.member(round.leader).to_string()),
            Phase::Joining { .. } => leader.map(|l| roster.member(l).to_string()),
        },
        causes: crate::views::notation::cause_sentences(&r.causes, roster),
        cause_kinds: r.causes.iter().map(|c| c.kind().to_string()).collect(),
        cause_labels: r.causes.iter().map(|c| cause_label(c, roster)).collect(),
        started_at: Some(r.started_at),
        phase_span: Some(match &r.phase {
            Phase::Joining { deadline } => (r.started_at, *deadline),
            Phase::Syncing { sync_at, round } => (round.assigned_at, *sync_at),
        }),
        members: match &r.phase {
            Phase::Syncing { round, .. } => round.joined.len(),
            Phase::Joining { .. } => engine.participants().len(),
        },
        streams: None,
    }
}

/// The round view of a group under the streams protocol: the epoch bumped while the target
/// waits for a heartbeat, then the members reconciling to it, then stable.
fn streams_round_view(engine: &Engine, streams: StreamsView) -> RoundView {
    let roster = engine.roster();
    let empty = (&[][..], None);
    let (pending, bumped_at) = engine.streams().map_or(empty, |g| g.pending());
    let last = engine.streams().and_then(|g| g.last_round());
    let phase = if streams.group_epoch != streams.assignment_epoch || bumped_at.is_some() {
        PhaseView::Bumped
    } else if !streams.reconciling.is_empty() {
        PhaseView::Reconciling
    } else {
        PhaseView::Stable
    };
    let (index, causes) = match (phase, last) {
        (PhaseView::Bumped, _) => (None, pending),
        (PhaseView::Reconciling, Some((index, causes))) => (Some(index), causes),
        _ => (None, &[][..]),
    };
    let from = match phase {
        PhaseView::Bumped => bumped_at,
        PhaseView::Reconciling => engine.streams().and_then(|g| g.last_assignment_at()),
        _ => None,
    };
    RoundView {
        generation: streams.group_epoch,
        index,
        phase,
        leader: None,
        causes: crate::views::notation::cause_sentences(causes, roster),
        cause_kinds: causes.iter().map(|c| c.kind().to_string()).collect(),
        cause_labels: causes.iter().map(|c| cause_label(c, roster)).collect(),
        started_at: from,
        phase_span: from.zip(streams.next_heartbeat.as_ref().map(|(at, _)| *at)),
        members: engine.participants().len(),
        streams: Some(streams),
    }
}

/// Each zone with its members, how many are alive, and whether it can fail now.
fn zone_views(engine: &Engine) -> Vec<ZoneView> {
    engine
        .zones()
        .into_iter()
        .map(|name| {
            let members: Vec<MemberId> = (0..engine.members().len())
                .map(|i| MemberId(i as u32))
                .filter(|&m| engine.member(m).zone.as_deref() == Some(name.as_str()))
                .collect();
            ZoneView {
                alive: members
                    .iter()
                    .filter(|&&m| engine.member(m).status.alive())
                    .count(),
                can_crash: engine.check(&Command::CrashZone(name.clone())).is_ok(),
                name,
                members,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::history::Run;
    use crate::presets::Preset;

    fn run_to(id: &str, t: u64) -> Engine {
        let mut run = Run::new(
            Preset::find(id)
                .expect("preset")
                .scenario()
                .expect("parses"),
        );
        run.advance_to(t).expect("runs");
        run.engine().clone()
    }

    #[test]
    fn a_learner_chip_fills_up_and_turns_ready() {
        let early = Frame::of(&run_to("scale-up-running", 1_000));
        let s4 = early.cards.iter().find(|c| c.name == "S4").expect("S4");
        let chip = &s4.chips[0];
        assert_eq!((chip.role, &*chip.name), (ChipRole::Learner, "T1"));
        assert!(!chip.ready);
        assert!(chip.progress > 0 && chip.progress < 30, "{}", chip.progress);
        let s1 = early.cards.iter().find(|c| c.name == "S1").expect("S1");
        assert!(s1.leader);
        assert!(s1.chips[0].learned, "T1 is learned on S1");
        let words = chip.describe("S4");
        assert!(
            words.starts_with("T1 on S4 \u{00B7} learner \u{00B7} ")
                && words.contains("% replayed, about ")
                && words.contains("not ready yet \u{00B7} ready in about "),
            "{words}"
        );
        let ready_in = chip.ready_in_ms.expect("replaying");
        // S4 replays T1's 50,000 records at 10,000 records/s while 100/s are written.
        let expected = (chip.lag as f64 / 9_900.0 * 1000.0) as u64;
        assert!(
            ready_in.abs_diff(expected) <= expected / 10,
            "{ready_in} ms to ready, about {expected}"
        );
        assert_eq!(
            s1.chips[0].ready_in_ms, None,
            "a running active replays nothing"
        );
        let later = Frame::of(&run_to("scale-up-running", 5_555));
        let s4 = later.cards.iter().find(|c| c.name == "S4").expect("S4");
        assert!(s4
            .chips
            .iter()
            .any(|c| c.role == ChipRole::Learner && c.ready && c.progress == 100));
    }

    #[test]
    fn a_processed_stateful_task_is_caught_up_on_its_owner_at_every_moment() {
        // Frame::of draws such a chip as caught up without reading its store: check that
        // its owner's store is caught up, at a hundred moments of every preset.
        let mut checked = 0;
        for preset in crate::presets::PRESETS {
            let mut run = Run::new(preset.scenario().expect("parses"));
            run.advance_to(60_000).expect("runs");
            for i in 0..=100 {
                let engine = run.state_at(run.frontier() * i / 100);
                for task in (0..engine.tasks().len()).map(|t| TaskId(t as u32)) {
                    let (Some(owner), true) = (engine.owner(task), engine.is_up(task)) else {
                        continue;
                    };
                    if engine.tasks()[task.index()].stateful {
                        assert_eq!(engine.lag(owner, task), Some(0.0), "{}", preset.id);
                        assert!(engine.caught_up(owner, task));
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 1_000, "{checked} chips checked");
    }

    #[test]
    fn the_round_banner_follows_the_phases() {
        let joining = Frame::of(&run_to("scale-up-running", 100));
        assert_eq!(joining.round.phase, PhaseView::Joining);
        assert_eq!(joining.round.cause_kinds, ["member_joined"]);
        assert_eq!(joining.round.cause_labels, ["S4 joins"]);
        assert_eq!(joining.round.phase_span, Some((0, 250)));
        assert_eq!(joining.round.phase_progress(100), 400);
        assert_eq!(joining.round.phase_progress(400), 1000);
        assert_eq!(joining.round.members, 4);
        let syncing = Frame::of(&run_to("scale-up-running", 300));
        assert_eq!(syncing.round.phase, PhaseView::Syncing);
        assert_eq!(syncing.round.phase_span, Some((250, 500)));
        assert_eq!(syncing.round.generation, 1);
        let stable = Frame::of(&run_to("scale-up-running", 600));
        assert_eq!(stable.round.phase, PhaseView::Stable);
        assert_eq!(stable.round.streams, None);
        assert_eq!(syncing.round.counter(), "generation 1");
        assert_eq!(syncing.round.counter_short(), "gen 1");
        assert_eq!(stable.round.phase_progress(600), 0);
        assert_eq!(syncing.round.phase_progress(200), 0);
    }

    #[test]
    fn crashed_members_drop_their_tasks_into_the_unassigned_tray() {
        let f = Frame::of(&run_to("leader-transfer", 2_000));
        let s1 = f.cards.iter().find(|c| c.name == "S1").expect("S1");
        assert!(s1.status.crashed());
        assert!(!s1.can_crash && !s1.can_drain);
        let names: Vec<&str> = f.unowned.iter().map(|c| &*c.name).collect();
        assert_eq!(names, ["T1", "T2"]);
    }

    #[test]
    fn a_restarting_member_shows_its_countdown() {
        let f = Frame::of(&run_to("rolling-deployment-static", 3_000));
        let s1 = &f.cards[0];
        assert_eq!((s1.name.as_str(), s1.status.name()), ("S1", "restarting"));
        assert!(!s1.can_restart && !s1.can_crash && !s1.can_drain);
        assert_eq!(
            s1.restart,
            Some(Countdown {
                since: 1_000,
                back_at: 7_000,
                back_in_ms: 4_000,
                keep_state: true
            })
        );
        // Static membership: its tasks stay on its card, down while it is away.
        assert!(s1.chips.iter().all(|c| c.role == ChipRole::Active && !c.up));
        assert_eq!(s1.chips.len(), 2);
        assert!(f.cards[1].can_restart && f.cards[1].restart.is_none());
        let rolling = f.rolling_restart.expect("under way");
        assert_eq!(rolling.current.as_deref(), Some("S1"));
        assert_eq!(rolling.remaining, ["S2", "S3"]);
        assert!(!f.can_rolling_restart, "one at a time");
        let later = Frame::of(&run_to("rolling-deployment-static", 6_951));
        assert_eq!(later.cards[0].restart.map(|c| c.back_in_ms), Some(100));
    }

    #[test]
    fn zones_list_their_members_and_whether_they_can_fail() {
        let before = Frame::of(&run_to("zone-failure", 500));
        let names: Vec<&str> = before.zones.iter().map(|z| z.name.as_str()).collect();
        assert_eq!(names, ["a", "b", "c"]);
        assert_eq!(before.zones[0].members, [MemberId(0), MemberId(3)]);
        assert!(before.zones.iter().all(|z| z.alive == 2 && z.can_crash));
        assert_eq!(before.cards[1].zone.as_deref(), Some("b"));
        let after = Frame::of(&run_to("zone-failure", 1_500));
        assert_eq!((after.zones[0].alive, after.zones[0].can_crash), (0, false));
        assert!(after.zones[1].can_crash);
    }
}

#[cfg(test)]
mod wording {
    use super::*;

    fn chip(name: &str, role: ChipRole, up: bool) -> Chip {
        Chip {
            task: TaskId(0),
            name: name.into(),
            role,
            stateful: true,
            learned: false,
            ready: false,
            progress: 40,
            lag: 6_000,
            up,
            ready_in_ms: Some(3_200),
        }
    }

    #[test]
    fn a_leaving_member_reads_as_draining_and_the_others_by_their_state() {
        assert_eq!(
            state_text(MemberStatus::Leaving { joined_at: 0 }),
            "draining"
        );
        assert_eq!(state_text(MemberStatus::Live { joined_at: 0 }), "live");
        let crashed = MemberStatus::Crashed {
            at: 5,
            in_group: true,
        };
        assert_eq!(state_text(crashed), "crashed");
    }

    #[test]
    fn a_member_says_what_it_runs_learns_and_keeps_standbys_of() {
        assert_eq!(chips_summary(&[]), ": no tasks");
        let held = [
            chip("T1", ChipRole::Active, true),
            chip("T4", ChipRole::Active, true),
            chip("T2", ChipRole::Learner, false),
            chip("T5", ChipRole::Standby, false),
        ];
        assert_eq!(
            chips_summary(&held),
            ": runs T1 and T4, learns T2 (40 %), standby for T5"
        );
        assert_eq!(chips_summary(&held[..1]), ": runs T1");
        let many: Vec<Chip> = (0..9)
            .map(|i| chip(&format!("T{i}"), ChipRole::Active, true))
            .collect();
        assert_eq!(
            chips_summary(&many),
            ": runs T0, T1, T2, T3, T4, T5 and 3 more"
        );
    }

    #[test]
    fn the_orphans_are_counted_and_the_first_two_dozen_named() {
        assert_eq!(orphans_text(&[]), "none");
        assert_eq!(
            orphans_text(&[chip("T1", ChipRole::Active, false)]),
            "1 task: T1"
        );
        let many: Vec<Chip> = (0..30)
            .map(|i| chip(&format!("T{i}"), ChipRole::Active, false))
            .collect();
        let text = orphans_text(&many);
        assert!(text.starts_with("30 tasks: T0, T1, "), "{text}");
        assert!(text.ends_with("T23 and 6 more"), "{text}");
    }

    #[test]
    fn a_chip_says_how_far_it_replayed_and_how_long_to_go_unless_its_member_is_away() {
        let learner = chip("T2", ChipRole::Learner, false);
        assert_eq!(
            learner.bar_tip(false).as_deref(),
            Some("40% · ready in 3.2 s")
        );
        let restoring = chip("T3", ChipRole::Active, false);
        assert_eq!(
            restoring.bar_tip(false).as_deref(),
            Some("40% · caught up in 3.2 s")
        );
        assert_eq!(restoring.bar_tip(true), None, "away: no bar");
        assert_eq!(
            restoring.label("S2", true),
            "T3 on S2 · active, down while S2 restarts"
        );
        assert_eq!(restoring.label("S2", false), restoring.describe("S2"));
        assert_eq!(chip("T4", ChipRole::Active, true).bar_tip(false), None);
    }
}
