// Reads a DarwiNN Package (file identifier "DWN1") and every Executable of the MultiExecutable
// nested inside it (docs/isa.md §2.1).
#pragma once

#include <cstdint>
#include <span>

#include "driver/model/load_error.h"
#include "driver/model/model_file.h"

namespace coralsim::driver {

Package readPackage(std::span<const uint8_t> bytes, const Where& where);

// True when `bytes` start like a Package: the identifier "DWN1" at byte 4.
bool hasPackageIdentifier(std::span<const uint8_t> bytes);

}  // namespace coralsim::driver
