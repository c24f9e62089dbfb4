//! The sweep panel (issue 44; docs/design.md, "Sweeps"): one or two of the scenario's own
//! settings at several values, each combination run under each strategy, off the page's
//! thread on as many workers as the browser offers. The form keeps what was typed and names
//! a problem beside its field; the cells are dealt to the workers one at a time, and the
//! table and the charts (the files' own, [`crate::views::sweep_charts`]) fill in as they
//! finish; a cancel stops them; a cell opens its run in the compare view. The question is
//! part of the session: saved, and carried by a share link (not its results).

use super::requests::{Opening, Refused, SweepThen};
use super::wire::{CellFigures, Request};
use super::{Effect, Playground};
use crate::model::{Scenario, Strategy};
use crate::playground::link::ViewMode;
use crate::playground::session::MAX_LANES;
use crate::sweep::{self, Axis, CellResult, Question, Sweep, SweepError, Values};
use crate::views::sweep_charts::SweepChart;
use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

/// The most settings a sweep varies.
pub const SWEPT: usize = 2;

/// A field of the sweep form: a setting (first or second) or its values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SweepField {
    /// The setting picked (the second may be none: empty).
    Setting(usize),
    /// Its values, as typed.
    Values(usize),
}

/// What a person does in the sweep panel.
#[derive(Clone, Debug, PartialEq)]
pub enum SweepAction {
    /// A field changed to this text.
    Edit(SweepField, String),
    /// Take a strategy into the sweep, or out of it.
    ToggleStrategy(Strategy),
    /// Run the sweep of the form.
    Run,
    /// Stop the runs still to come.
    Cancel,
    /// Open the run of a cell in the compare view.
    Open(usize),
}

/// A problem of the form, beside its field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SweepProblem {
    /// The field (none: the question as a whole).
    pub field: Option<SweepField>,
    /// What is wrong, naming the setting.
    pub reason: String,
}

/// A sweep run: its question, its scenario, the cells done and those still to deal.
#[derive(Debug)]
struct SweepRun {
    /// Its number: replies of another are old news.
    id: u64,
    question: Question,
    scenario: Rc<Scenario>,
    /// The scenario's file, as each worker reads it.
    file: Rc<str>,
    cells: Vec<Option<CellResult>>,
    /// Cells not dealt yet, in order.
    pending: VecDeque<usize>,
    /// The cell each worker runs.
    busy: Vec<Option<usize>>,
    /// A cell that could not run, and why (the sweep stops).
    failed: Option<String>,
    cancelled: bool,
    /// The charts of the cells done, made when asked, by how many are done.
    charts: super::memo::Memo<usize, Vec<SweepFigure>>,
    /// The charts read before: one whose data is the same is kept as it was.
    drawn: RefCell<Vec<Rc<SweepChart>>>,
}

/// A chart of the sweep as the page shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepFigure {
    /// A short id.
    pub id: String,
    /// What it shows, in a sentence.
    pub caption: String,
    /// The chart, drawn by the files' own function ([`SweepChart::draw`]); kept from one
    /// reading to the next while its data is the same, so that only the charts a cell changed
    /// are drawn again.
    pub chart: Rc<SweepChart>,
}

/// The sweep panel's state: the form as typed and the last sweep run.
#[derive(Debug)]
pub struct SweepPanel {
    settings: [String; SWEPT],
    values: [String; SWEPT],
    /// The strategies each combination runs under, in the playground's order.
    strategies: Vec<Strategy>,
    problems: Vec<SweepProblem>,
    run: Option<SweepRun>,
    /// Counts the sweeps run.
    runs: u64,
}

/// One row of the sweep's table.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepRow {
    /// The cell's index.
    pub index: usize,
    /// The setting values, the strategy, then each measure's figure (empty while not done).
    pub cells: Vec<String>,
    /// Whether its run is done.
    pub done: bool,
}

/// What the sweep panel shows.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepView {
    /// The settings the scenario offers.
    pub names: Rc<Vec<String>>,
    /// Each strategy, and whether the sweep runs under it.
    pub strategies: Vec<(Strategy, bool)>,
    /// Each setting as picked, and its values as typed.
    pub settings: [String; SWEPT],
    /// See `settings`.
    pub values: [String; SWEPT],
    /// What is wrong with the form.
    pub problems: Vec<SweepProblem>,
    /// The table's header.
    pub header: Vec<String>,
    /// A row per cell.
    pub rows: Vec<SweepRow>,
    /// Runs done, and in all.
    pub progress: (usize, usize),
    /// Runs are under way.
    pub running: bool,
    /// The sweep was cancelled, or a run failed: why it stopped.
    pub stopped: Option<String>,
    /// The charts of the runs done.
    pub charts: Rc<Vec<SweepFigure>>,
}

