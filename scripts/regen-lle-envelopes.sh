#!/usr/bin/env bash
# Regenerates the lle rung's two value envelopes from their decode sets (docs/decoding-log.md,
# "form13" §B and "op17"): the shipped one (models/lle/lle_envelope.def: both Dense templates) and
# the hold-out one (models/lle/lle_envelope_decode_set.def: Dense-256 alone). 0x17 rows come from
# two raw programs (the templates have no 0x17), 0x13 rows of the kept form from a convolution decode
# set, 0x01 rows of the element-wise form from three raw programs ("eltwise"). Run it after any
# change to models/lle/lle_fields.def, lle_relations.def or the generator;
# `git diff models/lle/lle_envelope*.def` then shows what the change unpinned.
# Needs $CORALSIM_CORPUS (default ../shared/corpus) and $CORALSIM_TOOLS (default ../shared/tools).
set -euo pipefail
cd "$(dirname "$0")/.."
C="${CORALSIM_CORPUS:-../shared/corpus}"
TOOLS="${CORALSIM_TOOLS:-../shared/tools}"
[ -d "$C" ] || { echo "regen-lle-envelopes: corpus not found at $C (set CORALSIM_CORPUS)" >&2; exit 2; }
[ -d "$TOOLS/isa" ] || { echo "regen-lle-envelopes: $TOOLS/isa not found (set CORALSIM_TOOLS)" >&2; exit 2; }
T="$C/ricardodeazambuja+LibrEdgeTPU/libredgetpu/templates"
X="$C/geohot+edgetpuxray/programs"
R="$C/rubensrech+Coral-TPU/elementary-ops/models"
P="$C/RingCanary+coral-usb-oxidized/templates/phase7_conv2d_k3_h12_corridor_6512/p32/anchor"
fill17=(--opcode 0x17 "$X/div2_8.coral" "$X/div2_20.coral")
# The element-wise compute form ("eltwise"): the templates' computes are Dense only. div2_8_aarch64
# adds the aarch64 compiles' flag bits of the compute and of the kept identity read (values, not
# meanings: docs/decoding-log.md "dense2" §B); div2_10_aarch64 is held out.
compute01=(--opcode 0x01 "$X/div2_8.coral" "$X/div2_20.coral" "$X/add1.coral" "$X/div2_8_aarch64.coral")
# add_128_128's add (docs/decoding-log.md "eltw12" §C): its w12 bits of unknown meaning (w12[33:32] = 3,
# w12[63:48] = 1 where the raw programs carry 0 and 5) pinned to its value; its ComputeBias is decoded.
compute01+=("$R/add_128_128__quant_edgetpu.tflite")
# The convolutions' identity computes (one-byte input elements, docs/decoding-log.md "convwire2" §B):
# their bits of unknown meaning pinned to the size sweep's decode set (conv 32^2 3x3, 64^2 3x3,
# 256^2 40x40); 32^2 6x6, 500^2, 512^2, 1024^2 and the depthwise programs are held out.
identity01=(--opcode 0x01:ComputeInputBytes=1 "$R/conv_2d_1_32_32_1_3_3_1_1_quant_edgetpu.tflite"
            "$R/conv_2d_1_64_64_1_3_3_1_1_quant_edgetpu.tflite" "$R/conv_2d_1_256_256_1_40_40_1_1_quant_edgetpu.tflite")
# The iwatake padding form of the 0x14 (docs/decoding-log.md "padform"): its row-form tiles' bits of
# unknown meaning (w6[103:102] = 3, w3 bits 112 / 97, w4 bit 32, ...) pinned to the padding sweep's
# decode set (64^2, 128^2, 256^2), and so are those of the execution-only 0x11 receives after them (w1
# bit 82, w0 bit 73, ...); 2^2, 128x64, 128x256, 256x128 and padding_stride are held out. Their
# identity computes (three one-byte channels a pixel) join the convolutions' decode set.
I="$C/iwatake2222+EdgeTPU_Analysis/InOut/model_padding"
padding=("$I/model_padding_64x64x3_edgetpu.tflite" "$I/model_padding_128x128x3_edgetpu.tflite" "$I/model_padding_256x256x3_edgetpu.tflite")
padding14=(--opcode 0x14:Stage14SourceRowForm=1 "${padding[@]}")
padding11=(--opcode 0x11:Recv11ExecutionForm=1 "${padding[@]}")
# Their mesh packets' fill-only form (a receive that writes the zero point, no send): "padform" §E.
# The stride sweep's decode set (docs/decoding-log.md "stride11"): its execution-only receive with a
# prefix pins the form's still-undecoded w2 bits (84, 86, 112, 106 and w2[105:90]) to their values.
W="$C/iwatake2222+EdgeTPU_Analysis/InOut"
stride11=(--opcode 0x11:Recv11ExecutionForm=1 "$W/model_stride/model_stride_64x64x3_edgetpu.tflite"
          "$W/model_padding_stride/model_padding_stride_64x64x3_edgetpu.tflite")
