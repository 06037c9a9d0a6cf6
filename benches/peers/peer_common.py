"""What the peer adapters share (docs/engine-protocol.md): the session, the shot's laws as the
coefficients a general physics engine takes, and the fixed-step loop that turns what an engine
shows after each step (contacts, positions, velocities) into the protocol's events.

Import it before the engine: the engines' C code may print on file descriptor 1 (pybullet
prints its build time), which is the protocol's answer channel, so this module moves fd 1 to
stderr at import and keeps the real stdout for answers only.

The adapters and their mappings are described in benches/peers/README.md.
"""

import json
import math
import os
import sys
import time
import traceback

# The protocol's answers go to the original stdout; anything else printed on fd 1 goes to stderr.
_ANSWERS = os.fdopen(os.dup(1), "w")
os.dup2(2, 1)
sys.stdout = sys.stderr

# Longest simulated time (s) of a shot without t_end before the run stops with "budget" (as the
# rapier engine's).
MAX_TIME_S = 120.0

# A disc of the 2D engines is stopped (stationary, rolling_stationary) when its speed falls below
# this (m/s): Box2D's b2_linearSleepTolerance, the threshold game engines put balls to sleep at.
DISC_STOP_SPEED = 0.01


class EngineClock:
    """Nanoseconds spent inside an engine's own calls (`time.perf_counter_ns` around those
    calls only), reported as the answer's `engine_s` (docs/engine-protocol.md): what the
    engine itself costs, apart from the adapter's Python around it."""

    def __init__(self):
        self.ns = 0

    def call(self, f, *args, **kwargs):
        """`f(*args, **kwargs)`, timed."""
        t0 = time.perf_counter_ns()
        try:
            return f(*args, **kwargs)
        finally:
            self.ns += time.perf_counter_ns() - t0

    def seconds(self):
        return self.ns * 1e-9


def serve(simulate, engine):
    """Answers each request line of stdin with `simulate(request)`, one JSON line each, carrying
    the request's `id`; an exception is that shot's `{"error": ...}` naming the engine and where
    it was raised."""
    for line in sys.stdin:
        if not line.strip():
            continue
        shot = json.loads(line)
        try:
            answer = simulate(shot)
        except Exception as e:  # one shot's failure is that shot's answer, not the session's end
            where = traceback.extract_tb(e.__traceback__)[-1]
            at = f"{os.path.basename(where.filename)}:{where.lineno} in {where.name}"
            answer = {"error": f"{engine}: {type(e).__name__}: {e} (raised at {at})"}
        if "id" in shot:
            answer["id"] = shot["id"]
        _ANSWERS.write(json.dumps(answer) + "\n")
        _ANSWERS.flush()


class FixedStep:
    """A fixed-step adapter: `make_world(shot, coefficients, dt, integrator)` run by
    `run_fixed_step` with the motion states of an engine with (`spin`) or without spin;
    `contacts_at_step_start(integrator)` says when its contacts are found; `integrators` the
    names `--integrator` takes (the first is the default); `loops` maps a loop's name to
    `simulate(shot, co, dt, integrator)` (the first is the default; `"step"`, mapped to None,
    is `run_fixed_step`'s loop)."""

    def __init__(self, name, make_world, spin, contacts_at_step_start, integrators=None,
                 loops=None):
        self.name, self.make_world, self.spin = name, make_world, spin
        self.contacts_at_step_start = contacts_at_step_start
        self.integrators, self.loops = integrators, loops

    def simulate(self, shot, dt, integrator=None, loop=None, steps=None):
        """The answer to `shot` (`steps`: the per-step loop, exactly that many steps)."""
        co = Coefficients(shot["model"])
        if steps is None and self.loops and self.loops.get(loop or next(iter(self.loops))):
            return self.loops[loop or next(iter(self.loops))](shot, co, dt, integrator)
        world = self.make_world(shot, co, dt, integrator)
        try:
            return run_fixed_step(shot, world, dt, classifier(co, dt, self.spin),
                                  self.contacts_at_step_start(integrator), steps)
        finally:
            world.close()

    def main(self):
        """`--dt` (and `--integrator`, `--loop` when the adapter has them), then one answer per
        request line."""
        dt, integrator, loop = arguments(sys.argv[1:], f"{self.name}_engine.py",
                                         self.integrators,
                                         list(self.loops) if self.loops else None)
        serve(lambda shot: self.simulate(shot, dt, integrator, loop),
              f"{self.name}:{dt!r}" + (f":{integrator}" if integrator else ""))


