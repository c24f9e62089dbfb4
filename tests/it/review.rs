//! Design reviews: the worked examples in `scenarios/review/` and the reports `handoff report`
//! writes for them, checked for content against the command line's own figures (the
//! comparison, the balance per subtopology, the round logs), for their charts, and for being
//! self-contained.

use crate::harness::{handoff, project, scenario_file, stderr, stdout};
use handoff::model::{Command, Config, Strategy};
use serde_json::Value;
use std::path::PathBuf;

const SCALE_OUT: &str = "scenarios/review/scale-out-under-load.json";
const ROLLING: &str = "scenarios/review/rolling-deployment.json";

/// A worked example and what its report must show that depends on the file.
struct Review {
    path: &'static str,
    /// Thick lines on the load chart: one per member, and a key each in the legend, which is
    /// drawn for 12 members or fewer.
    load_lines: usize,
    /// Rows of the summary's members table, header included.
    member_rows: usize,
    /// Its last command, as the summary lists it.
    last_command: &'static str,
}

/// Every worked example: the table, section, log and self-containment checks run over each.
const REVIEWS: [Review; 2] = [
    Review {
        path: SCALE_OUT,
        load_lines: 15,
        member_rows: 16,
        last_command: "<li><time>60.0 s</time> join S15 (2 threads, zone c)</li>",
    },
    Review {
        path: ROLLING,
        load_lines: 24,
        member_rows: 13,
        last_command: "<li><time>60.0 s</time> rolling restart</li>",
    },
];

/// The text between the first `start` and the next `end` after it.
fn between<'a>(text: &'a str, start: &str, end: &str) -> &'a str {
    let from = text
        .find(start)
        .unwrap_or_else(|| panic!("{start:?} missing"))
        + start.len();
    let to = text[from..]
        .find(end)
        .unwrap_or_else(|| panic!("{end:?} missing after {start:?}"))
        + from;
    &text[from..to]
}

fn unescape(text: &str) -> String {
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// The text of each cell (`<th>` or `<td>`) of a table row, without inner markup.
fn cells(row: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = row;
    while let Some(at) = rest.find("<t") {
        let tag = &rest[at..];
        if !(tag.starts_with("<th") || tag.starts_with("<td")) {
            rest = &rest[at + 2..];
            continue;
        }
        let open = tag.find('>').expect("tag closes") + 1;
        let close = tag.find("</t").expect("cell closes");
        let mut text = String::new();
        let mut in_tag = false;
        for c in tag[open..close].chars() {
            match c {
                '<' => in_tag = true,
                '>' => in_tag = false,
                c if !in_tag => text.push(c),
                _ => {}
            }
        }
        out.push(unescape(&text));
        rest = &tag[close..];
    }
    out
}

/// The rows of the first table after `marker`, header first.
fn table_rows(html: &str, marker: &str) -> Vec<Vec<String>> {
    let table = between(html, marker, "</table>");
    table
        .split("<tr")
        .skip(1)
        .map(cells)
        .filter(|c| !c.is_empty())
        .collect()
}

/// The Markdown table `handoff compare` prints, as rows of cells, header first.
fn markdown_rows(table: &str) -> Vec<Vec<String>> {
    table
        .lines()
        .filter(|l| l.starts_with('|') && !l.contains("---"))
        .map(|l| {
            l.trim_matches('|')
                .split('|')
                .map(|c| c.trim().to_string())
                .collect()
        })
        .collect()
}

fn temp_path(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("handoff-review-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join(name)
}

/// `handoff report` of a scenario file, written with `-o` and read back.
fn report(path: &str, extra: &[&str]) -> String {
    // A file of each call's own: tests running at once write reports of the same scenario.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let out_path = temp_path(&format!(
        "{}-{call}.html",
        path.replace('/', "_").trim_end_matches(".json")
    ));
    let out_str = out_path.to_str().expect("utf-8 path");
    let mut args = vec!["report", path, "-o", out_str];
    args.extend_from_slice(extra);
    let out = handoff(&args, None);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).is_empty(), "with -o nothing is printed");
    std::fs::read_to_string(&out_path).expect("report written")
}

fn run_ok(args: &[&str]) -> String {
    let out = handoff(args, None);
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    stdout(&out)
}

/// The lines of a load chart: members are drawn 2 pixels wide, axes and ticks 1.
fn member_lines(chart: &str) -> usize {
    chart
        .split("<polyline")
        .skip(1)
        .filter(|p| p[..p.find('>').unwrap_or(0)].contains("stroke-width=\"2\""))
        .count()
}

/// A strategy's section of the report.
fn section<'a>(html: &'a str, strategy: &str) -> &'a str {
    between(
        html,
        &format!("<section class=\"strategy\" id=\"strategy-{strategy}\">"),
        "</section>",
    )
}

