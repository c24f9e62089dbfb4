//! The compare view's charts as plain data ([`ChartData`]: the series, the axis), drawn on
//! any [`Pen`] (a canvas in the browser, [`Svg`] text for export and tests) and read back under
//! a pointer ([`ChartData::describe`]). Three simple charts need only rectangles, lines and
//! text, so they are drawn here rather than with a charting library (which cost the browser
//! build a seventh of its size). Colours are Okabe-Ito; availability states also differ in
//! bar height, so they read without colour.

use crate::model::Strategy;
use crate::views::timeline::{Availability, LoadLine, TaskLine};
use std::rc::Rc;

pub use super::plot::{Anchor, Pen, PlotMap, Svg};

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
        /// Task names (shared with the roster).
        names: Vec<Rc<str>>,
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

    /// Draws the chart at a size, with a line at the clock if one is given; returns how its
    /// pixels map back to data.
    pub fn draw(&self, pen: &mut dyn Pen, size: (u32, u32), clock: Option<u64>) -> PlotMap {
        match &self.series {
            Series::Cumulative(curves) => draw_cumulative(pen, size, curves, self.end, clock),
            Series::Availability {
                title,
                lines,
                names,
            } => draw_availability(pen, size, title, lines, names, self.end, clock),
            Series::Load {
                title,
                lines,
                names,
            } => draw_load(pen, size, title, lines, names, self.end, clock),
        }
    }

    /// The chart as SVG text.
    pub fn svg(&self, size: (u32, u32), clock: Option<u64>) -> String {
        let mut svg = Svg::new(size);
        self.draw(&mut svg, size, clock);
        svg.finish()
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

/// Okabe-Ito colours, as CSS hex.
pub mod palette {
    /// Blue.
    pub const BLUE: &str = "#0072B2";
    /// Sky blue.
    pub const SKY: &str = "#56B4E9";
    /// Bluish green.
    pub const GREEN: &str = "#009E73";
    /// Orange.
    pub const ORANGE: &str = "#E69F00";
    /// Vermillion.
    pub const VERMILLION: &str = "#D55E00";
    /// Reddish purple.
    pub const PURPLE: &str = "#CC79A7";
    /// Yellow.
    pub const YELLOW: &str = "#F0E442";
    /// Grey.
    pub const GREY: &str = "#999999";
    /// Black.
    pub const BLACK: &str = "#000000";
    /// Light grey, for the grid.
    pub const GRID: &str = "#E4E4E8";
    /// White, the paper.
    pub const WHITE: &str = "#FFFFFF";
    /// Every colour, for cycling.
    pub const CYCLE: [&str; 8] = [BLUE, ORANGE, GREEN, VERMILLION, PURPLE, SKY, YELLOW, GREY];
}

/// The colour of a strategy's line.
pub fn strategy_colour(s: Strategy) -> &'static str {
    match s {
        Strategy::Learner => palette::BLUE,
        Strategy::Kip441 => palette::PURPLE,
        Strategy::Cooperative => palette::ORANGE,
        Strategy::Eager => palette::VERMILLION,
    }
}

/// Seconds with one decimal (`12.5s`), from milliseconds.
fn seconds(ms: f64) -> String {
    let tenths = (ms.max(0.0) / 100.0).round() as u64;
    format!("{}.{}s", tenths / 10, tenths % 10)
}

/// A round step of about a sixth of `span` (1, 2 or 5 times a power of ten).
fn step(span: f64, ticks: f64) -> f64 {
    let rough = (span / ticks).max(1e-9);
    let mut unit = 1.0;
    while unit * 10.0 <= rough {
        unit *= 10.0;
    }
    while unit > rough {
        unit /= 10.0;
    }
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * unit)
        .find(|s| *s >= rough)
        .unwrap_or(unit * 10.0)
}

/// The plot's frame: where data goes, and the two axes' ranges.
struct Frame {
    left: f64,
    right: f64,
    top: f64,
    bottom: f64,
    end: f64,
    max: f64,
}

impl Frame {
    fn x(&self, t: f64) -> f64 {
        self.left + (t / self.end).clamp(0.0, 1.0) * (self.right - self.left)
    }

    fn y(&self, v: f64) -> f64 {
        self.bottom - (v / self.max).clamp(0.0, 1.0) * (self.bottom - self.top)
    }

    fn map(&self) -> PlotMap {
        PlotMap {
            x_pixels: (self.left.round() as i32, self.right.round() as i32),
            y_pixels: (self.top.round() as i32, self.bottom.round() as i32),
            time: (0.0, self.end),
            value: (0.0, self.max),
        }
    }
}

