//! Acting on the group as a whole: add a member (with its restore rate, capacity and zone, as
//! typed: the playground reads them and names what is wrong), crash the leader; and the
//! legend of the chips' shapes.

use super::term::Term;
use crate::model::Command;
use crate::playground::screen::Toolbar;
use crate::playground::{Action, JoinAction, JoinField};
use yew::prelude::*;

/// Properties of the member toolbar.
#[derive(Properties, PartialEq)]
pub struct ToolbarProps {
    /// The next member's name and fields, the default restore rate, whether the leader can be
    /// crashed.
    pub toolbar: Toolbar,
    /// Carries out an action (a command here).
    pub on_action: Callback<Action>,
}

/// The action of editing a field of the new member.
fn edit(field: JoinField, text: String) -> Action {
    Action::Join(JoinAction::Edit(field, text))
}

/// Add a member (with its restore rate and capacity), crash the leader.
#[function_component(MemberToolbar)]
pub fn member_toolbar(props: &ToolbarProps) -> Html {
    let t = &props.toolbar;
    let on = &props.on_action;
    let add = on.reform(|_: MouseEvent| Action::Join(JoinAction::Add));
    let crash_leader = on.reform(|_: MouseEvent| Action::Command(Command::CrashLeader));
    let typed = |field: JoinField| {
        on.reform(move |e: InputEvent| {
            edit(
                field,
                e.target_unchecked_into::<web_sys::HtmlInputElement>()
                    .value(),
            )
        })
    };
    let on_zone = on.reform(|e: Event| {
        edit(
            JoinField::Zone,
            e.target_unchecked_into::<web_sys::HtmlSelectElement>()
                .value(),
        )
    });
    let error = |field: JoinField| t.errors.iter().find(|e| e.field == field.path());
    let invalid = |field: JoinField| error(field).is_some().then_some("true");
    let described = |field: JoinField| {
        error(field).map(|_| format!("join-error-{}", field.path().replace([' ', '.'], "-")))
    };
    html! {
        <div class="toolbar">
            <button data-testid="add-member" class="primary" onclick={add} title="A new member joins the group now"
                disabled={!t.errors.is_empty()}>
                { format!("+ add member {}", t.next_name) }
            </button>
            <label>{ "restore rate " }
                <input data-testid="add-restore-rate" type="text" inputmode="numeric" placeholder={t.default_rate.to_string()}
                    value={t.join.restore_rate.clone()} oninput={typed(JoinField::RestoreRate)}
                    aria-label="restore rate of the new member, records per second"
                    aria-invalid={invalid(JoinField::RestoreRate)} aria-describedby={described(JoinField::RestoreRate)} />
            </label>
            <label>{ "capacity " }
                <input data-testid="add-capacity" type="text" inputmode="numeric" value={t.join.capacity.clone()}
                    oninput={typed(JoinField::Capacity)} aria-label="capacity of the new member"
                    aria-invalid={invalid(JoinField::Capacity)} aria-describedby={described(JoinField::Capacity)} />
            </label>
            if !t.zones.is_empty() {
                <label>{ "zone " }
                    <select data-testid="add-zone" onchange={on_zone} aria-label="zone of the new member"
                        title="Suggested: the zone with the fewest live members">
                        { for t.zones.iter().map(|z| html! {
                            <option value={z.clone()} selected={t.zone.as_ref() == Some(z)}>{ z }</option>
                        }) }
                        <option value="" selected={t.zone.is_none()}>{ "none" }</option>
                    </select>
                </label>
            }
            <button data-testid="crash-leader" class="danger" disabled={!t.can_crash_leader} onclick={crash_leader}
                title="Kill whichever member leads now">{ "crash leader" }</button>
            { for t.errors.iter().map(|e| html! {
                <span class="app-error" data-testid="join-error"
                    id={format!("join-error-{}", e.field.replace([' ', '.'], "-"))}>{ e.to_string() }</span>
            }) }
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
