//! `cargo xtask simulate`: one engine's event log and final states, and a verdict on how the
//! run ended (exit 1 when it did not end physically, a warning for the method's own errors).

use std::io::Write;
use std::path::PathBuf;

use pool_engines::{EngineSpec, RunOptions};
use pool_harness::{agents_label, EndCheck};
use pool_sim::{Outcome, Setup};
use serde::Serialize;

use crate::console::{errln, stdout_error};
use crate::CliError;

/// Options of `cargo xtask simulate`.
#[derive(clap::Args, Debug)]
pub struct SimulateArgs {
    /// Shot file (.toml); not with --serve
    #[arg(required_unless_present = "serve", conflicts_with = "serve")]
    pub shot: Option<PathBuf>,
    /// Be a protocol program instead (docs/engine-protocol.md): read requests as JSON lines on
    /// stdin and answer each with --engine on stdout, until stdin ends. `exec:cargo xtask
    /// simulate --serve` is our engine through the protocol, a reference for your own program
    #[arg(long)]
    pub serve: bool,
    /// With --serve: scale a ball parameter of every request's model by a factor, e.g.
    /// mu_r=1.25 (a deliberately biased engine, to see what the outcome study finds);
    /// repeatable
    #[arg(long, value_name = "PARAMETER=FACTOR", requires = "serve")]
    pub scale: Vec<crate::serve::Scale>,
    /// Evolution algorithm: an engine spec, event[:<solver>] (solver isolator, ferrari, alg1010, companion), discrete:<dt>[:<scheme>]
    /// (scheme end_of_step, euler, located, substep<k>), rapier:<dt>, pooltool, mujoco:<dt>[:<integrator>]
    /// (integrator euler, implicitfast, rk4), pybullet:<dt>, pymunk:<dt>, box2d:<dt>, billiards,
    /// fastfiz, exec:[timeout=<s>:][dt=<s>:][name=<label>:]<command>, or a registered engine;
    /// or plain event / discrete completed by --solver / --dt / --scheme
    #[arg(long, default_value = "event")]
    pub engine: String,
    /// Time step of plain `--engine discrete` (s) [default: 1e-4]
    #[arg(long, allow_negative_numbers = true)]
    pub dt: Option<f64>,
    /// Integration scheme of plain `--engine discrete`: end_of_step, euler, located, substep<k> (k in
    /// 2..=1000) [default: end_of_step]
    #[arg(long)]
    pub scheme: Option<String>,
    /// Root solver of plain `--engine event`: isolator, ferrari, alg1010, companion [default:
    /// isolator]
    #[arg(long)]
    pub solver: Option<String>,
    /// Output format
    #[arg(long, value_enum, default_value = "json")]
    pub format: Format,
}

/// Output format.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum Format {
    /// One JSON document: events (time, kind, agents: ball ids, then the cushion's or pocket's
    /// id; an id names one thing, no ball shares one with a cushion or pocket), then final
    /// states.
    Json,
    /// One CSV table: `event` rows (agent_1, agent_2 as in JSON), then `ball` rows.
    Csv,
    /// A pooltool 0.6.0 `System` (JSON, pooltool's frame and ids: its x, y is our y, x, our
    /// cushions c1..c18 its 1..18, our pockets named in its frame): table, balls, events with
    /// their agents' types and states before and after, ball histories; `System.load` reads
    /// it (see `cargo xtask import-pooltool --help` for the mapping)
    Pooltool,
}

#[derive(Serialize)]
struct EventOut {
    time_s: f64,
    kind: &'static str,
    agents: Vec<String>,
}

#[derive(Serialize)]
struct BallOut {
    id: String,
    state: &'static str,
    r: [f64; 3],
    v: [f64; 3],
    w: [f64; 3],
}

#[derive(Serialize)]
struct LogOut {
    shot: String,
    engine: String,
    scheme: String,
    dt_s: Option<f64>,
    termination: &'static str,
    end_time_s: f64,
    events: Vec<EventOut>,
    final_states: Vec<BallOut>,
}

#[derive(Serialize)]
struct CsvRow<'a> {
    record: &'a str,
    time_s: Option<f64>,
    kind: &'a str,
    agent_1: &'a str,
    agent_2: &'a str,
    state: &'a str,
    x: Option<f64>,
    y: Option<f64>,
    z: Option<f64>,
    vx: Option<f64>,
    vy: Option<f64>,
    vz: Option<f64>,
    wx: Option<f64>,
    wy: Option<f64>,
    wz: Option<f64>,
}

fn log(setup: &Setup, spec: &EngineSpec, out: &Outcome) -> LogOut {
    LogOut {
        shot: setup.name.clone(),
        engine: spec.family().to_string(),
        scheme: spec.variant(),
        dt_s: spec.dt(),
        termination: out.termination.name(),
        end_time_s: out.end_time,
        events: out
            .events
            .iter()
            .map(|ev| EventOut {
                time_s: ev.time,
                kind: ev.kind.name(),
                agents: agents_label(setup, &ev.agents)
                    .split('|')
                    .map(String::from)
                    .collect(),
            })
            .collect(),
        final_states: setup
            .balls
            .iter()
            .zip(&out.final_states)
            .map(|(b, s)| BallOut {
                id: b.id.clone(),
                state: s.motion.name(),
                r: [s.r.x, s.r.y, s.r.z],
                v: [s.v.x, s.v.y, s.v.z],
                w: [s.w.x, s.w.y, s.w.z],
            })
            .collect(),
    }
}

