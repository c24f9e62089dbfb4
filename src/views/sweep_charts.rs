//! The charts of a sweep, as plain data ([`SweepChart`]) drawn with plotters on any backend
//! (SVG for `handoff sweep --chart` and the report, the playground's canvas later) by the same
//! code: a measure over the swept setting with a line per strategy, a heatmap per strategy
//! when two settings are swept, and the trade-off between two measures with the best front
//! joined. Like [`super::charts`], text is placed without measuring it, so a chart's SVG is the
//! same wherever it is drawn.

use super::charts::{label_font, strategy_colour, sweep_title_font, Chart, Paper};
use super::metrics::Unit;
use super::units::{short_count, spoken_duration};
use crate::model::Strategy;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// A swept setting as an axis: its values in order, where each sits and how each reads.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepAxis {
    /// The setting's name, such as `num_standby_replicas`.
    pub setting: String,
    /// Each value as it reads under its tick.
    pub labels: Vec<String>,
    /// Where each value sits: the value, its log10 on a logarithmic axis, or its rank when
    /// the values are not all numbers.
    pub positions: Vec<f64>,
}

/// A strategy's figures of one measure, one per value of the swept setting; `None` where the
/// run never got there (not at rest within its horizon).
pub type Curve = (Strategy, Vec<Option<u64>>);

/// One run on a trade-off chart.
#[derive(Clone, Debug, PartialEq)]
pub struct TradePoint {
    /// Its strategy (the point's colour).
    pub strategy: Strategy,
    /// Its setting values, written beside it when it is on the best front.
    pub label: String,
    /// Its figure across.
    pub x: u64,
    /// Its figure up.
    pub y: u64,
}

/// A measure as one axis of a trade-off chart.
#[derive(Clone, Debug, PartialEq)]
pub struct TradeAxis {
    /// The measure in words.
    pub name: String,
    /// How its figures read.
    pub unit: Unit,
    /// Drawn on a logarithmic scale (its figures span more than a hundredfold).
    pub log: bool,
}

/// A chart of a sweep.
#[derive(Clone, Debug, PartialEq)]
pub enum SweepChart {
    /// One measure over one swept setting, a line per strategy.
    Lines {
        /// The title.
        title: String,
        /// How the measure reads.
        unit: Unit,
        /// The swept setting.
        axis: SweepAxis,
        /// One curve per strategy.
        curves: Vec<Curve>,
    },
    /// One measure of one strategy over two swept settings, a cell per pair of values.
    Heatmap {
        /// The title.
        title: String,
        /// How the measure reads.
        unit: Unit,
        /// The first setting, across.
        x: SweepAxis,
        /// The second setting, up.
        y: SweepAxis,
        /// The figures, a row per value of `y`, each a figure per value of `x`.
        cells: Vec<Vec<Option<u64>>>,
        /// The figures at the light and dark ends of the colour scale (shared by the heatmaps
        /// of one measure, so that they compare).
        scale: (u64, u64),
    },
    /// Two measures against each other, each run a point, the best front joined.
    TradeOff {
        /// The title.
        title: String,
        /// The measure across.
        x: TradeAxis,
        /// The measure up.
        y: TradeAxis,
        /// Every run with both figures.
        points: Vec<TradePoint>,
        /// The points no other point beats on both measures, in order across.
        front: Vec<usize>,
    },
}

/// A tick of an axis: where it sits and its label.
type Tick = (f64, String);

/// A drawing, or what the backend could not draw.
type Drawn<DB> = Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

impl SweepChart {
    /// Draws the chart on `area`, on `paper`.
    pub fn draw<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        paper: Paper,
    ) -> Drawn<DB> {
        match self {
            SweepChart::Lines {
                title,
                unit,
                axis,
                curves,
            } => draw_lines(area, paper, title, *unit, axis, curves),
            SweepChart::Heatmap {
                title,
                unit,
                x,
                y,
                cells,
                scale,
            } => draw_heatmap(area, paper, title, *unit, (x, y), cells, *scale),
            SweepChart::TradeOff {
                title,
                x,
                y,
                points,
                front,
            } => draw_trade_off(area, paper, title, (x, y), points, front),
        }
    }

    /// The chart as SVG text at a size, on light paper.
    pub fn svg(&self, size: (u32, u32)) -> Result<String, DrawingAreaErrorKind<std::io::Error>> {
        sheet(std::slice::from_ref(self), 1, size)
    }
}

