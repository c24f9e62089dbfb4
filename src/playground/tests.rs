//! The playground's behaviour, natively: which session opens at start, playing, pausing at
//! rest and playing on, sharing, exports, imports, views, preferences, tours.

use super::screen::Mark;
use super::*;
use crate::model::{Command, MemberSpec, Scenario, Strategy};
use crate::playground::link::{SavedSession, ViewMode};
use crate::presets::Preset;
use crate::views::frame::{ChipRole, Frame};
use std::rc::Rc;

mod command_editor;
mod config;
mod operations;
mod streams;
mod sweep;
mod worker;

/// A playground opened on a preset.
pub(super) fn preset(id: &str) -> Local {
    let preset = Preset::find(id).expect("preset");
    let scenario = preset.scenario().expect("parses");
    Local::with(scenario, Some(preset.id))
}

/// A playground opened on the worked example `scenarios/review/scale-out-under-load.json`.
pub(super) fn scale_out() -> Local {
    let scenario = Scenario::from_json(include_str!(
        "../../scenarios/review/scale-out-under-load.json"
    ))
    .expect("parses");
    Local::with(scenario, None)
}

/// The text of a share link of a preset at a moment.
fn link_of(id: &str, clock: u64) -> String {
    let mut pg = preset(id);
    pg.act(Action::Playback(Playback::Seek(clock)));
    pg.saved().encode()
}

fn start(fragment: &str, query: Query, autosave: Option<String>) -> (Local, Vec<Effect>) {
    Local::start(Startup {
        fragment: fragment.into(),
        query,
        autosave,
        ..Startup::default()
    })
}

fn embed(preset: Option<&str>) -> Query {
    Query {
        embed: true,
        preset: preset.map(str::to_string),
        ..Query::default()
    }
}

/// Plays with 16 ms frames until the playground pauses itself (or gives up).
fn play_until_paused(pg: &mut Local, from: f64) -> f64 {
    pg.act(Action::Playback(Playback::Speed(16.0)));
    pg.act(Action::Playback(Playback::Play(true)));
    let mut now = from;
    while pg.playing() && now < from + 600_000.0 {
        now += 16.0;
        pg.act(Action::Playback(Playback::Frame(now)));
    }
    now
}

#[test]
fn a_share_link_wins_over_the_autosave_and_is_taken_out_of_the_address() {
    let link = link_of("leader-transfer", 3_000);
    let autosave = link_of("scale-down-running", 1_000);
    let (pg, effects) = start(&format!("s={link}"), Query::default(), Some(autosave));
    assert_eq!(
        pg.session().scenario().name,
        "Leader Transfer During Scaling"
    );
    assert_eq!(pg.session().clock(), 3_000);
    assert_eq!(pg.notice(), Some("Opened the shared session."));
    assert_eq!(pg.preset(), Some("leader-transfer"));
    assert!(effects.contains(&Effect::ReplaceFragment(String::new())));
    assert!(
        effects.contains(&Effect::Autosave),
        "the link becomes the session"
    );
}

#[test]
fn the_autosave_opens_when_there_is_no_link() {
    let mut saving = preset("scale-down-running");
    saving.act(Action::Playback(Playback::Seek(1_000)));
    let autosave = saving.autosave_text().expect("the full playground saves");
    // Written before autosaves were JSON (or compressed for a full storage): a link's text.
    let compressed = saving
        .autosave_compressed()
        .expect("the full playground saves");
    assert_eq!(compressed, link_of("scale-down-running", 1_000));
    for text in [autosave, compressed] {
        let (pg, effects) = start("", Query::default(), Some(text));
        assert_eq!(pg.session().clock(), 1_000);
        assert_eq!(pg.preset(), Some("scale-down-running"));
        assert_eq!(pg.notice(), Some("Restored your last session."));
        assert_eq!(pg.error(), None);
        assert_eq!(effects, [Effect::Autosave]);
    }
}

#[test]
fn the_autosave_wins_over_the_query_preset_outside_embeds() {
    let query = Query {
        preset: Some("leader-transfer".into()),
        ..Query::default()
    };
    let (pg, _) = start("", query, Some(link_of("scale-down-running", 1_000)));
    assert_eq!(pg.preset(), Some("scale-down-running"));
}

#[test]
fn an_embed_opens_its_preset_ignores_the_autosave_and_saves_nothing() {
    let (pg, effects) = start(
        "",
        embed(Some("scale-down-running")),
        Some(link_of("leader-transfer", 2_000)),
    );
    assert!(pg.embed());
    assert_eq!(pg.preset(), Some("scale-down-running"));
    assert_eq!(pg.session().clock(), 0);
    assert!(effects.is_empty(), "{effects:?}");
    assert_eq!(pg.autosave_text(), None);
    assert_eq!(pg.autosave_compressed(), None);
    assert!(!pg.playing(), "embeds start paused");
    let (autoplay, _) = start(
        "",
        Query {
            autoplay: true,
            ..embed(Some("leader-transfer"))
        },
        None,
    );
    assert!(autoplay.playing());
    let (full, _) = start(
        "",
        Query {
            autoplay: true,
            ..Query::default()
        },
        None,
    );
    assert!(!full.playing(), "autoplay is for embeds");
}

