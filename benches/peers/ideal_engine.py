#!/usr/bin/env python3
"""A complete engine in the harness's protocol (docs/engine-protocol.md): the ideal model
(seeds 002/001: constant-velocity balls, elastic equal-mass collisions, mirror cushions, pocket
capture), solved event by event. Run it with
    cargo xtask compare data/shots/ideal_many.toml --engines "exec:python3 benches/peers/ideal_engine.py"
"""
import json, math, sys, time

def entry(a, b, c):
    """Earliest t >= 0 at which a t^2 + b t + c (a >= 0) falls through zero, or None."""
    if c <= 0:
        return 0.0 if b < 0 else None  # touching now: an event only if closing
    if b >= 0 or b * b - 4 * a * c < 0:
        return None
    return 2 * c / (-b + math.sqrt(b * b - 4 * a * c))  # the smaller root, without cancellation

def quad(p, v, q, reach):  # |p + v t - q|^2 - reach^2, for the ball at p moving at v
    d = (p[0] - q[0], p[1] - q[1])
    return v[0] ** 2 + v[1] ** 2, 2 * (d[0] * v[0] + d[1] * v[1]), d[0] ** 2 + d[1] ** 2 - reach ** 2

def simulate(shot):
    m = shot["model"]
    laws = m["laws"]
    if (m["motion"], laws["ball_ball"]["model"], laws["ball_linear_cushion"]) != (
        "frictionless", "frictionless_elastic", {"model": "unrealistic", "restitution": False}):
        return {"unsupported": "only the ideal model (frictionless motion, elastic balls, mirror cushions)"}
    R, table, balls = m["radius"], shot["table"], shot["balls"]
    t, t_end, events = 0.0, shot["t_end"], []
    limit = shot["max_events"] or 10**6
    while True:
        live = [i for i, b in enumerate(balls) if b["state"] != "pocketed"]
        moving = [i for i in live if balls[i]["state"] != "stationary"]
        if not moving:
            termination = "at_rest"; break
        if len(events) >= limit:
            termination = "budget"; break
        best = None  # (dt, kind, agents, what to do)
        def offer(dt, kind, agents, act):
            nonlocal best
            if dt is not None and (best is None or dt < best[0]):
                best = (dt, kind, agents, act)
        for i in moving:
            r, v = balls[i]["r"], balls[i]["v"]
            for j in live:
                if j != i and (j not in moving or j > i):
                    rj, vj = balls[j]["r"], balls[j]["v"]
                    dv = (v[0] - vj[0], v[1] - vj[1])
                    offer(entry(*quad(r, dv, rj, 2 * R)), "ball_ball", [balls[i]["id"], balls[j]["id"]], ("pair", i, j))
            for c in table["cushions"]:
                n, p1, p2 = c["normal"], c["p1"], c["p2"]
                dist, vn = n[0] * (r[0] - p1[0]) + n[1] * (r[1] - p1[1]) - R, n[0] * v[0] + n[1] * v[1]
                if dist >= -1e-9 and vn < 0:
                    dt = max(dist, 0.0) / -vn
                    seg = (p2[0] - p1[0], p2[1] - p1[1])
                    u = ((r[0] + v[0] * dt - p1[0]) * seg[0] + (r[1] + v[1] * dt - p1[1]) * seg[1]) / (seg[0] ** 2 + seg[1] ** 2)
                    if 0 <= u <= 1:
                        offer(dt, "ball_linear_cushion", [balls[i]["id"], c["id"]], ("mirror", i, (-n[0], -n[1])))
            for e in table["end_points"]:
                offer(entry(*quad(r, v, e["p"], R)), "ball_linear_cushion", [balls[i]["id"], e["cushion"]], ("point", i, e["p"]))
            for k in table["pockets"]:
                offer(entry(*quad(r, v, k["center"], k["radius"])), "ball_pocket", [balls[i]["id"], k["id"]], ("pocket", i, k))
        if best is None or (t_end is not None and t + best[0] > t_end):
            dt = (t_end - t) if t_end is not None else 0.0
            termination = "time_limit" if t_end is not None else "budget"
        else:
            dt = best[0]
        for i in moving:
            b = balls[i]
            b["r"] = [b["r"][0] + b["v"][0] * dt, b["r"][1] + b["v"][1] * dt, b["r"][2]]
        t += dt
        if best is None or dt != best[0]:
            break
        _, kind, agents, (what, i, x) = best
        b = balls[i]
        if what == "pair":
            o = balls[x]
            d = (o["r"][0] - b["r"][0], o["r"][1] - b["r"][1]); dn = math.hypot(*d); n = (d[0] / dn, d[1] / dn)
            k = (b["v"][0] - o["v"][0]) * n[0] + (b["v"][1] - o["v"][1]) * n[1]
            b["v"] = [b["v"][0] - k * n[0], b["v"][1] - k * n[1], 0.0]
            o["v"] = [o["v"][0] + k * n[0], o["v"][1] + k * n[1], 0.0]
            for s in (b, o):
                s["state"] = "stationary" if math.hypot(s["v"][0], s["v"][1]) < 1e-13 else "sliding"
        elif what in ("mirror", "point"):
            n = x if what == "mirror" else (x[0] - b["r"][0], x[1] - b["r"][1])
            nn = math.hypot(*n); n = (n[0] / nn, n[1] / nn)
            k = 2 * (b["v"][0] * n[0] + b["v"][1] * n[1])
            b["v"] = [b["v"][0] - k * n[0], b["v"][1] - k * n[1], 0.0]
        else:
            b.update(r=[x["center"][0], x["center"][1], R], v=[0.0, 0.0, 0.0], w=[0.0, 0.0, 0.0], state="pocketed")
        events.append({"time": t, "kind": kind, "agents": agents})
    final = [{k: b[k] for k in ("id", "r", "v", "w", "state")} for b in balls]
    return {"events": events, "final_states": final, "end_time": t, "termination": termination}

for line in sys.stdin:  # engine_s (optional): the seconds spent simulating, JSON excluded
    if line.strip():
        shot = json.loads(line); t0 = time.perf_counter_ns()
        answer = simulate(shot)
        answer.setdefault("engine_s", (time.perf_counter_ns() - t0) * 1e-9)
        print(json.dumps({**answer, "id": shot.get("id")}), flush=True)
