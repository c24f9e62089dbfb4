//! The same scenario, the same commands at the same times, under several strategies, with
//! their costs side by side (`handoff compare`, the playground's compare view).

use crate::history::{Run, RunError};
use crate::model::Scenario;
use crate::model::Strategy;
use crate::views::json::MetricsJson;
use crate::views::metrics::Metrics;
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

fn ms(value: Option<u64>) -> String {
    value.map_or("never".to_string(), |v| v.to_string())
}

/// The comparison's column headers and one row of cells per strategy, in the order asked:
/// what `handoff compare` prints and the report shows. When the scenario has a topology, a
/// last column gives the largest per-subtopology spread at the end of each run.
pub fn cells(c: &Comparison) -> (Vec<&'static str>, Vec<Vec<String>>) {
    let mut header = vec![
        "strategy",
        "total downtime ms",
        "longest outage ms",
        "worst task ms",
        "rebalances",
        "time to balance ms",
        "records replayed",
        "moves",
    ];
    let topology = c
        .outcomes
        .iter()
        .any(|o| !o.metrics.subtopology_balance.is_empty());
    if topology {
        header.push("subtopology spread");
    }
    let rows = c
        .outcomes
        .iter()
        .map(|o| {
            let m = &o.metrics;
            let mut row = vec![
                o.strategy.name().to_string(),
                m.total_task_downtime_ms.to_string(),
                m.longest_outage_ms.to_string(),
                m.max_task_downtime_ms.to_string(),
                m.rebalances.to_string(),
                ms(m.time_to_balance_ms),
                m.records_replayed.to_string(),
                m.moves.to_string(),
            ];
            if topology {
                let worst = m.subtopology_balance.iter().map(|b| b.spread()).max();
                row.push(worst.unwrap_or(0).to_string());
            }
            row
        })
        .collect();
    (header, rows)
}

/// The comparison as a Markdown table, one row per strategy.
pub fn table(c: &Comparison) -> String {
    let (header, rows) = cells(c);
    let widths: Vec<usize> = (0..header.len())
        .map(|i| {
            rows.iter()
                .map(|r| r[i].len())
                .chain([header[i].len()])
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
                if i == 0 {
                    format!("{c:<w$}")
                } else {
                    format!("{c:>w$}")
                }
            })
            .collect();
        let _ = writeln!(out, "| {} |", padded.join(" | "));
    };
    line(header, &mut out);
    let rule: Vec<String> = widths
        .iter()
        .enumerate()
        .map(|(i, &w)| {
            if i == 0 {
                format!(":{}", "-".repeat(w - 1))
            } else {
                format!("{}:", "-".repeat(w - 1))
            }
        })
        .collect();
    let _ = writeln!(out, "| {} |", rule.join(" | "));
    for r in &rows {
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
