//! The help dialog: keyboard shortcuts, the settings that can get in a reader's way
//! (single-key shortcuts, animation), and the glossary.

use crate::playground::glossary::GLOSSARY;
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
                    <tr><th><kbd>{ "space" }</kbd></th><td>{ "play or pause" }</td></tr>
                    <tr><th><kbd>{ "\u{2192}" }</kbd>{ " " }<kbd>{ "\u{2190}" }</kbd></th><td>{ "next event, previous event" }</td></tr>
                    <tr><th><kbd>{ "1" }</kbd>{ " \u{2026} " }<kbd>{ "7" }</kbd></th><td>{ "speed 0.25\u{00D7} to 16\u{00D7}" }</td></tr>
                    <tr><th><kbd>{ "\u{2190}" }</kbd>{ " " }<kbd>{ "\u{2192}" }</kbd>{ " " }<kbd>{ "\u{2191}" }</kbd>{ " " }<kbd>{ "\u{2193}" }</kbd></th>
                        <td>{ "on a scheduled command (the marks under the scrubber): move it in time (with shift: ten steps), choose another; " }
                            <kbd>{ "Enter" }</kbd>{ " edit it, " }<kbd>{ "Delete" }</kbd>{ " remove it" }</td></tr>
                    <tr><th><kbd>{ "\u{2190}" }</kbd>{ " " }<kbd>{ "\u{2192}" }</kbd>{ " " }<kbd>{ "\u{2191}" }</kbd>{ " " }<kbd>{ "\u{2193}" }</kbd></th>
                        <td>{ "on a member's tasks (its chips or marks) or the overview's tiles: move over them; " }
                            <kbd>{ "Home" }</kbd>{ " " }<kbd>{ "End" }</kbd>{ " the first, the last; " }<kbd>{ "Enter" }</kbd>{ " find a mark's task, open a tile's actions" }</td></tr>
                    <tr><th><kbd>{ "+" }</kbd>{ " " }<kbd>{ "\u{2212}" }</kbd></th><td>{ "zoom into the cards (the member focused), out to the overview; ctrl and the wheel too" }</td></tr>
                    <tr><th><kbd>{ "?" }</kbd></th><td>{ "this help" }</td></tr>
                    <tr><th><kbd>{ "Esc" }</kbd></th><td>{ "close" }</td></tr>
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
