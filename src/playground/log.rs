//! The log in the seed's notation as the playground shows it: the rounds as known at the
//! clock (kept between frames), violations, the round still joining, the last lines at rest;
//! in a large group, only the members with news. The worker writes it ([`log_of`]); the page
//! keeps the rounds it was sent and takes only the new ones.

use crate::engine::coordinator::Round;
use crate::history::invariants::Violation;
use crate::playground::session::Lane;
use crate::views::frame::{Frame, PhaseView};
use crate::views::notation;
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::rc::Rc;

/// A broken invariant as the log shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Broken {
    /// When it was seen.
    pub at_ms: u64,
    /// The rule, by its name.
    pub invariant: String,
    /// The round it belongs to, for a decision of the leader.
    pub round: Option<u32>,
    /// What exactly, in words.
    pub detail: String,
}

impl Broken {
    /// A violation as the log shows it.
    pub fn of(v: &Violation) -> Broken {
        Broken {
            at_ms: v.at_ms,
            invariant: v.invariant.name().to_string(),
            round: v.round,
            detail: v.detail.clone(),
        }
    }
}

/// The log in the seed's notation, as known at the clock. (`Eq`, so that comparing the same
/// shared rounds is a pointer comparison.)
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Log {
    /// One entry per round assigned by the clock (shared: a round of a large group runs to
    /// tens of thousands of characters, and the log is read again on every turn of play, so
    /// a new round must not copy the earlier ones).
    pub rounds: Rc<Vec<Rc<LogRound>>>,
    /// Invariant violations seen by the clock.
    pub violations: Vec<Broken>,
    /// The round in its join phase, not yet assigned, in words.
    pub pending: Option<String>,
    /// The last lines when the group is at rest.
    pub ending: Option<String>,
}

/// One round of the log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogRound {
    /// Its index (1 = first).
    pub index: u32,
    /// When it started.
    pub started_at: u64,
    /// Its heading line (`#First Rebalance ...`).
    pub heading: String,
    /// The lines under the heading.
    pub body: String,
}

/// The lines of the current round the log panel draws until the reader opens it: a round of
/// a large group runs to hundreds of lines (50,000 characters at 300 members), and laying that
/// text out again each time the log changed cost the browser tens of milliseconds.
pub const ROUND_LINES: usize = 40;

/// The characters of the current round drawn until the reader opens it (in whole lines, at
/// least one): the panel shows about twenty lines of sixty characters, and this fills it
/// once and a half. A small group's round fits whole. Each new round's text is laid out when
/// it is drawn, on the frame that shows it, so more would cost every round's frame more.
pub const ROUND_CHARACTERS: usize = 2_000;

/// The lines of any other round drawn until the reader opens it (or it becomes current).
pub const EARLIER_ROUND_LINES: usize = 8;

/// The most rounds the log panel draws until the reader asks for all of them.
pub const RECENT_ROUNDS: usize = 8;

/// The characters of the rounds before the last that the log panel draws (each as clipped to
/// [`EARLIER_ROUND_LINES`]) until the reader asks for all of them: in a group of 50, eight
/// rounds came to 4,600 px of wrapped text. A small group's rounds, a few hundred characters
/// each, all fit.
pub const EARLIER_ROUNDS_CHARACTERS: usize = 3_000;

impl LogRound {
    /// Its body cut after at most `lines` lines and `characters` characters (at a line's end,
    /// and after one line at least), and how many lines were left out (the body itself, and
    /// 0, when at most two more lines: the button that shows them takes a line itself).
    pub fn clipped(&self, lines: usize, characters: usize) -> (&str, usize) {
        if lines == 0 {
            return ("", self.body.lines().count());
        }
        let mut cut = None;
        // Each newline ends a line: the `kept + 1`th.
        for (kept, (end, _)) in self.body.match_indices('\n').enumerate() {
            if kept > 0 && end > characters {
                break;
            }
            cut = Some(end);
            if kept + 1 == lines {
                break;
            }
        }
        match cut {
            Some(end) => {
                let left_out = self.body[end + 1..].lines().count();
                if left_out <= 2 {
                    (&self.body, 0)
                } else {
                    (&self.body[..end], left_out)
                }
            }
            None => (&self.body, 0),
        }
    }

