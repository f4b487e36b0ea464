// FakeExportedDevice: a small USB device behind usbip::ExportedDevice for the USB/IP server's tests
// and benchmarks, with the threading contract of sim::Device: control answered at once, bulk and
// interrupt URBs completed later on a thread of the device's own (never the caller's), cancel()
// atomic with completion — bytes are bound to a URB only when it completes, so a URB that is
// cancelled never takes data with it.
//
//   EP 0     GET_DESCRIPTOR(DEVICE) from info(); vendor 0xC0/0x40 bRequest 0/1 read/write a register
//            file (CSR-style: address = wIndex << 16 | wValue); bRequest 0xEE STALLs; the rest ACKs.
//   EP 0x01  OUT: accepted at once (or held while holdOut(true)); in loopback mode the bytes become
//            readable on EP 0x81.
//   EP 0x81/0x82/0x83  IN: FIFO per endpoint; a URB completes with min(length, available) bytes as
//            soon as any byte is available (produce()). In `endlessIn` mode every IN completes at
//            once with `length` pattern bytes (benchmarks).
//   other endpoints: STALL.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

#include "usbip/exported_device.h"

namespace coralsim::testing {

inline usbip::ExportedDeviceInfo runtimeCoralInfo(usb::UsbSpeed speed = usb::UsbSpeed::kSuper) {
  usbip::ExportedDeviceInfo info;
  info.speed = speed;
  info.idVendor = 0x18D1;
  info.idProduct = 0x9302;
  info.bcdDevice = 0x0100;
  info.bConfigurationValue = 1;
  info.interfaces = {{0xFF, 0xFF, 0xFF}};
  return info;
}

inline usbip::ExportedDeviceInfo bootloaderCoralInfo(usb::UsbSpeed speed = usb::UsbSpeed::kSuper) {
  usbip::ExportedDeviceInfo info = runtimeCoralInfo(speed);
  info.idVendor = 0x1A6E;
  info.idProduct = 0x089A;
  info.interfaces = {{0xFE, 0x01, 0x02}};
  return info;
}

class FakeExportedDevice final : public usbip::ExportedDevice {
 public:
  struct Options {
    usbip::ExportedDeviceInfo info = runtimeCoralInfo();
    bool loopback = true;    // EP 0x01 OUT bytes are read back on EP 0x81
    bool endlessIn = false;  // every IN completes at once with `length` bytes
  };

  FakeExportedDevice() : FakeExportedDevice(Options()) {}
  explicit FakeExportedDevice(Options options) : options_(std::move(options)) {
    worker_ = std::thread([this] { deliver(); });
  }
  ~FakeExportedDevice() override {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    worker_.join();
  }

  usbip::ExportedDeviceInfo info() override { return options_.info; }

  usb::UrbResult control(const usb::ControlSetup& s, std::span<const uint8_t> outData) override {
    std::lock_guard lock(mutex_);
    ++controls_;
    usb::UrbResult r;
    if (s.bmRequestType == 0x80 && s.bRequest == 6 && (s.wValue >> 8) == 1) {
      const auto& i = options_.info;
      std::vector<uint8_t> d = {18, 1, 0x10, 0x03, 0, 0, 0, 9,
                                static_cast<uint8_t>(i.idVendor), static_cast<uint8_t>(i.idVendor >> 8),
                                static_cast<uint8_t>(i.idProduct), static_cast<uint8_t>(i.idProduct >> 8),
                                0, 1, 0, 0, 0, 1};
      d.resize(std::min<size_t>(d.size(), s.wLength));
      return in(std::move(d));
    }
    const uint32_t address = (uint32_t{s.wIndex} << 16) | s.wValue;
    if (s.bmRequestType == 0xC0 && (s.bRequest == 0 || s.bRequest == 1)) {
      const uint64_t value = registers_[address];
      std::vector<uint8_t> d(s.wLength);
      for (size_t k = 0; k < d.size() && k < 8; ++k) d[k] = static_cast<uint8_t>(value >> (8 * k));
      return in(std::move(d));
    }
    if (s.bmRequestType == 0x40 && (s.bRequest == 0 || s.bRequest == 1)) {
      uint64_t value = 0;
      for (size_t k = 0; k < outData.size() && k < 8; ++k) value |= uint64_t{outData[k]} << (8 * k);
      registers_[address] = value;
      return r;
    }
    if (s.bRequest == 0xEE) {
      r.status = usb::UrbStatus::kStall;
      return r;
    }
    if (s.isDeviceToHost()) return in(std::vector<uint8_t>(s.wLength / 2, 0xAB));  // a short answer
    return r;
  }

