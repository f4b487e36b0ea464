0000: start body_bits=21888
0001: tile.sync mask=0xffff seq=0
0002: sc.sync mask=0xffff w1=0x03000000000000000000000000000000
0004: s1 = mov 0x0
0005: s0 = mov 0x0 ; s3 = ld [0xfff]
0006: sc.infeed offset32=0x28 flag28=1 len8_m1=31
0008: p0 = lt s12, 0x0
0009: p1 = ne s12, s12
000a: s6 = and s12, 0x7fffffff
000b: (p0) s6 = add s6, 0x0
000c: desc[0] = s6
000d: s8 = mov 0x100 ; desc[1] = s7
000e: s9 = mov 0x1 ; desc[2] = s8
000f: desc[3] = s9
0010: push
0011: tile.dma14 mask=0x1111 seq=1 w2=0x00000000000000000000000008060000
0018: tile.dma11 mask=0x000f seq=2 w2=0x0c0103ff015980000000000000000000
001c: sc.pop offset16=0x420 w1=0x00000000000000000001000120000000
0020: tile.dma17 mask=0xffff seq=3 w5=0x00000000018000000000000000000000
0026: tile.dma15 mask=0x8888 seq=4
002c: tile.dma16 mask=0x6666 seq=5
0032: tile.dma18 mask=0x1111 seq=6
0038: tile.dma12 mask=0x0505 seq=7
003c: tile.dma13 mask=0xffff seq=8 w1=0xffe80007fff40003fffa0001fffd0000
0043: tile.nlu mask=0x0001 seq=9 coef=[128.0,32.0,21.333334,16.0,12.8000002,123.0,9.14285755,8.0,7.11111116,6.4000001,118.0,5.33333349,4.92307711,4.57142878,4.26666689,113.0,3.7647059,3.55555558,3.36842108,3.20000005,108.0,2.909091,2.78260875,2.66666675,2.55999994,103.0,2.37037039,2.28571439,2.20689654,2.13333344,98.0,2.0,1.939394,1.88235295,1.82857144,93.0,1.72972977,1.68421054,1.64102566,1.60000002] bp=[-8.0,-4.0,-2.0,0.0,2.0,4.0,8.0] tail=3
0050: tile.compute mask=0x000f seq=10 k_w0=63 k_w1=63 n_w4=256 k_w7=63 k_w10=63 zp_in=127 mode=0x30c008 mult=1.0 clamp_hi=126.0 clamp_lo=-129.0 zp_out=129
0061: tile.compute02 mask=0x000f seq=11
0072: tile.compute03 mask=0x000f seq=12
0083: tile.compute05 mask=0x000f seq=13
0094: sc.outfeed arg=0x1
0096: tile.dma10 mask=0x0001 seq=14
009a: s6 = mov 0x0
009b: s7 = ld [s6], s6 += 1
009c: loop n=3 body=2
009d: s7 = ld [s6], s6 += 1 ; stream s7
009e: mem[s3] = s7, s3 += 1
009f: s9 = i2f s9
00a0: s9 = fmul s9, 28.0
00a1: s9 = f2i s9 ; hi=0xa53
00a2: s1 = add s1, 0x1
00a3: p0 = lt s1, 0x4
00a4: (p0) br -2  // -> 00a2
00a5: mem[0x0100] = s1
00a6: tile.sync mask=0xfff9 seq=15
00a7: halt final
00a8: nop
00a9: nop
00aa: nop
00ab: nop
00ac: end body_bits=128
