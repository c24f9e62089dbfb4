//! The sweep panel: the form as typed with its problems beside their fields, the runs dealt
//! to the workers and filling the table and the charts, a cancel, a cell opened in the compare
//! view, and the question in the session (saved, linked, and old links still open).

use super::scale_out;
use crate::model::Strategy;
use crate::playground::link::{SavedSession, ViewMode};
use crate::playground::sweep::{SweepAction, SweepField};
use crate::playground::wire::Request;
use crate::playground::{Action, Effect, Local, Simulation};
use crate::sweep::{run_cell, Question};

fn edit(pg: &mut Local, field: SweepField, text: &str) {
    pg.act(Action::Sweep(SweepAction::Edit(field, text.into())));
}

/// The worked example with the form filled: standbys 0 to 2 under learner and eager.
fn filled() -> Local {
    let mut pg = scale_out();
    pg.act(Action::View(ViewMode::Sweep));
    edit(&mut pg, SweepField::Setting(0), "num_standby_replicas");
    edit(&mut pg, SweepField::Values(0), "0..2");
    for s in Strategy::ALL {
        if ![Strategy::Learner, Strategy::Eager].contains(s) {
            pg.act(Action::Sweep(SweepAction::ToggleStrategy(*s)));
        }
    }
    pg
}

#[test]
fn the_form_keeps_what_was_typed_and_names_each_problem_beside_its_field() {
    let mut pg = scale_out();
    pg.act(Action::View(ViewMode::Sweep));
    let view = pg.sweep_view();
    assert!(view.names.iter().any(|n| n == "num_standby_replicas"));
    assert!(view.names.iter().any(|n| n == "instances.count"));
    assert!(!view.names.iter().any(|n| n.starts_with("tasks[")));
    edit(&mut pg, SweepField::Setting(0), "num_standby_replicas");
    edit(&mut pg, SweepField::Values(0), "0,,2x");
    let view = pg.sweep_view();
    assert_eq!(view.values[0], "0,,2x", "kept as typed");
    assert_eq!(view.problems.len(), 1);
    assert_eq!(view.problems[0].field, Some(SweepField::Values(0)));
    assert!(view.problems[0]
        .reason
        .starts_with("num_standby_replicas: "));
    // A value the format refuses is named with its setting, beside its values.
    edit(&mut pg, SweepField::Values(0), "0,-1");
    let problems = pg.sweep_view().problems;
    assert_eq!(problems[0].field, Some(SweepField::Values(0)));
    assert!(
        problems[0]
            .reason
            .starts_with("num_standby_replicas=-1: config.num_standby_replicas"),
        "{}",
        problems[0].reason
    );
    // Run with a problem: nothing runs.
    let effects = pg.act(Action::Sweep(SweepAction::Run));
    assert!(effects
        .iter()
        .all(|e| !matches!(e, Effect::SweepSend { .. })));
    assert_eq!(pg.sweep_view().progress, (0, 0));
    edit(&mut pg, SweepField::Values(0), "0,1");
    assert!(pg.sweep_view().problems.is_empty());
    // No strategy: named on the question.
    for s in Strategy::ALL {
        pg.act(Action::Sweep(SweepAction::ToggleStrategy(*s)));
    }
    let problems = pg.sweep_view().problems;
    assert_eq!(problems.len(), 1);
    assert_eq!(problems[0].field, None);
}