/// Several charts on one SVG sheet, `columns` across, each `size` pixels.
pub fn sheet(
    charts: &[SweepChart],
    columns: usize,
    size: (u32, u32),
) -> Result<String, DrawingAreaErrorKind<std::io::Error>> {
    let columns = columns.clamp(1, charts.len().max(1));
    let rows = charts.len().div_ceil(columns).max(1);
    let mut text = String::new();
    {
        let whole = (size.0 * columns as u32, size.1 * rows as u32);
        let root = SVGBackend::with_string(&mut text, whole).into_drawing_area();
        root.fill(&Paper::LIGHT.background)?;
        for (chart, area) in charts.iter().zip(root.split_evenly((rows, columns))) {
            chart.draw(&area, Paper::LIGHT)?;
        }
        root.present()?;
    }
    Ok(text)
}

/// A figure of a measure as an axis or a cell reads it.
fn reading(unit: Unit, value: f64) -> String {
    match unit {
        Unit::Ms => spoken_duration(value),
        Unit::Count | Unit::Records => short_count(value),
    }
}

/// Round steps between ticks: durations step by seconds, minutes, hours and days as clocks
/// do; counts by 1, 2 and 5 times a power of ten.
fn tick_step(unit: Unit, top: f64, ticks: f64) -> f64 {
    const CLOCK: [f64; 26] = [
        1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0, 200.0, 500.0, 1e3, 2e3, 5e3, 1e4, 15e3, 3e4, 6e4,
        12e4, 3e5, 6e5, 9e5, 18e5, 36e5, 72e5, 108e5, 216e5, 432e5,
    ];
    let wanted = (top / ticks).max(1.0);
    if unit == Unit::Ms {
        if let Some(&step) = CLOCK.iter().find(|&&s| s >= wanted) {
            return step;
        }
        return 864e5 * decade_step(wanted / 864e5);
    }
    decade_step(wanted)
}

/// The smallest of 1, 2 and 5 times a power of ten at or above `x` (at least 1).
fn decade_step(x: f64) -> f64 {
    let power = 10f64.powf(x.max(1.0).log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * power)
        .find(|&s| s >= x)
        .unwrap_or(10.0 * power)
}

/// The top of a value axis holding `max`, on a tick, and its ticks with their labels.
fn value_ticks(unit: Unit, max: f64) -> (f64, Vec<Tick>) {
    let step = tick_step(unit, max.max(1.0) * 1.05, 6.0);
    let steps = (max.max(1.0) * 1.05 / step).ceil().max(1.0);
    let ticks = (0..=steps as u64)
        .map(|k| (k as f64 * step, reading(unit, k as f64 * step)))
        .collect();
    (steps * step, ticks)
}

/// Ticks of a logarithmic axis between `from` and `to` (log10 positions): durations at round
/// ones (a second, ten seconds, a minute, ten minutes, an hour, ...), other figures at the
/// powers of ten, and at twice and five times them when the axis spans under three of those.
fn log_ticks(unit: Unit, (from, to): (f64, f64)) -> Vec<Tick> {
    const CLOCK: [f64; 11] = [
        1.0, 10.0, 100.0, 1e3, 1e4, 6e4, 6e5, 36e5, 216e5, 864e5, 864e6,
    ];
    let within = |v: f64| (from..=to).contains(&v.log10());
    let steps: Vec<f64> = if unit == Unit::Ms {
        CLOCK.iter().copied().filter(|&v| within(v)).collect()
    } else {
        let thirds = if to - from < 3.0 {
            &[1.0, 2.0, 5.0][..]
        } else {
            &[1.0][..]
        };
        (from.floor() as i32..=to.ceil() as i32)
            .flat_map(|p| thirds.iter().map(move |m| m * 10f64.powi(p)))
            .filter(|&v| within(v))
            .collect()
    };
    steps
        .into_iter()
        .map(|v| (v.log10(), reading(unit, v)))
        .collect()
}

