//! The design-review report: one self-contained HTML page for a scenario run under several
//! strategies (`handoff report`, and the playground's report export). It holds the scenario
//! summary, the comparison table (the figures `handoff compare` prints), and per strategy the
//! availability, downtime and load charts (inline SVG drawn by the same chart code as the
//! compare view), the balance per subtopology and the full round log in the seed's notation.
//!
//! A pure function of a comparison: no clock, no I/O, the same text natively and in wasm. The
//! page loads nothing (no fonts, scripts or images from elsewhere; its Content-Security-Policy
//! forbids it), reads without JavaScript, and prints on A4 or Letter.

mod page;
mod summary;
mod sweep_section;

use crate::compare::{self, Comparison, Outcome};
use crate::model::Scenario;
use crate::sweep::Sweep;
use crate::views::charts::{ChartData, Series};
use crate::views::counted;
use crate::views::notation;
use crate::views::series::{self, CHART_TASKS};
use crate::views::units::{duration, seconds, TimeAxis};
use page::{escape, figure, table};
use std::fmt::Write;

/// A chart drawn inline as SVG with its caption, or a line saying why it could not be.
fn chart(out: &mut String, class: &str, data: &ChartData, size: (u32, u32), caption: &str) {
    match data.svg(size, None) {
        Ok(svg) => figure(out, class, svg, caption),
        Err(e) => {
            let _ = writeln!(
                out,
                "<p class=\"note\">The {class} chart could not be drawn: {}</p>",
                escape(&e.to_string())
            );
        }
    }
}

/// Charts are this wide: the printable width of A4 with 15 mm margins at 96 pixels per inch.
const CHART_WIDTH: u32 = 680;
/// The height of the load and downtime charts.
const CHART_HEIGHT: u32 = 300;
/// The most members a load chart draws (those whose load changed most often).
const CHART_MEMBERS: usize = 24;

/// The report of `scenario` (its summary, with its own commands) and of its runs in
/// `comparison`, as an HTML page.
pub fn html(scenario: &Scenario, comparison: &Comparison) -> String {
    page(scenario, comparison, None)
}

/// The report with a section on a sweep of the scenario's settings after the comparison: its
/// table, its charts and where each strategy's curves level off.
pub fn with_sweep(scenario: &Scenario, comparison: &Comparison, sweep: &Sweep) -> String {
    page(scenario, comparison, Some(sweep))
}

fn page(scenario: &Scenario, comparison: &Comparison, sweep: Option<&Sweep>) -> String {
    let mut out = String::with_capacity(64 * 1024);
    let title = format!("Handoff report: {}", scenario.name);
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n\
         <meta name=\"generator\" content=\"Handoff {}\">\n<title>{}</title>\n<style>\n{}</style>\n</head>\n<body>\n",
        env!("CARGO_PKG_VERSION"),
        escape(&title),
        page::STYLE
    );
    let names: Vec<&str> = comparison
        .outcomes
        .iter()
        .map(|o| o.strategy.name())
        .collect();
    let _ = write!(out, "<header>\n<h1>{}</h1>\n", escape(&scenario.name));
    if !scenario.description.is_empty() {
        let _ = writeln!(
            out,
            "<p class=\"lead\">{}</p>",
            escape(&scenario.description)
        );
    }
    let _ = writeln!(
        out,
        "<p class=\"note\">A design review by Handoff {}: the same scenario, the same commands at the same times, under {}. Every figure is simulated, deterministically: the same file gives the same report.</p>\n</header>\n<main>",
        env!("CARGO_PKG_VERSION"),
        escape(&names.join(", "))
    );
    summary::scenario_section(&mut out, scenario);
    let until = comparison
        .outcomes
        .iter()
        .map(|o| o.run.frontier())
        .max()
        .unwrap_or(0)
        .max(1);
    comparison_section(&mut out, comparison, until);
    if let Some(sweep) = sweep {
        sweep_section::section(&mut out, sweep);
    }
    for outcome in &comparison.outcomes {
        strategy_section(&mut out, outcome);
    }
    out.push_str("</main>\n</body>\n</html>\n");
    out
}

