//! Memory stays bounded whatever one string holds (issue 41): a program's 30 MiB `agents`
//! string was echoed whole in the error line (62.9 MB), and a 1 MiB ball id multiplied through
//! every event and row (2.5 GB in `compare --quick`). Ids are at most 64 bytes, and an echoed
//! value of a program's answer at most 200 characters.

mod common;

use common::{temp_dir, texts, xtask};

#[test]
fn a_programs_long_string_is_echoed_short() {
    let dir = temp_dir("strings-agents");
    let prog = dir.join("long_agents.py");
    std::fs::write(
        &prog,
        "import json, sys\nfor line in sys.stdin:\n    r = json.loads(line)\n    \
         print(json.dumps({\"id\": r.get(\"id\"), \"events\": [{\"kind\": \"ball_ball\", \
         \"agents\": \"x\" * (30 << 20), \"time\": 0.1}], \"final_states\": {}, \"end_time\": \
         1.0, \"termination\": \"rest\"}), flush=True)\n",
    )
    .unwrap();
    let engine = format!("exec:python3 {}", prog.display());
    let o = xtask()
        .args(["simulate", "data/shots/cut.toml", "--engine", &engine])
        .output()
        .unwrap();
    let (_, err) = texts(&o);
    assert_eq!(o.status.code(), Some(1), "{}", &err[..err.len().min(500)]);
    assert!(
        err.contains("agents = \"xxx"),
        "{}",
        &err[..err.len().min(500)]
    );
    assert!(err.len() < 4096, "stderr is {} bytes", err.len());
}

#[test]
fn an_id_longer_than_64_bytes_is_bad_input_in_one_short_line() {
    let dir = temp_dir("strings-id");
    let text = std::fs::read_to_string(common::shots().join("cut.toml")).unwrap();
    assert!(text.contains("id = \"1\""));
    let shot = dir.join("long_id.toml");
    let id = "b".repeat(1 << 20);
    std::fs::write(
        &shot,
        text.replacen("id = \"1\"", &format!("id = \"{id}\""), 1),
    )
    .unwrap();
    let o = xtask().arg("simulate").arg(&shot).output().unwrap();
    let (_, err) = texts(&o);
    assert_eq!(o.status.code(), Some(2), "{}", &err[..err.len().min(500)]);
    assert!(
        err.contains("balls[1].id") && err.contains("ids are at most 64 bytes"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.len() < 1024, "stderr is {} bytes", err.len());
}
