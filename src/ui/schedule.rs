//! The timeline editor on the scrubber's track: each scheduled command is a mark to select,
//! drag to another moment, move with the arrow keys, edit or delete; a click on the track (or
//! the add button) schedules a new one there. Every change is an action the playground checks
//! and runs again from that point; what it says goes to the page's live notice.
//!
//! Keyboard: the marks are one tab stop (roving tabindex); up and down (or Home and End)
//! choose a mark, left and right move it by a step (shift: ten steps), Delete removes it,
//! Enter opens its editor, Escape closes the editor.
//!
//! Test ids: `schedule` (the track), `schedule-mark` (with `data-index`, `data-kind`,
//! `data-at`), `schedule-selected`, `schedule-add`, `schedule-edit`, `schedule-delete`, `schedule-editor`,
//! `schedule-kind`, `schedule-at`, `schedule-member`, `schedule-capacity`, `schedule-zone`,
//! `schedule-down`, `schedule-keep-state`, `schedule-submit`, `schedule-cancel`,
//! `schedule-problem`.

use super::hooks::maybe;
use super::later::use_made;
use crate::playground::{
    Action, CommandEditor, CommandKind, DraftField, EditorAction, Schedule, ScheduleEdit,
    ScheduleMark,
};
use crate::views::units::moment;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// Height of a row of marks, in CSS pixels.
const ROW: u32 = 15;

/// The marks made at each animation frame as a session opens: a schedule of a hundred
/// commands comes over a few frames, not in one task that holds the page.
const MARKS_PER_FRAME: usize = 32;

/// Properties of the timeline editor.
#[derive(Properties, PartialEq)]
pub struct ScheduleProps {
    /// The marks, the selection, the steps and the menus.
    pub schedule: Rc<Schedule>,
    /// The command editor, while it is open.
    pub editor: Option<CommandEditor>,
    /// The number of the session shown: as another opens, its marks come over the frames
    /// after the rest of the page.
    pub session: u64,
    /// Carries out an action (a schedule edit).
    pub on_action: Callback<Action>,
}

/// A mark being dragged.
#[derive(Clone, Copy, PartialEq)]
struct Drag {
    index: usize,
    start_x: i32,
    at_ms: u64,
    moved: bool,
}

/// Where a point of the track is in time, snapped.
fn time_at(track: &NodeRef, client_x: i32, s: &Schedule) -> Option<u64> {
    let rect = track.cast::<web_sys::Element>()?.get_bounding_client_rect();
    (rect.width() > 0.0).then(|| s.moment_at((f64::from(client_x) - rect.left()) / rect.width()))
}

/// The track's state and callbacks, shared by the helpers that draw its marks and its bar.
struct Track {
    /// The marks, the selection, the steps and the menus.
    schedule: Rc<Schedule>,
    /// Carries out an action (a schedule edit).
    on_action: Callback<Action>,
    /// The track's element, to turn a pointer's position into a moment.
    node: NodeRef,
    /// The mark being dragged.
    drag: UseStateHandle<Option<Drag>>,
    /// The command editor, while it is open.
    editor: Option<CommandEditor>,
    /// Set by a keyboard edit, so the redrawn selected mark takes the focus back.
    refocus: Rc<RefCell<bool>>,
}

/// After a keyboard edit the selected mark takes the focus back (the marks are redrawn).
#[hook]
fn use_refocus_selected(track: &NodeRef, schedule: &Schedule) -> Rc<RefCell<bool>> {
    let refocus = use_mut_ref(|| false);
    let (track, pending) = (track.clone(), refocus.clone());
    use_effect_with(
        (schedule.selected, schedule.marks.clone()),
        move |(selected, _)| {
            if std::mem::take(&mut *pending.borrow_mut()) {
                let mark = selected.and_then(|i| {
                    track
                        .cast::<web_sys::Element>()?
                        .query_selector(&format!("[data-index=\"{i}\"]"))
                        .ok()
                        .flatten()?
                        .dyn_into::<web_sys::HtmlElement>()
                        .ok()
                });
                if let Some(mark) = mark {
                    let _ = mark.focus();
                }
            }
        },
    );
    refocus
}

