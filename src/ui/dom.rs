//! Small wrappers over the browser: storage, the URL, media queries, files, downloads, the
//! clipboard and canvas fonts. Each fails quietly (returns `None` or does nothing) when the browser refuses.

use crate::playground::{
    Preferences, AUTOSAVE_KEY, LEGACY_PREFERENCES_KEY, PREFERENCES_KEY, SET_ASIDE_KEY,
};
use gloo_storage::{LocalStorage, Storage};
use wasm_bindgen::JsCast;
use web_sys::{
    CanvasRenderingContext2d, HtmlAnchorElement, HtmlCanvasElement, HtmlInputElement, Window,
};

fn window() -> Option<Window> {
    web_sys::window()
}

/// The autosaved session's text (a share link's), kept as it is.
pub fn autosave() -> Option<String> {
    LocalStorage::raw().get_item(AUTOSAVE_KEY).ok().flatten()
}

/// Saves the session; false if the storage refused it (full, or turned off).
pub fn save_session(text: &str) -> bool {
    LocalStorage::raw().set_item(AUTOSAVE_KEY, text).is_ok()
}

/// Keeps an autosave that could not be restored, before it is overwritten.
pub fn set_aside(text: &str) {
    let _ = LocalStorage::raw().set_item(SET_ASIDE_KEY, text);
}

/// The reader's saved preferences; the first format is read once and moved to the second.
pub fn preferences() -> Option<Preferences> {
    if let Ok(p) = LocalStorage::get::<Preferences>(PREFERENCES_KEY) {
        return Some(p);
    }
    let legacy = LocalStorage::raw()
        .get_item(LEGACY_PREFERENCES_KEY)
        .ok()
        .flatten()?;
    let p = Preferences::from_legacy(&legacy);
    save_preferences(&p);
    LocalStorage::delete(LEGACY_PREFERENCES_KEY);
    Some(p)
}

/// Saves the reader's preferences.
pub fn save_preferences(p: &Preferences) {
    let _ = LocalStorage::set(PREFERENCES_KEY, p);
}

/// The page's address without its fragment (a share link is this plus `#s=...`).
pub fn address() -> String {
    let Some(w) = window() else {
        return String::new();
    };
    let location = w.location();
    format!(
        "{}{}{}",
        location.origin().unwrap_or_default(),
        location.pathname().unwrap_or_default(),
        location.search().unwrap_or_default()
    )
}

/// The URL fragment without its `#`.
pub fn fragment() -> String {
    window()
        .and_then(|w| w.location().hash().ok())
        .map(|h| h.trim_start_matches('#').to_string())
        .unwrap_or_default()
}

/// Replaces the URL fragment without adding a history entry (empty removes it).
pub fn replace_fragment(fragment: &str) {
    let Some(w) = window() else { return };
    let Ok(history) = w.history() else { return };
    let location = w.location();
    let path = format!(
        "{}{}",
        location.pathname().unwrap_or_default(),
        location.search().unwrap_or_default()
    );
    let url = if fragment.is_empty() {
        path
    } else {
        format!("{path}#{fragment}")
    };
    let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
}

/// A query parameter of the page's URL.
pub fn query(name: &str) -> Option<String> {
    let search = window()?.location().search().ok()?;
    let params = web_sys::UrlSearchParams::new_with_str(&search).ok()?;
    params.get(name)
}

/// How many logical processors the browser offers (at least 1).
pub fn cores() -> usize {
    window().map_or(1, |w| {
        w.navigator().hardware_concurrency().max(1.0) as usize
    })
}

/// Whether a media query matches, such as `(prefers-reduced-motion: reduce)`.
pub fn media(query: &str) -> bool {
    window()
        .and_then(|w| w.match_media(query).ok().flatten())
        .is_some_and(|m| m.matches())
}

/// Sets an attribute on the root `<html>` element (theme, motion).
pub fn set_root_attribute(name: &str, value: &str) {
    if let Some(root) = window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    {
        let _ = root.set_attribute(name, value);
    }
}

