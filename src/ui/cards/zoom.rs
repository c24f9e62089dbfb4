//! The group's zoom on the page: the room the view has for it, ctrl and the wheel, bringing
//! what was zoomed into to the middle of the view, the members' outlines travelling from one
//! zoom to the other, and the zoom bar. What each means is decided in [`crate::views::zoom`].

use crate::playground::Action;
use crate::views::frame::Card;
use crate::views::geometry::Rect;
use crate::views::scene::{Centre, Scene, Zoom};
use crate::views::zoom;
use gloo_events::{EventListener, EventListenerOptions};
use std::cell::Cell;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement};
use yew::prelude::*;

/// The height the view has for the group below its top, at least half the view (the page
/// above scrolls away): read when the window is resized, and after a render that changed
/// `what` (the members and what is shown above them), never on every frame.
#[hook]
pub fn use_room<K: PartialEq + 'static>(group: &NodeRef, what: K) -> f64 {
    // Until the group is on the page: the view below where a group's top usually is.
    let room = use_state_eq(|| {
        let view = web_sys::window()
            .and_then(|w| w.inner_height().ok())
            .and_then(|h| h.as_f64())
            .unwrap_or(720.0);
        zoom::room(view, None)
    });
    let measure = {
        let (group, room) = (group.clone(), room.setter());
        move || {
            let Some(window) = web_sys::window() else {
                return;
            };
            let view = window.inner_height().ok().and_then(|h| h.as_f64());
            let top = group
                .cast::<Element>()
                .map(|g| g.get_bounding_client_rect().top() + window.scroll_y().unwrap_or(0.0));
            if let (Some(view), Some(top)) = (view, top) {
                room.set(zoom::room(view, Some(top)));
            }
        }
    };
    {
        let measure = measure.clone();
        use_effect_with((), move |_| {
            let listener =
                web_sys::window().map(|w| EventListener::new(&w, "resize", move |_| measure()));
            move || drop(listener)
        });
    }
    // In a task of its own, after the frame has laid the page out: read inside the render,
    // the group's place made the browser lay out thousands of tiles once more there and then.
    use_effect_with(what, move |_| {
        let read = gloo_timers::callback::Timeout::new(0, measure);
        move || drop(read)
    });
    *room
}

/// Ctrl and the wheel (a pinch on a touchpad) over the group zoom into the member under the
/// pointer, or out to the overview, in place of the browser's own zoom.
#[hook]
pub fn use_zoom_wheel(group: &NodeRef, shown: Rc<Cell<Zoom>>, on_action: Callback<Action>) {
    let group = group.clone();
    use_effect_with((), move |_| {
        let listener = group.cast::<Element>().map(|g| {
            EventListener::new_with_options(
                &g,
                "wheel",
                EventListenerOptions::enable_prevent_default(),
                move |e| {
                    let Some(wheel) = e.dyn_ref::<web_sys::WheelEvent>() else {
                        return;
                    };
                    if !wheel.ctrl_key() {
                        return;
                    }
                    e.prevent_default();
                    let Some(zoom) = zoom::wheel(shown.get(), wheel.delta_y() < 0.0) else {
                        return;
                    };
                    let centre = e
                        .target()
                        .and_then(|t| t.dyn_into::<Element>().ok())
                        .and_then(|t| t.closest("[data-member-id]").ok().flatten())
                        .and_then(|m| m.get_attribute("data-member-id"))
                        .map(Centre::Member);
                    on_action.emit(Action::Zoom { zoom, centre });
                },
            )
        });
        move || drop(listener)
    });
}

/// After a person zooms: into the cards, brings the member or zone zoomed into to the middle
/// of the view, with the focus; out, brings the overview into view.
#[hook]
pub fn use_centre(group: &NodeRef, chosen: Option<(Zoom, Option<Centre>)>) {
    let group = group.clone();
    use_effect_with(chosen, move |chosen| {
        let Some(g) = group.cast::<Element>() else {
            return;
        };
        let (block, found) = match chosen {
            Some((Zoom::Overview, _)) => (web_sys::ScrollLogicalPosition::Nearest, Some(g)),
            Some((Zoom::Cards, Some(centre))) => {
                let selector = match centre {
                    Centre::Member(m) => format!("[data-testid=member][data-member-id=\"{m}\"]"),
                    Centre::Zone(z) if z.is_empty() => "[data-testid=zone]:not([data-zone])".into(),
                    Centre::Zone(z) => format!("[data-testid=zone][data-zone=\"{z}\"]"),
                };
                let found = g.query_selector(&selector).ok().flatten();
                if let Some(el) = found.clone().and_then(|f| f.dyn_into::<HtmlElement>().ok()) {
                    let _ = el.focus();
                }
                (web_sys::ScrollLogicalPosition::Center, found)
            }
            _ => return,
        };
        if let Some(el) = found {
            let options = web_sys::ScrollIntoViewOptions::new();
            options.set_block(block);
            el.scroll_into_view_with_scroll_into_view_options(&options);
        }
    });
}

/// How long a member takes to travel from its place at one zoom to its place at the other
/// (real ms; the style sheet's `.zoom-ghost` transition).
const ZOOM_TRAVEL_MS: u32 = 300;