/// A legend in a row under the title: a short line of each colour and its name, placed by the
/// names' lengths (not by measuring text), so that it lands alike everywhere.
fn legend_row<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    paper: Paper,
    entries: &[(RGBColor, String)],
) -> Drawn<DB> {
    let style = label_font(paper).pos(Pos::new(HPos::Left, VPos::Center));
    let mut x = 64;
    for (colour, name) in entries {
        area.draw(&PathElement::new(
            vec![(x, 36), (x + 16, 36)],
            colour.stroke_width(4),
        ))?;
        area.draw(&Text::new(name.clone(), (x + 21, 36), style.clone()))?;
        x += 21 + (name.chars().count() as f64 * 6.5) as i32 + 18;
    }
    Ok(())
}

/// A chart on `paper` with a title across the top, `x` across and `y` up, `left` pixels of
/// labels on the left; no mesh (the caller draws its ticks with [`ticks`]).
fn start<'a, DB: DrawingBackend>(
    area: &'a DrawingArea<DB, Shift>,
    paper: Paper,
    title: &str,
    left: u32,
    (x, y): ((f64, f64), (f64, f64)),
) -> Result<Chart<'a, DB>, DrawingAreaErrorKind<DB::ErrorType>> {
    area.fill(&paper.background)?;
    let (width, _) = area.dim_in_pixel();
    let style = sweep_title_font(paper).pos(Pos::new(HPos::Center, VPos::Center));
    area.draw(&Text::new(title, (width as i32 / 2, 14), style))?;
    let mut chart = ChartBuilder::on(area)
        .margin(8)
        .margin_top(48)
        .margin_right(20)
        .x_label_area_size(40)
        .y_label_area_size(left)
        .build_cartesian_2d(x.0..x.1, y.0..y.1)?;
    chart
        .configure_mesh()
        .disable_mesh()
        .x_labels(0)
        .y_labels(0)
        .axis_style(paper.ink)
        .draw()?;
    Ok(chart)
}

/// Tick labels (and grid lines, with `grid`) at the given positions, the name of the axis
/// across under its labels.
fn ticks<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    chart: &mut Chart<'_, DB>,
    paper: Paper,
    (across, up): (&[Tick], &[Tick]),
    name: &str,
    grid: bool,
) -> Drawn<DB> {
    let (xs, ys) = {
        let (xs, ys) = chart.plotting_area().get_pixel_range();
        (xs, ys)
    };
    let (origin_x, origin_y) = area.get_base_pixel();
    let (x_range, y_range) = (chart.x_range(), chart.y_range());
    let below = label_font(paper).pos(Pos::new(HPos::Center, VPos::Top));
    let left = label_font(paper).pos(Pos::new(HPos::Right, VPos::Center));
    let every = across.len().div_ceil(12).max(1);
    for (i, (x, label)) in across.iter().enumerate() {
        if grid {
            chart.draw_series(std::iter::once(PathElement::new(
                vec![(*x, y_range.start), (*x, y_range.end)],
                paper.grid.stroke_width(1),
            )))?;
        }
        if i % every == 0 {
            let (px, _) = chart.backend_coord(&(*x, y_range.start));
            area.draw(&Text::new(
                label.clone(),
                (px - origin_x, ys.end - origin_y + 5),
                below.clone(),
            ))?;
        }
    }
    for (y, label) in up {
        if grid {
            chart.draw_series(std::iter::once(PathElement::new(
                vec![(x_range.start, *y), (x_range.end, *y)],
                paper.grid.stroke_width(1),
            )))?;
        }
        let (_, py) = chart.backend_coord(&(x_range.start, *y));
        area.draw(&Text::new(
            label.clone(),
            (xs.start - origin_x - 5, py - origin_y),
            left.clone(),
        ))?;
    }
    area.draw(&Text::new(
        name.to_string(),
        ((xs.start + xs.end) / 2 - origin_x, ys.end - origin_y + 22),
        below,
    ))?;
    Ok(())
}

/// The range of positions with a margin either side (a single value gets one either side).
fn padded(positions: &[f64]) -> (f64, f64) {
    let min = positions.iter().copied().fold(f64::INFINITY, f64::min);
    let max = positions.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !min.is_finite() || !max.is_finite() {
        return (0.0, 1.0);
    }
    let margin = if max > min { (max - min) * 0.06 } else { 1.0 };
    (min - margin, max + margin)
}

