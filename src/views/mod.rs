//! What is read off a history, for people and programs: the measures ([`metrics`]), the seed's
//! log notation ([`notation`]), the command line's JSON ([`json`]), what the playground draws
//! at a moment ([`frame`]), series over time ([`series`]) and charts drawn from them
//! ([`charts`]).

pub mod charts;
pub mod flights;
pub mod frame;
pub mod geometry;
pub mod json;
pub mod marks;
pub mod metrics;
pub mod notation;
pub mod overview;
pub mod rest;
pub mod scene;
pub mod series;
pub mod streams;
pub mod sweep_charts;
pub mod travel;
pub mod units;
pub mod zoom;

#[cfg(test)]
mod fixtures;

use crate::model::Strategy;

/// The short mark the page puts after a strategy's name when Kafka has not released it (its
/// caveat in full, [`Strategy::caveat`], goes in the mark's title).
pub fn strategy_mark(strategy: Strategy) -> Option<&'static str> {
    strategy.caveat().map(|_| "trunk, unreleased")
}

/// A strategy's name with its mark, where only words fit (a list's options):
/// "kip1071-warmup (trunk, unreleased)".
pub fn strategy_label(strategy: Strategy) -> String {
    match strategy_mark(strategy) {
        Some(mark) => format!("{} ({mark})", strategy.name()),
        None => strategy.name().to_string(),
    }
}

/// A count and its noun, plural unless the count is one: "1 rebalance", "3 rebalances".
pub fn counted(n: impl Into<u64>, noun: &str) -> String {
    let n = n.into();
    format!("{n} {noun}{}", if n == 1 { "" } else { "s" })
}

#[cfg(test)]
mod tests {
    use crate::model::Strategy;

    #[test]
    fn only_the_unreleased_strategy_carries_a_mark() {
        for &s in Strategy::ALL {
            assert_eq!(
                super::strategy_mark(s).is_some(),
                s.caveat().is_some(),
                "{s}"
            );
        }
        assert_eq!(
            super::strategy_label(Strategy::Kip1071Warmup),
            "kip1071-warmup (trunk, unreleased)"
        );
        assert_eq!(super::strategy_label(Strategy::Kip1071), "kip1071");
    }

    #[test]
    fn a_count_of_one_takes_the_singular() {
        assert_eq!(super::counted(1u32, "rebalance"), "1 rebalance");
        assert_eq!(super::counted(0u32, "rebalance"), "0 rebalances");
        assert_eq!(super::counted(12u64, "move"), "12 moves");
    }
}
