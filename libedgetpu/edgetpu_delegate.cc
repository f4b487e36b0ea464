#include "libedgetpu/edgetpu_delegate.h"

#include <cstring>
#include <string>
#include <vector>

#include "libedgetpu/verbose_log.h"

namespace coralsim::libedgetpu {
namespace {

using tflite_abi::Status;

// The kernel of one delegate partition: the claimed nodes it replaced, in execution order.
struct PartitionKernel {
  std::vector<std::shared_ptr<CustomOpKernel>> nodes;
};

void report(tflite_abi::Context* context, const std::string& message) {
  log(1, message);
  context->ReportError(context, "%s", message.c_str());
}

}  // namespace

EdgeTpuDelegate::EdgeTpuDelegate(const DelegateOptions& options) : session_(DeviceSession::acquire(options)) {
  abi_.data = this;
  abi_.Prepare = &EdgeTpuDelegate::prepare;
  // kTfLiteDelegateFlagsAllowDynamicTensors. Without it TFLite 2.9 prepares every node before
  // calling Prepare (to look for dynamic tensors), and the edgetpu-custom-op, which no CPU kernel
  // implements, fails that with "unresolved custom op" before the delegate can claim it.
  abi_.flags = 1;
}

EdgeTpuDelegate* EdgeTpuDelegate::from(tflite_abi::Delegate* delegate) {
  return delegate ? static_cast<EdgeTpuDelegate*>(delegate->data) : nullptr;
}

Status EdgeTpuDelegate::prepare(tflite_abi::Context* context, tflite_abi::Delegate* delegate) {
  EdgeTpuDelegate* self = from(delegate);
  tflite_abi::IntArray* plan = nullptr;
  if (context->GetExecutionPlan(context, &plan) != Status::kOk || !plan) {
    report(context, "coralsim libedgetpu: cannot read the interpreter's execution plan");
    return Status::kError;
  }
  std::vector<int> claimed;  // [count, node...] — the layout of a TfLiteIntArray
  claimed.push_back(0);
  std::map<int, std::shared_ptr<CustomOpKernel>> kernels;
  for (int i = 0; i < plan->size; ++i) {
    const int nodeIndex = plan->data()[i];
    tflite_abi::Node* node = nullptr;
    tflite_abi::Registration* registration = nullptr;
    if (context->GetNodeAndRegistration(context, nodeIndex, &node, &registration) != Status::kOk) continue;
    if (registration->builtinCode != tflite_abi::kBuiltinCustom || !registration->customName ||
        std::strcmp(registration->customName, kEdgeTpuCustomOpName) != 0) {
      continue;
    }
    try {
      kernels[nodeIndex] = std::make_shared<CustomOpKernel>(*context, nodeIndex, *node, self->session_);
    } catch (const std::exception& e) {
      report(context, std::string("coralsim libedgetpu: ") + e.what());
      return Status::kError;
    }
    claimed.push_back(nodeIndex);
  }
  claimed[0] = static_cast<int>(claimed.size() - 1);
  log(1, "claimed " + std::to_string(claimed[0]) + " edgetpu-custom-op node(s) of " + std::to_string(plan->size));
  if (claimed[0] == 0) return Status::kOk;
  {
    const std::lock_guard<std::mutex> lock(self->pendingMutex_);
    self->pending_ = std::move(kernels);
  }
  tflite_abi::Registration registration{};
  registration.init = &EdgeTpuDelegate::initKernel;
  registration.free = &EdgeTpuDelegate::freeKernel;
  registration.prepare = &EdgeTpuDelegate::prepareKernel;
  registration.invoke = &EdgeTpuDelegate::invokeKernel;
  registration.builtinCode = tflite_abi::kBuiltinCustom;  // what a delegate kernel is registered as
  registration.customName = "coralsim_edgetpu_delegate";
  registration.version = 1;
  const auto* nodes = reinterpret_cast<const tflite_abi::IntArray*>(claimed.data());
  const Status status = context->ReplaceNodeSubsetsWithDelegateKernels(context, registration, nodes, delegate);
  const std::lock_guard<std::mutex> lock(self->pendingMutex_);
  self->pending_.clear();
  return status;
}

void* EdgeTpuDelegate::initKernel(tflite_abi::Context* context, const char* buffer, size_t /*length*/) {
  // For delegate kernels TFLite passes its TfLiteDelegateParams as the init buffer.
  const auto* params = reinterpret_cast<const tflite_abi::DelegateParams*>(buffer);
  EdgeTpuDelegate* self = from(params->delegate);
  auto kernel = std::make_unique<PartitionKernel>();
  const std::lock_guard<std::mutex> lock(self->pendingMutex_);
  for (int i = 0; i < params->nodesToReplace->size; ++i) {
    const int nodeIndex = params->nodesToReplace->data()[i];
    auto it = self->pending_.find(nodeIndex);
    if (it == self->pending_.end()) {
      report(context, "coralsim libedgetpu: TFLite asked for node " + std::to_string(nodeIndex) +
                          ", which the delegate did not claim");
      return nullptr;
    }
    kernel->nodes.push_back(it->second);
  }
  return kernel.release();
}

void EdgeTpuDelegate::freeKernel(tflite_abi::Context* /*context*/, void* buffer) {
  delete static_cast<PartitionKernel*>(buffer);
}

Status EdgeTpuDelegate::prepareKernel(tflite_abi::Context* context, tflite_abi::Node* node) {
  if (!node->userData) {
    report(context, "coralsim libedgetpu: delegate kernel without nodes (see the error above)");
    return Status::kError;
  }
  return Status::kOk;
}

Status EdgeTpuDelegate::invokeKernel(tflite_abi::Context* context, tflite_abi::Node* node) {
  auto* kernel = static_cast<PartitionKernel*>(node->userData);
  for (const auto& n : kernel->nodes) {
    const std::string error = n->invoke(*context);
    if (!error.empty()) {
      report(context, "coralsim libedgetpu: " + error);
      return Status::kError;
    }
  }
  return Status::kOk;
}

}  // namespace coralsim::libedgetpu
