//! The study's claims as types: one part's decision (a statistic against its margin, the
//! shot-by-shot rate against the floor margin), a cell's verdict (one engine at one dt on one
//! family, or the floor), and the answer's claim (a series of dt on the ladder, or one cell).
//! They stay enums until they are written: files carry their serde names (`snake_case`),
//! reports their [`label`](Verdict::label)s, and nothing parses text back.
//!
//! Every cell asks two complementary questions of the truth, exactly one of which holds:
//! **keeps the game** (the shot-by-shot rate within the floor margin *and* every statistic
//! within its margin) or **changes the game** (the rate beyond the floor margin, *or* some
//! statistic beyond its margin). Each is claimed only when shown at the cell's level
//! (docs/outcomes.md, "Error rate"); a difference that only excludes 0 is a description, never
//! a claim.

use serde::{Deserialize, Serialize};

/// One part's decision at a look.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    /// Shown within its margin: the whole interval at the cell's level inside `[-margin,
    /// margin]` (the shot-by-shot rate: within the floor margin).
    Within,
    /// Shown beyond its margin: the interval at the part's share of the cell's level wholly
    /// outside `[-margin, margin]` (the shot-by-shot rate: beyond the floor margin).
    Beyond,
    /// Neither: more shots needed.
    Undecided,
    /// The cue position's energy test rejects at 5 %: its 2-D distribution differs. A
    /// description, never a claim.
    Differs,
    /// The energy test before its shots are in.
    Pending,
}

impl Decision {
    /// `within its margin`, `beyond its margin`, `undecided`, `differs (a description)`,
    /// `pending`.
    pub fn label(self) -> &'static str {
        match self {
            Decision::Within => "within its margin",
            Decision::Beyond => "beyond its margin",
            Decision::Undecided => "undecided",
            Decision::Differs => "differs (a description)",
            Decision::Pending => "pending",
        }
    }
}

/// The shot-by-shot comparison of an engine with the chaos floor on the same shots.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FloorVerdict {
    /// Shown to change outcomes at most the floor margin more often than the floor does.
    Within,
    /// Shown to change outcomes more than the floor margin more often than the floor does.
    Beyond,
    /// Neither: more shots needed.
    Undecided,
}

impl FloorVerdict {
    /// `within the floor margin`, `beyond the floor margin`, `undecided`.
    pub fn label(self) -> &'static str {
        match self {
            FloorVerdict::Within => "within the floor margin",
            FloorVerdict::Beyond => "beyond the floor margin",
            FloorVerdict::Undecided => "undecided",
        }
    }
}

impl From<FloorVerdict> for Decision {
    fn from(v: FloorVerdict) -> Self {
        match v {
            FloorVerdict::Within => Decision::Within,
            FloorVerdict::Beyond => Decision::Beyond,
            FloorVerdict::Undecided => Decision::Undecided,
        }
    }
}

/// Which half of a cell's question is shown: the main claim a cell can make.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Claim {
    /// It keeps the game.
    Keeps,
    /// It changes the game.
    Changes,
}

/// A cell's verdict: does this engine at this dt change this family's game? The floor's own
/// cell says whether it is neutral.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Keeps the game: shot by shot within the floor margin and every statistic within its
    /// margin.
    Keeps,
    /// Changes the game shot by shot (beyond the floor margin) while every statistic is shown
    /// within its margin: what a maker of a chaotic game needs to know.
    ChangesShotsSameInDistribution,
    /// Changes the game shot by shot; the statistics not yet decided.
    ChangesShots,
    /// Changes the game: a statistic beyond its margin (named in the detail).
    ChangesStatistics,
    /// Every statistic within its margin; shot by shot not yet decided (a partial claim).
    SameInDistribution,
    /// Shot by shot within the floor margin; the statistics not yet decided (a partial claim).
    WithinFloor,
    /// Nothing shown at the shots played.
    Undecided,
    /// The family's floor is shown not neutral, so it judges no shot; no statistic is shown
    /// beyond its margin.
    FloorNotNeutral,
    /// The engine played none of the shots (it declined or failed every one).
    NotPlayed,
    /// The floor's own cell: every statistic of its games within its margin of the
    /// reference's.
    Neutral,
    /// The floor's own cell: a statistic of its games beyond its margin of the reference's.
    NotNeutral,
}

impl Verdict {
    /// The words the reports use.
    pub fn label(self) -> &'static str {
        match self {
            Verdict::Keeps => "keeps the game",
            Verdict::ChangesShotsSameInDistribution => "changes shots; same in distribution",
            Verdict::ChangesShots => "changes shots",
            Verdict::ChangesStatistics => "changes its statistics",
            Verdict::SameInDistribution => "same in distribution",
            Verdict::WithinFloor => "within the floor shot by shot",
            Verdict::Undecided => "undecided",
            Verdict::FloorNotNeutral => "floor not neutral",
            Verdict::NotPlayed => "not played",
            Verdict::Neutral => "neutral",
            Verdict::NotNeutral => "not neutral",
        }
    }

    /// One sentence defining the verdict, for legends and reading guides.
    pub fn meaning(self) -> &'static str {
        match self {
            Verdict::Keeps => {
                "changes shot outcomes at most the floor margin more often than the chaos floor, \
                 and every statistic of the game is within its margin"
            }
            Verdict::ChangesShotsSameInDistribution => {
                "changes shot outcomes beyond the floor margin, while every statistic of the game \
                 is within its margin: single shots change, the game's statistics do not"
            }
            Verdict::ChangesShots => {
                "changes shot outcomes beyond the floor margin; the statistics are not yet decided"
            }
            Verdict::ChangesStatistics => {
                "a statistic of the game is beyond its margin of the reference's"
            }
            Verdict::SameInDistribution => {
                "every statistic of the game is within its margin; shot by shot is not yet \
                 decided"
            }
            Verdict::WithinFloor => {
                "changes shot outcomes at most the floor margin more often than the floor; the \
                 statistics are not yet decided"
            }
            Verdict::Undecided => "the shots played show neither claim; more would",
            Verdict::FloorNotNeutral => {
                "the family's chaos floor plays another game, so it judges no shot"
            }
            Verdict::NotPlayed => "the engine declined or failed every shot",
            Verdict::Neutral => "every statistic of the floor's games within its margin",
            Verdict::NotNeutral => "a statistic of the floor's games beyond its margin",
        }
    }

    /// The main claim this verdict makes, if any: keeps or changes the game.
    pub fn claim(self) -> Option<Claim> {
        match self {
            Verdict::Keeps => Some(Claim::Keeps),
            Verdict::ChangesShotsSameInDistribution
            | Verdict::ChangesShots
            | Verdict::ChangesStatistics => Some(Claim::Changes),
            _ => None,
        }
    }

    /// Whether some claim is decided (the main one, or a partial one: same in distribution,
    /// within the floor, the floor's neutrality either way).
    pub fn decided(self) -> bool {
        !matches!(self, Verdict::Undecided | Verdict::NotPlayed)
    }

    /// Every engine verdict, in the order legends list them.
    pub const ENGINE: [Verdict; 9] = [
        Verdict::Keeps,
        Verdict::ChangesShotsSameInDistribution,
        Verdict::ChangesShots,
        Verdict::ChangesStatistics,
        Verdict::SameInDistribution,
        Verdict::WithinFloor,
        Verdict::Undecided,
        Verdict::FloorNotNeutral,
        Verdict::NotPlayed,
    ];
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.label())
    }
}

impl std::fmt::Display for FloorVerdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.label())
    }
}
