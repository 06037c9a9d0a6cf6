#!/usr/bin/env python3
"""FastFiz's laws applied to fixed states through its own code, for
crates/physics/tests/fastfiz_laws.rs: writes data/peers/fastfiz/<law>.csv, each row a state
before and what FastFiz made of it, in FastFiz's frame (x across the table, y along it; SI
units: m, m/s, rad/s, s, degrees for the cue's angles).

- ball_ball.csv: two touching balls (ball 1 moving; ball 2 at rest, spinning, sliding or
  rolling; one case in ten a full hit without side spin), `BallCollisionEvent(0, 1,
  2).handle(table_state)`.
- rail.csv: a ball moving into one of the six rails, `RailCollisionEvent(0, ball, rail).handle`.
- strike.csv: a cue strike `CueStrikeEvent(ShotParams(a, b, theta, phi, V)).handle` with a, b in
  metres, a positive to the left (the convention `Shot::simulateShot` hands the event after
  converting the user's millimetres), on a ball at rest.
- motion.csv: a lone cue ball struck in the table's middle, each pair of consecutive events of
  `executeShot`'s list up to the first rail: the state after event k, the time to event k+1,
  and the state FastFiz evolved to (`Shot::updateBall`) with the new motion state.

Usage: python fastfiz_laws.py [--cases N] [--seed S] [--out DIR]   (default 1000, 1,
data/peers/fastfiz); FastFiz must import (benches/peers/install.sh with FASTFIZ_SRC).
"""

import argparse
import csv
import math
import os
import random

import fastfiz as ff

R = 0.028575
STATE_NAMES = {ff.Ball.STATIONARY: "stationary", ff.Ball.SPINNING: "spinning",
               ff.Ball.SLIDING: "sliding", ff.Ball.ROLLING: "rolling"}


def vec(v):
    return [v.x, v.y, v.z]


def fresh(n):
    """A table state with balls 0..n-1 in play at rest, the others off the table."""
    ts = ff.TableState()
    for k in range(16):
        ts.setBall(k, ff.Ball.STATIONARY if k < n else ff.Ball.NOTINPLAY, ff.Point(0.1 * k + 0.1, 0.5))
    return ts


def moving_state(rng, state):
    """(v, w) of a ball sliding (any spin) or rolling, speed 0.05-8 m/s."""
    speed = rng.uniform(0.05, 8.0)
    ang = rng.uniform(-math.pi, math.pi)
    v = (speed * math.cos(ang), speed * math.sin(ang), 0.0)
    if state == "rolling":
        w = (-v[1] / R, v[0] / R, rng.uniform(-40, 40))
    else:
        w = tuple(rng.uniform(-1.5, 1.5) * speed / R for _ in range(2)) + (rng.uniform(-60, 60),)
    return v, w


def ball_ball(rng, n):
    rows = []
    states = {"stationary": ff.Ball.STATIONARY, "spinning": ff.Ball.SPINNING,
              "sliding": ff.Ball.SLIDING, "rolling": ff.Ball.ROLLING}
    while len(rows) < n:
        s1 = rng.choice(["sliding", "rolling"])
        s2 = rng.choice(["stationary", "spinning", "sliding", "rolling"])
        v1, w1 = moving_state(rng, s1)
        if s2 == "stationary":
            v2, w2 = (0.0, 0.0, 0.0), (0.0, 0.0, 0.0)
        elif s2 == "spinning":
            v2, w2 = (0.0, 0.0, 0.0), (0.0, 0.0, rng.uniform(-60, 60))
        else:
            v2, w2 = moving_state(rng, s2)
        # Ball 2 touches ball 1 on the side ball 1 approaches it from; one case in ten a full
        # hit on a ball at rest without side spin (the shooter stops dead in FastFiz).
        full = s2 == "stationary" and rng.random() < 0.4
        if full:
            w1 = (w1[0], w1[1], 0.0)
        ang = math.atan2(v1[1] - v2[1], v1[0] - v2[0]) + (0.0 if full else rng.uniform(-1.4, 1.4))
        n_ = (math.cos(ang), math.sin(ang))
        if (v1[0] - v2[0]) * n_[0] + (v1[1] - v2[1]) * n_[1] <= 0:
            continue
        r1 = (0.5, 1.1)
        r2 = (r1[0] + 2 * R * n_[0], r1[1] + 2 * R * n_[1])
        ts = fresh(2)
        for k, (r, v, w, s) in enumerate(((r1, v1, w1, s1), (r2, v2, w2, s2))):
            ts.setBall(k, states[s], ff.Point(*r))
            b = ts.getBall(k)
            b.setVelocity(ff.Vector(*v))
            b.setSpin(ff.Vector(*w))
        ff.BallCollisionEvent(0.0, 0, 1).handle(ts)
        a, b = ts.getBall(0), ts.getBall(1)
        rows.append([s1, s2, *r1, *r2, *v1, *w1, *v2, *w2,
                     *vec(a.getVelocity()), *vec(a.getSpin()), *vec(b.getVelocity()), *vec(b.getSpin()),
                     STATE_NAMES.get(a.getState(), "?"), STATE_NAMES.get(b.getState(), "?")])
    head = ["state1", "state2", "r1_x", "r1_y", "r2_x", "r2_y"] + [
        f"{q}_{c}" for q in ("v1", "w1", "v2", "w2", "v1_after", "w1_after", "v2_after", "w2_after")
        for c in "xyz"] + ["state1_after", "state2_after"]
    return head, rows


