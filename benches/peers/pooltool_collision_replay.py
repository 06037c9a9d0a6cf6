#!/usr/bin/env python3
"""Whole pooltool 0.6.0 runs replayed collision by collision through our event engine.

pooltool plays --runs random carom runs (its three-cushion table and balls, 9 balls placed at
random, the cue ball struck toward one of them with random speed, aim error, spin and
elevation; seeded) under each of four model sets:

- `default`: pooltool's `default_resolver()` (`frictional_inelastic` with Alciatore's friction,
  `stronge_compliant` cushions with `omega_ratio` 1.8);
- `han_2005`: the same with `han_2005` cushions;
- `frictionless`: `frictionless_elastic` ball-ball, `unrealistic` cushions;
- `mathavan`: `frictional_mathavan` ball-ball, `mathavan_2010` cushions (`max_steps` 1000,
  `delta_p` 0.001, pooltool's defaults).

Every collision (ball-ball, ball-cushion) of every run is then replayed by our event engine
(`cargo xtask simulate --serve`, the engine protocol, docs/engine-protocol.md): a request holds
every ball as pooltool's history has it after the event before (its state at that event's
time, moved to t = 0), the laws as `cargo xtask import-pooltool` reads the set's resolver (every
law's `spacer` pooltool's 1e-6 m), and `max_events` 1. Our engine evolves the balls to its
first event and resolves it; its final states are the balls just after. Compared with
pooltool's after the same event: the largest difference of a velocity or spin component (R w
for spins) over the involved balls, in units of their largest speed (|v| or R |w|, as pooltool
reached the event). A replay whose first event is not pooltool's (kind and agents) is counted
apart, as are the ball-ball events after which pooltool's `resolve_continually_touching` acted
(its own device, not a law; `pooltool_compare.Interventions`).

Prints the table (per set: ball-ball max, cushion median and max), the cushion events split
by how the ball arrived (rolling: its cloth slip v + R k x w zero to rounding; sliding), and
with --write the mathavan set's compared collisions to data/peers/laws/replay_mathavan_2010.csv
(and its laws, table and balls as our shot file, replay_mathavan_2010.toml) for
`cargo test -p pool-pooltool --test collision_replay`, which replays them without pooltool.
--perturb EPS scales every ball's v and w by 1 + EPS before the replay: each law's answer to a
relative change EPS of its input.
A run pooltool fails on (mathavan_2010's "Solution not found") is left out with one line.

    cargo build --release -p xtask
    PYTHONHASHSEED=0 .venv-pooltool/bin/python benches/peers/pooltool_collision_replay.py \
        [--runs 36] [--seed 1] [--xtask target/release/xtask] [--perturb 1e-9] [--write]

The CSV is in pooltool's frame (its long side along y), as pooltool has the numbers; the
requests are in ours (x along the long side: a mirror, exact, spins changing sign).
"""

import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile

import attrs
import numpy as np
import pooltool as pt
from pooltool.physics.engine import PhysicsEngine
from pooltool.physics.resolve.ball_ball.frictional_mathavan import FrictionalMathavan
from pooltool.physics.resolve.ball_ball.frictionless_elastic import FrictionlessElastic
from pooltool.physics.resolve.ball_cushion.han_2005.model import Han2005Circular, Han2005Linear
from pooltool.physics.resolve.ball_cushion.mathavan_2010.model import (
    Mathavan2010Circular,
    Mathavan2010Linear,
)
from pooltool.physics.resolve.ball_cushion.unrealistic import (
    UnrealisticCircular,
    UnrealisticLinear,
)
from pooltool.physics.resolve.resolver import default_resolver

from pooltool_compare import Interventions
from pooltool_cushion_trace import fixed_hash_seed
from pooltool_laws import OUT, vec, write

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
COLLISIONS = ("ball_ball", "ball_linear_cushion", "ball_circular_cushion")
MOTION = {0: "stationary", 1: "spinning", 2: "sliding", 3: "rolling", 4: "pocketed"}
BALLS = 9