  uint64_t submitOut(uint8_t endpoint, std::vector<uint8_t> data, Completion done) override {
    std::lock_guard lock(mutex_);
    const uint64_t id = nextId_++;
    ++submitted_;
    if (endpoint != 0x01) {
      complete(std::move(done), usb::UrbResult{usb::UrbStatus::kStall, {}, 0, std::nullopt});
      return id;
    }
    outs_.push_back({id, std::move(data), std::move(done)});
    serviceLocked();
    return id;
  }

  uint64_t submitIn(uint8_t endpoint, uint32_t length, Completion done) override {
    std::lock_guard lock(mutex_);
    const uint64_t id = nextId_++;
    ++submitted_;
    if (endpoint != 0x81 && endpoint != 0x82 && endpoint != 0x83) {
      complete(std::move(done), usb::UrbResult{usb::UrbStatus::kStall, {}, 0, std::nullopt});
      return id;
    }
    if (options_.endlessIn) {
      std::vector<uint8_t> bytes(length, static_cast<uint8_t>(id));
      complete(std::move(done), usb::UrbResult{usb::UrbStatus::kOk, std::move(bytes), length, std::nullopt});
      return id;
    }
    ins_[endpoint].push_back({id, length, std::move(done)});
    serviceLocked();
    return id;
  }

  bool cancel(uint64_t urbId) override {
    std::lock_guard lock(mutex_);
    for (auto& [ep, queue] : ins_) {
      for (auto it = queue.begin(); it != queue.end(); ++it) {
        if (it->id == urbId) {
          queue.erase(it);
          ++cancelled_;
          return true;
        }
      }
    }
    for (auto it = outs_.begin(); it != outs_.end(); ++it) {
      if (it->id == urbId) {
        outs_.erase(it);
        ++cancelled_;
        return true;
      }
    }
    return false;
  }

  void busReset() override {
    std::lock_guard lock(mutex_);
    ++busResets_;
    flushLocked();
  }
  void powerCycle() override {
    std::lock_guard lock(mutex_);
    ++powerCycles_;
    flushLocked();
    registers_.clear();
  }

  // ---- test controls ----
  void produce(uint8_t endpoint, const std::vector<uint8_t>& bytes) {
    std::lock_guard lock(mutex_);
    auto& stream = streams_[endpoint];
    stream.insert(stream.end(), bytes.begin(), bytes.end());
    produced_ += bytes.size();
    serviceLocked();
  }
  void holdOut(bool hold) {
    std::lock_guard lock(mutex_);
    holdOut_ = hold;
    serviceLocked();
  }
  [[nodiscard]] size_t pendingUrbs() {
    std::lock_guard lock(mutex_);
    size_t n = outs_.size();
    for (auto& [ep, q] : ins_) n += q.size();
    return n;
  }
  // Waits until `n` URBs are pending here (submitted, not completed, not cancelled).
  bool waitForPending(size_t n, std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < deadline) {
      if (pendingUrbs() == n) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return pendingUrbs() == n;
  }
  // Waits until every completion handed to the worker has been delivered.
  void drainCompletions() {
    std::unique_lock lock(mutex_);
    drained_.wait(lock, [&] { return completions_.empty() && !delivering_; });
  }
  struct Counters {
    uint64_t submitted, cancelled, delivered, controls, busResets, powerCycles, bytesOut, produced, bytesIn;
  };
  [[nodiscard]] Counters counters() {
    std::lock_guard lock(mutex_);
    return {submitted_, cancelled_, delivered_, controls_, busResets_, powerCycles_, bytesOut_, produced_, bytesIn_};
  }

