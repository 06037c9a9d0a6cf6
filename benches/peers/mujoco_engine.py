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
from mujoco import rollout

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


# Steps per rollout call: a shot's end is found at most this many steps after it happens
# (those steps are run and timed, not used).
CHUNK = 128
FULL = mujoco.mjtState.mjSTATE_FULLPHYSICS
STATES = ["stationary", "spinning", "rolling", "sliding"]


def classify_many(co, dt, v, w):
    """peer_common.SpinClassifier over arrays: v (..., 3), w (..., 3) -> index into STATES."""
    c = pc.SpinClassifier(co, dt)
    speed = np.hypot(v[..., 0], v[..., 1])
    slip = np.hypot(v[..., 0] - c.R * w[..., 1], v[..., 1] + c.R * w[..., 0])
    still = (speed <= c.v_eps) & (c.R * np.hypot(w[..., 0], w[..., 1]) <= c.u_eps)
    moving = np.where(slip <= c.u_eps, 2, 3)
    return np.where(still, np.where(np.abs(w[..., 2]) > c.wz_eps, 1, 0), moving)


def rotate(q, v):
    """v (..., 3) turned by unit quaternions q (..., 4) (w, x, y, z): mju_rotVecQuat."""
    u, s = q[..., 1:], q[..., :1]
    t = 2.0 * np.cross(u, v)
    return v + s * t + np.cross(u, t)


class BodySpin:
    """A free joint's angular velocity in the body frame with its orientation quaternion."""

    def __init__(self, quat, w):
        self.quat, self.w = quat, w

    def world(self):
        """The spin in the world frame, as World.state gives it."""
        out = np.zeros(3)
        mujoco.mju_rotVecQuat(out, self.w, self.quat)
        return out.tolist()


