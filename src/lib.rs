//! Handoff simulates a group of stream-processing members that hand stateful tasks to one
//! another without stopping the world, following the incremental-rebalancing design with
//! learner tasks described in `docs/design.md`.
//!
//! The crate is layered; each layer uses only those above it in this list:
//!
//! ```text
//! model      the vocabulary: tasks, members, config, join metadata, assignments, commands
//! format     the JSON files people write (scenario, assign input) read into the model
//! assignor   the leader's decision: a pure function of the join metadata
//! engine     the simulation: virtual time, the coordinator, members, replay arithmetic
//! history    a run: commands, events, rounds, snapshots, forks, invariant checks
//! views      what is read off a history: metrics, notation, JSON, frames, series, charts
//! compare, presets, playground, report, sweep
//!            the command line's and the playground's building blocks
//! ui         the browser playground (wasm32 only), a thin layer over `playground`
//! ```
//!
//! Where each rule of the design (`docs/design.md`, "Rules") lives:
//! - rule 1 (never two owners), 3 (orphans), 8 (balance, standbys), 9 (every subtopology
//!   spread): [`assignor`];
//! - rules 2 and 4 (handoff, learners): [`assignor::learner`], and the release at join in
//!   [`engine::coordinator`];
//! - rules 5 (readiness), 6 (drain), 7 (crash): [`engine::member`];
//! - the checks that they hold after every event: [`history::invariants`].
//!
//! The core (everything but `ui`) never reads a clock, never does I/O and has no randomness:
//! the same scenario and commands give the same history, natively and in wasm.

pub mod assignor;
pub mod compare;
pub mod engine;
pub mod format;
pub mod history;
pub mod model;
pub mod playground;
pub mod presets;
pub mod report;
pub mod sweep;
#[cfg(target_arch = "wasm32")]
pub mod ui;
pub mod views;
