//! Handoff simulates a group of stream-processing members that hand stateful tasks to one
//! another without stopping the world, following the incremental-rebalancing design with
//! learner tasks in `shared/design/seed-design.md`, as read by `system.md`.
//!
//! The data flows one way:
//!
//! ```text
//! scenario (JSON, preset, share link)      scenario.rs
//!    -> engine: commands at times, events  engine/ (calls the assignor at each round)
//!    -> history: rounds, snapshots, forks  engine/history.rs
//!    -> views: metrics, notation, JSON, UI metrics.rs, notation.rs, report.rs, ui/
//! ```
//!
//! Where each rule of system.md lives:
//! - rule 1 (never two owners), 3 (orphans), 8 (balance, standbys): [`assignor`];
//! - rules 2 and 4 (handoff, learners): [`assignor::learner`], and the release at join in
//!   [`engine`];
//! - rules 5 (readiness), 6 (drain), 7 (crash): [`engine`];
//! - the checks that they hold after every event: [`invariants`].
//!
//! The core (everything but `ui`) never reads a clock, never does I/O and has no randomness:
//! the same scenario and commands give the same history, natively and in wasm.

pub mod assignor;
pub mod charts;
pub mod compare;
pub mod engine;
pub mod frame;
pub mod glossary;
pub mod invariants;
pub mod link;
pub mod metrics;
pub mod model;
pub mod notation;
pub mod presets;
pub mod report;
pub mod scenario;
pub mod session;
pub mod timeline;
pub mod tour;
#[cfg(target_arch = "wasm32")]
pub mod ui;
