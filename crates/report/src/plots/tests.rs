//! Renders every plot from synthetic data and checks the files.
//!
//! Set `PLOTCHECK_DIR=/some/dir` to also keep the rendered example plots there for viewing.

use std::path::{Path, PathBuf};

use pool_harness::{BallPath, ShotPaths, SummaryRow};
use pool_physics::Table;

use super::common::{log_tick_label, LogAxis};
use super::table::equal_aspect;
use super::{error_cdf, error_vs_cost, error_vs_dt, ops_vs_dt, shot_paths, HEIGHT, WIDTH};

/// A fresh empty directory under the system temp dir.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("xtask-plots-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn row(shot: &str, engine: &str, scheme: &str, dt: Option<f64>, err: f64, ops: u64) -> SummaryRow {
    SummaryRow {
        shot: shot.into(),
        engine: engine.into(),
        scheme: scheme.into(),
        dt_s: dt,
        n_balls: 3,
        n_reference_events: 10,
        n_events: 10,
        n_matched: 10,
        n_missed: 0,
        n_spurious: 0,
        collision_time_error_median_s: err,
        collision_time_error_max_s: err * 3.0,
        final_position_error_max_m: 1e-3,
        ops_total: ops,
        lg_estimate_ops: f64::NAN,
        wall_time_s: 1e-3,
        engine_time_s: None,
        end_time_s: 8.0,
        termination: "at_rest".into(),
        final_off_table: 0,
        final_overlap_max_m: 0.0,
    }
}

/// A dt sweep of three shots x two schemes, with a NaN error (no match) in it.
fn sweep_rows() -> Vec<SummaryRow> {
    let dts = [1e-2, 3e-3, 1e-3, 3e-4, 1e-4, 3e-5, 1e-5];
    let shots = [
        ("break", 16.0, 4.1e4),
        ("bank_shot", 2.0, 3.2e3),
        ("three_rail", 1.0, 1.5e3),
    ];
    let mut rows = Vec::new();
    for (i, (shot, balls, event_ops)) in shots.iter().enumerate() {
        rows.push(row(shot, "event", "brent", None, 0.0, *event_ops as u64));
        for &dt in &dts {
            let k = 1.0 + 0.3 * i as f64;
            let exact = 0.45 * k * dt;
            let euler = 0.7 * k * dt + 40.0 * dt * dt;
            let ops = (balls * balls * 9.0 / dt * (1.0 + 0.2 * i as f64)) as u64;
            rows.push(row(shot, "discrete", "exact", Some(dt), exact, ops));
            let euler = if i == 0 && dt == 1e-2 {
                f64::NAN
            } else {
                euler
            };
            rows.push(row(
                shot,
                "discrete",
                "euler",
                Some(dt),
                euler,
                ops * 6 / 10,
            ));
        }
    }
    rows
}

/// A ball rolling from `start` with velocity `v` (m/s), slowing down, its direction turning at
/// `curl` rad/s, bouncing off the rails of `t`; stops at rest or in a pocket.
fn roll(
    t: &Table,
    r: f64,
    start: (f64, f64),
    v: (f64, f64),
    mut curl: f64,
    dt: f64,
) -> (Vec<(f64, f64)>, bool) {
    let (mut x, mut y) = start;
    let (mut vx, mut vy) = v;
    let mut pts = vec![(x, y)];
    for _ in 0..200_000 {
        let speed = vx.hypot(vy);
        if speed < 1e-3 {
            return (pts, false);
        }
        let slow = (speed - 0.35 * dt).max(0.0) / speed;
        let (c, s) = ((curl * dt).cos(), (curl * dt).sin());
        (vx, vy) = ((vx * c - vy * s) * slow, (vx * s + vy * c) * slow);
        x += vx * dt;
        y += vy * dt;
        if let Some(k) = t
            .pockets
            .iter()
            .find(|k| (x - k.center[0]).hypot(y - k.center[1]) < k.radius)
        {
            pts.push((x, y));
            pts.push((k.center[0], k.center[1]));
            return (pts, true);
        }
        let near_pocket = t
            .pockets
            .iter()
            .any(|k| (x - k.center[0]).hypot(y - k.center[1]) < 2.0 * k.radius);
        if !near_pocket {
            if x < r || x > t.length - r {
                vx = -vx * 0.8;
                x = x.clamp(r, t.length - r);
                curl = 0.0;
            }
            if y < r || y > t.width - r {
                vy = -vy * 0.8;
                y = y.clamp(r, t.width - r);
            }
        }
        pts.push((x, y));
    }
    (pts, false)
}

