// `llmcalc serve export DIR`: the registry as static files, for any static host or CDN:
//   DIR/index.json               the list, byte for byte what GET /api/v1/profiles answers
//   DIR/profiles/<id>.json       each profile, byte for byte what GET /api/v1/profiles/<id> answers
// The same relative paths work against a running server at <server>/api/v1/ (docs/registry.md).
#pragma once
#include <string>

#include "llmc/result.h"
#include "llmc_registry/store.h"

namespace llmc::registry {

// Writes into DIR.partial and swaps it in, so a reader never sees half an export. DIR must be
// absent, empty, or an earlier export (it holds index.json): anything else is refused rather
// than replaced. Returns the number of profiles written.
Result<size_t> export_static(Store& store, const std::string& dir);

}  // namespace llmc::registry
