//! Over each card's marks in a large group, a transparent area that says what the mark under
//! the pointer is and finds the task on a click, and that the keyboard moves over, a task at
//! a time (the marks themselves are on the group's canvas).

use crate::playground::Action;
use crate::views::frame::{ChipRole, Dot};
use crate::views::geometry::{Rect, Step};
use crate::views::marks::{self, Hover};
use std::rc::Rc;
use web_sys::Element;
use yew::prelude::*;

/// The width at which the element under a pointer event is shown, in CSS pixels.
fn shown_width(e: &MouseEvent) -> i32 {
    e.current_target()
        .and_then(|t| wasm_bindgen::JsCast::dyn_into::<Element>(t).ok())
        .map_or(0, |el| el.client_width())
}

/// Properties of a member's marks area.
#[derive(Properties, PartialEq)]
pub struct MiniProps {
    /// The member's tasks as marks.
    pub dots: Rc<[Dot]>,
    /// Task names.
    pub names: Rc<Vec<String>>,
    /// The member's name.
    pub member: AttrValue,
    /// Where the marks are drawn, relative to the card.
    pub place: Rect,
    /// Where the marks are drawn, in the group.
    pub in_group: Rect,
    /// Says what lies under the pointer (`None`: nothing), in the group's coordinates.
    pub on_hover: Callback<Option<Hover>>,
    /// Whether the member is restarting: its active tasks wait for it, down.
    #[prop_or_default]
    pub away: bool,
    /// Carries out an action (find a task).
    pub on_action: Callback<Action>,
}

/// The area over a member's marks: what the mark under the pointer is, and a click finds it.
/// For the keyboard it is a list of the member's tasks that names one at a time (its size and
/// the option's place in it said, as a long list shown in part does): the arrow keys, Home
/// and End move over the marks, Enter finds the task, and the mark is outlined.
#[function_component(MiniChips)]
pub fn mini_chips(props: &MiniProps) -> Html {
    let current = use_state_eq(|| 0usize);
    let index = (*current).min(props.dots.len().saturating_sub(1));
    let on_move = {
        let (hover, at_group, dots, names, member, away) = (
            props.on_hover.clone(),
            props.in_group,
            props.dots.clone(),
            props.names.clone(),
            props.member.clone(),
            props.away,
        );
        Callback::from(move |e: MouseEvent| {
            let (x, y) = (e.offset_x(), e.offset_y());
            hover.emit(marks::hover(
                (&dots, &names),
                (&member, away),
                (x, y, shown_width(&e)),
                at_group,
            ));
        })
    };
    let on_leave = props.on_hover.reform(|_: MouseEvent| None);
    let find = {
        let (on, names) = (props.on_action.clone(), props.names.clone());
        move |d: &Dot| {
            if let Some(name) = names.get(d.task.index()) {
                on.emit(Action::Find(name.clone()));
            }
        }
    };
    let on_click = {
        let (dots, current, find) = (props.dots.clone(), current.clone(), find.clone());
        Callback::from(move |e: MouseEvent| {
            let shown = shown_width(&e);
            if let Some(d) = marks::at(&dots, e.offset_x(), e.offset_y(), shown) {
                if let Some(i) = dots.iter().position(|x| x.task == d.task) {
                    current.set(i);
                }
                find(d);
            }
        })
    };
    let on_key = {
        let (dots, current) = (props.dots.clone(), current.clone());
        Callback::from(move |e: KeyboardEvent| {
            let key = e.key();
            if key == "Enter" || key == " " {
                e.prevent_default();
                e.stop_propagation();
                if let Some(d) = dots.get(index) {
                    find(d);
                }
                return;
            }
            let Some(step) = Step::of_key(&key) else {
                return;
            };
            // The playground's own arrow keys (step, back) do not act meanwhile.
            e.prevent_default();
            e.stop_propagation();
            if let Some(to) = marks::step(index, dots.len(), step) {
                current.set(to);
            }
        })
    };
    let p = props.place;
    let id = format!("marks-{}", props.member);
    // The drawing is shrunk to a narrow card: so is the mark's place in it.
    let scale = p.w / f64::from(marks::drawing(0).0);
    let option = props.dots.get(index).map(|d| {
        let c = marks::cell(index);
        html! {
            <div id={format!("{id}-task")} class="mark-focus" role="option" aria-selected="true"
                aria-setsize={props.dots.len().to_string()} aria-posinset={(index + 1).to_string()}
                aria-label={marks::words(d, &props.names, &props.member, props.away)}
                data-testid="task" data-task-id={props.names.get(d.task.index()).cloned()}
                data-role={d.role.name()} data-stateful={d.stateful.to_string()} data-learned={d.learned.to_string()}
                data-up={d.up.to_string()} data-ready={(d.role == ChipRole::Learner).then(|| d.ready.to_string())}
                data-progress={(d.role != ChipRole::Active || !d.up).then(|| (u32::from(d.tenths) * 10).to_string())}
                style={format!("left: {}px; top: {}px; width: {}px; height: {}px", c.x * scale, c.y * scale, c.w * scale, c.h * scale)}>
            </div>
        }
    });
    html! {
        <div class="mini" data-testid="mini" role="listbox" tabindex="0"
            aria-label={format!("tasks of {}: the arrow keys move, Enter finds", props.member)}
            aria-activedescendant={option.is_some().then(|| format!("{id}-task"))}
            style={format!("left: {}px; top: {}px; width: {}px; height: {}px", p.x, p.y, p.w, p.h)}
            onmousemove={on_move} onmouseleave={on_leave} onclick={on_click} onkeydown={on_key}>
            { for option }
        </div>
    }
}
