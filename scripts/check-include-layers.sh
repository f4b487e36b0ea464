#!/usr/bin/env bash
# Checks the include graph of the product code (issue #16 "layers one-way"):
#   - no loop between folders: each folder and sub-folder of the product code is one node (sim/cli
#     is a layer above sim/), except that each file directly in models/ is its own node (beagle.*
#     is the top that wires the chip; chip_config.h and timing_model.h sit under the blocks);
#   - driver/ and usbip/ include nothing from sim/ or models/ (docs/ARCHITECTURE.md §2);
#   - sim/'s own files (the device side; not its front ends sim/cli, sim/hle_host, sim/profile)
#     include nothing from driver/, usbip/ or hosting/: what joins the two sides lives in hosting/;
#   - units/ and usb/, the bottom layers, include nothing of the project but units/.
# Prints every arrow with its count (-v) and, on failure, the arrows that close the loop or break
# the rule. Exit 0 when the graph is layered, 1 otherwise.
#
# Usage: scripts/check-include-layers.sh [-v] [SOURCE_ROOT]   (default: the checkout holding it)
# CTest runs it as `include_layers` (label unit).
set -euo pipefail

verbose=0
if [[ "${1:-}" == "-v" ]]; then
  verbose=1
  shift
fi
root="${1:-$(cd "$(dirname "$0")/.." && pwd)}"
cd "$root"

product_folders=(models driver usbip sim usb units traces hosting libedgetpu)

# "FILE<TAB>INCLUDED PATH" for every project include ("folder/..." form) of the product code.
includes() {
  grep -rHoE '^[[:space:]]*#[[:space:]]*include[[:space:]]+"[a-z_]+/[^"]+"' \
    --include='*.h' --include='*.cc' --include='*.def' --include='*.in' "${product_folders[@]}" |
    sed -E 's/:[[:space:]]*#[[:space:]]*include[[:space:]]+"/\t/; s/"$//'
}

# "FROM TO" per include between two nodes, counted. A node is a path's folder (FOLDER or
# FOLDER/SUB: sim/cli is a layer of its own above sim/); in models/ each file directly in the folder
# is its own node (models/STEM).
edges=$(includes | awk -F'\t' '
  function node(path,   parts, n, stem) {
    n = split(path, parts, "/")
    if (n > 2) return parts[1] "/" parts[2]
    if (parts[1] == "models") { stem = parts[2]; sub(/\.[^.]*$/, "", stem); return "models/" stem }
    return parts[1]
  }
  { from = node($1); to = node($2); if (from != to) print from, to }' | sort | uniq -c)

status=0

if ((verbose)); then
  echo "arrows between folders (count from to):"
  echo "$edges"
fi

# tsort reports a loop on stderr ("input contains a loop") and exits non-zero.
check_loop() {
  local what="$1" edges="$2" out
  if ! out=$(awk '{ print $2, $3 }' <<<"$edges" | tsort 2>&1 >/dev/null); then
    echo "include loop between $what:" >&2
    echo "$out" >&2
    status=1
  fi
}
check_loop "folders" "$edges"

forbidden=$(awk '$2 ~ /^(driver|usbip)(\/|$)/ && $3 ~ /^(sim|models)(\/|$)/' <<<"$edges")
if [[ -n "$forbidden" ]]; then
  echo "driver/ and usbip/ must not include sim/ or models/ (count from to):" >&2
  echo "$forbidden" >&2
  includes | awk -F'\t' '$1 ~ /^(driver|usbip)\// && $2 ~ /^(sim|models)\//' >&2
  status=1
fi

# Further one-way rules: "FROM-regex TO-regex why" per line.
rules='^sim$ ^(driver|usbip|hosting)(/|$) sim/ (the device side) must not include the host side: joins live in hosting/
^units$ . units/ is the bottom layer: it includes nothing of the project
^usb$ ^(models|driver|usbip|sim|traces|hosting|libedgetpu)(/|$) usb/ (the seam) includes nothing of the project but units/'
while read -r from to why; do
  broken=$(awk -v from="$from" -v to="$to" '$2 ~ from && $3 ~ to' <<<"$edges")
  if [[ -n "$broken" ]]; then
    echo "$why (count from to):" >&2
    echo "$broken" >&2
    status=1
  fi
done <<<"$rules"

if ((status == 0)); then
  echo "include layers: no folder loop; driver/ and usbip/ include nothing from sim/ or models/;" \
    "sim/ nothing from the host side; units/ and usb/ nothing above them"
fi
exit "$status"
