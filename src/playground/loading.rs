//! How the playground replaces its session: a preset, a scenario file, a saved session (a
//! link or the autosave), other strategies for the same commands, a tour's preset; and the
//! fallback that always starts.

use super::{Effect, Playground, TourAction};
use crate::model::{Scenario, Strategy};
use crate::playground::link::{SavedSession, TourPosition, ViewMode};
use crate::playground::session::{Session, MAX_LANES};
use crate::playground::tour::Tour;
use crate::presets::{Preset, PRESETS};

/// The fewest strategies the compare view compares.
pub const MIN_COMPARED: usize = 2;

/// A strategy the compare view offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StrategyChoice {
    /// The strategy.
    pub strategy: Strategy,
    /// It has a lane.
    pub compared: bool,
    /// A click adds it or takes it out: the comparison keeps [`MIN_COMPARED`] to
    /// [`MAX_LANES`] lanes.
    pub can_toggle: bool,
}

/// The strategies compared once `strategy` is added to or taken out of `compared`, in
/// [`Strategy::ALL`]'s order; `None` when that would leave fewer than [`MIN_COMPARED`] or
/// more than [`MAX_LANES`].
fn toggled(compared: &[Strategy], strategy: Strategy) -> Option<Vec<Strategy>> {
    let has = compared.contains(&strategy);
    let count = compared.len();
    if (has && count <= MIN_COMPARED) || (!has && count >= MAX_LANES) {
        return None;
    }
    Some(
        Strategy::ALL
            .iter()
            .copied()
            .filter(|&s| (s == strategy) != compared.contains(&s))
            .collect(),
    )
}

impl Playground {
    /// Opens a scenario file a person chose; a bad one is named and the session kept.
    pub(super) fn import(&mut self, name: &str, text: &str) -> Vec<Effect> {
        match Scenario::from_json(text) {
            Ok(scenario) => self.load_scenario(scenario, format!("Imported {name}.")),
            Err(e) => self.fail(format!(
                "{name} was not imported: {e}. The current session is kept."
            )),
        }
    }

    /// Shows the single or the compare view, with the lanes it needs.
    pub(super) fn show_view(&mut self, view: ViewMode) -> Vec<Effect> {
        if view == self.view {
            return Vec::new();
        }
        self.view = view;
        let strategies = self.strategies_for(view);
        self.relane(strategies)
    }

    /// Adds a strategy's lane to the comparison or takes it out (two to [`MAX_LANES`]).
    pub(super) fn toggle_strategy(&mut self, strategy: Strategy) -> Vec<Effect> {
        match toggled(&self.session.strategies(), strategy) {
            Some(next) => self.relane(next),
            None => Vec::new(),
        }
    }

    /// Each strategy the compare view offers: whether it is compared, and whether a click
    /// can add it or take it out.
    pub fn strategy_choices(&self) -> Vec<StrategyChoice> {
        let compared = self.session.strategies();
        Strategy::ALL
            .iter()
            .map(|&strategy| StrategyChoice {
                strategy,
                compared: compared.contains(&strategy),
                can_toggle: toggled(&compared, strategy).is_some(),
            })
            .collect()
    }

    /// The first preset, as a fallback that always works.
    pub fn default_session() -> (Session, &'static str) {
        let preset = PRESETS[0];
        let scenario = preset
            .scenario()
            .unwrap_or_else(|_| crate::presets::scale_out(1, 1, 1));
        let session =
            Session::new(scenario.clone(), &[]).unwrap_or_else(|_| fallback_session(scenario));
        (session, preset.id)
    }

    pub(super) fn load(&mut self, scenario: Scenario, strategies: &[Strategy]) -> Vec<Effect> {
        match Session::new(scenario, strategies) {
            Ok(session) => {
                self.replace_session(session);
                self.playing = false;
                self.last_frame = None;
                self.error = None;
                vec![Effect::Autosave]
            }
            Err(e) => self.fail(format!("the scenario cannot run: {e}")),
        }
    }

    /// Loads a preset; `problem` names what to say if there is no such preset.
    pub(super) fn load_preset(&mut self, id: &str, problem: Option<String>) -> Vec<Effect> {
        match Preset::find(id).map(|p| (p.id, p.scenario())) {
            Some((id, Ok(scenario))) => {
                self.preset = Some(id);
                self.notice = None;
                self.tour = None;
                let strategies = self.strategies_for(self.view);
                self.load(scenario, &strategies)
            }
            Some((_, Err(e))) => self.fail(format!("preset {id}: {e}")),
            None => self.fail(problem.unwrap_or_else(|| format!("there is no preset {id}"))),
        }
    }

