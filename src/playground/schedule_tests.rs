//! The timeline editor, natively: the scheduled commands as marks (rows, menus, steps), adding,
//! moving, changing and deleting them, refusing in one line what the scenario cannot run with
//! nothing changed, and re-running to the same history a fresh run of the edited scenario
//! gives; the command editor's reading of what was typed.

use super::session::Session;
use super::tests::{preset, scale_out};
use super::*;
use crate::model::Scenario;
use crate::model::{Command, MemberSpec, TimedCommand};
use std::rc::Rc;

/// A fresh session of the playground's scenario with `commands`, at the same clock.
fn fresh(pg: &Local, commands: &[TimedCommand]) -> Session {
    let scenario = Scenario {
        commands: commands.to_vec(),
        ..pg.session().scenario().clone()
    };
    let mut s = Session::new(scenario, &pg.session().strategies()).expect("starts");
    s.seek(pg.session().clock()).expect("runs");
    s
}

fn commands(pg: &Local) -> Vec<(u64, String)> {
    pg.session()
        .main()
        .run
        .commands()
        .iter()
        .map(|c| (c.at_ms, c.command.to_string()))
        .collect()
}

fn assert_same_as_fresh(pg: &Local) {
    let edited = pg.session().main().run.commands().to_vec();
    let fresh = fresh(pg, &edited);
    for (lane, again) in pg.session().lanes().iter().zip(fresh.lanes()) {
        assert_eq!(lane.view(), again.view(), "{}", lane.strategy);
        let clock = pg.session().clock();
        let until = |l: &crate::playground::session::Lane| {
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
fn the_schedule_is_made_again_only_when_what_it_shows_changes() {
    let mut pg = scale_out();
    let first = pg.schedule();
    pg.act(Action::Playback(Playback::Seek(30_000)));
    assert!(
        std::rc::Rc::ptr_eq(&first, &pg.schedule()),
        "no command passed: the same schedule"
    );
    pg.act(Action::Playback(Playback::Seek(60_000)));
    let passed = pg.schedule();
    assert!(!std::rc::Rc::ptr_eq(&first, &passed));
    assert!(passed.marks.iter().all(|m| m.done));
    pg.act(Action::Playback(Playback::Seek(10_000)));
    assert!(
        pg.schedule().marks.iter().all(|m| !m.done),
        "back before them"
    );
    pg.act(Action::Schedule(ScheduleEdit::Select(Some(2))));
    assert_eq!(pg.schedule().selected, Some(2));
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
    assert_eq!(*s.zones, ["a", "b", "c"]);
    assert_eq!(s.next_member, "S16");
    assert_eq!(
        (s.snap_ms, s.step_ms, s.big_step_ms),
        (s.scale / 200, s.scale / 100, s.scale / 10)
    );
    pg.act(Action::Playback(Playback::Seek(60_000)));
    assert!(pg.schedule().marks.iter().all(|m| m.done));
    assert!(
        Rc::ptr_eq(&pg.schedule().members, &s.members),
        "the clock passing the commands does not make the menus again"
    );
    pg.act(Action::Schedule(ScheduleEdit::Select(Some(1))));
    assert_eq!(pg.schedule().selected, Some(1));
    pg.act(Action::Schedule(ScheduleEdit::Select(Some(7))));
    assert_eq!(pg.schedule().selected, None, "no such mark");
    // The menus follow the commands: a member scheduled to join is offered, and the next
    // new member is named after it.
    pg.act(Action::Schedule(ScheduleEdit::Add(TimedCommand {
        at_ms: 70_000,
        command: join("S16"),
    })));
    let s = pg.schedule();
    assert_eq!(s.members.len(), 16);
    assert_eq!(s.members.last().map(String::as_str), Some("S16"));
    assert_eq!(s.next_member, "S17");
}

#[test]
fn adding_a_command_runs_the_history_again_as_a_fresh_run_would() {
    let mut pg = preset("scale-up-running");
    pg.act(Action::Playback(Playback::Seek(3_000)));
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
    pg.act(Action::Playback(Playback::Reset));
    assert_eq!(commands(&pg).len(), 3);
}

#[test]
fn moving_a_command_reorders_the_schedule_and_keeps_it_selected() {
    let mut pg = preset("scale-up-running");
    pg.act(Action::Playback(Playback::Seek(6_000)));
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
    pg.act(Action::Playback(Playback::Seek(2_500)));
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
    pg.act(Action::Playback(Playback::Seek(3_000)));
    pg.act(Action::Schedule(ScheduleEdit::Add(TimedCommand {
        at_ms: 2_500,
        command: Command::Crash("S5".into()),
    })));
    assert_eq!(pg.error(), None);
    let before = commands(&pg);
    let view = pg.session().main().view().clone();
    let refused = |pg: &mut Local, edit: ScheduleEdit, words: &str| {
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
        bad.command()
            .map_err(|e| e.iter().map(ToString::to_string).collect::<Vec<_>>()),
        Err(vec![
            "at (ms): give a whole number, not \"soon\"".to_string()
        ])
    );
    let bad = CommandDraft {
        down_ms: "-5".into(),
        ..CommandDraft::new(CommandKind::Restart, 0, &s)
    };
    assert!(bad
        .command()
        .is_err_and(|e| e.len() == 1 && e[0].field == DraftField::Down));
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
