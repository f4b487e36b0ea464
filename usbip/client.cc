#include "usbip/client.h"

#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "usbip/codec_error.h"
#include "usbip/pdu_serializer.h"

namespace coralsim::usbip {
namespace {

constexpr size_t kReadBufferBytes = 64 * 1024;
constexpr size_t kDirectReadThreshold = 16 * 1024;

std::string errnoText() { return std::strerror(errno); }

int pollTimeoutMs(UsbipClient::Clock::time_point deadline) {
  const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - UsbipClient::Clock::now()).count();
  return left <= 0 ? 0 : static_cast<int>(std::min<long long>(left, 1 << 30));
}

// Connects with a timeout; returns the fd or throws.
int connectTo(const std::string& host, uint16_t port, std::chrono::milliseconds timeout, const std::string& who) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  const int rc = ::getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &found);
  if (rc != 0) throw UsbipClientError(who + ": cannot resolve '" + host + "': " + ::gai_strerror(rc));
  std::string lastError = "no address";
  const auto deadline = UsbipClient::Clock::now() + timeout;
  for (addrinfo* a = found; a != nullptr; a = a->ai_next) {
    const int fd = ::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, a->ai_protocol);
    if (fd < 0) {
      lastError = errnoText();
      continue;
    }
    bool connected = ::connect(fd, a->ai_addr, a->ai_addrlen) == 0;
    if (!connected && errno == EINPROGRESS) {
      pollfd p{fd, POLLOUT, 0};
      int ready = 0;
      do {
        ready = ::poll(&p, 1, pollTimeoutMs(deadline));
      } while (ready < 0 && errno == EINTR);  // a signal (a profiler, libFuzzer's timer) is not a timeout
      if (ready == 1) {
        int error = 0;
        socklen_t len = sizeof error;
        ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &len);
        connected = error == 0;
        if (!connected) lastError = std::strerror(error);
      } else {
        lastError = "timed out after " + std::to_string(timeout.count()) + " ms";
      }
    } else if (!connected) {
      lastError = errnoText();
    }
    if (connected) {
      ::freeaddrinfo(found);
      ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);  // blocking sends, polled reads
      const int one = 1;
      ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
      return fd;
    }
    ::close(fd);
  }
  ::freeaddrinfo(found);
  throw UsbipClientError(who + ": cannot connect: " + lastError);
}

}  // namespace

UsbipClient::UsbipClient(const std::string& host, uint16_t port, const ClientOptions& options)
    : description_("usbip " + host + ":" + std::to_string(port)),
      options_(options),
      decoder_(
          [this](uint32_t seqnum) -> std::optional<PendingSubmit> {
            const auto it = pending_.find(seqnum);
            if (it == pending_.end()) return std::nullopt;
            return it->second;
          },
          options.limits),
      readBuffer_(kReadBufferBytes) {
  fd_ = connectTo(host, port, options.connectTimeout, description_);
}

UsbipClient::UsbipClient(const std::string& host, uint16_t port, const std::string& busId, const ClientOptions& options)
    : UsbipClient(host, port, options) {
  description_ += "/" + busId;
  OpReqImport request;
  request.body.busid = fixedText<kBusIdBytes>(busId);
  sendAll(serialize(request));
  if (!pumpUntil(Clock::now() + options_.operationTimeout, [this] { return operationReply_.has_value(); })) {
    fail("no OP_REP_IMPORT within " + std::to_string(options_.operationTimeout.count()) + " ms");
  }
  const auto* reply = std::get_if<OpRepImport>(&*operationReply_);
  if (reply == nullptr) fail("the server answered OP_REQ_IMPORT with another message");
  if (reply->common.status != op_status::kOk || !reply->device) {
    const uint32_t status = reply->common.status;
    fail("import refused with status " + std::to_string(status) +
         (status == op_status::kDeviceBusy     ? " (device busy: imported by another client)"
          : status == op_status::kNoSuchDevice ? " (no such bus id)"
                                               : ""));
  }
  if (textOf(reply->device->busid) != busId) {
    fail("the import reply names bus id '" + textOf(reply->device->busid) + "', not '" + busId + "'");
  }
  device_ = *reply->device;
  devid_ = devidOf(device_);
  operationReply_.reset();
}

UsbipClient::~UsbipClient() { close(); }