def arguments(argv, usage, integrators=None, loops=None):
    """`--dt <s>`, (when `integrators` is given) `--integrator <name>` and (when `loops` is
    given) `--loop <name>` from `argv`, checked, as (dt, integrator, loop); exits 2 with one
    line on anything else."""
    def fail(why):
        print(f"{usage}: {why}", file=sys.stderr)
        sys.exit(2)
    opts = {}
    it = iter(argv)
    for a in it:
        if a in ("--dt", "--integrator", "--loop"):
            opts[a[2:]] = next(it, None)
            if opts[a[2:]] is None:
                fail(f"{a} needs a value")
        else:
            fail(f"unknown argument {a!r}")
    try:
        dt = float(opts.get("dt", "nan"))
    except ValueError:
        fail(f"--dt = {opts['dt']!r}: not a number (s)")
    if not 1e-7 <= dt <= 1.0:
        fail(f"--dt = {opts.get('dt')!r}: must be in [1e-7, 1] s")
    def choice(key, names):
        """`--key`'s value among `names` (default the first); None when the engine has none."""
        value = opts.get(key)
        if names is None:
            if value is not None:
                fail(f"this engine takes no --{key}")
            return None
        value = value or names[0]
        if value not in names:
            fail(f"--{key} = {value!r}: valid: {', '.join(names)}")
        return value
    return dt, choice("integrator", integrators), choice("loop", loops)


class Coefficients:
    """The shot's model as the constant coefficients of a general engine's contacts.

    Ball-ball: `frictionless_elastic` is restitution 1 and no friction, FastFiz's `fastfiz` is
    restitution 1 and `mu_b` (docs/fastfiz.md); `frictional_inelastic`
    and `frictional_mathavan` are `e_b` and a constant friction: `mu_b` for the `average`
    friction model, Alciatore's mu(v) = a + b exp(-c v) at 1 m/s of slip for `alciatore` (a
    constant-coefficient engine cannot make friction depend on speed). Cushions: `unrealistic`
    is a mirror (restitution 1, or `e_c` with `restitution = true`, no friction), `fastfiz` is
    restitution `perpendicular` without friction; every other law is restitution `e_c` and
    friction `f_c`. The cloth (motion `cloth`, or FastFiz's `fastfiz`): `mu_s` (sliding), `mu_r`
    (rolling), `mu_sp` (spinning), gravity `g`.
    """

    def __init__(self, model):
        laws, p = model["laws"], model["params"]
        self.R, self.m, self.g = p["R"], p["m"], p["g"]
        self.mu_s, self.mu_r, self.mu_sp = p["mu_s"], p["mu_r"], p["mu_sp"]
        self.cloth = model["motion"] in ("cloth", "fastfiz")
        bb = laws["ball_ball"]
        if bb["model"] == "frictionless_elastic":
            self.e_ball, self.mu_ball = 1.0, 0.0
        elif bb["model"] == "fastfiz":
            self.e_ball, self.mu_ball = 1.0, p["mu_b"]
        else:
            f = bb.get("friction", {"model": "average"})
            if f.get("model") == "alciatore":
                mu = f["a"] + f["b"] * math.exp(-f["c"] * 1.0)
            else:
                mu = p["mu_b"]
            self.e_ball, self.mu_ball = p["e_b"], mu
        self.e_cushion, self.mu_cushion = self._cushion(laws["ball_linear_cushion"], p)
        self.e_jaw, self.mu_jaw = self._cushion(laws["ball_circular_cushion"], p)

    @staticmethod
    def _cushion(law, p):
        if law["model"] == "unrealistic":
            return (p["e_c"] if law.get("restitution") else 1.0), 0.0
        if law["model"] == "fastfiz":
            return law["perpendicular"], 0.0
        return p["e_c"], p["f_c"]

    def rolling_resistance_length(self):
        """The rolling-friction coefficient (m) of a 3D engine (MuJoCo, Bullet: the resisting
        torque is this times the normal force) that decelerates a rolling ball by mu_r g:
        torque c m g on a rolling ball (I = 2/5 m R^2) gives a = c g R / (I + m R^2) =
        c g / (7/5 R), so c = 7/5 R mu_r."""
        return 1.4 * self.R * self.mu_r

    def spinning_resistance_length(self):
        """The torsional-friction coefficient (m) that decelerates a spinning ball's w_z by
        5 mu_sp g / (2R) (seed 004 §I): torque c m g / (2/5 m R^2), so c = mu_sp R."""
        return self.mu_sp * self.R


def restitution_damping_ratio(e):
    """The damping ratio zeta of a linear spring-damper whose bounce has restitution `e`:
    e = exp(-zeta pi / sqrt(1 - zeta^2)), so zeta = -ln e / sqrt(pi^2 + ln^2 e); 1 for e = 0.
    """
    if e <= 0.0:
        return 1.0
    ln = math.log(e)
    return -ln / math.sqrt(math.pi ** 2 + ln ** 2)


