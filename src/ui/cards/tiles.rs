//! The overview of a group too large for its cards to fit the view: over each tile the
//! canvas draws sits a button that paints nothing, carrying the member's data, its name in
//! words and the focus, in blocks that answer their tiles' clicks and are written again only
//! when one of their tiles' words change; the selected member's actions beside its tile; and
//! the arrow keys over the tiles.

use super::card::{marks_tray, placed_runs, CardActions};
use crate::playground::{Action, RestartChoice};
use crate::ui::later::use_made;
use crate::views::geometry::{Rect, Step};
use crate::views::overview::{member_label, TileView};
use crate::views::scene::{Centre, MemberBox, Scene, Zoom};
use std::rc::Rc;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement};
use yew::prelude::*;

/// One member's tile: what its button says and where it is.
#[derive(Properties, PartialEq)]
pub struct TileProps {
    /// The member's tile.
    pub view: TileView,
    /// Where the tile is, in its zone or group.
    pub place: Rect,
    /// Found, or shown by a tour.
    pub highlighted: bool,
    /// The first tile: the one in the tab order (the arrow keys reach the others).
    pub first: bool,
}

/// A member's tile: a button over what the canvas draws, named by its words; its block
/// answers its clicks and hover ([`TileHandlers`]).
#[function_component(MemberTile)]
pub fn member_tile(props: &TileProps) -> Html {
    let v = &props.view;
    let away = v.back_in_ms.is_some();
    let label = member_label(
        &v.name,
        v.status,
        v.back_in_ms,
        v.zone.as_deref(),
        v.leader,
        &v.held.words(away),
    );
    let p = props.place;
    html! {
        <button type="button" class={classes!("member", "tile", props.highlighted.then_some("highlight"))}
            style={format!("left: {}px; top: {}px; width: {}px; height: {}px", p.x, p.y, p.w, p.h)}
            data-testid="member" data-member-id={v.name.clone()} data-state={v.status.name()}
            data-leader={v.leader.to_string()} data-zone={v.zone.clone()} aria-label={label}
            aria-haspopup="true" aria-expanded={props.highlighted.to_string()}
            tabindex={if props.first { "0" } else { "-1" }}>
        </button>
    }
}

/// What a tile's tooltip adds to its words.
const TILE_HINT: &str = "(click: its actions; double-click: zoom into its card)";

/// A tile's click, double-click and hover, answered by the block around it for the tile the
/// event came from: a few handlers, not two listeners and a tooltip's text on each of
/// thousands of buttons, written again whenever a tile's words change.
#[derive(Clone, PartialEq)]
pub struct TileHandlers {
    /// Selects the member (finds it, which opens its actions).
    click: Callback<MouseEvent>,
    /// Zooms into the member's card.
    double: Callback<MouseEvent>,
    /// Gives the tile under the pointer its tooltip: its words, and what a click does.
    hover: Callback<MouseEvent>,
}

impl TileHandlers {
    fn new(on_action: &Callback<Action>) -> TileHandlers {
        let on = |action: fn(String) -> Action| {
            let on_action = on_action.clone();
            Callback::from(move |e: MouseEvent| {
                if let Some((_, name)) = tile_of(&e) {
                    on_action.emit(action(name));
                }
            })
        };
        TileHandlers {
            click: on(Action::Find),
            double: on(|name| Action::Zoom {
                zoom: Zoom::Cards,
                centre: Some(Centre::Member(name)),
            }),
            hover: Callback::from(|e: MouseEvent| {
                let Some((tile, _)) = tile_of(&e) else {
                    return;
                };
                let label = tile.get_attribute("aria-label").unwrap_or_default();
                let title = format!("{label}\n{TILE_HINT}");
                if tile.get_attribute("title").as_deref() != Some(title.as_str()) {
                    let _ = tile.set_attribute("title", &title);
                }
            }),
        }
    }
}

/// The tile an event came from, and its member's name.
fn tile_of(e: &Event) -> Option<(Element, String)> {
    let tile = e.target_dyn_into::<Element>()?.closest(".tile").ok()??;
    let name = tile.get_attribute("data-member-id")?;
    Some((tile, name))
}

