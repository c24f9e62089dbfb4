//! A member's card as the page's own elements, placed over what the canvas draws: its
//! header, countdown and buttons, over each chip an element with its name, data, focus and
//! replay tip (or, over a large group's marks, the marks' area); the zones' bands around the
//! cards or tiles; and the tray of tasks nobody runs.

use super::marks::MiniChips;
use crate::engine::member::MemberStatus;
use crate::model::Command;
use crate::playground::glossary;
use crate::playground::{Action, RestartChoice};
use crate::views::frame::{chips_summary, state_text, Card, Chip, ChipRole, Countdown, Dot};
use crate::views::geometry::Rect;
use crate::views::marks::Hover;
use crate::views::overview::{marks_summary, member_label};
use crate::views::scene::{Centre, MemberBox, Scene, ZoneBand, Zoom};
use crate::views::units::back_in;
use std::rc::Rc;
use yew::prelude::*;

/// One task chip of the parallel page: placed over the chip the canvas draws, it carries the
/// chip's name, data and focus, and shows its replay tip on hover and focus.
#[derive(Properties, PartialEq)]
pub struct ChipProps {
    /// What it stands for.
    pub chip: Chip,
    /// The member holding it, for the description.
    pub member: AttrValue,
    /// Where it is, inside its card's border.
    pub place: Rect,
    /// Its member is restarting: an active is down until the member is back.
    #[prop_or_default]
    pub away: bool,
    /// The card's first chip: Tab reaches it, the arrow keys the others.
    #[prop_or_default]
    pub first: bool,
}

/// A task as one member holds it.
#[function_component(TaskChip)]
pub fn task_chip(props: &ChipProps) -> Html {
    let chip = &props.chip;
    let away = props.away && chip.role == ChipRole::Active;
    let label = chip.label(&props.member, away);
    let tip = chip.bar_tip(away);
    let p = props.place;
    html! {
        <div
            class="chip"
            style={format!("left: {}px; top: {}px; width: {}px; height: {}px", p.x, p.y, p.w, p.h)}
            data-testid="task"
            data-task-id={chip.name.clone()}
            data-role={chip.role.name()}
            data-stateful={chip.stateful.to_string()}
            data-learned={chip.learned.to_string()}
            data-up={chip.up.to_string()}
            data-away={away.then_some("true")}
            data-ready={(chip.role == ChipRole::Learner).then(|| chip.ready.to_string())}
            data-progress={(chip.role != ChipRole::Active || !chip.up).then(|| chip.progress.to_string())}
            title={label.clone()}
            role="listitem"
            tabindex={if props.first { "0" } else { "-1" }}
            aria-label={label}
        >
            if let Some(tip) = tip {
                <span class="tip" aria-hidden="true" data-testid="replay-tip">{ tip }</span>
            }
        </div>
    }
}

/// One member's card.
#[derive(Properties, PartialEq)]
pub struct CardProps {
    /// What to draw.
    pub card: Card,
    /// The tasks as small marks (a large group: the card's chips are then left out).
    #[prop_or_default]
    pub dots: Option<Rc<[Dot]>>,
    /// Task names, for the marks.
    #[prop_or_default]
    pub names: Rc<Vec<String>>,
    /// Names to highlight (tour).
    #[prop_or_default]
    pub highlight: Vec<String>,
    /// What its restart button does.
    #[prop_or_default]
    pub restart: RestartChoice,
    /// Where the card is placed in its zone or group.
    pub place: Rect,
    /// Where its marks are, inside its border and in the group (with `dots`).
    #[prop_or_default]
    pub marks: Option<(Rect, Rect)>,
    /// Where its chips are, inside its border (without `dots`).
    #[prop_or_default]
    pub chips: Rc<[Rect]>,
    /// Says what mark lies under the pointer (with `dots`).
    #[prop_or_default]
    pub on_hover: Callback<Option<Hover>>,
    /// Carries out an action (a command here).
    pub on_action: Callback<Action>,
}

/// A restarting member's way back: the time left, its disk, and a bar of the time away
/// gone by. A timer (not announced as it ticks); the card's name says it too.
fn countdown(c: &Countdown) -> Html {
    let away = c.back_at.saturating_sub(c.since).max(1);
    let gone = away.saturating_sub(c.back_in_ms);
    html! {
        <div class="countdown" data-testid="countdown" role="timer" data-back-in={c.back_in_ms.to_string()}>
            <span class="glyph" aria-hidden="true">{ "\u{27F3}" }</span>
            <span class="left">{ back_in(c.back_in_ms) }</span>
            <span class="disk">{ if c.keep_state { "keeps its disk" } else { "lost its disk" } }</span>
            <span class="away-bar" aria-hidden="true">
                <span class="fill" style={format!("--p: {:.3}", gone as f64 / away as f64)}></span>
            </span>
        </div>
    }
}