/// The scheduled commands on the track, and their editor.
#[function_component(ScheduleTrack)]
pub fn schedule_track(props: &ScheduleProps) -> Html {
    let s = &props.schedule;
    let node = use_node_ref();
    let drag = use_state(|| None::<Drag>);
    let refocus = use_refocus_selected(&node, s);
    let made = use_made(props.session, s.marks.len(), 0, MARKS_PER_FRAME);
    let t = Track {
        schedule: s.clone(),
        on_action: props.on_action.clone(),
        node,
        drag,
        editor: props.editor.clone(),
        refocus,
    };
    let rows = s
        .marks
        .iter()
        .map(|m| u32::from(m.row) + 1)
        .max()
        .unwrap_or(1);
    html! {
        <div class="schedule">
            <div class="schedule-track" ref={t.node.clone()} data-testid="schedule" onpointerdown={track_press(&t)}
                style={format!("height: {}px", rows * ROW)} title="scheduled commands: click to add one here">
                if !s.marks.is_empty() {
                    <div role="listbox" aria-label="scheduled commands" aria-describedby="schedule-keys" class="marks">
                        { for s.marks.iter().take(made).enumerate().map(|(i, m)| schedule_mark(&t, i, m)) }
                    </div>
                }
            </div>
            { schedule_bar(&t) }
        </div>
    }
}

/// A press of the main button on the track opens the editor on a new command there.
fn track_press(t: &Track) -> Callback<PointerEvent> {
    let (track, schedule, on) = (t.node.clone(), t.schedule.clone(), t.on_action.clone());
    Callback::from(move |e: PointerEvent| {
        if e.button() == 0 {
            if let Some(at) = time_at(&track, e.client_x(), &schedule) {
                on.emit(Action::Editor(EditorAction::New(at)));
            }
        }
    })
}

/// One scheduled command's mark, drawn where it is dragged to while it is dragged.
fn schedule_mark(t: &Track, i: usize, m: &ScheduleMark) -> Html {
    let s = &t.schedule;
    let selected = s.selected == Some(i);
    let dragging = t.drag.filter(|d| d.index == i && d.moved);
    let at = dragging.map_or(m.at_ms, |d| d.at_ms);
    let double = t
        .on_action
        .reform(move |_: MouseEvent| Action::Editor(EditorAction::Scheduled(i)));
    let tab = if selected || (s.selected.is_none() && i == 0) {
        "0"
    } else {
        "-1"
    };
    let label = format!(
        "{} at {}{}",
        m.what,
        moment(m.at_ms),
        if m.done { ", done" } else { "" }
    );
    html! {
        <span key={i} role="option" class={classes!("mark", m.done.then_some("done"), selected.then_some("selected"), dragging.map(|_| "dragging"))}
            data-testid="schedule-mark" data-index={i.to_string()} data-kind={m.kind.id()} data-at={m.at_ms.to_string()}
            style={format!("left: {:.3}%; top: {}px", s.place(at), u32::from(m.row) * ROW)}
            tabindex={tab} aria-selected={selected.to_string()} aria-label={label.clone()} title={label}
            onpointerdown={mark_press(t, i)} onpointermove={mark_drag(t, i)} onpointerup={mark_release(t, i)}
            ondblclick={double} onkeydown={mark_keys(t, i)} onfocus={mark_focus(t, i)}>
            { m.kind.glyph() }
            if let Some(d) = dragging {
                <span class="drag-time" aria-hidden="true">{ moment(d.at_ms) }</span>
            }
        </span>
    }
}

/// A press of the main button on a mark selects it and may start a drag.
fn mark_press(t: &Track, i: usize) -> Callback<PointerEvent> {
    let (drag, on) = (t.drag.clone(), t.on_action.clone());
    Callback::from(move |e: PointerEvent| {
        e.stop_propagation();
        if e.button() != 0 {
            return;
        }
        if let Some(el) = e.target_dyn_into::<web_sys::Element>() {
            let _ = el.set_pointer_capture(e.pointer_id());
        }
        on.emit(Action::Schedule(ScheduleEdit::Select(Some(i))));
        drag.set(Some(Drag {
            index: i,
            start_x: e.client_x(),
            at_ms: 0,
            moved: false,
        }));
    })
}

/// The pointer moving a pressed mark drags it, once past a few pixels so a click stays a click.
fn mark_drag(t: &Track, i: usize) -> Callback<PointerEvent> {
    let (drag, track, schedule) = (t.drag.clone(), t.node.clone(), t.schedule.clone());
    Callback::from(move |e: PointerEvent| {
        let Some(d) = *drag else { return };
        if d.index != i || (!d.moved && (e.client_x() - d.start_x).abs() < 4) {
            return;
        }
        if let Some(at_ms) = time_at(&track, e.client_x(), &schedule) {
            drag.set(Some(Drag {
                at_ms,
                moved: true,
                ..d
            }));
        }
    })
}

