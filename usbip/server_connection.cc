#include "usbip/server_connection.h"

#include <cerrno>
#include <sstream>

#include <boost/asio/buffer.hpp>
#include <boost/asio/write.hpp>

namespace coralsim::usbip {
namespace {

using boost::asio::ip::tcp;

// Reads smaller than this go through the read buffer; larger payload remainders are received
// straight into the message.
constexpr size_t kDirectReadThreshold = 16 * 1024;
constexpr size_t kMaxMessagesPerWrite = 64;

std::string peerName(const tcp::socket& socket) {
  boost::system::error_code ec;
  const tcp::endpoint ep = socket.remote_endpoint(ec);
  if (ec) return "(unknown peer)";
  std::ostringstream out;
  out << ep;
  return out.str();
}

std::string hex4(uint16_t v) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string s(4, '0');
  for (int i = 3; i >= 0; --i, v >>= 4) s[static_cast<size_t>(i)] = kDigits[v & 0xF];
  return s;
}

usb::ControlSetup setupOf(const std::array<uint8_t, 8>& s) {
  usb::ControlSetup setup;
  setup.bmRequestType = s[0];
  setup.bRequest = s[1];
  setup.wValue = static_cast<uint16_t>(s[2] | s[3] << 8);
  setup.wIndex = static_cast<uint16_t>(s[4] | s[5] << 8);
  setup.wLength = static_cast<uint16_t>(s[6] | s[7] << 8);
  return setup;
}

const char* speedName(usb::UsbSpeed speed) { return speed == usb::UsbSpeed::kSuper ? "SuperSpeed" : "high speed"; }

}  // namespace

ServerConnection::ServerConnection(ServerContext& context, tcp::socket socket)
    : context_(context),
      socket_(std::move(socket)),
      operationDeadline_(context.io),
      peer_(peerName(socket_)),
      decoder_(context.options.limits) {
  ++context_.stats.connectionsOpen;
}

ServerConnection::~ServerConnection() { --context_.stats.connectionsOpen; }

void ServerConnection::start() {
  // A client that connects and says nothing must not hold a connection slot forever.
  operationDeadline_.expires_after(context_.options.operationTimeout);
  std::weak_ptr<ServerConnection> weak = weak_from_this();
  operationDeadline_.async_wait([weak](const boost::system::error_code& error) {
    auto self = weak.lock();
    if (error || !self || !self->open() || self->decoder_.phase() != StreamPhase::kOperation || self->stopReading_) return;
    self->protocolError("no OP_REQ_DEVLIST or OP_REQ_IMPORT within " +
                        std::to_string(self->context_.options.operationTimeout.count()) + " ms");
  });
  readMore();
}

// ---------------------------------------------------------------------------------------------
// reading

void ServerConnection::readMore() {
  if (!open() || reading_ || stopReading_) return;
  if (writeQueue_.size() >= context_.options.maxQueuedReplies) {
    readPaused_ = true;  // writeMore() resumes once the client has read its replies
    return;
  }
  reading_ = true;
  auto self = shared_from_this();
  const std::span<uint8_t> space = decoder_.payloadSpace();
  if (space.size() >= kDirectReadThreshold) {
    socket_.async_read_some(boost::asio::buffer(space.data(), space.size()),
                            [self](const boost::system::error_code& e, size_t n) { self->onRead(e, n, true); });
  } else {
    socket_.async_read_some(boost::asio::buffer(readBuffer_),
                            [self](const boost::system::error_code& e, size_t n) { self->onRead(e, n, false); });
  }
}

void ServerConnection::onRead(const boost::system::error_code& error, size_t bytes, bool direct) {
  reading_ = false;
  if (!open()) return;
  if (error) {
    close(error == boost::asio::error::eof ? "client closed the connection" : "read failed: " + error.message());
    return;
  }
  try {
    if (direct) {
      decoder_.commitPayload(bytes);
      drainMessages();
    } else {
      consume(std::span<const uint8_t>(readBuffer_.data(), bytes));
    }
  } catch (const CodecError& e) {
    protocolError(e.what());
    return;
  }
  readMore();
}

void ServerConnection::consume(std::span<const uint8_t> bytes) {
  size_t at = 0;
  while (open() && !stopReading_) {
    drainMessages();
    if (!open() || stopReading_ || at == bytes.size()) break;
    at += decoder_.feed(bytes.subspan(at));
  }
  drainMessages();
}

void ServerConnection::drainMessages() {
  while (open() && !stopReading_ && decoder_.hasMessage()) handle(decoder_.take());
}

