// The one error type of model loading, and `Where`, the breadcrumb that gives every message its
// location: "dense_256_edgetpu.tflite: custom op 0 (subgraph 0): Package (key 4): executable 1:
// instruction_bitstreams[0]: 1000 bytes is not a whole number of 16-byte words".
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

namespace coralsim::driver {

class LoadError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Where {
 public:
  explicit Where(std::string root) : path_(std::move(root)) {}

  // A location inside this one: "<this>: <part>".
  [[nodiscard]] Where operator/(std::string_view part) const { return Where(path_ + ": " + std::string(part)); }

  [[noreturn]] void fail(std::string_view what) const { throw LoadError(path_ + ": " + std::string(what)); }

  [[nodiscard]] const std::string& str() const { return path_; }

 private:
  std::string path_;
};

}  // namespace coralsim::driver
