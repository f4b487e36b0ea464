// ExecutableRun: the host's state while one executable runs on the device — its buffers in the
// host address space, its linked instruction chunks, and the primitive transfers both service
// modes are built from (send a chunk, send a slice of a buffer as a record, receive output bytes
// into a buffer, read one event). It fills the ExecutableRunRecord as it goes.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "driver/model/executable.h"
#include "driver/run/host_address_space.h"
#include "driver/run/run_result.h"
#include "driver/transport/transport.h"

namespace coralsim::driver {

class ExecutableRun {
 public:
  // `inputs`: wire bytes (already sign-flipped) per input layer name, all batches concatenated.
  // `rawProgram`: the executable is an unlinked raw program; descriptor addresses are offsets into
  // the input / parameter streams (`inputs` under kRawInputStream / kRawParameterStream) and every
  // output descriptor becomes its own output ("output 0", "output 1", ...).
  ExecutableRun(Transport& transport, const Executable& executable, std::string label,
                const std::map<std::string, std::vector<uint8_t>>& inputs, bool rawProgram);

  [[nodiscard]] const Executable& executable() const { return executable_; }
  [[nodiscard]] ExecutableRunRecord& record() { return record_; }
  [[nodiscard]] HostAddressSpace& addressSpace() { return space_; }
  [[nodiscard]] bool rawProgram() const { return raw_; }
  [[nodiscard]] size_t chunkCount() const { return linked_.size(); }
  [[nodiscard]] const std::vector<uint8_t>& linkedChunk(size_t index) const { return linked_.at(index); }

  // Tag-0 record with linked chunk `index`.
  void sendChunk(size_t index);
  // Tag-1/2 record with `length` bytes of `buffer` from `offset` (zero-padded past its end).
  void sendSlice(uint8_t tag, HostBuffer& buffer, uint64_t offset, uint64_t length);
  // Exactly `length` bytes from EP 0x81 into `buffer` at `offset`. Bytes beyond the buffer are a
  // RunError (the device would overrun a host buffer).
  void receiveInto(HostBuffer& buffer, uint64_t offset, uint64_t length);
  // One 16-byte event from EP 0x82 (also appended to `events()`).
  DeviceDescriptor readEvent();
  [[nodiscard]] const std::vector<DeviceDescriptor>& events() const { return events_; }

  // The buffer a hint or link point names (created on demand for names no layer declares).
  HostBuffer& bufferFor(const BufferRef& ref);
  // Where a descriptor address points; for raw programs the stream of `tag` at offset = address.
  // RunError naming the address when no buffer holds it.
  HostAddressSpace::Location locate(const DeviceDescriptor& d);
  // A raw program's output descriptor: a new output buffer of `length` bytes.
  HostBuffer& newRawOutput(uint64_t address, uint64_t length);

  // Prefix for error messages: "<label>: ".
  [[nodiscard]] std::string where() const { return record_.executable + ": "; }

 private:
  void allocateBuffers(const std::map<std::string, std::vector<uint8_t>>& inputs);
  BufferTraffic& trafficFor(const HostBuffer& buffer);

  Transport& transport_;
  const Executable& executable_;
  bool raw_;
  HostAddressSpace space_;
  std::vector<std::vector<uint8_t>> linked_;
  std::vector<DeviceDescriptor> events_;
  ExecutableRunRecord record_;
  int rawOutputs_ = 0;
};

}  // namespace coralsim::driver
