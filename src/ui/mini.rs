//! A member's tasks in a large group, as small marks in one small SVG (the paths of
//! [`crate::views::marks`]); a pointer over a mark says what it is, a click finds the task
//! everywhere. Marks change only by tenths of replay, so a member's paths are not written
//! again on every frame.
//!
//! SVG rather than a canvas per member: every canvas is a composited layer of its own, and with
//! dozens of members the browser spent more time layering and committing them, on every frame,
//! than drawing (a jump of the scrubber, which changes every member at once, pays instead for
//! laying out the changed paths). Marks alike share one path (ten paths per member, whatever
//! its tasks), and the colours come from the style sheet, so a theme change draws nothing again.

use crate::playground::Action;
use crate::views::frame::{ChipRole, Dot};
use crate::views::marks::{at, drawing, paths, LAYERS};
use std::rc::Rc;
use web_sys::Element;
use yew::prelude::*;

/// Properties of a member's marks.
#[derive(Properties, PartialEq)]
pub struct MiniProps {
    /// The member's tasks as marks.
    pub dots: Rc<[Dot]>,
    /// Task names.
    pub names: Rc<Vec<String>>,
    /// The member's name.
    pub member: AttrValue,
    /// Task names to ring (found, tour).
    pub highlight: Vec<String>,
    /// Whether the member is restarting: its active tasks wait for it, down.
    #[prop_or_default]
    pub away: bool,
    /// Carries out an action (find a task).
    pub on_action: Callback<Action>,
}

/// The width at which the element under a pointer event is shown, in CSS pixels.
fn shown_width(e: &MouseEvent) -> i32 {
    e.current_target()
        .and_then(|t| wasm_bindgen::JsCast::dyn_into::<Element>(t).ok())
        .map_or(0, |el| el.client_width())
}

/// A member's tasks as marks.
#[function_component(MiniChips)]
pub fn mini_chips(props: &MiniProps) -> Html {
    let hover = use_state(|| None::<(i32, i32, String)>);
    let layers = use_memo(
        (
            props.dots.clone(),
            props.names.clone(),
            props.highlight.clone(),
            props.away,
        ),
        |(dots, names, highlight, away)| paths(dots, names, highlight, *away).map(AttrValue::from),
    );
    let on_move = {
        let (hover, dots, names, member, away) = (
            hover.clone(),
            props.dots.clone(),
            props.names.clone(),
            props.member.clone(),
            props.away,
        );
        Callback::from(move |e: MouseEvent| {
            let (x, y) = (e.offset_x(), e.offset_y());
            hover.set(at(&dots, x, y, shown_width(&e)).map(|d| {
                let name = names.get(d.task.index()).map_or("", String::as_str);
                let text = if away && d.role == ChipRole::Active {
                    format!("{name} on {member} \u{00B7} active, down while {member} restarts")
                } else {
                    d.describe(name, &member)
                };
                (x, y, text)
            }));
        })
    };
    let on_leave = {
        let hover = hover.clone();
        Callback::from(move |_| hover.set(None))
    };
    let on_click = {
        let (on, dots, names) = (
            props.on_action.clone(),
            props.dots.clone(),
            props.names.clone(),
        );
        Callback::from(move |e: MouseEvent| {
            let found = at(&dots, e.offset_x(), e.offset_y(), shown_width(&e))
                .and_then(|d| names.get(d.task.index()));
            if let Some(name) = found {
                on.emit(Action::Find(name.clone()));
            }
        })
    };
    let (width, height, view_box) = drawing(props.dots.len());
    html! {
        <div class="mini">
            <svg data-testid="mini" width={width.to_string()} height={height.to_string()} viewBox={view_box}
                aria-hidden="true" onmousemove={on_move} onmouseleave={on_leave} onclick={on_click}>
                // Every layer, used or not (an empty path draws nothing): a layer coming into use
                // then changes its own path only, not the place of the others.
                { for LAYERS.iter().zip(layers.iter()).map(|(class, d)| html! {
                    <path class={*class} d={d.clone()} />
                }) }
            </svg>
            if let Some((x, y, text)) = &*hover {
                <div class="hover" style={format!("left: {}px; top: {}px", x + 10, y + 14)} data-testid="mini-hover">{ text }</div>
            }
        </div>
    }
}
