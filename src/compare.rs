//! The same scenario, the same commands at the same times, under several strategies, with
//! their costs side by side (`handoff compare`, the playground's compare view).

use crate::history::{Run, RunError};
use crate::model::Scenario;
use crate::model::Strategy;
use crate::views::json::MetricsJson;
use crate::views::metrics::{figure, Measure, Metrics, MEASURES};
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

/// One cell of the comparison.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cell {
    /// The figure, or why there is none.
    pub text: String,
    /// The least of its column, when more than one strategy is compared.
    pub best: bool,
}

/// One strategy's row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// The strategy.
    pub strategy: Strategy,
    /// A cell per column.
    pub cells: Vec<Cell>,
}

/// The comparison's table: its columns' titles and a row per strategy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    /// The titles of the measures' columns (the strategy's own column comes before them).
    pub titles: Vec<&'static str>,
    /// A row per strategy, in the order given.
    pub rows: Vec<Row>,
}

impl Table {
    /// What the reader must know about the rows (see [`notes_for`]).
    pub fn notes(&self) -> Vec<String> {
        let strategies: Vec<Strategy> = self.rows.iter().map(|r| r.strategy).collect();
        notes_for(&strategies)
    }

    /// The table of each strategy's metrics, a column per row of [`MEASURES`] (the
    /// subtopology spread only when the scenario has a topology). A measure not reached reads
    /// "never" once its run is over (`ended`: the command line runs each to its end) and "not
    /// yet" while it can go on (the playground's clock). Every measure is a cost: a figure is
    /// the best of its column when no other row has a lower one, and more than one strategy
    /// is compared.
    pub fn of(runs: &[(Strategy, &Metrics)], ended: bool) -> Table {
        let topology = runs.iter().any(|(_, m)| !m.subtopology_balance.is_empty());
        let columns: Vec<&Measure> = MEASURES
            .iter()
            .filter(|m| topology || !m.topology_only)
            .collect();
        let least: Vec<Option<u64>> = columns
            .iter()
            .map(|c| runs.iter().filter_map(|(_, m)| c.read(m)).min())
            .collect();
        let rows = runs
            .iter()
            .map(|&(strategy, m)| Row {
                strategy,
                cells: columns
                    .iter()
                    .zip(&least)
                    .map(|(c, least)| {
                        let value = c.read(m);
                        Cell {
                            text: match value {
                                Some(_) => figure(value),
                                None if ended => "never".to_string(),
                                None => "not yet".to_string(),
                            },
                            best: runs.len() > 1 && value.is_some() && value == *least,
                        }
                    })
                    .collect(),
            })
            .collect();
        Table {
            titles: columns.iter().map(|c| c.column).collect(),
            rows,
        }
    }
}

/// The comparison's column headers and one row of cells per strategy, in the order asked:
/// what `handoff compare` prints and the report shows, each run to its end.
pub fn cells(c: &Comparison) -> (Vec<&'static str>, Vec<Vec<String>>) {
    let runs: Vec<(Strategy, &Metrics)> = c
        .outcomes
        .iter()
        .map(|o| (o.strategy, &o.metrics))
        .collect();
    let table = Table::of(&runs, true);
    let mut header = vec!["strategy"];
    header.extend(&table.titles);
    let rows = table
        .rows
        .into_iter()
        .map(|r| {
            let mut row = vec![r.strategy.name().to_string()];
            row.extend(r.cells.into_iter().map(|c| c.text));
            row
        })
        .collect();
    (header, rows)
}

/// What the table's reader must know about its rows: what the rebalances column counts under
/// Kafka's streams protocol, and which strategy Kafka has not released.
pub fn notes(c: &Comparison) -> Vec<String> {
    let strategies: Vec<Strategy> = c.outcomes.iter().map(|o| o.strategy).collect();
    notes_for(&strategies)
}

