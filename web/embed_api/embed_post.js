// Appended inside the module factory (--post-js): the module's JS API, the four calls the embind
// version had, and format() (core's number formatter, as the calculator shows numbers). Strings cross as UTF-8; the C side keeps each answer until the next call.
// call(): each string argument copied to the stack as UTF-8 (at most 4 bytes a UTF-16 unit, as
// ccall sizes it), the C answer read back; ccall itself stays out of the module (its size budget).
function call(fn, args) {
  const sp = stackSave();
  const ptrs = args.map((a) => {
    if (typeof a !== 'string') return a;
    const size = (a.length << 2) + 1, p = stackAlloc(size);
    stringToUTF8(a, p, size);
    return p;
  });
  const out = UTF8ToString(fn(...ptrs));
  stackRestore(sp);
  return out;
}
Module['estimate'] = (scenarioJson) => call(_llmcalc_estimate, [scenarioJson]);
Module['explain'] = (scenarioJson, keyPrefix) => call(_llmcalc_explain, [scenarioJson, keyPrefix]);
Module['shareFragment'] = (scenarioJson) => call(_llmcalc_share_fragment, [scenarioJson]);
Module['version'] = () => call(_llmcalc_version, []);
Module['format'] = (value, unit, memoryUnits) =>
  call(_llmcalc_format, [value, unit || '', memoryUnits === 'gb' ? 1 : 0]);
