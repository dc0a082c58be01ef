// The C library's decimal-to-double conversions, replaced in the embed module only: musl's
// compute in 128-bit long double, which WebAssembly emulates in software (7.1 KB of the module
// gzipped; this one costs 1.9 KB). The JSON parser and std::stod call strtod; strtof and strtold are
// defined too, or the linker would bring musl's file that holds all three.
// Correctly rounded like musl's (tests/test_text_to_double.cpp): the same bits in every build.
#include <cstdlib>

#include "common/text_to_double.h"

extern "C" {
double strtod(const char* text, char** end) { return llmc::detail::text_to_double(text, end); }
// Rounded twice (to double, then to float); nothing in core reads a float.
float strtof(const char* text, char** end) { return static_cast<float>(llmc::detail::text_to_double(text, end)); }
long double strtold(const char* text, char** end) { return llmc::detail::text_to_double(text, end); }
}
