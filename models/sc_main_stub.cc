// libsystemc.so refers to sc_main (its own main() calls it), so every executable that links
// SystemC needs a definition. In coralsim the kernel is driven by sim::SimulationKernel, never by
// SystemC's main(): this one exists only to satisfy the linker and must never run. It is linked
// into every consumer of coralsim_models as an object file (models/CMakeLists.txt).
#include <cstdio>
#include <cstdlib>

extern "C" int sc_main(int /*argc*/, char* /*argv*/[]) {  // sysc/kernel/sc_externs.h: C linkage
  std::fputs("coralsim: sc_main() was called, but the SystemC kernel is driven by sim::SimulationKernel; "
             "this program's main() is missing or SystemC's main() took over\n",
             stderr);
  std::abort();
}
