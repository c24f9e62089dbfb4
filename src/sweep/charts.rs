//! A sweep's charts as data for [`crate::views::sweep_charts`]: per measure a line per
//! strategy over the swept setting (one setting) or a heatmap per strategy (two), then the
//! trade-offs of total downtime against records replayed and against time to balance, with
//! the best (Pareto) front of the runs.

use super::{Sweep, Value, Values};
use crate::views::metrics::{Measure, Unit};
use crate::views::sweep_charts::{SweepAxis, SweepChart, TradeAxis, TradePoint};
use crate::views::units::{short_count, spoken_duration};

/// A chart with what a caption needs.
#[derive(Clone, Debug, PartialEq)]
pub struct Figure {
    /// A short id for file names and anchors: `total_downtime_ms`, `heatmap-learner-moves`.
    pub id: String,
    /// What it shows, in a sentence.
    pub caption: String,
    /// The chart.
    pub chart: SweepChart,
}

/// The indices of the points no other point beats on both figures (lower is better), in order
/// of the first figure; of equal points, the first.
pub fn pareto_front(points: &[(u64, u64)]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..points.len()).collect();
    order.sort_by_key(|&i| (points[i], i));
    let mut best_y = u64::MAX;
    let mut front = Vec::new();
    for i in order {
        if front.is_empty() || points[i].1 < best_y {
            best_y = points[i].1;
            front.push(i);
        }
    }
    front
}

/// A swept setting as an axis: numbers where they sit (their log10 for a geometric series),
/// durations (settings in ms) as people say them; anything else by rank.
fn axis(setting: &str, values: &Values) -> SweepAxis {
    let expanded = values.expand();
    let numbers: Option<Vec<i64>> = expanded.iter().map(Value::number).collect();
    let Some(numbers) = numbers else {
        return SweepAxis {
            setting: setting.to_string(),
            labels: expanded.iter().map(Value::to_string).collect(),
            positions: (0..expanded.len()).map(|i| i as f64).collect(),
        };
    };
    let duration = setting.ends_with("_ms");
    SweepAxis {
        setting: setting.to_string(),
        labels: numbers
            .iter()
            .map(|&n| {
                if duration {
                    spoken_duration(n as f64)
                } else {
                    short_count(n as f64)
                }
            })
            .collect(),
        positions: numbers
            .iter()
            .map(|&n| {
                if values.logarithmic() {
                    (n.max(1) as f64).log10()
                } else {
                    n as f64
                }
            })
            .collect(),
    }
}

impl Sweep {
    /// Every chart of the sweep, in reading order.
    pub fn charts(&self) -> Vec<Figure> {
        let mut figures = if self.question.settings.len() == 1 {
            self.line_charts()
        } else {
            self.heatmaps()
        };
        figures.extend(self.trade_offs());
        figures
    }

    fn line_charts(&self) -> Vec<Figure> {
        let axis0 = &self.question.settings[0];
        let log = if axis0.values.logarithmic() {
            " (a logarithmic axis)"
        } else {
            ""
        };
        self.question
            .measures
            .iter()
            .map(|m| Figure {
                id: m.id.to_string(),
                caption: format!(
                    "{} at each value of {}{log}, a line per strategy; a cross at the top marks a run that never came to rest.",
                    capitalised(m.name),
                    axis0.setting
                ),
                chart: SweepChart::Lines {
                    title: capitalised(m.name),
                    unit: m.unit,
                    axis: axis(&axis0.setting, &axis0.values),
                    curves: self
                        .question
                        .strategies
                        .iter()
                        .map(|&s| (s, self.curve(s, m, 0)))
                        .collect(),
                },
            })
            .collect()
    }

    fn heatmaps(&self) -> Vec<Figure> {
        let (a, b) = (&self.question.settings[0], &self.question.settings[1]);
        let rows = b.values.expand().len();
        let mut figures = Vec::new();
        for m in &self.question.measures {
            let all = self.cells.iter().filter_map(|c| c.figure(m));
            let scale = (all.clone().min().unwrap_or(0), all.max().unwrap_or(0));
            for &s in &self.question.strategies {
                let cells: Vec<Vec<Option<u64>>> = (0..rows).map(|r| self.curve(s, m, r)).collect();
                figures.push(Figure {
                    id: format!("heatmap-{}-{}", s.name(), m.id),
                    caption: format!(
                        "{}: {} at each pair of values, {} across and {} up; darker is more, on one scale for every strategy.",
                        s.name(),
                        m.name,
                        a.setting,
                        b.setting
                    ),
                    chart: SweepChart::Heatmap {
                        title: format!("{}: {}", s.name(), m.name),
                        unit: m.unit,
                        x: axis(&a.setting, &a.values),
                        y: axis(&b.setting, &b.values),
                        cells,
                        scale,
                    },
                });
            }
        }
        figures
    }