/// Prints the log to stdout, then judges the run's end: exit 1 (after the log) when it did not
/// end physically, a warning on stderr for the method's own errors at the end.
pub fn run(args: SimulateArgs) -> Result<(), CliError> {
    let spec = crate::args::engine_spec(
        "--engine",
        &args.engine,
        args.dt,
        args.scheme.as_deref(),
        args.solver.as_deref(),
    )?;
    if matches!(args.format, Format::Pooltool)
        && matches!(
            spec,
            EngineSpec::Exec { .. } | EngineSpec::Pooltool | EngineSpec::Peer { .. }
        )
    {
        // Refused before the run: pooltool's System needs every ball's state at every event,
        // which the protocol's answers do not carry.
        return Err(CliError::Input(format!(
            "--format = pooltool with --engine = {spec}: a program's answer (docs/engine-protocol.md) \
             has no ball states at its events, which pooltool's System needs; use --format json \
             or csv, or an engine of the workspace (event, discrete:<dt>, rapier:<dt>)"
        )));
    }
    if args.serve {
        return crate::serve::serve(&spec, &args.scale);
    }
    let Some(shot) = args.shot.as_ref() else {
        return Err(CliError::Input(
            "a shot file is needed (or --serve to answer requests on stdin)".into(),
        ));
    };
    let setup = pool_shots::load(shot)?;
    crate::args::check_work("--engine", &spec, &setup)?;
    // pooltool's events carry their agents' states: snapshots at every event (fixed-step
    // engines: every 10 ms too, unused). Snapshots never change the log.
    let options = match args.format {
        Format::Pooltool => RunOptions {
            snapshots: Some(0.01),
            ..Default::default()
        },
        Format::Json | Format::Csv => RunOptions::default(),
    };
    let outcome = spec
        .build_with(&options)
        .map_err(|e| CliError::Input(format!("--engine = {e}")))?
        .try_run(&setup)
        .map_err(|e| CliError::Run(format!("--engine = {spec}: {e}")))?;
    let out = log(&setup, &spec, &outcome);
    let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
    match args.format {
        Format::Json => {
            serde_json::to_writer_pretty(&mut stdout, &out).map_err(|e| {
                if e.is_io() {
                    stdout_error(e.into())
                } else {
                    CliError::Run(format!("writing JSON: {e}"))
                }
            })?;
            stdout.write_all(b"\n").map_err(stdout_error)?;
        }
        Format::Csv => write_csv(&mut stdout, &out)?,
        Format::Pooltool => {
            let system = pool_pooltool::export(&setup, Some(&outcome))
                .map_err(|e| CliError::Run(format!("{}: {e}", shot.display())))?;
            serde_json::to_writer_pretty(&mut stdout, &system).map_err(|e| {
                if e.is_io() {
                    stdout_error(e.into())
                } else {
                    CliError::Run(format!("writing JSON: {e}"))
                }
            })?;
            stdout.write_all(b"\n").map_err(stdout_error)?;
            if let Some(why) = pool_pooltool::unequal_balls(&setup) {
                errln!(
                    "warning: {}: {why}: pooltool 0.6.0's System refuses such balls (it asserts \
                     equal masses and radii); import-pooltool reads the file back",
                    shot.display()
                );
            }
        }
    }
    stdout.flush().map_err(stdout_error)?;
    drop(stdout);
    let end = EndCheck::of(&setup, &outcome);
    let what = format!("{} ({spec})", shot.display());
    for w in end.warnings(&setup) {
        errln!("warning: {what}: {w}: the method's own error, measured");
    }
    let failures = end.failures(&setup);
    if !failures.is_empty() {
        return Err(CliError::Run(format!(
            "{what}: the run did not end physically: {}",
            failures.join("; ")
        )));
    }
    Ok(())
}

/// The log as one CSV table: `event` rows, then `ball` rows.
fn write_csv(to: &mut impl Write, out: &LogOut) -> Result<(), CliError> {
    let mut w = csv::Writer::from_writer(to);
    let blank = CsvRow {
        record: "",
        time_s: None,
        kind: "",
        agent_1: "",
        agent_2: "",
        state: "",
        x: None,
        y: None,
        z: None,
        vx: None,
        vy: None,
        vz: None,
        wx: None,
        wy: None,
        wz: None,
    };
    let io = |e: csv::Error| match e.into_kind() {
        csv::ErrorKind::Io(e) => stdout_error(e),
        other => CliError::Run(format!("writing CSV: {other:?}")),
    };
    for e in &out.events {
        w.serialize(CsvRow {
            record: "event",
            time_s: Some(e.time_s),
            kind: e.kind,
            agent_1: e.agents.first().map_or("", String::as_str),
            agent_2: e.agents.get(1).map_or("", String::as_str),
            ..blank
        })
        .map_err(io)?;
    }
    for b in &out.final_states {
        w.serialize(CsvRow {
            record: "ball",
            time_s: Some(out.end_time_s),
            agent_1: &b.id,
            state: b.state,
            x: Some(b.r[0]),
            y: Some(b.r[1]),
            z: Some(b.r[2]),
            vx: Some(b.v[0]),
            vy: Some(b.v[1]),
            vz: Some(b.v[2]),
            wx: Some(b.w[0]),
            wy: Some(b.w[1]),
            wz: Some(b.w[2]),
            ..blank
        })
        .map_err(io)?;
    }
    w.flush().map_err(stdout_error)
}
