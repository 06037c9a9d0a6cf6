"""Sharded runs: N shards merged are the unsharded run, byte for byte, locally and on Ray."""

import filecmp
import json
import os
import pathlib
import socket
import sys

import pytest

import billiards_harness as bh
from billiards_harness import cluster


def same_tree(a: pathlib.Path, b: pathlib.Path) -> bool:
    """Every file of a and b equal, byte for byte, and the same file names."""
    files_a = sorted(p.relative_to(a) for p in a.rglob("*") if p.is_file())
    files_b = sorted(p.relative_to(b) for p in b.rglob("*") if p.is_file())
    if files_a != files_b:
        return False
    return all(filecmp.cmp(a / f, b / f, shallow=False) for f in files_a)


STRESS = ["stress", "--shots", "300", "--seed", "11"]
SWEEP = [
    "sweep",
    str(pathlib.Path(__file__).resolve().parents[2] / "data/sweeps/break_9ball_cue.toml"),
    "--param", "V0=2:8",
    "--param", "b=-0.3:0.3",
    "--samples", "60",
    "--seed", "4",
]


@pytest.mark.parametrize("command", [STRESS, SWEEP], ids=["stress", "sweep"])
def test_local_shards_merge_into_the_unsharded_run(tmp_path, command):
    assert bh.cli([*command, "--out", str(tmp_path), "--run-name", "whole"]) == 0
    code = cluster.run_sharded(command, 4, str(tmp_path), "merged", local=True)
    assert code == 0
    assert same_tree(tmp_path / "whole", tmp_path / "merged")
    # Shards never leave their staging behind.
    assert sorted(p.name for p in tmp_path.iterdir()) == ["merged", "whole"]


def test_a_shard_rerun_gives_the_same_bytes():
    first = cluster.run_shard(STRESS, 2, 3)
    again = cluster.run_shard(STRESS, 2, 3)
    assert first == again
    assert "stress/shots.csv" in first and "stress/shard.json" in first


def test_bad_shard_commands_fail_with_the_clis_exit_codes(tmp_path):
    assert bh.cli(["stress", "--shard", "4/3"]) == 2
    assert bh.cli(["merge", str(tmp_path)]) == 2
    with pytest.raises(RuntimeError, match="failed"):
        cluster.run_shard(["stress", "--shots", "0"], 1, 2)


def test_ray_shards_merge_into_the_unsharded_run(tmp_path):
    ray = pytest.importorskip("ray", reason="ray is not installed: pip install 'ray>=2.9'")
    ray.init(num_cpus=2, include_dashboard=False, ignore_reinit_error=True)
    try:
        assert bh.cli([*STRESS, "--out", str(tmp_path), "--run-name", "whole"]) == 0
        assert cluster.run_sharded(STRESS, 8, str(tmp_path), "merged") == 0
        assert same_tree(tmp_path / "whole", tmp_path / "merged")
    finally:
        ray.shutdown()


# A sequential study: a discrete scheme whose dt search adds a candidate a look, and a program
# of the ideal model; several looks within 16 shots.
LOOKS = [
    "outcomes",
    "--outcome-families", "cut",
    "--outcome-tables", "seven_foot",
    "--outcome-shots", "4",
    "--outcome-budget", "16",
    "--outcome-dt", "1e-2",
    "--schemes", "exact",
    "--engines",
    "exec:python3 "
    + str(pathlib.Path(__file__).resolve().parents[2] / "benches/peers/ideal_engine.py"),
    "--chaos-shots", "2",
    "--replays", "2",
]

# Files whose bytes hold times measured while the runs ran (xtask/tests/looks.rs compares what
# in them is not a time).
TIMED = {"outcomes/wall.csv", "report.md", "report.html"}


def test_local_looks_merge_into_the_one_process_study(tmp_path):
    assert bh.cli([*LOOKS, "--out", str(tmp_path), "--run-name", "whole"]) == 0
    assert cluster.run_looks(LOOKS, 2, str(tmp_path), "merged", local=True) == 0
    whole, merged = tmp_path / "whole", tmp_path / "merged"
    files = sorted(str(p.relative_to(whole)) for p in whole.rglob("*") if p.is_file())
    merged_files = sorted(str(p.relative_to(merged)) for p in merged.rglob("*") if p.is_file())
    assert merged_files == sorted([*files, "outcomes/looks.json"])
    for f in files:
        if f not in TIMED:
            assert filecmp.cmp(whole / f, merged / f, shallow=False), f
    state = json.loads((merged / "outcomes/looks.json").read_text())
    assert state["finished"] and state["look"] >= 3
    # The looks' shards and merges leave nothing behind.
    assert sorted(p.name for p in tmp_path.iterdir()) == ["merged", "whole"]


def test_a_stopped_driver_resumes_from_its_last_merged_look(tmp_path):
    # The driver stops after two looks (as a crash would), keeping its last merged look; a new
    # driver, with another shard count, goes on from it and plays nothing twice: the files are
    # the one-process study's, timings aside.
    assert bh.cli([*LOOKS, "--out", str(tmp_path), "--run-name", "whole"]) == 0
    assert cluster.run_looks(LOOKS, 2, str(tmp_path), "merged", local=True, max_looks=2) == 1
    kept = [p for p in tmp_path.iterdir() if p.name.startswith(".merged.looks-")]
    assert len(kept) == 1 and (kept[0] / "look2" / "outcomes/looks.json").is_file()
    assert not (kept[0] / "look1").exists()
    resume = kept[0] / "look2"
    assert cluster.run_looks(LOOKS, 3, str(tmp_path), "merged", local=True, resume=str(resume)) == 0
    whole, merged = tmp_path / "whole", tmp_path / "merged"
    for p in whole.rglob("*"):
        f = str(p.relative_to(whole))
        if p.is_file() and f not in TIMED:
            assert filecmp.cmp(p, merged / f, shallow=False), f
    # The directory resumed from is left as it was.
    assert (resume / "outcomes/looks.json").is_file()
    finished = json.loads((merged / "outcomes/looks.json").read_text())
    assert finished["finished"] and finished["look"] > 2


