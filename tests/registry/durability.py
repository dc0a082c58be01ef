#!/usr/bin/env python3
"""Durability of `llmcalc serve` under SIGKILL (docs/registry.md, "Reliability").

Starts the server (its own process, 127.0.0.1, ephemeral port, a fresh data directory), lets
concurrent clients upload distinct profiles, and SIGKILLs the server at a random moment of each
burst; restarts it and repeats, ROUNDS times (>= 20). After every restart it checks that:
  - every upload that was answered 201/200 is listed and served, and the bytes served hash
    (SHA-256) to the id the 201 named: the stored bytes are exactly those committed then;
  - every served body parses to the JSON that was sent (the upload's content, canonicalised);
  - nothing is half-written: every listed profile is served whole (hash = id), and SQLite's
    integrity check passes on the database file.
Each restart fetches the profiles stored since the previous one; the last fetches all of them.
Bounded: ROUNDS rounds of at most 0.35 s of uploads each, loopback only.
Usage: durability.py LLMCALC [ROUNDS]    Exit status 0 when every check held.
"""
import hashlib
import http.client
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '../..'))
CLI = os.path.abspath(sys.argv[1])
ROUNDS = int(sys.argv[2]) if len(sys.argv) > 2 else 24
CLIENTS = 6

base_profiles = [json.load(open(os.path.join(ROOT, 'site/profiles', f)))
                 for f in ('h100-sxm.published.json', 'a100-sxm-80gb.published.json', 'h100-sxm.json')]
counter = iter(range(10**9))


def next_profile():
    """A distinct valid profile: a bundled one with a numbered description."""
    n = next(counter)
    p = dict(base_profiles[n % len(base_profiles)])
    p['description'] = f'durability test upload {n}'
    return json.dumps(p)


def start_server(data, port_file):
    if os.path.exists(port_file):
        os.remove(port_file)
    proc = subprocess.Popen([CLI, 'serve', '--data', data, '--port', '0', '--port-file', port_file, '--quiet'])
    for _ in range(500):
        if os.path.exists(port_file):
            return proc, int(open(port_file).read())
        if proc.poll() is not None:
            sys.exit(f'durability: the server exited with {proc.returncode} at start')
        time.sleep(0.01)
    sys.exit('durability: the server did not start in 5 s')


def request(port, method, path, body=None, token=None):
    c = http.client.HTTPConnection('127.0.0.1', port, timeout=10)
    headers = {'Content-Type': 'application/json'}
    if token:
        headers['Authorization'] = 'Bearer ' + token
    c.request(method, path, body=body, headers=headers)
    r = c.getresponse()
    data = r.read()
    c.close()
    return r.status, data


def main():
    tmp = tempfile.mkdtemp(prefix='llmc-durability-')
    data, port_file = os.path.join(tmp, 'data'), os.path.join(tmp, 'port')
    token = subprocess.run([CLI, 'serve', 'token', 'add', 'durability', '--data', data],
                           check=True, capture_output=True, text=True).stdout.strip()
    acked = {}  # id -> the JSON sent
    lock = threading.Lock()
    stats = {'acked': 0, 'cut': 0}
    rng = random.Random(20261125)
    failures = []

    checked = set()  # ids fetched and hashed in an earlier round

    def verify(port, round_no, everything=False):
        status, body = request(port, 'GET', '/api/v1/profiles')
        if status != 200:
            failures.append(f'round {round_no}: list answered {status}')
            return
        listed = {p['id'] for p in json.loads(body)['profiles']}
        # Each round fetches what was stored since the last one (a kill can only have cut those
        # writes short); the last round fetches everything again.
        for pid in sorted(listed if everything else listed - checked):
            checked.add(pid)
            st, b = request(port, 'GET', '/api/v1/profiles/' + pid)
            if st != 200 or hashlib.sha256(b).hexdigest() != pid:
                failures.append(f'round {round_no}: {pid} listed but served {st}, {len(b)} bytes hashing to {hashlib.sha256(b).hexdigest()}')
            elif pid in acked and json.loads(b) != json.loads(acked[pid]):
                failures.append(f'round {round_no}: {pid} served other content than was uploaded')
        missing = [pid for pid in acked if pid not in listed]
        if missing:
            failures.append(f'round {round_no}: {len(missing)} acknowledged uploads missing, e.g. {missing[0]}')
        db = sqlite3.connect(os.path.join(data, 'registry.sqlite3'))
        check = db.execute('PRAGMA integrity_check').fetchone()[0]
        db.close()
        if check != 'ok':
            failures.append(f'round {round_no}: integrity_check: {check}')
        return len(listed)

    for round_no in range(1, ROUNDS + 1):
        proc, port = start_server(data, port_file)
        verify(port, round_no)
        stop = threading.Event()

        def client():
            while not stop.is_set():
                text = next_profile()
                try:
                    status, body = request(port, 'POST', '/api/v1/profiles', text, token)
                except (OSError, http.client.HTTPException):
                    with lock:
                        stats['cut'] += 1
                    return  # the server is gone: the upload's fate is unknown, and need not be kept
                if status in (200, 201):
                    with lock:
                        acked[json.loads(body)['id']] = text
                        stats['acked'] += 1
                else:
                    failures.append(f'round {round_no}: upload answered {status}: {body[:200]!r}')
                    return

        threads = [threading.Thread(target=client) for _ in range(CLIENTS)]
        for t in threads:
            t.start()
        time.sleep(rng.uniform(0.05, 0.35))
        os.kill(proc.pid, signal.SIGKILL)  # mid-burst: uploads are in flight
        proc.wait()
        stop.set()
        for t in threads:
            t.join()
        if failures:
            break
    proc, port = start_server(data, port_file)
    listed = verify(port, ROUNDS + 1, everything=True)
    proc.terminate()
    proc.wait()
    print(f'durability: {ROUNDS} SIGKILLs during uploads from {CLIENTS} concurrent clients; '
          f'{stats["acked"]} uploads acknowledged, all present and byte-identical (SHA-256 = id); '
          f'{stats["cut"]} requests cut by a kill; {listed} profiles stored; integrity_check ok'
          if not failures else 'durability: FAILED')
    for f in failures[:20]:
        print('  ' + f)
    subprocess.run(['rm', '-rf', tmp])
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