/// The cells run on the workers fill the table with the figures of each run alone, and the
/// charts with the files' own drawings; a cell opens its run in the compare view.
#[test]
fn the_runs_fill_the_table_and_charts_and_a_cell_opens_in_the_compare_view() {
    let mut pg = filled();
    pg.workers = 2;
    let effects = pg.act(Action::Sweep(SweepAction::Run));
    assert!(effects.contains(&Effect::Autosave));
    let view = pg.sweep_view();
    assert_eq!(view.progress, (6, 6));
    assert!(!view.running);
    assert_eq!(view.header[..2], ["num_standby_replicas", "strategy"]);
    // Each row as the sweep core computes its cell on its own.
    let question = Question {
        strategies: vec![Strategy::Learner, Strategy::Eager],
        ..Question::new(vec!["num_standby_replicas=0..2".parse().expect("axis")])
    };
    for row in &view.rows {
        let cell = run_cell(&question, pg.scenario(), row.index).expect("runs");
        let figures: Vec<String> = question
            .measures
            .iter()
            .map(|m| crate::views::metrics::figure(cell.figure(m)))
            .collect();
        assert!(row.done);
        assert_eq!(row.cells[2..], figures[..], "row {}", row.index);
        assert_eq!(row.cells[1], cell.strategy.name());
    }
    assert!(view.charts.len() > 3);
    for figure in view.charts.iter() {
        // The files' own chart of the whole sweep, the same data.
        let whole = crate::sweep::Sweep::run(&question, pg.scenario()).expect("runs");
        let file = whole
            .charts()
            .into_iter()
            .find(|f| f.id == figure.id)
            .expect(&figure.id);
        assert_eq!(*figure.chart, file.chart, "{}", figure.id);
    }
    // The question is the session's: saved and carried by a link.
    let saved = SavedSession::read(&pg.autosave_text().expect("saved")).expect("reads");
    assert_eq!(saved.sweep, Some(question.clone()));
    assert_eq!(saved.view, ViewMode::Sweep);
    // A cell opens its run in the compare view, at its values.
    pg.act(Action::Sweep(SweepAction::Open(3)));
    assert_eq!(pg.view(), ViewMode::Compare);
    assert_eq!(pg.strategies(), [Strategy::Learner, Strategy::Eager]);
    assert_eq!(pg.scenario().config.num_standby_replicas, 1);
    assert!(pg.comparing());
    // The sweep stays on show, but it is not the new session's.
    assert_eq!(pg.sweep_view().progress, (6, 6));
    let saved = SavedSession::read(&pg.autosave_text().expect("saved")).expect("reads");
    assert_eq!(saved.sweep, None);
}

/// A cancel stops the cells still to come: those running are dropped, those done kept.
#[test]
fn a_cancel_stops_the_runs_still_to_come() {
    let mut pg = filled();
    pg.workers = 2;
    let effects = pg.act_unsent(Action::Sweep(SweepAction::Run));
    let sends: Vec<&Effect> = effects
        .iter()
        .filter(|e| matches!(e, Effect::SweepSend { .. }))
        .collect();
    assert_eq!(sends.len(), 2, "a cell to each worker");
    // Each worker's cell, as the worker runs it.
    let run = |effect: &Effect| {
        let Effect::SweepSend { request, .. } = effect else {
            panic!("a cell")
        };
        Simulation::new().handle(request.clone()).remove(0)
    };
    let (first, second) = (run(sends[0]), run(sends[1]));
    // The first worker's cell is done: that worker gets the next cell; then the reader cancels.
    let next = pg.act_unsent(Action::Reply(first));
    assert!(matches!(
        next.as_slice(),
        [Effect::SweepSend {
            slot: 0,
            request: Request::Cell { index: 2, .. }
        }]
    ));
    assert!(pg.sweep_view().running);
    assert_eq!(pg.sweep_view().progress, (1, 6));
    let effects = pg.act_unsent(Action::Sweep(SweepAction::Cancel));
    assert!(effects.contains(&Effect::SweepStop));
    pg.deliver(effects);
    let view = pg.sweep_view();
    assert!(!view.running);
    assert_eq!(view.progress, (1, 6), "what was done is kept");
    assert_eq!(
        view.stopped.as_deref(),
        Some("Cancelled: the runs done are kept.")
    );
    // A cell that comes back from before the cancel changes nothing.
    assert!(pg.act(Action::Reply(second)).is_empty());
    assert_eq!(pg.sweep_view().progress, (1, 6));
}

/// A link carries the question: opened in the sweep view, the sweep runs again; a link made
/// before sweeps existed still opens.
#[test]
fn a_link_carries_the_question_and_old_links_still_open() {
    let mut pg = filled();
    pg.act(Action::Sweep(SweepAction::Run));
    let text = pg.autosave_text().expect("saved");
    let (again, _) = Local::start(crate::playground::Startup {
        autosave: Some(text.clone()),
        cores: 3,
        ..Default::default()
    });
    let view = again.sweep_view();
    assert_eq!(view.settings[0], "num_standby_replicas");
    assert_eq!(view.values[0], "0..2");
    assert_eq!(view.progress, (6, 6), "run again");
    // Without the sweep field (a link of an earlier build): it opens, with no sweep.
    let old = text.replace(
        &format!(
            ",\"sweep\":{}",
            serde_json::to_string(&pg.sweep_question()).expect("json")
        ),
        "",
    );
    assert!(!old.contains("\"sweep\":"), "{old}");
    let (old, _) = Local::start(crate::playground::Startup {
        autosave: Some(old),
        ..Default::default()
    });
    assert_eq!(old.error(), None);
    assert_eq!(old.sweep_view().progress, (0, 0));
}