def test_a_look_shard_rerun_gives_the_same_bytes():
    first = cluster.run_look_shard(LOOKS, 1, None, 2, 3)
    again = cluster.run_look_shard(LOOKS, 1, None, 2, 3)
    for f in ["outcomes/shots.csv", "chaos.csv", "outcomes/shard.json"]:
        assert first[f] == again[f], f


def study_with(engine: str, budget: str = "16") -> list:
    """LOOKS with the program engine ``engine`` instead of the ideal program, and ``budget``."""
    command = list(LOOKS)
    command[command.index("--engines") + 1] = engine
    command[command.index("--outcome-budget") + 1] = budget
    return command


def test_a_shard_whose_program_cannot_start_stops_the_study_with_one_line(tmp_path, capfd):
    # A program missing on the worker (here: everywhere) stops the driver at look 1, before any
    # merge: exit 3 and one line naming the engine and the worker (host and pid).
    command = study_with("exec:/nonexistent/program")
    code = cluster.main(
        ["--local", "--shards", "2", "--out", str(tmp_path), "--run-name", "study", *command]
    )
    assert code == 3
    err = capfd.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    for said in [
        "error: look 1, shard 1/2 on ",
        f"worker {socket.gethostname()} (pid {os.getpid()})",
        "engine exec:/nonexistent/program: cannot start on this worker",
        "before answering its first request",
        "not found",
    ]:
        assert said in lines[0], (said, err)
    assert list(tmp_path.iterdir()) == []
    # The one-look sharded run stops the same way, nothing merged.
    one_look = study_with("exec:/nonexistent/program", "none")
    assert cluster.run_sharded(one_look, 2, str(tmp_path), "one", local=True) == 3
    err = capfd.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "engine exec:/nonexistent/program: cannot start" in err[0], err
    assert list(tmp_path.iterdir()) == []


def test_a_worker_without_the_program_stops_the_study_at_its_look(tmp_path, capfd):
    # The program runs for look 1, then is missing (as on a worker without it): look 2 is not
    # merged, and the driver says which engine and which worker in one line. (The program
    # plays our engine: its cell continues while a budget of 3200 shots could decide it.)
    missing = tmp_path / "missing"
    program = tmp_path / "serve.sh"
    serve = "import sys, billiards_harness as bh; sys.exit(bh.cli(['simulate', '--serve']))"
    program.write_text(
        f'[ -e "{missing}" ] && {{ echo "sh: python3: not found" >&2; exit 127; }}\n'
        f'exec "{sys.executable}" -c "{serve}"\n'
    )
    engine = f"exec:sh {program}"
    command = study_with(engine, "3200")
    out = tmp_path / "out"
    assert cluster.run_looks(command, 2, str(out), "study", local=True, max_looks=1) == 1
    kept = [p for p in out.iterdir() if p.name.startswith(".study.looks-")]
    assert len(kept) == 1 and (kept[0] / "look1/outcomes/looks.json").is_file()
    capfd.readouterr()
    missing.touch()
    look1 = kept[0] / "look1"
    code = cluster.run_looks(command, 2, str(out), "study", local=True, resume=str(look1))
    assert code == 3
    err = capfd.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    for said in [
        "error: look 2, shard 1/2 on ",
        f"worker {socket.gethostname()} (pid {os.getpid()})",
        f"engine {engine}: cannot start on this worker",
        "exit status: 127",
        "python3: not found",
    ]:
        assert said in err[0], (said, err)
    # Look 2 was not merged: the look resumed from is all there is.
    assert sorted(p.name for p in out.iterdir()) == [kept[0].name]
    assert sorted(p.name for p in kept[0].iterdir()) == ["look1"]


def test_ray_a_worker_without_the_program_fails_the_study_with_one_line(tmp_path, capfd):
    ray = pytest.importorskip("ray", reason="ray is not installed: pip install 'ray>=2.9'")
    ray.init(num_cpus=2, include_dashboard=False, ignore_reinit_error=True)
    try:
        command = study_with("exec:/nonexistent/program")
        capfd.readouterr()
        assert cluster.run_looks(command, 2, str(tmp_path), "study") == 3
        err = [
            line for line in capfd.readouterr().err.splitlines() if line.startswith("error: ")
        ]
        assert len(err) == 1, err
        assert "engine exec:/nonexistent/program: cannot start on this worker" in err[0], err
        assert " (pid " in err[0] and "look 1, shard " in err[0], err
        assert list(tmp_path.iterdir()) == []
    finally:
        ray.shutdown()


def test_the_programs_a_study_names_are_the_ones_its_merges_may_start():
    # --engines and --reference, each spec's options (timeout=, dt=, name=) taken off its
    # command; other engines are none of them.
    command = [
        "outcomes",
        "--engines",
        "exec:dt=1e-2:name=euler:python3 euler.py,exec:timeout=5:./fast,discrete:1e-3",
        "--reference=exec:name=fine:dt=1e-4:python3 euler.py --fine",
    ]
    assert cluster._programs(command) == ["python3 euler.py", "./fast", "python3 euler.py --fine"]
    assert cluster._programs(["outcomes", "--reference", "event"]) == []
