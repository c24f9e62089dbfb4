//! The task timeline's geometry, in CSS pixels of a canvas `width` wide: the rows' height and
//! how many show, the time axis (a label every fifth of the scrubber's range) across the
//! plot right of the tasks' names, the row and moment under a point, and what is there in
//! words. The page draws with these and turns pointer events into them.

use super::over_time::TaskTimeline;
use crate::views::series::Availability;
use crate::views::units::duration;

/// The time axis's height above the rows.
pub const AXIS: f64 = 16.0;
/// The label column's width.
pub const LABELS: f64 = 78.0;
/// The margin right of the plot.
const RIGHT: f64 = 6.0;
/// The most rows in view before the timeline scrolls.
pub const VISIBLE_ROWS: usize = 22;
/// The widest the words under the pointer are, so that they stay inside the timeline.
const HOVER_WIDTH: f64 = 260.0;

impl TaskTimeline {
    /// A row's height: roomy for a few tasks, tight for many.
    pub fn row_height(&self) -> f64 {
        if self.rows.len() <= 12 {
            22.0
        } else {
            14.0
        }
    }

    /// How many rows are in view (at least one, for the empty timeline's axis).
    pub fn visible_rows(&self) -> usize {
        self.rows.len().clamp(1, VISIBLE_ROWS)
    }

    /// The height of the part in view: the axis and the rows in view.
    pub fn view_height(&self) -> f64 {
        AXIS + self.visible_rows() as f64 * self.row_height()
    }

    /// The height scrolled past below the rows in view, to scroll through them all.
    pub fn hidden_height(&self) -> f64 {
        (self.rows.len() - self.visible_rows().min(self.rows.len())) as f64 * self.row_height()
    }

    /// The first row in view when the rows are scrolled `scrolled` pixels down.
    pub fn first_row(&self, scrolled: f64) -> usize {
        (scrolled.max(0.0) / self.row_height()) as usize
    }

    /// Where moment `t` is across a canvas `width` wide (the end of the axis past its end).
    pub fn x_of(&self, t: u64, width: f64) -> f64 {
        LABELS + (t as f64 / self.end.max(1) as f64).min(1.0) * (width - LABELS - RIGHT)
    }

    /// The moment at `x` across a canvas `width` wide; none left of the plot.
    pub fn t_of(&self, x: f64, width: f64) -> Option<u64> {
        let plot = width - LABELS - RIGHT;
        (x >= LABELS && plot > 0.0)
            .then(|| (((x - LABELS) / plot).clamp(0.0, 1.0) * self.end as f64).round() as u64)
    }

    /// The axis's labels: a moment every fifth of the range, in words.
    pub fn ticks(&self) -> Vec<(u64, String)> {
        (0..=5u64)
            .map(|i| {
                let t = self.end * i / 5;
                (t, duration(t))
            })
            .collect()
    }

    /// What the point (`x`, `y`) of a canvas `width` wide shows, in words, with row `first` at
    /// the top of the rows in view: the task and moment, who runs it and its state, and
    /// whether a learner replays it or a standby is kept; none off the rows and the plot.
    pub fn describe_at(&self, (x, y): (f64, f64), width: f64, first: usize) -> Option<String> {
        let row = ((y - AXIS) / self.row_height()).floor();
        if row < 0.0 {
            return None;
        }
        let t = self.t_of(x, width)?;
        self.describe(first + row as usize, t)
    }

    /// What row `row` shows at moment `t`, in words.
    pub fn describe(&self, row: usize, t: u64) -> Option<String> {
        let row = self.rows.get(row)?;
        let during = |&(from, to): &(u64, u64)| from <= t && t < to;
        let state = row.line.spans.iter().find(|s| s.from <= t && t < s.to);
        let owner = row
            .line
            .owners
            .iter()
            .find(|o| o.0 <= t && t < o.1)
            .and_then(|o| self.members.get(o.2.index()));
        let mut words = vec![format!("{} at {}", row.name, duration(t))];
        words.push(match (state.map(|s| s.state), owner) {
            (Some(Availability::Up), Some(m)) => format!("running on {m}"),
            (Some(Availability::Restoring), Some(m)) => format!("restoring on {m} (down)"),
            (Some(Availability::Down), _) => "down: nobody runs it".into(),
            _ => "not simulated yet".into(),
        });
        if row.line.learning.iter().any(during) {
            words.push("a learner replays it".into());
        }
        if row.line.standby.iter().any(during) {
            words.push("a standby is kept".into());
        }
        Some(words.join(" \u{00B7} "))
    }