#[test]
fn an_embed_opens_a_link_and_leaves_it_in_the_address() {
    let link = link_of("leader-transfer", 2_500);
    let (pg, effects) = start(&format!("s={link}"), embed(None), None);
    assert_eq!(pg.session().clock(), 2_500);
    assert!(effects.is_empty(), "{effects:?}");
}

#[test]
fn the_query_preset_opens_when_nothing_was_saved() {
    let query = Query::from_params(|k| (k == "preset").then(|| "scale-up-empty".to_string()));
    let (pg, _) = start("", query, None);
    assert_eq!(pg.preset(), Some("scale-up-empty"));
    assert_eq!(pg.error(), None);
    let (default, _) = start("", Query::default(), None);
    assert_eq!(default.preset(), Some(PRESETS[0].id));
}

#[test]
fn a_garbage_link_is_named_and_the_default_shows_without_touching_the_autosave() {
    let autosave = link_of("leader-transfer", 2_000);
    for fragment in ["s=garbage!!", "s=N4XyA", "s="] {
        let (pg, effects) = start(fragment, Query::default(), Some(autosave.clone()));
        let error = pg.error().expect("an error");
        assert!(error.starts_with("The link could not be opened"), "{error}");
        assert_eq!(pg.preset(), Some(PRESETS[0].id), "{fragment}: the default");
        assert!(effects.contains(&Effect::ReplaceFragment(String::new())));
    }
    let (pg, effects) = start("nonsense", Query::default(), Some(autosave));
    assert!(pg
        .error()
        .is_some_and(|e| e.contains("not a Handoff session (8 characters)")));
    assert!(effects.contains(&Effect::ReplaceFragment(String::new())));
}

#[test]
fn a_bad_autosave_is_named_and_set_aside() {
    let (pg, effects) = start("", Query::default(), Some("!!broken".into()));
    assert!(pg
        .error()
        .is_some_and(|e| e.starts_with("Your saved session could not be restored")));
    assert_eq!(pg.preset(), Some(PRESETS[0].id));
    assert_eq!(
        effects,
        [Effect::SetAside("!!broken".into()), Effect::Autosave]
    );
}

#[test]
fn an_unknown_preset_or_tour_is_named() {
    let query = Query {
        preset: Some("no-such".into()),
        ..Query::default()
    };
    let (pg, _) = start("", query, None);
    assert_eq!(
        pg.error(),
        Some("There is no preset named \"no-such\"; showing the default scenario.")
    );
    assert_eq!(pg.preset(), Some(PRESETS[0].id));
    let query = Query {
        tour: Some("moon-landing".into()),
        ..Query::default()
    };
    let (pg, _) = start("", query, None);
    assert!(pg.error().is_some_and(|e| e.contains("\"moon-landing\"")));
    assert_eq!(pg.tour(), None);
}

#[test]
fn a_tour_in_the_query_starts_at_its_first_step() {
    let query = Query {
        tour: Some("leader-transfer".into()),
        ..embed(None)
    };
    let (pg, _) = start("", query, None);
    let tour = pg.tour().expect("a tour");
    assert_eq!((tour.tour.as_str(), tour.step), ("leader-transfer", 0));
    assert_eq!(pg.preset(), Some("leader-transfer"));
    assert!(pg.session().clock() > 0, "the first step waits for round 1");
}

#[test]
fn saved_preferences_override_the_system_and_the_system_is_the_default() {
    let system = Local::start(Startup {
        prefers_dark: true,
        prefers_reduced_motion: true,
        ..Startup::default()
    })
    .0;
    assert_eq!((system.theme(), system.motion()), (Theme::Dark, false));
    assert!(system.shortcuts());
    let chosen = Local::start(Startup {
        prefers_dark: true,
        prefers_reduced_motion: true,
        preferences: Some(Preferences {
            theme: Some(Theme::Light),
            motion: None,
            shortcuts: Some(false),
        }),
        ..Startup::default()
    })
    .0;
    assert_eq!(
        (chosen.theme(), chosen.motion(), chosen.shortcuts()),
        (Theme::Light, false, false)
    );
}

#[test]
fn changing_a_preference_saves_them_all() {
    let mut pg = preset("scale-up-running");
    let effects = pg.act(Action::Preference(Preference::Theme(Theme::Dark)));
    assert_eq!(
        effects,
        [Effect::SavePreferences(Preferences {
            theme: Some(Theme::Dark),
            motion: Some(true),
            shortcuts: Some(true),
        })]
    );
    assert!(pg.act(Action::Help(true)).is_empty());
}

#[test]
fn playing_moves_the_clock_by_real_time_times_the_speed() {
    let mut pg = preset("scale-up-running");
    pg.act(Action::Playback(Playback::Speed(2.0)));
    pg.act(Action::Playback(Playback::Play(true)));
    pg.act(Action::Playback(Playback::Frame(1_000.0)));
    assert_eq!(
        pg.session().clock(),
        0,
        "the first frame only starts the count"
    );
    pg.act(Action::Playback(Playback::Frame(1_016.0)));
    assert_eq!(pg.session().clock(), 32);
    pg.act(Action::Playback(Playback::Frame(6_000.0)));
    assert_eq!(pg.session().clock(), 232, "a long gap counts as 100 ms");
    pg.act(Action::Playback(Playback::Speed(100.0)));
    assert_eq!(pg.speed(), 16.0, "speeds are clamped to those offered");
}

