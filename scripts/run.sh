#!/usr/bin/env bash
# Installs what is missing, builds (release) and opens the debugger on the default demo scene.
# Extra arguments go to navdebug (e.g. another mesh, --set agent_radius=0.4).
# The package installation and the build print one line each; their full output is in build/
# (build/setup-apt.log, build/run-build.log) and is shown only when they fail.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
log="$PWD/build/run-build.log"
echo "run: building navdebug and navbake (release; a first build takes several minutes; output in $log)"
if ! { cmake --preset release && cmake --build --preset release --target navdebug navbake; } >"$log" 2>&1; then
  echo "run: the build failed; the end of $log:" >&2
  tail -n 40 "$log" >&2
  exit 1
fi
if [ $# -eq 0 ]; then set -- assets/demo.obj --config assets/demo.json; fi
exec build/release/app/navdebug "$@"
