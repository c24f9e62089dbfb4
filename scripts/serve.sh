#!/usr/bin/env bash
# Sets up whatever is missing, then builds and serves the playground on http://127.0.0.1:8080/
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
export PATH="$PWD/node_modules/.bin:$PATH"
exec trunk serve --release --offline "$@"
