"""The Python package against the Rust crates it wraps: same shots, same runs, same errors."""

import pathlib
import threading
import time

import numpy as np
import pytest

import billiards_harness as bh

ROOT = pathlib.Path(__file__).resolve().parents[2]
SHOTS = ROOT / "data" / "shots"
DEFAULT_SHOTS = sorted(SHOTS.glob("*.toml"))


def test_every_default_shot_round_trips_through_toml_bit_for_bit():
    assert len(DEFAULT_SHOTS) >= 10
    for path in DEFAULT_SHOTS:
        shot = bh.load(path)
        again = bh.Shot.from_toml(shot.to_toml(), shot.name)
        assert again == shot, path.name
        assert np.array_equal(again.states, shot.states)
        assert again.ball_ids == shot.ball_ids


def test_a_shot_is_given_as_a_path_text_or_object_with_the_same_run():
    path = SHOTS / "cut.toml"
    runs = [
        bh.simulate(path),
        bh.simulate(str(path)),
        bh.simulate(bh.load(path)),
        bh.simulate(bh.Shot.from_toml(path.read_text(), "cut")),
    ]
    for run in runs[1:]:
        assert [(e.kind, e.agents, e.time) for e in run.events] == [
            (e.kind, e.agents, e.time) for e in runs[0].events
        ]
        assert np.array_equal(run.final_states, runs[0].final_states)


def test_make_shot_gives_the_shot_file_it_describes():
    shot = bh.load(SHOTS / "straight.toml")
    made = bh.make_shot(
        shot.states, table=shot.table, physics="pool", ball_ids=shot.ball_ids, name=shot.name
    )
    assert np.array_equal(made.states, shot.states)
    a = bh.simulate(made)
    b = bh.simulate(shot)
    assert np.array_equal(a.event_times, b.event_times)
    assert np.array_equal(a.final_states, b.final_states)


def test_states_at_follows_the_run():
    run = bh.simulate(SHOTS / "break_9ball.toml")
    start = run.states_at(0.0)
    assert np.array_equal(start, bh.load(SHOTS / "break_9ball.toml").states)
    end = run.states_at(run.end_time)
    assert np.allclose(end[:, 0, :2], run.final_states[:, 0, :2], atol=1e-12)
    many = run.states_at(np.linspace(0.0, run.end_time, 7))
    assert many.shape == (7, len(run.ball_ids), 3, 3)
    # Balls stay on the cloth: z = R at every time.
    assert np.all(many[:, :, 0, 2] == bh.load(SHOTS / "break_9ball.toml").radius)
    with pytest.raises(ValueError, match="outside the run's time span"):
        run.states_at(run.end_time + 1.0)


def random_breaks(n, seed=7):
    """n 9-ball racks with the cue ball struck in random directions and speeds."""
    shot = bh.load(SHOTS / "break_9ball.toml")
    rng = np.random.default_rng(seed)
    states = np.repeat(shot.states[None], n, axis=0)
    speed = rng.uniform(2.0, 10.0, n)
    angle = rng.uniform(-0.08, 0.08, n)
    cue = shot.ball_ids.index("cue")
    states[:, cue, 1, 0] = speed * np.cos(angle)
    states[:, cue, 1, 1] = speed * np.sin(angle)
    states[:, cue, 2, :] = 0.0
    return shot, states


def test_simulate_many_is_simulate_row_by_row_bit_for_bit():
    shot, states = random_breaks(24)
    for engine in ["event", "discrete:1e-3"]:
        batch = bh.simulate_many(states, template=shot, engine=engine, threads=2)
        assert len(batch) == 24
        for k in range(24):
            run = bh.simulate(shot.with_states(states[k]), engine)
            assert np.array_equal(batch.final_states[k], run.final_states), (engine, k)
            assert np.array_equal(batch.final_motion_states[k], run.final_motion_states)
            assert batch.n_events[k] == len(run.events)
            assert batch.end_time[k] == run.end_time
            assert batch.first_event_time[k] == run.events[0].time
            assert batch.termination[k] == run.termination


def test_the_batch_does_not_depend_on_the_thread_count():
    shot, states = random_breaks(16, seed=11)
    one = bh.simulate_many(states, template=shot, threads=1)
    two = bh.simulate_many(states, template=shot, threads=2)
    assert np.array_equal(one.final_states, two.final_states)
    assert np.array_equal(one.n_events, two.n_events)


