//! Finding a task or a member in a large group: a search box, where the thing is in words,
//! and the member brought into view.

use crate::playground::screen::Found;
use crate::playground::Action;
use yew::prelude::*;

/// Properties of the find box.
#[derive(Properties, PartialEq)]
pub struct FindProps {
    /// What was found, if anything was looked for.
    pub found: Option<Found>,
    /// Carries out an action (find).
    pub on_action: Callback<Action>,
}

/// A search box for a task or member name, and the answer.
#[function_component(FindBox)]
pub fn find_box(props: &FindProps) -> Html {
    let on_input = props.on_action.reform(|e: InputEvent| {
        Action::Find(
            e.target_unchecked_into::<web_sys::HtmlInputElement>()
                .value(),
        )
    });
    // Bring the member (or the task's owner) to the middle of the view when the answer changes.
    let member = props.found.as_ref().and_then(|f| f.member.clone());
    use_effect_with(member, |member| {
        let el = member.as_ref().and_then(|m| {
            web_sys::window()?
                .document()?
                .query_selector(&format!("[data-testid=member][data-member-id=\"{m}\"]"))
                .ok()?
        });
        if let Some(el) = el {
            let options = web_sys::ScrollIntoViewOptions::new();
            options.set_block(web_sys::ScrollLogicalPosition::Center);
            el.scroll_into_view_with_scroll_into_view_options(&options);
        }
    });
    html! {
        <div class="find">
            <label for="find">{ "find a task or member" }</label>
            <input id="find" data-testid="find" type="search" placeholder="T42 or S7" oninput={on_input}
                autocomplete="off" spellcheck="false" />
            <span class="found" role="status" data-testid="found">
                { props.found.as_ref().map(|f| f.text.clone()).unwrap_or_default() }
            </span>
        </div>
    }
}
