//! Acting on the group as a whole: add a member (with its restore rate, capacity and zone),
//! crash the leader; and the legend of the chips' shapes.

use super::term::Term;
use crate::model::{Command, MemberSpec};
use crate::playground::screen::Toolbar;
use crate::playground::Action;
use yew::prelude::*;

/// Properties of the member toolbar.
#[derive(Properties, PartialEq)]
pub struct ToolbarProps {
    /// The next member's name, the default restore rate, whether the leader can be crashed.
    pub toolbar: Toolbar,
    /// Carries out an action (a command here).
    pub on_action: Callback<Action>,
}

/// Add a member (with its restore rate and capacity), crash the leader.
#[function_component(MemberToolbar)]
pub fn member_toolbar(props: &ToolbarProps) -> Html {
    let rate = use_state(String::new);
    let capacity = use_state(|| "1".to_string());
    // The zone the reader picked ("" for none), until the zones change; else the suggestion.
    let picked = use_state(|| None::<String>);
    let zones = &props.toolbar.zones;
    let zone = (*picked)
        .clone()
        .filter(|z| z.is_empty() || zones.contains(z))
        .or_else(|| props.toolbar.zone.clone())
        .filter(|z| !z.is_empty());
    let name = props.toolbar.next_name.clone();
    let add = {
        let (on, rate, capacity, name, zone) = (
            props.on_action.clone(),
            rate.clone(),
            capacity.clone(),
            name.clone(),
            zone.clone(),
        );
        Callback::from(move |_| {
            let restore_rate = rate.trim().parse::<u64>().ok().filter(|&r| r > 0);
            let capacity = capacity
                .trim()
                .parse::<u32>()
                .ok()
                .filter(|&c| c > 0)
                .unwrap_or(1);
            on.emit(Action::Command(Command::Join(MemberSpec {
                name: name.clone(),
                capacity,
                restore_rate,
                zone: zone.clone(),
            })));
        })
    };
    let crash_leader = props
        .on_action
        .reform(|_: MouseEvent| Action::Command(Command::CrashLeader));
    let on_rate = {
        let rate = rate.clone();
        Callback::from(move |e: InputEvent| {
            rate.set(
                e.target_unchecked_into::<web_sys::HtmlInputElement>()
                    .value(),
            )
        })
    };
    let on_capacity = {
        let capacity = capacity.clone();
        Callback::from(move |e: InputEvent| {
            capacity.set(
                e.target_unchecked_into::<web_sys::HtmlInputElement>()
                    .value(),
            )
        })
    };
    let on_zone = {
        let picked = picked.clone();
        Callback::from(move |e: Event| {
            picked.set(Some(
                e.target_unchecked_into::<web_sys::HtmlSelectElement>()
                    .value(),
            ))
        })
    };
    html! {
        <div class="toolbar">
            <button data-testid="add-member" class="primary" onclick={add} title="A new member joins the group now">
                { format!("+ add member {name}") }
            </button>
            <label>{ "restore rate " }
                <input data-testid="add-restore-rate" type="number" min="1" step="1000" placeholder={props.toolbar.default_rate.to_string()}
                    value={(*rate).clone()} oninput={on_rate} aria-label="restore rate of the new member, records per second" />
            </label>
            <label>{ "capacity " }
                <input data-testid="add-capacity" type="number" min="1" max="16" value={(*capacity).clone()} oninput={on_capacity}
                    aria-label="capacity of the new member" />
            </label>
            if !zones.is_empty() {
                <label>{ "zone " }
                    <select data-testid="add-zone" onchange={on_zone} aria-label="zone of the new member"
                        title="Suggested: the zone with the fewest live members">
                        { for zones.iter().map(|z| html! {
                            <option value={z.clone()} selected={zone.as_ref() == Some(z)}>{ z }</option>
                        }) }
                        <option value="" selected={zone.is_none()}>{ "none" }</option>
                    </select>
                </label>
            }
            <button data-testid="crash-leader" class="danger" disabled={!props.toolbar.can_crash_leader} onclick={crash_leader}
                title="Kill whichever member leads now">{ "crash leader" }</button>
        </div>
    }
}

/// What each shape means.
#[function_component(Legend)]
pub fn legend() -> Html {
    let chip = |role: &str, extra: &[(&str, &str)], glyph: &str, label: &str, term: &str| {
        let mut attrs = vec![("data-role", role.to_string())];
        attrs.extend(extra.iter().map(|(k, v)| (*k, v.to_string())));
        let get = |k: &str| attrs.iter().find(|(a, _)| *a == k).map(|(_, v)| v.clone());
        html! {
            <span>
                <span class="chip" aria-hidden="true" data-role={get("data-role")} data-up={get("data-up")}
                    data-learned={get("data-learned")} data-ready={get("data-ready")} data-stateful={get("data-stateful")}
                    data-away={get("data-away")}>
                    <span class="label"><span class="glyph">{ glyph.to_string() }</span>{ "T" }</span>
                </span>
                { " " }<Term term={term.to_string()}>{ label.to_string() }</Term>
            </span>
        }
    };
    html! {
        <div class="legend" aria-label="legend">
            { chip("active", &[("data-up", "true")], "\u{25A0}", "active", "active") }
            { chip("active", &[("data-up", "false")], "\u{25D4}", "restoring (down)", "downtime") }
            { chip("active", &[("data-up", "false"), ("data-away", "true")], "\u{2016}", "waiting (restart)", "restart") }
            { chip("active", &[("data-up", "true"), ("data-learned", "true")], "\u{25A0}", "learned", "learned") }
            { chip("learner", &[], "\u{25D0}", "learner", "learner") }
            { chip("learner", &[("data-ready", "true")], "\u{2713}", "ready", "ready") }
            { chip("standby", &[], "\u{25A2}", "standby", "standby") }
            { chip("active", &[("data-up", "true"), ("data-stateful", "false")], "\u{25CB}", "stateless", "task") }
        </div>
    }
}
