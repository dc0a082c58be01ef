#!/usr/bin/env bash
# The desktop app under a virtual X server: starts its own Xvfb (a free display number), runs
# llmcalc-desktop on Mesa's software OpenGL with a scenario file, drives it with real X11 input
# (tests/desktop/drive.py: clicks, typing, Copy link, dropped files, Ctrl+Q), compares its numbers
# with the CLI's, and saves docs/screenshots/desktop-*.png. Exit status 0 only if every check passed.
# Usage: tests/desktop/run.sh [BUILD_DIR]     (default build/native; needs llmcalc-desktop and llmcalc)
# Env: LLMC_DESKTOP_SHOTS (default docs/screenshots), LLMC_DESKTOP_KEEP=1 keeps the work directory.
set -uo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build/native}
app=$build/native/desktop/llmcalc-desktop
cli=$build/native/cli/llmcalc
shots=${LLMC_DESKTOP_SHOTS:-docs/screenshots}

for tool in Xvfb xdotool import python3; do
  command -v "$tool" >/dev/null || { echo "desktop test: $tool not found (scripts/setup.sh desktop installs it)"; exit 1; }
done
for exe in "$app" "$cli"; do
  [[ -x $exe ]] || { echo "desktop test: $exe not built (cmake --build $build --target llmcalc-desktop llmcalc)"; exit 1; }
done

work=$(mktemp -d /tmp/llmcalc-desktop-test.XXXXXX)
xvfb_pid='' app_pid='' serve_pid=''
cleanup() {  # only the processes this script started
  [[ -n $app_pid ]] && kill "$app_pid" 2>/dev/null
  [[ -n $xvfb_pid ]] && kill "$xvfb_pid" 2>/dev/null
  [[ -n $serve_pid ]] && kill "$serve_pid" 2>/dev/null
  if [[ ${LLMC_DESKTOP_KEEP:-0} == 1 ]]; then echo "desktop test: kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

# Command-line contract first (no display needed).
"$app" --help >/dev/null || { echo "FAIL llmcalc-desktop --help exits non-zero"; exit 1; }
"$app" --no-such-option >/dev/null 2>&1
[[ $? -eq 2 ]] || { echo "FAIL an unknown option must exit 2"; exit 1; }
echo "ok   --help exits 0, an unknown option exits 2"

# Xvfb picks a free display and writes its number to fd 3 once it accepts connections.
Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp 3>"$work/display" 2>"$work/xvfb.log" &
xvfb_pid=$!
for _ in $(seq 100); do [[ -s $work/display ]] && break; sleep 0.1; done
[[ -s $work/display ]] || { echo "FAIL Xvfb did not start:"; cat "$work/xvfb.log"; exit 1; }
export DISPLAY=:$(cat "$work/display")
echo "ok   Xvfb on $DISPLAY"

# A registry for Registry > Upload profile, with an upload token in a file.
"$cli" serve token add desktop-test --data "$work/registry" >"$work/token" 2>/dev/null || { echo "FAIL llmcalc serve token add"; exit 1; }
"$cli" serve --data "$work/registry" --port 0 --port-file "$work/port" --quiet &
serve_pid=$!
for _ in $(seq 100); do [[ -s $work/port ]] && break; sleep 0.05; done
[[ -s $work/port ]] || { echo "FAIL llmcalc serve did not start"; exit 1; }
registry=http://127.0.0.1:$(cat "$work/port")
echo "ok   llmcalc serve on $registry"

# Mesa's llvmpipe gives OpenGL 3.3 core without a GPU. A private config dir: nothing restored from,
# or saved into, the user's ~/.config/llmcalc.
t0=$SECONDS
LIBGL_ALWAYS_SOFTWARE=1 XDG_CONFIG_HOME=$work/config \
  "$app" --report "$work/report.json" --control "$work/control" --registry "$registry" --token-file "$work/token" \
  --save-dir "$work" --bench tests/desktop/fake_bench.sh examples/llama3.1-405b-16k-h100.json \
  >"$work/app.log" 2>&1 &
app_pid=$!

python3 tests/desktop/drive.py --report "$work/report.json" --control "$work/control" --pid "$app_pid" \
  --cli "$cli" --shots "$shots" --work "$work" --registry "$registry"
drive_rc=$?

# The driver ended with Ctrl+Q: the app must leave by itself, with status 0.
status=''
for _ in $(seq 200); do
  if ! kill -0 "$app_pid" 2>/dev/null; then wait "$app_pid"; status=$?; break; fi
  sleep 0.1
done
app_pid_was=$app_pid
if [[ -z $status ]]; then
  echo "FAIL the app did not exit after Ctrl+Q"; status=timeout
else
  app_pid=''
  [[ $status == 0 ]] && echo "ok   Ctrl+Q: the app exited with status 0" || echo "FAIL the app exited with status $status"
fi
if [[ $drive_rc != 0 || $status != 0 ]]; then
  echo "---- app output (pid $app_pid_was):"; cat "$work/app.log"
  LLMC_DESKTOP_KEEP=1  # keep the report, the files and failure.png for a look
  exit 1
fi
echo "desktop test: passed ($((SECONDS - t0)) s with the app running)"