#[test]
fn the_scale_out_example_is_a_100_task_application_on_12_instances_in_3_zones() {
    let s = scenario_file(SCALE_OUT);
    let topology = s.topology.as_ref().expect("given as a topology");
    assert_eq!(topology.subtopologies.len(), 3);
    assert!(
        (90..=110).contains(&s.tasks.len()),
        "{} tasks",
        s.tasks.len()
    );
    assert_eq!(s.members.len(), 12);
    let zones: std::collections::BTreeSet<_> =
        s.members.iter().filter_map(|m| m.zone.clone()).collect();
    assert_eq!(zones.len(), 3);
    assert!(
        s.initial
            .as_ref()
            .is_some_and(|o| o.iter().all(Option::is_some)),
        "the application is running when the instances join"
    );
    assert!(s.tasks.iter().any(|t| t.write_rate > 0), "under load");
}

#[test]
fn the_rolling_deployment_example_restarts_the_same_application_with_static_membership() {
    let scale_out = scenario_file(SCALE_OUT);
    let s = scenario_file(ROLLING);
    assert_eq!(s.topology, scale_out.topology, "the same application");
    assert_eq!(s.instances, scale_out.instances);
    assert_eq!(s.tasks, scale_out.tasks);
    assert_eq!(s.members, scale_out.members);
    assert_eq!(
        s.initial, scale_out.initial,
        "running when the deployment starts"
    );
    assert!(s.config.static_membership && !scale_out.config.static_membership);
    assert_eq!(
        Config {
            static_membership: false,
            ..s.config.clone()
        },
        scale_out.config
    );
    assert_eq!(s.commands.len(), 1);
    assert_eq!(s.commands[0].at_ms, 60_000);
    match s.commands[0].command {
        Command::RollingRestart {
            down_ms,
            keep_state,
        } => {
            assert!(keep_state);
            assert!(
                down_ms < s.config.session_timeout_ms,
                "back before the session times out"
            );
        }
        ref other => panic!("a rolling restart, not {other}"),
    }
}

#[test]
fn with_static_membership_a_deployment_costs_each_task_its_instances_time_away_and_no_rebalance() {
    let compare: Value =
        serde_json::from_str(&run_ok(&["compare", ROLLING, "--format", "json"])).expect("json");
    let s = scenario_file(ROLLING);
    for row in compare["strategies"].as_array().expect("strategies") {
        let name = row["strategy"].as_str().expect("name");
        if name == "kip1071" {
            // Kafka 4.1 to 4.3 have no static members in a streams group: each restart is
            // a leave and a join.
            assert!(row["rebalances"].as_u64() > Some(0), "{name}");
            continue;
        }
        assert_eq!(row["rebalances"], 0, "{name}");
        assert_eq!(row["moves"], 0, "{name}");
        assert_eq!(
            row["total_task_downtime_ms"].as_u64(),
            Some(s.tasks.len() as u64 * 30_000),
            "{name}: every task down exactly while its instance is away"
        );
    }
    // Without static membership the same deployment rebalances under every strategy.
    let mut file: Value =
        serde_json::from_str(&std::fs::read_to_string(project(ROLLING)).expect("file"))
            .expect("json");
    file["config"]["static_membership"] = Value::Bool(false);
    let path = temp_path("rolling-dynamic.json");
    std::fs::write(&path, file.to_string()).expect("write");
    let dynamic: Value = serde_json::from_str(&run_ok(&[
        "compare",
        path.to_str().expect("utf-8"),
        "--format",
        "json",
    ]))
    .expect("json");
    for row in dynamic["strategies"].as_array().expect("strategies") {
        let rebalances = row["rebalances"].as_u64().expect("rebalances");
        assert!(rebalances >= 12, "{}: {rebalances}", row["strategy"]);
    }
}

#[test]
fn the_report_table_is_what_handoff_compare_prints() {
    for review in &REVIEWS {
        let html = report(review.path, &[]);
        let printed = run_ok(&["compare", review.path]);
        let expected = markdown_rows(&printed);
        assert!(
            printed.contains("rebalances: group epochs under kip1071 and kip1071-warmup")
                && html.contains("rebalances: group epochs under kip1071 and kip1071-warmup"),
            "both name what the column counts under the streams protocol"
        );
        assert!(html.contains("<p class=\"caveat\">Kafka trunk, not released"));
        let got = table_rows(&html, "<table class=\"comparison\">");
        assert_eq!(got, expected, "{}", review.path);
        assert_eq!(
            got.len(),
            1 + Strategy::ALL.len(),
            "a header and one row per strategy"
        );
        assert_eq!(
            got[0].last().map(String::as_str),
            Some("subtopology spread"),
            "a topology adds the spread column"
        );
    }
}

