// Writes the committed inputs of the capture-importer fuzz targets, made only from a synthetic
// session this program builds (never corpus bytes): a short Coral session (CSR reads and writes,
// an instruction record split over transfers, an input record, an output read, an event, an
// interrupt) rendered in each text format — usbmon 'u' lines, libusb call lines, tshark summary
// lines (with and without the length columns), tshark -V blocks, the coralsim USB log — then
// truncated, bit-flipped, with lines dropped, duplicated or swapped. Deterministic (fixed seed,
// raw std::mt19937 output), so a re-run reproduces the directories byte for byte.
//
//   make_usb_import_fuzz_inputs tests/fuzz/inputs
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "traces/usb_log.h"

namespace {

using Bytes = std::vector<uint8_t>;

struct Xfer {
  char kind;      // 'C' control, 'B' bulk, 'I' interrupt
  uint8_t ep;     // with direction bit
  uint8_t rt = 0, rq = 0;
  uint16_t wv = 0, wi = 0;
  Bytes data;     // OUT: sent; IN: received
};

std::vector<Xfer> session() {
  auto le = [](uint64_t v, int n) {
    Bytes b;
    for (int i = 0; i < n; ++i) b.push_back(static_cast<uint8_t>(v >> (8 * i)));
    return b;
  };
  std::vector<Xfer> s;
  s.push_back({'C', 0x80, 0xC0, 1, 0xa30c, 1, le(0xf0059, 4)});
  s.push_back({'C', 0x00, 0x40, 1, 0xa30c, 1, le(0xf0059, 4)});
  s.push_back({'C', 0x80, 0xC0, 0, 0x4018, 4, le(0, 8)});
  s.push_back({'C', 0x00, 0x40, 0, 0xc148, 4, le(0xf0, 8)});
  Bytes header = le(40, 4);
  header.insert(header.end(), {0, 0, 0, 0});
  s.push_back({'B', 0x01, 0, 0, 0, 0, header});
  Bytes payload;
  for (int i = 0; i < 40; ++i) payload.push_back(static_cast<uint8_t>(i * 7));
  s.push_back({'B', 0x01, 0, 0, 0, 0, Bytes(payload.begin(), payload.begin() + 24)});
  s.push_back({'B', 0x01, 0, 0, 0, 0, Bytes(payload.begin() + 24, payload.end())});
  Bytes input = le(16, 4);
  input.insert(input.end(), {1, 0, 0, 0});
  s.push_back({'B', 0x01, 0, 0, 0, 0, input});
  s.push_back({'B', 0x01, 0, 0, 0, 0, Bytes(16, 0x80)});
  s.push_back({'B', 0x81, 0, 0, 0, 0, Bytes(32, 0x11)});
  Bytes event = le(0x1000, 8);
  for (uint8_t x : le(0x20, 4)) event.push_back(x);
  event.insert(event.end(), {4, 0, 0, 0});
  s.push_back({'B', 0x82, 0, 0, 0, 0, event});
  s.push_back({'I', 0x83, 0, 0, 0, 0, le(1, 4)});
  s.push_back({'C', 0x00, 0x40, 1, 0xa318, 1, le(0xc50004, 4)});
  return s;
}

std::string hex(const Bytes& b, const char* sep = "") {
  std::string out;
  char buf[4];
  for (size_t i = 0; i < b.size(); ++i) {
    std::snprintf(buf, sizeof buf, "%02x", b[i]);
    if (i) out += sep;
    out += buf;
  }
  return out;
}

std::string usbmon(const std::vector<Xfer>& s) {
  std::ostringstream o;
  uint64_t t = 1000;
  unsigned tag = 0xa000;
  for (const Xfer& x : s) {
    const bool in = x.ep & 0x80;
    char addr[32];
    std::snprintf(addr, sizeof addr, "%c%c:2:004:%u", x.kind, in ? 'i' : 'o', x.ep & 0x0f);
    char setup[64] = "-115";
    if (x.kind == 'C') {
      std::snprintf(setup, sizeof setup, "s %02x %02x %04x %04x %04zx", x.rt, x.rq, x.wv, x.wi, x.data.size());
    }
    std::string words;
    for (size_t i = 0; i < x.data.size(); i += 4) {
      words += " " + hex(Bytes(x.data.begin() + static_cast<long>(i),
                                x.data.begin() + static_cast<long>(std::min(i + 4, x.data.size()))));
    }
    o << std::hex << "ffff88" << tag << std::dec << " " << t << " S " << addr << " " << setup << " " << x.data.size()
      << (in ? " <" : " =" + words) << "\n";
    o << std::hex << "ffff88" << tag << std::dec << " " << t + 50 << " C " << addr << " 0 " << x.data.size()
      << (in ? " =" + words : " >") << "\n";
    t += 100;
    ++tag;
  }
  return o.str();
}

std::string libusb(const std::vector<Xfer>& s) {
  std::ostringstream o;
  for (const Xfer& x : s) {
    char head[160];
    if (x.kind == 'C') {
      std::snprintf(head, sizeof head,
                    "libusb_control_transfer(RequestType: 0x%02x, Request: 0x%02x, Value: 0x%04x, Index: 0x%04x, Length: %4zu) : ",
                    x.rt, x.rq, x.wv, x.wi, x.data.size());
    } else {
      std::snprintf(head, sizeof head, "libusb_submit_transfer(Endpoint: 0x%02x, Type: %d, Lenght: %7zu) : ", x.ep,
                    x.kind == 'I' ? 3 : 2, x.data.size());
    }
    o << head;
    if (x.data.size() > 20) o << hex(Bytes(x.data.begin(), x.data.begin() + 20), " ") << " ... " << hex(Bytes{x.data.back()});
    else o << hex(x.data, " ") << " ";
    o << "\n";
  }
  o << "----INFERENCE TIME----\n12.6ms\n";
  return o.str();
}

std::string tsharkSummary(const std::vector<Xfer>& s, bool columns) {
  std::ostringstream o;
  if (columns) o << "                      # URB length [bytes], Data length [bytes], Leftover Capture Data\n";
  unsigned frame = 1;
  double t = 8.5;
  for (const Xfer& x : s) {
    const bool in = x.ep & 0x80;
    const char* type = x.kind == 'C' ? "URB_CONTROL" : x.kind == 'I' ? "URB_INTERRUPT" : "URB_BULK";
    char dev[16];
    std::snprintf(dev, sizeof dev, "2.4.%u", x.kind == 'C' ? 0u : static_cast<unsigned>(x.ep & 0x0f));
    const size_t n = x.data.size();
    char line[256];
    std::snprintf(line, sizeof line, "%5u %11.6f %12s → %-12s USB %zu %s %s", frame++, t, "host", dev, 64 + (in ? 0 : n),
                  type, in ? "in" : "out");
    o << line << (columns ? "  # " + std::to_string(n) + "," + std::to_string(in ? 0 : n) + "," + (in ? "" : hex(x.data)) : "")
      << "\n";
    std::snprintf(line, sizeof line, "%5u %11.6f %12s → %-12s USB %zu %s %s", frame++, t + 0.00005, dev, "host",
                  64 + (in ? n : 0), type, in ? "in" : "out");
    o << line << (columns ? "  # " + std::to_string(n) + "," + std::to_string(in ? n : 0) + "," + (in ? hex(x.data) : "") : "")
      << "\n";
    t += 0.0001;
  }
  return o.str();
}

std::string tsharkDetail(const std::vector<Xfer>& s) {
  std::ostringstream o;
  unsigned frame = 1;
  double t = 1561213552.5;
  unsigned id = 0x100;
  for (const Xfer& x : s) {
    const bool in = x.ep & 0x80;
    const char* type = x.kind == 'C' ? "URB_CONTROL (0x02)" : x.kind == 'I' ? "URB_INTERRUPT (0x01)" : "URB_BULK (0x03)";
    for (int complete = 0; complete < 2; ++complete) {
      char buf[64];
      o << "Frame " << frame++ << ": 64 bytes on wire (512 bits), 64 bytes captured (512 bits) on interface 0\n";
      std::snprintf(buf, sizeof buf, "%.9f", t + complete * 0.0001);
      o << "    Epoch Time: " << buf << " seconds\n";
      o << "USB URB\n";
      o << "    URB id: 0xffffffc0ec12" << std::hex << id << std::dec << "\n";
      o << "    URB type: " << (complete ? "URB_COMPLETE ('C')" : "URB_SUBMIT ('S')") << "\n";
      o << "    URB transfer type: " << type << "\n";
      std::snprintf(buf, sizeof buf, "0x%02x", x.ep);
      o << "    Endpoint: " << buf << ", Direction: " << (in ? "IN" : "OUT") << "\n";
      o << "    Device: 4\n    URB bus id: 2\n";
      o << "    URB status: " << (complete ? "Success (0)" : "Operation now in progress (-EINPROGRESS) (-115)") << "\n";
      o << "    URB length [bytes]: " << x.data.size() << "\n";
      if (!complete && x.kind == 'C') {
        std::snprintf(buf, sizeof buf, "0x%02x", x.rt);
        o << "URB setup\n    bmRequestType: " << buf << "\n    bRequest: " << unsigned{x.rq} << "\n";
        std::snprintf(buf, sizeof buf, "0x%04x", x.wv);
        o << "    wValue: " << buf << "\n";
        std::snprintf(buf, sizeof buf, "%u (0x%04x)", x.wi, x.wi);
        o << "    wIndex: " << buf << "\n    wLength: " << x.data.size() << "\n";
        if (!in) o << "    Data Fragment: " << hex(x.data) << "\n";
      } else if (!complete && !in) {
        o << "Leftover Capture Data: " << hex(x.data) << "\n";
      } else if (complete && in) {
        o << (x.kind == 'C' ? "CONTROL response data: " : "Leftover Capture Data: ") << hex(x.data) << "\n";
      }
      o << "\n";
    }
    t += 0.001;
    ++id;
  }
  return o.str();
}

std::string coralsimLog(const std::vector<Xfer>& s) {
  coralsim::traces::UsbLog log;
  log.origin = "driver";
  log.source = "synthetic";
  coralsim::traces::UsbLogBuilder b(log);
  for (const Xfer& x : s) {
    coralsim::traces::UsbLogBuilder::Transfer t;
    t.type = x.kind == 'C' ? coralsim::traces::UsbTransferType::kControl
             : x.kind == 'I' ? coralsim::traces::UsbTransferType::kInterrupt
                             : coralsim::traces::UsbTransferType::kBulk;
    t.endpoint = x.ep;
    if (x.kind == 'C') {
      t.setup = coralsim::traces::UsbSetupPacket{x.rt, x.rq, x.wv, x.wi, static_cast<uint16_t>(x.data.size())};
    }
    t.length = static_cast<uint32_t>(x.data.size());
    t.data = x.data;
    b.add(t);
  }
  std::ostringstream o;
  coralsim::traces::writeUsbLog(log, o);
  return o.str();
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string l;
  while (std::getline(in, l)) out.push_back(l + "\n");
  return out;
}

void write(const std::filesystem::path& dir, const std::string& name, const std::string& text) {
  std::ofstream(dir / name, std::ios::binary) << text;
}

void variants(const std::filesystem::path& dir, const std::string& base, std::mt19937& rng) {
  std::filesystem::create_directories(dir);
  write(dir, "valid.txt", base);
  const std::vector<std::string> ls = lines(base);
  for (int i = 0; i < 8; ++i) {
    write(dir, "truncated_" + std::to_string(i) + ".txt", base.substr(0, rng() % (base.size() + 1)));
    std::string flipped = base;
    for (int k = 0; k < 4; ++k) flipped[rng() % flipped.size()] ^= static_cast<char>(1u << (rng() % 8));
    write(dir, "bitflip_" + std::to_string(i) + ".txt", flipped);
    std::vector<std::string> edited = ls;
    const size_t a = rng() % edited.size(), b = rng() % edited.size();
    switch (i % 3) {
      case 0: edited.erase(edited.begin() + static_cast<long>(a)); break;
      case 1: edited.insert(edited.begin() + static_cast<long>(a), edited[b]); break;
      default: std::swap(edited[a], edited[b]); break;
    }
    std::string joined;
    for (const auto& l : edited) joined += l;
    write(dir, "lines_" + std::to_string(i) + ".txt", joined);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_usb_import_fuzz_inputs OUTPUT_DIR (tests/fuzz/inputs)\n");
    return 2;
  }
  const std::filesystem::path out = argv[1];
  std::mt19937 rng(20261121);
  const std::vector<Xfer> s = session();
  variants(out / "fuzz_import_usbmon", usbmon(s), rng);
  variants(out / "fuzz_import_libusb", libusb(s), rng);
  variants(out / "fuzz_import_tshark", tsharkSummary(s, true), rng);
  write(out / "fuzz_import_tshark", "summary_plain.txt", tsharkSummary(s, false));
  write(out / "fuzz_import_tshark", "detail.txt", tsharkDetail(s));
  {
    const std::string d = tsharkDetail(s);
    write(out / "fuzz_import_tshark", "detail_truncated.txt", d.substr(0, d.size() / 2));
  }
  variants(out / "fuzz_usb_log", coralsimLog(s), rng);
  return 0;
}
