#!/usr/bin/env python3
"""FastFiz (P6-Pool/fastfiz 2c1c920, the Computational Pool tournaments' C++ event engine, through
its SWIG binding) as an engine of the harness (docs/engine-protocol.md, docs/fastfiz.md):
`--engines fastfiz`.

- Shots on the `fastfiz` table under the `fastfiz` preset only (FastFiz's table, constants and
  laws are compiled in); anything else answers unsupported with one line.
- FastFiz starts every shot with a cue strike (`TableState.executeShot(ShotParams)`) on a table
  whose other balls are at rest. A request with one moving ball and the rest at rest is played
  by finding the strike (a, b, theta, phi, V) that gives that ball its velocity and spin
  (Leckie & Greenspan's equations (1)-(3), inverted), and checking that FastFiz's own strike
  gives back the request's state to 1e-9; a request with two moving balls (a one-step restart
  after a collision) cannot be set up and answers unsupported.
- Frames: our x runs along the table's length, FastFiz's along its width: FastFiz's
  (x, y) = (W - our y, our x) with W = 1.116 m, a rotation (spins keep their sign).
- Events: FastFiz's event list (its ball data after each event): ball collisions, rail
  collisions (its six rails as our `rail_*` cushions), pocketed (its six pockets as our pocket
  ids) and state changes (as our transitions: sliding -> rolling ...); the cue strike is the
  harness's `stick_ball`. Final states: the table after the shot, a pocketed ball at our pocket's
  center (our canonical capture's convention).
- `engine_s`: the time of the `executeShot` call alone. Its speed beside our event engine is
  measured by benches/peers/fastfiz_bench.py (`cargo xtask
  bench-peers`), which sets shots up with this adapter's `prepare` and `table_state`.

Usage: python fastfiz_engine.py < requests.jsonl
"""

import math
import sys
import time

import peer_common as pc  # first: it keeps stdout for the answers

import fastfiz as ff

WIDTH = ff.Table.TABLE_WIDTH  # 1.116 m: our y range, FastFiz's x range
# FastFiz's strike constants (FastFiz.h): ball mass in grams, the cue's mass, I in g m^2.
BALL_MASS_G = 163.01
CUE_MASS_G = ff.Table.CUE_MASS
INERTIA = ff.Table.I
C1 = 0.999425
RADIUS = 0.028575

RAILS = {
    ff.Table.S_RAIL: "rail_l", ff.Table.N_RAIL: "rail_r",
    ff.Table.SW_RAIL: "rail_t1", ff.Table.NW_RAIL: "rail_t2",
    ff.Table.SE_RAIL: "rail_b1", ff.Table.NE_RAIL: "rail_b2",
}
POCKETS = {
    ff.Table.SW: "lt", ff.Table.W: "ct", ff.Table.NW: "rt",
    ff.Table.NE: "rb", ff.Table.E: "cb", ff.Table.SE: "lb",
}
STATES = {
    ff.Ball.STATIONARY: "stationary", ff.Ball.SPINNING: "spinning",
    ff.Ball.SLIDING: "sliding", ff.Ball.ROLLING: "rolling",
}
for _p in ("SW", "W", "NW", "NE", "E", "SE"):
    STATES[getattr(ff.Ball, "POCKETED_" + _p)] = "pocketed"


def to_ff(v):
    """A vector of our frame in FastFiz's (rotated by +90 degrees)."""
    return (-v[1], v[0], v[2] if len(v) > 2 else 0.0)


def from_ff(v):
    """A vector of FastFiz's frame in ours."""
    return (v.y, -v.x, v.z)


def at_rest(i, r, state):
    """A ball's final state in the answer, not moving: `r` on the cloth, `state` stationary or
    pocketed."""
    return {"id": i, "r": list(r[:2]), "v": [0.0, 0.0], "w": [0.0, 0.0, 0.0], "state": state}


def moved(i, ball, state):
    """A ball's final state in the answer from FastFiz's `ball` (its frame turned to ours)."""
    p, v, w = ball.getPos(), from_ff(ball.getVelocity()), from_ff(ball.getSpin())
    return {"id": i, "r": [p.y, WIDTH - p.x], "v": list(v[:2]), "w": list(w), "state": state}


