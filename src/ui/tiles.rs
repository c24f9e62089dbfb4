//! The overview of a group too large for its cards to fit the view: a tile per member, its
//! name and its three bars (actives, learners, standbys, filled by how far their stores are
//! replayed) drawn on the group's canvas, and over each tile a button that carries the
//! member's data and name in words and zooms into its card.

use super::colours::{mix, Colours};
use super::group::{member_label, CardActions};
use crate::engine::member::MemberStatus;
use crate::playground::{Action, RestartChoice};
use crate::views::frame::Card;
use crate::views::overview::{Held, Tally};
use crate::views::scene::{Centre, Rect, Scene, Zoom};
use web_sys::CanvasRenderingContext2d;
use yew::prelude::*;

/// One member's tile: what its button says and where it is.
#[derive(Properties, PartialEq)]
pub struct TileProps {
    /// The member's name.
    pub name: AttrValue,
    /// Its state.
    pub status: MemberStatus,
    /// Whether it leads the group.
    pub leader: bool,
    /// Its zone.
    pub zone: Option<String>,
    /// While it restarts, how long until it is back.
    pub back_in_ms: Option<u64>,
    /// What it holds, by role.
    pub held: Held,
    /// Where the tile is, in its zone or group.
    pub place: Rect,
    /// The tile is tall enough for its name.
    pub named: bool,
    /// Found, or shown by a tour.
    pub highlighted: bool,
    /// The first tile: the one in the tab order (the arrow keys reach the others).
    pub first: bool,
    /// Carries out an action (zoom into it).
    pub on_action: Callback<Action>,
}

/// A member's tile: a button over what the canvas draws; a click selects the member (finds
/// it, which opens its actions), a double-click zooms into its card.
#[function_component(MemberTile)]
pub fn member_tile(props: &TileProps) -> Html {
    let away = props.back_in_ms.is_some();
    let label = member_label(
        &props.name,
        props.status,
        props.back_in_ms,
        props.zone.as_deref(),
        props.leader,
        &props.held.words(away),
    );
    let select = {
        let name = props.name.to_string();
        props
            .on_action
            .reform(move |_: MouseEvent| Action::Find(name.clone()))
    };
    let zoom = {
        let name = props.name.to_string();
        props.on_action.reform(move |_: MouseEvent| Action::Zoom {
            zoom: Zoom::Cards,
            centre: Some(Centre::Member(name.clone())),
        })
    };
    let p = props.place;
    html! {
        <button type="button" class={classes!("member", "tile", props.highlighted.then_some("highlight"))}
            style={format!("left: {}px; top: {}px; width: {}px; height: {}px", p.x, p.y, p.w, p.h)}
            data-testid="member" data-member-id={props.name.clone()} data-state={props.status.name()}
            data-leader={props.leader.to_string()} data-zone={props.zone.clone()}
            aria-label={label.clone()} title={format!("{label}\n(click: its actions; double-click: zoom into its card)")}
            aria-haspopup="true" aria-expanded={props.highlighted.to_string()} onclick={select} ondblclick={zoom}
            tabindex={if props.first { "0" } else { "-1" }}>
            if props.named {
                <span class="name" aria-hidden="true">{ &props.name }{ if props.leader { " \u{2605}" } else { "" } }</span>
            }
        </button>
    }
}

/// The actions of the member selected in the overview, next to its tile.
#[derive(Properties, PartialEq)]
pub struct TileActionsProps {
    /// The member's card (its name and what it can do).
    pub card: Card,
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
    let card = &props.card;
    let name = AttrValue::from(card.name.clone());
    let zoom = {
        let name = card.name.clone();
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
        <div class="tile-actions" role="group" aria-label={format!("{} actions", card.name)} data-testid="tile-actions"
            style={format!("left: {x}px; top: {}px", t.y + t.h + 3.0)} onkeydown={escape}>
            <b>{ &card.name }</b>
            <button type="button" data-testid="tile-zoom" onclick={zoom} aria-label={format!("zoom into {}", card.name)}>{ "+ zoom in" }</button>
            <CardActions name={name} can_crash={card.can_crash} can_drain={card.can_drain}
                can_restart={card.can_restart} restart={props.restart} on_action={props.on_action.clone()} />
            <button type="button" class="close" onclick={close} aria-label="close">{ "\u{2715}" }</button>
        </div>
    }
}

/// Rectangles to fill in one colour, filled in one go.
#[derive(Default)]
struct Batch(Vec<Rect>);

impl Batch {
    /// Adds the left part of `r`, `width` wide (nothing when that is empty).
    fn add(&mut self, r: Rect, width: f64) {
        if width > 0.0 {
            self.0.push(Rect::new(r.x, r.y, width.min(r.w), r.h));
        }
    }

