#!/usr/bin/env python3
"""Write pooltool 0.6.0's built-in tables, as its own objects hold them, in our frame.

Builds pooltool's default table of each table type, `Table.default(TableType.POCKET)` (its
7-foot table, "7 Ft Showood"), `Table.default(TableType.SNOOKER)` ("Generic Snooker") and
`Table.default(TableType.BILLIARD)`, and writes every linear cushion segment, circular cushion
segment and pocket to data/peers/tables/pooltool_tables.csv, one row each:

    table,element,id,x1,y1,x2,y2,radius,height,depth

- `table`: our built-in's name (`pooltool_pocket`, `pooltool_snooker`, `pooltool_billiard`);
- `element`: `size` (x1 = length, y1 = width), `linear` (p1 = (x1, y1), p2 = (x2, y2), ordered
  so that the playing side, which pooltool's `direction` names, is on the left, as ours are),
  `circular` (center = (x1, y1), radius) or `pocket` (center, radius, depth);
- numbers as Python's repr (the shortest text that reads back to the same double).

Our frame: pooltool runs a table's long side along y, ours along x; pooltool's (x, y) is our
(y, x). `cargo test -p pool-physics --test pooltool_tables` checks `Table::pooltool_pocket()`,
`pooltool_snooker()` and `pooltool_billiard()` against this file (every number within 1e-12 m),
so CI needs no pooltool. Rerun with pooltool installed (benches/peers/README.md):

    .venv-pooltool/bin/python benches/peers/pooltool_tables.py           # rewrite the file
    .venv-pooltool/bin/python benches/peers/pooltool_tables.py --check   # exit 1 if it differs
"""

import io
import os
import sys

from pooltool.objects.table.components import CushionDirection
from pooltool.objects.table.collection import default_specs_from_table_type
from pooltool.objects.table.datatypes import Table
from pooltool.objects.table.specs import TableType

OUT = os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..", "data", "peers", "tables",
    "pooltool_tables.csv",
)

TABLES = [
    ("pooltool_pocket", TableType.POCKET),
    ("pooltool_snooker", TableType.SNOOKER),
    ("pooltool_billiard", TableType.BILLIARD),
]


def ours(p):
    """pooltool's (x, y) in our frame."""
    return (float(p[1]), float(p[0]))


def played_on_left(seg):
    """Whether, in our frame, the playing side of pooltool's segment is left of p1 -> p2.

    pooltool's line is lx x + ly y + l0 = 0 (its frame); `direction` SIDE1 plays where that
    expression is negative, SIDE2 where it is positive (its collision-time solver puts the
    ball's center at -R or +R times |(lx, ly)|)."""
    if seg.direction == CushionDirection.BOTH:
        raise ValueError(f"segment {seg.id} is two-sided; ours are one-sided")
    sign = -1.0 if seg.direction == CushionDirection.SIDE1 else 1.0
    # A point off the segment's middle, on its left in pooltool's frame.
    (x1, y1), (x2, y2) = seg.p1[:2], seg.p2[:2]
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    px, py = mx - (y2 - y1), my + (x2 - x1)
    left_theirs = (seg.lx * px + seg.ly * py + seg.l0) * sign > 0
    # The mirror (x, y) -> (y, x) turns left into right.
    return not left_theirs


def rows():
    out = []
    for name, kind in TABLES:
        specs = default_specs_from_table_type(kind)
        table = Table.default(kind)
        out.append((name, "size", "", float(specs.l), float(specs.w), "", "", "", "", ""))
        for seg in table.cushion_segments.linear.values():
            p1, p2 = ours(seg.p1), ours(seg.p2)
            if not played_on_left(seg):
                p1, p2 = p2, p1
            out.append((name, "linear", seg.id, *p1, *p2, "", float(seg.height), ""))
        for arc in table.cushion_segments.circular.values():
            c = ours(arc.center)
            out.append((name, "circular", arc.id, *c, "", "", float(arc.radius),
                        float(arc.height), ""))
        for pocket in table.pockets.values():
            c = ours(pocket.center)
            out.append((name, "pocket", pocket.id, *c, "", "", float(pocket.radius), "",
                        float(pocket.depth)))
    return out


def text():
    buf = io.StringIO()
    buf.write("# pooltool 0.6.0's tables in our frame; written by benches/peers/pooltool_tables.py\n")
    buf.write("table,element,id,x1,y1,x2,y2,radius,height,depth\n")
    for row in rows():
        buf.write(",".join(repr(x) if isinstance(x, float) else str(x) for x in row) + "\n")
    return buf.getvalue()


def main():
    new = text()
    if "--check" in sys.argv[1:]:
        with open(OUT) as f:
            if f.read() != new:
                print(f"{OUT} differs from pooltool's tables: rerun without --check")
                sys.exit(1)
        print(f"{OUT}: matches pooltool's tables")
        return
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        f.write(new)
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
