//! The configuration form and the member toolbar, natively: what a person types is kept as
//! typed, each problem is named beside its field, nothing is applied or joined until it is
//! valid, and a valid draft restarts the session with it.

use super::preset;
use crate::playground::{Action, ConfigAction, ConfigField, JoinAction, JoinField, Local};

fn config(pg: &mut Local, action: ConfigAction) {
    pg.act(Action::Config(action));
}

fn edit(pg: &mut Local, field: ConfigField, text: &str) {
    config(pg, ConfigAction::Edit(field, text.to_string()));
}

fn error_of(pg: &Local, field: ConfigField) -> Option<String> {
    let form = pg.config_form().expect("open");
    form.error(field).map(ToString::to_string)
}

#[test]
fn the_configuration_form_keeps_what_was_typed_and_names_each_problem_beside_its_field() {
    let mut pg = preset("scale-up-running");
    assert!(pg.config_form().is_none(), "closed until opened");
    config(&mut pg, ConfigAction::Open);
    let form = pg.config_form().expect("open");
    assert!(form.errors.is_empty(), "{:?}", form.errors);
    let rebalance = pg.session().scenario().config.rebalance_ms;
    assert_eq!(
        form.draft.get(ConfigField::Rebalance),
        rebalance.map(|r| r.to_string()).unwrap_or_default()
    );
    assert_eq!(form.draft.get(ConfigField::Handoff), "release_at_join");
    // A rebalance of "fast", a capacity of -3, a malformed cap: each refused, none rewritten.
    edit(&mut pg, ConfigField::Rebalance, "fast");
    edit(&mut pg, ConfigField::MemberCapacity(0), "-3");
    edit(&mut pg, ConfigField::MaxLearners, "two");
    let form = pg.config_form().expect("open");
    assert_eq!(form.draft.get(ConfigField::Rebalance), "fast");
    assert_eq!(form.draft.get(ConfigField::MemberCapacity(0)), "-3");
    assert_eq!(form.draft.get(ConfigField::MaxLearners), "two");
    assert_eq!(
        error_of(&pg, ConfigField::Rebalance).as_deref(),
        Some("config.rebalance_ms: \"fast\" is not a whole number")
    );
    assert_eq!(
        error_of(&pg, ConfigField::MemberCapacity(0)).as_deref(),
        Some("members[0].capacity: \"-3\" is not a whole number")
    );
    assert_eq!(
        error_of(&pg, ConfigField::MaxLearners).as_deref(),
        Some("config.max_learners: \"two\" is not a whole number")
    );
    // Applying does nothing but say why; the session and the draft stay.
    let clock = pg.session().clock();
    let before = pg.session().scenario().config.rebalance_ms;
    config(&mut pg, ConfigAction::Apply);
    let form = pg.config_form().expect("still open");
    assert!(form
        .problem
        .as_deref()
        .is_some_and(|p| p.starts_with("Not applied: ")
            && p.contains("config.rebalance_ms: \"fast\" is not a whole number")
            && p.contains("members[0].capacity")));
    assert_eq!(pg.session().scenario().config.rebalance_ms, before);
    assert_eq!(pg.session().clock(), clock);
    assert_eq!(form.draft.get(ConfigField::MemberCapacity(0)), "-3");
    // An empty cap is no cap; the format's own checks name what parses but cannot be.
    edit(&mut pg, ConfigField::MaxLearners, "");
    edit(&mut pg, ConfigField::MemberCapacity(0), "2");
    edit(&mut pg, ConfigField::Rebalance, "0");
    let message = error_of(&pg, ConfigField::Rebalance).expect("refused");
    assert!(message.starts_with("config.rebalance_ms: "), "{message}");
    // Fixed, it applies and restarts with it; the open form shows the new scenario.
    edit(&mut pg, ConfigField::Rebalance, "2000");
    config(&mut pg, ConfigAction::AddTask);
    config(&mut pg, ConfigAction::Apply);
    let scenario = pg.session().scenario();
    assert_eq!(scenario.config.rebalance_ms, Some(2000));
    assert_eq!(scenario.config.max_learners, None);
    assert_eq!(scenario.members[0].capacity, 2);
    assert_eq!(scenario.tasks.last().map(|t| t.name.as_str()), Some("T6"));
    assert_eq!(pg.notice(), Some("Restarted with the new configuration."));
    let form = pg.config_form().expect("open on the new scenario");
    assert_eq!(form.draft.get(ConfigField::Rebalance), "2000");
    assert!(form.errors.is_empty());
}

