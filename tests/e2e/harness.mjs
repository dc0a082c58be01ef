// Browser-test harness for the llmcalc page: a static server for build/site/, Debian's headless
// Chromium through playwright-core, and a tiny test registry. Tests live in tests/e2e/*.test.mjs
// (run.mjs imports them all); see tests/e2e/README.md.
//
//   import { test, assert } from './harness.mjs';
//   test('opens the page', async (t) => {
//     const app = await t.open('index.html');          // waits for the first rendered frame
//     assert.ok((await app.liveText()).length > 0);
//   });
//
// A test fails when its function throws, or when any page it opened logged a console error or
// threw an uncaught exception (unless allowed with t.allowConsoleError(/regex/)).
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';

export { assert };
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SITE = path.resolve(process.env.LLMC_E2E_SITE || path.join(ROOT, 'build/site'));
export const CHROMIUM = process.env.LLMC_CHROMIUM || '/usr/bin/chromium';
// Frames can be slow on SwiftShader (software WebGL) on a busy 2-core machine.
export const READY_TIMEOUT_MS = Number(process.env.LLMC_E2E_READY_TIMEOUT_MS || 60000);

// Flags from docs (shared toolchain notes): software WebGL2 (SwiftShader), and no background
// traffic on a machine without a network.
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--enable-unsafe-swiftshader',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

// ---------------------------------------------------------------------------------------------
// Static server (127.0.0.1, random port): build/site/ with the MIME types the page needs.
const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

