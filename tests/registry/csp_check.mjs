// The site's pages under `llmcalc serve`'s Content-Security-Policy (docs/registry.md, "Headers"):
// each page runs (the app renders frames; the embed module answers) and the browser reports no
// CSP violation. Started by tests/registry/serve_check.py with the server's base URL; headless
// Chromium through playwright-core, as tests/e2e/ (loopback only).
// Usage: node tests/registry/csp_check.mjs http://127.0.0.1:PORT/    Exit status 0 when clean.
import { chromium } from 'playwright-core';

const base = process.argv[2];
const browser = await chromium.launch({
  executablePath: process.env.LLMC_CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--enable-unsafe-swiftshader', '--disable-quic', '--no-first-run',
         '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
let failed = 0;
async function visit(path, ready) {
  const page = await browser.newPage();
  const violations = [];
  page.on('console', (m) => { if (/Content Security Policy/i.test(m.text())) violations.push(m.text()); });
  page.on('pageerror', (e) => violations.push('page error: ' + e.message));
  const res = await page.goto(base + path);
  const csp = res.headers()['content-security-policy'] || '';
  let what = '';
  try {
    what = await ready(page);
  } catch (e) {
    violations.push('did not run: ' + e.message.split('\n')[0]);
  }
  await page.close();
  if (!csp) violations.push('no Content-Security-Policy header');
  if (violations.length) {
    failed++;
    console.log(`FAIL ${path}:\n  ` + violations.join('\n  '));
  } else {
    console.log(`ok   ${path} runs under the CSP (${what})`);
  }
}
const frames = (n) => async (page) => {
  await page.waitForFunction((k) => window.Module && Module.llmcalcFrame >= k, n, { timeout: 60000 });
  return `${n}+ frames rendered`;
};
await visit('index.html', frames(3));
await visit('embed.html#s=%7B%22model%22%3A%7B%22preset%22%3A%22llama3.1-70b%22%7D%7D', frames(3));
await visit('docs/embedding.html', async (page) => {
  await page.waitForFunction(() => window.llmcalc, null, { timeout: 30000 });
  await page.click('#run-js');
  await page.waitForFunction(() => /GiB per GPU/.test(document.getElementById('js-out').textContent), null, { timeout: 30000 });
  return 'its inline script ran the embed module: ' + (await page.textContent('#js-out'));
});
await browser.close();
process.exit(failed ? 1 : 0);
