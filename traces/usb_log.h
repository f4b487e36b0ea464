// The USB transaction log: ONE shape for a Coral USB session, whether our host driver recorded it
// (driver/transport/recording_transport.h), the simulator produced it (sim::Device), or an importer read it
// from a capture of a real device (traces/usb_import.h). `coralsim trace-diff` compares two of them.
//
// A transaction is one completed transfer as the host sees it. Beyond the raw USB fields it carries
// what the Coral protocol makes of them (docs/usb-protocol.md): the CSR a vendor control transfer
// reads or writes (address = wIndex << 16 | wValue) and its value; the bulk OUT records (8-byte
// header: u32 LE payload size, tag in the low nibble) that START in the transfer; the 16-byte event
// descriptor of an EP 0x82 transfer; the 4-byte interrupt bitmap of EP 0x83; the SHA-256 of the data
// when the producer saw all of it. Captures often truncate data, so every derived field is optional
// and means "known"; absent means "not known", never zero.
//
// File format (JSONL, one JSON object per line; docs in traces/README.md): the first line is a
// header {"coralsim_usb_log":1,"origin":...,"source":...}, then one line per transaction.
#pragma once

#include <cstdint>
#include <functional>
#include <istream>
#include <optional>
#include <ostream>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace coralsim::traces {

enum class UsbTransferType : uint8_t { kControl, kBulk, kInterrupt };
[[nodiscard]] std::string_view usbTransferTypeName(UsbTransferType type);

struct UsbSetupPacket {
  uint8_t bmRequestType = 0;
  uint8_t bRequest = 0;
  uint16_t wValue = 0;
  uint16_t wIndex = 0;
  uint16_t wLength = 0;

  [[nodiscard]] bool deviceToHost() const { return (bmRequestType & 0x80) != 0; }
  // Vendor request to the device: the Coral's CSR accesses (0x40 write, 0xC0 read).
  [[nodiscard]] bool isVendor() const { return ((bmRequestType >> 5) & 3) == 2; }
  friend bool operator==(const UsbSetupPacket&, const UsbSetupPacket&) = default;
};

// A CSR access carried by a vendor control transfer (bRequest 1 = 32-bit, 0 = 64-bit).
struct CsrAccess {
  uint32_t address = 0;
  unsigned width = 32;
  std::string name;               // "scu_ctrl_3"; empty when the producer had no register table
  std::optional<uint64_t> value;  // written (OUT) or read (IN) value, when the data is known
};

struct RecordHeader {
  uint8_t tag = 0;  // 0 instructions, 1 input activations, 2 parameters (docs/usb-protocol.md §3.2)
  uint32_t size = 0;
  friend bool operator==(const RecordHeader&, const RecordHeader&) = default;
};

struct EventDescriptorRecord {
  uint64_t address = 0;
  uint32_t length = 0;
  uint8_t tag = 0;
  friend bool operator==(const EventDescriptorRecord&, const EventDescriptorRecord&) = default;
};

struct UsbTransaction {
  uint64_t seq = 0;                 // position in the log
  // Microseconds: since the log's first transaction on the host's clock (real sessions), or the
  // device's simulated time of the completion — compute + USB link + host turnarounds since
  // power-on (simulated sessions, sim/device_clock.h).
  std::optional<double> timeUs;
  std::optional<uint64_t> cycle;    // simulated chip cycle at completion (simulated sessions)
  UsbTransferType type = UsbTransferType::kBulk;
  uint8_t endpoint = 0;             // with the direction bit: 0x00/0x80 control, 0x01, 0x81, ...
  std::optional<UsbSetupPacket> setup;
  // A standard request a capture shows only by name ("GET DESCRIPTOR", "SET CONFIGURATION") when
  // its SETUP bytes are not known. A control transfer with neither setup nor request is a
  // non-standard (vendor) request whose SETUP the capture did not show.
  std::string request;
  std::optional<CsrAccess> csr;
  // Bytes moved. `lengthExact` false: the producer only knew a lower bound or the request size
  // (a capture that truncated the frame, an asynchronous IN transfer logged at submission).
  uint32_t length = 0;
  bool lengthExact = true;
  std::string status = "ok";        // "ok", "stall", "timeout", ... ; "" when unknown
  std::vector<RecordHeader> records;  // bulk OUT EP 0x01: records whose header is in this transfer
  std::optional<EventDescriptorRecord> event;  // EP 0x82
  std::optional<uint32_t> interrupt;           // EP 0x83
  std::string dataHead;             // hex of the first (up to 16) data bytes, when known
  std::optional<std::string> sha256;  // of all `length` bytes, when the producer saw them all
  std::string note;                 // free text (the capture line it came from, ...)

