//! The playground's design-review tools, natively: the application form (opening on a
//! scenario's values, live checks naming the field without losing what was typed, applying),
//! the timeline editor (adding, moving, changing and deleting scheduled commands, refusing
//! what cannot run, and re-running to the same history a fresh run gives) and the report
//! export.

use super::*;
use crate::model::{Command, MemberSpec, TimedCommand};
use crate::presets::Preset;

const SCALE_OUT: &str = include_str!("../../scenarios/review/scale-out-under-load.json");

fn preset(id: &str) -> Playground {
    let preset = Preset::find(id).expect("preset");
    let scenario = preset.scenario().expect("parses");
    Playground::new(
        Session::new(scenario, &[]).expect("starts"),
        Some(preset.id),
    )
}

fn scale_out() -> Playground {
    let scenario = Scenario::from_json(SCALE_OUT).expect("parses");
    Playground::new(Session::new(scenario, &[]).expect("starts"), None)
}

fn form(pg: &Playground) -> &ApplicationForm {
    pg.application().expect("the form is open")
}

fn edit(pg: &mut Playground, field: Field, text: &str) {
    pg.act(Action::Application(FormAction::Edit(field, text.into())));
}

/// The problem the form shows for a field, if any.
fn error_at<'a>(pg: &'a Playground, field: &str) -> Option<&'a FieldError> {
    form(pg).errors.iter().find(|e| e.field == field)
}

#[test]
fn the_form_opens_on_a_topology_scenarios_application_with_its_totals() {
    let mut pg = scale_out();
    assert!(pg.application().is_none());
    pg.act(Action::Application(FormAction::Open));
    let f = form(&pg);
    let d = &f.draft;
    let names: Vec<&str> = d.subtopologies.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["orders", "payments", "enrich"]);
    let orders = &d.subtopologies[0];
    assert_eq!(
        (
            orders.partitions.as_str(),
            orders.min.as_str(),
            orders.max.as_str()
        ),
        ("56", "500000", "8000000")
    );
    assert_eq!(orders.distribution, "zipf");
    assert_eq!(orders.write_rate, "2000");
    assert!(!d.subtopologies[2].stateful);
    assert_eq!(
        (d.seed.as_str(), d.count.as_str(), d.threads.as_str()),
        ("2024", "12", "2")
    );
    assert_eq!(d.zones, "a, b, c");
    assert!(d.running && d.keep_commands);
    assert_eq!(f.errors, []);
    let changelog: u64 = pg
        .session()
        .scenario()
        .tasks
        .iter()
        .map(|t| t.changelog)
        .sum();
    assert_eq!(
        f.totals,
        Totals {
            tasks: Some(100),
            stateful: Some(92),
            changelog: Some(changelog),
            instances: Some(12),
            threads: Some(24),
        }
    );
    assert_eq!(f.commands, 3, "the three joins at 60 s");
    assert_eq!(
        pg.application_summary(),
        "100 tasks in 3 subtopologies on 12 instances of 2 threads"
    );
}

