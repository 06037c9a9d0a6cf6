#!/usr/bin/env python3
"""pymunk (7.3.1, Chipmunk2D) as an engine of the harness (docs/engine-protocol.md):
`--engines pymunk:<dt>`, built the way a game developer models a top-down pool table.

- Balls: discs of radius R and mass m, with a sphere's moment of inertia 2/5 m R^2 (about z),
  in metres and seconds, no gravity (the table is the plane of the simulation).
- Cushions: static segments (radius 0: their ends are round, so end points are part of them),
  static circles for circular cushions.
- Cloth: the space's damping, v' = -c v (pymunk multiplies velocities by damping^dt each step,
  damping = exp(-c)), with c from peer_common.disc_damping (the fastest ball's initial
  deceleration on cloth over its speed). A disc is stopped when its speed falls below
  peer_common.DISC_STOP_SPEED (0.01 m/s), as a game puts a slow ball to sleep.
- Restitution and friction per pair, set in collision handlers (pymunk's default combines the
  two shapes' by product): ball-ball the ball-ball law's, ball-cushion the cushion law's
  (peer_common.Coefficients).
- collision_slop (the overlap pymunk leaves uncorrected) 1e-4 m: its default, 0.1, is meant
  for pixels.
- Pockets: regions (a disc whose center enters a pocket's circle is pocketed and removed).

What it cannot represent: spin about a horizontal axis (topspin, draw: a disc has only z
spin), so no sliding: every moving disc "rolls" (it is reported rolling, with w = k x v / R);
no sliding-to-rolling transition, no follow or draw after a collision, no cushion throw from
spin; cloth friction proportional to speed (damping) instead of constant; no vertical
component of a cushion's impulse.

States are read once per step for every body with `pymunk.batch.get_space_bodies` (pymunk's
batch API: one call instead of three attribute reads per body). `engine_s` is the time inside
`Space.step`, the collision callbacks it makes (a few Python lines per contact's begin and
end) included.

Events: a contact when pymunk's `begin` callback fires (tracked until `separate`) (the first step whose end positions
touch: pymunk moves the bodies, then finds contacts), dated at the end of that step; stops and
pockets at the end of the step after which they hold.

Usage: python pymunk_engine.py --dt 1e-3 < requests.jsonl
"""

import math

import peer_common as pc  # first: it keeps stdout for the answers

import numpy as np
import pymunk
import pymunk.batch

BALL, CUSHION, JAW = 1, 2, 3
# What a step's one batch read gives per body (pymunk.batch: 5 floats in this order).
FIELDS = (pymunk.batch.BodyFields.BODY_ID | pymunk.batch.BodyFields.POSITION
          | pymunk.batch.BodyFields.VELOCITY | pymunk.batch.BodyFields.ANGULAR_VELOCITY)


class World:
    def __init__(self, shot, co, dt):
        self.dt = dt
        s = self.space = pymunk.Space()
        s.gravity = (0.0, 0.0)
        s.damping = math.exp(-pc.disc_damping(shot, co))
        s.collision_slop = 1e-4
        # The spin a rolling disc would have (w = k x v / R) is reported on cloth; none in the
        # ideal model.
        self.roll = 1.0 / co.R if co.cloth else 0.0
        self.touching = set()
        self.ids = [b["id"] for b in shot["balls"]]
        for cu in shot["table"]["cushions"]:
            seg = pymunk.Segment(s.static_body, tuple(cu["p1"]), tuple(cu["p2"]), 0.0)
            seg.collision_type, seg.agent = CUSHION, ("ball_linear_cushion", cu["id"])
            s.add(seg)
        for a in shot["table"].get("circular_cushions", []):
            circle = pymunk.Circle(s.static_body, a["radius"], tuple(a["center"]))
            circle.collision_type, circle.agent = JAW, ("ball_circular_cushion", a["id"])
            s.add(circle)
        self.body, self.ball_of = {}, {}
        # Every ball's state after a step, read once with pymunk.batch (one call for all the
        # bodies instead of three attribute reads per ball); None until asked for.
        self.batch, self.cached = pymunk.batch.Buffer(), None
        for b in shot["balls"]:
            if b["state"] == "pocketed":
                continue
            body = pymunk.Body(co.m, 0.4 * co.m * co.R ** 2)
            body.position = (b["r"][0], b["r"][1])
            body.velocity = (b["v"][0], b["v"][1])
            body.angular_velocity = b["w"][2]
            disc = pymunk.Circle(body, co.R)
            disc.collision_type, disc.agent = BALL, ("ball", b["id"])
            s.add(body, disc)
            self.body[b["id"]] = (body, disc)
            self.ball_of[body.id] = b["id"]

        def key(arbiter):
            x, y = arbiter.shapes
            return pc.contact(x.agent, y.agent, self.ids)

        def handlers(e, mu):
            def begin(arbiter, space, data):
                arbiter.restitution, arbiter.friction = e, mu
                self.touching.add(key(arbiter))

            def separate(arbiter, space, data):
                self.touching.discard(key(arbiter))
            return {"begin": begin, "separate": separate}

        s.on_collision(BALL, BALL, **handlers(co.e_ball, co.mu_ball))
        s.on_collision(BALL, CUSHION, **handlers(co.e_cushion, co.mu_cushion))
        s.on_collision(BALL, JAW, **handlers(co.e_jaw, co.mu_jaw))

    def step(self):
        self.space.step(self.dt)
        self.cached = None

    def contacts(self):
        # The pairs between pymunk's `begin` and `separate` callbacks.
        return set(self.touching)

    def state(self, i):
        if self.cached is None:
            self.batch.clear()
            pymunk.batch.get_space_bodies(self.space, FIELDS, self.batch)
            ids = np.frombuffer(self.batch.int_buf(), dtype=np.uintp).tolist()
            rows = np.frombuffer(self.batch.float_buf()).reshape(-1, 5).tolist()
            self.cached = {self.ball_of[b]: row for b, row in zip(ids, rows) if b in self.ball_of}
        x, y, vx, vy, wz = self.cached[i]
        return [x, y], [vx, vy], [-vy * self.roll, vx * self.roll, wz]

    def remove(self, i):
        self.space.remove(*self.body.pop(i))

    def unstable(self):
        return False

    def close(self):
        pass

    def stop(self, i):
        body, _ = self.body[i]
        body.velocity = (0.0, 0.0)
        body.angular_velocity = 0.0


ADAPTER = pc.FixedStep("pymunk", lambda shot, co, dt, _: World(shot, co, dt), False,
                       lambda _: False)

if __name__ == "__main__":
    ADAPTER.main()
