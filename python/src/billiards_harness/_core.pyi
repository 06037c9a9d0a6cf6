"""Type stubs of the extension module (python/rust/lib.rs). Shapes in brackets; SI units."""

from os import PathLike
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union, final

import numpy as np
import numpy.typing as npt

PRESETS: List[str]

class ShotError(ValueError):
    """A shot, its states or options cannot be simulated (the CLI's one-line message)."""

class RunError(RuntimeError):
    """A run ended without a physical end (event budget, non-finite state)."""

@final
class Shot:
    """A validated shot: physics, table, balls and their states at t = 0."""

    @staticmethod
    def load(path: Union[str, PathLike[str]]) -> Shot: ...
    @staticmethod
    def from_toml(text: str, name: str = "shot") -> Shot: ...
    def to_toml(self) -> str: ...
    def with_states(self, rvw: npt.NDArray[np.float64]) -> Shot:
        """New states, shape [n_balls, 3, 3] (r m, v m/s, w rad/s)."""
    def with_strike(
        self,
        V0: float,
        phi: float,
        theta: float = 0.0,
        a: float = 0.0,
        b: float = 0.0,
        *,
        ball: str = "cue",
        cue_mass: Optional[float] = None,
        end_mass: Optional[float] = None,
    ) -> Shot: ...
    def laws(self) -> Dict[str, Dict[str, Any]]: ...
    @property
    def name(self) -> str: ...
    @property
    def description(self) -> str: ...
    @property
    def ball_ids(self) -> List[str]: ...
    @property
    def states(self) -> npt.NDArray[np.float64]:
        """[n_balls, 3, 3]"""
    @property
    def motion_states(self) -> npt.NDArray[np.uint8]:
        """[n_balls], pooltool's codes (0 stationary, 1 spinning, 2 sliding, 3 rolling, 4 pocketed)"""
    @property
    def table(self) -> str: ...
    @property
    def physics(self) -> Optional[str]: ...
    @property
    def radius(self) -> float:
        """the shot's ball radius R (m); a ball with its own is in `radii`"""
    @property
    def radii(self) -> list[float]:
        """[n_balls], each ball's radius R (m)"""
    @property
    def t_end(self) -> Optional[float]: ...

@final
class Event:
    @property
    def kind(self) -> str: ...
    @property
    def agents(self) -> List[str]:
        """ids of what took part: one ball, or a ball and a ball, cushion or pocket; an id
        names one thing (no ball shares one with a cushion or pocket; pooltool's cushions
        `1`..`18` are `c1`..`c18` here)"""
    @property
    def time(self) -> float: ...

@final
class Run:
    @property
    def events(self) -> List[Event]: ...
    @property
    def event_times(self) -> npt.NDArray[np.float64]:
        """[n_events] (s)"""
    @property
    def final_states(self) -> npt.NDArray[np.float64]:
        """[n_balls, 3, 3]"""
    @property
    def final_motion_states(self) -> npt.NDArray[np.uint8]:
        """[n_balls]"""
    @property
    def ball_ids(self) -> List[str]: ...
    @property
    def termination(self) -> str: ...
    @property
    def error(self) -> Optional[str]:
        """why the engine could not run the shot (termination "failed"), else None"""
    @property
    def end_time(self) -> float: ...
    @property
    def engine(self) -> str: ...
    @property
    def ops(self) -> List[Tuple[str, int]]: ...
    def states_at(
        self, t: Union[float, npt.NDArray[np.float64]]
    ) -> npt.NDArray[np.float64]:
        """[n_balls, 3, 3] for a number, [len(t), n_balls, 3, 3] for an array of times (s)."""

