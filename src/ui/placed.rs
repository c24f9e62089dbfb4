//! The group, placed: the members' cards, zones and tray where the scene lays them out
//! ([`crate::views::scene`]), their header, countdown, buttons and chips' names as the page's
//! own elements, and what the cards hold (chips or, in a large group, marks) drawn on one
//! canvas under them, only where the view shows it ([`super::chips`], [`super::mini`]).

use super::chips::{draw, Drawing, Shown};
use super::group::{zone_heading, zone_name, MemberCard};
use super::hooks::use_width;
use super::mini::Hover;
use super::tiles::{MemberTile, TileActions};
use crate::playground::{Action, RestartChoice};
use crate::views::frame::{orphans_text, Card, Chip, Dot};
use crate::views::overview::Held;
use crate::views::scene::{
    Centre, Content, Density, Holder, MemberBox, Rect, Scene, Step, Zoom, NAMED_TILE,
};
use gloo_events::{EventListener, EventListenerOptions, EventListenerPhase};
use gloo_render::{request_animation_frame, AnimationFrame};
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlCanvasElement, HtmlElement};
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
    /// How far a person zoomed, and into what (none: as the group fits the view).
    pub zoom: Option<(Zoom, Option<Centre>)>,
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

/// The height the view has for the group below its top, at least half the view (the page
/// above scrolls away): read when the window is resized, and after a render that changed
/// `what` (the members and what is shown above them: a read on every frame would make the
/// browser lay the page out there and then).
#[hook]
fn use_room<K: PartialEq + 'static>(group: &NodeRef, what: K) -> f64 {
    // Until the group is on the page: the view below where a group's top usually is.
    let room = use_state_eq(|| {
        let view = web_sys::window()
            .and_then(|w| w.inner_height().ok())
            .and_then(|h| h.as_f64())
            .unwrap_or(720.0);
        (view - 200.0).max(view / 2.0)
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
                room.set((view - top - 16.0).max(view / 2.0).floor());
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
    use_effect_with(what, move |_| measure());
    *room
}

/// Ctrl and the wheel (a pinch on a touchpad) over the group zoom into the member under the
/// pointer, or out to the overview, in place of the browser's own zoom.
#[hook]
fn use_zoom_wheel(group: &NodeRef, shown: Rc<Cell<Zoom>>, on_action: Callback<Action>) {
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
                    let zoom = match (shown.get(), wheel.delta_y() < 0.0) {
                        (Zoom::Overview, true) => Zoom::Cards,
                        (Zoom::Cards, false) => Zoom::Overview,
                        _ => return,
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
fn use_centre(group: &NodeRef, chosen: Option<(Zoom, Option<Centre>)>) {
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

/// The group laid out as the page shows it: the compare view's lanes; or the cards or the
/// overview, as zoomed (the cards when a person has not chosen and they fit the `room`).
fn laid_out(props: &PlacedProps, width: f64, room: f64) -> (Scene, Option<Zoom>) {
    let unowned = props.unowned.len();
    if props.small {
        let scene = Scene::of(&props.cards, unowned, Density::Lanes, props.content, width);
        return (scene, None);
    }
    let chosen = props.zoom.as_ref().map(|(z, _)| *z);
    let overview = || Scene::overview(&props.cards, unowned, width, room);
    if chosen == Some(Zoom::Overview) {
        return (overview(), chosen);
    }
    let cards = Scene::of(&props.cards, unowned, Density::Cards, props.content, width);
    match Zoom::shown(chosen, cards.height, room) {
        Zoom::Cards => (cards, Some(Zoom::Cards)),
        Zoom::Overview => (overview(), Some(Zoom::Overview)),
    }
}

/// The buttons that zoom the group out to its overview and into its cards.
fn zoom_bar(shown: Zoom, on_action: &Callback<Action>) -> Html {
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

/// The arrow keys, Home and End move the focus over the overview's tiles (a roving tab stop:
/// only the first tile is in the tab order), and keep the playground's own arrow keys (step,
/// back) from acting meanwhile; Escape deselects the member selected.
fn tile_keys(
    scene: Rc<Scene>,
    cards: Rc<Vec<Card>>,
    on_action: Callback<Action>,
) -> Callback<KeyboardEvent> {
    Callback::from(move |e: KeyboardEvent| {
        let step = match e.key().as_str() {
            // Deselects the member whose actions are open.
            "Escape" => {
                on_action.emit(Action::Find(String::new()));
                return;
            }
            "ArrowRight" => Step::Next,
            "ArrowLeft" => Step::Previous,
            "ArrowDown" => Step::Down,
            "ArrowUp" => Step::Up,
            "Home" => Step::First,
            "End" => Step::Last,
            _ => return,
        };
        let Some(tile) = e
            .target_dyn_into::<Element>()
            .and_then(|t| t.closest(".tile").ok().flatten())
        else {
            return;
        };
        e.prevent_default();
        e.stop_propagation();
        let name = tile.get_attribute("data-member-id").unwrap_or_default();
        let from = scene
            .members
            .iter()
            .position(|m| cards[m.card].name == name);
        let to = from
            .and_then(|from| scene.step(from, step))
            .map(|to| &cards[scene.members[to].card].name);
        let next = to.and_then(|to| {
            let group = tile.closest(".group").ok().flatten()?;
            group
                .query_selector(&format!("[data-member-id=\"{to}\"]"))
                .ok()
                .flatten()
        });
        if let Some(next) = next.and_then(|n| n.dyn_into::<HtmlElement>().ok()) {
            let _ = next.focus();
        }
    })
}

/// In the overview, the actions of the member found (a click on its tile finds it).
fn selected_actions(props: &PlacedProps, scene: &Scene) -> Html {
    let selected = scene
        .members
        .iter()
        .find(|m| props.highlight.contains(&props.cards[m.card].name));
    let Some(m) = selected else {
        return Html::default();
    };
    html! {
        <TileActions card={without_chips(&props.cards[m.card])} tile={m.rect} width={scene.width}
            restart={props.restart} on_action={props.on_action.clone()} />
    }
}

/// A member's tile in the overview.
fn tile(props: &PlacedProps, m: &MemberBox, origin: &Rect, first: bool) -> Html {
    let card = &props.cards[m.card];
    let highlighted = props.highlight.contains(&card.name);
    html! {
        <MemberTile key={card.name.clone()} name={card.name.clone()} status={card.status} leader={card.leader}
            zone={card.zone.clone()} back_in_ms={card.restart.map(|c| c.back_in_ms)} held={Held::of_chips(&card.chips)}
            place={m.rect.within(origin)} named={m.rect.h >= NAMED_TILE} highlighted={highlighted}
            first={first} on_action={props.on_action.clone()} />
    }
}

/// A zone's band, holding its members' cards or tiles (`member`); in the overview, with a
/// button that zooms into the zone.
fn zone_band(
    props: &PlacedProps,
    scene: &Scene,
    band: &crate::views::scene::ZoneBand,
    member: &dyn Fn(&MemberBox, &Rect) -> Html,
) -> Html {
    let zone = band.zone.as_deref();
    let alive = band
        .members
        .iter()
        .filter(|&&i| props.cards[i].status.alive())
        .count();
    let r = band.rect;
    let name = zone_name(zone);
    let zoom = (scene.content == Content::Bars).then(|| {
        let centre = Centre::Zone(zone.unwrap_or_default().to_string());
        let on = props.on_action.reform(move |_: MouseEvent| Action::Zoom {
            zoom: Zoom::Cards,
            centre: Some(centre.clone()),
        });
        html! { <button type="button" class="zone-zoom" data-testid="zoom-zone" onclick={on}
            aria-label={format!("zoom into {name}")} title={format!("Zoom into {name}'s cards")}>{ "+" }</button> }
    });
    html! {
        <section key={zone.unwrap_or_default().to_string()} class={classes!("zone", (zone.is_some() && alive == 0).then_some("down"))}
            data-testid="zone" data-zone={zone.map(str::to_string)}
            aria-label={format!("{name}, {alive} of {} live", band.members.len())}
            style={format!("left: {}px; top: {}px; width: {}px; height: {}px", r.x, r.y, r.w, r.h)}>
            { zone_heading(zone, alive, band.members.len()) }
            { for zoom }
            { for scene.members.iter().filter(|m| band.members.contains(&m.card)).map(|m| member(m, &band.rect)) }
        </section>
    }
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
    let width = if width > 0.0 { width } else { FIRST_WIDTH };
    let room = use_room(
        &group,
        (props.cards.len(), props.content, props.zoom.clone()),
    );
    let (scene, zoom) = laid_out(props, width, room);
    let scene = Rc::new(scene);
    // What the wheel zooms from: the zoom of the last render.
    let zoomed = use_memo((), |_| Cell::new(Zoom::Cards));
    zoomed.set(zoom.unwrap_or(Zoom::Cards));
    use_zoom_wheel(&group, zoomed.clone(), props.on_action.clone());
    use_centre(&group, props.zoom.clone());
    use_redraw_on_scroll(&group, &canvas, &painter);
    // With marks, each card's marks: read once, for its card's element and for the canvas.
    let dots: Vec<Rc<[Dot]>> = match scene.content {
        Content::Marks => props
            .cards
            .iter()
            .map(|c| c.chips.iter().map(Dot::of).collect())
            .collect(),
        Content::Chips | Content::Bars => Vec::new(),
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
    let border = if props.small {
        Density::Lanes.border()
    } else {
        Density::Cards.border()
    };
    let first = scene.members.first().map(|m| m.card);
    let member = |m: &MemberBox, origin: &Rect| match scene.content {
        Content::Bars => tile(props, m, origin, Some(m.card) == first),
        _ => card(props, (&scene, &dots), m, origin, &on_hover, border),
    };
    let whole = Rect::default();
    html! {
        <>
        if let Some(shown) = zoom.filter(|_| props.zoom.is_some() || scene.content == Content::Bars) {
            { zoom_bar(shown, &props.on_action) }
        }
        <div ref={group} class={classes!("group", "placed", (scene.content == Content::Marks).then_some("mini-group"),
            (scene.content == Content::Bars).then_some("overview"),
            props.small.then_some("small"), (!scene.zones.is_empty()).then_some("zoned"))}
            role="region" aria-label={props.label.clone()} style={format!("height: {}px", scene.height)}
            onkeydown={(scene.content == Content::Bars).then(|| tile_keys(scene.clone(), props.cards.clone(), props.on_action.clone()))}>
            if scene.zones.is_empty() {
                { for scene.members.iter().map(|m| member(m, &whole)) }
            } else {
                { for scene.zones.iter().map(|band| zone_band(props, &scene, band, &member)) }
            }
            if let Some(t) = scene.tray {
                { tray(props, &scene, t, border) }
            }
            if scene.content == Content::Bars {
                { selected_actions(props, &scene) }
            }
            <canvas ref={canvas} class="marks" aria-hidden="true"></canvas>
            if let Some(h) = &*hover {
                <div class="hover" style={format!("left: {}px; top: {}px", h.x + 10.0, h.y + 14.0)} data-testid="mini-hover">{ &h.text }</div>
            }
        </div>
        </>
    }
}

/// A member's card, with its chips' elements or its marks' area.
fn card(
    props: &PlacedProps,
    (scene, dots): (&Scene, &[Rc<[Dot]>]),
    m: &MemberBox,
    origin: &Rect,
    on_hover: &Callback<Option<Hover>>,
    border: f64,
) -> Html {
    let inside = |r: &Rect| Rect::new(r.x + border, r.y + border, r.w, r.h);
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
    if scene.content != Content::Chips {
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
