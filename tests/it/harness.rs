//! What the tests share: the project's files, scenarios by preset or path, whole runs, and the
//! `handoff` command line run as a process.

use handoff::engine::coordinator::Round;
use handoff::history::Run;
use handoff::model::{Scenario, Strategy};
use handoff::presets::Preset;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// How many learners (warm-ups under `kip441`) a round's assignment gives in all.
pub fn learners_given(round: &Round) -> usize {
    round
        .assignment
        .members
        .iter()
        .map(|(_, given)| given.learning.len())
        .sum()
}

/// A path inside the project.
pub fn project(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// A scenario file of the project, such as `scenarios/realistic/scale-up.json`.
pub fn scenario_file(path: &str) -> Scenario {
    let text = std::fs::read_to_string(project(path)).expect("scenario file");
    Scenario::from_json(&text).expect("valid scenario")
}

/// A preset's scenario.
pub fn preset(id: &str) -> Scenario {
    Preset::find(id)
        .expect("preset")
        .scenario()
        .expect("parses")
}

/// A scenario run to its end (every command, then rest) under `strategy`.
pub fn run_to_end(scenario: &Scenario, strategy: Strategy) -> Run {
    let mut run = Run::new(scenario.with_strategy(strategy));
    run.run_to_end().expect("commands apply");
    run
}

/// Runs `handoff` with arguments (from the project folder) and an optional stdin.
pub fn handoff(args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_handoff"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("handoff runs");
    if let Some(text) = stdin {
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(text.as_bytes())
            .expect("write stdin");
    }
    // Closing stdin tells the command the input is complete.
    child.stdin = None;
    child.wait_with_output().expect("handoff finishes")
}

/// Pins a text in `tests/golden/<name>.snap` (`INSTA_UPDATE=always cargo test` rewrites it
/// after an intended change).
pub fn golden(name: &str, text: &str) {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("../golden");
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    settings.bind(|| insta::assert_snapshot!(name, text));
}

/// What a finished command printed on stdout.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).to_string()
}

/// What a finished command printed on stderr.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).to_string()
}
