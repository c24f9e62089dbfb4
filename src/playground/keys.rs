//! The page's keys, defined once: the single-key shortcuts that act anywhere on the page
//! (each with the keys it answers to and the action each asks for) and the keys that act
//! where the focus is (the track's marks, a card's chips, a member's marks, the overview's
//! tiles), as the help's table lists them. The page's listener asks [`shortcut`] what a key
//! means; the help draws [`KEYS`].

use super::action::{Action, Playback, SPEEDS};
use crate::views::scene::{Centre, Zoom};

/// A piece of a key's row in the help: words, or a key as drawn on a keyboard.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// Words.
    Text(&'static str),
    /// A key.
    Key(&'static str),
}

/// Where a key was pressed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// A text field, a list or a text area: the key is typed, not a shortcut.
    Field,
    /// A button, which answers the space bar itself.
    Button,
    /// Anywhere else.
    Other,
}

/// What a shortcut needs to know besides the key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Context {
    /// The help is open.
    pub help: bool,
    /// The member whose card or tile has the focus (what `+` zooms into).
    pub focused_member: Option<String>,
    /// Where the key was pressed.
    pub target: Target,
}

/// A row of the help's table of keys.
#[derive(Clone, Copy)]
pub struct KeyRow {
    /// The keys, as drawn.
    pub keys: &'static [Part],
    /// What they do.
    pub does: &'static [Part],
    /// The key values (`KeyboardEvent.key`) a shortcut answers to anywhere on the page; none
    /// for keys that act where the focus is (decided there: [`super::Schedule::key`],
    /// `views::geometry::Step::of_key`).
    pub answers: &'static [&'static str],
    /// The action a key it answers to asks for, if any.
    act: fn(&str, &Context) -> Option<Action>,
}

/// No action: the row's keys act where the focus is.
fn local(_: &str, _: &Context) -> Option<Action> {
    None
}

/// The speed of a digit key: `1` the slowest, `7` the fastest.
fn speed(key: &str, _: &Context) -> Option<Action> {
    let i = key.parse::<usize>().ok()?.checked_sub(1)?;
    SPEEDS.get(i).map(|&s| Action::Playback(Playback::Speed(s)))
}

/// The arrow keys without a mark, chip or tile focused.
const ARROWS: [Part; 7] = [
    Part::Key("\u{2190}"),
    Part::Text(" "),
    Part::Key("\u{2192}"),
    Part::Text(" "),
    Part::Key("\u{2191}"),
    Part::Text(" "),
    Part::Key("\u{2193}"),
];

/// Every key of the page, in the help's order.
pub const KEYS: [KeyRow; 8] = [
    KeyRow {
        keys: &[Part::Key("space")],
        does: &[Part::Text("play or pause")],
        answers: &[" "],
        act: |_, c| {
            (c.target != Target::Button).then_some(Action::Playback(Playback::Toggle))
        },
    },
    KeyRow {
        keys: &[
            Part::Key("\u{2192}"),
            Part::Text(" "),
            Part::Key("\u{2190}"),
        ],
        does: &[Part::Text("next event, previous event")],
        answers: &["ArrowRight", "ArrowLeft"],
        act: |key, _| {
            Some(Action::Playback(if key == "ArrowRight" {
                Playback::StepEvent
            } else {
                Playback::StepBack
            }))
        },
    },
    KeyRow {
        keys: &[Part::Key("1"), Part::Text(" \u{2026} "), Part::Key("7")],
        does: &[Part::Text("speed 0.25\u{00D7} to 16\u{00D7}")],
        answers: &["1", "2", "3", "4", "5", "6", "7"],
        act: speed,
    },
    KeyRow {
        keys: &ARROWS,
        does: &[
            Part::Text("on a scheduled command (the marks under the scrubber): move it in time (with shift: ten steps), choose another; "),
            Part::Key("Enter"),
            Part::Text(" edit it, "),
            Part::Key("Delete"),
            Part::Text(" remove it"),
        ],
        answers: &[],
        act: local,
    },
    KeyRow {
        keys: &ARROWS,
        does: &[
            Part::Text("on a member's tasks (its chips or marks) or the overview's tiles: move over them; "),
            Part::Key("Home"),
            Part::Text(" "),
            Part::Key("End"),
            Part::Text(" the first, the last; "),
            Part::Key("Enter"),
            Part::Text(" find a mark's task, open a tile's actions"),
        ],
        answers: &[],
        act: local,
    },
    KeyRow {
        keys: &[Part::Key("+"), Part::Text(" "), Part::Key("\u{2212}")],
        does: &[Part::Text(
            "zoom into the cards (the member focused), out to the overview; ctrl and the wheel too",
        )],
        answers: &["+", "=", "-"],
        act: |key, c| {
            Some(if key == "-" {
                Action::Zoom {
                    zoom: Zoom::Overview,
                    centre: None,
                }
            } else {
                Action::Zoom {
                    zoom: Zoom::Cards,
                    centre: c.focused_member.clone().map(Centre::Member),
                }
            })
        },
    },
    KeyRow {
        keys: &[Part::Key("?")],
        does: &[Part::Text("this help")],
        answers: &["?"],
        act: |_, c| Some(Action::Help(!c.help)),
    },
    KeyRow {
        keys: &[Part::Key("Esc")],
        does: &[Part::Text("close")],
        answers: &["Escape"],
        act: |_, c| c.help.then_some(Action::Help(false)),
    },
];