#[test]
fn each_strategy_has_its_charts_balance_and_log() {
    for review in &REVIEWS {
        strategy_sections(review);
    }
}

fn strategy_sections(review: &Review) {
    let path = review.path;
    let html = report(path, &[]);
    let compare: Value =
        serde_json::from_str(&run_ok(&["compare", path, "--format", "json"])).expect("json");
    let strategies = compare["strategies"].as_array().expect("strategies");
    assert_eq!(strategies.len(), Strategy::ALL.len());
    let file: Value =
        serde_json::from_str(&std::fs::read_to_string(project(path)).expect("file")).expect("json");
    for row in strategies {
        let name = row["strategy"].as_str().expect("name");
        let part = section(&html, name);
        assert_eq!(
            part.matches("<svg").count(),
            3,
            "{path} {name}: three charts"
        );
        for chart in ["availability", "downtime", "load"] {
            let figure = between(
                part,
                &format!("<figure class=\"chart {chart}\">"),
                "</figure>",
            );
            assert!(
                figure.contains("<svg") && figure.contains("</svg>"),
                "{path} {name} {chart}"
            );
            assert!(figure.contains("<figcaption>"), "{path} {name} {chart}");
        }
        let availability = between(part, "<figure class=\"chart availability\">", "</figure>");
        assert!(
            availability.matches("<rect").count() > 40,
            "{path} {name}: spans drawn"
        );
        assert!(availability.contains("of 100 tasks, most downtime first"));
        let load = between(part, "<figure class=\"chart load\">", "</figure>");
        assert_eq!(
            member_lines(load),
            review.load_lines,
            "{path} {name}: a line per member"
        );

        // The balance per subtopology, as `handoff compare --format json` reports it.
        let balance = row["subtopology_balance"].as_array().expect("balance");
        assert_eq!(balance.len(), 3);
        let rows = table_rows(part, "<table class=\"balance\">");
        assert_eq!(
            rows.len(),
            4,
            "{path} {name}: a header and three subtopologies"
        );
        for (b, r) in balance.iter().zip(&rows[1..]) {
            let label = format!(
                "{}: {}",
                b["subtopology"],
                b["name"].as_str().expect("name")
            );
            let expected = vec![
                label,
                b["tasks"].to_string(),
                b["min"].to_string(),
                b["max"].to_string(),
                b["spread"].to_string(),
                if b["spread"].as_u64() <= Some(1) {
                    "yes"
                } else {
                    "no"
                }
                .to_string(),
            ];
            assert_eq!(r, &expected, "{path} {name}");
        }

        // The whole round log, as `handoff run` prints it under that strategy.
        let mut one = file.clone();
        one["config"]["strategy"] = Value::String(name.to_string());
        let run_path = temp_path(&format!(
            "{}-{name}.json",
            path.replace('/', "_").trim_end_matches(".json")
        ));
        std::fs::write(&run_path, one.to_string()).expect("write");
        let log = run_ok(&["run", run_path.to_str().expect("utf-8")]);
        let shown = unescape(between(part, "<pre>", "</pre>"));
        assert_eq!(shown, log.trim_end(), "{path} {name}: the round log");
        let rounds = log
            .lines()
            .filter(|l| {
                l.starts_with('#')
                    && l.contains("Rebalance")
                    && (l.contains("(generation") || l.contains("(group epoch"))
            })
            .count();
        if row["rebalances"].as_u64() > Some(0) {
            assert!(shown.starts_with("#First Rebalance"), "{path} {name}");
        }
        assert!(
            part.contains(&format!("({rounds} rounds;")),
            "{path} {name}"
        );
        assert!(between(part, "<details class=\"log\">", "</details>").contains("<summary>"));
    }
}

#[test]
fn the_scenario_summary_describes_the_application() {
    for review in &REVIEWS {
        let html = report(review.path, &[]);
        let summary = between(&html, "<section id=\"scenario\">", "</section>");
        let subtopologies = table_rows(summary, "<table class=\"subtopologies\">");
        let names: Vec<&str> = subtopologies[1..].iter().map(|r| r[0].as_str()).collect();
        assert_eq!(names, ["0: orders", "1: payments", "2: enrich"]);
        assert_eq!(subtopologies[1][1], "56 (0_0 to 0_55)");
        let s = scenario_file(review.path);
        let derived_total: u64 = s.tasks.iter().map(|t| t.changelog).sum();
        let shown_total: u64 = subtopologies[1..]
            .iter()
            .map(|r| r[4].replace(',', "").parse::<u64>().expect("records"))
            .sum();
        assert_eq!(shown_total, derived_total, "{}", review.path);
        let members = table_rows(summary, "<table class=\"members\">");
        assert_eq!(members.len(), review.member_rows, "{}", review.path);
        assert!(summary.contains("a (4 members), b (4 members), c (4 members)"));
        assert!(summary.contains("running: every task owned and caught up"));
        assert!(summary.contains(review.last_command), "{}", review.path);
    }
    let html = report(SCALE_OUT, &[]);
    let members = table_rows(&html, "<table class=\"members\">");
    assert_eq!(members[13], ["S13", "2", "a", "40,000", "joins at 60.0 s"]);
    let html = report(ROLLING, &[]);
    assert!(html.contains("<tr><th scope=\"row\">static_membership</th><td>true</td></tr>"));
}