/// A realistic example: seven-foot table, four balls with curved and bouncing paths.
fn example_paths() -> ShotPaths {
    let table = Table::seven_foot();
    let r = 0.028575;
    let balls = [
        ("cue", (0.45, 0.40), (1.6, 0.55), 0.35),
        ("1", (1.30, 0.62), (1.2, 0.655), 0.0),
        ("2", (1.50, 0.30), (-0.6, -0.9), -0.2),
        ("3", (0.80, 0.75), (0.0, 0.0), 0.0),
    ];
    let mut reference = Vec::new();
    let mut discrete = Vec::new();
    for (id, start, v, curl) in balls {
        let (pts, pocketed) = roll(&table, r, start, v, curl, 0.002);
        reference.push(BallPath {
            id: id.into(),
            points: pts,
            pocketed,
            radius: r,
        });
        let v2 = (v.0 * 1.03, v.1 * 0.98);
        let (pts, pocketed) = roll(&table, r, start, v2, curl * 1.1, 0.01);
        discrete.push(BallPath {
            id: id.into(),
            points: pts,
            pocketed,
            radius: r,
        });
    }
    ShotPaths {
        shot: "cut_and_bank".into(),
        table,
        radius: r,
        reference,
        discrete,
        discrete_label: "discrete exact dt=1e-2 s".into(),
    }
}

/// Checks `<stem>.png` (signature and IHDR size) and `<stem>.svg` (contains `texts`).
fn check_files(stem: &Path, texts: &[&str]) {
    check_files_sized(stem, texts, (WIDTH, HEIGHT));
}

/// [`check_files`] of a figure of `size` px.
fn check_files_sized(stem: &Path, texts: &[&str], size: (u32, u32)) {
    let png = std::fs::read(super::with_suffix(stem, "png")).expect("png written");
    assert!(png.len() > 24, "png too short");
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "png signature");
    assert_eq!(&png[12..16], b"IHDR");
    let w = u32::from_be_bytes(png[16..20].try_into().unwrap());
    let h = u32::from_be_bytes(png[20..24].try_into().unwrap());
    assert_eq!((w, h), size);
    let svg = std::fs::read_to_string(super::with_suffix(stem, "svg")).expect("svg written");
    assert!(svg.starts_with("<svg"), "svg header");
    for t in texts {
        assert!(svg.contains(t), "{} lacks {t:?}", stem.display());
    }
}

/// Renders into a temp dir, and into `$PLOTCHECK_DIR` when set.
fn render_all(dir: &Path) {
    let rows = sweep_rows();
    let floor = Some(2e-12);
    error_vs_dt(&rows, floor, &dir.join("error_vs_dt")).unwrap();
    ops_vs_dt(&rows, &dir.join("ops_vs_dt")).unwrap();
    error_vs_cost(&rows, floor, &dir.join("error_vs_cost")).unwrap();
    shot_paths(&example_paths(), &dir.join("paths_cut_and_bank")).unwrap();

    // A single shot: colours by scheme, event line black.
    let one: Vec<_> = rows
        .iter()
        .filter(|r| r.shot == "bank_shot")
        .cloned()
        .collect();
    error_vs_dt(&one, floor, &dir.join("one_error_vs_dt")).unwrap();
    ops_vs_dt(&one, &dir.join("one_ops_vs_dt")).unwrap();
    error_vs_cost(&one, None, &dir.join("one_error_vs_cost")).unwrap();

    // Nothing to plot, and a single point.
    error_vs_dt(&[], None, &dir.join("empty_error_vs_dt")).unwrap();
    let single = [row("s", "discrete", "exact", Some(1e-3), 4e-4, 5000)];
    error_vs_dt(&single, Some(f64::NAN), &dir.join("single_error_vs_dt")).unwrap();
}

#[test]
fn plots_render_svg_and_png() {
    let dir = temp_dir("all");
    render_all(&dir);
    check_files(
        &dir.join("error_vs_dt"),
        &[
            "time step dt (s)",
            "median collision-time error (s)",
            "event engine floor",
        ],
    );
    check_files(
        &dir.join("ops_vs_dt"),
        &["time step dt (s)", "operations (total count)"],
    );
    check_files(
        &dir.join("error_vs_cost"),
        &[
            "operations (total count)",
            "median collision-time error (s)",
        ],
    );
    check_files(
        &dir.join("paths_cut_and_bank"),
        &["cut_and_bank", "discrete exact dt=1e-2 s", "x (m)"],
    );
    check_files(&dir.join("one_error_vs_cost"), &["event engine"]);
    let _ = std::fs::remove_dir_all(&dir);

    if let Some(keep) = std::env::var_os("PLOTCHECK_DIR") {
        render_all(Path::new(&keep));
    }
}

