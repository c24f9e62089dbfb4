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

use crate::playground::{Action, CommandDraft, CommandKind, Schedule, ScheduleEdit, ScheduleMark};
use crate::views::units::moment;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// Height of a row of marks, in CSS pixels.
const ROW: u32 = 15;

/// Properties of the timeline editor.
#[derive(Properties, PartialEq)]
pub struct ScheduleProps {
    /// The marks, the selection, the steps and the menus.
    pub schedule: Rc<Schedule>,
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

/// The editor open: a new command (no index) or a scheduled one.
#[derive(Clone, PartialEq)]
struct Editor {
    index: Option<usize>,
    draft: CommandDraft,
    problem: Option<String>,
}

/// Where a point of the track is in time, snapped.
fn time_at(track: &NodeRef, client_x: i32, s: &Schedule) -> Option<u64> {
    let el = track.cast::<web_sys::Element>()?;
    let rect = el.get_bounding_client_rect();
    if rect.width() <= 0.0 {
        return None;
    }
    let share = ((f64::from(client_x) - rect.left()) / rect.width()).clamp(0.0, 1.0);
    let ms = (share * s.scale as f64).round() as u64;
    Some((ms + s.snap_ms / 2) / s.snap_ms * s.snap_ms)
}

fn left(at_ms: u64, scale: u64) -> String {
    format!(
        "left: {:.3}%",
        (at_ms as f64 / scale.max(1) as f64 * 100.0).min(100.0)
    )
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
    /// The editor open.
    editor: UseStateHandle<Option<Editor>>,
    /// Set by a keyboard edit, so the redrawn selected mark takes the focus back.
    refocus: Rc<RefCell<bool>>,
    /// Opens the editor on a new command at a moment.
    open_new: Callback<u64>,
    /// Selects a scheduled command and opens the editor on it.
    open_existing: Callback<usize>,
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
    let editor = use_state(|| None::<Editor>);
    let refocus = use_refocus_selected(&node, s);
    {
        // A change the playground accepted changes the commands: the editor's work is done.
        let editor = editor.clone();
        let commands: Vec<_> = s.marks.iter().map(|m| m.command.clone()).collect();
        use_effect_with(commands, move |_| editor.set(None));
    }
    let open_new = {
        let (editor, schedule) = (editor.clone(), s.clone());
        Callback::from(move |at_ms: u64| {
            editor.set(Some(Editor {
                index: None,
                draft: CommandDraft::new(CommandKind::Join, at_ms, &schedule),
                problem: None,
            }))
        })
    };
    let open_existing = {
        let (editor, schedule, on) = (editor.clone(), s.clone(), props.on_action.clone());
        Callback::from(move |index: usize| {
            if let Some(mark) = schedule.marks.get(index) {
                on.emit(Action::Schedule(ScheduleEdit::Select(Some(index))));
                editor.set(Some(Editor {
                    index: Some(index),
                    draft: CommandDraft::of(&mark.command),
                    problem: None,
                }));
            }
        })
    };
    let t = Track {
        schedule: s.clone(),
        on_action: props.on_action.clone(),
        node,
        drag,
        editor,
        refocus,
        open_new,
        open_existing,
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
                        { for s.marks.iter().enumerate().map(|(i, m)| schedule_mark(&t, i, m)) }
                    </div>
                }
            </div>
            { schedule_bar(&t) }
        </div>
    }
}