class Rollout:
    """A shot run with mujoco.rollout (MuJoCo's native loop: many steps per call, the state
    after every step returned) in chunks of CHUNK steps, the events found from the state
    trajectory exactly as the per-step loop (peer_common.run_fixed_step) finds them:

    - contacts: a pair touches where MuJoCo's contact distance would be negative, computed
      from the positions (sphere-sphere, sphere-box, sphere-cylinder distances), at the
      positions the per-step loop's data.contact reflects (a step's start for Euler and
      implicitfast, its end for RK4);
    - pockets, transitions, at rest, t_end, max_events as the per-step loop.

    A pocketed ball changes the model (its contacts off, as World.remove): the chunk is cut at
    that step, rolled out again to it (MuJoCo's state then is that step's, warm start
    included) and continued from there, so the trajectory is the per-step loop's bit for bit.
    `engine_s` is the time inside `rollout` calls, those re-runs and the steps after the
    shot's end included.
    """

    def __init__(self, shot, co, dt, integrator):
        self.world = World(shot, co, dt, integrator)
        self.shot, self.co, self.dt = shot, co, dt
        self.at_start = integrator != "rk4"
        w, m, d = self.world, self.world.model, self.world.data
        self.ids = w.ids
        self.qa = np.array([w.qpos[i] for i in self.ids])
        self.va = np.array([w.qvel[i] for i in self.ids])
        # Cushion geoms: boxes (center, rotation, half sizes) and cylinders.
        self.boxes, self.cylinders = [], []
        for g, (kind, cid) in w.what.items():
            if kind == "ball":
                continue
            item = (kind, cid, d.geom_xpos[g].copy(), d.geom_xmat[g].reshape(3, 3).copy(),
                    m.geom_size[g].copy())
            (self.boxes if m.geom_type[g] == mujoco.mjtGeom.mjGEOM_BOX else self.cylinders).append(item)

    def positions(self, state):
        """Ball centers (n, balls, 3) of states (n, nstate)."""
        q = state[:, 1:1 + self.world.model.nq]
        return np.stack([q[:, a:a + 3] for a in self.qa], axis=1)

    def motion(self, state):
        """(r, v, w) arrays (n, balls, 3) of states (n, nstate), w in the world frame."""
        nq = self.world.model.nq
        q, qv = state[:, 1:1 + nq], state[:, 1 + nq:1 + nq + self.world.model.nv]
        r = np.stack([q[:, a:a + 3] for a in self.qa], axis=1)
        quat = np.stack([q[:, a + 3:a + 7] for a in self.qa], axis=1)
        v = np.stack([qv[:, a:a + 3] for a in self.va], axis=1)
        wb = np.stack([qv[:, a + 3:a + 6] for a in self.va], axis=1)
        return r, v, rotate(quat, wb), quat, wb

    def touching(self, r, live):
        """Per row of r (n, balls, 3): the contact keys whose distance is negative, as sets."""
        R, n = self.co.R, r.shape[0]
        idx = [k for k, i in enumerate(self.ids) if i in live]
        p = r[:, idx]
        keys, hits = [], []
        if len(idx) > 1:
            a, b = np.triu_indices(len(idx), 1)
            dist = np.linalg.norm(p[:, a] - p[:, b], axis=-1) - 2.0 * R
            keys += [("ball_ball",) + tuple(sorted([self.ids[idx[x]], self.ids[idx[y]]],
                                                   key=self.ids.index)) for x, y in zip(a, b)]
            hits.append(dist < 0)
        for shapes, box in ((self.boxes, True), (self.cylinders, False)):
            if not shapes:
                continue
            c = np.array([x[2] for x in shapes])
            rel = p[:, :, None, :] - c[None, None]
            if box:
                rot = np.array([x[3] for x in shapes])
                size = np.array([x[4][:3] for x in shapes])
                q = np.abs(np.einsum("nlcj,cjk->nlck", rel, rot)) - size
            else:
                size = np.array([x[4][:2] for x in shapes])
                q = np.stack([np.hypot(rel[..., 0], rel[..., 1]) - size[:, 0],
                              np.abs(rel[..., 2]) - size[:, 1]], axis=-1)
            out = np.linalg.norm(np.maximum(q, 0.0), axis=-1) + np.minimum(q.max(axis=-1), 0.0)
            keys += [(x[0], self.ids[i], x[1]) for i in idx for x in shapes]
            hits.append((out - R < 0).reshape(n, -1))
        if not keys:
            return [set() for _ in range(n)]
        hit = np.concatenate(hits, axis=1)
        changed = np.ones(n, dtype=bool)
        changed[1:] = (hit[1:] != hit[:-1]).any(axis=1)
        rows, last = [], None
        for j in range(n):
            if changed[j]:  # the same set object while nothing changes
                last = {keys[x] for x in np.flatnonzero(hit[j])}
            rows.append(last)
        return rows

    def run(self):
        shot, dt, w = self.shot, self.dt, self.world
        m, d = w.model, w.data
        pockets = shot["table"]["pockets"]
        t_end, limit = shot["t_end"], shot["max_events"]
        scalar = pc.SpinClassifier(self.co, dt) if self.co.cloth else pc.FrictionlessClassifier()
        states = {b["id"]: "pocketed" if b["state"] == "pocketed" else scalar(b["v"], b["w"])
                  for b in shot["balls"]}
        final, events, touching = {}, [], set()
        ops = {"step": 0, "body_step": 0, "contact": 0, "rollout": 0}
        clock = pc.EngineClock()
        k, termination = 0, None
        # The per-step loop's last step: the last one that does not pass t_end.
        n_end = None if t_end is None else pc.steps_within(t_end, dt)
        s0 = np.empty(mujoco.mj_stateSize(m, FULL))
        mujoco.mj_getState(m, d, s0, FULL)
        last_r = self.positions(s0[None])  # positions after step k (k = 0: the start)
        warnings = d.warning[mujoco.mjtWarning.mjWARN_BADQACC].number
        # The per-step loop's checks before its first step.
        if all(st in ("stationary", "pocketed") for st in states.values()):
            termination = "at_rest"
        elif n_end == 0:
            termination = "time_limit"
        while termination is None:
            # The steps the per-step loop could still take: none past t_end, and up to the
            # first at or after MAX_TIME_S.
            room = max(min(CHUNK, int(np.ceil((pc.MAX_TIME_S - 1e-12) / dt - 1e-9)) - k), 1)
            if n_end is not None:
                room = min(room, n_end - k)
            warm = d.qacc_warmstart.copy()
            start = s0.copy()
            traj, _ = clock.call(rollout.rollout, m, d, start, nstep=room, initial_warmstart=warm)
            ops["rollout"] += 1
            traj = traj[0]
            r_a, v_a, w_a, quat, w_body = self.motion(traj)
            live = [i for i in self.ids if states[i] != "pocketed"]
            seen = np.concatenate([last_r, r_a], axis=0)  # positions after steps k .. k + room
            contact_rows = self.touching(seen[:-1] if self.at_start else seen[1:], set(live))
            code_a = classify_many(self.co, dt, v_a, w_a) if self.co.cloth else None
            codes = code_a.tolist() if code_a is not None else None
            # Steps where something can happen: the first and last of the chunk, a new contact
            # set, a ball changing state, one in a pocket, a number that is not finite. The
            # others only count (the per-step loop does nothing else in them).
            live_cols = [self.ids.index(i) for i in live]
            busy = ~np.isfinite(np.concatenate([r_a, v_a, w_a], axis=2)[:, live_cols]).all(axis=(1, 2))
            for q in pockets:
                gap = np.hypot(r_a[:, live_cols, 0] - q["center"][0], r_a[:, live_cols, 1] - q["center"][1])
                busy |= (gap < q["radius"]).any(axis=1)
            if code_a is not None:
                busy[1:] |= (code_a[1:, live_cols] != code_a[:-1, live_cols]).any(axis=1)
            busy[1:] |= np.array([contact_rows[j] is not contact_rows[j - 1] for j in range(1, room)],
                                 dtype=bool)
            busy[0] = busy[-1] = True
            busy = busy.tolist()
            cut = None
            for s in range(room):
                step = k + s + 1
                t, t_prev = step * dt, (step - 1) * dt
                now = contact_rows[s]
                if not busy[s]:
                    ops["step"] += 1
                    ops["body_step"] += len(live)
                    ops["contact"] += len(now)
                    continue
                live = [i for i in self.ids if states[i] != "pocketed"]
                ops["step"] += 1
                ops["body_step"] += len(live)
                ops["contact"] += len(now)
                t_contact = t_prev if self.at_start else t
                for c in sorted(now - touching):
                    events.append({"time": t_contact, "kind": c[0], "agents": [c[1], c[2]]})
                touching = now
                pocketed_now = []
                for i in live:
                    b = self.ids.index(i)
                    ri, vi, wi = r_a[s, b].tolist(), v_a[s, b].tolist(), w_a[s, b].tolist()
                    if not all(math.isfinite(x) for x in (*ri, *vi, *wi)):
                        termination = "numerical_error"
                        break
                    # The final spin is kept in the body frame and turned as World.state turns
                    # it (mju_rotVecQuat, to the last bit) once the run ends.
                    spin = BodySpin(quat[s, b].copy(), w_body[s, b].copy())
                    became = pc.log_ball(
                        i, ri, vi, spin, t, pockets, states, final, events,
                        lambda: STATES[codes[s][b]] if codes is not None else scalar(vi, wi))
                    if became == "pocketed":
                        pocketed_now.append(i)
                if limit and len(events) >= limit:
                    del events[limit:]
                    termination = termination or "budget"
                if termination is None:
                    left = [i for i in self.ids if states[i] != "pocketed"]
                    if all(states[i] == "stationary" for i in left):
                        termination = "at_rest"
                    elif n_end is not None and step >= n_end:
                        termination = "time_limit"
                    elif t >= pc.MAX_TIME_S:
                        termination = "budget"
                if termination is not None or pocketed_now:
                    cut = (s + 1, pocketed_now)
                    break
            steps = room if cut is None else cut[0]
            if d.warning[mujoco.mjtWarning.mjWARN_BADQACC].number > warnings and termination is None:
                termination = "numerical_error"  # MuJoCo warned within this chunk
            k += steps
            if termination is not None:
                break
            if steps < room:
                # A ball was pocketed: MuJoCo's state at that step, then the ball removed.
                clock.call(rollout.rollout, m, d, start, nstep=steps, initial_warmstart=warm)
                ops["rollout"] += 1
                for i in cut[1]:
                    w.remove(i)
            mujoco.mj_getState(m, d, s0, FULL)
            last_r = self.positions(s0[None])
        for i, (r_, v_, w_) in final.items():
            if isinstance(w_, BodySpin):
                final[i] = (r_, v_, w_.world())
        return {"events": events, "final_states": pc.answer_final_states(shot, final, states),
                "end_time": k * dt,
                "termination": termination, "ops": ops, "engine_s": clock.seconds()}


