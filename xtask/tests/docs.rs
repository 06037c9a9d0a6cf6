//! The documentation keeps its promises: every figure README.md and docs/ quote is the one its
//! committed run gives (`cargo xtask figures`), a number changed by hand fails, the README stays
//! a five-minute read, and every relative link resolves inside the repository.

mod common;

use std::path::{Path, PathBuf};

use common::{root, temp_dir, texts, xtask};

/// README.md and every Markdown file under docs/.
fn documents() -> Vec<PathBuf> {
    let mut out = vec![root().join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    docs.sort();
    out.extend(docs);
    out
}

#[test]
fn every_figure_is_its_committed_runs() {
    let out = xtask().arg("figures").output().unwrap();
    let (so, se) = texts(&out);
    assert_eq!(out.status.code(), Some(0), "{so}{se}");
    let n: usize = so
        .split_whitespace()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    assert!(n >= 20, "{so}");
}

#[test]
fn a_figure_changed_by_hand_fails_naming_it() {
    let dir = temp_dir("figures");
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    // The first tagged figure, its text changed.
    let open = readme.find("<!--fig:").unwrap();
    let key_end = open + readme[open..].find("-->").unwrap();
    let key = &readme[open + "<!--fig:".len()..key_end];
    let body = key_end + 3;
    let end = body + readme[body..].find("<!--/fig-->").unwrap();
    let changed = format!(
        "{}{}9{}",
        &readme[..body],
        &readme[body..end],
        &readme[end..]
    );
    let file = dir.join("README.md");
    std::fs::write(&file, &changed).unwrap();
    let out = xtask().arg("figures").arg(&file).output().unwrap();
    let (so, se) = texts(&out);
    assert_eq!(out.status.code(), Some(1), "{so}{se}");
    assert!(so.contains(&format!("fig:{key} reads")), "{so}");
    assert!(se.contains("1 of"), "{se}");
    // --write puts the run's figure back.
    let out = xtask()
        .args(["figures", "--write"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", texts(&out).1);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), readme);
    // An unknown key is bad input.
    std::fs::write(&file, "<!--fig:no_such_figure-->1<!--/fig-->\n").unwrap();
    let out = xtask().arg("figures").arg(&file).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(texts(&out).1.contains("unknown figure key"));
}

#[test]
fn nested_tags_and_a_missing_run_are_bad_input() {
    let dir = temp_dir("figures-bad");
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    // The first tagged figure, with another tag inside its text: --write would delete it.
    let open = readme.find("<!--fig:").unwrap();
    let key_end = open + readme[open..].find("-->").unwrap();
    let body = key_end + 3;
    let nested = format!(
        "{}<!--fig:x-->1<!--/fig-->{}",
        &readme[..body],
        &readme[body..]
    );
    let file = dir.join("README.md");
    std::fs::write(&file, &nested).unwrap();
    let line = readme[..open].matches('\n').count() + 1;
    for write in [false, true] {
        let mut c = xtask();
        c.arg("figures").arg(&file);
        if write {
            c.arg("--write");
        }
        let out = c.output().unwrap();
        let (_, se) = texts(&out);
        assert_eq!(out.status.code(), Some(2), "--write {write}: {se}");
        assert!(
            se.contains(&format!("line {line}: a fig tag inside the text of fig:")),
            "{se}"
        );
        assert_eq!(std::fs::read_to_string(&file).unwrap(), nested);
    }
    // A run that is not there, as the help says: exit 2 naming it.
    let missing = dir.join("no-such-run");
    let out = xtask()
        .arg("figures")
        .arg("--run")
        .arg(&missing)
        .output()
        .unwrap();
    let (_, se) = texts(&out);
    assert_eq!(out.status.code(), Some(2), "{se}");
    assert!(se.contains(&missing.display().to_string()), "{se}");
    assert_eq!(se.lines().count(), 1, "{se}");
}

#[test]
fn the_readme_is_a_five_minute_read() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let lines = readme.lines().count();
    assert!(lines <= 250, "README.md has {lines} lines");
    for two in ["cargo xtask compare", "cargo test --workspace --release"] {
        assert!(readme.contains(two), "README.md does not show {two}");
    }
}

/// The relative link targets of a Markdown text: `](target)` outside code, without `#anchor`.
fn links(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_code = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if in_code {
            continue;
        }
        let mut rest = line;
        while let Some(i) = rest.find("](") {
            let after = &rest[i + 2..];
            let Some(j) = after.find(')') else { break };
            let target = after[..j].split('#').next().unwrap_or("").trim();
            if !target.is_empty() && !target.contains("://") && !target.starts_with("mailto:") {
                out.push(target.to_string());
            }
            rest = &after[j..];
        }
    }
    out
}

#[test]
fn every_relative_link_resolves_inside_the_repository() {
    let repo = root().canonicalize().unwrap();
    let mut files = documents();
    files.push(root().join("ARCHITECTURE.md"));
    for f in [
        "benches/peers/README.md",
        "data/shots/README.md",
        "reports/README.md",
    ] {
        files.push(root().join(f));
    }
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let dir = file.parent().unwrap_or(Path::new("."));
        for target in links(&text) {
            let path = dir.join(&target);
            let resolved = path.canonicalize().unwrap_or_else(|e| {
                panic!("{}: link {target:?} does not resolve: {e}", file.display())
            });
            assert!(
                resolved.starts_with(&repo),
                "{}: link {target:?} leaves the repository",
                file.display()
            );
        }
        // No document names a file outside the repository (the old ../shared notes).
        assert!(
            !text.contains("../shared") && !text.contains("shared/physics-notes"),
            "{} names a file outside the repository",
            file.display()
        );
    }
}

