//! The compare run's `report.html` in a real browser (issue 35): headless Chromium opens the page
//! from file://, and a user's path through it is played and checked against the DOM of the
//! report-html contract: the page gets ready without a console error or an uncaught exception,
//! the answer table has one row per engine of `outcome_answer.csv` and the reference's, a header
//! of the at-a-glance table sorts it, a rate cell drills down to its shots, a shot opens its
//! replay, and moving the replay's slider moves the balls. Screenshots of the page and of the
//! replay before and after go to `<run>/screenshots/`, and are looked at (not blank, and the two
//! replay pictures differ inside the canvas).
//!
//! The browser is `$CHROME`, else `chromium`, `chromium-browser` or `google-chrome` on PATH
//! (Debian: `apt-get install chromium`); without one the test prints one line and passes. It is
//! driven over the DevTools protocol through its `--remote-debugging-pipe` (`browser/cdp.rs`; never
//! downloading a browser).
//!
//! By default the test makes its own run (`xtask compare --quick --no-scaling` into a temporary
//! directory). To check and time any page instead, name it:
//!
//! ```text
//! REPORT_HTML=reports/example/report.html cargo test --release -p xtask --test browser -- --nocapture
//! ```
//!
//! which runs the same checks on the parts that page has (the expected answer rows come from the
//! `outcome_answer.csv` beside it, when there is one), writes the screenshots beside it, and
//! prints the page's size in bytes, its own `window.poolReport.loadMs` and the wall time from
//! navigation to `window.poolReport.ready`.

#[path = "browser/cdp.rs"]
mod cdp;
mod common;

use std::collections::BTreeSet;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use cdp::{Tab, Viewport};
use serde_json::Value;

/// The browser window (CSS pixels; headless Chromium draws at device scale 1).
const WINDOW: (u32, u32) = (1280, 1000);
/// How long the page may take to become ready.
const READY_TIMEOUT: Duration = Duration::from_secs(30);
/// How long a click may take to show its section.
const SHOW_TIMEOUT: Duration = Duration::from_secs(5);
/// A ball has moved when it is this far (m) from where it was: a ball's radius.
const MOVED_M: f64 = 0.02;

/// The ideal-model example program (docs/engine-protocol.md): it declines pool shots.
const IDEAL: &str = "exec:python3 benches/peers/ideal_engine.py";

/// The line printed when there is no browser.
const SKIP: &str =
    "browser test skipped: no Chromium found (apt-get install chromium, or set CHROME)";

#[test]
fn report_html_in_chromium() {
    let Some(chrome) = find_chrome() else {
        eprintln!("{SKIP}");
        return;
    };
    let (page, strict) = match std::env::var_os("REPORT_HTML").filter(|p| !p.is_empty()) {
        // A relative path is the workspace root's (cargo runs the test in xtask/).
        Some(p) => (
            std::fs::canonicalize(common::root().join(&p))
                .unwrap_or_else(|e| panic!("REPORT_HTML={}: {e}", Path::new(&p).display())),
            false,
        ),
        None => (make_run(), true),
    };
    check_page(&chrome, &page, strict);
}

/// `$CHROME` (a path, or a name on PATH), else the first of `chromium`, `chromium-browser`,
/// `google-chrome` on PATH.
fn find_chrome() -> Option<PathBuf> {
    if let Some(c) = std::env::var_os("CHROME").filter(|c| !c.is_empty()) {
        let p = PathBuf::from(&c);
        return if p.components().count() > 1 {
            p.is_file().then_some(p)
        } else {
            on_path(&c)
        };
    }
    ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .find_map(|n| on_path(OsStr::new(n)))
}

/// An executable file `name` in a directory of PATH.
fn on_path(name: &OsStr) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| p.metadata().is_ok_and(|m| m.is_file() && executable(&m)))
}

#[cfg(unix)]
fn executable(m: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    m.permissions().mode() & 0o111 != 0
}

#[cfg(not(unix))]
fn executable(_: &std::fs::Metadata) -> bool {
    true
}

/// The file:// address of an absolute path.
fn file_url(p: &Path) -> String {
    let mut u = String::from("file://");
    for b in p.display().to_string().bytes() {
        if b.is_ascii_alphanumeric() || b"/-_.~".contains(&b) {
            u.push(char::from(b));
        } else {
            u.push_str(&format!("%{b:02X}"));
        }
    }
    u
}

/// A quick compare run in a temporary directory; its `report.html`.
fn make_run() -> PathBuf {
    let out = common::temp_dir("browser");
    let t = Instant::now();
    let o = common::xtask()
        .args([
            "compare",
            "--quick",
            "--no-scaling",
            // An engine whose variant is a version (the filters name it without), and the
            // ideal-model example program, which declines every pool shot.
            "--engines",
            &format!("rapier:1e-3,{IDEAL}"),
            "--run-name",
            "browser",
            "--out",
        ])
        .arg(&out)
        .output()
        .unwrap();
    let (stdout, stderr) = common::texts(&o);
    assert!(
        o.status.success(),
        "xtask compare --quick failed: {stderr}\n{stdout}"
    );
    let page = out.join("browser/report.html");
    assert!(
        page.is_file(),
        "compare wrote no {} (the run holds {:?})",
        page.display(),
        std::fs::read_dir(out.join("browser")).map_or(vec![], |d| d
            .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
            .filter(|n| !n.ends_with(".svg") && !n.ends_with(".png"))
            .collect::<Vec<_>>())
    );
    eprintln!(
        "browser test: xtask compare --quick --no-scaling made {} in {:.1} s",
        page.parent().unwrap().display(),
        t.elapsed().as_secs_f64()
    );
    page
}

