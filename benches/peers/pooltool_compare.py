#!/usr/bin/env python3
"""Our event engine against pooltool 0.6.0, event by event, on the same breaks
(`cargo xtask compare-pooltool` writes the inputs and runs this script; see its --help).

For every NAME in DIR/systems/ (written by `cargo xtask compare-pooltool`):

- DIR/systems/NAME.json: the break's start as a pooltool `System` (our export: pooltool's
  frame, its 7-foot table), loaded with `System.load` and simulated by pooltool with every law
  set explicitly: FrictionlessElastic ball-ball, Han 2005 linear and circular cushions,
  canonical pockets and transitions (seed 004's laws, as our `pool` preset);
- DIR/ours/NAME.json: our event engine's run of the same break, written by
  `cargo xtask simulate --format pooltool`'s exporter, loaded with pooltool's own
  `System.load` and continuized with `pooltool.continuize` (so pooltool's tools read it);

and compares the first --events events of each (kind and agents, in order; times). It prints
one CSV row per break and spacer:

    name,spacer_m,our_events,pooltool_events,compared,same_order,same_up_to_ties,
    worst_dt_s,first_difference

- `spacer_m`: pooltool's contact spacer, `pooltool.constants.MIN_DIST` (1e-6 m as shipped):
  before resolving a collision pooltool moves the pair that far apart along their paths, which
  is not part of the physics; in a rack whose balls are 1e-6 m apart it shifts later event
  times by far more than 1e-6 s. The comparison runs with it at each value of --spacers.
- `same_order`: the same kinds and agents in the same order over the compared events;
  `same_up_to_ties`: the same once events less than --tol apart may trade places;
  `worst_dt_s`: the largest time difference over the compared events (matched up to ties).
- `first_difference`: where the sequences first differ (empty when they do not), or
  `pooltool error: ...` when pooltool failed on the break.

Usage (with pooltool installed, benches/peers/README.md):

    .venv-pooltool/bin/python benches/peers/pooltool_compare.py DIR [--events 30]
        [--tol 1e-6] [--spacers 1e-12,1e-6]
"""

import argparse
import os
import sys

import pooltool as pt
import pooltool.constants
from pooltool.events.datatypes import EventType
from pooltool.physics.engine import PhysicsEngine
from pooltool.physics.resolve.ball_ball.frictionless_elastic import FrictionlessElastic
from pooltool.physics.resolve.ball_cushion.han_2005.model import Han2005Circular, Han2005Linear
from pooltool.physics.resolve.ball_pocket import CanonicalBallPocket
from pooltool.physics.resolve.resolver import VERSION, Resolver
from pooltool.physics.resolve.stick_ball.instantaneous_point import InstantaneousPoint
from pooltool.physics.resolve.transition import CanonicalTransition


def engine():
    return PhysicsEngine(
        resolver=Resolver(
            ball_ball=FrictionlessElastic(),
            ball_linear_cushion=Han2005Linear(),
            ball_circular_cushion=Han2005Circular(),
            ball_pocket=CanonicalBallPocket(),
            stick_ball=InstantaneousPoint(english_throttle=1.0, squirt_throttle=1.0),
            transition=CanonicalTransition(),
            version=VERSION,
        )
    )


def events(system):
    """(time, kind, sorted agent ids) of every event but pooltool's null ones."""
    out = []
    for e in system.events:
        if e.event_type == EventType.NONE:
            continue
        ids = sorted(a.id for a in e.agents if a.agent_type.value != "cue")
        out.append((e.time, e.event_type.value, ids))
    return out


def compare(ours, theirs, n, tol):
    """(compared, same_order, same_up_to_ties, worst_dt, first_difference)."""
    k = min(n, len(ours), len(theirs))
    if k < n and len(ours) != len(theirs):
        k_note = f"; runs of {len(ours)} and {len(theirs)} events"
    else:
        k_note = ""
    same_order = all(ours[i][1:] == theirs[i][1:] for i in range(k))
    # Up to ties: take our events in order, each matched to the earliest unmatched pooltool
    # event of the same kind and agents that is not after any unmatched one by more than tol.
    left = list(range(len(theirs)))
    worst = 0.0
    first = ""
    for i in range(k):
        t, kind, ids = ours[i]
        pick = None
        for j in left:
            if theirs[j][0] > theirs[left[0]][0] + tol:
                break
            if theirs[j][1:] == (kind, ids):
                pick = j
                break
        if pick is None:
            j = left[0] if left else None
            other = f"{theirs[j][1]} {theirs[j][2]} at {theirs[j][0]!r} s" if j is not None else "none"
            first = f"event {i}: ours {kind} {ids} at {t!r} s, pooltool {other}"
            break
        left.remove(pick)
        worst = max(worst, abs(t - theirs[pick][0]))
    ties = first == ""
    if not first and not same_order:
        first = "same events, some of them less than --tol apart in another order"
    return k, same_order, ties, worst, first + k_note


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir")
    ap.add_argument("--events", type=int, default=30, help="events compared per break")
    ap.add_argument("--tol", type=float, default=1e-6, help="time tolerance (s)")
    ap.add_argument("--spacers", default="1e-12,1e-6",
                    help="pooltool contact spacers MIN_DIST (m) to run with, comma-separated")
    ap.add_argument("--max-events", type=int, default=5000,
                    help="pooltool's event budget per break (it can spin on pressed contacts)")
    args = ap.parse_args()
    names = sorted(f[:-5] for f in os.listdir(os.path.join(args.dir, "systems")) if f.endswith(".json"))
    eng = engine()
    print("name,spacer_m,our_events,pooltool_events,compared,same_order,same_up_to_ties,"
          "worst_dt_s,first_difference")
    for name in names:
        # Our run, read by pooltool's own loader and continuized by its own tool.
        mine = pt.System.load(os.path.join(args.dir, "ours", name + ".json"))
        pt.continuize(mine, dt=0.01, inplace=True)
        ours = events(mine)
        for spacer in (float(s) for s in args.spacers.split(",")):
            pooltool.constants.MIN_DIST = spacer
            start = pt.System.load(os.path.join(args.dir, "systems", name + ".json"))
            try:
                theirs = events(pt.simulate(start, engine=eng, max_events=args.max_events))
            except Exception as e:  # pooltool's own failures, reported per break
                msg = f"pooltool error: {type(e).__name__}: {e}".replace(",", ";").replace("\n", " ")
                print(f"{name},{spacer!r},{len(ours)},,0,False,False,,{msg}")
                continue
            k, same, ties, worst, first = compare(ours, theirs, args.events, args.tol)
            first = first.replace(",", ";")
            print(f"{name},{spacer!r},{len(ours)},{len(theirs)},{k},{same},{ties},{worst!r},{first}")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