#[test]
fn the_streams_protocols_settings_are_checked_under_its_strategies_and_applied() {
    let mut pg = preset("scale-up-running");
    config(&mut pg, ConfigAction::Open);
    let form = pg.config_form().expect("open");
    assert_eq!(form.draft.get(ConfigField::StreamsHeartbeat), "5000");
    assert_eq!(form.draft.get(ConfigField::StreamsWarmups), "2");
    // The preset's sessions are 10 s: a heartbeat of 12 s is refused under kip1071 only.
    edit(&mut pg, ConfigField::StreamsHeartbeat, "12000");
    assert_eq!(error_of(&pg, ConfigField::StreamsHeartbeat), None);
    edit(&mut pg, ConfigField::Strategy, "kip1071-warmup");
    let message = error_of(&pg, ConfigField::StreamsHeartbeat).expect("refused");
    assert!(
        message.starts_with("config.kip1071.heartbeat_interval_ms: 12000 ms: a member heartbeats at least once a session (10000 ms)"),
        "{message}"
    );
    edit(&mut pg, ConfigField::StreamsHeartbeat, "2000");
    edit(&mut pg, ConfigField::StreamsWarmups, "1");
    config(&mut pg, ConfigAction::Apply);
    let c = &pg.session().scenario().config;
    assert_eq!(c.kip1071.heartbeat_interval_ms, 2000);
    assert_eq!(c.kip1071.num_warmup_replicas, 1);
}

#[test]
fn a_member_added_to_the_form_goes_to_its_least_used_zone_and_removing_one_drops_its_commands() {
    let mut pg = preset("zone-failure");
    config(&mut pg, ConfigAction::Open);
    let zones = |pg: &Local| -> Vec<String> {
        let form = pg.config_form().expect("open");
        form.draft.members.iter().map(|m| m.zone.clone()).collect()
    };
    let before = zones(&pg);
    config(&mut pg, ConfigAction::AddMember);
    let after = zones(&pg);
    let added = after.last().cloned().unwrap_or_default();
    let count = |z: &str| before.iter().filter(|x| *x == z).count();
    let fewest = before.iter().map(|z| count(z)).min().unwrap_or(0);
    assert_eq!(count(&added), fewest, "{added} of {before:?}");
    let commands = pg.session().scenario().commands.len();
    config(&mut pg, ConfigAction::RemoveMember(0));
    config(&mut pg, ConfigAction::Apply);
    assert!(pg.session().scenario().commands.len() <= commands);
    assert!(pg
        .session()
        .scenario()
        .members
        .iter()
        .all(|m| m.name != "S1"));
}

#[test]
fn the_new_member_joins_only_when_its_fields_read_and_keeps_them_as_typed() {
    let mut pg = preset("scale-up-running");
    let members = |pg: &Local| pg.session().main().view().members().len();
    let before = members(&pg);
    pg.act(Action::Join(JoinAction::Edit(
        JoinField::Capacity,
        "-3".into(),
    )));
    pg.act(Action::Join(JoinAction::Edit(
        JoinField::RestoreRate,
        "fast".into(),
    )));
    let toolbar = pg.toolbar();
    assert_eq!(toolbar.join.capacity, "-3");
    let errors: Vec<String> = toolbar.errors.iter().map(ToString::to_string).collect();
    assert_eq!(
        errors,
        [
            "new member.capacity: \"-3\" is not a whole number of at least 1",
            "new member.restore_rate: \"fast\" is not a whole number of at least 1",
        ]
    );
    pg.act(Action::Join(JoinAction::Add));
    assert_eq!(members(&pg), before, "nothing joins");
    pg.act(Action::Join(JoinAction::Edit(
        JoinField::Capacity,
        "0".into(),
    )));
    pg.act(Action::Join(JoinAction::Edit(
        JoinField::RestoreRate,
        "".into(),
    )));
    assert_eq!(
        pg.toolbar()
            .errors
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>(),
        ["new member.capacity: member S5 needs a capacity of at least 1"]
    );
    pg.act(Action::Join(JoinAction::Edit(
        JoinField::Capacity,
        "2".into(),
    )));
    assert!(pg.toolbar().errors.is_empty());
    pg.act(Action::Join(JoinAction::Add));
    assert_eq!(members(&pg), before + 1);
    let joined = pg
        .session()
        .main()
        .view()
        .members()
        .last()
        .map(|m| m.capacity);
    assert_eq!(joined, Some(2));
    assert_eq!(pg.toolbar().join.capacity, "2", "kept for the next member");
}