/// Letting go of a dragged mark moves its command to the moment it was dropped on.
fn mark_release(t: &Track, i: usize) -> Callback<PointerEvent> {
    let (drag, on) = (t.drag.clone(), t.on_action.clone());
    Callback::from(move |_: PointerEvent| {
        let Some(d) = *drag else { return };
        drag.set(None);
        if d.index == i && d.moved {
            on.emit(Action::Schedule(ScheduleEdit::Move {
                index: i,
                at_ms: d.at_ms,
            }));
        }
    })
}

/// A mark's keys, as the playground reads them ([`Schedule::key`]): a move, a choice or a
/// deletion gives the focus back to the selected mark once it is drawn again.
fn mark_keys(t: &Track, i: usize) -> Callback<KeyboardEvent> {
    let (on, schedule, refocus) = (t.on_action.clone(), t.schedule.clone(), t.refocus.clone());
    Callback::from(move |e: KeyboardEvent| {
        let Some(action) = schedule.key(i, &e.key(), e.shift_key()) else {
            return;
        };
        e.prevent_default();
        e.stop_propagation();
        if matches!(action, Action::Schedule(_)) {
            *refocus.borrow_mut() = true;
        }
        on.emit(action);
    })
}

/// A mark reached with Tab becomes the selected one.
fn mark_focus(t: &Track, i: usize) -> Callback<FocusEvent> {
    let on = t.on_action.clone();
    let selected_now = t.schedule.selected;
    Callback::from(move |_: FocusEvent| {
        if selected_now != Some(i) {
            on.emit(Action::Schedule(ScheduleEdit::Select(Some(i))));
        }
    })
}

/// Under the track: the editor if open, else the selected command's buttons, else the add button.
fn schedule_bar(t: &Track) -> Html {
    let s = &t.schedule;
    let add = t
        .on_action
        .reform(|_: MouseEvent| Action::Editor(EditorAction::NewAtClock));
    let selected = s.selected.and_then(|i| s.marks.get(i).map(|m| (i, m)));
    match (&t.editor, selected) {
        (Some(ed), _) => html! {
            <CommandEditorForm editor={ed.clone()} schedule={s.clone()} on_action={t.on_action.clone()} />
        },
        (None, Some((i, m))) => selected_bar(t, i, m, add),
        (None, None) => html! {
            <div class="schedule-bar">
                <button data-testid="schedule-add" onclick={add}>{ "+ schedule a command" }</button>
                <span class="hint" id="schedule-keys">
                    { if s.marks.is_empty() { "or click the track" } else { "or click the track \u{00B7} select a mark to move or edit it" } }
                </span>
            </div>
        },
    }
}

/// The selected command, its edit and delete buttons, the add button and the keys' hint.
fn selected_bar(t: &Track, i: usize, m: &ScheduleMark, add: Callback<MouseEvent>) -> Html {
    let s = &t.schedule;
    let open = t
        .on_action
        .reform(move |_: MouseEvent| Action::Editor(EditorAction::Scheduled(i)));
    let delete = t
        .on_action
        .reform(move |_: MouseEvent| Action::Schedule(ScheduleEdit::Delete(i)));
    html! {
        <div class="schedule-bar">
            <b data-testid="schedule-selected">{ format!("{} at {}", m.what, moment(m.at_ms)) }</b>
            <button data-testid="schedule-edit" onclick={open}>{ "edit\u{2026}" }</button>
            <button data-testid="schedule-delete" class="danger" onclick={delete}>{ "delete" }</button>
            <button data-testid="schedule-add" onclick={add} aria-label="schedule a command">{ "+" }</button>
            <span class="hint" id="schedule-keys" title="drag a mark to move it; double-click it to edit it">
                { format!("\u{2190}\u{2192} {} (shift {}) \u{00B7} \u{2191}\u{2193} choose \u{00B7} Enter edit \u{00B7} Del remove",
                    moment(s.step_ms), moment(s.big_step_ms)) }
            </span>
        </div>
    }
}