# The stride sweep's single-step 1 x 1 convolution (docs/decoding-log.md "stride" §D: every loop limit 0,
# a bias prefix, its weight group from the prefixed receive's stream) and the compute-feeding 0x14 before
# it ("stride" §B): their bits of unknown meaning (the compute's w12 / w9 / w15 marks, the write's copy of
# a receive's shape, w1 = count 1, step 1, flag) pinned to stride 64x64; every other size, 2x2 and the
# padding_stride sweep are held out.
S64="$W/model_stride/model_stride_64x64x3_edgetpu.tflite"
stride14=(--opcode 0x14:Stage14FeedsCompute=1 "$S64")
# The RingCanary 3x3 convolutions' compute-feeding 0x14 after their 0x12 (docs/decoding-log.md "prefix14" §B):
# its stream-prefix fields are decoded; w4 bit 127 (clear in the 128-wide programs, set in stride 64x64 and
# 12x176x32; set in 1,908 / 1,925 distinct corpus writes exactly where the next compute's w10 nest wraps 0 at
# its levels 5-6 -- not decoded) and the copy's run / wraps / step are pinned to 12x128x32 and 12x128x64;
# 176x32, 176x64, 192x64 and the three 128-channel programs are held out.
stride14+=("$P/conv2d_12x128x32_to_32_k3_s1_same_quant_edgetpu.tflite"
           "$C/RingCanary+coral-usb-oxidized/templates/phase7_conv2d_k3_h12_corridor_6512/p64/anchor/conv2d_12x128x64_to_64_k3_s1_same_quant_edgetpu.tflite")
# The halo exchange of the convolutions' padded grids ("conv32run" §B): conv 32^2 3x3's mesh packets
# (0x15-0x18, 0x17 included) pin the bits of unknown meaning (w1[98:82] / w3[47:31] = 1, w3[95:93] = 3,
# 0x16 / 0x18's w4); 32^2 6x6 and the larger sizes are held out.
conv32="$R/conv_2d_1_32_32_1_3_3_1_1_quant_edgetpu.tflite"
# The column strips (0x16 / 0x18 with a send side) carry w3[127:96] and w4 (docs/decoding-log.md
# "mesh16"): two forms in the decode set -- conv 32^2 3x3's one-unit-wide strips walked down the column
# (w3[104:96] = 0x146) and gabor 64^2's multi-unit strips walked along the row (0x186); not decoded,
# pinned to these two programs; conv 32^2 6x6, 256^2, 1024^2, gabor 128^2 and the rest are held out.
gabor64="$C/ricardodeazambuja+LibrEdgeTPU/libredgetpu/optical_flow/templates/gabor_64x64_7k_4o_2s_edgetpu.tflite"
mesh=(--opcode 0x15 "${padding[@]}" "$conv32" --opcode 0x16 "${padding[@]}" "$conv32" "$gabor64"
      --opcode 0x18 "${padding[@]}" "$conv32" "$gabor64")