    /// Total downtime against records replayed, and against time to balance.
    fn trade_offs(&self) -> Vec<Figure> {
        let (Some(downtime), Some(replayed), Some(balance)) = (
            Measure::find("total_downtime_ms"),
            Measure::find("records_replayed"),
            Measure::find("time_to_balance_ms"),
        ) else {
            return Vec::new();
        };
        [replayed, balance]
            .iter()
            .map(|across| self.trade_off(&downtime, across))
            .collect()
    }

    fn trade_off(&self, up: &Measure, across: &Measure) -> Figure {
        let mut points = Vec::new();
        for c in &self.cells {
            if let (Some(x), Some(y)) = (c.figure(across), c.figure(up)) {
                let label: Vec<String> = c.values.iter().map(Value::to_string).collect();
                points.push(TradePoint {
                    strategy: c.strategy,
                    label: label.join(", "),
                    x,
                    y,
                });
            }
        }
        let pairs: Vec<(u64, u64)> = points.iter().map(|p| (p.x, p.y)).collect();
        let front = pareto_front(&pairs);
        let left_out = self.cells.len() - points.len();
        let xs = || points.iter().map(|p| p.x);
        let log = xs()
            .min()
            .is_some_and(|min| min > 0 && xs().max().unwrap_or(0) / min >= 100);
        let settings: Vec<&str> = self
            .question
            .settings
            .iter()
            .map(|a| a.setting.as_str())
            .collect();
        let mut caption = format!(
            "{} against {}: each run a point in its strategy's colour; the line joins the runs no other run beats on both, labelled with their {}.",
            capitalised(up.name),
            across.name,
            settings.join(" and ")
        );
        if left_out > 0 {
            caption.push_str(&format!(
                " {left_out} runs that never came to rest are left out."
            ));
        }
        Figure {
            id: format!("trade-off-{}", across.id),
            caption,
            chart: SweepChart::TradeOff {
                title: format!("{} against {}", capitalised(up.name), across.name),
                x: TradeAxis {
                    name: across.name.to_string(),
                    unit: across.unit,
                    log,
                },
                y: TradeAxis {
                    name: up.name.to_string(),
                    unit: Unit::Ms,
                    log: false,
                },
                points,
                front,
            },
        }
    }
}

/// A phrase with its first letter in capitals.
fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map_or(String::new(), |c| c.to_uppercase().chain(chars).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_front_keeps_the_points_nothing_beats_on_both() {
        // (x, y): 0 and 3 are beaten by 1 (both lower); 2 and 4 trade off with 1.
        let points = [
            (50, 900),
            (40, 500),
            (90, 100),
            (60, 600),
            (10, 800),
            (40, 500),
        ];
        assert_eq!(pareto_front(&points), [4, 1, 2], "across, first of equals");
        assert_eq!(pareto_front(&[]), Vec::<usize>::new());
        assert_eq!(pareto_front(&[(3, 3)]), [0]);
    }

    #[test]
    fn axes_place_numbers_durations_and_words() {
        let values: Values = "1e3..1e5x10".parse().expect("series");
        let a = axis("restore_rate", &values);
        assert_eq!(a.positions, [3.0, 4.0, 5.0]);
        assert_eq!(a.labels, ["1k", "10k", "100k"]);
        let a = axis(
            "session_timeout_ms",
            &"10000,45000,600000".parse().expect("list"),
        );
        assert_eq!(a.labels, ["10 s", "45 s", "10 min"]);
        assert_eq!(a.positions, [10_000.0, 45_000.0, 600_000.0]);
        let a = axis(
            "handoff",
            &"release_at_join,two_phase".parse().expect("words"),
        );
        assert_eq!(a.positions, [0.0, 1.0]);
        assert_eq!(a.labels, ["release_at_join", "two_phase"]);
    }
}