def disc_damping(shot, co):
    """Linear damping c (1/s) of the 2D engines: the fastest ball's initial deceleration on
    the cloth (mu_s g while it slides, mu_r g when it rolls) over its speed, so that it starts
    slowing as it does on cloth; 0 when nothing moves. Under damping v' = -c v every ball slows
    in proportion to its speed and never stops by itself (see DISC_STOP_SPEED)."""
    if not co.cloth:
        return 0.0
    best = None
    for b in shot["balls"]:
        v = math.hypot(b["v"][0], b["v"][1])
        if b["state"] != "pocketed" and v > 0.0 and (best is None or v > best[0]):
            best = (v, b["state"])
    if best is None:
        return 0.0
    v, state = best
    a = (co.mu_s if state == "sliding" else co.mu_r) * co.g
    return a / v


def pocket_of(x, y, pockets):
    """The id of the pocket whose circle holds the center (x, y), or None."""
    for q in pockets:
        if math.hypot(x - q["center"][0], y - q["center"][1]) < q["radius"]:
            return q
    return None


def contact(a, b, ids):
    """The contact between two of an engine's bodies, each (kind, id): `("ball", ball id)`,
    `("ball_linear_cushion", cushion id)`, `("ball_circular_cushion", id)` or None (the
    cloth), as (event kind, ball id, other id); ball pairs in the request's order (`ids`).
    None for a contact with the cloth or between two cushions."""
    if a is None or b is None:
        return None
    if a[0] != "ball":
        a, b = b, a
    if a[0] != "ball":
        return None
    if b[0] == "ball":
        x, y = sorted([a[1], b[1]], key=ids.index)
        return ("ball_ball", x, y)
    return (b[0], a[1], b[1])


TRANSITIONS = {
    ("sliding", "rolling"): "sliding_rolling",
    ("rolling", "stationary"): "rolling_stationary",
    ("rolling", "spinning"): "rolling_spinning",
    ("spinning", "stationary"): "spinning_stationary",
}


class SpinClassifier:
    """A 3D engine's ball state as a motion state, at the resolution one step gives: a ball
    rolls when its slip at the cloth |v + R k x w| is below what sliding friction removes in one
    step (7/2 mu_s g dt), has stopped moving when its speed is below what rolling resistance
    removes in one step (mu_r g dt), and spins when w_z is then above what spinning friction
    removes in one step (5 mu_sp g dt / 2R)."""

    def __init__(self, co, dt):
        self.R = co.R
        self.u_eps = 3.5 * co.mu_s * co.g * dt
        self.v_eps = co.mu_r * co.g * dt
        self.wz_eps = 2.5 * co.mu_sp * co.g * dt / co.R

    def __call__(self, v, w):
        speed = math.hypot(v[0], v[1])
        slip = math.hypot(v[0] - self.R * w[1], v[1] + self.R * w[0])
        if speed <= self.v_eps and self.R * math.hypot(w[0], w[1]) <= self.u_eps:
            return "spinning" if abs(w[2]) > self.wz_eps else "stationary"
        return "rolling" if slip <= self.u_eps else "sliding"


class FrictionlessClassifier:
    """The ideal model's states: a ball moves (sliding, as the event engine names a
    frictionless ball's state) or does not; there are no transitions."""

    def __call__(self, v, w):
        return "sliding" if math.hypot(v[0], v[1]) > 0.0 else "stationary"


def classifier(co, dt, spin):
    """The motion-state classifier of an engine with (`spin`: 3D) or without spin."""
    if not co.cloth:
        return FrictionlessClassifier()
    return SpinClassifier(co, dt) if spin else DiscClassifier()


class DiscClassifier:
    """A 2D engine's disc as a motion state: rolling (a disc moving on the cloth without the
    slip it cannot represent) until its speed falls below DISC_STOP_SPEED, then stationary."""

    def __call__(self, v, w):
        return "stationary" if math.hypot(v[0], v[1]) < DISC_STOP_SPEED else "rolling"


def log_ball(i, r, v, w, t, pockets, states, final, events, new_state):
    """Ball `i`'s events after a step that ends at `t`, at state (r, v, w) (lists): pocketed
    when its center is inside a pocket's circle (the event; its final state at rest at the
    pocket's center), else its motion state `new_state()` with the transition that makes (its
    final state (r, v, w), v and w zero on the step it stops). Returns "pocketed",
    "stationary" (it stopped in this step) or None."""
    q = pocket_of(r[0], r[1], pockets)
    if q is not None:
        events.append({"time": t, "kind": "ball_pocket", "agents": [i, q["id"]]})
        states[i] = "pocketed"
        final[i] = ([q["center"][0], q["center"][1]], [0.0, 0.0], [0.0, 0.0, 0.0])
        return "pocketed"
    new = new_state()
    kind = TRANSITIONS.get((states[i], new))
    if kind is not None:
        events.append({"time": t, "kind": kind, "agents": [i]})
    stopped = new == "stationary" and states[i] != "stationary"
    if stopped:
        v, w = [0.0, 0.0], [0.0, 0.0, 0.0]
    states[i] = new
    final[i] = (r[:2], v[:2], w)
    return "stationary" if stopped else None


