//! The values a sweep gives a setting, as people type them: a list (`0,1,2`, `true,false`,
//! `null,2,4`, `release_at_join,two_phase`), a range of whole numbers with both ends included
//! (`1..8`), or a geometric series (`1e3..1e6x10`: 1000, 10000, 100000, 1000000), which is
//! drawn on a logarithmic axis.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// The most values one setting may take in a sweep.
pub const MAX_VALUES: usize = 1_000;

/// The largest number a value may be: the scenario format's largest figure (a changelog of
/// 10^15 records) fits well under it, and every number up to it is exact as a float.
const MAX_NUMBER: i64 = 1 << 53;

/// One value of a setting, as the scenario's JSON holds it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Value {
    /// A whole number (the scenario format has no other).
    Number(i64),
    /// `true` or `false`.
    Bool(bool),
    /// A word, such as `two_phase`.
    Word(String),
    /// `null` (also typed `none`): no value, such as no cap on `max_learners`.
    Null,
}

impl Value {
    /// The value in the scenario's JSON.
    pub fn to_json(&self) -> serde_json::Value {
        match self {
            Value::Number(n) => serde_json::Value::from(*n),
            Value::Bool(b) => serde_json::Value::Bool(*b),
            Value::Word(w) => serde_json::Value::String(w.clone()),
            Value::Null => serde_json::Value::Null,
        }
    }

    /// The number, if it is one.
    pub fn number(&self) -> Option<i64> {
        match self {
            Value::Number(n) => Some(*n),
            _ => None,
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Number(n) => write!(f, "{n}"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Word(w) => f.write_str(w),
            Value::Null => f.write_str("null"),
        }
    }
}

/// Why values could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{reason}")]
pub struct ValuesError {
    /// Why, in words.
    pub reason: String,
}

fn refuse<T>(reason: impl Into<String>) -> Result<T, ValuesError> {
    Err(ValuesError {
        reason: reason.into(),
    })
}

/// The values of one swept setting.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum Values {
    /// Listed one by one: `0,1,2`.
    List(Vec<Value>),
    /// Every whole number from `from` to `to`, both included: `1..8`.
    Range {
        /// The first.
        from: i64,
        /// The last.
        to: i64,
    },
    /// `from`, `from * factor`, `from * factor^2`, ... up to `to`: `1e3..1e6x10`.
    Geometric {
        /// The first.
        from: i64,
        /// At most the last.
        to: i64,
        /// The ratio of each to the one before.
        factor: i64,
    },
}

impl Values {
    /// Every value, in order.
    pub fn expand(&self) -> Vec<Value> {
        match *self {
            Values::List(ref list) => list.clone(),
            Values::Range { from, to } => (from..=to).map(Value::Number).collect(),
            Values::Geometric { from, to, factor } => {
                std::iter::successors(Some(from), |&v| v.checked_mul(factor).filter(|&n| n <= to))
                    .map(Value::Number)
                    .collect()
            }
        }
    }

    /// Whether they are drawn on a logarithmic axis (a geometric series).
    pub fn logarithmic(&self) -> bool {
        matches!(self, Values::Geometric { .. })
    }
}

impl fmt::Display for Values {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Values::List(list) => {
                let words: Vec<String> = list.iter().map(Value::to_string).collect();
                f.write_str(&words.join(","))
            }
            Values::Range { from, to } => write!(f, "{from}..{to}"),
            Values::Geometric { from, to, factor } => write!(f, "{from}..{to}x{factor}"),
        }
    }
}

/// A number as typed: digits with an optional sign and exponent (`-2`, `40000`, `1e6`,
/// `2.5e3`), whole and at most 2^53 either way.
fn number(text: &str) -> Result<i64, ValuesError> {
    let plain = text.strip_prefix('-').unwrap_or(text);
    if plain.is_empty() || !plain.starts_with(|c: char| c.is_ascii_digit()) {
        return refuse(format!("{text:?} is not a number"));
    }
    if plain.bytes().all(|b| b.is_ascii_digit()) {
        return match text.parse::<i64>() {
            Ok(n) if n.abs() <= MAX_NUMBER => Ok(n),
            _ => refuse(format!("{text} is too large (at most {MAX_NUMBER})")),
        };
    }
    match text.parse::<f64>() {
        Ok(x) if x.fract() != 0.0 => refuse(format!(
            "{text} is not a whole number: the scenario format's numbers are whole"
        )),
        Ok(x) if x.abs() <= MAX_NUMBER as f64 => Ok(x as i64),
        Ok(_) => refuse(format!("{text} is too large (at most {MAX_NUMBER})")),
        Err(_) => refuse(format!("{text:?} is not a number")),
    }
}

/// One item of a list.
fn item(text: &str) -> Result<Value, ValuesError> {
    match text {
        "" => refuse("a value is missing between two commas"),
        "true" => Ok(Value::Bool(true)),
        "false" => Ok(Value::Bool(false)),
        "null" | "none" => Ok(Value::Null),
        _ if text.starts_with(|c: char| c.is_ascii_digit() || c == '-') => {
            number(text).map(Value::Number)
        }
        _ if text
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_') =>
        {
            Ok(Value::Word(text.to_string()))
        }
        _ => refuse(format!(
            "{text:?} is not a number, true, false, null or a word such as two_phase"
        )),
    }
}

