#!/usr/bin/env python3
"""Resolve random pre-collision states with pooltool 0.6.0's laws and write what it gives.

For each law pooltool ships that the harness has, draws N seeded random pre-collision
configurations (balls in contact and approaching, random spins; for cushions a random segment
direction, contact height and a ball touching its vertical plane from the playing side; the
ball's radius and mass drawn from pool to carom sizes), calls pooltool's own `solve` for that
law, and writes one CSV per law to data/peers/laws/:

    inputs (positions, v, w, parameters) ... , outputs (v and w of each ball after)

`cargo test -p pool-physics --test pooltool_laws` reads these files and checks that our laws give
the same velocities (every law to 1e-12 of the velocity scale; mathavan_2010 within one of its
impulse steps). Cushion laws are drawn at straight segments and, in `<law>_circular.csv`, at
circular ones (rounded jaws). The laws that read the contact's normal in space
(`stronge_compliant`, `impulse_frictional_inelastic`) are called through `resolve`, as pooltool's
simulation calls them: its `make_kiss` first moves the ball back along its velocity to 1e-6 m
(`MIN_DIST`) off the cushion, which tilts (and at a circular cushion turns) the normal they read. The files are committed so the check runs without pooltool; rerun this script to
regenerate them (same seed, same files) when pooltool is installed (benches/peers/README.md):

    .venv-pooltool/bin/python benches/peers/pooltool_laws.py [--n 1000]

Our frame and pooltool's are the same here (no table): x, y on the cloth, z up.
"""

import argparse
import csv
import math
import os
import sys

import numpy as np
from pooltool.objects.ball.datatypes import Ball, BallParams, BallState
from pooltool.objects.table.components import CircularCushionSegment, LinearCushionSegment
from pooltool.physics.resolve.ball_ball.friction import (
    AlciatoreBallBallFriction,
    AverageBallBallFriction,
)
from pooltool.physics.resolve.ball_ball.frictional_inelastic import FrictionalInelastic
from pooltool.physics.resolve.ball_ball.frictional_mathavan import FrictionalMathavan
from pooltool.physics.resolve.ball_ball.frictionless_elastic import FrictionlessElastic
from pooltool.physics.resolve.ball_cushion.han_2005.model import Han2005Circular, Han2005Linear
from pooltool.physics.resolve.ball_cushion.mathavan_2010.model import (
    Mathavan2010Circular,
    Mathavan2010Linear,
)
from pooltool.physics.resolve.ball_cushion.impulse_frictional_inelastic.model import (
    ImpulseFrictionalInelasticCircular,
    ImpulseFrictionalInelasticLinear,
)
from pooltool.physics.resolve.ball_cushion.stronge_compliant.model import (
    StrongeCompliantCircular,
    StrongeCompliantLinear,
)
from pooltool.physics.resolve.ball_cushion.unrealistic import (
    UnrealisticCircular,
    UnrealisticLinear,
)
from pooltool.physics.resolve.stick_ball.instantaneous_point import InstantaneousPoint
from pooltool.objects.cue.datatypes import Cue, CueSpecs

R = 0.028575  # the struck ball's radius in the stick-ball cases
# Ball sizes from pool (R 28.575 mm, m 170 g) to carom (30.75 mm, 210 g) and beyond.
R_RANGE = (0.026, 0.0325)
M_RANGE = (0.14, 0.23)
# Spin components (rad/s): a hard-hit ball with side and draw reaches about 150.
SPIN = 150.0
# The cushion laws whose pooltool classes read the ball's position (through
# `get_normal_3d`): run through `resolve`, whose `make_kiss` moves the ball first.
KISSED = ("stronge_compliant", "impulse_frictional_inelastic")
SLIDING = 2
OUT = os.path.join(os.path.dirname(__file__), "..", "..", "data", "peers", "laws")


def ball(bid, r, v, w, params):
    return Ball(bid, state=BallState(np.array([r, v, w], dtype=float), SLIDING), params=params)


def vec(x):
    return [float(c) for c in x]