/// A callback that carries out an edit of the editor's field, read off the input (its text,
/// or `true`/`false` for a checkbox) or select the event came from. (One copy serves every
/// field: it is not inlined.)
#[inline(never)]
fn typed<E: AsRef<web_sys::Event> + 'static>(
    on: &Callback<Action>,
    field: DraftField,
) -> Callback<E> {
    on.reform(move |e: E| {
        let target = e.as_ref().target();
        let value = target
            .as_ref()
            .and_then(|t| t.dyn_ref::<web_sys::HtmlInputElement>())
            .map(|i| {
                if i.type_() == "checkbox" {
                    i.checked().to_string()
                } else {
                    i.value()
                }
            })
            .or_else(|| {
                target
                    .as_ref()
                    .and_then(|t| t.dyn_ref::<web_sys::HtmlSelectElement>())
                    .map(|s| s.value())
            })
            .unwrap_or_default();
        Action::Editor(EditorAction::Type(field, value))
    })
}

/// The id of a field's problem line, for `aria-describedby`.
fn problem_id(field: DraftField) -> String {
    format!("schedule-problem-{field:?}").to_ascii_lowercase()
}

/// A field's problem, in one line beside it.
fn problem(editor: &CommandEditor, field: DraftField) -> Html {
    match editor.error(field) {
        Some(e) => html! {
            <span class="schedule-problem" id={problem_id(field)} data-testid="schedule-problem" data-field={field.label()}>{ e.reason.clone() }</span>
        },
        None => html! {},
    }
}

/// A field's attributes that tell whether it reads: `aria-invalid` and its problem's id.
fn validity(editor: &CommandEditor, field: DraftField) -> (Option<&'static str>, Option<String>) {
    let invalid = editor.error(field).is_some();
    (
        invalid.then_some("true"),
        invalid.then(|| problem_id(field)),
    )
}

/// Properties of the command editor.
#[derive(Properties, PartialEq)]
struct EditorProps {
    editor: CommandEditor,
    schedule: Rc<Schedule>,
    on_action: Callback<Action>,
}

/// A new command's or a scheduled one's fields, as typed, each problem beside its field.
#[function_component(CommandEditorForm)]
fn command_editor(props: &EditorProps) -> Html {
    let ed = &props.editor;
    let d = &ed.draft;
    let on = &props.on_action;
    let first = use_node_ref();
    {
        let first = first.clone();
        use_effect_with((), move |_| {
            if let Some(el) = first.cast::<web_sys::HtmlElement>() {
                let _ = el.focus();
            }
        });
    }
    let cancel = on.reform(|_: MouseEvent| {
        focus_selected();
        Action::Editor(EditorAction::Close)
    });
    let delete = ed
        .index
        .map(|i| on.reform(move |_: MouseEvent| Action::Schedule(ScheduleEdit::Delete(i))));
    let escape = {
        let on = on.clone();
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Escape" {
                e.stop_propagation();
                on.emit(Action::Editor(EditorAction::Close));
                focus_selected();
            }
        })
    };
    let submit = on.reform(|e: SubmitEvent| {
        e.prevent_default();
        Action::Editor(EditorAction::Submit)
    });
    let kind = maybe(on, |e: Event| {
        let id = e
            .target_unchecked_into::<web_sys::HtmlSelectElement>()
            .value();
        CommandKind::from_id(&id).map(|k| Action::Editor(EditorAction::Kind(k)))
    });
    let title = match ed.index {
        Some(_) => "Change the scheduled command",
        None => "Schedule a command",
    };
    let (at_invalid, at_problem) = validity(ed, DraftField::At);
    html! {
        <form class="schedule-editor" data-testid="schedule-editor" onsubmit={submit} onkeydown={escape} aria-label={title}>
            <label>{ "command " }
                <select ref={first} data-testid="schedule-kind" onchange={kind}>
                    { for CommandKind::ALL.iter().map(|k| html! { <option value={k.id()} selected={*k == d.kind}>{ k.label() }</option> }) }
                </select>
            </label>
            <label>{ "at (ms) " }
                <input type="text" inputmode="numeric" data-testid="schedule-at" value={d.at_ms.clone()} oninput={typed::<InputEvent>(on, DraftField::At)} size="9"
                    aria-invalid={at_invalid} aria-describedby={at_problem} />
                { problem(ed, DraftField::At) }
            </label>
            { command_fields(ed, on, &props.schedule) }
            <button type="submit" class="primary" data-testid="schedule-submit">{ if ed.index.is_some() { "apply" } else { "schedule" } }</button>
            if let Some(delete) = delete {
                <button type="button" class="danger" data-testid="schedule-delete" onclick={delete}>{ "delete" }</button>
            }
            <button type="button" data-testid="schedule-cancel" onclick={cancel}>{ "cancel" }</button>
        </form>
    }
}