void ServerConnection::handle(Request request) {
  try {
    if (auto* submit = std::get_if<CmdSubmit>(&request)) {
      handleSubmit(std::move(*submit));
    } else if (auto* unlink = std::get_if<CmdUnlink>(&request)) {
      handleUnlink(*unlink);
    } else if (auto* import = std::get_if<OpReqImport>(&request)) {
      handleImport(*import);
    } else {
      handleDevlist();
    }
  } catch (const std::exception& e) {
    // A device that throws (e.g. it cannot be powered on) costs this connection, not the server.
    context_.log("usbip: " + peer_ + ": dropped: device failure: " + e.what());
    close("device failure");
  }
}

// ---------------------------------------------------------------------------------------------
// operations

void ServerConnection::handleDevlist() {
  OpRepDevlist reply;
  for (const ExportSlot& slot : context_.slots) reply.devices.push_back(devlistEntry(slot.device->info(), slot.position));
  enqueue(Outgoing{false, {}, serialize(reply), 0});
  stopReading_ = true;  // the protocol ends the connection after the list
  closeAfterWrite_ = true;
  writeMore();
}

void ServerConnection::handleImport(const OpReqImport& request) {
  const std::string busId = textOf(request.body.busid);
  OpRepImport reply;
  ExportSlot* found = nullptr;
  for (ExportSlot& slot : context_.slots) {
    if (slot.position.busId() == busId) found = &slot;
  }
  if (found == nullptr) {
    reply.common.status = op_status::kNoSuchDevice;
    context_.log("usbip: " + peer_ + ": refused import of '" + busId + "': no such bus id");
  } else if (found->importer != nullptr) {
    reply.common.status = op_status::kDeviceBusy;
    context_.log("usbip: " + peer_ + ": refused import of " + busId + ": busy (imported by " +
                 found->importer->peer() + ")");
  }
  if (reply.common.status != op_status::kOk) {
    ++context_.stats.importsRefused;
    enqueue(Outgoing{false, {}, serialize(reply), 0});
    stopReading_ = true;
    closeAfterWrite_ = true;
    writeMore();
    return;
  }
  ExportedDeviceInfo info;
  try {
    if (context_.options.powerCycleOnImport) {
      found->device->powerCycle();
    } else {
      found->device->busReset();
    }
    info = found->device->info();
  } catch (const std::exception& e) {
    reply.common.status = op_status::kDeviceError;
    context_.log("usbip: " + peer_ + ": refused import of " + busId + ": device failure: " + e.what());
    ++context_.stats.importsRefused;
    enqueue(Outgoing{false, {}, serialize(reply), 0});
    stopReading_ = true;
    closeAfterWrite_ = true;
    writeMore();
    return;
  }
  // The reply's busid is the requested one (usbip attach checks it); deviceRecord builds it so.
  reply.device = deviceRecord(info, found->position);
  slot_ = found;
  found->importer = this;
  devid_ = devidOf(*reply.device);
  ++context_.stats.imports;
  decoder_.setPhase(StreamPhase::kUrb);
  operationDeadline_.cancel();
  enqueue(Outgoing{false, {}, serialize(reply), 0});
  writeMore();
  context_.log("usbip: " + peer_ + ": attached " + busId + " (" + hex4(info.idVendor) + ":" + hex4(info.idProduct) +
               ", " + speedName(info.speed) + ")");
}

// ---------------------------------------------------------------------------------------------
// URBs

void ServerConnection::handleSubmit(CmdSubmit command) {
  const uint32_t seqnum = command.header.seqnum;
  if (command.header.devid != devid_) {
    protocolError("USBIP_CMD_SUBMIT seqnum " + std::to_string(seqnum) + ": devid " + std::to_string(command.header.devid) +
                  " is not the imported device's " + std::to_string(devid_));
    return;
  }
  if (pending_.contains(seqnum)) {
    protocolError("USBIP_CMD_SUBMIT seqnum " + std::to_string(seqnum) + " is already in flight");
    return;
  }
  if (pending_.size() >= context_.options.maxUrbsInFlight) {
    protocolError("more than " + std::to_string(context_.options.maxUrbsInFlight) + " URBs in flight");
    return;
  }
  const bool in = command.header.direction == urb_direction::kIn;
  const size_t budget = in ? command.params.transferBufferLength : command.transferBuffer.size();
  if (bytesInFlight_ + budget > context_.options.maxBytesInFlight) {
    protocolError("more than " + std::to_string(context_.options.maxBytesInFlight) + " bytes in flight");
    return;
  }
  bytesInFlight_ += budget;
  ++context_.stats.urbsSubmitted;

  if (command.header.ep == 0) {
    handleControl(command, budget);
    return;
  }

  PendingUrb urb;
  urb.token = nextToken_++;
  urb.in = in;
  urb.capacity = command.params.transferBufferLength;
  urb.transferFlags = command.params.transferFlags;
  urb.budget = budget;
  const uint64_t token = urb.token;
  PendingUrb& stored = pending_.emplace(seqnum, std::move(urb)).first->second;
  ++context_.stats.urbsPending;

  // The device completes on its own thread: hop back to ours through the relay.
  std::weak_ptr<ServerConnection> weak = weak_from_this();
  std::shared_ptr<CompletionRelay> relay = context_.relay;
  ExportedDevice::Completion done = [weak, relay, seqnum, token](usb::UrbResult result) {
    relay->post([weak, seqnum, token, result = std::move(result)]() mutable {
      if (auto self = weak.lock()) self->onCompletion(seqnum, token, std::move(result));
    });
  };
  const auto address = static_cast<uint8_t>(command.header.ep | (in ? 0x80 : 0x00));
  stored.urbId = in ? slot_->device->submitIn(address, command.params.transferBufferLength, std::move(done))
                    : slot_->device->submitOut(address, std::move(command.transferBuffer), std::move(done));
}

