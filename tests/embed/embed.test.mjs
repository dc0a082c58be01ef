// The embed module (web/embed_api) under node's test runner: same numbers as the native CLI
// for the same scenario, clear errors for bad input. Run: node --test tests/embed/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const dir = path.join(root, 'build/wasm/web/embed_api');
const cli = path.join(root, 'build/native/native/cli/llmcalc');
const require = createRequire(import.meta.url);

async function module() {
  const createLlmcalc = require(path.join(dir, 'llmcalc_embed.js'));
  // Node 20's fetch cannot read file paths: hand the wasm bytes over directly (toolchain notes).
  return createLlmcalc({ wasmBinary: readFileSync(path.join(dir, 'llmcalc_embed.wasm')) });
}

const scenario = {
  model: 'llama3.1-70b',
  training: { tokens: 2e12, global_batch_seqs: 256, zero_stage: 1, sequence_parallel: true },
  parallel: { tp: 8, pp: 2 },
  hardware: { gpu: 'h100-sxm', gpu_count: 64 },
};

test('estimate() gives the CLI\'s numbers bit for bit', { skip: !existsSync(cli) && 'native CLI not built' }, async () => {
  const m = await module();
  const js = JSON.parse(m.estimate(JSON.stringify(scenario)));
  const tmp = path.join(root, 'build/embed-test-scenario.json');
  (await import('node:fs')).writeFileSync(tmp, JSON.stringify(scenario));
  const native = JSON.parse(execFileSync(cli, ['estimate', tmp, '--json']).toString());
  for (const k of ['params.total', 'flops.model_total', 'memory.per_gpu.total_bytes', 'time.step_s', 'time.total_days', 'time.mfu']) {
    const get = (o) => k.split('.').reduce((a, p) => a[p], o);
    assert.equal(get(js), get(native), k);
  }
  assert.equal(js.memory.fits, native.memory.fits);
  assert.ok(js.terms.length > 20, 'explanation terms included');
});

test('explain() renders derivations', async () => {
  const m = await module();
  const text = m.explain(JSON.stringify(scenario), 'memory.per_gpu.weights_bytes');
  assert.match(text, /memory\.per_gpu\.weights_bytes = \(params_local − linear_weights_local\) × bytes_per_param/);
  assert.match(text, /source:/);
});

test('bad input gives an error object naming the field', async () => {
  const m = await module();
  const r = JSON.parse(m.estimate(JSON.stringify({ ...scenario, parallel: { tp: 3 } })));
  assert.equal(r.error.field, 'parallel.tp');
  assert.match(r.error.message, /model\.heads \(64\) must be divisible by parallel\.tp \(3\)/);
  const bad = JSON.parse(m.estimate('{"training": {"micro_batch": 0}}'));
  assert.equal(bad.error.field, 'training.micro_batch');
  const junk = JSON.parse(m.estimate('{not json'));
  assert.equal(junk.error.field, 'scenario');
});

// The module is built without C++ exceptions (cmake/platform.cmake): JSON errors come back as
// values with the parser's position, and the module goes on working after them.
test('malformed JSON is reported with its position, without aborting the module', async () => {
  const m = await module();
  const cases = [
    ['{"training": {"tokens": 1e400}}', /not valid JSON: number overflow parsing '1e400'/],
    ['{"model": "llama3.1-8b"} trailing', /not valid JSON: parse error at line 1, column 28: .*expected end of input/],
    ['{"training": [1, 2,', /not valid JSON: parse error at line 1, column 20: .*unexpected end of input/],
    ['', /not valid JSON: parse error at line 1, column 1/],
  ];
  for (const [text, message] of cases) {
    const r = JSON.parse(m.estimate(text));
    assert.equal(r.error.field, 'scenario', text);
    assert.match(r.error.message, message, text);
    assert.equal(m.shareFragment(text), '', text);
    assert.match(m.explain(text, 'params'), /^error: scenario: not valid JSON/, text);
  }
  assert.ok(JSON.parse(m.estimate(JSON.stringify(scenario))).time.step_s > 0);
});