/// Gives the keyboard back to the selected mark (an editor closed).
fn focus_selected() {
    let mark = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| {
            d.query_selector("[data-testid=schedule-mark][aria-selected=true]")
                .ok()
                .flatten()
        })
        .and_then(|m| m.dyn_into::<web_sys::HtmlElement>().ok());
    if let Some(mark) = mark {
        let _ = mark.focus();
    }
}

/// The fields the draft's kind of command takes, after its kind and moment.
fn command_fields(ed: &CommandEditor, on: &Callback<Action>, s: &Schedule) -> Html {
    match ed.draft.kind {
        CommandKind::Join => join_fields(ed, on),
        CommandKind::Drain | CommandKind::Crash => member_select(ed, on, &s.members),
        CommandKind::Restart | CommandKind::RollingRestart => restart_fields(ed, on, &s.members),
        CommandKind::CrashZone => zone_select(ed, on, &s.zones),
        CommandKind::CrashLeader => html! {},
    }
}

/// A text field of the editor, as typed, marked when it does not read, with its problem.
fn text_field(
    ed: &CommandEditor,
    on: &Callback<Action>,
    (field, label, testid, size): (DraftField, &str, &str, &str),
    value: &str,
    placeholder: Option<&str>,
) -> Html {
    let (invalid, described) = validity(ed, field);
    let numeric = matches!(field, DraftField::Capacity | DraftField::Down);
    html! {
        <label>{ format!("{label} ") }
            <input type="text" inputmode={numeric.then_some("numeric")} data-testid={testid.to_string()} value={value.to_string()}
                oninput={typed::<InputEvent>(on, field)} size={size.to_string()} placeholder={placeholder.map(str::to_string)}
                aria-invalid={invalid} aria-describedby={described} />
            { problem(ed, field) }
        </label>
    }
}

/// A joining member's name, threads and zone, typed.
fn join_fields(ed: &CommandEditor, on: &Callback<Action>) -> Html {
    let d = &ed.draft;
    html! {
        <>
            { text_field(ed, on, (DraftField::Member, "new member", "schedule-member", "6"), &d.member, None) }
            { text_field(ed, on, (DraftField::Capacity, "threads", "schedule-capacity", "3"), &d.capacity, None) }
            { text_field(ed, on, (DraftField::Zone, "zone", "schedule-zone", "4"), &d.zone, Some("none")) }
        </>
    }
}

/// The member a command is for, chosen; a draft's member no longer listed stays first.
fn member_select(ed: &CommandEditor, on: &Callback<Action>, list: &[String]) -> Html {
    let d = &ed.draft;
    let mut names = list.to_vec();
    if !d.member.is_empty() && !names.contains(&d.member) {
        names.insert(0, d.member.clone());
    }
    html! {
        <label>{ "member " }
            <select data-testid="schedule-member" onchange={typed::<Event>(on, DraftField::Member)}>
                { for names.iter().map(|n| html! { <option value={n.clone()} selected={*n == d.member}>{ n }</option> }) }
            </select>
            { problem(ed, DraftField::Member) }
        </label>
    }
}

/// A restart's member (a rolling one takes all), its time down and whether it keeps its state.
fn restart_fields(ed: &CommandEditor, on: &Callback<Action>, members: &[String]) -> Html {
    let d = &ed.draft;
    html! {
        <>
            if d.kind == CommandKind::Restart { { member_select(ed, on, members) } }
            { text_field(ed, on, (DraftField::Down, "down (ms)", "schedule-down", "7"), &d.down_ms, None) }
            <label class="check">
                <input type="checkbox" data-testid="schedule-keep-state" checked={d.keep_state} onchange={typed::<Event>(on, DraftField::KeepState)} />
                { " keeps its state" }
            </label>
        </>
    }
}

/// The zone a zone crash hits, chosen from the members' zones.
fn zone_select(ed: &CommandEditor, on: &Callback<Action>, zones: &[String]) -> Html {
    let d = &ed.draft;
    html! {
        <label>{ "zone " }
            <select data-testid="schedule-zone" onchange={typed::<Event>(on, DraftField::Zone)}>
                if zones.is_empty() { <option value="">{ "no member has a zone" }</option> }
                { for zones.iter().map(|z| html! { <option value={z.clone()} selected={*z == d.zone}>{ z }</option> }) }
            </select>
            { problem(ed, DraftField::Zone) }
        </label>
    }
}
