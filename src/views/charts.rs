//! The charts as plain data ([`ChartData`]: the series, the axis), drawn with plotters on any
//! backend (the compare view's canvas in the browser, SVG text for the report, exports and
//! tests) by the same code, and read back under a pointer ([`ChartData::describe`]).
//! Colours are Okabe-Ito; availability states also differ in bar height, so they read
//! without colour. Titles and legends are placed without measuring text, so a chart's SVG is
//! the same natively and in the browser, whatever fonts it has.

use crate::model::Strategy;
use crate::views::series::{Availability, LoadLine, TaskLine};
use crate::views::units::TimeAxis;
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::rc::Rc;

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
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ChartData {
    /// The end of the time axis, in ms.
    pub end: u64,
    /// The series.
    pub series: Series,
}

/// The series of each kind of chart.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Series {
    /// Downtime so far of each strategy: (time, ms) points.
    Cumulative(Vec<(Strategy, Vec<(u64, u64)>)>),
    /// Each task's availability in one lane.
    Availability {
        /// The title.
        title: String,
        /// One line per task drawn.
        lines: Vec<TaskLine>,
        /// Task names (shared with the roster). Not serialized: whoever reads the chart back
        /// names its lines from its own table of tasks.
        #[serde(skip)]
        names: Rc<[Rc<str>]>,
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

    /// Draws the chart on `area`, on `paper`, with a line at the clock if one is given;
    /// returns how its pixels map back to data.
    pub fn draw<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        paper: Paper,
        clock: Option<u64>,
    ) -> Drawn<DB> {
        let end = self.end.max(1) as f64;
        match &self.series {
            Series::Cumulative(curves) => draw_cumulative(area, paper, curves, end, clock),
            Series::Availability {
                title,
                lines,
                names,
            } => draw_availability(area, paper, title, lines, names, end, clock),
            Series::Load {
                title,
                lines,
                names,
            } => draw_load(area, paper, title, lines, names, end, clock),
        }
    }

    /// The chart as SVG text at a size, on light paper (as exported and printed).
    pub fn svg(
        &self,
        size: (u32, u32),
        clock: Option<u64>,
    ) -> Result<String, DrawingAreaErrorKind<std::io::Error>> {
        let mut text = String::new();
        {
            let root = SVGBackend::with_string(&mut text, size).into_drawing_area();
            self.draw(&root, Paper::LIGHT, clock)?;
            root.present()?;
        }
        Ok(text)
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
                    .map_or("", |n| n);
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
    pub const BLUE: RGBColor = RGBColor(0x00, 0x72, 0xB2);
    /// Sky blue.
    pub const SKY: RGBColor = RGBColor(0x56, 0xB4, 0xE9);
    /// Bluish green.
    pub const GREEN: RGBColor = RGBColor(0x00, 0x9E, 0x73);
    /// Orange.
    pub const ORANGE: RGBColor = RGBColor(0xE6, 0x9F, 0x00);
    /// Vermillion.
    pub const VERMILLION: RGBColor = RGBColor(0xD5, 0x5E, 0x00);
    /// Reddish purple.
    pub const PURPLE: RGBColor = RGBColor(0xCC, 0x79, 0xA7);
    /// Yellow.
    pub const YELLOW: RGBColor = RGBColor(0xF0, 0xE4, 0x42);
    /// Grey.
    pub const GREY: RGBColor = RGBColor(0x99, 0x99, 0x99);
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
        Strategy::Kip1071 => palette::GREEN,
        Strategy::Kip1071Warmup => palette::SKY,
    }
}

/// What a chart is drawn on: the paper, the text and axes, and the grid (the data's colours
/// read on both themes and stay).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Paper {
    /// The background.
    pub background: RGBColor,
    /// Text, axes and the clock's line.
    pub ink: RGBColor,
    /// The grid.
    pub grid: RGBColor,
}