/// Offers text as a file download.
pub fn download_text(filename: &str, mime: &str, text: &str) {
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options) else {
        return;
    };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else {
        return;
    };
    download_url(filename, &url);
    let _ = web_sys::Url::revoke_object_url(&url);
}

/// Offers a URL (a `blob:` or `data:` URL) as a file download.
pub fn download_url(filename: &str, url: &str) {
    let Some(document) = window().and_then(|w| w.document()) else {
        return;
    };
    let Some(anchor) = document
        .create_element("a")
        .ok()
        .and_then(|e| e.dyn_into::<HtmlAnchorElement>().ok())
    else {
        return;
    };
    anchor.set_href(url);
    anchor.set_download(filename);
    if let Some(body) = document.body() {
        let _ = body.append_child(&anchor);
        anchor.click();
        anchor.remove();
    }
}

/// Copies text to the clipboard (the link is also shown, to copy by hand if this fails).
pub fn copy(text: &str) {
    if let Some(w) = window() {
        let _ = w.navigator().clipboard().write_text(text);
    }
}

/// Reads the file chosen in a file input.
pub async fn read_file(input: HtmlInputElement) -> Option<String> {
    let file = input.files()?.get(0)?;
    let text = wasm_bindgen_futures::JsFuture::from(file.text())
        .await
        .ok()?;
    text.as_string()
}

/// A canvas of the page's own, not in the document.
pub fn new_canvas() -> Option<HtmlCanvasElement> {
    window()?
        .document()?
        .create_element("canvas")
        .ok()?
        .dyn_into::<HtmlCanvasElement>()
        .ok()
}

/// A canvas's 2D drawing context.
pub fn canvas_2d(canvas: &HtmlCanvasElement) -> Option<CanvasRenderingContext2d> {
    canvas
        .get_context("2d")
        .ok()
        .flatten()
        .and_then(|c| c.dyn_into::<CanvasRenderingContext2d>().ok())
}

/// A canvas of `width` x `height` pixels that is not on the page (a pattern's tile).
pub fn scratch_canvas(width: u32, height: u32) -> Option<HtmlCanvasElement> {
    let canvas: HtmlCanvasElement = window()?
        .document()?
        .create_element("canvas")
        .ok()?
        .dyn_into()
        .ok()?;
    canvas.set_width(width);
    canvas.set_height(height);
    Some(canvas)
}

/// Sets a canvas's font unless it is already set: setting it makes the browser compute the
/// canvas's style first, a forced style recalculation of the changed page on every draw.
/// `font` is written as the canvas reads it back (`bold`, not `700`), or it is set every time.
pub fn canvas_font(ctx: &CanvasRenderingContext2d, font: &str) {
    if ctx.font() != font {
        ctx.set_font(font);
    }
}

/// Canvas pixels per CSS pixel: the screen's own density (sharp on high-density screens,
/// and no more pixels than a plain screen shows, which every redraw would copy).
pub fn pixel_ratio() -> f64 {
    window()
        .map_or(1.0, |w| w.device_pixel_ratio())
        .clamp(1.0, 3.0)
}

thread_local! {
    /// The page's performance timeline, when it was opened with `?timing` (any value but
    /// `0`): the benchmark reads the playground's own measures from it. Without the flag
    /// nothing is recorded, so that entries never pile up over a long session.
    static TIMING: Option<web_sys::Performance> = query("timing")
        .filter(|v| v != "0")
        .and_then(|_| window()?.performance());
}

/// Marks the start of a stretch of the page's work named `name` (User Timing).
pub fn mark(name: &str) {
    TIMING.with(|t| {
        if let Some(p) = t {
            let _ = p.mark(name);
        }
    });
}

/// Measures from the last [`mark`] of `name` until now, as a measure of the same name.
pub fn measure(name: &str) {
    TIMING.with(|t| {
        if let Some(p) = t {
            let _ = p.measure_with_start_mark(name, name);
        }
    });
}