    /// What the log panel draws of it until the reader opens it, as the current round or as
    /// an earlier one (see [`LogRound::clipped`]).
    pub fn drawn(&self, current: bool) -> (&str, usize) {
        if current {
            self.clipped(ROUND_LINES, ROUND_CHARACTERS)
        } else {
            self.clipped(EARLIER_ROUND_LINES, usize::MAX)
        }
    }
}

impl Log {
    /// How many of the oldest rounds the log panel leaves out until the reader asks for all:
    /// the last round is always drawn, and before it as many of the latest rounds as fit in
    /// [`EARLIER_ROUNDS_CHARACTERS`], at most [`RECENT_ROUNDS`] rounds in all.
    pub fn left_out(&self) -> usize {
        let Some((_, earlier)) = self.rounds.split_last() else {
            return 0;
        };
        let mut characters = 0;
        let drawn = 1 + earlier
            .iter()
            .rev()
            .take(RECENT_ROUNDS - 1)
            .take_while(|r| {
                characters += r.heading.len() + r.drawn(false).0.len();
                characters <= EARLIER_ROUNDS_CHARACTERS
            })
            .count();
        self.rounds.len() - drawn
    }
}

/// What the log's rounds were last read from (see [`log_of`]): the key of the rounds as
/// known at the clock, the rounds, and each round's entry with what it was written from.
#[derive(Debug, Default)]
pub struct LogMemo {
    /// The rounds: by rounds assigned, synced and abandoned by the clock, and forks.
    rounds: super::memo::Memo<(usize, usize, usize, usize), Vec<Rc<LogRound>>>,
    /// Each round's entry with what it was written from: a new round writes only its own.
    entries: RefCell<Vec<(EntryKey, Rc<LogRound>)>>,
}

/// The log of a lane as known at the clock, with the group's `frame` there (`at_rest`);
/// rounds already written are taken from `memo`.
pub fn log_of(lane: &Lane, clock: u64, frame: &Frame, at_rest: bool, memo: &LogMemo) -> Log {
    let known = lane.rounds_until(clock);
    let synced = known
        .iter()
        .filter(|r| r.synced_at.is_some_and(|s| s <= clock))
        .count();
    let abandoned = known.iter().filter(|r| r.abandoned).count();
    let key = (known.len(), synced, abandoned, lane.run.forks().len());
    let rounds = memo
        .rounds
        .get(key, || log_rounds(lane, clock, &memo.entries));
    Log {
        violations: lane
            .run
            .violations()
            .iter()
            .filter(|v| v.at_ms <= clock)
            .map(Broken::of)
            .collect(),
        pending: (frame.round.phase == PhaseView::Joining).then(|| {
            format!(
                "{}\n{}\nMembers joining\u{2026}",
                notation::heading(frame.round.index.unwrap_or(0)),
                frame.round.causes.join("\n")
            )
        }),
        ending: (at_rest && !rounds.is_empty())
            .then(|| notation::log(lane.view(), &[]).trim().to_string()),
        rounds,
    }
}

/// What a round's entry depends on, as known at the clock: which round (in which branch of
/// the history), and whether its sync, departures and abandonment are known yet.
type EntryKey = (usize, u32, u64, u64, Option<u64>, bool, usize);

fn entry_key(round: &Round, clock: u64, forks: usize) -> EntryKey {
    let synced = round.synced_at.filter(|&s| s <= clock);
    // As `Round::as_of` reads it: a sync still to come hides its departures and abandonment.
    let hidden = round.synced_at.is_some() && synced.is_none();
    (
        forks,
        round.index,
        round.started_at,
        round.assigned_at,
        synced,
        !hidden && round.abandoned,
        if hidden { 0 } else { round.departed.len() },
    )
}