def model_sets():
    """The four model sets, by name: (label for the table, pooltool resolver)."""
    default = default_resolver()
    return {
        "default": ("pooltool's default resolver", default),
        "han_2005": (
            "`han_2005` cushions",
            attrs.evolve(default, ball_linear_cushion=Han2005Linear(),
                         ball_circular_cushion=Han2005Circular()),
        ),
        "frictionless": (
            "`frictionless_elastic` + `unrealistic`",
            attrs.evolve(default, ball_ball=FrictionlessElastic(),
                         ball_linear_cushion=UnrealisticLinear(),
                         ball_circular_cushion=UnrealisticCircular()),
        ),
        "mathavan": (
            "`frictional_mathavan` + `mathavan_2010` (max_steps 1000, delta_p 0.001)",
            attrs.evolve(default, ball_ball=FrictionalMathavan(),
                         ball_linear_cushion=Mathavan2010Linear(),
                         ball_circular_cushion=Mathavan2010Circular()),
        ),
    }


def carom_run(seed):
    """A pooltool system on its three-cushion table: 9 carom balls (the rack's parameters)
    placed at random, at least 1 mm apart and from the cushions, and a cue strike on the cue
    ball ("white") aimed at a random other ball (aim error up to 40 degrees, V0 1.5-6 m/s, side
    and vertical offsets up to 0.5, elevation up to 15 degrees); reproducible from `seed`."""
    rng = np.random.default_rng(seed)
    table = pt.Table.from_game_type(pt.GameType.THREECUSHION)
    params = next(iter(pt.get_rack(pt.GameType.THREECUSHION, table).values())).params
    R, gap = params.R, 1e-3
    ids = ["white"] + [str(k) for k in range(1, BALLS)]
    balls = {}
    while len(balls) < BALLS:
        xy = rng.uniform([R + gap, R + gap], [table.w - R - gap, table.l - R - gap])
        if all(math.hypot(*(xy - b.xyz[:2])) > 2 * R + gap for b in balls.values()):
            bid = ids[len(balls)]
            balls[bid] = pt.Ball.create(bid, xy=(float(xy[0]), float(xy[1])),
                                        **attrs.asdict(params))
    system = pt.System(cue=pt.Cue(cue_ball_id="white"), table=table, balls=balls)
    target = str(rng.integers(1, BALLS))
    system.strike(
        V0=rng.uniform(1.5, 6.0),
        phi=pt.aim.at_ball(system, target) + rng.uniform(-40, 40),
        a=rng.uniform(-0.5, 0.5),
        b=rng.uniform(-0.5, 0.5),
        theta=rng.uniform(0, 15),
    )
    return system


def request_template(xtask, system, resolver, work):
    """The protocol request our engine is sent for `system` under `resolver`: the System and
    the resolver saved as pooltool saves them, imported (`cargo xtask import-pooltool`: our
    table, ball parameters and laws, every `spacer` pooltool's) and simulated once through
    `exec:`, whose request `tee` keeps."""
    sys_path, res_path = os.path.join(work, "system.json"), os.path.join(work, "resolver.yaml")
    shot, req = os.path.join(work, "shot.toml"), os.path.join(work, "request.jsonl")
    for old in (shot, req):
        if os.path.exists(old):
            os.remove(old)
    system.save(sys_path)
    resolver.save(res_path)
    subprocess.run([xtask, "import-pooltool", sys_path, "--resolver", res_path, "--out", shot],
                   check=True, stdout=subprocess.DEVNULL)
    engine = f"exec:tee {req} | {xtask} simulate --serve"
    subprocess.run([xtask, "simulate", shot, "--engine", engine], check=True,
                   stdout=subprocess.DEVNULL)
    with open(req) as f:
        template = json.loads(f.readline())
    with open(shot) as f:
        return template, f.read()


def ours_of_ball(state):
    """A pooltool ball state (rvw, s) as the protocol's ball in our frame."""
    r, v, w = state.rvw
    return {
        "r": [float(r[1]), float(r[0]), float(r[2])],
        "v": [float(v[1]), float(v[0]), float(v[2])],
        "w": [-float(w[1]), -float(w[0]), -float(w[2])],
        "state": MOTION[int(state.s)],
    }


def our_agent(agent):
    """An agent's id as ours names it (pooltool's cushion "9" is our "c9")."""
    t = agent.agent_type.value
    return agent.id if t == "ball" else ("c" + agent.id if agent.id[:1].isdigit() else agent.id)


