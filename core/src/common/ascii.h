// Character classes of the ASCII texts core parses (numbers, share links), independent of the C
// locale that <cctype> consults.
#pragma once

namespace llmc::detail {

constexpr bool is_digit(char c) { return c >= '0' && c <= '9'; }
constexpr char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }
// A hexadecimal digit's value (either case), or -1.
constexpr int hex_value(char c) {
  if (is_digit(c)) return c - '0';
  const char l = lower(c);
  return l >= 'a' && l <= 'f' ? l - 'a' + 10 : -1;
}

}  // namespace llmc::detail
