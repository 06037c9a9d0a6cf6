#!/usr/bin/env python3
"""What each peer engine gets wrong on a few shots, against the event engine (the reference),
as a Markdown table (benches/peers/README.md quotes it). For each shot and engine spec it runs
`xtask simulate` and reports: the events in the same order as the reference's, by kind and
agents whatever their times (the longest common subsequence: a/n), whether the two sequences
are identical, the first ball-ball time error, the largest time error of the events in that
common sequence, the largest final position error, and the wall time of the run (the adapter's
start-up included; `--startup` measures that alone).

    python3 benches/peers/peer_findings.py [--xtask target/release/xtask] [--shots a,b]
        [--engines mujoco:1e-3,...] [--startup]

Run from the workspace root after `cargo build --release -p xtask`.
"""

import argparse
import json
import math
import subprocess
import sys
import time

SHOTS = "straight,cut,draw,break_9ball"
ENGINES = ("mujoco:1e-2,mujoco:1e-3,mujoco:1e-4,mujoco:1e-3:implicitfast,mujoco:1e-3:rk4,"
           "pybullet:1e-2,pybullet:1e-3,pybullet:1e-4,pymunk:1e-2,pymunk:1e-3,pymunk:1e-4,"
           "box2d:1e-2,box2d:1e-3,box2d:1e-4")


def simulate(xtask, shot, engine):
    start = time.perf_counter()
    out = subprocess.run([xtask, "simulate", f"data/shots/{shot}.toml", "--engine", engine,
                          "--format", "json"], capture_output=True, text=True)
    wall = time.perf_counter() - start
    if not out.stdout.strip():
        return None, wall, out.stderr.strip().splitlines()[-1:]
    return json.loads(out.stdout), wall, None


def common(ref, run):
    """Pairs (i, j) of the longest common subsequence of the two logs by (kind, agents)."""
    key = lambda e: (e["kind"], tuple(e["agents"]))
    n, m = len(ref), len(run)
    best = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            best[i][j] = (best[i + 1][j + 1] + 1 if key(ref[i]) == key(run[j])
                          else max(best[i + 1][j], best[i][j + 1]))
    pairs, i, j = [], 0, 0
    while i < n and j < m:
        if key(ref[i]) == key(run[j]) and best[i][j] == best[i + 1][j + 1] + 1:
            pairs.append((i, j))
            i, j = i + 1, j + 1
        elif best[i + 1][j] >= best[i][j + 1]:
            i += 1
        else:
            j += 1
    return pairs


def stories(log):
    """Each ball's own event sequence: (kind, agents) of every event naming it, in order."""
    own = {}
    for e in log:
        for a in e["agents"]:
            own.setdefault(a, []).append((e["kind"], tuple(e["agents"])))
    return own


def same_stories(ref, run):
    """Balls whose own sequence is the reference's / balls."""
    mine, theirs = stories(ref["events"]), stories(run["events"])
    balls = [b["id"] for b in ref["final_states"]]
    return sum(mine.get(b, []) == theirs.get(b, []) for b in balls), len(balls)


def final_error(ref, run):
    pos = {b["id"]: b["r"] for b in run["final_states"]}
    return max(math.dist(b["r"][:2], pos[b["id"]][:2]) for b in ref["final_states"])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--xtask", default="target/release/xtask")
    ap.add_argument("--shots", default=SHOTS)
    ap.add_argument("--engines", default=ENGINES)
    ap.add_argument("--startup", action="store_true",
                    help="also time each adapter answering nothing (start-up and import)")
    a = ap.parse_args()
    print("| shot | engine | same order (kind, agents) | balls with the same story | first ball-ball error (s) "
          "| max error in common (s) | final position error (m) | wall (s) |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for shot in a.shots.split(","):
        ref, wall, _ = simulate(a.xtask, shot, "event")
        print(f"| {shot} | event | {len(ref['events'])} events | | | | | {wall:.3f} |")
        for engine in a.engines.split(","):
            run, wall, why = simulate(a.xtask, shot, engine)
            if run is None:
                print(f"| {shot} | {engine} | {why} | | | | | |")
                continue
            pairs = common(ref["events"], run["events"])
            errors = [abs(run["events"][j]["time_s"] - ref["events"][i]["time_s"]) for i, j in pairs]
            first = next((abs(run["events"][j]["time_s"] - ref["events"][i]["time_s"])
                          for i, j in pairs if ref["events"][i]["kind"] == "ball_ball"), None)
            same, balls = same_stories(ref, run)
            print(f"| {shot} | {engine} | {len(pairs)}/{len(ref['events'])} ({len(run['events'])} "
                  f"events) | {same}/{balls} | "
                  f"{'-' if first is None else f'{first:.1e}'} | "
                  f"{max(errors):.1e} | {final_error(ref, run):.3f} | {wall:.2f} |"
                  if errors else f"| {shot} | {engine} | 0/{len(ref['events'])} | {same}/{balls} | - | - | "
                  f"{final_error(ref, run):.3f} | {wall:.2f} |")
            sys.stdout.flush()
    if a.startup:
        root = __file__.rsplit("/", 1)[0]
        for name, args in [("mujoco", ["--dt", "1e-3"]), ("pybullet", ["--dt", "1e-3"]),
                           ("pymunk", ["--dt", "1e-3"]), ("box2d", ["--dt", "1e-3"]),
                           ("billiards", [])]:
            start = time.perf_counter()
            subprocess.run([".venv-peers/bin/python", f"{root}/{name}_engine.py", *args],
                           stdin=subprocess.DEVNULL, capture_output=True)
            print(f"start-up of {name}_engine.py: {time.perf_counter() - start:.3f} s")


if __name__ == "__main__":
    main()
