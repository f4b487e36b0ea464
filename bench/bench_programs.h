// Assembly programs shared by the benchmark suites, so that bench_scalar_core and bench_trace
// measure exactly the same work and their figures can be set side by side.
#pragma once

namespace coralsim::bench {

// 64 outer iterations (branch) x hardware loop of 1000 x 16 bundles: ~1 M bundles per run.
constexpr const char* kAluLoop = R"(
program {
        s1 = mov 0x0
        s2 = mov 0x1234
        s3 = mov 0x9e3779b9
outer:  loop n=1000 body=16
        s4 = add s2, s3
        s5 = xor s4, 0x5a5a5a5a
        s6 = shl s5, 0x3
        s7 = shr s6, s2
        s8 = sub s7, s4
        s9 = sar s8, 0x2
        s10 = and s9, 0xffff
        s11 = or s10, s5
        p2 = lt s11, s3
        (p2) s2 = add s2, 0x1
        (!p2) s3 = xor s3, s11
        s12 = i2f s11
        s13 = fmul s12, 0x3f000000
        s14 = f2i s13
        p3 = geu s14, s2
        s2 = add s2, s14
        s1 = add s1, 0x1
        p0 = lt s1, 0x40
        (p0) br outer
}
)";


}  // namespace coralsim::bench