RAIL_NORMALS = {ff.Table.S_RAIL: (0.0, -1.0), ff.Table.N_RAIL: (0.0, 1.0),
                ff.Table.SW_RAIL: (-1.0, 0.0), ff.Table.NW_RAIL: (-1.0, 0.0),
                ff.Table.SE_RAIL: (1.0, 0.0), ff.Table.NE_RAIL: (1.0, 0.0)}


def rail(rng, n):
    rows = []
    rails = sorted(RAIL_NORMALS)
    while len(rows) < n:
        rl = rng.choice(rails)
        nx, ny = RAIL_NORMALS[rl]
        s = rng.choice(["sliding", "rolling"])
        v, w = moving_state(rng, s)
        if v[0] * nx + v[1] * ny <= 0:
            continue
        ts = fresh(1)
        ts.setBall(0, ff.Ball.SLIDING if s == "sliding" else ff.Ball.ROLLING, ff.Point(0.5, 1.1))
        b = ts.getBall(0)
        b.setVelocity(ff.Vector(*v))
        b.setSpin(ff.Vector(*w))
        ff.RailCollisionEvent(0.0, 0, rl).handle(ts)
        b = ts.getBall(0)
        rows.append([ff.Table.boundaryName(rl), nx, ny, *v, *w, *vec(b.getVelocity()), *vec(b.getSpin())])
    head = ["rail", "normal_x", "normal_y"] + [f"{q}_{c}" for q in ("v", "w", "v_after", "w_after")
                                               for c in "xyz"]
    return head, rows


def strike(rng, n):
    rows = []
    while len(rows) < n:
        a = rng.uniform(-0.8, 0.8) * R
        b = rng.uniform(-0.8, 0.8) * R
        if a * a + b * b >= (0.8 * R) ** 2:
            continue
        theta = rng.choice([0.0, rng.uniform(0.0, 60.0)])
        phi = rng.uniform(0.0, 360.0)
        speed = rng.uniform(0.2, 8.0)
        ts = fresh(1)
        ff.CueStrikeEvent(ff.ShotParams(a, b, theta, phi, speed)).handle(ts)
        bl = ts.getBall(0)
        rows.append([a, b, theta, phi, speed, *vec(bl.getVelocity()), *vec(bl.getSpin())])
    head = ["a", "b", "theta", "phi", "V"] + [f"{q}_{c}" for q in ("v_after", "w_after") for c in "xyz"]
    return head, rows


def motion(rng, n):
    rows = []
    while len(rows) < n:
        ts = fresh(1)
        ts.setBall(0, ff.Ball.STATIONARY, ff.Point(0.558, 1.118))
        for k in range(1, 16):
            ts.setBall(k, ff.Ball.NOTINPLAY, ff.Point(0.0, 0.0))
        a, b = rng.uniform(-15, 15), rng.uniform(-15, 15)
        sp = ff.ShotParams(a, b, rng.choice([0.0, rng.uniform(0.0, 40.0)]), rng.uniform(0, 360),
                           rng.uniform(0.2, 3.0))
        if ts.isPhysicallyPossible(sp) != ff.TableState.OK_PRECONDITION:
            continue
        shot = ts.executeShot(sp)  # the event list lives as long as the Shot
        events = list(shot.getEventList())
        for e0, e1 in zip(events, events[1:]):
            if e1.getType() != ff.Event.STATE_CHANGE or e0.getType() not in (ff.Event.CUE_STRIKE, ff.Event.STATE_CHANGE):
                break
            d0, d1 = e0.getBall1Data(), e1.getBall1Data()
            p0, p1 = d0.getPos(), d1.getPos()
            rows.append([STATE_NAMES[d0.getState()], p0.x, p0.y, *vec(d0.getVelocity()), *vec(d0.getSpin()),
                         e1.getTime() - e0.getTime(), STATE_NAMES.get(d1.getState(), "?"),
                         p1.x, p1.y, *vec(d1.getVelocity()), *vec(d1.getSpin())])
    head = ["state", "r_x", "r_y"] + [f"{q}_{c}" for q in ("v", "w") for c in "xyz"] + [
        "dt", "state_after", "r_after_x", "r_after_y"] + [f"{q}_{c}" for q in ("v_after", "w_after") for c in "xyz"]
    return head, rows[:n]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cases", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    ap.add_argument("--out", default=os.path.join(root, "data", "peers", "fastfiz"))
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for name, make in (("ball_ball", ball_ball), ("rail", rail), ("strike", strike), ("motion", motion)):
        head, rows = make(random.Random(f"{args.seed}-{name}"), args.cases)
        path = os.path.join(args.out, f"{name}.csv")
        with open(path, "w", newline="") as f:
            out = csv.writer(f, lineterminator="\n")
            out.writerow(head)
            for row in rows:
                out.writerow([repr(x) if isinstance(x, float) else x for x in row])
        print(f"{path}: {len(rows)} cases")


if __name__ == "__main__":
    main()
