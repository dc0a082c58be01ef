// text_to_double(): strtod's grammar and its correctly rounded result, computed in double and
// integer arithmetic only. musl's strtod works in 128-bit long double, which WebAssembly emulates
// in software: about 7 KB of the gzipped embed module. The embed links this in its place
// (web/embed_api/libc_strtod.cpp); tests/test_text_to_double.cpp checks it against the C library.
#pragma once

namespace llmc::detail {

// Reads a number from the start of `text` as C's strtod does (leading white space, a sign, then
// decimal digits with an optional point and exponent, "0x" hexadecimal with an optional binary
// exponent, "inf", "infinity" or "nan"), rounded to nearest, ties to even. `*end` (when not null)
// is set past what was read, or to `text` when nothing was. errno is not set.
double text_to_double(const char* text, char** end);

}  // namespace llmc::detail
