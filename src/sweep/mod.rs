//! Sweeps: the same scenario run with one or two settings at each of their values, under
//! several strategies, and the measures of every run side by side (`handoff sweep`, the
//! report's sweep section). A [`Question`] says what to vary and what to measure; it is plain
//! data, so it can travel in a share link or a message to a worker. Each cell of a sweep (a
//! combination of values under one strategy) is a job of its own ([`run_cell`]), so the
//! command line runs them in parallel and the browser can run them in workers.
//!
//! Values are applied to the scenario's file form and read back through the format's own
//! validation (the `settings` module), so a sweep accepts exactly what a scenario file would, and
//! every value is checked before anything runs ([`check`]).

pub mod charts;
pub mod knee;
mod output;
mod settings;
pub mod values;

pub use output::{KneeJson, SettingJson, StrategyKnees, SweepJson};
pub use values::{Value, Values};

use crate::format::ScenarioError;
use crate::history::{Run, RunError};
use crate::model::{Scenario, Strategy};
use crate::views::metrics::{Measure, Metrics, MEASURES};
use serde::{Deserialize, Serialize};
use settings::{Base, NotASetting, Setting};
use std::str::FromStr;

/// The most runs one sweep may make.
pub const MAX_CELLS: usize = 10_000;

/// One swept setting and its values: `num_standby_replicas=0,1,2` as typed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Axis {
    /// The setting's name: a path of the scenario file (`instances.count`), the
    /// configuration's without `config.` (`num_standby_replicas`).
    pub setting: String,
    /// Its values.
    pub values: Values,
}

impl FromStr for Axis {
    type Err = SweepError;

    /// `NAME=VALUES`.
    fn from_str(text: &str) -> Result<Axis, SweepError> {
        let Some((setting, values)) = text.split_once('=') else {
            return Err(SweepError::Values {
                setting: text.trim().to_string(),
                reason: "write a setting and its values as NAME=VALUES, such as num_standby_replicas=0,1,2".to_string(),
            });
        };
        let setting = setting.trim().to_string();
        let values = values
            .parse()
            .map_err(|e: values::ValuesError| SweepError::Values {
                setting: setting.clone(),
                reason: e.reason,
            })?;
        Ok(Axis { setting, values })
    }
}

/// What a sweep asks: one or two settings with their values, the strategies to run each
/// combination under, and the measures to read off each run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Question {
    /// The swept settings (one or two), the first varying slowest.
    pub settings: Vec<Axis>,
    /// The strategies, in the order asked.
    pub strategies: Vec<Strategy>,
    /// The measures, in the order asked.
    pub measures: Vec<Measure>,
}

impl Question {
    /// A sweep of these settings under every strategy, with the default measures.
    pub fn new(settings: Vec<Axis>) -> Question {
        Question {
            settings,
            strategies: Strategy::ALL.to_vec(),
            measures: MEASURES
                .iter()
                .filter(|m| m.swept_by_default)
                .copied()
                .collect(),
        }
    }

    /// Each setting's values, expanded.
    pub fn values(&self) -> Vec<Vec<Value>> {
        self.settings.iter().map(|a| a.values.expand()).collect()
    }

    /// How many runs the sweep makes: every combination of values under every strategy.
    pub fn cells(&self) -> usize {
        self.values()
            .iter()
            .map(Vec::len)
            .product::<usize>()
            .saturating_mul(self.strategies.len())
    }

    /// The values and the strategy of the cell at `index`: strategies vary fastest, then the
    /// last setting's values, then the first's.
    pub fn cell(&self, index: usize) -> Option<(Vec<Value>, Strategy)> {
        let values = self.values();
        if index >= self.cells() {
            return None;
        }
        let strategy = self.strategies[index % self.strategies.len()];
        Some((
            combination(&values, index / self.strategies.len()),
            strategy,
        ))
    }
}

/// The values of the combination at `index`, the last setting's varying fastest.
fn combination(values: &[Vec<Value>], index: usize) -> Vec<Value> {
    let mut rest = index;
    let mut chosen: Vec<Value> = values
        .iter()
        .rev()
        .map(|axis| {
            let value = axis[rest % axis.len()].clone();
            rest /= axis.len();
            value
        })
        .collect();
    chosen.reverse();
    chosen
}