    pub(super) fn load_scenario(&mut self, scenario: Scenario, notice: String) -> Vec<Effect> {
        self.preset = None;
        self.notice = Some(notice);
        self.tour = None;
        let strategies = self.strategies_for(self.view);
        self.load(scenario, &strategies)
    }

    /// Opens a saved session (a link or the autosave); `note` says which.
    pub(super) fn restore(&mut self, saved: &SavedSession, note: String) -> Vec<Effect> {
        match saved.restore() {
            Ok(session) => {
                self.replace_session(session);
                self.view = saved.view;
                self.tour = saved.tour.clone();
                self.preset = PRESETS
                    .iter()
                    .find(|p| p.name == saved.scenario.name)
                    .map(|p| p.id);
                self.playing = false;
                self.error = None;
                self.notice = Some(note);
                vec![Effect::Autosave]
            }
            Err(e) => self.fail(format!("{note}: {e}. The current session is kept.")),
        }
    }

    pub(super) fn strategies_for(&self, view: ViewMode) -> Vec<Strategy> {
        let current = self.session.strategies();
        match view {
            ViewMode::Single => vec![current[0]],
            ViewMode::Compare if current.len() >= 2 => current,
            ViewMode::Compare => vec![
                Strategy::Learner,
                Strategy::Kip441,
                Strategy::Cooperative,
                Strategy::Eager,
            ],
        }
    }

    /// Rebuilds the session with other strategies, keeping the commands and the clock.
    pub(super) fn relane(&mut self, strategies: Vec<Strategy>) -> Vec<Effect> {
        let mut saved = self.saved();
        saved.strategies = strategies;
        match saved.restore() {
            Ok(session) => {
                self.rebuild_session(session);
                vec![Effect::Autosave]
            }
            Err(e) => self.fail(e.to_string()),
        }
    }

    /// Starts, steps through or leaves a tour.
    pub(super) fn take_tour(&mut self, action: TourAction) -> Vec<Effect> {
        match action {
            TourAction::Start(id) => self.start_tour(&id),
            TourAction::Step(step) => self.tour_step(step),
            TourAction::Leave => {
                self.tour = None;
                self.notice = Some("You left the tour: play on freely from here.".into());
                vec![Effect::Autosave]
            }
        }
    }

    pub(super) fn start_tour(&mut self, id: &str) -> Vec<Effect> {
        let Some(tour) = Tour::find(id) else {
            return self.fail(format!("there is no tour {id}"));
        };
        match Preset::find(tour.preset).map(|p| p.scenario()) {
            Some(Ok(scenario)) => match Session::new(scenario, &[]) {
                Ok(session) => {
                    self.replace_session(session);
                    self.preset = Some(tour.preset);
                    self.view = ViewMode::Single;
                    self.error = None;
                    self.notice = None;
                    self.tour = Some(TourPosition {
                        tour: tour.id.to_string(),
                        step: 0,
                    });
                    self.tour_step(0)
                }
                Err(e) => self.fail(e.to_string()),
            },
            _ => self.fail(format!("tour {id} names a missing preset")),
        }
    }

    pub(super) fn tour_step(&mut self, step: usize) -> Vec<Effect> {
        let Some(tour) = self.tour.as_ref().and_then(|p| Tour::find(&p.tour)) else {
            return Vec::new();
        };
        let step = step.min(tour.steps.len().saturating_sub(1));
        self.tour = Some(TourPosition {
            tour: tour.id.to_string(),
            step,
        });
        self.playing = false;
        // A tour step is a moment of the real simulation: find it and go there.
        match tour.moment(&mut self.session, step) {
            Ok(time) => self.seek(time),
            Err(e) => self.fail(e),
        }
    }
}

/// A session that cannot fail to start: the scenario without its commands.
fn fallback_session(mut scenario: Scenario) -> Session {
    scenario.commands.clear();
    Session::new(scenario, &[]).unwrap_or_else(|_| {
        let empty = crate::presets::scale_out(0, 0, 0);
        // Not `expect`: that would format the error's Debug, taking the Debug code of every
        // error type into the browser build for a case that cannot happen.
        Session::new(empty, &[])
            .unwrap_or_else(|_| unreachable!("an empty scenario has nothing that can fail"))
    })
}
