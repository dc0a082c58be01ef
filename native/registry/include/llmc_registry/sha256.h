// SHA-256, random secrets and constant-time comparison, from OpenSSL's libcrypto (no crypto of
// our own). Profile ids are SHA-256 of the canonical profile text; tokens are stored as their
// SHA-256.
#pragma once
#include <string>
#include <string_view>

namespace llmc::registry {

// Lower-case hex of SHA-256(bytes): 64 characters.
std::string sha256_hex(std::string_view bytes);

// `n_bytes` bytes from OpenSSL's CSPRNG as lower-case hex (2 × n_bytes characters); throws
// std::runtime_error when the generator fails (never returns a weak secret).
std::string random_hex(int n_bytes);

// a == b, in time that depends on the lengths only (CRYPTO_memcmp).
bool equal_constant_time(std::string_view a, std::string_view b);

}  // namespace llmc::registry