impl Paper {
    /// White paper: exports, the report, the light theme.
    pub const LIGHT: Paper = Paper {
        background: RGBColor(0xFF, 0xFF, 0xFF),
        ink: RGBColor(0x00, 0x00, 0x00),
        grid: RGBColor(0xE4, 0xE4, 0xE8),
    };
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

/// A drawn chart's map back to data, or what the backend could not draw.
pub type Drawn<DB> = Result<PlotMap, DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

/// The charts' coordinates: time across (ms), a value up.
pub(super) type Chart<'a, DB> = ChartContext<'a, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// The most steps a chart's time axis takes.
const TIME_STEPS: usize = 8;

/// Draws the grid lines, ticks and labels of a time axis at round steps in one unit (`90 s`,
/// `12 min`, `5 h`): along time (`across`) or up a value measured in time. Plotters' own
/// labels fall on round numbers of ms, which read as `80000s` over a long run.
fn time_ticks<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    chart: &mut Chart<'_, DB>,
    paper: Paper,
    axis: &TimeAxis,
    across: bool,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let (xs, ys) = chart.plotting_area().get_pixel_range();
    let (x_range, y_range) = (chart.x_range(), chart.y_range());
    let line = |t: f64| {
        if across {
            vec![(t, y_range.start), (t, y_range.end)]
        } else {
            vec![(x_range.start, t), (x_range.end, t)]
        }
    };
    chart.draw_series(
        axis.ticks
            .iter()
            .map(|&t| PathElement::new(line(t), paper.grid.stroke_width(1))),
    )?;
    let (origin_x, origin_y) = area.get_base_pixel();
    let anchor = if across {
        Pos::new(HPos::Center, VPos::Top)
    } else {
        Pos::new(HPos::Right, VPos::Center)
    };
    let style = label_font(paper).pos(anchor);
    for &t in &axis.ticks {
        let (x, y) = if across {
            (chart.backend_coord(&(t, y_range.start)).0, ys.end - 1)
        } else {
            (xs.start, chart.backend_coord(&(x_range.start, t)).1)
        };
        let (x, y) = (x - origin_x, y - origin_y);
        let (tick, at) = if across {
            ([(x, y), (x, y + 5)], (x, y + 8))
        } else {
            ([(x - 5, y), (x, y)], (x - 8, y))
        };
        area.draw(&PathElement::new(tick.to_vec(), paper.ink.stroke_width(1)))?;
        area.draw(&Text::new(axis.label(t), at, style.clone()))?;
    }
    Ok(())
}

/// The labels' font.
pub(super) fn label_font(paper: Paper) -> TextStyle<'static> {
    ("sans-serif", 12).into_font().color(&paper.ink)
}

/// The titles' font.
fn title_font(paper: Paper) -> TextStyle<'static> {
    ("sans-serif", 16).into_font().color(&paper.ink)
}

/// The sweep charts' titles' font.
pub(super) fn sweep_title_font(paper: Paper) -> TextStyle<'static> {
    ("sans-serif", 15).into_font().color(&paper.ink)
}

/// Writes a figure in each font of the charts (these and the sweep's) on `area`: the first
/// text a page writes in a font on a canvas loads that font (tens of milliseconds without a
/// GPU), which the page can then do in a task of its own rather than in the one that draws
/// the first chart.
pub fn load_fonts<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let fonts = [
        title_font(Paper::LIGHT),
        label_font(Paper::LIGHT),
        sweep_title_font(Paper::LIGHT),
    ];
    for style in fonts {
        area.draw(&Text::new("0", (0, 0), style))?;
    }
    Ok(())
}

/// A chart on `paper` with a title across the top, time across (0 to `end`) and a value up
/// (0 to `top`), `y_labels` pixels of labels on the left.
fn start<'a, DB: DrawingBackend>(
    area: &'a DrawingArea<DB, Shift>,
    paper: Paper,
    title: &str,
    y_labels: u32,
    (end, top): (f64, f64),
) -> Result<Chart<'a, DB>, DrawingAreaErrorKind<DB::ErrorType>> {
    area.fill(&paper.background)?;
    let (width, _) = area.dim_in_pixel();
    let style = title_font(paper).pos(Pos::new(HPos::Center, VPos::Center));
    area.draw(&Text::new(title, (width as i32 / 2, 14), style))?;
    ChartBuilder::on(area)
        .margin(8)
        .margin_top(30)
        .margin_right(28)
        .x_label_area_size(26)
        .y_label_area_size(y_labels)
        .build_cartesian_2d(0f64..end, 0f64..top)
}