#[test]
fn bad_input_is_named_on_its_field_live_and_what_was_typed_is_kept() {
    let mut pg = scale_out();
    pg.act(Action::Application(FormAction::Open));
    let changelog = "topology.subtopologies[1].changelog";

    edit(&mut pg, Field::Min(1), "5,000,000");
    let e = error_at(&pg, changelog).expect("min above max");
    assert_eq!(
        e.to_string(),
        format!("{changelog}: min (5000000) is above max (4000000)")
    );
    assert!(form(&pg).invalid(Field::Min(1)) && form(&pg).invalid(Field::Max(1)));
    assert!(!form(&pg).invalid(Field::Min(0)));
    assert_eq!(
        form(&pg).draft.get(Field::Min(1)),
        "5,000,000",
        "kept as typed"
    );
    assert_eq!(form(&pg).draft.get(Field::Stateful(2)), "false");
    assert_eq!(
        form(&pg).totals.changelog,
        None,
        "no total of a topology that is refused"
    );
    assert_eq!(form(&pg).totals.tasks, Some(100));
    edit(&mut pg, Field::Min(1), "1000000");
    assert_eq!(form(&pg).errors, []);

    edit(&mut pg, Field::Partitions(0), "0");
    assert!(error_at(&pg, "topology.subtopologies[0].partitions")
        .expect("zero partitions")
        .reason
        .contains("at least 1 partition"));
    edit(&mut pg, Field::Max(2), "5");
    edit(&mut pg, Field::Stateful(2), "true");
    edit(&mut pg, Field::Min(2), "9");
    let fields: Vec<&str> = form(&pg).errors.iter().map(|e| e.field.as_str()).collect();
    assert_eq!(
        fields,
        [
            "topology.subtopologies[0].partitions",
            "topology.subtopologies[2].changelog"
        ],
        "every subtopology's problem at once"
    );
    edit(&mut pg, Field::Stateful(2), "false");
    edit(&mut pg, Field::Partitions(0), "56x");
    assert_eq!(
        error_at(&pg, "topology.subtopologies[0].partitions")
            .expect("not a number")
            .reason,
        "\"56x\" is not a whole number"
    );
    assert_eq!(form(&pg).draft.subtopologies[0].partitions, "56x");
    assert_eq!(form(&pg).totals.tasks, None);
    edit(&mut pg, Field::Partitions(0), "56");

    edit(&mut pg, Field::Distribution(0), "pareto");
    assert_eq!(
        error_at(&pg, "topology.subtopologies[0].changelog.distribution")
            .expect("unknown distribution")
            .reason,
        "unknown distribution \"pareto\": uniform or zipf"
    );
    edit(&mut pg, Field::Distribution(0), "zipf");

    // Too many tasks for the browser: where the limit is and why, on the field or the total.
    edit(&mut pg, Field::Partitions(0), "24000");
    let e = error_at(&pg, "topology.subtopologies[0].partitions").expect("too many");
    assert!(
        e.reason.contains("over the limit of 20000")
            && e.reason.contains("the playground draws every task"),
        "{e}"
    );
    edit(&mut pg, Field::Partitions(0), "12000");
    edit(&mut pg, Field::Partitions(1), "12000");
    let e = error_at(&pg, "topology").expect("too many in all");
    assert!(
        e.reason.starts_with("24008 tasks, over the limit of 20000"),
        "{e}"
    );
    assert_eq!(form(&pg).totals.tasks, Some(24_008));
    assert!(form(&pg).invalid(Field::Partitions(1)) && !form(&pg).invalid(Field::Min(1)));

    edit(&mut pg, Field::Threads, "0");
    assert!(error_at(&pg, "instances.threads").is_some());
    assert_eq!(form(&pg).errors_under("instances").count(), 1);
    assert_eq!(form(&pg).errors_under("topology").count(), 1);

    // Applying refuses, keeps the form and the draft open, and the session as it was.
    let before = pg.session().scenario().clone();
    pg.act(Action::Application(FormAction::Apply));
    let problem = form(&pg).problem.clone().expect("refused");
    assert!(
        problem.starts_with("Not applied: topology: 24008 tasks"),
        "{problem}"
    );
    assert_eq!(problem.lines().count(), 1);
    assert_eq!(*pg.session().scenario(), before);
    assert_eq!(form(&pg).draft.threads, "0");
}

