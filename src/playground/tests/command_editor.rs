//! The command editor, natively: opened on a new command or a scheduled one, its fields kept
//! as typed with each problem beside its field, another kind keeping the moment typed, and a
//! submit that closes an unchanged command, schedules or replaces a good one, and keeps a bad
//! one; any change to the commands closes it.

use super::{preset, scale_out};
use crate::model::Command;
use crate::playground::{
    Action, CommandKind, DraftField, EditorAction, Local, Playback, ScheduleEdit,
};

fn act(pg: &mut Local, action: EditorAction) {
    pg.act(Action::Editor(action));
}

fn commands(pg: &Local) -> Vec<String> {
    pg.session()
        .main()
        .run
        .commands()
        .iter()
        .map(|c| format!("{} at {}", c.command, c.at_ms))
        .collect()
}

/// The problems shown, as `field: reason`.
fn problems(pg: &Local) -> Vec<String> {
    let editor = pg.command_editor().expect("open");
    editor.errors.iter().map(ToString::to_string).collect()
}

#[test]
fn a_new_command_is_a_join_at_the_moment_chosen_and_is_scheduled_on_submit() {
    let mut pg = scale_out();
    act(&mut pg, EditorAction::New(70_000));
    let editor = pg.command_editor().expect("open");
    assert_eq!(editor.index, None);
    assert_eq!(
        (editor.draft.kind, editor.draft.at_ms.as_str()),
        (CommandKind::Join, "70000")
    );
    assert_eq!(editor.draft.member, "S16", "the next free name");
    assert!(editor.errors.is_empty());
    act(&mut pg, EditorAction::Submit);
    assert!(pg.command_editor().is_none(), "done: the commands changed");
    assert!(commands(&pg).contains(&"join S16 at 70000".to_string()));
    assert_eq!(pg.error(), None);
}

#[test]
fn what_was_typed_stays_as_typed_with_each_problem_beside_its_field() {
    let mut pg = scale_out();
    act(&mut pg, EditorAction::New(70_000));
    act(&mut pg, EditorAction::Type(DraftField::At, "soon".into()));
    act(
        &mut pg,
        EditorAction::Type(DraftField::Capacity, "two".into()),
    );
    let editor = pg.command_editor().expect("open");
    assert_eq!(editor.draft.at_ms, "soon", "not replaced by the clock");
    assert_eq!(editor.draft.capacity, "two");
    assert_eq!(
        problems(&pg),
        [
            "at (ms): give a whole number, not \"soon\"",
            "capacity: give a whole number, not \"two\""
        ]
    );
    let editor = pg.command_editor().expect("open");
    assert_eq!(
        editor.error(DraftField::At).map(|e| e.reason.as_str()),
        Some("give a whole number, not \"soon\"")
    );
    assert_eq!(editor.error(DraftField::Member), None);
    // Submitting a draft with problems schedules nothing and keeps it.
    let before = commands(&pg);
    act(&mut pg, EditorAction::Submit);
    assert_eq!(commands(&pg), before);
    assert_eq!(
        pg.command_editor().map(|e| e.draft.at_ms.as_str()),
        Some("soon")
    );
    // Fixed, the problem goes.
    act(
        &mut pg,
        EditorAction::Type(DraftField::Capacity, "2".into()),
    );
    assert_eq!(
        problems(&pg),
        ["at (ms): give a whole number, not \"soon\""]
    );
}

#[test]
fn another_kind_keeps_the_moment_typed_even_when_it_does_not_read() {
    let mut pg = scale_out();
    act(&mut pg, EditorAction::New(70_000));
    act(&mut pg, EditorAction::Type(DraftField::At, "7x".into()));
    act(&mut pg, EditorAction::Kind(CommandKind::Crash));
    let editor = pg.command_editor().expect("open");
    assert_eq!(editor.draft.kind, CommandKind::Crash);
    assert_eq!(editor.draft.at_ms, "7x");
    assert_eq!(editor.draft.member, "S1", "the first member, for a crash");
    assert_eq!(problems(&pg), ["at (ms): give a whole number, not \"7x\""]);
    act(&mut pg, EditorAction::Kind(CommandKind::CrashZone));
    assert_eq!(
        pg.command_editor().map(|e| e.draft.zone.as_str()),
        Some("a")
    );
}

