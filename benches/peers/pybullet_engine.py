#!/usr/bin/env python3
"""PyBullet (3.2.7) as an engine of the harness (docs/engine-protocol.md): `--engines
pybullet:<dt>`, built the way a robotics user models a pool table.

- Balls: spheres of radius R and mass m (Bullet's solid-sphere inertia 2/5 m R^2), set at the
  request's positions, velocities and spins; pybullet's default damping (0.04) off.
- Cloth: a static plane at z = 0; cushions: static boxes behind each straight segment from the
  cloth up to the cushion height, and vertical cylinders for circular cushions.
- Friction and restitution: Bullet combines two bodies' coefficients (lateral friction and
  restitution: the product; rolling and spinning friction: rolling_a friction_b + rolling_b
  friction_a) and has no per-pair setting in pybullet, so each body's value is chosen for the
  products to be the shot's: ball friction eps = 1e-3 (ball-ball friction eps^2 ~ 1e-6 when the
  ball-ball law has none; sqrt(mu_b) when it has), cloth mu_s / eps with rolling 7/5 R mu_r / eps
  and spinning mu_sp R / eps (lengths: the resisting torque per newton of normal force, which
  give the seed's rolling and spin decelerations), cushion f_c / eps; ball restitution
  sqrt(e_b), cushion e_c / sqrt(e_b), cloth 0. Restitution applies above pybullet's
  restitutionVelocityThreshold, set to 1e-3 m/s (its default 0.2 m/s is for metre-sized bodies).
  contactProcessingThreshold 0 on every body: Bullet otherwise solves contacts it finds up to
  2 cm before the touch as speculative ones, without restitution (at dt = 1e-4 a ball meeting
  a cushion at 1 m/s then stops dead).
- Time step dt, one substep, pybullet's default solver (sequential impulses, 50 iterations).
- Pockets: regions (a ball whose center enters a pocket's circle is pocketed and removed).

Events: a contact when a pair first appears in getContactPoints() with distance <= 0; Bullet
finds contacts at the positions a step starts from, so the event is dated at the end of the
previous step (the first step whose end positions touch). Transitions:
peer_common.SpinClassifier. Frictionless motion (`ideal`): a frictionless plane.

Usage: python pybullet_engine.py --dt 1e-3 < requests.jsonl
"""

import math

import peer_common as pc  # first: it keeps stdout for the answers (pybullet prints on fd 1)

import pybullet as pb

EPS = 1e-3
CUSHION_THICKNESS = 0.05


class World:
    def __init__(self, shot, co, dt):
        self.c = pb.connect(pb.DIRECT)
        c = self.c
        pb.setGravity(0, 0, -co.g, physicsClientId=c)
        pb.setPhysicsEngineParameter(fixedTimeStep=dt, numSubSteps=0,
                                     restitutionVelocityThreshold=1e-3, physicsClientId=c)
        f_ball = math.sqrt(co.mu_ball) if co.mu_ball > 0 else EPS
        e_ball = math.sqrt(co.e_ball)
        self.what = {}
        # The cloth; frictionless in the ideal model, whose balls slide at constant velocity.
        k = 1.0 if co.cloth else 0.0
        plane = pb.createMultiBody(0, pb.createCollisionShape(pb.GEOM_PLANE, physicsClientId=c),
                                   physicsClientId=c)
        pb.changeDynamics(plane, -1, lateralFriction=k * co.mu_s / f_ball,
                          rollingFriction=k * co.rolling_resistance_length() / f_ball,
                          spinningFriction=k * co.spinning_resistance_length() / f_ball,
                          restitution=0.0, contactProcessingThreshold=0.0, physicsClientId=c)
        for cu in shot["table"]["cushions"]:
            (x1, y1), (x2, y2), n = cu["p1"], cu["p2"], cu["normal"]
            length, h = math.hypot(x2 - x1, y2 - y1), cu["height"]
            shape = pb.createCollisionShape(
                pb.GEOM_BOX, halfExtents=[length / 2, CUSHION_THICKNESS / 2, h / 2], physicsClientId=c)
            pos = [(x1 + x2) / 2 - n[0] * CUSHION_THICKNESS / 2,
                   (y1 + y2) / 2 - n[1] * CUSHION_THICKNESS / 2, h / 2]
            quat = pb.getQuaternionFromEuler([0, 0, math.atan2(y2 - y1, x2 - x1)])
            body = pb.createMultiBody(0, shape, basePosition=pos, baseOrientation=quat,
                                      physicsClientId=c)
            pb.changeDynamics(body, -1, lateralFriction=co.mu_cushion / f_ball,
                              contactProcessingThreshold=0.0,
                              restitution=co.e_cushion / e_ball, physicsClientId=c)
            self.what[body] = ("ball_linear_cushion", cu["id"])
        for a in shot["table"].get("circular_cushions", []):
            h = a["height"]
            shape = pb.createCollisionShape(pb.GEOM_CYLINDER, radius=a["radius"], height=h,
                                            physicsClientId=c)
            body = pb.createMultiBody(0, shape, basePosition=[a["center"][0], a["center"][1], h / 2],
                                      physicsClientId=c)
            pb.changeDynamics(body, -1, lateralFriction=co.mu_jaw / f_ball,
                              contactProcessingThreshold=0.0,
                              restitution=co.e_jaw / e_ball, physicsClientId=c)
            self.what[body] = ("ball_circular_cushion", a["id"])
        self.ids = [b["id"] for b in shot["balls"]]
        self.body = {}
        sphere = pb.createCollisionShape(pb.GEOM_SPHERE, radius=co.R, physicsClientId=c)
        for b in shot["balls"]:
            if b["state"] == "pocketed":
                continue
            r = [b["r"][0], b["r"][1], co.R]
            body = pb.createMultiBody(co.m, sphere, basePosition=r, physicsClientId=c)
            pb.changeDynamics(body, -1, lateralFriction=f_ball, rollingFriction=0.0,
                              contactProcessingThreshold=0.0,
                              spinningFriction=0.0, restitution=e_ball, linearDamping=0.0,
                              angularDamping=0.0, physicsClientId=c)
            pb.resetBaseVelocity(body, [b["v"][0], b["v"][1], 0.0], b["w"], physicsClientId=c)
            self.body[b["id"]] = body
            self.what[body] = ("ball", b["id"])

    def step(self):
        pb.stepSimulation(physicsClientId=self.c)

    def contacts(self):
        found = set()
        for p in pb.getContactPoints(physicsClientId=self.c):
            if p[8] <= 0:  # contactDistance: > 0 is a point within the margin, not touching
                key = pc.contact(self.what.get(p[1]), self.what.get(p[2]), self.ids)
                if key is not None:
                    found.add(key)
        return found

    def state(self, i):
        r, _ = pb.getBasePositionAndOrientation(self.body[i], physicsClientId=self.c)
        v, w = pb.getBaseVelocity(self.body[i], physicsClientId=self.c)
        return list(r), list(v), list(w)

    def remove(self, i):
        pb.removeBody(self.body.pop(i), physicsClientId=self.c)

    def unstable(self):
        return False

    def stop(self, i):
        pass  # Bullet's friction stops balls itself

    def close(self):
        pb.disconnect(physicsClientId=self.c)


ADAPTER = pc.FixedStep("pybullet", lambda shot, co, dt, _: World(shot, co, dt), True,
                       lambda _: True)

if __name__ == "__main__":
    ADAPTER.main()