#[test]
fn plots_survive_degenerate_input() {
    let dir = temp_dir("degenerate");
    let nan = f64::NAN;
    let cases: Vec<(&str, Vec<SummaryRow>)> = vec![
        ("empty", Vec::new()),
        (
            "all_nan",
            vec![row("s", "discrete", "exact", Some(1e-3), nan, 0)],
        ),
        (
            "single",
            vec![row("s", "discrete", "exact", Some(1e-3), 5e-4, 1000)],
        ),
        (
            "event_only",
            vec![row("s", "event", "brent", None, 0.0, 500)],
        ),
        (
            "bad_values",
            vec![
                row("s", "discrete", "exact", Some(-1.0), f64::INFINITY, 10),
                row("s", "discrete", "exact", Some(0.0), -1.0, 10),
                row("s", "discrete", "exact", None, 1e-3, 10),
                row("s", "discrete", "exact", Some(nan), 1e-3, 10),
                row("s", "event", "brent", None, nan, 0),
            ],
        ),
        (
            "extreme_values",
            vec![
                row(
                    "s",
                    "discrete",
                    "exact",
                    Some(f64::MIN_POSITIVE),
                    1e300,
                    u64::MAX,
                ),
                row(
                    "s",
                    "discrete",
                    "exact",
                    Some(1e300),
                    f64::MIN_POSITIVE / 16.0,
                    1,
                ),
                row("s", "event", "brent", None, f64::MAX, u64::MAX),
            ],
        ),
        (
            "equal_values",
            vec![
                row("s", "discrete", "exact", Some(1e-3), 1e-4, 100),
                row("s", "discrete", "euler", Some(1e-3), 1e-4, 100),
                row("s", "event", "brent", None, 1e-4, 100),
            ],
        ),
    ];
    for (name, rows) in &cases {
        for floor in [None, Some(nan), Some(0.0), Some(1e-9)] {
            error_vs_dt(rows, floor, &dir.join(format!("{name}_edt"))).unwrap();
            error_vs_cost(rows, floor, &dir.join(format!("{name}_ec"))).unwrap();
        }
        ops_vs_dt(rows, &dir.join(format!("{name}_odt"))).unwrap();
        check_files(&dir.join(format!("{name}_edt")), &["time step dt (s)"]);
        check_files(
            &dir.join(format!("{name}_odt")),
            &["operations (total count)"],
        );
    }
    check_files(&dir.join("empty_edt"), &["no data"]);
    check_files(&dir.join("all_nan_ec"), &["no data"]);

    let mut p = example_paths();
    p.reference.clear();
    p.discrete.clear();
    shot_paths(&p, &dir.join("no_paths")).unwrap();
    check_files(&dir.join("no_paths"), &["no ball paths"]);

    let mut p = example_paths();
    p.radius = nan;
    p.reference[0].points.push((nan, 1.0));
    p.discrete[1].points = vec![(0.5, 0.5)];
    p.table.cushions[0].p1 = [nan, 0.0];
    p.table.pockets[0].radius = -1.0;
    shot_paths(&p, &dir.join("bad_paths")).unwrap();
    check_files(&dir.join("bad_paths"), &["x (m)"]);

    let mut p = example_paths();
    p.reference[1].points.push((1e300, -1e300));
    p.discrete[2].points.push((f64::MAX, 0.0));
    shot_paths(&p, &dir.join("huge_paths")).unwrap();
    check_files(&dir.join("huge_paths"), &["x (m)"]);

    let mut p = example_paths();
    p.table = Table::carom();
    p.table.cushions.clear();
    p.table.length = nan;
    shot_paths(&p, &dir.join("no_table")).unwrap();
    check_files(&dir.join("no_table"), &["y (m)"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn plots_table_has_equal_aspect() {
    let (xr, yr) = equal_aspect((-0.1, 2.1, -0.1, 1.1), 1000.0, 500.0);
    let (sx, sy) = ((xr.end - xr.start) / 1000.0, (yr.end - yr.start) / 500.0);
    assert!((sx - sy).abs() < 1e-12, "{sx} vs {sy} m/px");
    assert!(xr.start <= -0.1 && xr.end >= 2.1 && yr.start <= -0.1 && yr.end >= 1.1);
    let (xr, yr) = equal_aspect((0.0, 1.0, 0.0, 1.0), 300.0, 600.0);
    assert!(((xr.end - xr.start) / 300.0 - (yr.end - yr.start) / 600.0).abs() < 1e-12);
}

#[test]
fn plots_log_axis_ticks() {
    assert_eq!(log_tick_label(1e-3), "10⁻³");
    assert_eq!(log_tick_label(2e-5), "2×10⁻⁵");
    assert_eq!(log_tick_label(1e6), "10⁶");
    assert_eq!(log_tick_label(1.0), "10⁰");
    assert_eq!(log_tick_label(f64::NAN), "");
    let a = LogAxis::covering([1e-5, 1e-2, f64::NAN, -1.0, 0.0]).unwrap();
    assert!(a.lo < 1e-5 && a.hi > 1e-2);
    assert_eq!(a.bold.len(), 4);
    let a = LogAxis::covering([3e-4]).unwrap();
    assert!(a.lo < 3e-4 && a.hi > 3e-4 && a.hi / a.lo >= 9.99);
    assert!(a.bold.len() >= 2);
    let a = LogAxis::covering([1e-15, 1e5]).unwrap();
    assert!(a.bold.len() <= 12);
    assert!(LogAxis::covering([f64::NAN, 0.0]).is_none());
}

/// A deterministic uniform number in [0, 1) (splitmix64).
fn unit(seed: u64) -> f64 {
    let mut z = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^= z >> 31;
    (z >> 11) as f64 / (1u64 << 53) as f64
}

/// Error series as [`error_cdf`] takes them: (backend, relative errors).
type Series = Vec<(String, Vec<f64>)>;

/// Four backends: errors log-uniform over different ranges, with exact zeros and NaNs.
fn cdf_series() -> Series {
    // (name, n, log10 range, share of zeros, share of NaN, share of wrong roots ~ 1e-2..1)
    let specs = [
        ("isolator", 2400, (-16.5, -12.0), 0.15, 0.0, 0.0),
        ("brent", 2400, (-15.0, -10.0), 0.05, 0.0, 0.01),
        ("newton", 1800, (-14.0, -6.0), 0.0, 0.04, 0.06),
        ("bisection", 600, (-11.0, -7.5), 0.0, 0.0, 0.0),
    ];
    specs
        .iter()
        .enumerate()
        .map(|(k, &(name, n, (a, b), zeros, nans, wrong))| {
            let errors = (0..n)
                .map(|i| {
                    let seed = (k as u64) << 32 | i as u64;
                    let u = unit(2 * seed);
                    let v = unit(2 * seed + 1);
                    if u < zeros {
                        0.0
                    } else if u < zeros + nans {
                        f64::NAN
                    } else if u < zeros + nans + wrong {
                        10f64.powf(-2.0 + 2.0 * v)
                    } else {
                        10f64.powf(a + (b - a) * v)
                    }
                })
                .collect();
            (name.to_string(), errors)
        })
        .collect()
}

#[test]
fn plots_error_cdf() {
    let dir = temp_dir("cdf");
    let stem = dir.join("error_cdf");
    error_cdf(&cdf_series(), &stem).unwrap();
    check_files(
        &stem,
        &[
            "relative error of the earliest root",
            "fraction of cases",
            "isolator (n = 2400)",
            "1e-9: wrong-root threshold",
            "plotted at",
            "non-finite",
        ],
    );

    let nan = f64::NAN;
    let cases: Vec<(&str, Series)> = vec![
        ("empty", Vec::new()),
        ("empty_series", vec![("a".into(), Vec::new())]),
        ("all_nan", vec![("a".into(), vec![nan, f64::INFINITY, nan])]),
        ("single", vec![("a".into(), vec![3e-12])]),
        ("single_zero", vec![("a".into(), vec![0.0])]),
        ("zeros_and_nan", vec![("a".into(), vec![0.0, -0.0, nan])]),
        (
            "extreme",
            vec![
                ("a".into(), vec![f64::MIN_POSITIVE / 16.0, 0.0, f64::MAX]),
                ("b".into(), vec![-1e-3, f64::NEG_INFINITY, 1e300, 5e-324]),
            ],
        ),
        (
            "many",
            (0..12)
                .map(|i| (format!("backend_{i}"), vec![10f64.powi(-i), 0.0]))
                .collect(),
        ),
    ];
    for (name, series) in &cases {
        let stem = dir.join(name);
        error_cdf(series, &stem).unwrap();
        check_files(&stem, &["relative error of the earliest root"]);
    }
    check_files(&dir.join("empty"), &["no data"]);
    check_files(
        &dir.join("all_nan"),
        &["no data", "a (n = 3, 3 non-finite)"],
    );
    check_files(&dir.join("empty_series"), &["a (n = 0)"]);
    check_files(
        &dir.join("zeros_and_nan"),
        &["a (n = 3, 1 non-finite)", "plotted at"],
    );
    check_files(
        &dir.join("extreme"),
        &["b (n = 4, 1 non-finite)", "a (n = 3)"],
    );
    let _ = std::fs::remove_dir_all(&dir);

    if let Some(keep) = std::env::var_os("PLOTCHECK_DIR") {
        let keep = Path::new(&keep);
        error_cdf(&cdf_series(), &keep.join("error_cdf")).unwrap();
        for (name, series) in &cases {
            error_cdf(series, &keep.join(format!("error_cdf_{name}"))).unwrap();
        }
    }
}

#[test]
fn shot_diagram_marks_every_kind_and_survives_bad_marks() {
    use pool_harness::EventMark;
    use pool_physics::EventKind;

    let dir = temp_dir("diagram");
    let mark = |kind, at| EventMark {
        time: 0.1,
        kind,
        at,
    };
    let mut marks = super::ShotMarks::default();
    for (i, kind) in EventKind::ALL.into_iter().enumerate() {
        marks
            .reference
            .push(mark(kind, (0.3 + 0.2 * i as f64, 0.4)));
        marks.discrete.push(mark(kind, (0.3 + 0.2 * i as f64, 0.5)));
    }
    super::shot_diagram(&example_paths(), &marks, &dir.join("diagram")).unwrap();
    check_files(
        &dir.join("diagram"),
        &[
            "ball-ball",
            "cushion",
            "pocket",
            "sliding -&gt; rolling",
            "stops rolling / spinning",
            "hollow = discrete",
        ],
    );
    marks
        .reference
        .push(mark(EventKind::BallBall, (f64::NAN, 0.4)));
    marks
        .discrete
        .push(mark(EventKind::BallPocket, (1e300, -1e300)));
    super::shot_diagram(&example_paths(), &marks, &dir.join("bad_marks")).unwrap();
    check_files(&dir.join("bad_marks"), &["x (m)"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_answer_grid_wraps_a_legend_wider_than_the_figure() {
    use super::{answer_grid, Grid, GridCell, GridPart};
    let legend: Vec<(String, (u8, u8, u8))> = [
        "changes at ≥ A s; keeps at ≤ W s, each half shown as soon as it is decided",
        "same in distribution",
        "changes shots",
        "differs",
        "changes it at every dt tried",
        "undecided",
        "not played",
        "failed",
    ]
    .iter()
    .map(|l| (l.to_string(), (200, 200, 200)))
    .collect();
    let cell = GridCell {
        parts: vec![GridPart {
            lines: vec!["undecided".into(), "n = 100".into()],
            fill: (200, 200, 200),
        }],
    };
    let halves = GridCell {
        parts: vec![
            GridPart {
                lines: vec!["keeps at ≤ 1e-5 s".into(), "n = 1600".into()],
                fill: (120, 190, 120),
            },
            GridPart {
                lines: vec!["changes at ≥ 1e-4 s".into()],
                fill: (225, 110, 100),
            },
        ],
    };
    let grid = Grid {
        title: "Does it change the game?".into(),
        subtitle: "each claim at 5 % per answer".into(),
        columns: vec!["cut (seven_foot)".into(), "bank (seven_foot)".into()],
        rows: vec![("end_of_step".into(), vec![Some(cell), Some(halves)])],
        legend,
    };
    let dir = temp_dir("grid");
    let stem = dir.join("answer_grid");
    answer_grid(&grid, &stem).unwrap();
    // As tall as its one row and its legend: no blank area under the grid.
    let size = super::Figure::size(&grid);
    assert!(size.1 < 400, "{size:?} for one row");
    check_files_sized(
        &stem,
        &[
            "failed",
            "not played",
            "keeps at ≤ 1e-5 s",
            "changes at ≥ 1e-4 s",
        ],
        size,
    );
    // Every label is drawn whole, on more than one line: the text elements of the legend sit
    // at two heights at least.
    let svg = std::fs::read_to_string(super::with_suffix(&stem, "svg")).unwrap();
    let heights: std::collections::BTreeSet<String> = (grid.legend.iter())
        .map(|(label, _)| {
            // The legend is drawn last: a label's last occurrence is its entry.
            let at = svg.rfind(&format!("\n{label}\n")).expect("label drawn");
            let open = svg[..at].rfind("<text").unwrap();
            let y = svg[open..at].split("y=\"").nth(1).unwrap();
            y.split('"').next().unwrap().to_string()
        })
        .collect();
    assert!(heights.len() >= 2, "one legend row: {heights:?}");
}