    /// Where the words under a pointer at `x` go across a timeline `width` wide: beside the
    /// pointer, kept inside.
    pub fn hover_left(x: f64, width: f64) -> f64 {
        (x + 12.0).min(width - HOVER_WIDTH).max(0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::super::over_time::TimelineRow;
    use super::*;
    use crate::model::{MemberId, TaskId};
    use crate::views::series::{Span, TaskLine};

    /// A timeline of `rows` rows to 10 s; its first task runs on S1, is down from 4 s to 6 s
    /// and restores on S2 until 7 s, with a learner from 2 s to 4 s.
    fn timeline(rows: usize) -> TaskTimeline {
        let span = |from, to, state| Span { from, to, state };
        let first = TaskLine {
            task: TaskId(0),
            spans: vec![
                span(0, 4_000, Availability::Up),
                span(4_000, 6_000, Availability::Down),
                span(6_000, 7_000, Availability::Restoring),
                span(7_000, 10_000, Availability::Up),
            ],
            owners: vec![(0, 4_000, MemberId(0)), (6_000, 10_000, MemberId(1))],
            learning: vec![(2_000, 4_000)],
            standby: vec![],
        };
        let row = |i: usize, line: TaskLine| TimelineRow {
            name: format!("T{i}").into(),
            group: None,
            line,
        };
        let mut all = vec![row(0, first)];
        all.extend((1..rows).map(|i| {
            row(
                i,
                TaskLine {
                    task: TaskId(i as u32),
                    spans: vec![],
                    owners: vec![],
                    learning: vec![],
                    standby: vec![(0, 10_000)],
                },
            )
        }));
        TaskTimeline {
            end: 10_000,
            until: 10_000,
            rows: all,
            rounds: vec![],
            members: vec!["S1".into(), "S2".into()],
        }
    }

    #[test]
    fn rows_are_roomy_for_a_few_tasks_and_scroll_past_twenty_two() {
        let few = timeline(12);
        assert_eq!((few.row_height(), few.visible_rows()), (22.0, 12));
        assert_eq!(few.view_height(), AXIS + 12.0 * 22.0);
        assert_eq!(few.hidden_height(), 0.0);
        let many = timeline(30);
        assert_eq!((many.row_height(), many.visible_rows()), (14.0, 22));
        assert_eq!(many.hidden_height(), 8.0 * 14.0);
        assert_eq!(many.first_row(14.0 * 3.5), 3);
        assert_eq!(
            timeline(0).visible_rows(),
            1,
            "the axis of an empty timeline"
        );
    }

    #[test]
    fn moments_and_places_across_the_plot_map_both_ways() {
        let t = timeline(3);
        let width = LABELS + 100.0 + 6.0;
        assert_eq!(t.x_of(0, width), LABELS);
        assert_eq!(t.x_of(5_000, width), LABELS + 50.0);
        assert_eq!(
            t.x_of(20_000, width),
            LABELS + 100.0,
            "past the end: at the end"
        );
        assert_eq!(t.t_of(LABELS + 50.0, width), Some(5_000));
        assert_eq!(t.t_of(LABELS - 1.0, width), None, "over the names");
        assert_eq!(t.t_of(width + 40.0, width), Some(10_000));
        let ticks: Vec<String> = t.ticks().into_iter().map(|(_, l)| l).collect();
        assert_eq!(
            ticks,
            ["0 ms", "2.0 s", "4.0 s", "6.0 s", "8.0 s", "10.0 s"]
        );
    }

    #[test]
    fn a_point_of_a_row_says_who_runs_its_task_and_how_it_is() {
        let t = timeline(3);
        assert_eq!(
            t.describe(0, 3_000).as_deref(),
            Some("T0 at 3.0 s \u{00B7} running on S1 \u{00B7} a learner replays it")
        );
        assert_eq!(
            t.describe(0, 5_000).as_deref(),
            Some("T0 at 5.0 s \u{00B7} down: nobody runs it")
        );
        assert_eq!(
            t.describe(0, 6_500).as_deref(),
            Some("T0 at 6.5 s \u{00B7} restoring on S2 (down)")
        );
        assert_eq!(
            t.describe(1, 500).as_deref(),
            Some("T1 at 500 ms \u{00B7} not simulated yet \u{00B7} a standby is kept")
        );
        assert_eq!(t.describe(3, 500), None, "no such row");
        let width = LABELS + 100.0 + 6.0;
        let at = |x: f64, y: f64, first: usize| t.describe_at((x, y), width, first);
        assert_eq!(at(LABELS + 30.0, AXIS + 5.0, 0), t.describe(0, 3_000));
        assert_eq!(
            at(LABELS + 30.0, AXIS + 22.0 + 5.0, 0),
            t.describe(1, 3_000)
        );
        assert_eq!(
            at(LABELS + 30.0, AXIS + 5.0, 1),
            t.describe(1, 3_000),
            "scrolled a row"
        );
        assert_eq!(at(LABELS + 30.0, AXIS - 2.0, 0), None, "on the axis");
        assert_eq!(at(10.0, AXIS + 5.0, 0), None, "on the names");
    }

    #[test]
    fn the_words_under_the_pointer_stay_inside_the_timeline() {
        assert_eq!(TaskTimeline::hover_left(100.0, 1000.0), 112.0);
        assert_eq!(TaskTimeline::hover_left(900.0, 1000.0), 740.0);
        assert_eq!(TaskTimeline::hover_left(10.0, 200.0), 0.0);
    }
}