def unsupported_model(model, table):
    if model.get("preset") != "fastfiz" or model["motion"] != "fastfiz":
        return "fastfiz: only the fastfiz preset (FastFiz's laws are compiled into it)"
    laws = model["laws"]
    for event in ("ball_ball", "ball_linear_cushion", "stick_ball"):
        if laws[event]["model"] != "fastfiz" or len(laws[event]) != 1 + len(DEFAULTS[event]) \
                or any(laws[event].get(k) != v for k, v in DEFAULTS[event].items()):
            return f"fastfiz: {event} must be the fastfiz law with FastFiz's parameters"
    p = model["params"]
    want = {"m": 0.16301, "R": RADIUS, "mu_s": ff.Table.MU_SLIDING, "mu_r": ff.Table.MU_ROLLING,
            "mu_sp": ff.Table.MU_SPINNING, "mu_b": 0.01, "g": ff.Table.g}
    for k, v in want.items():
        if abs(p[k] - v) > 1e-12 * abs(v):
            return f"fastfiz: params.{k} = {p[k]}: FastFiz's is {v}"
    if table["name"] != "fastfiz":
        return "fastfiz: only the fastfiz table (FastFiz's table is compiled in)"
    return None


DEFAULTS = {
    "ball_ball": {"inertia_scale": 1.000575, "drop_spin_at_rest": True, "roll_moving_target": True},
    "ball_linear_cushion": {"parallel": 0.9, "perpendicular": 0.9, "spin": 0.1},
    "stick_ball": {"cue_mass": 0.6, "c1": 0.999425, "inertia_mass": 0.160 * 0.995473},
}


def strike_for(v, w):
    """The ShotParams (a, b in mm as FastFiz takes them, theta and phi in degrees, V in m/s)
    whose strike gives a ball at rest velocity `v` and spin `w` (FastFiz's frame), or why none
    does. Inverts CueStrikeEvent::doHandle: F cos(theta) = m |v|; in the ball's frame
    (i left, j back, k up) w = (-c F sin + b F cos, a F sin, -a F cos) / I."""
    speed = math.hypot(v[0], v[1])
    if speed == 0.0:
        return None, "fastfiz: the moving ball has no speed (FastFiz's strike always moves it)"
    phi = math.degrees(math.atan2(v[1], v[0]))
    turn = math.radians(phi + 90.0)
    cs, sn = math.cos(turn), math.sin(turn)
    wi = cs * w[0] + sn * w[1]
    wj = -sn * w[0] + cs * w[1]
    wk = w[2]
    fc = BALL_MASS_G * speed  # F cos(theta)
    a = -wk * INERTIA / fc
    if abs(a) > 1e-15:
        fs = wj * INERTIA / a  # F sin(theta)
    elif abs(wj) * INERTIA > 1e-12 * fc:
        return None, "fastfiz: spin about the direction of travel without side offset"
    else:
        fs = 0.0
    if -1e-9 * fc < fs < 0.0:  # a level stroke, up to the rounding of the spin's components
        fs = 0.0
    theta = math.degrees(math.atan2(fs, fc))
    if fs < 0.0:
        return None, f"fastfiz: the spin needs a cue elevation of {theta:.3g} degrees"
    b = 0.0
    for _ in range(60):  # b from wi I = -c F sin + b F cos, c = sqrt(R^2 - a^2 - b^2)
        c = math.sqrt(max(RADIUS ** 2 - a * a - b * b, 0.0))
        nb = (wi * INERTIA + c * fs) / fc
        if abs(nb - b) <= 1e-17:
            b = nb
            break
        b = nb
    c2 = RADIUS ** 2 - a * a - b * b
    if c2 <= 0.0:
        return None, "fastfiz: the spin needs the cue to miss the ball (a^2 + b^2 >= R^2)"
    c = math.sqrt(c2)
    st, ct = math.sin(math.radians(theta)), math.cos(math.radians(theta))
    denom = 1 + BALL_MASS_G / CUE_MASS_G + C1 * (5.0 / (2.0 * RADIUS * RADIUS)) * (
        a * a + b * b * ct * ct + c * c * st * st - 2 * b * c * ct * st)
    force = math.hypot(fc, fs)
    speed_v = force * denom / (2 * BALL_MASS_G)
    return ff.ShotParams(-a * 1000.0, b * 1000.0, theta, phi % 360.0, speed_v), None


