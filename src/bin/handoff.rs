//! `handoff`: the simulation on the command line.
//!
//! ```text
//! handoff run SCENARIO.json [--format notation|json]
//! handoff assign [FILE]            (stdin when no file)
//! handoff compare SCENARIO.json [--strategies learner,kip441,cooperative,eager] [--format table|json]
//! ```

use handoff::assignor::{self, AssignInput};
use handoff::compare::{self, Comparison};
use handoff::engine::history::Run;
use handoff::model::Strategy;
use handoff::scenario::{AssignRequest, Scenario};
use handoff::{notation, report};
use std::io::Read;
use std::process::ExitCode;

const USAGE: &str = "usage:
  handoff run SCENARIO.json [--format notation|json]
  handoff assign [FILE]
  handoff compare SCENARIO.json [--strategies learner,kip441,cooperative,eager] [--format table|json]";

/// Why the command failed: a usage mistake (exit 2) or bad input (exit 1).
enum Failure {
    Usage(String),
    Input(String),
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match dispatch(&args) {
        Ok(output) => {
            print!("{output}");
            ExitCode::SUCCESS
        }
        Err(Failure::Usage(message)) => {
            eprintln!("handoff: {message}\n{USAGE}");
            ExitCode::from(2)
        }
        Err(Failure::Input(message)) => {
            eprintln!("handoff: {message}");
            ExitCode::from(1)
        }
    }
}

/// Positional arguments and `--name value` options, in order.
struct Arguments<'a> {
    positional: Vec<&'a str>,
    named: Vec<(&'a str, &'a str)>,
}

/// Splits `--name value` options from positional arguments.
fn options<'a>(args: &'a [String], known: &[&str]) -> Result<Arguments<'a>, Failure> {
    let mut positional = Vec::new();
    let mut named = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let arg = args[i].as_str();
        if let Some(name) = arg.strip_prefix("--") {
            let (name, value) = match name.split_once('=') {
                Some((n, v)) => (n, v),
                None => {
                    i += 1;
                    let value = args
                        .get(i)
                        .ok_or_else(|| Failure::Usage(format!("--{name} needs a value")))?;
                    (name, value.as_str())
                }
            };
            if !known.contains(&name) {
                return Err(Failure::Usage(format!("unknown option --{name}")));
            }
            named.push((name, value));
        } else {
            positional.push(arg);
        }
        i += 1;
    }
    Ok(Arguments { positional, named })
}

fn read(path: Option<&str>) -> Result<(String, String), Failure> {
    match path {
        Some("-") | None => {
            let mut text = String::new();
            std::io::stdin()
                .read_to_string(&mut text)
                .map_err(|e| Failure::Input(format!("stdin: {e}")))?;
            Ok(("stdin".to_string(), text))
        }
        Some(path) => std::fs::read_to_string(path)
            .map(|text| (path.to_string(), text))
            .map_err(|e| Failure::Input(format!("{path}: {e}"))),
    }
}

fn one_path<'a>(positional: &[&'a str], what: &str) -> Result<&'a str, Failure> {
    match positional {
        [path] => Ok(path),
        [] => Err(Failure::Usage(format!("{what} needs a scenario file"))),
        _ => Err(Failure::Usage(format!("{what} takes one scenario file"))),
    }
}

fn load_scenario(path: &str) -> Result<Scenario, Failure> {
    let (name, text) = read(Some(path))?;
    Scenario::from_json(&text).map_err(|e| Failure::Input(format!("{name}: {e}")))
}

fn dispatch(args: &[String]) -> Result<String, Failure> {
    let Some((command, rest)) = args.split_first() else {
        return Err(Failure::Usage("which command?".to_string()));
    };
    match command.as_str() {
        "run" => {
            let Arguments { positional, named } = options(rest, &["format"])?;
            let path = one_path(&positional, "run")?;
            let format = named.last().map_or("notation", |&(_, v)| v);
            if !matches!(format, "notation" | "json") {
                return Err(Failure::Usage(format!(
                    "--format {format}: use notation or json"
                )));
            }
            let scenario = load_scenario(path)?;
            let mut run = Run::new(scenario);
            run.run_to_end()
                .map_err(|e| Failure::Input(format!("{path}: {e}")))?;
            Ok(if format == "json" {
                let value = report::run(run.engine(), run.rounds());
                format!(
                    "{}\n",
                    serde_json::to_string_pretty(&value).unwrap_or_default()
                )
            } else {
                notation::log(run.engine(), run.rounds())
            })
        }
        "assign" => {
            let Arguments { positional, .. } = options(rest, &[])?;
            if positional.len() > 1 {
                return Err(Failure::Usage("assign takes at most one file".to_string()));
            }
            let (name, text) = read(positional.first().copied())?;
            let request = AssignRequest::from_json(&text)
                .map_err(|e| Failure::Input(format!("{name}: {e}")))?;
            let assignment = assignor::assign(AssignInput {
                config: &request.config,
                tasks: &request.tasks,
                members: &request.members,
            })
            .map_err(|e| Failure::Input(format!("{name}: {e}")))?;
            let value = report::assignment(&request.roster, &assignment);
            Ok(format!(
                "{}\n",
                serde_json::to_string_pretty(&value).unwrap_or_default()
            ))
        }
        "compare" => {
            let Arguments { positional, named } = options(rest, &["strategies", "format"])?;
            let path = one_path(&positional, "compare")?;
            let mut format = "table";
            let mut strategies = Strategy::ALL.to_vec();
            for (name, value) in named {
                match name {
                    "format" => format = value,
                    _ => {
                        strategies = value
                            .split(',')
                            .map(|s| {
                                Strategy::parse(s.trim()).ok_or_else(|| {
                                    Failure::Usage(format!(
                                        "--strategies: unknown strategy {s:?} (use learner, kip441, cooperative, eager)"
                                    ))
                                })
                            })
                            .collect::<Result<_, _>>()?;
                    }
                }
            }
            if !matches!(format, "table" | "json") {
                return Err(Failure::Usage(format!(
                    "--format {format}: use table or json"
                )));
            }
            let scenario = load_scenario(path)?;
            let comparison = Comparison::run(&scenario, &strategies)
                .map_err(|e| Failure::Input(format!("{path}: {e}")))?;
            Ok(if format == "json" {
                let value = compare::to_json(&comparison);
                format!(
                    "{}\n",
                    serde_json::to_string_pretty(&value).unwrap_or_default()
                )
            } else {
                compare::table(&comparison)
            })
        }
        "help" | "--help" | "-h" => Ok(format!("{USAGE}\n")),
        other => Err(Failure::Usage(format!("unknown command {other:?}"))),
    }
}