#[test]
fn applying_the_form_restarts_with_the_application_and_the_config_kept() {
    let mut pg = preset("scale-up-running");
    pg.act(Action::Seek(3_000));
    pg.act(Action::Application(FormAction::Open));
    assert_eq!(form(&pg).draft.count, "3", "as many instances as members");
    assert!(
        !form(&pg).draft.keep_commands,
        "a new application drops the preset's joins"
    );
    edit(&mut pg, Field::Name, "Shop");
    edit(&mut pg, Field::Partitions(0), "6");
    pg.act(Action::Application(FormAction::AddSubtopology));
    edit(&mut pg, Field::SubtopologyName(1), "enrich");
    edit(&mut pg, Field::Stateful(1), "false");
    edit(&mut pg, Field::Partitions(1), "2");
    edit(&mut pg, Field::Zones, "a b");
    assert_eq!(form(&pg).totals.tasks, Some(8));
    assert_eq!(form(&pg).totals.stateful, Some(6));
    let effects = pg.act(Action::Application(FormAction::Apply));
    assert_eq!(effects, [Effect::Autosave]);
    assert!(pg.application().is_none(), "closed once applied");
    let s = pg.session().scenario();
    let names: Vec<&str> = s.tasks.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(
        names,
        ["0_0", "0_1", "0_2", "0_3", "0_4", "0_5", "1_0", "1_1"]
    );
    let zones: Vec<Option<&str>> = s.members.iter().map(|m| m.zone.as_deref()).collect();
    assert_eq!(zones, [Some("a"), Some("b"), Some("a")]);
    assert_eq!(s.config.rebalance_ms, 500, "the configuration is kept");
    assert!(s.commands.is_empty());
    assert_eq!((pg.session().clock(), pg.preset()), (0, None));
    assert_eq!(
        pg.notice(),
        Some("Restarted with your application: 8 tasks on 3 instances.")
    );
    let file = pg.scenario_file();
    assert!(file.tasks.is_empty() && file.topology.is_some() && file.instances.is_some());
    // It opens again on what was applied.
    pg.act(Action::Application(FormAction::Open));
    assert_eq!(form(&pg).draft.name, "Shop");
    assert_eq!(form(&pg).draft.subtopologies[1].name, "enrich");
}

#[test]
fn a_kept_command_the_new_application_cannot_run_is_named_and_nothing_changes() {
    let mut pg = scale_out();
    pg.act(Action::Application(FormAction::Open));
    edit(&mut pg, Field::Zones, "x y");
    pg.act(Action::Application(FormAction::Apply));
    assert!(
        pg.application().is_none(),
        "joins in zones a, b, c are fine anywhere"
    );
    pg.act(Action::Schedule(ScheduleEdit::Add(TimedCommand {
        at_ms: 90_000,
        command: Command::CrashZone("x".into()),
    })));
    assert_eq!(pg.error(), None);
    pg.act(Action::Application(FormAction::Open));
    edit(&mut pg, Field::Zones, "");
    pg.act(Action::Application(FormAction::Apply));
    let problem = form(&pg).problem.clone().expect("refused");
    assert!(
        problem.contains("crash_zone: no member is in zone x"),
        "{problem}"
    );
    assert_eq!(pg.session().main().run.commands().len(), 4);
    // Leaving the commands out applies.
    edit(&mut pg, Field::KeepCommands, "false");
    assert_eq!(form(&pg).problem, None, "an edit clears the last refusal");
    pg.act(Action::Application(FormAction::Apply));
    assert!(pg.application().is_none());
    assert!(pg.session().main().run.commands().is_empty());
}

#[test]
fn a_closed_form_keeps_its_draft_until_another_scenario_is_loaded() {
    let mut pg = scale_out();
    pg.act(Action::Application(FormAction::Open));
    edit(&mut pg, Field::Count, "1x");
    pg.act(Action::Application(FormAction::Close));
    assert!(pg.application().is_none());
    pg.act(Action::View(crate::link::ViewMode::Compare));
    pg.act(Action::Application(FormAction::Open));
    assert_eq!(form(&pg).draft.count, "1x", "kept");
    pg.act(Action::Application(FormAction::Close));
    pg.act(Action::Preset("leader-transfer".into()));
    pg.act(Action::Application(FormAction::Open));
    assert_eq!(form(&pg).draft.name, "My application", "a starting example");
}

/// A fresh session of the playground's scenario with `commands`, at the same clock.
fn fresh(pg: &Playground, commands: &[TimedCommand]) -> Session {
    let scenario = Scenario {
        commands: commands.to_vec(),
        ..pg.session().scenario().clone()
    };
    let mut s = Session::new(scenario, &pg.session().strategies()).expect("starts");
    s.seek(pg.session().clock()).expect("runs");
    s
}

fn commands(pg: &Playground) -> Vec<(u64, String)> {
    pg.session()
        .main()
        .run
        .commands()
        .iter()
        .map(|c| (c.at_ms, c.command.to_string()))
        .collect()
}

