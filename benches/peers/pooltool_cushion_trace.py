#!/usr/bin/env python3
"""Cushion events of whole pooltool 0.6.0 runs: the ball's state before and after each one.

Runs random carom (three-cushion table and balls) and pool (9-ball rack on the default table)
shots with `pt.simulate` under pooltool's `default_resolver()` (`frictional_inelastic` with
Alciatore friction ball-ball, `stronge_compliant` with `omega_ratio` 1.8 at both cushion kinds),
then once more under the same resolver with `han_2005` at the cushions, and writes one row per
`ball_linear_cushion` / `ball_circular_cushion` event to
data/peers/laws/trace_<cushion law>.csv:

    shot, kind (linear/circular), ball parameters (R, m, e_c, f_c), the cushion (p1, p2 or the
    circle's center and radius), the ball's r, v, w when the event is reached (the event's
    initial agent: before pooltool moves it and resolves), v and w after (the final agent)

`cargo test -p pool-physics --test pooltool_cushion_trace` applies our law of the same name to
each `before` and checks the `after` (the file is committed so the check runs without pooltool;
this script rewrites it, same seed, same file, when pooltool is installed, benches/peers/README.md):

    .venv-pooltool/bin/python benches/peers/pooltool_cushion_trace.py [--shots 24] [--seed 7]

Our frame and pooltool's are the same here: x, y on the cloth, z up.
"""

import argparse
import math
import os
import random
import sys

import numpy as np
import pooltool as pt
from pooltool.physics.engine import PhysicsEngine
from pooltool.physics.resolve.ball_cushion.han_2005.model import Han2005Circular, Han2005Linear
from pooltool.physics.resolve.resolver import default_resolver

from pooltool_laws import vec, write


def fixed_hash_seed():
    """Re-runs this process with PYTHONHASHSEED=0 unless it has it: pooltool's racks draw ball
    ids from sets, whose order follows the strings' hashes."""
    if os.environ.get("PYTHONHASHSEED") != "0":
        os.execve(sys.executable, [sys.executable, *sys.argv], dict(os.environ, PYTHONHASHSEED="0"))


def shot(kind, seed):
    """A pooltool system of `kind` ("carom" or "pool") with a random cue strike on the cue ball,
    reproducible from `seed`."""
    random.seed(seed)
    np.random.seed(seed)
    rng = np.random.default_rng(seed)
    if kind == "carom":
        table = pt.Table.from_game_type(pt.GameType.THREECUSHION)
        balls = pt.get_rack(pt.GameType.THREECUSHION, table)
        cue_id, target = "white", str(rng.choice(["yellow", "red"]))
    else:
        table = pt.Table.default()
        balls = pt.get_rack(pt.GameType.NINEBALL, table)
        cue_id, target = "cue", "1"
    system = pt.System(cue=pt.Cue(cue_ball_id=cue_id), table=table, balls=balls)
    phi = pt.aim.at_ball(system, target) + rng.uniform(-40, 40)
    a, b = rng.uniform(-0.5, 0.5, 2)
    system.strike(V0=rng.uniform(1.5, 6.0), phi=phi, a=a, b=b, theta=rng.uniform(0, 15))
    return system


def rows_of(name, system):
    rows = []
    for event in system.events:
        kind = {"ball_linear_cushion": "linear", "ball_circular_cushion": "circular"}.get(
            event.event_type.value
        )
        if kind is None:
            continue
        ball, cushion = event.agents[0], event.agents[1]
        before, after, p = ball.initial, ball.final, ball.initial.params
        seg = cushion.initial
        if kind == "linear":
            geometry = {"p1": vec(seg.p1), "p2": vec(seg.p2), "arc_radius": 0.0}
        else:
            geometry = {"p1": vec(seg.center), "p2": vec(seg.center), "arc_radius": float(seg.radius)}
        rows.append(
            {
                "shot": name, "kind": kind, "time": float(event.time),
                "R": float(p.R), "m": float(p.m), "e_c": float(p.e_c), "f_c": float(p.f_c),
                **geometry,
                "r": vec(before.state.rvw[0]), "v": vec(before.state.rvw[1]),
                "w": vec(before.state.rvw[2]),
                "v_out": vec(after.state.rvw[1]), "w_out": vec(after.state.rvw[2]),
            }
        )
    return rows


def main():
    fixed_hash_seed()
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shots", type=int, default=24, help="shots of each kind (default 24)")
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    stronge = default_resolver()
    han = default_resolver()
    han.ball_linear_cushion = Han2005Linear()
    han.ball_circular_cushion = Han2005Circular()
    for law, resolver in [("stronge_compliant", stronge), ("han_2005", han)]:
        rows = []
        for kind in ["carom", "pool"]:
            for k in range(args.shots):
                seed = args.seed + k
                system = shot(kind, seed)
                pt.simulate(system, engine=PhysicsEngine(resolver=resolver), inplace=True)
                rows += rows_of(f"{kind}_{seed}", system)
        write(f"trace_{law}", rows)


if __name__ == "__main__":
    main()
