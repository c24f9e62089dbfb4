//! Numbers and spans of virtual time as people read them, one way everywhere: the page, the
//! report, the command line's words and the charts' axes. Every reading rounds half up (so
//! 1,999 ms reads `2.0 s` wherever it is read); [`moment`] and [`exact_seconds`] are exact, for
//! the moments a person types and edits.

/// A count with thousands separated: `12,500,000`.
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `ms` divided by `unit`, rounded half up.
fn rounded(ms: u64, unit: u64) -> u64 {
    ms / unit + u64::from(ms % unit >= unit.div_ceil(2))
}

/// Milliseconds as seconds to the nearest tenth: `0.5 s`, `2.0 s` (1,999 ms), `140.7 s`,
/// `86,400.0 s`.
pub fn seconds(ms: u64) -> String {
    let tenths = rounded(ms, 100);
    format!("{}.{} s", grouped(tenths / 10), tenths % 10)
}

/// A span as people say it: `850 ms` under a second, then [`seconds`] under a minute, then
/// `2 min 5 s` under an hour (to the nearest second), then `3 h 20 min` (to the nearest
/// minute); a part that is 0 is left out (`16 min`, `24 h`).
pub fn duration(ms: u64) -> String {
    if ms < 1_000 {
        return format!("{ms} ms");
    }
    if rounded(ms, 100) < 600 {
        return seconds(ms);
    }
    let s = rounded(ms, 1_000);
    let (big, small, units) = if s < 3_600 {
        (s / 60, s % 60, ("min", "s"))
    } else {
        let min = rounded(ms, 60_000);
        (min / 60, min % 60, ("h", "min"))
    };
    match small {
        0 => format!("{} {}", grouped(big), units.0),
        _ => format!("{} {} {small} {}", grouped(big), units.0, units.1),
    }
}

/// The time until a restarting member is back, in words: `back in 4.2 s`,
/// `back in 2 min 5 s`. `ms` is rounded up (to a tenth of a second, above a minute to a
/// second), so it never reads 0 before the member is back.
pub fn back_in(ms: u64) -> String {
    if ms < 60_000 {
        format!("back in {}", seconds(ms.div_ceil(100) * 100))
    } else {
        format!("back in {}", duration(ms.div_ceil(1_000) * 1_000))
    }
}

/// Milliseconds as seconds, exactly, with as many decimals as needed and no unit (what a
/// field of seconds holds): `6`, `0.5`, `12.25`, `1.001`.
pub fn exact_seconds(ms: u64) -> String {
    let (whole, part) = (ms / 1000, ms % 1000);
    if part == 0 {
        return whole.to_string();
    }
    let part = format!("{part:03}");
    format!("{whole}.{}", part.trim_end_matches('0'))
}

/// A moment or span exactly, to the millisecond: `850 ms`, `1 s`, `3.05 s`, `2000.001 s`.
pub fn moment(ms: u64) -> String {
    if ms < 1_000 {
        format!("{ms} ms")
    } else {
        format!("{} s", exact_seconds(ms))
    }
}

/// The unit a time axis is labelled in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeUnit {
    /// Seconds.
    Seconds,
    /// Minutes.
    Minutes,
    /// Hours.
    Hours,
}

impl TimeUnit {
    /// The unit in ms.
    fn ms(self) -> f64 {
        match self {
            TimeUnit::Seconds => 1_000.0,
            TimeUnit::Minutes => 60_000.0,
            TimeUnit::Hours => 3_600_000.0,
        }
    }

    /// Its symbol.
    fn symbol(self) -> &'static str {
        match self {
            TimeUnit::Seconds => "s",
            TimeUnit::Minutes => "min",
            TimeUnit::Hours => "h",
        }
    }
}

/// A time axis's ticks: a round step in one unit, so that every label reads as a person
/// would say it (`90 s`, `12 min`, `1,200 h`), never as a count of seconds (`80000s`).
#[derive(Clone, Debug, PartialEq)]
pub struct TimeAxis {
    /// The unit every label is in.
    pub unit: TimeUnit,
    /// The step between ticks, in ms.
    pub step_ms: f64,
    /// The ticks from 0 up to the axis's end, in ms.
    pub ticks: Vec<f64>,
}

/// The steps a time axis takes in each unit, smallest first: a step in seconds reaching a
/// minute is taken in minutes, one in minutes reaching an hour in hours.
const STEPS: [(TimeUnit, f64); 20] = [
    (TimeUnit::Seconds, 0.1),
    (TimeUnit::Seconds, 0.2),
    (TimeUnit::Seconds, 0.5),
    (TimeUnit::Seconds, 1.0),
    (TimeUnit::Seconds, 2.0),
    (TimeUnit::Seconds, 5.0),
    (TimeUnit::Seconds, 10.0),
    (TimeUnit::Seconds, 15.0),
    (TimeUnit::Seconds, 30.0),
    (TimeUnit::Minutes, 1.0),
    (TimeUnit::Minutes, 2.0),
    (TimeUnit::Minutes, 5.0),
    (TimeUnit::Minutes, 10.0),
    (TimeUnit::Minutes, 15.0),
    (TimeUnit::Minutes, 30.0),
    (TimeUnit::Hours, 1.0),
    (TimeUnit::Hours, 2.0),
    (TimeUnit::Hours, 3.0),
    (TimeUnit::Hours, 6.0),
    (TimeUnit::Hours, 12.0),
];

