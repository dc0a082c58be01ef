#!/usr/bin/env python3
"""The README's main command, checked: `scripts/serve.sh PORT` (with LLMC_SERVE_NO_BUILD=1, on the
site and the llmcalc already built) serves the page with a CSP and .wasm as application/wasm, and
the registry API, seeded with every bundled profile of site/profiles/; then the pages run in
headless Chromium under that CSP with no violation (csp_check.mjs). Loopback only; stops the
server it started. Usage: serve_check.py    Exit status 0 when every check held."""
import glob
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '../..'))


def get(url):
    with urllib.request.urlopen(url, timeout=10) as r:
        return r.status, r.headers, r.read()


def main():
    s = socket.socket()
    s.bind(('127.0.0.1', 0))
    port = s.getsockname()[1]
    s.close()
    data = tempfile.mkdtemp(prefix='llmc-serve-check-')
    env = dict(os.environ, LLMC_SERVE_NO_BUILD='1', LLMC_REGISTRY_DIR=data)
    proc = subprocess.Popen(['bash', 'scripts/serve.sh', str(port)], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    base = f'http://127.0.0.1:{port}'
    failures = []
    try:
        for _ in range(200):
            try:
                get(base + '/healthz')
                break
            except OSError:
                if proc.poll() is not None:
                    print(proc.stdout.read())
                    return 1
                time.sleep(0.05)
        status, headers, body = get(base + '/')
        if status != 200 or not headers['Content-Type'].startswith('text/html'):
            failures.append(f'/: {status} {headers["Content-Type"]}')
        if "script-src 'self' 'wasm-unsafe-eval'" not in (headers['Content-Security-Policy'] or ''):
            failures.append(f'/: CSP {headers["Content-Security-Policy"]}')
        status, headers, body = get(base + '/llmcalc_app.wasm')
        if headers['Content-Type'] != 'application/wasm' or body[:4] != b'\0asm':
            failures.append(f'/llmcalc_app.wasm: {headers["Content-Type"]}')
        bundled = [f for f in glob.glob(os.path.join(ROOT, 'site/profiles/*.json')) if not f.endswith('/index.json')]
        status, headers, body = get(base + '/api/v1/profiles')
        listed = json.loads(body)
        if listed['count'] != len(bundled) or headers['X-Content-Type-Options'] != 'nosniff':
            failures.append(f'/api/v1/profiles: {listed["count"]} profiles listed, {len(bundled)} bundled')
        for p in listed['profiles']:
            if get(base + '/api/v1/' + p['path'])[0] != 200:
                failures.append(f'{p["path"]} not served')
        if subprocess.run(['node', os.path.join(ROOT, 'tests/registry/csp_check.mjs'), base + '/'], cwd=ROOT).returncode != 0:
            failures.append('the pages under the CSP (above)')
    finally:
        proc.send_signal(signal.SIGTERM)  # serve.sh exec'd llmcalc serve: this is the server
        proc.wait(timeout=10)
        subprocess.run(['rm', '-rf', data])
    for f in failures:
        print('FAIL ' + f)
    if not failures:
        print(f'serve.sh: page (CSP, application/wasm) and registry ({len(bundled)} bundled profiles) served on {base}')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