/// The result of one cell: its values, its strategy and its figures.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CellResult {
    /// The cell's index in the sweep.
    pub index: usize,
    /// The value of each swept setting.
    pub values: Vec<Value>,
    /// The strategy.
    pub strategy: Strategy,
    /// Whether the run came to rest within the scenario's horizon.
    pub at_rest: bool,
    /// Every measure's figure, one per row of [`MEASURES`] in its order; `None` where the
    /// run never got there (time to balance, when it never came to rest).
    pub figures: Vec<Option<u64>>,
}

impl CellResult {
    /// The figures of a run's metrics.
    pub fn of(index: usize, values: Vec<Value>, strategy: Strategy, m: &Metrics) -> CellResult {
        CellResult {
            index,
            values,
            strategy,
            at_rest: m.at_rest,
            figures: MEASURES.iter().map(|measure| measure.read(m)).collect(),
        }
    }

    /// One measure's figure.
    pub fn figure(&self, measure: &Measure) -> Option<u64> {
        MEASURES
            .iter()
            .position(|m| m == measure)
            .and_then(|i| self.figures.get(i).copied().flatten())
    }
}

/// Why a sweep cannot run.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SweepError {
    /// Not one or two settings.
    #[error("a sweep varies one or two settings, not {0}")]
    Settings(usize),
    /// Values that do not read.
    #[error("{setting}: {reason}")]
    Values {
        /// The setting they were given to.
        setting: String,
        /// Why not.
        reason: String,
    },
    /// A name that is no setting of the scenario.
    #[error("{setting}: no such setting in this scenario{}", nearest_text(.nearest))]
    Unknown {
        /// The name as given.
        setting: String,
        /// The scenario's nearest names.
        nearest: Vec<String>,
    },
    /// A setting a sweep does not vary, or varies twice.
    #[error("{setting}: {reason}")]
    NotSwept {
        /// The name as given.
        setting: String,
        /// Why.
        reason: String,
    },
    /// A value the scenario format refuses for its setting.
    #[error("{setting}={value}: {error}")]
    Refused {
        /// The setting.
        setting: String,
        /// The value.
        value: String,
        /// The format's refusal, naming the field.
        error: ScenarioError,
    },
    /// Values each valid alone that the format refuses together.
    #[error("{values}: {error}")]
    Combination {
        /// The values, `a=1, b=2`.
        values: String,
        /// The format's refusal.
        error: ScenarioError,
    },
    /// More runs than a sweep may make.
    #[error("{0} runs, more than the {MAX_CELLS} a sweep may make")]
    TooLarge(usize),
    /// Nothing to run or to measure.
    #[error("a sweep needs at least one {0}")]
    Empty(&'static str),
    /// A cell index outside the sweep.
    #[error("cell {index}: the sweep has {cells} cells")]
    NoCell {
        /// The index asked for.
        index: usize,
        /// The cells there are.
        cells: usize,
    },
    /// A command of the scenario that could not be carried out in one cell.
    #[error("{values}, {strategy}: {error}")]
    Run {
        /// The cell's values, `a=1, b=2`.
        values: String,
        /// Its strategy.
        strategy: Strategy,
        /// Why the command failed.
        error: RunError,
    },
}

fn nearest_text(nearest: &[String]) -> String {
    if nearest.is_empty() {
        String::new()
    } else {
        format!("; the nearest are {}", nearest.join(", "))
    }
}

/// A question resolved against a scenario: its settings found, its values expanded.
struct Plan {
    base: Base,
    settings: Vec<Setting>,
    values: Vec<Vec<Value>>,
}

/// `a=1, b=2`: the values of a cell with their settings.
fn named(question: &Question, values: &[Value]) -> String {
    let pairs: Vec<String> = question
        .settings
        .iter()
        .zip(values)
        .map(|(a, v)| format!("{}={v}", a.setting))
        .collect();
    pairs.join(", ")
}

