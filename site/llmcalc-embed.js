// llmcalc-embed.js: put llmcalc's numbers into any page.
//
//   <script src="llmcalc-embed.js"></script>
//   <span data-llmcalc="memory.per_gpu.total_bytes" data-format="bytes"
//         data-scenario='{"model": "llama3.1-8b", "hardware": {"gpu": "h100-sxm", "gpu_count": 8}}'></span>
//
// data-scenario may sit on the element or on any ancestor (data-llmcalc-scenario). data-format:
// bytes | duration | days | usd | percent | flops | count | int | sci | raw; without one, the key
// decides (…_bytes, …_s, …_days, …_usd, mfu, flops.…; else a count). Numbers are formatted by
// llmcalc's own formatter (the calculator's: 8.03B, 51.5 ZFLOP, 66.5 GiB, $586.9k, 27.4 days);
// memory is in GiB unless data-memory-units="gb" (on the element or an ancestor). Hovering a
// number shows its derivation (formula, inputs, source), read from the same explanation terms
// the calculator and the CLI show. The module (llmcalc_embed.js + .wasm, under 100 KB gzipped) is
// loaded from the folder this script came from. API: window.llmcalc.estimate(scenario) → result
// object, window.llmcalc.explain(scenario, keyPrefix) → text, window.llmcalc.format(value, unit,
// memoryUnits) → text, window.llmcalc.fill(root).
(function () {
  'use strict';
  const base = new URL('.', (document.currentScript && document.currentScript.src) || location.href);
  let modulePromise = null;

  function load() {
    if (!modulePromise) {
      modulePromise = new Promise((resolve, reject) => {
        const s = document.createElement('script');
        s.src = new URL('llmcalc_embed.js', base).href;
        s.onload = () => createLlmcalc({ locateFile: (f) => new URL(f, base).href }).then(resolve, reject);
        s.onerror = () => reject(new Error('llmcalc: could not load ' + s.src));
        document.head.appendChild(s);
      });
    }
    return modulePromise;
  }

  const text = (scenario) => (typeof scenario === 'string' ? scenario : JSON.stringify(scenario));

  async function estimate(scenario) {
    const m = await load();
    return JSON.parse(m.estimate(text(scenario)));
  }

  async function explain(scenario, keyPrefix) {
    const m = await load();
    return m.explain(text(scenario), keyPrefix || '');
  }

  function lookup(obj, path) {
    let cur = obj;
    for (const part of path.split('.')) {
      if (cur === null || typeof cur !== 'object' || !(part in cur)) return undefined;
      cur = cur[part];
    }
    return cur;
  }

  // data-format (or the key's unit suffix) → the unit names of llmcalc's formatter (core format.h).
  const UNITS = { bytes: 'bytes', duration: 's', days: 'days', usd: 'USD', percent: 'fraction', flops: 'FLOPs', count: '' };
  function unitOf(key) {
    if (/_bytes$/.test(key)) return 'bytes';
    if (/_days(_low|_high)?$/.test(key)) return 'days';
    if (/_usd(_low|_high)?$/.test(key)) return 'USD';
    if (/_s$/.test(key)) return 's';
    if (/(mfu|hfu|fraction)$/.test(key)) return 'fraction';
    if (/^flops\.(?!pflop_days)/.test(key)) return 'FLOPs';
    return '';
  }

  function format(m, v, fmt, key, memoryUnits) {
    if (typeof v === 'boolean') return v ? 'yes' : 'no';
    if (typeof v !== 'number') return String(v);
    switch (fmt) {
      case 'raw': return String(v);
      case 'int': return Math.round(v).toLocaleString('en-US');
      case 'sci': return v.toPrecision(3).replace('e+', 'e');
      default: return m.format(v, fmt in UNITS ? UNITS[fmt] : unitOf(key), memoryUnits);
    }
  }

  function termText(result, key) {
    const t = (result.terms || []).find((x) => x.key === key);
    if (!t) return '';
    const inputs = Object.entries(t.inputs).map(([k, v]) => k + ' = ' + v).join(', ');
    return key + ' = ' + t.formula + (inputs ? '\nwhere ' + inputs : '') + '\n= ' + t.value + (t.source ? '\nsource: ' + t.source : '');
  }

  async function fill(root) {
    const scope = root || document;
    const m = await load().catch(() => null);
    const els = scope.querySelectorAll('[data-llmcalc]');
    const cache = new Map();
    for (const el of els) {
      const holder = el.hasAttribute('data-scenario') ? el : el.closest('[data-llmcalc-scenario]');
      const scenario = holder ? holder.getAttribute(holder === el ? 'data-scenario' : 'data-llmcalc-scenario') : null;
      if (!scenario) {
        el.textContent = 'llmcalc: no data-scenario';
        el.classList.add('llmcalc-error');
        continue;
      }
      if (!cache.has(scenario)) cache.set(scenario, await estimate(scenario).catch((e) => ({ error: { field: 'module', message: String(e) } })));
      const result = cache.get(scenario);
      if (result.error) {
        el.textContent = 'error: ' + result.error.field + ': ' + result.error.message;
        el.classList.add('llmcalc-error');
        continue;
      }
      const key = el.getAttribute('data-llmcalc');
      const v = lookup(result, key);
      if (v === undefined) {
        el.textContent = 'llmcalc: no figure ' + key;
        el.classList.add('llmcalc-error');
        continue;
      }
      const unitsHolder = el.closest('[data-memory-units]');
      el.textContent = m ? format(m, v, el.getAttribute('data-format'), key, unitsHolder ? unitsHolder.getAttribute('data-memory-units') : 'gib') : String(v);
      el.setAttribute('data-llmcalc-value', String(v));
      const termKey = key.endsWith('.fits') ? 'memory.per_gpu.total_bytes' : key;
      const explanation = termText(result, termKey);
      if (explanation) el.title = explanation;
    }
    document.dispatchEvent(new CustomEvent('llmcalc:filled', { detail: { count: els.length } }));
  }

  async function formatNumber(value, unit, memoryUnits) {
    return (await load()).format(value, unit || '', memoryUnits || 'gib');
  }

  window.llmcalc = { load, estimate, explain, format: formatNumber, fill };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', () => fill(document));
  else fill(document);
})();