def at_rest(shot):
    """The shot with every ball at rest where it is."""
    states = shot.states.copy()
    states[:, 1:, :] = 0.0
    return shot.with_states(states)


def test_strike_many_is_the_shot_files_cue_strike():
    shot = at_rest(bh.load(SHOTS / "straight.toml"))
    V0 = np.array([1.0, 2.5, 4.0])
    phi, theta, a, b = 3.0, 5.0, 0.2, -0.3
    batch = bh.strike_many(V0, phi, theta, a, b, template=shot)
    for k, v0 in enumerate(V0.tolist()):
        struck = shot.with_strike(v0, phi, theta, a, b)
        assert bh.Shot.from_toml(struck.to_toml(), shot.name) == struck
        run = bh.simulate(struck)
        assert run.events[0].kind == "stick_ball" and run.events[0].time == 0.0
        assert batch.n_events[k] == len(run.events)
        assert np.array_equal(batch.final_states[k], run.final_states)
        assert batch.first_event_time[k] == run.events[1].time


def test_batches_say_what_a_game_reads_and_compare_with_outcome_agreement():
    # Cut shots from the cut shot file's cue ball and object ball, over cut angle and speed.
    shot = at_rest(bh.load(SHOTS / "cut.toml"))
    rng = np.random.default_rng(3)
    n = 120
    phi = rng.uniform(-12.0, 12.0, n)
    V0 = rng.uniform(1.0, 3.0, n)
    event = bh.strike_many(V0, phi, 0.0, 0.0, 0.0, template=shot)
    coarse = bh.strike_many(V0, phi, 0.0, 0.0, 0.0, template=shot, engine="discrete:1e-2")
    assert event.cue == 0
    assert len(event.pocket_ids) == len(set(event.pocket_ids)) == 6
    assert event.first_contact.shape == (n,) and event.pocket.shape == (n, 2)
    # Row by row, what the event log says.
    for k in range(0, n, 7):
        run = bh.simulate(shot.with_strike(V0[k], phi[k], 0.0, 0.0, 0.0))
        contacts = [e for e in run.events if e.kind == "ball_ball"]
        if contacts:
            assert event.first_contact[k] == 1
            assert event.first_contact_time[k] == contacts[0].time
        else:
            assert event.first_contact[k] == -1 and np.isnan(event.first_contact_time[k])
        pocketed = {e.agents[0]: e.agents[1] for e in run.events if e.kind == "ball_pocket"}
        for i, ball in enumerate(["cue", "1"]):
            p = event.pocket[k, i]
            assert (event.pocket_ids[p] if p >= 0 else None) == pocketed.get(ball)
        assert event.scratch[k] == ("cue" in pocketed)
        assert event.ended[k]
    # A batch agrees with itself on every field, to the bit.
    same = bh.outcome_agreement(event, event)
    for field in ["outcome", "first_contact", "first_cushion", "pocketed", "scratch", "end",
                  "cue_position", "positions"]:
        assert same[field].dtype == np.bool_ and same[field].all(), field
    assert np.nanmax(same["cue_position_error_m"]) == 0.0
    # The end-of-step integrator at dt = 1e-2 s changes some of these cuts.
    vs = bh.outcome_agreement(event, coarse)
    assert 0 < (~vs["outcome"]).sum() < n
    assert (vs["outcome"] <= (vs["pocketed"] & vs["scratch"] & vs["first_contact"] & vs["end"])).all()
    assert np.nanmax(vs["cue_position_error_m"]) > 0.01
    with pytest.raises(bh.ShotError, match="other: 3 shots, expected 120"):
        bh.outcome_agreement(event, bh.strike_many(V0[:3], phi[:3], template=shot))
    with pytest.raises(bh.ShotError, match="position_tol"):
        bh.outcome_agreement(event, coarse, position_tol=float("nan"))


