//! What charts are drawn on: a [`Pen`] (filled rectangles, lines, text), with [`Svg`] text as
//! one surface (the browser's canvas is the other), and [`PlotMap`], which maps a pointer's
//! pixel back to the data under it.

use std::fmt::Write;

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

/// How text is placed against its point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    /// The point is the text's left end.
    Start,
    /// The point is its middle.
    Middle,
    /// The point is its right end.
    End,
}

/// What a chart is drawn with: filled rectangles, lines and text (vertically centred on
/// their point), in pixels from the top left.
pub trait Pen {
    /// A filled rectangle.
    fn rect(&mut self, x: f64, y: f64, w: f64, h: f64, fill: &str, opacity: f64);
    /// A line through points.
    fn line(&mut self, points: &[(f64, f64)], stroke: &str, width: f64);
    /// Text.
    fn text(&mut self, x: f64, y: f64, text: &str, size: u32, anchor: Anchor, fill: &str);
}

/// A number with one decimal, written without float formatting.
fn num(out: &mut String, x: f64) {
    out.push_str(&super::fixed(x, 1));
}

/// SVG text, for export and tests.
#[derive(Debug)]
pub struct Svg {
    out: String,
}

impl Svg {
    /// An empty white drawing of a size.
    pub fn new((w, h): (u32, u32)) -> Svg {
        let mut out = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"sans-serif\">\n"
        );
        let _ = writeln!(out, "<rect width=\"{w}\" height=\"{h}\" fill=\"#FFFFFF\"/>");
        Svg { out }
    }

    /// The SVG text.
    pub fn finish(mut self) -> String {
        self.out.push_str("</svg>\n");
        self.out
    }
}

/// Escapes text for XML.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

impl Pen for Svg {
    fn rect(&mut self, x: f64, y: f64, w: f64, h: f64, fill: &str, opacity: f64) {
        let o = &mut self.out;
        o.push_str("<rect x=\"");
        num(o, x);
        o.push_str("\" y=\"");
        num(o, y);
        o.push_str("\" width=\"");
        num(o, w.max(0.0));
        o.push_str("\" height=\"");
        num(o, h.max(0.0));
        let _ = write!(o, "\" fill=\"{fill}\"");
        if opacity < 1.0 {
            o.push_str(" fill-opacity=\"");
            num(o, opacity);
            o.push('"');
        }
        o.push_str("/>\n");
    }

    fn line(&mut self, points: &[(f64, f64)], stroke: &str, width: f64) {
        let o = &mut self.out;
        o.push_str("<polyline fill=\"none\" points=\"");
        for (i, &(x, y)) in points.iter().enumerate() {
            if i > 0 {
                o.push(' ');
            }
            num(o, x);
            o.push(',');
            num(o, y);
        }
        let _ = write!(o, "\" stroke=\"{stroke}\" stroke-width=\"");
        num(o, width);
        o.push_str("\"/>\n");
    }

    fn text(&mut self, x: f64, y: f64, text: &str, size: u32, anchor: Anchor, fill: &str) {
        let o = &mut self.out;
        o.push_str("<text x=\"");
        num(o, x);
        o.push_str("\" y=\"");
        num(o, y);
        let anchor = match anchor {
            Anchor::Start => "start",
            Anchor::Middle => "middle",
            Anchor::End => "end",
        };
        let _ = writeln!(
            o,
            "\" font-size=\"{size}\" text-anchor=\"{anchor}\" dominant-baseline=\"central\" fill=\"{fill}\">{}</text>",
            escape(text)
        );
    }
}
