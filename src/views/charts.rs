//! The compare view's charts as plain data ([`ChartData`]: the series, the axis), drawn with
//! plotters on any backend (a canvas in the browser, SVG text for export and tests) and read
//! back under a pointer ([`ChartData::describe`]). Colours are Okabe-Ito; availability states
//! also differ in bar height, so they read without colour.

use crate::model::Strategy;
use crate::views::timeline::{Availability, LoadLine, TaskLine};
use plotters::coord::Shift;
use plotters::prelude::*;

/// Which chart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChartKind {
    /// Task downtime accumulated, every strategy.
    Cumulative,
    /// Per-task availability of one lane.
    Availability,
    /// Per-member load of one lane.
    Load,
}

impl ChartKind {
    /// A short id for file names and tests.
    pub fn id(self) -> &'static str {
        match self {
            ChartKind::Cumulative => "cumulative",
            ChartKind::Availability => "availability",
            ChartKind::Load => "load",
        }
    }

    /// What the chart shows, in words (its accessible name).
    pub fn label(self) -> &'static str {
        match self {
            ChartKind::Cumulative => "Task downtime accumulated over time, one line per strategy",
            ChartKind::Availability => {
                "Availability of each task over time: up, restoring or down, with learner replay shaded"
            }
            ChartKind::Load => "Active tasks per member over time",
        }
    }
}

/// A chart's data: its series up to some moment, and the time axis (0 to `end`).
#[derive(Clone, Debug, PartialEq)]
pub struct ChartData {
    /// The end of the time axis, in ms.
    pub end: u64,
    /// The series.
    pub series: Series,
}

/// The series of each kind of chart.
#[derive(Clone, Debug, PartialEq)]
pub enum Series {
    /// Downtime so far of each strategy: (time, ms) points.
    Cumulative(Vec<(Strategy, Vec<(u64, u64)>)>),
    /// Each task's availability in one lane.
    Availability {
        /// The title.
        title: String,
        /// One line per task drawn.
        lines: Vec<TaskLine>,
        /// Task names.
        names: Vec<String>,
    },
    /// Each member's active load in one lane.
    Load {
        /// The title.
        title: String,
        /// One line per member.
        lines: Vec<LoadLine>,
        /// Member names.
        names: Vec<String>,
    },
}

impl ChartData {
    /// Which chart this is.
    pub fn kind(&self) -> ChartKind {
        match self.series {
            Series::Cumulative(_) => ChartKind::Cumulative,
            Series::Availability { .. } => ChartKind::Availability,
            Series::Load { .. } => ChartKind::Load,
        }
    }

    /// Draws the chart, with a line at the clock if one is given.
    pub fn draw<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        clock: Option<u64>,
    ) -> Result<PlotMap> {
        match &self.series {
            Series::Cumulative(curves) => draw_cumulative(area, curves, self.end, clock),
            Series::Availability {
                title,
                lines,
                names,
            } => draw_availability(area, title, lines, names, self.end, clock),
            Series::Load {
                title,
                lines,
                names,
            } => draw_load(area, title, lines, names, self.end, clock),
        }
    }

    /// What a pointer at (time, value) points at, in words.
    pub fn describe(&self, time: f64, value: f64) -> String {
        let t = time.max(0.0) as u64;
        match &self.series {
            Series::Cumulative(curves) => {
                let mut lines = vec![format!("{t} ms")];
                for (strategy, curve) in curves {
                    lines.push(format!("{strategy}: {} ms down", at_time(curve, t)));
                }
                lines.join("\n")
            }
            Series::Availability { lines, names, .. } => {
                let row = lines.len().saturating_sub(value.ceil().max(1.0) as usize);
                let line = lines.get(row);
                let state = line.and_then(|l| l.spans.iter().find(|s| s.from <= t && t < s.to));
                let name = line
                    .and_then(|l| names.get(l.task.index()))
                    .cloned()
                    .unwrap_or_default();
                format!(
                    "{t} ms\n{name}: {}",
                    match state.map(|s| s.state) {
                        Some(Availability::Up) => "up",
                        Some(Availability::Restoring) => "restoring (down)",
                        Some(Availability::Down) => "down",
                        None => "-",
                    }
                )
            }
            Series::Load { lines, names, .. } => {
                let mut text = vec![format!("{t} ms")];
                for l in lines {
                    let v = l.steps.iter().rev().find(|s| s.0 <= t).map_or(0, |s| s.1);
                    let name = names.get(l.member.index()).map_or("", String::as_str);
                    text.push(format!("{name}: {v}"));
                }
                text.join("\n")
            }
        }
    }
}