/// The size the sweep's charts are drawn at.
pub const SWEEP_CHART_SIZE: (u32, u32) = (560, 300);

impl Default for SweepPanel {
    fn default() -> SweepPanel {
        SweepPanel {
            settings: Default::default(),
            values: Default::default(),
            strategies: Strategy::ALL.to_vec(),
            problems: Vec::new(),
            run: None,
            runs: 0,
        }
    }
}

impl SweepPanel {
    /// The question of the form, or each problem beside its field.
    fn question(&self, scenario: &Scenario) -> Result<Question, Vec<SweepProblem>> {
        let mut problems = Vec::new();
        let mut settings = Vec::new();
        for i in 0..SWEPT {
            let setting = self.settings[i].trim();
            if setting.is_empty() {
                if i == 0 {
                    problems.push(SweepProblem {
                        field: Some(SweepField::Setting(0)),
                        reason: "pick a setting to sweep".into(),
                    });
                }
                continue;
            }
            match self.values[i].parse::<Values>() {
                Ok(values) => settings.push(Axis {
                    setting: setting.to_string(),
                    values,
                }),
                Err(e) => problems.push(SweepProblem {
                    field: Some(SweepField::Values(i)),
                    reason: format!("{setting}: {}", e.reason),
                }),
            }
        }
        if self.strategies.is_empty() {
            problems.push(SweepProblem {
                field: None,
                reason: "pick at least one strategy".into(),
            });
        }
        if !problems.is_empty() {
            return Err(problems);
        }
        let question = Question {
            strategies: self.strategies.clone(),
            ..Question::new(settings)
        };
        sweep::check(&question, scenario).map_err(|e| vec![self.problem(&e)])?;
        Ok(question)
    }

    /// A refusal of the sweep core, beside the field it names.
    fn problem(&self, e: &SweepError) -> SweepProblem {
        let named = |setting: &str| {
            (0..SWEPT).find(|&i| self.settings[i].trim() == setting && !setting.is_empty())
        };
        let field = match e {
            SweepError::Refused { setting, .. } | SweepError::Values { setting, .. } => {
                named(setting).map(SweepField::Values)
            }
            SweepError::Unknown { setting, .. } | SweepError::NotSwept { setting, .. } => {
                named(setting).map(SweepField::Setting)
            }
            SweepError::Combination { .. } => Some(SweepField::Values(1)),
            _ => None,
        };
        SweepProblem {
            field,
            reason: e.to_string(),
        }
    }

    /// The form filled with a question (a restored session's).
    fn fill(&mut self, question: &Question) {
        *self = SweepPanel {
            runs: self.runs,
            ..SweepPanel::default()
        };
        for (i, axis) in question.settings.iter().take(SWEPT).enumerate() {
            self.settings[i].clone_from(&axis.setting);
            self.values[i] = axis.values.to_string();
        }
        self.strategies.clone_from(&question.strategies);
    }
}

impl SweepRun {
    /// The sweep as far as it is done: its cells done, in order.
    fn sweep(&self) -> Sweep {
        Sweep {
            scenario: self.scenario.name.clone(),
            question: self.question.clone(),
            cells: self.cells.iter().flatten().cloned().collect(),
        }
    }

    fn done(&self) -> usize {
        self.cells.iter().flatten().count()
    }

    fn running(&self) -> bool {
        !self.cancelled && self.failed.is_none() && self.busy.iter().any(Option::is_some)
    }
}

impl Playground {
    /// The question of the sweep of this session, if it has one (what is saved and linked).
    pub(super) fn sweep_question(&self) -> Option<Question> {
        self.sweep
            .run
            .as_ref()
            .filter(|r| Rc::ptr_eq(&r.scenario, self.shown.scenario_rc()))
            .map(|r| r.question.clone())
    }

