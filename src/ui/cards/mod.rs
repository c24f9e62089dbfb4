//! The group on the page: the members' cards, zones and tray (or the overview's tiles) where
//! the scene lays them out ([`crate::views::scene`], zoomed as [`crate::views::zoom`] decides),
//! as the page's own elements ([`card`], [`marks`], [`tiles`]), over the canvas that draws
//! what they hold ([`super::paint`]), drawn again after each render, on a scroll, and on the
//! animation frames of a travel.

mod card;
mod marks;
mod tiles;
mod zoom;

use super::hooks::use_width;
use super::paint::{draw, now, Drawing, Shown};
use crate::playground::{Action, RestartChoice};
use crate::views::frame::{orphans_text, Card, Chip, Dot};
use crate::views::geometry::Rect;
use crate::views::marks::Hover;
use crate::views::overview::tiles;
use crate::views::scene::{Centre, Content, Density, Holder, MemberBox, Scene, Shape, Zoom};
use crate::views::zoom::{laid_out, Layout};
use card::{marks_tray, placed_members, MemberCard};
use gloo_events::{EventListener, EventListenerOptions, EventListenerPhase};
use gloo_render::{request_animation_frame, AnimationFrame};
use gloo_timers::callback::Timeout;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use tiles::{tile_keys, OverviewTiles};
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlCanvasElement};
use yew::prelude::*;
use zoom::{use_centre, use_room, use_zoom_travel, use_zoom_wheel, zoom_bar};

/// The whole group.
#[derive(Properties)]
pub struct GroupProps {
    /// The cards, in join order (shared with the frame they were read from).
    pub cards: Rc<Vec<Card>>,
    /// Tasks nobody runs.
    pub unowned: Vec<Chip>,
    /// Names to highlight.
    #[prop_or_default]
    pub highlight: Vec<String>,
    /// Carries out an action (a command here).
    pub on_action: Callback<Action>,
    /// How long a chip that moves travels, in ms (none: it is simply drawn where it is).
    pub travel_ms: Option<u32>,
    /// The reader's motion switch is on: a change of zoom travels.
    #[prop_or_default]
    pub motion_switch: bool,
    /// A smaller layout (compare view).
    #[prop_or_default]
    pub small: bool,
    /// Tasks as small marks, not chips (a large group).
    #[prop_or_default]
    pub mini: bool,
    /// Task names, for the marks.
    #[prop_or_default]
    pub names: Rc<Vec<String>>,
    /// An accessible name for the group.
    pub label: AttrValue,
    /// What the restart buttons do.
    #[prop_or_default]
    pub restart: RestartChoice,
    /// The dark theme (the marks' colours).
    #[prop_or_default]
    pub dark: bool,
    /// How far a person zoomed, and into what (none: as the group fits the view).
    #[prop_or_default]
    pub zoom: Option<(Zoom, Option<Centre>)>,
}

/// The cards are the same when they are the same list: a moment whose cards all stayed
/// shares its list with the moment before, and comparing thousands of cards one by one on
/// every frame was a large part of the page's work.
impl PartialEq for GroupProps {
    fn eq(&self, other: &Self) -> bool {
        let GroupProps {
            cards,
            unowned,
            highlight,
            on_action,
            travel_ms,
            motion_switch,
            small,
            mini,
            names,
            label,
            restart,
            dark,
            zoom,
        } = self;
        Rc::ptr_eq(cards, &other.cards)
            && *unowned == other.unowned
            && *highlight == other.highlight
            && *on_action == other.on_action
            && *travel_ms == other.travel_ms
            && *motion_switch == other.motion_switch
            && *small == other.small
            && *mini == other.mini
            && *names == other.names
            && *label == other.label
            && *restart == other.restart
            && *dark == other.dark
            && *zoom == other.zoom
    }
}

/// The width laid out for before the group's own width is known.
const FIRST_WIDTH: f64 = 960.0;

