#!/usr/bin/env python3
"""Runs raw Edge TPU programs (*.coral instruction streams) on a Coral USB Accelerator with pyusb.

A client written the way third-party tools talk to the Coral (edgetpuxray, LibrEdgeTPU): the
unmodified pyusb library on libusb-1.0, no project code. It finds the Coral by VID/PID, downloads
the firmware by DFU when the device is still in its bootloader personality, opens the chip with
libedgetpu's register sequence, and for each (PROGRAM, INPUT) pair sends the program, answers the
descriptors the device announces on EP 0x82 (input slices out, output bytes in) until the
completion event, then closes the chip. Facts used are in docs/usb-protocol.md of ../shared:
CSR transport §2, framing §3.2, events §4.2, open/close §5.3/§5.4, DFU §1.4.

usage: run_coral_program.py [--firmware FILE] [--libusb PATH] [--timeout-ms MS]
                            --run PROGRAM INPUT [--run PROGRAM INPUT ...]

Prints one JSON object per run on standard output (program, input and output as hex, the events
the device sent); progress and errors go to standard error. Exit status 0 when every run
completed, 1 otherwise.
"""

import argparse
import ctypes.util
import glob
import json
import os
import struct
import sys
import time

import usb.backend.libusb1
import usb.core
import usb.util

RUNTIME_ID = (0x18D1, 0x9302)     # the Coral with its firmware running
BOOTLOADER_ID = (0x1A6E, 0x089A)  # the DFU bootloader it powers on as

# ---- CSR transport (§2): vendor requests, bRequest 0 = 64-bit, 1 = 32-bit, address in wIndex:wValue
VENDOR_IN, VENDOR_OUT = 0xC0, 0x40
REQUEST_64, REQUEST_32 = 0, 1

# Registers this client touches (beagle_csr_offsets.h addresses, §5.1).
SCU_CTRL_0 = 0x1A30C
SCU_CTRL_2 = 0x1A314
SCU_CTRL_3 = 0x1A318
SCU_CTR_7 = 0x1A33C
OMC0_00 = 0x1A000
OMC0_D4 = 0x1A0D4
OMC0_D8 = 0x1A0D8
RAMBIST_CTRL_1 = 0x1A704
SLV_ABM_EN, MST_ABM_EN = 0x1A500, 0x1A600
SLV_ERR_RESP_ISR_MASK, MST_ERR_RESP_ISR_MASK = 0x1A558, 0x1A658
GCBB_CREDIT0 = 0x1907C
IDLE_REGISTER = 0x4A000
TILECONFIG0 = 0x48788
DEEP_SLEEP = 0x40020
DESCR_EP = 0x4C148
MULTI_BO_EP = 0x4C160
OUTFEED_CHUNK_LENGTH = 0x4C058
FATAL_ERR_INT_CONTROL = 0x4C060
TOP_LEVEL_INT_CONTROLS = (0x4C070, 0x4C080, 0x4C090, 0x4C0A0)
SCALAR_CORE_RUN_CONTROL = 0x44018
# The scalar core and its four TTUs, then the tiles' run controls (written through the broadcast).
SCALAR_RUN_CONTROLS = (SCALAR_CORE_RUN_CONTROL, 0x44158, 0x44198, 0x441D8, 0x44218)
TILE_RUN_CONTROLS = (0x400C0, 0x40150, 0x40110, 0x40250, 0x40298, 0x402E0, 0x40328, 0x40190, 0x401D0, 0x40210)
RUN, HALT = 1, 2
TILE_BROADCAST = 0x7F

# scu_ctrl_3 fields (§5.2): rg_force_sleep (22..23) requests, cur_pwr_state (8..9) reports.
FORCE_SLEEP_SHIFT, CUR_PWR_STATE_SHIFT = 22, 8
FORCE_SLEEP_RESET, FORCE_SLEEP_RUN = 3, 2
PWR_STATE_RESET, PWR_STATE_RUN = 2, 0
GATED_GCB_SHIFT = 18  # scu_ctrl_2: 1 = hardware clock gating on, 2 = off

