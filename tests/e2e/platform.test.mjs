// Platform-layer tests: the page shell, the wasm module's exports, canvas sizing. They hold for
// any UI (they only assume the app renders frames and announces something).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { test, assert, ROOT, SITE } from './harness.mjs';

test('index.html renders its first frame (screenshot docs/screenshots/app.png)', async (t) => {
  const app = await t.open('index.html');
  t.note(`time to first frame: ${app.firstFrameMs.toFixed(0)} ms after navigation start ` +
         `(${app.loadWallMs} ms wall from goto)`);
  console.log(`      e2e: time to first frame ${app.firstFrameMs.toFixed(0)} ms`);
  // The render loop keeps going.
  await app.waitFrames(3);
  const live = await app.liveText();
  assert.ok(live.trim().length > 0, 'the ARIA live region is empty after the first frames');
  const status = await app.page.evaluate(() => document.getElementById('llmcalc-status').hidden);
  assert.equal(status, true, 'the loading message is still shown');
  const shot = path.join(ROOT, 'docs/screenshots/app.png');
  await app.screenshot(shot);
  t.note(`screenshot: ${path.relative(ROOT, shot)}`);
  const missing = t.requests().filter((r) => r.status !== 200);
  assert.deepEqual(missing, [], 'requests that were not served');
});

test('llmcalc_app.wasm is served as application/wasm; app is within 1 MB gzipped', async (t) => {
  const app = await t.open('index.html', { waitReady: false });
  const type = await app.page.evaluate(async () => (await fetch('llmcalc_app.wasm', { method: 'HEAD' })).headers.get('content-type'));
  assert.equal(type, 'application/wasm');
  let total = 0;
  for (const f of ['llmcalc_app.wasm', 'llmcalc_app.js']) {
    const gz = zlib.gzipSync(fs.readFileSync(path.join(SITE, f)), { level: 9 }).length;
    total += gz;
    t.note(`${f}: ${fs.statSync(path.join(SITE, f)).size} B, gzipped ${gz} B`);
  }
  assert.ok(total <= 1024 * 1024, `wasm + js gzipped is ${total} B, over 1 MB`);
});

test('canvas follows the window size and devicePixelRatio', async (t) => {
  const app = await t.open('index.html', { viewport: { width: 800, height: 600 }, deviceScaleFactor: 2 });
  const size = () => app.page.evaluate(() => {
    const c = document.getElementById('canvas');
    return { w: c.width, h: c.height, cssW: c.clientWidth, cssH: c.clientHeight, dpr: devicePixelRatio };
  });
  let s = await size();
  assert.equal(s.dpr, 2);
  assert.deepEqual([s.cssW, s.cssH], [800, 600]);
  assert.deepEqual([s.w, s.h], [1600, 1200], `backing store ${s.w}x${s.h} for CSS 800x600 at dpr 2`);
  await app.page.setViewportSize({ width: 1000, height: 700 });
  await app.page.waitForFunction(() => document.getElementById('canvas').width === 2000, null, { timeout: 10000 })
    .catch(() => {});
  await app.waitFrames(2);
  s = await size();
  assert.deepEqual([s.cssW, s.cssH], [1000, 700]);
  assert.deepEqual([s.w, s.h], [2000, 1400], `after resize: backing store ${s.w}x${s.h} for CSS 1000x700`);
});

test('embed.html renders (compact mode, scenario from the URL fragment)', async (t) => {
  const app = await t.open('embed.html');
  await app.waitFrames(2);
  const embedded = await app.page.evaluate(() => document.documentElement.hasAttribute('data-llmcalc-embedded'));
  assert.equal(embedded, true);
});

test('a JSON file dropped on the page reaches llmcalc_load_file', async (t) => {
  const app = await t.open('index.html');
  // Spy on the export the shell calls, then drop a file the way a browser does.
  const got = await app.page.evaluate(async () => {
    const calls = [];
    const real = Module._llmcalc_load_file;
    Module._llmcalc_load_file = (pn, pt) => {
      calls.push([Module.UTF8ToString(pn), Module.UTF8ToString(pt)]);
      return real(pn, pt);
    };
    const dt = new DataTransfer();
    dt.items.add(new File(['{"note": "drop test \u00e9"}'], 'dropped.json', { type: 'application/json' }));
    for (const type of ['dragenter', 'dragover', 'drop']) {
      window.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
    }
    for (let i = 0; i < 100 && !calls.length; i++) await new Promise((r) => setTimeout(r, 20));
    Module._llmcalc_load_file = real;
    return calls;
  });
  assert.deepEqual(got, [['dropped.json', '{"note": "drop test \u00e9"}']]);
  await app.waitFrames(2);  // the app reads it in its next frame, without errors
});

test('llmcalc_widget_rect reports widget rectangles through Module.ccall', async (t) => {
  const app = await t.open('index.html');
  await app.waitFrames(2);
  const unknown = await app.widgetRect('no such widget \u2603');
  assert.equal(unknown, null, 'an unknown id must give a null pointer');
  // Ids are widget labels (docs/ui.md); try a few the calculator is expected to have.
  const candidates = ['tab:Model', 'Model preset filter', 'Copy link', 'Model preset'];
  let found = null;
  for (const id of candidates) {
    const r = await app.widgetRect(id);
    if (r) {
      found = { id, r };
      break;
    }
  }
  if (!found) t.skip(`the UI reports no rectangle for ${candidates.join(', ')} (stub UI?)`);
  const { id, r } = found;
  const vp = app.page.viewportSize();
  assert.ok(r.w > 0 && r.h > 0, `${id}: empty rectangle ${JSON.stringify(r)}`);
  assert.ok(r.x >= 0 && r.y >= 0 && r.x + r.w <= vp.width + 1 && r.y + r.h <= vp.height + 1,
            `${id}: rectangle ${JSON.stringify(r)} outside the ${vp.width}x${vp.height} canvas`);
  t.note(`"${id}" at ${JSON.stringify(r)}`);
  // Clicking it through the canvas like a person must not raise errors.
  await app.click(id);
});