#[test]
fn chips_travel_while_the_story_moves_on_for_a_time_scaled_with_the_speed() {
    let mut pg = preset("scale-up-running");
    pg.act(Action::Playback(Playback::Play(true)));
    pg.act(Action::Playback(Playback::Frame(1_000.0)));
    pg.act(Action::Playback(Playback::Frame(1_016.0)));
    assert_eq!(pg.travel_ms(), Some(300), "playing at 1x");
    pg.act(Action::Playback(Playback::Speed(16.0)));
    pg.act(Action::Playback(Playback::Frame(1_033.0)));
    assert_eq!(pg.travel_ms(), Some(100), "playing at 16x");
    pg.act(Action::Playback(Playback::Seek(9_000)));
    assert_eq!(
        pg.travel_ms(),
        None,
        "a jump: chips are drawn where they are"
    );
    pg.act(Action::Playback(Playback::Play(true)));
    pg.act(Action::Playback(Playback::Frame(2_000.0)));
    pg.act(Action::Playback(Playback::Frame(2_016.0)));
    assert_eq!(pg.travel_ms(), Some(100));
    pg.act(Action::Preference(Preference::Motion(false)));
    pg.act(Action::Playback(Playback::Frame(2_033.0)));
    assert_eq!(pg.travel_ms(), None, "the motion switch off");
}

/// Checks that a task timeline has every task once, grouped by the member running it at the
/// end (in join order, tasks nobody runs last), in task order within a group, each group
/// named on its first row. Returns how many tasks nobody runs at the end.
fn grouped_by_last_owner(t: &super::over_time::TaskTimeline) -> usize {
    let owner = |row: &super::over_time::TimelineRow| {
        row.line
            .owners
            .last()
            .filter(|o| o.1 >= t.until)
            .map_or(usize::MAX, |o| o.2.index())
    };
    let mut tasks: Vec<u32> = t.rows.iter().map(|r| r.line.task.0).collect();
    tasks.sort();
    assert_eq!(tasks, (0..t.rows.len() as u32).collect::<Vec<_>>());
    for (i, row) in t.rows.iter().enumerate() {
        let key = (owner(row), row.line.task);
        let first = i == 0 || owner(&t.rows[i - 1]) != key.0;
        if i > 0 {
            assert!(
                (owner(&t.rows[i - 1]), t.rows[i - 1].line.task) < key,
                "row {i}"
            );
        }
        let named = (key.0 != usize::MAX).then(|| t.members[key.0].clone());
        assert_eq!(row.group, first.then_some(named), "row {i}");
    }
    t.rows.iter().filter(|r| owner(r) == usize::MAX).count()
}

#[test]
fn the_task_timeline_read_on_while_playing_is_the_one_read_from_the_start_also_after_a_fork() {
    let mut pg = preset("scale-up-running");
    pg.act(Action::TimelineInView(true));
    // At 4x, so that 160 frames (ten turns of the timeline) stay within the scale-up.
    pg.act(Action::Playback(Playback::Speed(4.0)));
    let from_start = |pg: &Local| {
        let shown = pg.task_timeline();
        let fresh =
            super::over_time::task_timeline(pg.session().main(), shown.until, shown.end, &mut None);
        (shown, fresh)
    };
    let mut now = 0.0;
    let mut rebuilds = 0;
    let mut unowned = 0;
    let mut play = |pg: &mut Local, frames: usize| {
        pg.act(Action::Playback(Playback::Play(true)));
        let mut last = pg.task_timeline();
        for _ in 0..frames {
            now += 16.0;
            pg.act(Action::Playback(Playback::Frame(now)));
            let (shown, fresh) = from_start(pg);
            assert_eq!(*shown, fresh, "at {} ms", pg.session().clock());
            unowned += grouped_by_last_owner(&shown);
            if !Rc::ptr_eq(&shown, &last) {
                rebuilds += 1;
                last = shown;
            }
        }
    };
    play(&mut pg, 160);
    // Back to the middle, a command there forks the history: the reading starts again.
    pg.act(Action::Playback(Playback::Play(false)));
    let forks = pg.session().main().run.forks().len();
    pg.act(Action::Playback(Playback::Seek(pg.session().clock() / 2)));
    pg.act(Action::Command(Command::Crash("S2".into())));
    assert_eq!(pg.session().main().run.forks().len(), forks + 1);
    play(&mut pg, 160);
    assert!(rebuilds >= 10, "the timeline was rebuilt {rebuilds} times");
    assert!(unowned > 0, "S2's tasks waited for a new owner");
}

