"""Sharded runs: N shards merged are the unsharded run, byte for byte, locally and on Ray."""

import filecmp
import json
import pathlib

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