/// A white chart with a title, a time axis (0 to `end`) labelled in seconds with a light
/// grid, and room for `y_labels` pixels of labels on the left.
fn start(
    pen: &mut dyn Pen,
    (w, h): (u32, u32),
    title: &str,
    y_labels: f64,
    end: f64,
    max: f64,
) -> Frame {
    let (w, h) = (f64::from(w), f64::from(h));
    pen.rect(0.0, 0.0, w, h, palette::WHITE, 1.0);
    pen.text(w / 2.0, 14.0, title, 15, Anchor::Middle, palette::BLACK);
    let frame = Frame {
        left: 8.0 + y_labels,
        right: w - 20.0,
        top: 30.0,
        bottom: h - 30.0,
        end: end.max(1.0),
        max: max.max(1e-9),
    };
    let dx = step(frame.end, 6.0);
    let mut t = 0.0;
    while t <= frame.end + 1e-6 {
        let x = frame.x(t);
        pen.line(&[(x, frame.top), (x, frame.bottom)], palette::GRID, 1.0);
        pen.text(
            x,
            frame.bottom + 12.0,
            &seconds(t),
            11,
            Anchor::Middle,
            palette::BLACK,
        );
        t += dx;
    }
    pen.line(
        &[
            (frame.left, frame.top),
            (frame.left, frame.bottom),
            (frame.right, frame.bottom),
        ],
        palette::BLACK,
        1.0,
    );
    frame
}

/// Value labels and grid lines up the left axis.
fn value_axis(pen: &mut dyn Pen, frame: &Frame, label: impl Fn(f64) -> String, integers: bool) {
    let mut dv = step(frame.max, 5.0);
    if integers {
        dv = dv.max(1.0).round();
    }
    let mut v = dv;
    while v <= frame.max + 1e-9 {
        let y = frame.y(v);
        pen.line(&[(frame.left, y), (frame.right, y)], palette::GRID, 1.0);
        pen.text(
            frame.left - 4.0,
            y,
            &label(v),
            11,
            Anchor::End,
            palette::BLACK,
        );
        v += dv;
    }
}

/// The line at the clock, and the map of pixels back to data.
fn finish(pen: &mut dyn Pen, frame: &Frame, clock: Option<u64>) -> PlotMap {
    if let Some(clock) = clock {
        let x = frame.x(clock as f64);
        pen.line(&[(x, frame.top), (x, frame.bottom)], palette::BLACK, 1.0);
    }
    frame.map()
}

/// A legend: a short line of each colour and its name, in a box at the top left or right.
fn legend(pen: &mut dyn Pen, frame: &Frame, entries: &[(&str, String)], right: bool, width: f64) {
    let box_w = 34.0 + entries.iter().map(|(_, n)| n.len()).max().unwrap_or(0) as f64 * 6.5;
    let x = if right {
        frame.right - box_w - 6.0
    } else {
        frame.left + 6.0
    };
    let y = frame.top + 4.0;
    pen.rect(
        x,
        y,
        box_w,
        entries.len() as f64 * 15.0 + 6.0,
        palette::WHITE,
        0.85,
    );
    for (i, (colour, name)) in entries.iter().enumerate() {
        let ly = y + 10.0 + i as f64 * 15.0;
        pen.line(&[(x + 6.0, ly), (x + 20.0, ly)], colour, width);
        pen.text(x + 26.0, ly, name, 11, Anchor::Start, palette::BLACK);
    }
}

/// Each task's availability over time: up (thin), restoring (medium), down (full height),
/// learner replay shaded behind; a line at the clock.
pub fn draw_availability<Name: AsRef<str>>(
    pen: &mut dyn Pen,
    size: (u32, u32),
    title: &str,
    lines: &[TaskLine],
    names: &[Name],
    end: u64,
    clock: Option<u64>,
) -> PlotMap {
    let rows = lines.len().max(1) as f64;
    let frame = start(pen, size, title, 44.0, end as f64, rows);
    let row_pixels = (frame.bottom - frame.top) / rows;
    for (row, line) in lines.iter().enumerate() {
        let top = frame.top + row as f64 * row_pixels;
        let middle = top + row_pixels / 2.0;
        if row_pixels >= 9.0 {
            let name = names.get(line.task.index()).map_or("", AsRef::as_ref);
            pen.text(
                frame.left - 4.0,
                middle,
                name,
                11,
                Anchor::End,
                palette::BLACK,
            );
        }
        for &(from, to) in &line.learning {
            let (a, b) = (frame.x(from as f64), frame.x(to as f64));
            pen.rect(
                a,
                top + row_pixels * 0.05,
                b - a,
                row_pixels * 0.9,
                palette::PURPLE,
                0.22,
            );
        }
        for span in &line.spans {
            let (height, colour) = match span.state {
                Availability::Up => (0.2, palette::SKY),
                Availability::Restoring => (0.55, palette::ORANGE),
                Availability::Down => (0.8, palette::VERMILLION),
            };
            let (a, b) = (frame.x(span.from as f64), frame.x(span.to as f64));
            let h = row_pixels * height;
            pen.rect(a, middle - h / 2.0, b - a, h, colour, 1.0);
        }
    }
    finish(pen, &frame, clock)
}

