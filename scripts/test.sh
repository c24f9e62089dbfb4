#!/usr/bin/env bash
# Runs every check and test of Handoff, as CI does: formatting, clippy (native and wasm32),
# the core's unit, golden and property tests, the command line's tests, and the playground's
# tests in headless Chromium against a release build.
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/setup.sh

step() { printf '\n== %s\n' "$*"; }

step "cargo fmt"
cargo fmt --all -- --check

step "clippy (native)"
cargo clippy --all-targets --locked -- -D warnings

step "clippy (wasm32)"
cargo clippy --all-targets --locked --target wasm32-unknown-unknown -- -D warnings

step "core, command line and property tests"
PROPTEST_CASES="${PROPTEST_CASES:-4000}" cargo test --locked

step "build the site (release wasm, wasm-opt, CSP)"
./scripts/build-site.sh

step "playground in headless Chromium"
node --test --test-concurrency=1 --test-timeout=120000 tests/browser/

printf '\nall checks passed\n'
