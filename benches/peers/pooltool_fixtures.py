#!/usr/bin/env python3
"""Write small pooltool 0.6.0 `System.save` files for the tests of `cargo xtask import-pooltool`
(crates/pooltool/tests/fixtures.rs), to data/peers/pooltool/:

- `example.json`: `System.example()` as pooltool builds it (its 7-foot table, a cue ball and
  ball 1, a cue with V0 = 1.5 m/s, phi = 94 deg, a = b = -0.3), not simulated.
- `example_simulated.msgpack`: the same system simulated by pooltool with seed-004 laws
  (FrictionlessElastic ball-ball, Han 2005 cushions, set explicitly), saved as msgpack: its
  events, histories and numpy-encoded arrays, with the laws in a `resolver` entry that
  pooltool's own loader ignores.
- `three_balls_simulated.json`: three balls rolled into the top-right corner pocket's jaws on
  the default table (states set directly), simulated with the same laws and with pooltool's
  contact spacer (`pooltool.constants.MIN_DIST`: it moves a colliding pair 1e-6 m apart
  before resolving) lowered to 1e-12 m, so that its times are the physics' alone, saved as
  JSON.
- `snooker.json`, `billiard.json`: a ball on pooltool's snooker and billiard tables.
- `resolver.yaml`: the seed-004 resolver as pooltool saves it (`Resolver.save`).
- `breaks/`: five 9-ball breaks made by pooltool with a cue strike (`break_<seed>.json`, seeds
  1-5, as `cargo xtask compare-pooltool` makes them: `pooltool_compare.nine_ball_break`), its
  default resolver (`resolver.yaml`, `default_resolver()`), and pooltool's own event logs of
  each under that resolver with its contact spacer as shipped (`break_<seed>@1e-6.json`) and
  lowered (`@1e-12.json`), for `crates/pooltool/tests/breaks.rs`.

Rerun with pooltool installed (benches/peers/README.md); the balls' `initial_orientation`
(drawing only) is random in pooltool, so a rerun changes those numbers and nothing else:

    .venv-pooltool/bin/python benches/peers/pooltool_fixtures.py
"""

import json
import os

import attrs
import numpy as np
import pooltool as pt
from pooltool.objects.ball.datatypes import BallState
from pooltool.objects.table.specs import TableType
from pooltool.physics.engine import PhysicsEngine
from pooltool.physics.resolve.ball_ball.frictionless_elastic import FrictionlessElastic
from pooltool.physics.resolve.ball_cushion.han_2005.model import Han2005Circular, Han2005Linear
from pooltool.physics.resolve.resolver import default_resolver

from pooltool_compare import events_of, fixed_hash_seed, nine_ball_break

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "data", "peers", "pooltool")
R = 0.028575


def seed_resolver():
    return attrs.evolve(
        default_resolver(),
        ball_ball=FrictionlessElastic(),
        ball_linear_cushion=Han2005Linear(),
        ball_circular_cushion=Han2005Circular(),
    )


def resolver_tree(resolver):
    """The resolver as pooltool's resolver file holds it (its own `save`, as JSON)."""
    tmp = os.path.join(OUT, ".resolver.json")
    resolver.save(tmp)
    with open(tmp) as f:
        laws = json.load(f)
    os.remove(tmp)
    return laws


def with_resolver(path, resolver):
    """Adds the resolver to a saved JSON system."""
    laws = resolver_tree(resolver)
    with open(path) as f:
        system = json.load(f)
    system["resolver"] = laws
    with open(path, "w") as f:
        json.dump(system, f, indent=2)


def main():
    fixed_hash_seed()
    os.makedirs(OUT, exist_ok=True)
    resolver = seed_resolver()
    engine = PhysicsEngine(resolver=resolver)
    resolver.save(os.path.join(OUT, "resolver.yaml"))

    example = pt.System.example()
    example.save(os.path.join(OUT, "example.json"))
    simulated = pt.simulate(example, engine=engine)
    path = os.path.join(OUT, "example_simulated.msgpack")
    simulated.save(path)
    _add_resolver_msgpack(path, resolver)
    assert len(pt.System.load(path).events) == len(simulated.events)
    print("example:", len(simulated.events), "events")

    table = pt.Table.default()
    balls = {}
    # pooltool's frame: x across (0..w), y along (0..l); the top-right corner pocket rt.
    for bid, xy, v in [
        ("cue", (0.70, 1.60), (0.9, 1.2)),
        ("1", (0.30, 1.75), (2.0, 0.5)),
        ("2", (0.85, 1.20), (0.4, 2.5)),
    ]:
        ball = pt.Ball.create(bid, xy=xy)
        w = (-v[1] / R, v[0] / R, 0.0)  # rolling: w = k x v / R
        ball.state = BallState(rvw=np.array([[xy[0], xy[1], R], [v[0], v[1], 0.0], w]), s=3, t=0.0)
        balls[bid] = ball
    three = pt.System(cue=pt.Cue(cue_ball_id="cue", V0=0.0), table=table, balls=balls)
    spacer = pt.constants.MIN_DIST
    pt.constants.MIN_DIST = 1e-12
    three = pt.simulate(three, engine=engine)
    pt.constants.MIN_DIST = spacer
    path = os.path.join(OUT, "three_balls_simulated.json")
    three.save(path)
    with_resolver(path, resolver)
    kinds = [e.event_type.value for e in three.events]
    print("three balls:", len(kinds), "events,", kinds.count("ball_circular_cushion"), "circular")

    for name, kind in [("snooker", TableType.SNOOKER), ("billiard", TableType.BILLIARD)]:
        t = pt.Table.default(kind)
        ball = pt.Ball.create("cue", xy=(t.w / 2, t.l / 3))
        pt.System(cue=pt.Cue(cue_ball_id="cue"), table=t, balls={"cue": ball}).save(
            os.path.join(OUT, f"{name}.json")
        )
    breaks()
    print("wrote", OUT)


def breaks():
    """pooltool's own 9-ball breaks and its runs of them, at its spacer and lowered."""
    out = os.path.join(OUT, "breaks")
    os.makedirs(out, exist_ok=True)
    default_resolver().save(os.path.join(out, "resolver.yaml"))
    engine = PhysicsEngine(resolver=default_resolver())
    shipped = pt.constants.MIN_DIST
    for seed in range(1, 6):
        path = os.path.join(out, f"break_{seed}.json")
        nine_ball_break(seed).save(path)
        for token in ["1e-6", "1e-12"]:
            pt.constants.MIN_DIST = float(token)
            run = pt.simulate(pt.System.load(path), engine=engine)
            pt.constants.MIN_DIST = shipped
            with open(os.path.join(out, f"break_{seed}@{token}.json"), "w") as f:
                json.dump({"events": events_of(run)}, f)
            print(f"break {seed} at spacer {token} m: {len(run.events)} events")


def _add_resolver_msgpack(path, resolver):
    import msgpack
    import msgpack_numpy

    laws = resolver_tree(resolver)
    with open(path, "rb") as f:
        tree = msgpack.unpackb(f.read(), object_hook=msgpack_numpy.decode)
    tree["resolver"] = laws
    with open(path, "wb") as f:
        f.write(msgpack.packb(tree, default=msgpack_numpy.encode))


if __name__ == "__main__":
    main()