fn assert_same_as_fresh(pg: &Playground) {
    let edited = pg.session().main().run.commands().to_vec();
    let fresh = fresh(pg, &edited);
    for (lane, again) in pg.session().lanes().iter().zip(fresh.lanes()) {
        assert_eq!(lane.view(), again.view(), "{}", lane.strategy);
        let clock = pg.session().clock();
        let until = |l: &crate::session::Lane| {
            l.run
                .events()
                .iter()
                .filter(|e| e.at <= clock)
                .cloned()
                .collect::<Vec<_>>()
        };
        assert_eq!(until(lane), until(again), "{}", lane.strategy);
    }
}

fn join(name: &str) -> Command {
    Command::Join(MemberSpec {
        name: name.into(),
        capacity: 1,
        restore_rate: None,
        zone: None,
    })
}

#[test]
fn the_scheduled_commands_are_marks_with_rows_menus_and_steps() {
    let mut pg = scale_out();
    let s = pg.schedule();
    let marks: Vec<(u64, &str, u8)> = s
        .marks
        .iter()
        .map(|m| (m.at_ms, m.what.as_str(), m.row))
        .collect();
    assert_eq!(
        marks,
        [
            (60_000, "join S13", 0),
            (60_000, "join S14", 1),
            (60_000, "join S15", 2)
        ],
        "marks at the same moment are stacked"
    );
    assert!(s
        .marks
        .iter()
        .all(|m| m.kind == CommandKind::Join && !m.done));
    assert_eq!(s.members.len(), 15);
    assert_eq!(s.zones, ["a", "b", "c"]);
    assert_eq!(s.next_member, "S16");
    assert_eq!(
        (s.snap_ms, s.step_ms, s.big_step_ms),
        (s.scale / 200, s.scale / 100, s.scale / 10)
    );
    pg.act(Action::Seek(60_000));
    assert!(pg.schedule().marks.iter().all(|m| m.done));
    pg.act(Action::Schedule(ScheduleEdit::Select(Some(1))));
    assert_eq!(pg.schedule().selected, Some(1));
    pg.act(Action::Schedule(ScheduleEdit::Select(Some(7))));
    assert_eq!(pg.schedule().selected, None, "no such mark");
}

#[test]
fn adding_a_command_runs_the_history_again_as_a_fresh_run_would() {
    let mut pg = preset("scale-up-running");
    pg.act(Action::Seek(3_000));
    let before = pg.session().main().run.state_at(1_000);
    let effects = pg.act(Action::Schedule(ScheduleEdit::Add(TimedCommand {
        at_ms: 1_500,
        command: Command::Crash("S2".into()),
    })));
    assert_eq!(effects, [Effect::Autosave]);
    assert_eq!(
        commands(&pg),
        [
            (0, "join S4".into()),
            (1_500, "crash S2".into()),
            (2_000, "join S5".into())
        ]
    );
    assert_eq!(pg.session().clock(), 3_000, "the clock stays");
    assert_eq!(
        pg.schedule().selected,
        Some(1),
        "the new command is selected"
    );
    assert_eq!(
        pg.notice(),
        Some("Scheduled crash S2 at 1.5 s: the history was run again from 1.5 s.")
    );
    assert_eq!(
        pg.session().main().run.state_at(1_000),
        before,
        "the past is as it was"
    );
    assert!(pg
        .session()
        .main()
        .view()
        .roster()
        .member_id("S2")
        .is_some());
    assert_same_as_fresh(&pg);
    // Reset replays the edited scenario.
    pg.act(Action::Reset);
    assert_eq!(commands(&pg).len(), 3);
}

#[test]
fn moving_a_command_reorders_the_schedule_and_keeps_it_selected() {
    let mut pg = preset("scale-up-running");
    pg.act(Action::Seek(6_000));
    pg.act(Action::Schedule(ScheduleEdit::Select(Some(0))));
    pg.act(Action::Schedule(ScheduleEdit::Move {
        index: 0,
        at_ms: 4_000,
    }));
    assert_eq!(
        commands(&pg),
        [(2_000, "join S5".into()), (4_000, "join S4".into())]
    );
    assert_eq!(
        pg.schedule().selected,
        Some(1),
        "the moved command stays selected"
    );
    assert_eq!(
        pg.notice(),
        Some("Moved join S4 from 0 ms to 4 s: the history was run again from 0 ms.")
    );
    assert_same_as_fresh(&pg);
    // Moving it to where it is changes nothing.
    let notice = pg.notice().map(str::to_string);
    assert!(pg
        .act(Action::Schedule(ScheduleEdit::Move {
            index: 1,
            at_ms: 4_000
        }))
        .is_empty());
    assert_eq!(pg.notice().map(str::to_string), notice);
}