#[test]
fn while_playing_the_panels_follow_the_clock_four_times_a_second_in_turns_and_catch_up_at_a_pause()
{
    let mut pg = preset("scale-up-running");
    pg.act(Action::TimelineInView(true));
    pg.act(Action::Playback(Playback::Speed(1.0)));
    pg.act(Action::Playback(Playback::Play(true)));
    let mut now = 1_000.0;
    pg.act(Action::Playback(Playback::Frame(now)));
    // The panels' turns wait for a frame in which nothing happened (see the next test); at 1x
    // few frames hold an event, and the turns keep their cadence. Play on until the log is
    // read.
    let mut log = pg.shown_log(&pg.single());
    while Rc::ptr_eq(&log, &pg.shown_log(&pg.single())) {
        assert!(
            now < 1_000.0 + 2.0 * PANELS_EVERY_MS,
            "the log was not read again"
        );
        now += 16.0;
        pg.act(Action::Playback(Playback::Frame(now)));
    }
    log = pg.shown_log(&pg.single());
    let read_at = now;
    let measures = pg.measures();
    let timeline = pg.task_timeline();
    // Frames within a period keep what each panel shows; the group moves on. The measures
    // are read a third of a period after the log, the task timeline two thirds: no frame
    // reads two of them. Each is read at the clock of the frame whose turn it is.
    let mut shown = Vec::new();
    while now + 16.0 - read_at < PANELS_EVERY_MS {
        now += 16.0;
        pg.act(Action::Playback(Playback::Frame(now)));
        assert_eq!(pg.single().frame.time, pg.session().clock());
        assert!(Rc::ptr_eq(&log, &pg.shown_log(&pg.single())));
        if !shown.iter().any(|(_, m, _)| !Rc::ptr_eq(&measures, m))
            && !Rc::ptr_eq(&measures, &pg.measures())
        {
            assert_eq!(pg.measures().metrics.at_ms, pg.clock(), "read at its turn");
        }
        shown.push((now - read_at, pg.measures(), pg.task_timeline()));
    }
    for (since, m, t) in &shown {
        assert_eq!(
            Rc::ptr_eq(&measures, m),
            *since < PANELS_EVERY_MS / 3.0,
            "the measures read again a third of a period after the log ({since} ms)"
        );
        assert_eq!(
            Rc::ptr_eq(&timeline, t),
            *since < PANELS_EVERY_MS * 2.0 / 3.0,
            "the timeline two thirds after ({since} ms)"
        );
    }
    let measures_read = shown.iter().find(|(_, m, _)| !Rc::ptr_eq(&measures, m));
    let timeline_read = shown.iter().find(|(_, _, t)| !Rc::ptr_eq(&timeline, t));
    let (Some((_, measures_read, _)), Some((_, _, timeline_read))) = (measures_read, timeline_read)
    else {
        panic!("the measures and the timeline were read within the period");
    };
    assert!(shown
        .iter()
        .all(|(since, m, _)| *since < PANELS_EVERY_MS / 3.0 || Rc::ptr_eq(m, measures_read)));
    assert!(shown
        .iter()
        .all(|(since, _, t)| *since < PANELS_EVERY_MS * 2.0 / 3.0 || Rc::ptr_eq(t, timeline_read)));
    assert!(measures_read.metrics.at_ms < pg.session().clock());
    now += 16.0;
    pg.act(Action::Playback(Playback::Frame(now)));
    assert!(
        !Rc::ptr_eq(&log, &pg.shown_log(&pg.single())),
        "a period after the last reading"
    );
    assert!(
        Rc::ptr_eq(measures_read, &pg.measures()),
        "the measures wait for their own turn"
    );
    assert!(
        Rc::ptr_eq(timeline_read, &pg.task_timeline()),
        "so does the timeline"
    );
    pg.act(Action::Playback(Playback::Frame(now + 16.0)));
    assert!(pg.measures().metrics.at_ms < pg.session().clock());
    pg.act(Action::Playback(Playback::Play(false)));
    assert_eq!(
        pg.measures().metrics.at_ms,
        pg.session().clock(),
        "a pause shows the clock everywhere"
    );
    // The task timeline too: read to the history's end, within a step of its axis (a 200th
    // of it in a group of 5 tasks).
    let timeline = pg.task_timeline();
    assert!(
        timeline.until <= pg.frontier() && pg.frontier() - timeline.until < timeline.end / 200,
        "the timeline too: to {} of {} ms",
        timeline.until,
        pg.frontier()
    );
    let rested = play_until_paused(&mut pg, now + 1_000.0);
    assert!(rested > now && !pg.playing());
    assert_eq!(
        pg.measures().metrics.at_ms,
        pg.session().clock(),
        "so does pausing at rest"
    );
}

#[test]
fn at_rest_the_playground_pauses_and_the_readers_next_command_plays_on() {
    let mut pg = preset("scale-up-running");
    let now = play_until_paused(&mut pg, 0.0);
    assert!(!pg.playing());
    assert!(pg.session().settled());
    assert_eq!(pg.notice(), Some(AT_REST));
    let rested = pg.session().clock();
    let effects = pg.act(Action::Command(Command::Drain("S3".into())));
    assert_eq!(effects, [Effect::Autosave]);
    assert!(pg.playing(), "the drain plays on");
    assert_eq!(pg.notice(), None, "the at-rest notice is gone");
    // It plays until the drain is done, then pauses at rest again.
    play_until_paused(&mut pg, now);
    assert!(pg.session().clock() > rested);
    let s3 = Frame::of(pg.session().main().view());
    let s3 = s3.cards.iter().find(|c| c.name == "S3").expect("S3");
    assert_eq!(s3.status.name(), "left");
    assert_eq!(pg.notice(), Some(AT_REST));
}

#[test]
fn a_moment_whose_cards_all_stayed_shares_the_list_of_the_moment_before() {
    let mut pg = preset("scale-up-running");
    play_until_paused(&mut pg, 0.0);
    let rested = pg.session().clock();
    let at_rest = pg.single().frame.cards;
    pg.act(Action::Playback(Playback::Seek(rested - 1)));
    let before_rest = pg.single().frame.cards;
    assert_eq!(
        at_rest, before_rest,
        "a millisecond before rest, the cards are those at rest"
    );
    assert!(Rc::ptr_eq(&at_rest, &before_rest), "and the very same list");
    pg.act(Action::Playback(Playback::Seek(0)));
    assert!(
        !Rc::ptr_eq(&at_rest, &pg.single().frame.cards),
        "the start's are not"
    );
    assert_ne!(*at_rest, *pg.single().frame.cards);
}