def ball_ball_cases(rng, n, law_of):
    """Two balls of one random size 2R apart at a random angle, approaching, random spins and
    parameters. Through pooltool's `solve`: its `resolve` first moves the balls apart to 1e-6 m
    along their velocities, which turns the line of centers (not modelled by our ball-ball laws;
    docs/pooltool.md)."""
    rows = []
    for _ in range(n):
        e_b = rng.uniform(0.5, 1.0)
        u_b = rng.uniform(0.0, 0.2)
        u_s = rng.uniform(0.05, 0.4)
        R, m = rng.uniform(*R_RANGE), rng.uniform(*M_RANGE)
        params = BallParams(m=m, R=R, e_b=e_b, u_b=u_b, u_s=u_s)
        phi = rng.uniform(0, 2 * math.pi)
        nrm = np.array([math.cos(phi), math.sin(phi), 0.0])
        r1 = np.array([1.0, 0.5, R])
        r2 = r1 + 2 * R * nrm
        v1 = np.array([*rng.uniform(-3, 3, 2), 0.0])
        v2 = np.array([*rng.uniform(-3, 3, 2), 0.0])
        if np.dot(v1 - v2, nrm) <= 0.05:
            v1 = v1 + nrm * (0.05 - np.dot(v1 - v2, nrm) + rng.uniform(0, 2))
        w1 = rng.uniform(-SPIN, SPIN, 3)
        w2 = rng.uniform(-SPIN, SPIN, 3)
        law, extra = law_of(rng)
        b1, b2 = ball("a", r1, v1, w1, params), ball("b", r2, v2, w2, params)
        o1, o2 = law.solve(b1.copy(), b2.copy())
        rows.append(
            {
                "r1": vec(r1), "v1": vec(v1), "w1": vec(w1),
                "r2": vec(r2), "v2": vec(v2), "w2": vec(w2),
                "R": R, "m": m, "e_b": e_b, "u_b": u_b, "u_s": u_s, **extra,
                "v1_out": vec(o1.state.rvw[1]), "w1_out": vec(o1.state.rvw[2]),
                "v2_out": vec(o2.state.rvw[1]), "w2_out": vec(o2.state.rvw[2]),
            }
        )
    return rows


def attempt(law, kissed, b, cushion):
    """pooltool's ball after `law` resolves ball `b` at `cushion` (through `resolve`, its
    1e-6 m spacer first, with `kissed`; else `solve`), or None when its law fails (the case is
    then drawn again)."""
    try:
        out, _ = (law.resolve if kissed else law.solve)(b.copy(), cushion)
        return out
    except RuntimeError as e:
        print(f"pooltool failed ({e}): drawn again", file=sys.stderr)
        return None


def cushion_cases(rng, n, law_of, kissed=False):
    """A segment at a random angle and height; a ball R from its vertical plane, moving into it.
    With `kissed`, through pooltool's `resolve` (its 1e-6 m spacer first), else `solve`. A case
    pooltool's law fails on (its mathavan_2010 can find no end of restitution) is drawn again,
    and counted."""
    rows = []
    failed = 0
    while len(rows) < n:
        e_c = rng.uniform(0.5, 0.98)
        f_c = rng.uniform(0.0, 0.4)
        u_s = rng.uniform(0.05, 0.4)
        R, m = rng.uniform(*R_RANGE), rng.uniform(*M_RANGE)
        h = rng.uniform(1.05, 1.6) * R
        params = BallParams(m=m, R=R, e_c=e_c, f_c=f_c, u_s=u_s)
        phi = rng.uniform(0, 2 * math.pi)
        d = np.array([math.cos(phi), math.sin(phi)])
        inward = np.array([-d[1], d[0]])  # playing side on the left of p1 -> p2
        p1 = np.array([0.2, 0.3])
        p2 = p1 + 2.0 * d
        centre = p1 + rng.uniform(0.3, 1.7) * d + R * inward
        speed = rng.uniform(0.1, 6.0)
        into = rng.uniform(0.05, 1.0) * math.pi / 2  # angle of v to the cushion line
        along = rng.choice([-1.0, 1.0])
        v_xy = speed * (math.cos(into) * along * d - math.sin(into) * inward)
        v = np.array([*v_xy, 0.0])
        w = rng.uniform(-SPIN, SPIN, 3)
        law, extra = law_of(rng)
        cushion = LinearCushionSegment("c", p1=np.array([*p1, h]), p2=np.array([*p2, h]))
        b = ball("a", np.array([*centre, R]), v, w, params)
        out = attempt(law, kissed, b, cushion)
        if out is None:
            failed += 1
            continue
        rows.append(
            {
                "r": vec([*centre, R]), "v": vec(v), "w": vec(w),
                "normal": vec(-inward), "height": h, "R": R, "m": m,
                "e_c": e_c, "f_c": f_c, "u_s": u_s, **extra,
                "v_out": vec(out.state.rvw[1]), "w_out": vec(out.state.rvw[2]),
            }
        )
    if failed:
        print(f"{failed} cases pooltool failed on, drawn again", file=sys.stderr)
    return rows