/// What a key pressed on the page asks for: nothing with ctrl, alt or the meta key held;
/// Escape closes the help wherever it is pressed; otherwise nothing while typing in a field
/// or with single-key shortcuts turned off (`enabled`), else the action of the shortcut
/// answering to the key, if one does.
pub fn shortcut(key: &str, modified: bool, enabled: bool, context: &Context) -> Option<Action> {
    if modified {
        return None;
    }
    if key == "Escape" {
        return context.help.then_some(Action::Help(false));
    }
    if context.target == Target::Field || !enabled {
        return None;
    }
    let row = KEYS.iter().find(|row| row.answers.contains(&key))?;
    (row.act)(key, context)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::playground::action::SPEED_LABELS;

    fn on(target: Target) -> Context {
        Context {
            help: false,
            focused_member: None,
            target,
        }
    }

    #[test]
    fn each_shortcut_answers_to_its_keys() {
        let press = |key: &str| shortcut(key, false, true, &on(Target::Other));
        assert_eq!(press(" "), Some(Action::Playback(Playback::Toggle)));
        assert_eq!(
            press("ArrowRight"),
            Some(Action::Playback(Playback::StepEvent))
        );
        assert_eq!(
            press("ArrowLeft"),
            Some(Action::Playback(Playback::StepBack))
        );
        assert_eq!(press("1"), Some(Action::Playback(Playback::Speed(0.25))));
        assert_eq!(press("7"), Some(Action::Playback(Playback::Speed(16.0))));
        assert_eq!(press("8"), None);
        assert_eq!(press("0"), None);
        assert_eq!(press("?"), Some(Action::Help(true)));
        assert_eq!(
            press("-"),
            Some(Action::Zoom {
                zoom: Zoom::Overview,
                centre: None
            })
        );
        let focused = Context {
            focused_member: Some("S7".into()),
            ..on(Target::Other)
        };
        let zoom_in = Some(Action::Zoom {
            zoom: Zoom::Cards,
            centre: Some(Centre::Member("S7".into())),
        });
        assert_eq!(shortcut("+", false, true, &focused), zoom_in);
        assert_eq!(shortcut("=", false, true, &focused), zoom_in);
        assert_eq!(
            press("ArrowUp"),
            None,
            "the arrows up and down act where the focus is"
        );
        assert_eq!(press("x"), None);
    }

    #[test]
    fn typing_a_modifier_a_button_or_shortcuts_off_keep_the_key_for_the_browser() {
        let other = on(Target::Other);
        assert_eq!(
            shortcut("ArrowRight", true, true, &other),
            None,
            "ctrl, alt or meta"
        );
        assert_eq!(
            shortcut("ArrowRight", false, true, &on(Target::Field)),
            None
        );
        assert_eq!(
            shortcut("ArrowRight", false, false, &other),
            None,
            "turned off"
        );
        assert_eq!(
            shortcut(" ", false, true, &on(Target::Button)),
            None,
            "a button answers the space bar itself"
        );
        assert_eq!(
            shortcut("ArrowRight", false, true, &on(Target::Button)),
            Some(Action::Playback(Playback::StepEvent))
        );
    }

    #[test]
    fn escape_closes_the_help_even_while_typing_or_with_shortcuts_off() {
        let help = Context {
            help: true,
            ..on(Target::Field)
        };
        assert_eq!(
            shortcut("Escape", false, false, &help),
            Some(Action::Help(false))
        );
        assert_eq!(
            shortcut("Escape", false, true, &on(Target::Other)),
            None,
            "no help open"
        );
        assert_eq!(
            shortcut(
                "?",
                false,
                true,
                &Context {
                    help: true,
                    ..on(Target::Other)
                }
            ),
            Some(Action::Help(false)),
            "? toggles it"
        );
    }

    #[test]
    fn the_help_lists_every_key_a_shortcut_answers_to_and_the_speeds_it_offers() {
        let answered: Vec<&str> = KEYS
            .iter()
            .flat_map(|r| r.answers.iter().copied())
            .collect();
        let mut unique = answered.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), answered.len(), "no key answers to two rows");
        // Every row answering to keys shows them (a digit row shows its first and last).
        let drawn = |row: &KeyRow| -> Vec<&str> {
            row.keys
                .iter()
                .filter_map(|p| match p {
                    Part::Key(k) => Some(*k),
                    Part::Text(_) => None,
                })
                .collect()
        };
        let speeds = KEYS
            .iter()
            .find(|r| r.answers.contains(&"1"))
            .expect("speeds");
        assert_eq!(speeds.answers.len(), SPEEDS.len());
        let last = SPEEDS.len().to_string();
        assert_eq!(drawn(speeds), ["1", last.as_str()]);
        let words = match speeds.does {
            [Part::Text(words)] => *words,
            _ => "",
        };
        assert_eq!(
            words,
            format!(
                "speed {}\u{00D7} to {}\u{00D7}",
                SPEED_LABELS[0],
                SPEED_LABELS[SPEED_LABELS.len() - 1]
            )
        );
        for row in KEYS.iter().filter(|r| !r.answers.is_empty()) {
            assert!(!drawn(row).is_empty(), "{:?}", row.answers);
        }
    }
}