#[test]
fn after_taking_the_clock_in_hand_a_command_does_not_play() {
    let mut pg = preset("scale-up-running");
    play_until_paused(&mut pg, 0.0);
    pg.act(Action::Playback(Playback::Speed(4.0)));
    pg.act(Action::Preference(Preference::Theme(Theme::Dark)));
    let end = pg.session().clock();
    pg.act(Action::Playback(Playback::Seek(end - 100)));
    pg.act(Action::Command(Command::Crash("S2".into())));
    assert!(!pg.playing(), "a scrub ends the pause at rest");
    let mut paused = preset("scale-up-running");
    paused.act(Action::Command(Command::Crash("S2".into())));
    assert!(
        !paused.playing(),
        "a command while paused by hand does not play"
    );
}

#[test]
fn a_refused_command_is_named_and_changes_nothing() {
    let mut pg = preset("scale-up-running");
    let effects = pg.act(Action::Command(Command::Drain("S9".into())));
    assert!(effects.is_empty());
    assert!(
        pg.error().is_some_and(|e| e.contains("S9")),
        "{:?}",
        pg.error()
    );
    pg.act(Action::DismissError);
    assert_eq!(pg.error(), None);
}

#[test]
fn a_share_link_is_copied_and_reopens_the_same_moment() {
    let mut pg = preset("scale-down-running");
    pg.act(Action::Playback(Playback::StepRound));
    pg.act(Action::Command(Command::Join(MemberSpec {
        name: "S4".into(),
        capacity: 1,
        restore_rate: None,
        zone: None,
    })));
    let effects = pg.act(Action::Export(Export::Share("http://x/handoff/".into())));
    let [Effect::Copy(link)] = effects.as_slice() else {
        panic!("{effects:?}")
    };
    assert_eq!(pg.share_link(), Some(link.as_str()));
    assert!(pg.notice().is_some_and(|n| n.starts_with("Link copied")));
    let text = link.strip_prefix("http://x/handoff/#s=").expect("fragment");
    let back = SavedSession::decode(text)
        .expect("decodes")
        .restore()
        .expect("runs");
    assert_eq!(back.clock(), pg.session().clock());
    assert_eq!(
        Frame::of(back.main().view()),
        Frame::of(pg.session().main().view())
    );
    // The link goes away with its notice.
    pg.act(Action::Playback(Playback::Play(true)));
    assert_eq!(pg.share_link(), None);
}

#[test]
fn exports_are_downloads_of_the_scenario_and_the_log() {
    let mut pg = preset("scale-down-running");
    pg.act(Action::Playback(Playback::StepRound));
    let effects = pg.act(Action::Export(Export::Scenario));
    let [Effect::Download { name, mime, text }] = effects.as_slice() else {
        panic!("one download")
    };
    assert_eq!(
        (name.as_str(), mime.as_str()),
        ("handoff-scenario.json", "application/json")
    );
    assert!(Scenario::from_json(text).is_ok());
    let effects = pg.act(Action::Export(Export::Log));
    let [Effect::Download { text, .. }] = effects.as_slice() else {
        panic!("one download")
    };
    assert!(text.starts_with("#First Rebalance"), "{text}");
}

#[test]
fn an_import_is_loaded_or_refused_with_the_field_named() {
    let mut pg = preset("leader-transfer");
    pg.act(Action::Playback(Playback::StepRound));
    let kept = pg.session().clock();
    pg.act(Action::Import {
        name: "bad.json".into(),
        text: r#"{"name":"x","tasks":[{"id":"T1","write_rate":-5}]}"#.into(),
    });
    let error = pg.error().expect("refused");
    assert!(error.starts_with("bad.json was not imported"), "{error}");
    assert!(error.contains("tasks[0].write_rate"), "{error}");
    assert_eq!(pg.session().clock(), kept);
    assert_eq!(pg.preset(), Some("leader-transfer"));
    let good = Preset::find("scale-up-empty").expect("preset").json;
    pg.act(Action::Import {
        name: "good.json".into(),
        text: good.into(),
    });
    assert_eq!(pg.notice(), Some("Imported good.json."));
    assert_eq!((pg.preset(), pg.session().clock()), (None, 0));
}

