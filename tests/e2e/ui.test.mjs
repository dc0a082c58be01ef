// The calculator as a person uses it: real clicks and typing on the canvas, results read from
// the page's figures (<body data-llmcalc-figures>) and checked against the native CLI for the
// same scenario; the ARIA live region is checked for words.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { test, assert, ROOT } from './harness.mjs';

const CLI = path.join(ROOT, 'build/native/native/cli/llmcalc');
const SHOTS = path.join(ROOT, 'docs/screenshots');

export function cliEstimate(scenario) {
  const file = path.join(os.tmpdir(), `llmcalc-e2e-${process.pid}-${Date.now()}.json`);
  fs.writeFileSync(file, JSON.stringify(scenario));
  try {
    return JSON.parse(execFileSync(CLI, ['estimate', file, '--json']).toString());
  } finally {
    fs.unlinkSync(file);
  }
}

// The scenario of a share link ("#s=<B>", or "#s=<B>&a=<A>" with a pinned A: `part` 'a').
export function scenarioFromUrl(url, part = 's') {
  const hash = new URL(url).hash;
  assert.ok(hash.startsWith('#s='), `URL has no scenario: ${url}`);
  const found = hash.slice(1).split('&').find((p) => p.startsWith(part + '='));
  return found ? JSON.parse(decodeURIComponent(found.slice(part.length + 1))) : undefined;
}

const get = (obj, key) => key.split('.').reduce((a, k) => (a == null ? a : a[k]), obj);

export function sameAsCli(f, scenario) {
  const cli = cliEstimate(scenario);
  for (const key of ['params.total', 'flops.model_total', 'memory.per_gpu.total_bytes', 'time.step_s', 'time.total_days',
                     'time.gpu_hours', 'time.cost_usd', 'time.mfu']) {
    assert.equal(f[key], get(cli, key), `${key}: page ${f[key]} vs CLI ${get(cli, key)}`);
  }
  assert.equal(f['memory.fits'], cli.memory.fits);
  return cli;
}

// Click into a numeric field (left part of its text box), select all, type, Enter.
export async function typeInto(app, id, text) {
  const r = await app.widgetRect(id);
  assert.ok(r, `widget ${id} not drawn`);
  await app.clickAt(r.x + 30, r.y + r.h / 2);
  await app.page.keyboard.press('Control+A');
  if (text === '') await app.page.keyboard.press('Backspace');
  else await app.page.keyboard.type(text);
  await app.page.keyboard.press('Enter');
  await app.waitFrames(3);
}

