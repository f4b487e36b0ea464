// CompletionRelay: the one way device threads (the simulator thread completing URBs) hand work to
// the server's io_context thread. Closing it — before the io_context is destroyed — turns every
// later hand-over into a no-op, so a URB that completes during or after shutdown can never touch
// a dead io_context. Shared by the server and every completion callback it gives a device.
#pragma once

#include <functional>
#include <memory>
#include <mutex>

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>

namespace coralsim::usbip {

class CompletionRelay {
 public:
  explicit CompletionRelay(boost::asio::io_context& io) : io_(&io) {}

  // Runs `work` on the io_context thread, unless the relay is closed (then drops it).
  void post(std::function<void()> work) {
    std::lock_guard lock(mutex_);
    if (io_ != nullptr) boost::asio::post(*io_, std::move(work));
  }

  void close() {
    std::lock_guard lock(mutex_);
    io_ = nullptr;
  }

 private:
  std::mutex mutex_;
  boost::asio::io_context* io_;
};

}  // namespace coralsim::usbip