/// The overview's elements: the zones' bands, a tile's button per member, the tray's line
/// and the selected member's actions.
#[derive(Properties, PartialEq)]
pub struct OverviewProps {
    /// The group laid out as tiles.
    pub scene: Rc<Scene>,
    /// Every member's tile, in card order.
    pub tiles: Rc<Vec<TileView>>,
    /// Names found or shown by a tour: a member named is selected.
    pub highlight: Vec<String>,
    /// The tray's line: the tasks no member runs, by name.
    pub orphans: AttrValue,
    /// Some task is run by no member.
    pub orphaned: bool,
    /// What the restart buttons do.
    pub restart: RestartChoice,
    /// Carries out an action.
    pub on_action: Callback<Action>,
}

/// The tiles' buttons made at each animation frame from the one after the group's first
/// render, which is costly enough without them: a group of thousands gets its buttons over a
/// few frames (the canvas draws every tile at once), not in one task that holds the page.
const TILES_PER_FRAME: usize = 100;

/// The tiles' buttons in a block: a tile whose words change writes its block again, not
/// the group's thousands (each block compares only its own tiles).
const TILES_PER_BLOCK: usize = 64;

/// The overview's elements, written again only when a tile's words, the layout or what is
/// found change (not on every frame of replay).
#[function_component(OverviewTiles)]
pub fn overview_tiles(props: &OverviewProps) -> Html {
    let made = use_made((), props.tiles.len(), 0, TILES_PER_FRAME);
    let handlers = use_memo(props.on_action.clone(), TileHandlers::new);
    let scene = &props.scene;
    let first = scene.members.first().map(|m| m.card);
    let highlight = Rc::new(props.highlight.clone());
    let run = |boxes: &[&MemberBox], origin: &Rect| -> Html {
        boxes
            .chunks(TILES_PER_BLOCK)
            .enumerate()
            .map(|(i, chunk)| {
                let boxes: Vec<MemberBox> = chunk.iter().map(|m| **m).collect();
                html! {
                    <TileBlock key={i} tiles={props.tiles.clone()} boxes={boxes} origin={*origin}
                        made={made} first={first} highlight={highlight.clone()}
                        handlers={(*handlers).clone()} />
                }
            })
            .collect()
    };
    let alive = |i: usize| props.tiles.get(i).is_some_and(|t| t.status.alive());
    let selected = scene.members.iter().find_map(|m| {
        let view = props.tiles.get(m.card)?;
        props.highlight.contains(&view.name).then(|| {
            html! {
                <TileActions view={view.clone()} tile={m.rect} width={scene.width}
                    restart={props.restart} on_action={props.on_action.clone()} />
            }
        })
    });
    let members = placed_runs(scene, alive, Some(&props.on_action), run);
    let tray = scene
        .tray
        .map(|t| marks_tray(t, props.orphans.clone(), !props.orphaned));
    // Each part one node, there or not: the tiles' elements are kept (and their focus) when
    // the selected member's actions come and go.
    html! {
        <>
            { members }
            { tray.unwrap_or_default() }
            { selected.unwrap_or_default() }
        </>
    }
}

/// A run of tiles' buttons, in a box of their own around them.
#[derive(Properties)]
pub struct TileBlockProps {
    /// Every member's tile, in card order.
    pub tiles: Rc<Vec<TileView>>,
    /// The block's members' boxes, in the group.
    pub boxes: Vec<MemberBox>,
    /// The corner the block is placed from: the group's, or its zone band's.
    pub origin: Rect,
    /// The tiles' buttons made so far: those of the cards below this.
    pub made: usize,
    /// The first tile of the group (the one in the tab order).
    pub first: Option<usize>,
    /// Names found or shown by a tour.
    pub highlight: Rc<Vec<String>>,
    /// What its tiles' clicks and hover do.
    pub handlers: TileHandlers,
}