impl TimeAxis {
    /// The ticks of an axis from 0 to `end_ms` with at most `most` steps (at least one): the
    /// smallest round step that fits, in the largest unit it is whole in.
    pub fn of(end_ms: f64, most: usize) -> TimeAxis {
        let end_ms = end_ms.max(1.0);
        let least = end_ms / most.max(1) as f64;
        let (unit, step) = STEPS
            .iter()
            .map(|&(unit, n)| (unit, n * unit.ms()))
            .find(|&(_, step)| step >= least)
            .unwrap_or_else(|| (TimeUnit::Hours, hours_step(least)));
        let count = (end_ms / step + 1e-9).floor() as usize;
        TimeAxis {
            unit,
            step_ms: step,
            ticks: (0..=count).map(|i| i as f64 * step).collect(),
        }
    }

    /// A tick's label: `0 s`, `90 s`, `0.5 s`, `12 min`, `1,200 h`.
    pub fn label(&self, ms: f64) -> String {
        let value = ms / self.unit.ms();
        let tenths = self.step_ms < self.unit.ms();
        let text = if tenths {
            let t = (value * 10.0).round().max(0.0) as u64;
            format!("{}.{}", grouped(t / 10), t % 10)
        } else {
            grouped(value.round().max(0.0) as u64)
        };
        format!("{text} {}", self.unit.symbol())
    }
}

/// A round step in hours beyond half a day (20, 50, 100, 200, ... hours) of at least `least`
/// ms.
fn hours_step(least: f64) -> f64 {
    let hours = least / TimeUnit::Hours.ms();
    let mut scale = 10.0;
    loop {
        for n in [2.0, 5.0, 10.0] {
            if n * scale >= hours {
                return n * scale * TimeUnit::Hours.ms();
            }
        }
        scale *= 10.0;
    }
}

/// A duration as people say it, for axes: `500 ms`, `2.5 s`, `45 s`, `10 min`, `1.5 h`, `2 d`.
pub fn spoken_duration(ms: f64) -> String {
    const UNITS: [(f64, &str); 4] = [
        (86_400_000.0, "d"),
        (3_600_000.0, "h"),
        (60_000.0, "min"),
        (1_000.0, "s"),
    ];
    let ms = ms.max(0.0);
    if ms == 0.0 {
        return "0".to_string();
    }
    match UNITS.iter().find(|(size, _)| ms >= *size) {
        Some((size, unit)) => format!("{} {unit}", one_decimal(ms / size)),
        None => format!("{} ms", one_decimal(ms)),
    }
}

/// A count or a number of records, short: `950`, `12k`, `1.5M`, `4.4G`.
pub fn short_count(n: f64) -> String {
    const UNITS: [(f64, &str); 3] = [(1e9, "G"), (1e6, "M"), (1e3, "k")];
    match UNITS.iter().find(|(size, _)| n.abs() >= *size) {
        Some((size, unit)) => format!("{}{unit}", one_decimal(n / size)),
        None => one_decimal(n),
    }
}

