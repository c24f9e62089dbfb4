//! A sweep as people and programs read it: a table (Markdown or CSV, a row per run, the
//! figures exactly as `handoff compare` prints them), JSON, and the knee of each curve in a
//! sentence per strategy.

use super::knee::{self, Knee};
use super::{Sweep, Value};
use crate::compare;
use crate::model::Strategy;
use crate::views::metrics::{figure, Measure};
use serde::Serialize;
use serde_json::{Map, Value as Json};

/// The knees of one strategy's curves, a measure at a time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StrategyKnees {
    /// The strategy.
    pub strategy: Strategy,
    /// Each measure asked and where its curve levels off.
    pub knees: Vec<(Measure, Knee)>,
}

impl Sweep {
    /// The table's header (each setting, the strategy, each measure's column) and a row per
    /// run, in cell order.
    pub fn table_cells(&self) -> (Vec<String>, Vec<Vec<String>>) {
        let q = &self.question;
        let header = q
            .settings
            .iter()
            .map(|a| a.setting.clone())
            .chain(["strategy".to_string()])
            .chain(q.measures.iter().map(|m| m.column.to_string()))
            .collect();
        let rows = self
            .cells
            .iter()
            .map(|c| {
                c.values
                    .iter()
                    .map(Value::to_string)
                    .chain([c.strategy.name().to_string()])
                    .chain(q.measures.iter().map(|m| figure(c.figure(m))))
                    .collect()
            })
            .collect();
        (header, rows)
    }

    /// The table in Markdown: the settings and the strategy read as labels.
    pub fn markdown(&self) -> String {
        let (header, rows) = self.table_cells();
        compare::markdown(&header, &rows, self.question.settings.len() + 1)
    }

    /// The table as CSV (RFC 4180: a field with a comma, a quote or a line break is quoted).
    pub fn csv(&self) -> String {
        let field = |f: &str| {
            if f.contains([',', '"', '\n', '\r']) {
                format!("\"{}\"", f.replace('"', "\"\""))
            } else {
                f.to_string()
            }
        };
        let (header, rows) = self.table_cells();
        std::iter::once(header)
            .chain(rows)
            .map(|r| r.iter().map(|f| field(f)).collect::<Vec<_>>().join(",") + "\n")
            .collect()
    }

    /// The knee of every measure, per strategy, for a sweep of one setting (none for two).
    pub fn knees(&self) -> Vec<StrategyKnees> {
        if self.question.settings.len() != 1 {
            return Vec::new();
        }
        self.question
            .strategies
            .iter()
            .map(|&strategy| StrategyKnees {
                strategy,
                knees: self
                    .question
                    .measures
                    .iter()
                    .filter_map(|m| knee::knee(&self.curve(strategy, m, 0)).map(|k| (*m, k)))
                    .collect(),
            })
            .collect()
    }

    /// A sentence per strategy naming the knee of each measure (one setting only).
    pub fn knee_sentences(&self) -> Vec<String> {
        let Some(axis) = self.question.settings.first() else {
            return Vec::new();
        };
        let values: Vec<String> = axis.values.expand().iter().map(Value::to_string).collect();
        self.knees()
            .iter()
            .map(|k| knee::sentence(k.strategy.name(), &axis.setting, &values, &k.knees))
            .collect()
    }

    /// The sweep as JSON.
    pub fn json(&self) -> SweepJson {
        let q = &self.question;
        let cells = self
            .cells
            .iter()
            .map(|c| {
                let mut cell = Map::new();
                let settings: Map<String, Json> = q
                    .settings
                    .iter()
                    .zip(&c.values)
                    .map(|(a, v)| (a.setting.clone(), v.to_json()))
                    .collect();
                cell.insert("settings".into(), Json::Object(settings));
                cell.insert("strategy".into(), c.strategy.name().into());
                cell.insert("at_rest".into(), c.at_rest.into());
                for m in &q.measures {
                    cell.insert(m.id.into(), c.figure(m).map_or(Json::Null, Json::from));
                }
                cell
            })
            .collect();
        let knees = self
            .knees()
            .into_iter()
            .flat_map(|k| {
                let values = q.settings[0].values.expand();
                k.knees.into_iter().map(move |(measure, knee)| KneeJson {
                    strategy: k.strategy,
                    measure,
                    value: match knee {
                        Knee::At(i) => values.get(i).cloned(),
                        Knee::Beyond => None,
                    },
                })
            })
            .collect();
        SweepJson {
            scenario: self.scenario.clone(),
            settings: q
                .settings
                .iter()
                .map(|a| SettingJson {
                    setting: a.setting.clone(),
                    values: a.values.expand(),
                    logarithmic: a.values.logarithmic(),
                })
                .collect(),
            strategies: q.strategies.clone(),
            measures: q.measures.clone(),
            cells,
            knees,
        }
    }
}

/// What `handoff sweep --format json` prints.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SweepJson {
    /// The scenario's title.
    pub scenario: String,
    /// The swept settings and their values.
    pub settings: Vec<SettingJson>,
    /// The strategies.
    pub strategies: Vec<Strategy>,
    /// The measures, by id.
    pub measures: Vec<Measure>,
    /// A cell per run: `settings` (name to value), `strategy`, `at_rest`, then each measure's
    /// figure by its id (`null` where the run never got there).
    pub cells: Vec<Map<String, Json>>,
    /// For a sweep of one setting, the knee of each strategy's curve of each measure: the
    /// value, or `null` when the curve still improves by a tenth at its last value.
    pub knees: Vec<KneeJson>,
}

/// One swept setting in JSON.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SettingJson {
    /// Its name as given.
    pub setting: String,
    /// Its values, expanded.
    pub values: Vec<Value>,
    /// A geometric series, drawn on a logarithmic axis.
    pub logarithmic: bool,
}

/// Where one curve levels off, in JSON.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct KneeJson {
    /// The strategy.
    pub strategy: Strategy,
    /// The measure.
    pub measure: Measure,
    /// The value past which it improves by less than a tenth, if within the values.
    pub value: Option<Value>,
}