impl PartialEq for TileBlockProps {
    /// Equal when the block's own tiles are: another member's words changing leaves it be.
    fn eq(&self, other: &Self) -> bool {
        let Self {
            tiles,
            boxes,
            origin,
            made,
            first,
            highlight,
            handlers,
        } = self;
        let made_same = || {
            boxes
                .iter()
                .all(|m| (m.card < *made) == (m.card < other.made))
        };
        let tiles_same = || {
            Rc::ptr_eq(tiles, &other.tiles)
                || boxes
                    .iter()
                    .all(|m| tiles.get(m.card) == other.tiles.get(m.card))
        };
        *boxes == other.boxes
            && *origin == other.origin
            && *first == other.first
            && *handlers == other.handlers
            && highlight == &other.highlight
            && made_same()
            && tiles_same()
    }
}

/// A block of tiles' buttons: the box around its members' tiles, which lays them out apart
/// from the rest of the group (a member joining lays out its block, not every tile).
#[function_component(TileBlock)]
fn tile_block(props: &TileBlockProps) -> Html {
    let bounds = props
        .boxes
        .iter()
        .map(|m| m.rect)
        .reduce(|a, b| a.union(&b))
        .unwrap_or_default();
    let place = bounds.within(&props.origin);
    let tiles = props.boxes.iter().filter_map(|m| {
        let view = props.tiles.get(m.card).filter(|_| m.card < props.made)?;
        Some(html! {
            <MemberTile key={view.name.clone()} view={view.clone()} place={m.rect.within(&bounds)}
                highlighted={props.highlight.contains(&view.name)} first={Some(m.card) == props.first} />
        })
    });
    let h = &props.handlers;
    html! {
        <div class="tile-block" style={format!("left: {}px; top: {}px; width: {}px; height: {}px", place.x, place.y, place.w, place.h)}
            onclick={h.click.clone()} ondblclick={h.double.clone()} onmouseover={h.hover.clone()}>
            { for tiles }
        </div>
    }
}

/// The actions of the member selected in the overview, next to its tile.
#[derive(Properties, PartialEq)]
pub struct TileActionsProps {
    /// The member's tile (its name and what can be done to it).
    pub view: TileView,
    /// Where its tile is, in the group.
    pub tile: Rect,
    /// The group's width (the actions stay inside it).
    pub width: f64,
    /// What the restart button does.
    pub restart: RestartChoice,
    /// Carries out an action.
    pub on_action: Callback<Action>,
}

/// The selected member's zoom and buttons (crash, drain, restart), under its tile; Escape or
/// "close" deselects it.
#[function_component(TileActions)]
pub fn tile_actions(props: &TileActionsProps) -> Html {
    const WIDTH: f64 = 330.0;
    let v = &props.view;
    let name = AttrValue::from(v.name.clone());
    let zoom = {
        let name = v.name.clone();
        props.on_action.reform(move |_: MouseEvent| Action::Zoom {
            zoom: Zoom::Cards,
            centre: Some(Centre::Member(name.clone())),
        })
    };
    let close = props
        .on_action
        .reform(|_: MouseEvent| Action::Find(String::new()));
    let escape = {
        let on = props.on_action.clone();
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Escape" {
                e.stop_propagation();
                on.emit(Action::Find(String::new()));
            }
        })
    };
    let t = props.tile;
    let x = t.x.min(props.width - WIDTH).max(0.0);
    html! {
        <div class="tile-actions" role="group" aria-label={format!("{} actions", v.name)} data-testid="tile-actions"
            style={format!("left: {x}px; top: {}px", t.y + t.h + 3.0)} onkeydown={escape}>
            <b>{ &v.name }</b>
            <button type="button" data-testid="tile-zoom" onclick={zoom} aria-label={format!("zoom into {}", v.name)}>{ "+ zoom in" }</button>
            <CardActions name={name} can_crash={v.can_crash} can_drain={v.can_drain}
                can_restart={v.can_restart} restart={props.restart} on_action={props.on_action.clone()} />
            <button type="button" class="close" onclick={close} aria-label="close">{ "\u{2715}" }</button>
        </div>
    }
}

/// The arrow keys, Home and End move the focus over the overview's tiles (a roving tab stop:
/// only the first tile is in the tab order), and keep the playground's own arrow keys (step,
/// back) from acting meanwhile; Escape deselects the member selected.
pub fn tile_keys(
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
        let Some((tile, name)) = tile_of(&e) else {
            return;
        };
        e.prevent_default();
        e.stop_propagation();
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
