//! `handoff`: the simulation on the command line. `handoff --help` lists the commands;
//! `handoff <command> --help` their options.
//!
//! Exit codes: 0 on success, 1 when an input is bad (the message names the file, the field and
//! why), 2 on a usage mistake.

#[cfg(not(target_arch = "wasm32"))]
mod cli {
    use clap::builder::{PossibleValuesParser, TypedValueParser};
    use clap::{Args, Parser, Subcommand, ValueEnum};
    use handoff::assignor::{self, AssignInput};
    use handoff::compare::{self, Comparison, ComparisonJson};
    use handoff::format::AssignRequest;
    use handoff::history::Run;
    use handoff::model::{Scenario, Strategy};
    use handoff::report;
    use handoff::views::json::{AssignmentJson, RunJson};
    use handoff::views::notation;
    use serde::Serialize;
    use std::io::{Read, Write};
    use std::path::{Path, PathBuf};
    use std::process::ExitCode;

    /// Simulates a group of stream workers handing stateful tasks to one another, under the
    /// learner design and the strategies it is compared with.
    #[derive(Parser)]
    #[command(name = "handoff", version, arg_required_else_help = true)]
    struct Cli {
        #[command(subcommand)]
        command: Subcommands,
    }

    #[derive(Subcommand)]
    enum Subcommands {
        /// Simulates a scenario until every command ran and the group is at rest, and prints
        /// every rebalance in the seed's notation (or JSON).
        Run {
            /// The scenario file.
            scenario: PathBuf,
            /// What to print.
            #[arg(long, value_enum, default_value_t = RunFormat::Notation)]
            format: RunFormat,
        },
        /// Prints one decision of the leader for the join metadata in FILE (stdin if absent
        /// or `-`).
        Assign {
            /// The assignor's input: config, tasks and each member's join metadata.
            file: Option<PathBuf>,
        },
        /// Runs a scenario under several strategies and prints their costs side by side.
        Compare {
            /// The scenario file.
            scenario: PathBuf,
            #[command(flatten)]
            strategies: Strategies,
            /// What to print.
            #[arg(long, value_enum, default_value_t = CompareFormat::Table)]
            format: CompareFormat,
        },
        /// Runs a scenario under several strategies and writes a self-contained HTML report:
        /// the scenario, the comparison, charts, balance per subtopology and round logs.
        Report {
            /// The scenario file.
            scenario: PathBuf,
            #[command(flatten)]
            strategies: Strategies,
            /// Where to write the report (default: stdout).
            #[arg(short, long)]
            output: Option<PathBuf>,
        },
    }

