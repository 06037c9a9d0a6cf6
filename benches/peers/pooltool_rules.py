#!/usr/bin/env python3
"""Score simulated shots by pooltool 0.6.0's own game rules (three-cushion or snooker).

    .venv-pooltool/bin/python benches/peers/pooltool_rules.py --game three_cushion DIR
    .venv-pooltool/bin/python benches/peers/pooltool_rules.py --game snooker [--reason] DIR

DIR holds pooltool `System` JSON files (`*.json`), as `pt.System.save` writes them or as
`cargo xtask simulate SHOT.toml --format pooltool > DIR/SHOT.json` writes a run of ours (with
its events; starting positions in data/shots/games/, a strike added as `[cue]`). Each file is read with `pt.System.load` and judged by pooltool's rule functions;
one CSV row per file, sorted by file name, on stdout. `shot` is the file's name without
`.json`. The cue ball is the one the System's cue strikes (`system.cue.cue_ball_id`).

three_cushion: `shot,point,first_object,cushions_before_second`
- `point` (0/1): pooltool's `ruleset.three_cushion.is_point(system)`: the cue ball touched
  both other balls and had at least 3 `ball_linear_cushion` events strictly before its first
  contact with the second one.
- `first_object`: the first ball the cue ball touched (`ruleset.utils.get_id_of_first_ball_hit`),
  empty if none.
- `cushions_before_second`: the cue ball's `ball_linear_cushion` events strictly before its
  first `ball_ball` event with the second object ball, counted as `is_point` counts them (its
  own code, not a function of its own), empty if it never touched the second ball.

snooker (every shot judged as a shot with reds on, as the break: `hittable` = the 15 reds, the
cue ball "white", which pooltool's snooker rules name outright):
- `reds_potted`, `colours_potted`: the `ball_pocket` events of ids in pooltool's red and colour
  groups (`ruleset.snooker.balls.BallGroup`).
- `foul` (0/1): not `ruleset.snooker.core.is_legal(system, constraints)` with the ruleset's
  first constraints (`_Snooker.initial_shot_constraints`). Its reasons, the first that applies:
  the white pocketed; no `ball_ball` event at all (between any balls); the white's first
  `ball_ball` contact not a red (or none); a ball other than a red or the white pocketed.
- `first_contact`: the first ball the white touched, empty if none.
- with --reason, a last column `reason`: pooltool's `Reason` text, empty when legal.

Exit status: 0 on success, 1 when pooltool cannot be imported, 2 on bad input (no such
directory, no *.json in it, a file pooltool cannot load, a System that lacks what the rules
read), with one line on stderr.
"""

import argparse
import os
import signal
import sys

PROG = "pooltool_rules.py"


def fail(why, code=2):
    print(f"{PROG}: {why}", file=sys.stderr)
    sys.exit(code)


try:
    import pooltool as pt
    from pooltool.events.datatypes import EventType
    from pooltool.events.filter import by_ball, by_time, by_type, filter_events
    from pooltool.ruleset import three_cushion
    from pooltool.ruleset.snooker.balls import BallGroup
    from pooltool.ruleset.snooker.core import is_legal
    from pooltool.ruleset.utils import get_id_of_first_ball_hit, get_pocketed_ball_ids_during_shot
except ImportError as e:
    fail(
        f"pooltool 0.6.0 is not importable from {sys.executable} ({e}); run this with the "
        "pooltool venv's python (benches/peers/README.md)",
        code=1,
    )


def cushions_before_second(system, cue_id):
    """The cue ball's linear-cushion events before its first contact with the second object
    ball, or None when it never touches a second one: three_cushion.is_point's count
    (pooltool/ruleset/three_cushion.py, lines 30-59)."""
    hit = set()
    second = None
    for event in filter_events(system.events, by_type(EventType.BALL_BALL), by_ball(cue_id)):
        hit.add(three_cushion._other(cue_id, event))
        if len(hit) == 2:
            second = event
            break
    if second is None:
        return None
    return len(
        filter_events(
            system.events,
            by_type(EventType.BALL_LINEAR_CUSHION),
            by_ball(cue_id),
            by_time(second.time, after=False),
        )
    )


