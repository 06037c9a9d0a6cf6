//! `cargo xtask render`: watch a shot. A top-down animation (GIF or numbered PNG frames) of one
//! or two engines' runs of a shot, each ball in its pool colour with a marker that turns with
//! the ball, the clock, and each engine's latest event.
//!
//! Frame k shows t = k * speed / fps, sampled from the run's snapshots by
//! [`pool_harness::Frames`] (states evolved with the engines' own physics, orientation from the
//! segment rotations of `pool_physics::SpinProfile`), so events between two frames are never
//! skipped or smeared: the frame shows the state the physics gives at that exact time.

use std::path::{Path, PathBuf};
use std::time::Instant;

use pool_engines::{EngineSpec, RunOptions};
use pool_harness::{
    agents_label, snapshot_budget_note, snapshot_event_budget, snapshot_interval, EndCheck, Frames,
};
use pool_report::plots;
use pool_sim::{Outcome, Setup, Termination};
use rayon::prelude::*;

use crate::console::{errln, outln};
use crate::output::RunArgs;
use crate::CliError;

/// Most frames one render may write (200 s of animation at 50 fps, 400 s at 25 fps).
pub const MAX_FRAMES: usize = 10_000;
/// Seconds the last frame is held at the end of a GIF (repeated frames).
const HOLD_S: f64 = 0.6;

/// Options of `cargo xtask render`.
#[derive(clap::Args, Debug)]
pub struct RenderArgs {
    /// Shot file (.toml), or the name of a default shot in data/shots (e.g. break_9ball)
    pub shot: PathBuf,
    /// Engines to show, comma-separated, at most two (e.g. --engines event,discrete:1e-3), each
    /// an engine spec: event[:<solver>] (solver isolator, ferrari, alg1010, companion), discrete:<dt>[:<scheme>]
    /// (scheme end_of_step, euler, located, substep<k>), rapier:<dt>, pooltool, mujoco:<dt>[:<integrator>]
    /// (integrator euler, implicitfast, rk4), pybullet:<dt>, pymunk:<dt>, box2d:<dt>, billiards,
    /// fastfiz, exec:[timeout=<s>:][dt=<s>:][name=<label>:]<command>, or a registered engine
    #[arg(long, value_name = "SPEC,...", default_value = "event")]
    pub engines: Vec<String>,
    /// Frames per second of animation. GIF frame delays are whole centiseconds, so 25 and 50
    /// play in real time; browsers slow down anything above 50
    #[arg(long, default_value_t = 25.0, allow_negative_numbers = true)]
    pub fps: f64,
    /// Simulated seconds per second of animation (0.25 = slow motion, four times slower)
    #[arg(long, default_value_t = 1.0, allow_negative_numbers = true)]
    pub speed: f64,
    /// Output: one animated GIF, or numbered PNG frames (frames/frame_00000.png, ...)
    #[arg(long, value_enum, default_value = "gif")]
    pub format: RenderFormat,
    /// With two engines: one panel per engine (stacked), or the second engine's balls as rings
    /// over the first's
    #[arg(long, value_enum, default_value = "panels")]
    pub layout: Layout,
    /// Frame width in pixels (320 to 3840); the height follows the table
    #[arg(long, default_value_t = 800)]
    pub width: u32,
    /// Show at most this much simulated time (s); the shot is cut there. A render draws at most
    /// 10000 frames, each at most 4320 px tall, and 1e10 pixels in all
    #[arg(long, default_value_t = 12.0, allow_negative_numbers = true)]
    pub max_seconds: f64,
    #[command(flatten)]
    pub run: RunArgs,
}

/// Output format.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum RenderFormat {
    /// One looping animated GIF.
    Gif,
    /// Numbered PNG frames.
    PngFrames,
}

/// How two engines share a frame.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// One panel per engine, stacked.
    Panels,
    /// The second engine's balls as coloured rings over the first engine's panel.
    Ghosts,
}