    /// Fills them all in `colour`.
    fn fill(&self, ctx: &CanvasRenderingContext2d, colour: &str) {
        if self.0.is_empty() {
            return;
        }
        ctx.set_fill_style_str(colour);
        ctx.begin_path();
        for r in &self.0 {
            ctx.rect(r.x, r.y, r.w, r.h);
        }
        ctx.fill();
    }
}

/// The tracks and fills of every tile's bars, by colour.
#[derive(Default)]
struct Bars {
    active: Batch,
    restoring: Batch,
    restored: Batch,
    learner_track: Batch,
    learned: Batch,
    standby_track: Batch,
    mirrored: Batch,
}

impl Bars {
    /// Every batch, in the order they are filled.
    fn batches(&self) -> [&Batch; 7] {
        [
            &self.active,
            &self.restoring,
            &self.restored,
            &self.learner_track,
            &self.learned,
            &self.standby_track,
            &self.mirrored,
        ]
    }
}

/// What the canvas draws of the tiles the view shows: their panels, bars and rings.
#[derive(Default)]
pub struct TilesPlan {
    /// The tiles shown.
    tiles: Vec<Rect>,
    /// Their bars.
    bars: Bars,
    /// The tiles of members holding a task found.
    rings: Vec<Rect>,
}

impl TilesPlan {
    /// Feeds what the plan draws, to the device pixel at `ratio`, to a hasher.
    pub fn hash_pixels(&self, ratio: f64, h: &mut impl std::hash::Hasher) {
        use std::hash::Hash;
        let px = |v: f64| (v * ratio).round() as i64;
        let rects = self.bars.batches().into_iter().map(|b| &b.0);
        for list in [&self.tiles, &self.rings].into_iter().chain(rects) {
            list.len().hash(h);
            for r in list {
                (px(r.x), px(r.y), px(r.w), px(r.h)).hash(h);
            }
        }
    }
}

/// Plans the tiles' bars shown between the heights `top` and `bottom`, and a ring around the
/// tiles of the members holding a task found.
pub fn plan_tiles(
    scene: &Scene,
    cards: &[Card],
    highlight: &[String],
    (top, bottom): (f64, f64),
) -> TilesPlan {
    let tallies: Vec<Tally> = cards.iter().map(|card| Tally::of(&card.chips)).collect();
    // One scale for every tile, so that a glance compares how much members hold.
    let widest = tallies
        .iter()
        .map(|t| t.held.widest())
        .max()
        .unwrap_or(0)
        .max(1);
    let mut plan = TilesPlan::default();
    let bars = &mut plan.bars;
    for m in scene.members_between(top, bottom) {
        let (Some(card), Some(t)) = (cards.get(m.card), tallies.get(m.card)) else {
            continue;
        };
        plan.tiles.push(m.rect);
        let r = m.content;
        let unit = r.w / f64::from(widest);
        let row = ((r.h - 2.0) / 3.0).max(1.0);
        let line = |i: f64| Rect::new(r.x, r.y + i * (row + 1.0), r.w, row);
        let h = t.held;
        let actives = line(0.0);
        bars.active
            .add(actives, f64::from(h.active - h.down) * unit);
        let down = Rect::new(
            actives.x + f64::from(h.active - h.down) * unit,
            actives.y,
            f64::from(h.down) * unit,
            row,
        );
        bars.restoring.add(down, down.w);
        bars.restored.add(down, t.restored * unit);
        bars.learner_track
            .add(line(1.0), f64::from(h.learning) * unit);
        bars.learned.add(line(1.0), t.learned * unit);
        bars.standby_track
            .add(line(2.0), f64::from(h.standby) * unit);
        bars.mirrored.add(line(2.0), t.mirrored * unit);
        // A member found is outlined by its button; a task found, by a ring around its tile.
        let found = highlight
            .iter()
            .any(|n| card.chips.iter().any(|chip| *chip.name == **n));
        if found {
            plan.rings.push(m.rect);
        }
    }
    plan
}

/// Draws the planned bars, batched by colour, and the rings (the panels are drawn first).
pub fn paint_tiles(ctx: &CanvasRenderingContext2d, plan: &TilesPlan, c: &Colours) {
    let bars = &plan.bars;
    bars.active.fill(ctx, c.active);
    bars.restoring.fill(ctx, &mix(c.active, c.panel, 0.25));
    bars.restored.fill(ctx, &mix(c.active, c.panel, 0.6));
    bars.learner_track.fill(ctx, &mix(c.learner, c.panel, 0.3));
    bars.learned.fill(ctx, c.learner);
    bars.standby_track.fill(ctx, &mix(c.standby, c.panel, 0.3));
    bars.mirrored.fill(ctx, c.standby);
    ctx.set_stroke_style_str(c.ink);
    ctx.set_line_width(2.0);
    for r in &plan.rings {
        ctx.stroke_rect(r.x - 2.0, r.y - 2.0, r.w + 4.0, r.h + 4.0);
    }
}