/// A measure over the swept setting: a line per strategy through its figures, a cross at the
/// top where a run never got there.
fn draw_lines<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    paper: Paper,
    title: &str,
    unit: Unit,
    axis: &SweepAxis,
    curves: &[Curve],
) -> Drawn<DB> {
    let max = curves
        .iter()
        .flat_map(|(_, c)| c.iter().flatten())
        .max()
        .copied()
        .unwrap_or(0) as f64;
    let (top, up) = value_ticks(unit, max);
    let x = padded(&axis.positions);
    let mut chart = start(area, paper, title, 60, (x, (0.0, top)))?;
    let across: Vec<Tick> = axis
        .positions
        .iter()
        .copied()
        .zip(axis.labels.iter().cloned())
        .collect();
    ticks(area, &mut chart, paper, (&across, &up), &axis.setting, true)?;
    let mut entries = Vec::new();
    for (i, (strategy, values)) in curves.iter().enumerate() {
        let colour = strategy_colour(*strategy);
        // Earlier strategies are drawn wider, so that equal lines show each other's colour.
        let width = 2 + (curves.len() - 1 - i) as u32;
        let points: Vec<Option<(f64, f64)>> = axis
            .positions
            .iter()
            .zip(values)
            .map(|(&x, v)| v.map(|v| (x, v as f64)))
            .collect();
        for pair in points.windows(2) {
            if let [Some(a), Some(b)] = pair {
                chart.draw_series(std::iter::once(PathElement::new(
                    vec![*a, *b],
                    colour.stroke_width(width),
                )))?;
            }
        }
        chart.draw_series(
            points
                .iter()
                .flatten()
                .map(|&p| Circle::new(p, width, colour.filled())),
        )?;
        chart.draw_series(
            axis.positions
                .iter()
                .zip(values)
                .filter(|(_, v)| v.is_none())
                .map(|(&x, _)| Cross::new((x, top), 6, colour.stroke_width(3))),
        )?;
        entries.push((colour, strategy.name().to_string()));
    }
    legend_row(area, paper, &entries)
}

/// The colour of a heatmap cell: from a pale blue at the low end of the scale to the
/// project's blue at the high end (one hue, so it reads in any colour vision), and whether its
/// text should be white.
fn heat(value: u64, (low, high): (u64, u64)) -> (RGBColor, bool) {
    let f = if high > low {
        (value.saturating_sub(low)) as f64 / (high - low) as f64
    } else {
        0.0
    };
    let (pale, deep) = ((0xEE, 0xF4, 0xFA), (0x08, 0x3D, 0x77));
    let mix = |a: u8, b: u8| (f64::from(a) + (f64::from(b) - f64::from(a)) * f).round() as u8;
    (
        RGBColor(
            mix(pale.0, deep.0),
            mix(pale.1, deep.1),
            mix(pale.2, deep.2),
        ),
        f > 0.5,
    )
}

/// One measure of one strategy over two settings: a cell per pair of values with its figure
/// written in it, grey where the run never got there.
fn draw_heatmap<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    paper: Paper,
    title: &str,
    unit: Unit,
    (x, y): (&SweepAxis, &SweepAxis),
    cells: &[Vec<Option<u64>>],
    scale: (u64, u64),
) -> Drawn<DB> {
    let (nx, ny) = (x.labels.len().max(1) as f64, y.labels.len().max(1) as f64);
    let mut chart = start(area, paper, title, 60, ((0.0, nx), (0.0, ny)))?;
    let at = |labels: &[String]| -> Vec<Tick> {
        (0..labels.len())
            .map(|i| (i as f64 + 0.5, labels[i].clone()))
            .collect()
    };
    let name = format!("{} across, {} up", x.setting, y.setting);
    ticks(
        area,
        &mut chart,
        paper,
        (&at(&x.labels), &at(&y.labels)),
        &name,
        false,
    )?;
    let centred = label_font(paper).pos(Pos::new(HPos::Center, VPos::Center));
    for (row, figures) in cells.iter().enumerate() {
        for (column, figure) in figures.iter().enumerate() {
            let (c, r) = (column as f64, row as f64);
            let (fill, light_text, text) = match figure {
                Some(v) => {
                    let (fill, light) = heat(*v, scale);
                    (fill, light, reading(unit, *v as f64))
                }
                None => (RGBColor(0xC8, 0xC8, 0xC8), false, "never".to_string()),
            };
            chart.draw_series(std::iter::once(Rectangle::new(
                [(c, r), (c + 1.0, r + 1.0)],
                fill.filled(),
            )))?;
            let ink = if light_text { WHITE } else { paper.ink };
            chart.draw_series(std::iter::once(Text::new(
                text,
                (c + 0.5, r + 0.5),
                centred.clone().color(&ink),
            )))?;
        }
    }
    Ok(())
}