def collisions(name, system, theirs):
    """Every collision event of a pooltool run: the balls after the event before, the event,
    and the involved balls as pooltool reached it (`initial`) and left it (`final`)."""
    out = []
    ids = list(system.balls)
    for k, e in enumerate(system.events):
        if e.event_type.value not in COLLISIONS or k == 0:
            continue
        before = system.events[k - 1]
        balls = [e.agents[0]] + ([e.agents[1]] if e.event_type.value == "ball_ball" else [])
        out.append({
            "shot": name,
            "event": k,
            "kind": e.event_type.value,
            "agents": [our_agent(a) for a in e.agents],
            "dt": float(e.time) - float(before.time),
            "start": {b: system.balls[b].history[k - 1] for b in ids},
            "initial": {a.id: a.initial.state for a in balls},
            "final": {a.id: a.final.state for a in balls},
            "pooltools_own": (k in theirs),
        })
    return out


def difference(c, answer, R):
    """The involved balls' largest velocity or spin component difference (R w for spins), ours
    after the replay against pooltool's after the event, over their largest speed (|v| or
    R |w|) as pooltool reached the event."""
    ours = {b["id"]: b for b in answer["final_states"]}
    worst, scale = 0.0, 0.0
    for bid, final in c["final"].items():
        theirs = ours_of_ball(final)
        mine = ours[bid]
        worst = max(worst, *(abs(a - b) for a, b in zip(mine["v"], theirs["v"])),
                    *(R * abs(a - b) for a, b in zip(mine["w"], theirs["w"])))
        _, v, w = c["initial"][bid].rvw
        scale = max(scale, float(np.linalg.norm(v)), R * float(np.linalg.norm(w)))
    return worst / scale


def arrives_rolling(c, R):
    """The cushion event's ball reaches the cushion with zero cloth slip to rounding
    (|v + R k x w| < 1e-12 |v|): the slip direction Mathavan's cloth friction takes in its first
    step is then a rounding residual's."""
    (bid,) = c["initial"]
    _, v, w = c["initial"][bid].rvw
    slip = (v[0] - R * w[1], v[1] + R * w[0])
    return math.hypot(*slip) < 1e-12 * float(np.linalg.norm(v))


def perturbed(ball, eps):
    """The protocol's ball with v and w scaled by 1 + `eps` (a rolling ball stays rolling)."""
    return dict(ball, v=[x * (1 + eps) for x in ball["v"]], w=[x * (1 + eps) for x in ball["w"]])


def replay(xtask, template, cases, eps=0.0):
    """Our engine's answers to one request per case (one `simulate --serve` session), every
    ball's velocities scaled by 1 + `eps`."""
    lines = []
    for k, c in enumerate(cases):
        req = dict(template, id=k, shot=f"{c['shot']}#{c['event']}", t_end=None, max_events=1)
        req["balls"] = [perturbed(dict(id=b, **ours_of_ball(s)), eps)
                        for b, s in c["start"].items()]
        lines.append(json.dumps(req))
    done = subprocess.run([xtask, "simulate", "--serve"], input="\n".join(lines) + "\n",
                          capture_output=True, text=True, check=True)
    answers = [json.loads(a) for a in done.stdout.splitlines() if a.strip()]
    assert [a.get("id") for a in answers] == list(range(len(cases))), "answers out of order"
    return answers


