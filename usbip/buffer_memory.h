// Process-wide malloc settings for moving large transfer buffers. Every bulk transfer allocates a
// fresh buffer of up to 1 MiB (the decoder receives into it, the device takes ownership, another
// thread frees it). With glibc's defaults such buffers are mmap'ed or trimmed back to the kernel
// after each use, so every transfer pays page faults and zeroing for its whole size — measured at
// about half the throughput of bulk IN over loopback (bench/bench_usbip.cc). Keeping freed memory
// mapped up to a bound removes that. Call once at start-up of a program that serves or drives
// USB/IP (coralsim serve, the benchmarks); the library never changes process settings on its own.
#pragma once

namespace coralsim::usbip {

// Buffers up to 64 MiB come from the heap; the heap keeps up to 256 MiB of freed memory mapped.
void keepTransferBuffersMapped();

}  // namespace coralsim::usbip
