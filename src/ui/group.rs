//! The group: one card per member with its task chips, and the tray of tasks nobody runs.
//!
//! When a task changes hands, its chip is removed from one card and added to another; the
//! group then plays a FLIP animation (first, last, invert, play): each chip that moved is
//! drawn at its old place and slides to its new one, so the eye follows it.

use super::large_group::LargeGroup;
use super::mini::{Hover, MiniChips};
use crate::engine::member::MemberStatus;
use crate::model::Command;
use crate::playground::glossary;
use crate::playground::{back_in, Action, RestartChoice};
use crate::views::frame::{marks_summary, state_text, Card, Chip, ChipRole, Countdown, Dot};
use crate::views::scene::{zones, Rect};
use std::collections::HashMap;
use std::rc::Rc;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::Element;
use yew::prelude::*;

/// One task chip.
#[derive(Properties, PartialEq)]
pub struct ChipProps {
    /// What to draw.
    pub chip: Chip,
    /// The member holding it, for the description.
    pub member: AttrValue,
    /// Drawn with a highlight (tour).
    #[prop_or_default]
    pub highlight: bool,
    /// Its member is restarting: an active is down until the member is back.
    #[prop_or_default]
    pub away: bool,
}

/// A task as one member holds it: its shape and pattern say the role.
#[function_component(TaskChip)]
pub fn task_chip(props: &ChipProps) -> Html {
    let chip = &props.chip;
    let away = props.away && chip.role == ChipRole::Active;
    let glyph = match chip.role {
        _ if away => "\u{2016}",
        ChipRole::Active if !chip.stateful => "\u{25CB}",
        ChipRole::Active if !chip.up => "\u{25D4}",
        ChipRole::Active => "\u{25A0}",
        ChipRole::Learner if chip.ready => "\u{2713}",
        ChipRole::Learner => "\u{25D0}",
        ChipRole::Standby => "\u{25A2}",
    };
    let shows_bar = chip.shows_bar(away);
    let label = chip.label(&props.member, away);
    let tip = chip.bar_tip(away);
    html! {
        <div
            class={classes!("chip", props.highlight.then_some("highlight"))}
            data-testid="task"
            data-flip={format!("{}:{}:{}", chip.name, chip.role.name(), if chip.role == ChipRole::Active { "" } else { props.member.as_str() })}
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
            tabindex={shows_bar.then_some("0")}
            aria-label={label}
        >
            <span class="label"><span class="glyph" aria-hidden="true">{ glyph }</span>{ &chip.name }</span>
            if let Some(tip) = tip {
                <span class="bar" aria-hidden="true"><span class="fill" style={format!("--p: {:.2}", f64::from(chip.progress) / 100.0)}></span></span>
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
    /// Where the card is placed in its zone or group (a large group's cards are placed).
    #[prop_or_default]
    pub place: Option<Rect>,
    /// Where its marks are, relative to the card and in the group (with `dots`).
    #[prop_or_default]
    pub marks: Option<(Rect, Rect)>,
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
            if props.state != MemberStatus::Live {
                <span class={classes!("state", props.state.name())}>{ state_text(props.state) }</span>
            }
            <span class="meta" title={format!("capacity {}, restores {} records/s", props.capacity, props.restore_rate)}>
                { format!("cap {} · {}k/s", props.capacity, props.restore_rate / 1000) }
            </span>
        </header>
    }
}

/// A card's buttons: crash, drain, restart.
#[derive(Properties, PartialEq)]
struct ActionsProps {
    name: AttrValue,
    can_crash: bool,
    can_drain: bool,
    can_restart: bool,
    restart: RestartChoice,
    on_action: Callback<Action>,
}

/// A card's buttons, drawn again only when what they can do changes.
#[function_component(CardActions)]
fn card_actions(props: &ActionsProps) -> Html {
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

/// A member: its header, its chips (or marks) and its buttons.
#[function_component(MemberCard)]
pub fn member_card(props: &CardProps) -> Html {
    let card = &props.card;
    let state_name = card.status.name();
    // Its tasks wait for it while it restarts (static membership keeps them on its card).
    let away = card.restart.is_some();
    let highlighted = props.highlight.iter().any(|h| h == &card.name);
    let name = AttrValue::from(card.name.clone());
    let place = props.place.map(|r| {
        format!(
            "left: {}px; top: {}px; width: {}px; height: {}px",
            r.x, r.y, r.w, r.h
        )
    });
    html! {
        <article
            class={classes!("member", highlighted.then_some("highlight"))}
            style={place}
            data-testid="member"
            data-member-id={name.clone()}
            data-state={state_name}
            data-leader={card.leader.to_string()}
            data-zone={card.zone.clone()}
            aria-label={format!("member {}, {}{}{}{}{}", card.name, state_text(card.status),
                card.restart.map(|c| format!(", {}", back_in(c.back_in_ms))).unwrap_or_default(),
                card.zone.as_ref().map(|z| format!(", zone {z}")).unwrap_or_default(),
                if card.leader { ", leader" } else { "" },
                props.dots.as_ref().map(|d| marks_summary(d, away)).unwrap_or_default())}
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
            <div class="chips" role="list" aria-label={format!("tasks of {}", card.name)}>
                { for card.chips.iter().map(|chip| html! {
                    <TaskChip
                        key={format!("{}:{}", chip.name, chip.role.name())}
                        chip={chip.clone()}
                        member={name.clone()}
                        highlight={props.highlight.iter().any(|h| **h == *chip.name)}
                        away={away}
                    />
                }) }
            </div>
            }
            <CardActions name={name} can_crash={card.can_crash} can_drain={card.can_drain}
                can_restart={card.can_restart} restart={props.restart} on_action={props.on_action.clone()} />
        </article>
    }
}

/// The whole group.
#[derive(Properties, PartialEq, Clone)]
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
    /// Animate chips that move.
    #[prop_or(true)]
    pub motion: bool,
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
}