def simulate_rollout(shot, co, dt, integrator):
    """The answer to `shot` by the rollout loop ([`Rollout`])."""
    return Rollout(shot, co, dt, integrator).run()


def rollout_engine_s(shot, co, dt, integrator, steps):
    """Seconds inside `rollout` for `steps` steps of `shot`'s world in chunks of CHUNK, nothing
    read (the rollout loop's engine floor, peer_cost.py)."""
    w = World(shot, co, dt, integrator)
    m, d = w.model, w.data
    state = np.empty(mujoco.mj_stateSize(m, FULL))
    clock = pc.EngineClock()
    done = 0
    while done < steps:
        n = min(CHUNK, steps - done)
        mujoco.mj_getState(m, d, state, FULL)
        clock.call(rollout.rollout, m, d, state, nstep=n, initial_warmstart=d.qacc_warmstart.copy())
        done += n
    return clock.seconds()


# Euler and implicitfast find contacts at the positions a step starts from; RK4's last stage
# finds them at the step's end. The default loop is mujoco.rollout; `--loop step` is one
# mj_step per call.
ADAPTER = pc.FixedStep("mujoco", World, True, lambda integrator: integrator != "rk4",
                       list(INTEGRATORS), {"rollout": simulate_rollout, "step": None})

if __name__ == "__main__":
    ADAPTER.main()
