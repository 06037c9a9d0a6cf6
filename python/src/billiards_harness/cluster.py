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

``outcomes`` with a budget of shots (its default) is a sequential study: it runs look by look
(:func:`run_looks`), the shards of look K as tasks (each given the state the merge of look K - 1
wrote, ``outcomes/looks.json``), merged with ``xtask merge --look K``, until the merge says the
study is finished; the last merged look is the one-process ``outcomes`` run's files, timings
aside.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import shutil
import socket
import sys
import tempfile
from typing import Dict, List, Optional, Sequence

from . import _core
from ._core import cli, cli_result

__all__ = [
    "ShardCannotStart",
    "run_shard",
    "run_sharded",
    "run_look_shard",
    "run_looks",
    "main",
]

# The shard's exit code when a program engine (``exec:``) cannot start on its worker.
CANNOT_START = 3


class ShardCannotStart(RuntimeError):
    """A shard's program engine (``exec:``) cannot start on its worker (not found there, not
    executable, its interpreter missing): the shard stopped before playing or writing anything.
    Its one line names the shard, the worker (host and pid) and the engine."""


def run_shard(command: Sequence[str], k: int, n: int) -> Dict[str, bytes]:
    """Runs shard k of n (1-based) of ``command`` (e.g. ``["stress", "--shots", "1000"]``) in a
    temporary directory and returns its files as {path relative to the run directory: bytes}.

    Raises:
        ShardCannotStart: a program engine (``exec:``) cannot start on this worker.
        RuntimeError: the command failed (its exit code and the line it wrote).
    """
    with tempfile.TemporaryDirectory(prefix="bh-shard-") as tmp:
        name = f"shard-{k}-of-{n}"
        code, error = cli_result([*command, "--shard", f"{k}/{n}", "--out", tmp, "--run-name", name])
        if code == CANNOT_START and error is not None:
            raise ShardCannotStart(f"shard {k}/{n} on {_worker()}: {error}")
        if error is not None:
            print(f"error: {error}", file=sys.stderr)
        run_dir = pathlib.Path(tmp) / name
        if not run_dir.is_dir():
            raise RuntimeError(
                f"shard {k}/{n} of {' '.join(command)!r} failed on {_worker()} (exit {code})"
            )
        files = {
            str(p.relative_to(run_dir)): p.read_bytes()
            for p in sorted(run_dir.rglob("*"))
            if p.is_file()
        }
        if code not in (0, 1):
            raise RuntimeError(f"shard {k}/{n} of {' '.join(command)!r} on {_worker()}: exit {code}")
        return files