/// A number with at most one decimal, none when it is whole: `2`, `2.5`.
fn one_decimal(x: f64) -> String {
    let tenths = (x * 10.0).round();
    if tenths % 10.0 == 0.0 {
        format!("{:.0}", tenths / 10.0)
    } else {
        format!("{:.1}", tenths / 10.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_take_thousands_separators() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1_000), "1,000");
        assert_eq!(grouped(12_500_000), "12,500,000");
    }

    #[test]
    fn seconds_round_half_up_to_a_tenth() {
        assert_eq!(seconds(1_999), "2.0 s", "not truncated to 1.9 s");
        assert_eq!(seconds(1_949), "1.9 s");
        assert_eq!(seconds(1_950), "2.0 s", "a half rounds up");
        assert_eq!(seconds(140_735), "140.7 s");
        assert_eq!(seconds(500), "0.5 s");
        assert_eq!(seconds(49), "0.0 s");
        assert_eq!(seconds(50), "0.1 s");
        assert_eq!(seconds(86_400_000), "86,400.0 s");
    }

    #[test]
    fn a_duration_reads_in_the_unit_a_person_would_use() {
        assert_eq!(duration(0), "0 ms");
        assert_eq!(duration(850), "850 ms");
        assert_eq!(duration(999), "999 ms");
        assert_eq!(duration(1_999), "2.0 s", "as `seconds` reads it");
        assert_eq!(duration(3_240), "3.2 s");
        assert_eq!(duration(59_949), "59.9 s");
        assert_eq!(duration(59_950), "1 min", "60.0 s reads as a minute");
        assert_eq!(duration(125_000), "2 min 5 s");
        assert_eq!(duration(125_500), "2 min 6 s", "to the nearest second");
        assert_eq!(duration(3_599_499), "59 min 59 s");
        assert_eq!(duration(3_599_500), "1 h");
        assert_eq!(duration(12_000_000), "3 h 20 min");
        assert_eq!(duration(86_400_000), "24 h");
        assert_eq!(duration(86_460_000), "24 h 1 min");
        assert_eq!(duration(960_000), "16 min");
    }

    #[test]
    fn the_countdown_reads_in_tenths_and_then_minutes_and_never_says_zero() {
        assert_eq!(back_in(4_000), "back in 4.0 s");
        assert_eq!(back_in(12_300), "back in 12.3 s");
        assert_eq!(back_in(1), "back in 0.1 s");
        assert_eq!(back_in(59_950), "back in 60.0 s");
        assert_eq!(back_in(125_000), "back in 2 min 5 s");
        assert_eq!(back_in(60_001), "back in 1 min 1 s");
    }

    #[test]
    fn exact_forms_keep_every_millisecond() {
        assert_eq!(exact_seconds(6_000), "6");
        assert_eq!(exact_seconds(12_500), "12.5");
        assert_eq!(exact_seconds(250), "0.25");
        assert_eq!(exact_seconds(1_001), "1.001");
        let written: Vec<String> = [0, 850, 1_000, 3_050, 60_000, 90_500, 2_000_001]
            .into_iter()
            .map(moment)
            .collect();
        assert_eq!(
            written,
            [
                "0 ms",
                "850 ms",
                "1 s",
                "3.05 s",
                "60 s",
                "90.5 s",
                "2000.001 s"
            ]
        );
    }

    fn labels(end_ms: f64, most: usize) -> Vec<String> {
        let axis = TimeAxis::of(end_ms, most);
        axis.ticks.iter().map(|&t| axis.label(t)).collect()
    }

    #[test]
    fn a_time_axis_steps_roundly_in_one_unit() {
        // 90 s in at most 6 steps: 15 s each.
        assert_eq!(
            labels(90_000.0, 6),
            ["0 s", "15 s", "30 s", "45 s", "60 s", "75 s", "90 s"]
        );
        // 12 minutes: 2 minutes each.
        assert_eq!(
            labels(720_000.0, 6),
            ["0 min", "2 min", "4 min", "6 min", "8 min", "10 min", "12 min"]
        );
        // A day: 6 hours each (24 / 6 is 4 hours, not a step of the list), or 3 in 8 steps.
        assert_eq!(
            labels(86_400_000.0, 6),
            ["0 h", "6 h", "12 h", "18 h", "24 h"]
        );
        assert_eq!(labels(86_400_000.0, 8)[1], "3 h");
        // Under a second: tenths.
        assert_eq!(
            labels(1_000.0, 5),
            ["0.0 s", "0.2 s", "0.4 s", "0.6 s", "0.8 s", "1.0 s"]
        );
        // Two months: thousands separated.
        let axis = TimeAxis::of(5_400.0 * 3_600_000.0, 6);
        assert_eq!(axis.unit, TimeUnit::Hours);
        assert_eq!(axis.step_ms, 1_000.0 * 3_600_000.0);
        assert_eq!(axis.label(axis.ticks[5]), "5,000 h");
    }

    #[test]
    fn a_time_axis_never_passes_its_end_nor_takes_too_many_steps() {
        for end in [1.0, 7.0, 999.0, 61_000.0, 3_700_000.0, 9.9e9, 3.15e10] {
            for most in 1..9 {
                let axis = TimeAxis::of(end, most);
                assert!(axis.ticks.len() <= most + 1, "{end} {most}: {axis:?}");
                assert!(axis.ticks.iter().all(|&t| t <= end.max(1.0) + 1e-6));
                assert_eq!(axis.ticks[0], 0.0);
            }
        }
    }

    #[test]
    fn durations_read_as_people_say_them() {
        assert_eq!(spoken_duration(0.0), "0");
        assert_eq!(spoken_duration(500.0), "500 ms");
        assert_eq!(spoken_duration(2_500.0), "2.5 s");
        assert_eq!(spoken_duration(45_000.0), "45 s");
        assert_eq!(spoken_duration(600_000.0), "10 min");
        assert_eq!(spoken_duration(5_400_000.0), "1.5 h");
        assert_eq!(spoken_duration(43_200_000.0), "12 h");
        assert_eq!(spoken_duration(172_800_000.0), "2 d");
        assert_eq!(short_count(950.0), "950");
        assert_eq!(short_count(12_000.0), "12k");
        assert_eq!(short_count(1_500_000.0), "1.5M");
        assert_eq!(short_count(4_366_517_393.0), "4.4G");
    }
}