/// Opens `page` in Chromium and plays the contract's checks. `strict` (the test's own run):
/// every part must be there; otherwise (REPORT_HTML) a part the page lacks is reported and
/// skipped.
fn check_page(chrome: &Path, page: &Path, strict: bool) {
    let dir = page.parent().unwrap().to_path_buf();
    let bytes = std::fs::metadata(page).unwrap().len();
    let tab = Tab::launch(
        chrome,
        WINDOW,
        &["--disable-gpu", "--hide-scrollbars"],
        Duration::from_secs(60),
    )
    .unwrap_or_else(|e| panic!("could not start {}: {e}", chrome.display()));
    tab.set_default_timeout(SHOW_TIMEOUT);

    // Console errors, uncaught exceptions and error log entries (failed loads, CSP, ...), from
    // before the page loads to the end.
    let errors = Arc::new(Mutex::new(Vec::<String>::new()));
    {
        let errors = Arc::clone(&errors);
        tab.add_event_listener(Box::new(move |method: &str, params: &Value| {
            if let Some(e) = error_of(method, params) {
                errors.lock().unwrap().push(e);
            }
        }));
    }
    tab.enable_runtime().unwrap();
    tab.enable_log().unwrap();

    // A failure part way shows what the console said before it.
    let played = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let p = play(&tab, page, &dir, strict);
        // REPORT_REPLAY=<address after #> (with REPORT_HTML): a screenshot of that replay too,
        // e.g. replay=break9/seven_foot/22&run=discrete:1e-3:exact&t=7100.
        if let Some(hash) = std::env::var("REPORT_REPLAY")
            .ok()
            .filter(|h| !h.is_empty())
        {
            load(&tab, &format!("{}#{hash}", file_url(page)));
            frames(&tab);
            assert!(
                eval(&tab, "!document.querySelector('section#replay').hidden") == Value::Bool(true),
                "REPORT_REPLAY={hash}: no such replay on the page"
            );
            let name: String = hash
                .chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() || c == '.' || c == '-' {
                        c
                    } else {
                        '_'
                    }
                })
                .collect();
            let png = dir.join("screenshots").join(format!("{name}.png"));
            let (clip, _) = replay_clip(&tab);
            std::fs::write(&png, screenshot(&tab, clip)).unwrap();
            Png::read(&png).assert_not_blank(&name);
            eprintln!("browser test: replay {hash}: {}", png.display());
        }
        p
    }));
    // Anything late (animation frames, timers).
    std::thread::sleep(Duration::from_millis(200));
    let errs = errors.lock().unwrap().clone();
    let p = match played {
        Ok(p) => p,
        Err(panic) => {
            if !errs.is_empty() {
                eprintln!(
                    "browser test: the console before the failure:\n{}",
                    errs.join("\n")
                );
            }
            std::panic::resume_unwind(panic)
        }
    };
    assert!(
        errs.is_empty(),
        "{} console error(s) or uncaught exception(s) on {}:\n{}",
        errs.len(),
        page.display(),
        errs.join("\n")
    );

    eprintln!(
        "browser test: {} ({bytes} bytes): ready {:.0} ms after navigation \
         (window.poolReport.loadMs {:.0} ms); answer rows {}{}",
        page.display(),
        p.ready_ms,
        p.load_ms,
        p.answer_rows,
        p.expected
            .map_or(String::new(), |e| format!(" ({e} engines + reference)"))
    );
    for n in &p.notes {
        eprintln!("browser test: {n}");
    }
    eprintln!(
        "browser test: screenshots {}",
        p.screenshots
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    );
}

/// What a pass over the page found.
struct Played {
    /// Wall time from navigation to `window.poolReport.ready` (ms).
    ready_ms: f64,
    /// `window.poolReport.loadMs`.
    load_ms: f64,
    /// `#answer-table tbody tr[data-engine]`.
    answer_rows: usize,
    /// The engines of `outcome_answer.csv`, when beside the page.
    expected: Option<usize>,
    /// What was checked or skipped, a line each.
    notes: Vec<String>,
    /// The screenshots written.
    screenshots: Vec<PathBuf>,
}

