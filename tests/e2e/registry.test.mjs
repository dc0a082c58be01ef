// The page reads a profile registry (issue 30): a real `llmcalc serve` on an ephemeral 127.0.0.1
// port serves the built site and the API; the measured H100 profile of site/profiles/ is pushed
// with `llmcalc profile push`; the Hardware tab lists it, a click loads it and the step time
// changes; the share link names it (&p=) and a fresh page opening the link shows the same step
// time. Also: a page served statically says "no registry" quietly, a local profile travels as a
// name only (&pl=) and the recipient is told. Skipped when the native CLI is not built.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import { spawn, execFileSync } from 'node:child_process';
import { test, assert, ROOT, SITE } from './harness.mjs';

const CLI = path.join(ROOT, 'build/native/native/cli/llmcalc');
const PROFILE = path.join(ROOT, 'site/profiles/h100-sxm.json');

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function get(url) {
  return new Promise((resolve, reject) => {
    http.get(url, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
    }).on('error', reject);
  });
}

// `llmcalc serve` with a fresh data dir and an upload token; resolves {base, token, stop}.
async function startRegistry() {
  const data = fs.mkdtempSync(path.join(os.tmpdir(), 'llmc-e2e-registry-'));
  const tokenFile = path.join(data, 'e2e.token');
  fs.writeFileSync(tokenFile, execFileSync(CLI, ['serve', 'token', 'add', 'e2e', '--data', data], { stdio: ['ignore', 'pipe', 'pipe'] }).toString(), { mode: 0o600 });
  const portFile = path.join(data, 'port');
  const proc = spawn(CLI, ['serve', '--data', data, '--site', SITE, '--host', '127.0.0.1', '--port', '0', '--port-file', portFile, '--quiet'],
                     { stdio: ['ignore', 'inherit', 'inherit'] });
  let exited = null;
  proc.on('exit', (code) => { exited = code; });
  const stop = async () => {
    if (exited === null) {
      proc.kill('SIGTERM');
      for (let i = 0; i < 100 && exited === null; ++i) await sleep(50);
    }
    fs.rmSync(data, { recursive: true, force: true });
  };
  try {
    for (let i = 0; ; ++i) {
      if (exited !== null) throw new Error(`llmcalc serve exited with ${exited}`);
      if (i > 200) throw new Error('llmcalc serve did not write its port within 10 s');
      const port = fs.existsSync(portFile) ? fs.readFileSync(portFile, 'utf8').trim() : '';
      if (port) {
        const base = `http://127.0.0.1:${port}`;
        if ((await get(base + '/healthz').catch(() => 0)) === 200) return { base, tokenFile, stop };
      }
      await sleep(50);
    }
  } catch (e) {
    await stop();
    throw e;
  }
}