/// A range `FROM..TO` or a geometric series `FROM..TOxFACTOR`.
fn series(from: &str, rest: &str) -> Result<Values, ValuesError> {
    let (to, factor) = match rest.split_once('x') {
        Some((to, factor)) => (to, Some(factor)),
        None => (rest, None),
    };
    let (from, to) = (number(from.trim())?, number(to.trim())?);
    if to < from {
        return refuse(format!(
            "{from}..{to} is empty: the range runs up, from..to"
        ));
    }
    let values = match factor {
        None => Values::Range { from, to },
        Some(factor) => {
            let factor = number(factor.trim())?;
            if from < 1 || factor < 2 {
                return refuse(format!(
                    "a geometric series FROM..TOxFACTOR starts at 1 or more and grows by a factor of 2 or more, not {from}..{to}x{factor}"
                ));
            }
            Values::Geometric { from, to, factor }
        }
    };
    let count = match values {
        Values::Range { from, to } => (to - from).unsigned_abs().saturating_add(1),
        _ => values.expand().len() as u64,
    };
    if count > MAX_VALUES as u64 {
        return refuse(format!(
            "{values} gives {count} values, more than the {MAX_VALUES} a setting may take"
        ));
    }
    Ok(values)
}

impl FromStr for Values {
    type Err = ValuesError;

    fn from_str(text: &str) -> Result<Values, ValuesError> {
        let text = text.trim();
        if text.is_empty() {
            return refuse(
                "no values: give a list (0,1,2), a range (1..8) or a series (1e3..1e6x10)",
            );
        }
        if let Some((from, rest)) = text.split_once("..") {
            if text.contains(',') {
                return refuse("a range stands alone: write 0..4 or 0,1,2,3,4, not both");
            }
            return series(from, rest);
        }
        let list = text
            .split(',')
            .map(|t| item(t.trim()))
            .collect::<Result<Vec<Value>, ValuesError>>()?;
        if list.len() > MAX_VALUES {
            return refuse(format!(
                "{} values, more than the {MAX_VALUES} a setting may take",
                list.len()
            ));
        }
        for (i, v) in list.iter().enumerate() {
            if list[..i].contains(v) {
                return refuse(format!("{v} is listed twice"));
            }
        }
        Ok(Values::List(list))
    }
}

impl TryFrom<String> for Values {
    type Error = ValuesError;

    fn try_from(text: String) -> Result<Values, ValuesError> {
        text.parse()
    }
}

impl From<Values> for String {
    fn from(values: Values) -> String {
        values.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(text: &str) -> Vec<Value> {
        text.parse::<Values>().expect(text).expand()
    }

    fn numbers(text: &str) -> Vec<i64> {
        values(text).iter().filter_map(Value::number).collect()
    }

    fn refused(text: &str) -> String {
        text.parse::<Values>().expect_err(text).reason
    }

    #[test]
    fn lists_ranges_and_series_give_their_values() {
        assert_eq!(numbers("0,1,2"), [0, 1, 2]);
        assert_eq!(numbers(" 3 , 1 "), [3, 1], "in the order typed");
        assert_eq!(
            numbers("1..8"),
            [1, 2, 3, 4, 5, 6, 7, 8],
            "both ends included"
        );
        assert_eq!(numbers("5..5"), [5]);
        assert_eq!(numbers("1e3..1e6x10"), [1_000, 10_000, 100_000, 1_000_000]);
        assert_eq!(numbers("1..100x3"), [1, 3, 9, 27, 81], "up to the last end");
        assert_eq!(numbers("2.5e3,4e4"), [2_500, 40_000]);
        assert_eq!(
            numbers("-1"),
            [-1],
            "the format, not the syntax, refuses it"
        );
        assert_eq!(
            values("null,2,true,two_phase"),
            [
                Value::Null,
                Value::Number(2),
                Value::Bool(true),
                Value::Word("two_phase".into()),
            ]
        );
        assert_eq!(values("none"), [Value::Null]);
        assert!("1e3..1e6x10"
            .parse::<Values>()
            .expect("series")
            .logarithmic());
        assert!(!"1..8".parse::<Values>().expect("range").logarithmic());
        assert!(!"1,10,100".parse::<Values>().expect("list").logarithmic());
    }

    #[test]
    fn bad_values_are_refused_saying_why() {
        assert!(refused("").contains("no values"));
        assert!(refused("0,,2").contains("missing between two commas"));
        assert!(refused("1.5").contains("not a whole number"));
        assert!(refused("8..1").contains("is empty"));
        assert!(refused("1..x").contains("not a number"));
        assert!(refused("0..1e6x10").contains("starts at 1 or more"));
        assert!(refused("1..1e6x1").contains("factor of 2 or more"));
        assert!(refused("0..5000").contains("5001 values, more than the 1000"));
        assert!(refused("1,2,1").contains("1 is listed twice"));
        assert!(refused("0,1..3").contains("a range stands alone"));
        assert!(refused("Two Phase").contains("not a number, true, false"));
        assert!(refused("1e30").contains("too large"));
        assert!(refused("99999999999999999999").contains("too large"));
    }

    #[test]
    fn values_print_as_they_parse() {
        for text in ["0,1,2", "1..8", "1000..1000000x10", "null,true,two_phase"] {
            let v: Values = text.parse().expect(text);
            assert_eq!(v.to_string(), text);
            assert_eq!(v.to_string().parse::<Values>().expect("again"), v);
        }
        assert_eq!(
            "1e3..1e6x10".parse::<Values>().expect("series").to_string(),
            "1000..1000000x10"
        );
    }
}