impl Plan {
    /// Finds the settings in the scenario; checks the question's shape, not the values.
    fn new(question: &Question, scenario: &Scenario) -> Result<Plan, SweepError> {
        let count = question.settings.len();
        if !(1..=2).contains(&count) {
            return Err(SweepError::Settings(count));
        }
        if question.strategies.is_empty() {
            return Err(SweepError::Empty("strategy"));
        }
        if question.measures.is_empty() {
            return Err(SweepError::Empty("measure"));
        }
        if let Some(axis) = question
            .settings
            .iter()
            .find(|a| a.values.expand().is_empty())
        {
            return Err(SweepError::Values {
                setting: axis.setting.clone(),
                reason: "no values".to_string(),
            });
        }
        let cells = question.cells();
        if cells > MAX_CELLS {
            return Err(SweepError::TooLarge(cells));
        }
        let base = Base::of(scenario);
        let mut settings: Vec<Setting> = Vec::with_capacity(count);
        for axis in &question.settings {
            let setting = base.setting(&axis.setting).map_err(|e| match e {
                NotASetting::Unknown(nearest) => SweepError::Unknown {
                    setting: axis.setting.clone(),
                    nearest,
                },
                NotASetting::Excluded(reason) => SweepError::NotSwept {
                    setting: axis.setting.clone(),
                    reason: reason.to_string(),
                },
            })?;
            if settings.contains(&setting) {
                return Err(SweepError::NotSwept {
                    setting: axis.setting.clone(),
                    reason: "swept twice: give each setting once".to_string(),
                });
            }
            settings.push(setting);
        }
        Ok(Plan {
            base,
            settings,
            values: question.values(),
        })
    }

    /// The scenario of a combination of values.
    fn scenario(&self, question: &Question, values: &[Value]) -> Result<Scenario, SweepError> {
        let pairs: Vec<(&Setting, &Value)> = self.settings.iter().zip(values).collect();
        self.base
            .apply(&pairs)
            .map_err(|error| SweepError::Combination {
                values: named(question, values),
                error,
            })
    }

    /// Every value alone, then every combination, through the format's validation.
    fn check(&self, question: &Question) -> Result<(), SweepError> {
        for ((setting, values), axis) in self
            .settings
            .iter()
            .zip(&self.values)
            .zip(&question.settings)
        {
            for value in values {
                self.base
                    .apply(&[(setting, value)])
                    .map_err(|error| SweepError::Refused {
                        setting: axis.setting.clone(),
                        value: value.to_string(),
                        error,
                    })?;
            }
        }
        if self.values.len() > 1 {
            let combinations: usize = self.values.iter().map(Vec::len).product();
            for c in 0..combinations {
                self.scenario(question, &combination(&self.values, c))?;
            }
        }
        Ok(())
    }

    /// Runs one cell to the end of its scenario.
    fn run(&self, question: &Question, index: usize) -> Result<CellResult, SweepError> {
        let (values, strategy) = question.cell(index).ok_or(SweepError::NoCell {
            index,
            cells: question.cells(),
        })?;
        let scenario = self.scenario(question, &values)?;
        let mut run = Run::new(scenario.with_strategy(strategy));
        run.run_to_end().map_err(|error| SweepError::Run {
            values: named(question, &values),
            strategy,
            error,
        })?;
        let metrics = Metrics::of(run.engine());
        Ok(CellResult::of(index, values, strategy, &metrics))
    }
}

/// The settings a sweep of the scenario can vary, by the names it reads (the playground's
/// picker): every value of the scenario's file but those of a task, a member or the initial
/// assignment one by one.
pub fn setting_names(scenario: &Scenario) -> Vec<String> {
    Base::of(scenario)
        .names()
        .into_iter()
        .filter(|n| {
            !["tasks[", "members[", "initial"]
                .iter()
                .any(|p| n.starts_with(p))
        })
        .collect()
}

/// The scenario of one cell's values: the run a cell stands for, to open on its own.
pub fn scenario_of(
    question: &Question,
    scenario: &Scenario,
    values: &[Value],
) -> Result<Scenario, SweepError> {
    Plan::new(question, scenario)?.scenario(question, values)
}

/// Checks a question against a scenario before anything runs: one or two settings, each a
/// setting of the scenario, every value and every combination accepted by the format.
pub fn check(question: &Question, scenario: &Scenario) -> Result<(), SweepError> {
    Plan::new(question, scenario)?.check(question)
}

/// Runs one cell of a sweep on its own: the scenario with the cell's values, under its
/// strategy, to the end. A job for a worker: it needs the question, the scenario and the
/// index only.
pub fn run_cell(
    question: &Question,
    scenario: &Scenario,
    index: usize,
) -> Result<CellResult, SweepError> {
    Plan::new(question, scenario)?.run(question, index)
}

/// The results of a sweep, one per cell in index order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sweep {
    /// The scenario's title.
    pub scenario: String,
    /// What was asked.
    pub question: Question,
    /// Every cell's result, in index order.
    pub cells: Vec<CellResult>,
}