    /// Carries out what a person does in the sweep panel.
    pub(super) fn sweep_action(&mut self, action: SweepAction) -> Vec<Effect> {
        match action {
            SweepAction::Edit(field, text) => {
                match field {
                    SweepField::Setting(i) => self.sweep.settings[i.min(SWEPT - 1)] = text,
                    SweepField::Values(i) => self.sweep.values[i.min(SWEPT - 1)] = text,
                }
                self.sweep.problems = match self.sweep.question(self.scenario()) {
                    Ok(_) => Vec::new(),
                    Err(problems) => problems,
                };
                Vec::new()
            }
            SweepAction::ToggleStrategy(strategy) => {
                let mut chosen = self.sweep.strategies.clone();
                if chosen.contains(&strategy) {
                    chosen.retain(|&s| s != strategy);
                } else {
                    chosen.push(strategy);
                }
                // In the playground's order, whatever the order of the clicks.
                self.sweep.strategies = Strategy::ALL
                    .iter()
                    .copied()
                    .filter(|s| chosen.contains(s))
                    .collect();
                self.sweep.problems = match self.sweep.question(self.scenario()) {
                    Ok(_) => Vec::new(),
                    Err(problems) => problems,
                };
                Vec::new()
            }
            SweepAction::Run => match self.sweep.question(self.scenario()) {
                Ok(question) => self.run_sweep(question),
                Err(problems) => {
                    self.sweep.problems = problems;
                    Vec::new()
                }
            },
            SweepAction::Cancel => self.cancel_sweep(),
            SweepAction::Open(index) => self.open_cell(index),
        }
    }

    /// Starts a sweep: its cells dealt to the workers, one each, the rest as they finish.
    pub(super) fn run_sweep(&mut self, question: Question) -> Vec<Effect> {
        let mut effects = self.cancel_sweep();
        let scenario = self.shown.scenario_rc().clone();
        let file = scenario.to_json(&scenario.commands);
        self.sweep.runs += 1;
        self.sweep.problems.clear();
        let cells = question.cells();
        self.sweep.run = Some(SweepRun {
            id: self.sweep.runs,
            cells: vec![None; cells],
            pending: (0..cells).collect(),
            busy: vec![None; self.workers.max(1)],
            file: file.into(),
            question,
            scenario,
            failed: None,
            cancelled: false,
            charts: Default::default(),
            drawn: RefCell::default(),
        });
        for slot in 0..self.workers.max(1) {
            effects.extend(self.deal(slot));
        }
        effects.push(Effect::Autosave);
        effects
    }

    /// The next cell to the worker `slot`, if one is left.
    fn deal(&mut self, slot: usize) -> Option<Effect> {
        let run = self.sweep.run.as_mut()?;
        if run.cancelled || run.failed.is_some() {
            return None;
        }
        let index = run.pending.pop_front()?;
        run.busy[slot] = Some(index);
        Some(Effect::SweepSend {
            slot,
            request: Request::Cell {
                slot,
                sweep: run.id,
                index,
                question: run.question.clone(),
                scenario: run.file.to_string(),
            },
        })
    }

    /// A worker finished a cell: its figures are the sweep's, and the worker gets the next.
    pub(super) fn cell_done(
        &mut self,
        (slot, sweep, index): (usize, u64, usize),
        result: Result<CellFigures, String>,
    ) -> Vec<Effect> {
        // A cancelled sweep's workers are stopped: what they ran is dropped.
        let Some(run) = self
            .sweep
            .run
            .as_mut()
            .filter(|r| r.id == sweep && !r.cancelled)
        else {
            return Vec::new();
        };
        if let Some(busy) = run.busy.get_mut(slot) {
            *busy = None;
        }
        match result {
            Ok(figures) => {
                if let (Some((values, strategy)), Some(cell)) =
                    (run.question.cell(index), run.cells.get_mut(index))
                {
                    *cell = Some(CellResult {
                        index,
                        values,
                        strategy,
                        at_rest: figures.at_rest,
                        figures: figures.figures,
                    });
                }
            }
            Err(e) => run.failed = Some(e),
        }
        let stopped = run.failed.is_some() && !run.running();
        let mut effects: Vec<Effect> = self.deal(slot).into_iter().collect();
        if stopped {
            effects.push(Effect::SweepStop);
        }
        effects
    }

    /// Stops the runs still to come (those done stay).
    fn cancel_sweep(&mut self) -> Vec<Effect> {
        match self.sweep.run.as_mut() {
            Some(run) if run.running() || !run.pending.is_empty() => {
                run.cancelled = true;
                run.pending.clear();
                run.busy.iter_mut().for_each(|b| *b = None);
                vec![Effect::SweepStop]
            }
            _ => Vec::new(),
        }
    }

