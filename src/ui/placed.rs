//! The group, placed: the members' cards, zones and tray where the scene lays them out
//! ([`crate::views::scene`]), their header, countdown, buttons and chips' names as the page's
//! own elements, and what the cards hold (chips or, in a large group, marks) drawn on one
//! canvas under them, only where the view shows it ([`super::chips`], [`super::mini`]).

use super::chips::{draw, Drawing, Shown};
use super::group::{placed_members, MemberCard};
use super::hooks::use_width;
use super::mini::Hover;
use super::tiles::OverviewTiles;
use crate::playground::{Action, RestartChoice};
use crate::views::frame::{orphans_text, Card, Chip, Dot};
use crate::views::geometry::{Rect, Step};
use crate::views::overview::{tiles, TileView};
use crate::views::scene::{Centre, Content, Density, Holder, MemberBox, Scene, Shape, Zoom};
use gloo_events::{EventListener, EventListenerOptions, EventListenerPhase};
use gloo_render::{request_animation_frame, AnimationFrame};
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
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
    /// How long a chip that moves travels, in ms (none: it is simply drawn where it is).
    pub travel_ms: Option<u32>,
    /// The reader's motion switch is on: a change of zoom travels (`travel_ms` also needs
    /// the story to move on continuously, which a zoom does not).
    pub motion_switch: bool,
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

/// The group's element and its two canvases: the tasks', and the motion's (tasks on their
/// way between holders, over the tasks', so that a travel draws nothing else again).
#[derive(Clone, Default)]
struct Refs {
    /// The group's element.
    group: NodeRef,
    /// The tasks' canvas.
    canvas: NodeRef,
    /// The motion's canvas, over it.
    motion: NodeRef,
}

/// Draws the group's canvases, and again on each animation frame while a task travels.
fn paint(refs: &Refs, painter: &Rc<RefCell<Painter>>) {
    let (Some(g), Some(c), Some(m)) = (
        refs.group.cast::<Element>(),
        refs.canvas.cast::<HtmlCanvasElement>(),
        refs.motion.cast::<HtmlCanvasElement>(),
    ) else {
        return;
    };
    let mut p = painter.borrow_mut();
    let moving = draw(&g, (&c, &m), &mut p.drawing);
    // Says whether a chip is on its way (a test waits on it; nothing is styled by it).
    let flying = if moving { "true" } else { "false" };
    if c.get_attribute("data-moving").as_deref() != Some(flying) {
        let _ = c.set_attribute("data-moving", flying);
    }
    p.next = moving.then(|| {
        let (refs, painter) = (refs.clone(), painter.clone());
        request_animation_frame(move |_| paint(&refs, &painter))
    });
}

/// Draws the canvases again on every scroll of the page or of a box holding the group (not
/// of the log following its round: the group did not move, and reading where it is would
/// lay the page out there and then).
#[hook]
fn use_redraw_on_scroll(refs: &Refs, painter: &Rc<RefCell<Painter>>) {
    let (refs, painter) = (refs.clone(), painter.clone());
    use_effect_with((), move |_| {
        let options = EventListenerOptions {
            phase: EventListenerPhase::Capture,
            passive: true,
        };
        let document = web_sys::window().and_then(|w| w.document());
        let listener = document.map(|document| {
            EventListener::new_with_options(&document, "scroll", options, move |e| {
                let scrolled = e.target().and_then(|t| t.dyn_into::<Element>().ok());
                let group = refs.group.cast::<web_sys::Node>();
                if scrolled.is_some_and(|box_| !box_.contains(group.as_ref())) {
                    return;
                }
                painter.borrow_mut().drawing.seen.scrolled();
                paint(&refs, &painter);
            })
        });
        move || drop(listener)
    });
}

