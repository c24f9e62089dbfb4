//! The group, placed: the members' cards, zones and tray where the scene lays them out
//! ([`crate::views::scene`]), their header, countdown, buttons and chips' names as the page's
//! own elements, and what the cards hold (chips or, in a large group, marks) drawn on one
//! canvas under them, only where the view shows it ([`super::chips`], [`super::mini`]).

use super::chips::{draw, Drawing, Shown};
use super::group::{zone_heading, MemberCard};
use super::hooks::use_width;
use super::mini::Hover;
use crate::playground::{Action, RestartChoice};
use crate::views::frame::{orphans_text, Card, Chip, Dot};
use crate::views::scene::{Content, Density, Holder, MemberBox, Rect, Scene};
use gloo_events::{EventListener, EventListenerOptions, EventListenerPhase};
use gloo_render::{request_animation_frame, AnimationFrame};
use std::cell::RefCell;
use std::rc::Rc;
use web_sys::{Element, HtmlCanvasElement};
use yew::prelude::*;

/// The whole group.
#[derive(Properties, PartialEq)]
pub struct PlacedProps {
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
    /// Chips, or marks for a large group.
    pub content: Content,
    /// Chips travel when they move.
    pub motion: bool,
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

/// The canvas's drawing, and the animation frame of a chip still on its way.
struct Painter {
    /// What is drawn.
    drawing: Drawing,
    /// The next frame of a flight, while one lasts.
    next: Option<AnimationFrame>,
}

/// Draws the group's canvas, and again on each animation frame while a chip travels.
fn paint(group: &NodeRef, canvas: &NodeRef, painter: &Rc<RefCell<Painter>>) {
    let (Some(g), Some(c)) = (group.cast::<Element>(), canvas.cast::<HtmlCanvasElement>()) else {
        return;
    };
    let mut p = painter.borrow_mut();
    let moving = draw(&g, &c, &mut p.drawing);
    // Says whether a chip is on its way (a test waits on it; nothing is styled by it).
    let flying = if moving { "true" } else { "false" };
    if c.get_attribute("data-moving").as_deref() != Some(flying) {
        let _ = c.set_attribute("data-moving", flying);
    }
    p.next = moving.then(|| {
        let (group, canvas, painter) = (group.clone(), canvas.clone(), painter.clone());
        request_animation_frame(move |_| paint(&group, &canvas, &painter))
    });
}

/// Draws the canvas again on every scroll of the page or of anything in it.
#[hook]
fn use_redraw_on_scroll(group: &NodeRef, canvas: &NodeRef, painter: &Rc<RefCell<Painter>>) {
    let (group, canvas, painter) = (group.clone(), canvas.clone(), painter.clone());
    use_effect_with((), move |_| {
        let options = EventListenerOptions {
            phase: EventListenerPhase::Capture,
            passive: true,
        };
        let document = web_sys::window().and_then(|w| w.document());
        let listener = document.map(|document| {
            EventListener::new_with_options(&document, "scroll", options, move |_| {
                painter.borrow_mut().drawing.seen.scrolled();
                paint(&group, &canvas, &painter);
            })
        });
        move || drop(listener)
    });
}

/// After each render, hands the canvas what the page shows and draws it.
#[hook]
fn use_drawing(group: &NodeRef, canvas: &NodeRef, painter: &Rc<RefCell<Painter>>, shown: Shown) {
    let (group, canvas, painter) = (group.clone(), canvas.clone(), painter.clone());
    use_effect(move || {
        painter.borrow_mut().drawing.show(shown);
        paint(&group, &canvas, &painter);
    });
}

/// The group of members, placed, over its canvas.
#[function_component(PlacedGroup)]
pub fn placed_group(props: &PlacedProps) -> Html {
    let group = use_node_ref();
    let canvas = use_node_ref();
    let painter = use_mut_ref(|| Painter {
        drawing: Drawing::default(),
        next: None,
    });
    let width = use_width(&group);
    let density = if props.small {
        Density::Lanes
    } else {
        Density::Cards
    };
    let width = if width > 0.0 { width } else { FIRST_WIDTH };
    let scene = Rc::new(Scene::of(
        &props.cards,
        props.unowned.len(),
        density,
        props.content,
        width,
    ));
    use_redraw_on_scroll(&group, &canvas, &painter);
    // With marks, each card's marks: read once, for its card's element and for the canvas.
    let dots: Vec<Rc<[Dot]>> = match props.content {
        Content::Marks => props
            .cards
            .iter()
            .map(|c| c.chips.iter().map(Dot::of).collect())
            .collect(),
        Content::Chips => Vec::new(),
    };
    let shown = Shown {
        scene: scene.clone(),
        cards: props.cards.clone(),
        dots: dots.clone(),
        unowned: props.unowned.clone(),
        names: props.names.clone(),
        highlight: props.highlight.clone(),
        dark: props.dark,
        motion: props.motion,
    };
    use_drawing(&group, &canvas, &painter, shown);
    let hover = use_state_eq(|| None::<Hover>);
    // One callback for every render, so that a card whose own props are unchanged is not
    // drawn again.
    let on_hover = {
        let hover = hover.setter();
        use_callback((), move |h: Option<Hover>, _| hover.set(h))
    };
    // A card's parts are placed from inside its border.
    let border = density.border();
    let inside = |r: &Rect| Rect::new(r.x + border, r.y + border, r.w, r.h);
    let member = |m: &MemberBox, origin: &Rect| {
        let card = &props.cards[m.card];
        let (dots, marks, chips) = if let Some(dots) = dots.get(m.card) {
            (
                Some(dots.clone()),
                Some((m.content.within(&inside(&m.rect)), m.content)),
                Rc::from([]),
            )
        } else {
            let chips: Rc<[Rect]> = scene
                .chips_of(Holder::Member(m.card))
                .map(|c| c.rect.within(&inside(&m.rect)))
                .collect();
            (None, None, chips)
        };
        html! {
            <MemberCard key={card.name.clone()} highlight={props.highlight.clone()}
                card={if dots.is_some() { without_chips(card) } else { card.clone() }} dots={dots}
                place={m.rect.within(origin)} marks={marks} chips={chips} on_hover={on_hover.clone()}
                names={props.names.clone()} restart={props.restart} on_action={props.on_action.clone()} />
        }
    };
    let whole = Rect::default();
    html! {
        <div ref={group} class={classes!("group", "placed", (props.content == Content::Marks).then_some("mini-group"),
            props.small.then_some("small"), (!scene.zones.is_empty()).then_some("zoned"))}
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
            if let Some(t) = scene.tray {
                { tray(props, &scene, t, border) }
            }
            <canvas ref={canvas} class="marks" aria-hidden="true"></canvas>
            if let Some(h) = &*hover {
                <div class="hover" style={format!("left: {}px; top: {}px", h.x + 10.0, h.y + 14.0)} data-testid="mini-hover">{ &h.text }</div>
            }
        </div>
    }
}

/// The tray of the tasks no member runs: with marks one line of their names, kept even when
/// empty (a tray coming and going moved what is under the group); with chips, the orphans'
/// names over the chips the canvas draws.
fn tray(props: &PlacedProps, scene: &Scene, t: Rect, border: f64) -> Html {
    let style = format!(
        "left: {}px; top: {}px; width: {}px; height: {}px",
        t.x, t.y, t.w, t.h
    );
    let title = crate::playground::glossary::define("orphan").unwrap_or_default();
    if props.content == Content::Marks {
        let names = AttrValue::from(orphans_text(&props.unowned));
        return html! {
            <section class={classes!("tray", "mini-tray", props.unowned.is_empty().then_some("empty"))} aria-label="tasks no member runs" style={style}>
                <h3 class="term" title={title}>{ "Unassigned (down)" }</h3>
                <p data-testid="orphans" title={names.clone()}>{ names }</p>
            </section>
        };
    }
    let inside = Rect::new(t.x + border, t.y + border, t.w, t.h);
    html! {
        <section class="tray" aria-label="tasks no member runs" style={style}>
            <h3 class="term" title={title}>{ "Unassigned (down)" }</h3>
            <div class="chips" role="list">
                { for props.unowned.iter().zip(scene.chips_of(Holder::Tray)).map(|(chip, b)| {
                    let p = b.rect.within(&inside);
                    html! {
                        <div key={chip.name.to_string()} class="chip orphan" data-testid="orphan" data-task-id={chip.name.clone()}
                            data-stateful={chip.stateful.to_string()} role="listitem" title={format!("{}: no member runs it", chip.name)}
                            style={format!("left: {}px; top: {}px; width: {}px; height: {}px", p.x, p.y, p.w, p.h)}></div>
                    }
                }) }
            </div>
        </section>
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