 private:
  struct OutUrb {
    uint64_t id;
    std::vector<uint8_t> data;
    Completion done;
  };
  struct InUrb {
    uint64_t id;
    uint32_t length;
    Completion done;
  };

  static usb::UrbResult in(std::vector<uint8_t> data) {
    usb::UrbResult r;
    r.actualLength = static_cast<uint32_t>(data.size());
    r.data = std::move(data);
    return r;
  }

  // Under mutex_: hands a completion to the worker (never run on the submitting thread).
  void complete(Completion done, usb::UrbResult result) {
    completions_.push_back({std::move(done), std::move(result)});
    wake_.notify_one();
  }

  void serviceLocked() {
    while (!holdOut_ && !outs_.empty()) {
      OutUrb urb = std::move(outs_.front());
      outs_.pop_front();
      bytesOut_ += urb.data.size();
      const auto n = static_cast<uint32_t>(urb.data.size());
      if (options_.loopback) {
        auto& stream = streams_[0x81];
        stream.insert(stream.end(), urb.data.begin(), urb.data.end());
        produced_ += urb.data.size();
      }
      complete(std::move(urb.done), usb::UrbResult{usb::UrbStatus::kOk, {}, n, std::nullopt});
    }
    for (auto& [ep, queue] : ins_) {
      auto& stream = streams_[ep];
      while (!queue.empty() && !stream.empty()) {
        InUrb urb = std::move(queue.front());
        queue.pop_front();
        const size_t n = std::min<size_t>(urb.length, stream.size());
        std::vector<uint8_t> bytes(stream.begin(), stream.begin() + static_cast<ptrdiff_t>(n));
        stream.erase(stream.begin(), stream.begin() + static_cast<ptrdiff_t>(n));
        bytesIn_ += n;
        complete(std::move(urb.done), in(std::move(bytes)));
      }
    }
  }

  void flushLocked() {
    // A reset gives pending URBs back as shut down; queued data is dropped.
    for (auto& urb : outs_) complete(std::move(urb.done), usb::UrbResult{usb::UrbStatus::kShutdown, {}, 0, std::nullopt});
    outs_.clear();
    for (auto& [ep, queue] : ins_) {
      for (auto& urb : queue) complete(std::move(urb.done), usb::UrbResult{usb::UrbStatus::kShutdown, {}, 0, std::nullopt});
      queue.clear();
    }
    streams_.clear();
  }

  void deliver() {
    std::unique_lock lock(mutex_);
    for (;;) {
      wake_.wait(lock, [&] { return stopping_ || !completions_.empty(); });
      if (completions_.empty()) {
        if (stopping_) return;
        continue;
      }
      auto batch = std::move(completions_);
      completions_.clear();
      delivering_ = true;
      lock.unlock();
      for (auto& [done, result] : batch) done(std::move(result));
      lock.lock();
      delivering_ = false;
      delivered_ += batch.size();
      if (completions_.empty()) drained_.notify_all();
    }
  }

  Options options_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable drained_;
  std::deque<std::pair<Completion, usb::UrbResult>> completions_;
  bool delivering_ = false;
  bool stopping_ = false;
  bool holdOut_ = false;
  uint64_t nextId_ = 1;
  std::deque<OutUrb> outs_;
  std::map<uint8_t, std::deque<InUrb>> ins_;
  std::map<uint8_t, std::deque<uint8_t>> streams_;
  std::map<uint32_t, uint64_t> registers_;
  uint64_t submitted_ = 0, cancelled_ = 0, delivered_ = 0, controls_ = 0, busResets_ = 0, powerCycles_ = 0;
  uint64_t bytesOut_ = 0, produced_ = 0, bytesIn_ = 0;
  std::thread worker_;  // last: started after every member above exists
};

}  // namespace coralsim::testing
