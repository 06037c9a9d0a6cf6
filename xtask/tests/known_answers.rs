//! Known answers through a program: our own event engine served by `simulate --serve` is an
//! exec engine whose answer is known. At `outcomes`' default budget it is "same shot by shot"
//! on 15-ball breaks, and the same program with the cloth's rolling friction scaled by 1.25
//! "differs" there (the balls roll shorter: fewer pocketed, the cue ball stops sooner), while
//! shot by shot it is within the floor (a break racked again changes as many).

mod common;

use common::{temp_dir, texts, xtask};
use pool_harness::{AnswerRow, FloorVerdict, Verdict};

#[test]
fn our_engine_through_a_program_is_the_same_and_a_biased_one_differs() {
    let out = temp_dir("known-answers");
    let serve = format!("exec:{} simulate --serve", env!("CARGO_BIN_EXE_xtask"));
    let biased = format!("{serve} --scale mu_r=1.25");
    let o = xtask()
        .args([
            "outcomes",
            "--schemes",
            "none",
            "--engines",
            &format!("{serve},{biased}"),
            "--outcome-families",
            "break15",
            "--outcome-tables",
            "seven_foot",
            "--chaos-shots",
            "0",
            "--replays",
            "0",
            "--run-name",
            "known",
            "--out",
        ])
        .arg(&out)
        .output()
        .unwrap();
    let (stdout, stderr) = texts(&o);
    assert_eq!(o.status.code(), Some(0), "{stdout}\n{stderr}");
    let answers: Vec<AnswerRow> = csv::Reader::from_path(out.join("known/outcome_answer.csv"))
        .unwrap()
        .deserialize()
        .collect::<Result<_, _>>()
        .unwrap();
    let of = |scale: bool| {
        answers
            .iter()
            .find(|a| a.scheme.contains("--scale") == scale)
            .unwrap()
    };
    let same = of(false);
    assert_eq!(same.verdict, Verdict::SameShotByShot, "{same:?}");
    assert_eq!(same.rate, 0.0, "{same:?}");
    assert!(same.n <= 3200, "{same:?}");
    let differs = of(true);
    assert_eq!(differs.verdict, Verdict::Differs, "{differs:?}");
    assert_eq!(
        differs.shot_by_shot,
        Some(FloorVerdict::Within),
        "{differs:?}"
    );
    assert!(differs.n <= 3200, "{differs:?}");
    // The terminal leads with the answer, one line per family and engine.
    assert!(stdout.contains("same shot by shot"), "{stdout}");
    assert!(stdout.contains("differs"), "{stdout}");
    let _ = std::fs::remove_dir_all(&out);
}