    /// Opens the run of a cell in the compare view: the scenario at the cell's values,
    /// under the sweep's strategies.
    fn open_cell(&mut self, index: usize) -> Vec<Effect> {
        let Some(run) = self.sweep.run.as_ref() else {
            return Vec::new();
        };
        let Some((values, _)) = run.question.cell(index) else {
            return Vec::new();
        };
        let named: Vec<String> = run
            .question
            .settings
            .iter()
            .zip(&values)
            .map(|(a, v)| format!("{}={v}", a.setting))
            .collect();
        let strategies: Vec<Strategy> = run
            .question
            .strategies
            .iter()
            .copied()
            .take(MAX_LANES)
            .collect();
        match sweep::scenario_of(&run.question, &run.scenario, &values) {
            Ok(scenario) => self.open(Opening {
                notice: Some(format!(
                    "The run at {} of the sweep, under {} strategies side by side.",
                    named.join(", "),
                    strategies.len()
                )),
                view: ViewMode::Compare,
                strategies,
                scenario,
                clock: 0,
                preset: None,
                error: None,
                tour: None,
                play: false,
                tour_step: false,
                sweep: SweepThen::Keep,
                refused: Refused::Line("the run cannot be opened: ".into()),
            }),
            Err(e) => self.fail(e.to_string()),
        }
    }

    /// Picks the question of a restored session up: the form shows it, and in the sweep view
    /// it runs again (a link carries the question, not the results).
    pub(super) fn restore_sweep(&mut self, question: Option<Question>) -> Vec<Effect> {
        let mut effects = self.cancel_sweep();
        self.sweep.run = None;
        if let Some(question) = question {
            self.sweep.fill(&question);
            if self.view == ViewMode::Sweep {
                effects.extend(self.run_sweep(question));
            }
        }
        effects
    }

    /// What the sweep panel shows.
    pub fn sweep_view(&self) -> SweepView {
        let names = self.setting_names();
        let panel = &self.sweep;
        let (header, rows, progress, running, stopped, charts) = match &panel.run {
            Some(run) => {
                let sweep = run.sweep();
                let (header, done) = sweep.table_cells();
                let mut done = done.into_iter();
                let measures = run.question.measures.len();
                let rows = run
                    .cells
                    .iter()
                    .enumerate()
                    .map(|(index, cell)| match cell {
                        Some(_) => SweepRow {
                            index,
                            cells: done.next().unwrap_or_default(),
                            done: true,
                        },
                        None => {
                            let (values, strategy) = run.question.cell(index).unwrap_or_default();
                            SweepRow {
                                index,
                                cells: values
                                    .iter()
                                    .map(ToString::to_string)
                                    .chain([strategy.name().to_string()])
                                    .chain(std::iter::repeat_n(String::new(), measures))
                                    .collect(),
                                done: false,
                            }
                        }
                    })
                    .collect();
                let stopped = run.failed.clone().or_else(|| {
                    run.cancelled
                        .then(|| "Cancelled: the runs done are kept.".to_string())
                });
                let charts = run
                    .charts
                    .get(run.done(), || figures(&sweep, &mut run.drawn.borrow_mut()));
                (
                    header,
                    rows,
                    (run.done(), run.cells.len()),
                    run.running(),
                    stopped,
                    charts,
                )
            }
            None => (Vec::new(), Vec::new(), (0, 0), false, None, Rc::default()),
        };
        SweepView {
            names,
            strategies: Strategy::ALL
                .iter()
                .map(|&s| (s, panel.strategies.contains(&s)))
                .collect(),
            settings: panel.settings.clone(),
            values: panel.values.clone(),
            problems: panel.problems.clone(),
            header,
            rows,
            progress,
            running,
            stopped,
            charts,
        }
    }

    /// The settings the scenario offers a sweep.
    fn setting_names(&self) -> Rc<Vec<String>> {
        let scenario = self.scenario();
        self.memos
            .sweep_names
            .get((), || sweep::setting_names(scenario))
    }
}

/// The charts of a sweep as far as it is done; a chart whose data is as one `drawn` before
/// is that one (the page draws it again only if it changed).
fn figures(sweep: &Sweep, drawn: &mut Vec<Rc<SweepChart>>) -> Vec<SweepFigure> {
    if sweep.cells.is_empty() {
        return Vec::new();
    }
    let figures: Vec<SweepFigure> = sweep
        .charts()
        .into_iter()
        .map(|f| SweepFigure {
            chart: drawn
                .iter()
                .find(|c| ***c == f.chart)
                .cloned()
                .unwrap_or_else(|| Rc::new(f.chart)),
            id: f.id,
            caption: f.caption,
        })
        .collect();
    *drawn = figures.iter().map(|f| f.chart.clone()).collect();
    figures
}
