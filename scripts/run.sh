#!/usr/bin/env bash
# Installs what is missing, builds (release) and opens the debugger on the default demo scene.
# Extra arguments go to navdebug (e.g. another mesh, --set agent_radius=0.4).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake --preset release >/dev/null
cmake --build --preset release --target navdebug navbake
if [ $# -eq 0 ]; then set -- assets/demo.obj --config assets/demo.json; fi
exec build/release/app/navdebug "$@"
