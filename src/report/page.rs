//! The report's HTML building blocks: escaping, tables, inline SVG charts, and the style sheet
//! (screen and print).

use std::fmt::Write;

/// Text made safe to place in HTML content and in quoted attribute values.
pub(super) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A table: a header row and rows of cells (escaped here); the first column reads as a label,
/// the others as figures.
pub(super) fn table(out: &mut String, class: &str, header: &[&str], rows: &[Vec<String>]) {
    let _ = write!(out, "<table class=\"{class}\">\n<thead><tr>");
    for h in header {
        let _ = write!(out, "<th scope=\"col\">{}</th>", escape(h));
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for row in rows {
        out.push_str("<tr>");
        for (i, cell) in row.iter().enumerate() {
            if i == 0 {
                let _ = write!(out, "<th scope=\"row\">{}</th>", escape(cell));
            } else {
                let _ = write!(out, "<td>{}</td>", escape(cell));
            }
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody>\n</table>\n");
}

/// A chart drawn as SVG, placed inline: without its namespace attribute (HTML knows
/// SVG; the report then holds no address at all) and labelled for screen readers.
pub(super) fn figure(out: &mut String, class: &str, svg: String, caption: &str) {
    let _ = writeln!(out, "<figure class=\"chart {class}\">");
    let attributes = svg.strip_prefix("<svg ").unwrap_or(&svg);
    let attributes = attributes.replacen(" xmlns=\"http://www.w3.org/2000/svg\"", "", 1);
    let _ = writeln!(
        out,
        "<svg role=\"img\" aria-label=\"{}\" {}",
        escape(caption),
        attributes.trim_end()
    );
    let _ = writeln!(
        out,
        "<figcaption>{}</figcaption>\n</figure>",
        escape(caption)
    );
}

/// The style sheet: readable on screen, and on A4 or Letter paper (each strategy on a new
/// page, charts as wide as the page, tables and charts not split).
pub(super) const STYLE: &str = "\
:root { color-scheme: light; }
body { font: 15px/1.45 system-ui, -apple-system, 'Segoe UI', sans-serif; color: #1a1a1a;
  background: #fff; max-width: 56rem; margin: 2rem auto; padding: 0 1rem; }
h1 { font-size: 1.6rem; margin-bottom: 0.2rem; }
h2 { font-size: 1.3rem; border-bottom: 2px solid #0072b2; padding-bottom: 0.15rem; margin-top: 2.2rem; }
h3 { font-size: 1.05rem; margin: 1.4rem 0 0.4rem; }
p.lead { color: #444; margin-top: 0; }
table { border-collapse: collapse; margin: 0.5rem 0 1rem; font-variant-numeric: tabular-nums; }
th, td { padding: 0.2rem 0.6rem; border-bottom: 1px solid #d0d0d0; text-align: right; vertical-align: top; }
th[scope=row], thead th:first-child { text-align: left; }
thead th { border-bottom: 2px solid #888; }
table.config td, table.config th { text-align: left; }
figure { margin: 1rem 0 1.5rem; }
figure svg { display: block; width: 100%; height: auto; max-width: 680px; }
figcaption { font-size: 0.85rem; color: #444; }
ol.commands time { display: inline-block; min-width: 6rem; font-variant-numeric: tabular-nums; }
details.log summary { cursor: pointer; font-weight: 600; }
details.log pre { font-size: 0.78rem; line-height: 1.35; white-space: pre-wrap; background: #f6f6f6;
  padding: 0.6rem; border: 1px solid #ddd; }
.note { font-size: 0.9rem; color: #444; }
@page { margin: 15mm; }
@media print {
  body { max-width: none; margin: 0; padding: 0; font-size: 10pt; }
  section.strategy { break-before: page; }
  figure, table, tr { break-inside: avoid; }
  thead { display: table-header-group; }
  h2, h3 { break-after: avoid; }
  details.log pre { font-size: 7.5pt; }
}
";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_covers_markup_and_quotes() {
        assert_eq!(
            escape(r#"<b class="x">Tom & Jerry's</b>"#),
            "&lt;b class=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/b&gt;"
        );
    }

    #[test]
    fn a_figure_holds_the_chart_without_its_namespace() {
        let mut out = String::new();
        let chart = crate::views::charts::ChartData {
            end: 1,
            series: crate::views::charts::Series::Cumulative(Vec::new()),
        };
        let svg = chart.svg((10, 10), None).expect("draws");
        figure(&mut out, "load", svg, "S1 & S2");
        assert!(!out.contains("http"), "{out}");
        assert!(out.contains("<svg role=\"img\" aria-label=\"S1 &amp; S2\" width=\"10\""));
    }
}
