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
pub mod sweep_charts;
pub mod travel;
pub mod units;
pub mod zoom;

#[cfg(test)]
mod fixtures;

/// A count and its noun, plural unless the count is one: "1 rebalance", "3 rebalances".
pub fn counted(n: impl Into<u64>, noun: &str) -> String {
    let n = n.into();
    format!("{n} {noun}{}", if n == 1 { "" } else { "s" })
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_count_of_one_takes_the_singular() {
        assert_eq!(super::counted(1u32, "rebalance"), "1 rebalance");
        assert_eq!(super::counted(0u32, "rebalance"), "0 rebalances");
        assert_eq!(super::counted(12u64, "move"), "12 moves");
    }
}
