//! The hooks that connect the playground to the browser: the playground held behind a hook
//! (actions in, effects carried out, a redraw after each), the animation-frame clock, and
//! the keyboard shortcuts' listener.

use super::{dom, worker};
use crate::playground::keys::{shortcut, Context, Target};
use crate::playground::{Action, Effect, Playback, Playground, Redraw};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use web_sys::Element;
use yew::prelude::*;

/// The playground, shared by the page's callbacks.
pub type Shared = Rc<RefCell<Playground>>;

/// How long the session must be left alone before it is saved: a scrub or a run of clicks
/// saves once, not on every step (saving encodes the whole history).
const SAVE_AFTER_MS: u32 = 400;

/// The User Timing names of the page's work (see [`dom::mark`]): the playground acting on
/// an action (on a frame, the engine's run up to the new clock), the app reading its views
/// and building its tree, and the components' render up to the app's effects (the children's
/// views, Yew's reconcile with the page, the canvases drawn).
pub const ACT: &str = "handoff:act";
/// See [`ACT`].
pub const VIEW: &str = "handoff:view";
/// See [`ACT`].
pub const RENDER: &str = "handoff:render";

/// A save waiting for a quiet moment.
type PendingSave = Rc<RefCell<Option<gloo_timers::callback::Timeout>>>;

/// Saves the session now: its JSON, or compressed if the storage has no room for that.
fn save(shared: &Shared) {
    let playground = shared.borrow();
    if let Some(text) = playground.autosave_text() {
        if !dom::save_session(&text) {
            if let Some(compressed) = playground.autosave_compressed() {
                dom::save_session(&compressed);
            }
        }
    }
}

/// Carries out what an action asked of the browser.
fn run(shared: &Shared, pending: &PendingSave, effects: Vec<Effect>) {
    for effect in effects {
        match effect {
            Effect::Autosave => {
                let (shared, slot) = (shared.clone(), pending.clone());
                let timeout = gloo_timers::callback::Timeout::new(SAVE_AFTER_MS, move || {
                    slot.borrow_mut().take();
                    save(&shared);
                });
                // Replacing a pending save cancels it: the later one saves the later state.
                *pending.borrow_mut() = Some(timeout);
            }
            Effect::SetAside(text) => dom::set_aside(&text),
            Effect::SavePreferences(p) => dom::save_preferences(&p),
            Effect::ReplaceFragment(f) => dom::replace_fragment(&f),
            Effect::Copy(text) => dom::copy(&text),
            Effect::Download { name, mime, text } => dom::download_text(&name, &mime, &text),
            Effect::Send(request) => worker::send(&request),
            Effect::SweepSend { slot, request } => worker::send_sweep(slot, &request),
            Effect::SweepStop => worker::stop_sweep(),
        }
    }
}

/// The playground behind a hook: `init` builds it once; every action is carried out by
/// [`Playground::act`], its effects are run, and the page is drawn again. The callback is
/// made once, so props holding it compare equal from one frame to the next.
#[hook]
pub fn use_playground<F>(init: F) -> (Shared, Callback<Action>)
where
    F: FnOnce() -> (Playground, Vec<Effect>) + 'static,
{
    let started = use_memo((), move |_| {
        let (playground, effects) = init();
        (Rc::new(RefCell::new(playground)), RefCell::new(effects))
    });
    let shared = started.0.clone();
    let pending: PendingSave = use_mut_ref(|| None);
    {
        let (started, pending) = (started.clone(), pending.clone());
        use_effect_with((), move |_| {
            let effects = std::mem::take(&mut *started.1.borrow_mut());
            run(&started.0, &pending, effects);
            // A save still waiting when the page goes away is made at once.
            let shared = started.0.clone();
            let listener = web_sys::window().map(|w| {
                gloo_events::EventListener::new(&w, "pagehide", move |_| {
                    if pending.borrow_mut().take().is_some() {
                        save(&shared);
                    }
                })
            });
            move || drop(listener)
        });
    }
    let redraw = use_force_update();
    let next_frame = use_mut_ref(|| None::<gloo_render::AnimationFrame>);
    let dispatch = use_memo((), {
        let (shared, pending) = (shared.clone(), pending.clone());
        move |_| {
            Callback::from(move |action: Action| {
                dom::mark(ACT);
                let when = action.redraw(shared.borrow().playing());
                let effects = shared.borrow_mut().act(action);
                dom::measure(ACT);
                run(&shared, &pending, effects);
                match when.settled(shared.borrow().waiting()) {
                    Redraw::Now => {
                        // A frame asked for earlier has nothing left to draw.
                        next_frame.borrow_mut().take();
                        redraw.force_update();
                    }
                    Redraw::NextFrame if next_frame.borrow().is_none() => {
                        let (redraw, slot) = (redraw.clone(), next_frame.clone());
                        *next_frame.borrow_mut() =
                            Some(gloo_render::request_animation_frame(move |_| {
                                slot.borrow_mut().take();
                                redraw.force_update();
                            }));
                    }
                    Redraw::NextFrame | Redraw::No => {}
                }
            })
        }
    });
    // The worker's replies are actions too; it is started once, with this callback.
    use_effect_with((), {
        let dispatch = (*dispatch).clone();
        move |_| worker::start(dispatch)
    });
    (shared, (*dispatch).clone())
}

