//! A member's tasks as small marks (a large group): one mark per task in rows of sixteen,
//! as SVG path data (which a canvas draws as `Path2D`), marks alike in one path, so that a
//! member's drawing is a handful of paths whatever its tasks; and which mark lies under a
//! pointer. Pure: the playground's page draws the paths, in the chips' visual language (solid
//! active, an active restoring filling up to 85 %, paused while its member restarts, a
//! learner filling up, ready, dashed standby, rings for learned and found tasks).

use super::frame::{ChipRole, Dot};
use super::geometry::{Rect, Step};

/// Marks per row.
const COLUMNS: usize = 16;
/// The step between marks, in CSS pixels (hit testing).
const STEP: i32 = 14;
/// SVG user units per CSS pixel: every coordinate below is a whole number of them, so paths
/// are written with integers only.
const UNIT: i32 = 20;
/// A mark's side, in user units.
const SIDE: i32 = 11 * UNIT;
/// The step between marks, in user units.
const PITCH: i32 = STEP * UNIT;
/// The margin before the first mark (room for its rings), in user units.
const MARGIN: i32 = 3 * UNIT / 2;
// The squares' sides and the circles' radius are written out in `Paths`.
const _: () = assert!(SIDE == 220 && SIDE + 2 * UNIT == 260 && SIDE + 2 * MARGIN == 280);

/// The marks' paths, drawn in this order (later over earlier): the outlined marks on the
/// panel's colour, the fills, the rings. An outline carries the panel behind it (fewer paths,
/// and fewer of them change when a mark changes), and a fill inside an outline is drawn over
/// it, in the outline's colour.
pub const LAYERS: [Layer; 10] = [
    Layer::LineActive,
    Layer::LineLearner,
    Layer::LineDown,
    Layer::LineStandby,
    Layer::Active,
    Layer::Learner,
    Layer::Down,
    Layer::Ready,
    Layer::RingLearned,
    Layer::RingFound,
];

/// What a path draws; its index in [`LAYERS`] is its place in [`paths`]' answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layer {
    /// Outlines of actives restoring, on the panel.
    LineActive,
    /// Outlines of learners replaying, on the panel.
    LineLearner,
    /// Outlines of actives waiting for their restarting member, on the panel.
    LineDown,
    /// Dashed outlines of standbys, on the panel.
    LineStandby,
    /// Actives running, and restores filling up.
    Active,
    /// Learners filling up.
    Learner,
    /// The pause signs of actives waiting for their member.
    Down,
    /// Learners ready.
    Ready,
    /// Rings of actives some learner replays.
    RingLearned,
    /// Rings of tasks found (or shown by a tour).
    RingFound,
}

/// The marks' paths as they are written, one per layer.
#[derive(Default)]
struct Paths([String; 10]);

