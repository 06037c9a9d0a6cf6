"""The billiards harness from Python: pool shots evolved by its engines, one at a time or in
numpy batches.

Quick start::

    import billiards_harness as bh
    run = bh.simulate("data/shots/break_9ball.toml")        # event engine, a shot file
    print(run.events[:3], run.final_states.shape)           # (n_balls, 3, 3)

Conventions (SI units, pooltool's layout): a ball's state is ``rvw``, shape (3, 3), rows
position r (m), velocity v (m/s), angular velocity w (rad/s), columns x, y, z in the table frame
(x along the long rail, y across, z up, origin at a corner of the playing area; a ball's center
is at z = R). Motion states are pooltool's codes: 0 stationary, 1 spinning, 2 sliding,
3 rolling, 4 pocketed. Engines are named by the command line's specs: ``event``,
``event:<solver>``, ``discrete:<dt>[:<scheme>]``.

pooltool users swap engines in one line: ``system = bh.simulate_pooltool(system)`` for
``pt.simulate(system)`` (:mod:`billiards_harness.pooltool_io`). Long stress runs and sweeps
split into shards on Ray: :mod:`billiards_harness.cluster`. The command line runs in-process:
``bh.cli(["stress", "--shots", "1000"])``.

Errors: :class:`ShotError` (a ``ValueError``) for input that cannot be simulated, with the same
one-line messages as the command line; :class:`RunError` (a ``RuntimeError``) for a run that
ended without a physical end (event budget, non-finite state).
"""

from __future__ import annotations

import math
import os
from typing import Any, Mapping, Optional, Sequence, Union

import numpy as np

from ._core import (
    PRESETS,
    cli,
    Batch,
    Event,
    Run,
    RunError,
    Shot,
    ShotError,
)
from ._core import simulate as _simulate
from ._core import simulate_many as _simulate_many
from ._core import strike_many as _strike_many
from ._core import compare_distributions, outcome_agreement, outcome_distribution
from .pooltool_io import from_pooltool, simulate_pooltool, to_pooltool

__all__ = [
    "PRESETS",
    "Batch",
    "Event",
    "Run",
    "RunError",
    "Shot",
    "ShotError",
    "cli",
    "compare_distributions",
    "from_pooltool",
    "load",
    "make_shot",
    "outcome_agreement",
    "outcome_distribution",
    "simulate",
    "simulate_many",
    "simulate_pooltool",
    "strike_many",
    "to_pooltool",
]

ShotLike = Union[Shot, str, "os.PathLike[str]"]


def load(path: Union[str, "os.PathLike[str]"]) -> Shot:
    """Reads a shot file (TOML, see data/shots/README.md). Raises :class:`ShotError`."""
    return Shot.load(os.fspath(path))


def _as_shot(shot: ShotLike) -> Shot:
    """A Shot from a Shot, a path to a shot file, or the text of one."""
    if isinstance(shot, Shot):
        return shot
    if isinstance(shot, os.PathLike):
        return Shot.load(os.fspath(shot))
    if isinstance(shot, str):
        # A shot file's text always has a newline or an `=`; a path has neither.
        if "\n" in shot or "=" in shot:
            return Shot.from_toml(shot)
        return Shot.load(shot)
    raise ShotError(f"shot = {shot!r}: expected a Shot, a shot file path or a shot file's text")


def simulate(
    shot: ShotLike,
    engine: str = "event",
    *,
    max_events: Optional[int] = None,
    check: bool = True,
) -> Run:
    """Runs one shot with one engine.

    Args:
        shot: a :class:`Shot`, a path to a shot file, or the text of one.
        engine: an engine spec (``event``, ``event:alg1010``, ``discrete:1e-4``, ...).
        max_events: event budget (event engine); its default otherwise.
        check: raise :class:`RunError` when the run ends without a physical end.

    Returns:
        A :class:`Run`: ``events``, ``final_states`` (n_balls, 3, 3), ``states_at(t)``.
    """
    return _simulate(_as_shot(shot), engine, max_events=max_events, check=check)


