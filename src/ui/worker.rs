//! The page's end of its workers (docs/design.md, "Off the page's thread"): the simulation's
//! and a sweep's, each started on the page's own compiled wasm (`static/worker.js`
//! instantiates it). It sends the playground's requests as bytes and hands each reply back as
//! an action. Nothing here decides anything.

use crate::playground::wire::{decode, encode, Reply, Request};
use crate::playground::Action;
use std::cell::RefCell;
use std::collections::VecDeque;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use yew::Callback;

#[wasm_bindgen]
extern "C" {
    /// The address of the page's wasm loader (a worker imports the same one).
    #[wasm_bindgen(thread_local_v2, js_namespace = ["import", "meta"], js_name = url)]
    static LOADER_URL: String;
}

/// The message a worker sends once its wasm runs and it listens.
pub const READY: &str = "ready";

/// A reply of this many bytes or more is handed to the playground in a task after the one
/// that decoded it (a moment of hundreds of cards).
const LARGE_REPLY: usize = 64 * 1024;

/// The workers' script, beside the page.
const SCRIPT: &str = "./worker.js";

/// Which worker: the simulation's, or a sweep's by its slot.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Which {
    Simulation,
    Sweep(usize),
}

/// A worker and the requests waiting until it listens.
struct Link {
    worker: web_sys::Worker,
    ready: bool,
    queue: Vec<js_sys::Uint8Array>,
    _on_message: Closure<dyn FnMut(web_sys::MessageEvent)>,
    _on_error: Closure<dyn FnMut(web_sys::ErrorEvent)>,
}

/// The page's workers, and who takes their replies (until then the replies wait).
#[derive(Default)]
struct Workers {
    simulation: Option<Link>,
    sweep: Vec<Option<Link>>,
    on_reply: Option<Callback<Action>>,
    replies: Vec<Reply>,
    /// Replies decoded and waiting for their turn ([`deliver_in_turn`]).
    deferred: VecDeque<Reply>,
}

thread_local! {
    static WORKERS: RefCell<Workers> = RefCell::new(Workers::default());
}

impl Workers {
    fn link(&mut self, which: Which) -> &mut Option<Link> {
        match which {
            Which::Simulation => &mut self.simulation,
            Which::Sweep(slot) => {
                if self.sweep.len() <= slot {
                    self.sweep.resize_with(slot + 1, || None);
                }
                &mut self.sweep[slot]
            }
        }
    }
}

/// Bytes as a message, their buffer transferred rather than copied.
fn post(worker: &web_sys::Worker, bytes: &js_sys::Uint8Array) {
    let _ = worker.post_message_with_transfer(bytes, &js_sys::Array::of1(&bytes.buffer()));
}

/// A message's bytes.
pub fn bytes(data: &JsValue) -> Vec<u8> {
    js_sys::Uint8Array::new(data).to_vec()
}

/// Starts a worker on the page's wasm: it is sent the compiled module and the loader's address.
fn start_link(which: Which) -> Option<Link> {
    let on_message =
        Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
            let data = e.data();
            if data.as_string().as_deref() == Some(READY) {
                return ready(which);
            }
            let bytes = bytes(&data);
            match decode::<Reply>(&bytes) {
                Ok(reply) => deliver_in_turn(reply, bytes.len() >= LARGE_REPLY),
                Err(e) => fail(&e.to_string()),
            }
        });
    let on_error = Closure::<dyn FnMut(web_sys::ErrorEvent)>::new(|e: web_sys::ErrorEvent| {
        fail(&format!("a worker of the page stopped: {}", e.message()));
    });
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
    Some(Link {
        worker,
        ready: false,
        queue: Vec::new(),
        _on_message: on_message,
        _on_error: on_error,
    })
}

/// A worker listens: the requests that waited for it go.
fn ready(which: Which) {
    WORKERS.with(|w| {
        if let Some(link) = w.borrow_mut().link(which).as_mut() {
            link.ready = true;
            for bytes in link.queue.drain(..) {
                post(&link.worker, &bytes);
            }
        }
    });
}

/// Hands a reply to the playground now, or, if `large` or if others wait, in a task of its
/// own after those: decoding a large group's moment and drawing it take a task each, not one
/// that holds the page over 50 ms. The replies keep their order.
fn deliver_in_turn(reply: Reply, large: bool) {
    let first = WORKERS.with(|w| {
        let mut w = w.borrow_mut();
        if !large && w.deferred.is_empty() {
            return Some(reply);
        }
        w.deferred.push_back(reply);
        if w.deferred.len() == 1 {
            next_deferred();
        }
        None
    });
    if let Some(reply) = first {
        deliver(reply);
    }
}

/// Delivers the first reply that waits, in a task of its own, and then the next.
fn next_deferred() {
    gloo_timers::callback::Timeout::new(0, || {
        let (reply, more) = WORKERS.with(|w| {
            let mut w = w.borrow_mut();
            let reply = w.deferred.pop_front();
            (reply, !w.deferred.is_empty())
        });
        if let Some(reply) = reply {
            deliver(reply);
        }
        if more {
            next_deferred();
        }
    })
    .forget();
}

/// Hands a reply to the playground, or keeps it until the page listens.
fn deliver(reply: Reply) {
    let to = WORKERS.with(|w| {
        let mut w = w.borrow_mut();
        match &w.on_reply {
            Some(on) => Some(on.clone()),
            None => {
                w.replies.push(reply.clone());
                None
            }
        }
    });
    if let Some(on) = to {
        on.emit(Action::Reply(reply));
    }
}

/// What went wrong with a worker, on the page's error line.
fn fail(message: &str) {
    let to = WORKERS.with(|w| w.borrow().on_reply.clone());
    if let Some(on) = to {
        on.emit(Action::Error(message.to_string()));
    }
}

/// Sends a request to a worker, started at the first.
fn send_to(which: Which, request: &Request) {
    let bytes = js_sys::Uint8Array::from(encode(request).as_slice());
    WORKERS.with(|w| {
        let mut w = w.borrow_mut();
        let link = w.link(which);
        if link.is_none() {
            *link = start_link(which);
        }
        match link.as_mut() {
            Some(l) if l.ready => post(&l.worker, &bytes),
            Some(l) => l.queue.push(bytes),
            None => web_sys::console::warn_1(&"a worker of the page could not start".into()),
        }
    });
}

/// Sends a request to the simulation worker.
pub fn send(request: &Request) {
    send_to(Which::Simulation, request);
}

/// Sends a cell to the sweep's worker `slot`.
pub fn send_sweep(slot: usize, request: &Request) {
    send_to(Which::Sweep(slot), request);
}

/// Stops the sweep's workers: what they run is dropped (they start again at the next sweep).
pub fn stop_sweep() {
    let stopped = WORKERS.with(|w| std::mem::take(&mut w.borrow_mut().sweep));
    for link in stopped.into_iter().flatten() {
        link.worker.terminate();
    }
}

/// The page listens to the workers' replies from now on (those that came before first).
pub fn start(on_reply: Callback<Action>) {
    let waiting = WORKERS.with(|w| {
        let mut w = w.borrow_mut();
        w.on_reply = Some(on_reply.clone());
        std::mem::take(&mut w.replies)
    });
    for reply in waiting {
        on_reply.emit(Action::Reply(reply));
    }
}
