"""pooltool Systems in and out: a pooltool user swaps engines in one line.

    import pooltool as pt
    import billiards_harness as bh

    system = bh.simulate_pooltool(system)          # instead of pt.simulate(system)
    shot = bh.from_pooltool(system)                # a pooltool System as our Shot
    system2 = bh.to_pooltool(bh.simulate(shot))    # our run as a pooltool System, events included

Coordinates: pooltool's (x, y) is our (y, x) (its long side runs along y), an exact mirror
both ways: spins change sign, the cue's aim phi becomes 90 - phi and its side offset a becomes
-a (crates/pooltool). Physics: the laws of the resolver given (a pooltool ``Resolver`` or
``PhysicsEngine``), else pooltool's own default resolver (``Resolver.default()``, what
``pt.simulate`` uses); a law or parameter we do not have is a :class:`ShotError`, never a
silent substitute. These functions need pooltool 0.6.0 installed (``ImportError`` otherwise,
saying how to get it).
"""

from __future__ import annotations

import os
import pathlib
import tempfile
from typing import Any, Optional, Tuple, Union

from ._core import Run, Shot, ShotError
from ._core import export_pooltool as _export
from ._core import import_pooltool as _import
from ._core import simulate as _simulate

__all__ = ["from_pooltool", "to_pooltool", "simulate_pooltool"]

_HINT = (
    "pooltool 0.6.0 is not installed; a plain `pip install pooltool-billiards` gets the old "
    "0.3.3: follow benches/peers/README.md"
)


def _pooltool() -> Any:
    try:
        import pooltool
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError(_HINT) from e
    if pooltool.__version__ != "0.6.0":
        raise ImportError(f"pooltool {pooltool.__version__} found; {_HINT}")
    return pooltool


def _resolver_of(engine: Any) -> Any:
    """The Resolver of a PhysicsEngine or Resolver, or pooltool's default one."""
    pt = _pooltool()
    from pooltool.physics.resolve.resolver import Resolver

    if engine is None:
        return Resolver.default()
    if isinstance(engine, Resolver):
        return engine
    resolver = getattr(engine, "resolver", None)
    if isinstance(resolver, Resolver):
        return resolver
    del pt
    raise ShotError(f"engine = {engine!r}: expected a pooltool PhysicsEngine or Resolver")


def from_pooltool_notes(
    system: Any, engine: Any = None, *, name: str = "pooltool"
) -> Tuple[Shot, list]:
    """As :func:`from_pooltool`, and the lines saying what did not carry over (pocketed balls)."""
    _pooltool()
    resolver = _resolver_of(engine)
    with tempfile.TemporaryDirectory(prefix="bh-pooltool-") as tmp:
        system_path = pathlib.Path(tmp) / "system.json"
        resolver_path = pathlib.Path(tmp) / "resolver.yaml"
        system.save(system_path)
        resolver.save(resolver_path)
        return _import(
            str(system_path), name, str(resolver_path), "Imported from a pooltool System"
        )


def from_pooltool(system: Any, engine: Any = None, *, name: str = "pooltool") -> Shot:
    """A pooltool ``System`` as a :class:`Shot`: its table, balls (states and parameters), cue
    strike (when pooltool would strike: t = 0, nothing moving, V0 > 0) and the laws of
    ``engine`` (a ``PhysicsEngine`` or ``Resolver``; default: pooltool's default resolver).
    A simulated System gives its balls' states at the start of its history.

    Raises:
        ShotError: something that cannot carry over (a law we lack, a two-sided cushion...),
            naming the field and value.
    """
    return from_pooltool_notes(system, engine, name=name)[0]


def to_pooltool(run: Union[Run, Shot]) -> Any:
    """A :class:`Run` (with its events and ball histories) or a :class:`Shot` (its set-up
    alone) as a pooltool ``System``, read by pooltool's own ``System.load``."""
    pt = _pooltool()
    text = _export(run)
    with tempfile.TemporaryDirectory(prefix="bh-pooltool-") as tmp:
        path = os.path.join(tmp, "system.json")
        with open(path, "w") as f:
            f.write(text)
        return pt.System.load(path)


def simulate_pooltool(
    system: Any,
    engine: Any = None,
    *,
    our_engine: str = "event",
    max_events: Optional[int] = None,
) -> Any:
    """``pt.simulate(system, engine)`` run by this harness: the System's shot under the
    engine's laws (default: pooltool's default resolver), simulated by ``our_engine`` (an
    engine spec), returned as a new pooltool ``System`` with our events."""
    shot = from_pooltool(system, engine)
    return to_pooltool(_simulate(shot, our_engine, max_events=max_events, check=True))
