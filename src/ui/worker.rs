//! The page's end of the simulation worker (docs/design.md, "Off the page's thread"): it
//! starts the worker on the page's own compiled wasm (`static/worker.js` instantiates it),
//! sends the playground's requests as bytes, and hands each reply back as an action. Nothing
//! here decides anything.

use crate::playground::wire::{decode, encode, Reply, Request};
use crate::playground::Action;
use std::cell::RefCell;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use yew::Callback;

#[wasm_bindgen]
extern "C" {
    /// The address of the page's wasm loader (the worker imports the same one).
    #[wasm_bindgen(thread_local_v2, js_namespace = ["import", "meta"], js_name = url)]
    static LOADER_URL: String;
}

/// The message a worker sends once its wasm runs and it listens.
pub const READY: &str = "ready";

/// The worker's script, beside the page.
const SCRIPT: &str = "./worker.js";

/// A worker and what waits for it.
struct Bridge {
    worker: web_sys::Worker,
    /// It listens (until then requests wait in `queue`).
    ready: bool,
    queue: Vec<js_sys::Uint8Array>,
    /// Who takes the replies (until then they wait in `replies`).
    on_reply: Option<Callback<Action>>,
    replies: Vec<Reply>,
    _on_message: Closure<dyn FnMut(web_sys::MessageEvent)>,
    _on_error: Closure<dyn FnMut(web_sys::ErrorEvent)>,
}

thread_local! {
    static BRIDGE: RefCell<Option<Bridge>> = const { RefCell::new(None) };
}

/// Starts a worker on the page's wasm: it is sent the compiled module and the loader's
/// address; `on_message` takes what it sends, `on_error` why it failed.
pub fn spawn(
    on_message: &Closure<dyn FnMut(web_sys::MessageEvent)>,
    on_error: &Closure<dyn FnMut(web_sys::ErrorEvent)>,
) -> Option<web_sys::Worker> {
    let options = web_sys::WorkerOptions::new();
    options.set_type(web_sys::WorkerType::Module);
    let worker = web_sys::Worker::new_with_options(SCRIPT, &options).ok()?;
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    let start = js_sys::Object::new();
    js_sys::Reflect::set(&start, &"module".into(), &wasm_bindgen::module()).ok()?;
    let loader = LOADER_URL.with(|url| JsValue::from_str(url));
    js_sys::Reflect::set(&start, &"glue".into(), &loader).ok()?;
    worker.post_message(&start).ok()?;
    Some(worker)
}

/// Bytes as a message, their buffer transferred rather than copied.
pub fn post(worker: &web_sys::Worker, bytes: &js_sys::Uint8Array) {
    let _ = worker.post_message_with_transfer(bytes, &js_sys::Array::of1(&bytes.buffer()));
}

/// A message's bytes.
pub fn bytes(data: &JsValue) -> Vec<u8> {
    js_sys::Uint8Array::new(data).to_vec()
}

fn bridge() -> Option<Bridge> {
    let on_message =
        Closure::<dyn FnMut(web_sys::MessageEvent)>::new(|e: web_sys::MessageEvent| {
            let data = e.data();
            if data.as_string().as_deref() == Some(READY) {
                BRIDGE.with(|b| {
                    if let Some(b) = b.borrow_mut().as_mut() {
                        b.ready = true;
                        for bytes in b.queue.drain(..) {
                            post(&b.worker, &bytes);
                        }
                    }
                });
                return;
            }
            let reply = match decode::<Reply>(&bytes(&data)) {
                Ok(reply) => reply,
                Err(e) => return fail(&e.to_string()),
            };
            deliver(reply);
        });
    let on_error = Closure::<dyn FnMut(web_sys::ErrorEvent)>::new(|e: web_sys::ErrorEvent| {
        fail(&format!("the simulation stopped: {}", e.message()));
    });
    let worker = spawn(&on_message, &on_error)?;
    Some(Bridge {
        worker,
        ready: false,
        queue: Vec::new(),
        on_reply: None,
        replies: Vec::new(),
        _on_message: on_message,
        _on_error: on_error,
    })
}

/// Hands a reply to the playground, or keeps it until the page listens.
fn deliver(reply: Reply) {
    let to = BRIDGE.with(|b| {
        let mut b = b.borrow_mut();
        let b = b.as_mut()?;
        match &b.on_reply {
            Some(on) => Some(on.clone()),
            None => {
                b.replies.push(reply.clone());
                None
            }
        }
    });
    if let Some(on) = to {
        on.emit(Action::Reply(reply));
    }
}

/// What went wrong with the worker, on the page's error line.
fn fail(message: &str) {
    web_sys::console::warn_1(&message.into());
    let to = BRIDGE.with(|b| b.borrow().as_ref().and_then(|b| b.on_reply.clone()));
    if let Some(on) = to {
        on.emit(Action::Error(message.to_string()));
    }
}

/// Sends a request to the simulation worker (started at the first).
pub fn send(request: &Request) {
    let bytes = js_sys::Uint8Array::from(encode(request).as_slice());
    BRIDGE.with(|b| {
        let mut b = b.borrow_mut();
        if b.is_none() {
            *b = bridge();
        }
        match b.as_mut() {
            Some(b) if b.ready => post(&b.worker, &bytes),
            Some(b) => b.queue.push(bytes),
            None => web_sys::console::warn_1(&"the simulation worker could not start".into()),
        }
    });
}

/// The page listens to the worker's replies from now on (those that came before first).
pub fn start(on_reply: Callback<Action>) {
    let waiting = BRIDGE.with(|b| {
        let mut b = b.borrow_mut();
        if b.is_none() {
            *b = bridge();
        }
        b.as_mut().map(|b| {
            b.on_reply = Some(on_reply.clone());
            std::mem::take(&mut b.replies)
        })
    });
    for reply in waiting.into_iter().flatten() {
        on_reply.emit(Action::Reply(reply));
    }
}
