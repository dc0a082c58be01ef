#include "llmc_registry/api_error.h"

#include <nlohmann/json.hpp>

namespace llmc::registry {

std::string error_body(const ApiError& e) {
  nlohmann::ordered_json j;
  j["error"] = e.code;
  j["message"] = e.message;
  if (!e.field.empty()) j["field"] = e.field;
  j["status"] = e.status;
  // Messages may quote user bytes (a bad label): never let invalid UTF-8 make the error fail.
  return j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

}  // namespace llmc::registry
