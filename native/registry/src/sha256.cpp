#include "llmc_registry/sha256.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>

#include <stdexcept>

namespace llmc::registry {
namespace {

std::string to_hex(const unsigned char* p, size_t n) {
  static const char digits[] = "0123456789abcdef";
  std::string out(2 * n, '0');
  for (size_t i = 0; i < n; ++i) {
    out[2 * i] = digits[p[i] >> 4];
    out[2 * i + 1] = digits[p[i] & 15];
  }
  return out;
}

}  // namespace

std::string sha256_hex(std::string_view bytes) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  if (EVP_Digest(bytes.data(), bytes.size(), md, &len, EVP_sha256(), nullptr) != 1)
    throw std::runtime_error("OpenSSL EVP_Digest(SHA-256) failed");
  return to_hex(md, len);
}

std::string random_hex(int n_bytes) {
  std::string buf(size_t(n_bytes), '\0');
  if (RAND_bytes(reinterpret_cast<unsigned char*>(buf.data()), n_bytes) != 1)
    throw std::runtime_error("OpenSSL RAND_bytes failed: no secure random bytes available");
  return to_hex(reinterpret_cast<const unsigned char*>(buf.data()), buf.size());
}

bool equal_constant_time(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  return CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace llmc::registry