/// The line at the clock (if given), and the map of the plot's pixels back to data.
fn finish<DB: DrawingBackend>(
    chart: &mut Chart<'_, DB>,
    paper: Paper,
    clock: Option<u64>,
    (end, top): (f64, f64),
) -> Drawn<DB> {
    if let Some(clock) = clock {
        let c = (clock as f64).min(end);
        chart.draw_series(std::iter::once(PathElement::new(
            vec![(c, 0.0), (c, top)],
            paper.ink.stroke_width(1),
        )))?;
    }
    let (xs, ys) = chart.plotting_area().get_pixel_range();
    Ok(PlotMap {
        x_pixels: (xs.start, xs.end - 1),
        y_pixels: (ys.start, ys.end - 1),
        time: (0.0, end),
        value: (0.0, top),
    })
}

/// A legend in a box at the plot's top left or right: a short line of each colour and its
/// name. Sized by the names' lengths, not by measuring text, so it lands alike everywhere.
pub(super) fn legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    chart: &Chart<'_, DB>,
    paper: Paper,
    entries: &[(RGBColor, String)],
    right: bool,
    width: u32,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let (xs, ys) = chart.plotting_area().get_pixel_range();
    let (origin_x, origin_y) = area.get_base_pixel();
    let longest = entries.iter().map(|(_, n)| n.chars().count()).max();
    let box_w = 34 + (longest.unwrap_or(0) as f64 * 6.5) as i32;
    let x = if right {
        xs.end - origin_x - box_w - 6
    } else {
        xs.start - origin_x + 6
    };
    let y = ys.start - origin_y + 4;
    let box_h = entries.len() as i32 * 15 + 6;
    area.draw(&Rectangle::new(
        [(x, y), (x + box_w, y + box_h)],
        paper.background.mix(0.85).filled(),
    ))?;
    let style = label_font(paper).pos(Pos::new(HPos::Left, VPos::Center));
    for (i, (colour, name)) in entries.iter().enumerate() {
        let ly = y + 10 + i as i32 * 15;
        area.draw(&PathElement::new(
            vec![(x + 6, ly), (x + 20, ly)],
            colour.stroke_width(width),
        ))?;
        area.draw(&Text::new(name.as_str(), (x + 26, ly), style.clone()))?;
    }
    Ok(())
}

/// Each task's availability over time: up (thin), restoring (medium), down (full height),
/// learner replay shaded behind; a line at the clock.
fn draw_availability<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    paper: Paper,
    title: &str,
    lines: &[TaskLine],
    names: &[Rc<str>],
    end: f64,
    clock: Option<u64>,
) -> Drawn<DB> {
    let rows = lines.len().max(1) as f64;
    let mut chart = start(area, paper, title, 44, (end, rows))?;
    chart
        .configure_mesh()
        .disable_mesh()
        .x_labels(0)
        .y_labels(0)
        .axis_style(paper.ink)
        .draw()?;
    time_ticks(
        area,
        &mut chart,
        paper,
        &TimeAxis::of(end, TIME_STEPS),
        true,
    )?;
    // One label per row (a numeric axis would skip some), when rows are tall enough.
    let (_, ys) = chart.plotting_area().get_pixel_range();
    let row_pixels = f64::from(ys.end - ys.start) / rows;
    let (origin_x, origin_y) = area.get_base_pixel();
    let label = label_font(paper).pos(Pos::new(HPos::Right, VPos::Center));
    for (row, line) in lines.iter().enumerate() {
        let top = rows - row as f64;
        if row_pixels >= 9.0 {
            let (x, y) = chart.backend_coord(&(0.0, top - 0.5));
            let name = names.get(line.task.index()).map_or("", |n| n);
            area.draw(&Text::new(
                name,
                (x - origin_x - 4, y - origin_y),
                label.clone(),
            ))?;
        }
        chart.draw_series(line.learning.iter().map(|&(from, to)| {
            Rectangle::new(
                [(from as f64, top - 0.05), (to as f64, top - 0.95)],
                palette::PURPLE.mix(0.22).filled(),
            )
        }))?;
        chart.draw_series(line.spans.iter().map(|span| {
            let (height, colour) = match span.state {
                Availability::Up => (0.2, palette::SKY),
                Availability::Restoring => (0.55, palette::ORANGE),
                Availability::Down => (0.8, palette::VERMILLION),
            };
            let middle = top - 0.5;
            Rectangle::new(
                [
                    (span.from as f64, middle + height / 2.0),
                    (span.to as f64, middle - height / 2.0),
                ],
                colour.filled(),
            )
        }))?;
    }
    finish(&mut chart, paper, clock, (end, rows))
}