#[test]
fn changing_and_deleting_commands() {
    let mut pg = preset("scale-up-running");
    pg.act(Action::Seek(2_500));
    pg.act(Action::Schedule(ScheduleEdit::Add(TimedCommand {
        at_ms: 5_000,
        command: Command::Restart {
            member: "S1".into(),
            down_ms: 3_000,
            keep_state: true,
        },
    })));
    let draft = CommandDraft {
        down_ms: "8000".into(),
        keep_state: false,
        ..CommandDraft::of(&pg.session().main().run.commands()[2])
    };
    let command = draft.command().expect("reads");
    pg.act(Action::Schedule(ScheduleEdit::Replace {
        index: 2,
        command,
    }));
    assert_eq!(
        pg.session().main().run.commands()[2].command,
        Command::Restart {
            member: "S1".into(),
            down_ms: 8_000,
            keep_state: false
        }
    );
    assert_same_as_fresh(&pg);
    pg.act(Action::Schedule(ScheduleEdit::Delete(1)));
    assert_eq!(
        commands(&pg),
        [(0, "join S4".into()), (5_000, "restart S1".into())]
    );
    assert_eq!(
        pg.schedule().selected,
        Some(1),
        "the next command is selected"
    );
    assert!(pg
        .notice()
        .is_some_and(|n| n.starts_with("Deleted join S5 at 2 s")));
    assert!(pg
        .session()
        .main()
        .view()
        .roster()
        .member_id("S5")
        .is_none());
    assert_same_as_fresh(&pg);
    pg.act(Action::Schedule(ScheduleEdit::Delete(1)));
    pg.act(Action::Schedule(ScheduleEdit::Delete(0)));
    assert_eq!(commands(&pg), []);
    assert_eq!(pg.schedule().selected, None);
}

#[test]
fn an_edit_the_scenario_cannot_run_is_refused_in_one_line_and_nothing_changes() {
    let mut pg = preset("scale-up-running");
    pg.act(Action::Seek(3_000));
    pg.act(Action::Schedule(ScheduleEdit::Add(TimedCommand {
        at_ms: 2_500,
        command: Command::Crash("S5".into()),
    })));
    assert_eq!(pg.error(), None);
    let before = commands(&pg);
    let view = pg.session().main().view().clone();
    let refused = |pg: &mut Playground, edit: ScheduleEdit, words: &str| {
        let effects = pg.act(Action::Schedule(edit));
        assert!(effects.is_empty());
        let error = pg.error().expect("refused").to_string();
        assert!(error.contains(words), "{error}");
        assert!(error.ends_with("The timeline is unchanged."), "{error}");
        assert_eq!(error.lines().count(), 1);
        pg.act(Action::DismissError);
    };
    // The crash before the join.
    refused(
        &mut pg,
        ScheduleEdit::Move {
            index: 2,
            at_ms: 1_000,
        },
        "Cannot move crash S5 from 2.5 s to 1 s: events[1]: crash S5 names member S5, which is not in `members` and has not joined by 1000 ms",
    );
    refused(
        &mut pg,
        ScheduleEdit::Move {
            index: 1,
            at_ms: 2_600,
        },
        "has not joined by 2500 ms",
    );
    // A member that does not exist at all, and a drain after the crash.
    refused(
        &mut pg,
        ScheduleEdit::Add(TimedCommand {
            at_ms: 100,
            command: Command::Drain("S42".into()),
        }),
        "S42",
    );
    refused(
        &mut pg,
        ScheduleEdit::Add(TimedCommand {
            at_ms: 9_000,
            command: Command::Drain("S5".into()),
        }),
        "drain S5 at 9000 ms: S5 has already crashed",
    );
    refused(
        &mut pg,
        ScheduleEdit::Add(TimedCommand {
            at_ms: 9_000,
            command: join("S4"),
        }),
        "member S4 already exists",
    );
    refused(
        &mut pg,
        ScheduleEdit::Delete(9),
        "there is no scheduled command 10",
    );
    assert_eq!(commands(&pg), before);
    assert_eq!(*pg.session().main().view(), view);
    assert_eq!(pg.session().clock(), 3_000);
}

