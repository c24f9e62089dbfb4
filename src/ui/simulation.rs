//! The simulation worker's driver (docs/design.md, "Off the page's thread"): it runs in a
//! Web Worker on the page's own wasm, hands each request the page sends to the
//! [`Simulation`], posts the replies, and between messages gives the simulation slices of
//! about [`SLICE_MS`] to compute ahead. Nothing here decides anything.

use super::worker::{bytes, READY};
use crate::playground::wire::{decode, in_parts, Body, Reply, Request, PARTS_OVER};
use crate::playground::Simulation;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::DedicatedWorkerGlobalScope;

/// How long a slice of computing ahead goes on before the worker looks at its messages (ms).
const SLICE_MS: f64 = 8.0;

/// The steps of one call of [`Simulation::work`] within a slice.
const STEPS: usize = 4;

/// How often the page hears how far the histories are computed, at most (ms).
const PROGRESS_EVERY_MS: f64 = 100.0;

/// The worker's state.
struct Driver {
    simulation: Simulation,
    scope: DedicatedWorkerGlobalScope,
    /// A slice is scheduled.
    scheduled: bool,
    /// When the page last heard the progress, and the latest it has not heard.
    progress: (f64, Option<Reply>),
    /// Schedules a slice without a timer's delay (a message to itself).
    channel: web_sys::MessageChannel,
}

/// Runs the worker: listens to the page, and tells it so.
pub fn run() {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let Ok(channel) = web_sys::MessageChannel::new() else {
        return;
    };
    let driver = Rc::new(RefCell::new(Driver {
        simulation: Simulation::new(),
        scope: scope.clone(),
        scheduled: false,
        progress: (0.0, None),
        channel,
    }));
    let on_slice = {
        let driver = driver.clone();
        Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |_| slice(&driver))
    };
    driver
        .borrow()
        .channel
        .port1()
        .set_onmessage(Some(on_slice.as_ref().unchecked_ref()));
    on_slice.forget();
    let on_message = {
        let driver = driver.clone();
        Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
            let Ok(request) = decode::<Request>(&bytes(&e.data())) else {
                return;
            };
            let replies = driver.borrow_mut().simulation.handle(request);
            post_all(&driver, replies);
            schedule(&driver);
        })
    };
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    let _ = scope.post_message(&JsValue::from_str(READY));
}

/// A slice is run next, after the messages already waiting.
fn schedule(driver: &Rc<RefCell<Driver>>) {
    let mut d = driver.borrow_mut();
    if !d.scheduled {
        d.scheduled = true;
        let _ = d.channel.port2().post_message(&JsValue::NULL);
    }
}

/// Computes for about [`SLICE_MS`], posting what it says; schedules the next slice if there
/// is more to do.
fn slice(driver: &Rc<RefCell<Driver>>) {
    driver.borrow_mut().scheduled = false;
    let start = js_sys::Date::now();
    loop {
        let (replies, more) = driver.borrow_mut().simulation.work(STEPS);
        post_all(driver, replies);
        if !more {
            flush_progress(driver);
            return;
        }
        if js_sys::Date::now() - start >= SLICE_MS {
            schedule(driver);
            return;
        }
    }
}

/// Posts replies; one saying only how far the histories are computed waits if the page heard
/// that less than [`PROGRESS_EVERY_MS`] ago (a later one replaces it).
fn post_all(driver: &Rc<RefCell<Driver>>, replies: Vec<Reply>) {
    let mut d = driver.borrow_mut();
    for reply in replies {
        let now = js_sys::Date::now();
        let progress_only = matches!(reply.body, Body::Progress) && reply.history.is_none();
        if progress_only && now - d.progress.0 < PROGRESS_EVERY_MS {
            d.progress.1 = Some(reply);
            continue;
        }
        // Whatever is posted says how far the histories are computed now: an older
        // progress that waited would say less.
        d.progress = (if progress_only { now } else { d.progress.0 }, None);
        post(&d.scope, reply);
    }
}

/// Posts the progress that waited, once the worker has nothing more to do.
fn flush_progress(driver: &Rc<RefCell<Driver>>) {
    let mut d = driver.borrow_mut();
    if let Some(reply) = d.progress.1.take() {
        d.progress.0 = js_sys::Date::now();
        post(&d.scope, reply);
    }
}

fn post(scope: &DedicatedWorkerGlobalScope, reply: Reply) {
    for message in in_parts(reply, PARTS_OVER) {
        let bytes = js_sys::Uint8Array::from(message.as_slice());
        let _ = scope.post_message_with_transfer(&bytes, &js_sys::Array::of1(&bytes.buffer()));
    }
}
