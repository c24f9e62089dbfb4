//! What is read off a history, for people and programs: the measures ([`metrics`]), the seed's
//! log notation ([`notation`]), the command line's JSON ([`json`]), what the playground draws
//! at a moment ([`frame`]), series over time ([`timeline`]) and charts drawn from them
//! ([`charts`]).

pub mod charts;
pub mod frame;
pub mod json;
pub mod metrics;
pub mod notation;
pub mod timeline;