/// Loads the page and plays the checks (the caller watches the console).
fn play(tab: &Tab, page: &Path, dir: &Path, strict: bool) -> Played {
    let mut notes = Vec::<String>::new();
    let url = file_url(page);
    let (ready_ms, load_ms) = load(tab, &url);

    let shots = dir.join("screenshots");
    let shots = match std::fs::create_dir_all(&shots) {
        Ok(()) => shots,
        Err(e) => {
            let t = common::temp_dir("browser-shots");
            notes.push(format!(
                "{} not writable ({e}): screenshots in {}",
                shots.display(),
                t.display()
            ));
            t
        }
    };

    // The answer table: one row per engine (engine, scheme) of outcome_answer.csv, and the
    // reference's.
    let answer_rows = count(tab, "#answer-table tbody tr[data-engine]");
    let expected = answer_engines(&dir.join("outcome_answer.csv"));
    if exists(tab, "table#answer-table") {
        let refs = count(
            tab,
            "#answer-table tbody tr.reference[data-engine=\"event\"]",
        );
        assert_eq!(
            refs, 1,
            "#answer-table: the reference's row (tr.reference[data-engine=event])"
        );
        match &expected {
            Some(e) => assert_eq!(
                answer_rows,
                e.len() + 1,
                "#answer-table rows: outcome_answer.csv has {} engines {e:?}, and the reference",
                e.len()
            ),
            None => {
                assert!(answer_rows >= 1, "#answer-table has no tr[data-engine]");
                notes.push("no outcome_answer.csv beside the page: answer rows not counted".into());
            }
        }
    } else {
        part_missing(strict, &mut notes, "table#answer-table");
    }

    // The answer as a picture, the reading guide before it, the undecided and the declined.
    check_answer_grid(tab, dir, strict, &mut notes);
    // Nothing runs off the page's right edge; the answer table fits its box.
    check_width(tab, strict, &mut notes);

    // The page's top, with the answer table.
    eval(tab, "window.scrollTo(0, 0)");
    let top_h = eval(
        tab,
        "(() => { const t = document.querySelector('#answer-table'); \
         return t ? t.getBoundingClientRect().bottom + window.scrollY + 16 : 0; })()",
    )
    .as_f64()
    .unwrap_or(0.0)
    .clamp(f64::from(WINDOW.1) * 0.6, 4000.0);
    let report_png = shots.join("report.png");
    let clip = Viewport {
        x: 0.0,
        y: 0.0,
        width: f64::from(WINDOW.0),
        height: top_h,
        scale: 1.0,
    };
    std::fs::write(&report_png, screenshot(tab, clip)).unwrap();

    // The at-a-glance table: a header whose column's values differ reorders the rows.
    let sorted_by = check_sort(tab, strict, &mut notes);

    // The filters: each choice and back to all, without errors; all brings every row back.
    check_filters(tab, strict, &mut notes);
    // What they narrow: engines by name (no version), the answer's columns by family, and
    // the chaos floor's series stays.
    check_filter_effects(tab, strict, &mut notes);

    // A rate cell with changed shots drills down; a shot with a replay opens it.
    let drill = check_drill(tab, dir, strict, &mut notes);

    let mut replay_summary = String::new();
    let mut replay_pngs = Vec::new();
    if let Some((drill_text, shot_key)) = &drill {
        let (s, pngs) = check_replay(tab, &shots);
        replay_summary = format!("{drill_text}; replay {shot_key}: {s}");
        replay_pngs = pngs;
    }

    // The pictures.
    let report_img = Png::read(&report_png);
    report_img.assert_not_blank("report.png");
    assert!(
        report_img.w >= 800 && report_img.h >= 300,
        "report.png is {}x{}",
        report_img.w,
        report_img.h
    );

    // Hash routes naming Object.prototype's names (issue 41): the page still gets ready
    // (`load` asserts it), and opens no replay.
    for name in ["constructor", "__proto__", "toString"] {
        load(tab, &format!("{url}#replay={name}"));
        assert_eq!(
            count(tab, "section#replay:not([hidden])"),
            0,
            "#replay={name} opened a replay"
        );
    }

    // A measurement (REPORT_HTML): three loads more, the first's cold caches aside.
    if !strict {
        let again: Vec<(f64, f64)> = (0..3).map(|_| load(tab, &url)).collect();
        let f = |v: Vec<f64>| {
            v.iter()
                .map(|x| format!("{x:.0}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        notes.push(format!(
            "loaded 3 times more: ready {} ms after navigation (window.poolReport.loadMs {} ms)",
            f(again.iter().map(|a| a.0).collect()),
            f(again.iter().map(|a| a.1).collect())
        ));
    }

    let mut screenshots = vec![report_png];
    screenshots.extend(replay_pngs);
    if let Some(k) = sorted_by {
        notes.insert(0, format!("#glance-table reordered by th[data-key={k}]"));
    }
    if !replay_summary.is_empty() {
        notes.insert(usize::from(!notes.is_empty()), replay_summary);
    }
    Played {
        ready_ms,
        load_ms,
        answer_rows,
        expected: expected.map(|e| e.len()),
        notes,
        screenshots,
    }
}

/// Navigates to the page (from about:blank, so that the last load's `ready` is not taken for
/// this one's) and waits for `window.poolReport.ready`: the wall time from navigation to ready
/// and the page's own `window.poolReport.loadMs` (ms).
fn load(tab: &Tab, url: &str) -> (f64, f64) {
    tab.navigate_to("about:blank").unwrap();
    assert!(
        wait_for(tab, "!window.poolReport", READY_TIMEOUT),
        "about:blank did not load"
    );
    let t0 = Instant::now();
    tab.navigate_to(url).unwrap();
    let ready = wait_for(
        tab,
        "window.poolReport && window.poolReport.ready === true",
        READY_TIMEOUT,
    );
    let ready_ms = t0.elapsed().as_secs_f64() * 1e3;
    assert!(
        ready,
        "window.poolReport.ready not true within {READY_TIMEOUT:?}"
    );
    let load_ms = eval(tab, "window.poolReport.loadMs");
    assert!(
        load_ms.as_f64().is_some_and(|v| v.is_finite() && v >= 0.0),
        "window.poolReport.loadMs is {load_ms}, not ms"
    );
    (ready_ms, load_ms.as_f64().unwrap())
}

/// A console error, an uncaught exception or an error log entry, as a line, from an event's
/// method and params (Runtime.consoleAPICalled, Runtime.exceptionThrown, Log.entryAdded).
fn error_of(method: &str, p: &Value) -> Option<String> {
    let text = |v: &Value| v.as_str().map(str::to_string).unwrap_or_default();
    match method {
        "Runtime.consoleAPICalled" if p["type"] == "error" => {
            let args: Vec<String> = p["args"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|a| match a.get("value") {
                    Some(v) => v.to_string(),
                    None => text(&a["description"]),
                })
                .collect();
            Some(format!("console.error: {}", args.join(" ")))
        }
        "Runtime.exceptionThrown" => {
            let d = &p["exceptionDetails"];
            let what = d["exception"]["description"]
                .as_str()
                .map_or_else(|| text(&d["text"]), str::to_string);
            Some(format!(
                "uncaught exception at {}:{}:{}: {what}",
                text(&d["url"]),
                d["lineNumber"],
                d["columnNumber"]
            ))
        }
        "Log.entryAdded" if p["entry"]["level"] == "error" => {
            let e = &p["entry"];
            Some(format!(
                "log error ({}): {} {}",
                text(&e["source"]),
                text(&e["text"]),
                text(&e["url"])
            ))
        }
        _ => None,
    }
}

/// The value of a JavaScript expression (awaited when a promise), through JSON. An exception
/// fails the test.
fn eval(tab: &Tab, expr: &str) -> Value {
    let wrapped = format!(
        "Promise.resolve((() => ({expr}))()).then(v => JSON.stringify(v === undefined ? null : v))"
    );
    let r = tab
        .evaluate(&wrapped, true)
        .unwrap_or_else(|e| panic!("evaluating {expr}: {e}"));
    match r.get("value") {
        Some(Value::String(s)) => serde_json::from_str(s).unwrap(),
        _ => panic!("evaluating {expr}: {r}"),
    }
}

/// Polls a JavaScript condition until it is true or `timeout` passes.
fn wait_for(tab: &Tab, cond: &str, timeout: Duration) -> bool {
    let t = Instant::now();
    loop {
        // Before the navigation commits, the condition runs on the old page (or fails).
        let ok = tab
            .evaluate(&format!("!!({cond})"), false)
            .ok()
            .is_some_and(|r| r.get("value") == Some(&Value::Bool(true)));
        if ok {
            return true;
        }
        if t.elapsed() > timeout {
            return false;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Whether a selector matches.
fn exists(tab: &Tab, sel: &str) -> bool {
    count(tab, sel) > 0
}

/// How many elements a selector matches.
fn count(tab: &Tab, sel: &str) -> usize {
    eval(
        tab,
        &format!("document.querySelectorAll({}).length", js_str(sel)),
    )
    .as_u64()
    .unwrap() as usize
}

/// A string as a JavaScript literal.
fn js_str(s: &str) -> String {
    Value::String(s.into()).to_string()
}

/// JavaScript: whether element `e` is shown (laid out, not hidden, not folded in a closed
/// `<details>`: Chromium still lays out a closed details' content, under its summary).
const SHOWN: &str = "(e => !!e && e.getClientRects().length > 0 && \
                     getComputedStyle(e).visibility !== 'hidden' && \
                     (!e.closest('details:not([open])') || !!e.closest('summary')))";

/// Waits until the first element of a selector is shown.
fn wait_shown(tab: &Tab, sel: &str) -> bool {
    wait_for(
        tab,
        &format!("{SHOWN}(document.querySelector({}))", js_str(sel)),
        SHOW_TIMEOUT,
    )
}

/// Clicks the `i`-th element of a selector as a user would: scrolled into view, the mouse
/// moved, pressed and released at its middle, which must be the element itself (not something
/// over it).
fn click(tab: &Tab, sel: &str, i: usize) {
    let at = eval(
        tab,
        &format!(
            "(() => {{ const e = document.querySelectorAll({})[{i}]; if (!e) return 'no such element'; \
             e.scrollIntoView({{block: 'center', inline: 'center', behavior: 'instant'}}); \
             const r = e.getClientRects()[0]; if (!r) return 'not shown'; \
             const x = r.left + r.width / 2, y = r.top + r.height / 2, h = document.elementFromPoint(x, y); \
             if (!h || !(h === e || e.contains(h))) return 'covered by ' + (h ? h.outerHTML.slice(0, 80) : 'nothing'); \
             return [x, y]; }})()",
            js_str(sel)
        ),
    );
    let xy = at
        .as_array()
        .unwrap_or_else(|| panic!("clicking {sel} #{i}: {at}"));
    let (x, y) = (xy[0].as_f64().unwrap(), xy[1].as_f64().unwrap());
    tab.click_point(x, y)
        .unwrap_or_else(|e| panic!("clicking {sel} #{i}: {e}"));
}

/// A failed part: in the test's own run it fails the test, on a given page it is a note.
fn part_missing(strict: bool, notes: &mut Vec<String>, what: &str) {
    assert!(!strict, "the page has no {what}");
    notes.push(format!("the page has no {what}: its checks skipped"));
}

/// The distinct (engine, scheme) pairs of an `outcome_answer.csv`, when the file is there.
fn answer_engines(csv_path: &Path) -> Option<BTreeSet<(String, String)>> {
    let mut r = csv::Reader::from_path(csv_path).ok()?;
    let h = r.headers().unwrap().clone();
    let col = |n: &str| {
        h.iter()
            .position(|c| c == n)
            .unwrap_or_else(|| panic!("{}: no column {n}", csv_path.display()))
    };
    let (e, s) = (col("engine"), col("scheme"));
    Some(
        r.records()
            .map(|rec| {
                let rec = rec.unwrap();
                (rec[e].to_string(), rec[s].to_string())
            })
            .collect(),
    )
}

/// Clicks the headers of `#glance-table` (twice each: ascending, descending) until one reorders
/// its rows; its key.
fn check_sort(tab: &Tab, strict: bool, notes: &mut Vec<String>) -> Option<String> {
    const ROWS: &str = "[...document.querySelectorAll('#glance-table tbody tr[data-engine]')]\
                        .map(r => r.textContent)";
    const HEADS: &str = "#glance-table thead th[data-key]";
    if !exists(tab, "table#glance-table") {
        part_missing(strict, notes, "table#glance-table");
        return None;
    }
    let before = eval(tab, ROWS);
    let rows = before.as_array().unwrap();
    assert!(
        !rows.is_empty(),
        "#glance-table has no tbody tr[data-engine]"
    );
    let distinct: BTreeSet<String> = rows.iter().map(|r| r.to_string()).collect();
    if distinct.len() < 2 {
        notes.push("#glance-table has fewer than two distinct rows: sorting not checked".into());
        return None;
    }
    let keys = eval(
        tab,
        &format!("[...document.querySelectorAll('{HEADS}')].map(h => h.dataset.key)"),
    );
    let keys: Vec<String> = keys
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k.as_str().unwrap_or_default().to_string())
        .collect();
    assert!(!keys.is_empty(), "#glance-table has no thead th[data-key]");
    for (i, key) in keys.iter().enumerate() {
        click(tab, HEADS, i);
        frames(tab);
        let asc = eval(tab, ROWS);
        click(tab, HEADS, i);
        frames(tab);
        let desc = eval(tab, ROWS);
        assert_eq!(
            asc.as_array().unwrap().len(),
            rows.len(),
            "sorting by {key} changed the number of rows"
        );
        if asc != desc || asc != before {
            return Some(key.clone());
        }
    }
    panic!("no header of #glance-table ({keys:?}) reordered its rows (clicked twice each)");
}

/// Chooses each filter's first value and then all again (""); all must show every row it
/// showed before.
fn check_filters(tab: &Tab, strict: bool, notes: &mut Vec<String>) {
    let visible_rows =
        format!("[...document.querySelectorAll('tr[data-engine]')].filter({SHOWN}).length");
    let all = eval(tab, &visible_rows);
    let mut tried = Vec::new();
    for id in ["filter-engine", "filter-family"] {
        let sel = format!("select#{id}");
        if !exists(tab, &sel) {
            part_missing(strict, notes, &sel);
            continue;
        }
        let set = |v: &str| {
            format!(
                "(() => {{ const s = document.querySelector('{sel}'); s.value = {v}; \
                 s.dispatchEvent(new Event('input', {{bubbles: true}})); \
                 s.dispatchEvent(new Event('change', {{bubbles: true}})); return s.value; }})()"
            )
        };
        let first = eval(
            tab,
            &format!(
                "([...document.querySelectorAll('{sel} option')].map(o => o.value)\
                 .find(v => v !== '') ?? null)"
            ),
        );
        if let Some(v) = first.as_str() {
            eval(tab, &set(&js_str(v)));
            frames(tab);
            let some = eval(tab, &visible_rows);
            tried.push(format!("{id}={v}: {some} rows shown"));
        }
        eval(tab, &set("''"));
        frames(tab);
        assert_eq!(
            eval(tab, &visible_rows),
            all,
            "{sel} back to all (\"\") does not show the rows shown before"
        );
    }
    if !tried.is_empty() {
        notes.push(format!(
            "filters ({all} rows shown unfiltered): {}",
            tried.join("; ")
        ));
    }
}

/// The rows of an `outcome_answer.csv`: (engine, scheme, family), when the file is there.
fn answer_rows(csv_path: &Path) -> Option<Vec<[String; 3]>> {
    let mut r = csv::Reader::from_path(csv_path).ok()?;
    let h = r.headers().unwrap().clone();
    let col = |n: &str| h.iter().position(|c| c == n).unwrap();
    let (e, s, f) = (col("engine"), col("scheme"), col("family"));
    Some(
        r.records()
            .map(|rec| {
                let rec = rec.unwrap();
                [rec[e].to_string(), rec[s].to_string(), rec[f].to_string()]
            })
            .collect(),
    )
}

/// Whether `name` holds a version number (`0.6.0`, `rapier2d-f64 0.36`): digit, dot, digit.
fn has_version(name: &str) -> bool {
    name.as_bytes()
        .windows(3)
        .any(|w| w[0].is_ascii_digit() && w[1] == b'.' && w[2].is_ascii_digit())
}

/// `rgb(r, g, b)` as getComputedStyle writes a colour.
fn css_rgb((r, g, b): (u8, u8, u8)) -> String {
    format!("rgb({r}, {g}, {b})")
}

/// The answer grid: one `td.answer-cell` per row of `outcome_answer.csv`, each band (a series'
/// two halves, or one) filled with its claim's colour (`claim_rgb`, as the legend's swatch of
/// its key); a click shows its text. The reading guide comes before it; the incomplete answers
/// carry their commands; the ideal-model program's declined shots are counted and its answers
/// say "not played".
fn check_answer_grid(tab: &Tab, dir: &Path, strict: bool, notes: &mut Vec<String>) {
    use pool_report::compare::{answer_parts, legend};
    if !exists(tab, "table#answer-grid") {
        part_missing(strict, notes, "table#answer-grid");
        return;
    }
    let cells = eval(
        tab,
        "[...document.querySelectorAll('#answer-grid td.answer-cell')].map(td => ({\
         class: td.dataset.class, family: td.dataset.family, \
         engine: td.closest('tr').dataset.engine, headline: td.querySelector('.headline').textContent, \
         bands: [...td.querySelectorAll('.band')].map(b => ({bg: getComputedStyle(b).backgroundColor, \
           swatch: (s => s ? getComputedStyle(s).backgroundColor : null)(document.querySelector(\
           '#answer-legend li[data-key=\"' + b.dataset.legend + '\"] .swatch'))}))}))",
    );
    let cells = cells.as_array().unwrap();
    if let Some(rows) = answer_rows(&dir.join("outcome_answer.csv")) {
        assert_eq!(
            cells.len(),
            rows.len(),
            "#answer-grid has {} td.answer-cell, outcome_answer.csv {} rows",
            cells.len(),
            rows.len()
        );
    }
    assert!(!cells.is_empty(), "#answer-grid has no td.answer-cell");
    // Every band's colour is its legend swatch's; together they are the answers' claims'.
    let mut seen: Vec<String> = Vec::new();
    for c in cells {
        let bands = c["bands"].as_array().unwrap();
        assert!(!bands.is_empty() && bands.len() <= 2, "{c}");
        for b in bands {
            assert_eq!(b["swatch"], b["bg"], "a band's legend swatch: {c}");
            seen.push(b["bg"].as_str().unwrap().to_string());
        }
    }
    let answers: Vec<pool_outcome::AnswerRow> =
        csv::Reader::from_path(dir.join("outcome_answer.csv"))
            .map(|mut r| r.deserialize().map(Result::unwrap).collect())
            .unwrap_or_default();
    if !answers.is_empty() {
        let mut expected: Vec<String> = answers
            .iter()
            .flat_map(answer_parts)
            .map(|(_, fill)| css_rgb(fill))
            .collect();
        expected.sort();
        seen.sort();
        assert_eq!(seen, expected, "the grid's bands are the answers' claims");
    }
    let legend_entries = count(tab, "#answer-legend li[data-key]");
    assert_eq!(legend_entries, legend().len(), "#answer-legend entries");
    // The guide before the grid, with the words of report.md.
    let order = eval(
        tab,
        "(() => { const g = document.querySelector('#reading-guide'), a = document.querySelector('#answer-grid'); \
         return !!g && !!a && !!(g.compareDocumentPosition(a) & Node.DOCUMENT_POSITION_FOLLOWING) \
         && g.textContent.includes('How to read it.'); })()",
    );
    assert_eq!(
        order,
        Value::Bool(true),
        "#reading-guide (How to read it.) before #answer-grid"
    );
    // A click shows the cell's whole text.
    click(tab, "#answer-grid td.answer-cell", 0);
    frames(tab);
    assert!(
        wait_shown(tab, "#grid-detail"),
        "#grid-detail not shown after a click on a cell"
    );
    let detail = eval(tab, "document.querySelector('#grid-detail').textContent");
    assert!(
        detail
            .as_str()
            .is_some_and(|t| t.contains("shots") || t.contains("declined")),
        "#grid-detail: {detail}"
    );
    // Every undecided answer has its command, copyable.
    let undecided = eval(
        tab,
        "[...document.querySelectorAll('#undecided li')].map(li => ({command: (li.querySelector('code.command') || {}).textContent, button: !!li.querySelector('button.copy')}))",
    );
    for u in undecided.as_array().unwrap() {
        assert!(
            u["command"]
                .as_str()
                .is_some_and(|c| c.starts_with("cargo xtask outcomes ")),
            "#undecided: {u}"
        );
        assert_eq!(
            u["button"],
            Value::Bool(true),
            "#undecided without a copy button: {u}"
        );
    }
    if !answers.is_empty() {
        let open_answers = answers
            .iter()
            .filter(|a| {
                !pool_report::compare::complete(a)
                    && a.claim != pool_outcome::AnswerClaim::NotPlayed
            })
            .count();
        assert_eq!(
            undecided.as_array().unwrap().len(),
            open_answers,
            "#undecided lists every incomplete answer"
        );
    }
    // The ideal-model program: its declined runs counted, its answers "not played".
    let ideal = eval(
        tab,
        "[...document.querySelectorAll('#declined li.declined-engine')].filter(li => li.textContent.includes('ideal_engine.py'))\
         .map(li => ({declined: Number(li.querySelector('.declined-count').dataset.declined), text: li.textContent}))",
    );
    let ideal = ideal.as_array().unwrap();
    let ideal_cells: Vec<&Value> = cells.iter().filter(|c| c["engine"] == "exec").collect();
    if strict || !ideal_cells.is_empty() {
        assert_eq!(
            ideal.len(),
            1,
            "#declined: the ideal-model program's entry: {ideal:?}"
        );
        let d = &ideal[0];
        assert!(d["declined"].as_f64().is_some_and(|n| n > 0.0), "{d}");
        let text = d["text"].as_str().unwrap();
        assert!(
            text.contains("`unsupported`") || text.contains("unsupported"),
            "{text}"
        );
        assert!(
            !ideal_cells.is_empty(),
            "no answer of the ideal-model program in the grid"
        );
        for c in &ideal_cells {
            assert_eq!(c["class"], "not_played", "{c}");
            assert_eq!(c["headline"], "not played", "{c}");
        }
        notes.push(format!(
            "#answer-grid: {} cells; the ideal-model program declined {} runs",
            cells.len(),
            d["declined"]
        ));
    }
}

/// At the test's window nothing runs off the page's right edge, and the answer table fits its
/// box (it wraps its cells).
fn check_width(tab: &Tab, strict: bool, notes: &mut Vec<String>) {
    let page = eval(
        tab,
        "[document.documentElement.scrollWidth, document.documentElement.clientWidth]",
    );
    let (sw, cw) = (page[0].as_f64().unwrap(), page[1].as_f64().unwrap());
    assert!(
        sw <= cw + 1.0,
        "the page is {sw} px wide in a {cw} px window"
    );
    for id in ["answer-table", "answer-grid"] {
        if !exists(tab, &format!("#{id}")) {
            continue;
        }
        let t = eval(
            tab,
            &format!(
                "(() => {{ const w = document.querySelector('#{id}').parentElement; \
                 return [w.scrollWidth, w.clientWidth, document.querySelectorAll('#{id} thead th').length]; }})()"
            ),
        );
        let (sw, cw, cols) = (
            t[0].as_f64().unwrap(),
            t[1].as_f64().unwrap(),
            t[2].as_u64().unwrap(),
        );
        if sw > cw + 1.0 {
            // Many families scroll inside the box; up to 8 (the example's) must fit.
            assert!(
                !strict && cols > 9,
                "#{id} is {sw} px wide in its {cw} px box ({cols} columns)"
            );
            notes.push(format!(
                "#{id} scrolls: {sw} px in a {cw} px box ({cols} columns)"
            ));
        }
    }
}

/// The filters' effects: the engine filter's options are engine names with no version; the
/// family filter narrows the answer table's and grid's columns; the engine filter narrows the
/// rows and keeps the chaos floor's series in every chart.
fn check_filter_effects(tab: &Tab, strict: bool, notes: &mut Vec<String>) {
    let options = eval(
        tab,
        "[...document.querySelectorAll('#filter-engine option')].map(o => o.value).filter(v => v)",
    );
    let options: Vec<String> = options
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    for o in &options {
        assert!(
            !has_version(o),
            "#filter-engine offers {o:?}: a version, not a name"
        );
    }
    if strict {
        for want in ["end_of_step", "located", "rapier", IDEAL] {
            assert!(
                options.iter().any(|o| o == want),
                "#filter-engine lacks {want:?}: {options:?}"
            );
        }
    }
    let set = |id: &str, v: &str| {
        eval(
            tab,
            &format!(
                "(() => {{ const s = document.querySelector('#{id}'); s.value = {}; \
                 s.dispatchEvent(new Event('change', {{bubbles: true}})); return s.value; }})()",
                js_str(v)
            ),
        );
        frames(tab);
    };
    // The family filter: the answer's columns of that family only.
    let family = eval(
        tab,
        "([...document.querySelectorAll('#filter-family option')].map(o => o.value).find(v => v) ?? null)",
    );
    if let (Some(f), true) = (family.as_str(), exists(tab, "#answer-table")) {
        set("filter-family", f);
        let shown = eval(
            tab,
            &format!(
                "[...document.querySelectorAll('#answer-table thead th[data-family], #answer-grid td.answer-cell, #answer-grid th[data-family]')]\
                 .filter({SHOWN}).map(e => e.dataset.family)"
            ),
        );
        let shown = shown.as_array().unwrap();
        assert!(
            !shown.is_empty(),
            "family {f}: no column of the answer shown"
        );
        assert!(
            shown.iter().all(|x| x == f),
            "family {f}: the answer shows columns of {shown:?}"
        );
        let hidden = eval(
            tab,
            "[...document.querySelectorAll('#answer-table thead th[data-family]')].filter(e => e.hidden).length",
        );
        notes.push(format!(
            "family filter {f}: {} answer columns and cells shown, {hidden} table columns hidden",
            shown.len()
        ));
        set("filter-family", "");
    }
    // The engine filter: rows of that name (and the reference's, the floor's); the floor's
    // series in every chart.
    if let Some(name) = options.first() {
        set("filter-engine", name);
        let rows = eval(
            tab,
            &format!(
                "[...document.querySelectorAll('tr[data-name]')].filter({SHOWN}).map(r => r.dataset.name)"
            ),
        );
        assert!(
            rows.as_array().unwrap().iter().all(|r| r == name.as_str()),
            "engine {name}: rows of {rows} shown"
        );
        let charts = eval(tab, "window.poolReport.chartSeries()");
        let mut floors = 0;
        for c in charts.as_array().unwrap() {
            for s in c["series"].as_array().unwrap() {
                let show = s["show"] == Value::Bool(true);
                match s["name"].as_str() {
                    None => {
                        assert!(
                            show,
                            "engine {name}: chart {} hides {}",
                            c["id"], s["label"]
                        );
                        floors += usize::from(s["label"] == "chaos floor");
                    }
                    Some(n) => assert_eq!(
                        show,
                        n == name,
                        "engine {name}: chart {} series {}",
                        c["id"],
                        s["label"]
                    ),
                }
            }
        }
        let game = charts
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| c["id"].as_str().is_some_and(|i| i.starts_with("outcome-")))
            .count();
        assert_eq!(
            floors, game,
            "engine {name}: the chaos floor's series in every outcome chart"
        );
        notes.push(format!(
            "engine filter {name}: the chaos floor kept in {floors} charts; options {options:?}"
        ));
        set("filter-engine", "");
    } else {
        part_missing(strict, notes, "#filter-engine option");
    }
}

/// Clicks the rate cells (`a.drill`, data-changed > 0) until one lists a shot with a replay,
/// and clicks that shot. The cell and shot, or None when no replay was reached (a note, or a
/// failure in the test's own run when the run wrote replays).
fn check_drill(
    tab: &Tab,
    dir: &Path,
    strict: bool,
    notes: &mut Vec<String>,
) -> Option<(String, String)> {
    if !exists(tab, "table.rates a.drill") {
        part_missing(strict, notes, "table.rates a.drill");
        return None;
    }
    let cells = eval(
        tab,
        &format!(
            "[...document.querySelectorAll('a.drill')].map((a, i) => ({{i, shown: {SHOWN}(a), \
             changed: Number(a.dataset.changed), n: Number(a.dataset.n), \
             family: a.dataset.family, table: a.dataset.table, run: a.dataset.run}}))"
        ),
    );
    let cells = cells.as_array().unwrap();
    for c in cells {
        for k in ["family", "table", "run"] {
            assert!(
                c[k].as_str().is_some_and(|s| !s.is_empty()),
                "an a.drill without data-{k}: {c}"
            );
        }
        assert!(
            c["changed"]
                .as_f64()
                .is_some_and(|n| n >= 0.0 && n.fract() == 0.0),
            "an a.drill whose data-changed is not a count: {c}"
        );
    }
    let mut candidates: Vec<&Value> = cells
        .iter()
        .filter(|c| c["changed"].as_f64().unwrap() > 0.0)
        .collect();
    // The cells of a (family, table, run) that replays.json holds a replay of first: each click
    // costs time, and a large page has hundreds of cells.
    let replayed = replayed_cells(dir);
    candidates.sort_by_key(|c| {
        let k = ["family", "table", "run"].map(|f| c[f].as_str().unwrap().to_string());
        !replayed.contains(&k)
    });
    let written = replays_written(dir);
    if candidates.is_empty() {
        assert!(
            !strict || written == Some(0),
            "no a.drill with data-changed > 0, yet the run wrote replays"
        );
        notes.push("no rate cell with a changed shot: drill-down and replay not checked".into());
        return None;
    }
    let mut tried = 0;
    for c in candidates {
        let i = c["i"].as_u64().unwrap() as usize;
        let what = format!(
            "drill {}/{}/{} ({} changed)",
            c["family"].as_str().unwrap(),
            c["table"].as_str().unwrap(),
            c["run"].as_str().unwrap(),
            c["changed"]
        );
        assert!(
            c["shown"] == Value::Bool(true),
            "{what}: the a.drill is not shown (nothing to click)"
        );
        click(tab, "a.drill", i);
        frames(tab);
        tried += 1;
        assert!(
            wait_shown(tab, "section#drill"),
            "{what}: section#drill not shown after the click"
        );
        // One link per shot the rate counts (its n), those whose outcome changed marked.
        let links = count(tab, "section#drill a.shot-link");
        assert_eq!(
            links as f64,
            c["n"].as_f64().unwrap(),
            "{what}: section#drill has {links} a.shot-link"
        );
        let changed = count(tab, "section#drill a.shot-link.changed");
        assert_eq!(
            changed as f64,
            c["changed"].as_f64().unwrap(),
            "{what}: section#drill marks {changed} a.shot-link.changed"
        );
        let keys = eval(
            tab,
            "[...document.querySelectorAll('section#drill a.shot-link')].every(a => !!a.dataset.key)",
        );
        assert_eq!(
            keys,
            Value::Bool(true),
            "{what}: an a.shot-link without data-key"
        );
        // The first shown link to a shot with a replay (lists other than the changed shots'
        // start folded).
        let replay = "section#drill a.shot-link[data-replay=\"1\"]";
        let shown = eval(
            tab,
            &format!(
                "[...document.querySelectorAll({})].findIndex({SHOWN})",
                js_str(replay)
            ),
        );
        if let Some(k) = shown.as_i64().filter(|&k| k >= 0) {
            let key = eval(
                tab,
                &format!(
                    "document.querySelectorAll({})[{k}].dataset.key",
                    js_str(replay)
                ),
            );
            click(tab, replay, k as usize);
            return Some((what, key.as_str().unwrap_or_default().to_string()));
        }
    }
    let msg =
        format!("none of the {tried} rate cells with changed shots lists a shot with a replay");
    assert!(
        !strict || written == Some(0),
        "{msg}, yet outcomes/replays.json says {written:?} written"
    );
    notes.push(msg);
    None
}

/// `outcomes/replays.json` beside the page.
fn replays_json(dir: &Path) -> Option<Value> {
    let text = std::fs::read_to_string(dir.join("outcomes/replays.json")).ok()?;
    serde_json::from_str(&text).ok()
}

/// Its `written`.
fn replays_written(dir: &Path) -> Option<u64> {
    replays_json(dir)?["written"].as_u64()
}

/// The (family, table, run) of every engine run it replays (none without the file).
fn replayed_cells(dir: &Path) -> BTreeSet<[String; 3]> {
    let Some(j) = replays_json(dir) else {
        return BTreeSet::new();
    };
    let s = |v: &Value| v.as_str().unwrap_or_default().to_string();
    j["replays"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|r| {
            r["runs"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|run| [s(&r["family"]), s(&r["table"]), s(&run["run"])])
        })
        .collect()
}

/// The replay section, just opened: screenshots at the start and at the slider's end, the balls
/// moved, the events list and the play button. A summary and the screenshots' paths.
fn check_replay(tab: &Tab, shots: &Path) -> (String, Vec<PathBuf>) {
    assert!(
        wait_shown(tab, "section#replay"),
        "section#replay not shown after clicking a shot with a replay"
    );
    for sel in [
        "section#replay canvas#replay-canvas",
        "section#replay input#replay-slider[type=\"range\"]",
        "section#replay button#replay-play",
    ] {
        assert!(exists(tab, sel), "the replay has no {sel}");
    }
    let max = eval(tab, "Number(document.querySelector('#replay-slider').max)")
        .as_f64()
        .unwrap();
    assert!(max > 0.0, "#replay-slider's max is {max} ms");
    let value = "Number(document.querySelector('#replay-slider').value)";

    eval(tab, "window.poolReport.setTime(0)");
    frames(tab);
    let start = balls(tab);
    assert!(
        !start.is_empty(),
        "window.poolReport.replayBalls() is empty"
    );
    let start_png = shots.join("replay_start.png");
    let (clip, canvas) = replay_clip(tab);
    std::fs::write(&start_png, screenshot(tab, clip.clone())).unwrap();

    eval(tab, &format!("window.poolReport.setTime({max})"));
    frames(tab);
    let at = eval(tab, value).as_f64().unwrap();
    assert!(
        (at - max).abs() <= 1.0,
        "window.poolReport.setTime({max}) left #replay-slider at {at}"
    );
    let later = balls(tab);
    let moved = start
        .iter()
        .filter(|(k, a)| {
            later.iter().any(|(k2, b)| {
                k2 == k
                    && match (a, b) {
                        (Some(a), Some(b)) => (a.0 - b.0).hypot(a.1 - b.1) > MOVED_M,
                        (Some(_), None) => true,
                        _ => false,
                    }
            })
        })
        .count();
    assert!(
        moved > 0,
        "no ball of replayBalls() moved more than {MOVED_M} m between 0 and {max} ms"
    );
    let later_png = shots.join("replay_later.png");
    let (clip2, _) = replay_clip(tab);
    std::fs::write(&later_png, screenshot(tab, clip2)).unwrap();

    // The pictures: not blank, of one size, different inside the canvas.
    let a = Png::read(&start_png);
    let b = Png::read(&later_png);
    a.assert_not_blank("replay_start.png");
    b.assert_not_blank("replay_later.png");
    assert!(
        a.w >= 200 && a.h >= 150,
        "replay_start.png is {}x{}",
        a.w,
        a.h
    );
    assert_eq!(
        (a.w, a.h),
        (b.w, b.h),
        "the replay screenshots differ in size"
    );
    let (changed, area) = a.changed_in(&b, canvas);
    assert!(
        changed >= 200 && changed as f64 >= 1e-3 * area as f64,
        "the replay's canvas barely changed between 0 and {max} ms: {changed} of {area} pixels"
    );

    // The events list jumps to an event's time; play advances the slider.
    let mut extra = String::new();
    let events = count(tab, "ol#replay-events > li");
    if events > 0 {
        eval(tab, "window.poolReport.setTime(0)");
        click(tab, "ol#replay-events > li", events - 1);
        frames(tab);
        let t = eval(tab, value).as_f64().unwrap();
        assert!(
            t > 0.0,
            "clicking the last of ol#replay-events left the slider at {t}"
        );
        extra.push_str(&format!(", the last of {events} events at {t} ms"));
    } else {
        extra.push_str(", no ol#replay-events > li");
    }
    eval(tab, "window.poolReport.setTime(0)");
    click(tab, "button#replay-play", 0);
    std::thread::sleep(Duration::from_millis(400));
    let t = eval(tab, value).as_f64().unwrap();
    assert!(
        t > 0.0,
        "button#replay-play: the slider still at 0 after 0.4 s"
    );
    extra.push_str(&format!(", play: {t:.0} ms after 0.4 s"));

    let total = start.len();
    (
        format!(
            "{moved} of {total} balls moved by {max} ms; canvas {:.1} % of pixels changed{extra}",
            100.0 * changed as f64 / area as f64
        ),
        vec![start_png, later_png],
    )
}

/// Waits two animation frames (a page drawing on requestAnimationFrame has drawn).
fn frames(tab: &Tab) {
    eval(
        tab,
        "new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))",
    );
}

/// `replayBalls()`: ((run, id), position or None when gone).
type Balls = Vec<((String, String), Option<(f64, f64)>)>;

fn balls(tab: &Tab) -> Balls {
    let v = eval(tab, "window.poolReport.replayBalls()");
    v.as_array()
        .unwrap_or_else(|| panic!("replayBalls() is {v}"))
        .iter()
        .map(|b| {
            let key = (
                b["run"].as_str().unwrap_or_default().to_string(),
                b["id"]
                    .as_str()
                    .map_or_else(|| b["id"].to_string(), str::to_string),
            );
            let gone = b["gone"].as_bool().unwrap_or(false);
            let pos = match (b["x"].as_f64(), b["y"].as_f64()) {
                (Some(x), Some(y)) if !gone => Some((x, y)),
                _ => {
                    assert!(gone, "replayBalls(): a ball neither placed nor gone: {b}");
                    None
                }
            };
            (key, pos)
        })
        .collect()
}

/// The replay section's box on the page (CSS px) and the canvas's box inside it (px of the
/// screenshot), after scrolling it into view.
fn replay_clip(tab: &Tab) -> (Viewport, (u32, u32, u32, u32)) {
    let r = eval(
        tab,
        "(() => { const s = document.querySelector('section#replay'); s.scrollIntoView(); \
         const a = s.getBoundingClientRect(), \
         c = document.querySelector('#replay-canvas').getBoundingClientRect(); \
         return [a.left + scrollX, a.top + scrollY, a.width, a.height, \
                 c.left - a.left, c.top - a.top, c.width, c.height]; })()",
    );
    let v: Vec<f64> = r
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    let h = v[3].min(3000.0);
    let clip = Viewport {
        x: v[0],
        y: v[1],
        width: v[2],
        height: h,
        scale: 1.0,
    };
    let px = |x: f64| x.max(0.0).round() as u32;
    (clip, (px(v[4]), px(v[5]), px(v[6]), px(v[7])))
}

/// A PNG of a region of the page (CSS px, from the document's top), beyond the viewport too.
fn screenshot(tab: &Tab, clip: Viewport) -> Vec<u8> {
    use base64::Engine as _;
    let data = tab.capture_screenshot(&clip).unwrap();
    base64::prelude::BASE64_STANDARD.decode(data).unwrap()
}

/// A decoded screenshot, RGBA 8 bits.
struct Png {
    w: u32,
    h: u32,
    rgba: Vec<u8>,
}

impl Png {
    fn read(path: &Path) -> Png {
        let mut d = png::Decoder::new(std::fs::File::open(path).unwrap());
        d.set_transformations(
            png::Transformations::normalize_to_color8() | png::Transformations::ALPHA,
        );
        let mut r = d
            .read_info()
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let mut buf = vec![0; r.output_buffer_size()];
        let info = r.next_frame(&mut buf).unwrap();
        buf.truncate(info.buffer_size());
        assert_eq!(info.color_type, png::ColorType::Rgba, "{}", path.display());
        Png {
            w: info.width,
            h: info.height,
            rgba: buf,
        }
    }

    /// Many colours and some spread of brightness: a picture, not an empty or one-colour page.
    fn assert_not_blank(&self, name: &str) {
        let mut colours = BTreeSet::new();
        let (mut s, mut s2) = (0.0f64, 0.0f64);
        for p in self.rgba.chunks_exact(4) {
            colours.insert([p[0], p[1], p[2]]);
            let l = 0.299 * f64::from(p[0]) + 0.587 * f64::from(p[1]) + 0.114 * f64::from(p[2]);
            s += l;
            s2 += l * l;
        }
        let n = (self.rgba.len() / 4) as f64;
        let sd = (s2 / n - (s / n).powi(2)).max(0.0).sqrt();
        assert!(
            colours.len() >= 16 && sd >= 8.0,
            "{name} looks blank: {} colours, brightness standard deviation {sd:.1}",
            colours.len()
        );
    }

    /// Pixels that differ (by more than 24 in a channel) inside a box (x, y, w, h), and the
    /// box's area (within the picture).
    fn changed_in(&self, other: &Png, (x, y, w, h): (u32, u32, u32, u32)) -> (u64, u64) {
        let (x1, y1) = ((x + w).min(self.w), (y + h).min(self.h));
        let (mut changed, mut area) = (0, 0);
        for j in y.min(y1)..y1 {
            for i in x.min(x1)..x1 {
                let k = 4 * (j * self.w + i) as usize;
                area += 1;
                if (0..3).any(|c| self.rgba[k + c].abs_diff(other.rgba[k + c]) > 24) {
                    changed += 1;
                }
            }
        }
        (changed, area.max(1))
    }
}