def test_distributions_of_batches_with_the_studys_statistics_and_verdicts():
    shot = at_rest(bh.load(SHOTS / "cut.toml"))
    rng = np.random.default_rng(5)
    # Enough shots for a batch that never changes a shot to be shown within half a point of
    # no change (a bounded mean needs about ln(20) / (0.75 x 0.005) = 800 shots of zeros).
    n = 1400
    phi = rng.uniform(-12.0, 12.0, n)
    V0 = rng.uniform(1.0, 3.0, n)
    event = bh.strike_many(V0, phi, 0.0, 0.0, 0.0, template=shot)
    coarse = bh.strike_many(V0, phi, 0.0, 0.0, 0.0, template=shot, engine="discrete:1e-2")
    d = bh.outcome_distribution(event)
    # The object ball is the only one that can be pocketed: the mean is its pocketed rate.
    potted = (event.pocket[:, 1] >= 0).mean()
    assert d["balls_pocketed"]["value"] == pytest.approx(potted)
    assert d["balls_pocketed"]["low"] < potted < d["balls_pocketed"]["high"]
    assert d["scratch"]["value"] == pytest.approx(event.scratch.mean())
    assert d["cue_final_xy"].shape == (n, 2)
    on_cloth = ~event.scratch
    assert np.isfinite(d["cue_final_xy"][on_cloth]).all()
    assert d["cue_x"]["value"] == pytest.approx(d["cue_final_xy"][on_cloth, 0].mean())
    # A batch against itself: the same games, shot by shot.
    same = bh.compare_distributions(event, event)
    assert same["verdict"] == "keeps the game", same["detail"]
    assert all(
        r["decision"] == "within" for r in same["rows"] if r["statistic"] != "cue_position"
    )
    # The end-of-step integrator at 1e-2 s changes cut shots: it does not keep the game.
    vs = bh.compare_distributions(event, coarse)
    assert vs["verdict"] != "keeps the game"
    assert vs["shot_by_shot"] in ("beyond the floor margin", "undecided")
    # Different shots cannot be paired; unpaired they are judged as independent samples.
    with pytest.raises(bh.ShotError, match="paired=False"):
        bh.compare_distributions(event, bh.strike_many(V0[:3], phi[:3], template=shot))
    half = bh.compare_distributions(
        bh.strike_many(V0[:700], phi[:700], template=shot),
        bh.strike_many(V0[700:], phi[700:], template=shot),
        paired=False,
    )
    assert half["verdict"] != "changes its statistics" and half["shot_by_shot"] == ""
    with pytest.raises(bh.ShotError, match="margin_rate"):
        bh.compare_distributions(event, event, margin_rate=0.0)


def test_bad_input_raises_the_command_lines_one_line_errors():
    with pytest.raises(bh.ShotError, match=r"nope\.toml: file = \(unreadable\)"):
        bh.load("nope.toml")
    with pytest.raises(bh.ShotError, match=r"balls\[1\]\.r .*overlap"):
        bh.simulate(
            'description = "x"\ntable = "seven_foot"\n'
            "[[balls]]\nid = \"a\"\nr = [0.5, 0.5]\n[[balls]]\nid = \"b\"\nr = [0.52, 0.5]\n"
        )
    shot, states = random_breaks(3)
    states[2, 0, 0, 0] = np.nan
    with pytest.raises(bh.ShotError, match=r"states\[2\]: balls\[0\]\.r"):
        bh.simulate_many(states, template=shot)
    with pytest.raises(bh.ShotError, match=r"engine = \"warp\""):
        bh.simulate(SHOTS / "cut.toml", "warp")
    with pytest.raises(bh.ShotError, match=r"discrete:0"):
        bh.simulate(SHOTS / "cut.toml", "discrete:0")
    with pytest.raises(bh.ShotError, match=r"states: shape"):
        bh.simulate_many(np.zeros((2, 3, 3)), template=shot)
    with pytest.raises(bh.ShotError, match=r"V0"):
        bh.strike_many([-1.0], 0.0, template=at_rest(bh.load(SHOTS / "straight.toml")))
    with pytest.raises(bh.ShotError, match=r"must be at rest"):
        bh.strike_many([1.0], 0.0, template=bh.load(SHOTS / "straight.toml"))
    with pytest.raises(bh.ShotError, match=r"params\.R"):
        bh.make_shot(shot.states, params={"R": -1.0})
    assert issubclass(bh.ShotError, ValueError)
    assert issubclass(bh.RunError, RuntimeError)


def test_a_run_without_a_physical_end_raises_unless_asked_not_to():
    with pytest.raises(bh.RunError, match="budget"):
        bh.simulate(SHOTS / "break_15ball.toml", max_events=5)
    run = bh.simulate(SHOTS / "break_15ball.toml", max_events=5, check=False)
    assert run.termination == "budget" and len(run.events) == 5