/// The rounds of a lane as known at the clock, in the seed's notation. Entries written
/// before (`written`) are reused while what they depend on is unchanged: writing a round of
/// a large group is the costly part, and rounds come one at a time.
fn log_rounds(
    lane: &Lane,
    clock: u64,
    written: &RefCell<Vec<(EntryKey, Rc<LogRound>)>>,
) -> Vec<Rc<LogRound>> {
    let view = lane.view();
    let roster = view.roster();
    let standbys = view.config().num_standby_replicas > 0;
    let ready_lag = view.config().ready_lag();
    let forks = lane.run.forks().len();
    let mut written = written.borrow_mut();
    let entries: Vec<(EntryKey, Rc<LogRound>)> = lane
        .rounds_until(clock)
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let key = entry_key(r, clock, forks);
            match written.get(i) {
                Some((before, entry)) if *before == key => (key, entry.clone()),
                _ => {
                    let r = r.as_of(clock);
                    let text = if r.joined.len() > LOG_FULL_MEMBERS {
                        condensed_round(roster, &r, standbys, ready_lag)
                    } else {
                        notation::round(roster, &r, standbys, ready_lag)
                    };
                    let (heading, body) = text.split_once('\n').unwrap_or((&text, ""));
                    let entry = Rc::new(LogRound {
                        index: r.index,
                        started_at: r.started_at,
                        heading: heading.to_string(),
                        body: body.to_string(),
                    });
                    (key, entry)
                }
            }
        })
        .collect();
    let rounds = entries.iter().map(|(_, entry)| entry.clone()).collect();
    // Entries of later rounds stay: a scrub back and forth again writes none of them twice.
    let known = entries.len().min(written.len());
    let later = written.split_off(known);
    *written = entries;
    written.extend(later);
    rounds
}

/// Rounds of groups larger than this show only the members with something to report or a
/// change to receive (the export has every line).
pub const LOG_FULL_MEMBERS: usize = 12;

