#!/usr/bin/env bash
# Builds the playground like scripts/build-site.sh but keeping function names (the
# wasm-profiling Cargo profile, wasm-opt -g) into target/dist-profile, for
# tests/browser/profile.mjs. Not for shipping: the wasm is larger.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$PATH"
sed 's/data-cargo-profile-release="wasm-release"/data-cargo-profile-release="wasm-profiling"/; s/data-wasm-opt-params="/data-wasm-opt-params="-g /' \
  index.html > profile.html
trap 'rm -f profile.html' EXIT
trunk build --release --offline --dist target/dist-profile profile.html