def circular_cases(rng, n, law_of, kissed=False):
    """A circular cushion (a rounded jaw) of random radius, center and height; a ball R + r
    from its center on the cloth, moving into it. A case pooltool's law fails on (its
    mathavan_2010 can find no end of restitution) is drawn again, and counted. With `kissed`,
    through pooltool's `resolve` (its 1e-6 m spacer first), else `solve`."""
    rows = []
    failed = 0
    while len(rows) < n:
        e_c = rng.uniform(0.5, 0.98)
        f_c = rng.uniform(0.0, 0.4)
        u_s = rng.uniform(0.05, 0.4)
        R, m = rng.uniform(*R_RANGE), rng.uniform(*M_RANGE)
        h = rng.uniform(1.05, 1.6) * R
        radius = rng.uniform(0.002, 0.04)
        params = BallParams(m=m, R=R, e_c=e_c, f_c=f_c, u_s=u_s)
        center = np.array([*rng.uniform(-0.5, 0.5, 2), h])
        phi = rng.uniform(0, 2 * math.pi)
        out = np.array([math.cos(phi), math.sin(phi)])  # from the circle toward the ball
        xy = center[:2] + (R + radius) * out
        speed = rng.uniform(0.1, 6.0)
        into = rng.uniform(0.05, 1.0) * math.pi / 2  # angle of v to the tangent
        along = rng.choice([-1.0, 1.0])
        tangent = np.array([-out[1], out[0]])
        v_xy = speed * (math.cos(into) * along * tangent - math.sin(into) * out)
        v = np.array([*v_xy, 0.0])
        w = rng.uniform(-SPIN, SPIN, 3)
        law, extra = law_of(rng)
        cushion = CircularCushionSegment("c", center=center, radius=radius)
        b = ball("a", np.array([*xy, R]), v, w, params)
        res = attempt(law, kissed, b, cushion)
        if res is None:
            failed += 1
            continue
        rows.append(
            {
                "r": vec([*xy, R]), "v": vec(v), "w": vec(w),
                "normal": vec(-out), "height": h, "arc_radius": radius, "R": R, "m": m,
                "e_c": e_c, "f_c": f_c, "u_s": u_s, **extra,
                "v_out": vec(res.state.rvw[1]), "w_out": vec(res.state.rvw[2]),
            }
        )
    if failed:
        print(f"{failed} cases pooltool failed on, drawn again", file=sys.stderr)
    return rows


def stick_ball_cases(rng, n):
    """A ball at rest struck with a random stroke, stick and throttles."""
    rows = []
    for _ in range(n):
        m = rng.uniform(0.15, 0.21)
        params = BallParams(m=m, R=R)
        while True:
            a, b = rng.uniform(-0.7, 0.7), rng.uniform(-0.7, 0.7)
            if a * a + b * b < 0.6:
                break
        V0, phi, theta = rng.uniform(0.2, 8.0), rng.uniform(0, 360), rng.uniform(0, 60)
        M_cue, end_mass = rng.uniform(0.4, 0.7), rng.uniform(0.002, 0.02)
        english, squirt = rng.uniform(0.0, 1.5), rng.uniform(0.0, 1.5)
        cue = Cue(V0=V0, phi=phi, theta=theta, a=a, b=b, specs=CueSpecs(M=M_cue, end_mass=end_mass))
        b0 = ball("a", np.array([1.0, 0.5, R]), np.zeros(3), np.zeros(3), params)
        _, out = InstantaneousPoint(english_throttle=english, squirt_throttle=squirt).solve(cue, b0.copy())
        rows.append(
            {
                "m": m, "V0": V0, "phi": phi, "theta": theta, "a": a, "b": b, "M": M_cue,
                "end_mass": end_mass, "english_throttle": english, "squirt_throttle": squirt,
                "v_out": vec(out.state.rvw[1]), "w_out": vec(out.state.rvw[2]),
            }
        )
    return rows


