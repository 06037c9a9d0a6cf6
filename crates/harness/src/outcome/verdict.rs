//! The study's verdicts as types: a statistic's decision, the shot-by-shot comparison with the
//! chaos floor, and a cell's combined verdict (a family and a run: the floor, or an engine at
//! one dt). They stay enums until they are written: files carry their serde names
//! (`snake_case`), reports their [`label`](Verdict::label)s, and nothing parses text back.

use serde::{Deserialize, Serialize};

/// One statistic's decision at a look: its interval against its margin (engines), or against
/// 0 (the floor's neutrality).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    /// The whole interval lies inside `[-margin, margin]`.
    Same,
    /// The interval excludes 0 (and is not inside the margin).
    Differs,
    /// Neither: more shots needed.
    Undecided,
    /// The shot-by-shot statistic within the floor ([`FloorVerdict::Within`]).
    Within,
    /// The shot-by-shot statistic above the floor ([`FloorVerdict::Above`]).
    Above,
    /// The energy test before its shots are in.
    Pending,
    /// The floor's statistic: its interval contains 0.
    Neutral,
    /// The floor's statistic: its interval clears 0.
    NotNeutral,
}

impl From<FloorVerdict> for Decision {
    fn from(v: FloorVerdict) -> Self {
        match v {
            FloorVerdict::Within => Decision::Within,
            FloorVerdict::Above => Decision::Above,
            FloorVerdict::Undecided => Decision::Undecided,
        }
    }
}

/// The shot-by-shot comparison of an engine with the chaos floor on the same shots.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FloorVerdict {
    /// Shown to change outcomes at most the floor margin more often than the floor does.
    Within,
    /// Shown to change outcomes more often than the floor does.
    Above,
    /// Neither: more shots needed.
    Undecided,
}

impl FloorVerdict {
    /// `within the floor`, `above the floor`, `undecided`.
    pub fn label(self) -> &'static str {
        match self {
            FloorVerdict::Within => "within the floor",
            FloorVerdict::Above => "above the floor",
            FloorVerdict::Undecided => "undecided",
        }
    }
}

/// A cell's verdict: does this engine at this dt change this family's game? The floor's own
/// cell says whether it is neutral.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Within the floor shot by shot and every statistic of the game within its margin: the
    /// engine changes outcomes no more than physical uncertainty does (and the margin).
    SameShotByShot,
    /// Every statistic within its margin, but shot by shot above the floor (or not yet
    /// decided): it changes single shots, not the game's statistics.
    SameInDistribution,
    /// Shot by shot above the floor, the statistics not yet decided: it changes shots.
    ChangesShots,
    /// A statistic of the game differs from the reference's beyond its margin.
    Differs,
    /// Not decided at the shots played: more shots would decide.
    Undecided,
    /// The family's floor is not neutral, so it cannot judge this engine.
    FloorNotNeutral,
    /// The engine played none of the shots (it declined or failed every one).
    NotPlayed,
    /// The floor's own cell: no statistic of its games differs from the reference's.
    Neutral,
    /// The floor's own cell: a statistic of its games differs from the reference's.
    NotNeutral,
}

impl Verdict {
    /// The words the reports use: `same shot by shot`, `same in distribution`, `changes
    /// shots`, `differs`, `undecided`, `floor not neutral`, `not played`, `neutral`, `not
    /// neutral`.
    pub fn label(self) -> &'static str {
        match self {
            Verdict::SameShotByShot => "same shot by shot",
            Verdict::SameInDistribution => "same in distribution",
            Verdict::ChangesShots => "changes shots",
            Verdict::Differs => "differs",
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
            Verdict::SameShotByShot => {
                "changes shot outcomes no more often than the chaos floor (within its margin) \
                 and every statistic of the game is within its margin"
            }
            Verdict::SameInDistribution => {
                "every statistic of the game is within its margin, but single shots change \
                 more often than the floor's (or that is not yet decided)"
            }
            Verdict::ChangesShots => {
                "changes shot outcomes more often than the floor; the statistics are not yet \
                 decided"
            }
            Verdict::Differs => "a statistic of the game differs from the reference's",
            Verdict::Undecided => "the shots played do not decide; more would",
            Verdict::FloorNotNeutral => {
                "the family's chaos floor plays another game, so it judges nothing"
            }
            Verdict::NotPlayed => "the engine declined or failed every shot",
            Verdict::Neutral => "the floor's games have the reference's statistics",
            Verdict::NotNeutral => "the floor's games do not have the reference's statistics",
        }
    }

    /// Every engine verdict, in the order legends list them.
    pub const ENGINE: [Verdict; 7] = [
        Verdict::SameShotByShot,
        Verdict::SameInDistribution,
        Verdict::ChangesShots,
        Verdict::Differs,
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