/// Active tasks per member over time, one step line per member.
fn draw_load<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    paper: Paper,
    title: &str,
    lines: &[LoadLine],
    names: &[String],
    end: f64,
    clock: Option<u64>,
) -> Drawn<DB> {
    let top = lines
        .iter()
        .flat_map(|l| l.steps.iter().map(|s| s.1))
        .max()
        .unwrap_or(1)
        .max(1) as f64
        + 0.5;
    let mut chart = start(area, paper, title, 36, (end, top))?;
    let whole = |v: &f64| format!("{v:.0}");
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(0)
        .y_labels((top as usize + 1).min(9))
        .y_label_formatter(&whole)
        .label_style(label_font(paper))
        .axis_style(paper.ink)
        .bold_line_style(paper.grid)
        .light_line_style(TRANSPARENT)
        .draw()?;
    time_ticks(
        area,
        &mut chart,
        paper,
        &TimeAxis::of(end, TIME_STEPS),
        true,
    )?;
    let mut entries = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let colour = palette::CYCLE[i % palette::CYCLE.len()];
        // Members with equal loads are offset a little so that every line shows.
        let offset = (i as f64 - lines.len() as f64 / 2.0) * 0.03;
        let mut points = Vec::with_capacity(line.steps.len() * 2 + 1);
        for (j, &(t, v)) in line.steps.iter().enumerate() {
            if j > 0 {
                points.push((t as f64, line.steps[j - 1].1 as f64 + offset));
            }
            points.push((t as f64, v as f64 + offset));
        }
        if let Some(&(_, v)) = line.steps.last() {
            points.push((end, v as f64 + offset));
        }
        chart.draw_series(LineSeries::new(points, colour.stroke_width(2)))?;
        let name = names.get(line.member.index()).cloned().unwrap_or_default();
        entries.push((colour, name));
    }
    if lines.len() <= 12 {
        legend(area, &chart, paper, &entries, true, 2)?;
    }
    finish(&mut chart, paper, clock, (end, top))
}