/// A card's header: name, leader mark, state, capacity and restore rate.
#[derive(Properties, PartialEq)]
struct HeaderProps {
    name: AttrValue,
    leader: bool,
    state: MemberStatus,
    capacity: u32,
    restore_rate: u64,
}

/// A card's header, drawn again only when it changes (not when the member's tasks do).
#[function_component(CardHeader)]
fn card_header(props: &HeaderProps) -> Html {
    html! {
        <header>
            <span class="name">{ &props.name }</span>
            if props.leader {
                <span class="leader-mark term" title={glossary::define("leader").unwrap_or_default()}>{ "\u{2605} leader" }</span>
            }
            if !props.state.live() {
                <span class={classes!("state", props.state.name())}>{ state_text(props.state) }</span>
            }
            <span class="meta" title={format!("capacity {}, restores {} records/s", props.capacity, props.restore_rate)}>
                { format!("cap {} · {}k/s", props.capacity, props.restore_rate / 1000) }
            </span>
        </header>
    }
}

/// A member's buttons: crash, drain, restart.
#[derive(Properties, PartialEq)]
pub struct ActionsProps {
    /// The member's name.
    pub name: AttrValue,
    /// It can be crashed.
    pub can_crash: bool,
    /// It can be drained.
    pub can_drain: bool,
    /// It can be restarted.
    pub can_restart: bool,
    /// What the restart button does.
    pub restart: RestartChoice,
    /// Carries out an action (a command here).
    pub on_action: Callback<Action>,
}

/// A member's buttons, drawn again only when what they can do changes.
#[function_component(CardActions)]
pub fn card_actions(props: &ActionsProps) -> Html {
    let name = props.name.to_string();
    let crash = props
        .on_action
        .reform(move |_: MouseEvent| Action::Command(Command::Crash(name.clone())));
    let name = props.name.to_string();
    let drain = props
        .on_action
        .reform(move |_: MouseEvent| Action::Command(Command::Drain(name.clone())));
    let restart = {
        let command = props.restart.restart(&props.name);
        props
            .on_action
            .reform(move |_: MouseEvent| Action::Command(command.clone()))
    };
    html! {
        <div class="actions">
            <button data-testid="crash" class="danger" disabled={!props.can_crash} onclick={crash}
                aria-label={format!("crash {}", props.name)}
                title={if props.can_crash { "Kill this member now" } else { "Already stopped" }}>{ "crash" }</button>
            <button data-testid="drain" disabled={!props.can_drain} onclick={drain}
                aria-label={format!("drain {}", props.name)}
                title={glossary::define("drain").unwrap_or_default()}>{ "drain" }</button>
            <button data-testid="restart" disabled={!props.can_restart} onclick={restart}
                aria-label={format!("restart {}", props.name)} title={format!("Restart now: {}", props.restart.describe())}>
                { "restart" }</button>
        </div>
    }
}

/// The arrow keys, Home and End move the focus over a card's chips (in reading order, a
/// roving tab stop), and keep the playground's own arrow keys (step, back) from acting
/// meanwhile.
fn roving_focus() -> Callback<KeyboardEvent> {
    Callback::from(|e: KeyboardEvent| {
        let Some(chip) = e.target_dyn_into::<web_sys::Element>() else {
            return;
        };
        let next = match e.key().as_str() {
            "ArrowRight" | "ArrowDown" => chip.next_element_sibling(),
            "ArrowLeft" | "ArrowUp" => chip.previous_element_sibling(),
            "Home" => chip
                .parent_element()
                .and_then(|list| list.first_element_child()),
            "End" => chip
                .parent_element()
                .and_then(|list| list.last_element_child()),
            _ => return,
        };
        e.prevent_default();
        e.stop_propagation();
        if let Some(next) =
            next.and_then(|n| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(n).ok())
        {
            let _ = next.focus();
        }
    })
}