fill17+=("$conv32")
# conv 32^2 3x3's execution-only receives ("conv32run" §C): the weight stream's w2 bits (w2[105:94],
# 112, 93:90, 86, 84: not decoded) pinned to their values; 6x6 held out. conv 256^2 40x40 adds its
# weight-stream receive's w2[105:90] = 0 where 3x3 has -1 (docs/decoding-log.md "rubens" §D: not decoded,
# pinned); 512^2, 1024^2 and 500^2 are held out.
padding11+=("$conv32" "$R/conv_2d_1_256_256_1_40_40_1_1_quant_edgetpu.tflite")
# Its convolution compute ("conv32run" §C): the bits of unknown meaning of the 4-byte compute that
# follows the identity computes (w3 121-125, w6 120-122, w7, w9, w11 106, w12, w14, w15) pinned to 3x3's.
# Depthwise 256^2 adds its compute's w12 form (docs/decoding-log.md "depthwise" §A: bits 123, 107 and
# w12[86:85] = 3, set together in every corpus compute with a bias or per-lane parameter prefix but the
# LibrEdgeTPU templates', w12[91:88] = 10 -- not decoded, no effect on any executed byte shown); depthwise
# 500^2 and 1024^2 are held out.
conv01=(--opcode 0x01:ComputeInputBytes=4 "$conv32" "$S64" "$R/depthwise_conv_2d_1_256_256_3_20_20_3_1_quant_edgetpu.tflite")
# gabor 64^2 7k's convolution compute (docs/decoding-log.md "w12"): its w12 differs from conv 32^2's in bit
# 42 alone (w12[47:32] 0x3c05 against 0x3805), since declared don't-care ("w12c" §A); its w14 (0xe70005e7...
# in the high half) and w15 mode (0x71c051) stay pinned to it; gabor 128^2 7k / p4 held out.
conv01+=("$gabor64")
# RingCanary 12x176x32's convolution compute ("w12c" §B): depthwise 256^2's w12 prefix form with bit 42; its
# w14 high half (0xdb4009dbc01fc000, shared with 12x192x64) and w15 mode 0x1f7c051 are not decoded and are
# pinned to it here; its whole output is checked against the real device's (corpus ground truth, FNV-1a of
# the raw output stream). 12x192x64 and the other RingCanary sizes are held out.
P32W176="$C/RingCanary+coral-usb-oxidized/templates/phase7_conv2d_k3_h12_corridor_6512/p32/targets/h12_w176"
conv01+=("$P32W176/conv2d_12x176x32_to_32_k3_s1_same_quant_edgetpu.tflite")
# RingCanary 12x128x32 and 12x176x64's split-reduction convolutions ("ring88"): their w15 modes 0x1f7c159 /
# 0x3ffc159 and w14 low row 0x2018... are not decoded and are pinned to them here (w12 bit 88 is declared,
# ComputeFlagW12Bit88); the executor's bytes are checked on them (decode) and on 12x128x64
# and 12x192x64 (held out for the bytes; their w12 / w15 rows equal 12x176x64's).
conv01+=("$P/conv2d_12x128x32_to_32_k3_s1_same_quant_edgetpu.tflite"
         "$C/RingCanary+coral-usb-oxidized/templates/phase7_conv2d_k3_h12_corridor_6512/p64/targets/h12_w176/conv2d_12x176x64_to_64_k3_s1_same_quant_edgetpu.tflite")
# Its weight feed ("conv32end"): the nested 0x27 after the stream-feeding pop and the holding tile's send
# (Dma10WeightFeed) -- the bits of unknown meaning (the 0x27's w0[73:64] / w0[104:95] = 1023, bits 89 / 123,
# w1 outside the ring position; the send's w2 nest, w3 flags) pinned to 3x3's; 64^2 3x3 and looming held out.
# The stride sweep's feed (docs/decoding-log.md "stride" §F) carries the other of the corpus's two forms of
# those bits (0x27 w0 bit 123 and w1 bit 3 clear: 13 feeds, the stride / padding-stride sweeps and
# model_conv): pinned to stride 64x64's too; its other ten programs are held out.
# The weight broadcast (docs/decoding-log.md "bcast10"): a send between tiles with Dma10WeightFeed set; its
# bits outside the decoded fields (w2's running position and form slots, which every corpus broadcast
# carries as 0x4000400019080000 in w2[127:64] save the position) pinned to gabor 64^2's one broadcast;
# gabor 128^2, bright and the rest are held out.
feed=(--opcode 0x27:OutfeedNested=1 "$conv32" "$S64" --opcode 0x10:Dma10WeightFeed=1 "$conv32" "$S64" "$gabor64")
identity01+=("${padding[@]}")
# The RingCanary 4-byte identity computes (docs/decoding-log.md "ring4copy" §B): their bits of unknown
# meaning (w12[29:27] = 5 where the one-byte form has 7, the mode bits w15 3 / 5, ...) pinned to the
# decode set (12x128x32, 12x128x64); 176x32, 176x64, 192x64 and the three 128-channel programs are held out.
P64="$C/RingCanary+coral-usb-oxidized/templates/phase7_conv2d_k3_h12_corridor_6512/p64/anchor"
ring01=(--opcode 0x01:ComputeInputRingOn=1 "$P/conv2d_12x128x32_to_32_k3_s1_same_quant_edgetpu.tflite"
        "$P64/conv2d_12x128x64_to_64_k3_s1_same_quant_edgetpu.tflite")
