// llmcalc-embed.js: put llmcalc's numbers into any page.
//
//   <script src="llmcalc-embed.js"></script>
//   <span data-llmcalc="memory.per_gpu.total_bytes" data-format="bytes"
//         data-scenario='{"model": "llama3.1-8b", "hardware": {"gpu": "h100-sxm", "gpu_count": 8}}'></span>
//
// data-scenario may sit on the element or on any ancestor (data-llmcalc-scenario). data-format:
// bytes | sci | days | percent | int | raw (default: a readable number). Hovering a number shows
// its derivation (formula, inputs, source), read from the same explanation terms the calculator
// and the CLI show. The module (llmcalc_embed.js + .wasm, ~90 KB gzipped) is loaded from the
// folder this script came from. API: window.llmcalc.estimate(scenario) → result object,
// window.llmcalc.explain(scenario, keyPrefix) → text, window.llmcalc.fill(root).
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

  function format(v, fmt) {
    if (typeof v === 'boolean') return v ? 'yes' : 'no';
    if (typeof v !== 'number') return String(v);
    switch (fmt) {
      case 'raw': return String(v);
      case 'int': return Math.round(v).toLocaleString('en-US');
      case 'sci': return v.toPrecision(3).replace('e+', 'e');
      case 'percent': return (100 * v).toFixed(1) + '%';
      case 'days': return v.toFixed(1) + ' days';
      case 'bytes': {
        const units = [['TB', 1e12], ['GB', 1e9], ['MB', 1e6]];
        for (const [u, s] of units) if (Math.abs(v) >= s) return (v / s).toFixed(2) + ' ' + u;
        return v.toFixed(0) + ' B';
      }
      default:
        return Math.abs(v) >= 1e6 || (Math.abs(v) < 1e-3 && v !== 0) ? v.toPrecision(4) : String(Number(v.toPrecision(6)));
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
      el.textContent = format(v, el.getAttribute('data-format'));
      el.setAttribute('data-llmcalc-value', String(v));
      const termKey = key.endsWith('.fits') ? 'memory.per_gpu.total_bytes' : key;
      const explanation = termText(result, termKey);
      if (explanation) el.title = explanation;
    }
    document.dispatchEvent(new CustomEvent('llmcalc:filled', { detail: { count: els.length } }));
  }

  window.llmcalc = { load, estimate, explain, fill };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', () => fill(document));
  else fill(document);
})();