#[test]
fn the_report_is_self_contained_well_formed_and_printable() {
    for review in &REVIEWS {
        self_contained(&report(review.path, &[]));
    }
}

fn self_contained(html: &str) {
    for external in [
        "http://",
        "https://",
        "src=",
        "href=\"//",
        "url(",
        "@import",
    ] {
        assert!(!html.contains(external), "found {external:?}");
    }
    for tag in ["<script", "<img", "<link", "<iframe", "<object"] {
        assert!(!html.contains(tag), "found {tag}");
    }
    for href in html.split("href=\"").skip(1) {
        assert!(
            href.starts_with('#'),
            "a link leaves the page: {}",
            &href[..20]
        );
    }
    assert!(html.starts_with("<!DOCTYPE html>\n<html lang=\"en\">"));
    assert!(html.trim_end().ends_with("</html>"));
    for tag in ["html", "head", "body", "main", "header", "style", "title"] {
        let open =
            html.matches(&format!("<{tag}>")).count() + html.matches(&format!("<{tag} ")).count();
        assert_eq!(open, 1, "<{tag}>");
        assert_eq!(html.matches(&format!("</{tag}>")).count(), 1, "</{tag}>");
    }
    for tag in [
        "section", "table", "figure", "svg", "details", "pre", "ol", "tr",
    ] {
        let open =
            html.matches(&format!("<{tag}>")).count() + html.matches(&format!("<{tag} ")).count();
        assert_eq!(open, html.matches(&format!("</{tag}>")).count(), "<{tag}>");
        assert!(open > 0, "<{tag}> used");
    }
    assert!(html.contains("Content-Security-Policy\" content=\"default-src 'none'"));
    let css = between(html, "<style>", "</style>");
    assert!(
        css.contains("@media print") && css.contains("section.strategy { break-before: page; }")
    );
    assert!(css.contains("figure svg { display: block; width: 100%;"));
    // Four strategies of 100 tasks, with every round of a day of probing rebalances logged.
    assert!(html.len() < 2_000_000, "{} bytes", html.len());
}

#[test]
fn the_report_is_the_same_every_time_and_on_stdout() {
    let written = report(SCALE_OUT, &["--strategies", "learner,eager"]);
    let printed = run_ok(&["report", SCALE_OUT, "--strategies", "learner,eager"]);
    assert_eq!(written, printed);
    assert_eq!(
        report(SCALE_OUT, &["--strategies", "learner,eager"]),
        written
    );
    let rows = table_rows(&written, "<table class=\"comparison\">");
    let order: Vec<&str> = rows[1..].iter().map(|r| r[0].as_str()).collect();
    assert_eq!(order, ["learner", "eager"]);
    assert!(!written.contains("id=\"strategy-kip441\""));
}

#[test]
fn a_large_group_gets_summarised_charts() {
    let text = r#"{ "name": "large",
        "config": { "rebalance_ms": 2000, "restore_rate": 1000000 },
        "topology": { "subtopologies": [
            { "name": "big", "partitions": 3000, "changelog": { "min": 1000, "max": 100000 } } ] },
        "instances": { "count": 30, "threads": 4, "zones": ["a", "b"], "running": true },
        "events": [ { "at_ms": 1000, "join": "S31", "capacity": 4 } ] }"#;
    let path = temp_path("large.json");
    std::fs::write(&path, text).expect("write");
    let html = report(path.to_str().expect("utf-8"), &["--strategies", "eager"]);
    let part = section(&html, "eager");
    let availability = between(part, "<figure class=\"chart availability\">", "</figure>");
    assert!(availability.contains("eager: 40 of 3000 tasks, most downtime first"));
    assert!(availability.contains("the 40 tasks (of 3000) with the most time down"));
    let load = between(part, "<figure class=\"chart load\">", "</figure>");
    assert!(load.contains("the 24 members (of 31)"));
    assert_eq!(member_lines(load), 24);
    assert!(
        availability.len() < 400_000,
        "{} bytes of availability chart",
        availability.len()
    );
}