/// Task downtime accumulated over time, one line per strategy.
fn draw_cumulative<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    paper: Paper,
    curves: &[(Strategy, Vec<(u64, u64)>)],
    end: f64,
    clock: Option<u64>,
) -> Drawn<DB> {
    let top = curves
        .iter()
        .flat_map(|(_, c)| c.iter().map(|p| p.1))
        .max()
        .unwrap_or(1)
        .max(1) as f64
        * 1.08;
    // At least a second up the axis, so that a run with little downtime reads in whole steps.
    let top = top.max(1_000.0);
    let mut chart = start(area, paper, "Task downtime so far", 52, (end, top))?;
    chart
        .configure_mesh()
        .disable_mesh()
        .x_labels(0)
        .y_labels(0)
        .axis_style(paper.ink)
        .draw()?;
    time_ticks(
        area,
        &mut chart,
        paper,
        &TimeAxis::of(end, TIME_STEPS),
        true,
    )?;
    time_ticks(
        area,
        &mut chart,
        paper,
        &TimeAxis::of(top, TIME_STEPS),
        false,
    )?;
    let mut entries = Vec::new();
    for (strategy, curve) in curves {
        let colour = strategy_colour(*strategy);
        let points = curve.iter().map(|&(t, v)| (t as f64, v as f64));
        chart.draw_series(LineSeries::new(points, colour.stroke_width(3)))?;
        entries.push((colour, strategy.name().to_string()));
    }
    legend(area, &chart, paper, &entries, false, 3)?;
    finish(&mut chart, paper, clock, (end, top))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::Comparison;
    use crate::presets::Preset;
    use crate::views::series::{availability, cumulative_downtime, member_load};

    /// A colour as the SVG backend writes it.
    fn hex(c: RGBColor) -> String {
        format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2)
    }

    fn comparison(preset: &str, strategies: &[Strategy]) -> Comparison {
        let scenario = Preset::find(preset)
            .expect("preset")
            .scenario()
            .expect("parses");
        Comparison::run(&scenario, strategies).expect("runs")
    }

    #[test]
    fn the_availability_chart_draws_up_restoring_and_down() {
        let c = comparison("leader-transfer", &[Strategy::Learner]);
        let run = &c.outcomes[0].run;
        let until = run.frontier();
        let chart = ChartData {
            end: until,
            series: Series::Availability {
                title: "learner".into(),
                lines: availability(run, until),
                names: run.engine().roster().tasks.clone(),
            },
        };
        let text = chart.svg((640, 300), Some(until / 2)).expect("draws");
        assert!(text.starts_with("<svg"));
        for colour in [
            palette::SKY,
            palette::ORANGE,
            palette::VERMILLION,
            palette::PURPLE,
        ] {
            assert!(text.contains(&hex(colour)), "missing {}", hex(colour));
        }
        assert!(text.contains("\nT5\n</text>"), "task labels");
    }

    #[test]
    fn the_cumulative_chart_has_one_line_per_strategy_and_maps_pixels_back() {
        let c = comparison("scale-down-running", &[Strategy::Learner, Strategy::Eager]);
        let until = c
            .outcomes
            .iter()
            .map(|o| o.run.frontier())
            .max()
            .unwrap_or(1);
        let chart = ChartData {
            end: until,
            series: Series::Cumulative(
                c.outcomes
                    .iter()
                    .map(|o| (o.strategy, cumulative_downtime(&o.run, until)))
                    .collect(),
            ),
        };
        let text = chart.svg((640, 300), Some(0)).expect("draws");
        for s in [Strategy::Learner, Strategy::Eager] {
            let stroke = format!("stroke=\"{}\"", hex(strategy_colour(s)));
            assert_eq!(
                text.matches(&stroke).count(),
                2,
                "{s}: its line and its legend mark"
            );
            assert!(text.contains(s.name()), "{s} named in the legend");
        }
        let mut scratch = String::new();
        let root = SVGBackend::with_string(&mut scratch, (640, 300)).into_drawing_area();
        let map = chart.draw(&root, Paper::LIGHT, None).expect("draws");
        let (t, _) = map.at(map.x_pixels.1, map.y_pixels.1).expect("inside");
        assert!((t - until as f64).abs() < until as f64 * 0.01);
        assert_eq!(map.at(0, 0), None);
    }

    #[test]
    fn time_reads_in_round_steps_of_one_unit_along_and_up_the_axes() {
        let day = 86_400_000;
        let chart = ChartData {
            end: day,
            series: Series::Cumulative(vec![(Strategy::Kip441, vec![(0, 0), (day, 7_200_000)])]),
        };
        let text = chart.svg((640, 300), None).expect("draws");
        let labels: Vec<&str> = text
            .split("</text>")
            .filter_map(|t| t.rsplit('>').next())
            .map(str::trim)
            .filter(|l| l.ends_with(" h") || l.ends_with(" min") || l.ends_with(" s"))
            .collect();
        // Along: a day in 8 steps of 3 hours. Up: 2 hours of downtime and 8 % of room, 129.6
        // minutes, in steps of 30 (16.2 is past the 15-minute step).
        assert_eq!(
            labels,
            [
                "0 h", "3 h", "6 h", "9 h", "12 h", "15 h", "18 h", "21 h", "24 h", "0 min",
                "30 min", "60 min", "90 min", "120 min"
            ]
        );
    }

    #[test]
    fn the_load_chart_draws_a_line_per_member() {
        let c = comparison("scale-up-running", &[Strategy::Cooperative]);
        let run = &c.outcomes[0].run;
        let chart = ChartData {
            end: run.frontier(),
            series: Series::Load {
                title: "load".into(),
                lines: member_load(run, run.frontier()),
                names: run.engine().roster().members.clone(),
            },
        };
        let text = chart.svg((640, 300), None).expect("draws");
        for colour in &palette::CYCLE[..5] {
            let stroke = format!("stroke=\"{}\"", hex(*colour));
            assert!(
                text.matches(&stroke).count() >= 2,
                "a line and a legend mark in {}",
                hex(*colour)
            );
        }
    }
}
