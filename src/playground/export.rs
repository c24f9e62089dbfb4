//! Links and downloads: a share link of this moment, the scenario, the log, a chart and the
//! design-review report.

use super::requests::Awaiting;
use super::screen;
use super::wire::Request;
use super::{Effect, Export, Playground};
use crate::views::charts::ChartKind;

impl Playground {
    /// Makes the link or the download asked for.
    pub(super) fn export(&mut self, action: Export) -> Vec<Effect> {
        match action {
            Export::Share(base) => self.share(&base),
            Export::Scenario => self.export_scenario(),
            Export::Log => self.export_log(),
            Export::Chart(kind) => self.export_chart(kind),
            Export::Report => self.export_report(),
        }
    }

    /// A link that opens exactly this moment, copied.
    pub(super) fn share(&mut self, base: &str) -> Vec<Effect> {
        let link = format!("{base}#s={}", self.saved().encode());
        self.notice = Some(format!(
            "Link copied ({} characters): it opens exactly this moment.",
            link.len()
        ));
        self.share_link = Some(link.clone());
        vec![Effect::Copy(link)]
    }

    /// The scenario with the commands given so far, as a file.
    pub(super) fn export_scenario(&self) -> Vec<Effect> {
        vec![Effect::Download {
            name: "handoff-scenario.json".into(),
            mime: "application/json".into(),
            text: self.scenario().to_json(self.commands()),
        }]
    }

    /// The round log up to the clock, in the seed's notation (the worker writes it).
    pub(super) fn export_log(&mut self) -> Vec<Effect> {
        let seq = self.await_reply(Awaiting::Log);
        vec![Effect::Send(Request::ExportLog { seq })]
    }

    /// A compare chart as SVG, with the clock marked.
    pub(super) fn export_chart(&mut self, kind: ChartKind) -> Vec<Effect> {
        match screen::chart_svg(self, kind) {
            Ok(text) => vec![Effect::Download {
                name: format!("handoff-{}.svg", kind.id()),
                mime: "image/svg+xml".into(),
                text,
            }],
            Err(e) => self.fail(format!("the chart could not be drawn: {e}")),
        }
    }

    /// The design-review report of the session under its strategies, as one HTML page (the
    /// worker runs the comparison).
    pub(super) fn export_report(&mut self) -> Vec<Effect> {
        let seq = self.await_reply(Awaiting::Report);
        vec![Effect::Send(Request::Report { seq })]
    }
}
