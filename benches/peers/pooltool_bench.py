#!/usr/bin/env python3
"""Time the default shots in pooltool-billiards 0.6.0, for `cargo xtask bench-peers`.

Reads our shot files (TOML, format in data/shots/README.md), sets the same initial ball states
in pooltool (positions, velocities, spins, motion states set directly: pooltool's cue-stick V0
is not the ball speed), builds the physics engine explicitly (FrictionlessElastic ball-ball,
Han 2005 linear and circular cushions, as our model), and prints one CSV line per shot:

    shot,runs,median_s,min_s,n_events

median_s is the median wall time of `runs` warm runs of `pt.simulate` (after one untimed run
that triggers numba's compilation, ~30 s the first time in a fresh cache).

Usage: pooltool_bench.py [--runs N] SHOT.toml...   (see benches/peers/README.md to install)

Differences that remain: pooltool's 7-foot table has rounded pocket jaws (ours are straight
segments), and pooltool parks a colliding pair 2R + 1e-6 m apart before resolving. Event
counts differ for those reasons; the timing compares the same shots, not identical logs.
"""

import argparse
import copy
import statistics
import sys
import time
import tomllib

import attrs
import numpy as np
import pooltool as pt
from pooltool.objects.ball.datatypes import BallState
from pooltool.events.datatypes import EventType
from pooltool.physics.engine import PhysicsEngine
from pooltool.physics.resolve.ball_ball.frictionless_elastic import FrictionlessElastic
from pooltool.physics.resolve.ball_cushion.han_2005.model import Han2005Circular, Han2005Linear
from pooltool.physics.resolve.resolver import default_resolver

# Our motion-state names -> pooltool's codes (0 stationary, 1 spinning, 2 sliding, 3 rolling).
STATES = {"stationary": 0, "spinning": 1, "sliding": 2, "rolling": 3}
R = 0.028575


def infer_state(v, w):
    """Our BallState::infer_motion (pooltool's rule), for shots that omit `state`."""
    eps = 1e-13
    u = (v[0] - R * w[1], v[1] + R * w[0])
    v_zero = np.hypot(v[0], v[1]) < eps
    u_zero = np.hypot(*u) < eps
    if v_zero and u_zero:
        return 0 if abs(w[2] * R) < eps else 1
    return 3 if u_zero else 2


def system_for(shot):
    """A pooltool System with our shot's balls on pooltool's default pool table."""
    if shot.get("model", "pool") != "pool" or shot.get("table") not in ("seven_foot", "pooltool_pocket"):
        raise ValueError(
            "only model = 'pool' on table = 'seven_foot' or 'pooltool_pocket' is mapped to pooltool"
        )
    if "params" in shot:
        raise ValueError("custom [params] are not mapped to pooltool")
    own = sorted({k for b in shot["balls"] for k in b} - {"id", "r", "v", "w", "state"})
    if own:
        # pooltool 0.6.0's System asserts equal masses and radii (its ball-ball detection and
        # resolver assume equal balls).
        raise ValueError(f"per-ball parameters ({', '.join(own)}) are not mapped to pooltool")
    balls = {}
    for b in shot["balls"]:
        r = list(b["r"])[:2] + [R]
        v = list(b.get("v", [0.0, 0.0]))[:2] + [0.0]
        w = list(b.get("w", [0.0, 0.0, 0.0]))
        s = STATES[b["state"]] if "state" in b else infer_state(v, w)
        # pooltool's table runs its long side along y: its (x, y) is our (y, x), a mirror
        # (exact both ways), under which an angular velocity changes sign
        # (crates/pooltool/src/frame.rs).
        r = [r[1], r[0], r[2]]
        v = [v[1], v[0], v[2]]
        w = [-w[1], -w[0], -w[2]]
        ball = pt.Ball.create(b["id"], xy=r[:2])
        ball.state = BallState(rvw=np.array([r, v, w], dtype=float), s=s, t=0.0)
        balls[b["id"]] = ball
    return pt.System(
        cue=pt.Cue(cue_ball_id=shot["balls"][0]["id"]),
        table=pt.Table.default(),
        balls=balls,
    )


def engine():
    resolver = attrs.evolve(
        default_resolver(),
        ball_ball=FrictionlessElastic(),
        ball_linear_cushion=Han2005Linear(),
        ball_circular_cushion=Han2005Circular(),
    )
    return PhysicsEngine(resolver=resolver)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=20, help="timed warm runs per shot")
    ap.add_argument("shots", nargs="+", help="shot files (.toml)")
    args = ap.parse_args()
    eng = engine()
    print("shot,runs,median_s,min_s,n_events")
    for path in args.shots:
        with open(path, "rb") as f:
            shot = tomllib.load(f)
        name = path.rsplit("/", 1)[-1].removesuffix(".toml")
        base = system_for(shot)
        warm = pt.simulate(copy.deepcopy(base), engine=eng)  # compiles on first use
        times = []
        for _ in range(args.runs):
            system = copy.deepcopy(base)
            t0 = time.perf_counter()
            out = pt.simulate(system, engine=eng, inplace=True)
            times.append(time.perf_counter() - t0)
        # pooltool logs a "null" start event; count the physical ones.
        n_events = sum(1 for e in out.events if e.event_type != EventType.NONE)
        assert len(warm.events) == len(out.events), "pooltool runs must be deterministic"
        print(f"{name},{args.runs},{statistics.median(times):.6e},{min(times):.6e},{n_events}")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
