#include "usbip/buffer_memory.h"

#include <malloc.h>

namespace coralsim::usbip {

void keepTransferBuffersMapped() {
  // Fixed values also stop glibc's dynamic threshold adjustment.
  mallopt(M_MMAP_THRESHOLD, 64 << 20);
  mallopt(M_TRIM_THRESHOLD, 256 << 20);
}

}  // namespace coralsim::usbip