# The weight-stream receive 0x12 (docs/decoding-log.md "op12"): its bits of unknown meaning (w2 bits 79, 83,
# the form bits 122-123, bit 106 and w2[105:90] = 0xffff) pinned to two RingCanary sizes
# (12x128x32, 12x176x64); the other six RingCanary programs and the three gabor templates are held out.
P176="$C/RingCanary+coral-usb-oxidized/templates/phase7_conv2d_k3_h12_corridor_6512/p64/targets/h12_w176"
ring12=(--opcode 0x12 "$P/conv2d_12x128x32_to_32_k3_s1_same_quant_edgetpu.tflite"
        "$P176/conv2d_12x176x64_to_64_k3_s1_same_quant_edgetpu.tflite")
# The NLU table load (docs/decoding-log.md "nlu"): one tracker template's two tables; the other 20
# programs with a 0x19 are held out.
nlu19=(--opcode 0x19 "$C/ricardodeazambuja+LibrEdgeTPU/libredgetpu/tracker/templates/bright_64x64_edgetpu.tflite")
kept13=(--opcode 0x13 "$R/conv_2d_1_32_32_1_3_3_1_1_quant_edgetpu.tflite" "$R/conv_2d_1_256_256_1_40_40_1_1_quant_edgetpu.tflite"
        "$P/conv2d_12x128x32_to_32_k3_s1_same_quant_edgetpu.tflite"
        "$C/iwatake2222+EdgeTPU_Analysis/InOut/model_padding/model_padding_128x128x3_edgetpu.tflite" "$X/div2_8_aarch64.coral")
# The sent reads whose beats sit in word 2 (Stage13RepeatSlot clear, routed (0, 1): docs/decoding-log.md
# "conv64"): their bits of unknown meaning (w4 bits 40 / 32 clear where the (1, 1) reads set them) pinned
# to conv 256^2 40x40's output read; conv 64^2 3x3 and the rest of the size sweep are held out.
slot13=(--opcode 0x13:Stage13RepeatSlot=0 "$R/conv_2d_1_256_256_1_40_40_1_1_quant_edgetpu.tflite")
# The softmax passes' kept reads (Stage13FeedsNormalise, w3 bit 109: docs/decoding-log.md "bright13"): their bits
# of unknown meaning (w4 bits 35 / 40 where the sent reads carry 39 / 40, w4[58:43] = 0xffff, w6 bit 31 in the
# first pass's read) pinned to bright 64^2's two reads; bright 128^2, the colour templates and the MobileNet
# v1 classifiers are held out.
normalise13=(--opcode 0x13:Stage13FeedsNormalise=1 "$C/ricardodeazambuja+LibrEdgeTPU/libredgetpu/tracker/templates/bright_64x64_edgetpu.tflite")
# The max reduction, opcode 0x02 (docs/decoding-log.md "bright02"): its bits of unknown meaning (the epilogue,
# w12 / w14 / w15 marks, Nest29's upper wraps, the second pass's w12[63:48]) pinned to bright 64^2's two passes;
# bright 128^2, the colour templates, MobileNet v1 and the pools are held out.
# bright 64^2's sent reads marked for a max pass (Stage13Route 1, 1, Stage13MaxPassMark): the one between its two passes,
# whose w4[42:36] bits of unknown meaning join the rows; its Stage13MaxPassBeats is decoded (128^2's held out).
max02=(--opcode 0x02 "$C/ricardodeazambuja+LibrEdgeTPU/libredgetpu/tracker/templates/bright_64x64_edgetpu.tflite"
       --opcode 0x13:Stage13Route=3,Stage13MaxPassMark=1 "$C/ricardodeazambuja+LibrEdgeTPU/libredgetpu/tracker/templates/bright_64x64_edgetpu.tflite")
