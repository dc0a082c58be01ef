// Appended inside the module factory (--post-js): the module's JS API, the four calls the embind
// version had, and format() (core's number formatter, as the calculator shows numbers). Strings cross as UTF-8; the C side keeps each answer until the next call.
Module['estimate'] = (scenarioJson) => ccall('llmcalc_estimate', 'string', ['string'], [scenarioJson]);
Module['explain'] = (scenarioJson, keyPrefix) => ccall('llmcalc_explain', 'string', ['string', 'string'], [scenarioJson, keyPrefix]);
Module['shareFragment'] = (scenarioJson) => ccall('llmcalc_share_fragment', 'string', ['string'], [scenarioJson]);
Module['version'] = () => ccall('llmcalc_version', 'string', [], []);
Module['format'] = (value, unit, memoryUnits) =>
  ccall('llmcalc_format', 'string', ['number', 'string', 'number'], [value, unit || '', memoryUnits === 'gb' ? 1 : 0]);