def answer_final_states(shot, final, states):
    """The answer's `final_states`: each ball's final (r, v, w), or its request's when it never
    moved, with its motion state."""
    out = []
    for b in shot["balls"]:
        i = b["id"]
        r, v, w = final.get(i, (b["r"][:2], b["v"][:2], b["w"]))
        out.append({"id": i, "r": r, "v": v, "w": w, "state": states[i]})
    return out


def steps_within(t_end, dt):
    """The number of fixed steps of `dt` (s) a run takes before `t_end` (s): the largest n >= 0
    with n * dt <= t_end + 1e-12, as the step loop computes its times (k * dt), so that no step
    ends after t_end (the protocol refuses events and end times after it)."""
    bound = t_end + 1e-12
    n = max(int(math.floor(bound / dt)), 0)
    while n > 0 and n * dt > bound:
        n -= 1
    while (n + 1) * dt <= bound:
        n += 1
    return n


def run_fixed_step(shot, world, dt, classify, contacts_at_step_start, steps=None):
    """Runs `world` step by step and logs what it shows.

    `world` has `step()`; `contacts()`: the set of (kind, ball id, other id) touching, as of
    the positions its last `step()` found them at (the step's start when
    `contacts_at_step_start`, its end otherwise); `state(id)`: (r, v, w) of a live ball (w a
    3-vector; z spin only for a 2D engine); `remove(id)`: take a ball off the table;
    `stop(id)`: bring a ball to rest (2D engines; a no-op for engines that stop balls
    themselves); `unstable()`: whether the engine reported its state unusable (NaN, divergence)
    in the last step, which ends the run with "numerical_error".

    Events: a contact when the pair first shows up in `contacts()`, at the end of the first step
    whose positions touch; a pocket at the end of the step after which the ball's center is
    inside a pocket's circle; a transition at the end of the step after which `classify` first
    gives the new state. Stops when every ball is stationary or pocketed, at the last step that
    does not pass `t_end` (the protocol refuses events after it), after `max_events` events, or
    after MAX_TIME_S (budget); with `steps`, after exactly that many steps whatever happens (the
    adapter's floor: peer_cost.py).

    The answer's `engine_s` is the time inside `world.step()` only (the engine's own step
    call; callbacks the engine makes from inside it, pymunk's and Box2D's contact listeners,
    are in it); reading states, finding contacts, classifying and the JSON are the adapter's.
    """
    pockets = shot["table"]["pockets"]
    t_end, limit = shot["t_end"], shot["max_events"]
    # Each ball's state as the engine sees it at t = 0 (a disc cannot slide: it starts rolling).
    states = {b["id"]: "pocketed" if b["state"] == "pocketed" else classify(b["v"], b["w"])
              for b in shot["balls"]}
    final = {}
    events, touching = [], set()
    ops = {"step": 0, "body_step": 0, "contact": 0}
    clock = EngineClock()
    k, t, termination = 0, 0.0, None
    while termination is None:
        live = [i for i, s in states.items() if s != "pocketed"]
        if steps is not None:
            if k >= steps:
                termination = "budget"
                break
        elif all(states[i] == "stationary" for i in live):
            termination = "at_rest"
            break
        # A step that would pass t_end is not taken: the protocol refuses events after t_end.
        elif t_end is not None and k >= steps_within(t_end, dt):
            termination = "time_limit"
            break
        elif t >= MAX_TIME_S:
            termination = "budget"
            break
        clock.call(world.step)
        if world.unstable():
            termination = "numerical_error"
            break
        k += 1
        t_prev, t = t, k * dt
        ops["step"] += 1
        ops["body_step"] += len(live)
        now = world.contacts()
        ops["contact"] += len(now)
        t_contact = t_prev if contacts_at_step_start else t
        for c in sorted(now - touching):
            if states.get(c[1]) != "pocketed":
                events.append({"time": t_contact, "kind": c[0], "agents": [c[1], c[2]]})
        touching = now
        for i in live:
            r, v, w = world.state(i)
            if not all(math.isfinite(x) for x in (*r, *v, *w)):
                termination = "numerical_error"
                break
            became = log_ball(i, r, v, w, t, pockets, states, final, events,
                              lambda: classify(v, w))
            if became == "pocketed":
                world.remove(i)
            elif became == "stationary":
                world.stop(i)
        if limit and len(events) >= limit:
            del events[limit:]
            termination = "budget"
    return {"events": events, "final_states": answer_final_states(shot, final, states),
            "end_time": t,
            "termination": termination, "ops": ops, "engine_s": clock.seconds()}