/// A piecewise-linear curve's value at a moment.
fn at_time(curve: &[(u64, u64)], t: u64) -> u64 {
    let i = curve.partition_point(|p| p.0 <= t);
    match (i.checked_sub(1).and_then(|j| curve.get(j)), curve.get(i)) {
        (Some(&(t0, v0)), Some(&(t1, v1))) if t1 > t0 => v0 + (v1 - v0) * (t - t0) / (t1 - t0),
        (Some(&(_, v0)), _) => v0,
        _ => 0,
    }
}

/// Okabe-Ito colours.
pub mod palette {
    use plotters::style::RGBColor;
    /// Blue.
    pub const BLUE: RGBColor = RGBColor(0, 114, 178);
    /// Sky blue.
    pub const SKY: RGBColor = RGBColor(86, 180, 233);
    /// Bluish green.
    pub const GREEN: RGBColor = RGBColor(0, 158, 115);
    /// Orange.
    pub const ORANGE: RGBColor = RGBColor(230, 159, 0);
    /// Vermillion.
    pub const VERMILLION: RGBColor = RGBColor(213, 94, 0);
    /// Reddish purple.
    pub const PURPLE: RGBColor = RGBColor(204, 121, 167);
    /// Yellow.
    pub const YELLOW: RGBColor = RGBColor(240, 228, 66);
    /// Grey.
    pub const GREY: RGBColor = RGBColor(153, 153, 153);
    /// Black.
    pub const BLACK: RGBColor = RGBColor(0, 0, 0);
    /// Every colour, for cycling.
    pub const CYCLE: [RGBColor; 8] = [BLUE, ORANGE, GREEN, VERMILLION, PURPLE, SKY, YELLOW, GREY];
}

/// The colour of a strategy's line.
pub fn strategy_colour(s: Strategy) -> RGBColor {
    match s {
        Strategy::Learner => palette::BLUE,
        Strategy::Kip441 => palette::PURPLE,
        Strategy::Cooperative => palette::ORANGE,
        Strategy::Eager => palette::VERMILLION,
    }
}

/// Where the plot landed, to map a pointer back to data: pixels of the plotting area and
/// the data ranges they show.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlotMap {
    /// Left and right pixel of the plotting area.
    pub x_pixels: (i32, i32),
    /// Top and bottom pixel.
    pub y_pixels: (i32, i32),
    /// Time at the left and right edge, ms.
    pub time: (f64, f64),
    /// Value at the bottom and top edge.
    pub value: (f64, f64),
}

impl PlotMap {
    /// The (time, value) under a pixel, if it is inside the plot.
    pub fn at(&self, x: i32, y: i32) -> Option<(f64, f64)> {
        let (x0, x1) = self.x_pixels;
        let (y0, y1) = self.y_pixels;
        if x < x0 || x > x1 || y < y0 || y > y1 || x1 == x0 || y1 == y0 {
            return None;
        }
        let fx = (x - x0) as f64 / (x1 - x0) as f64;
        let fy = (y1 - y) as f64 / (y1 - y0) as f64;
        Some((
            self.time.0 + fx * (self.time.1 - self.time.0),
            self.value.0 + fy * (self.value.1 - self.value.0),
        ))
    }
}

type Result<T> = std::result::Result<T, String>;

fn err<E: std::fmt::Display>(e: E) -> String {
    e.to_string()
}