#[test]
fn the_compare_view_keeps_between_two_and_four_strategies() {
    let mut pg = preset("scale-down-running");
    pg.act(Action::Playback(Playback::Seek(1_500)));
    pg.act(Action::View(ViewMode::Compare));
    assert!(pg.comparing());
    assert_eq!(pg.session().lanes().len(), 4);
    assert_eq!(pg.session().clock(), 1_500, "the clock is kept");
    let offered = |pg: &Local| -> Vec<(Strategy, bool, bool)> {
        pg.strategy_choices()
            .iter()
            .map(|c| (c.strategy, c.compared, c.can_toggle))
            .collect()
    };
    // Four compared (the classic protocol's): each can be taken out, none added.
    assert!(offered(&pg)
        .iter()
        .all(|&(s, on, can)| on == can && on != s.streams_protocol()));
    pg.act(Action::ToggleStrategy(Strategy::Kip441));
    pg.act(Action::ToggleStrategy(Strategy::Cooperative));
    assert_eq!(
        pg.session().strategies(),
        [Strategy::Learner, Strategy::Eager]
    );
    // Two compared: neither can be taken out, the others can be added.
    assert_eq!(
        offered(&pg),
        [
            (Strategy::Learner, true, false),
            (Strategy::Kip441, false, true),
            (Strategy::Cooperative, false, true),
            (Strategy::Eager, true, false),
            (Strategy::Kip1071, false, true),
            (Strategy::Kip1071Warmup, false, true),
        ]
    );
    assert!(pg.act(Action::ToggleStrategy(Strategy::Eager)).is_empty());
    assert_eq!(pg.session().lanes().len(), 2, "at least two stay");
    pg.act(Action::ToggleStrategy(Strategy::Kip441));
    assert_eq!(
        pg.session().strategies(),
        [Strategy::Learner, Strategy::Kip441, Strategy::Eager],
        "in the usual order"
    );
    pg.act(Action::View(ViewMode::Single));
    assert_eq!(pg.session().strategies(), [Strategy::Learner]);
}

#[test]
fn compare_charts_are_kept_between_frames_and_rebuilt_as_the_history_grows() {
    let mut pg = preset("scale-down-running");
    pg.act(Action::View(ViewMode::Compare));
    pg.act(Action::Playback(Playback::Seek(4_000)));
    let first = pg.charts();
    assert!(Rc::ptr_eq(&first, &pg.charts()));
    pg.act(Action::Playback(Playback::Seek(1_000)));
    assert!(
        Rc::ptr_eq(&first, &pg.charts()),
        "scrubbing back shows the same history"
    );
    pg.act(Action::Playback(Playback::Seek(9_000)));
    let later = pg.charts();
    assert!(!Rc::ptr_eq(&first, &later));
    pg.act(Action::ChartLane(1));
    let eager = pg.charts();
    let crate::views::charts::Series::Availability { title, .. } = &eager.availability.series
    else {
        panic!("availability")
    };
    assert!(title.starts_with("kip441"), "{title}");
    let effects = pg.act(Action::Export(Export::Chart(
        crate::views::charts::ChartKind::Cumulative,
    )));
    let [Effect::Download { name, text, .. }] = effects.as_slice() else {
        panic!("a download")
    };
    assert_eq!(name, "handoff-cumulative.svg");
    assert!(text.starts_with("<svg"));
}

#[test]
fn a_tour_walks_its_steps_and_can_be_left() {
    let mut pg = preset("scale-up-running");
    pg.act(Action::Tour(TourAction::Start("scale-down-running".into())));
    assert_eq!(pg.preset(), Some("scale-down-running"));
    let mut times = vec![pg.session().clock()];
    for step in 1..4 {
        pg.act(Action::Tour(TourAction::Step(step)));
        times.push(pg.session().clock());
    }
    assert!(times.windows(2).all(|w| w[0] <= w[1]), "{times:?}");
    assert_eq!(pg.tour().map(|t| t.step), Some(3));
    assert!(!pg.single().highlight.is_empty());
    assert_eq!(pg.act(Action::Tour(TourAction::Leave)), [Effect::Autosave]);
    assert_eq!(pg.tour(), None);
    pg.act(Action::Tour(TourAction::Start("nope".into())));
    assert!(pg.error().is_some());
}

#[test]
fn a_new_session_starts_the_first_preset_clean() {
    let mut pg = preset("leader-transfer");
    pg.act(Action::Playback(Playback::StepRound));
    let effects = pg.act(Action::NewSession);
    assert_eq!(effects, [Effect::Autosave]);
    assert_eq!(pg.preset(), Some(PRESETS[0].id));
    assert_eq!(pg.session().clock(), 0);
    assert_eq!(pg.notice(), Some("Started a clean session."));
}

#[test]
fn a_frame_in_which_something_happened_leaves_the_panels_turns_to_the_next_frame() {
    let mut pg = preset("scale-up-running");
    pg.act(Action::TimelineInView(true));
    pg.act(Action::Playback(Playback::Speed(16.0)));
    pg.act(Action::Playback(Playback::Play(true)));
    let mut now = 1_000.0;
    pg.act(Action::Playback(Playback::Frame(now)));
    let (mut waited, mut reads, mut held) = (0, 0, 0);
    while pg.playing() && now < 60_000.0 {
        let before = (
            pg.shown().moment().events,
            pg.shown_log(&pg.single()),
            pg.measures(),
            pg.task_timeline(),
        );
        now += 16.0;
        pg.act(Action::Playback(Playback::Frame(now)));
        if !pg.playing() {
            break;
        }
        let moved = pg.shown().moment().events != before.0;
        let read = !Rc::ptr_eq(&before.1, &pg.shown_log(&pg.single()))
            || !Rc::ptr_eq(&before.2, &pg.measures())
            || !Rc::ptr_eq(&before.3, &pg.task_timeline());
        assert!(
            !(moved && read) || waited == super::TURNS_WAIT_FRAMES,
            "at {now} ms something happened and a panel was read in one frame"
        );
        reads += usize::from(read);
        held += usize::from(read && waited > 0);
        waited = if moved && waited < super::TURNS_WAIT_FRAMES {
            waited + 1
        } else {
            0
        };
    }
    assert!(reads >= 5, "the panels were read {reads} times");
    assert!(
        held > 0,
        "no panel's turn waited for a frame in which something happened"
    );
}

