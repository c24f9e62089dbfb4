//! The browser playground's entry point (built for wasm32 by Trunk).

#[cfg(target_arch = "wasm32")]
fn main() {
    handoff::ui::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("the playground runs in a browser: run `trunk serve` (see README.md), or use the `handoff` command line");
    std::process::exit(2);
}
