#!/usr/bin/env python3
"""pooltool 0.6.0 as an engine of the harness (docs/engine-protocol.md): `--engines pooltool`.

Reads one shot per line of stdin (JSON request), simulates it with pooltool's event-based
engine, writes one answer per line (events, final states). What is mapped:

- Coordinates: pooltool runs a table's long side along y. Our frame (x along the long side) is
  turned by +90 degrees about z, (x, y) -> (W - y, x) with W our table's width, a proper
  rotation, so spins keep their meaning; answers are turned back.
- Table: our shot's own segments, as pooltool LinearCushionSegments (both sides checked) at our
  cushion heights, and our pockets; pooltool's linear segments have no end points, so each end a
  ball can touch is a CircularCushionSegment of radius 0 (its events are reported as
  ball_linear_cushion with the segment that ends there, as ours are); the shot's circular
  cushions (rounded jaws, `pooltool_*` tables) are CircularCushionSegments of their radius.
- Physics: the request's laws are pooltool's resolver.yaml entries verbatim (same model and
  parameter names, `cattrs`-structured into a Resolver); ball parameters by pooltool's names
  (mu_s -> u_s, mu_r -> u_r, mu_b -> u_b, mu_sp -> u_sp_proportionality = mu_sp / R).
  Frictionless motion (our `ideal` model) has no pooltool counterpart: declined as unsupported.
- Balls: positions, velocities, spins and motion states set directly at t = 0 (a cue strike
  arrives already applied).

pooltool moves a colliding pair 2R + 1e-6 m apart before resolving it, so its whole-shot times
drift from ours by about 1e-6 m / closing speed per collision; the harness's one-step agreement
restarts it from our states before every event to compare the algorithm without that drift.

A shot with a t_end (a one-step restart's ends just past the event it predicts) stops at it,
its balls evolved to t_end: pooltool's own `t_final` resolves the event that crosses it and
ends there, which the harness refuses as an answer past t_end (`simulate_until`).

`engine_s` is the time inside `pt.simulate` (or its loop, `simulate_until`) without numba's
start-up: the session's first shot
under each set of laws is simulated once, untimed, before its timed run (numba compiles
pooltool's functions, or loads them from its cache, on their first calls), and compiling that
still happens later is taken out as numba times it ("numba:compile" events;
`ops.numba_compile_ms` says how much). Building the System, the untimed run and turning frames
are the adapter's.

Usage: .venv-pooltool/bin/python benches/peers/pooltool_engine.py < requests.jsonl
"""

import peer_common as pc  # first: it keeps stdout for the answers

import json
import time

import numpy as np
import pooltool as pt
from numba.core import event as numba_event
from pooltool.events.datatypes import EventType
from pooltool.events.factory import null_event
from pooltool.evolution.event_based.config import INCLUDED_EVENTS
from pooltool.evolution.event_based.simulate import _SimulationState, get_next_event
from pooltool.objects.ball.datatypes import BallParams, BallState
from pooltool.objects.table.components import (
    CircularCushionSegment,
    CushionSegments,
    LinearCushionSegment,
    Pocket,
)
from pooltool.objects.table.specs import TableType
from pooltool.physics.engine import PhysicsEngine
from pooltool.physics.resolve.resolver import VERSION, Resolver
from pooltool.serialize import SerializeFormat, conversion

STATES = ["stationary", "spinning", "sliding", "rolling", "pocketed"]
# The sets of laws (JSON) this session has simulated once untimed (see `simulate`).
WARMED = set()
TRANSITIONS = {
    EventType.SLIDING_ROLLING,
    EventType.ROLLING_STATIONARY,
    EventType.ROLLING_SPINNING,
    EventType.SPINNING_STATIONARY,
}
# Events an answer leaves out (and a budget does not count): pooltool's markers and the strike.
UNREPORTED = (EventType.NONE, EventType.STICK_BALL)