impl Sweep {
    /// Checks the question, then runs every cell, one after the other.
    pub fn run(question: &Question, scenario: &Scenario) -> Result<Sweep, SweepError> {
        let plan = Plan::new(question, scenario)?;
        plan.check(question)?;
        let cells = (0..question.cells())
            .map(|i| plan.run(question, i))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Sweep {
            scenario: scenario.name.clone(),
            question: question.clone(),
            cells,
        })
    }

    /// Checks the question, then runs every cell on every core, calling `done` as each
    /// finishes (for a progress bar). The same results as [`Sweep::run`].
    #[cfg(not(target_arch = "wasm32"))]
    pub fn run_parallel(
        question: &Question,
        scenario: &Scenario,
        done: &(dyn Fn() + Sync),
    ) -> Result<Sweep, SweepError> {
        use rayon::prelude::*;
        let plan = Plan::new(question, scenario)?;
        plan.check(question)?;
        let cells = (0..question.cells())
            .into_par_iter()
            .map(|i| {
                let cell = plan.run(question, i);
                done();
                cell
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Sweep {
            scenario: scenario.name.clone(),
            question: question.clone(),
            cells,
        })
    }

    /// One measure's figures for a strategy over the first setting's values, the second's at
    /// its value of index `row`. A sweep under way (its cells those done so far) gives the
    /// figures up to the first value whose run is not done.
    pub fn curve(&self, strategy: Strategy, measure: &Measure, row: usize) -> Vec<Option<u64>> {
        let values = self.question.values();
        let columns = values.get(1).map_or(1, Vec::len);
        let strategies = self.question.strategies.len();
        let Some(s) = self.question.strategies.iter().position(|&x| x == strategy) else {
            return Vec::new();
        };
        (0..values.first().map_or(0, Vec::len))
            .map_while(|i| {
                let index = (i * columns + row) * strategies + s;
                self.cell(index).map(|c| c.figure(measure))
            })
            .collect()
    }

    /// The result of the cell at `index`, if it is done.
    pub fn cell(&self, index: usize) -> Option<&CellResult> {
        self.cells
            .binary_search_by_key(&index, |c| c.index)
            .ok()
            .map(|i| &self.cells[i])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn axis(text: &str) -> Axis {
        text.parse().expect(text)
    }

    #[test]
    fn a_question_survives_a_round_trip_through_json() {
        let mut q = Question::new(vec![
            axis("num_standby_replicas=0,1,2"),
            axis("restore_rate=1e3..1e6x10"),
        ]);
        q.strategies = vec![Strategy::Kip441, Strategy::Learner];
        q.measures.reverse();
        let text = serde_json::to_string(&q).expect("serializes");
        assert!(text.contains(r#""values":"1000..1000000x10""#), "{text}");
        assert!(text.contains(r#""measures":["moves","#), "{text}");
        let back: Question = serde_json::from_str(&text).expect("parses");
        assert_eq!(back, q);
        let bad = text.replace("\"moves\"", "\"speed\"");
        let e = serde_json::from_str::<Question>(&bad).expect_err("unknown measure");
        assert!(e.to_string().contains("unknown measure `speed`"), "{e}");
    }

    #[test]
    fn cells_take_strategies_fastest_then_the_last_setting() {
        let mut q = Question::new(vec![axis("a=1,2"), axis("b=10,20,30")]);
        q.strategies = vec![Strategy::Learner, Strategy::Eager];
        assert_eq!(q.cells(), 12);
        let n = Value::Number;
        assert_eq!(q.cell(0), Some((vec![n(1), n(10)], Strategy::Learner)));
        assert_eq!(q.cell(1), Some((vec![n(1), n(10)], Strategy::Eager)));
        assert_eq!(q.cell(2), Some((vec![n(1), n(20)], Strategy::Learner)));
        assert_eq!(q.cell(7), Some((vec![n(2), n(10)], Strategy::Eager)));
        assert_eq!(q.cell(11), Some((vec![n(2), n(30)], Strategy::Eager)));
        assert_eq!(q.cell(12), None);
    }

    #[test]
    fn an_axis_reads_name_equals_values() {
        let a = axis(" instances.count = 3..5 ");
        assert_eq!(a.setting, "instances.count");
        assert_eq!(a.values, Values::Range { from: 3, to: 5 });
        let e = "num_standby_replicas"
            .parse::<Axis>()
            .expect_err("no values");
        assert!(e.to_string().contains("NAME=VALUES"), "{e}");
        let e = "acceptable_recovery_lag=1.."
            .parse::<Axis>()
            .expect_err("bad");
        assert!(
            e.to_string().starts_with("acceptable_recovery_lag: "),
            "{e}"
        );
    }
}
