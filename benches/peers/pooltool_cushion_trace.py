#!/usr/bin/env python3
"""Collision events of whole pooltool 0.6.0 runs: the balls' states before and after each one.

Runs random carom (three-cushion table and balls) and pool (9-ball rack on the default table)
shots with `pt.simulate` under three model sets: pooltool's `default_resolver()`
(`frictional_inelastic` with Alciatore friction ball-ball, `stronge_compliant` with
`omega_ratio` 1.8 at both cushion kinds); the same with `han_2005` at the cushions; and
`frictional_mathavan` ball-ball with `mathavan_2010` cushions. It writes one row per
`ball_linear_cushion` / `ball_circular_cushion` event to
data/peers/laws/trace_<cushion law>.csv:

    shot, kind (linear/circular), ball parameters (R, m, e_c, f_c, u_s), the cushion (p1, p2 or
    the circle's center and radius), the ball's r, v, w when the event is reached (the event's
    initial agent: before pooltool moves it and resolves), r, v and w after (the final agent:
    moved by `make_kiss`, then resolved)

and one row per `ball_ball` event (of the default set and of the Mathavan set) to
data/peers/laws/trace_<ball-ball law>.csv: both balls' parameters (`a_R`, `a_m`, `a_e_b`,
`a_u_b`, `a_u_s`, `b_...`), their r, v, w before (`a_r`, ...) and r, v, w after (`a_r_out`, ...).

`cargo test -p pool-physics --test pooltool_cushion_trace` applies our model of the same name
(the move and the law, as our engines call them) to each `before` and checks the `after` (the
files are committed so the check runs without pooltool; this script rewrites them, same seed,
same files, when pooltool is installed, benches/peers/README.md):

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
from pooltool.physics.resolve.ball_ball.frictional_mathavan import FrictionalMathavan
from pooltool.physics.resolve.ball_cushion.han_2005.model import Han2005Circular, Han2005Linear
from pooltool.physics.resolve.ball_cushion.mathavan_2010.model import (
    Mathavan2010Circular,
    Mathavan2010Linear,
)
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
                "u_s": float(p.u_s),
                **geometry,
                "r": vec(before.state.rvw[0]), "v": vec(before.state.rvw[1]),
                "w": vec(before.state.rvw[2]),
                "r_out": vec(after.state.rvw[0]),
                "v_out": vec(after.state.rvw[1]), "w_out": vec(after.state.rvw[2]),
            }
        )
    return rows


def ball_ball_rows(name, system):
    rows = []
    for event in system.events:
        if event.event_type.value != "ball_ball":
            continue
        row = {"shot": name, "time": float(event.time)}
        for tag, agent in zip("ab", event.agents):
            p, before, after = agent.initial.params, agent.initial.state, agent.final.state
            row.update({
                f"{tag}_R": float(p.R), f"{tag}_m": float(p.m), f"{tag}_e_b": float(p.e_b),
                f"{tag}_u_b": float(p.u_b), f"{tag}_u_s": float(p.u_s),
                f"{tag}_motion": int(before.s),
                f"{tag}_r": vec(before.rvw[0]), f"{tag}_v": vec(before.rvw[1]),
                f"{tag}_w": vec(before.rvw[2]),
                f"{tag}_r_out": vec(after.rvw[0]), f"{tag}_v_out": vec(after.rvw[1]),
                f"{tag}_w_out": vec(after.rvw[2]),
            })
        rows.append(row)
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
    mathavan = default_resolver()
    mathavan.ball_ball = FrictionalMathavan()
    mathavan.ball_linear_cushion = Mathavan2010Linear()
    mathavan.ball_circular_cushion = Mathavan2010Circular()
    sets = [
        ("stronge_compliant", "frictional_inelastic", stronge),
        ("han_2005", None, han),
        ("mathavan_2010", "frictional_mathavan", mathavan),
    ]
    for law, ball_ball, resolver in sets:
        rows, pairs, failed = [], [], []
        for kind in ["carom", "pool"]:
            for k in range(args.shots):
                seed = args.seed + k
                system = shot(kind, seed)
                try:
                    pt.simulate(system, engine=PhysicsEngine(resolver=resolver), inplace=True)
                except Exception as e:  # pooltool's own failures (mathavan_2010's solver)
                    failed.append(f"{kind}_{seed}: {type(e).__name__}: {e}")
                    continue
                rows += rows_of(f"{kind}_{seed}", system)
                pairs += ball_ball_rows(f"{kind}_{seed}", system)
        for line in failed:
            print(f"{law}: pooltool failed on {line}; shot left out", file=sys.stderr)
        write(f"trace_{law}", rows)
        if ball_ball:
            write(f"trace_{ball_ball}", pairs)


if __name__ == "__main__":
    main()
