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

if [ -f tests/browser/run.mjs ]; then
  step "playground in headless Chromium"
  ./scripts/build-site.sh
  node tests/browser/run.mjs
fi

printf '\nall checks passed\n'
