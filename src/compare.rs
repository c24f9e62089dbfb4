//! The same scenario, the same commands at the same times, under several strategies, with
//! their costs side by side (`handoff compare`, the playground's compare view).

use crate::history::{Run, RunError};
use crate::model::Scenario;
use crate::model::Strategy;
use crate::views::json::MetricsJson;
use crate::views::metrics::{Measure, Metrics, MEASURES};
use serde::Serialize;
use std::fmt::Write;

/// One strategy's run.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The strategy.
    pub strategy: Strategy,
    /// Its whole history.
    pub run: Run,
    /// Its measures at the end.
    pub metrics: Metrics,
}

/// The runs of one scenario under several strategies.
#[derive(Clone, Debug)]
pub struct Comparison {
    /// The scenario's title.
    pub name: String,
    /// One outcome per strategy, in the order asked.
    pub outcomes: Vec<Outcome>,
}

impl Comparison {
    /// Runs the scenario to its end under each strategy.
    pub fn run(scenario: &Scenario, strategies: &[Strategy]) -> Result<Comparison, RunError> {
        let mut outcomes = Vec::with_capacity(strategies.len());
        for &strategy in strategies {
            let mut run = Run::new(scenario.with_strategy(strategy));
            run.run_to_end()?;
            let metrics = Metrics::of(run.engine());
            outcomes.push(Outcome {
                strategy,
                run,
                metrics,
            });
        }
        Ok(Comparison {
            name: scenario.name.clone(),
            outcomes,
        })
    }
}

/// The comparison's column headers and one row of cells per strategy, in the order asked:
/// what `handoff compare` prints and the report shows, a column per row of [`MEASURES`]. The
/// subtopology spread (the largest per-subtopology spread at the end of each run) is shown
/// only when the scenario has a topology.
pub fn cells(c: &Comparison) -> (Vec<&'static str>, Vec<Vec<String>>) {
    let topology = c
        .outcomes
        .iter()
        .any(|o| !o.metrics.subtopology_balance.is_empty());
    let shown: Vec<&Measure> = MEASURES
        .iter()
        .filter(|m| topology || !m.topology_only)
        .collect();
    let header = std::iter::once("strategy")
        .chain(shown.iter().map(|m| m.column))
        .collect();
    let rows = c
        .outcomes
        .iter()
        .map(|o| {
            std::iter::once(o.strategy.name().to_string())
                .chain(shown.iter().map(|m| m.cell(&o.metrics)))
                .collect()
        })
        .collect();
    (header, rows)
}

/// The comparison as a Markdown table, one row per strategy.
pub fn table(c: &Comparison) -> String {
    let (header, rows) = cells(c);
    markdown(&header, &rows, 1)
}

/// A Markdown table with its columns padded: the first `labels` columns read as labels (to the
/// left), the others as figures (to the right).
pub fn markdown<H: AsRef<str>>(header: &[H], rows: &[Vec<String>], labels: usize) -> String {
    let widths: Vec<usize> = (0..header.len())
        .map(|i| {
            rows.iter()
                .map(|r| r[i].len())
                .chain([header[i].as_ref().len()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    let line = |cells: Vec<&str>, out: &mut String| {
        let padded: Vec<String> = cells
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(i, (c, &w))| {
                if i < labels {
                    format!("{c:<w$}")
                } else {
                    format!("{c:>w$}")
                }
            })
            .collect();
        let _ = writeln!(out, "| {} |", padded.join(" | "));
    };
    line(header.iter().map(AsRef::as_ref).collect(), &mut out);
    let rule: Vec<String> = widths
        .iter()
        .enumerate()
        .map(|(i, &w)| {
            if i < labels {
                format!(":{}", "-".repeat(w - 1))
            } else {
                format!("{}:", "-".repeat(w - 1))
            }
        })
        .collect();
    let _ = writeln!(out, "| {} |", rule.join(" | "));
    for r in rows {
        line(r.iter().map(String::as_str).collect(), &mut out);
    }
    out
}

/// One strategy's row of the comparison as JSON: its metrics, then its name.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StrategyJson {
    /// The metrics at the end of its run.
    #[serde(flatten)]
    pub metrics: MetricsJson,
    /// The strategy.
    pub strategy: Strategy,
}

/// What `handoff compare --format json` prints: the scenario name and one row per strategy.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ComparisonJson {
    /// The scenario's title.
    pub scenario: String,
    /// One row per strategy, in the order asked.
    pub strategies: Vec<StrategyJson>,
}

impl ComparisonJson {
    /// Names a comparison.
    pub fn of(c: &Comparison) -> ComparisonJson {
        ComparisonJson {
            scenario: c.name.clone(),
            strategies: c
                .outcomes
                .iter()
                .map(|o| StrategyJson {
                    metrics: MetricsJson::of(o.run.engine().roster(), &o.metrics),
                    strategy: o.strategy,
                })
                .collect(),
        }
    }
}