class Frame:
    """Our table frame <-> pooltool's (long side along y): a +90 degree turn about z."""

    def __init__(self, width):
        self.w = width

    def point(self, p):
        return [self.w - p[1], p[0]] + list(p[2:])

    def vector(self, v):
        return [-v[1], v[0]] + list(v[2:])

    def point_back(self, p):
        return [p[1], self.w - p[0]] + list(p[2:])

    def vector_back(self, v):
        return [v[1], -v[0]] + list(v[2:])


def engine_for(model):
    """A PhysicsEngine with the request's laws, or the reason pooltool cannot run them."""
    if model["motion"] != "cloth":
        return None, f"pooltool has no {model['motion']} motion (only seed 004's cloth)"
    laws = dict(model["laws"], version=VERSION)
    try:
        resolver = conversion[SerializeFormat.YAML].structure(laws, Resolver)
    except Exception as e:  # cattrs reports unknown models and parameters this way
        return None, f"pooltool 0.6.0 cannot build these laws: {type(e).__name__}: {e}"
    return PhysicsEngine(resolver=resolver), None


def params_for(p):
    return BallParams(
        m=p["m"], R=p["R"], u_s=p["mu_s"], u_r=p["mu_r"], u_b=p["mu_b"],
        u_sp_proportionality=p["mu_sp"] / p["R"], e_b=p["e_b"], e_c=p["e_c"], f_c=p["f_c"],
        g=p["g"],
    )


def system_for(shot, frame):
    """The pooltool System of a request, and pooltool's circular-segment ids -> our cushion ids."""
    t = shot["table"]
    linear, circular, corner_of = {}, {}, {}
    for c in t["cushions"]:
        h = c["height"]
        p1, p2 = frame.point(c["p1"]), frame.point(c["p2"])
        linear[c["id"]] = LinearCushionSegment(
            c["id"], p1=np.array([p1[0], p1[1], h]), p2=np.array([p2[0], p2[1], h])
        )
    heights = {c["id"]: c["height"] for c in t["cushions"]}
    for k, e in enumerate(t["end_points"]):
        cid = f"{e['cushion']}#end{k}"
        p = frame.point(e["p"])
        circular[cid] = CircularCushionSegment(
            cid, center=np.array([p[0], p[1], heights[e["cushion"]]]), radius=0.0
        )
        corner_of[cid] = e["cushion"]
    for a in t.get("circular_cushions", []):
        c = frame.point(a["center"])
        circular[a["id"]] = CircularCushionSegment(
            a["id"], center=np.array([c[0], c[1], a["height"]]), radius=a["radius"]
        )
    pockets = {}
    for q in t["pockets"]:
        c = frame.point(q["center"])
        pockets[q["id"]] = Pocket(q["id"], center=np.array([c[0], c[1], 0.0]), radius=q["radius"])
    table = pt.Table(
        cushion_segments=CushionSegments(linear=linear, circular=circular),
        pockets=pockets,
        table_type=TableType.OTHER,
    )
    params = params_for(shot["model"]["params"])
    balls = {}
    for b in shot["balls"]:
        rvw = np.array([frame.point(b["r"]), frame.vector(b["v"]), frame.vector(b["w"])], float)
        balls[b["id"]] = pt.Ball(
            b["id"], state=BallState(rvw=rvw, s=STATES.index(b["state"]), t=0.0), params=params
        )
    cue = pt.Cue(cue_ball_id=shot["balls"][0]["id"])
    return pt.System(cue=cue, table=table, balls=balls), corner_of


