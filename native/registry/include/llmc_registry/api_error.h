// An error the registry API answers with: HTTP status, a stable code, the offending field (when
// there is one) and a message a person can act on. Sent as {"error": code, "message": ..., "field": ...}
// (docs/registry.md, "Errors").
#pragma once
#include <string>

namespace llmc::registry {

struct ApiError {
  int status = 400;
  std::string code;     // e.g. "invalid_profile", "unauthorized"
  std::string message;  // one line; for a refused profile, exactly what `llmcalc profile --check` prints
  std::string field;    // "" when the error is not about one field
};

// The JSON body of the error response (compact, one line).
std::string error_body(const ApiError& e);

}  // namespace llmc::registry
