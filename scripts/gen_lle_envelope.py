#!/usr/bin/env python3
"""Writes an envelope table: for every packet opcode the low-level datapath accepts, the values each
word takes in the given models once the bits the rung decodes (models/lle/lle_fields.def) are
cleared: what is left are the bits of unknown meaning, and any other value of them is refused.
A field of one packet format only (CORAL_LLE_FORMAT / CORAL_LLE_FORMAT_UNLESS in lle_relations.def) is
cleared only in the packets of that format; in the others its bits are kept and pinned.

Two tables are generated (review the diff of both after decoding a field; they should only shrink):
  models/lle/lle_envelope.def            from dense_256 AND dense_1024 (SHIPPED: the rung uses it)
  models/lle/lle_envelope_decode_set.def from dense_256 alone (the hold-out experiment: Dense-1024
      must get through on decoded fields; tests/corpus LleCorpus.HeldOutDense1024*)
A bit that differs between the two tables is pinned by the two templates' values, not by meaning.

Usage: gen_lle_envelope.py SHARED_TOOLS_ISA_DIR OUT.def MODEL_edgetpu.tflite... [--opcode 0xOP PROGRAM...]...
An opcode that the templates do not use (0x17), or a form of one that they do not use (the kept
0x13 read), takes its rows from the programs after --opcode (*_edgetpu.tflite or raw *.coral), which
add rows for that opcode only, and only from packets of its decoded form (REQUIRED: the 1-bit field
that must be set; KEPT_FORM: the field whose every element must be 0; the rung refuses the others,
naming it). --opcode may be given once per opcode; --opcode 0xOP:FIELD=VALUE PROGRAM... adds rows only
from the packets of that opcode where FIELD has VALUE (a form of it, e.g. 0x01:ComputeInputBytes=1: the
one-byte-element identity computes of the convolutions, docs/decoding-log.md "convwire2" §B; a repeated
field's elements packed from element 0 up); such a form is taken as named, KEPT_FORM not applied
(0x13:Stage13RepeatSlot=0: the reads routed (0, 1), "conv64"). Several FIELD=VALUE terms joined by commas
must all hold (0x13:Stage13Route=3,Stage13MaxPassMark=1: the sent reads marked for a max pass, "bright02").
Reading the models uses the shared reference parsers (tfl.py, seg.py) as libraries; nothing of them
is copied. Re-run it after decoding a field and review the diff of the .def (it should only shrink).
"""
import os
import re
import sys

ACCEPTED = [0x01, 0x02, 0x03, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x24, 0x25, 0x26, 0x27]
LENGTH = {0x01: 17, 0x10: 4, 0x11: 4, 0x12: 4, 0x13: 7, 0x14: 7, 0x15: 6, 0x16: 6, 0x17: 6, 0x18: 6, 0x19: 13, 0x1a: 1, 0x24: 2, 0x25: 2, 0x26: 4,
          0x27: 2}
# Opcodes whose packets enter an envelope only in their decoded form: the 1-bit field that says so.
# Empty since the mesh packets' sends and data receives are executed (docs/decoding-log.md "conv32run"
# §B); until then only their fill-only form ("padform" §E) and 0x17's immediate form entered.
REQUIRED = {}
# Opcodes whose extra programs add rows only from packets where every element of this field is 0:
# the 0x13 read kept for the tile's compute (lle_fields.def Stage13Route); its sent form is the
# templates'.
KEPT_FORM = {0x13: "Stage13Route"}
ROW = re.compile(r"CORAL_LLE_FIELD\(\s*(\w+)\s*,\s*(0x[0-9a-f]+)\s*,\s*(\d+)\s*,\s*([^,]+),\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*,")


FORMAT = re.compile(r"^CORAL_LLE_FORMAT(_UNLESS)?\(\s*(\w+)\s*,\s*(\w+)\s*\)", re.M)
# Fields decoded only as a copy of a partner packet, and the copy's named parts (lle_partner_copies.def):
# pinned when no partner agrees, so the rows keep their values (the rung sets them aside only with a partner).
PARTNER_COPY = re.compile(r"^CORAL_LLE_PARTNER_COPY(?:_PART)?\(\s*(\w+)\s*[,)]", re.M)


def field_rows(def_path):
    """{name: (opcode, first bit, width, count, stride)} of lle_fields.def."""
    rows = {}
    for m in ROW.finditer(open(def_path).read()):
        first = int(m.group(3)) * 128 + int(eval(m.group(4), {}))  # expressions like 62 + 40 * 32
        rows[m.group(1)] = (int(m.group(2), 16), first, int(m.group(5)), int(m.group(6)), int(m.group(7)))
    return rows


def field_bits(row):
    _, first, width, count, stride = row
    bits = 0
    for e in range(count):
        for b in range(first + e * stride, first + e * stride + width):
            bits |= 1 << b
    return bits


def field_value(packet, row):
    """A field's value in a packet; a repeated field's elements packed from element 0 up, each its width
    (Stage13Route's [0] bit 105 and [1] bit 107: 2 is bit 107 alone)."""
    _, first, width, count, stride = row
    value = 0
    for e in range(count):
        value |= ((packet >> (first + e * stride)) & ((1 << width) - 1)) << (e * width)
    return value