def median_max(x):
    x = sorted(x)
    return (x[len(x) // 2], x[-1]) if x else (float("nan"), float("nan"))


def csv_rows(cases):
    """data/peers/laws/replay_mathavan_2010.csv: per collision, one row per ball state, in
    pooltool's frame: `start` (every ball after the event before), `initial` and `final` (the
    involved balls as pooltool reached and left the event); `dt` the event's time after the
    event before, `agents` our ids."""
    rows = []
    for c in cases:
        for role in ("start", "initial", "final"):
            for bid, s in c[role].items():
                rows.append({
                    "shot": c["shot"], "event": str(c["event"]), "kind": c["kind"],
                    "agents": " ".join(c["agents"]), "dt": c["dt"], "role": role, "id": bid,
                    "motion": str(int(s.s)), "r": vec(s.rvw[0]), "v": vec(s.rvw[1]),
                    "w": vec(s.rvw[2]),
                })
    return rows


def main():
    fixed_hash_seed()
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=36, help="carom runs per model set (36)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the first run (1)")
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
    ap.add_argument("--xtask", default=os.path.join(target, "release", "xtask"),
                    help="the built xtask binary (cargo build --release -p xtask)")
    ap.add_argument("--sets", default="default,han_2005,frictionless,mathavan")
    ap.add_argument("--perturb", type=float, default=0.0, metavar="EPS",
                    help="scale every ball's v and w by 1 + EPS before the replay: how each "
                         "law answers a relative input change EPS (default 0: pooltool's "
                         "states as they are)")
    ap.add_argument("--write", action="store_true",
                    help="write the mathavan set's replays to data/peers/laws/")
    args = ap.parse_args()
    watch = Interventions()
    work = tempfile.mkdtemp(prefix="pooltool-replay-")
    table = ["| model set | collisions replayed | next event not pooltool's | ball-ball max "
             "| cushion median | cushion max |", "| --- | --- | --- | --- | --- | --- |"]
    split = []
    try:
        for key in args.sets.split(","):
            label, resolver = model_sets()[key]
            engine = PhysicsEngine(resolver=resolver)
            cases, failed, template, shot = [], [], None, None
            for seed in range(args.seed, args.seed + args.runs):
                system = carom_run(seed)
                if template is None:
                    template, shot = request_template(args.xtask, system, resolver, work)
                watch.start()
                try:
                    pt.simulate(system, engine=engine, inplace=True, max_events=5000)
                except Exception as e:  # pooltool's own failures (mathavan_2010's solver)
                    failed.append(f"carom_{seed}: {type(e).__name__}: {e}")
                    continue
                pairs = [k for k, e in enumerate(system.events)
                         if e.event_type.value == "ball_ball"]
                theirs = {pairs[k] for k in watch.changed if k < len(pairs)}
                cases += collisions(f"carom_{seed}", system, theirs)
            for line in failed:
                print(f"{key}: pooltool failed on {line}; run left out", file=sys.stderr)
            R = template["model"]["radius"]
            answers = replay(args.xtask, template, cases, args.perturb)
            bb, cushion, rolling, sliding, other, own = [], [], [], [], [], 0
            kept = []
            for c, a in zip(cases, answers):
                first = a["events"][0] if a.get("events") else None
                if first is None or first["kind"] != c["kind"] or first["agents"] != c["agents"]:
                    other.append(f"{c['shot']} event {c['event']} {c['kind']} {c['agents']}: "
                                 f"ours {first}")
                    continue
                if c["pooltools_own"]:
                    own += 1
                    continue
                d = difference(c, a, R)
                kept.append(c)
                if c["kind"] == "ball_ball":
                    bb.append(d)
                else:
                    cushion.append(d)
                    (rolling if arrives_rolling(c, R) else sliding).append(d)
            (_, bb_max), (c_med, c_max) = median_max(bb), median_max(cushion)
            table.append(f"| {label} | {len(bb)} ball-ball, {len(cushion)} cushion | "
                         f"{len(other)} | {bb_max:.1e} | {c_med:.1e} | {c_max:.1e} |")
            for what, d in (("rolling", rolling), ("sliding", sliding)):
                m, x = median_max(d)
                off = sum(1 for y in d if y > 1e-8)
                split.append(f"{key}: {len(d)} cushion events arriving {what}: "
                             f"median {m:.1e}, max {x:.1e}, {off} above 1e-8")
            if own:
                split.append(f"{key}: {own} ball-ball events left out (pooltool's "
                             "resolve_continually_touching acted)")
            for line in other[:5]:
                split.append(f"{key}: next event not pooltool's: {line}")
            if args.write and key == "mathavan":
                write("replay_mathavan_2010", csv_rows(kept))
                lines = [line for line in shot.splitlines()
                         if not line.startswith("description =")]
                described = (f'description = "pooltool\'s carom run {args.seed} under '
                             'frictional_mathavan and mathavan_2010, imported '
                             '(benches/peers/pooltool_collision_replay.py): the laws, table '
                             'and balls of data/peers/laws/replay_mathavan_2010.csv"')
                with open(os.path.join(OUT, "replay_mathavan_2010.toml"), "w") as f:
                    f.write("\n".join([described, *lines]) + "\n")
            print(f"{key}: done ({len(cases)} collisions)", file=sys.stderr)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("\n".join(table))
    print()
    print("\n".join(split))


if __name__ == "__main__":
    main()
