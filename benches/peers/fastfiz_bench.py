#!/usr/bin/env python3
"""Time FastFiz's `executeShot` on the harness's shots, for `cargo xtask bench-peers`.

Reads protocol requests (docs/engine-protocol.md), one JSON line per shot, on stdin; sets each up
as the `fastfiz` engine does (benches/peers/fastfiz_engine.py: `prepare`, `table_state`) and
prints one CSV line per shot:

    shot,runs,median_s,min_s,n_events,empty_median_s

median_s is the median over `runs` calls of `TableState.executeShot` alone, timed with
time.perf_counter_ns around the call (a fresh TableState is built before each, untimed; one
untimed call first). n_events is the length of FastFiz's event list, its cue strike included.
empty_median_s is the median time of an empty shot on the same table (the same call with
V = 0: the strike moves nothing, one event): the binding's and the call's own cost, which the
shot's time includes. A shot FastFiz cannot play prints `shot,0,,,,` and its reason on stderr.

Usage: fastfiz_bench.py [--runs N] < requests.jsonl
"""

import argparse
import json
import statistics
import sys
import time

import fastfiz_engine as fe  # imports peer_common first: stdout is kept for this CSV
import peer_common as pc

import fastfiz as ff


def timed(game, strike, runs):
    """The times (s) of `runs` calls of executeShot(strike) on fresh copies of the game, and its
    event count."""
    shot = fe.table_state(game).executeShot(strike)  # untimed: first call
    n = len(list(shot.getEventList()))
    times = []
    for _ in range(runs):
        ts = fe.table_state(game)
        t0 = time.perf_counter_ns()
        shot = ts.executeShot(strike)
        times.append((time.perf_counter_ns() - t0) * 1e-9)
    return times, n


def main():
    ap = argparse.ArgumentParser(description="Time FastFiz's executeShot on protocol requests.")
    ap.add_argument("--runs", type=int, default=200)
    args = ap.parse_args()
    if not 1 <= args.runs <= 100_000:
        print(f"fastfiz_bench.py: --runs = {args.runs}: must be in [1, 100000]", file=sys.stderr)
        sys.exit(2)
    out = pc._ANSWERS
    for line in sys.stdin:
        if not line.strip():
            continue
        shot = json.loads(line)
        game, answer = fe.prepare(shot)
        if game is None:
            print(f"fastfiz_bench.py: {shot['shot']}: {answer}", file=sys.stderr)
            out.write(f"{shot['shot']},0,,,,\n")
            continue
        times, n = timed(game, game["strike"], args.runs)
        s = game["strike"]
        empty, _ = timed(game, ff.ShotParams(s.a, s.b, s.theta, s.phi, 0.0), args.runs)
        out.write(f"{shot['shot']},{args.runs},{statistics.median(times)!r},{min(times)!r},{n},"
                  f"{statistics.median(empty)!r}\n")
        out.flush()


if __name__ == "__main__":
    main()