def close(got, want):
    scale = max(1.0, max(abs(x) for x in want))
    return all(abs(g - x) <= 1e-9 * scale for g, x in zip(got, want))


def prepare(shot):
    """The shot as FastFiz plays it: `(game, None)` with `game` the balls in FastFiz's order
    (the moving ball first, as its cue ball) and the strike, or `(None, answer)` when the
    answer needs no run (declined, or nothing moves)."""
    why = unsupported_model(shot["model"], shot["table"])
    if why:
        return None, {"unsupported": why}
    balls = shot["balls"]
    live = [b for b in balls if b["state"] != "pocketed"]
    moving = [b for b in live if b["state"] != "stationary"]
    if len(live) > 16:
        return None, {"unsupported": f"fastfiz: {len(live)} balls on the table: FastFiz has 16"}
    if not moving:
        return None, {"events": [], "final_states": [at_rest(b["id"], b["r"], b["state"])
                                                     for b in balls],
                      "end_time": 0.0, "termination": "at_rest"}
    if len(moving) > 1 or moving[0]["state"] == "spinning":
        return None, {"unsupported": "fastfiz: every shot starts with a cue strike on a table at "
                                     "rest (one ball sliding or rolling, the others stationary)"}
    cue = moving[0]
    order = [cue] + [b for b in live if b is not cue]
    sp, why = strike_for(to_ff(cue["v"]), to_ff(cue["w"]))
    if why:
        return None, {"unsupported": why}
    game = {"order": order, "strike": sp, "cue": cue}
    bad = table_state(game).isPhysicallyPossible(sp)
    if bad != ff.TableState.OK_PRECONDITION:
        return None, {"unsupported": f"fastfiz: isPhysicallyPossible = {bad} for the strike "
                                     f"(a {sp.a:.6g} mm, b {sp.b:.6g} mm, theta {sp.theta:.6g}, "
                                     f"phi {sp.phi:.6g}, V {sp.v:.6g})"}
    return game, None


# FastFiz refuses a strike whose 1.45 m stick would pass through a rail or a ball
# (`isPhysicallyPossible`'s CUE_STICK_COLLISION): a level cue behind a ball anywhere near a rail.
# The harness's shots start from the struck ball's state (our strike law made it), with no stick
# to collide, so the adapter shortens FastFiz's stick to 1 mm; the strike itself does not read
# the stick's length.
CUE_LENGTH = 0.001


def table_state(game):
    """A fresh TableState with the game's balls at rest (FastFiz's frame) and a 1 mm stick."""
    ts = ff.TableState()
    ts.getTable().setCueLength(CUE_LENGTH)
    for k, b in enumerate(game["order"]):
        ts.setBall(k, ff.Ball.STATIONARY, ff.Point(WIDTH - b["r"][1], b["r"][0]))
    for k in range(len(game["order"]), 16):
        ts.setBall(k, ff.Ball.NOTINPLAY, ff.Point(0.0, 0.0))
    return ts


