// Appended inside the module factory (--post-js): the module's JS API, the same four calls the
// embind version had. Strings cross as UTF-8; the C side keeps each answer until the next call.
Module['estimate'] = (scenarioJson) => ccall('llmcalc_estimate', 'string', ['string'], [scenarioJson]);
Module['explain'] = (scenarioJson, keyPrefix) => ccall('llmcalc_explain', 'string', ['string', 'string'], [scenarioJson, keyPrefix]);
Module['shareFragment'] = (scenarioJson) => ccall('llmcalc_share_fragment', 'string', ['string'], [scenarioJson]);
Module['version'] = () => ccall('llmcalc_version', 'string', [], []);