/// The notes of a table whose rows are these strategies, in their order.
pub fn notes_for(strategies: &[Strategy]) -> Vec<String> {
    let streams: Vec<&str> = strategies
        .iter()
        .filter(|s| s.streams_protocol())
        .map(|s| s.name())
        .collect();
    let mut notes = Vec::new();
    if !streams.is_empty() {
        notes.push(format!(
            "rebalances: group epochs under {} (Kafka's streams protocol has no rounds; each epoch is a new target assignment).",
            streams.join(" and ")
        ));
    }
    for s in strategies {
        if let Some(why) = s.caveat() {
            notes.push(format!("{}: {why}.", s.name()));
        }
    }
    notes
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presets::Preset;
    use crate::views::metrics::SubtopologyBalance;

    /// The metrics of one short run, to change field by field.
    fn metrics() -> Metrics {
        let scenario = Preset::find("scale-down-running")
            .expect("preset")
            .scenario()
            .expect("parses");
        let c = Comparison::run(&scenario, &[Strategy::Learner]).expect("runs");
        c.outcomes[0].metrics.clone()
    }

    fn column(t: &Table, title: &str) -> Vec<(String, bool)> {
        let i = t.titles.iter().position(|&c| c == title).expect("column");
        t.rows
            .iter()
            .map(|r| (r.cells[i].text.clone(), r.cells[i].best))
            .collect()
    }

    #[test]
    fn a_table_notes_the_streams_protocols_rebalances_and_the_unreleased_strategy() {
        let m = metrics();
        let classic = Table::of(&[(Strategy::Learner, &m), (Strategy::Kip441, &m)], false);
        assert!(classic.notes().is_empty());
        let table = Table::of(
            &[
                (Strategy::Learner, &m),
                (Strategy::Kip1071Warmup, &m),
                (Strategy::Kip1071, &m),
            ],
            false,
        );
        let notes = table.notes();
        assert_eq!(notes.len(), 2, "{notes:?}");
        assert!(notes[0].starts_with("rebalances: group epochs under kip1071-warmup and kip1071 "));
        assert_eq!(
            notes[1],
            "kip1071-warmup: Kafka trunk, not released: the refiner as proposed, not merged."
        );
        assert_eq!(
            notes,
            notes_for(&[
                Strategy::Learner,
                Strategy::Kip1071Warmup,
                Strategy::Kip1071
            ])
        );
    }

    #[test]
    fn the_least_figure_of_a_column_is_the_best_and_ties_share_it() {
        let mut a = metrics();
        let mut b = metrics();
        let mut c = metrics();
        (a.total_task_downtime_ms, b.total_task_downtime_ms) = (700, 300);
        c.total_task_downtime_ms = 300;
        (a.moves, b.moves, c.moves) = (1, 2, 3);
        let t = Table::of(
            &[
                (Strategy::Learner, &a),
                (Strategy::Eager, &b),
                (Strategy::Kip441, &c),
            ],
            false,
        );
        assert_eq!(
            column(&t, "total downtime ms"),
            [
                ("700".into(), false),
                ("300".into(), true),
                ("300".into(), true)
            ]
        );
        assert_eq!(
            column(&t, "moves"),
            [("1".into(), true), ("2".into(), false), ("3".into(), false)]
        );
        let alone = Table::of(&[(Strategy::Learner, &a)], false);
        assert!(
            alone.rows[0].cells.iter().all(|c| !c.best),
            "one strategy is the best of nothing"
        );
    }

    #[test]
    fn a_measure_not_reached_reads_never_at_the_end_and_not_yet_before_and_is_never_best() {
        let mut resting = metrics();
        resting.time_to_balance_ms = Some(9_000);
        let mut moving = metrics();
        moving.time_to_balance_ms = None;
        let runs = [(Strategy::Learner, &resting), (Strategy::Kip441, &moving)];
        let title = "time to balance ms";
        assert_eq!(
            column(&Table::of(&runs, true), title),
            [("9000".into(), true), ("never".into(), false)]
        );
        assert_eq!(
            column(&Table::of(&runs, false), title),
            [("9000".into(), true), ("not yet".into(), false)]
        );
    }

    #[test]
    fn a_topology_adds_the_spread_column() {
        let plain = metrics();
        assert_eq!(
            Table::of(&[(Strategy::Learner, &plain)], true).titles.len(),
            MEASURES.len() - 1
        );
        let mut spread = metrics();
        spread.subtopology_balance = vec![
            SubtopologyBalance {
                subtopology: 0,
                tasks: 8,
                min: 1,
                max: 4,
            },
            SubtopologyBalance {
                subtopology: 1,
                tasks: 8,
                min: 2,
                max: 3,
            },
        ];
        let t = Table::of(
            &[(Strategy::Learner, &spread), (Strategy::Eager, &plain)],
            true,
        );
        assert_eq!(
            column(&t, "subtopology spread"),
            [("3".into(), false), ("0".into(), true)],
            "the largest spread; none without subtopologies"
        );
    }
}