fn map_of<DB: DrawingBackend>(
    area: &DrawingArea<
        DB,
        plotters::coord::cartesian::Cartesian2d<
            plotters::coord::types::RangedCoordf64,
            plotters::coord::types::RangedCoordf64,
        >,
    >,
    time: (f64, f64),
    value: (f64, f64),
) -> PlotMap {
    let (xs, ys) = area.get_pixel_range();
    PlotMap {
        x_pixels: (xs.start, xs.end - 1),
        y_pixels: (ys.start, ys.end - 1),
        time,
        value,
    }
}

/// The charts' coordinates: time across, a value up.
type Chart<'a, DB> = ChartContext<
    'a,
    DB,
    plotters::coord::cartesian::Cartesian2d<
        plotters::coord::types::RangedCoordf64,
        plotters::coord::types::RangedCoordf64,
    >,
>;

/// A white chart with a title, time across (0 to `end`) and a value up (0 to `top`).
fn start<'a, DB: DrawingBackend + 'a>(
    area: &'a DrawingArea<DB, Shift>,
    title: &str,
    y_label_width: u32,
    (end, top): (f64, f64),
) -> Result<Chart<'a, DB>> {
    area.fill(&WHITE).map_err(err)?;
    ChartBuilder::on(area)
        .caption(title, ("sans-serif", 15))
        .margin(8)
        .x_label_area_size(26)
        .y_label_area_size(y_label_width)
        .build_cartesian_2d(0f64..end, 0f64..top)
        .map_err(err)
}

/// The line marking the clock (if given), and the mapping of the plot's pixels back to data.
fn finish<'a, DB: DrawingBackend + 'a>(
    chart: &mut Chart<'a, DB>,
    clock: Option<u64>,
    (end, top): (f64, f64),
    legend: Option<SeriesLabelPosition>,
) -> Result<PlotMap> {
    if let Some(clock) = clock {
        let c = (clock as f64).min(end);
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(c, 0.0), (c, top)],
                palette::BLACK.stroke_width(1),
            )))
            .map_err(err)?;
    }
    if let Some(position) = legend {
        chart
            .configure_series_labels()
            .position(position)
            .background_style(WHITE.mix(0.85))
            .border_style(palette::GREY)
            .label_font(("sans-serif", 11))
            .draw()
            .map_err(err)?;
    }
    Ok(map_of(chart.plotting_area(), (0.0, end), (0.0, top)))
}

fn seconds(ms: &f64) -> String {
    format!("{:.1}s", ms / 1000.0)
}

/// Each task's availability over time: up (thin), restoring (medium), down (full height),
/// learner replay shaded behind; a line at the clock.
pub fn draw_availability<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    title: &str,
    lines: &[TaskLine],
    names: &[String],
    end: u64,
    clock: Option<u64>,
) -> Result<PlotMap> {
    let rows = lines.len().max(1) as f64;
    let end = end.max(1) as f64;
    let mut chart = start(area, title, 44, (end, rows))?;
    chart
        .configure_mesh()
        .disable_y_mesh()
        .x_labels(6)
        .x_label_formatter(&seconds)
        .y_labels(0)
        .label_style(("sans-serif", 11))
        .draw()
        .map_err(err)?;
    // One label per row (the numeric axis would skip some), when rows are tall enough.
    let (_, ys) = chart.plotting_area().get_pixel_range();
    let row_pixels = (ys.end - ys.start) as f64 / rows;
    for (row, line) in lines.iter().enumerate() {
        let top = rows - row as f64;
        if row_pixels >= 9.0 {
            let (x, y) = chart.backend_coord(&(0.0, top - 0.5));
            let name = names.get(line.task.index()).cloned().unwrap_or_default();
            let style = TextStyle::from(("sans-serif", 11).into_font()).pos(
                plotters::style::text_anchor::Pos::new(
                    plotters::style::text_anchor::HPos::Right,
                    plotters::style::text_anchor::VPos::Center,
                ),
            );
            area.draw(&Text::new(name, (x - 4, y), style))
                .map_err(err)?;
        }
        for &(from, to) in &line.learning {
            chart
                .draw_series(std::iter::once(Rectangle::new(
                    [(from as f64, top - 0.05), (to as f64, top - 0.95)],
                    palette::PURPLE.mix(0.22).filled(),
                )))
                .map_err(err)?;
        }
        for span in &line.spans {
            let (height, colour) = match span.state {
                Availability::Up => (0.2, palette::SKY),
                Availability::Restoring => (0.55, palette::ORANGE),
                Availability::Down => (0.8, palette::VERMILLION),
            };
            let middle = top - 0.5;
            chart
                .draw_series(std::iter::once(Rectangle::new(
                    [
                        (span.from as f64, middle + height / 2.0),
                        (span.to as f64, middle - height / 2.0),
                    ],
                    colour.filled(),
                )))
                .map_err(err)?;
        }
    }
    finish(&mut chart, clock, (end, rows), None)
}

