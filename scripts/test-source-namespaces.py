#!/usr/bin/env python3
"""Keep each test source's code in a namespace named after the file, so that test binaries compile in unity batches.

Test sources compile eight to a translation unit (CORALSIM_TEST_UNITY_BATCH, tests/CMakeLists.txt), so two sources of
one batch must not both define a file-local `kTiles` or `Packet`. The rule: each project namespace a test source opens
gets the file's stem appended,

    namespace coralsim::lle {                ->  namespace coralsim::lle::lle_max_pool_test {
    }  // namespace coralsim::lle            ->  }  // namespace coralsim::lle::lle_max_pool_test

and the anonymous namespaces inside stay as they are (now unique per file). It is for test sources (`*_test.cc`) only:
a support source (`decoded_bitstreams.cc`, `child_process.cc`) defines what its header declares, in the header's
namespace, and keeps it.

usage: scripts/test-source-namespaces.py [--check] FILE...
  Rewrites the files in place (idempotent). With --check, rewrites nothing, lists the files that do not follow the
  rule and exits 1 if there are any.
"""
import pathlib
import re
import sys

OPENING = re.compile(r"^namespace (coralsim(?:::\w+)*) \{$")
CLOSING = re.compile(r"^\}  // namespace (coralsim(?:::\w+)*)$")


def follow_rule(text, stem):
    """The text with every project namespace opening and closing comment named after `stem`."""
    lines = text.split("\n")
    for i, line in enumerate(lines):
        for pattern, form in ((OPENING, "namespace {}::{} {{"), (CLOSING, "}}  // namespace {}::{}")):
            match = pattern.match(line)
            if match and not match.group(1).endswith("::" + stem):
                lines[i] = form.format(match.group(1), stem)
    return "\n".join(lines)


def main(argv):
    check = "--check" in argv
    files = [a for a in argv if a != "--check"]
    if not files:
        print(__doc__[__doc__.index("usage:"):].rstrip(), file=sys.stderr)
        return 2
    off_rule = []
    for name in files:
        path = pathlib.Path(name)
        try:
            text = path.read_text()
        except OSError as error:
            print(f"test-source-namespaces: cannot read {name}: {error.strerror}", file=sys.stderr)
            return 2
        wanted = follow_rule(text, path.stem)
        if wanted == text:
            continue
        off_rule.append(name)
        if not check:
            path.write_text(wanted)
    for name in off_rule:
        print(("does not follow the rule: " if check else "renamed: ") + name)
    return 1 if check and off_rule else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