# ---- Bulk endpoints and records (§3.2, §4)
EP_RECORDS_OUT, EP_OUTPUT_IN, EP_EVENTS_IN = 0x01, 0x81, 0x82
TAG_INSTRUCTIONS, TAG_INPUT, TAG_PARAMETERS, TAG_OUTPUT, TAG_COMPLETION = 0, 1, 2, 3, 4
EVENT_BYTES = 16
DESCR_EP_ALL_TAGS = 0xFF  # every descriptor becomes an event: the program tells us what it reads and writes

# ---- DFU (§1.4): class requests to interface 0, 256-byte blocks
DFU_OUT, DFU_IN = 0x21, 0xA1
DFU_DNLOAD, DFU_UPLOAD, DFU_GETSTATUS = 1, 2, 3
DFU_BLOCK = 256
DFU_STATE_IDLE, DFU_STATE_DNLOAD_IDLE = 2, 5

CONTROL_TIMEOUT_MS = 6000
POLL_TIMEOUT_S = 5.0
REENUMERATION_TIMEOUT_S = 20.0
REEXEC_MARKER = "CORAL_PYUSB_AFTER_DFU"


def say(text):
    print("run_coral_program: " + text, file=sys.stderr, flush=True)


class Failure(Exception):
    pass


def find_libusb(explicit):
    """The libusb-1.0 shared library: --libusb, the usual multiarch places, or what ctypes finds
    (looked at last: it runs ldconfig, gcc and ld, which a minimal root does not have)."""
    if explicit:
        return explicit
    for pattern in ("/usr/lib/*/libusb-1.0.so.0", "/lib/*/libusb-1.0.so.0", "/usr/lib/libusb-1.0.so.0",
                    "/usr/local/lib/libusb-1.0.so.0"):
        matches = sorted(glob.glob(pattern))
        if matches:
            return matches[0]
    return ctypes.util.find_library("usb-1.0")


class Csr:
    """Chip registers through control transfers."""

    def __init__(self, dev):
        self.dev = dev

    def read(self, address, width):
        request, size = (REQUEST_64, 8) if width == 64 else (REQUEST_32, 4)
        data = bytes(self.dev.ctrl_transfer(VENDOR_IN, request, address & 0xFFFF, address >> 16, size,
                                            timeout=CONTROL_TIMEOUT_MS))
        if len(data) != size:
            raise Failure("CSR 0x%05x: %d-bit read returned %d bytes" % (address, width, len(data)))
        return int.from_bytes(data, "little")

    def write(self, address, width, value):
        request, size = (REQUEST_64, 8) if width == 64 else (REQUEST_32, 4)
        self.dev.ctrl_transfer(VENDOR_OUT, request, address & 0xFFFF, address >> 16, value.to_bytes(size, "little"),
                               timeout=CONTROL_TIMEOUT_MS)

    def modify32(self, address, change):
        self.write(address, 32, change(self.read(address, 32)))

    def poll(self, address, width, accept, what):
        deadline = time.monotonic() + POLL_TIMEOUT_S
        while True:
            value = self.read(address, width)
            if accept(value):
                return value
            if time.monotonic() > deadline:
                raise Failure("CSR 0x%05x never became %s (last 0x%x)" % (address, what, value))
            time.sleep(0.001)


def field(value, shift, mask):
    return (value >> shift) & mask


def with_field(value, shift, mask, new):
    return (value & ~(mask << shift)) | ((new & mask) << shift)


def enter_reset(csr):
    """force_sleep = 3, wait for the GCB to report reset, pulse the bulk credit (§5.3 step 4)."""
    value = csr.read(SCU_CTRL_3, 32)
    if field(value, FORCE_SLEEP_SHIFT, 3) == FORCE_SLEEP_RESET:
        return
    csr.write(SCU_CTRL_3, 32, with_field(value, FORCE_SLEEP_SHIFT, 3, FORCE_SLEEP_RESET))
    csr.poll(SCU_CTRL_3, 32, lambda v: field(v, CUR_PWR_STATE_SHIFT, 3) == PWR_STATE_RESET, "in reset")
    csr.write(GCBB_CREDIT0, 32, 0xF)
    csr.write(GCBB_CREDIT0, 32, 0x0)


def set_run_controls(csr, value):
    for address in SCALAR_RUN_CONTROLS:
        csr.write(address, 64, value)
    csr.write(TILECONFIG0, 64, TILE_BROADCAST)
    csr.poll(TILECONFIG0, 64, lambda v: v == TILE_BROADCAST, "the tile broadcast")
    for address in TILE_RUN_CONTROLS:
        csr.write(address, 64, value)


