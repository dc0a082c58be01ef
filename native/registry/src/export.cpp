#include "llmc_registry/export.h"

#include <filesystem>
#include <fstream>

namespace llmc::registry {
namespace {

namespace fs = std::filesystem;

Status write_file(const fs::path& p, const std::string& bytes) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), std::streamsize(bytes.size()));
  out.close();
  if (!out) return make_error(p.string(), "cannot write");
  return ok_status();
}

}  // namespace

Result<size_t> export_static(Store& store, const std::string& dir_arg) {
  if (dir_arg.empty()) return make_error("export", "needs a directory");
  const fs::path dir = fs::path(dir_arg).lexically_normal();
  std::error_code ec;
  if (fs::exists(dir, ec)) {
    if (!fs::is_directory(dir, ec)) return make_error(dir_arg, "exists and is not a directory");
    if (!fs::is_empty(dir, ec) && !fs::exists(dir / "index.json", ec))
      return make_error(dir_arg,
                        "is a directory that is neither empty nor an earlier export (no index.json): not replaced");
  }
  auto list = store.list_profiles();
  if (!list) return list.error();
  const fs::path partial = fs::path(dir.string() + ".partial"), old = fs::path(dir.string() + ".old");
  fs::remove_all(partial, ec);
  fs::create_directories(partial / "profiles", ec);
  if (ec) return make_error(partial.string(), "cannot create: " + ec.message());
  for (const ProfileEntry& e : *list) {
    auto got = store.get_profile(e.id);
    if (!got) return got.error();
    if (!*got) return make_error(e.id, "vanished during the export");
    if (Status st = write_file(partial / "profiles" / (e.id + ".json"), (*got)->second); !st) return st.error();
  }
  if (Status st = write_file(partial / "index.json", list_json(*list)); !st) return st.error();
  fs::remove_all(old, ec);
  if (fs::exists(dir)) {
    fs::rename(dir, old, ec);
    if (ec) return make_error(dir_arg, "cannot move the earlier export aside: " + ec.message());
  }
  fs::rename(partial, dir, ec);
  if (ec) return make_error(dir_arg, "cannot move the export into place: " + ec.message());
  fs::remove_all(old, ec);
  return list->size();
}

}  // namespace llmc::registry