/// A press of the main button on the track opens the editor on a new command there.
fn track_press(t: &Track) -> Callback<PointerEvent> {
    let (track, schedule, open_new) = (t.node.clone(), t.schedule.clone(), t.open_new.clone());
    Callback::from(move |e: PointerEvent| {
        if e.button() == 0 {
            if let Some(at) = time_at(&track, e.client_x(), &schedule) {
                open_new.emit(at);
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
    let double = t.open_existing.reform(move |_: MouseEvent| i);
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
            style={format!("{}; top: {}px", left(at, s.scale), u32::from(m.row) * ROW)}
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

/// A mark's keys: move it, choose another, delete it, open or close its editor.
fn mark_keys(t: &Track, i: usize) -> Callback<KeyboardEvent> {
    let (on, schedule, refocus, open_existing, editor) = (
        t.on_action.clone(),
        t.schedule.clone(),
        t.refocus.clone(),
        t.open_existing.clone(),
        t.editor.clone(),
    );
    Callback::from(move |e: KeyboardEvent| {
        let count = schedule.marks.len();
        let step = if e.shift_key() {
            schedule.big_step_ms
        } else {
            schedule.step_ms
        };
        let at = schedule.marks.get(i).map_or(0, |m| m.at_ms);
        let action = match e.key().as_str() {
            "ArrowLeft" => Some(ScheduleEdit::Move {
                index: i,
                at_ms: at.saturating_sub(step),
            }),
            "ArrowRight" => Some(ScheduleEdit::Move {
                index: i,
                at_ms: at + step,
            }),
            "ArrowUp" => Some(ScheduleEdit::Select(Some(i.saturating_sub(1)))),
            "ArrowDown" => Some(ScheduleEdit::Select(Some((i + 1).min(count - 1)))),
            "Home" => Some(ScheduleEdit::Select(Some(0))),
            "End" => Some(ScheduleEdit::Select(Some(count - 1))),
            "Delete" | "Backspace" => Some(ScheduleEdit::Delete(i)),
            "Enter" | " " => {
                e.prevent_default();
                e.stop_propagation();
                open_existing.emit(i);
                None
            }
            "Escape" => {
                editor.set(None);
                Some(ScheduleEdit::Select(None))
            }
            _ => return,
        };
        e.prevent_default();
        e.stop_propagation();
        if let Some(action) = action {
            *refocus.borrow_mut() = true;
            on.emit(Action::Schedule(action));
        }
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
    let clock = s.clock;
    let add = t.open_new.reform(move |_: MouseEvent| clock);
    let selected = s.selected.and_then(|i| s.marks.get(i).map(|m| (i, m)));
    match (&*t.editor, selected) {
        (Some(ed), _) => html! {
            <CommandEditor editor={ed.clone()} schedule={s.clone()} on_action={t.on_action.clone()} editor_state={t.editor.clone()} />
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
    let open = t.open_existing.reform(move |_: MouseEvent| i);
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

/// A callback that stores a field of the editor's draft, read off the input (its text, or
/// `true`/`false` for a checkbox) or select the event came from. (One copy serves every
/// field: it is not inlined.)
#[inline(never)]
fn draft_field<E: AsRef<web_sys::Event> + 'static>(
    state: &UseStateHandle<Option<Editor>>,
    f: fn(&mut CommandDraft, String),
) -> Callback<E> {
    let state = state.clone();
    Callback::from(move |e: E| {
        let Some(mut next) = (*state).clone() else {
            return;
        };
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
        f(&mut next.draft, value);
        next.problem = None;
        state.set(Some(next));
    })
}

/// Properties of the command editor.
#[derive(Properties, PartialEq)]
struct EditorProps {
    editor: Editor,
    schedule: Rc<Schedule>,
    on_action: Callback<Action>,
    editor_state: UseStateHandle<Option<Editor>>,
}

/// A new command's or a scheduled one's fields, checked when submitted.
#[function_component(CommandEditor)]
fn command_editor(props: &EditorProps) -> Html {
    let ed = &props.editor;
    let d = &ed.draft;
    let state = &props.editor_state;
    let first = use_node_ref();
    {
        let first = first.clone();
        use_effect_with((), move |_| {
            if let Some(el) = first.cast::<web_sys::HtmlElement>() {
                let _ = el.focus();
            }
        });
    }
    let cancel = {
        let state = state.clone();
        Callback::from(move |_: MouseEvent| {
            state.set(None);
            focus_selected();
        })
    };
    let delete = ed.index.map(|i| {
        props
            .on_action
            .reform(move |_: MouseEvent| Action::Schedule(ScheduleEdit::Delete(i)))
    });
    let escape = {
        let state = state.clone();
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Escape" {
                e.stop_propagation();
                state.set(None);
                focus_selected();
            }
        })
    };
    let title = match ed.index {
        Some(_) => "Change the scheduled command",
        None => "Schedule a command",
    };
    html! {
        <form class="schedule-editor" data-testid="schedule-editor" onsubmit={editor_submit(props)} onkeydown={escape} aria-label={title}>
            <label>{ "command " }
                <select ref={first} data-testid="schedule-kind" onchange={kind_change(state, &props.schedule)}>
                    { for CommandKind::ALL.iter().map(|k| html! { <option value={k.id()} selected={*k == d.kind}>{ k.label() }</option> }) }
                </select>
            </label>
            <label>{ "at (ms) " }
                <input type="text" inputmode="numeric" data-testid="schedule-at" value={d.at_ms.clone()} oninput={draft_field::<InputEvent>(state, |d, v| d.at_ms = v)} size="9" />
            </label>
            { command_fields(d, state, &props.schedule) }
            <button type="submit" class="primary" data-testid="schedule-submit">{ if ed.index.is_some() { "apply" } else { "schedule" } }</button>
            if let Some(delete) = delete {
                <button type="button" class="danger" data-testid="schedule-delete" onclick={delete}>{ "delete" }</button>
            }
            <button type="button" data-testid="schedule-cancel" onclick={cancel}>{ "cancel" }</button>
            if let Some(problem) = &ed.problem {
                <span class="schedule-problem" role="alert" data-testid="schedule-problem">{ problem.clone() }</span>
            }
        </form>
    }
}

/// Another kind chosen: a fresh draft of that kind, keeping the moment typed.
fn kind_change(state: &UseStateHandle<Option<Editor>>, schedule: &Rc<Schedule>) -> Callback<Event> {
    let (state, schedule) = (state.clone(), schedule.clone());
    Callback::from(move |e: Event| {
        let Some(mut next) = (*state).clone() else {
            return;
        };
        let id = e
            .target_unchecked_into::<web_sys::HtmlSelectElement>()
            .value();
        if let Some(kind) = CommandKind::from_id(&id) {
            let at = next.draft.at_ms.trim().parse().unwrap_or(schedule.clock);
            next.draft = CommandDraft {
                at_ms: next.draft.at_ms.clone(),
                ..CommandDraft::new(kind, at, &schedule)
            };
            next.problem = None;
            state.set(Some(next));
        }
    })
}

/// Submitting the draft: an unchanged command just closes, a good one is sent, a bad one says why.
fn editor_submit(props: &EditorProps) -> Callback<SubmitEvent> {
    let ed = &props.editor;
    let (state, on, editor) = (
        props.editor_state.clone(),
        props.on_action.clone(),
        ed.clone(),
    );
    let original = ed.index.and_then(|i| {
        props
            .schedule
            .marks
            .get(i)
            .map(|m| CommandDraft::of(&m.command))
    });
    Callback::from(move |e: SubmitEvent| {
        e.prevent_default();
        match editor.draft.command() {
            Ok(_) if original.as_ref() == Some(&editor.draft) => state.set(None),
            Ok(command) => on.emit(Action::Schedule(match editor.index {
                Some(index) => ScheduleEdit::Replace { index, command },
                None => ScheduleEdit::Add(command),
            })),
            Err(problem) => state.set(Some(Editor {
                problem: Some(problem),
                ..editor.clone()
            })),
        }
    })
}

/// The fields the draft's kind of command takes, after its kind and moment.
fn command_fields(d: &CommandDraft, state: &UseStateHandle<Option<Editor>>, s: &Schedule) -> Html {
    match d.kind {
        CommandKind::Join => join_fields(d, state),
        CommandKind::Drain | CommandKind::Crash => member_select(d, state, &s.members),
        CommandKind::Restart | CommandKind::RollingRestart => restart_fields(d, state, &s.members),
        CommandKind::CrashZone => zone_select(d, state, &s.zones),
        CommandKind::CrashLeader => html! {},
    }
}

/// A joining member's name, threads and zone, typed.
fn join_fields(d: &CommandDraft, state: &UseStateHandle<Option<Editor>>) -> Html {
    let typed = |f: fn(&mut CommandDraft, String)| draft_field::<InputEvent>(state, f);
    html! {
        <>
            <label>{ "new member " }
                <input type="text" data-testid="schedule-member" value={d.member.clone()} oninput={typed(|d, v| d.member = v)} size="6" />
            </label>
            <label>{ "threads " }
                <input type="text" inputmode="numeric" data-testid="schedule-capacity" value={d.capacity.clone()} oninput={typed(|d, v| d.capacity = v)} size="3" />
            </label>
            <label>{ "zone " }
                <input type="text" data-testid="schedule-zone" value={d.zone.clone()} oninput={typed(|d, v| d.zone = v)} size="4" placeholder="none" />
            </label>
        </>
    }
}

/// The member a command is for, chosen; a draft's member no longer listed stays first.
fn member_select(
    d: &CommandDraft,
    state: &UseStateHandle<Option<Editor>>,
    list: &[String],
) -> Html {
    let mut names = list.to_vec();
    if !d.member.is_empty() && !names.contains(&d.member) {
        names.insert(0, d.member.clone());
    }
    html! {
        <label>{ "member " }
            <select data-testid="schedule-member" onchange={draft_field::<Event>(state, |d, v| d.member = v)}>
                { for names.iter().map(|n| html! { <option value={n.clone()} selected={*n == d.member}>{ n }</option> }) }
            </select>
        </label>
    }
}

/// A restart's member (a rolling one takes all), its time down and whether it keeps its state.
fn restart_fields(
    d: &CommandDraft,
    state: &UseStateHandle<Option<Editor>>,
    members: &[String],
) -> Html {
    html! {
        <>
            if d.kind == CommandKind::Restart { { member_select(d, state, members) } }
            <label>{ "down (ms) " }
                <input type="text" inputmode="numeric" data-testid="schedule-down" value={d.down_ms.clone()} oninput={draft_field::<InputEvent>(state, |d, v| d.down_ms = v)} size="7" />
            </label>
            <label class="check">
                <input type="checkbox" data-testid="schedule-keep-state" checked={d.keep_state} onchange={draft_field::<Event>(state, |d, v| d.keep_state = v == "true")} />
                { " keeps its state" }
            </label>
        </>
    }
}

/// The zone a zone crash hits, chosen from the members' zones.
fn zone_select(d: &CommandDraft, state: &UseStateHandle<Option<Editor>>, zones: &[String]) -> Html {
    html! {
        <label>{ "zone " }
            <select data-testid="schedule-zone" onchange={draft_field::<Event>(state, |d, v| d.zone = v)}>
                if zones.is_empty() { <option value="">{ "no member has a zone" }</option> }
                { for zones.iter().map(|z| html! { <option value={z.clone()} selected={*z == d.zone}>{ z }</option> }) }
            </select>
        </label>
    }
}