std::vector<ExportedDeviceEntry> UsbipClient::listDevices(const std::string& host, uint16_t port,
                                                          const ClientOptions& options) {
  UsbipClient client(host, port, options);
  client.sendAll(serialize(OpReqDevlist{}));
  if (!client.pumpUntil(Clock::now() + options.operationTimeout, [&] { return client.operationReply_.has_value(); })) {
    client.fail("no OP_REP_DEVLIST within " + std::to_string(options.operationTimeout.count()) + " ms");
  }
  auto* reply = std::get_if<OpRepDevlist>(&*client.operationReply_);
  if (reply == nullptr) client.fail("the server answered OP_REQ_DEVLIST with another message");
  if (reply->common.status != op_status::kOk) {
    client.fail("device list refused with status " + std::to_string(reply->common.status));
  }
  return std::move(reply->devices);
}

void UsbipClient::close() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

usb::UsbSpeed UsbipClient::speed() const {
  return device_.speed == usb_speed_code::kSuper || device_.speed == usb_speed_code::kSuperPlus ? usb::UsbSpeed::kSuper
                                                                                                : usb::UsbSpeed::kHigh;
}

void UsbipClient::fail(const std::string& what) {
  close();  // the stream is unusable after any of these
  throw UsbipClientError(description_ + ": " + what);
}

// ---- sending ----

void UsbipClient::sendAll(std::span<const uint8_t> first, std::span<const uint8_t> second) {
  if (fd_ < 0) throw UsbipClientError(description_ + ": the connection is closed");
  iovec parts[2] = {{const_cast<uint8_t*>(first.data()), first.size()},
                    {const_cast<uint8_t*>(second.data()), second.size()}};
  size_t index = 0;
  while (index < 2) {
    if (parts[index].iov_len == 0) {
      ++index;
      continue;
    }
    msghdr message{};
    message.msg_iov = parts + index;
    message.msg_iovlen = 2 - index;
    const ssize_t sent = ::sendmsg(fd_, &message, MSG_NOSIGNAL);
    if (sent < 0) {
      if (errno == EINTR) continue;
      fail("send failed: " + errnoText());
    }
    auto left = static_cast<size_t>(sent);
    while (index < 2 && left >= parts[index].iov_len) {
      left -= parts[index].iov_len;
      parts[index].iov_len = 0;
      ++index;
    }
    if (index < 2) {
      parts[index].iov_base = static_cast<uint8_t*>(parts[index].iov_base) + left;
      parts[index].iov_len -= left;
    }
  }
}

uint32_t UsbipClient::submit(CmdSubmit command) {
  if (nextSeqnum_ == 0) nextSeqnum_ = 1;  // 0 after 2^32 URBs: skip it
  const uint32_t seqnum = nextSeqnum_++;
  command.header.seqnum = seqnum;
  command.header.devid = devid_;
  const UrbHeaderBytes header = encodeHeader(command);
  pending_[seqnum] = PendingSubmit{command.header.direction == urb_direction::kIn, command.params.transferBufferLength};
  sendAll(header, command.transferBuffer);
  return seqnum;
}

uint32_t UsbipClient::submitControl(const usb::ControlSetup& setup, std::span<const uint8_t> outData,
                                    uint32_t transferFlags) {
  CmdSubmit command;
  const bool in = setup.isDeviceToHost();
  command.header.direction = in ? urb_direction::kIn : urb_direction::kOut;
  command.header.ep = 0;
  command.params.transferFlags = transferFlags | (in ? transfer_flag::kDirIn : 0);
  command.params.transferBufferLength = in ? setup.wLength : static_cast<uint32_t>(outData.size());
  command.params.setup = {setup.bmRequestType,
                          setup.bRequest,
                          static_cast<uint8_t>(setup.wValue),
                          static_cast<uint8_t>(setup.wValue >> 8),
                          static_cast<uint8_t>(setup.wIndex),
                          static_cast<uint8_t>(setup.wIndex >> 8),
                          static_cast<uint8_t>(setup.wLength),
                          static_cast<uint8_t>(setup.wLength >> 8)};
  if (!in) command.transferBuffer.assign(outData.begin(), outData.end());
  return submit(std::move(command));
}

uint32_t UsbipClient::submitOut(uint8_t endpoint, std::span<const uint8_t> data, uint32_t transferFlags) {
  CmdSubmit command;
  command.header.direction = urb_direction::kOut;
  command.header.ep = endpoint & 0x0F;
  command.params.transferFlags = transferFlags;
  command.params.transferBufferLength = static_cast<uint32_t>(data.size());
  command.transferBuffer.assign(data.begin(), data.end());
  return submit(std::move(command));
}

uint32_t UsbipClient::submitIn(uint8_t endpoint, uint32_t length, uint32_t transferFlags) {
  CmdSubmit command;
  command.header.direction = urb_direction::kIn;
  command.header.ep = endpoint & 0x0F;
  command.params.transferFlags = transferFlags | transfer_flag::kDirIn;
  command.params.transferBufferLength = length;
  return submit(std::move(command));
}