def judge_three_cushion(system, _args):
    cue_id = system.cue.cue_ball_id
    first = get_id_of_first_ball_hit(system, cue=cue_id)
    count = cushions_before_second(system, cue_id)
    point = three_cushion.is_point(system)
    return [
        "1" if point else "0",
        first or "",
        "" if count is None else str(count),
    ]


def judge_snooker(system, args):
    constraints = pt.ruleset.get_ruleset(pt.GameType.SNOOKER)().shot_constraints
    potted = get_pocketed_ball_ids_during_shot(system)
    reds = sum(1 for b in potted if b in BallGroup.REDS.balls)
    colours = sum(1 for b in potted if b in BallGroup.COLORS.balls)
    legal, reason = is_legal(system, constraints)
    row = [
        str(reds),
        str(colours),
        "0" if legal else "1",
        get_id_of_first_ball_hit(system, cue="white") or "",
    ]
    if args.reason:
        row.append(str(reason))
    return row


GAMES = {
    "three_cushion": ("point,first_object,cushions_before_second", judge_three_cushion),
    "snooker": ("reds_potted,colours_potted,foul,first_contact", judge_snooker),
}


def check(system, game, path):
    """Refuses a System the game's rules cannot read, with one line naming the file."""
    cue_id = system.cue.cue_ball_id
    if cue_id not in system.balls:
        fail(f"{path}: the cue's ball {cue_id!r} is not one of the System's balls")
    if game == "snooker" and cue_id != "white":
        fail(f"{path}: pooltool's snooker rules play the ball 'white'; this System's cue ball is {cue_id!r}")
    if game == "snooker":
        known = {"white", *BallGroup.REDS.balls, *BallGroup.COLORS.balls}
        if stray := sorted(set(system.balls) - known):
            fail(f"{path}: not pooltool's snooker ball ids: {', '.join(stray)}")
    if game == "three_cushion" and len(system.balls) != 3:
        fail(f"{path}: three-cushion needs 3 balls; this System has {len(system.balls)}")
    times = [e.time for e in system.events]
    if times != sorted(times):
        fail(f"{path}: events are not in time order (pooltool's event filters refuse them)")


def csv_field(text):
    return f'"{text}"' if any(c in text for c in ',"\n') else text


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `| head` ends the output quietly
    ap = argparse.ArgumentParser(prog=PROG, description=__doc__.splitlines()[0])
    ap.add_argument("--game", required=True, choices=sorted(GAMES), help="which rules")
    ap.add_argument("--reason", action="store_true", help="snooker: add pooltool's foul reason")
    ap.add_argument("dir", metavar="DIR", help="directory of pooltool System JSON files")
    args = ap.parse_args()
    if args.reason and args.game != "snooker":
        fail("--reason is for --game snooker")
    if not os.path.isdir(args.dir):
        fail(f"{args.dir}: not a directory")
    names = sorted(n for n in os.listdir(args.dir) if n.endswith(".json"))
    if not names:
        fail(f"{args.dir}: no *.json files")
    if getattr(pt, "__version__", "0.6.0") != "0.6.0":
        print(f"{PROG}: warning: pooltool {pt.__version__}, not 0.6.0", file=sys.stderr)
    header, judge = GAMES[args.game]
    rows = []  # every file judged before the first row is written: bad input writes no CSV
    for name in names:
        path = os.path.join(args.dir, name)
        try:
            system = pt.System.load(path)
        except Exception as e:  # pooltool's loader raises whatever cattrs/json raise
            fail(f"{path}: pooltool cannot load it as a System ({type(e).__name__}: {e})".splitlines()[0])
        check(system, args.game, path)
        rows.append([name.removesuffix(".json")] + judge(system, args))
    print("shot," + header + (",reason" if args.reason else ""))
    for row in rows:
        print(",".join(csv_field(f) for f in row))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
