//! The playground's design-review tools, natively: the application form (opening on a
//! scenario's values, live checks naming the field without losing what was typed, applying)
//! and the report export. The timeline editor's tests are in `schedule_tests.rs`.

use super::tests::{preset, scale_out};
use super::*;
use crate::model::{Command, MemberSpec, TimedCommand};

fn form(pg: &Local) -> &ApplicationForm {
    pg.application().expect("the form is open")
}

fn edit(pg: &mut Local, field: Field, text: &str) {
    pg.act(Action::Application(FormAction::Edit(field, text.into())));
}

/// The problem the form shows for a field, if any.
fn error_at<'a>(pg: &'a Local, field: &str) -> Option<&'a FieldError> {
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
    edit(&mut pg, Field::Partitions(0), "60000");
    let e = error_at(&pg, "topology.subtopologies[0].partitions").expect("too many");
    assert!(
        e.reason.contains("over the limit of 50000")
            && e.reason.contains("the playground draws every task"),
        "{e}"
    );
    edit(&mut pg, Field::Partitions(0), "30000");
    edit(&mut pg, Field::Partitions(1), "30000");
    let e = error_at(&pg, "topology").expect("too many in all");
    assert!(
        e.reason.starts_with("60008 tasks, over the limit of 50000"),
        "{e}"
    );
    assert_eq!(form(&pg).totals.tasks, Some(60_008));
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
        problem.starts_with("Not applied: topology: 60008 tasks"),
        "{problem}"
    );
    assert_eq!(problem.lines().count(), 1);
    assert_eq!(*pg.session().scenario(), before);
    assert_eq!(form(&pg).draft.threads, "0");
}

#[test]
fn applying_the_form_restarts_with_the_application_and_the_config_kept() {
    let mut pg = preset("scale-up-running");
    pg.act(Action::Playback(Playback::Seek(3_000)));
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
    assert_eq!(
        s.config.rebalance_ms,
        Some(500),
        "the configuration is kept"
    );
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
    pg.act(Action::View(crate::playground::link::ViewMode::Compare));
    pg.act(Action::Application(FormAction::Open));
    assert_eq!(form(&pg).draft.count, "1x", "kept");
    pg.act(Action::Application(FormAction::Close));
    pg.act(Action::Preset("leader-transfer".into()));
    pg.act(Action::Application(FormAction::Open));
    assert_eq!(form(&pg).draft.name, "My application", "a starting example");
}

#[test]
fn the_report_is_a_download_of_the_session_under_its_strategies() {
    let mut pg = preset("scale-up-running");
    pg.act(Action::View(crate::playground::link::ViewMode::Compare));
    pg.act(Action::Playback(Playback::Seek(1_000)));
    pg.act(Action::Command(Command::Join(MemberSpec {
        name: "S6".into(),
        capacity: 1,
        restore_rate: None,
        zone: None,
    })));
    let effects = pg.act(Action::Export(Export::Report));
    let [Effect::Download { name, mime, text }] = effects.as_slice() else {
        panic!("one download: {effects:?}")
    };
    assert_eq!(
        (name.as_str(), mime.as_str()),
        ("handoff-report.html", "text/html")
    );
    assert_eq!(
        *text,
        pg.session().report().expect("runs"),
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
