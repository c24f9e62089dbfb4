//! A large group: the members' cards placed where the scene lays them out
//! ([`crate::views::scene`]), their header, countdown and buttons as the page's own elements,
//! and every card's marks drawn on one canvas over them ([`super::mini`]).

use super::group::{zone_heading, MemberCard};
use super::hooks::use_width;
use super::mini::{draw_marks, Hover, Marks};
use crate::playground::{Action, RestartChoice};
use crate::views::frame::{orphans_text, Card, Chip, Dot};
use crate::views::scene::{Density, MemberBox, Rect, Scene};
use gloo_events::{EventListener, EventListenerOptions, EventListenerPhase};
use std::cell::RefCell;
use std::rc::Rc;
use web_sys::{Element, HtmlCanvasElement};
use yew::prelude::*;

/// The whole large group.
#[derive(Properties, PartialEq)]
pub struct LargeGroupProps {
    /// The cards, in join order.
    pub cards: Rc<Vec<Card>>,
    /// Tasks nobody runs.
    pub unowned: Vec<Chip>,
    /// Names to ring.
    pub highlight: Vec<String>,
    /// Carries out an action.
    pub on_action: Callback<Action>,
    /// One row per member (compare view).
    pub small: bool,
    /// Task names, for the marks.
    pub names: Rc<Vec<String>>,
    /// An accessible name for the group.
    pub label: AttrValue,
    /// What the restart buttons do.
    pub restart: RestartChoice,
    /// The dark theme.
    pub dark: bool,
}

/// The width laid out for before the group's own width is known.
const FIRST_WIDTH: f64 = 960.0;

/// Draws the marks again on every scroll of the page or of anything in it.
#[hook]
fn use_redraw_on_scroll(group: &NodeRef, canvas: &NodeRef, marks: &Rc<RefCell<Marks>>) {
    let (group, canvas, marks) = (group.clone(), canvas.clone(), marks.clone());
    use_effect_with((), move |_| {
        let options = EventListenerOptions {
            phase: EventListenerPhase::Capture,
            passive: true,
        };
        let document = web_sys::window().and_then(|w| w.document());
        let listener = document.map(|document| {
            EventListener::new_with_options(&document, "scroll", options, move |_| {
                if let (Some(g), Some(c)) =
                    (group.cast::<Element>(), canvas.cast::<HtmlCanvasElement>())
                {
                    draw_marks(&g, &c, &marks.borrow());
                }
            })
        });
        move || drop(listener)
    });
}

/// A large group of members, with their marks on one canvas.
#[function_component(LargeGroup)]
pub fn large_group(props: &LargeGroupProps) -> Html {
    let group = use_node_ref();
    let canvas = use_node_ref();
    let marks = use_mut_ref(Marks::default);
    let width = use_width(&group);
    let density = if props.small {
        Density::Lanes
    } else {
        Density::Cards
    };
    let width = if width > 0.0 { width } else { FIRST_WIDTH };
    let scene = Scene::of(&props.cards, density, width);
    let dots: Vec<Rc<[Dot]>> = props
        .cards
        .iter()
        .map(|c| c.chips.iter().map(Dot::of).collect())
        .collect();
    use_redraw_on_scroll(&group, &canvas, &marks);
    {
        let (group, canvas, marks) = (group.clone(), canvas.clone(), marks.clone());
        let next = Marks {
            scene: scene.clone(),
            dots: dots.clone(),
            away: props.cards.iter().map(|c| c.restart.is_some()).collect(),
            names: props.names.clone(),
            highlight: props.highlight.clone(),
            dark: props.dark,
        };
        use_effect(move || {
            *marks.borrow_mut() = next;
            if let (Some(g), Some(c)) =
                (group.cast::<Element>(), canvas.cast::<HtmlCanvasElement>())
            {
                draw_marks(&g, &c, &marks.borrow());
            }
        });
    }
    // A card's parts are placed from inside its border.
    let border = density.border();
    let inside = |r: &Rect| Rect::new(r.x + border, r.y + border, r.w, r.h);
    let hover = use_state_eq(|| None::<Hover>);
    let on_hover = {
        let hover = hover.clone();
        Callback::from(move |h: Option<Hover>| hover.set(h))
    };
    let member = |m: &MemberBox, origin: &Rect| {
        let card = &props.cards[m.card];
        html! {
            <MemberCard key={card.name.clone()} highlight={props.highlight.clone()}
                card={without_chips(card)}
                dots={Some(dots[m.card].clone())}
                place={Some(m.rect.within(origin))} marks={Some((m.marks.within(&inside(&m.rect)), m.marks))}
                on_hover={on_hover.clone()}
                names={props.names.clone()} restart={props.restart} on_action={props.on_action.clone()} />
        }
    };
    let whole = Rect::default();
    let tray = AttrValue::from(orphans_text(&props.unowned));
    let t = scene.tray;
    html! {
        <div ref={group} class={classes!("group", "mini-group", "placed", props.small.then_some("small"), (!scene.zones.is_empty()).then_some("zoned"))}
            role="region" aria-label={props.label.clone()} style={format!("height: {}px", scene.height)}>
            if scene.zones.is_empty() {
                { for scene.members.iter().map(|m| member(m, &whole)) }
            } else {
                { for scene.zones.iter().map(|band| {
                    let zone = band.zone.as_deref();
                    let alive = band.members.iter().filter(|&&i| props.cards[i].status.alive()).count();
                    let r = band.rect;
                    html! {
                        <section key={zone.unwrap_or_default().to_string()} class={classes!("zone", (zone.is_some() && alive == 0).then_some("down"))}
                            data-testid="zone" data-zone={zone.map(str::to_string)}
                            aria-label={format!("{}, {alive} of {} live", zone.map_or("no zone".to_string(), |z| format!("zone {z}")), band.members.len())}
                            style={format!("left: {}px; top: {}px; width: {}px; height: {}px", r.x, r.y, r.w, r.h)}>
                            { zone_heading(zone, alive, band.members.len()) }
                            { for scene.members.iter().filter(|m| band.members.contains(&m.card)).map(|m| member(m, &band.rect)) }
                        </section>
                    }
                }) }
            }
            // The tray stays one line high, even when empty: a tray coming and going (or
            // wrapping its names) moved what is under the group.
            <section class={classes!("tray", "mini-tray", props.unowned.is_empty().then_some("empty"))} aria-label="tasks no member runs"
                style={format!("left: {}px; top: {}px; width: {}px; height: {}px", t.x, t.y, t.w, t.h)}>
                <h3 class="term" title={crate::playground::glossary::define("orphan").unwrap_or_default()}>{ "Unassigned (down)" }</h3>
                <p data-testid="orphans" title={tray.clone()}>{ tray }</p>
            </section>
            <canvas ref={canvas} class="marks" aria-hidden="true"></canvas>
            if let Some(h) = &*hover {
                <div class="hover" style={format!("left: {}px; top: {}px", h.x + 10.0, h.y + 14.0)} data-testid="mini-hover">{ &h.text }</div>
            }
        </div>
    }
}

/// A card's header and buttons, for a member whose tasks are drawn as marks (cloning the
/// chips too would cost thousands of copies a frame in a large group).
fn without_chips(card: &Card) -> Card {
    Card {
        id: card.id,
        name: card.name.clone(),
        status: card.status,
        leader: card.leader,
        capacity: card.capacity,
        restore_rate: card.restore_rate,
        chips: Vec::new(),
        can_crash: card.can_crash,
        can_drain: card.can_drain,
        zone: card.zone.clone(),
        can_restart: card.can_restart,
        restart: card.restart,
    }
}