/// Tallest frame (px) a render may draw: 8K's height.
pub const MAX_HEIGHT: u32 = 4320;
/// Most pixels one render may draw, over all its frames: about a quarter of an hour at the
/// 1.2e7 pixels per second a GIF is drawn and encoded here (2350 frames at the default width).
pub const MAX_PIXELS: f64 = 1e10;

/// Runs the shot with snapshots: at every event, and (fixed-step engines) every `sample_s`
/// seconds, both within the snapshot memory bound ([`pool_harness::SNAPSHOT_STATES`]).
fn run_engine(spec: &EngineSpec, setup: &Setup, sample_s: f64) -> Result<Outcome, CliError> {
    crate::args::check_work("--engines", spec, setup)?;
    let options = RunOptions {
        snapshots: Some(snapshot_interval(
            setup,
            sample_s.max(spec.dt().unwrap_or(0.0)),
        )),
        max_events: Some(snapshot_event_budget(setup.balls.len())),
        ..RunOptions::default()
    };
    let engine = spec
        .build_with(&options)
        .map_err(|e| CliError::Input(format!("--engines = {e}")))?;
    engine
        .try_run(setup)
        .map_err(|e| CliError::Run(format!("--engines = {spec}: {e}")))
}

/// Checks the numeric options, the width and the number of engines.
fn check_options(args: &RenderArgs) -> Result<(), CliError> {
    let positive = |name: &str, v: f64| {
        if v.is_finite() && v > 0.0 {
            Ok(())
        } else {
            Err(CliError::Input(format!(
                "{name} = {v:?}: must be a positive finite number"
            )))
        }
    };
    positive("--fps", args.fps)?;
    positive("--speed", args.speed)?;
    positive("--max-seconds", args.max_seconds)?;
    if args.fps > 240.0 {
        return Err(CliError::Input(format!(
            "--fps = {:?}: at most 240 frames per second",
            args.fps
        )));
    }
    if !(320..=3840).contains(&args.width) {
        return Err(CliError::Input(format!(
            "--width = {}: must be 320 to 3840 px",
            args.width
        )));
    }
    if args.engines.is_empty() || args.engines.len() > 2 {
        return Err(CliError::Input(format!(
            "--engines = {:?}: name one or two engines",
            args.engines.join(",")
        )));
    }
    Ok(())
}

