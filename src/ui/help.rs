//! The help dialog: keyboard shortcuts, the settings that can get in a reader's way
//! (single-key shortcuts, animation), and the glossary.

use crate::playground::glossary::GLOSSARY;
use crate::playground::keys::{Part, KEYS};
use crate::playground::{Action, Preference};
use yew::prelude::*;

/// Properties of the help dialog.
#[derive(Properties, PartialEq)]
pub struct HelpProps {
    /// Single-key shortcuts are on.
    pub shortcuts: bool,
    /// Chip movements animate.
    pub motion: bool,
    /// Carries out an action (shortcuts, motion, close).
    pub on_action: Callback<Action>,
}

/// Words and keys, the keys drawn as keys.
fn parts(parts: &[Part]) -> Html {
    parts
        .iter()
        .map(|p| match p {
            Part::Text(words) => html! { { *words } },
            Part::Key(key) => html! { <kbd>{ *key }</kbd> },
        })
        .collect()
}

/// Keyboard shortcuts, settings and the glossary.
#[function_component(HelpDialog)]
pub fn help_dialog(props: &HelpProps) -> Html {
    let close = props.on_action.reform(|_: MouseEvent| Action::Help(false));
    let value = props.shortcuts;
    let toggle = props
        .on_action
        .reform(move |_: Event| Action::Preference(Preference::Shortcuts(!value)));
    let value = props.motion;
    let motion = props
        .on_action
        .reform(move |_: Event| Action::Preference(Preference::Motion(!value)));
    html! {
        <div class="dialog-backdrop">
            <div class="dialog" role="dialog" aria-modal="true" aria-labelledby="help-title" data-testid="help">
                <h2 id="help-title">{ "Help" }</h2>
                <table>
                    { for KEYS.iter().map(|row| html! { <tr><th>{ parts(row.keys) }</th><td>{ parts(row.does) }</td></tr> }) }
                </table>
                <p>
                    <label><input type="checkbox" data-testid="shortcuts-toggle" checked={props.shortcuts} onchange={toggle} />
                        { " single-key shortcuts (turn off if they get in the way of your screen reader or voice control)" }</label>
                </p>
                <p>
                    <label><input type="checkbox" data-testid="motion-toggle" checked={props.motion} onchange={motion} />{ " animate tasks moving between members" }</label>
                </p>
                <h3>{ "Glossary" }</h3>
                <dl>
                    { for GLOSSARY.iter().map(|e| html! { <><dt><b>{ e.term }</b></dt><dd>{ e.meaning }</dd></> }) }
                </dl>
                <button class="primary" onclick={close} autofocus=true>{ "Close" }</button>
            </div>
        </div>
    }
}
