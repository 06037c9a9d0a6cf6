//! `parse` never panics: not on arbitrary text, not on mutated valid shot files. Whatever it
//! accepts round-trips through `to_toml`.

use std::path::Path;

use pool_shots::{parse, to_toml};
use proptest::prelude::*;

fn default_texts() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/shots");
    let mut out: Vec<String> = pool_shots::list_shots(&dir)
        .unwrap()
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    out.push(EXPLICIT.to_string());
    out
}

const EXPLICIT: &str = r#"
description = "explicit"
model = "ideal"
t_end = 3.0
[table]
name = "box"
length = 2.0
width = 1.0
[[table.cushions]]
id = "bottom"
p1 = [0.0, 0.0]
p2 = [2.0, 0.0]
height = 0.036576
[[table.pockets]]
id = "p"
center = [2.0, 1.0]
radius = 0.06
[params]
preset = "carom"
R = 0.03
[[balls]]
id = "a"
r = [0.5, 0.5, 0.03]
v = [1.0, 0.0]
[[balls]]
id = "b"
r = [1.5, 0.5]
"#;

/// Snippets that are likely to reach deep into the checks when spliced into a valid file.
const SNIPPETS: &[&str] = &[
    "nan",
    "-nan",
    "inf",
    "-inf",
    "+inf",
    "0",
    "-0.0",
    "1e308",
    "-1e308",
    "1e-320",
    "-1",
    "9999999999999999999999",
    "\"x\"",
    "[]",
    "[1]",
    "[1, 2, 3, 4]",
    "{}",
    "true",
    "1979-05-27",
    "[[balls]]",
    "[table]",
    "[params]",
    "\n",
    "=",
    "\"",
    "'",
    "[",
    "]",
    ",",
    "#",
    ".",
    "balls",
    "id = \"cue\"",
    "state = \"pocketed\"",
    "state = \"rolling\"",
    "model = \"ideal\"",
    "table = \"rectangle_0x0\"",
    "table = \"rectangle_1e400x1\"",
    "r = [0.0, 0.0]",
    "\u{0}",
    "\u{feff}",
    "ü",
    "\r\n",
    "\t",
];

/// Values of every kind the format has, valid and invalid.
const VALUES: &[&str] = &[
    "nan",
    "inf",
    "-inf",
    "0",
    "0.0",
    "-0.0",
    "1e308",
    "1e-320",
    "-1",
    "0.5",
    "2",
    "100",
    "\"x\"",
    "\"\"",
    "\"cue\"",
    "\"1\"",
    "\"pool\"",
    "\"ideal\"",
    "\"carom\"",
    "\"seven_foot\"",
    "\"rectangle_2x1\"",
    "\"rolling\"",
    "\"sliding\"",
    "\"spinning\"",
    "\"stationary\"",
    "\"pocketed\"",
    "[]",
    "[0.5]",
    "[0.5, 0.5]",
    "[0.5, 0.5, 0.028575]",
    "[0.5, 0.5, 0.0]",
    "[1.0, 0.0, 0.0]",
    "[0.0, 0.0, 30.0]",
    "[1, 2, 3, 4]",
    "[nan, 0]",
    "[\"a\", 1]",
    "{}",
    "{ x = 1 }",
    "true",
    "1979-05-27T07:32:00Z",
];

#[derive(Debug, Clone)]
enum Mutation {
    Delete { at: usize, len: usize },
    Insert { at: usize, snippet: usize },
    ReplaceNumber { nth: usize, snippet: usize },
    ReplaceValue { nth: usize, snippet: usize },
    DuplicateLine { nth: usize },
    Truncate { at: usize },
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        4 => (any::<usize>(), any::<usize>())
            .prop_map(|(nth, snippet)| Mutation::ReplaceValue { nth, snippet }),
        3 => (any::<usize>(), any::<usize>())
            .prop_map(|(nth, snippet)| Mutation::ReplaceNumber { nth, snippet }),
        1 => (any::<usize>(), 1usize..40).prop_map(|(at, len)| Mutation::Delete { at, len }),
        1 => (any::<usize>(), any::<usize>())
            .prop_map(|(at, snippet)| Mutation::Insert { at, snippet }),
        1 => any::<usize>().prop_map(|nth| Mutation::DuplicateLine { nth }),
        1 => any::<usize>().prop_map(|at| Mutation::Truncate { at }),
    ]
}