def open_chip(csr, high_speed):
    """libedgetpu's open sequence (§5.3), with every descriptor tag enabled as an event."""
    csr.modify32(SCU_CTRL_0, lambda v: v & ~(0x3F << 8))
    scu2 = csr.read(SCU_CTRL_2, 32)
    if field(scu2, GATED_GCB_SHIFT, 3) == 1:
        csr.write(SCU_CTRL_2, 32, with_field(scu2, GATED_GCB_SHIFT, 3, 2))
    enter_reset(csr)
    # Quit reset at the fastest clocks (clock bits 28..31 = 0).
    quit_reset = with_field(csr.read(SCU_CTRL_3, 32), FORCE_SLEEP_SHIFT, 3, FORCE_SLEEP_RUN) & 0x0FFFFFFF
    csr.write(SCU_CTRL_3, 32, quit_reset)
    csr.poll(SCU_CTRL_3, 32, lambda v: field(v, CUR_PWR_STATE_SHIFT, 3) == PWR_STATE_RUN, "out of reset")
    csr.poll(SCALAR_CORE_RUN_CONTROL, 64, lambda v: v == 0, "idle after the reset")
    csr.write(IDLE_REGISTER, 64, 0x1)
    csr.write(TILECONFIG0, 64, TILE_BROADCAST)
    csr.poll(TILECONFIG0, 64, lambda v: v == TILE_BROADCAST, "the tile broadcast")
    csr.write(DEEP_SLEEP, 64, 0x1E02)
    csr.modify32(SCU_CTRL_2, lambda v: with_field(v, GATED_GCB_SHIFT, 3, 1))
    csr.read(OMC0_00, 32)
    csr.write(DESCR_EP, 64, DESCR_EP_ALL_TAGS)
    csr.write(MULTI_BO_EP, 64, 0)  # single endpoint, framed records
    csr.write(OUTFEED_CHUNK_LENGTH, 64, 0x20 if high_speed else 0x80)
    set_run_controls(csr, RUN)
    csr.write(FATAL_ERR_INT_CONTROL, 64, 1)
    for address in TOP_LEVEL_INT_CONTROLS:
        csr.write(address, 64, 1)
    csr.modify32(OMC0_D4, lambda v: v | 0x80000000)
    csr.modify32(RAMBIST_CTRL_1, lambda v: v & ~((0x7 << 16) | (0x7 << 20)))
    csr.modify32(SCU_CTR_7, lambda v: v & ~(0xF << 16))
    for address, value in ((SLV_ABM_EN, 1), (MST_ABM_EN, 1), (SLV_ERR_RESP_ISR_MASK, 3), (MST_ERR_RESP_ISR_MASK, 3)):
        csr.write(address, 32, value)
    csr.modify32(OMC0_D8, lambda v: v | 0x80000000)


def close_chip(csr):
    """libedgetpu's close sequence (§5.4): interrupts off, everything halted, back into reset."""
    for address in TOP_LEVEL_INT_CONTROLS:
        csr.write(address, 64, 0)
    csr.modify32(OMC0_D4, lambda v: v & ~0x80000000)
    csr.modify32(RAMBIST_CTRL_1, lambda v: v | (0x7 << 20))
    csr.modify32(SCU_CTR_7, lambda v: v | (0x3 << 18))
    for address in (SLV_ABM_EN, MST_ABM_EN, SLV_ERR_RESP_ISR_MASK, MST_ERR_RESP_ISR_MASK):
        csr.write(address, 32, 0)
    csr.modify32(OMC0_D8, lambda v: v & ~0x80000000)
    csr.write(FATAL_ERR_INT_CONTROL, 64, 0)
    set_run_controls(csr, HALT)
    enter_reset(csr)


