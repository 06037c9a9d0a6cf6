#!/usr/bin/env python3
"""python-billiards (0.5.0) as an engine of the harness (docs/engine-protocol.md):
`--engines billiards`. An event-driven 2D simulator of elastic discs: constant velocities,
exact times of impact, elastic collisions, obstacles (infinite walls, fixed disks).

- The `ideal` model only (frictionless motion, `frictionless_elastic` ball-ball, mirror
  cushions: `unrealistic` without restitution); any other model answers unsupported (it has no
  friction, spin, restitution or cloth).
- Tables: each straight cushion is an `InfiniteWall` through its segment with the playing side
  on its left, which is the cushion exactly when the cushions close a convex pocketless polygon
  (`rectangle_LxW`, `carom`); a table with pockets, circular cushions or a cushion line that
  cuts the playing area answers unsupported.
- Balls: discs of radius R and equal mass m at the request's positions and velocities.
- The run: billiards' own event loop (`bounce_ballball` / `bounce_ballobstacle`, the steps of
  `Billiard.evolve`), stopped at t_end or after max_events; every collision it resolves is one
  event at its time of impact. `engine_s` is the time inside those calls (and `evolve`); the
  loop choosing between them and the events' JSON are the adapter's. billiards offers no loop
  of its own that reports each collision (`evolve` resolves them silently), so this is its
  native way to be stepped event by event.

Usage: python billiards_engine.py < requests.jsonl
"""

import sys

import peer_common as pc  # first: it keeps stdout for the answers

import billiards
import numpy as np

# The most events a run without t_end and max_events makes before it stops with "budget"
# (ideal balls never stop).
MAX_EVENTS = 1_000_000


def unsupported_model(model):
    laws = model["laws"]
    if (model["motion"], laws["ball_ball"]["model"]) != ("frictionless", "frictionless_elastic"):
        return "billiards: only the ideal model (frictionless motion, elastic balls, mirror cushions)"
    for c in ("ball_linear_cushion", "ball_circular_cushion"):
        if laws[c]["model"] != "unrealistic" or laws[c].get("restitution"):
            return f"billiards: {c} must be a mirror (unrealistic without restitution)"
    return None


def walls_for(table):
    """The table's cushions as InfiniteWalls, or why they cannot be."""
    if table["pockets"] or table.get("circular_cushions"):
        return None, "billiards: only pocketless tables without circular cushions (walls are infinite lines)"
    walls = []
    for c in table["cushions"]:
        n, p1 = c["normal"], c["p1"]
        for other in table["cushions"]:
            for p in (other["p1"], other["p2"]):
                if n[0] * (p[0] - p1[0]) + n[1] * (p[1] - p1[1]) < -1e-12:
                    return None, (f"billiards: the line of cushion {c['id']!r} cuts the table "
                                  "(walls are infinite lines: convex tables only)")
        wall = billiards.InfiniteWall(tuple(c["p1"]), tuple(c["p2"]), inside="left")
        walls.append(wall)
    return walls, None


def simulate(shot):
    why = unsupported_model(shot["model"])
    walls, why = (None, why) if why else walls_for(shot["table"])
    if why:
        return {"unsupported": why}
    cushion_of = {id(w): c["id"] for w, c in zip(walls, shot["table"]["cushions"])}
    R, m = shot["model"]["params"]["R"], shot["model"]["params"]["m"]
    bil = billiards.Billiard(obstacles=walls)
    live = [b for b in shot["balls"] if b["state"] != "pocketed"]
    for b in live:
        bil.add_ball(tuple(b["r"][:2]), tuple(b["v"][:2]), radius=R, mass=m)
    t_end = shot["t_end"]
    limit = shot["max_events"] or MAX_EVENTS
    events, termination = [], None
    clock = pc.EngineClock()
    while termination is None:
        t_next = min(bil.toi_next[0], bil.obstacles_next[0])
        if t_end is not None and t_next > t_end:
            clock.call(bil.evolve, t_end)  # no collision before t_end: moves the balls there
            termination = "time_limit"
        elif t_next == float("inf"):
            # Nothing will ever collide: at rest, or moving forever on an open table.
            termination = "budget" if np.any(bil.balls_velocity != 0.0) else "at_rest"
        elif len(events) >= limit:
            termination = "budget"
        elif bil.toi_next[0] <= bil.obstacles_next[0]:
            t, i, j = clock.call(bil.bounce_ballball)
            events.append({"time": t, "kind": "ball_ball", "agents": [live[i]["id"], live[j]["id"]]})
        else:
            t, i, wall = clock.call(bil.bounce_ballobstacle)
            events.append({"time": t, "kind": "ball_linear_cushion",
                           "agents": [live[i]["id"], cushion_of[id(wall)]]})
    final = []
    for k, b in enumerate(live):
        x, y = (float(z) for z in bil.balls_position[k])
        vx, vy = (float(z) for z in bil.balls_velocity[k])
        moving = bool(np.any(bil.balls_velocity[k] != 0.0))
        final.append({"id": b["id"], "r": [x, y], "v": [vx, vy], "w": [0.0, 0.0, 0.0],
                      "state": "sliding" if moving else "stationary"})
    for b in shot["balls"]:
        if b["state"] == "pocketed":
            final.append({"id": b["id"], "r": b["r"][:2], "v": [0.0, 0.0], "w": [0.0, 0.0, 0.0],
                          "state": "pocketed"})
    return {"events": events, "final_states": final, "end_time": bil.time,
            "termination": termination, "ops": {"event": len(events)},
            "engine_s": clock.seconds()}


def main():
    if sys.argv[1:]:
        print(f"billiards_engine.py: takes no arguments (got {sys.argv[1:]})", file=sys.stderr)
        sys.exit(2)
    pc.serve(simulate, "billiards")


if __name__ == "__main__":
    main()