/// The char boundary at or before `at % (len + 1)`.
fn boundary(s: &str, at: usize) -> usize {
    let mut i = at % (s.len() + 1);
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn apply(text: &str, m: &Mutation) -> String {
    let mut s = text.to_string();
    match *m {
        Mutation::Delete { at, len } => {
            let a = boundary(&s, at);
            let b = boundary(&s, (a + len).min(s.len()));
            s.replace_range(a..b.max(a), "");
        }
        Mutation::Insert { at, snippet } => {
            let a = boundary(&s, at);
            s.insert_str(a, SNIPPETS[snippet % SNIPPETS.len()]);
        }
        Mutation::ReplaceNumber { nth, snippet } => {
            // Spans of maximal runs of number characters.
            let bytes = s.as_bytes();
            let mut spans = Vec::new();
            let mut i = 0;
            while i < bytes.len() {
                if bytes[i].is_ascii_digit() {
                    let start = i;
                    while i < bytes.len()
                        && (bytes[i].is_ascii_digit() || b".e-+".contains(&bytes[i]))
                    {
                        i += 1;
                    }
                    spans.push(start..i);
                } else {
                    i += 1;
                }
            }
            if !spans.is_empty() {
                let span = spans[nth % spans.len()].clone();
                s.replace_range(span, SNIPPETS[snippet % 14]);
            }
        }
        Mutation::ReplaceValue { nth, snippet } => {
            // The value of the nth `key = value` line, replaced by a value-like snippet.
            let lines: Vec<&str> = s.lines().collect();
            let keyed: Vec<usize> = (0..lines.len())
                .filter(|&i| lines[i].contains(" = "))
                .collect();
            if !keyed.is_empty() {
                let k = keyed[nth % keyed.len()];
                let key = lines[k].split(" = ").next().unwrap_or("");
                let line = format!("{key} = {}", VALUES[snippet % VALUES.len()]);
                let mut out: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
                out[k] = line;
                s = out.join("\n");
            }
        }
        Mutation::DuplicateLine { nth } => {
            let lines: Vec<&str> = s.lines().collect();
            if !lines.is_empty() {
                let k = nth % lines.len();
                let mut out: Vec<&str> = lines[..=k].to_vec();
                out.extend_from_slice(&lines[k..]);
                s = out.join("\n");
            }
        }
        Mutation::Truncate { at } => {
            let a = boundary(&s, at);
            s.truncate(a);
        }
    }
    s
}

/// Parses; if accepted, the set-up must round-trip through `to_toml`.
fn check(text: &str) {
    if let Ok(setup) = parse(text, "prop", Path::new("prop.toml")) {
        let written = to_toml(&setup, "round trip");
        let back = parse(&written, "prop", Path::new("written.toml"))
            .unwrap_or_else(|e| panic!("to_toml output rejected: {e}\n{written}"));
        assert_eq!(back, setup);
    } else if let Err(e) = parse(text, "prop", Path::new("prop.toml")) {
        assert!(!e.to_string().contains('\n'));
        if std::env::var_os("SHOW_SHOT_ERRORS").is_some() {
            eprintln!("{e}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_strings_never_panic(text in ".{0,400}") {
        check(&text);
    }

    #[test]
    fn toml_like_strings_never_panic(text in "([a-z_R]{1,8} ?= ?(\"[a-z0-9 ]{0,6}\"|-?[0-9]{1,3}(\\.[0-9]{1,4})?|nan|inf|\\[[-0-9., a-z]{0,20}\\])\n|\\[\\[?(balls|table|params|table\\.cushions)\\]\\]?\n){0,30}") {
        check(&text);
    }

    #[test]
    fn mutated_valid_files_never_panic(
        which in any::<usize>(),
        mutations in proptest::collection::vec(mutation(), 1..4),
    ) {
        let texts = default_texts();
        let mut text = texts[which % texts.len()].clone();
        for m in &mutations {
            text = apply(&text, m);
        }
        check(&text);
    }
}
