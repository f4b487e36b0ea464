#!/usr/bin/env bash
# Builds the QEMU guest of the real-kernel end-to-end test (tests/e2e/README.md):
#
#   OUT/vmlinux            Debian's kernel as an uncompressed ELF (QEMU boots it through PVH,
#                          skipping the xz decompressor, which costs seconds under TCG);
#                          OUT/vmlinuz as a fallback when the ELF cannot be extracted
#   OUT/initramfs.cpio.gz  busybox, the kernel modules vhci-hcd and virtio-net need (dependency
#                          order from modules.dep), usbip, coralsim-usb with the shared libraries
#                          they load, and tests/e2e/qemu/guest_init.sh as /init; with a pyusb
#                          client also Debian's python3 (only the modules the client imports, with
#                          their shared libraries), pyusb (python3-usb), libusb-1.0 and the client
#                          as /pyusb/CLIENT
#
# The kernel package is fetched with `apt-get download` into OUT/../debs and unpacked, never
# installed; it is kept, so later runs work offline. The test appends its per-run data (model,
# input, firmware) as a second cpio archive, which the kernel unpacks over the first. The kernel
# cache (OUT/../qemu-cache) is shared and locked; each OUT directory belongs to one test.
#
# usage: build_guest.sh OUT_DIR CORALSIM_USB_BINARY [PYUSB_CLIENT]
# env:   CORALSIM_E2E_KERNEL_PACKAGE  kernel package name (default: what linux-image-amd64 depends on)
#        CORALSIM_E2E_PYTHON          the interpreter whose pyusb goes into the guest (default
#                                     /usr/bin/python3: Debian's, where python3-usb installs)
# exit:  0 built; 1 a tool or package is missing / the kernel cannot be obtained (message on stderr)
set -euo pipefail

die() { echo "build_guest: $*" >&2; exit 1; }

