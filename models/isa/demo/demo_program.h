// The demo program `coralsim demo` runs on the scalar core: models/isa/demo/sum_loop.s, embedded
// in the binary at build time (so the text in the binary is the file in the repository).
#pragma once

#include <string_view>

namespace coralsim::isa {

// The assembly text of sum_loop.s.
[[nodiscard]] std::string_view demoProgramText();

// Its file name, for error messages ("sum_loop.s").
[[nodiscard]] std::string_view demoProgramName();

}  // namespace coralsim::isa
