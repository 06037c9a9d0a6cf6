#!/usr/bin/env python3
"""MuJoCo (4.0.0) as an engine of the harness (docs/engine-protocol.md): `--engines
mujoco:<dt>[:<integrator>]`, built the way a robotics user models a pool table.

- Balls: spheres of radius R and mass m (MuJoCo's solid-sphere inertia 2/5 m R^2) on free
  joints, set at the request's positions, velocities and spins.
- Cloth: a plane at z = 0 with condim 6 (sliding, torsional and rolling friction):
  sliding mu_s, torsional mu_sp R and rolling 7/5 R mu_r (lengths: MuJoCo's resisting torque is
  the coefficient times the normal force; these give the seed's spin and rolling decelerations,
  peer_common.Coefficients), with MuJoCo's default contact (solref 0.02 1: critically damped,
  no bounce; a ball sinks about 0.4 mm into it).
- Cushions: boxes behind each straight segment, from the cloth up to the cushion height, and
  vertical cylinders for circular cushions; restitution and friction from the shot's laws
  (peer_common.Coefficients), condim 3.
- Restitution via solref, in its direct form (-stiffness, -damping): a spring of natural
  frequency 1 / (2 dt) (a contact lasts about 2 pi dt: the stiffest every integrator follows
  stably) with the damping ratio that gives the law's restitution
  (peer_common.restitution_damping_ratio); MuJoCo's impedance (solimp, default) makes the bounce
  it gives differ (measured in the README).
- Geom priorities give each contact its parameters: cloth 2, cushions 1, balls 0 (ball-ball
  contacts use the balls': restitution and friction of the ball-ball law).
- Elliptic friction cones, the integrator named (Euler, implicitfast, RK4), time step dt.
- Pockets: regions (a ball whose center enters a pocket's circle is pocketed and its contacts
  switched off).

Events: a contact when a pair first appears in `data.contact` (dist < 0), dated at the end of
the first step whose end positions touch: with Euler and implicitfast MuJoCo finds contacts at
the positions a step starts from (so at the end of the step before the one that shows them),
with RK4 its last stage finds them at the step's end. Transitions: peer_common.SpinClassifier.
Frictionless motion (`ideal`): a frictionless plane (condim 1).

Usage: python mujoco_engine.py --dt 1e-3 [--integrator euler|implicitfast|rk4] < requests.jsonl
"""

import math

import peer_common as pc  # first: it keeps stdout for the answers

import mujoco
import numpy as np

INTEGRATORS = {"euler": "Euler", "implicitfast": "implicitfast", "rk4": "RK4"}
# Thickness of a cushion box behind its segment (m).
CUSHION_THICKNESS = 0.05


def xml_for(shot, co, dt, integrator):
    t = shot["table"]
    R, m = co.R, co.m
    # The contact spring's natural frequency: a period of 4 pi dt (about 12 steps), which every
    # integrator follows stably; its damping ratio gives the law's restitution.
    omega = 1.0 / (2.0 * dt)

    def solref(e):
        zeta = pc.restitution_damping_ratio(e)
        return f"{-omega * omega!r} {-2.0 * zeta * omega!r}"

    if co.cloth:
        cloth = (f'condim="6" friction="{co.mu_s!r} {co.spinning_resistance_length()!r} '
                 f'{co.rolling_resistance_length()!r}"')
    else:
        cloth = 'condim="1"'  # frictionless: the ideal model's balls slide at constant velocity
    geoms = [f'<geom name="cloth" type="plane" size="0 0 1" priority="2" {cloth}/>']
    for k, c in enumerate(t["cushions"]):
        (x1, y1), (x2, y2), n = c["p1"], c["p2"], c["normal"]
        length = math.hypot(x2 - x1, y2 - y1)
        cx = (x1 + x2) / 2 - n[0] * CUSHION_THICKNESS / 2
        cy = (y1 + y2) / 2 - n[1] * CUSHION_THICKNESS / 2
        angle = math.atan2(y2 - y1, x2 - x1)
        h = c["height"]
        geoms.append(
            f'<geom name="c{k}" type="box" pos="{cx!r} {cy!r} {h / 2!r}" '
            f'size="{length / 2!r} {CUSHION_THICKNESS / 2!r} {h / 2!r}" '
            f'axisangle="0 0 1 {angle!r}" condim="3" priority="1" '
            f'friction="{co.mu_cushion!r} 0 0" solref="{solref(co.e_cushion)}"/>'
        )
    for k, a in enumerate(t.get("circular_cushions", [])):
        h = a["height"]
        geoms.append(
            f'<geom name="j{k}" type="cylinder" pos="{a["center"][0]!r} {a["center"][1]!r} '
            f'{h / 2!r}" size="{a["radius"]!r} {h / 2!r}" condim="3" priority="1" '
            f'friction="{co.mu_jaw!r} 0 0" solref="{solref(co.e_jaw)}"/>'
        )
    condim = 3 if co.mu_ball > 0 else 1
    bodies = []
    for k, b in enumerate(shot["balls"]):
        x, y = b["r"][0], b["r"][1]
        bodies.append(
            f'<body name="b{k}" pos="{x!r} {y!r} {R!r}"><freejoint/>'
            f'<geom name="b{k}" type="sphere" size="{R!r}" mass="{m!r}" condim="{condim}" '
            f'priority="0" friction="{co.mu_ball!r} 0 0" solref="{solref(co.e_ball)}"/></body>'
        )
    return (
        f'<mujoco><compiler angle="radian"/><option timestep="{dt!r}" integrator="{INTEGRATORS[integrator]}" '
        f'gravity="0 0 {-co.g!r}" cone="elliptic"/>'
        f'<worldbody>{"".join(geoms)}{"".join(bodies)}</worldbody></mujoco>'
    )


