#include "llmc_bench/atomic_write.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <sstream>

namespace llmc::bench {
namespace {

Error io_error(const std::string& path, const char* what) {
  return make_error(path, std::string(what) + ": " + std::strerror(errno));
}

std::string parent_dir(const std::string& path) {
  const auto slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

}  // namespace

std::string temp_path_for(const std::string& path) { return path + ".tmp"; }

Status write_file_atomic(const std::string& path, const std::string& content) {
  const std::string tmp = temp_path_for(path);
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return io_error(tmp, "cannot create");
  const char* p = content.data();
  std::size_t left = content.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, p, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      Error e = io_error(tmp, "write failed");
      ::close(fd);
      ::unlink(tmp.c_str());
      return e;
    }
    p += n;
    left -= std::size_t(n);
  }
  if (::fsync(fd) != 0) {
    Error e = io_error(tmp, "fsync failed");
    ::close(fd);
    ::unlink(tmp.c_str());
    return e;
  }
  if (::close(fd) != 0) {
    Error e = io_error(tmp, "close failed");
    ::unlink(tmp.c_str());
    return e;
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    Error e = io_error(path, "rename from .tmp failed");
    ::unlink(tmp.c_str());
    return e;
  }
  // Persist the directory entry; a failure here leaves a complete file, so it is not an error.
  const int dfd = ::open(parent_dir(path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
  return ok_status();
}

Status write_file_atomic(const std::string& path, const std::function<void(std::ostream&)>& produce) {
  std::ostringstream buf;
  produce(buf);  // may throw: nothing has touched the disk yet
  return write_file_atomic(path, buf.str());
}

}  // namespace llmc::bench