/// Drives the clock with animation frames while playing.
#[hook]
pub fn use_playback(playing: bool, dispatch: Callback<Action>) {
    let frame = use_mut_ref(|| None::<gloo_render::AnimationFrame>);
    use_effect_with(playing, move |&playing| {
        fn arm(slot: Rc<RefCell<Option<gloo_render::AnimationFrame>>>, d: Callback<Action>) {
            let again = slot.clone();
            *slot.borrow_mut() = Some(gloo_render::request_animation_frame(move |ts| {
                d.emit(Action::Playback(Playback::Frame(ts)));
                arm(again, d);
            }));
        }
        if playing {
            arm(frame.clone(), dispatch);
        } else {
            frame.borrow_mut().take();
        }
        move || {
            frame.borrow_mut().take();
        }
    });
}

/// The member whose tile or card has the focus, if one has.
fn focused_member() -> Option<String> {
    web_sys::window()?
        .document()?
        .active_element()?
        .closest("[data-member-id]")
        .ok()??
        .get_attribute("data-member-id")
}

/// Keyboard shortcuts on the window, as the playground reads them ([`keys::shortcut`]).
#[hook]
pub fn use_shortcuts(enabled: bool, help: bool, dispatch: Callback<Action>) {
    use_effect_with((enabled, help), move |&(enabled, help)| {
        let listener = web_sys::window().map(|w| {
            gloo_events::EventListener::new_with_options(
                &w,
                "keydown",
                gloo_events::EventListenerOptions::enable_prevent_default(),
                move |e| {
                    let Some(key) = e.dyn_ref::<web_sys::KeyboardEvent>() else {
                        return;
                    };
                    let tag = e
                        .target()
                        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                        .map(|t| t.tag_name().to_ascii_lowercase())
                        .unwrap_or_default();
                    let target = match tag.as_str() {
                        "input" | "select" | "textarea" => Target::Field,
                        "button" => Target::Button,
                        _ => Target::Other,
                    };
                    let context = Context {
                        help,
                        focused_member: focused_member(),
                        target,
                    };
                    let modified = key.ctrl_key() || key.meta_key() || key.alt_key();
                    if let Some(action) = shortcut(&key.key(), modified, enabled, &context) {
                        e.prevent_default();
                        dispatch.emit(action);
                    }
                },
            )
        });
        move || drop(listener)
    });
}

/// A callback that carries out the action `f` makes of an event, if it makes one.
pub fn maybe<E: 'static>(
    on: &Callback<Action>,
    f: impl Fn(E) -> Option<Action> + 'static,
) -> Callback<E> {
    let on = on.clone();
    Callback::from(move |e| {
        if let Some(action) = f(e) {
            on.emit(action);
        }
    })
}

/// An element's width, from a ResizeObserver (at least 200 px): reading clientWidth while
/// drawing each frame would force the browser to lay out the whole page first.
#[hook]
pub fn use_width(node: &NodeRef) -> f64 {
    let width = use_state_eq(|| 0.0f64);
    {
        let (node, width) = (node.clone(), width.clone());
        use_effect_with((), move |_| {
            let observer = node.cast::<Element>().and_then(|c| {
                let on_resize = wasm_bindgen::prelude::Closure::<dyn FnMut(js_sys::Array)>::new(
                    move |entries: js_sys::Array| {
                        if let Ok(entry) = entries.get(0).dyn_into::<web_sys::ResizeObserverEntry>()
                        {
                            width.set(entry.content_rect().width().max(200.0));
                        }
                    },
                );
                let observer =
                    web_sys::ResizeObserver::new(on_resize.as_ref().unchecked_ref()).ok()?;
                observer.observe(&c);
                Some((observer, on_resize))
            });
            move || {
                if let Some((observer, _on_resize)) = observer {
                    observer.disconnect();
                }
            }
        });
    }
    *width
}

/// Whether any of an element is in the view, from an IntersectionObserver (`None` until it
/// first reports): a part below the fold can leave its drawing as it was until it is
/// scrolled to.
#[hook]
pub fn use_in_view(node: &NodeRef) -> Option<bool> {
    let in_view = use_state_eq(|| None);
    {
        let (node, in_view) = (node.clone(), in_view.clone());
        use_effect_with((), move |_| {
            let observer = node.cast::<Element>().and_then(|e| {
                let on_cross = wasm_bindgen::prelude::Closure::<dyn FnMut(js_sys::Array)>::new(
                    move |entries: js_sys::Array| {
                        // The last entry is the element's state now.
                        let last = entries.get(entries.length().saturating_sub(1));
                        if let Ok(entry) = last.dyn_into::<web_sys::IntersectionObserverEntry>() {
                            in_view.set(Some(entry.is_intersecting()));
                        }
                    },
                );
                let observer =
                    web_sys::IntersectionObserver::new(on_cross.as_ref().unchecked_ref()).ok()?;
                observer.observe(&e);
                Some((observer, on_cross))
            });
            move || {
                if let Some((observer, _on_cross)) = observer {
                    observer.disconnect();
                }
            }
        });
    }
    *in_view
}