    /// The strategies a comparison runs.
    #[derive(Args)]
    struct Strategies {
        /// The strategies, comma-separated (default: all of them).
        #[arg(
            long,
            value_delimiter = ',',
            value_parser = PossibleValuesParser::new(Strategy::NAMES)
                .try_map(|s| s.parse::<Strategy>()),
        )]
        strategies: Vec<Strategy>,
    }

    #[derive(Clone, Copy, ValueEnum)]
    enum RunFormat {
        /// The seed's notation.
        Notation,
        /// Rounds and metrics as JSON.
        Json,
    }

    #[derive(Clone, Copy, ValueEnum)]
    enum CompareFormat {
        /// A Markdown table.
        Table,
        /// One row of metrics per strategy as JSON.
        Json,
    }

    /// Bad input: the message names the file and what is wrong with it.
    struct InputError(String);

    pub fn main() -> ExitCode {
        let cli = Cli::parse();
        let output = match run(cli.command) {
            Ok(output) => output,
            Err(InputError(message)) => {
                eprintln!("handoff: {message}");
                return ExitCode::from(1);
            }
        };
        let mut stdout = std::io::stdout().lock();
        match stdout
            .write_all(output.as_bytes())
            .and_then(|()| stdout.flush())
        {
            Ok(()) => ExitCode::SUCCESS,
            // A reader that stopped reading (`handoff run ... | head -1`) is not an error.
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("handoff: stdout: {e}");
                ExitCode::from(1)
            }
        }
    }

    fn run(command: Subcommands) -> Result<String, InputError> {
        match command {
            Subcommands::Run { scenario, format } => {
                let (path, scenario) = load_scenario(&scenario)?;
                let mut run = Run::new(scenario);
                run.run_to_end()
                    .map_err(|e| InputError(format!("{path}: {e}")))?;
                Ok(match format {
                    RunFormat::Json => pretty(&RunJson::of(run.engine(), run.rounds())),
                    RunFormat::Notation => notation::log(run.engine(), run.rounds()),
                })
            }
            Subcommands::Assign { file } => {
                let (name, text) = read(file.as_deref())?;
                let request = AssignRequest::from_json(&text)
                    .map_err(|e| InputError(format!("{name}: {e}")))?;
                let assignment = assignor::assign(AssignInput {
                    config: &request.config,
                    tasks: &request.tasks,
                    members: &request.members,
                })
                .map_err(|e| InputError(format!("{name}: {e}")))?;
                Ok(pretty(&AssignmentJson::of(&request.roster, &assignment)))
            }
            Subcommands::Compare {
                scenario,
                strategies,
                format,
            } => {
                let (_, comparison) = compare_scenario(&scenario, strategies.strategies)?;
                Ok(match format {
                    CompareFormat::Json => pretty(&ComparisonJson::of(&comparison)),
                    CompareFormat::Table => compare::table(&comparison),
                })
            }
            Subcommands::Report {
                scenario,
                strategies,
                output,
            } => {
                let (scenario, comparison) = compare_scenario(&scenario, strategies.strategies)?;
                let html = report::html(&scenario, &comparison);
                match output {
                    None => Ok(html),
                    Some(path) => {
                        std::fs::write(&path, html)
                            .map_err(|e| InputError(format!("{}: {e}", path.display())))?;
                        Ok(String::new())
                    }
                }
            }
        }
    }

    /// Loads a scenario and runs it under `strategies` (all of them if none is given).
    fn compare_scenario(
        path: &Path,
        strategies: Vec<Strategy>,
    ) -> Result<(Scenario, Comparison), InputError> {
        let (name, scenario) = load_scenario(path)?;
        let strategies = if strategies.is_empty() {
            Strategy::ALL.to_vec()
        } else {
            strategies
        };
        let comparison = Comparison::run(&scenario, &strategies)
            .map_err(|e| InputError(format!("{name}: {e}")))?;
        Ok((scenario, comparison))
    }

    /// Pretty JSON with a final newline.
    fn pretty(value: &impl Serialize) -> String {
        match serde_json::to_string_pretty(value) {
            Ok(text) => text + "\n",
            // Only maps with non-string keys fail to serialize; none of ours has one.
            Err(e) => format!("{{\"error\": {:?}}}\n", e.to_string()),
        }
    }

    /// Reads a file, or stdin for `None` and `-`; returns its name for messages, and its text.
    fn read(path: Option<&Path>) -> Result<(String, String), InputError> {
        match path {
            None => read_stdin(),
            Some(p) if p == Path::new("-") => read_stdin(),
            Some(p) => {
                let name = p.display().to_string();
                std::fs::read_to_string(p)
                    .map(|text| (name.clone(), text))
                    .map_err(|e| InputError(format!("{name}: {e}")))
            }
        }
    }

    fn read_stdin() -> Result<(String, String), InputError> {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|e| InputError(format!("stdin: {e}")))?;
        Ok(("stdin".to_string(), text))
    }

    fn load_scenario(path: &Path) -> Result<(String, Scenario), InputError> {
        let (name, text) = read(Some(path))?;
        let scenario =
            Scenario::from_json(&text).map_err(|e| InputError(format!("{name}: {e}")))?;
        Ok((name, scenario))
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    cli::main()
}

#[cfg(target_arch = "wasm32")]
fn main() {}