def ignore_masks(fields, formats):
    """Per opcode, the packet-wide bit mask decoded in every packet (fields without a format). Fields
    of opcodes the rung does not accept (the mesh packets, declared for the cost model) have no
    envelope."""
    masks = {op: 0 for op in ACCEPTED}
    for name, row in fields.items():
        if name not in formats and row[0] in masks:
            masks[row[0]] |= field_bits(row)
    return masks


def layout_opcode(op, packet, fields):
    """The opcode whose fields lay out this packet: 0x01's for the max pool's 0x02 (Max02Lanes 0; as
    models/lle/max_pool_form.h, docs/decoding-log.md "maxpool") and for every 0x03 (the softmax's sum,
    models/lle/exp_sum_form.h, "sum03"), the packet's own otherwise."""
    if op == 0x03:
        return fields["ComputeInputBytes"][0]
    lanes = fields["Max02Lanes"]
    if op == lanes[0] and field_value(packet, lanes) == 0:
        return fields["ComputeInputBytes"][0]
    return op


def packet_mask(op, packet, fields, formats, masks, conditions_rows):
    """The bits decoded in this packet: every format's, plus the format fields present in it. A condition may be a
    partner copy's part (Stage14CopyInnerLevel, docs/decoding-log.md "mnv1c"): `conditions_rows` has every field's row."""
    op = layout_opcode(op, packet, fields)
    mask = masks[op]
    for name, conditions in formats.items():
        row = fields.get(name)
        if row is None or row[0] != op:  # a partner copy of one form: pinned in it too (the rows keep it)
            continue
        if all(((packet >> conditions_rows[condition][1]) & 1) == when for condition, when in conditions):
            mask |= field_bits(row)
    return mask


def bitstreams(path, tfl):
    """The bitstreams of a compiled model, or the raw bitstream of a .coral program."""
    if path.endswith(".coral"):
        yield open(path, "rb").read()
        return
    _, packages = tfl.load(path)
    for package in packages:
        for exe in package["executables"]:
            for bitstream in exe["bitstreams"]:
                yield bitstream["bitstream"]


def main():
    args = sys.argv[1:]
    groups = []  # (opcode, programs) per --opcode
    while "--opcode" in args:
        at = len(args) - 1 - args[::-1].index("--opcode")
        opcode, _, where = args[at + 1].partition(":")
        groups.insert(0, (int(opcode, 16), args[at + 2:], where))
        args = args[:at]
    tools, out_path, models = args[0], args[1], args[2:]
    sys.path.insert(0, tools)
    import seg  # noqa: E402  (shared reference tools)
    import tfl  # noqa: E402
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    fields = field_rows(os.path.join(root, "models", "lle", "lle_fields.def"))
    # {field: [(condition, the condition's value where the field exists)]}: CORAL_LLE_FORMAT 1, _UNLESS 0;
    # a field of several rows exists where all of them hold (as field_relations.cc fieldPresent()).
    formats = {}
    for unless, c, f in FORMAT.findall(open(os.path.join(root, "models", "lle", "lle_relations.def")).read()):
        formats.setdefault(f, []).append((c, 0 if unless else 1))
    copies = PARTNER_COPY.findall(open(os.path.join(root, "models", "lle", "lle_partner_copies.def")).read())
    all_rows = fields
    fields = {name: row for name, row in fields.items() if name not in copies}
    masks = ignore_masks(fields, formats)
    seen = {}
    sources = [(path, None, "") for path in models] + [(path, op, where) for op, paths, where in groups for path in paths]
    for path, only, where in sources:
        for data in bitstreams(path, tfl):
            words = seg.words(data)
            packets, _ = seg.segment(words)
            for index, op, length in packets:
                if op not in masks or (only is not None and op != only):
                    continue
                packet = 0
                for k in range(length):
                    packet |= words[index + k] << (128 * k)
                if op in REQUIRED and not (packet >> fields[REQUIRED[op]][1]) & 1:
                    continue
                if where and any(field_value(packet, fields[name]) != int(value, 0)
                                 for name, _, value in (term.partition("=") for term in where.split(","))):
                    continue
                if only is not None and not where and op in KEPT_FORM and packet & field_bits(fields[KEPT_FORM[op]]):
                    continue
                mask = packet_mask(op, packet, fields, formats, masks, all_rows)
                for k in range(length):
                    value = words[index + k] & ~(mask >> (128 * k)) & ((1 << 128) - 1)
                    seen.setdefault((op, k), set()).add(value)
    with open(out_path, "w") as out:
        out.write("// GENERATED by scripts/gen_lle_envelope.py from: " +
                  ", ".join(os.path.basename(m) for m in models) +
                  "".join("; opcode 0x%02x%s also from: %s" % (op, " where " + where if where else "",
                                                                  ", ".join(os.path.basename(m) for m in paths))
                          for op, paths, where in groups) + "\n")
        out.write("// Per accepted opcode and word: a value the word may take once the bits of lle_fields.def are\n"
                  "// cleared (the supported templates' values). Do not edit by hand; regenerate and review.\n")
        out.write("// CORAL_LLE_ENVELOPE(opcode, word, hi64, lo64)\n")
        for (op, k) in sorted(seen):
            for v in sorted(seen[(op, k)]):
                out.write("CORAL_LLE_ENVELOPE(0x%02x, %d, 0x%016xull, 0x%016xull)\n" % (op, k, v >> 64, v & ((1 << 64) - 1)))


if __name__ == "__main__":
    main()