/// At most this many members travel at a change of zoom.
const ZOOM_TRAVELLERS: usize = 64;

/// When the reader changes the zoom (`chosen`), each member in view before and after the
/// change, and the member zoomed into, is outlined where it was and travels to where it is
/// now: its tile grows into its card, or its card shrinks into its tile. None when the motion
/// switch is off.
#[hook]
pub fn use_zoom_travel(
    group: &NodeRef,
    scene: &Rc<Scene>,
    zoom: Option<Zoom>,
    cards: &Rc<Vec<Card>>,
    chosen: &Option<(Zoom, Option<Centre>)>,
    motion: bool,
) {
    let last = use_mut_ref(|| None::<(Rc<Scene>, Option<Zoom>, Rc<Vec<Card>>)>);
    let before = last
        .borrow_mut()
        .replace((scene.clone(), zoom, cards.clone()));
    let (group, scene, cards) = (group.clone(), scene.clone(), cards.clone());
    let centre = match chosen {
        Some((_, Some(Centre::Member(name)))) => Some(name.clone()),
        _ => None,
    };
    let chosen = chosen.is_some();
    use_effect_with(zoom, move |&zoom| {
        let Some((old, was, old_cards)) = before else {
            return;
        };
        // The layout's own choice (a group that grew past the view) changes nothing in place.
        if !motion || !chosen || was.is_none() || was == zoom {
            return;
        }
        if let Some(group) = group.cast::<Element>() {
            zoom_travel(
                &group,
                (&old, &old_cards),
                (&scene, &cards),
                centre.as_deref(),
            );
        }
    });
}

/// Outlines the members in view at both zooms (and the member zoomed into, `centre`) where
/// `old` put them, and moves the outlines to where `new` puts them, then takes them away.
fn zoom_travel(
    group: &Element,
    old: (&Scene, &[Card]),
    new: (&Scene, &[Card]),
    centre: Option<&str>,
) {
    let (Some(window), Some(document)) = (web_sys::window(), group.owner_document()) else {
        return;
    };
    let view = window
        .inner_height()
        .ok()
        .and_then(|h| h.as_f64())
        .unwrap_or(0.0);
    if let Ok(earlier) = group.query_selector_all(":scope > .zoom-ghost") {
        for i in 0..earlier.length() {
            if let Some(ghost) = earlier.item(i).and_then(|n| n.dyn_into::<Element>().ok()) {
                ghost.remove();
            }
        }
    }
    let top = group.get_bounding_client_rect().top();
    let place = |r: &Rect| {
        format!(
            "left: {}px; top: {}px; width: {}px; height: {}px",
            r.x, r.y, r.w, r.h
        )
    };
    let ghosts: Vec<(Element, Rect)> =
        zoom::travellers(old, new, centre, (top, view), ZOOM_TRAVELLERS)
            .into_iter()
            .filter_map(|t| {
                let ghost = document.create_element("div").ok()?;
                ghost.set_class_name("zoom-ghost");
                let _ = ghost.set_attribute("aria-hidden", "true");
                let _ = ghost.set_attribute("data-testid", "zoom-ghost");
                let _ = ghost.set_attribute("data-member-id", &t.name);
                let _ = ghost.set_attribute("style", &place(&t.from));
                group.append_child(&ghost).ok()?;
                Some((ghost, t.to))
            })
            .collect();
    // The outlines' first places are styled before they move, so that they travel from them.
    let _ = group.get_bounding_client_rect();
    for (ghost, to) in &ghosts {
        let _ = ghost.set_attribute("style", &place(to));
    }
    gloo_timers::callback::Timeout::new(ZOOM_TRAVEL_MS + 100, move || {
        for (ghost, _) in ghosts {
            ghost.remove();
        }
    })
    .forget();
}

/// The buttons that zoom the group out to its overview and into its cards.
pub fn zoom_bar(shown: Zoom, on_action: &Callback<Action>) -> Html {
    let to =
        |zoom: Zoom| on_action.reform(move |_: MouseEvent| Action::Zoom { zoom, centre: None });
    let hint = match shown {
        Zoom::Overview => "A tile per member, its bars its actives, learners and standbys, filled as their stores replay: click one for its actions, double-click it to zoom into its card; + and \u{2212} (or ctrl and the wheel) zoom.",
        Zoom::Cards => "\u{2212} (or ctrl and the wheel) zooms out to the whole group.",
    };
    html! {
        <div class="zoom-bar" role="group" aria-label="zoom" data-testid="zoom-bar">
            <button type="button" data-testid="zoom-out" aria-pressed={(shown == Zoom::Overview).to_string()}
                onclick={to(Zoom::Overview)} title="The whole group, a tile per member (\u{2212})">{ "\u{2212} overview" }</button>
            <button type="button" data-testid="zoom-in" aria-pressed={(shown == Zoom::Cards).to_string()}
                onclick={to(Zoom::Cards)} title="Every member's card, its tasks and buttons (+)">{ "+ cards" }</button>
            <span class="hint">{ hint }</span>
        </div>
    }
}