#[test]
fn the_log_after_an_edit_from_the_first_moment_is_the_edited_history_s() {
    // Editing the command at 0 runs the history again without a fork: rounds at the same
    // moments with other members must not be read from what the log wrote before.
    let mut pg = preset("scale-up-running");
    pg.act(Action::Playback(Playback::Seek(9_000)));
    let before = pg.shown_log(&pg.single()).log.clone();
    let mut edited = pg.session().scenario().clone();
    let join_s6 = Command::Join(MemberSpec {
        name: "S6".into(),
        capacity: 1,
        restore_rate: None,
        zone: None,
    });
    pg.act(Action::Schedule(ScheduleEdit::Replace {
        index: 0,
        command: crate::model::TimedCommand {
            at_ms: 0,
            command: join_s6.clone(),
        },
    }));
    assert_eq!(pg.error(), None);
    pg.act(Action::Playback(Playback::Seek(9_000)));
    let after = pg.shown_log(&pg.single()).log.clone();
    edited.commands[0].command = join_s6;
    let mut fresh = Local::with(edited, None);
    fresh.act(Action::Playback(Playback::Seek(9_000)));
    let expected = fresh.shown_log(&fresh.single()).log.clone();
    assert_ne!(
        before.rounds, expected.rounds,
        "the edit changes the rounds"
    );
    assert_eq!(after.rounds, expected.rounds);
}

#[test]
fn the_single_view_reads_the_log_as_known_at_the_clock() {
    let mut pg = preset("scale-up-running");
    pg.act(Action::Playback(Playback::Seek(9_000)));
    let later = pg.shown_log(&pg.single());
    pg.act(Action::Playback(Playback::Seek(300)));
    let early = pg.shown_log(&pg.single());
    assert_eq!(early.log.rounds.len(), 1);
    assert!(later.log.rounds.len() > 1);
    assert!(early.log.rounds[0].heading.starts_with("#First Rebalance"));
    assert_eq!(early.current_round, Some(1));
    pg.act(Action::Playback(Playback::Seek(301)));
    let again = pg.shown_log(&pg.single());
    assert_eq!(again.log.rounds, early.log.rounds);
    assert!(Rc::ptr_eq(&again.log.rounds, &early.log.rounds), "kept");
    let marks = pg.marks();
    assert!(marks.iter().any(|m| matches!(m, Mark::Round(_))));
    assert!(pg
        .schedule()
        .marks
        .iter()
        .any(|m| m.at_ms == 0 && m.what.contains("S4")));
}

#[test]
fn a_large_group_is_compact_and_a_task_or_member_can_be_found_in_it() {
    let mut pg = Local::with(crate::presets::scale_out(18, 20, 200), None);
    assert!(pg.single().compact, "200 tasks are drawn compactly");
    assert!(!preset("scale-up-running").single().compact);
    pg.act(Action::Playback(Playback::Seek(4_000)));
    let frame = pg.single().frame;
    let (learner, chip) = frame
        .cards
        .iter()
        .find_map(|c| {
            let chip = c.chips.iter().find(|x| x.role == ChipRole::Learner)?;
            Some((c.name.clone(), chip.clone()))
        })
        .expect("a learner at 4 s");
    let owner = frame
        .cards
        .iter()
        .find(|c| {
            c.chips
                .iter()
                .any(|x| x.task == chip.task && x.role == ChipRole::Active)
        })
        .map(|c| c.name.clone())
        .expect("an owner");
    pg.act(Action::Find(chip.name.to_lowercase()));
    let found = pg.single().found.expect("found");
    assert_eq!(found.name, &*chip.name);
    assert!(
        found
            .text
            .starts_with(&format!("{}: active on {owner}", chip.name)),
        "{}",
        found.text
    );
    assert!(
        found.text.contains(&format!(
            "learner on {learner} ({}% replayed)",
            chip.progress
        )),
        "{}",
        found.text
    );
    assert_eq!(found.member, Some(owner));
    assert!(pg.single().highlight.contains(&chip.name.to_string()));
    pg.act(Action::Find("S20".into()));
    let found = pg.single().found.expect("found");
    assert!(found.text.starts_with("S20: live"), "{}", found.text);
    assert_eq!(found.member.as_deref(), Some("S20"));
    pg.act(Action::Find("T999".into()));
    let found = pg.single().found.expect("answered");
    assert_eq!(found.text, "No task or member is named \"T999\".");
    pg.act(Action::Find(" ".into()));
    assert_eq!(pg.single().found, None);
}

#[test]
fn a_zoom_is_kept_until_another_scenario_is_loaded() {
    use crate::views::scene::{Centre, Zoom};
    let mut pg = Local::with(crate::presets::scale_out(45, 50, 100), None);
    assert_eq!(pg.zoom(), None, "as the group fits, until a person chooses");
    let into = Some(Centre::Member("S7".into()));
    pg.act(Action::Zoom {
        zoom: Zoom::Cards,
        centre: into.clone(),
    });
    assert_eq!(pg.zoom(), Some((Zoom::Cards, into.clone())));
    pg.act(Action::Command(crate::model::Command::Crash("S3".into())));
    assert_eq!(pg.zoom(), Some((Zoom::Cards, into)), "a command keeps it");
    pg.act(Action::Zoom {
        zoom: Zoom::Overview,
        centre: None,
    });
    assert_eq!(pg.zoom(), Some((Zoom::Overview, None)));
    pg.act(Action::Preset(crate::presets::PRESETS[0].id.into()));
    assert_eq!(pg.zoom(), None, "another scenario opens as it fits");
}