/// A member: its header, its chips (or marks) and its buttons.
#[function_component(MemberCard)]
pub fn member_card(props: &CardProps) -> Html {
    let card = &props.card;
    let state_name = card.status.name();
    // Its tasks wait for it while it restarts (static membership keeps them on its card).
    let away = card.restart.is_some();
    let highlighted = props.highlight.iter().any(|h| h == &card.name);
    let name = AttrValue::from(card.name.clone());
    let r = props.place;
    let place = format!(
        "left: {}px; top: {}px; width: {}px; height: {}px",
        r.x, r.y, r.w, r.h
    );
    html! {
        <article
            class={classes!("member", highlighted.then_some("highlight"))}
            style={place}
            data-testid="member"
            tabindex="-1"
            data-member-id={name.clone()}
            data-state={state_name}
            data-leader={card.leader.to_string()}
            data-zone={card.zone.clone()}
            aria-label={member_label(&card.name, card.status, card.restart.map(|c| c.back_in_ms), card.zone.as_deref(), card.leader,
                &props.dots.as_ref().map_or_else(|| chips_summary(&card.chips), |d| marks_summary(d, away)))}
        >
            <CardHeader name={name.clone()} leader={card.leader} state={card.status}
                capacity={card.capacity} restore_rate={card.restore_rate} />
            if let Some(c) = &card.restart {
                { countdown(c) }
            }
            if let (Some(dots), Some((place, in_group))) = (&props.dots, props.marks) {
                <MiniChips dots={dots.clone()} names={props.names.clone()} member={name.clone()}
                    place={place} in_group={in_group} on_hover={props.on_hover.clone()} away={away} on_action={props.on_action.clone()} />
            } else {
            <div class="chips" role="list" aria-label={format!("tasks of {}", card.name)} onkeydown={roving_focus()}>
                { for card.chips.iter().zip(props.chips.iter()).enumerate().map(|(i, (chip, place))| html! {
                    <TaskChip
                        key={format!("{}:{}", chip.name, chip.role.name())}
                        chip={chip.clone()}
                        member={name.clone()}
                        place={*place}
                        away={away}
                        first={i == 0}
                    />
                }) }
            </div>
            }
            <CardActions name={name} can_crash={card.can_crash} can_drain={card.can_drain}
                can_restart={card.can_restart} restart={props.restart} on_action={props.on_action.clone()} />
        </article>
    }
}

/// A zone as the page names it ("zone a"; "no zone" for the members without one).
pub fn zone_name(zone: Option<&str>) -> String {
    zone.map_or("no zone".to_string(), |z| format!("zone {z}"))
}

/// A zone's heading: its name, how many of its members are live, and a mark when none is.
pub fn zone_heading(zone: Option<&str>, alive: usize, members: usize) -> Html {
    let name = zone_name(zone);
    html! {
        <h3>
            <span class={classes!(zone.is_some().then_some("term"))}
                title={zone.and(glossary::define("zone"))}>{ name }</span>
            <span class="zone-count">{ format!("{alive} of {members} live") }</span>
            if zone.is_some() && alive == 0 {
                <span class="badge bad">{ "down" }</span>
            }
        </h3>
    }
}

/// A zone's band, placed in the group, holding its members' cards or tiles (`members`,
/// placed from the band's corner), `alive` of them live; in the overview (`zoom`), with a
/// button that zooms into the zone.
fn zone_band(
    band: &ZoneBand,
    alive: usize,
    zoom: Option<&Callback<Action>>,
    members: Html,
) -> Html {
    let zone = band.zone.as_deref();
    let r = band.rect;
    let name = zone_name(zone);
    let zoom = zoom.map(|on_action| {
        let centre = Centre::Zone(zone.unwrap_or_default().to_string());
        let on = on_action.reform(move |_: MouseEvent| Action::Zoom {
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
            { members }
        </section>
    }
}

/// The members placed in the group, each drawn by `member` from its box and the corner it is
/// placed from, or left out where it gives nothing (no placeholder: one unkeyed child makes
/// Yew match the keyed members by position, remaking all after one inserted); in their
/// zones' bands when they have zones (`alive` says which card counts as live in a band's
/// heading; with `zoom`, each band has a button that zooms into it).
pub fn placed_members(
    scene: &Scene,
    alive: impl Fn(usize) -> bool,
    zoom: Option<&Callback<Action>>,
    member: impl Fn(&MemberBox, &Rect) -> Option<Html>,
) -> Html {
    placed_runs(scene, alive, zoom, |boxes, origin| {
        boxes.iter().filter_map(|m| member(m, origin)).collect()
    })
}

/// The members placed in the group as [`placed_members`] places them, each run of them (all
/// the group's, or a zone band's) drawn by `run` from their boxes, in order, and the corner
/// they are placed from.
pub fn placed_runs(
    scene: &Scene,
    alive: impl Fn(usize) -> bool,
    zoom: Option<&Callback<Action>>,
    run: impl Fn(&[&MemberBox], &Rect) -> Html,
) -> Html {
    if scene.zones.is_empty() {
        let boxes: Vec<&MemberBox> = scene.members.iter().collect();
        return run(&boxes, &Rect::default());
    }
    scene
        .members_by_band()
        .into_iter()
        .map(|(band, boxes)| {
            let live = band.members.iter().filter(|&&i| alive(i)).count();
            let members = run(&boxes, &band.rect);
            zone_band(band, live, zoom, members)
        })
        .collect()
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