/// After each render, hands the canvases what the page shows and draws them.
#[hook]
fn use_drawing(refs: &Refs, painter: &Rc<RefCell<Painter>>, shown: Shown) {
    let (refs, painter) = (refs.clone(), painter.clone());
    use_effect(move || {
        painter.borrow_mut().drawing.show(shown);
        paint(&refs, &painter);
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
fn use_zoom_travel(
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
    let was: HashMap<&str, Rect> = old
        .0
        .members
        .iter()
        .filter_map(|m| Some((old.1.get(m.card)?.name.as_str(), m.rect)))
        .collect();
    let place = |r: &Rect| {
        format!(
            "left: {}px; top: {}px; width: {}px; height: {}px",
            r.x, r.y, r.w, r.h
        )
    };
    let travellers: Vec<(Element, Rect)> = new
        .0
        .members
        .iter()
        .filter_map(|m| {
            let name = &new.1.get(m.card)?.name;
            let from = *was.get(name.as_str())?;
            let seen = |r: &Rect| top + r.y < view && top + r.y + r.h > 0.0;
            if centre != Some(name.as_str()) && !(seen(&from) && seen(&m.rect)) {
                return None;
            }
            let ghost = document.create_element("div").ok()?;
            ghost.set_class_name("zoom-ghost");
            let _ = ghost.set_attribute("aria-hidden", "true");
            let _ = ghost.set_attribute("data-testid", "zoom-ghost");
            let _ = ghost.set_attribute("data-member-id", name);
            let _ = ghost.set_attribute("style", &place(&from));
            group.append_child(&ghost).ok()?;
            Some((ghost, m.rect))
        })
        .take(ZOOM_TRAVELLERS)
        .collect();
    // The outlines' first places are styled before they move, so that they travel from them.
    let _ = group.get_bounding_client_rect();
    for (ghost, to) in &travellers {
        let _ = ghost.set_attribute("style", &place(to));
    }
    gloo_timers::callback::Timeout::new(ZOOM_TRAVEL_MS + 100, move || {
        for (ghost, _) in travellers {
            ghost.remove();
        }
    })
    .forget();
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
    tiles: Rc<Vec<TileView>>,
    on_action: Callback<Action>,
) -> Callback<KeyboardEvent> {
    Callback::from(move |e: KeyboardEvent| {
        let key = e.key();
        // Deselects the member whose actions are open.
        if key == "Escape" {
            on_action.emit(Action::Find(String::new()));
            return;
        }
        let Some(step) = Step::of_key(&key) else {
            return;
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
        let named = |m: &MemberBox| tiles.get(m.card).map(|t| t.name.as_str());
        let from = scene.members.iter().position(|m| named(m) == Some(&name));
        let to = from
            .and_then(|from| scene.step(from, step))
            .and_then(|to| named(&scene.members[to]));
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

/// The group laid out (and its zoom), and a number that changes with the layout: laid out
/// again only when the frame's shape, the room or the zoom changes, not on every frame. A
/// layout that comes out as before keeps its number and scene (the overview's tiles do not
/// move when a card's marks would need another row), so nothing is drawn again for it.
#[hook]
fn use_layout(props: &PlacedProps, width: f64, room: f64) -> (Rc<Scene>, Option<Zoom>, u64) {
    let last = use_mut_ref(|| (Rc::new(Scene::default()), None::<Zoom>, 0u64));
    let depends = (
        Shape::of(&props.cards, props.unowned.len(), props.content),
        (width, room),
        (props.small, props.content),
        props.zoom.as_ref().map(|(z, _)| *z),
    );
    let laid = use_memo(depends, |_| {
        let (scene, zoom) = laid_out(props, width, room);
        let mut last = last.borrow_mut();
        if *last.0 != scene || last.1 != zoom || last.2 == 0 {
            *last = (Rc::new(scene), zoom, last.2 + 1);
        }
        last.clone()
    });
    (laid.0.clone(), laid.1, laid.2)
}

/// The group of members, placed, over its canvas.
#[function_component(PlacedGroup)]
pub fn placed_group(props: &PlacedProps) -> Html {
    let refs = use_memo((), |_| Refs::default());
    let group = refs.group.clone();
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
    let (scene, zoom, layout) = use_layout(props, width, room);
    // What the wheel zooms from: the zoom of the last render.
    let zoomed = use_memo((), |_| Cell::new(Zoom::Cards));
    zoomed.set(zoom.unwrap_or(Zoom::Cards));
    use_zoom_wheel(&group, zoomed.clone(), props.on_action.clone());
    use_centre(&group, props.zoom.clone());
    use_zoom_travel(
        &group,
        &scene,
        zoom,
        &props.cards,
        &props.zoom,
        props.motion_switch,
    );
    use_redraw_on_scroll(&refs, &painter);
    // With marks, each card's marks: read once, for its card's element and for the canvas.
    let dots: Vec<Rc<[Dot]>> = match scene.content {
        Content::Marks => props
            .cards
            .iter()
            .map(|c| c.chips.iter().map(Dot::of).collect())
            .collect(),
        Content::Chips | Content::Bars => Vec::new(),
    };
    // With tiles, every member's chips counted once: for the canvas's bars and the tiles.
    let (tallies, views) = match scene.content {
        Content::Bars => tiles(&props.cards),
        Content::Chips | Content::Marks => Default::default(),
    };
    let views = Rc::new(views);
    let shown = Shown {
        scene: scene.clone(),
        layout,
        cards: props.cards.clone(),
        dots: dots.clone(),
        tallies: Rc::new(tallies),
        unowned: props.unowned.clone(),
        names: props.names.clone(),
        highlight: props.highlight.clone(),
        dark: props.dark,
        travel_ms: props.travel_ms.map(f64::from),
    };
    use_drawing(&refs, &painter, shown);
    let hover = use_state_eq(|| None::<Hover>);
    // One callback for every render, so that a card whose own props are unchanged is not
    // drawn again.
    let on_hover = {
        let hover = hover.setter();
        use_callback((), move |h: Option<Hover>, _| hover.set(h))
    };
    let overview = scene.content == Content::Bars;
    let members = if overview {
        html! {
            <OverviewTiles scene={scene.clone()} tiles={views.clone()} highlight={props.highlight.clone()}
                orphans={AttrValue::from(orphans_text(&props.unowned))} orphaned={!props.unowned.is_empty()} restart={props.restart}
                on_action={props.on_action.clone()} />
        }
    } else {
        cards(props, (&scene, &dots), &on_hover)
    };
    html! {
        <>
        if let Some(shown) = zoom.filter(|_| props.zoom.is_some() || overview) {
            { zoom_bar(shown, &props.on_action) }
        }
        <div ref={group} class={classes!("group", "placed", (scene.content == Content::Marks).then_some("mini-group"),
            overview.then_some("overview"),
            props.small.then_some("small"), (!scene.zones.is_empty()).then_some("zoned"))}
            role="region" aria-label={props.label.clone()} style={format!("height: {}px", scene.height)}
            onkeydown={overview.then(|| tile_keys(scene.clone(), views, props.on_action.clone()))}>
            { members }
            <canvas ref={refs.canvas.clone()} class="marks" aria-hidden="true"></canvas>
            <canvas ref={refs.motion.clone()} class="motion" aria-hidden="true"></canvas>
            if let Some(h) = &*hover {
                <div class="hover" style={format!("left: {}px; top: {}px", h.x + 10.0, h.y + 14.0)} data-testid="mini-hover">{ &h.text }</div>
            }
        </div>
        </>
    }
}

/// The members' cards, by zone when they have zones, and the tray.
fn cards(
    props: &PlacedProps,
    (scene, dots): (&Scene, &[Rc<[Dot]>]),
    on_hover: &Callback<Option<Hover>>,
) -> Html {
    // A card's parts are placed from inside its border.
    let border = if props.small {
        Density::Lanes.border()
    } else {
        Density::Cards.border()
    };
    let member =
        |m: &MemberBox, origin: &Rect| card(props, (scene, dots), m, origin, on_hover, border);
    let alive = |i: usize| props.cards[i].status.alive();
    let members = placed_members(scene, alive, None, member);
    let tray = scene.tray.map(|t| tray(props, scene, t, border));
    html! {
        <>
            { members }
            { tray.unwrap_or_default() }
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

/// The tray of the tasks no member runs with marks or tiles: one line of their names (`names`),
/// kept even when there are none (a tray coming and going moved what is under the group).
pub fn marks_tray(t: Rect, names: AttrValue, none: bool) -> Html {
    let title = crate::playground::glossary::define("orphan").unwrap_or_default();
    html! {
        <section class={classes!("tray", "mini-tray", none.then_some("empty"))} aria-label="tasks no member runs"
            style={format!("left: {}px; top: {}px; width: {}px; height: {}px", t.x, t.y, t.w, t.h)}>
            <h3 class="term" title={title}>{ "Unassigned (down)" }</h3>
            <p data-testid="orphans" title={names.clone()}>{ names }</p>
        </section>
    }
}

/// The tray of the tasks no member runs: with marks one line of their names; with chips, the
/// orphans' names over the chips the canvas draws.
fn tray(props: &PlacedProps, scene: &Scene, t: Rect, border: f64) -> Html {
    if scene.content != Content::Chips {
        let names = AttrValue::from(orphans_text(&props.unowned));
        return marks_tray(t, names, props.unowned.is_empty());
    }
    let style = format!(
        "left: {}px; top: {}px; width: {}px; height: {}px",
        t.x, t.y, t.w, t.h
    );
    let title = crate::playground::glossary::define("orphan").unwrap_or_default();
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
