#!/usr/bin/env python3
"""simulate_many and strike_many on N random 9-ball breaks from Python, beside pooltool's
simulate on the same states, and the cost of the Python boundary per shot.

    python python/bench/bench_batch.py [--n 10000] [--pooltool 200] [--threads 2] [--csv F]

The breaks: pooltool 0.6.0's 9-ball rack on its 7-foot table (our `pooltool_pocket`, the same
geometry bit for bit), the cue ball where pooltool puts it, struck at 3-10 m/s within 2 degrees
of the head ball, no spin; seed 1. Physics: seed 004's (frictionless_elastic, han_2005), which
both simulators have exactly (pooltool built with those laws). Prints one table:

    what, shots, seconds, shots/s, per core, us/shot

With pooltool absent the pooltool rows are skipped (said so). Timings are wall clock, best of
--repeats runs (the machine's quiet and slow phases differ by about 1.5x: compare rows of one
run only).
"""

import argparse
import csv
import os
import time

import numpy as np

import billiards_harness as bh

RACK = """description = "9-ball rack on pooltool's table"
model = "pool"
table = "pooltool_pocket"
"""


def racked_shot():
    """Our shot of pooltool's 9-ball rack: from pooltool when present, else the committed one."""
    here = os.path.dirname(os.path.abspath(__file__))
    return bh.load(os.path.join(here, "..", "..", "data", "shots", "break_9ball_pooltool.toml"))


def random_breaks(shot, n, seed=1):
    """n copies of the rack with the cue ball struck at random (rvw arrays)."""
    rng = np.random.default_rng(seed)
    states = np.repeat(shot.states[None], n, axis=0)
    ids = shot.ball_ids
    cue, head = ids.index("cue"), ids.index("1")
    d = shot.states[head, 0, :2] - shot.states[cue, 0, :2]
    base = np.arctan2(d[1], d[0])
    angle = base + np.radians(rng.uniform(-2.0, 2.0, n))
    speed = rng.uniform(3.0, 10.0, n)
    states[:, cue, 1, 0] = speed * np.cos(angle)
    states[:, cue, 1, 1] = speed * np.sin(angle)
    states[:, cue, 1, 2] = 0.0
    states[:, cue, 2, :] = 0.0
    return states


def best(f, repeats):
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        f()
        times.append(time.perf_counter() - t0)
    return min(times)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=10000, help="breaks for simulate_many")
    ap.add_argument("--loop", type=int, default=2000, help="breaks for the per-shot loop")
    ap.add_argument("--pooltool", type=int, default=200, help="breaks through pooltool (0: none)")
    ap.add_argument("--threads", type=int, default=os.cpu_count())
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--csv", help="also write the table to this CSV file")
    args = ap.parse_args()
    shot = racked_shot()
    states = random_breaks(shot, args.n)
    rows = []

    def row(what, shots, secs, cores):
        rows.append((what, shots, secs, shots / secs, shots / secs / cores, 1e6 * secs / shots))

    secs = best(lambda: bh.simulate_many(states, template=shot, threads=args.threads), args.repeats)
    row(f"simulate_many, {args.threads} threads", args.n, secs, args.threads)
    secs = best(lambda: bh.simulate_many(states, template=shot, threads=1), args.repeats)
    row("simulate_many, 1 thread", args.n, secs, 1)
    # The training-data path: random cue strikes on the racked balls at rest.
    rest = shot.states.copy()
    rest[:, 1:, :] = 0.0
    rack = shot.with_states(rest)
    ids = shot.ball_ids
    d = rest[ids.index("1"), 0, :2] - rest[ids.index("cue"), 0, :2]
    aim = np.degrees(np.arctan2(d[1], d[0]))
    rng = np.random.default_rng(2)
    V0, phi = rng.uniform(2.0, 8.0, args.n), rng.uniform(-3.0, 3.0, args.n)
    b = rng.uniform(-0.5, 0.5, args.n)
    secs = best(
        lambda: bh.strike_many(V0, aim + phi, 0.0, 0.0, b, template=rack, threads=args.threads),
        args.repeats,
    )
    row(f"strike_many, {args.threads} threads", args.n, secs, args.threads)
    # The boundary: one call per shot (a Shot made, a Run with snapshots returned).
    loop = states[: args.loop]
    secs = best(lambda: [bh.simulate(shot.with_states(s)) for s in loop], args.repeats)
    row("simulate() per shot, Python loop", len(loop), secs, 1)
    batch = bh.simulate_many(states, template=shot, threads=1)
    if args.pooltool > 0:
        try:
            import attrs
            import pooltool as pt
            from pooltool.physics.engine import PhysicsEngine
            from pooltool.physics.resolve.ball_ball.frictionless_elastic import (
                FrictionlessElastic,
            )
            from pooltool.physics.resolve.ball_cushion.han_2005.model import (
                Han2005Circular,
                Han2005Linear,
            )
            from pooltool.physics.resolve.resolver import Resolver
        except ImportError:
            print("pooltool rows skipped: pooltool 0.6.0 is not installed (benches/peers/README.md)")
        else:
            engine = PhysicsEngine(
                resolver=attrs.evolve(
                    Resolver.default(),
                    ball_ball=FrictionlessElastic(),
                    ball_linear_cushion=Han2005Linear(),
                    ball_circular_cushion=Han2005Circular(),
                )
            )
            systems = [bh.to_pooltool(shot.with_states(s)) for s in states[: args.pooltool]]
            pt.simulate(systems[0].copy(), engine=engine)  # numba compiles on first use
            copies = [s.copy() for s in systems]
            events, crashed = [], 0
            t0 = time.perf_counter()
            for s in copies:
                try:
                    events.append(len(pt.simulate(s, engine=engine, inplace=True).events))
                except Exception:  # pooltool's own failures (e.g. make_kiss on no root)
                    crashed += 1
            secs = time.perf_counter() - t0
            row("pooltool 0.6.0 simulate, 1 process", len(systems), secs, 1)
            if crashed:
                print(f"pooltool raised on {crashed} of {len(systems)} breaks (timed with the rest)")
            ours = batch.n_events[: args.pooltool]
            print(
                f"events per break: ours median {np.median(ours):.0f}, pooltool median "
                f"{np.median(events):.0f} (its log counts a null start event)"
            )
    if args.csv:
        keys = {"simulate_many, 1 thread": "simulate_many_1", "simulate() per shot, Python loop": "loop"}
        with open(args.csv, "w", newline="") as f:
            out = csv.writer(f)
            out.writerow(["what", "label", "shots", "seconds", "shots_per_s", "per_core", "us_per_shot"])
            for what, shots, secs, rate, per_core, us in rows:
                key = keys.get(what, what.split(",")[0].split()[0])
                out.writerow([key, what, shots, repr(secs), repr(rate), repr(per_core), repr(us)])
    print(f"{'what':<36} {'shots':>7} {'seconds':>9} {'shots/s':>10} {'per core':>10} {'us/shot':>9}")
    for what, shots, secs, rate, per_core, us in rows:
        print(f"{what:<36} {shots:>7} {secs:>9.3f} {rate:>10.0f} {per_core:>10.0f} {us:>9.1f}")


if __name__ == "__main__":
    main()