# The max pool's 0x02 (Max02Lanes 0, laid out as an 0x01 compute: docs/decoding-log.md "maxpool"): its bits outside
# 0x01's fields (the pool marks: w6 122-124, w7 75, w9 51 / 55 / 56, w12 32 / 35, w14 52 / 58-60) pinned to nin_cnn's 32
# pools; ensemble's 40 and voice_commands' 9 are held out.
maxpool02=(--opcode 0x02:Max02Lanes=0 "$C/prbodmann+Coral-TPU/ensemble_tpu/models/nin_cnn_edgetpu.tflite")
# The broadcast of the softmax's maximum (docs/decoding-log.md "bright3"): one-unit 0x14s whose word 3 is zero
# (Stage14WordThreeMark 0); their w4 bit 100 (set in these and in 77 other corpus 0x14s, not decoded) pinned to
# bright 64^2's fifteen; bright 128^2, the colour templates and MobileNet v1 are held out.
# The kept reads with w4 bit 59 (Stage13Route 0, 0) keep w4[58:43] pinned (0xffff in 115 of 137 corpus ones); the
# stride / padding sweeps' one (w4[42:27] 0x3030 each) matched the Dense drains' rows until those bits became
# Stage13ResendSequence ("bright3"): the row now comes from the stride sweep's decode set (64^2); the other stride /
# padding programs, model_dense_2x2x3 and model_conv_128 are held out.
resend13=(--opcode 0x13:Stage13Route=0,Stage13W4Bit59=1 "$S64")
broadcast14=(--opcode 0x14:Stage14WordThreeMark=0 "$C/ricardodeazambuja+LibrEdgeTPU/libredgetpu/tracker/templates/bright_64x64_edgetpu.tflite"
             --opcode 0x10:Dma10ToOutfeed=0,Dma10WeightFeed=0 "$C/ricardodeazambuja+LibrEdgeTPU/libredgetpu/tracker/templates/bright_64x64_edgetpu.tflite")
# The one-byte output form (ComputeOutputBytes 1, docs/decoding-log.md "soft2b"): its bits of unknown meaning (w14
# bits 52, 59, 60 where the other forms carry 53 / 58, w6 bit 122, w7 bit 75, w9 bit 122) are constant over the 28
# corpus computes of the form; pinned to bright 64^2's one; bright 128^2 and the colour templates are held out.
onebyte01=(--opcode 0x01:ComputeOutputBytes=1 "$C/ricardodeazambuja+LibrEdgeTPU/libredgetpu/tracker/templates/bright_64x64_edgetpu.tflite")
# The average pool's compute (ComputeInputBytes 0, docs/decoding-log.md "gabp4"): its bits of unknown meaning (w9[58:51] = 63
# beside bit 52, w12[39:32] = 9, w14 bits 52-54 / 59-60, w6 bits 122-124, w7 bit 75) are one value over the corpus's 42
# distinct pool computes of 16 programs, whatever the window (1 / 16 ... 1 / 1,089); pinned to gabor 128^2 p4's one;
# MobileNet v1 / v2, the embedding extractor, ensemble, nin_cnn, looming and the two DeepLabs are held out.
pool01=(--opcode 0x01:ComputeInputBytes=0 "$C/ricardodeazambuja+LibrEdgeTPU/libredgetpu/optical_flow/templates/gabor_128x128_p4_edgetpu.tflite")
# The kept reads whose words 4-5 carry 84-bit records (Stage13KeptRecordsOn, w4 bit 79: docs/decoding-log.md "kept13"): the
# records' numbers and codes (w4[127:80] = 0xa32000200068, w4 bit 77, w5 = 0x0200_0200_0288_8000_8000 in the 51 reads before
# a compute of 2-byte inputs and 16-bit weights) and the form's w4[42:35] marks (bits 35, 36, 41) are not decoded: pinned to
# bright 64^2's read @ 0x03e1; bright 128^2 and the twelve colour templates (@ 0x060f) are held out. The three numbers that vary
# with the read's level 1 (w4[58:43], w5[14:0], w5[56:36]: Stage13RecordsFirstNumber ..., "loom13") are fields checked against
# the read's nest, so looming's ADD read @ 0x01ec and the DeepLabs' / ensemble's of its shape pass on bright's rows.
# The three-record (pool) form (Stage13TwoRecordForm 0, docs/decoding-log.md "ninkept"): its numbers are no function of the
# read (nin_cnn @ 0x0762 and MobileNet v1 0.25 @ 0x09a1 share a nest, not numbers), so they are pinned with its codes and
# marks (w4 bits 40-41 where bright's carry 35, 36, 41) to nin_cnn's four pool reads @ 0x0762-0x0777; ensemble (the same
# layers' reads and its own 3 x 3 pools' four), MobileNet v1 / v2 and the embedding extractor are held out. Since "pool13" the
# slots that vary in that form (Stage13PoolRecordNumber / Span / SizeCode / SizeMark / SignMark) are fields held to their
# relations (pool_records.cc); only the bits constant over all 22 corpus pool reads stay pinned here.
records13=(--opcode 0x13:Stage13KeptRecordsOn=1 "$C/ricardodeazambuja+LibrEdgeTPU/libredgetpu/tracker/templates/bright_64x64_edgetpu.tflite"
           --opcode 0x13:Stage13KeptRecordsOn=1,Stage13TwoRecordForm=0 "$C/prbodmann+Coral-TPU/ensemble_tpu/models/nin_cnn_edgetpu.tflite")
