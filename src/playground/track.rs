//! The timeline editor's track as the page meets it: the moment at a point of the track, a
//! moment's place on it, and what a key pressed on a mark does. The page measures the track
//! and reads the keys; what they mean is decided here.

use super::command_editor::EditorAction;
use super::schedule::{Schedule, ScheduleEdit};
use super::Action;

impl Schedule {
    /// The moment at a share (0 to 1, clamped) of the track's width, snapped to the nearest
    /// multiple of [`Schedule::snap_ms`].
    pub fn moment_at(&self, share: f64) -> u64 {
        let ms = (share.clamp(0.0, 1.0) * self.scale as f64).round() as u64;
        let snap = self.snap_ms.max(1);
        (ms + snap / 2) / snap * snap
    }

    /// Where a moment is on the track, in percent of its width (at most 100).
    pub fn place(&self, at_ms: u64) -> f64 {
        (at_ms as f64 / self.scale.max(1) as f64 * 100.0).min(100.0)
    }

    /// What a key pressed on mark `index` asks for (with `shift`, a move takes ten steps):
    /// left and right move it a step in time, up and down (Home, End) choose another, Delete
    /// or Backspace removes it, Enter or space opens its editor, Escape leaves the track.
    /// `None` for any other key, which the page leaves to the browser.
    pub fn key(&self, index: usize, key: &str, shift: bool) -> Option<Action> {
        let last = self.marks.len().checked_sub(1)?;
        let step = if shift {
            self.big_step_ms
        } else {
            self.step_ms
        };
        let at = self.marks.get(index)?.at_ms;
        let edit = match key {
            "ArrowLeft" => ScheduleEdit::Move {
                index,
                at_ms: at.saturating_sub(step),
            },
            "ArrowRight" => ScheduleEdit::Move {
                index,
                at_ms: at.saturating_add(step),
            },
            "ArrowUp" => ScheduleEdit::Select(Some(index.saturating_sub(1))),
            "ArrowDown" => ScheduleEdit::Select(Some((index + 1).min(last))),
            "Home" => ScheduleEdit::Select(Some(0)),
            "End" => ScheduleEdit::Select(Some(last)),
            "Delete" | "Backspace" => ScheduleEdit::Delete(index),
            "Enter" | " " => return Some(Action::Editor(EditorAction::Scheduled(index))),
            "Escape" => ScheduleEdit::Select(None),
            _ => return None,
        };
        Some(Action::Schedule(edit))
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::scale_out;
    use super::*;
    use crate::playground::Local;

    /// The worked example's track: its marks at 60 s, its scale and steps.
    fn track() -> (Local, Schedule) {
        let pg = scale_out();
        let schedule = (*pg.schedule()).clone();
        (pg, schedule)
    }

    #[test]
    fn a_point_of_the_track_is_a_moment_snapped_and_a_moment_is_a_place() {
        let (_, s) = track();
        assert_eq!(s.moment_at(0.0), 0);
        assert_eq!(s.moment_at(1.0), s.scale / s.snap_ms * s.snap_ms);
        assert_eq!(s.moment_at(-3.0), 0, "left of the track: its start");
        assert_eq!(s.moment_at(7.0), s.moment_at(1.0), "right of it: its end");
        // A share a third of a snap past a multiple lands on it; two thirds, on the next.
        let snap = s.snap_ms as f64;
        let scale = s.scale as f64;
        assert_eq!(
            s.moment_at((10.0 * snap + snap / 3.0) / scale),
            10 * s.snap_ms
        );
        assert_eq!(
            s.moment_at((10.0 * snap + 2.0 * snap / 3.0) / scale),
            11 * s.snap_ms
        );
        assert_eq!(s.place(0), 0.0);
        assert_eq!(s.place(s.scale / 2), 50.0);
        assert_eq!(s.place(s.scale * 3), 100.0, "never past the end");
    }

    #[test]
    fn keys_on_a_mark_move_it_choose_another_delete_it_or_open_it() {
        let (_, s) = track();
        let at = s.marks[1].at_ms;
        let edit = |key: &str, shift: bool| s.key(1, key, shift);
        let moved = |at_ms: u64| Some(Action::Schedule(ScheduleEdit::Move { index: 1, at_ms }));
        assert_eq!(edit("ArrowRight", false), moved(at + s.step_ms));
        assert_eq!(edit("ArrowLeft", false), moved(at - s.step_ms));
        assert_eq!(edit("ArrowRight", true), moved(at + s.big_step_ms));
        let select = |i: Option<usize>| Some(Action::Schedule(ScheduleEdit::Select(i)));
        assert_eq!(edit("ArrowUp", false), select(Some(0)));
        assert_eq!(edit("ArrowDown", false), select(Some(2)));
        assert_eq!(
            s.key(2, "ArrowDown", false),
            select(Some(2)),
            "the last stays"
        );
        assert_eq!(
            s.key(0, "ArrowUp", false),
            select(Some(0)),
            "the first stays"
        );
        assert_eq!(edit("Home", false), select(Some(0)));
        assert_eq!(edit("End", false), select(Some(2)));
        assert_eq!(edit("Escape", false), select(None));
        assert_eq!(
            edit("Delete", false),
            Some(Action::Schedule(ScheduleEdit::Delete(1)))
        );
        assert_eq!(edit("Backspace", false), edit("Delete", false));
        assert_eq!(
            edit("Enter", false),
            Some(Action::Editor(EditorAction::Scheduled(1)))
        );
        assert_eq!(edit(" ", false), edit("Enter", false));
        assert_eq!(edit("a", false), None, "left to the browser");
        assert_eq!(s.key(9, "Delete", false), None, "no such mark");
    }

    #[test]
    fn a_mark_at_the_start_moves_left_no_further_than_0() {
        let (_, mut s) = track();
        s.marks[0].at_ms = 10;
        assert_eq!(
            s.key(0, "ArrowLeft", true),
            Some(Action::Schedule(ScheduleEdit::Move { index: 0, at_ms: 0 }))
        );
    }
}