test('shareFragment() round-trips through the calculator\'s URL state', async () => {
  const m = await module();
  const frag = m.shareFragment(JSON.stringify(scenario));
  assert.match(frag, /^#s=/);
  const decoded = JSON.parse(decodeURIComponent(frag.slice(3)));
  assert.equal(decoded.parallel.tp, 8);
  assert.equal(m.version(), '0.1.0');
});

// The embed module carries its own copy of the catalog, without the citation texts
// (cmake/embed_data.cmake LEAN): every model and GPU preset must read as in the CLI.
test('every preset reads as in the CLI (the embed module\'s catalog copy)', { skip: !existsSync(cli) && 'native CLI not built' }, async () => {
  const m = await module();
  const presets = JSON.parse(execFileSync(cli, ['presets', '--json']).toString());
  const tmp = path.join(root, 'build/embed-test-scenario.json');
  const fs = await import('node:fs');
  const cases = [
    ...presets.models.map((x) => ({ model: x.id, hardware: { gpu: 'h100-sxm', gpu_count: 64 }, training: { global_batch_seqs: 64 } })),
    // bf16 where the GPU has it; fp16 on those without (V100), where bf16 is an input error.
    ...presets.gpus.map((x) => ({
      model: 'llama3.1-8b',
      hardware: { gpu: x.id, gpu_count: 8 },
      training: { global_batch_seqs: 64, precision: x.peak_bf16_tflops > 0 ? 'bf16_mixed' : 'fp16_mixed' },
    })),
  ];
  for (const s of cases) {
    const js = JSON.parse(m.estimate(JSON.stringify(s)));
    fs.writeFileSync(tmp, JSON.stringify(s));
    const native = JSON.parse(execFileSync(cli, ['estimate', tmp, '--json']).toString());
    assert.ok(!js.error, `${s.model} on ${s.hardware.gpu}: ${JSON.stringify(js.error)}`);
    for (const k of ['params.total', 'memory.per_gpu.total_bytes', 'time.step_s']) {
      const get = (o) => k.split('.').reduce((a, p) => a[p], o);
      assert.equal(get(js), get(native), `${s.model} on ${s.hardware.gpu}: ${k}`);
    }
  }
});

test('format() is the calculator\'s formatter (core format.h): SI multipliers, GiB unless GB', async () => {
  const m = await module();
  assert.equal(m.format(80 * 2 ** 30, 'bytes'), '80 GiB');
  assert.equal(m.format(80 * 2 ** 30, 'bytes', 'gb'), '85.9 GB');
  assert.equal(m.format(5.15e22, 'FLOPs'), '51.5 ZFLOP');
  assert.equal(m.format(586917, 'USD'), '$586.9k');
  assert.equal(m.format(8030261248, ''), '8.03B');
  assert.equal(m.format(27.43, 'days'), '27.4 days');
  assert.equal(m.format(0.4567, 'fraction'), '45.7%');
  assert.equal(m.format(0.8452, 's'), '845.2 ms');
});

test('scenario values may use the forms engineers type (15T, 4Mi, 2^20): same result as plain numbers', async () => {
  const m = await module();
  const plain = JSON.parse(m.estimate(JSON.stringify({ ...scenario, training: { ...scenario.training, tokens: 15e12 } })));
  const typed = JSON.parse(m.estimate(JSON.stringify({ ...scenario, training: { ...scenario.training, tokens: '15T' } })));
  assert.equal(typed.time.total_days, plain.time.total_days);
  const bad = JSON.parse(m.estimate(JSON.stringify({ ...scenario, training: { ...scenario.training, tokens: '15 trillion' } })));
  assert.equal(bad.error.field, 'training.tokens');
  assert.match(bad.error.message, /unknown multiplier 'trillion'/);
});
