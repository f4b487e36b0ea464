// Reads one serialized DarwiNN Executable (a complete flatbuffer, no file identifier) into
// driver::Executable, verifying the flatbuffer and the cross-references the runner relies on
// (whole 16-byte words, link points inside their chunk, hints naming existing chunks and
// parameter bytes).
#pragma once

#include <cstdint>
#include <span>

#include "driver/model/executable.h"
#include "driver/model/load_error.h"

namespace coralsim::driver {

Executable readExecutable(std::span<const uint8_t> bytes, const Where& where);

// The auto-detection rule for files without an identifier (tools/darwinn_dump.py uses the same):
// the bytes verify as an Executable that has at least one instruction bitstream, none empty.
bool isBareExecutable(std::span<const uint8_t> bytes);

}  // namespace coralsim::driver