// Wait (rendering frames) until `pred(figures)` holds; returns the figures.
async function waitFigures(app, pred, what, timeoutMs = 20000) {
  const t0 = Date.now();
  for (;;) {
    const f = await app.figures();
    if (pred(f)) return f;
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out waiting for ${what}; figures: ${JSON.stringify(f).slice(0, 600)}`);
    await app.waitFrames(2);
  }
}

// Wait until a widget is drawn (the registry's list arrives after the first frames).
async function waitWidget(app, id, timeoutMs = 20000) {
  const t0 = Date.now();
  for (;;) {
    const r = await app.widgetRect(id);
    if (r) return r;
    if (Date.now() - t0 > timeoutMs) throw new Error(`widget ${id} not drawn within ${timeoutMs} ms`);
    await app.waitFrames(2);
  }
}

test('registry: the Hardware tab lists a pushed profile, a click loads it, the share link reproduces the step time', async (t) => {
  if (!fs.existsSync(CLI)) t.skip(`native CLI not built (${path.relative(ROOT, CLI)}): cmake --build --preset native --target llmcalc`);
  const reg = await startRegistry();
  try {
    const pushed = execFileSync(CLI, ['profile', 'push', PROFILE, '--registry', reg.base, '--token-file', reg.tokenFile, '--label', 'e2e-measured',
                                      '--retries', '0']).toString();
    const id = (pushed.match(/as ([0-9a-f]{64}) at/) || [])[1];
    assert.ok(id, `push printed an id: ${pushed}`);
    const app = await t.open(`${reg.base}/index.html`);
    const before = (await app.figures())['time.step_s'];
    assert.ok(before > 0);
    await app.click('tab:Hardware');
    await app.waitFrames(3);
    const listed = await waitFigures(app, (f) => f.registry && f.registry.state !== 'loading' && f.registry.state !== 'idle', 'the registry list');
    assert.equal(listed.registry.state, 'ready', `the same-origin registry answers: ${listed.registry.note}`);
    assert.deepEqual(listed.registry.ids, [id]);
    await app.wheelOver('hardware.gpu_count', 400);  // the registry group is at the bottom of the tab
    const r = await waitWidget(app, 'registry:load:' + id.slice(0, 12));
    await app.screenshot(path.join(ROOT, 'build/e2e-shots/registry-hardware.png'));
    await app.clickAt(r.x + r.w / 2, r.y + r.h / 2, { frames: 3 });
    const loaded = await waitFigures(app, (f) => f.registry.link_profile === id, 'the registry profile in use');
    assert.match(loaded.profile, /^measured \(measured on NVIDIA H100 80GB HBM3/);
    assert.notEqual(loaded['time.step_s'], before, 'the measured profile times the step differently');
    assert.match(loaded.banner, /Loaded registry profile .*in use \(SHA-256 checked\)/, 'loopback is a secure context: the id is checked');
    const link = app.page.url();
    assert.ok(link.includes('&p=' + id), `the share link names the profile: ${link}`);
    assert.ok(!link.includes('&r='), 'the default (same-origin) registry is not written into the link');
    // A fresh page (new browser context: no storage) opening the link: same profile, same step time.
    const other = await t.open(link);
    const again = await waitFigures(other, (f) => f.profile && f.profile.startsWith('measured'), 'the link\'s profile in the fresh page');
    assert.equal(again['time.step_s'], loaded['time.step_s']);
    assert.equal(again.registry.link_profile, id);
    t.note(`profile ${id.slice(0, 12)}: step ${before.toFixed(3)} s (datasheet) -> ${loaded['time.step_s'].toFixed(3)} s (registry), the link reproduces it`);
    // A link naming a profile the registry does not have: a clear banner, the datasheet profile.
    t.allowConsoleError(/status of 404/);
    const missing = await t.open(link.replace('&p=' + id, '&p=' + 'f'.repeat(64)));
    const m = await waitFigures(missing, (f) => /registry profile ffffffffffff/.test(f.banner || ''), 'the missing-profile banner');
    assert.match(m.banner, /HTTP 404: the registry does not have it; the link's scenario is shown with the datasheet profile/);
    assert.equal(m['time.step_s'], before);
  } finally {
    await reg.stop();
  }
});

test('registry: a page served statically says "no registry"; a local profile travels as a name and the recipient is told', async (t) => {
  // The static server of the harness has no api/v1: the probe is a 404 (the harness expects it).
  const app = await t.open('index.html');
  await app.click('tab:Hardware');
  await app.waitFrames(3);
  const f = await waitFigures(app, (x) => x.registry && x.registry.state === 'none', '"no registry"');
  assert.match(f.registry.note, /api\/v1\/index\.json: HTTP 404/);
  assert.equal(f.banner, '', 'no registry is not an error');
  // A profile file loaded locally: the link names it (&pl=), the page warns that recipients lack it.
  await app.loadFile('my-h100.json', fs.readFileSync(PROFILE, 'utf8'), { frames: 3 });
  const used = await waitFigures(app, (x) => x.registry.link_local === 'my-h100.json', 'the local profile in the link');
  const link = app.page.url();
  assert.ok(link.includes('&pl=my-h100.json'), link);
  assert.ok(await app.widgetRect('share:local-profile-warning'), 'a warning under Copy link says recipients will not have it');
  const other = await t.open(link);
  const told = await waitFigures(other, (x) => x.banner_error && /my-h100\.json/.test(x.banner), 'the notice in the fresh page');
  assert.match(told.banner, /used the profile file my-h100\.json, which is not available here/);
  assert.notEqual(told['time.step_s'], used['time.step_s'], 'the recipient has the datasheet profile');
  // Another registry (&r=, here a tiny server on another port that allows any origin) serving
  // bytes that do not hash to the id the link names: refused, the datasheet profile stays.
  const fake = 'e'.repeat(64);
  const body = fs.readFileSync(PROFILE);
  const evil = http.createServer((req, res) => {
    res.writeHead(req.url === `/reg/profiles/${fake}.json` ? 200 : 404, { 'Content-Type': 'application/json', 'Access-Control-Allow-Origin': '*' });
    res.end(req.url === `/reg/profiles/${fake}.json` ? body : '{}');
  });
  await new Promise((r) => evil.listen(0, '127.0.0.1', r));
  try {
    const regBase = `http://127.0.0.1:${evil.address().port}/reg`;
    const plain = link.split('&')[0];  // the scenario only
    const forged = await t.open(`${plain}&p=${fake}&r=${encodeURIComponent(regBase)}`);
    const refused = await waitFigures(forged, (x) => /do not hash to the id/.test(x.banner || ''), 'the hash check');
    assert.match(refused.banner, new RegExp(`registry profile eeeeeeeeeeee \\(${regBase.replace(/[.:/]/g, '\\$&')}\\): the bytes served do not hash`));
    assert.match(refused.profile, /^datasheet/);
    assert.equal(refused.registry.base, regBase, "the link's &r= is the page's registry");
  } finally {
    evil.closeAllConnections();
    await new Promise((r) => evil.close(r));
  }
  // A bad ?registry= is reported and ignored.
  const bad = await t.open('index.html?registry=javascript:alert(1)');
  const b = await bad.figures();
  assert.match(b.banner, /\?registry= .*http:\/\/ or https:\/\//);
  assert.equal(b.registry.base, 'api/v1');
});

