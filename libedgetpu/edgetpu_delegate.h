// The TfLiteDelegate the library hands out. Its Prepare claims every node whose registration is
// the custom op `edgetpu-custom-op`, builds a CustomOpKernel for each, and asks TFLite to replace
// them with delegate kernels; each delegate kernel (one per run of adjacent claimed nodes) invokes
// its nodes in execution-plan order on the shared DeviceSession. Other nodes stay on TFLite's CPU
// kernels. Errors reach the application through TFLite's error reporter (context->ReportError).
#pragma once

#include <map>
#include <memory>
#include <mutex>

#include "libedgetpu/custom_op_kernel.h"
#include "libedgetpu/delegate_options.h"
#include "libedgetpu/device_session.h"
#include "libedgetpu/tflite_abi.h"

namespace coralsim::libedgetpu {

inline constexpr const char* kEdgeTpuCustomOpName = "edgetpu-custom-op";

class EdgeTpuDelegate {
 public:
  // Opens (or shares) the device for `options`; throws std::exception when it cannot.
  explicit EdgeTpuDelegate(const DelegateOptions& options);

  // The C struct TFLite sees; its data field points back here.
  [[nodiscard]] tflite_abi::Delegate* abi() { return &abi_; }
  static EdgeTpuDelegate* from(tflite_abi::Delegate* delegate);

 private:
  static tflite_abi::Status prepare(tflite_abi::Context* context, tflite_abi::Delegate* delegate);
  static void* initKernel(tflite_abi::Context* context, const char* buffer, size_t length);
  static void freeKernel(tflite_abi::Context* context, void* buffer);
  static tflite_abi::Status prepareKernel(tflite_abi::Context* context, tflite_abi::Node* node);
  static tflite_abi::Status invokeKernel(tflite_abi::Context* context, tflite_abi::Node* node);

  tflite_abi::Delegate abi_{};
  std::shared_ptr<DeviceSession> session_;
  // Kernels built by prepare(), handed to initKernel() by node index (one interpreter prepares
  // at a time per delegate; the mutex covers applications that share one delegate anyway).
  std::mutex pendingMutex_;
  std::map<int, std::shared_ptr<CustomOpKernel>> pending_;
};

}  // namespace coralsim::libedgetpu
