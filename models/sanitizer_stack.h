// ASan and exceptions on SystemC's coroutine stacks.
//
// Debian's libsystemc switches between SC_THREADs with QuickThreads and does not tell ASan
// (no __sanitizer_start_switch_fiber). When an exception is thrown while the simulator thread
// runs on such a stack, ASan cannot find the stack's bounds, prints "ASan is ignoring requested
// __asan_handle_no_return", and leaves the red zones of the unwound frames poisoned; the next
// frames built over them then fail with a false stack-buffer-overflow. The sites that catch an
// exception on the simulator thread call forgetUnwoundFrames() to clear that stale poison (the
// memory below the current frame holds no live object). It compiles to nothing without ASan.
// Details: docs/sanitizers.md.
#pragma once

#include <cstddef>
#include <cstdint>

#if defined(__SANITIZE_ADDRESS__)
#define CORALSIM_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CORALSIM_ASAN 1
#endif
#endif

#ifdef CORALSIM_ASAN
#include <sanitizer/asan_interface.h>
#endif

namespace coralsim::models {

// How far below the current frame to clear: deeper than any unwound call chain of ours, and well
// inside every stack it runs on (the scalar core's coroutine stack is 1 MiB, threads' 8 MiB).
inline constexpr size_t kUnwoundFramesBytes = 256 * 1024;

#ifdef CORALSIM_ASAN
[[gnu::noinline]] inline void forgetUnwoundFrames() {
  char here = 0;
  const auto top = reinterpret_cast<uintptr_t>(&here);
  __asan_unpoison_memory_region(reinterpret_cast<void*>(top - kUnwoundFramesBytes), kUnwoundFramesBytes);
}
#else
inline void forgetUnwoundFrames() {}
#endif

}  // namespace coralsim::models