#[test]
fn the_log_of_a_large_group_shows_only_the_members_with_news() {
    let mut pg = Local::with(crate::presets::scale_out(45, 50, 100), None);
    pg.act(Action::Playback(Playback::StepRound));
    pg.act(Action::Playback(Playback::Seek(
        pg.session().clock() + 2_000,
    )));
    let log = pg.shown_log(&pg.single()).log.clone();
    let first = &log.rounds[0];
    assert!(first
        .body
        .contains("50 members join with following metadata:"));
    let lines = first.body.lines().filter(|l| l.starts_with('\t')).count();
    assert!(lines < 40, "{lines} lines:\n{}", first.body);
    // The newcomers receive learners: their lines are there; the others are counted.
    assert!(first.body.contains("\tS46("), "{}", first.body);
    assert!(first.body.contains("more, unchanged)"), "{}", first.body);
    // The export keeps every line.
    let effects = pg.act(Action::Export(Export::Log));
    let [Effect::Download { text, .. }] = effects.as_slice() else {
        panic!("a download")
    };
    assert!(text.contains("\tS12(assigned:"), "the full log");
}

#[test]
fn a_new_member_gets_the_first_free_name() {
    let names = |list: &[&str]| list.iter().map(|n| n.to_string()).collect::<Vec<_>>();
    assert_eq!(screen::next_member_name::<&str>(&[]), "S1");
    assert_eq!(screen::next_member_name(&names(&["S1", "S2", "S3"])), "S4");
    assert_eq!(screen::next_member_name(&names(&["S2", "S1", "S4"])), "S3");
    assert_eq!(screen::next_member_name(&names(&["worker-a", "S1"])), "S2");
    assert_eq!(
        screen::next_member_name(&names(&["S01", "S+2", "S", "S2"])),
        "S1"
    );
    assert_eq!(
        screen::next_member_name(&names(&["S1", "S01", "S+2", "S"])),
        "S2"
    );
    // What the toolbar offers, read off the group: scale-up-running has S1 to S4.
    let pg = preset("scale-up-running");
    let taken = pg.session().main().view().roster().members.clone();
    assert!(!taken.contains(&pg.toolbar().next_name));
    assert_eq!(pg.toolbar().next_name, format!("S{}", taken.len() + 1));
}

#[test]
fn the_compare_lanes_are_each_lanes_group_and_measures_at_the_clock() {
    let mut pg = preset("scale-down-running");
    pg.act(Action::View(ViewMode::Compare));
    pg.act(Action::Playback(Playback::Seek(4_000)));
    let lanes = pg.lanes();
    assert_eq!(lanes.len(), pg.session().lanes().len());
    for (view, lane) in lanes.iter().zip(pg.session().lanes()) {
        assert_eq!(view.strategy, lane.strategy);
        assert_eq!(view.frame, Frame::of(lane.view()));
        // The figures: the lists per task and per member stay in the worker.
        assert_eq!(
            view.metrics,
            crate::views::metrics::Metrics {
                task_downtime: Vec::new(),
                assignment: Vec::new(),
                ..crate::views::metrics::Metrics::of(lane.view())
            }
        );
    }
    // The table: a row per lane, in order; a lane still moving has not balanced "yet".
    let table = pg.compare_table(&lanes);
    let strategies: Vec<Strategy> = table.rows.iter().map(|r| r.strategy).collect();
    assert_eq!(strategies, pg.session().strategies());
    let balance = table
        .titles
        .iter()
        .position(|&t| t == "time to balance ms")
        .expect("column");
    for (row, lane) in table.rows.iter().zip(&lanes) {
        let cell = &row.cells[balance];
        match lane.metrics.time_to_balance_ms {
            Some(ms) => assert_eq!(cell.text, ms.to_string()),
            None => assert_eq!(cell.text, "not yet"),
        }
    }
}

#[test]
fn the_compare_charts_follow_the_lanes_while_paused() {
    use crate::views::charts::Series;
    let curves = |pg: &Local| match &pg.charts().cumulative.series {
        Series::Cumulative(curves) => curves.iter().map(|(s, _)| *s).collect::<Vec<_>>(),
        _ => Vec::new(),
    };
    let mut pg = preset("scale-down-running");
    pg.act(Action::View(ViewMode::Compare));
    assert_eq!(pg.clock(), 0);
    assert_eq!(
        curves(&pg),
        pg.session().strategies(),
        "drawn as the view opens"
    );
    let Series::Availability { title, .. } = &pg.charts().availability.series else {
        panic!("the availability chart, not the placeholder")
    };
    assert!(title.starts_with("learner"), "{title}");
    pg.act(Action::ToggleStrategy(Strategy::Eager));
    assert_eq!(
        curves(&pg),
        [Strategy::Learner, Strategy::Kip441, Strategy::Cooperative]
    );
}