/// Renders the animation into `<out>/render-<shot>-<UTC time>/`.
pub fn run(mut args: RenderArgs) -> Result<(), CliError> {
    args.engines = crate::args::engine_list(&args.engines);
    let start = Instant::now();
    check_options(&args)?;
    let specs = crate::args::engine_specs("--engines", &args.engines)?;
    let file = crate::workspace::resolve_shot(&args.shot)?;
    let setup = pool_shots::load(&file)?;
    let frame_dt = args.speed / args.fps;
    let ghosts = specs.len() == 2 && args.layout == Layout::Ghosts;
    let ids: Vec<String> = setup.balls.iter().map(|b| b.id.clone()).collect();
    let scene = plots::Scene {
        shot: &setup.name,
        table: &setup.table,
        radii: (setup.balls.iter())
            .map(|b| pool_physics::Physics::radius(&setup.physics, &b.state))
            .collect(),
        looks: plots::ball_looks(&ids),
        width: args.width,
        panels: if ghosts { 1 } else { specs.len() as u32 },
        ghost: ghosts,
    };
    let (w, h) = scene.size();
    if h > MAX_HEIGHT {
        return Err(CliError::Input(format!(
            "--width = {w}: the {} x {} m table makes frames {h} px tall, more than {MAX_HEIGHT}; \
             lower --width (down to 320), or render a shorter table",
            pool_harness::num(setup.table.length),
            pool_harness::num(setup.table.width)
        )));
    }

    let outcomes = specs
        .iter()
        .map(|s| run_engine(s, &setup, frame_dt))
        .collect::<Result<Vec<_>, _>>()?;
    for (spec, o) in specs.iter().zip(&outcomes) {
        let end = EndCheck::of(&setup, o);
        for w in end.warnings(&setup) {
            errln!(
                "warning: {} ({spec}): {w}: the method's own error, measured",
                setup.name
            );
        }
        let mut failures = end.failures(&setup);
        if o.termination == Termination::Budget {
            failures.extend(snapshot_budget_note(setup.balls.len()));
        }
        if !failures.is_empty() {
            return Err(CliError::Run(format!(
                "{} ({spec}): the run did not end physically: {}; nothing rendered",
                file.display(),
                failures.join("; ")
            )));
        }
    }
    let frames = outcomes
        .iter()
        .zip(&specs)
        .map(|(o, spec)| {
            Frames::new(&setup, o).map_err(|e| {
                if [pool_engines::EXEC, pool_engines::POOLTOOL].contains(&spec.family()) {
                    // The protocol carries events and final states, not trajectories.
                    CliError::Input(format!(
                        "--engines = {spec}: cannot be drawn: a program reports events and \
                         final states only, no trajectories"
                    ))
                } else {
                    CliError::Run(format!("--engines = {spec}: {e}"))
                }
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let t_shot = frames.iter().map(Frames::end_time).fold(0.0, f64::max);
    let t_end = t_shot.min(args.max_seconds);
    // Counted in floating point first: a tiny --speed must not overflow the count.
    let n_hold = if args.format == RenderFormat::Gif {
        (HOLD_S * args.fps).round()
    } else {
        0.0
    };
    let n_total = (t_end / frame_dt).ceil() + 1.0 + n_hold;
    if n_total > MAX_FRAMES as f64 {
        return Err(CliError::Input(format!(
            "--speed = {:?}, --fps = {:?}: {n_total:.3e} frames for {t_end:.2} s, more than \
             {MAX_FRAMES}; lower --fps or --max-seconds, or raise --speed",
            args.speed, args.fps
        )));
    }
    let pixels = n_total * f64::from(w) * f64::from(h);
    if pixels > MAX_PIXELS {
        return Err(CliError::Input(format!(
            "--width = {w}: {n_total} frames of {w}x{h} px are {pixels:.2e} pixels, more than \
             the {MAX_PIXELS:.1e} a render may draw; lower --width, --fps or --max-seconds"
        )));
    }
    let (n_hold, n) = (n_hold as usize, n_total as usize);
    let n_motion = n - n_hold;
    let content = |k: usize| -> plots::FrameContent {
        let t = (k.min(n_motion - 1) as f64 * frame_dt).min(t_end);
        let mut panels: Vec<plots::Panel> = specs
            .iter()
            .zip(&frames)
            .zip(&outcomes)
            .map(|((spec, f), o)| plots::Panel {
                label: spec.label(),
                event: event_text(&setup, o, t),
                balls: f.at(t),
            })
            .collect();
        let ghost = if ghosts { panels.pop() } else { None };
        plots::FrameContent {
            time: t,
            panels,
            ghost,
        }
    };

    let staging = args.run.stage(&format!("render-{}", setup.name))?;
    errln!(
        "render: {} with {} -> {n} frames of {w}x{h} px ({:.2} s simulated{}) -> {}",
        setup.name,
        specs
            .iter()
            .map(|s| s.label())
            .collect::<Vec<_>>()
            .join(" and "),
        t_end,
        if t_end < t_shot {
            format!(", cut from {t_shot:.2} s by --max-seconds")
        } else {
            String::new()
        },
        staging.destination().display()
    );
    let bar = crate::progress::bar(n as u64, "frames");
    let plot_err = |e: plots::PlotError| CliError::Run(format!("render: {}", e.message()));
    let output = match args.format {
        RenderFormat::Gif => {
            let name = format!("{}.gif", setup.name);
            // GIF delays are whole centiseconds.
            let cs = (100.0 / args.fps).round().clamp(1.0, 65_535.0) as u16;
            plots::write_gif(&staging.path(&name), &scene, cs, n, content, || bar.inc(1))
                .map_err(plot_err)?;
            if cs < 2 || (f64::from(cs) - 100.0 / args.fps).abs() > 0.05 {
                errln!(
                    "render: note: GIF frames last whole centiseconds; {cs} cs per frame plays \
                     at {:.1} fps instead of {} (browsers slow frames under 2 cs down to 10 cs)",
                    100.0 / f64::from(cs),
                    args.fps
                );
            }
            name
        }
        RenderFormat::PngFrames => {
            std::fs::create_dir_all(staging.path("frames"))
                .map_err(|e| CliError::Run(format!("cannot create frames/: {e}")))?;
            (0..n)
                .into_par_iter()
                .map(|k| {
                    let p = staging.path(&format!("frames/frame_{k:05}.png"));
                    let r = plots::write_png(&p, &scene, &content(k)).map_err(plot_err);
                    bar.inc(1);
                    r
                })
                .collect::<Result<Vec<()>, _>>()?;
            "frames/".to_string()
        }
    };
    bar.finish_and_clear();
    staging.write(
        "render.txt",
        describe(&args, &file, &specs, n, frame_dt, t_end, (w, h)).as_bytes(),
    )?;
    let dir = staging.commit()?;
    let size = dir_size(&dir.join(&output));
    outln!(
        "render: {} ({n} frames, {:.1} MB) in {:.1} s",
        dir.join(&output).display(),
        size as f64 / 1e6,
        start.elapsed().as_secs_f64()
    )
}

/// `12/82 at 0.503 s: ball_ball cue, 1` for the latest event at or before `t`, or `no event yet`.
fn event_text(setup: &Setup, o: &Outcome, t: f64) -> String {
    let k = o.events.partition_point(|e| e.time <= t);
    match k.checked_sub(1).map(|i| &o.events[i]) {
        Some(e) => format!(
            "event {k}/{} at {:.3} s: {} {}",
            o.events.len(),
            e.time,
            e.kind,
            agents_label(setup, &e.agents).replace('|', ", ")
        ),
        None => format!("no event yet (of {})", o.events.len()),
    }
}

/// The run's `render.txt`: what was rendered and how to reproduce it.
fn describe(
    args: &RenderArgs,
    file: &Path,
    specs: &[EngineSpec],
    n: usize,
    frame_dt: f64,
    t_end: f64,
    (w, h): (u32, u32),
) -> String {
    let root = crate::workspace::workspace_root().unwrap_or_default();
    let shot = file
        .strip_prefix(&root)
        .unwrap_or(file)
        .display()
        .to_string();
    let format = match args.format {
        RenderFormat::Gif => "gif",
        RenderFormat::PngFrames => "png-frames",
    };
    let layout = match args.layout {
        Layout::Panels => "panels",
        Layout::Ghosts => "ghosts",
    };
    let engines = specs
        .iter()
        .map(EngineSpec::label)
        .collect::<Vec<_>>()
        .join(", ");
    format!(
        "shot: {shot}\nengines: {engines}\nformat: {format}\nlayout: {layout}\n\
         frames: {n} ({w}x{h} px), one every {frame_dt} s of simulated time ({} fps, speed {})\n\
         shown: 0 to {t_end:.3} s\n\
         command (from the workspace root): cargo xtask render {shot} --engines {} --layout \
         {layout} --format {format} --fps {} --speed {} --width {} --max-seconds {}\n",
        args.fps,
        args.speed,
        args.engines.join(","),
        args.fps,
        args.speed,
        args.width,
        args.max_seconds
    )
}

/// Size in bytes of a file, or of all files in a directory.
fn dir_size(p: &Path) -> u64 {
    if p.is_dir() {
        std::fs::read_dir(p)
            .map(|rd| rd.flatten().map(|e| dir_size(&e.path())).sum())
            .unwrap_or(0)
    } else {
        std::fs::metadata(p).map(|m| m.len()).unwrap_or(0)
    }
}