/// The comparison table and the downtime of every strategy on one chart.
fn comparison_section(out: &mut String, c: &Comparison, until: u64) {
    out.push_str("<section id=\"comparison\">\n<h2>Comparison</h2>\n");
    let (header, rows) = compare::cells(c);
    let _ = write!(out, "<table class=\"comparison\">\n<thead><tr>");
    for h in &header {
        let _ = write!(out, "<th scope=\"col\">{}</th>", escape(h));
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for (outcome, row) in c.outcomes.iter().zip(&rows) {
        let _ = write!(out, "<tr data-strategy=\"{}\">", outcome.strategy.name());
        for (i, cell) in row.iter().enumerate() {
            if i == 0 {
                let _ = write!(
                    out,
                    "<th scope=\"row\"><a href=\"#strategy-{0}\">{0}</a></th>",
                    escape(cell)
                );
            } else {
                let _ = write!(out, "<td>{}</td>", escape(cell));
            }
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody>\n</table>\n");
    out.push_str(
        "<p class=\"note\">Downtime is task time not processed while some member was alive (summed over tasks, the longest single outage, the task with the most); time to balance runs from the first command to rest; records replayed counts learners and restoring owners.",
    );
    if header.contains(&"subtopology spread") {
        out.push_str(
            " Subtopology spread is the largest, over subtopologies, of max - min active tasks per member at the end (Kafka Streams calls 0 or 1 balanced).",
        );
    }
    out.push_str("</p>\n");
    let ends: Vec<u64> = c.outcomes.iter().map(|o| o.run.frontier()).collect();
    let downtime = |end: u64| ChartData {
        end,
        series: Series::Cumulative(
            c.outcomes
                .iter()
                .map(|o| (o.strategy, series::cumulative_downtime(&o.run, end)))
                .collect(),
        ),
    };
    let caption = "the steeper, the more tasks are down at once.";
    if let Some(first) = first_part(&ends) {
        chart(
            out,
            "downtime",
            &downtime(first),
            (CHART_WIDTH, CHART_HEIGHT),
            &format!(
                "Task downtime in the first {}, every strategy: {caption}",
                duration(first)
            ),
        );
        chart(
            out,
            "downtime",
            &downtime(until),
            (CHART_WIDTH, CHART_HEIGHT),
            &format!(
                "The same over the whole {}: {}.",
                duration(until),
                longest_runs(c, first)
            ),
        );
    } else {
        chart(
            out,
            "downtime",
            &downtime(until),
            (CHART_WIDTH, CHART_HEIGHT),
            &format!("Task downtime so far, every strategy: {caption}"),
        );
    }
    out.push_str("</section>\n");
}

/// When one run goes on far longer than the others (KIP-441's probing can go on for a day
/// while the others come to rest in minutes), the part of the time axis where the others'
/// runs end: a round time past the end of all but the longest. A whole-run chart would
/// squeeze their story into its first pixels; a log time axis would show it, but bend every
/// slope, and the slope is what the chart is read by. `None` when the runs end close enough
/// together for one chart.
fn first_part(ends: &[u64]) -> Option<u64> {
    let mut sorted = ends.to_vec();
    sorted.sort_unstable();
    let (&longest, rest) = sorted.split_last()?;
    let others = *rest.last()?;
    let axis = TimeAxis::of(others as f64 * 1.1, 8);
    let first = (others as f64 * 1.1 / axis.step_ms).ceil() * axis.step_ms;
    (longest as f64 >= first * 4.0).then_some(first as u64)
}

/// The strategies whose runs go on past `first`, in words (`kip441 runs for 24 h 0 min`).
fn longest_runs(c: &Comparison, first: u64) -> String {
    let long: Vec<String> = c
        .outcomes
        .iter()
        .filter(|o| o.run.frontier() > first)
        .map(|o| {
            format!(
                "{} runs for {}",
                o.strategy.name(),
                duration(o.run.frontier())
            )
        })
        .collect();
    long.join(", ")
}

/// One strategy: how its run ended, its balance per subtopology, its charts (over its own
/// run, so that a quick strategy is not squeezed by a slow one) and its log.
fn strategy_section(out: &mut String, o: &Outcome) {
    let name = o.strategy.name();
    let until = o.run.frontier().max(1);
    let m = &o.metrics;
    let _ = writeln!(
        out,
        "<section class=\"strategy\" id=\"strategy-{name}\">\n<h2>{name}</h2>"
    );
    let end = match (m.at_rest, m.balanced) {
        (true, true) => "at rest and balanced",
        (true, false) => "at rest but not balanced",
        _ => "not at rest",
    };
    let _ = writeln!(
        out,
        "<p>The run ends at {} with {} in the group, {end}: {} ms of task downtime in all, {}, {}.</p>",
        seconds(m.at_ms),
        counted(m.assignment.len() as u64, "member"),
        m.total_task_downtime_ms,
        counted(m.rebalances, "rebalance"),
        counted(m.moves, "move")
    );
    if !m.subtopology_balance.is_empty() {
        balance(out, o);
    }
    let roster = o.run.engine().roster();
    let lines = series::availability(&o.run, until);
    let total = lines.len();
    let lines = series::most_downtime(lines, CHART_TASKS);
    let rows = lines.len().max(1) as u32;
    let height = (rows * 11 + 90).max(CHART_HEIGHT);
    let title = if total > lines.len() {
        format!(
            "{name}: {} of {total} tasks, most downtime first",
            lines.len()
        )
    } else {
        format!("{name}: task availability")
    };
    let caption = if total > lines.len() {
        format!(
            "Availability of the {} tasks (of {total}) with the most time down or restoring: thin = processed, medium = restoring, full = down; shaded = a learner replays. The other tasks are left out to keep the chart readable and small.",
            lines.len()
        )
    } else {
        "Availability of every task: thin = processed, medium = restoring, full = down; shaded = a learner replays.".to_string()
    };
    let availability = ChartData {
        end: until,
        series: Series::Availability {
            title,
            lines,
            names: roster.tasks.clone(),
        },
    };
    chart(
        out,
        "availability",
        &availability,
        (CHART_WIDTH, height),
        &caption,
    );
    let downtime = ChartData {
        end: until,
        series: Series::Cumulative(vec![(
            o.strategy,
            series::cumulative_downtime(&o.run, until),
        )]),
    };
    let size = (CHART_WIDTH, CHART_HEIGHT);
    chart(
        out,
        "downtime",
        &downtime,
        size,
        &format!("{name}: task downtime accumulated over the run."),
    );
    let load = series::member_load(&o.run, until);
    let members = load.len();
    let load = series::most_changes(load, CHART_MEMBERS);
    let shown = load.len();
    let load = ChartData {
        end: until,
        series: Series::Load {
            title: format!("{name}: active tasks per member"),
            lines: load,
            names: roster.members.clone(),
        },
    };
    let caption = if members > shown {
        format!(
            "Active tasks per member: the {shown} members (of {members}) whose load changed most often."
        )
    } else {
        "Active tasks per member over the run.".to_string()
    };
    chart(out, "load", &load, size, &caption);
    let log = notation::log(o.run.engine(), o.run.rounds());
    let _ = writeln!(
        out,
        "<details class=\"log\">\n<summary>Round log in the seed's notation ({} rounds; open to read or print)</summary>\n<pre>{}</pre>\n</details>\n</section>",
        o.run.rounds().len(),
        escape(log.trim_end())
    );
}

/// The balance of each subtopology at the end of a run.
fn balance(out: &mut String, o: &Outcome) {
    let roster = o.run.engine().roster();
    out.push_str("<h3>Balance per subtopology</h3>\n");
    let rows: Vec<Vec<String>> = o
        .metrics
        .subtopology_balance
        .iter()
        .map(|b| {
            let name = roster
                .subtopologies
                .get(b.subtopology as usize)
                .map_or(String::new(), |n| format!(": {n}"));
            vec![
                format!("{}{name}", b.subtopology),
                b.tasks.to_string(),
                b.min.to_string(),
                b.max.to_string(),
                b.spread().to_string(),
                if b.spread() <= 1 { "yes" } else { "no" }.to_string(),
            ]
        })
        .collect();
    table(
        out,
        "balance",
        &[
            "subtopology",
            "tasks",
            "fewest per member",
            "most per member",
            "spread",
            "balanced",
        ],
        &rows,
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Command, MemberSpec, Strategy};
    use crate::playground::session::Session;
    use crate::presets::Preset;

    #[test]
    fn a_run_far_longer_than_the_others_gets_a_chart_of_the_others_part() {
        // The others end by 13 min 20 s; 10 % more is 14 min 40 s, rounded up to the
        // 2-minute step of its axis: 16 min. A day is more than four times that.
        assert_eq!(
            first_part(&[710_340, 86_460_000, 423_628, 800_000]),
            Some(960_000)
        );
        // Runs that end within four times of each other share one chart.
        assert_eq!(first_part(&[60_000, 200_000]), None);
        assert_eq!(first_part(&[60_000]), None, "one run");
        assert_eq!(first_part(&[]), None);
    }

    #[test]
    fn a_report_of_runs_of_unlike_lengths_shows_the_first_minutes_and_the_whole() {
        let scenario = Scenario::from_json(include_str!(
            "../../scenarios/review/scale-out-under-load.json"
        ))
        .expect("parses");
        let comparison =
            Comparison::run(&scenario, &[Strategy::Learner, Strategy::Kip441]).expect("runs");
        let html = html(&scenario, &comparison);
        let part = &html[html.find("id=\"comparison\"").unwrap_or(0)..];
        let part = &part[..part.find("</section>").unwrap_or(0)];
        assert_eq!(part.matches("<svg").count(), 2, "two panels");
        assert!(part.contains("<figcaption>Task downtime in the first "));
        assert!(part.contains("kip441 runs for 12 h"), "{part}");
        assert!(
            part.contains("\n6 min\n</text>"),
            "minutes on the first panel's axis"
        );
        assert!(part.contains("\n8 h\n</text>"), "hours on the whole run's");
        assert!(!part.contains("000s"), "no counts of seconds");
    }

    #[test]
    fn a_session_report_shows_the_persons_commands_and_every_lane() {
        let mut scenario = Preset::find("scale-up-running")
            .expect("preset")
            .scenario()
            .expect("parses");
        scenario.name = "Scale <up> & away".to_string();
        let mut session =
            Session::new(scenario, &[Strategy::Learner, Strategy::Cooperative]).expect("starts");
        session.seek(1_000).expect("runs");
        session
            .command(Command::Join(MemberSpec {
                name: "S9".to_string(),
                capacity: 3,
                restore_rate: None,
                zone: Some("b".to_string()),
            }))
            .expect("joins");
        let html = session.report().expect("runs to the end");
        assert!(html.contains("<title>Handoff report: Scale &lt;up&gt; &amp; away</title>"));
        assert!(html.contains("<li><time>1.0 s</time> join S9 (3 threads, zone b)</li>"));
        assert!(
            html.contains("id=\"strategy-learner\"")
                && html.contains("id=\"strategy-cooperative\"")
        );
        assert!(!html.contains("id=\"strategy-eager\""));
        // The log of each lane is the whole run, the person's member included.
        let learner = &html[html.find("id=\"strategy-learner\"").unwrap_or(0)..];
        let log = &learner[learner.find("<pre>").unwrap_or(0)..learner.find("</pre>").unwrap_or(0)];
        assert!(log.contains("\tS9(assigned: ["), "{log}");
    }
}
