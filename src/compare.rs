//! The same scenario, the same commands at the same times, under several strategies, with
//! their costs side by side (`handoff compare`, the playground's compare view).

use crate::engine::history::{Run, RunError};
use crate::metrics::Metrics;
use crate::model::Strategy;
use crate::scenario::Scenario;
use serde_json::{json, Value};
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

/// The scenario with its strategy replaced.
pub fn with_strategy(scenario: &Scenario, strategy: Strategy) -> Scenario {
    let mut s = scenario.clone();
    s.config.strategy = strategy;
    s
}

impl Comparison {
    /// Runs the scenario to its end under each strategy.
    pub fn run(scenario: &Scenario, strategies: &[Strategy]) -> Result<Comparison, RunError> {
        let mut outcomes = Vec::with_capacity(strategies.len());
        for &strategy in strategies {
            let mut run = Run::new(with_strategy(scenario, strategy));
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

/// The comparison as a Markdown table, one row per strategy.
pub fn table(c: &Comparison) -> String {
    let header = [
        "strategy",
        "total downtime ms",
        "longest outage ms",
        "worst task ms",
        "rebalances",
        "time to balance ms",
        "records replayed",
        "moves",
    ];
    let rows: Vec<[String; 8]> = c
        .outcomes
        .iter()
        .map(|o| {
            let m = &o.metrics;
            [
                o.strategy.name().to_string(),
                m.total_task_downtime_ms.to_string(),
                m.longest_outage_ms.to_string(),
                m.max_task_downtime_ms.to_string(),
                m.rebalances.to_string(),
                ms(m.time_to_balance_ms),
                m.records_replayed.to_string(),
                m.moves.to_string(),
            ]
        })
        .collect();
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
    line(header.to_vec(), &mut out);
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

/// The comparison as JSON: the scenario name and one entry per strategy.
pub fn to_json(c: &Comparison) -> Value {
    let rows: Vec<Value> = c
        .outcomes
        .iter()
        .map(|o| {
            let roster = o.run.engine().roster();
            let mut metrics = crate::report::metrics(roster, &o.metrics);
            if let Value::Object(map) = &mut metrics {
                map.insert("strategy".to_string(), Value::from(o.strategy.name()));
            }
            metrics
        })
        .collect();
    json!({ "scenario": c.name, "strategies": rows })
}