@final
class Batch:
    final_states: npt.NDArray[np.float64]
    """[n_shots, n_balls, 3, 3]"""
    final_motion_states: npt.NDArray[np.uint8]
    """[n_shots, n_balls]"""
    n_events: npt.NDArray[np.uint64]
    """[n_shots]"""
    first_event_time: npt.NDArray[np.float64]
    """[n_shots] (s), NaN when a run has no event besides the strike"""
    end_time: npt.NDArray[np.float64]
    """[n_shots] (s)"""
    termination: List[str]
    engine: str
    cue: int
    """index of the cue ball (the struck ball, else id "cue", else 0)"""
    first_contact: npt.NDArray[np.int64]
    """[n_shots] index of the first ball the cue ball touched, -1 for none"""
    first_contact_time: npt.NDArray[np.float64]
    """[n_shots] (s), NaN for none"""
    pocket: npt.NDArray[np.int64]
    """[n_shots, n_balls] each ball's pocket, an index into pocket_ids, -1 for none"""
    pocket_ids: List[str]
    scratch: npt.NDArray[np.bool_]
    """[n_shots] the cue ball pocketed"""
    ended: npt.NDArray[np.bool_]
    """[n_shots] the run ended physically (at rest or pocketed, none lost, no budget)"""
    ball_ids: List[str]
    """the ball axis' ids"""
    errors: List[Optional[str]]
    """[n_shots] why the engine could not run each shot (termination "failed"), else None"""
    def __len__(self) -> int: ...

def outcome_agreement(
    reference: Batch, other: Batch, *, position_tol: float = 0.01
) -> Dict[str, npt.NDArray[Any]]:
    """Per shot, True where `other` decided the same as `reference` on each field (outcome,
    first_contact, first_cushion, pocketed, scratch, end, cue_position, positions), and the
    final-position errors cue_position_error_m, position_error_max_m (m, NaN if not both on
    the table)."""

def outcome_distribution(batch: Batch) -> Dict[str, Any]:
    """The game's statistics of a batch (balls_pocketed, scratch, success, pocket:<id>,
    first_contact:<id>, cue_x, cue_y), each a dict of n, value, low, high (95 %), and
    cue_final_xy, shape (n_shots, 2), NaN where the cue ball is not on the cloth."""

def compare_distributions(
    a: Batch,
    b: Batch,
    *,
    paired: bool = True,
    margin_rate: float = 0.02,
    margin_balls: float = 0.05,
    margin_position: float = 0.05,
    margin_floor: float = 0.005,
    margin_floor_relative: float = 0.2,
    position_tol: float = 0.01,
    seed: int = 1,
) -> Dict[str, Any]:
    """Whether b changes the game against a: verdict (keeps the game, changes shots, changes
    shots; same in distribution, changes its statistics, same in distribution, within the floor
    shot by shot, undecided), detail, shot_by_shot, n, and rows (one dict per statistic: value,
    reference, diff, diff_low, diff_high, margin, alpha, p_value, decision: within, beyond,
    undecided; differs or undecided for cue_position, a description)."""

def simulate(
    shot: Shot, engine: str = "event", *, max_events: Optional[int] = None, check: bool = True
) -> Run: ...
def simulate_many(
    template: Shot,
    states: npt.NDArray[np.float64],
    engine: str = "event",
    *,
    max_events: Optional[int] = None,
    threads: Optional[int] = None,
) -> Batch: ...
def strike_many(
    template: Shot,
    v0: npt.NDArray[np.float64],
    phi: npt.NDArray[np.float64],
    theta: npt.NDArray[np.float64],
    a: npt.NDArray[np.float64],
    b: npt.NDArray[np.float64],
    *,
    ball: str = "cue",
    cue_mass: Optional[float] = None,
    end_mass: Optional[float] = None,
    engine: str = "event",
    max_events: Optional[int] = None,
    threads: Optional[int] = None,
) -> Batch: ...
def cli(args: List[str]) -> int: ...
def cli_result(args: List[str]) -> Tuple[int, Optional[str]]:
    """``cli``, but a failure's line is returned (exit code, the line after "error: ")."""
def parse_budget(text: str) -> Optional[Tuple[int, Optional[float]]]:
    """``--outcome-budget`` as the harness reads it: ``(shots, seconds or None)``, None for
    ``none``; ``ValueError`` naming the part that does not parse (at most one count of shots
    and one of seconds)."""