def dfu_download(dev, image):
    """Firmware download and read-back (§1.4), then the USB reset that makes the device re-enumerate."""
    def status():
        reply = bytes(dev.ctrl_transfer(DFU_IN, DFU_GETSTATUS, 0, 0, 6, timeout=CONTROL_TIMEOUT_MS))
        if len(reply) != 6 or reply[0] != 0:
            raise Failure("DFU_GETSTATUS returned %s" % reply.hex())
        return reply[4]

    blocks = 0
    for offset in range(0, len(image), DFU_BLOCK):
        dev.ctrl_transfer(DFU_OUT, DFU_DNLOAD, blocks, 0, image[offset:offset + DFU_BLOCK], timeout=CONTROL_TIMEOUT_MS)
        state = status()
        if state != DFU_STATE_DNLOAD_IDLE:
            raise Failure("DFU block %d: state %d, expected %d" % (blocks, state, DFU_STATE_DNLOAD_IDLE))
        blocks += 1
    dev.ctrl_transfer(DFU_OUT, DFU_DNLOAD, blocks, 0, b"", timeout=CONTROL_TIMEOUT_MS)
    state = status()
    if state != DFU_STATE_IDLE:
        raise Failure("DFU end of image: state %d, expected %d" % (state, DFU_STATE_IDLE))
    readback = b""
    for block in range(len(image) // DFU_BLOCK + 2):
        piece = bytes(dev.ctrl_transfer(DFU_IN, DFU_UPLOAD, block, 0, DFU_BLOCK, timeout=CONTROL_TIMEOUT_MS))
        readback += piece
        if len(readback) >= len(image) or len(piece) < DFU_BLOCK:
            break
    if readback[:len(image)] != image:
        raise Failure("DFU read-back differs from the image (%d of %d bytes read)" % (len(readback), len(image)))
    say("firmware downloaded: %d blocks of %d bytes, read back" % (blocks, DFU_BLOCK))
    try:
        dev.reset()  # the device changes its descriptors: the host re-enumerates it under a new address
    except usb.core.USBError as e:
        say("USB reset: %s (expected: the device re-enumerates)" % e)
    usb.util.dispose_resources(dev)


def runtime_in_sysfs():
    for vendor_file in glob.glob("/sys/bus/usb/devices/*/idVendor"):
        base = os.path.dirname(vendor_file)
        try:
            with open(vendor_file) as v, open(os.path.join(base, "idProduct")) as p:
                ident = (int(v.read(), 16), int(p.read(), 16))
        except (OSError, ValueError):
            continue
        if ident == RUNTIME_ID and glob.glob(os.path.join(base, "*:1.0")):
            return True
    return False


def wait_for_runtime_then_reexec():
    """libusb's device list comes from udev: where no udevd runs (a minimal guest), a context never
    learns of devices that appear after libusb_init, and pyusb keeps one context per process. So
    wait until the kernel lists the runtime Coral, then start this program afresh."""
    deadline = time.monotonic() + REENUMERATION_TIMEOUT_S
    while not runtime_in_sysfs():
        if not os.path.isdir("/sys/bus/usb/devices"):
            time.sleep(3)  # no sysfs to watch: give the host the time real tools give it
            break
        if time.monotonic() > deadline:
            raise Failure("the Coral did not come back as %04x:%04x within %.0f s" % (*RUNTIME_ID, REENUMERATION_TIMEOUT_S))
        time.sleep(0.05)
    os.environ[REEXEC_MARKER] = "1"
    sys.stdout.flush()
    os.execv(sys.executable, [sys.executable] + sys.argv)


def send_record(dev, tag, payload, timeout_ms):
    """One framed record on EP 0x01: [u32 length, u32 tag] then the payload (§3.2)."""
    dev.write(EP_RECORDS_OUT, struct.pack("<II", len(payload), tag), timeout_ms)
    if payload:
        dev.write(EP_RECORDS_OUT, payload, timeout_ms)


def read_output(dev, length, packet_size, timeout_ms):
    """`length` bytes of one outfeed DMA from EP 0x81, in packet-multiple reads."""
    data = b""
    while len(data) < length:
        want = -(-(length - len(data)) // packet_size) * packet_size
        data += bytes(dev.read(EP_OUTPUT_IN, want, timeout_ms))
    if len(data) != length:
        raise Failure("EP 0x81 returned %d bytes for an outfeed of %d" % (len(data), length))
    return data


def run_program(dev, program, stream, packet_size, timeout_ms):
    """Send the program, answer its descriptors until the completion event."""
    if len(program) % 16 != 0:
        raise Failure("a raw program is whole 16-byte words; this one has %d bytes" % len(program))
    send_record(dev, TAG_INSTRUCTIONS, program, timeout_ms)
    events, output = [], b""
    while True:
        raw = bytes(dev.read(EP_EVENTS_IN, EVENT_BYTES, timeout_ms))
        if len(raw) != EVENT_BYTES:
            raise Failure("EP 0x82 returned %d bytes, not a 16-byte event" % len(raw))
        address, length, tag = struct.unpack("<QIB3x", raw)
        tag &= 0xF
        events.append({"tag": tag, "address": address, "length": length})
        if tag == TAG_INPUT:
            if address + length > len(stream):
                raise Failure("the program reads input bytes %d..%d; the input has %d" % (address, address + length, len(stream)))
            send_record(dev, TAG_INPUT, stream[address:address + length], timeout_ms)
        elif tag == TAG_OUTPUT:
            output += read_output(dev, length, packet_size, timeout_ms)
        elif tag == TAG_COMPLETION:
            return output, events
        elif tag == TAG_PARAMETERS:
            raise Failure("the program asks for %d parameter bytes; this client sends none" % length)
        elif tag not in (5, 6, 7):  # sc host interrupts 1..3 need no answer
            raise Failure("unexpected event tag %d" % tag)


def open_device(backend):
    dev = usb.core.find(idVendor=RUNTIME_ID[0], idProduct=RUNTIME_ID[1], backend=backend)
    if dev is not None:
        return dev, False
    dev = usb.core.find(idVendor=BOOTLOADER_ID[0], idProduct=BOOTLOADER_ID[1], backend=backend)
    if dev is None:
        raise Failure("no Coral (%04x:%04x or %04x:%04x)" % (*RUNTIME_ID, *BOOTLOADER_ID))
    return dev, True


def main():
    parser = argparse.ArgumentParser(description="Run raw *.coral programs on a Coral USB Accelerator with pyusb.")
    parser.add_argument("--firmware", help="DFU image to download when the Coral is in its bootloader")
    parser.add_argument("--libusb", help="path of libusb-1.0's shared library (default: found)")
    parser.add_argument("--timeout-ms", type=int, default=10000, help="bulk transfer timeout (default 10000)")
    parser.add_argument("--run", nargs=2, action="append", metavar=("PROGRAM", "INPUT"), required=True,
                        help="a raw program and the file its input descriptors read from (repeat)")
    args = parser.parse_args()

    library = find_libusb(args.libusb)
    backend = usb.backend.libusb1.get_backend(find_library=lambda _name: library)
    if backend is None:
        raise Failure("cannot load libusb-1.0 (%s)" % library)
    dev, bootloader = open_device(backend)
    if bootloader:
        if os.environ.get(REEXEC_MARKER):
            raise Failure("still in the bootloader after the firmware download")
        if not args.firmware:
            raise Failure("the Coral is in its bootloader: give --firmware")
        with open(args.firmware, "rb") as f:
            dfu_download(dev, f.read())
        wait_for_runtime_then_reexec()

    dev.set_configuration(1)
    usb.util.claim_interface(dev, 0)
    packet_size = usb.util.find_descriptor(dev.get_active_configuration()[(0, 0)],
                                           bEndpointAddress=EP_OUTPUT_IN).wMaxPacketSize
    say("Coral %04x:%04x at bus %d address %d, bulk packets of %d bytes" %
        (dev.idVendor, dev.idProduct, dev.bus, dev.address, packet_size))
    csr = Csr(dev)
    open_chip(csr, high_speed=packet_size < 1024)
    failed = 0
    for program_path, input_path in args.run:
        with open(program_path, "rb") as f:
            program = f.read()
        with open(input_path, "rb") as f:
            stream = f.read()
        started = time.monotonic()
        result = {"program": os.path.basename(program_path), "input": stream.hex()}
        try:
            output, events = run_program(dev, program, stream, packet_size, args.timeout_ms)
            result.update(output=output.hex(), events=events)
        except (Failure, usb.core.USBError) as e:
            result["error"] = str(e)
            failed += 1
        result["ms"] = round((time.monotonic() - started) * 1000, 1)
        print(json.dumps(result), flush=True)
    close_chip(csr)
    usb.util.release_interface(dev, 0)
    usb.util.dispose_resources(dev)
    say("%d runs, %d failed" % (len(args.run), failed))
    return 1 if failed else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (Failure, usb.core.USBError) as e:
        say("error: %s" % e)
        sys.exit(1)