/// Each package's features as `cargo tree` resolves them for `args`: `name version` to the
/// feature lists it is built with (a build dependency and a normal one may differ).
fn resolved_features(args: &[&str]) -> std::collections::BTreeMap<String, Vec<String>> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    // Not --offline: cargo tree reads the manifest of every package it resolves, some of which
    // no build downloads (aho-corasick on a fresh machine); --locked keeps the lock file's
    // resolution.
    let out = std::process::Command::new(cargo)
        .current_dir(root())
        .args(["tree", "--locked", "--prefix", "none", "--no-dedupe"])
        .args(["-f", "{p}|{f}"])
        .args(args)
        .output()
        .unwrap();
    let (so, se) = texts(&out);
    assert!(out.status.success(), "cargo tree {args:?}: {se}");
    let mut m = std::collections::BTreeMap::<String, Vec<String>>::new();
    for line in so.lines() {
        let Some((p, f)) = line.split_once('|') else {
            continue;
        };
        let p = p.trim_end_matches(" (*)").trim();
        // A workspace member's path differs by checkout, not by build.
        let p = p.split(" (").next().unwrap_or(p).to_string();
        let f = f.trim_end_matches(" (*)").to_string();
        let fs = m.entry(p).or_default();
        if !fs.contains(&f) {
            fs.push(f);
            fs.sort();
        }
    }
    m
}

/// README's promise that the tests after `cargo xtask compare` reuse its build: xtask alone
/// (`cargo xtask`) and the whole workspace with its tests (`cargo test --workspace`) give every
/// dependency xtask has the same features, so cargo builds each once.
#[test]
fn the_tests_and_cargo_xtask_share_one_build() {
    let alone = resolved_features(&["-p", "xtask", "-e", "normal,build"]);
    let all = resolved_features(&["--workspace", "-e", "normal,build,dev"]);
    let differ: Vec<String> = alone
        .iter()
        .filter_map(|(p, f)| {
            let w = all.get(p)?;
            (w != f).then(|| format!("{p}: xtask alone {f:?}, the tests {w:?}"))
        })
        .collect();
    assert!(alone.len() > 100, "{} packages", alone.len());
    assert!(
        differ.is_empty(),
        "turn these features on in xtask/Cargo.toml too:\n{}",
        differ.join("\n")
    );
}
