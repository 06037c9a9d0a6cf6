"""pooltool Systems both ways. Skipped, with that reason, when pooltool 0.6.0 is absent."""

import pathlib

import numpy as np
import pytest

import billiards_harness as bh

pt = pytest.importorskip("pooltool", reason="pooltool 0.6.0 is not installed (benches/peers/README.md)")
if pt.__version__ != "0.6.0":  # pragma: no cover
    pytest.skip(f"pooltool {pt.__version__}, not 0.6.0", allow_module_level=True)

from pooltool.objects.ball.datatypes import BallState  # noqa: E402


def mirrored(rvw):
    """pooltool's rvw in our frame: (x, y) swapped, spins as pseudovectors (sign flipped)."""
    r, v, w = rvw
    return np.array([[r[1], r[0], r[2]], [v[1], v[0], v[2]], [-w[1], -w[0], -w[2]]])


def scattered_system(seed):
    """Nine balls scattered on pooltool's table, moving and spinning."""
    rng = np.random.default_rng(seed)
    table = pt.Table.default()
    balls = pt.get_rack(pt.GameType.NINEBALL, table)
    system = pt.System(cue=pt.Cue(cue_ball_id="cue"), table=table, balls=balls)
    for ball in system.balls.values():
        rvw = ball.state.rvw.copy()
        rvw[1, :2] = rng.uniform(-2, 2, 2)
        rvw[2] = rng.uniform(-50, 50, 3)
        ball.state = BallState(rvw=rvw, s=2, t=0.0)
    return system


def test_from_pooltool_and_to_pooltool_are_exact_on_coordinates():
    for seed in range(5):
        system = scattered_system(seed)
        shot = bh.from_pooltool(system)
        for i, bid in enumerate(shot.ball_ids):
            assert np.array_equal(shot.states[i], mirrored(system.balls[bid].state.rvw))
        back = bh.to_pooltool(shot)
        for bid, ball in system.balls.items():
            assert np.array_equal(back.balls[bid].state.rvw, ball.state.rvw), bid
        assert bh.from_pooltool(back) == shot


def test_the_physics_is_the_resolvers_and_defaults_to_pooltools_own():
    from pooltool.physics.engine import PhysicsEngine
    from pooltool.physics.resolve.ball_ball.frictionless_elastic import FrictionlessElastic
    from pooltool.physics.resolve.ball_cushion.han_2005.model import (
        Han2005Circular,
        Han2005Linear,
    )
    from pooltool.physics.resolve.resolver import Resolver
    import attrs

    system = scattered_system(1)
    assert bh.from_pooltool(system).physics == "pooltool_default"
    seed_laws = attrs.evolve(
        Resolver.default(),
        ball_ball=FrictionlessElastic(),
        ball_linear_cushion=Han2005Linear(),
        ball_circular_cushion=Han2005Circular(),
    )
    assert bh.from_pooltool(system, PhysicsEngine(resolver=seed_laws)).physics == "pool"


def test_a_law_we_lack_is_an_error_not_a_substitute(tmp_path):
    system = scattered_system(2)
    system.save(tmp_path / "system.json")
    pt.physics.resolve.resolver.Resolver.default().save(tmp_path / "resolver.yaml")
    text = (tmp_path / "resolver.yaml").read_text()
    assert "frictional_inelastic" in text
    (tmp_path / "resolver.yaml").write_text(text.replace("frictional_inelastic", "magic_throw"))
    with pytest.raises(bh.ShotError, match="magic_throw"):
        bh._core.import_pooltool(str(tmp_path / "system.json"), "x", str(tmp_path / "resolver.yaml"))


def test_simulate_pooltool_swaps_the_engine_in_one_line():
    table = pt.Table.default()
    system = pt.System(
        cue=pt.Cue(cue_ball_id="cue"),
        table=table,
        balls=pt.get_rack(pt.GameType.NINEBALL, table),
    )
    system.strike(V0=6, phi=pt.aim.at_ball(system, "1"))
    ours = bh.simulate_pooltool(system)
    assert isinstance(ours, pt.System)
    kinds = [e.event_type.value for e in ours.events]
    assert kinds[0] == "stick_ball" or kinds[1] == "stick_ball"
    assert "ball_ball" in kinds
    # Our run read back is the same shot, and pooltool's own tools take it.
    assert bh.from_pooltool(ours) == bh.from_pooltool(system)
    pt.continuize(ours, inplace=True)
