#!/usr/bin/env python3
"""Drives a running llmcalc-desktop like a person, through real X11 input (xdotool), and checks
what it shows. Started by tests/desktop/run.sh, which owns Xvfb and the app process.

The app tells us where its widgets are and what it displays through its test hooks
(native/desktop/test_hooks.h): --report FILE (JSON rewritten after every frame: frame counter,
ARIA summary in words, the figures as numbers, URL fragment, clipboard read-back, file notices,
widget rectangles) and
--control FILE (commands: `rect ID` to have a widget's rectangle reported, `drop PATH` to send a
file through the SDL_DROPFILE path, `quit`).

Usage: drive.py --report F --control F --pid N --cli LLMCALC --shots DIR --work DIR
Exit status 0 when every check passed; each check prints one line.
"""
import argparse
import json
import os
import subprocess
import sys
import time
import urllib.parse

ARGS = None
FIGURES = ['params.total', 'flops.model_total', 'memory.per_gpu.total_bytes', 'time.step_s', 'time.total_days',
           'time.gpu_hours', 'time.cost_usd', 'time.mfu']


class Failed(Exception):
    pass


def check(cond, what):
    if not cond:
        raise Failed(what)
    print(f'ok   {what}', flush=True)


def report():
    """The app's last report, or None before its first frame (the file is replaced atomically)."""
    try:
        with open(ARGS.report, encoding='utf-8') as f:
            return json.load(f)
    except (FileNotFoundError, json.JSONDecodeError):
        return None


def app_alive():
    try:
        os.kill(ARGS.pid, 0)
        return True
    except ProcessLookupError:
        return False


