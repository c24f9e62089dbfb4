//! The operations controls, natively: the restart choice (time away, disk) and its errors,
//! restarts, rolling restarts and zone outages playing on after a pause at rest, what a
//! restart will do under each membership, the zones offered, and a restarting member found.

use super::{play_until_paused, preset};
use crate::model::Command;
use crate::playground::operations::parse_down_time;
use crate::playground::{Action, Effect, Local, Playback, RestartChoice};
use crate::views::frame::Frame;

fn frame(pg: &Local) -> Frame {
    Frame::of(pg.session().main().view())
}

#[test]
fn a_time_away_is_read_in_seconds_without_floats_and_refused_with_the_field_named() {
    assert_eq!(parse_down_time("6"), Ok(6_000));
    assert_eq!(parse_down_time(" 12.5 "), Ok(12_500));
    assert_eq!(parse_down_time("0.25"), Ok(250));
    assert_eq!(parse_down_time(".5"), Ok(500));
    assert_eq!(parse_down_time("86400"), Ok(86_400_000), "a day");
    for bad in [
        "0",
        "0.000",
        "86400.001",
        "-3",
        "abc",
        "1.2345",
        "1e3",
        ".",
        "",
        "99999999999999999999",
    ] {
        let error = parse_down_time(bad).expect_err(bad).to_string();
        assert!(error.starts_with("time away: write "), "{bad}: {error}");
        if !bad.is_empty() {
            assert!(
                error.ends_with(&format!("not \"{}\"", bad.trim())),
                "{error}"
            );
        }
    }
}

#[test]
fn the_restart_choice_is_kept_and_a_slip_is_named_without_pausing() {
    let mut pg = preset("scale-up-running");
    assert_eq!(pg.restart_choice(), RestartChoice::default());
    assert_eq!(
        pg.restart_choice().describe(),
        "away 6 s, keeps its disk",
        "shorter than the default 10 s session timeout"
    );
    pg.act(Action::Playback(Playback::Play(true)));
    assert_eq!(pg.act(Action::DownTime("2.5".into())), []);
    pg.act(Action::KeepState(false));
    assert_eq!(
        pg.restart_choice(),
        RestartChoice {
            down_ms: 2_500,
            keep_state: false
        }
    );
    assert_eq!(pg.restart_choice().describe(), "away 2.5 s, loses its disk");
    pg.act(Action::DownTime("never".into()));
    let ops = pg.operations(&frame(&pg));
    assert_eq!(ops.down_time, "never", "the field keeps what was typed");
    assert!(
        ops.down_time_problem
            .as_deref()
            .is_some_and(|e| e.contains("time away") && e.contains("\"never\"")),
        "{:?}",
        ops.down_time_problem
    );
    assert_eq!(
        pg.error(),
        None,
        "named beside the field, not in the error line"
    );
    assert_eq!(
        pg.restart_choice().down_ms,
        2_500,
        "the last good time is kept"
    );
    assert_eq!(ops.restart.down_ms, 2_500);
    assert!(pg.playing(), "a slip in a field does not pause");
    pg.act(Action::DownTime("30.0".into()));
    let ops = pg.operations(&frame(&pg));
    assert_eq!(
        (ops.down_time.as_str(), ops.down_time_problem),
        ("30.0", None),
        "a good time clears its problem and stays as typed"
    );
    assert_eq!(
        pg.restart_choice().restart("S2"),
        Command::Restart {
            member: "S2".into(),
            down_ms: 30_000,
            keep_state: false
        }
    );
    // Another error stays: the field's problems are its own.
    pg.act(Action::Command(Command::Drain("S9".into())));
    pg.act(Action::DownTime("5".into()));
    assert!(pg.error().is_some_and(|e| e.contains("S9")));
}

#[test]
fn a_restart_after_a_pause_at_rest_plays_on_counts_down_and_comes_back() {
    let mut pg = preset("scale-up-running");
    let now = play_until_paused(&mut pg, 0.0);
    pg.act(Action::DownTime("3".into()));
    pg.act(Action::KeepState(false));
    let at = pg.session().clock();
    let command = pg.restart_choice().restart("S2");
    assert_eq!(pg.act(Action::Command(command)), [Effect::Autosave]);
    assert!(pg.playing(), "the restart plays on");
    assert_eq!(pg.notice(), None);
    let s2 = frame(&pg)
        .cards
        .iter()
        .find(|c| c.name == "S2")
        .cloned()
        .expect("S2");
    assert_eq!(s2.status.name(), "restarting");
    let countdown = s2.restart.expect("a countdown");
    assert_eq!((countdown.since, countdown.back_at), (at, at + 3_000));
    assert_eq!((countdown.back_in_ms, countdown.keep_state), (3_000, false));
    let found = {
        pg.act(Action::Find("s2".into()));
        pg.single().found.expect("found").text
    };
    assert!(
        found.starts_with("S2: restarting, back in 3.0 s, "),
        "{found}"
    );
    play_until_paused(&mut pg, now);
    assert!(pg.session().clock() > at + 3_000);
    let s2 = frame(&pg)
        .cards
        .iter()
        .find(|c| c.name == "S2")
        .cloned()
        .expect("S2");
    assert_eq!((s2.status.name(), s2.restart), ("live", None), "back");
}