  [[nodiscard]] bool in() const { return (endpoint & 0x80) != 0; }
};

struct UsbLog {
  std::string origin;  // "driver", "simulator", "usbmon", "libusb", "tshark"
  std::string source;  // file, device or model the session belongs to
  std::vector<UsbTransaction> transactions;
};

// Names a CSR address ("scu_ctrl_3"), or "" when unknown. traces/ has no register table of its
// own (it depends on nothing project-wide): the driver side passes driver::csr names in.
using RegisterNamer = std::function<std::string(uint32_t address)>;

// Builds transactions from raw transfers and derives the protocol fields: CSR accesses, record
// headers (tracking record boundaries across the transfers of EP 0x01, so payload bytes that look
// like a header are never mistaken for one), event descriptors, interrupts. Every producer uses
// it, so the derived fields mean the same thing whatever the source.
class UsbLogBuilder {
 public:
  explicit UsbLogBuilder(UsbLog& log, RegisterNamer namer = {}) : log_(log), namer_(std::move(namer)) {}

  struct Transfer {
    UsbTransferType type = UsbTransferType::kBulk;
    uint8_t endpoint = 0;
    std::optional<UsbSetupPacket> setup;
    std::string request;
    uint32_t length = 0;
    bool lengthExact = true;
    // The data bytes known to the producer, from the first byte of the transfer (possibly fewer
    // than `length`: a truncated capture). `complete` says they are all `length` bytes.
    std::span<const uint8_t> data;
    bool dataKnown = true;  // false: the producer did not see the data at all
    std::string status = "ok";
    std::optional<double> timeUs;
    std::optional<uint64_t> cycle;
    std::string note;
  };

  // Appends one transaction; returns it for producers that add more.
  UsbTransaction& add(const Transfer& transfer);

  // The record parser lost track (a capture with a gap): the next EP 0x01 transfer starts a record.
  void resynchronise() { recordBytesLeft_ = 0; headerFill_ = 0; }

 private:
  void deriveRecords(UsbTransaction& t, const Transfer& transfer);

  UsbLog& log_;
  RegisterNamer namer_;
  // EP 0x01 record stream state.
  uint64_t recordBytesLeft_ = 0;
  uint8_t header_[8] = {};
  unsigned headerFill_ = 0;
  bool streamLost_ = false;  // a transfer whose data was unknown broke the header tracking
};

// Hex text of bytes ("59000f00"), lower case, no separators.
[[nodiscard]] std::string hexBytes(std::span<const uint8_t> bytes);

// JSONL I/O. write() is deterministic: the same log gives the same bytes.
void writeUsbLog(const UsbLog& log, std::ostream& out);
void writeUsbTransaction(const UsbTransaction& t, std::ostream& out);  // one line, with '\n'
void writeUsbLogHeader(std::string_view origin, std::string_view source, std::ostream& out);

class UsbLogFormatError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
// Reads a log written by writeUsbLog. Throws UsbLogFormatError naming `name`, the line and the
// field that is wrong.
UsbLog readUsbLog(std::istream& in, const std::string& name);

}  // namespace coralsim::traces
