// Result<T>: the value or a message a person can act on. core never throws across its API.
// (std::expected is C++23 and Emscripten 3.1.6's libc++ lacks it.)
#pragma once
#include <string>
#include <utility>
#include <variant>

namespace llmc {

struct Error {
  std::string field;    // dotted key of the offending input, e.g. "parallel.tp"; empty if none
  std::string message;  // one line: what is wrong, the allowed range, the value given
  std::string text() const { return field.empty() ? message : field + ": " + message; }
};

template <class T>
class Result {
 public:
  Result(T value) : v_(std::move(value)) {}
  Result(Error error) : v_(std::move(error)) {}
  // A default value built in place, to be filled where it lies (estimates are too large to move
  // cheaply: estimate.cpp).
  explicit Result(std::in_place_t) : v_(std::in_place_index<0>) {}
  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  const T& value() const& { return std::get<0>(v_); }
  T& value() & { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  const T& operator*() const& { return value(); }
  const T* operator->() const { return &value(); }
  const Error& error() const { return std::get<1>(v_); }

 private:
  std::variant<T, Error> v_;
};

// For operations that return nothing but may fail.
struct Ok {};
using Status = Result<Ok>;
inline Status ok_status() { return Ok{}; }

inline Error make_error(std::string field, std::string message) { return Error{std::move(field), std::move(message)}; }

}  // namespace llmc
