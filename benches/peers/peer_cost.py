#!/usr/bin/env python3
"""What a peer's shot costs inside the adapter's process, the engine apart from the adapter,
and the adapter's floor (docs/speed.md, "The peers' engine time").

For each request of a file (the protocol's request lines, as the harness writes them: capture
them with `--engines "exec:tee -a requests.jsonl | <adapter command>"`), in this process:

- the shot: the adapter's answer, timed whole (`time.perf_counter_ns`), and its `engine_s`;
  the adapter's share is the rest (no JSON, no pipes: those are the harness's wall time's);
- the floor: the same table and balls, every ball at rest, stepped exactly as many steps as
  the shot took (peer_common.run_fixed_step with `steps`): nothing happens, so what it costs
  per step is the engine's and the adapter's bare per-step cost. For MuJoCo also the rollout
  loop's: the resting world rolled out in the adapter's chunks (engine time only). pooltool
  has no steps: its floor is the shot at rest (building the System, one `simulate`).

One CSV line per request on stdout:
    peer,loop,shot,events,steps,engine_s,adapter_s,floor_engine_ns_per_step,
    floor_adapter_ns_per_step,rollout_floor_engine_ns_per_step

Usage: peer_cost.py --peer mujoco|pybullet|pymunk|box2d|pooltool [--dt 1e-3]
       [--integrator euler] [--loop rollout|step] requests.jsonl
"""

import argparse
import copy
import importlib
import json
import time

import peer_common as pc  # first: it keeps stdout for the answers

PEERS = ("mujoco", "pybullet", "pymunk", "box2d", "pooltool")


def at_rest(shot):
    """The shot with every ball that is on the table at rest where it starts."""
    rest = copy.deepcopy(shot)
    for b in rest["balls"]:
        if b["state"] != "pocketed":
            b["v"], b["w"], b["state"] = [0.0, 0.0, 0.0], [0.0, 0.0, 0.0], "stationary"
    return rest


def timed(f, *args, **kwargs):
    t0 = time.perf_counter_ns()
    answer = f(*args, **kwargs)
    total = (time.perf_counter_ns() - t0) * 1e-9
    if "engine_s" not in answer:
        raise SystemExit(f"peer_cost.py: the answer has no engine_s: {str(answer)[:200]}")
    return answer, total


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--peer", required=True, choices=PEERS)
    ap.add_argument("--dt", type=float, default=1e-3)
    ap.add_argument("--integrator")
    ap.add_argument("--loop")
    ap.add_argument("requests")
    a = ap.parse_args()
    module = importlib.import_module(f"{a.peer}_engine")
    out = pc._ANSWERS
    out.write("peer,loop,shot,events,steps,engine_s,adapter_s,floor_engine_ns_per_step,"
              "floor_adapter_ns_per_step,rollout_floor_engine_ns_per_step\n")
    with open(a.requests) as f:
        shots = [json.loads(line) for line in f if line.strip()]
    for shot in shots:
        if a.peer == "pooltool":
            ans, total = timed(module.simulate, shot)
            rest, rest_total = timed(module.simulate, at_rest(shot))
            row = [a.peer, "simulate", shot["shot"], len(ans["events"]), "",
                   ans["engine_s"], total - ans["engine_s"],
                   # pooltool has no steps: the floor is the whole shot at rest, in ns.
                   rest["engine_s"] * 1e9, (rest_total - rest["engine_s"]) * 1e9, ""]
        else:
            adapter = module.ADAPTER
            integrator = a.integrator or (adapter.integrators[0] if adapter.integrators else None)
            loop = a.loop or (next(iter(adapter.loops)) if adapter.loops else "step")
            ans, total = timed(adapter.simulate, shot, a.dt, integrator, loop)
            steps = ans["ops"]["step"]
            rest, rest_total = timed(adapter.simulate, at_rest(shot), a.dt, integrator,
                                     "step", steps)
            per = 1e9 / max(steps, 1)
            rollout_floor = ""
            if hasattr(module, "rollout_engine_s"):
                co = pc.Coefficients(shot["model"])
                rollout_floor = module.rollout_engine_s(at_rest(shot), co, a.dt, integrator,
                                                        steps) * per
            row = [a.peer, loop, shot["shot"], len(ans["events"]), steps, ans["engine_s"],
                   total - ans["engine_s"], rest["engine_s"] * per,
                   (rest_total - rest["engine_s"]) * per, rollout_floor]
        out.write(",".join(str(x) for x in row) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
