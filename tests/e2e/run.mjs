#!/usr/bin/env node
// Browser tests of the llmcalc page: `node tests/e2e/run.mjs [--grep TEXT]` (or `npm run e2e`).
// Needs: scripts/build-site.sh (build/site/), Debian's chromium (scripts/setup.sh web) and
// `npm ci` (playwright-core; never `npx playwright install`). Imports every tests/e2e/*.test.mjs
// (in name order), runs the tests they register, prints one line per test and
// `e2e: N passed, M failed` at the end; exit status 1 when any failed.
// Env: LLMC_E2E_SITE (default build/site), LLMC_CHROMIUM (default /usr/bin/chromium),
//      LLMC_E2E_READY_TIMEOUT_MS (default 60000).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { runTests } from './harness.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
let grep = '';
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--grep' && i + 1 < args.length) grep = args[++i];
  else if (args[i].startsWith('--grep=')) grep = args[i].slice('--grep='.length);
  else {
    console.error('usage: node tests/e2e/run.mjs [--grep TEXT]');
    process.exit(2);
  }
}

for (const f of fs.readdirSync(here).filter((n) => n.endsWith('.test.mjs')).sort()) {
  await import(pathToFileURL(path.join(here, f)).href);
}

const t0 = Date.now();
let counts;
try {
  counts = await runTests({ grep });
} catch (e) {
  console.error(`e2e: harness error: ${(e && e.stack) || e}`);
  counts = { passed: 0, failed: 1, skipped: 0 };
}
const skipped = counts.skipped ? `, ${counts.skipped} skipped` : '';
console.log(`e2e: ${counts.passed} passed, ${counts.failed} failed${skipped} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
process.exit(counts.failed ? 1 : 0);