void ServerConnection::handleControl(CmdSubmit& command, size_t budget) {
  const uint32_t seqnum = command.header.seqnum;
  const usb::ControlSetup setup = setupOf(command.params.setup);
  const bool in = setup.isDeviceToHost();
  if (!in && command.transferBuffer.size() != setup.wLength) {
    // The data stage must be exactly wLength bytes (the device contract); a client that sends
    // otherwise gets an error for this URB, not a dropped connection.
    sendRetSubmit(seqnum, usb::urbStatusToErrno(usb::UrbStatus::kInvalid), 0, {}, budget);
    return;
  }
  usb::UrbResult result = slot_->device->control(setup, command.transferBuffer);
  int32_t status = usb::urbStatusToErrno(result.status);
  if (!in) {
    sendRetSubmit(seqnum, status, result.status == usb::UrbStatus::kOk ? setup.wLength : 0, {}, budget);
    return;
  }
  const size_t capacity = std::min<size_t>(command.params.transferBufferLength, setup.wLength);
  if (result.data.size() > capacity) {
    result.data.resize(capacity);  // never more than the host asked for (vhci would drop us)
    if (status == 0) status = -EOVERFLOW;
  }
  if (status == 0 && (command.params.transferFlags & transfer_flag::kShortNotOk) != 0 &&
      result.data.size() < command.params.transferBufferLength) {
    status = -EREMOTEIO;
  }
  const auto actual = static_cast<uint32_t>(result.data.size());
  sendRetSubmit(seqnum, status, actual, std::move(result.data), budget);
}

void ServerConnection::onCompletion(uint32_t seqnum, uint64_t token, usb::UrbResult result) {
  if (!open()) return;
  const auto it = pending_.find(seqnum);
  if (it == pending_.end() || it->second.token != token) return;  // cancelled, or a stale URB
  PendingUrb urb = std::move(it->second);
  pending_.erase(it);
  --context_.stats.urbsPending;

  int32_t status = usb::urbStatusToErrno(result.status);
  uint32_t actual = 0;
  std::vector<uint8_t> data;
  if (urb.in) {
    data = std::move(result.data);
    if (data.size() > urb.capacity) {
      data.resize(urb.capacity);
      if (status == 0) status = -EOVERFLOW;
    }
    actual = static_cast<uint32_t>(data.size());
    if (status == 0 && (urb.transferFlags & transfer_flag::kShortNotOk) != 0 && actual < urb.capacity) {
      status = -EREMOTEIO;
    }
  } else {
    actual = std::min(result.actualLength, urb.capacity);
  }
  sendRetSubmit(seqnum, status, actual, std::move(data), urb.budget);
  // Unlinks that lost the race: answered after the RET_SUBMIT, with status 0 (§10.5 item 2).
  for (uint32_t unlinkSeqnum : urb.unlinks) {
    ++context_.stats.unlinksTooLate;
    sendRetUnlink(unlinkSeqnum, 0);
  }
}

void ServerConnection::handleUnlink(const CmdUnlink& command) {
  const uint32_t unlinkSeqnum = command.header.seqnum;
  if (command.header.devid != devid_) {
    protocolError("USBIP_CMD_UNLINK seqnum " + std::to_string(unlinkSeqnum) + ": devid " +
                  std::to_string(command.header.devid) + " is not the imported device's " + std::to_string(devid_));
    return;
  }
  const auto it = pending_.find(command.params.unlinkSeqnum);
  if (it == pending_.end()) {
    // Already answered (its RET_SUBMIT is queued or sent, in order before this reply) or unknown.
    ++context_.stats.unlinksTooLate;
    sendRetUnlink(unlinkSeqnum, 0);
    return;
  }
  PendingUrb& urb = it->second;
  if (urb.unlinks.empty() && slot_->device->cancel(urb.urbId)) {
    bytesInFlight_ -= urb.budget;
    pending_.erase(it);
    --context_.stats.urbsPending;
    ++context_.stats.unlinksCancelled;
    sendRetUnlink(unlinkSeqnum, -ECONNRESET);  // and never a RET_SUBMIT for it
    return;
  }
  // The device already completed it: the completion is on its way to us.
  urb.unlinks.push_back(unlinkSeqnum);
}

