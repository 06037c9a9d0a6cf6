"""Sharded stress runs and sweeps on Ray: one task per shard, the shards merged into the
unsharded run's files, byte for byte.

Each task runs ``xtask <stress|sweep> ... --shard K/N`` inside the worker's Python process (the
command line is compiled into the extension module, so a worker needs only this package, no
checkout and no Rust toolchain), returns its shard's files, and the driver merges them with
``xtask merge``. Shards are deterministic: a killed or failed task re-run gives the same bytes.

Locally::

    python -m billiards_harness.cluster --shards 8 --out reports --run-name breaks \\
        stress --kinds break9,break15 --shots 100000 --seed 1

On a Ray cluster, start it (``ray start --head`` on one machine, ``ray start
--address=<head>:6379`` on the others, this package installed on all) and set ``RAY_ADDRESS``
or pass ``--address``. Without Ray, ``--local`` runs the shards one after another in this
process, which is also what a Slurm or Kubernetes job array does with ``--shard`` (see
README.md, "Sweeps on a cluster").
"""

from __future__ import annotations

import argparse
import os
import pathlib
import shutil
import sys
import tempfile
from typing import Dict, List, Optional, Sequence

from ._core import cli

__all__ = ["run_shard", "run_sharded", "main"]


def run_shard(command: Sequence[str], k: int, n: int) -> Dict[str, bytes]:
    """Runs shard k of n (1-based) of ``command`` (e.g. ``["stress", "--shots", "1000"]``) in a
    temporary directory and returns its files as {path relative to the run directory: bytes}.

    Raises:
        RuntimeError: the command failed (its exit code and the line it wrote).
    """
    with tempfile.TemporaryDirectory(prefix="bh-shard-") as tmp:
        name = f"shard-{k}-of-{n}"
        code = cli([*command, "--shard", f"{k}/{n}", "--out", tmp, "--run-name", name])
        run_dir = pathlib.Path(tmp) / name
        if not run_dir.is_dir():
            raise RuntimeError(f"shard {k}/{n} of {' '.join(command)!r} failed (exit {code})")
        files = {
            str(p.relative_to(run_dir)): p.read_bytes()
            for p in sorted(run_dir.rglob("*"))
            if p.is_file()
        }
        if code not in (0, 1):
            raise RuntimeError(f"shard {k}/{n} of {' '.join(command)!r}: exit {code}")
        return files


def _write_shard(root: pathlib.Path, k: int, n: int, files: Dict[str, bytes]) -> pathlib.Path:
    d = root / f"shard-{k}-of-{n}"
    for rel, data in files.items():
        p = d / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data)
    return d


def run_sharded(
    command: Sequence[str],
    shards: int,
    out: str,
    run_name: str,
    *,
    address: Optional[str] = None,
    local: bool = False,
    keep_shards: bool = False,
) -> int:
    """Runs ``command`` as ``shards`` Ray tasks (or one after another with ``local``), then
    merges them into ``out/run_name``. Returns the merge's exit code (0 when every shot passed,
    1 when some failed, as the unsharded command would)."""
    if shards < 1:
        raise ValueError(f"shards = {shards}: must be at least 1")
    out_dir = pathlib.Path(out)
    out_dir.mkdir(parents=True, exist_ok=True)
    shard_root = pathlib.Path(tempfile.mkdtemp(prefix=f".{run_name}.shards-", dir=out_dir))
    try:
        if local:
            results = [run_shard(command, k, shards) for k in range(1, shards + 1)]
        else:
            try:
                import ray
            except ImportError:
                print(
                    "ray is not installed: pip install 'ray>=2.9' (or use --local)",
                    file=sys.stderr,
                )
                return 2
            if not ray.is_initialized():
                ray.init(address=address or os.environ.get("RAY_ADDRESS"))
            task = ray.remote(run_shard)
            # A task whose worker dies is retried: a shard's output depends only on (k, n).
            futures = [
                task.options(max_retries=3).remote(list(command), k, shards)
                for k in range(1, shards + 1)
            ]
            results = ray.get(futures)
        dirs = [_write_shard(shard_root, k, shards, f) for k, f in enumerate(results, start=1)]
        return cli(["merge", *map(str, dirs), "--out", str(out_dir), "--run-name", run_name])
    finally:
        if not keep_shards:
            shutil.rmtree(shard_root, ignore_errors=True)


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m billiards_harness.cluster",
        description="Run `xtask stress` or `xtask sweep` in shards on Ray and merge them.",
    )
    ap.add_argument("--shards", type=int, default=8, help="number of shards (Ray tasks)")
    ap.add_argument("--out", default="reports", help="directory receiving the merged run")
    ap.add_argument("--run-name", required=True, help="name of the merged run directory")
    ap.add_argument("--address", help="Ray cluster address (default: $RAY_ADDRESS, else local)")
    ap.add_argument("--local", action="store_true", help="no Ray: run the shards in turn here")
    ap.add_argument("--keep-shards", action="store_true", help="keep the shards' directories")
    ap.add_argument("command", nargs=argparse.REMAINDER, help="stress|sweep and its options")
    args = ap.parse_args(argv)
    if not args.command or args.command[0] not in ("stress", "sweep"):
        ap.error("give the command to shard: stress ... or sweep ...")
    return run_sharded(
        args.command,
        args.shards,
        args.out,
        args.run_name,
        address=args.address,
        local=args.local,
        keep_shards=args.keep_shards,
    )


if __name__ == "__main__":
    sys.exit(main())