export function startServer(dir = SITE) {
  const requests = [];  // {url, status}
  const server = http.createServer((req, res) => {
    let rel;
    try {
      rel = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    } catch {
      res.writeHead(400).end();
      return;
    }
    if (rel.endsWith('/')) rel += 'index.html';
    const file = path.resolve(dir, '.' + rel);
    const record = (status) => requests.push({ url: req.url, status });
    if (!file.startsWith(dir + path.sep)) {
      record(403);
      res.writeHead(403).end();
      return;
    }
    fs.readFile(file, (err, data) => {
      if (err) {
        record(404);
        res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
        return;
      }
      record(200);
      res.writeHead(200, {
        'Content-Type': MIME[path.extname(file).toLowerCase()] || 'application/octet-stream',
        'Content-Length': data.length,
        'Cache-Control': 'no-store',
      });
      res.end(req.method === 'HEAD' ? undefined : data);
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      resolve({ server, requests, base: `http://127.0.0.1:${port}/`, close: () => new Promise((r) => server.close(r)) });
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Test registry.
const tests = [];
export function test(name, fn) {
  tests.push({ name, fn });
}
export function registeredTests() {
  return tests;
}

class Skip extends Error {}

// An opened page of the app, with helpers for canvas-drawn UI.
class AppPage {
  constructor(page, url) {
    this.page = page;
    this.url = url;
    this.firstFrameMs = NaN;  // performance.now() at the first rendered frame (ms since navigation)
    this.loadWallMs = NaN;    // wall time from goto() to the first frame, as seen by the test
  }
  // Frames rendered so far (Module.llmcalcFrame, set by web/main.cpp after each frame).
  frame() {
    return this.page.evaluate(() => (window.Module && Module.llmcalcFrame) || 0);
  }
  // Wait until `n` more frames were rendered (input is processed at the start of a frame).
  async waitFrames(n = 2, timeout = 20000) {
    const start = await this.frame();
    await this.page.waitForFunction((target) => (Module.llmcalcFrame || 0) >= target, start + n, { timeout });
  }
  // Text of the ARIA live region (the UI's announce()): the key results in words.
  liveText() {
    return this.page.evaluate(() => document.getElementById('llmcalc-live').textContent);
  }
  // The same results as exact numbers: <body data-llmcalc-figures> (the UI's figures JSON:
  // "time.step_s", "memory.fits", "stale", "input_errors", "search", "compare", ...).
  figures() {
    return this.page.evaluate(() => JSON.parse(document.body.getAttribute('data-llmcalc-figures') || '{}'));
  }
  // Whether the page is in its narrow layout (below 900 px: inputs and outputs are two tabs).
  async narrow() {
    return (await this.widgetRect('tab:Inputs')) !== null;
  }
  // Open an input tab (Model, Training, Parallelism, Hardware) or an output tab (Results,
  // Scaling, Layouts, Search, Compare), through the Inputs/Outputs tabs on a narrow page.
  async tab(name, { frames = 3 } = {}) {
    if (await this.narrow()) {
      const input = ['Model', 'Training', 'Parallelism', 'Hardware'].includes(name);
      await this.click(input ? 'tab:Inputs' : 'tab:Outputs', { frames: 2 });
    }
    await this.click('tab:' + name, { frames });
  }
  // Rectangle {x, y, w, h} (canvas CSS pixels = page pixels: the canvas fills the page) of a
  // labelled widget as drawn in the last frame, or null when the UI does not know it.
  widgetRect(id) {
    return this.page.evaluate((wid) => {
      const p = Module.ccall('llmcalc_widget_rect', 'number', ['string'], [wid]);
      if (!p) return null;
      const f = Module.HEAPF32.subarray(p >> 2, (p >> 2) + 4);
      return { x: f[0], y: f[1], w: f[2], h: f[3] };
    }, id);
  }
  // Click the centre of a labelled widget, then wait for the UI to process it.
  async click(id, { frames = 2 } = {}) {
    const r = await this.widgetRect(id);
    if (!r) throw new Error(`widget "${id}" is unknown to llmcalc_widget_rect`);
    await this.clickAt(r.x + r.w / 2, r.y + r.h / 2, { frames });
    return r;
  }
  // Press and release at a point the way a person does: hover first (ImGui items that allow
  // overlap, such as tabs, only take a click that was hovered in the previous frame), then press
  // and release in separate frames.
  async clickAt(x, y, { frames = 2 } = {}) {
    await this.page.mouse.move(x, y);
    await this.waitFrames(1);
    await this.page.mouse.down();
    await this.waitFrames(1);
    await this.page.mouse.up();
    await this.waitFrames(frames);
  }
  // Turn the mouse wheel over a widget (`times` notches of `dy` pixels), as a person scrolls a
  // panel to what lies below its edge.
  async wheelOver(id, dy, times = 6) {
    const r = await this.widgetRect(id);
    if (!r) throw new Error(`widget "${id}" is unknown to llmcalc_widget_rect`);
    await this.page.mouse.move(r.x + r.w / 2, r.y + r.h / 2);
    for (let i = 0; i < times; ++i) {
      await this.page.mouse.wheel(0, dy);
      await this.waitFrames(2);
    }
  }
  // Hand a file to the app the way drag-and-drop and the file input do (site/shell.js).
  async loadFile(name, text, { frames = 2 } = {}) {
    await this.page.evaluate(([n, t]) => window.llmcalcLoadFile(n, t), [name, text]);
    await this.waitFrames(frames);
  }
  screenshot(file) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    return this.page.screenshot({ path: file });
  }
}

// Per-test context handed to each test function.
class TestContext {
  constructor(browser, server) {
    this.browser = browser;
    this.server = server;
    this.contexts = [];
    this.problems = [];  // console errors and page errors, as strings
    this.allowed = [];
    this.notes = [];
    this.firstRequest = server.requests.length;
  }
  // Requests the static server answered during this test: [{url, status}].
  requests() {
    return this.server.requests.slice(this.firstRequest);
  }
  get base() {
    return this.server.base;
  }
  skip(reason) {
    throw new Skip(reason);
  }
  note(text) {
    this.notes.push(text);
  }
  allowConsoleError(re) {
    this.allowed.push(re);
  }
  // Open `rel` (e.g. 'index.html', 'embed.html#s=...') in a fresh browser context and wait for the
  // app's first rendered frame. Options: viewport {width, height}, deviceScaleFactor, waitReady.
  async open(rel = 'index.html', { viewport = { width: 1280, height: 800 }, deviceScaleFactor = 1, waitReady = true } = {}) {
    const context = await this.browser.newContext({ viewport, deviceScaleFactor });
    this.contexts.push(context);
    const page = await context.newPage();
    page.on('console', (msg) => {
      if (msg.type() !== 'error') return;
      // The page looks for a same-origin profile registry (api/v1/index.json, docs/web.md
      // "Registry profiles"); this static server has none and answers 404, which Chromium logs.
      // That 404, and only that one, is expected.
      const at = (msg.location() && msg.location().url) || '';
      if (/^Failed to load resource: .*404/.test(msg.text()) && at.startsWith(this.server.base) && at.endsWith('/api/v1/index.json')) return;
      this.problems.push(`console.error: ${msg.text()}`);
    });
    page.on('pageerror', (err) => this.problems.push(`page error: ${err.message}`));
    page.on('crash', () => this.problems.push('page crashed'));
    const url = new URL(rel, this.server.base).href;
    const app = new AppPage(page, url);
    const t0 = Date.now();
    await page.goto(url, { waitUntil: 'load' });
    if (waitReady) {
      try {
        await page.waitForFunction(() => document.body.getAttribute('data-llmcalc-ready') === '1', null, {
          timeout: READY_TIMEOUT_MS,
        });
      } catch (e) {
        const status = await page.evaluate(() => document.getElementById('llmcalc-status')?.textContent).catch(() => '?');
        throw new Error(`no frame rendered within ${READY_TIMEOUT_MS} ms (status: "${status}"; ${this.problems.join('; ') || 'no console errors'})`);
      }
      app.loadWallMs = Date.now() - t0;
      app.firstFrameMs = await page.evaluate(() => Module.llmcalcFirstFrameMs);
    }
    return app;
  }
  async close() {
    for (const c of this.contexts) await c.close().catch(() => {});
    this.contexts = [];
  }
  unexpectedProblems() {
    return this.problems.filter((p) => !this.allowed.some((re) => re.test(p)));
  }
}

// Run every registered test whose name contains `grep`; returns {passed, failed, skipped}.
export async function runTests({ grep = '' } = {}) {
  if (!fs.existsSync(path.join(SITE, 'index.html')) || !fs.existsSync(path.join(SITE, 'llmcalc_app.wasm'))) {
    console.error(`e2e: ${SITE} has no index.html / llmcalc_app.wasm: run scripts/build-site.sh first`);
    return { passed: 0, failed: 1, skipped: 0 };
  }
  if (!fs.existsSync(CHROMIUM)) {
    console.error(`e2e: ${CHROMIUM} not found: run scripts/setup.sh web (installs Debian's chromium)`);
    return { passed: 0, failed: 1, skipped: 0 };
  }
  const server = await startServer();
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  const counts = { passed: 0, failed: 0, skipped: 0 };
  try {
    console.log(`e2e: ${(await browser.version())} (${CHROMIUM}), site ${SITE} at ${server.base}`);
    for (const { name, fn } of tests) {
      if (grep && !name.includes(grep)) continue;
      const t = new TestContext(browser, server);
      const t0 = Date.now();
      let outcome = 'ok';
      let detail = '';
      try {
        await fn(t);
        const problems = t.unexpectedProblems();
        if (problems.length) {
          outcome = 'FAIL';
          detail = problems.join('\n      ');
        }
      } catch (e) {
        if (e instanceof Skip) {
          outcome = 'skip';
          detail = e.message;
        } else {
          outcome = 'FAIL';
          detail = (e && e.stack) || String(e);
          const problems = t.unexpectedProblems();
          if (problems.length) detail += '\n      page: ' + problems.join('\n      page: ');
        }
      } finally {
        await t.close();
      }
      const secs = ((Date.now() - t0) / 1000).toFixed(1);
      if (outcome === 'ok') counts.passed++;
      else if (outcome === 'skip') counts.skipped++;
      else counts.failed++;
      console.log(`${outcome.padEnd(4)} ${name} (${secs} s)${detail ? '\n      ' + detail : ''}`);
      for (const n of t.notes) console.log(`      ${n}`);
    }
  } finally {
    await browser.close();
    await server.close();
  }
  return counts;
}
