"""Nothing a program or a caller says is taken on trust (issue 33), from Python: exec sessions
end with their processes and bounded memory, a failure says its cause, and arguments are
checked as the command line checks them."""

import os
import pathlib
import resource
import time

import numpy as np
import pytest

import billiards_harness as bh

ROOT = pathlib.Path(__file__).resolve().parents[2]
SHOTS = ROOT / "data" / "shots"


def live_processes_with(marker):
    """Running processes whose command line contains `marker` (zombies have none)."""
    n = 0
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            cmdline = (pathlib.Path("/proc") / pid / "cmdline").read_bytes()
        except OSError:
            continue
        if marker in cmdline.replace(b"\0", b" ").decode(errors="replace"):
            n += 1
    return n


def settled(marker):
    deadline = time.monotonic() + 3
    while live_processes_with(marker) and time.monotonic() < deadline:
        time.sleep(0.05)
    return live_processes_with(marker)


def at_rest(shot):
    states = shot.states.copy()
    states[:, 1:, :] = 0.0
    return shot.with_states(states)


def test_a_child_holding_the_output_ends_at_the_timeout_and_survives_nothing():
    marker = "sleep 309.0331"
    shot = at_rest(bh.load(SHOTS / "straight.toml"))
    before = live_processes_with(marker)
    t = time.monotonic()
    batch = bh.strike_many(
        [1.0, 2.0], 0.0, template=shot, engine=f"exec:timeout=2:({marker} &); exit 0", threads=2
    )
    took = time.monotonic() - t
    assert took < 2 + 5 + 2, took
    assert batch.termination == ["failed", "failed"]
    assert all("timeout of 2 s" in e for e in batch.errors), batch.errors
    assert settled(marker) == before


def test_an_exec_failure_says_its_cause():
    shot = SHOTS / "cut.toml"
    with pytest.raises(bh.RunError, match=r"termination failed: .*answer is not JSON .*nope"):
        bh.simulate(shot, "exec:timeout=5:read l; echo nope")
    run = bh.simulate(shot, "exec:timeout=5:read l; echo nope", check=False)
    assert run.termination == "failed"
    assert "answer is not JSON" in run.error
    assert bh.simulate(shot).error is None


def test_junk_output_keeps_memory_bounded():
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    t = time.monotonic()
    with pytest.raises(bh.RunError, match=r"answer is not JSON"):
        bh.simulate(SHOTS / "cut.toml", "exec:timeout=5:yes")
    assert time.monotonic() - t < 5
    grown_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    assert grown_kb < 100_000, grown_kb


def test_batches_of_other_balls_are_not_compared():
    cut = bh.load(SHOTS / "cut.toml")
    brk = bh.load(SHOTS / "break_9ball.toml")
    a = bh.simulate_many(np.stack([cut.states] * 2), template=cut)
    b = bh.simulate_many(np.stack([brk.states] * 2), template=brk)
    assert a.ball_ids == cut.ball_ids
    with pytest.raises(bh.ShotError, match=r"other: balls .* expected the reference's balls"):
        bh.outcome_agreement(a, b)
    assert bh.outcome_agreement(a, a)["outcome"].all()


def test_threads_and_max_events_have_the_command_lines_limits():
    shot = at_rest(bh.load(SHOTS / "straight.toml"))
    with pytest.raises(bh.ShotError, match=r"threads = 10000: must be in \[1, 256\]"):
        bh.strike_many([1.0], 0.0, template=shot, threads=10000)
    with pytest.raises(bh.ShotError, match=r"threads = 0"):
        bh.strike_many([1.0], 0.0, template=shot, threads=0)
    for bad in (0, 2**63):
        with pytest.raises(bh.ShotError, match=rf"max_events = {bad}: must be in \[1, 1000000\]"):
            bh.simulate(SHOTS / "cut.toml", max_events=bad)
        with pytest.raises(bh.ShotError, match=rf"max_events = {bad}"):
            bh.strike_many([1.0], 0.0, template=shot, max_events=bad)
    assert len(bh.strike_many([1.0], 0.0, template=shot, threads=256)) == 1


def test_float32_states_are_named_by_their_dtype():
    shot = bh.load(SHOTS / "cut.toml")
    with pytest.raises(bh.ShotError, match=r"states: dtype float32, expected float64"):
        shot.with_states(shot.states.astype(np.float32))
    with pytest.raises(bh.ShotError, match=r"states: .*expected a 3-d array"):
        shot.with_states(shot.states[0])


def test_a_budget_is_read_by_the_harnesss_own_parser():
    from billiards_harness import _core, cluster

    assert _core.parse_budget("3200,30s") == (3200, 30.0)
    assert _core.parse_budget("45s,800") == (800, 45.0)
    assert _core.parse_budget("none") is None
    # A forgotten `s`, a count twice, a duration twice: each names its part.
    for text, part in [("6400,5100", '"5100"'), ("100,5s,7", '"7"'), ("3s,1s", '"1s"')]:
        with pytest.raises(ValueError, match=part):
            _core.parse_budget(text)
    # The cluster driver refuses it as the command line would, before any shard runs.
    with pytest.raises(SystemExit) as e:
        cluster.main(["--local", "--run-name", "x", "outcomes", "--outcome-budget", "800,400"])
    assert e.value.code == 2