class World:
    def __init__(self, shot, co, dt, integrator):
        self.model = mujoco.MjModel.from_xml_string(xml_for(shot, co, dt, integrator))
        self.data = mujoco.MjData(self.model)
        self.ids = [b["id"] for b in shot["balls"]]
        m, d = self.model, self.data
        # geom id -> (kind, agent id): balls, cushions, circular cushions.
        self.what = {}
        self.ball_geom = {}
        for k, b in enumerate(shot["balls"]):
            g = mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_GEOM, f"b{k}")
            self.what[g] = ("ball", b["id"])
            self.ball_geom[b["id"]] = g
        for k, c in enumerate(shot["table"]["cushions"]):
            g = mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_GEOM, f"c{k}")
            self.what[g] = ("ball_linear_cushion", c["id"])
        for k, a in enumerate(shot["table"].get("circular_cushions", [])):
            g = mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_GEOM, f"j{k}")
            self.what[g] = ("ball_circular_cushion", a["id"])
        self.qpos, self.qvel, self.body = {}, {}, {}
        for k, b in enumerate(shot["balls"]):
            body = mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_BODY, f"b{k}")
            j = m.body_jntadr[body]
            self.qpos[b["id"]], self.qvel[b["id"]], self.body[b["id"]] = (
                m.jnt_qposadr[j], m.jnt_dofadr[j], body)
            qa, va = self.qpos[b["id"]], self.qvel[b["id"]]
            d.qpos[qa:qa + 3] = [b["r"][0], b["r"][1], b["r"][2] if len(b["r"]) > 2 else co.R]
            d.qvel[va:va + 3] = [b["v"][0], b["v"][1], 0.0]
            # A free joint's angular velocity is in the body frame: the identity at t = 0.
            d.qvel[va + 3:va + 6] = b["w"]
            if b["state"] == "pocketed":
                self.remove(b["id"])
        mujoco.mj_forward(m, d)

    def step(self):
        mujoco.mj_step(self.model, self.data)

    def contacts(self):
        found = set()
        d = self.data
        for c in d.contact[: d.ncon]:
            if c.dist < 0:
                key = pc.contact(self.what.get(c.geom1), self.what.get(c.geom2), self.ids)
                if key is not None:
                    found.add(key)
        return found

    def state(self, i):
        d, qa, va = self.data, self.qpos[i], self.qvel[i]
        r = d.qpos[qa:qa + 3].tolist()
        v = d.qvel[va:va + 3].tolist()
        quat = d.qpos[qa + 3:qa + 7]
        w = np.zeros(3)
        mujoco.mju_rotVecQuat(w, d.qvel[va + 3:va + 6], quat)
        return r, v, w.tolist()

    def remove(self, i):
        m, d = self.model, self.data
        g = self.ball_geom[i]
        m.geom_contype[g] = 0
        m.geom_conaffinity[g] = 0
        m.body_gravcomp[self.body[i]] = 1.0
        d.qvel[self.qvel[i]:self.qvel[i] + 6] = 0.0

    def unstable(self):
        # MuJoCo warns and resets the state when accelerations are NaN or huge.
        return self.data.warning[mujoco.mjtWarning.mjWARN_BADQACC].number > 0

    def close(self):
        pass

    def stop(self, i):
        pass  # MuJoCo's friction stops balls itself


if __name__ == "__main__":
    # Euler and implicitfast find contacts at the positions a step starts from; RK4's last
    # stage finds them at the step's end.
    pc.main_fixed_step("mujoco", World, True, lambda integrator: integrator != "rk4",
                       list(INTEGRATORS))