def _toml_value(x: Any, where: str) -> str:
    if isinstance(x, bool):
        return "true" if x else "false"
    if isinstance(x, (int, np.integer)):
        return str(int(x))
    if isinstance(x, (float, np.floating)):
        x = float(x)
        if not math.isfinite(x):
            raise ShotError(f"{where} = {x!r}: must be finite")
        return repr(x)
    if isinstance(x, str):
        return '"' + x.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(x, (list, tuple, np.ndarray)):
        return "[" + ", ".join(_toml_value(v, f"{where}[{i}]") for i, v in enumerate(x)) + "]"
    if isinstance(x, Mapping):
        inner = ", ".join(f"{k} = {_toml_value(v, f'{where}.{k}')}" for k, v in x.items())
        return "{ " + inner + " }"
    raise ShotError(f"{where} = {x!r}: unsupported type {type(x).__name__}")


def make_shot(
    states: np.ndarray,
    *,
    table: str = "seven_foot",
    physics: Union[str, Mapping[str, Any]] = "pool",
    params: Optional[Mapping[str, float]] = None,
    ball_ids: Optional[Sequence[str]] = None,
    t_end: Optional[float] = None,
    description: str = "made from Python",
    name: str = "shot",
) -> Shot:
    """A shot from ball states and options, validated like a shot file.

    Args:
        states: rvw of every ball, shape (n_balls, 3, 3) (m, m/s, rad/s); z of r must be R.
        table: a built-in table name (``seven_foot``, ``carom``, ``rectangle_LxW``, ...).
        physics: a preset name (see ``PRESETS``) or ``{event type: model name or
            {"model": name, parameter: value}}`` as a shot file's ``[physics]`` table.
        params: ball parameters by name (``m``, ``R``, ``mu_s``, ...), as ``[params]``.
        ball_ids: ids, default ``cue``, ``1``, ``2``, ... (pooltool's).
        t_end: time limit (s); required with frictionless motion.
    """
    states = np.asarray(states, dtype=np.float64)
    if states.ndim != 3 or states.shape[1:] != (3, 3):
        raise ShotError(f"states: shape {states.shape}, expected (n_balls, 3, 3)")
    n = states.shape[0]
    ids = list(ball_ids) if ball_ids is not None else ["cue"] + [str(i) for i in range(1, n)]
    if len(ids) != n:
        raise ShotError(f"ball_ids: {len(ids)} ids for {n} balls")
    lines = [f"description = {_toml_value(description, 'description')}"]
    lines.append(f"table = {_toml_value(table, 'table')}")
    if t_end is not None:
        lines.append(f"t_end = {_toml_value(float(t_end), 't_end')}")
    if isinstance(physics, str):
        lines.append(f"physics = {_toml_value(physics, 'physics')}")
    else:
        lines.append("[physics]")
        for key, law in physics.items():
            lines.append(f"{key} = {_toml_value(law, f'physics.{key}')}")
    if params:
        lines.append("[params]")
        for key, value in params.items():
            lines.append(f"{key} = {_toml_value(value, f'params.{key}')}")
    for i, (bid, rvw) in enumerate(zip(ids, states)):
        lines.append("[[balls]]")
        lines.append(f"id = {_toml_value(str(bid), f'ball_ids[{i}]')}")
        lines.append(f"r = {_toml_value(rvw[0], f'states[{i}, 0]')}")
        lines.append(f"v = {_toml_value(rvw[1], f'states[{i}, 1]')}")
        lines.append(f"w = {_toml_value(rvw[2], f'states[{i}, 2]')}")
    return Shot.from_toml("\n".join(lines) + "\n", name)


