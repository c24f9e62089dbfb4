//! The plane the group is drawn on: rectangles in CSS pixels, and the keyboard's moves over a
//! grid of cards, tiles or marks. The layouts (`scene`, `marks`, `overview`, `travel`) all
//! stand on these.

/// A rectangle in CSS pixels, from the group's top left corner.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Rect {
    /// Left edge.
    pub x: f64,
    /// Top edge.
    pub y: f64,
    /// Width.
    pub w: f64,
    /// Height.
    pub h: f64,
}

impl Rect {
    /// A rectangle from its left, top, width and height.
    pub fn new(x: f64, y: f64, w: f64, h: f64) -> Rect {
        Rect { x, y, w, h }
    }

    /// Whether `other` lies wholly inside this one.
    pub fn holds(&self, other: &Rect) -> bool {
        const EDGE: f64 = 1e-9;
        other.x >= self.x - EDGE
            && other.y >= self.y - EDGE
            && other.x + other.w <= self.x + self.w + EDGE
            && other.y + other.h <= self.y + self.h + EDGE
    }

    /// Whether the two share any area.
    pub fn overlaps(&self, other: &Rect) -> bool {
        self.x < other.x + other.w
            && other.x < self.x + self.w
            && self.y < other.y + other.h
            && other.y < self.y + self.h
    }

    /// Whether any of it lies between the heights `top` and `bottom`.
    pub fn meets_rows(&self, top: f64, bottom: f64) -> bool {
        self.y < bottom && self.y + self.h > top
    }

    /// The rectangle a share `t` (0 to 1) of the way from this one to `to`.
    pub fn toward(&self, to: &Rect, t: f64) -> Rect {
        let at = |a: f64, b: f64| a + (b - a) * t;
        Rect::new(
            at(self.x, to.x),
            at(self.y, to.y),
            at(self.w, to.w),
            at(self.h, to.h),
        )
    }

    /// The same rectangle with its edges moved to the nearest device pixels, at `ratio`
    /// device pixels a CSS pixel: drawn again over its old self, it covers exactly its pixels.
    pub fn snapped(&self, ratio: f64) -> Rect {
        let at = |v: f64| (v * ratio).round() / ratio;
        let (x, y) = (at(self.x), at(self.y));
        Rect::new(x, y, at(self.x + self.w) - x, at(self.y + self.h) - y)
    }

    /// The same rectangle relative to `origin`'s top left corner.
    pub fn within(&self, origin: &Rect) -> Rect {
        Rect::new(self.x - origin.x, self.y - origin.y, self.w, self.h)
    }

    /// The smallest rectangle holding both.
    pub fn union(&self, other: &Rect) -> Rect {
        let (x, y) = (self.x.min(other.x), self.y.min(other.y));
        let right = (self.x + self.w).max(other.x + other.w);
        let bottom = (self.y + self.h).max(other.y + other.h);
        Rect::new(x, y, right - x, bottom - y)
    }
}

/// A move of the keyboard's focus from one member's card or tile to another.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// The next in reading order.
    Next,
    /// The one before in reading order.
    Previous,
    /// The nearest below, in the same column.
    Down,
    /// The nearest above, in the same column.
    Up,
    /// The first.
    First,
    /// The last.
    Last,
}

impl Step {
    /// The step a key asks for over a grid of cards, tiles or marks: the arrow keys, Home and
    /// End; `None` for any other key.
    pub fn of_key(key: &str) -> Option<Step> {
        Some(match key {
            "ArrowRight" => Step::Next,
            "ArrowLeft" => Step::Previous,
            "ArrowDown" => Step::Down,
            "ArrowUp" => Step::Up,
            "Home" => Step::First,
            "End" => Step::Last,
            _ => return None,
        })
    }
}