/// A round in the seed's notation, keeping only the members that report something (leaving,
/// revoked, learning) or receive a change; a line counts the others.
fn condensed_round(
    roster: &crate::model::Roster,
    round: &Round,
    standbys: bool,
    ready_lag: u64,
) -> String {
    notation::round_showing(roster, round, standbys, ready_lag, |meta| {
        let changed = round.assignment.of(meta.member).is_some_and(|a| {
            a.assigned != meta.assigned
                || a.learning != meta.learning
                || !a.revoked.is_empty()
                || (standbys && a.standby != meta.standby)
        });
        meta.leaving
            || !meta.revoked.is_empty()
            || !meta.learning.is_empty()
            || changed
            || meta.member == round.leader
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Scenario;
    use crate::playground::session::Session;

    #[test]
    fn a_long_round_is_clipped_at_a_line_boundary_and_counts_what_it_left_out() {
        let round = |body: &str| LogRound {
            index: 1,
            started_at: 0,
            heading: "#First Rebalance".into(),
            body: body.into(),
        };
        let five = round("a\nbb\nccc\ndddd\ne");
        fn lines(r: &LogRound, n: usize) -> (&str, usize) {
            r.clipped(n, usize::MAX)
        }
        assert_eq!(lines(&five, 1), ("a", 4));
        assert_eq!(lines(&five, 2), ("a\nbb", 3));
        // One or two lines more are shown rather than a button in their place.
        assert_eq!(lines(&five, 3), ("a\nbb\nccc\ndddd\ne", 0));
        assert_eq!(lines(&five, 4), ("a\nbb\nccc\ndddd\ne", 0));
        assert_eq!(lines(&five, 9), ("a\nbb\nccc\ndddd\ne", 0));
        assert_eq!(lines(&five, 0), ("", 5));
        // A trailing newline is not a line of its own.
        assert_eq!(lines(&round("a\nb\n"), 2), ("a\nb\n", 0));
        assert_eq!(lines(&round(""), 3), ("", 0));
        // Characters too: whole lines up to the limit, and one line however long.
        let six = round("aaaa\nbbbb\ncccc\ndddd\neeee\nffff");
        assert_eq!(six.clipped(10, 8), ("aaaa", 5));
        assert_eq!(six.clipped(10, 9), ("aaaa\nbbbb", 4));
        assert_eq!(six.clipped(1, 100), ("aaaa", 5));
        assert_eq!(
            round("xxxxxxxxxx\nb\nc\nd").clipped(5, 3),
            ("xxxxxxxxxx", 3)
        );
        // The current round is cut at 40 lines or 2,000 characters, an earlier one at 8 lines.
        let short = round(&"S1(assigned: [T1], revoked: [], learning: [])\n".repeat(50));
        assert_eq!(short.drawn(true).1, 50 - ROUND_LINES);
        assert_eq!(short.drawn(false).1, 50 - EARLIER_ROUND_LINES);
        let long = round(&format!("{}\n", "T100, ".repeat(30)).repeat(50));
        let (body, left_out) = long.drawn(true);
        assert!(body.len() <= ROUND_CHARACTERS && body.len() + 181 > ROUND_CHARACTERS);
        assert_eq!(body.lines().count() + left_out, 50);
    }

    #[test]
    fn the_panel_draws_the_latest_rounds_that_fit() {
        let log = |bodies: &[String]| Log {
            rounds: Rc::new(
                bodies
                    .iter()
                    .enumerate()
                    .map(|(i, body)| {
                        Rc::new(LogRound {
                            index: i as u32 + 1,
                            started_at: i as u64 * 1_000,
                            heading: notation::heading(i as u32 + 1),
                            body: body.clone(),
                        })
                    })
                    .collect(),
            ),
            violations: Vec::new(),
            pending: None,
            ending: None,
        };
        let small = "S1(assigned: [T1, T2], revoked: [], learning: [])\n".repeat(4);
        assert_eq!(log(&[]).left_out(), 0);
        assert_eq!(log(&vec![small.clone(); 3]).left_out(), 0);
        assert_eq!(log(&vec![small.clone(); 12]).left_out(), 12 - RECENT_ROUNDS);
        // Rounds of a large group: long lines, and more of them than are drawn.
        let line = format!(
            "S1(assigned: [{}], revoked: [], learning: [])\n",
            "T100, ".repeat(40)
        );
        let large = line.repeat(30);
        let drawn = log(std::slice::from_ref(&large)).rounds[0]
            .drawn(false)
            .0
            .len();
        let fit = EARLIER_ROUNDS_CHARACTERS / (drawn + notation::heading(12).len());
        assert!(
            (1..RECENT_ROUNDS - 1).contains(&fit),
            "{fit} earlier rounds fit"
        );
        assert_eq!(log(&vec![large.clone(); 12]).left_out(), 12 - 1 - fit);
        // Two long rounds before the last do not fit: the older is left out.
        assert_eq!(log(&[large.clone(), large, small.clone()]).left_out(), 1);
        // The last round is drawn however long it is; an earlier one only if it fits.
        let huge = "x".repeat(EARLIER_ROUNDS_CHARACTERS + 1);
        assert_eq!(log(&[small.clone(), huge.clone()]).left_out(), 0);
        assert_eq!(log(&[huge, small]).left_out(), 1);
    }

    /// Entries reused from earlier frames read exactly as entries written afresh, round by
    /// round, when the clock goes back and after a fork, in a group large enough to be condensed.
    #[test]
    fn reused_entries_read_as_written_afresh() {
        let members: Vec<String> = (1..=14).map(|i| format!("{{\"id\": \"S{i}\"}}")).collect();
        let tasks: Vec<String> = (1..=30)
            .map(|i| format!("{{\"id\": \"T{i}\", \"changelog\": 20000}}"))
            .collect();
        let scenario = Scenario::from_json(&format!(
            r#"{{"name": "log", "tasks": [{}], "members": [{}],
                "events": [{{"at_ms": 0, "join": "S15"}}, {{"at_ms": 4000, "drain": "S2"}}]}}"#,
            tasks.join(","),
            members.join(",")
        ))
        .expect("parses");
        let mut session = Session::new(scenario, &[]).expect("starts");
        let written = RefCell::new(Vec::new());
        let mut seen = 0;
        for clock in (0..40_000).step_by(250).chain([3_000, 500, 20_000]) {
            session.seek(clock).expect("runs");
            let reused = log_rounds(session.main(), clock, &written);
            let afresh = log_rounds(session.main(), clock, &RefCell::new(Vec::new()));
            assert_eq!(reused, afresh, "at {clock} ms");
            seen = seen.max(reused.len());
        }
        assert!(seen >= 3, "several rounds were written ({seen})");
        // Acting in the past forks the history: rounds after it are written again.
        session.seek(3_000).expect("runs");
        session
            .command(crate::model::Command::Crash("S3".into()))
            .expect("S3 can crash");
        for clock in (3_000..40_000).step_by(500) {
            session.seek(clock).expect("runs");
            let reused = log_rounds(session.main(), clock, &written);
            let afresh = log_rounds(session.main(), clock, &RefCell::new(Vec::new()));
            assert_eq!(reused, afresh, "after the fork, at {clock} ms");
        }
    }
}