def test_a_batch_releases_the_gil():
    shot, states = random_breaks(400, seed=3)
    counter = [0]
    stop = threading.Event()

    def spin():
        while not stop.is_set():
            counter[0] += 1

    t = threading.Thread(target=spin)
    t.start()
    try:
        time.sleep(0.05)
        before = counter[0]
        t0 = time.perf_counter()
        bh.simulate_many(states, template=shot, threads=1)
        elapsed = time.perf_counter() - t0
        during = counter[0] - before
    finally:
        stop.set()
        t.join()
    # With the GIL held for the whole batch the other thread could not count at all.
    assert elapsed > 0.01
    assert during > 1000, f"the Python thread counted {during} times in {elapsed:.3f} s"


def test_balls_with_their_own_radius_keep_it_through_states_and_runs():
    # heavy_cue: a bar-box cue ball (R = 30.163 mm) and a pool ball (28.575 mm).
    shot = bh.load(SHOTS / "heavy_cue.toml")
    assert shot.radii == [0.030163, 0.028575]
    assert shot.radius == 0.028575
    assert list(shot.states[:, 0, 2]) == shot.radii
    same = shot.with_states(shot.states)
    assert same == shot
    a, b = bh.simulate(same), bh.simulate(shot)
    assert np.array_equal(a.event_times, b.event_times)
    # Each ball stays at its own height, and z must be the ball's own R.
    run = bh.simulate(shot)
    assert np.all(run.states_at(np.linspace(0.0, run.end_time, 5))[:, :, 0, 2] == shot.radii)
    wrong = shot.states.copy()
    wrong[0, 0, 2] = 0.028575
    with pytest.raises(bh.ShotError, match="z must equal the ball radius R = 0.030163"):
        shot.with_states(wrong)


def test_event_agents_name_one_thing_each():
    # On pooltool's table, whose cushions pooltool numbers 1..18 like balls: ours are c1..c18,
    # pockets named where they are in our frame, and no ball may take a table element's id.
    shot = bh.load(SHOTS / "break_9ball_pooltool.toml")
    balls = set(shot.ball_ids)
    run = bh.simulate(shot)
    others = set()
    for e in run.events:
        n = 2 if e.kind == "ball_ball" else 1
        assert set(e.agents[:n]) <= balls, e
        others.update(e.agents[n:])
    assert others and not (others & balls), others
    assert all(a.startswith("c") or a in {"lb", "cb", "rb", "lt", "ct", "rt"} for a in others)
    text = shot.to_toml().replace('id = "9"', 'id = "c9"', 1)
    with pytest.raises(bh.ShotError, match=r"balls\[\d+\]\.id = \"c9\".*cushions\[\d+\] has the same id"):
        bh.Shot.from_toml(text, "x")


def test_batches_on_a_games_table_carry_its_fields():
    # pooltool's three-cushion start position, the cue ball struck at the red over a fan of
    # aims and side spins: each run's point and cushions before the second ball, as
    # pooltool's is_point counts them, and the game's own statistics.
    shot = bh.load(SHOTS / "games" / "three_cushion_rack.toml")
    rng = np.random.default_rng(5)
    n = 60
    white, red = shot.states[0, 0, :2], shot.states[2, 0, :2]
    aim = np.degrees(np.arctan2(*(red - white)[::-1]))
    phi = aim + rng.uniform(-2.0, 2.0, n)
    a = rng.uniform(-0.6, 0.6, n)
    batch = bh.strike_many(rng.uniform(5.0, 9.0, n), phi, 0.0, a, 0.2, template=shot, ball="white")
    assert len(batch.score) == n
    assert all(set(s) == {"point", "cushions"} for s in batch.score)
    for s in batch.score:
        cushions = int(s["cushions"]) if s["cushions"] else None
        assert s["point"] == ("1" if cushions is not None and cushions >= 3 else "0")
    assert {s["point"] for s in batch.score} == {"0", "1"}
    stats = bh.outcome_distribution(batch)
    assert "point" in stats and "balls_pocketed" not in stats
    points = sum(s["point"] == "1" for s in batch.score)
    assert stats["point"]["value"] == points / n
    # On pool's tables a batch has no game fields.
    pool = bh.strike_many(np.array([2.0]), 0.0, 0.0, 0.0, 0.0, template=at_rest(bh.load(SHOTS / "straight.toml")))
    assert pool.score == [{}]