[ $# -eq 2 ] || [ $# -eq 3 ] || die "usage: build_guest.sh OUT_DIR CORALSIM_USB_BINARY [PYUSB_CLIENT]"
OUT="$1"
TOOL="$2"
CLIENT="${3:-}"
HERE="$(cd "$(dirname "$0")" && pwd)"
CACHE="$(dirname "$OUT")/qemu-cache"
mkdir -p "$OUT" "$CACHE"

for tool in busybox usbip dpkg-deb apt-get python3 gzip ldd flock; do
  command -v "$tool" >/dev/null 2>&1 || [ -x "/usr/sbin/$tool" ] ||
    die "'$tool' not found: run scripts/install-deps.sh (packages busybox-static, usbip, qemu-system-x86)"
done
BUSYBOX="$(command -v busybox)"
USBIP="$(command -v usbip || echo /usr/sbin/usbip)"
[ -x "$TOOL" ] || die "$TOOL: not an executable (build the coralsim-usb target)"
PYTHON="${CORALSIM_E2E_PYTHON:-/usr/bin/python3}"
if [ -n "$CLIENT" ]; then
  [ -f "$CLIENT" ] || die "$CLIENT: no such pyusb client"
  [ -x "$PYTHON" ] || die "$PYTHON not found: run scripts/install-deps.sh (package python3)"
  "$PYTHON" -I -c "import usb.core, usb.backend.libusb1" 2>/dev/null ||
    die "$PYTHON cannot import pyusb: run scripts/install-deps.sh (package python3-usb)"
fi

# ---- kernel: download once, unpack once (several tests may build guests at the same time) -----
exec 9> "$CACHE/.lock"
flock 9
KPKG="${CORALSIM_E2E_KERNEL_PACKAGE:-}"
if [ -z "$KPKG" ]; then
  KPKG="$(apt-cache depends linux-image-amd64 2>/dev/null | sed -n 's/^ *Depends: \(linux-image-[^ ]*\)$/\1/p' | head -n 1)"
fi
if [ -z "$KPKG" ]; then
  # No package lists (apt-get update never ran): fall back to a kernel fetched earlier.
  KPKG="$(ls "$CACHE"/debs 2>/dev/null | sed -n 's/^\(linux-image-[^_]*\)_.*\.deb$/\1/p' | head -n 1)"
fi
[ -n "$KPKG" ] || die "cannot tell which kernel package to download: 'apt-cache depends linux-image-amd64' says nothing (run apt-get update)"
KROOT="$CACHE/$KPKG"
if [ ! -d "$KROOT/boot" ]; then
  mkdir -p "$CACHE/debs"
  if ! ls "$CACHE/debs/${KPKG}"_*.deb >/dev/null 2>&1; then
    echo "build_guest: apt-get download $KPKG"
    # As root, apt would try to drop to its _apt user, which cannot write into the build tree.
    sandbox=()
    [ "$(id -u)" = 0 ] && sandbox=(-o APT::Sandbox::User=root)
    (cd "$CACHE/debs" && apt-get download -q "${sandbox[@]}" "$KPKG") || die "apt-get download $KPKG failed (is the Debian archive reachable?)"
  fi
  rm -rf "$KROOT.partial"
  dpkg-deb -x "$CACHE/debs/${KPKG}"_*.deb "$KROOT.partial" || die "dpkg-deb -x failed on $KPKG"
  mv "$KROOT.partial" "$KROOT"
fi
KVER="$(ls "$KROOT/lib/modules" | head -n 1)"
MODDIR="$KROOT/lib/modules/$KVER"
# The package ships no modules.dep (its postinst would run depmod); busybox's depmod makes one.
[ -f "$MODDIR/modules.dep" ] || "$BUSYBOX" depmod -b "$KROOT" "$KVER" || die "depmod failed for $KVER"

# ---- kernel image for QEMU ---------------------------------------------------------------------
if [ ! -f "$CACHE/$KVER.vmlinux" ] && [ ! -f "$CACHE/$KVER.no-vmlinux" ]; then
  # Debian's x86 kernels are xz-compressed bzImages: the ELF is the xz stream inside.
  if python3 - "$KROOT/boot/vmlinuz-$KVER" "$CACHE/$KVER.vmlinux.tmp" <<'PY'; then
import lzma, sys
data = open(sys.argv[1], "rb").read()
start = data.find(b"\xfd7zXZ\x00")
if start < 0:
    sys.exit(1)
elf = lzma.LZMADecompressor(format=lzma.FORMAT_XZ).decompress(data[start:])
if elf[:4] != b"\x7fELF":
    sys.exit(1)
open(sys.argv[2], "wb").write(elf)
PY
    mv "$CACHE/$KVER.vmlinux.tmp" "$CACHE/$KVER.vmlinux"
  else
    echo "build_guest: no xz ELF inside vmlinuz-$KVER; QEMU boots the bzImage (slower)"
    touch "$CACHE/$KVER.no-vmlinux"
  fi
fi
flock -u 9
rm -f "$OUT/vmlinux" "$OUT/vmlinuz"
cp "$KROOT/boot/vmlinuz-$KVER" "$OUT/vmlinuz"
if [ -f "$CACHE/$KVER.vmlinux" ]; then
  ln -f "$CACHE/$KVER.vmlinux" "$OUT/vmlinux" 2>/dev/null || cp "$CACHE/$KVER.vmlinux" "$OUT/vmlinux"
fi

# ---- initramfs tree ----------------------------------------------------------------------------
ROOT="$OUT/root"
rm -rf "$ROOT"
mkdir -p "$ROOT"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,run,tmp,data,modules,var}
ln -s ../run "$ROOT/var/run"  # usbip keeps its port records in /var/run/vhci_hcd

# Modules: each wanted module after everything it depends on (modules.dep lists direct deps).
declare -A placed=()
ORDER=()
place() {
  local rel="$1" dep
  [ -n "${placed[$rel]:-}" ] && return 0
  placed[$rel]=1
  for dep in $(sed -n "s|^${rel}:||p" "$MODDIR/modules.dep"); do place "$dep"; done
  ORDER+=("$rel")
}
for name in vhci-hcd virtio_net virtio_pci; do
  rel="$(grep -E "(^|/)${name}\.ko(\.xz|\.zst|\.gz)?:" "$MODDIR/modules.dep" | cut -d: -f1 | head -n 1)"
  [ -n "$rel" ] || die "module $name not in $KVER"
  place "$rel"
done
: > "$ROOT/modules/order"
for rel in "${ORDER[@]}"; do
  cp "$MODDIR/$rel" "$ROOT/modules/"
  basename "$rel" >> "$ROOT/modules/order"
