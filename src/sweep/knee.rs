//! The knee of a curve: over a setting's values in the order given, the smallest value past
//! which the measure improves by less than a tenth at every step. Measures are costs (lower
//! is better); a step improves a figure `a` to `b` by a tenth or more when `a - b >= a / 10`.
//! A run that never got there (not at rest) is worse than any figure, so a step from it to a
//! figure is an improvement of more than a tenth, and a step back to it is none.

use crate::views::metrics::Measure;

/// Where a curve levels off.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Knee {
    /// At the value of this index: no later step improves the measure by a tenth.
    At(usize),
    /// Not within the values: the last step still improves it by a tenth or more.
    Beyond,
}

/// Whether the step from `a` to `b` improves the measure by a tenth or more.
fn improves(a: Option<u64>, b: Option<u64>) -> bool {
    match (a, b) {
        (None, Some(_)) => true,
        (Some(a), Some(b)) => b < a && 10 * u128::from(a - b) >= u128::from(a),
        _ => false,
    }
}

/// The knee of a curve (its figures over the setting's values, in order); `None` without
/// figures.
pub fn knee(curve: &[Option<u64>]) -> Option<Knee> {
    if curve.is_empty() {
        return None;
    }
    let last_gain = (1..curve.len())
        .rev()
        .find(|&i| improves(curve[i - 1], curve[i]));
    Some(match last_gain {
        None => Knee::At(0),
        Some(i) if i == curve.len() - 1 => Knee::Beyond,
        Some(i) => Knee::At(i),
    })
}

/// A list in words: `a`, `a and b`, `a, b and c`.
fn words(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => one.to_string(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// One sentence naming the knee of each measure of a strategy, measures with the same knee
/// together: `learner: the knee of total downtime is at num_standby_replicas = 1, of moves at
/// 0; records replayed still improves by a tenth or more at the last value, 2.`
pub fn sentence(
    strategy: &str,
    setting: &str,
    values: &[String],
    knees: &[(Measure, Knee)],
) -> String {
    let mut groups: Vec<(usize, Vec<&str>)> = Vec::new();
    let mut beyond: Vec<&str> = Vec::new();
    for (measure, knee) in knees {
        match knee {
            Knee::At(i) => match groups.iter_mut().find(|(at, _)| at == i) {
                Some((_, names)) => names.push(measure.name),
                None => groups.push((*i, vec![measure.name])),
            },
            Knee::Beyond => beyond.push(measure.name),
        }
    }
    let value = |i: usize| values.get(i).map_or("?", String::as_str);
    let mut text = format!("{strategy}: ");
    for (n, (at, names)) in groups.iter().enumerate() {
        if n == 0 {
            text.push_str(&format!(
                "the knee of {} is at {setting} = {}",
                words(names),
                value(*at)
            ));
        } else {
            text.push_str(&format!(", of {} at {}", words(names), value(*at)));
        }
    }
    if !beyond.is_empty() {
        if !groups.is_empty() {
            text.push_str("; ");
        }
        let verb = if beyond.len() == 1 {
            "improves"
        } else {
            "improve"
        };
        text.push_str(&format!(
            "{} still {verb} by a tenth or more at the last value, {setting} = {}",
            words(&beyond),
            value(values.len().saturating_sub(1))
        ));
    }
    text.push('.');
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_knee_is_where_every_later_step_gains_less_than_a_tenth() {
        // 1000 -> 400 gains 60 %, 400 -> 380 gains 5 %, 380 -> 379 gains little.
        assert_eq!(
            knee(&[Some(1000), Some(400), Some(380), Some(379)]),
            Some(Knee::At(1))
        );
        // A gain of exactly a tenth counts: 1000 -> 900 is a tenth.
        assert_eq!(knee(&[Some(1000), Some(900), Some(899)]), Some(Knee::At(1)));
        assert_eq!(knee(&[Some(1000), Some(901), Some(900)]), Some(Knee::At(0)));
        // Flat or worsening from the start: the first value.
        assert_eq!(knee(&[Some(5), Some(5), Some(9)]), Some(Knee::At(0)));
        assert_eq!(knee(&[Some(0), Some(0)]), Some(Knee::At(0)));
        // A late gain moves the knee past an early plateau.
        assert_eq!(
            knee(&[Some(100), Some(99), Some(50), Some(49)]),
            Some(Knee::At(2))
        );
        // Still gaining at the last step: beyond the values.
        assert_eq!(knee(&[Some(100), Some(80), Some(50)]), Some(Knee::Beyond));
        // Never at rest, then at rest: a gain; at rest, then never: none.
        assert_eq!(knee(&[None, Some(10), Some(10)]), Some(Knee::At(1)));
        assert_eq!(knee(&[Some(10), None, None]), Some(Knee::At(0)));
        assert_eq!(knee(&[Some(7)]), Some(Knee::At(0)));
        assert_eq!(knee(&[]), None);
    }

    #[test]
    fn a_sentence_names_each_knee_once_grouping_equal_ones() {
        let m = |id| Measure::find(id).expect(id);
        let values: Vec<String> = ["0", "1", "2"].map(String::from).to_vec();
        let text = sentence(
            "learner",
            "num_standby_replicas",
            &values,
            &[
                (m("total_downtime_ms"), Knee::At(1)),
                (m("worst_task_ms"), Knee::At(0)),
                (m("moves"), Knee::At(0)),
                (m("records_replayed"), Knee::Beyond),
            ],
        );
        assert_eq!(
            text,
            "learner: the knee of total downtime is at num_standby_replicas = 1, of worst task and moves at 0; records replayed still improves by a tenth or more at the last value, num_standby_replicas = 2."
        );
        let text = sentence("eager", "x", &values, &[(m("moves"), Knee::Beyond)]);
        assert_eq!(
            text,
            "eager: moves still improves by a tenth or more at the last value, x = 2."
        );
    }
}
