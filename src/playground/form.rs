//! The application form's state in the playground: opened on the scenario's application (or a
//! starting example), edited field by field and checked on every edit, kept while closed
//! until another scenario is loaded, and applied with a restart (a refusal keeps it open and
//! says why).

use super::application::{ApplicationDraft, Field, FieldError, SubtopologyDraft, Totals};
use super::{Effect, Playground};
use crate::model::Scenario;

/// What a person does to the form.
#[derive(Clone, Debug, PartialEq)]
pub enum FormAction {
    /// Open it (with the current scenario's application, or a starting example).
    Open,
    /// Close it; the draft is kept until another scenario is loaded.
    Close,
    /// A field changed to this text.
    Edit(Field, String),
    /// Add a subtopology at the end.
    AddSubtopology,
    /// Remove a subtopology.
    RemoveSubtopology(usize),
    /// Restart with the application.
    Apply,
}

/// The form's state: the draft, what it gives, and why the last apply failed.
#[derive(Clone, Debug, PartialEq)]
pub struct ApplicationForm {
    /// The fields as typed.
    pub draft: ApplicationDraft,
    /// The totals of the draft.
    pub totals: Totals,
    /// Every problem of the draft, in the order of the fields.
    pub errors: Vec<FieldError>,
    /// Why the last apply was refused (the draft was fine but the scenario was not).
    pub problem: Option<String>,
    /// The scheduled commands of the scenario, kept if the draft says so.
    pub commands: usize,
}

impl ApplicationForm {
    /// A form over a draft, checked.
    pub fn new(draft: ApplicationDraft, commands: usize) -> ApplicationForm {
        let (totals, errors) = draft.check();
        ApplicationForm {
            draft,
            totals,
            errors,
            problem: None,
            commands,
        }
    }

    /// Carries out an edit of the draft and checks it again.
    pub fn edit(&mut self, field: Field, text: String) {
        self.draft.set(field, text);
        self.recheck();
    }

    /// Adds or removes a subtopology and checks again.
    pub fn resize(&mut self, remove: Option<usize>) {
        match remove {
            Some(i) if i < self.draft.subtopologies.len() => {
                self.draft.subtopologies.remove(i);
            }
            Some(_) => {}
            None => {
                let n = self.draft.subtopologies.len();
                self.draft
                    .subtopologies
                    .push(SubtopologyDraft::example(&format!("subtopology-{n}")));
            }
        }
        self.recheck();
    }

    fn recheck(&mut self) {
        (self.totals, self.errors) = self.draft.check();
        self.problem = None;
    }

    /// Whether a field has a problem: an error names it or one of its items (`zones[1]`); a
    /// changelog's range marks its min and max, too many tasks in all marks the partitions.
    pub fn invalid(&self, field: Field) -> bool {
        let path = field.path();
        self.errors.iter().any(|e| {
            e.field == path
                || e.field.starts_with(&format!("{path}["))
                || (e.field.ends_with(".changelog")
                    && matches!(field, Field::Min(_) | Field::Max(_))
                    && path.starts_with(&format!("{}.", e.field)))
                || (e.field == "topology" && matches!(field, Field::Partitions(_)))
        })
    }

    /// The problems whose field is under `prefix` (`topology.subtopologies[2]`, `instances`).
    pub fn errors_under<'a>(&'a self, prefix: &'a str) -> impl Iterator<Item = &'a FieldError> {
        self.errors.iter().filter(move |e| {
            e.field == prefix
                || e.field.starts_with(&format!("{prefix}."))
                || e.field.starts_with(&format!("{prefix}["))
        })
    }
}

impl Playground {
    /// Carries out what a person does to the application form.
    pub(super) fn application_form(&mut self, action: FormAction) -> Vec<Effect> {
        match action {
            FormAction::Open => {
                if self.application.is_none() {
                    let file = self.scenario_file();
                    let commands = self.commands().len();
                    self.application =
                        Some(ApplicationForm::new(ApplicationDraft::of(&file), commands));
                }
                self.application_open = true;
            }
            FormAction::Close => self.application_open = false,
            FormAction::Edit(field, text) => {
                if let Some(form) = &mut self.application {
                    form.edit(field, text);
                }
            }
            FormAction::AddSubtopology => {
                if let Some(form) = &mut self.application {
                    form.resize(None);
                }
            }
            FormAction::RemoveSubtopology(i) => {
                if let Some(form) = &mut self.application {
                    form.resize(Some(i));
                }
            }
            FormAction::Apply => return self.apply_application(),
        }
        Vec::new()
    }

    /// Restarts with the application of the form; a problem keeps the form open and says why.
    fn apply_application(&mut self) -> Vec<Effect> {
        let Some(form) = &self.application else {
            return Vec::new();
        };
        let base = self.scenario().to_file(self.commands());
        let scenario = form
            .draft
            .file(&base)
            .map_err(|e| e.to_string())
            .and_then(|file| Scenario::from_file(file).map_err(|e| e.to_string()));
        let problem = match scenario {
            Ok(scenario) => {
                let tasks = scenario.tasks.len();
                let members = scenario.members.len();
                let effects = self.load_scenario(
                    scenario,
                    format!(
                        "Restarted with your application: {tasks} tasks on {members} instances."
                    ),
                );
                // If the worker cannot run it, the form says so and stays open.
                if let Some(opening) = self.pending_open() {
                    opening.refused = super::requests::Refused::Application;
                }
                return effects;
            }
            Err(e) => e,
        };
        if let Some(form) = &mut self.application {
            form.problem = Some(format!(
                "Not applied: {problem}. The current session is kept."
            ));
        }
        Vec::new()
    }
}

impl Playground {
    /// The application in a few words, for the button that opens the form.
    pub fn application_summary(&self) -> String {
        let s = self.scenario();
        let tasks = s.tasks.len();
        match (&s.topology, &s.instances) {
            (Some(t), Some(i)) => format!(
                "{tasks} tasks in {} subtopologies on {} instances of {} threads",
                t.subtopologies.len(),
                i.count,
                i.threads
            ),
            (Some(t), None) => format!(
                "{tasks} tasks in {} subtopologies on {} members",
                t.subtopologies.len(),
                s.members.len()
            ),
            _ => format!("{tasks} tasks on {} members", s.members.len()),
        }
    }
}