/// Active tasks per member over time, one step line per member.
pub fn draw_load<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    title: &str,
    lines: &[LoadLine],
    names: &[String],
    end: u64,
    clock: Option<u64>,
) -> Result<PlotMap> {
    let end = end.max(1) as f64;
    let top = lines
        .iter()
        .flat_map(|l| l.steps.iter().map(|s| s.1))
        .max()
        .unwrap_or(1)
        .max(1) as f64
        + 0.5;
    let mut chart = start(area, title, 36, (end, top))?;
    chart
        .configure_mesh()
        .x_labels(6)
        .x_label_formatter(&seconds)
        .y_desc("active tasks")
        .label_style(("sans-serif", 11))
        .draw()
        .map_err(err)?;
    for (i, line) in lines.iter().enumerate() {
        let colour = palette::CYCLE[i % palette::CYCLE.len()];
        let mut points = Vec::with_capacity(line.steps.len() * 2 + 1);
        for (j, &(t, v)) in line.steps.iter().enumerate() {
            if j > 0 {
                points.push((t as f64, line.steps[j - 1].1 as f64));
            }
            points.push((t as f64, v as f64));
        }
        if let Some(&(_, v)) = line.steps.last() {
            points.push((end, v as f64));
        }
        // Offset lines slightly so members with equal loads stay visible.
        let offset = (i as f64 - lines.len() as f64 / 2.0) * 0.03;
        let label = names.get(line.member.index()).cloned().unwrap_or_default();
        chart
            .draw_series(LineSeries::new(
                points.into_iter().map(|(t, v)| (t, v + offset)),
                colour.stroke_width(2),
            ))
            .map_err(err)?
            .label(label)
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 14, y)], colour.stroke_width(2))
            });
    }
    let legend = (lines.len() <= 12).then_some(SeriesLabelPosition::UpperRight);
    finish(&mut chart, clock, (end, top), legend)
}

/// Task downtime accumulated over time, one line per strategy.
pub fn draw_cumulative<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    curves: &[(Strategy, Vec<(u64, u64)>)],
    end: u64,
    clock: Option<u64>,
) -> Result<PlotMap> {
    let end = end.max(1) as f64;
    let top = curves
        .iter()
        .flat_map(|(_, c)| c.iter().map(|p| p.1))
        .max()
        .unwrap_or(1)
        .max(1) as f64
        * 1.08;
    let mut chart = start(area, "Task downtime so far", 52, (end, top))?;
    chart
        .configure_mesh()
        .x_labels(6)
        .x_label_formatter(&seconds)
        .y_label_formatter(&seconds)
        .label_style(("sans-serif", 11))
        .draw()
        .map_err(err)?;
    for (strategy, curve) in curves {
        let colour = strategy_colour(*strategy);
        let points = curve.iter().map(|&(t, v)| (t as f64, v as f64));
        chart
            .draw_series(LineSeries::new(points, colour.stroke_width(3)))
            .map_err(err)?
            .label(strategy.name())
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 14, y)], colour.stroke_width(3))
            });
    }
    finish(
        &mut chart,
        clock,
        (end, top),
        Some(SeriesLabelPosition::UpperLeft),
    )
}

