#!/usr/bin/env python3
"""A fixed-step engine in the harness's protocol (docs/engine-protocol.md, "A time step"), as an
RL developer's simulator might be: explicit Euler at the dt each request carries (echoed in the
answer), events noticed at the end of the step. Its own crude model: discs decelerated by mu_s g
while sliding and mu_r g while rolling, elastic equal-mass ball-ball collisions, cushions that
reflect the normal velocity with restitution e_c, capture when a center is in a pocket's circle.
On the dt ladder:
    cargo xtask outcomes --schemes none --outcome-families cut \
        --engines "exec:dt=1e-2:name=euler:python3 benches/peers/euler_engine.py"
"""
import json, math, sys, time

def run(req):
    p = req["model"]["params"]; R, g, mu_s, mu_r, e_c = p["R"], p["g"], p["mu_s"], p["mu_r"], p["e_c"]
    dt = req["dt"]; t_end = req["t_end"]
    table = req["table"]
    balls = [{"id": b["id"], "x": b["r"][0], "y": b["r"][1], "vx": b["v"][0], "vy": b["v"][1],
              # rolling speed the spin would give: u = w x (R z) along the velocity
              "u": b["w"][1] * R if abs(b["v"][0]) >= abs(b["v"][1]) else -b["w"][0] * R,
              "state": b["state"]} for b in req["balls"]]
    events, t = [], 0.0
    touching = set()
    while True:
        live = [b for b in balls if b["state"] != "pocketed"]
        if all(math.hypot(b["vx"], b["vy"]) < 1e-3 for b in live):
            for b in live:
                if b["state"] != "stationary":
                    b["vx"] = b["vy"] = 0.0; b["state"] = "stationary"
            return events, balls, t, "at_rest"
        if t_end is not None and t + dt > t_end:
            return events, balls, t, "time_limit"
        t += dt
        for b in live:  # explicit Euler: friction against the motion
            s = math.hypot(b["vx"], b["vy"])
            if s < 1e-3:
                continue
            a = (mu_r if b["state"] == "rolling" else mu_s) * g
            k = max(0.0, 1 - a * dt / s)
            b["x"] += b["vx"] * dt; b["y"] += b["vy"] * dt
            b["vx"] *= k; b["vy"] *= k
            if b["state"] == "sliding" and abs(s - b["u"]) < mu_s * g * dt * 3.5:
                b["state"] = "rolling"; events.append({"time": t, "kind": "sliding_rolling", "agents": [b["id"]]})
            b["u"] += (s - b["u"]) * min(1.0, 2.5 * mu_s * g * dt / max(s, 1e-9))
        for i, b in enumerate(live):  # ball-ball at the step's end
            for o in live[i + 1:]:
                dx, dy = o["x"] - b["x"], o["y"] - b["y"]; d = math.hypot(dx, dy)
                key = (b["id"], o["id"])
                if d < 2 * R:
                    nx, ny = dx / d, dy / d
                    k = (b["vx"] - o["vx"]) * nx + (b["vy"] - o["vy"]) * ny
                    if k > 0 and key not in touching:
                        b["vx"] -= k * nx; b["vy"] -= k * ny; o["vx"] += k * nx; o["vy"] += k * ny
                        for s in (b, o):
                            s["state"] = "sliding"
                        events.append({"time": t, "kind": "ball_ball", "agents": [b["id"], o["id"]]})
                    touching.add(key)
                else:
                    touching.discard(key)
        for b in live:  # cushions and pockets
            for k in table["pockets"]:
                if math.hypot(b["x"] - k["center"][0], b["y"] - k["center"][1]) < k["radius"]:
                    b.update(x=k["center"][0], y=k["center"][1], vx=0.0, vy=0.0, state="pocketed")
                    events.append({"time": t, "kind": "ball_pocket", "agents": [b["id"], k["id"]]})
                    break
            if b["state"] == "pocketed":
                continue
            for c in table["cushions"]:
                n, p1, p2 = c["normal"], c["p1"], c["p2"]
                dist = n[0] * (b["x"] - p1[0]) + n[1] * (b["y"] - p1[1]) - R
                vn = n[0] * b["vx"] + n[1] * b["vy"]
                sx, sy = p2[0] - p1[0], p2[1] - p1[1]
                u = ((b["x"] - p1[0]) * sx + (b["y"] - p1[1]) * sy) / (sx * sx + sy * sy)
                if dist < 0 and vn < 0 and 0 <= u <= 1:
                    b["vx"] -= (1 + e_c) * vn * n[0]; b["vy"] -= (1 + e_c) * vn * n[1]
                    b["state"] = "sliding"
                    events.append({"time": t, "kind": "ball_linear_cushion", "agents": [b["id"], c["id"]]})

for line in sys.stdin:
    if not line.strip():
        continue
    req = json.loads(line); t0 = time.perf_counter_ns()
    events, balls, t, how = run(req)
    final = [{"id": b["id"], "r": [b["x"], b["y"]], "v": [b["vx"], b["vy"]], "w": [0, 0, 0],
              "state": b["state"]} for b in balls]
    print(json.dumps({"id": req["id"], "dt": req["dt"], "events": events, "final_states": final,
                      "end_time": t, "termination": how,
                      "engine_s": (time.perf_counter_ns() - t0) * 1e-9}), flush=True)
