//! `cargo xtask simulate --serve`: one of our engines as a protocol program
//! (docs/engine-protocol.md): requests read as JSON lines on stdin, each answered with one line
//! on stdout. `--scale <parameter>=<factor>` biases the model of every request, for a program
//! whose answer is known to differ (`tests/known_answers.rs`).

use std::io::{BufRead, Read, Write};

use pool_engines::{EngineSpec, RunOptions};
use pool_sim::Engine;
use serde_json::{json, Value};

use crate::console::stdout_error;
use crate::CliError;

/// The longest request line read (bytes): a request of a table of thousands of cushions is
/// well under; beyond it the line is answered with an error and skipped.
const MAX_REQUEST: u64 = 64 << 20;

/// A ball parameter scaled by a factor in every request.
#[derive(Clone, Debug, PartialEq)]
pub struct Scale {
    /// The parameter (`mu_r`, ...: the shot format's names).
    pub parameter: String,
    /// The factor, finite and positive.
    pub factor: f64,
}

impl std::str::FromStr for Scale {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let (parameter, factor) = s
            .split_once('=')
            .ok_or_else(|| format!("{s:?}: expected <parameter>=<factor>, e.g. mu_r=1.25"))?;
        if pool_physics::BallParams::pool().field(parameter).is_none() {
            return Err(format!(
                "{parameter:?}: not a ball parameter (valid: {})",
                pool_physics::BallParams::NAMES.join(", ")
            ));
        }
        let factor: f64 = factor
            .parse()
            .ok()
            .filter(|f: &f64| f.is_finite() && *f > 0.0)
            .ok_or_else(|| format!("{factor:?}: the factor must be a finite number > 0"))?;
        Ok(Scale {
            parameter: parameter.into(),
            factor,
        })
    }
}

/// Answers requests from stdin until it ends, with `spec`'s engine (built once per request
/// `max_events`), every request's model scaled by `scales`. A request that cannot be read or
/// run is answered `{"id", "error"}`; a shot with balls of their own parameters cannot come
/// (the protocol has one set).
///
/// # Errors
/// stdout closed or full (exit 1); the engine not buildable (exit 2).
pub fn serve(spec: &EngineSpec, scales: &[Scale]) -> Result<(), CliError> {
    spec.build()
        .map_err(|e| CliError::Input(format!("--engine = {e}")))?;
    let mut engines: Vec<(Option<usize>, Box<dyn Engine>)> = Vec::new();
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut stdout = std::io::stdout().lock();
    loop {
        let mut line = Vec::new();
        let read = (&mut input)
            .take(MAX_REQUEST)
            .read_until(b'\n', &mut line)
            .map_err(|e| CliError::Run(format!("reading stdin: {e}")))?;
        if read == 0 {
            return Ok(());
        }
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let answer = if line.len() as u64 >= MAX_REQUEST && !line.ends_with(b"\n") {
            // Skip the rest of the line.
            let mut rest = Vec::new();
            let _ = input.read_until(b'\n', &mut rest);
            json!({ "error": format!("a request longer than {} MiB", MAX_REQUEST >> 20) })
        } else {
            answer(&line, spec, scales, &mut engines)
        };
        writeln!(stdout, "{answer}").map_err(stdout_error)?;
        stdout.flush().map_err(stdout_error)?;
    }
}

/// The answer line of one request.
fn answer(
    line: &[u8],
    spec: &EngineSpec,
    scales: &[Scale],
    engines: &mut Vec<(Option<usize>, Box<dyn Engine>)>,
) -> Value {
    let request: Value = match serde_json::from_slice(line) {
        Ok(v) => v,
        Err(e) => return json!({ "error": format!("the request is not JSON: {e}") }),
    };
    let id = request.get("id").cloned();
    let fail = |why: String| {
        let mut v = json!({ "error": why });
        if let (Some(id), Value::Object(m)) = (&id, &mut v) {
            m.insert("id".into(), id.clone());
        }
        v
    };
    let mut setup = match pool_exec::setup_of_request(&request) {
        Ok(s) => s,
        Err(e) => return fail(e),
    };
    let max_events = match pool_exec::max_events_of_request(&request) {
        Ok(m) => m,
        Err(e) => return fail(e),
    };
    if !scales.is_empty() {
        let mut params = *setup.physics.params();
        for s in scales {
            if let Some(v) = params.field_mut(&s.parameter) {
                *v *= s.factor;
            }
        }
        setup.physics = pool_physics::Model::new(
            params,
            setup.physics.motion(),
            setup.physics.resolver().clone(),
        );
    }
    let k = match engines.iter().position(|(m, _)| *m == max_events) {
        Some(k) => k,
        None => {
            let options = RunOptions {
                max_events,
                ..RunOptions::default()
            };
            match spec.build_with(&options) {
                Ok(e) => engines.push((max_events, e)),
                Err(e) => return fail(e.to_string()),
            }
            engines.len() - 1
        }
    };
    let t = std::time::Instant::now();
    let run = engines[k].1.try_run(&setup);
    let engine_s = t.elapsed().as_secs_f64();
    match run {
        Ok(outcome) => pool_exec::answer_of(id.as_ref(), &setup, &outcome, Some(engine_s)),
        Err(e) if e.unsupported => {
            let mut v = json!({ "unsupported": e.message });
            if let (Some(id), Value::Object(m)) = (&id, &mut v) {
                m.insert("id".into(), id.clone());
            }
            v
        }
        Err(e) => fail(e.message),
    }
}
