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
    use handoff::sweep::{self, Axis, Question, Sweep};
    use handoff::views::json::{AssignmentJson, RunJson};
    use handoff::views::metrics::Measure;
    use handoff::views::notation;
    use handoff::views::sweep_charts::{self, SweepChart};
    use indicatif::{ProgressBar, ProgressStyle};
    use serde::Serialize;
    use std::io::IsTerminal;
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
            /// Adds a sweep section: a setting and its values, as `handoff sweep --set` takes
            /// them (give it once or twice).
            #[arg(long, value_name = "NAME=VALUES")]
            sweep: Vec<Axis>,
        },
        /// Runs a scenario with one or two settings at each of their values, under several
        /// strategies, on every core, and prints the measures of every run.
        Sweep {
            /// The scenario file.
            scenario: PathBuf,
            /// A setting and its values: NAME=VALUES. NAME is a setting of the scenario file
            /// (num_standby_replicas, acceptable_recovery_lag, kip441.max_warmup_replicas,
            /// instances.count, topology.subtopologies[0].write_rate, ...). VALUES is a list
            /// (0,1,2 or true,false or null,2,4), a range of whole numbers with both ends
            /// included (1..8 is 1 to 8), or a geometric series FROM..TOxFACTOR (1e3..1e6x10
            /// is 1000, 10000, 100000 and 1000000; charted on a logarithmic axis). Give it once
            /// or twice.
            #[arg(long = "set", value_name = "NAME=VALUES", required = true)]
            settings: Vec<Axis>,
            #[command(flatten)]
            strategies: Strategies,
            /// The measures, comma-separated (default: total_downtime_ms, worst_task_ms,
            /// rebalances, time_to_balance_ms, records_replayed, moves).
            #[arg(
                long,
                value_delimiter = ',',
                value_parser = PossibleValuesParser::new(Measure::ids())
                    .try_map(|id| Measure::find(&id).ok_or(format!("unknown measure {id}"))),
            )]
            measures: Vec<Measure>,
            /// What to print.
            #[arg(long, value_enum, default_value_t = SweepFormat::Markdown)]
            format: SweepFormat,
            /// Also writes the charts to this SVG file.
            #[arg(long, value_name = "FILE")]
            chart: Option<PathBuf>,
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

    #[derive(Clone, Copy, ValueEnum)]
    enum SweepFormat {
        /// A Markdown table, a row per run.
        Markdown,
        /// The same table as CSV.
        Csv,
        /// Every run's figures and each curve's knee as JSON.
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
                    CompareFormat::Table => {
                        let notes = compare::notes(&comparison);
                        let mut text = compare::table(&comparison);
                        if !notes.is_empty() {
                            text.push('\n');
                            text.push_str(&notes.join("\n"));
                            text.push('\n');
                        }
                        text
                    }
                })
            }
            Subcommands::Report {
                scenario: path,
                strategies,
                output,
                sweep,
            } => {
                let (scenario, comparison) = compare_scenario(&path, strategies.strategies)?;
                let html = if sweep.is_empty() {
                    report::html(&scenario, &comparison)
                } else {
                    let mut question = Question::new(sweep);
                    question.strategies = comparison.outcomes.iter().map(|o| o.strategy).collect();
                    let sweep = sweep_in_parallel(&path, &question, &scenario)?;
                    report::with_sweep(&scenario, &comparison, &sweep)
                };
                match output {
                    None => Ok(html),
                    Some(path) => {
                        std::fs::write(&path, html)
                            .map_err(|e| InputError(format!("{}: {e}", path.display())))?;
                        Ok(String::new())
                    }
                }
            }
            Subcommands::Sweep {
                scenario: path,
                settings,
                strategies,
                measures,
                format,
                chart,
            } => {
                let (_, scenario) = load_scenario(&path)?;
                let mut question = Question::new(settings);
                if !strategies.strategies.is_empty() {
                    question.strategies = strategies.strategies;
                }
                if !measures.is_empty() {
                    question.measures = measures;
                }
                let sweep = sweep_in_parallel(&path, &question, &scenario)?;
                if let Some(chart) = chart {
                    write_charts(&chart, &sweep)?;
                }
                Ok(match format {
                    SweepFormat::Markdown => sweep.markdown() + &knees_in_markdown(&sweep),
                    SweepFormat::Csv => sweep.csv(),
                    SweepFormat::Json => pretty(&sweep.json()),
                })
            }
        }
    }

    /// Checks a sweep, then runs its cells on every core, with a progress bar when stderr is
    /// a terminal.
    fn sweep_in_parallel(
        path: &Path,
        question: &Question,
        scenario: &Scenario,
    ) -> Result<Sweep, InputError> {
        let name = path.display();
        sweep::check(question, scenario).map_err(|e| InputError(format!("{name}: {e}")))?;
        let bar = if std::io::stderr().is_terminal() {
            let bar = ProgressBar::new(question.cells() as u64);
            if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} runs {elapsed}") {
                bar.set_style(style);
            }
            bar
        } else {
            ProgressBar::hidden()
        };
        let sweep = Sweep::run_parallel(question, scenario, &|| bar.inc(1));
        bar.finish_and_clear();
        sweep.map_err(|e| InputError(format!("{name}: {e}")))
    }

    /// Where each strategy's curves level off, under the Markdown table (one setting only).
    fn knees_in_markdown(sweep: &Sweep) -> String {
        let sentences = sweep.knee_sentences();
        if sentences.is_empty() {
            return String::new();
        }
        let mut text = "\nWhere the curves level off (the knee: the smallest value past which a measure improves by less than a tenth at every further step):\n\n".to_string();
        for sentence in sentences {
            text.push_str(&format!("- {sentence}\n"));
        }
        text
    }

    /// Writes every chart of a sweep on one SVG sheet: two across for one setting, a row of
    /// heatmaps (one per strategy) per measure for two.
    fn write_charts(path: &Path, sweep: &Sweep) -> Result<(), InputError> {
        let columns = if sweep.question.settings.len() == 1 {
            2
        } else {
            sweep.question.strategies.len()
        };
        let charts: Vec<SweepChart> = sweep.charts().into_iter().map(|f| f.chart).collect();
        let svg = sweep_charts::sheet(&charts, columns, (520, 340)).map_err(|e| {
            InputError(format!(
                "{}: the charts could not be drawn: {e}",
                path.display()
            ))
        })?;
        std::fs::write(path, svg).map_err(|e| InputError(format!("{}: {e}", path.display())))
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