def simulate(shot):
    game, answer = prepare(shot)
    if answer is not None:
        return answer
    balls, order, cue = shot["balls"], game["order"], game["cue"]
    ts = table_state(game)
    try:
        t0 = time.perf_counter_ns()
        result = ts.executeShot(game["strike"])
        engine_s = (time.perf_counter_ns() - t0) * 1e-9
    except Exception as e:  # FastFiz's BadShotException (an event loop past 5000 events)
        return {"error": f"fastfiz: executeShot raised {type(e).__name__}: {e}"}
    ids = [b["id"] for b in order]
    rank = {b["id"]: k for k, b in enumerate(balls)}
    state = {i: ("sliding" if k == 0 else "stationary") for k, i in enumerate(ids)}
    events = []
    first_data = {}  # the balls of the first event after it, by id: (r, v, w, state) ours
    for e in result.getEventList():
        kind, t = e.getType(), e.getTime()
        if kind == ff.Event.CUE_STRIKE:
            d = e.getBall1Data()
            got = (*from_ff(d.getVelocity())[:2], *from_ff(d.getSpin()))
            want = (cue["v"][0], cue["v"][1], *cue["w"])
            if not close(got, want):
                return {"unsupported": f"fastfiz: its strike gives {got}, not the shot's {want}"}
            state[ids[0]] = STATES.get(d.getState(), "sliding")
            continue
        i = ids[e.getBall1()]
        if not events:
            first_data[i] = e.getBall1Data()
            if kind == ff.Event.BALL_COLLISION:
                first_data[ids[e.getBall2()]] = e.getBall2Data()
        if kind == ff.Event.BALL_COLLISION:
            j = ids[e.getBall2()]
            pair = sorted([i, j], key=rank.get)
            events.append({"time": t, "kind": "ball_ball", "agents": pair})
            for k, data in ((i, e.getBall1Data()), (j, e.getBall2Data())):
                state[k] = STATES.get(data.getState(), state[k])
        elif kind == ff.Event.RAIL_COLLISION:
            rail = ff.eventToRailCollisionEvent(e).getRail()
            events.append({"time": t, "kind": "ball_linear_cushion", "agents": [i, RAILS[rail]]})
            state[i] = STATES.get(e.getBall1Data().getState(), state[i])
        elif kind == ff.Event.POCKETED:
            pocket = ff.eventToPocketedEvent(e).getPocket()
            events.append({"time": t, "kind": "ball_pocket", "agents": [i, POCKETS[pocket]]})
            state[i] = "pocketed"
        elif kind == ff.Event.STATE_CHANGE:
            new = STATES.get(e.getBall1Data().getState(), state[i])
            transition = pc.TRANSITIONS.get((state[i], new))
            if transition:
                events.append({"time": t, "kind": transition, "agents": [i]})
            state[i] = new
    centers = {q["id"]: q["center"] for q in shot["table"]["pockets"]}
    limit, t_end = shot["max_events"], shot["t_end"]
    if (limit and len(events) > limit) or (t_end is not None and events and events[-1]["time"] > t_end):
        return {**first_event(shot, events, first_data, centers, limit, t_end), "engine_s": engine_s}
    pocket_of = {ev["agents"][0]: ev["agents"][1] for ev in events if ev["kind"] == "ball_pocket"}
    final = []
    for k, i in enumerate(ids):
        bl = ts.getBall(k)
        st = STATES.get(bl.getState(), "stationary")
        final.append(at_rest(i, centers[pocket_of[i]], st) if st == "pocketed" else moved(i, bl, st))
    final += [at_rest(b["id"], b["r"], "pocketed") for b in balls if b["state"] == "pocketed"]
    end = events[-1]["time"] if events else 0.0
    return {"events": events, "final_states": final, "end_time": end, "termination": "at_rest",
            "ops": {"event": len(events)}, "engine_s": engine_s}


def first_event(shot, events, first_data, centers, limit, t_end):
    """The answer of a run stopped after its first event (the one-step restarts: `max_events`
    1 and a `t_end` just past the event), or unsupported when the stop is elsewhere. Until the
    first event only the struck ball moves, so every ball's state then is known: the event's
    balls from FastFiz's data after it, the others where they were, at rest."""
    if not events or (t_end is not None and events[0]["time"] > t_end):
        return {"unsupported": "fastfiz: executeShot runs to rest; it cannot stop before its "
                               "first event"}
    if limit != 1:
        return {"unsupported": "fastfiz: executeShot runs to rest; it can stop only after its "
                               "first event (max_events 1)"}
    ev = events[0]
    final = []
    for b in shot["balls"]:
        d = first_data.get(b["id"])
        if d is None:
            final.append(at_rest(b["id"], b["r"], b["state"]))
        elif ev["kind"] == "ball_pocket":
            final.append(at_rest(b["id"], centers[ev["agents"][1]], "pocketed"))
        else:
            final.append(moved(b["id"], d, STATES.get(d.getState(), "sliding")))
    return {"events": [ev], "final_states": final, "end_time": ev["time"],
            "termination": "budget", "ops": {"event": 1}}


def main():
    if sys.argv[1:]:
        print(f"fastfiz_engine.py: takes no arguments (got {sys.argv[1:]})", file=sys.stderr)
        sys.exit(2)
    pc.serve(simulate, "fastfiz")


if __name__ == "__main__":
    main()
