#!/usr/bin/env python3
"""The restitution each fixed-step peer engine gives, measured head-on (benches/peers/README.md):
ball a at 1 m/s into ball b at rest, then b into a rail, frictionless (the ideal model with
restitution), for the law's e = 1 and 0.95 (ball-ball) and 0.85 (cushion), at dt = 1e-2, 1e-3,
1e-4 s. Prints a Markdown table. Run with the peers' Python:

    .venv-peers/bin/python benches/peers/peer_restitution.py
"""

import sys

import peer_common as pc  # first: it keeps stdout for the answers

import box2d_engine
import mujoco_engine
import pybullet_engine
import pymunk_engine

R, W = 0.028575, 1.0


def shot(e_b):
    law = ({"model": "frictionless_elastic"} if e_b == 1.0 else
           {"model": "frictional_inelastic", "friction": {"model": "average"}})
    rails = [("bottom", [0, 0], [2, 0], [0, 1]), ("right", [2, 0], [2, 1], [-1, 0]),
             ("top", [2, 1], [0, 1], [0, -1]), ("left", [0, 1], [0, 0], [1, 0])]
    return {
        "model": {"motion": "frictionless", "laws": {
            "ball_ball": law,
            "ball_linear_cushion": {"model": "unrealistic", "restitution": True},
            "ball_circular_cushion": {"model": "unrealistic", "restitution": True}},
            "params": {"m": 0.170097, "R": R, "mu_s": 0.2, "mu_r": 0.01, "mu_sp": 0.0127,
                       "mu_b": 0.0, "e_b": e_b, "e_c": 0.85, "f_c": 0.2, "g": 9.81}},
        "table": {"width": W, "cushions": [{"id": i, "p1": p1, "p2": p2, "normal": n,
                                            "height": 0.036576} for i, p1, p2, n in rails],
                  "end_points": [], "circular_cushions": [], "pockets": []},
        "balls": [{"id": "a", "r": [0.5, 0.5, R], "v": [1.0, 0.0, 0.0], "w": [0, 0, 0],
                   "state": "sliding"},
                  {"id": "b", "r": [1.0, 0.5, R], "v": [0.0, 0.0, 0.0], "w": [0, 0, 0],
                   "state": "stationary"}],
        "t_end": None, "max_events": None,
    }


def measure(make, dt, e_b):
    s = shot(e_b)
    world = make(s, pc.Coefficients(s["model"]), dt)
    for _ in range(round(0.8 / dt)):  # a meets b at 0.44 s
        world.step()
    va, vb = world.state("a")[1][0], world.state("b")[1][0]
    for _ in range(round(1.6 / dt)):  # b is back from the right rail by 2.0 s
        world.step()
    return vb - va, -world.state("b")[1][0] / vb


ENGINES = [
    ("mujoco euler", lambda s, co, dt: mujoco_engine.World(s, co, dt, "euler")),
    ("mujoco implicitfast", lambda s, co, dt: mujoco_engine.World(s, co, dt, "implicitfast")),
    ("mujoco rk4", lambda s, co, dt: mujoco_engine.World(s, co, dt, "rk4")),
    ("pybullet", pybullet_engine.World),
    ("pymunk", pymunk_engine.World),
    ("box2d", box2d_engine.World),
]


def main():
    dts = [1e-2, 1e-3, 1e-4]
    head = " | ".join(f"dt {dt:g}: e_b 1, 0.95; e_c 0.85" for dt in dts)
    lines = [f"| engine | {head} |", "| --- |" + " --- |" * len(dts)]
    for name, make in ENGINES:
        cells = []
        for dt in dts:
            e1, c1 = measure(make, dt, 1.0)
            e2, c2 = measure(make, dt, 0.95)
            cells.append(f"{e1:.3f}, {e2:.3f}; {c1:.3f}")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    pc._ANSWERS.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    sys.exit(main())