/// The largest group whose moves are animated.
const FLIP_MAX_CHIPS: usize = 160;

/// Where each chip is drawn, relative to the group.
type Positions = HashMap<String, (f64, f64)>;

fn measure(container: &Element) -> Positions {
    let mut out = HashMap::new();
    let origin = container.get_bounding_client_rect();
    let Ok(chips) = container.query_selector_all("[data-flip]") else {
        return out;
    };
    for i in 0..chips.length() {
        let Some(el) = chips.item(i).and_then(|n| n.dyn_into::<Element>().ok()) else {
            continue;
        };
        let Some(key) = el.get_attribute("data-flip") else {
            continue;
        };
        let r = el.get_bounding_client_rect();
        out.insert(key, (r.left() - origin.left(), r.top() - origin.top()));
    }
    out
}

/// Slides each moved chip from its old place to its new one, with the Web Animations API.
fn play_flip(container: &Element, before: &Positions, after: &Positions) {
    let Ok(chips) = container.query_selector_all("[data-flip]") else {
        return;
    };
    for i in 0..chips.length() {
        let Some(el) = chips.item(i).and_then(|n| n.dyn_into::<Element>().ok()) else {
            continue;
        };
        let Some(key) = el.get_attribute("data-flip") else {
            continue;
        };
        let Some(&(nx, ny)) = after.get(&key) else {
            continue;
        };
        let from = match before.get(&key) {
            Some(&(ox, oy)) if (ox - nx).abs() > 1.0 || (oy - ny).abs() > 1.0 => {
                format!("translate({:.1}px, {:.1}px)", ox - nx, oy - ny)
            }
            Some(_) => continue,
            None => "scale(0.4)".to_string(),
        };
        let first = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&first, &"transform".into(), &from.into());
        let last = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&last, &"transform".into(), &"none".into());
        let frames = js_sys::Array::of2(&first, &last);
        let options = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&options, &"duration".into(), &JsValue::from_f64(450.0));
        let _ = js_sys::Reflect::set(
            &options,
            &"easing".into(),
            &"cubic-bezier(.2,.7,.2,1)".into(),
        );
        if let Ok(animate) = js_sys::Reflect::get(&el, &"animate".into()) {
            if let Some(f) = animate.dyn_ref::<js_sys::Function>() {
                let _ = f.call2(&el, &frames, &options);
            }
        }
    }
}

