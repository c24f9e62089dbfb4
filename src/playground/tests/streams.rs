//! Kafka's streams protocol on the page: epochs in the words a screen reader hears, the
//! compare tour of the learner design against kip1071 and kip1071-warmup, and links that name
//! them (old links, which do not, keep opening).

use super::{link_of, preset, start};
use crate::model::{Scenario, Strategy};
use crate::playground::link::{SavedSession, ViewMode};
use crate::playground::{Action, Local, Playback, Query, TourAction};
use crate::presets::Preset;

/// A preset opened under `strategy` instead of its own.
fn under(id: &str, strategy: Strategy) -> Local {
    let preset = Preset::find(id).expect("preset");
    let scenario = preset.scenario().expect("parses").with_strategy(strategy);
    Local::with(scenario, None)
}

#[test]
fn under_the_streams_protocol_the_page_speaks_of_group_epochs() {
    let mut pg = under("scale-up-running", Strategy::Kip1071);
    pg.act(Action::Playback(Playback::Seek(20_000)));
    let frame = pg.single().frame.clone();
    let streams = frame.round.streams.clone().expect("the streams protocol");
    // S4 and S5 joined: epochs 2 and 3 over the scenario's stable start at 1.
    assert_eq!(streams.group_epoch, 3);
    assert_eq!(pg.position_text(&frame), "20000 ms, group epoch 3, stable");
    assert!(
        pg.announcement(&frame, true).starts_with("Group epoch 3, "),
        "{}",
        pg.announcement(&frame, true)
    );
    let classic = preset("scale-up-running");
    let frame = classic.single().frame.clone();
    assert!(frame.round.streams.is_none());
    assert!(classic.position_text(&frame).contains(", generation "));
}

#[test]
fn the_streams_tour_opens_the_compare_view_and_walks_to_its_end() {
    let mut pg = preset("scale-up-running");
    pg.act(Action::Tour(TourAction::Start("streams-protocol".into())));
    assert!(pg.comparing(), "the tour compares");
    assert_eq!(
        pg.session().strategies(),
        [
            Strategy::Learner,
            Strategy::Kip1071Warmup,
            Strategy::Kip1071
        ]
    );
    assert_eq!(pg.preset(), Some("scale-up-realistic"));
    let tour = crate::playground::tour::Tour::find("streams-protocol").expect("tour");
    let mut times = vec![pg.session().clock()];
    for step in 1..tour.steps.len() {
        pg.act(Action::Tour(TourAction::Step(step)));
        assert_eq!(pg.error(), None);
        times.push(pg.session().clock());
    }
    assert!(times.windows(2).all(|w| w[0] <= w[1]), "{times:?}");
    assert_eq!(pg.tour().map(|t| t.step), Some(tour.steps.len() - 1));
    // The table under the lanes says what its rebalances count and what is unreleased.
    let notes = pg.compare_table(&pg.lanes()).notes();
    assert_eq!(notes.len(), 2, "{notes:?}");
    assert!(notes[1].starts_with("kip1071-warmup: Kafka trunk, not released"));
    // A link of the tour reopens it in the compare view, its lanes by name.
    let saved = SavedSession::read(&pg.autosave_text().expect("saves")).expect("reads");
    assert_eq!(saved.view, ViewMode::Compare);
    assert_eq!(
        saved.tour.as_ref().map(|t| t.step),
        Some(tour.steps.len() - 1)
    );
}

#[test]
fn a_link_naming_kip1071_warmup_round_trips() {
    let mut pg = preset("scale-down-running");
    pg.act(Action::Playback(Playback::Seek(1_500)));
    pg.act(Action::View(ViewMode::Compare));
    for s in [
        Strategy::Kip441,
        Strategy::Cooperative,
        Strategy::Kip1071,
        Strategy::Eager,
        Strategy::Kip1071Warmup,
    ] {
        pg.act(Action::ToggleStrategy(s));
    }
    let lanes = [
        Strategy::Learner,
        Strategy::Kip1071,
        Strategy::Kip1071Warmup,
    ];
    assert_eq!(pg.session().strategies(), lanes);
    let link = pg.autosave_compressed().expect("the full playground saves");
    let json = pg.autosave_text().expect("saves");
    assert!(
        json.contains(r#""strategies":["learner","kip1071","kip1071-warmup"]"#),
        "{json}"
    );
    let (opened, _) = start(&format!("s={link}"), Query::default(), None);
    assert_eq!(opened.error(), None);
    assert_eq!(opened.session().strategies(), lanes);
    assert_eq!(opened.view(), ViewMode::Compare);
    assert_eq!(opened.session().clock(), 1_500);
}

#[test]
fn an_older_link_without_the_streams_strategies_still_opens() {
    // What a build before kip1071 wrote: no such names, no tour, no sweep.
    let scenario: serde_json::Value =
        serde_json::from_str(Preset::find("leader-transfer").expect("preset").json).expect("json");
    let old = serde_json::json!({
        "v": 1,
        "scenario": scenario,
        "strategies": ["learner", "kip441", "cooperative", "eager"],
        "clock": 2_000,
        "view": "compare",
    })
    .to_string();
    let link = lz_str::compress_to_encoded_uri_component(old.as_str());
    for (fragment, autosave) in [
        (format!("s={link}"), None),
        (String::new(), Some(old.clone())),
    ] {
        let (pg, _) = start(&fragment, Query::default(), autosave);
        assert_eq!(pg.error(), None);
        assert_eq!(
            pg.session().strategies(),
            [
                Strategy::Learner,
                Strategy::Kip441,
                Strategy::Cooperative,
                Strategy::Eager
            ]
        );
        assert_eq!(pg.session().clock(), 2_000);
        assert_eq!(
            pg.session().scenario().name,
            "Leader Transfer During Scaling"
        );
    }
    // And a link of today's single view, made the usual way, opens as before.
    let (pg, _) = start(
        &format!("s={}", link_of("leader-transfer", 2_000)),
        Query::default(),
        None,
    );
    assert_eq!(pg.session().strategies(), [Strategy::Learner]);
    assert!(Scenario::from_json(Preset::find("scale-up-realistic").expect("preset").json).is_ok());
}

#[test]
fn the_single_views_strategy_picker_runs_the_strategy_chosen() {
    use crate::playground::{ConfigAction, ConfigField};
    let mut pg = preset("scale-up-running");
    pg.act(Action::Config(ConfigAction::Open));
    pg.act(Action::Config(ConfigAction::Edit(
        ConfigField::Strategy,
        "kip1071-warmup".into(),
    )));
    pg.act(Action::Config(ConfigAction::Apply));
    assert_eq!(pg.error(), None);
    assert_eq!(pg.session().strategies(), [Strategy::Kip1071Warmup]);
    assert!(pg.single().frame.round.streams.is_some());
    // An imported file's own strategy runs too.
    let mut file: serde_json::Value =
        serde_json::from_str(Preset::find("leader-transfer").expect("preset").json).expect("json");
    file["config"]["strategy"] = serde_json::json!("kip1071");
    pg.act(Action::Import {
        name: "kip1071.json".into(),
        text: file.to_string(),
    });
    assert_eq!(pg.session().strategies(), [Strategy::Kip1071]);
}
