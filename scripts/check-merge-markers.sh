#!/usr/bin/env bash
# Fails when a text file of the checkout still carries a merge-conflict marker line (<<<<<<< ,
# =======, >>>>>>> at the start of a line): a conflict resolved in the code but not in a document
# would otherwise land silently. Binary files (fuzz inputs) are skipped.
# Usage: scripts/check-merge-markers.sh [SOURCE_ROOT]   (default: the checkout holding it)
set -euo pipefail
root="${1:-$(cd "$(dirname "$0")/.." && pwd)}"
cd "$root"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  files() { git ls-files -z; }
else
  files() { find . -type f -not -path './build*' -not -path './.git/*' -print0; }
fi
if found=$(files | xargs -0 grep -InE '^(<<<<<<< |>>>>>>> |=======$)' 2>/dev/null); then
  echo "check-merge-markers: conflict markers left in the tree:" >&2
  echo "$found" >&2
  exit 1
fi
echo "check-merge-markers: no conflict markers"