done

cp "$BUSYBOX" "$ROOT/bin/busybox"
for applet in $("$BUSYBOX" --list); do
  [ "$applet" = busybox ] || ln -sf busybox "$ROOT/bin/$applet"
done

# A program and every shared library it loads (including the dynamic loader), at their paths.
install_with_libraries() {
  local program="$1" target="$2" lib
  if [ "${3:-}" = strip ] && command -v strip >/dev/null; then
    strip -o "$ROOT$target" "$program"
  else
    cp -L "$program" "$ROOT$target"
  fi
  for lib in $(ldd "$program" | sed -n 's/.*=> \(\/[^ ]*\) .*/\1/p; s/^[[:space:]]*\(\/[^ ]*\) (.*/\1/p'); do
    mkdir -p "$ROOT$(dirname "$lib")"
    [ -e "$ROOT$lib" ] || cp -L "$lib" "$ROOT$lib"
  done
}
install_with_libraries "$USBIP" /usr/sbin/usbip
install_with_libraries "$TOOL" /usr/bin/coralsim-usb strip
[ -e "$ROOT/lib64/ld-linux-x86-64.so.2" ] || die "the dynamic loader was not collected from ldd"

# ---- the pyusb client: python3 with just the modules it imports --------------------------------
if [ -n "$CLIENT" ]; then
  # Import the client as a module (its main() does not run) with the flags the guest uses, and list
  # every file the interpreter loaded: sources, their compiled caches (the guest would otherwise
  # compile each one under TCG), extension modules. The last line is the libusb pyusb would load.
  probe="$("$PYTHON" -I - "$CLIENT" <<'PY'
import importlib.util, sys
spec = importlib.util.spec_from_file_location("client", sys.argv[1])
client = importlib.util.module_from_spec(spec)
spec.loader.exec_module(client)
for module in list(sys.modules.values()):
    for path in (getattr(module, "__file__", None), getattr(module, "__cached__", None)):
        if path and path.startswith("/"):
            print(path)
print(client.find_libusb(None) or "")
PY
)" || die "the pyusb client does not import under $PYTHON"
  LIBUSB="$(echo "$probe" | tail -n 1)"
  if [ -z "$LIBUSB" ] || [ ! -e "$LIBUSB" ]; then
    die "the pyusb client found no libusb-1.0 (package libusb-1.0-0)"
  fi
  install_with_libraries "$PYTHON" /usr/bin/python3
  modules=0
  while read -r path; do
    [ -e "$path" ] || continue  # a compiled cache that was never written
    mkdir -p "$ROOT$(dirname "$path")"
    case "$path" in
      *.so) install_with_libraries "$path" "$path" ;;
      *) cp -pL "$path" "$ROOT$path" ;;  # -p keeps the mtime each compiled cache is checked against
    esac
    modules=$((modules + 1))
  done < <(echo "$probe" | sed '$d' | sort -u)
  mkdir -p "$ROOT$(dirname "$LIBUSB")"
  install_with_libraries "$LIBUSB" "$LIBUSB"
  mkdir -p "$ROOT/pyusb"
  cp "$CLIENT" "$ROOT/pyusb/$(basename "$CLIENT")"
  echo "build_guest: python3 $("$PYTHON" -c 'import platform; print(platform.python_version())') with $modules module files, pyusb $("$PYTHON" -I -c 'import usb; print(usb.__version__)'), $LIBUSB"
fi

cp "$HERE/guest_init.sh" "$ROOT/init"
chmod 755 "$ROOT/init"

(cd "$ROOT" && find . | "$BUSYBOX" cpio -o -H newc 2>/dev/null) | gzip -1 > "$OUT/initramfs.cpio.gz.tmp"
mv "$OUT/initramfs.cpio.gz.tmp" "$OUT/initramfs.cpio.gz"
echo "build_guest: kernel $KVER ($( [ -f "$OUT/vmlinux" ] && echo "ELF vmlinux" || echo "bzImage")), modules: ${ORDER[*]##*/}"
echo "build_guest: initramfs $(du -k "$OUT/initramfs.cpio.gz" | cut -f1) KiB in $OUT"
