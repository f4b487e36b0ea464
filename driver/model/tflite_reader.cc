#include "driver/model/tflite_reader.h"

#include <algorithm>
#include <cstring>
#include <set>

#include "driver/model/edgetpu_custom_op.h"
#include "driver/model/flatbuffer_access.h"
#include "driver/model/schema/tflite_generated.h"

namespace coralsim::driver {
namespace fb = coralsim::fbs::tflite;
using detail::copyBytes;
using detail::copyString;
using detail::copyVector;

namespace {

// Bytes [offset, offset + size) of the file, for data stored outside the flatbuffer.
std::span<const uint8_t> outOfLineBytes(std::span<const uint8_t> file, uint64_t offset, uint64_t size,
                                        const Where& where, const char* what) {
  if (offset > file.size() || size > file.size() - offset) {
    where.fail(std::string(what) + " [" + std::to_string(offset) + ", +" + std::to_string(size) +
               ") lies outside the " + std::to_string(file.size()) + "-byte file");
  }
  return file.subspan(offset, size);
}

TfliteOperatorCode readOperatorCode(const fb::OperatorCode& in) {
  TfliteOperatorCode out;
  // Old files only set the 8-bit code; new ones saturate it and set the 32-bit one.
  out.builtinCode = std::max<int32_t>(in.deprecated_builtin_code(), in.builtin_code());
  out.customCode = copyString(in.custom_code());
  out.version = in.version();
  if (out.builtinCode == kTfliteCustomOpCode) {
    out.name = out.customCode.empty() ? "CUSTOM" : out.customCode;
  } else if (auto n = tfliteBuiltinName(out.builtinCode)) {
    out.name = std::string(*n);
  } else {
    out.name = "BUILTIN_" + std::to_string(out.builtinCode);
  }
  return out;
}

TfliteTensor readTensor(const fb::Tensor& in, size_t bufferCount, const Where& where) {
  TfliteTensor out;
  out.name = copyString(in.name());
  out.shape = copyVector(in.shape());
  out.type = static_cast<TfliteTensorType>(in.type());
  out.buffer = in.buffer();
  // Buffer 0 is the conventional "no data" entry; files without a buffer table may use it too.
  if (out.buffer != 0 && out.buffer >= bufferCount) {
    where.fail("buffer index " + std::to_string(out.buffer) + " out of range (model has " +
               std::to_string(bufferCount) + " buffers)");
  }
  if (const auto* q = in.quantization()) {
    out.scale = copyVector(q->scale());
    out.zeroPoint = copyVector(q->zero_point());
    out.quantizedDimension = q->quantized_dimension();
  }
  return out;
}

// Tensor index lists: `allowOmitted` accepts -1, TFLite's marker for a left-out optional input.
std::vector<int32_t> readTensorIndices(const flatbuffers::Vector<int32_t>* v, size_t tensorCount,
                                       bool allowOmitted, const Where& where, const char* field) {
  std::vector<int32_t> out = copyVector(v);
  for (size_t i = 0; i < out.size(); ++i) {
    const int32_t t = out[i];
    if ((t == -1 && allowOmitted) || (t >= 0 && static_cast<size_t>(t) < tensorCount)) continue;
    where.fail(std::string(field) + "[" + std::to_string(i) + "] = " + std::to_string(t) +
               " is not a tensor index (subgraph has " + std::to_string(tensorCount) + " tensors)");
  }
  return out;
}

// Copies the option table of the operator's BuiltinOptions union member (only the members the
// schema declares; any other member number is kept in unionType and otherwise ignored).
TfliteBuiltinOptions readBuiltinOptions(const fb::Operator& op) {
  TfliteBuiltinOptions out;
  out.unionType = static_cast<uint8_t>(op.builtin_options_type());
  if (const auto* o = op.builtin_options_as_Conv2DOptions()) {
    out.padding = static_cast<int8_t>(o->padding());
    out.strideW = o->stride_w();
    out.strideH = o->stride_h();
    out.activation = static_cast<int8_t>(o->fused_activation_function());
    out.dilationW = o->dilation_w_factor();
    out.dilationH = o->dilation_h_factor();
  } else if (const auto* d = op.builtin_options_as_DepthwiseConv2DOptions()) {
    out.padding = static_cast<int8_t>(d->padding());
    out.strideW = d->stride_w();
    out.strideH = d->stride_h();
    out.depthMultiplier = d->depth_multiplier();
    out.activation = static_cast<int8_t>(d->fused_activation_function());
    out.dilationW = d->dilation_w_factor();
    out.dilationH = d->dilation_h_factor();
  } else if (const auto* p = op.builtin_options_as_Pool2DOptions()) {
    out.padding = static_cast<int8_t>(p->padding());
    out.strideW = p->stride_w();
    out.strideH = p->stride_h();
    out.filterW = p->filter_width();
    out.filterH = p->filter_height();
    out.activation = static_cast<int8_t>(p->fused_activation_function());
  } else if (const auto* f = op.builtin_options_as_FullyConnectedOptions()) {
    out.activation = static_cast<int8_t>(f->fused_activation_function());
    out.weightsFormat = f->weights_format();
    out.keepNumDims = f->keep_num_dims();
  } else if (const auto* sm = op.builtin_options_as_SoftmaxOptions()) {
    out.beta = sm->beta();
  } else if (const auto* c = op.builtin_options_as_ConcatenationOptions()) {
    out.axis = c->axis();
    out.activation = static_cast<int8_t>(c->fused_activation_function());
  } else if (const auto* a = op.builtin_options_as_AddOptions()) {
    out.activation = static_cast<int8_t>(a->fused_activation_function());
  } else if (const auto* sub = op.builtin_options_as_SubOptions()) {
    out.activation = static_cast<int8_t>(sub->fused_activation_function());
  } else if (const auto* m = op.builtin_options_as_MulOptions()) {
    out.activation = static_cast<int8_t>(m->fused_activation_function());
  } else if (const auto* rb = op.builtin_options_as_ResizeBilinearOptions()) {
    out.alignCorners = rb->align_corners();
    out.halfPixelCenters = rb->half_pixel_centers();
  } else if (const auto* rn = op.builtin_options_as_ResizeNearestNeighborOptions()) {
    out.alignCorners = rn->align_corners();
    out.halfPixelCenters = rn->half_pixel_centers();
  } else if (const auto* r = op.builtin_options_as_ReshapeOptions()) {
    if (const auto* shape = r->new_shape()) out.newShape.assign(shape->begin(), shape->end());
  } else if (const auto* red = op.builtin_options_as_ReducerOptions()) {
    out.keepDims = red->keep_dims();
  }
  return out;
}

std::span<const uint8_t> customOptionsOf(const fb::Operator& op, std::span<const uint8_t> file, const Where& where) {
  if (const auto* co = op.custom_options()) return detail::byteSpan(co);
  // Models too large for 32-bit offsets keep the options after the flatbuffer.
  if (op.large_custom_options_size() > 0) {
    return outOfLineBytes(file, op.large_custom_options_offset(), op.large_custom_options_size(), where,
                          "large custom options");
  }
  where.fail("has no custom_options");
}

std::vector<std::vector<uint8_t>> readBuffers(const fb::Model& model, std::span<const uint8_t> file,
                                              const Where& where) {
  std::vector<std::vector<uint8_t>> out;
  const auto* buffers = model.buffers();
  if (!buffers) return out;
  for (flatbuffers::uoffset_t i = 0; i < buffers->size(); ++i) {
    const auto* b = buffers->Get(i);
    if (b->data()) {
      out.push_back(copyBytes(b->data()));
    } else if (b->offset() > 1) {  // 0 and 1 mean "not stored outside"
      const auto bytes = outOfLineBytes(file, b->offset(), b->size(), where / ("buffer " + std::to_string(i)),
                                        "data");
      out.emplace_back(bytes.begin(), bytes.end());
    } else {
      out.emplace_back();
    }
  }
  return out;
}

}  // namespace

bool hasTfliteIdentifier(std::span<const uint8_t> bytes) {
  return bytes.size() >= 8 && std::memcmp(bytes.data() + 4, fb::ModelIdentifier(), 4) == 0;
}

void readTflite(std::span<const uint8_t> file, ModelFile& model, const Where& where) {
  const detail::OwnedBuffer buffer(file);
  const auto* in = detail::verifiedRoot<fb::Model>(buffer, fb::ModelIdentifier(), where, "TFLite Model");
  TfliteModel tfl;
  tfl.version = in->version();
  tfl.description = copyString(in->description());
  if (const auto* codes = in->operator_codes()) {
    for (const auto* c : *codes) tfl.operatorCodes.push_back(readOperatorCode(*c));
  }
  tfl.buffers = readBuffers(*in, file, where);

  std::set<std::string> cpuOps;
  const auto* subgraphs = in->subgraphs();
  for (flatbuffers::uoffset_t s = 0; subgraphs && s < subgraphs->size(); ++s) {
    const auto* sg = subgraphs->Get(s);
    const Where sgWhere = where / ("subgraph " + std::to_string(s));
    TfliteSubgraph out;
    out.name = copyString(sg->name());
    if (const auto* tensors = sg->tensors()) {
      for (flatbuffers::uoffset_t t = 0; t < tensors->size(); ++t) {
        out.tensors.push_back(readTensor(*tensors->Get(t), tfl.buffers.size(), sgWhere / ("tensor " + std::to_string(t))));
      }
    }
    const size_t tensorCount = out.tensors.size();
    out.inputs = readTensorIndices(sg->inputs(), tensorCount, false, sgWhere, "inputs");
    out.outputs = readTensorIndices(sg->outputs(), tensorCount, false, sgWhere, "outputs");
    const auto* ops = sg->operators();
    for (flatbuffers::uoffset_t o = 0; ops && o < ops->size(); ++o) {
      const auto* op = ops->Get(o);
      const Where opWhere = sgWhere / ("operator " + std::to_string(o));
      TfliteOperator top;
      top.opcodeIndex = op->opcode_index();
      if (top.opcodeIndex >= tfl.operatorCodes.size()) {
        opWhere.fail("opcode_index " + std::to_string(top.opcodeIndex) + " out of range (model has " +
                     std::to_string(tfl.operatorCodes.size()) + " operator codes)");
      }
      top.name = tfl.operatorCodes[top.opcodeIndex].name;
      top.builtinOptions = readBuiltinOptions(*op);
      top.inputs = readTensorIndices(op->inputs(), tensorCount, true, opWhere, "inputs");
      top.outputs = readTensorIndices(op->outputs(), tensorCount, true, opWhere, "outputs");
      top.runsOnEdgeTpu = top.name.starts_with(kEdgeTpuCustomOpPrefix);
      if (top.runsOnEdgeTpu) {
        EdgeTpuCustomOp etop;
        etop.subgraph = static_cast<int32_t>(s);
        etop.opIndex = static_cast<int32_t>(o);
        for (int32_t t : top.inputs) if (t >= 0) etop.inputs.push_back(t);
        for (int32_t t : top.outputs) if (t >= 0) etop.outputs.push_back(t);
        const Where customWhere = where / ("custom op " + std::to_string(model.edgeTpuOps.size()) + " (subgraph " +
                                           std::to_string(s) + ", operator " + std::to_string(o) + ")");
        readEdgeTpuCustomOptions(customOptionsOf(*op, file, customWhere), etop, customWhere);
        model.edgeTpuOps.push_back(std::move(etop));
      } else {
        cpuOps.insert(top.name);
      }
      out.operators.push_back(std::move(top));
    }
    tfl.subgraphs.push_back(std::move(out));
  }
  tfl.cpuOps.assign(cpuOps.begin(), cpuOps.end());
  model.tflite = std::move(tfl);
}

}  // namespace coralsim::driver