void ServerConnection::sendRetSubmit(uint32_t seqnum, int32_t status, uint32_t actualLength, std::vector<uint8_t> data,
                                     size_t budget) {
  RetSubmit reply;
  reply.header.seqnum = seqnum;
  reply.params.status = status;
  reply.params.actualLength = actualLength;
  Outgoing out;
  out.urb = true;
  out.header = encodeHeader(reply);  // payload sent from `bytes` below, without copying
  out.bytes = std::move(data);
  out.budget = budget;
  ++context_.stats.urbsCompleted;
  enqueue(std::move(out));
  writeMore();
}

void ServerConnection::sendRetUnlink(uint32_t seqnum, int32_t status) {
  RetUnlink reply;
  reply.header.seqnum = seqnum;
  reply.params.status = status;
  Outgoing out;
  out.urb = true;
  out.header = encodeHeader(reply);
  enqueue(std::move(out));
  writeMore();
}

// ---------------------------------------------------------------------------------------------
// writing

void ServerConnection::enqueue(Outgoing message) { writeQueue_.push_back(std::move(message)); }

void ServerConnection::writeMore() {
  if (!open() || writing_ > 0) return;
  if (writeQueue_.empty()) {
    if (closeAfterWrite_) close("");
    return;
  }
  std::vector<boost::asio::const_buffer> buffers;
  size_t count = 0;
  for (const Outgoing& m : writeQueue_) {
    if (count == kMaxMessagesPerWrite) break;
    if (m.urb) buffers.emplace_back(m.header.data(), m.header.size());
    if (!m.bytes.empty()) buffers.emplace_back(m.bytes.data(), m.bytes.size());
    ++count;
  }
  writing_ = count;
  auto self = shared_from_this();
  boost::asio::async_write(socket_, buffers, [self](const boost::system::error_code& error, size_t) {
    if (!self->open()) {
      // close() left the queue alone while this write could still read it.
      self->writing_ = 0;
      self->writeQueue_.clear();
      return;
    }
    for (size_t i = 0; i < self->writing_; ++i) {
      self->bytesInFlight_ -= self->writeQueue_.front().budget;
      self->writeQueue_.pop_front();
    }
    self->writing_ = 0;
    if (error) {
      self->close("write failed: " + error.message());
      return;
    }
    if (self->readPaused_ && self->writeQueue_.size() < self->context_.options.maxQueuedReplies) {
      self->readPaused_ = false;
      self->readMore();
    }
    self->writeMore();
  });
}

// ---------------------------------------------------------------------------------------------
// ending

void ServerConnection::protocolError(const std::string& what) {
  ++context_.stats.protocolErrors;
  context_.log("usbip: " + peer_ + ": dropped: " + what);
  close("protocol error");
}

void ServerConnection::close(const std::string& reason) {
  if (closed_) return;
  closed_ = true;
  auto self = shared_from_this();  // the set below may hold the last reference
  operationDeadline_.cancel();
  boost::system::error_code ignored;
  socket_.shutdown(tcp::socket::shutdown_both, ignored);
  socket_.close(ignored);
  size_t cancelled = 0;
  std::string deviceTrouble;
  try {
    if (slot_ != nullptr) {
      for (auto& [seqnum, urb] : pending_) {
        if (slot_->device->cancel(urb.urbId)) ++cancelled;
      }
      // Unplugged: the device sees a bus reset; a new import power-cycles it.
      slot_->device->busReset();
    }
  } catch (const std::exception& e) {
    deviceTrouble = std::string("; device failure: ") + e.what();
  }
  context_.stats.urbsPending -= pending_.size();
  pending_.clear();
  if (writing_ == 0) writeQueue_.clear();  // else the aborted write's handler clears it
  if (slot_ != nullptr) {
    slot_->importer = nullptr;
    context_.log("usbip: " + peer_ + ": detached from " + slot_->position.busId() + " (" +
                 (reason.empty() ? "closed" : reason) + "; " + std::to_string(cancelled) + " URBs cancelled" +
                 deviceTrouble + ")");
    slot_ = nullptr;
  }
  context_.connections.erase(self);
}

}  // namespace coralsim::usbip