/// Active tasks per member over time, one step line per member.
pub fn draw_load(
    pen: &mut dyn Pen,
    size: (u32, u32),
    title: &str,
    lines: &[LoadLine],
    names: &[String],
    end: u64,
    clock: Option<u64>,
) -> PlotMap {
    let max = lines
        .iter()
        .flat_map(|l| l.steps.iter().map(|s| s.1))
        .max()
        .unwrap_or(1)
        .max(1) as f64
        + 0.5;
    let frame = start(pen, size, title, 36.0, end as f64, max);
    value_axis(pen, &frame, |v| format!("{}", v.round() as u64), true);
    let mut entries = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let colour = palette::CYCLE[i % palette::CYCLE.len()];
        // Offset lines slightly so members with equal loads stay visible.
        let offset = (i as f64 - lines.len() as f64 / 2.0) * 0.03;
        let mut points = Vec::with_capacity(line.steps.len() * 2 + 1);
        for (j, &(t, v)) in line.steps.iter().enumerate() {
            if j > 0 {
                points.push((
                    frame.x(t as f64),
                    frame.y(line.steps[j - 1].1 as f64 + offset),
                ));
            }
            points.push((frame.x(t as f64), frame.y(v as f64 + offset)));
        }
        if let Some(&(_, v)) = line.steps.last() {
            points.push((frame.right, frame.y(v as f64 + offset)));
        }
        pen.line(&points, colour, 2.0);
        let name = names.get(line.member.index()).cloned().unwrap_or_default();
        entries.push((colour, name));
    }
    if lines.len() <= 12 {
        legend(pen, &frame, &entries, true, 2.0);
    }
    finish(pen, &frame, clock)
}

/// Task downtime accumulated over time, one line per strategy.
pub fn draw_cumulative(
    pen: &mut dyn Pen,
    size: (u32, u32),
    curves: &[(Strategy, Vec<(u64, u64)>)],
    end: u64,
    clock: Option<u64>,
) -> PlotMap {
    let max = curves
        .iter()
        .flat_map(|(_, c)| c.iter().map(|p| p.1))
        .max()
        .unwrap_or(1)
        .max(1) as f64
        * 1.08;
    let frame = start(pen, size, "Task downtime so far", 52.0, end as f64, max);
    value_axis(pen, &frame, seconds, false);
    let mut entries = Vec::new();
    for (strategy, curve) in curves {
        let colour = strategy_colour(*strategy);
        let points: Vec<(f64, f64)> = curve
            .iter()
            .map(|&(t, v)| (frame.x(t as f64), frame.y(v as f64)))
            .collect();
        pen.line(&points, colour, 3.0);
        entries.push((colour, strategy.name().to_string()));
    }
    legend(pen, &frame, &entries, false, 3.0);
    finish(pen, &frame, clock)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::Comparison;
    use crate::presets::Preset;
    use crate::views::timeline::{availability, cumulative_downtime, member_load};

    fn colour_hex(c: &str) -> String {
        c.to_string()
    }

    fn svg(size: (u32, u32), draw: impl FnOnce(&mut Svg) -> PlotMap) -> Result<String, ()> {
        let mut pen = Svg::new(size);
        draw(&mut pen);
        Ok(pen.finish())
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
            draw_availability(
                a,
                (640, 300),
                "learner",
                &lines,
                &names,
                until,
                Some(until / 2),
            )
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
                upper.contains(&colour_hex(colour).to_uppercase()),
                "missing {}",
                colour_hex(colour)
            );
        }
        std::fs::write(std::env::temp_dir().join("handoff-availability.svg"), &text).ok();
        assert!(text.contains(">T5</text>"), "task labels");
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
            let m = draw_cumulative(a, (640, 300), &curves, until, Some(0));
            map = Some(m);
            m
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
            draw_load(a, (640, 300), "load", &lines, &names, run.frontier(), None)
        })
        .expect("draws");
        for colour in &palette::CYCLE[..5] {
            let stroke = format!("stroke=\"{}\"", colour_hex(colour));
            assert!(
                text.matches(&stroke).count() >= 2,
                "a line and a legend mark in {}",
                colour_hex(colour)
            );
        }
    }
}
