// The new-user tasks of issue 31, walked like a person at three screen sizes: plan Llama 3.1 70B at
// 8192 tokens, 1T tokens on 256 H100s; apply the search's best layout; compare it with ZeRO-3;
// export CSV (and the scenario file the CLI reads); share the link and reload it. Screenshots go to
// docs/screenshots/walk-<width>x<height>-<step>.png. Then: every bad input of the issue is refused
// in place and the results say they are stale; paste, import, and the smaller items (units, +/-,
// master weights, reset, help, a profile of another GPU, the heatmaps, the narrow layout).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { test, assert, ROOT } from './harness.mjs';
import { cliEstimate, sameAsCli, scenarioFromUrl, typeInto } from './ui.test.mjs';
import { runSearch } from './search.test.mjs';

const CLI = path.join(ROOT, 'build/native/native/cli/llmcalc');
const SHOTS = path.join(ROOT, 'docs/screenshots');

async function download(app, widget) {
  const [dl] = await Promise.all([app.page.waitForEvent('download', { timeout: 20000 }), app.click(widget)]);
  return { name: dl.suggestedFilename(), text: fs.readFileSync(await dl.path(), 'utf8') };
}

async function walk(t, width, height) {
  if (!fs.existsSync(CLI)) t.skip('native CLI not built');
  const app = await t.open('index.html', { viewport: { width, height } });
  const shot = (step) => app.screenshot(path.join(SHOTS, `walk-${width}x${height}-${step}.png`));
  // 1. Plan: Llama 3.1 70B at 8192 tokens, 1T tokens on 256 H100s (typed as engineers write them).
  await app.tab('Model');
  await app.click('Model preset filter');
  await app.page.keyboard.type('llama3.1-70');
  await app.waitFrames(3);
  await app.click('preset:llama3.1-70b', { frames: 3 });
  await app.tab('Training');
  await typeInto(app, 'training.seq_len', '8Ki');
  await typeInto(app, 'training.tokens', '1T');
  await app.tab('Hardware');
  await typeInto(app, 'hardware.gpu_count', '256');
  let f = await app.figures();
  assert.equal(f.model, 'Llama 3.1 70B');
  assert.equal(f.gpus, 256);
  assert.equal(f.stale, false);
  let scenario = scenarioFromUrl(app.page.url());
  assert.equal(scenario.training.seq_len, 8192);
  assert.equal(scenario.training.tokens, 1e12);
  sameAsCli(f, scenario);
  await app.tab('Results');
  await shot('1-plan');

  // 2. Search, and apply its best layout: every knob set, the same step time as the search's row.
  const s = await runSearch(app);
  assert.ok(s.best, `the search found a layout (${s.error})`);
  await app.click('search:apply:1', { frames: 4 });
  f = await app.figures();
  assert.equal(f['time.step_s'], s.step_s, 'the applied layout has the search row\'s step time, exactly');
  scenario = scenarioFromUrl(app.page.url());
  const best = Object.fromEntries(s.best.split(',').map((kv) => [kv.replace(/[0-9]+$/, ''), kv.match(/[0-9]+$/)?.[0]]));
  assert.equal(String(scenario.parallel?.tp ?? 1), best.tp, 'tp from the row');
  assert.equal(String(scenario.training.zero_stage ?? 0), best.zero, 'ZeRO stage from the row');
  sameAsCli(f, scenario);
  await shot('2-search');

  // 3. Compare with ZeRO-3: pin the applied layout as A, change ZeRO, see both.
  await app.tab('Results');
  await app.click('compare:pin', { frames: 3 });
  const other = best.zero === '3' ? '1' : '3';
  await app.tab('Training');
  await typeInto(app, 'training.zero_stage', other);
  f = await app.figures();
  assert.ok(f.compare && f.compare.a, 'A is pinned');
  assert.equal(String(f.compare.a.zero_stage), best.zero);
  assert.equal(scenarioFromUrl(app.page.url()).training.zero_stage, Number(other));
  assert.notEqual(f.compare.a['memory.per_gpu.total_bytes'], f['memory.per_gpu.total_bytes'], 'ZeRO changes memory per GPU');
  await app.tab('Compare');
  assert.ok(await app.widgetRect('compare:table'), 'A and B side by side');
  await shot('3-compare');

  // 4. Export: the results as CSV (every figure, every digit) and the scenario as a file the CLI reads.
  await app.tab('Results');
  const csv = await download(app, 'export:results.csv');
  assert.equal(csv.name, 'llmcalc-results.csv');
  const rows = Object.fromEntries(csv.text.trim().split('\n').slice(1).map((l) => [l.slice(0, l.indexOf(',')), l.slice(l.indexOf(',') + 1)]));
  const cli = cliEstimate(scenarioFromUrl(app.page.url()));
  assert.equal(Number(rows['time.step_s']), cli.time.step_s);
  assert.equal(Number(rows['memory.per_gpu.total_bytes']), cli.memory.per_gpu.total_bytes);
  const file = await download(app, 'export:scenario');
  const tmp = path.join(os.tmpdir(), `llmcalc-e2e-export-${process.pid}-${width}.json`);
  fs.writeFileSync(tmp, file.text);
  const fromFile = JSON.parse(execFileSync(CLI, ['estimate', tmp, '--json']).toString());
  fs.unlinkSync(tmp);
  assert.equal(fromFile.time.step_s, cli.time.step_s, '`llmcalc estimate FILE` reads the exported scenario');

  // 5. Share the link and reload it: the same B, and A still pinned.
  const url = app.page.url();
  assert.match(url, /#s=.*&a=/, 'the link carries A');
  const again = await t.open('index.html' + new URL(url).hash, { viewport: { width, height } });
  const g = await again.figures();
  for (const k of ['time.step_s', 'memory.per_gpu.total_bytes', 'time.cost_usd']) assert.equal(g[k], f[k], k);
  assert.deepEqual(g.compare, f.compare);
  return { first: app.firstFrameMs };
}

for (const [w, h] of [[1280, 800], [1366, 768], [390, 844]]) {
  test(`new user at ${w}×${h}: plan 70B, apply the best layout, compare with ZeRO-3, export CSV, share`, async (t) => {
    await walk(t, w, h);
    t.note(`docs/screenshots/walk-${w}x${h}-{1-plan,2-search,3-compare}.png`);
  });
}

test('bad input is refused in place with its reason; results say they are stale; no keystroke is applied', async (t) => {
  const app = await t.open('index.html');
  await app.tab('Hardware');
  // Typing "1e9" GPUs: nothing is applied while typing (no 1, no 19 GPUs), and Enter refuses it.
  const r = await app.widgetRect('hardware.gpu_count');
  await app.clickAt(r.x + 30, r.y + r.h / 2);
  await app.page.keyboard.press('Control+A');
  for (const ch of '1e9') {
    await app.page.keyboard.type(ch);
    await app.waitFrames(2);
    const f = await app.figures();
    assert.equal(f.gpus, 8, `after typing '${ch}' the results are still for 8 GPUs`);
    assert.equal(f.stale, false);
  }
  await app.page.keyboard.press('Enter');
  await app.waitFrames(3);
  let f = await app.figures();
  assert.equal(f.stale, true);
  assert.equal(f.gpus, 8, 'the last valid scenario stays');
  assert.equal(f.input_errors['hardware.gpu_count'], "must be an integer in [0, 1e7]; got '1e9'");
  const e = await app.widgetRect('error:hardware.gpu_count');
  assert.ok(e && e.y >= r.y + r.h - 1 && e.y + e.h <= 800 && e.x >= r.x - 1, `the message is beside the field: ${JSON.stringify(e)}`);
  assert.match(await app.liveText(), /^Stale: the results below are for the last valid inputs\. Fix hardware\.gpu_count: must be an integer/m);
  await typeInto(app, 'hardware.gpu_count', '2^6');
  f = await app.figures();
  assert.equal(f.stale, false);
  assert.equal(f.gpus, 64);

  // The list, and more: each refused with its field's message; fixed by a good value.
  const cases = [
    ['Training', 'training.tokens', '1T tokens', /unknown multiplier 'T tokens'/, '1T'],
    ['Training', 'training.tokens', 'abc', /not a number/, '1.5T'],
    ['Training', 'training.micro_batch', '0', /must be an integer in \[1, 1048576\]; got '0'/, '1'],
    ['Training', 'training.seq_len', '1,5', /groups of three/, '8Ki'],
    ['Parallelism', 'parallel.tp', '2.5', /must be an integer/, '1'],
    ['Hardware', 'hardware.mfu', '1.5', /must be a number in \[0, 1\]/, '0'],
    ['Hardware', 'hardware.gpu_count', '-8', /\[0, 1e7\]; got '-8'/, '64'],
    ['Hardware', 'hardware.gpu_count', '', /empty/, '64'],
  ];
  for (const [tab, key, bad, why, good] of cases) {
    await app.tab(tab);
    const before = await app.figures();
    await typeInto(app, key, bad);
    f = await app.figures();
    assert.equal(f.stale, true, `${key}=${bad} marks the results stale`);
    assert.match(f.input_errors[key] || '', why, `${key}=${bad}`);
    assert.equal(f['time.step_s'], before['time.step_s'], `${key}=${bad} leaves the results as they were`);
    assert.ok(await app.widgetRect('error:' + key), `${key}: the message is drawn`);
    await typeInto(app, key, good);
    f = await app.figures();
    assert.equal(f.stale, false, `${key}=${good} is accepted (after ${JSON.stringify(bad)}): ${JSON.stringify(f.input_errors)} ${f.error}`);
  }
  const tokens = scenarioFromUrl(app.page.url()).training.tokens;
  assert.equal(tokens, 1.5e12, '"1.5T" is 1.5e12 tokens');
  // A value every field accepts but the scenario does not (tp must divide the heads): also stale.
  await app.tab('Parallelism');
  await typeInto(app, 'parallel.tp', '3');
  f = await app.figures();
  assert.equal(f.stale, true);
  assert.match(f.error, /parallel\.tp: model\.heads \(32\) must be divisible by parallel\.tp \(3\)/);
  assert.ok(await app.widgetRect('error:parallel.tp'), 'the cross-field message is beside tp');
  await app.tab('Scaling');
  assert.match(await app.liveText(), /Stale/);
  await app.tab('Parallelism');
  await app.click('parallel.tp:plus');  // 3 → 4, the next power of two
  assert.equal(scenarioFromUrl(app.page.url()).parallel.tp, 4);
  await app.click('parallel.tp:minus');
  assert.equal(scenarioFromUrl(app.page.url()).parallel.tp, 2);
  assert.equal((await app.figures()).stale, false);
});

test('Hugging Face config: browser paste into the box, Import in view, errors that name the key', async (t) => {
  if (!fs.existsSync(CLI)) t.skip('native CLI not built');
  const app = await t.open('index.html');
  await app.tab('Model');
  const imp = await app.widgetRect('Import config.json');
  assert.ok(imp && imp.y + imp.h <= 800, `Import is visible without scrolling at 1280×800: ${JSON.stringify(imp)}`);
  const config = fs.readFileSync(path.join(ROOT, 'tests/fuzz/corpus/fuzz_hf_config/qwen2.5-0.5b.json'), 'utf8');
  const box = await app.widgetRect('HF config text');
  await app.clickAt(box.x + 20, box.y + 10);
  // What a browser does on Ctrl+V: a paste event carrying the clipboard's text (the page may read
  // the system clipboard only there).
  const paste = (text) => app.page.evaluate((s) => {
    const dt = new DataTransfer();
    dt.setData('text/plain', s);
    window.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
  }, text);
  // SDL prevents the default of every Ctrl chord; Ctrl+V must keep it, or no paste event comes.
  const prevented = await app.page.evaluate(() => {
    const e = new KeyboardEvent('keydown', { key: 'v', code: 'KeyV', ctrlKey: true, bubbles: true, cancelable: true });
    document.getElementById('canvas').dispatchEvent(e);
    return e.defaultPrevented;
  });
  assert.equal(prevented, false, 'Ctrl+V keeps its default (the browser\'s paste)');
  await paste(config);
  await app.waitFrames(3);
  await app.click('Import config.json', { frames: 3 });
  const f = await app.figures();
  assert.equal(f.banner_error, false, f.banner);
  const cli = JSON.parse(execFileSync(CLI, ['estimate', '--model', path.join(ROOT, 'tests/fuzz/corpus/fuzz_hf_config/qwen2.5-0.5b.json'), '--json']).toString());
  assert.equal(f['params.total'], cli.params.total, 'the pasted config was imported');
  assert.equal(f.preset, '', 'no preset is marked for an imported model');
  // A broken config names the missing key.
  await app.click('HF config text');
  await app.page.keyboard.press('Control+A');
  await app.page.keyboard.press('Delete');
  await paste('{"model_type": "llama", "hidden_size": 4096}');
  await app.waitFrames(3);
  await app.click('Import config.json', { frames: 3 });
  const g = await app.figures();
  assert.equal(g.banner_error, true);
  assert.match(g.banner, /config\.json: num_hidden_layers: missing/);
  const dismiss = await app.widgetRect('banner:dismiss');
  assert.ok(dismiss && dismiss.x + dismiss.w <= 1280, 'the banner\'s dismiss button is on screen');
  await app.click('banner:dismiss');
  assert.equal((await app.figures()).banner, '');
});

test('units, master weights, reset, help, a profile of another GPU, heatmap cells, the GPU list', async (t) => {
  const app = await t.open('index.html');
  await app.click('units:gb');
  assert.match(await app.liveText(), /Memory per GPU: [0-9.]+ GB of 85\.9 GB/);
  await app.click('units:gib');
  assert.match(await app.liveText(), /Memory per GPU: [0-9.]+ GiB of 80 GiB/);
  // bf16_mixed keeps fp32 master weights: the box shows it ticked, so a click unticks it.
  await app.tab('Training');
  const before = (await app.figures())['memory.per_gpu.total_bytes'];
  await app.click('training.master_weights');
  assert.equal(scenarioFromUrl(app.page.url()).training.master_weights, false);
  assert.ok((await app.figures())['memory.per_gpu.total_bytes'] < before, 'no master copy: less memory');
  await app.click('header:reset', { frames: 3 });
  assert.equal((await app.figures())['memory.per_gpu.total_bytes'], before);
  await app.click('header:help');
  assert.ok(await app.widgetRect('help:close'), 'the help is shown');
  await app.click('help:close');
  // A profile of another GPU: listed, said to be unused, and one click uses it with its GPU.
  await app.loadFile('h200-profile.json', fs.readFileSync(path.join(ROOT, 'site/profiles/h200.json'), 'utf8'));
  let f = await app.figures();
  assert.match(f.banner, /is for h200, not this scenario's h100-sxm: not in use/);
  await app.tab('Hardware');
  // The profiles are at the bottom of the Hardware tab: scroll down to them, as a person would.
  await app.wheelOver('hardware.gpu_count', 400);
  await app.click('profile-switch:h200-profile.json', { frames: 3 });
  f = await app.figures();
  assert.equal(f.gpu, 'h200');
  assert.match(f.profile, /^measured \(measured on NVIDIA H200/);
  // The GPU list names each GPU; picking one switches.
  await app.wheelOver('profile-switch:h200-profile.json', -400);
  await app.click('hardware.gpu', { frames: 3 });
  await app.click('gpu:h100-sxm', { frames: 3 });
  assert.equal((await app.figures()).gpu, 'h100-sxm');
  // Layouts: a colour scale; a click on a cell uses its tp and pp.
  await app.tab('Layouts', { frames: 4 });
  assert.ok(await app.widgetRect('heatmap:scale'), 'the heatmap has a colour scale');
  await app.click('heatmap:tp2,pp1', { frames: 3 });
  assert.equal(scenarioFromUrl(app.page.url()).parallel.tp, 2);
  await app.tab('Scaling', { frames: 4 });
  const plot = await app.widgetRect('scaling:plot');
  await app.page.mouse.move(plot.x + plot.w / 2, plot.y + plot.h / 2);
  await app.waitFrames(2);
});

test('below 900 px the inputs and the results are tabs of one column', async (t) => {
  const app = await t.open('index.html', { viewport: { width: 390, height: 844 } });
  assert.ok(await app.widgetRect('tab:Inputs'));
  assert.ok(await app.widgetRect('tab:Outputs'));
  await app.tab('Hardware');
  const r = await app.widgetRect('hardware.gpu_count:plus');
  assert.ok(r && r.x + r.w <= 390, `fields fit the phone's width: ${JSON.stringify(r)}`);
  await app.tab('Results');
  assert.ok(await app.widgetRect('figure:memory.per_gpu.total_bytes'), 'the results are one tap away');
});