def wait_for(pred, what, timeout=30.0):
    """Polls the report until pred(report) is true; fails on timeout or when the app died."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        r = report()
        if r is not None and pred(r):
            return r
        if not app_alive():
            raise Failed(f'the app exited while waiting for: {what}')
        time.sleep(0.05)
    raise Failed(f'timed out after {timeout:.0f} s waiting for: {what}')


def wait_frames(n=3):
    """Input reaches the app at the start of its next frame: let n frames pass."""
    start = wait_for(lambda r: True, 'a frame')['frame']
    return wait_for(lambda r: r['frame'] >= start + n, f'{n} more frames')


def control(*lines):
    """Hands commands to the app (written aside, then renamed: the app never reads half a file)."""
    tmp = ARGS.control + '.tmp'
    with open(tmp, 'w', encoding='utf-8') as f:
        f.write(''.join(line + '\n' for line in lines))
    os.replace(tmp, ARGS.control)
    wait_for(lambda r: not os.path.exists(ARGS.control), 'the app to take the control file')


def xdo(*args):
    return subprocess.run(['xdotool', *map(str, args)], check=True, capture_output=True, text=True).stdout.strip()


def rect(widget_id):
    if widget_id not in (report() or {}).get('rects', {}):
        control(f'rect {widget_id}')
    r = wait_for(lambda r: widget_id in r['rects'], f'the rectangle of widget "{widget_id}"')
    return r['rects'][widget_id]


def click_at(window, x, y):
    """Hover, press, release in separate frames, the way a person clicks (ImGui tabs only take a
    click on an item hovered in the previous frame)."""
    xdo('mousemove', '--window', window, int(x), int(y))
    wait_frames(2)
    xdo('mousedown', '1')
    wait_frames(2)
    xdo('mouseup', '1')
    wait_frames(3)


def click(window, widget_id):
    x, y, w, h = rect(widget_id)
    click_at(window, x + w / 2, y + h / 2)


def type_into(window, widget_id, text):
    """Click into a numeric field (left part of its box), select all, type, Enter."""
    x, y, w, h = rect(widget_id)
    click_at(window, x + 30, y + h / 2)
    xdo('key', '--clearmodifiers', 'ctrl+a')
    xdo('type', '--delay', '30', text)
    xdo('key', 'Return')
    wait_frames(4)


def scenario_of(fragment):
    """The scenario of a share fragment: its s= part (&a=, &p=, &r=, &pl= parts follow; docs/web.md)."""
    check(fragment.startswith('#s='), f'the app keeps a share fragment ({fragment[:24]}...)')
    return json.loads(urllib.parse.unquote(fragment[3:].split('&')[0]))


def cli_estimate(scenario, profile=None):
    path = os.path.join(ARGS.work, 'cli-scenario.json')
    with open(path, 'w', encoding='utf-8') as f:
        json.dump(scenario, f)
    extra = ['--profile', profile] if profile else []
    out = subprocess.run([ARGS.cli, 'estimate', path, *extra, '--json'], check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def get(obj, dotted):
    for k in dotted.split('.'):
        obj = obj[k]
    return obj


def same_as_cli(f, scenario, profile=None):
    """The app's figures (the report's "figures") equal `llmcalc estimate SCENARIO [--profile PROFILE] --json`."""
    cli = cli_estimate(scenario, profile)
    for key in FIGURES:
        # The figures are JSON numbers written with every digit, so equality is the right test.
        if f.get(key) != get(cli, key):
            raise Failed(f'{key}: app {f.get(key)} vs CLI {get(cli, key)}')
    check(f.get('memory.fits') == cli['memory']['fits'], 'memory.fits as the CLI')
    with_profile = f' --profile {os.path.basename(profile)}' if profile else ''
    print(f'ok   {len(FIGURES)} figures equal to `llmcalc estimate{with_profile} --json` for the same scenario', flush=True)
    return cli


def screenshot(window, name):
    os.makedirs(ARGS.shots, exist_ok=True)
    path = os.path.join(ARGS.shots, name)
    subprocess.run(['import', '-window', str(window), path], check=True, capture_output=True)
    check(os.path.getsize(path) > 10_000, f'screenshot {os.path.relpath(path)}')


def write(name, text):
    path = os.path.join(ARGS.work, name)
    with open(path, 'w', encoding='utf-8') as f:
        f.write(text)
    return path


def run():
    r = wait_for(lambda r: r['frame'] >= 2 and 'Llama 3.1 405B' in r['summary'], 'first frames with the scenario file loaded', 60)
    check('Note: Loaded scenario llama3.1-405b-16k-h100.json' in r['summary'], 'the scenario from the command line is loaded')
    check(r['figures'].get('gpus') == 16384 and 'on 16384 NVIDIA H100' in r['summary'], 'its GPU count is shown (figures and words)')
    check('[' not in r['summary'], 'the spoken summary carries no machine tags')
    window = xdo('search', '--sync', '--pid', ARGS.pid).split()[0]
    xdo('windowfocus', '--sync', window)  # no window manager under Xvfb: give it the keyboard

    # Real clicks and typing: Hardware tab, GPU count 16384 → 8192.
    click(window, 'tab:Hardware')
    for name in json.load(open('site/profiles/index.json')):
        rect('profile:' + name)  # drawn as a choice in the Hardware tab
    print('ok   the bundled profiles of site/profiles/ are offered', flush=True)
    type_into(window, 'hardware.gpu_count', '8192')
    r = wait_for(lambda r: r['figures'].get('gpus') == 8192, 'the GPU count typed into the Hardware tab', 20)
    print('ok   clicking tab:Hardware and typing 8192 into hardware.gpu_count changed the estimate', flush=True)
    scenario = scenario_of(r['fragment'])
    check(scenario['hardware']['gpu_count'] == 8192, 'the share fragment has gpu_count 8192')
    same_as_cli(r['figures'], scenario)

    # Results tab, Copy link → the system clipboard (read back through SDL).
    click(window, 'tab:Results')
    click(window, 'Copy link')
    r = wait_for(lambda r: r['clipboard'] != '', 'the clipboard after Copy link')
    check(r['clipboard'] == r['fragment'], 'Copy link put the share fragment on the clipboard')
    check('Link copied' in r['summary'], 'the banner confirms the copy')
    screenshot(window, 'desktop-results.png')

    # Export: the results as CSV, written into --save-dir (run.sh: the work directory).
    click(window, 'export:results.csv')
    csv_path = os.path.join(ARGS.work, 'llmcalc-results.csv')
    wait_for(lambda r: os.path.exists(csv_path), 'llmcalc-results.csv in the save directory')
    with open(csv_path, encoding='utf-8') as f:
        rows = dict(line.rstrip('\n').split(',', 1) for line in f.readlines()[1:] if ',' in line)
    cli = cli_estimate(scenario_of(report()['fragment']))
    check(float(rows['time.step_s']) == cli['time']['step_s'], 'Export CSV: time.step_s with every digit, as the CLI')

    # The heatmap renders through the project's GLSL shaders (GL 3.3 core here).
    click(window, 'tab:Layouts')
    rect('heatmap')  # known only once the Layouts tab has drawn it
    wait_frames(3)
    screenshot(window, 'desktop-layouts.png')
    click(window, 'tab:Results')

    # Files by drag-and-drop (the SDL_DROPFILE path): a good profile, a broken one, not JSON, missing.
    profile = {
        'schema_version': 1, 'gpu': 'h100-sxm', 'source': 'published', 'description': 'desktop test profile',
        'citations': ['tests/desktop'], 'compute_efficiency': 0.25,
        'collectives': {'intra_node': {'alpha_us': 20, 'busbw_gbps': 360}, 'inter_node': {'alpha_us': 30, 'busbw_gbps': 45}},
    }
    good = write('good-profile.json', json.dumps(profile))
    control('drop ' + good)
    r = wait_for(lambda r: 'Profile: published (desktop test profile)' in r['summary'], 'the dropped profile in use')
    print('ok   a dropped profile is loaded and in use', flush=True)
    same_as_cli(r['figures'], scenario_of(r['fragment']), good)
    control('drop ' + write('broken-profile.json', json.dumps({**profile, 'compute_efficiency': 1.5})))
    r = wait_for(lambda r: 'Error: broken-profile.json' in r['summary'], 'the error banner for a broken profile')
    check('compute_efficiency' in r['summary'] and 'got 1.5' in r['summary'], 'the banner names the wrong field and value')
    check('Profile: published (desktop test profile)' in r['summary'], 'the good profile is still in use')
    screenshot(window, 'desktop-error.png')
    control('drop ' + write('notes.txt', 'not json at all'))
    wait_for(lambda r: 'Error: notes.txt: not a JSON object' in r['summary'], 'the error banner for a non-JSON file')
    print('ok   a non-JSON file is refused with a message', flush=True)
    missing = os.path.join(ARGS.work, 'no-such-file.json')
    control('drop ' + missing)
    wait_for(lambda r: any('no-such-file.json' in n for n in r['notices']), 'a notice for a missing file')
    print('ok   a missing file is reported in the File problems window', flush=True)
    check(app_alive(), 'the app survived every bad file')

    # "Load profile..." opens the app's Open dialog; its path field has the keyboard.
    click(window, 'tab:Hardware')
    click(window, 'Load profile')
    wait_for(lambda r: r['dialog_open'], 'the Open dialog')
    wait_frames(2)  # its path field takes the keyboard in the frame after it appears
    dialog_profile = write('dialog-profile.json', json.dumps({**profile, 'description': 'opened in the dialog'}))
    xdo('type', '--delay', '20', dialog_profile)
    xdo('key', 'Return')
    wait_for(lambda r: 'Profile: published (opened in the dialog)' in r['summary'] and not r['dialog_open'],
             'the profile chosen in the Open dialog')
    print('ok   Load profile... → Open dialog → typed path → profile in use', flush=True)

    registry_menu(window)

    # Ctrl+Q quits (run.sh checks the exit status).
    xdo('key', '--clearmodifiers', 'ctrl+q')


def registry_menu(window):
    """Registry > Upload profile... to the registry run.sh started, and Registry > Calibrate this
    GPU... with the stand-in bench (tests/desktop/fake_bench.sh): progress shown, profile loaded."""
    click(window, 'menu:Registry')
    click(window, 'menu:Upload profile')
    rect('upload:profile')  # known once the window has drawn
    check(report()['registry']['url'] == ARGS.registry, 'the registry URL from --registry is filled in')
    profile = os.path.abspath('site/profiles/h100-sxm.published.json')
    type_into(window, 'upload:profile', profile)
    type_into(window, 'upload:label', 'desktop test')
    click(window, 'upload:Upload')
    r = wait_for(lambda r: r['registry']['upload']['done'], 'the upload to finish', 30)
    up = r['registry']['upload']
    check(up['ok'] and len(up['id']) == 64, f'Upload profile: {up["message"]}')
    listed = json.loads(subprocess.run([ARGS.cli, 'profile', 'list', '--registry', ARGS.registry, '--json'],
                                       check=True, capture_output=True, text=True).stdout)
    entry = [p for p in listed['profiles'] if p['id'] == up['id']]
    check(len(entry) == 1 and entry[0]['label'] == 'desktop test' and entry[0]['uploader'] == 'desktop-test',
          '`llmcalc profile list` shows it, with its label and the token\'s name')
    screenshot(window, 'desktop-upload.png')

    click(window, 'menu:Registry')
    click(window, 'menu:Calibrate this GPU')
    click(window, 'calibrate:Start')
    r = wait_for(lambda r: r['registry']['calibration']['running'] and r['registry']['calibration']['percent'] >= 25,
                 'the bench\'s progress in the window', 20)
    check('gemm bf16' in r['registry']['calibration']['label'] or 'membound' in r['registry']['calibration']['label'],
          f'progress {r["registry"]["calibration"]["percent"]}%: {r["registry"]["calibration"]["label"]}')
    rect('calibrate:progress')
    screenshot(window, 'desktop-calibrate.png')
    r = wait_for(lambda r: r['registry']['calibration']['loaded'], 'the calibration to finish and its profile to load', 30)
    check(r['registry']['calibration']['exit_code'] == 0, 'the bench exited with 0')
    r = wait_for(lambda r: 'Profile: measured (stand-in calibration)' in r['summary'], 'the calibrated profile in use')
    print('ok   Calibrate this GPU: the bench ran as a child process and its profile is in use', flush=True)


def main():
    global ARGS
    p = argparse.ArgumentParser()
    for name in ('--report', '--control', '--cli', '--shots', '--work', '--registry'):
        p.add_argument(name, required=True)
    p.add_argument('--pid', type=int, required=True)
    ARGS = p.parse_args()
    try:
        run()
    except (Failed, subprocess.CalledProcessError) as e:
        detail = e.stderr if isinstance(e, subprocess.CalledProcessError) else ''
        print(f'FAIL {e} {detail or ""}'.rstrip(), flush=True)
        shot = os.path.join(ARGS.work, 'failure.png')
        subprocess.run(['import', '-window', 'root', shot], capture_output=True)
        print(f'screen at the failure: {shot}', file=sys.stderr)
        r = report()
        if r:
            print('last report: frame', r['frame'], '\n' + r['summary'], '\nnotices:', r['notices'], file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
