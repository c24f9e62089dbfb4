//! What is read off a history, for people and programs: the measures ([`metrics`]), the seed's
//! log notation ([`notation`]), the command line's JSON ([`json`]), what the playground draws
//! at a moment ([`frame`]), series over time ([`timeline`]) and charts drawn from them
//! ([`charts`], on the surfaces of [`plot`]).

pub mod charts;
pub mod frame;
pub mod json;
pub mod marks;
pub mod metrics;
pub mod notation;
pub mod plot;
pub mod timeline;

/// A count and its noun, plural unless the count is one: "1 rebalance", "3 rebalances".
pub fn counted(n: impl Into<u64>, noun: &str) -> String {
    let n = n.into();
    format!("{n} {noun}{}", if n == 1 { "" } else { "s" })
}

/// A number with a fixed number of decimals (at most 3), written with integer arithmetic:
/// the browser build then carries no float formatter (its tables weigh kilobytes).
pub fn fixed(x: f64, places: u32) -> String {
    let places = places.min(3);
    let scale = 10u64.pow(places);
    let scaled = (x.abs() * scale as f64).round() as u64;
    let sign = if x < 0.0 && scaled > 0 { "-" } else { "" };
    if places == 0 {
        return format!("{sign}{scaled}");
    }
    let fraction = scaled % scale;
    let fraction = match places {
        1 => format!("{fraction}"),
        2 => format!("{fraction:02}"),
        _ => format!("{fraction:03}"),
    };
    format!("{sign}{}.{fraction}", scaled / scale)
}

#[cfg(test)]
mod tests {
    #[test]
    fn fixed_writes_like_the_float_formatter() {
        for (x, places) in [
            (0.0, 1),
            (12.345, 2),
            (-3.06, 1),
            (99.9999, 3),
            (0.25, 2),
            (7.5, 0),
            (-0.46, 1),
        ] {
            assert_eq!(
                super::fixed(x, places),
                format!("{x:.*}", places as usize),
                "{x} {places}"
            );
        }
    }

    #[test]
    fn a_count_of_one_takes_the_singular() {
        assert_eq!(super::counted(1u32, "rebalance"), "1 rebalance");
        assert_eq!(super::counted(0u32, "rebalance"), "0 rebalances");
        assert_eq!(super::counted(12u64, "move"), "12 moves");
    }
}
