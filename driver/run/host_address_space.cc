#include "driver/run/host_address_space.h"

#include <algorithm>

namespace coralsim::driver {
namespace {

constexpr uint64_t kWindow32 = uint64_t{1} << 32;

uint64_t alignUp(uint64_t value, uint64_t alignment) { return (value + alignment - 1) / alignment * alignment; }

}  // namespace

std::string HostBuffer::label() const {
  std::string s(bufferKindShortName(kind).value_or("?"));
  if (!name.empty()) s += " '" + name + "'";
  if (batch != 0) s += " batch " + std::to_string(batch);
  return s;
}

std::vector<uint8_t> HostBuffer::readSlice(uint64_t offset, uint64_t length) const {
  std::vector<uint8_t> out(length, 0);
  const std::span<const uint8_t> data = view();
  if (offset < data.size()) {
    const uint64_t n = std::min<uint64_t>(length, data.size() - offset);
    std::copy_n(data.begin() + static_cast<ptrdiff_t>(offset), n, out.begin());
  }
  return out;
}

HostBuffer& HostAddressSpace::add(BufferKind kind, const std::string& name, int32_t batch, uint64_t sizeBytes,
                                  const std::vector<uint8_t>* external) {
  // The window covers the larger of the requested size (e.g. the furthest hinted byte) and the
  // external data; an empty buffer still occupies a page so that its address is distinct.
  const uint64_t window = std::max<uint64_t>(sizeBytes, external ? external->size() : 0);
  const uint64_t span = alignUp(std::max<uint64_t>(window, 1), kPageBytes);
  uint64_t base = nextBase_;
  if (span <= kWindow32 && base / kWindow32 != (base + span - 1) / kWindow32) base = alignUp(base, kWindow32);
  nextBase_ = base + span + kPageBytes;

  HostBuffer& b = buffers_.emplace_back();
  b.kind = kind;
  b.name = name;
  b.batch = batch;
  b.address = base;
  b.sizeBytes = external ? external->size() : sizeBytes;
  b.external = external;
  if (!external) b.bytes.assign(sizeBytes, 0);
  return b;
}

HostBuffer* HostAddressSpace::find(BufferKind kind, const std::string& name, int32_t batch) {
  for (HostBuffer& b : buffers_) {
    if (b.kind == kind && b.name == name && b.batch == batch) return &b;
  }
  return nullptr;
}

const HostBuffer* HostAddressSpace::find(BufferKind kind, const std::string& name, int32_t batch) const {
  return const_cast<HostAddressSpace*>(this)->find(kind, name, batch);
}

std::optional<HostAddressSpace::Location> HostAddressSpace::resolve(uint64_t address) {
  // Buffers are allocated in increasing address order; the window of one reaches the next base.
  for (size_t i = 0; i < buffers_.size(); ++i) {
    const uint64_t begin = buffers_[i].address;
    const uint64_t end = i + 1 < buffers_.size() ? buffers_[i + 1].address : nextBase_;
    if (address >= begin && address < end) return Location{&buffers_[i], address - begin};
  }
  return std::nullopt;
}

BaseAddresses HostAddressSpace::baseAddresses() const {
  BaseAddresses a;
  for (const HostBuffer& b : buffers_) {
    if (b.kind == BufferKind::Parameter || b.kind == BufferKind::Scratch) {
      a.set(b.kind, b.address);
    } else {
      a.set(b.kind, b.name, b.address, b.batch);
    }
  }
  return a;
}

}  // namespace coralsim::driver
