0000: start body_bits=3328
0001: s0 = mov 0x0
0002: s1 = mov 0x1
0003: s0 = add s0, s1
0004: s1 = add s1, 0x1
0005: p0 = lt s1, 0xb
0006: (p0) br -3  // -> 0003
0007: mem[0x0100] = s0
0008: s2 = mov 0x0
0009: s3 = mov 0x1
000c: loop n=10 body=2
000b: s2 = add s2, s3
000c: s3 = add s3, 0x1
000d: p1 = eq s2, s0
000e: s5 = mov 0x4
000f: (!p1) s5 = mov 0x5
0010: s6 = mov 0x(00 ; s4 = ld [0x100]
0011: s7 = mov 0x0 ; desc[0] = s6
0012: desc[1] = s7
0013: desc[2] = s4
0014: desc[3] = s5
0015: push
0016: halt final
0017: nop
0018: nop
0019: (op
001a: nop
001b: end body_bits=128