/// Draws a chart into SVG text.
pub fn svg(
    size: (u32, u32),
    draw: impl FnOnce(&DrawingArea<SVGBackend<'_>, Shift>) -> Result<PlotMap>,
) -> Result<String> {
    let mut text = String::new();
    {
        let root = SVGBackend::with_string(&mut text, size).into_drawing_area();
        draw(&root)?;
        root.present().map_err(err)?;
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::Comparison;
    use crate::presets::Preset;
    use crate::views::timeline::{availability, cumulative_downtime, member_load};

    fn colour_hex(c: RGBColor) -> String {
        format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2)
    }

    #[test]
    fn the_availability_chart_draws_up_restoring_and_down() {
        let scenario = Preset::find("leader-transfer")
            .expect("preset")
            .scenario()
            .expect("parses");
        let c = Comparison::run(&scenario, &[Strategy::Learner]).expect("runs");
        let run = &c.outcomes[0].run;
        let until = run.frontier();
        let lines = availability(run, until);
        let names = run.engine().roster().tasks.clone();
        let text = svg((640, 300), |a| {
            draw_availability(a, "learner", &lines, &names, until, Some(until / 2))
        })
        .expect("draws");
        assert!(text.starts_with("<svg"));
        let upper = text.to_uppercase();
        for colour in [
            palette::SKY,
            palette::ORANGE,
            palette::VERMILLION,
            palette::PURPLE,
        ] {
            assert!(
                upper.contains(&colour_hex(colour)),
                "missing {}",
                colour_hex(colour)
            );
        }
        std::fs::write(std::env::temp_dir().join("handoff-availability.svg"), &text).ok();
        assert!(text.contains("\nT5\n</text>"), "task labels");
    }

    #[test]
    fn the_cumulative_chart_has_one_line_per_strategy_and_maps_pixels_back() {
        let scenario = Preset::find("scale-down-running")
            .expect("preset")
            .scenario()
            .expect("parses");
        let c = Comparison::run(&scenario, &[Strategy::Learner, Strategy::Eager]).expect("runs");
        let until = c
            .outcomes
            .iter()
            .map(|o| o.run.frontier())
            .max()
            .unwrap_or(1);
        let curves: Vec<_> = c
            .outcomes
            .iter()
            .map(|o| (o.strategy, cumulative_downtime(&o.run, until)))
            .collect();
        let mut map = None;
        let text = svg((640, 300), |a| {
            let m = draw_cumulative(a, &curves, until, Some(0))?;
            map = Some(m);
            Ok(m)
        })
        .expect("draws");
        for s in [Strategy::Learner, Strategy::Eager] {
            let stroke = format!("stroke=\"{}\"", colour_hex(strategy_colour(s)));
            assert_eq!(
                text.matches(&stroke).count(),
                2,
                "{s}: its line and its legend mark"
            );
        }
        let map = map.expect("mapped");
        let (t, _) = map.at(map.x_pixels.1, map.y_pixels.1).expect("inside");
        assert!((t - until as f64).abs() < until as f64 * 0.01);
        assert_eq!(map.at(0, 0), None);
    }

    #[test]
    fn the_load_chart_draws_a_line_per_member() {
        let scenario = Preset::find("scale-up-running")
            .expect("preset")
            .scenario()
            .expect("parses");
        let c = Comparison::run(&scenario, &[Strategy::Cooperative]).expect("runs");
        let run = &c.outcomes[0].run;
        let lines = member_load(run, run.frontier());
        let names = run.engine().roster().members.clone();
        let text = svg((640, 300), |a| {
            draw_load(a, "load", &lines, &names, run.frontier(), None)
        })
        .expect("draws");
        for colour in &palette::CYCLE[..5] {
            let stroke = format!("stroke=\"{}\"", colour_hex(*colour));
            assert!(
                text.matches(&stroke).count() >= 2,
                "a line and a legend mark in {}",
                colour_hex(*colour)
            );
        }
    }
}