def simulate_many(
    states: np.ndarray,
    *,
    template: Optional[Shot] = None,
    table: str = "seven_foot",
    physics: Union[str, Mapping[str, Any]] = "pool",
    params: Optional[Mapping[str, float]] = None,
    ball_ids: Optional[Sequence[str]] = None,
    t_end: Optional[float] = None,
    engine: str = "event",
    max_events: Optional[int] = None,
    threads: Optional[int] = None,
) -> Batch:
    """Runs one shot per row of ``states``, in parallel, with the GIL released.

    Args:
        states: rvw of every ball of every shot, shape (n_shots, n_balls, 3, 3).
        template: a :class:`Shot` whose table, physics, parameters, ids and time limit every
            row takes; otherwise one is made from ``table``, ``physics``, ``params``,
            ``ball_ids`` and ``t_end`` as in :func:`make_shot`.
        engine: an engine spec.
        threads: worker threads (default: all cores).

    Returns:
        A :class:`Batch`: ``final_states`` (n_shots, n_balls, 3, 3), ``final_motion_states``
        (n_shots, n_balls), ``n_events``, ``first_event_time`` (NaN if none), ``end_time``
        (n_shots,), ``termination`` (one name per shot); and what a game or a reward reads:
        ``first_contact`` (index of the first ball the cue ball touched, -1 for none) and
        ``first_contact_time`` (s, NaN), ``pocket`` (n_shots, n_balls: each ball's pocket as
        an index into ``pocket_ids``, -1 for none), ``scratch`` and ``ended`` (n_shots,
        bool). Row k is, bit for bit, what :func:`simulate` gives for
        ``template.with_states(states[k])``. Compare two batches with
        :func:`outcome_agreement`.

    Raises:
        ShotError: naming the first row that cannot be simulated (``states[k]: ...``).
    """
    states = np.ascontiguousarray(states, dtype=np.float64)
    if states.ndim != 4 or states.shape[2:] != (3, 3):
        raise ShotError(f"states: shape {states.shape}, expected (n_shots, n_balls, 3, 3)")
    if template is None:
        if states.shape[0] == 0:
            raise ShotError("states: no shots (shape[0] == 0) and no template")
        template = make_shot(
            states[0],
            table=table,
            physics=physics,
            params=params,
            ball_ids=ball_ids,
            t_end=t_end,
        )
    return _simulate_many(template, states, engine, max_events=max_events, threads=threads)


def strike_many(
    V0: Any,
    phi: Any,
    theta: Any = 0.0,
    a: Any = 0.0,
    b: Any = 0.0,
    *,
    template: Shot,
    ball: str = "cue",
    cue_mass: Optional[float] = None,
    end_mass: Optional[float] = None,
    engine: str = "event",
    max_events: Optional[int] = None,
    threads: Optional[int] = None,
) -> Batch:
    """Runs one cue strike per entry of V0, phi, theta, a, b (broadcast together) on the
    template's balls, in parallel, with the GIL released.

    Args:
        V0: stick speed (m/s), not the ball's speed.
        phi: aim direction on the cloth (degrees, 0 = +x, counter-clockwise).
        theta: stick elevation (degrees, 0 = level).
        a: side offset of the tip, in ball radii (-1..1).
        b: vertical offset of the tip, in ball radii (-1..1).
        template: the shot whose balls, table and physics every strike starts from.
        ball: id of the struck ball.
        cue_mass, end_mass: the stick's mass and end mass (kg); pooltool's default cue when None.

    Returns:
        A :class:`Batch` (see :func:`simulate_many`); each run's first event is the
        ``stick_ball`` strike at t = 0, which ``first_event_time`` skips.
    """
    cols = np.broadcast_arrays(
        *(np.atleast_1d(np.asarray(x, dtype=np.float64)) for x in (V0, phi, theta, a, b))
    )
    cols = [np.ascontiguousarray(c.ravel()) for c in cols]
    return _strike_many(
        template,
        *cols,
        ball=ball,
        cue_mass=cue_mass,
        end_mass=end_mass,
        engine=engine,
        max_events=max_events,
        threads=threads,
    )
