#!/usr/bin/env bash
# Installs exactly the Debian 12 packages coralsim needs, and only those that are missing.
# Safe to run any number of times. Runs apt-get as root (directly, or through sudo).
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config   # toolchain
  libsystemc-dev                                  # the chip model
  flatbuffers-compiler libflatbuffers-dev         # model formats (flatc runs at build time)
  libusb-1.0-0-dev                                # libusb transport
  libboost-dev                                    # Boost.Asio (header-only) for USB/IP
  libgtest-dev libgmock-dev                       # tests
  libbenchmark-dev                                # bench/
  python3                                         # corpus cross-checks run the shared reference tools
  clang                                           # libFuzzer builds of the fuzz targets
  qemu-system-x86 busybox-static usbip            # e2e: Debian's kernel in QEMU attaches `coralsim serve`
  python3-usb                                     # e2e: the unmodified pyusb client in that guest
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages already installed"
  exit 0
fi

as_root=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install-deps: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
  as_root=(sudo)
fi
echo "install-deps: installing ${missing[*]}"
"${as_root[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