#[test]
fn moments_on_the_track_are_written_exactly() {
    let written: Vec<String> = [0, 850, 1_000, 3_050, 60_000, 90_500, 2_000_001]
        .into_iter()
        .map(moment)
        .collect();
    assert_eq!(
        written,
        [
            "0 ms",
            "850 ms",
            "1 s",
            "3.05 s",
            "60 s",
            "90.5 s",
            "2000.001 s"
        ]
    );
}

#[test]
fn the_command_editor_reads_what_was_typed_or_names_the_field() {
    let pg = scale_out();
    let s = pg.schedule();
    let join = CommandDraft::new(CommandKind::Join, 70_000, &s);
    assert_eq!(join.member, "S16");
    assert_eq!(
        join.command(),
        Ok(TimedCommand {
            at_ms: 70_000,
            command: Command::Join(MemberSpec {
                name: "S16".into(),
                capacity: 1,
                restore_rate: None,
                zone: None
            })
        })
    );
    let outage = CommandDraft::new(CommandKind::CrashZone, 1, &s);
    assert_eq!(
        outage.command().map(|c| c.command),
        Ok(Command::CrashZone("a".into()))
    );
    let rolling = CommandDraft {
        down_ms: "20000".into(),
        ..CommandDraft::new(CommandKind::RollingRestart, 5, &s)
    };
    assert_eq!(
        rolling.command().map(|c| c.command),
        Ok(Command::RollingRestart {
            down_ms: 20_000,
            keep_state: true
        })
    );
    let bad = CommandDraft {
        at_ms: "soon".into(),
        ..CommandDraft::new(CommandKind::Crash, 0, &s)
    };
    assert_eq!(
        bad.command(),
        Err("at (ms): give a whole number, not \"soon\"".to_string())
    );
    let bad = CommandDraft {
        down_ms: "-5".into(),
        ..CommandDraft::new(CommandKind::Restart, 0, &s)
    };
    assert!(bad
        .command()
        .is_err_and(|e| e.starts_with("down time (ms)")));
    for kind in CommandKind::ALL {
        assert_eq!(CommandKind::from_id(kind.id()), Some(kind));
        let draft = CommandDraft::new(kind, 61_000, &s);
        let command = draft.command().expect("a new command reads");
        assert_eq!(CommandKind::of(&command.command), kind);
        assert_eq!(
            CommandDraft::of(&command).command(),
            Ok(command),
            "{kind:?}"
        );
    }
}

#[test]
fn the_report_is_a_download_of_the_session_under_its_strategies() {
    let mut pg = preset("scale-up-running");
    pg.act(Action::View(crate::link::ViewMode::Compare));
    pg.act(Action::Seek(1_000));
    pg.act(Action::Command(join("S6")));
    let effects = pg.act(Action::ExportReport);
    let [Effect::Download { name, mime, text }] = effects.as_slice() else {
        panic!("one download: {effects:?}")
    };
    assert_eq!((name.as_str(), *mime), ("handoff-report.html", "text/html"));
    assert_eq!(
        *text,
        crate::report::of_session(pg.session()).expect("runs"),
        "the report of the session"
    );
    assert!(text.contains("<table class=\"comparison\">"));
    for strategy in pg.session().strategies() {
        assert!(
            text.contains(&format!("id=\"strategy-{}\"", strategy.name())),
            "{strategy}"
        );
    }
    assert!(
        text.contains("join S6"),
        "the person's command is in the summary"
    );
    assert!(!text.contains("http://") && !text.contains("https://"));
    assert!(pg.notice().is_some_and(
        |n| n.starts_with("Report saved: Scale Up Running Application under learner, kip441")
    ));
}