/// A zone's heading: its name, how many of its members are live, and a mark when none is.
pub fn zone_heading(zone: Option<&str>, alive: usize, members: usize) -> Html {
    let name = zone.map_or("no zone".to_string(), |z| format!("zone {z}"));
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

/// The group of members: a large one's tasks as marks ([`LargeGroup`]), else as chips.
#[function_component(GroupView)]
pub fn group_view(props: &GroupProps) -> Html {
    if props.mini {
        html! {
            <LargeGroup cards={props.cards.clone()} unowned={props.unowned.clone()} highlight={props.highlight.clone()}
                on_action={props.on_action.clone()} small={props.small} names={props.names.clone()}
                label={props.label.clone()} restart={props.restart} dark={props.dark} />
        }
    } else {
        html! { <ChipGroup ..props.clone() /> }
    }
}

/// A group whose tasks are drawn as chips.
#[function_component(ChipGroup)]
fn chip_group(props: &GroupProps) -> Html {
    let container = use_node_ref();
    let positions = use_mut_ref(Positions::new);
    // Where every chip is placed; the animation runs only when this changes. In a large
    // group the eye cannot follow hundreds of moves, and measuring every chip forces a
    // layout: chips are simply redrawn there.
    let chips: usize = props.cards.iter().map(|c| c.chips.len()).sum();
    let animate = props.motion && chips <= FLIP_MAX_CHIPS;
    let placement: Vec<(u32, u32, &'static str)> = if animate {
        props
            .cards
            .iter()
            .flat_map(|c| {
                c.chips
                    .iter()
                    .map(move |chip| (c.id.0, chip.task.0, chip.role.name()))
            })
            .chain(props.unowned.iter().map(|c| (u32::MAX, c.task.0, "")))
            .collect()
    } else {
        Vec::new()
    };
    {
        let container = container.clone();
        let positions = positions.clone();
        use_effect_with(placement, move |_| {
            if !animate {
                positions.borrow_mut().clear();
            } else if let Some(el) = container.cast::<Element>() {
                let after = measure(&el);
                let before = std::mem::replace(&mut *positions.borrow_mut(), after.clone());
                if !before.is_empty() {
                    play_flip(&el, &before, &after);
                }
            }
        });
    }
    let member = |card: &Card| {
        html! {
            <MemberCard key={card.name.clone()} highlight={props.highlight.clone()} card={card.clone()}
                restart={props.restart} on_action={props.on_action.clone()} />
        }
    };
    let zones = zones(&props.cards);
    html! {
        <div ref={container} class={classes!("group", props.small.then_some("small"),
            (!zones.is_empty()).then_some("zoned"))} role="region" aria-label={props.label.clone()}>
            if zones.is_empty() {
                { for props.cards.iter().map(member) }
            } else {
                { for zones.iter().map(|zone| {
                    let cards: Vec<&Card> = props.cards.iter().filter(|c| c.zone.as_deref() == *zone).collect();
                    let alive = cards.iter().filter(|c| c.status.alive()).count();
                    let name = zone.map_or("no zone".to_string(), |z| format!("zone {z}"));
                    html! {
                        <section key={zone.unwrap_or_default()} class={classes!("zone", (zone.is_some() && alive == 0).then_some("down"))}
                            data-testid="zone" data-zone={zone.map(str::to_string)} aria-label={format!("{name}, {alive} of {} live", cards.len())}>
                            { zone_heading(*zone, alive, cards.len()) }
                            <div class="zone-members">{ for cards.into_iter().map(member) }</div>
                        </section>
                    }
                }) }
            }
            if !props.unowned.is_empty() {
                <section class="tray" aria-label="tasks no member runs">
                    <h3 class="term" title={glossary::define("orphan").unwrap_or_default()}>{ "Unassigned (down)" }</h3>
                    <div class="chips" role="list">
                        { for props.unowned.iter().map(|chip| html! {
                            <div key={chip.name.clone()} class={classes!("chip", "orphan", props.highlight.iter().any(|h| **h == *chip.name).then_some("highlight"))}
                                data-testid="orphan" data-flip={format!("{}:active:", chip.name)} data-task-id={chip.name.clone()}
                                data-stateful={chip.stateful.to_string()} role="listitem"
                                title={format!("{}: no member runs it", chip.name)}>
                                <span class="label"><span class="glyph" aria-hidden="true">{ "\u{2715}" }</span>{ &chip.name }</span>
                            </div>
                        }) }
                    </div>
                </section>
            }
        </div>
    }
}