def write(name, rows):
    """data/peers/laws/<name>.csv: one column per scalar (text as it is) and per component of a
    list (`<key>_x`, `_y`, `_z`), floats in shortest round-trip form."""
    os.makedirs(OUT, exist_ok=True)
    path = os.path.join(OUT, f"{name}.csv")
    cols = []
    for k, v in rows[0].items():
        if isinstance(v, list):
            cols += [f"{k}_{c}" for c in "xyz"[: len(v)]]
        else:
            cols.append(k)
    with open(path, "w", newline="") as f:
        out = csv.writer(f)
        out.writerow(cols)
        for r in rows:
            line = []
            for v in r.values():
                if isinstance(v, list):
                    line += [repr(x) for x in v]
                else:
                    line.append(v if isinstance(v, str) else repr(v))
            out.writerow(line)
    print(f"{path}: {len(rows)} cases", file=sys.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=1000, help="cases per law (default 1000)")
    ap.add_argument("--seed", type=int, default=20261123)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)

    write("frictionless_elastic", ball_ball_cases(rng, args.n, lambda r: (FrictionlessElastic(), {})))

    def alciatore(r):
        a, b, c = r.uniform(0.0, 0.02), r.uniform(0.0, 0.2), r.uniform(0.5, 2.0)
        return FrictionalInelastic(friction=AlciatoreBallBallFriction(a=a, b=b, c=c)), {"a": a, "b": b, "c": c}

    write("frictional_inelastic_alciatore", ball_ball_cases(rng, args.n, alciatore))
    write(
        "frictional_inelastic_average",
        ball_ball_cases(rng, args.n, lambda r: (FrictionalInelastic(friction=AverageBallBallFriction()), {})),
    )
    for name, law_of in cushion_laws(circular=False):
        write(name, cushion_cases(rng, args.n, law_of, kissed=name in KISSED))

    def mathavan_2014(r):
        n = int(r.integers(100, 2000))
        a, b, c = r.uniform(0.0, 0.02), r.uniform(0.0, 0.2), r.uniform(0.5, 2.0)
        law = FrictionalMathavan(friction=AlciatoreBallBallFriction(a=a, b=b, c=c), num_iterations=n)
        return law, {"num_iterations": n, "a": a, "b": b, "c": c}

    write("frictional_mathavan", ball_ball_cases(rng, args.n, mathavan_2014))
    write("instantaneous_point", stick_ball_cases(rng, args.n))

    # The same cushion laws at circular cushions (pooltool's *Circular classes): drawn after
    # the others so that their files stay as they were.
    for name, law_of in cushion_laws(circular=True):
        write(f"{name}_circular", circular_cases(rng, args.n, law_of, kissed=name in KISSED))


def cushion_laws(circular):
    """(file name, law_of) of every cushion law, pooltool's Linear or Circular class: law_of
    draws the law's random parameters from the generator it is given and returns (law, the
    parameters as columns)."""
    pick = 1 if circular else 0

    def unrealistic(r):
        x = bool(r.integers(0, 2))
        return (UnrealisticLinear, UnrealisticCircular)[pick](restitution=x), {"restitution": int(x)}

    def stronge(r):
        omega = r.uniform(1.05, 1.95)
        law = (StrongeCompliantLinear, StrongeCompliantCircular)[pick](omega_ratio=omega)
        return law, {"omega_ratio": omega}

    def mathavan_2010(r):
        steps, dp = int(r.integers(200, 3000)), float(r.choice([1e-3, 1e-4, 1e-5]))
        law = (Mathavan2010Linear, Mathavan2010Circular)[pick](max_steps=steps, delta_p=dp)
        return law, {"max_steps": steps, "delta_p": dp}

    impulse = (ImpulseFrictionalInelasticLinear, ImpulseFrictionalInelasticCircular)[pick]
    return [
        ("han_2005", lambda r: ((Han2005Linear, Han2005Circular)[pick](), {})),
        ("unrealistic", unrealistic),
        ("impulse_frictional_inelastic", lambda r: (impulse(), {})),
        ("stronge_compliant", stronge),
        ("mathavan_2010", mathavan_2010),
    ]


if __name__ == "__main__":
    main()