/// Positions along a trade-off axis: the figure, or its log10 on a logarithmic axis.
fn trade_position(axis: &TradeAxis, v: u64) -> f64 {
    if axis.log {
        (v.max(1) as f64).log10()
    } else {
        v as f64
    }
}

/// The ticks and range of a trade-off axis holding `figures`.
fn trade_ticks(axis: &TradeAxis, figures: &[u64]) -> ((f64, f64), Vec<Tick>) {
    if axis.log {
        let positions: Vec<f64> = figures.iter().map(|&v| trade_position(axis, v)).collect();
        let (from, to) = padded(&positions);
        return ((from, to), log_ticks(axis.unit, (from, to)));
    }
    let (top, ticks) = value_ticks(axis.unit, figures.iter().copied().max().unwrap_or(0) as f64);
    ((0.0, top), ticks)
}

/// Two measures against each other: each run a point in its strategy's colour, the best front
/// joined by a line, its points labelled with their setting values.
fn draw_trade_off<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    paper: Paper,
    title: &str,
    (x, y): (&TradeAxis, &TradeAxis),
    points: &[TradePoint],
    front: &[usize],
) -> Drawn<DB> {
    let xs: Vec<u64> = points.iter().map(|p| p.x).collect();
    let ys: Vec<u64> = points.iter().map(|p| p.y).collect();
    let (x_range, across) = trade_ticks(x, &xs);
    let (y_range, up) = trade_ticks(y, &ys);
    let mut chart = start(area, paper, title, 60, (x_range, y_range))?;
    ticks(area, &mut chart, paper, (&across, &up), &x.name, true)?;
    let at = |p: &TradePoint| (trade_position(x, p.x), trade_position(y, p.y));
    let line: Vec<(f64, f64)> = front
        .iter()
        .filter_map(|&i| points.get(i))
        .map(at)
        .collect();
    chart.draw_series(std::iter::once(PathElement::new(
        line,
        paper.ink.stroke_width(2),
    )))?;
    for p in points {
        let colour = strategy_colour(p.strategy);
        chart.draw_series(std::iter::once(Circle::new(at(p), 5, colour.filled())))?;
    }
    let entries: Vec<(RGBColor, String)> = Strategy::ALL
        .iter()
        .filter(|s| points.iter().any(|p| p.strategy == **s))
        .map(|s| (strategy_colour(*s), s.name().to_string()))
        .collect();
    let beside = label_font(paper).pos(Pos::new(HPos::Left, VPos::Bottom));
    let (origin_x, origin_y) = area.get_base_pixel();
    // A label that would overlap one already written is left out (the table has every run).
    let mut taken: Vec<(i32, i32, i32)> = Vec::new();
    for p in front.iter().filter_map(|&i| points.get(i)) {
        let (px, py) = chart.backend_coord(&at(p));
        let (x, y) = (px - origin_x + 6, py - origin_y - 4);
        let width = (p.label.chars().count() as f64 * 6.5) as i32;
        if taken
            .iter()
            .any(|&(tx, ty, tw)| x < tx + tw && tx < x + width && (y - ty).abs() < 13)
        {
            continue;
        }
        taken.push((x, y, width));
        area.draw(&Text::new(p.label.clone(), (x, y), beside.clone()))?;
    }
    legend_row(area, paper, &entries)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A colour as the SVG backend writes it.
    fn hex(c: RGBColor) -> String {
        format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2)
    }

    fn axis(labels: &[&str], positions: &[f64]) -> SweepAxis {
        SweepAxis {
            setting: "num_standby_replicas".to_string(),
            labels: labels.iter().map(|l| l.to_string()).collect(),
            positions: positions.to_vec(),
        }
    }

    #[test]
    fn duration_ticks_step_as_clocks_do() {
        // Up to 12 hours and a bit: three-hour steps, the top on a tick.
        let (top, ticks) = value_ticks(Unit::Ms, 43_300_000.0);
        let labels: Vec<&str> = ticks.iter().map(|(_, l)| l.as_str()).collect();
        assert_eq!(labels, ["0", "3 h", "6 h", "9 h", "12 h", "15 h"]);
        assert_eq!(top, 15.0 * 3_600_000.0);
        let (_, ticks) = value_ticks(Unit::Ms, 190_000.0);
        let labels: Vec<&str> = ticks.iter().map(|(_, l)| l.as_str()).collect();
        assert_eq!(labels, ["0", "1 min", "2 min", "3 min", "4 min"]);
        let (_, ticks) = value_ticks(Unit::Ms, 20.0 * 86_400_000.0);
        assert_eq!(ticks[1].1, "5 d", "days step by 1, 2 and 5");
        let (_, ticks) = value_ticks(Unit::Count, 11.0);
        let labels: Vec<&str> = ticks.iter().map(|(_, l)| l.as_str()).collect();
        assert_eq!(labels, ["0", "2", "4", "6", "8", "10", "12"]);
        assert_eq!(log_ticks(Unit::Records, (2.9, 6.1)).len(), 4, "1k to 1M");
    }

    #[test]
    fn a_line_chart_draws_each_strategy_in_its_colour_and_marks_never() {
        let chart = SweepChart::Lines {
            title: "Total downtime".into(),
            unit: Unit::Ms,
            axis: axis(&["0", "1", "2"], &[0.0, 1.0, 2.0]),
            curves: vec![
                (
                    Strategy::Learner,
                    vec![Some(9_000), Some(3_000), Some(2_900)],
                ),
                (Strategy::Kip441, vec![Some(12_000), None, Some(4_000)]),
            ],
        };
        let text = chart.svg((480, 300)).expect("draws");
        for s in [Strategy::Learner, Strategy::Kip441] {
            assert!(text.contains(&hex(strategy_colour(s))), "{s}");
            assert!(text.contains(s.name()), "{s} in the legend");
        }
        assert!(text.contains("num_standby_replicas"), "the axis is named");
        assert!(
            text.contains(">\n10 s\n</text>") || text.contains("10 s"),
            "{text}"
        );
    }

    #[test]
    fn a_heatmap_writes_each_figure_and_never_in_its_cell() {
        let chart = SweepChart::Heatmap {
            title: "learner: moves".into(),
            unit: Unit::Count,
            x: axis(&["0", "1"], &[0.0, 1.0]),
            y: SweepAxis {
                setting: "restore_rate".into(),
                labels: vec!["10k".into(), "100k".into()],
                positions: vec![4.0, 5.0],
            },
            cells: vec![vec![Some(17), Some(23)], vec![None, Some(5)]],
            scale: (5, 23),
        };
        let text = chart.svg((400, 300)).expect("draws");
        for figure in ["17", "23", "never", "5", "100k"] {
            assert!(
                text.contains(&format!("\n{figure}\n</text>")),
                "{figure}: {text}"
            );
        }
        assert!(
            text.contains(&hex(heat(23, (5, 23)).0)),
            "the deepest colour"
        );
    }

    #[test]
    fn a_trade_off_joins_its_front_and_labels_it() {
        let point = |strategy, label: &str, x, y| TradePoint {
            strategy,
            label: label.into(),
            x,
            y,
        };
        let chart = SweepChart::TradeOff {
            title: "Downtime against records replayed".into(),
            x: TradeAxis {
                name: "records replayed".into(),
                unit: Unit::Records,
                log: true,
            },
            y: TradeAxis {
                name: "total downtime".into(),
                unit: Unit::Ms,
                log: false,
            },
            points: vec![
                point(Strategy::Learner, "standbys 0", 1_000, 9_000),
                point(Strategy::Learner, "standbys 1", 50_000, 1_000),
                point(Strategy::Eager, "standbys 2", 60_000, 8_000),
            ],
            front: vec![0, 1],
        };
        let text = chart.svg((480, 320)).expect("draws");
        assert!(text.contains("standbys 0") && text.contains("standbys 1"));
        assert!(!text.contains("standbys 2"), "off the front, unlabelled");
        assert!(text.contains("1k") && text.contains("10k"), "log ticks");
    }
}