/// The canvas's drawing, and the animation frame it is drawn at next.
struct Painter {
    /// What is drawn.
    drawing: Drawing,
    /// The next animation frame drawn: after a render, or of a flight while one lasts.
    next: Option<AnimationFrame>,
    /// The reading of the group's place again, after the frame, when it is old.
    reread: Option<Timeout>,
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
    if p.reread.is_none() && p.drawing.seen.old(now()) {
        let (refs, painter) = (refs.clone(), painter.clone());
        p.reread = Some(Timeout::new(0, move || {
            let moved = {
                let mut p = painter.borrow_mut();
                p.reread = None;
                p.drawing.seen.read(&g, now())
            };
            if moved {
                paint(&refs, &painter);
            }
        }));
    }
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

/// After each render, hands the canvases what the page shows and draws them at the next
/// animation frame: in a task of its own, not the render's (a large group's render and its
/// drawing each take a share of the page's 50 ms), and once for the renders before it.
#[hook]
fn use_drawing(refs: &Refs, painter: &Rc<RefCell<Painter>>, shown: Shown) {
    let (refs, painter) = (refs.clone(), painter.clone());
    use_effect(move || {
        let mut p = painter.borrow_mut();
        p.drawing.show(shown);
        if p.next.is_none() {
            let painter = painter.clone();
            p.next = Some(request_animation_frame(move |_| paint(&refs, &painter)));
        }
    });
}

/// The group laid out (and its zoom), and a number that changes with the layout: laid out
/// again only when the frame's shape, the room or the zoom changes, not on every frame. A
/// layout that comes out as before keeps its number and scene (the overview's tiles do not
/// move when a card's marks would need another row), so nothing is drawn again for it.
#[hook]
fn use_layout(props: &GroupProps, width: f64, room: f64) -> (Rc<Scene>, Option<Zoom>, u64) {
    let last = use_mut_ref(|| (Rc::new(Scene::default()), None::<Zoom>, 0u64));
    let layout = Layout {
        small: props.small,
        content: content(props),
        chosen: props.zoom.as_ref().map(|(z, _)| *z),
    };
    let depends = (
        Shape::of(&props.cards, props.unowned.len(), layout.content),
        (width, room),
        layout,
    );
    let laid = use_memo(depends, |_| {
        let (scene, zoom) = laid_out(&props.cards, props.unowned.len(), layout, (width, room));
        let mut last = last.borrow_mut();
        if *last.0 != scene || last.1 != zoom || last.2 == 0 {
            *last = (Rc::new(scene), zoom, last.2 + 1);
        }
        last.clone()
    });
    (laid.0.clone(), laid.1, laid.2)
}

/// What the cards hold: chips, or marks for a large group.
fn content(props: &GroupProps) -> Content {
    if props.mini {
        Content::Marks
    } else {
        Content::Chips
    }
}

/// The group of members: its cards (or the overview's tiles) placed by the scene over one
/// canvas, a large group's tasks as marks, a smaller one's as chips.
#[function_component(GroupView)]
pub fn group_view(props: &GroupProps) -> Html {
    let refs = use_memo((), |_| Refs::default());
    let group = refs.group.clone();
    let painter = use_mut_ref(|| Painter {
        drawing: Drawing::default(),
        next: None,
        reread: None,
    });
    let width = use_width(&group);
    let width = if width > 0.0 { width } else { FIRST_WIDTH };
    let room = use_room(
        &group,
        (props.cards.len(), content(props), props.zoom.clone()),
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
    props: &GroupProps,
    (scene, dots): (&Scene, &[Rc<[Dot]>]),
    on_hover: &Callback<Option<Hover>>,
) -> Html {
    // A card's parts are placed from inside its border.
    let border = if props.small {
        Density::Lanes.border()
    } else {
        Density::Cards.border()
    };
    let member = |m: &MemberBox, origin: &Rect| {
        Some(card(props, (scene, dots), m, origin, on_hover, border))
    };
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
    props: &GroupProps,
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

/// The tray of the tasks no member runs: with marks one line of their names; with chips, the
/// orphans' names over the chips the canvas draws.
fn tray(props: &GroupProps, scene: &Scene, t: Rect, border: f64) -> Html {
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

/// A card's header and buttons, for a member whose tasks are drawn as marks: without its
/// chips, the header is not drawn again when only they change.
fn without_chips(card: &Card) -> Card {
    Card {
        id: card.id,
        name: card.name.clone(),
        status: card.status,
        leader: card.leader,
        capacity: card.capacity,
        restore_rate: card.restore_rate,
        chips: Rc::default(),
        can_crash: card.can_crash,
        can_drain: card.can_drain,
        zone: card.zone.clone(),
        can_restart: card.can_restart,
        restart: card.restart,
    }
}
