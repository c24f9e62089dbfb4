//! How the playground replaces its session: a preset, a scenario file, a saved session (a
//! link or the autosave), other strategies for the same commands, a tour's preset; each
//! asked of the worker, and shown once it is open (`requests.rs`).

use super::requests::{Awaiting, Opening, Refused, SweepThen};
use super::wire::Request;
use super::{Effect, Playground, TourAction};
use crate::model::{Scenario, Strategy};
use crate::playground::link::{LinkError, SavedSession, TourPosition, ViewMode};
use crate::playground::session::MAX_LANES;
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
        match toggled(self.strategies(), strategy) {
            Some(next) => self.relane(next),
            None => Vec::new(),
        }
    }

    /// Each strategy the compare view offers: whether it is compared, and whether a click
    /// can add it or take it out.
    pub fn strategy_choices(&self) -> Vec<StrategyChoice> {
        let compared = self.strategies();
        Strategy::ALL
            .iter()
            .map(|&strategy| StrategyChoice {
                strategy,
                compared: compared.contains(&strategy),
                can_toggle: toggled(compared, strategy).is_some(),
            })
            .collect()
    }

    /// Opens a scenario at its first moment under `strategies`, as it is loaded: drafts made
    /// on the one before are forgotten once it is open. `preset`, `notice` and `tour` are
    /// the page's then.
    pub(super) fn load(
        &mut self,
        scenario: Scenario,
        strategies: &[Strategy],
        (preset, notice, tour): (Option<&'static str>, Option<String>, Option<TourPosition>),
    ) -> Vec<Effect> {
        let strategies = if strategies.is_empty() {
            vec![scenario.config.strategy]
        } else {
            strategies.iter().copied().take(MAX_LANES).collect()
        };
        self.open(Opening {
            scenario,
            strategies,
            clock: 0,
            preset,
            notice,
            error: None,
            tour,
            view: self.view,
            play: false,
            tour_step: false,
            sweep: SweepThen::Clear,
            refused: Refused::Line("the scenario cannot run: ".into()),
        })
    }

    /// Loads a preset; `problem` names what to say if there is no such preset.
    pub(super) fn load_preset(&mut self, id: &str, problem: Option<String>) -> Vec<Effect> {
        match Preset::find(id).map(|p| (p.id, p.scenario())) {
            Some((id, Ok(scenario))) => {
                let strategies = self.strategies_for(self.view);
                self.load(scenario, &strategies, (Some(id), None, None))
            }
            Some((_, Err(e))) => self.fail(format!("preset {id}: {e}")),
            None => self.fail(problem.unwrap_or_else(|| format!("there is no preset {id}"))),
        }
    }

    pub(super) fn load_scenario(&mut self, scenario: Scenario, notice: String) -> Vec<Effect> {
        // The single view runs the scenario's own strategy: the configuration's strategy
        // picker, or an imported file's, chooses it.
        let strategies = match self.view {
            ViewMode::Single => vec![scenario.config.strategy],
            view => self.strategies_for(view),
        };
        self.load(scenario, &strategies, (None, Some(notice), None))
    }

    /// Opens a saved session (a link or the autosave); `note` says which. If it cannot be
    /// opened the current session is kept, or, with `fallback` (at start, with nothing open),
    /// the first preset is opened.
    pub(super) fn restore(
        &mut self,
        saved: &SavedSession,
        note: String,
        fallback: bool,
    ) -> Vec<Effect> {
        let prefix = format!("{note}: ");
        let opening = Self::opening_of(saved).and_then(|o| {
            if saved.strategies.is_empty() || saved.strategies.len() > MAX_LANES {
                return Err(LinkError::Strategies(saved.strategies.len()).to_string());
            }
            Ok(o)
        });
        match opening {
            Ok(opening) => self.open(Opening {
                notice: Some(note),
                refused: match fallback {
                    true => Refused::Fallback(prefix),
                    false => Refused::Line(prefix),
                },
                ..opening
            }),
            Err(e) if fallback => {
                let message = format!("{prefix}{e}. Showing the default scenario instead.");
                let effects = self.load_preset(PRESETS[0].id, None);
                if let Some(opening) = self.pending_open() {
                    opening.error = Some(message);
                }
                effects
            }
            Err(e) => self.fail(format!("{prefix}{e}. The current session is kept.")),
        }
    }

    pub(super) fn strategies_for(&self, view: ViewMode) -> Vec<Strategy> {
        let current = self.strategies();
        match view {
            ViewMode::Single => vec![current[0]],
            ViewMode::Sweep => current.to_vec(),
            ViewMode::Compare if current.len() >= 2 => current.to_vec(),
            ViewMode::Compare => vec![
                Strategy::Learner,
                Strategy::Kip441,
                Strategy::Cooperative,
                Strategy::Eager,
            ],
        }
    }

    /// Other lanes for the same commands and clock: the worker keeps those it has.
    pub(super) fn relane(&mut self, strategies: Vec<Strategy>) -> Vec<Effect> {
        if strategies == self.strategies() {
            return Vec::new();
        }
        let seq = self.await_reply(Awaiting::Lanes);
        vec![Effect::Send(Request::Lanes { seq, strategies })]
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
            Some(Ok(scenario)) => self.open(Opening {
                strategies: match tour.compare {
                    [] => vec![scenario.config.strategy],
                    lanes => lanes.to_vec(),
                },
                scenario,
                clock: 0,
                preset: Some(tour.preset),
                notice: None,
                error: None,
                tour: Some(TourPosition {
                    tour: tour.id.to_string(),
                    step: 0,
                }),
                view: if tour.compare.is_empty() {
                    ViewMode::Single
                } else {
                    ViewMode::Compare
                },
                play: false,
                tour_step: true,
                sweep: SweepThen::Clear,
                refused: Refused::Line(String::new()),
            }),
            _ => self.fail(format!("tour {id} names a missing preset")),
        }
    }
}
