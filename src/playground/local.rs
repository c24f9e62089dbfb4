//! The page and its worker in one thread: each request carried to the [`Simulation`] at once
//! and each reply back to the [`Playground`], until neither has anything left to say. The
//! native tests and benchmarks drive the playground this way; the browser does the same
//! across a Web Worker (`src/ui/worker.rs`).

use super::session::Session;
use super::wire::{decode, encode, in_parts, Reply, Request, PARTS_OVER};
use super::{Action, Effect, Playground, Simulation, Startup};
use std::ops::{Deref, DerefMut};

/// The most steps the worker computes between two looks at its messages here (the browser
/// gives it slices of time instead).
const STEPS: usize = 64;

/// A playground whose workers run in the same thread.
#[derive(Debug)]
pub struct Local {
    page: Playground,
    worker: Simulation,
    /// The sweep's workers, by slot.
    sweepers: Vec<Simulation>,
}

impl Local {
    /// The playground the page opens with, its first requests carried out.
    pub fn start(startup: Startup) -> (Local, Vec<Effect>) {
        let (page, effects) = Playground::start(startup);
        let mut local = Local {
            page,
            worker: Simulation::new(),
            sweepers: Vec::new(),
        };
        let effects = local.carry(effects);
        (local, effects)
    }

    /// A playground on `scenario` (the preset `preset`, if it is one) at its first moment,
    /// under its own strategy.
    pub fn with(scenario: crate::model::Scenario, preset: Option<&'static str>) -> Local {
        let mut page = Playground::new();
        let effects = page.load(scenario, &[], (preset, None, None));
        let mut local = Local {
            page,
            worker: Simulation::new(),
            sweepers: Vec::new(),
        };
        local.carry(effects);
        local
    }

    /// Carries out an action, and every message it leads to; returns what the browser must
    /// do besides (save, copy, download).
    pub fn act(&mut self, action: Action) -> Vec<Effect> {
        let effects = self.page.act(action);
        self.carry(effects)
    }

    /// Carries out an action on the page only: its requests are returned, not sent, as if
    /// the worker had not read them yet ([`Local::deliver`] sends them).
    pub fn act_unsent(&mut self, action: Action) -> Vec<Effect> {
        self.page.act(action)
    }

    /// Sends the requests among `effects` and carries everything they lead to; returns the
    /// other effects.
    pub fn deliver(&mut self, effects: Vec<Effect>) -> Vec<Effect> {
        self.carry(effects)
    }

    /// The worker, to ask it directly.
    pub fn worker(&mut self) -> &mut Simulation {
        &mut self.worker
    }

    /// The worker's session (what the page is shown comes from it).
    pub fn session(&self) -> &Session {
        self.worker
            .session()
            .unwrap_or_else(|| unreachable!("the playground opens a session at start"))
    }

    /// Sends each request (through the codec, as the browser does), hands each reply to the
    /// page, and lets the worker compute until it is idle.
    fn carry(&mut self, effects: Vec<Effect>) -> Vec<Effect> {
        let mut out = Vec::new();
        let mut queue: std::collections::VecDeque<Effect> = effects.into();
        loop {
            while let Some(effect) = queue.pop_front() {
                match effect {
                    Effect::Send(request) => {
                        let request: Request = through(&request);
                        for reply in self.worker.handle(request) {
                            for reply in in_parts_through(reply) {
                                queue.extend(self.page.act(Action::Reply(reply)));
                            }
                        }
                    }
                    Effect::SweepSend { slot, request } => {
                        while self.sweepers.len() <= slot {
                            self.sweepers.push(Simulation::new());
                        }
                        for reply in self.sweepers[slot].handle(through(&request)) {
                            queue.extend(self.page.act(Action::Reply(through(&reply))));
                        }
                    }
                    Effect::SweepStop => self.sweepers.clear(),
                    other => out.push(other),
                }
            }
            let (replies, more) = self.worker.work(STEPS);
            for reply in replies.into_iter().flat_map(in_parts_through) {
                queue.extend(self.page.act(Action::Reply(reply)));
            }
            if queue.is_empty() && !more {
                return out;
            }
        }
    }
}

/// A reply as the page reads it, in the messages the worker would post ([`in_parts`]).
fn in_parts_through(reply: Reply) -> Vec<Reply> {
    in_parts(reply, PARTS_OVER)
        .iter()
        .map(|bytes| decode(bytes).unwrap_or_else(|e| unreachable!("{e}")))
        .collect()
}

/// A message as the other side reads it.
fn through<T: serde::Serialize + serde::de::DeserializeOwned>(message: &T) -> T {
    decode(&encode(message)).unwrap_or_else(|e| unreachable!("{e}"))
}

impl Deref for Local {
    type Target = Playground;

    fn deref(&self) -> &Playground {
        &self.page
    }
}

impl DerefMut for Local {
    fn deref_mut(&mut self) -> &mut Playground {
        &mut self.page
    }
}
