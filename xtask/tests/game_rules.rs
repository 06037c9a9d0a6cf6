//! Our game fields against pooltool's own rules (issue 42): every shot of a sample of the
//! snooker and three-cushion families, run by the reference, exported as a pooltool System
//! (`pool_pooltool::export`, what `simulate --format pooltool` writes) and scored by
//! pooltool 0.6.0's `is_legal` and `is_point` (`benches/peers/pooltool_rules.py`); every
//! field must agree. Skipped with one line when pooltool is not installed.
//!
//! `GAME_RULES_SHOTS` sets the shots per family (default 250: 500 per game).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use pool_engines::{EngineSpec, RunOptions};
use pool_harness::DEFAULT_RACK;
use pool_outcome::{family_shot, FamilyKind, GameOutcome, Racks};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Our fields of `n` shots of each family in `kinds` (by shot name), their Systems written to
/// `dir`.
fn our_fields(kinds: &[FamilyKind], n: u64, dir: &Path) -> BTreeMap<String, Vec<String>> {
    let engine = EngineSpec::reference()
        .build_with(&RunOptions {
            snapshots: Some(0.01),
            ..Default::default()
        })
        .unwrap();
    let mut out = BTreeMap::new();
    for &kind in kinds {
        let table = if kind.game_name() == "snooker" {
            "pooltool_snooker"
        } else {
            "pooltool_billiard"
        };
        let racks = Racks::on_table(table).unwrap();
        for k in 0..n {
            let seed = kind.shot_seed(table, 1, k);
            let setup = family_shot(kind, &racks, &DEFAULT_RACK, seed).unwrap();
            let run = engine.try_run(&setup).unwrap();
            let game = GameOutcome::of_family(kind, &setup, &run);
            let system = pool_pooltool::export(&setup, Some(&run)).unwrap();
            std::fs::write(
                dir.join(format!("{}.json", setup.name)),
                serde_json::to_vec(&system).unwrap(),
            )
            .unwrap();
            let score = |name: &str| {
                game.score
                    .iter()
                    .find(|e| e.name == name)
                    .map(|e| e.value.clone())
                    .unwrap()
            };
            let first = game
                .first_contact
                .map_or(String::new(), |(b, _)| setup.balls[b].id.clone());
            let fields = if kind.game_name() == "snooker" {
                vec![score("reds"), score("colours"), score("foul"), first]
            } else {
                vec![score("point"), first, score("cushions")]
            };
            out.insert(setup.name.clone(), fields);
        }
    }
    out
}

/// pooltool's fields of every System in `dir` (by shot name), by `pooltool_rules.py`.
fn pooltool_fields(python: &Path, game: &str, dir: &Path) -> BTreeMap<String, Vec<String>> {
    let out = Command::new(python)
        .arg(root().join("benches/peers/pooltool_rules.py"))
        .args(["--game", game])
        .arg(dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    text.lines()
        .skip(1)
        .map(|l| {
            let mut f = l.split(',').map(str::to_string);
            let shot = f.next().unwrap();
            (shot, f.collect())
        })
        .collect()
}

fn agree(game: &str, kinds: &[FamilyKind]) {
    let Some(python) = pool_engines::pooltool::find_python(None) else {
        eprintln!("skipped: {}", pool_engines::pooltool::HOW_TO_INSTALL);
        return;
    };
    let n: u64 = std::env::var("GAME_RULES_SHOTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(250);
    let dir = std::env::temp_dir().join(format!("game-rules-{game}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let ours = our_fields(kinds, n, &dir);
    let theirs = pooltool_fields(&python, game, &dir);
    assert_eq!(ours.len() as u64, n * kinds.len() as u64);
    let differ: Vec<_> = ours
        .iter()
        .filter(|(shot, f)| theirs.get(*shot) != Some(*f))
        .map(|(shot, f)| format!("{shot}: ours {f:?}, pooltool's {:?}", theirs.get(shot)))
        .collect();
    eprintln!(
        "{game}: {} shots, {} agree with pooltool's rules on every field",
        ours.len(),
        ours.len() - differ.len()
    );
    assert!(differ.is_empty(), "{}", differ.join("\n"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn three_cushion_points_are_pooltools() {
    agree(
        "three_cushion",
        &[FamilyKind::ThreeCushion, FamilyKind::ThreeCushionRandom],
    );
}

#[test]
fn snooker_fouls_and_pots_are_pooltools() {
    agree(
        "snooker",
        &[FamilyKind::SnookerBreak, FamilyKind::SnookerPot],
    );
}
