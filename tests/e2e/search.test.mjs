// The Search tab: a scenario from the URL, a click on "Run search", the best layout read from the
// page's figures (search.best) and checked against `llmcalc search --json`; Apply on a row and on
// a heatmap cell; and a benchmark that prints the in-browser search times (docs/benchmarks.md
// records them).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { test, assert, ROOT } from './harness.mjs';

const CLI = path.join(ROOT, 'build/native/native/cli/llmcalc');

function cliSearch(scenario) {
  const file = path.join(os.tmpdir(), `llmcalc-e2e-search-${process.pid}-${Date.now()}.json`);
  fs.writeFileSync(file, JSON.stringify(scenario));
  try {
    return JSON.parse(execFileSync(CLI, ['search', file, '--json']).toString());
  } finally {
    fs.unlinkSync(file);
  }
}

const layoutKey = (l) =>
  `tp${l.tp},pp${l.pp},dp${l.dp},cp${l.cp},ep${l.ep},v${l.virtual_stages},mb${l.micro_batch},${l.recompute},zero${l.zero_stage}`;

// Open the scenario, run the search from the Search tab, return the page's search figures.
export async function runSearch(app, timeout = 180000) {
  await app.tab('Search');
  assert.ok(await app.widgetRect('search:run'), 'the Run search button is drawn');
  assert.equal((await app.figures()).search, undefined, 'nothing is searched before the click');
  await app.click('search:run', { frames: 1 });
  await app.page.waitForFunction(() => 'search' in JSON.parse(document.body.getAttribute('data-llmcalc-figures') || '{}'), null, { timeout });
  await app.waitFrames(2);
  return (await app.figures()).search;
}

async function searchInPage(t, scenario, timeout = 180000) {
  const app = await t.open('index.html#s=' + encodeURIComponent(JSON.stringify(scenario)));
  return { app, f: await runSearch(app, timeout) };
}

test('Search tab: the best layout of Llama 3.1 8B on 8 H100s equals the CLI search', async (t) => {
  if (!fs.existsSync(CLI)) t.skip('native CLI not built');
  const scenario = { model: { preset: 'llama3.1-8b' }, hardware: { gpu: 'h100-sxm', gpu_count: 8 }, training: { global_batch_seqs: 64 } };
  const { app, f } = await searchInPage(t, scenario);
  const cli = cliSearch(scenario);
  assert.equal(f.best, layoutKey(cli.top[0]), `page ${f.best} vs CLI ${layoutKey(cli.top[0])}`);
  assert.ok(Math.abs(f.step_s - cli.top[0].step_s) <= 1e-12 * cli.top[0].step_s, `step ${f.step_s} vs ${cli.top[0].step_s}`);
  assert.ok(await app.widgetRect('search:heatmap'), 'the tp × pp heatmap was drawn');
  assert.ok(await app.widgetRect('search:heatmap:scale'), 'the heatmap has a colour scale');
  // Rows that differ from a better one in a single knob are folded under it.
  for (const [i, row] of f.rows.entries()) {
    if (row.leader < 0) continue;
    const a = cli.top[i], b = cli.top[row.leader];
    const knobs = ['tp', 'pp', 'cp', 'ep', 'virtual_stages', 'micro_batch', 'recompute', 'zero_stage', 'schedule'];
    // One knob (recompute_layers, not in the JSON, can be the one: then none differs here).
    assert.ok(knobs.filter((k) => a[k] !== b[k]).length <= 1, `row ${i + 1} folded under ${row.leader + 1} differs in one knob`);
  }
  t.note(`best ${f.best}, step ${f.step_s.toFixed(4)} s; search ${f.ms.toFixed(1)} ms in the page; page == CLI`);
});

// A benchmark, not a timed test: prints the wasm search times (the heatmap's searches separately).
test('benchmark: layout search in the browser (22B on 64, 405B on 16,384)', async (t) => {
  const s22 = { model: { preset: 'megatron-22b' }, hardware: { gpu: 'h100-sxm', gpu_count: 64 },
    training: { global_batch_seqs: 1024, tokens: 1e12 } };
  const s405 = { model: { preset: 'llama3.1-405b' }, hardware: { gpu: 'h100-sxm', gpu_count: 16384 }, parallel: { tp: 8, pp: 16 },
    training: { seq_len: 8192, global_batch_seqs: 2048, tokens: 15.6e12, sequence_parallel: true } };
  const a = (await searchInPage(t, s22)).f;
  const b = (await searchInPage(t, s405)).f;
  assert.ok(a.best && b.best, 'both searches found a layout');
  const line = `search wasm ms: 22b/64=${a.ms.toFixed(1)} 405b/16384=${b.ms.toFixed(1)}`;
  console.log(`      e2e: ${line} (tp × pp heatmap searches: ${a.heat_ms.toFixed(1)} / ${b.heat_ms.toFixed(1)} ms)`);
  t.note(`22b best ${a.best}; 405b best ${b.best}`);
});