// ---- receiving ----

void UsbipClient::receive(Reply reply) {
  if (auto* ret = std::get_if<RetSubmit>(&reply)) {
    const uint32_t seqnum = ret->header.seqnum;
    pending_.erase(seqnum);
    answered_[seqnum] = std::move(*ret);
  } else if (auto* unlink = std::get_if<RetUnlink>(&reply)) {
    unlinkAnswers_[unlink->header.seqnum] = unlink->params.status;
  } else {
    if (const auto* import = std::get_if<OpRepImport>(&reply); import && import->common.status == op_status::kOk) {
      decoder_.setPhase(StreamPhase::kUrb);  // URB traffic follows on this connection
    }
    operationReply_ = std::move(reply);
  }
}

bool UsbipClient::pumpUntil(Clock::time_point deadline, const std::function<bool()>& done) {
  while (!done()) {
    if (fd_ < 0) throw UsbipClientError(description_ + ": the connection is closed");
    const std::span<uint8_t> direct = decoder_.payloadSpace();
    const bool intoPayload = direct.size() >= kDirectReadThreshold;
    uint8_t* target = intoPayload ? direct.data() : readBuffer_.data();
    const size_t room = intoPayload ? direct.size() : readBuffer_.size();
    // Try first, wait only when nothing is there: one system call per read while data streams in.
    const ssize_t got = ::recv(fd_, target, room, MSG_DONTWAIT);
    if (got < 0) {
      if (errno == EINTR) continue;
      if (errno != EAGAIN && errno != EWOULDBLOCK) fail("receive failed: " + errnoText());
      pollfd p{fd_, POLLIN, 0};
      const int ready = ::poll(&p, 1, pollTimeoutMs(deadline));
      if (ready < 0 && errno != EINTR) fail("poll failed: " + errnoText());
      if (ready == 0) return false;
      continue;
    }
    if (got == 0) fail("the server closed the connection");
    try {
      if (intoPayload) {
        decoder_.commitPayload(static_cast<size_t>(got));
        if (decoder_.hasMessage()) receive(decoder_.take());
      } else {
        const std::span<const uint8_t> bytes(readBuffer_.data(), static_cast<size_t>(got));
        size_t at = 0;
        while (at < bytes.size() || decoder_.hasMessage()) {
          if (decoder_.hasMessage()) {
            receive(decoder_.take());
            continue;
          }
          at += decoder_.feed(bytes.subspan(at));
        }
      }
    } catch (const CodecError& e) {
      fail(e.what());
    }
  }
  return true;
}

std::optional<RetSubmit> UsbipClient::wait(uint32_t seqnum, std::chrono::milliseconds timeout) {
  if (!answered_.contains(seqnum) && !pending_.contains(seqnum)) {
    throw std::logic_error(description_ + ": wait() for seqnum " + std::to_string(seqnum) + " which is not in flight");
  }
  if (!pumpUntil(Clock::now() + timeout, [&] { return answered_.contains(seqnum); })) return std::nullopt;
  auto node = answered_.extract(seqnum);
  return std::move(node.mapped());
}

std::optional<RetSubmit> UsbipClient::poll(uint32_t seqnum) { return wait(seqnum, std::chrono::milliseconds(0)); }

UsbipClient::UnlinkOutcome UsbipClient::unlink(uint32_t seqnum, std::chrono::milliseconds timeout) {
  if (nextSeqnum_ == 0) nextSeqnum_ = 1;
  const uint32_t unlinkSeqnum = nextSeqnum_++;
  CmdUnlink command;
  command.header.seqnum = unlinkSeqnum;
  command.header.devid = devid_;
  command.params.unlinkSeqnum = seqnum;
  sendAll(serialize(command));
  if (!pumpUntil(Clock::now() + timeout, [&] { return unlinkAnswers_.contains(unlinkSeqnum); })) {
    fail("no USBIP_RET_UNLINK for seqnum " + std::to_string(seqnum) + " within " + std::to_string(timeout.count()) +
         " ms");
  }
  UnlinkOutcome outcome;
  outcome.status = unlinkAnswers_.extract(unlinkSeqnum).mapped();
  if (auto node = answered_.extract(seqnum)) outcome.completed = std::move(node.mapped());
  // Cancelled (or never known): a RET_SUBMIT for it from now on is a protocol error.
  pending_.erase(seqnum);
  return outcome;
}

}  // namespace coralsim::usbip
