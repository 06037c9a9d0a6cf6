#!/usr/bin/env python3
"""pooltool 0.6.0's side of `cargo xtask compare-pooltool` (see its --help): 9-ball breaks made
and run by pooltool, for our engine to import and run.

For break k = 0 .. --breaks - 1 (seed = --seed + k), named `break_<seed>`:

- builds it as a pooltool user does: `Table.default()`, `get_rack(GameType.NINEBALL, table)`
  (its random jitter seeded), the cue ball on the head string at a random offset, and a cue
  strike aimed at the 1 ball (`aim.at_ball`) with random V0 (2-8 m/s), aim error, side and
  vertical offsets and elevation; saves it with `System.save` as DIR/systems/<name>.json
  (what `cargo xtask import-pooltool` reads);
- runs it with `pt.simulate` under the laws of DIR/resolver.json (our preset as pooltool's
  resolver file; `pooltool_default` is pooltool's `default_resolver()`), once per contact
  spacer of --spacers (`pooltool.constants.MIN_DIST`, 1e-6 m as shipped: pooltool moves a
  colliding pair that far apart before resolving), and writes its events as pooltool's
  System has them (`event_type`, `time`, `agents` with `id` and `agent_type`) to
  DIR/pooltool/<name>@<spacer>.json (<spacer> as --spacers writes it), or `{"error": ...}`
  when pooltool fails on it; with `interventions`, the ball-ball events after which
  pooltool's `resolve_continually_touching` changed the pair's velocities (its phenomenological
  "momentum theft" for balls moving in unison, not a law: recorded by wrapping the method at
  run time, pooltool's code untouched), and `budget: true` when the run stopped at
  --max-events.

Prints one line per break to stderr. Usage (with pooltool installed, benches/peers/README.md):

    .venv-pooltool/bin/python benches/peers/pooltool_compare.py DIR [--breaks 20] [--seed 1]
        [--spacers 1e-6,1e-12] [--max-events 5000]
"""

import argparse
import json
import os
import random
import sys

import numpy as np
import pooltool as pt
import pooltool.constants
from pooltool.physics.engine import PhysicsEngine
from pooltool.physics.resolve.ball_ball.core import CoreBallBallCollision
from pooltool.physics.resolve.resolver import VERSION, Resolver
from pooltool.serialize import SerializeFormat, conversion


def fixed_hash_seed():
    """Re-runs this process with PYTHONHASHSEED=0 unless it has it: pooltool's rack draws its
    balls' ids with `random.choice(list(a_set))`, whose order follows the strings' hashes, so
    the same seed gives the same rack only with the same hash seed."""
    if os.environ.get("PYTHONHASHSEED") != "0":
        os.execve(sys.executable, [sys.executable, *sys.argv], dict(os.environ, PYTHONHASHSEED="0"))


def nine_ball_break(seed):
    """A pooltool 9-ball break with a cue strike, reproducible from `seed` (under
    `fixed_hash_seed`)."""
    random.seed(seed)
    np.random.seed(seed)
    rng = np.random.default_rng(seed)
    table = pt.Table.default()
    balls = pt.get_rack(pt.GameType.NINEBALL, table)
    system = pt.System(cue=pt.Cue(cue_ball_id="cue"), table=table, balls=balls)
    xy = (table.w / 2 + rng.uniform(-0.15, 0.15), table.l / 4)
    system.balls["cue"] = pt.Ball.create("cue", xy=xy, **_params(balls))
    phi = pt.aim.at_ball(system, "1") + rng.uniform(-0.5, 0.5)
    system.cue.set_state(
        V0=rng.uniform(2.0, 8.0),
        phi=phi,
        theta=rng.uniform(0.0, 5.0),
        a=rng.uniform(-0.3, 0.3),
        b=rng.uniform(-0.3, 0.3),
    )
    return system


def _params(balls):
    """The rack's ball parameters, for the cue ball placed by hand."""
    import attrs

    return attrs.asdict(next(iter(balls.values())).params)


class Interventions:
    """Counts pooltool's ball-ball resolutions and notes those whose
    `resolve_continually_touching` changed a velocity (by wrapping both methods)."""

    def __init__(self):
        self.calls = 0
        self.changed = []
        resolve = CoreBallBallCollision.resolve
        touching = CoreBallBallCollision.resolve_continually_touching
        me = self

        def counted(self, ball1, ball2, inplace=False):
            me.calls += 1
            return resolve(self, ball1, ball2, inplace)

        def watched(self, ball1, ball2):
            before = (ball1.state.rvw[1].copy(), ball2.state.rvw[1].copy())
            out = touching(self, ball1, ball2)
            after = (out[0].state.rvw[1], out[1].state.rvw[1])
            if any((a != b).any() for a, b in zip(before, after)):
                me.changed.append(me.calls - 1)
            return out

        CoreBallBallCollision.resolve = counted
        CoreBallBallCollision.resolve_continually_touching = watched

    def start(self):
        self.calls, self.changed = 0, []

    def of(self, events):
        """The ball-ball events (time, ids) whose resolution pooltool's intervention changed."""
        ball_ball = [e for e in events if e["event_type"] == "ball_ball"]
        return [
            {"time": ball_ball[k]["time"], "agents": [a["id"] for a in ball_ball[k]["agents"]]}
            for k in self.changed
            if k < len(ball_ball)
        ]


def events_of(system):
    """pooltool's events as its System stores them: type, time, agents' ids and types."""
    return [
        {
            "event_type": e.event_type.value,
            "time": float(e.time),
            "agents": [{"id": a.id, "agent_type": a.agent_type.value} for a in e.agents],
        }
        for e in system.events
    ]


def main():
    fixed_hash_seed()
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir")
    ap.add_argument("--breaks", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--spacers", default="1e-6,1e-12",
                    help="pooltool contact spacers MIN_DIST (m) to run with, comma-separated")
    ap.add_argument("--max-events", type=int, default=5000,
                    help="pooltool's event budget per break (it can spin on pressed contacts)")
    args = ap.parse_args()
    with open(os.path.join(args.dir, "resolver.json")) as f:
        laws = dict(json.load(f), version=VERSION)
    resolver = conversion[SerializeFormat.YAML].structure(laws, Resolver)
    engine = PhysicsEngine(resolver=resolver)
    spacers = [(s.strip(), float(s)) for s in args.spacers.split(",")]
    os.makedirs(os.path.join(args.dir, "systems"), exist_ok=True)
    os.makedirs(os.path.join(args.dir, "pooltool"), exist_ok=True)
    shipped = pooltool.constants.MIN_DIST
    watch = Interventions()
    for k in range(args.breaks):
        seed = args.seed + k
        name = f"break_{seed}"
        path = os.path.join(args.dir, "systems", name + ".json")
        nine_ball_break(seed).save(path)
        counts = []
        for token, spacer in spacers:
            pooltool.constants.MIN_DIST = spacer
            watch.start()
            try:
                run = pt.simulate(pt.System.load(path), engine=engine, max_events=args.max_events)
                events = events_of(run)
                out = {
                    "events": events,
                    "interventions": watch.of(events),
                    "budget": len(run.events) >= args.max_events,
                }
                counts.append(str(len(events)))
            except Exception as e:  # pooltool's own failures, reported per break
                out = {"error": f"{type(e).__name__}: {e}"}
                counts.append("error")
            finally:
                pooltool.constants.MIN_DIST = shipped
            with open(os.path.join(args.dir, "pooltool", f"{name}@{token}.json"), "w") as f:
                json.dump(out, f)
        print(f"{name}: pooltool events {', '.join(counts)}", file=sys.stderr)


if __name__ == "__main__":
    main()