test('profiles: Compare profiles draws two profiles\' measured tables on one plot, table by table', async (t) => {
  const app = await t.open('index.html');
  await app.click('tab:Hardware');
  await app.waitFrames(3);
  await app.wheelOver('hardware.gpu_count', 400, 10);  // the comparison is at the bottom of the tab
  await waitWidget(app, 'profiles:compare');
  await app.click('profiles:compare', { frames: 3 });
  await app.wheelOver('profiles:compare', 400, 10);  // (a widget still on screen: the panel under the mouse scrolls)
  for (const name of ['bundled/h100-sxm.json', 'bundled/h100-sxm.published.json']) {
    const r = await waitWidget(app, 'compare-profile:' + name);
    await app.clickAt(r.x + r.w / 2, r.y + r.h / 2, { frames: 3 });
  }
  const f = await waitFigures(app, (x) => x.profile_compare && x.profile_compare.profiles.length === 2, 'two ticked profiles');
  assert.equal(f.profile_compare.metric, 'gemm.bf16', 'the first table both have: GEMM bf16');
  assert.ok(await waitWidget(app, 'profiles:compare-plot'), 'the plot is drawn');
  await app.wheelOver('profiles:compare', 400, 10);
  // Another table: the HBM copy bandwidth.
  await app.click('compare-metric', { frames: 3 });
  await app.click('compare-metric:memory_bound.hbm_copy', { frames: 3 });
  assert.equal((await app.figures()).profile_compare.metric, 'memory_bound.hbm_copy');
  const plot = await app.widgetRect('profiles:compare-plot');
  await app.page.mouse.move(plot.x + plot.w * 0.8, plot.y + plot.h / 2);
  await app.waitFrames(3);
  await app.screenshot(path.join(ROOT, 'build/e2e-shots/profile-compare.png'));
});
