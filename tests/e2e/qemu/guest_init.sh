#!/bin/sh
# /init of the QEMU guest of the real-kernel end-to-end test (tests/e2e/README.md). Runs as PID 1
# under busybox: loads vhci-hcd and virtio-net, brings the network up (QEMU user networking: the
# host's loopback is 10.0.2.2), attaches the emulated Coral that `coralsim serve` exports with the
# kernel's own USB/IP client, runs a client on it, and reports on the serial console for the host
# side of the test. The client is coralsim-usb with the arguments in /data/run.args, or, when the
# test wrote /data/pyusb.args instead, the pyusb client /pyusb/run_coral_program.py with those.
#
#   E2E <step> <uptime>       progress
#   E2E-JSON-BEGIN / -END     the client's standard output (JSON) between these lines
#   E2E-STDERR <line>         the client's standard error
#   E2E-OUTPUT <sha256> <f>   busybox's SHA-256 of each output file coralsim-usb wrote
#   E2E-RESULT rc=<N>         the client's exit status (absent: the guest never got that far)
#   E2E-KERNEL <dmesg line>   the kernel's enumerations, disconnects, "device firmware changed"
#   E2E-FAIL: <why>           a set-up step failed (followed by the end of dmesg)
#
# Kernel command line parameters: coralsim.port=PORT (USB/IP port on the host),
# coralsim.busid=BUSID (default 1-1). Always powers off at the end.
export PATH=/bin:/sbin:/usr/bin:/usr/sbin

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev   # the kernel creates /dev/bus/usb/BBB/DDD itself: libusb needs no udevd

step() { echo "E2E $1 $(cut -d' ' -f1 /proc/uptime)"; }
finish() {
  sync
  poweroff -f
}
fail() {
  echo "E2E-FAIL: $*"
  dmesg | tail -n 60
  finish
}

step init
PORT=3240
BUSID=1-1
for arg in $(cat /proc/cmdline); do
  case "$arg" in
    coralsim.port=*) PORT="${arg#coralsim.port=}" ;;
    coralsim.busid=*) BUSID="${arg#coralsim.busid=}" ;;
  esac
done

while read -r module; do
  insmod "/modules/$module" || fail "insmod $module"
done < /modules/order
step modules

ip link set lo up
tries=0
while [ ! -e /sys/class/net/eth0 ]; do
  tries=$((tries + 1))
  [ $tries -le 100 ] || fail "no eth0"
  sleep 0.05
done
ip addr add 10.0.2.15/24 dev eth0
ip link set eth0 up
ip route add default via 10.0.2.2
step network

usbip --tcp-port "$PORT" attach -r 10.0.2.2 -b "$BUSID" || fail "usbip attach -r 10.0.2.2:$PORT -b $BUSID"
step attached

# Wait until the kernel has enumerated the device (either personality) and created interface 0.
coral=""
tries=0
while [ -z "$coral" ]; do
  for dev in /sys/bus/usb/devices/*; do
    id="$(cat "$dev/idVendor" 2>/dev/null):$(cat "$dev/idProduct" 2>/dev/null)"
    case "$id" in
      18d1:9302 | 1a6e:089a) [ -e "$dev/$(basename "$dev"):1.0" ] && coral="$(basename "$dev") $id" ;;
    esac
  done
  tries=$((tries + 1))
  [ -n "$coral" ] || [ $tries -le 200 ] || fail "no Coral enumerated after attach"
  [ -n "$coral" ] || sleep 0.05
done
step "enumerated $coral"

cd /data || fail "no /data"
# shellcheck disable=SC2046 # one argument per line, no spaces inside (written by the test)
if [ -f /data/pyusb.args ]; then
  python3 -I /pyusb/run_coral_program.py $(cat /data/pyusb.args) > /tmp/run.json 2> /tmp/run.err
else
  coralsim-usb run $(cat /data/run.args) > /tmp/run.json 2> /tmp/run.err
fi
rc=$?
step "ran"
echo "E2E-JSON-BEGIN"
cat /tmp/run.json
echo "E2E-JSON-END"
sed 's/^/E2E-STDERR /' /tmp/run.err
for f in /data/out.bin*; do
  [ -e "$f" ] && echo "E2E-OUTPUT $(sha256sum "$f")"
done
echo "E2E-RESULT rc=$rc"
# The kernel's view of the device: each enumeration, and the re-enumeration after the DFU reset.
dmesg | grep -E "firmware changed|New USB device found|USB disconnect" | sed 's/^/E2E-KERNEL /'

# Detach, so the server sees the client leave as an unplug.
port="$(usbip port 2>/dev/null | sed -n 's/^Port \([0-9]*\):.*/\1/p' | head -n 1)"
[ -n "$port" ] && usbip detach -p "$port" >/dev/null 2>&1 && step detached
[ "$rc" = 0 ] || dmesg | tail -n 40
finish
