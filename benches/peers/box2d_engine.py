#!/usr/bin/env python3
"""Box2D (2.3.10, pybox2d) as an engine of the harness (docs/engine-protocol.md):
`--engines box2d:<dt>`, built the way a game developer models a top-down pool table.

- Units: Box2D is tuned for moving objects of 0.1 to 10 units, so lengths are in decimetres
  (a ball is 0.57 units across): its fixed tolerances then mean a linear slop (overlap left
  uncorrected) of 0.5 mm, edges with a skin (b2_polygonRadius) of 1 mm, a restitution threshold
  (b2_velocityThreshold: slower impacts are perfectly inelastic) of 0.1 m/s and a largest move
  per step (b2_maxTranslation) of 0.2 m. Box2D computes in single precision (float32).
- Balls: dynamic discs of radius R and mass m with a sphere's moment of inertia 2/5 m R^2
  (about z), no gravity (the table is the plane of the simulation), sleeping off.
- Cushions: static edges (two-sided segments), static circles for circular cushions.
- Cloth: linear damping c (and the same angular damping), from peer_common.disc_damping (the
  fastest ball's initial deceleration on cloth over its speed); Box2D applies it as
  v <- v / (1 + c dt) each step. A disc is stopped when its speed falls below
  peer_common.DISC_STOP_SPEED (0.01 m/s), as a game puts a slow ball to sleep.
- Restitution and friction per contact, set when the contact begins (Box2D's default mixes
  the fixtures': friction sqrt(a b), restitution max(a, b)): ball-ball the ball-ball law's,
  ball-cushion the cushion law's (peer_common.Coefficients).
- Solver: 8 velocity and 3 position iterations (the manual's recommendation), continuous
  collision against static bodies (Box2D's default).
- Pockets: regions (a disc whose center enters a pocket's circle is pocketed and destroyed).

What it cannot represent: spin about a horizontal axis (topspin, draw), so no sliding: every
moving disc "rolls" (reported with w = k x v / R); no sliding-to-rolling transition, no follow or
draw after a collision, no cushion throw from spin; cloth friction proportional to speed
(damping) instead of constant.

Events: a contact when Box2D's BeginContact fires (tracked until EndContact); Box2D finds
contacts at the positions a step starts from, so the event is dated at the end of the previous
step (the first step whose end positions touch; one found by its continuous phase lies inside
the step after). Stops and pockets at the end of the step after which they hold.

Usage: python box2d_engine.py --dt 1e-3 < requests.jsonl
"""

import math

import peer_common as pc  # first: it keeps stdout for the answers

import Box2D as b2

SCALE = 10.0  # Box2D units per metre


class Listener(b2.b2ContactListener):
    def __init__(self, world):
        super().__init__()
        self.world = world

    def _key(self, contact):
        return pc.contact(contact.fixtureA.userData, contact.fixtureB.userData, self.world.ids)

    def BeginContact(self, contact):
        key = self._key(contact)
        e, mu = self.world.laws[key[0]]
        contact.restitution, contact.friction = e, mu
        self.world.touching.add(key)

    def EndContact(self, contact):
        self.world.touching.discard(self._key(contact))


class World:
    def __init__(self, shot, co, dt):
        self.dt = dt
        self.roll = 1.0 / co.R if co.cloth else 0.0
        self.laws = {"ball_ball": (co.e_ball, co.mu_ball),
                     "ball_linear_cushion": (co.e_cushion, co.mu_cushion),
                     "ball_circular_cushion": (co.e_jaw, co.mu_jaw)}
        self.ids = [b["id"] for b in shot["balls"]]
        self.touching = set()
        self.listener = Listener(self)
        w = self.world = b2.b2World(gravity=(0, 0), doSleep=False)
        w.contactListener = self.listener
        table = w.CreateStaticBody()
        for cu in shot["table"]["cushions"]:
            (x1, y1), (x2, y2) = cu["p1"], cu["p2"]
            f = table.CreateEdgeFixture(vertices=[(x1 * SCALE, y1 * SCALE), (x2 * SCALE, y2 * SCALE)])
            f.userData = ("ball_linear_cushion", cu["id"])
        for a in shot["table"].get("circular_cushions", []):
            f = table.CreateCircleFixture(radius=a["radius"] * SCALE,
                                          pos=(a["center"][0] * SCALE, a["center"][1] * SCALE))
            f.userData = ("ball_circular_cushion", a["id"])
        c = pc.disc_damping(shot, co)
        r = co.R * SCALE
        self.body = {}
        for b in shot["balls"]:
            if b["state"] == "pocketed":
                continue
            body = w.CreateDynamicBody(position=(b["r"][0] * SCALE, b["r"][1] * SCALE),
                                       linearDamping=c, angularDamping=c)
            f = body.CreateCircleFixture(radius=r, density=co.m / (math.pi * r * r))
            f.userData = ("ball", b["id"])
            body.massData = b2.b2MassData(mass=co.m, center=(0, 0), I=0.4 * co.m * r * r)
            body.linearVelocity = (b["v"][0] * SCALE, b["v"][1] * SCALE)
            body.angularVelocity = b["w"][2]
            self.body[b["id"]] = body

    def step(self):
        self.world.Step(self.dt, 8, 3)

    def contacts(self):
        return set(self.touching)

    def state(self, i):
        body = self.body[i]
        x, y = body.position
        vx, vy = body.linearVelocity
        x, y, vx, vy = x / SCALE, y / SCALE, vx / SCALE, vy / SCALE
        return [x, y], [vx, vy], [-vy * self.roll, vx * self.roll, body.angularVelocity]

    def remove(self, i):
        self.world.DestroyBody(self.body.pop(i))

    def unstable(self):
        return False

    def close(self):
        pass

    def stop(self, i):
        self.body[i].linearVelocity = (0.0, 0.0)
        self.body[i].angularVelocity = 0.0


ADAPTER = pc.FixedStep("box2d", lambda shot, co, dt, _: World(shot, co, dt), False,
                       lambda _: True)

if __name__ == "__main__":
    ADAPTER.main()