test('select a preset, set GPU count and micro-batch by clicking and typing; results match the CLI', async (t) => {
  if (!fs.existsSync(CLI)) t.skip('native CLI not built');
  const app = await t.open('index.html');
  await app.click('tab:Model');
  await app.click('Model preset filter');
  await app.page.keyboard.type('llama3.1-70');
  await app.waitFrames(3);
  await app.click('preset:llama3.1-70b', { frames: 3 });
  await app.click('tab:Hardware');
  await typeInto(app, 'hardware.gpu_count', '64');
  await app.click('tab:Training');
  await typeInto(app, 'training.micro_batch', '2');
  const live = await app.liveText();
  assert.match(live, /Llama 3\.1 70B on 64 NVIDIA H100 SXM5 80GB GPUs/);
  assert.doesNotMatch(live, /\[[a-z_.]+=/, 'no machine tags in the spoken text');
  const scenario = scenarioFromUrl(app.page.url());
  assert.equal(scenario.hardware.gpu_count, 64);
  assert.equal(scenario.training.micro_batch, 2);
  assert.equal(scenario.model.layers, 80);
  const f = await app.figures();
  assert.equal(f.preset, 'llama3.1-70b', 'the preset list marks the model\'s preset');
  const cli = sameAsCli(f, scenario);
  t.note(`70B on 64 GPUs: ${(cli.memory.per_gpu.total_bytes / 1e9).toFixed(1)} GB/GPU, ${cli.time.total_days.toFixed(1)} days; page == CLI`);
});

test('a share link restores the same scenario and results', async (t) => {
  const first = await t.open('index.html');
  await first.click('tab:Parallelism');
  await typeInto(first, 'parallel.tp', '2');
  const url = first.page.url();
  const live = await first.liveText();
  assert.ok(url.includes('#s='));
  const second = await t.open('index.html' + new URL(url).hash);
  assert.equal(await second.liveText(), live);
  assert.deepEqual(await second.figures(), await first.figures());
});

test('a malformed link shows a message and falls back to the defaults', async (t) => {
  const app = await t.open('index.html#s=%7B%22training%22%3A%7B%22micro_batch%22%3A0%7D%7D');
  const live = await app.liveText();
  assert.match(live, /could not be read/);
  assert.match(live, /training\.micro_batch/);
  assert.match(live, /Llama 3\.1 8B on 8 NVIDIA H100 SXM5 80GB GPUs/);
});

test('load a hardware profile through the file input; a broken one shows which field is wrong', async (t) => {
  const app = await t.open('index.html');
  const before = await app.figures();
  const profile = {
    schema_version: 1, gpu: 'h100-sxm', source: 'published', description: 'e2e test profile',
    citations: ['tests/e2e'], compute_efficiency: 0.25,
    collectives: { intra_node: { alpha_us: 20, busbw_gbps: 360 }, inter_node: { alpha_us: 30, busbw_gbps: 45 } },
    // bf16 GEMMs at 250 TFLOP/s, a third of the datasheet fit (0.75 × 989): GEMM-bound steps get longer.
    gemm: { bf16: { max_tflops: 250, fit: { peak_tflops: 250, overhead_us: 4 }, points: [] } },
  };
  const file = path.join(os.tmpdir(), `llmcalc-profile-${process.pid}.json`);
  fs.writeFileSync(file, JSON.stringify(profile));
  await app.page.setInputFiles('#llmcalc-file', file);
  await app.waitFrames(4);
  let live = await app.liveText();
  assert.match(live, /Profile: published \(e2e test profile\)/);
  assert.ok((await app.figures())['time.step_s'] > before['time.step_s'] * 1.5, 'GEMMs at a third of the datasheet rate, longer steps');
  fs.writeFileSync(file, JSON.stringify({ ...profile, compute_efficiency: 1.5 }));
  await app.page.setInputFiles('#llmcalc-file', []);
  await app.page.setInputFiles('#llmcalc-file', file);
  await app.waitFrames(4);
  live = await app.liveText();
  assert.match(live, /Error: .*compute_efficiency.*got 1\.5/);
  assert.match(live, /Profile: published \(e2e test profile\)/, 'the good profile is still in use');
  fs.unlinkSync(file);
});

test('embed.html takes its scenario from the URL', async (t) => {
  if (!fs.existsSync(CLI)) t.skip('native CLI not built');
  const scenario = { model: { preset: 'mixtral-8x7b' }, parallel: { ep: 8 }, hardware: { gpu: 'h100-sxm', gpu_count: 8 }, training: { tokens: 1e12 } };
  const app = await t.open('embed.html#s=' + encodeURIComponent(JSON.stringify(scenario)));
  const live = await app.liveText();
  assert.match(live, /Mixtral 8x7B/);
  sameAsCli(await app.figures(), scenario);
  await app.screenshot(path.join(SHOTS, 'embed.png'));
});

test('docs pages show numbers computed by the embed module', async (t) => {
  if (!fs.existsSync(CLI)) t.skip('native CLI not built');
  const app = await t.open('docs/index.html', { waitReady: false });
  await app.page.waitForFunction(() => [...document.querySelectorAll('[data-llmcalc]')].every((e) => e.hasAttribute('data-llmcalc-value')),
    null, { timeout: 30000 });
  const values = await app.page.evaluate(() => [...document.querySelectorAll('[data-llmcalc]')].map((e) => ({
    key: e.getAttribute('data-llmcalc'), value: Number(e.getAttribute('data-llmcalc-value')),
    scenario: e.closest('[data-llmcalc-scenario]').getAttribute('data-llmcalc-scenario'), title: e.title })));
  assert.ok(values.length >= 10, `only ${values.length} numbers on the page`);
  for (const v of values) {
    const cli = cliEstimate(JSON.parse(v.scenario));
    assert.equal(v.value, get(cli, v.key), `${v.key}`);
  }
  const unexplained = values.filter((v) => !v.title.includes('source')).map((v) => v.key);
  assert.deepEqual(unexplained, [], 'every number explains itself on hover');
  await app.screenshot(path.join(SHOTS, 'docs.png'));
  const embed = await t.open('docs/embedding.html', { waitReady: false });
  await embed.page.waitForFunction(() => document.getElementById('example-error').classList.contains('llmcalc-error'), null, { timeout: 30000 });
  assert.match(await embed.page.textContent('#example-error'), /parallel\.tp: model\.heads \(32\) must be divisible/);
  assert.match(await embed.page.textContent('#example-total'), /^\d+(\.\d+)? GiB$/, 'memory in GiB, formatted by core');
  assert.equal(await embed.page.textContent('#example-fits'), 'yes', 'the example scenario fits');
  const units = await app.page.evaluate(() => [...document.querySelectorAll('[data-memory-units="gb"] [data-llmcalc]')].map((e) => e.textContent));
  assert.ok(units.length >= 2 && units.every((u) => / GB$/.test(u)), `the ZeRO sections show GB: ${units}`);
});

test('screenshots of every screen', async (t) => {
  const app = await t.open('index.html', { viewport: { width: 1400, height: 900 } });
  for (const tab of ['Model', 'Training', 'Parallelism', 'Hardware']) {
    await app.click(`tab:${tab}`, { frames: 3 });
    await app.screenshot(path.join(SHOTS, `input-${tab.toLowerCase()}.png`));
  }
  for (const tab of ['Results', 'Scaling', 'Layouts']) {
    await app.click(`tab:${tab}`, { frames: 4 });
    await app.screenshot(path.join(SHOTS, `output-${tab.toLowerCase()}.png`));
  }
  assert.ok(await app.widgetRect('heatmap'), 'the heatmap was drawn');
  t.note('docs/screenshots/input-*.png, output-*.png');
});

// A benchmark, not a timed test: it prints the frame times (docs/benchmarks.md records them).
test('benchmark: recompute + frame while dragging the GPU-count slider', async (t) => {
  const app = await t.open('index.html');
  await app.click('tab:Hardware');
  const r = await app.widgetRect('GPU count slider');
  assert.ok(r);
  await app.page.evaluate(() => { Module.llmcalcFrameMs = []; });
  await app.page.mouse.move(r.x + 5, r.y + r.h / 2);
  await app.page.mouse.down();
  for (let i = 0; i <= 40; ++i) {
    await app.page.mouse.move(r.x + 5 + (i / 40) * (r.w * 0.6), r.y + r.h / 2);
    await app.waitFrames(1);
  }
  await app.page.mouse.up();
  const ms = await app.page.evaluate(() => Module.llmcalcFrameMs.slice());
  ms.sort((a, b) => a - b);
  const p50 = ms[Math.floor(ms.length / 2)], p95 = ms[Math.floor(ms.length * 0.95)], max = ms[ms.length - 1];
  console.log(`      e2e: frame CPU time during slider drag over ${ms.length} frames: median ${p50.toFixed(2)} ms, p95 ${p95.toFixed(2)} ms, max ${max.toFixed(2)} ms`);
  t.note(`drag frames: median ${p50.toFixed(2)} ms, p95 ${p95.toFixed(2)} ms, max ${max.toFixed(2)} ms`);
  assert.ok(ms.length >= 40, 'frames were rendered during the drag');
  assert.ok((await app.figures())['time.step_s'] > 0);
});

test('bundled profiles from site/profiles/ are offered, labelled, and selectable', async (t) => {
  const app = await t.open('index.html');
  await app.click('tab:Hardware');
  await app.waitFrames(3);
  await app.wheelOver('hardware.gpu_count', 400);  // the profiles are at the bottom of the tab
  const id = 'profile:bundled/h100-sxm.published.json';
  const r = await app.widgetRect(id);
  assert.ok(r, 'the bundled H100 profile is listed');
  await app.clickAt(r.x + 8, r.y + r.h / 2, { frames: 3 });
  assert.match(await app.liveText(), /Profile: published \(H100 SXM 80GB from published kernel measurements/);
  // The profile measured on an H100 by llmcalc-bench (gpu/measurements/2026-11-22-*).
  const m = await app.widgetRect('profile:bundled/h100-sxm.json');
  assert.ok(m, 'the measured H100 profile is listed');
  await app.clickAt(m.x + 8, m.y + m.h / 2, { frames: 3 });
  assert.match(await app.liveText(), /Profile: measured \(measured on NVIDIA H100 80GB HBM3, 2026-11-22/);
});