# The softmax's x - max computes (two-byte input elements, 16-bit weights from the kept records block, a bias prefix:
# docs/decoding-log.md "soft14" §B): their bits of unknown meaning (w12[35:32] = 0 where every other prefixed compute
# carries an odd code, w6[123:122], w7 bit 77, w9 bit 51, w14[53:52] ...) pinned to bright 64^2's sixteen; bright 128^2 and
# the twelve colour templates are held out.
xmax01=(--opcode 0x01:ComputeInputBytes=2,ComputeParamPrefix=1,ComputeWideWeights=1 "$C/ricardodeazambuja+LibrEdgeTPU/libredgetpu/tracker/templates/bright_64x64_edgetpu.tflite")
# The softmax's sum, opcode 0x03, laid out as an 0x01 compute (docs/decoding-log.md "sum03"): its bits outside 0x01's fields
# (w15 bit 27, set in every 0x03 and in no 0x01; w7 bit 77, w9 bit 51, w12 bits 32 / 44, w14 bit 52) pinned to bright 64^2's
# one; bright 128^2, the colour templates, MobileNet v1, the ensemble and nin_cnn are held out.
sum03=(--opcode 0x03 "$C/ricardodeazambuja+LibrEdgeTPU/libredgetpu/tracker/templates/bright_64x64_edgetpu.tflite")
python3 scripts/gen_lle_envelope.py "$TOOLS/isa" models/lle/lle_envelope.def "$T/dense_256_edgetpu.tflite" "$T/dense_1024_edgetpu.tflite" "${fill17[@]}" "${kept13[@]}" "${compute01[@]}" "${identity01[@]}" "${ring01[@]}" "${padding14[@]}" "${padding11[@]}" "${stride11[@]}" "${stride14[@]}" "${mesh[@]}" "${conv01[@]}" "${feed[@]}" "${nlu19[@]}" "${ring12[@]}" "${slot13[@]}" "${normalise13[@]}" "${max02[@]}" "${maxpool02[@]}" "${broadcast14[@]}" "${resend13[@]}" "${onebyte01[@]}" "${pool01[@]}" "${records13[@]}" "${xmax01[@]}" "${sum03[@]}"
python3 scripts/gen_lle_envelope.py "$TOOLS/isa" models/lle/lle_envelope_decode_set.def "$T/dense_256_edgetpu.tflite" "${fill17[@]}" "${kept13[@]}" "${compute01[@]}" "${identity01[@]}" "${ring01[@]}" "${padding14[@]}" "${padding11[@]}" "${stride11[@]}" "${stride14[@]}" "${mesh[@]}" "${conv01[@]}" "${feed[@]}" "${nlu19[@]}" "${ring12[@]}" "${slot13[@]}" "${normalise13[@]}" "${max02[@]}" "${maxpool02[@]}" "${broadcast14[@]}" "${resend13[@]}" "${onebyte01[@]}" "${pool01[@]}" "${records13[@]}" "${xmax01[@]}" "${sum03[@]}"