#[test]
fn a_scheduled_command_unchanged_just_closes_and_changed_replaces_it() {
    let mut pg = scale_out();
    let before = commands(&pg);
    act(&mut pg, EditorAction::Scheduled(1));
    assert_eq!(
        pg.schedule().selected,
        Some(1),
        "the mark edited is selected"
    );
    let editor = pg.command_editor().expect("open");
    assert_eq!(editor.index, Some(1));
    // "060000" reads as the same command: nothing to run again.
    act(&mut pg, EditorAction::Type(DraftField::At, "060000".into()));
    act(&mut pg, EditorAction::Submit);
    assert!(pg.command_editor().is_none());
    assert_eq!(commands(&pg), before);
    assert_eq!(pg.notice(), None, "nothing was run again");
    act(&mut pg, EditorAction::Scheduled(1));
    act(&mut pg, EditorAction::Type(DraftField::At, "65000".into()));
    act(&mut pg, EditorAction::Submit);
    assert!(pg.command_editor().is_none());
    assert_eq!(commands(&pg).len(), before.len(), "replaced, not added");
    assert!(commands(&pg).contains(&"join S14 at 65000".to_string()));
}

#[test]
fn a_command_the_group_cannot_carry_out_keeps_the_editor_and_what_was_typed() {
    let mut pg = preset("scale-up-running");
    act(&mut pg, EditorAction::New(500));
    act(&mut pg, EditorAction::Kind(CommandKind::Drain));
    act(&mut pg, EditorAction::Type(DraftField::Member, "S5".into()));
    let before = commands(&pg);
    act(&mut pg, EditorAction::Submit);
    let error = pg.error().expect("refused");
    assert!(
        error.starts_with("Cannot schedule drain S5 at 500 ms"),
        "{error}"
    );
    assert_eq!(commands(&pg), before);
    let editor = pg.command_editor().expect("still open");
    assert_eq!(editor.draft.member, "S5");
}

#[test]
fn any_change_to_the_commands_closes_the_editor_and_so_does_leaving_the_track() {
    let mut pg = preset("scale-up-running");
    act(&mut pg, EditorAction::New(4_000));
    // Selecting a mark keeps it; a command at the clock changes the commands and closes it.
    pg.act(Action::Schedule(ScheduleEdit::Select(Some(0))));
    assert!(pg.command_editor().is_some());
    pg.act(Action::Playback(Playback::Seek(3_000)));
    assert!(
        pg.command_editor().is_some(),
        "the clock moving changes no command"
    );
    pg.act(Action::Command(Command::Crash("S2".into())));
    assert!(pg.command_editor().is_none());
    // A move of another mark closes it too.
    act(&mut pg, EditorAction::Scheduled(1));
    pg.act(Action::Schedule(ScheduleEdit::Move {
        index: 0,
        at_ms: 100,
    }));
    assert!(pg.command_editor().is_none());
    // Escape on a mark deselects it and closes the editor; Close only closes it.
    act(&mut pg, EditorAction::Scheduled(1));
    pg.act(Action::Schedule(ScheduleEdit::Select(None)));
    assert!(pg.command_editor().is_none());
    assert_eq!(pg.schedule().selected, None);
    act(&mut pg, EditorAction::Scheduled(1));
    act(&mut pg, EditorAction::Close);
    assert!(pg.command_editor().is_none());
    assert_eq!(pg.schedule().selected, Some(1));
    // Another scenario forgets it.
    act(&mut pg, EditorAction::New(0));
    pg.act(Action::Preset("leader-transfer".into()));
    assert!(pg.command_editor().is_none());
}

#[test]
fn an_editor_on_a_command_that_is_not_there_does_not_open() {
    let mut pg = preset("scale-up-running");
    act(&mut pg, EditorAction::Scheduled(9));
    assert!(pg.command_editor().is_none());
}

#[test]
fn the_add_button_opens_a_command_at_the_clock_and_the_schedule_does_not_follow_the_clock() {
    let mut pg = scale_out();
    pg.act(Action::Playback(Playback::Seek(1_500)));
    let schedule = pg.schedule();
    pg.act(Action::Playback(Playback::Seek(1_700)));
    assert_eq!(
        pg.schedule(),
        schedule,
        "no command between: the track is not drawn again"
    );
    act(&mut pg, EditorAction::NewAtClock);
    let editor = pg.command_editor().expect("open");
    assert_eq!(
        (editor.draft.kind, editor.draft.at_ms.as_str()),
        (CommandKind::Join, "1700")
    );
}
