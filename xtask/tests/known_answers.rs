//! Known answers through a program: our own event engine served by `simulate --serve` is an
//! exec engine whose answer is known. At `outcomes`' default budget it keeps the game on
//! 15-ball breaks, and the same program with the cloth's rolling friction doubled changes its
//! statistics there (the balls roll shorter: fewer pocketed, the cue ball stops
//! sooner), while shot by shot it is within the floor margin (a break racked again changes as
//! many).

mod common;

use common::{temp_dir, texts, xtask};
use pool_outcome::{AnswerRow, FloorVerdict, Verdict};

#[test]
fn our_engine_through_a_program_is_the_same_and_a_biased_one_differs() {
    let out = temp_dir("known-answers");
    let serve = format!("exec:{} simulate --serve", env!("CARGO_BIN_EXE_xtask"));
    let biased = format!("{serve} --scale mu_r=2");
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
    assert_eq!(same.verdict, Verdict::Keeps, "{same:?}");
    assert_eq!(same.rate, 0.0, "{same:?}");
    assert!(same.n <= 3200, "{same:?}");
    let differs = of(true);
    assert_eq!(differs.verdict, Verdict::ChangesStatistics, "{differs:?}");
    assert_eq!(
        differs.shot_by_shot,
        Some(FloorVerdict::Within),
        "{differs:?}"
    );
    assert!(differs.n <= 3200, "{differs:?}");
    // The terminal leads with the answer, one line per family and engine.
    assert!(
        stdout.starts_with("does it change the game? 1 families"),
        "{stdout}"
    );
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(lines[1].contains("break15 (seven_foot)") && lines[1].contains("keeps the game"));
    assert!(
        lines[2].contains("break15 (seven_foot)") && lines[2].contains("changes its statistics")
    );
    // report.md: with --schemes none every table still renders (a header and its delimiter
    // have as many cells), the reading guide comes before the answer, and none of the words
    // that contradicted the numbers are back.
    let report = std::fs::read_to_string(out.join("known/report.md")).unwrap();
    assert_tables_render(&report);
    let guide = report.find("**How to read it.**").unwrap();
    let answer = report.find("**The answer**").unwrap();
    assert!(guide < answer, "the reading guide comes first");
    for stale in [
        "tested at 5 %",
        "about 5 shots more than the floor's",
        "no test puts above",
        "p >= 5",
        "largest dt within the chaos floor",
    ] {
        assert!(!report.contains(stale), "report.md says {stale:?}");
    }
    let _ = std::fs::remove_dir_all(&out);
}

/// Every Markdown table of `md` has a delimiter row with as many cells as its header.
fn assert_tables_render(md: &str) {
    let lines: Vec<&str> = md.lines().collect();
    let cells = |l: &str| l.trim().trim_matches('|').split(" | ").count();
    for w in lines.windows(2) {
        if w[1].starts_with("|---") {
            let dashes = w[1].trim().trim_matches('|').split('|').count();
            assert_eq!(cells(w[0]), dashes, "{}\n{}", w[0], w[1]);
        }
    }
}

#[test]
fn the_outcomes_help_is_grouped_with_examples_and_says_what_the_words_mean() {
    let o = xtask().args(["outcomes", "--help"]).output().unwrap();
    let (help, _) = texts(&o);
    for heading in [
        "Outcome study: shots:",
        "Outcome study: sampling and search:",
        "Outcome study: the chaos floor:",
        "Outcome study: margins:",
        "Examples:",
        "keeps the game",
        "--search-limit",
        "--margin-floor-relative",
    ] {
        assert!(help.contains(heading), "outcomes --help lacks {heading:?}");
    }
    for stale in ["p >= 5", "within_floor"] {
        assert!(!help.contains(stale), "outcomes --help says {stale:?}");
    }
    let o = xtask().args(["compare", "--help"]).output().unwrap();
    assert!(texts(&o).0.contains("Examples:"));
}
