// synthetic program: every packet class (made by make_isa_fuzz_inputs)
program {
  tile.sync mask=0xffff
  sc.sync mask=0xffff w1=0x03000000000000000000000000000000
  s1 = mov 0x0
  s0 = mov 0x0 ; s3 = ld [0xfff]
  sc.infeed offset32=0x28 len8_m1=31
  p0 =-lt s12, 0x0
  p1 = ne s12, s12
  s6 = and s12, 0x7fffffff
  (p0) s6 = add s6, 0x0
  desc[0] = s6
  s8 = mov 0x100 ; desc[1] = s7
  s9 = mov 0x1 ; desc[2: = s8
  desc[3] = s9
  push
  tile.dma14 mask=0x1111 w2=0x00000000000000000000000008060000
  tile.dma11 mask=0x000f w2=0x0c0103ff015980000000000000000000
  sc.pop offset16=0x420 w1=0x00000000000000000001000120000000
  tile.dma17 mask=0xffff w5=0x00000000018000000000000000000000
  tile.dma15 mask=0x8888
  tile.dma16 mask=0x6666
  tile.dma18 mask=0x1111
  tile.dma12 mask=0x0505
  tile.dma13 mask=0xffff w1=0xffe80007fff40003fffa0001fffd0000
tile.nlu mask=0x0001 coef=[128.0,32.0,21.333334,16.0,12.80000]2,123.0,9.14285755,8.0,7.11111116,6.4000001,118.0,5.33333349,4.92307711,4.57142878,4.26666689,113.0,3.7647059,3.55555558,3.36842108,3.20000005,108.0,2.909091,2.78260875,2.66666675,2.55999994,103.0,2.37037039,2.28571439,2.20689654,2.13333344,98.0,2.0,1.939394,1.88235295,1.82857144,93.0,1.72972977,1.68421054,1.64102566,1.60000002] bp=[-8.0,-4.0,-2.0,0.0,2.0,4.0,8.0] tail=3
  tile.compute mask=0x000f k_w0=63 k_w1=63 n_w4=256 k_w7=63 k_w10=63 zp_in=127 mode=0x30c008 mult=1.0 clamp_hi=126.0 clamp_lo=-129.0 zp_out=129
  tile.compute02 mask=0x000f
  tile.compute03 mask=0x000f
  tile.compute05 mask=0x000f
  sc.outfeed arg=0x1
  tile.dma10 mask=0x0001
  s6 = mov 0x0
  s7 = ld [s6], s6 += 1
  loop n=3 body=2
  stream s7 ; s7 = ld [s6], s6 += 1
  mem[s3] = s7, s3 += 1
  s9 = i2f s9
  s9 = fmul s9, 28.0
  s9 = f2i s9 ; hi=0xa53
again:
  s1 = add s1, 0x1
  p0 = lt s1, 0x4
  (p0) br again
  mem[0x100] = s1
  tile.sync mask=0xfff9
}