def simulate_until(system, engine, t_end, limit):
    """pt.simulate, except that a shot with a t_end stops at it: pooltool's own t_final resolves
    the event that crosses t_final and ends after it, where a restart asks for the states at
    t_end (a one-step restart's t_end is just past the event it predicts). This is
    pt.simulate's loop (pooltool 0.6.0, evolution/event_based/simulate.py) with two changes:
    the next event is looked at before it is resolved, and one past t_end is not (the balls are
    evolved to t_end instead); and a budget of `limit` events ends after the limit-th event the
    answer reports, the balls as that event left them."""
    if t_end is None:
        return pt.simulate(system, engine=engine, inplace=True, max_events=limit or 0)
    # The loop below keeps the budget itself: pooltool's max_events is left off (0).
    sim = _SimulationState(system, engine, None, INCLUDED_EVENTS, 0)
    sim.init()
    reported = 0
    while not sim.done:
        shot = sim.shot
        event = get_next_event(shot, transition_cache=sim.transition_cache,
                               collision_cache=sim.collision_cache)
        if event.time == np.inf:
            shot._update_history(null_event(time=shot.t))
            break
        if event.time > t_end:
            sim.evolve(shot, t_end - shot.t)
            shot._update_history(null_event(time=t_end))
            break
        sim.evolve(shot, event.time - shot.t)
        if event.event_type in sim.include:
            sim.engine.resolver.resolve(shot, event)
        shot._update_history(event)
        if event.event_type not in UNREPORTED:
            reported += 1
        if limit and reported >= limit:
            # The budget's last event, its states as resolved: pooltool's own max_events stops
            # every ball instead (stop_balls, a pocketed ball's state included), which leaves
            # states no engine reached.
            shot._update_history(null_event(time=shot.t))
            break
        sim.update_caches(event)
    return sim.shot


def simulate(shot):
    engine, why = engine_for(shot["model"])
    if engine is None:
        return {"unsupported": why}
    frame = Frame(shot["table"]["width"])
    system, corner_of = system_for(shot, frame)
    t_end, limit = shot["t_end"], shot["max_events"]
    # engine_s: the time inside pt.simulate without numba's start-up. pooltool's laws are numba
    # functions, compiled or loaded from numba's cache on their first call in a process: the
    # session's first shot under each set of laws is simulated once untimed first (a copy),
    # and any compiling left over (code paths that copy did not reach) is taken out as numba
    # reports it ("numba:compile" events).
    laws = json.dumps(shot["model"]["laws"], sort_keys=True)
    if laws not in WARMED:
        WARMED.add(laws)
        simulate_until(system.copy(), engine, t_end, limit)
    compiling = []
    with numba_event.install_timer("numba:compile", compiling.append):
        t0 = time.perf_counter_ns()
        out = simulate_until(system, engine, t_end, limit)
        simulate_s = (time.perf_counter_ns() - t0) * 1e-9
    engine_s = max(simulate_s - sum(compiling), 0.0)
    events = []
    for e in out.events:
        kind = e.event_type
        if kind in UNREPORTED:
            continue
        ids = list(e.ids)
        if kind == EventType.BALL_CIRCULAR_CUSHION and ids[1] in corner_of:
            kind, ids = EventType.BALL_LINEAR_CUSHION, [ids[0], corner_of[ids[1]]]
        elif kind in TRANSITIONS:
            ids = ids[:1]
        events.append({"time": float(e.time), "kind": str(kind), "agents": ids})
        if limit and len(events) >= limit:
            break
    R = shot["model"]["params"]["R"]
    final = []
    for b in shot["balls"]:
        ball = out.balls[b["id"]]
        r, v, w = (frame.point_back([float(x) for x in row]) if i == 0
                   else frame.vector_back([float(x) for x in row])
                   for i, row in enumerate(ball.state.rvw))
        state = STATES[int(ball.state.s)]
        if state == "pocketed":
            r[2] = R  # pooltool drops a pocketed ball into the pocket; ours stays at z = R
        final.append({"id": b["id"], "r": r, "v": v, "w": w, "state": state})
    end = float(out.t)
    if limit and len(events) >= limit:
        termination = "budget"
    elif t_end is not None and end >= t_end:
        termination = "time_limit"
    else:
        termination = "at_rest"
    return {"events": events, "final_states": final, "end_time": max(end, events[-1]["time"] if events else 0.0),
            "termination": termination, "engine_s": engine_s,
            "ops": {"numba_compile_ms": round(sum(compiling) * 1e3)}}


def main():
    pc.serve(simulate, "pooltool")


if __name__ == "__main__":
    main()
