#!/usr/bin/env bash
# Builds the static site into dist/: the release wasm (optimized by wasm-opt) and a gzipped
# copy the page loads (scripts/pack-wasm.mjs), the page, the docs, and a
# Content-Security-Policy. Usage: scripts/build-site.sh [PUBLIC_URL]
# The default public URL "./" makes every link relative, so dist/ works from any sub-path.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$PATH"
trunk build --release --offline --public-url "${1:-./}"
node scripts/pack-wasm.mjs dist
node scripts/csp.mjs dist