#[test]
fn a_rolling_restart_and_a_zone_outage_play_on_after_a_pause_at_rest() {
    let mut pg = preset("rolling-deployment-static");
    // The preset's own rolling restart runs first; at rest, the reader starts another.
    let now = play_until_paused(&mut pg, 0.0);
    let ops = pg.operations(&frame(&pg));
    assert!(ops.can_rolling_restart && ops.rolling.is_none());
    pg.act(Action::Command(pg.restart_choice().rolling_restart()));
    assert!(pg.playing(), "the rolling restart plays on");
    let ops = pg.operations(&frame(&pg));
    assert!(!ops.can_rolling_restart, "one at a time");
    let words = ops.rolling.expect("under way");
    assert!(
        words.starts_with(
            "Rolling restart: S1 is restarting, back in 6.0 s \u{00B7} then S2 and 1 more"
        ),
        "{words}"
    );
    play_until_paused(&mut pg, now);
    assert_eq!(pg.operations(&frame(&pg)).rolling, None, "done");

    let mut pg = preset("zone-failure");
    let now = play_until_paused(&mut pg, 0.0);
    let zones: Vec<(String, usize, bool)> = pg
        .operations(&frame(&pg))
        .zones
        .into_iter()
        .map(|z| (z.name, z.alive, z.can_crash))
        .collect();
    // The preset already failed zone a.
    assert_eq!(
        zones,
        [
            ("a".into(), 0, false),
            ("b".into(), 2, true),
            ("c".into(), 2, true)
        ]
    );
    pg.act(Action::Command(Command::CrashZone("b".into())));
    assert!(pg.playing(), "the zone outage plays on");
    let f = frame(&pg);
    assert!(f
        .cards
        .iter()
        .filter(|c| c.zone.as_deref() == Some("b"))
        .all(|c| c.status.name() == "crashed"));
    play_until_paused(&mut pg, now);
}

#[test]
fn the_outcome_of_a_restart_follows_the_membership_and_the_session_timeout() {
    let mut pg = preset("rolling-deployment-static");
    let outcome = |pg: &Local| pg.operations(&frame(pg)).outcome;
    assert!(
        outcome(&pg).starts_with("Static membership: back within the 10 s session timeout"),
        "{}",
        outcome(&pg)
    );
    pg.act(Action::DownTime("12".into()));
    assert!(
        outcome(&pg).starts_with("Static membership, but away longer than the 10 s"),
        "{}",
        outcome(&pg)
    );
    let pg = preset("zone-failure");
    assert!(
        outcome(&pg).starts_with("Dynamic membership: a restarted member comes back as a new one")
            && outcome(&pg).ends_with("after 3 s."),
        "{}",
        outcome(&pg)
    );
}

#[test]
fn controls_are_enabled_only_where_every_compared_lane_takes_the_command() {
    let mut pg = preset("zone-failure");
    pg.act(Action::View(crate::playground::link::ViewMode::Compare));
    assert!(pg.session().lanes().len() > 1);
    let ops = pg.operations(&frame(&pg));
    assert!(ops.can_rolling_restart && ops.zones.iter().all(|z| z.can_crash));
    pg.act(Action::Command(Command::CrashZone("c".into())));
    let ops = pg.operations(&frame(&pg));
    assert_eq!(
        ops.zones.iter().map(|z| z.can_crash).collect::<Vec<_>>(),
        [true, true, false],
        "zone c is down in every lane"
    );
}

#[test]
fn a_new_member_is_offered_the_zones_and_the_least_used_one_is_suggested() {
    assert_eq!(
        preset("scale-up-running").toolbar().zones,
        Vec::<String>::new()
    );
    assert_eq!(preset("scale-up-running").toolbar().zone, None);
    let mut pg = preset("zone-failure");
    let toolbar = pg.toolbar();
    assert_eq!(toolbar.zones, ["a", "b", "c"]);
    assert_eq!(toolbar.zone.as_deref(), Some("a"), "two in each: the first");
    pg.act(Action::Command(Command::Crash("S2".into())));
    assert_eq!(
        pg.toolbar().zone.as_deref(),
        Some("b"),
        "b has one live member left"
    );
    let command = Command::Join(crate::model::MemberSpec {
        name: "S7".into(),
        capacity: 1,
        restore_rate: None,
        zone: pg.toolbar().zone,
    });
    pg.act(Action::Command(command));
    let s7 = frame(&pg)
        .cards
        .iter()
        .find(|c| c.name == "S7")
        .cloned()
        .expect("S7");
    assert_eq!(s7.zone.as_deref(), Some("b"));
    assert_eq!(pg.toolbar().zone.as_deref(), Some("a"), "spread again");
}
