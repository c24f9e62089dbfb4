//! Handoff's integration tests, in one binary: the assignor's rules, the seed's scenarios as
//! golden files, each strategy's nature, the command line, the README's generated blocks, the
//! layering of the crate, property tests over random groups and applications, and design-review
//! reports.
//!
//! `PROPTEST_CASES` sets the number of property cases; golden files are insta snapshots in
//! `tests/golden/` (`INSTA_UPDATE=always cargo test` rewrites them after an intended change).

#![cfg(not(target_arch = "wasm32"))]

mod assignor_rules;
mod cli;
mod convergence;
mod deployments;
mod extremes;
mod harness;
mod kip1071;
mod kip441;
mod kip441_migration;
mod layering;
mod mechanics;
mod module_loops;
mod operations;
mod properties;
mod readme;
mod review;
mod seed_scenarios;
mod spread;
mod strategies;
mod sweep;
mod topology;