def _worker() -> str:
    """This worker, for an error line: its host name and process id (the command's own line,
    naming the engine, is on the worker's stderr, which Ray forwards to the driver)."""
    return f"worker {socket.gethostname()} (pid {os.getpid()})"


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
    1 when some failed, as the unsharded command would), or 3 with one line naming the engine
    and the worker when a shard's program engine (``exec:``) cannot start on its worker
    (nothing is merged)."""
    if shards < 1:
        raise ValueError(f"shards = {shards}: must be at least 1")
    out_dir = pathlib.Path(out)
    out_dir.mkdir(parents=True, exist_ok=True)
    shard_root = pathlib.Path(tempfile.mkdtemp(prefix=f".{run_name}.shards-", dir=out_dir))
    try:
        return _run_sharded(command, shards, out_dir, run_name, shard_root, address, local)
    except ShardCannotStart as e:
        print(f"error: {_cannot_start(e)}", file=sys.stderr)
        return CANNOT_START
    finally:
        if not keep_shards:
            shutil.rmtree(shard_root, ignore_errors=True)


def _run_sharded(
    command: Sequence[str],
    shards: int,
    out_dir: pathlib.Path,
    run_name: str,
    shard_root: pathlib.Path,
    address: Optional[str],
    local: bool,
) -> int:
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
        results = _gather(futures)
    dirs = [_write_shard(shard_root, k, shards, f) for k, f in enumerate(results, start=1)]
    return cli(["merge", *map(str, dirs), "--out", str(out_dir), "--run-name", run_name])


def run_look_shard(
    command: Sequence[str], look: int, state: Optional[bytes], k: int, n: int
) -> Dict[str, bytes]:
    """Runs shard k of n of look ``look`` of the sequential study ``command`` (``["outcomes",
    ...]``), resuming from ``state`` (the bytes of the merged look's ``outcomes/looks.json``,
    which is all a shard reads of it; None for look 1), and returns its files as
    :func:`run_shard` does."""
    with tempfile.TemporaryDirectory(prefix="bh-look-") as tmp:
        extra = ["--look", str(look)]
        if state is not None:
            resume = pathlib.Path(tmp) / "resume"
            (resume / "outcomes").mkdir(parents=True)
            (resume / "outcomes" / "looks.json").write_bytes(state)
            extra += ["--resume", str(resume)]
        try:
            return run_shard([*command, *extra], k, n)
        except ShardCannotStart as e:
            raise ShardCannotStart(f"look {look}, {e}") from None


def _cannot_start(e: BaseException) -> str:
    """The one line of a :class:`ShardCannotStart`, raised here or on a Ray worker (Ray's
    error is an instance of it, its ``cause`` the worker's own)."""
    return str(getattr(e, "cause", None) or e).splitlines()[0]


def _gather(futures: list) -> list:
    """``ray.get`` of a look's or a run's shards; when one cannot start its program, the
    others are cancelled (the study stops there)."""
    import ray

    try:
        return ray.get(futures)
    except ShardCannotStart:
        for f in futures:
            try:
                ray.cancel(f)
            except Exception:  # noqa: BLE001 - a finished or failed task cannot be cancelled
                pass
        raise


def _programs(command: Sequence[str]) -> List[str]:
    """The commands of the program engines (``exec:``) named by ``--engines`` and
    ``--reference`` in ``command``: the user named them, so the merges' replays may start them."""
    specs: List[str] = []
    for i, word in enumerate(command):
        if word == "--engines" and i + 1 < len(command):
            specs += command[i + 1].split(",")
        elif word.startswith("--engines="):
            specs += word[len("--engines="):].split(",")
        elif word == "--reference" and i + 1 < len(command):
            specs.append(command[i + 1])
        elif word.startswith("--reference="):
            specs.append(word[len("--reference="):])
    out = []
    for spec in specs:
        if spec.startswith("exec:"):
            rest = spec[len("exec:"):]
            # The spec's options (timeout=, dt=, name=, any order) before the command.
            while rest.split("=", 1)[0] in ("timeout", "dt", "name") and ":" in rest:
                rest = rest.split(":", 1)[1]
            out.append(rest)
    return out


def run_looks(
    command: Sequence[str],
    shards: int,
    out: str,
    run_name: str,
    *,
    address: Optional[str] = None,
    local: bool = False,
    keep_shards: bool = False,
    max_looks: int = 10_000,
    resume: Optional[str] = None,
) -> int:
    """Runs the sequential outcome study ``command`` (``["outcomes", ...]``, a budget of shots)
    look by look: the ``shards`` shards of look K as Ray tasks (or one after another with
    ``local``), merged with ``xtask merge --look K``, until the merge's state says the study is
    finished; the last merged look becomes ``out/run_name``. Returns the last merge's exit code
    (that of a failed command when one fails; 3, with one line naming the engine and the
    worker, when a shard's program engine cannot start on its worker: that look is not merged).

    The driver keeps nothing but the merged looks, each written whole or not at all. A driver
    that stops before the study is finished (a crash, ``max_looks``) keeps its last merged look
    and says where; ``resume`` (that directory) goes on from it, playing nothing twice: the
    finished files are those of a run never stopped."""
    if shards < 1:
        raise ValueError(f"shards = {shards}: must be at least 1")
    out_dir = pathlib.Path(out)
    out_dir.mkdir(parents=True, exist_ok=True)
    if (out_dir / run_name).exists():
        print(f"{out_dir / run_name}: exists; give another --run-name", file=sys.stderr)
        return 2
    work = pathlib.Path(tempfile.mkdtemp(prefix=f".{run_name}.looks-", dir=out_dir))
    allow = [w for c in _programs(command) for w in ("--allow-exec", c)]
    task = None
    if not local:
        try:
            import ray
        except ImportError:
            print("ray is not installed: pip install 'ray>=2.9' (or use --local)", file=sys.stderr)
            return 2
        if not ray.is_initialized():
            ray.init(address=address or os.environ.get("RAY_ADDRESS"))
        task = ray.remote(run_look_shard)
    state: Optional[bytes] = None
    previous: Optional[pathlib.Path] = None
    first = 1
    if resume is not None:
        previous = pathlib.Path(resume)
        try:
            state = (previous / "outcomes" / "looks.json").read_bytes()
            first = int(json.loads(state)["look"]) + 1
        except (OSError, ValueError, KeyError, TypeError) as e:
            print(f"--resume {resume}: not a merged look ({e})", file=sys.stderr)
            return 2
        if json.loads(state).get("finished"):
            print(f"--resume {resume}: the study is finished already", file=sys.stderr)
            return 2
    done = False
    try:
        for look in range(first, first + max_looks):
            try:
                if task is None:
                    results = [
                        run_look_shard(command, look, state, k, shards)
                        for k in range(1, shards + 1)
                    ]
                else:
                    # A task whose worker dies is retried: a shard depends only on (state, k, n).
                    futures = [
                        task.options(max_retries=3).remote(list(command), look, state, k, shards)
                        for k in range(1, shards + 1)
                    ]
                    results = _gather(futures)
            except ShardCannotStart as e:
                # The look is not merged: one line, naming the engine and the worker.
                print(f"error: {_cannot_start(e)}", file=sys.stderr)
                return CANNOT_START
            shard_root = work / f"look{look}-shards"
            dirs = [_write_shard(shard_root, k, shards, f) for k, f in enumerate(results, 1)]
            resume = ["--resume", str(previous)] if previous is not None else []
            code = cli(
                ["merge", "--look", str(look), *resume, *map(str, dirs), *allow,
                 "--out", str(work), "--run-name", f"look{look}"]
            )
            merged = work / f"look{look}"
            if not merged.is_dir():
                return code
            if not keep_shards:
                shutil.rmtree(shard_root, ignore_errors=True)
                # Only the driver's own looks: a directory resumed from is the user's.
                if previous is not None and previous.parent == work:
                    shutil.rmtree(previous, ignore_errors=True)
            state = (merged / "outcomes" / "looks.json").read_bytes()
            if json.loads(state)["finished"]:
                os.rename(merged, out_dir / run_name)
                print(f"the finished study (look {look} merged): {out_dir / run_name}")
                done = True
                return code
            previous = merged
        print(
            f"the study did not finish in {max_looks} looks: go on with --resume {previous}",
            file=sys.stderr,
        )
        return 1
    finally:
        if done and not keep_shards:
            shutil.rmtree(work, ignore_errors=True)
        elif not done:
            if previous is not None and previous.parent == work:
                print(f"merged looks kept: go on with --resume {previous}", file=sys.stderr)
            else:
                shutil.rmtree(work, ignore_errors=True)


def _budget(command: Sequence[str]) -> Optional[str]:
    """The text of ``command``'s ``--outcome-budget`` (the last one given), if any."""
    text = None
    for i, word in enumerate(command):
        if word == "--outcome-budget" and i + 1 < len(command):
            text = command[i + 1]
        elif word.startswith("--outcome-budget="):
            text = word.split("=", 1)[1]
    return text


def _one_look(command: Sequence[str]) -> bool:
    """Whether ``outcomes`` ``command`` plays one look (``--outcome-budget none``): sharded as
    stress and sweep are, not look by look. The budget is read by the harness's own parser
    (``_core.parse_budget``): a budget it refuses raises ``ValueError`` naming the part."""
    text = _budget(command)
    return text is not None and _core.parse_budget(text) is None


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m billiards_harness.cluster",
        description="Run `xtask stress`, `sweep` or `outcomes` in shards on Ray and merge them "
        "(a sequential outcomes study look by look).",
    )
    ap.add_argument("--shards", type=int, default=8, help="number of shards (Ray tasks)")
    ap.add_argument("--out", default="reports", help="directory receiving the merged run")
    ap.add_argument("--run-name", required=True, help="name of the merged run directory")
    ap.add_argument("--address", help="Ray cluster address (default: $RAY_ADDRESS, else local)")
    ap.add_argument("--local", action="store_true", help="no Ray: run the shards in turn here")
    ap.add_argument("--keep-shards", action="store_true", help="keep the shards' directories")
    ap.add_argument(
        "--resume",
        help="outcomes, look by look: go on from this merged look (the directory a stopped "
        "driver named)",
    )
    ap.add_argument(
        "command", nargs=argparse.REMAINDER, help="stress|sweep|outcomes and its options"
    )
    args = ap.parse_args(argv)
    if not args.command or args.command[0] not in ("stress", "sweep", "outcomes"):
        ap.error("give the command to shard: stress ..., sweep ... or outcomes ...")
    options = dict(address=args.address, local=args.local, keep_shards=args.keep_shards)
    try:
        one_look = args.command[0] == "outcomes" and _one_look(args.command)
    except ValueError as e:
        ap.error(str(e))
    if args.command[0] == "outcomes" and not one_look:
        return run_looks(args.command, args.shards, args.out, args.run_name, **options,
                         resume=args.resume)
    if args.resume is not None:
        ap.error("--resume goes with a sequential outcomes study (a budget of shots)")
    return run_sharded(args.command, args.shards, args.out, args.run_name, **options)


if __name__ == "__main__":
    sys.exit(main())
