// Numbers as engineers type them: the one parser behind `--set`, scenario files, share links and
// the UI's input fields (all of them reach it through set_field()).
//
//   1e9  1.5e12  -3  .5          plain decimal, with an exponent
//   8k  1.5M  70B  15T  2P       decimal multipliers: k 1e3, M (or m) 1e6, B (or G) 1e9, T 1e12, P 1e15
//   4Ki  2Mi  1Gi  1Ti  1Pi      binary multipliers: 2^10, 2^20, 2^30, 2^40, 2^50
//   2^20  10^12  2**20           an integer power
//   45%                          a percentage: 0.45
//   1_000_000  1,000,000         digit groups (commas only between groups of three digits)
//   0x40                         hexadecimal (strtod's forms, read before this parser existed)
// Letters are case-insensitive except that "e" is always the exponent; spaces may sit between the
// number and its multiplier ("1.5 T"), and a Unicode minus (U+2212) counts as "-". Decimal
// multipliers scale the digits exactly ("8.03B" is 8030000000, not 8.03 × 1e9 rounded twice).
#pragma once
#include <string>

#include "llmc/result.h"

namespace llmc {

// The value of `text`, or an error without a field name whose message says what is wrong in a
// phrase ("not a number (e.g. ...)", "unknown multiplier 'x' (...)"), for set_field() to quote
// after the field and the text. Never returns a non-finite value.
Result<double> parse_number(const std::string& text);

// A short text for `v` that parse_number() reads back to exactly `v`: "4096", "1T", "15.6T",
// "8030261248", "0.45", "1.5e-05". What the UI puts in an input box.
std::string number_input_text(double v);

}  // namespace llmc