/// Appends a whole number: a frame may write the paths of every member, and `write!` goes
/// through the formatting machinery for each number.
fn push_number(path: &mut String, n: i32) {
    if n < 0 {
        path.push('-');
    }
    let mut digits = [0u8; 10];
    let mut rest = n.unsigned_abs();
    let mut start = digits.len();
    loop {
        start -= 1;
        digits[start] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    path.extend(digits[start..].iter().map(|&d| char::from(d)));
}

impl Paths {
    /// Starts a shape at (`x`, `y`) in a layer's path, which it returns to go on with.
    fn start(&mut self, layer: Layer, x: i32, y: i32) -> &mut String {
        let path = &mut self.0[layer as usize];
        path.push('M');
        push_number(path, x);
        path.push(' ');
        push_number(path, y);
        path
    }

    /// A rectangle, `w` by `h` user units, its corner at (`x`, `y`).
    fn rect(&mut self, layer: Layer, x: i32, y: i32, w: i32, h: i32) {
        let path = self.start(layer, x, y);
        path.push('h');
        push_number(path, w);
        path.push('v');
        push_number(path, h);
        path.push('h');
        push_number(path, -w);
        path.push('z');
    }

    /// A mark's square at (`x`, `y`), grown by `grown` on every side (rings). The sides are
    /// written as constants: a member's paths are mostly squares.
    fn square(&mut self, layer: Layer, x: i32, y: i32, grown: i32) {
        let sides = match grown {
            0 => "h220v220h-220z",
            UNIT => "h260v260h-260z",
            _ => "h280v280h-280z",
        };
        self.start(layer, x - grown, y - grown).push_str(sides);
    }

    /// A mark's circle at (`x`, `y`): two half arcs.
    fn circle(&mut self, layer: Layer, x: i32, y: i32) {
        self.start(layer, x, y + SIDE / 2)
            .push_str("a110 110 0 1 0 220 0a110 110 0 1 0 -220 0z");
    }

    /// A mark at (`x`, `y`) filled from the bottom, `h` user units high, over its outline:
    /// a fill is the outline's colour, so covering the inner half of its stroke changes
    /// nothing, where a fill stopping at the stroke's edge would leave a seam of the panel
    /// between them.
    fn filled(&mut self, layer: Layer, x: i32, y: i32, h: i32) {
        if h > 0 {
            self.rect(layer, x, y + SIDE - h, SIDE, h);
        }
    }
}

/// A member's marks as paths, one per layer of [`LAYERS`] (empty where no mark uses it), in
/// user units. `away`: the member is restarting, so its actives wait for it, paused.
pub fn paths(dots: &[Dot], names: &[String], highlight: &[String], away: bool) -> [String; 10] {
    let mut p = Paths::default();
    for (i, dot) in dots.iter().enumerate() {
        let x = (i % COLUMNS) as i32 * PITCH;
        let y = (i / COLUMNS) as i32 * PITCH;
        let tenths = i32::from(dot.tenths.min(10));
        match dot.role {
            // Waiting for its restarting member: an outlined mark with a pause sign, as the
            // chips show it, not a restore in progress.
            ChipRole::Active if away => {
                p.square(Layer::LineDown, x, y, 0);
                let (w, h) = (36, SIDE - 5 * UNIT);
                p.rect(Layer::Down, x + 3 * UNIT, y + 50, w, h);
                p.rect(Layer::Down, x + SIDE - 96, y + 50, w, h);
            }
            ChipRole::Active if !dot.stateful => p.circle(Layer::Active, x, y),
            ChipRole::Active if dot.up => p.square(Layer::Active, x, y, 0),
            ChipRole::Active => {
                p.square(Layer::LineActive, x, y, 0);
                // A restore fills up to 85 %: full means running.
                p.filled(Layer::Active, x, y, SIDE * 85 * tenths / 1000);
            }
            ChipRole::Learner if dot.ready => p.square(Layer::Ready, x, y, 0),
            ChipRole::Learner => {
                p.square(Layer::LineLearner, x, y, 0);
                p.filled(Layer::Learner, x, y, SIDE * tenths / 10);
            }
            ChipRole::Standby => p.square(Layer::LineStandby, x, y, 0),
        }
        if dot.learned {
            p.square(Layer::RingLearned, x, y, UNIT);
        }
        if highlight
            .iter()
            .any(|h| names.get(dot.task.index()) == Some(h))
        {
            p.square(Layer::RingFound, x, y, MARGIN);
        }
    }
    p.0
}

/// The drawing of `count` marks: its width and height in CSS pixels.
pub fn drawing(count: usize) -> (i32, i32) {
    let rows = count.div_ceil(COLUMNS).max(1) as i32;
    (COLUMNS as i32 * STEP, rows * STEP)
}

/// Where mark `index` lies in its member's drawing, in CSS pixels from the drawing's corner.
pub fn cell(index: usize) -> Rect {
    let unit = f64::from(UNIT);
    let at = |step: usize| f64::from(MARGIN + step as i32 * PITCH) / unit;
    Rect::new(
        at(index % COLUMNS),
        at(index / COLUMNS),
        f64::from(SIDE) / unit,
        f64::from(SIDE) / unit,
    )
}

/// Where the paths' origin lies in the drawing, and how many of their units make a CSS
/// pixel: the first mark starts a margin in, room for its rings.
pub fn origin_and_scale() -> (f64, f64) {
    (f64::from(MARGIN) / f64::from(UNIT), f64::from(UNIT))
}

/// The mark under a pointer at (`x`, `y`) CSS pixels of a drawing shown `shown` pixels wide.
pub fn at(dots: &[Dot], x: i32, y: i32, shown: i32) -> Option<&Dot> {
    let full = COLUMNS as i32 * STEP;
    // Shrunk to a narrow card, the drawing keeps its proportions.
    let (x, y) = if shown > 0 && shown < full {
        (x * full / shown, y * full / shown)
    } else {
        (x, y)
    };
    let (col, row) = ((x / STEP) as usize, (y / STEP) as usize);
    (x >= 0 && y >= 0 && col < COLUMNS)
        .then(|| dots.get(row * COLUMNS + col))
        .flatten()
}

/// A mark in words, as the pointer's read-out and the keyboard's option say it (`names`: the
/// tasks' names): an active of a member away waits for it.
pub fn words(d: &Dot, names: &[String], member: &str, away: bool) -> String {
    let name = names.get(d.task.index()).map_or("", String::as_str);
    if away && d.role == ChipRole::Active {
        format!("{name} on {member} \u{00B7} active, down while {member} restarts")
    } else {
        d.describe(name, member)
    }
}

/// What the mark under the pointer is, and where the pointer is in the group.
#[derive(Clone, Debug, PartialEq)]
pub struct Hover {
    /// Left, in CSS pixels from the group's corner.
    pub x: f64,
    /// Top.
    pub y: f64,
    /// The mark's task in words.
    pub text: String,
}

/// What a pointer at (`x`, `y`) CSS pixels of a member's marks shown `shown` pixels wide
/// (placed at `place` in the group) points at: the mark's words, where the pointer is in
/// the group; none between marks.
pub fn hover(
    (dots, names): (&[Dot], &[String]),
    (member, away): (&str, bool),
    (x, y, shown): (i32, i32, i32),
    place: Rect,
) -> Option<Hover> {
    at(dots, x, y, shown).map(|d| Hover {
        x: place.x + f64::from(x),
        y: place.y + f64::from(y),
        text: words(d, names, member, away),
    })
}

/// Where the keyboard goes from mark `from` of a member's `count` marks on a `step`: along
/// the rows, a row of sixteen down or up, to the first or the last (nowhere past the ends).
pub fn step(from: usize, count: usize, step: Step) -> Option<usize> {
    let last = count.checked_sub(1)?;
    let to = match step {
        Step::Next => from.checked_add(1)?,
        Step::Previous => from.checked_sub(1)?,
        Step::Down => from.checked_add(COLUMNS)?,
        Step::Up => from.checked_sub(COLUMNS)?,
        Step::First => 0,
        Step::Last => last,
    };
    (to <= last).then_some(to)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::TaskId;

    fn dot(task: u32, role: ChipRole) -> Dot {
        Dot {
            task: TaskId(task),
            role,
            stateful: true,
            up: true,
            learned: false,
            ready: false,
            tenths: 0,
        }
    }

    fn names(n: usize) -> Vec<String> {
        (1..=n).map(|i| format!("T{i}")).collect()
    }

    /// The path of a layer.
    fn layer(paths: &[String], layer: Layer) -> &str {
        paths[layer as usize].as_str()
    }

    #[test]
    fn each_task_is_one_mark_in_its_layer_in_rows_of_sixteen() {
        let mut dots: Vec<Dot> = (0..17).map(|t| dot(t, ChipRole::Active)).collect();
        dots.push(dot(17, ChipRole::Standby));
        let p = paths(&dots, &names(18), &[], false);
        let active = layer(&p, Layer::Active);
        assert_eq!(active.matches('M').count(), 17);
        assert!(active.starts_with("M0 0h220v220h-220zM280 0h220v220h-220z"));
        // The seventeenth starts the second row, the standby comes after it.
        assert!(active.ends_with("M0 280h220v220h-220z"));
        assert_eq!(layer(&p, Layer::LineStandby), "M280 280h220v220h-220z");
        for unused in [
            Layer::Learner,
            Layer::Ready,
            Layer::Down,
            Layer::RingLearned,
            Layer::RingFound,
        ] {
            assert_eq!(layer(&p, unused), "", "{unused:?}");
        }
    }

    #[test]
    fn replays_fill_from_the_bottom_as_they_progress() {
        let learner = |tenths| Dot {
            tenths,
            ..dot(0, ChipRole::Learner)
        };
        let restoring = |tenths| Dot {
            up: false,
            tenths,
            ..dot(0, ChipRole::Active)
        };
        let half = paths(&[learner(5)], &names(1), &[], false);
        assert_eq!(layer(&half, Layer::Learner), "M0 110h220v110h-220z");
        assert_eq!(layer(&half, Layer::LineLearner), "M0 0h220v220h-220z");
        let tenth = paths(&[learner(1)], &names(1), &[], false);
        assert_eq!(layer(&tenth, Layer::Learner), "M0 198h220v22h-220z");
        let none = paths(&[learner(0)], &names(1), &[], false);
        assert_eq!(
            layer(&none, Layer::Learner),
            "",
            "nothing replayed, nothing filled"
        );
        // A restore fills up to 85 %: full means running.
        let done = paths(&[restoring(10)], &names(1), &[], false);
        assert_eq!(layer(&done, Layer::Active), "M0 33h220v187h-220z");
        let started = paths(&[restoring(0)], &names(1), &[], false);
        assert_eq!(layer(&started, Layer::Active), "");
        assert_eq!(layer(&started, Layer::LineActive), "M0 0h220v220h-220z");
        assert_eq!(layer(&done, Layer::LineActive), "M0 0h220v220h-220z");
        let ready = Dot {
            ready: true,
            ..learner(10)
        };
        let p = paths(&[ready], &names(1), &[], false);
        assert_eq!(layer(&p, Layer::Ready), "M0 0h220v220h-220z");
        assert_eq!(layer(&p, Layer::Learner), "");
    }

    #[test]
    fn a_restarting_members_actives_are_paused_not_restoring() {
        let dots = [dot(0, ChipRole::Active), dot(1, ChipRole::Standby)];
        let p = paths(&dots, &names(2), &[], true);
        assert_eq!(layer(&p, Layer::Active), "");
        assert_eq!(layer(&p, Layer::LineDown), "M0 0h220v220h-220z");
        assert_eq!(
            layer(&p, Layer::Down),
            "M60 50h36v120h-36zM124 50h36v120h-36z"
        );
        assert_eq!(layer(&p, Layer::LineStandby), "M280 0h220v220h-220z");
    }

    #[test]
    fn stateless_actives_are_circles_and_rings_mark_learned_and_found_tasks() {
        let dots = [
            Dot {
                stateful: false,
                ..dot(0, ChipRole::Active)
            },
            Dot {
                learned: true,
                ..dot(1, ChipRole::Active)
            },
        ];
        let p = paths(&dots, &names(2), &["T2".to_string()], false);
        assert_eq!(
            layer(&p, Layer::Active),
            "M0 110a110 110 0 1 0 220 0a110 110 0 1 0 -220 0zM280 0h220v220h-220z"
        );
        assert_eq!(layer(&p, Layer::RingLearned), "M260 -20h260v260h-260z");
        assert_eq!(layer(&p, Layer::RingFound), "M250 -30h280v280h-280z");
    }

    #[test]
    fn the_drawing_holds_its_rows_of_marks_and_their_rings() {
        assert_eq!(drawing(0), (224, 14));
        assert_eq!(drawing(16), (224, 14));
        assert_eq!(drawing(17), (224, 28));
        // The rings of the first mark, grown by the margin, start at the drawing's corner.
        let (margin, units) = origin_and_scale();
        assert_eq!(margin * units, f64::from(MARGIN));
        assert_eq!(margin, 1.5);
    }

    #[test]
    fn the_mark_under_a_pointer_follows_the_drawing_even_shrunk() {
        let dots: Vec<Dot> = (0..20).map(|t| dot(t, ChipRole::Active)).collect();
        let task = |x, y, shown| at(&dots, x, y, shown).map(|d| d.task.0);
        assert_eq!(task(5, 5, 224), Some(0));
        assert_eq!(task(15, 5, 224), Some(1));
        assert_eq!(task(5, 15, 224), Some(16));
        assert_eq!(task(60, 15, 224), None, "past the last mark");
        assert_eq!(task(230, 5, 224), None, "past the last column");
        assert_eq!(task(-3, 5, 224), None);
        // Shown at half its width, a pointer 7 px in is on the second mark.
        assert_eq!(task(8, 2, 112), Some(1));
    }

    #[test]
    fn the_pointer_reads_the_mark_under_it_in_words_placed_in_the_group() {
        let mut dots: Vec<Dot> = (0..3).map(|t| dot(t, ChipRole::Active)).collect();
        dots[1].role = ChipRole::Learner;
        let names = names(3);
        let place = Rect::new(100.0, 40.0, 224.0, 28.0);
        let over = |x: i32, away: bool| hover((&dots, &names), ("S2", away), (x, 5, 224), place);
        let first = over(5, false).expect("the first mark");
        assert_eq!((first.x, first.y), (105.0, 45.0), "in the group's pixels");
        assert_eq!(first.text, dots[0].describe("T1", "S2"));
        assert_eq!(
            over(5, true).map(|h| h.text).as_deref(),
            Some("T1 on S2 \u{00B7} active, down while S2 restarts"),
            "an active waits for its member away"
        );
        assert_eq!(
            over(15, true).map(|h| h.text),
            Some(dots[1].describe("T2", "S2")),
            "a learner of a member away is as it was"
        );
        assert_eq!(over(60, false), None, "past the last mark");
        assert_eq!(
            words(&dot(9, ChipRole::Active), &names, "S2", false),
            dot(9, ChipRole::Active).describe("", "S2"),
            "a task without a name"
        );
    }

    #[test]
    fn the_keyboard_moves_along_the_rows_and_columns_of_marks_and_stops_at_the_ends() {
        assert_eq!(step(0, 40, Step::Next), Some(1));
        assert_eq!(step(0, 40, Step::Previous), None);
        assert_eq!(step(3, 40, Step::Down), Some(19), "a row of sixteen down");
        assert_eq!(step(19, 40, Step::Up), Some(3));
        assert_eq!(step(30, 40, Step::Down), None, "no mark below");
        assert_eq!(step(39, 40, Step::Next), None);
        assert_eq!(step(12, 40, Step::First), Some(0));
        assert_eq!(step(12, 40, Step::Last), Some(39));
        assert_eq!(step(0, 0, Step::First), None, "no marks");
    }
}
