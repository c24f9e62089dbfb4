//! The report's sweep section: what was swept, where each strategy's curves level off (the
//! knee), the table of every run with the figures `handoff sweep` prints, and its charts.

use super::page::{escape, figure, table};
use super::CHART_WIDTH;
use crate::sweep::Sweep;
use crate::views::counted;
use std::fmt::Write;

/// The height of a sweep's charts.
const SWEEP_CHART_HEIGHT: u32 = 320;

/// The sweep as a section of the report.
pub(super) fn section(out: &mut String, sweep: &Sweep) {
    let q = &sweep.question;
    let swept: Vec<String> = q
        .settings
        .iter()
        .map(|a| {
            let values: Vec<String> = a.values.expand().iter().map(ToString::to_string).collect();
            format!("{} at {}", a.setting, values.join(", "))
        })
        .collect();
    let names: Vec<&str> = q.settings.iter().map(|a| a.setting.as_str()).collect();
    let strategies: Vec<&str> = q.strategies.iter().map(|s| s.name()).collect();
    let _ = writeln!(
        out,
        "<section id=\"sweep\">\n<h2>Sweep: {}</h2>\n<p>The same scenario with {}, under {}: {}. The figures read as in the comparison; <em>never</em> marks a run that did not come to rest within the scenario's horizon.</p>",
        escape(&names.join(" and ")),
        escape(&swept.join(" and ")),
        escape(&strategies.join(", ")),
        counted(sweep.cells.len() as u64, "run")
    );
    let sentences = sweep.knee_sentences();
    if !sentences.is_empty() {
        out.push_str("<h3>Where the curves level off</h3>\n<p class=\"note\">The knee of a curve is the smallest value past which the measure improves by less than a tenth at every further step: at the first value, no larger one pays off by a tenth.</p>\n<ul class=\"knees\">\n");
        for s in &sentences {
            let _ = writeln!(out, "<li>{}</li>", escape(s));
        }
        out.push_str("</ul>\n");
    }
    let (header, rows) = sweep.table_cells();
    let header: Vec<&str> = header.iter().map(String::as_str).collect();
    table(out, "sweep", &header, &rows);
    for f in sweep.charts() {
        match f.chart.svg((CHART_WIDTH, SWEEP_CHART_HEIGHT)) {
            Ok(svg) => figure(out, "sweep", svg, &f.caption),
            Err(e) => {
                let _ = writeln!(
                    out,
                    "<p class=\"note\">The chart {} could not be drawn: {}</p>",
                    escape(&f.id),
                    escape(&e.to_string())
                );
            }
        }
    }
    out.push_str("</section>\n");
}
