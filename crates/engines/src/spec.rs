//! The engine spec: grammar, validation, display and building.

use std::fmt;
use std::str::FromStr;

use pool_discrete::{BroadPhase, DiscreteEngine, Scheme};
use pool_event::EventEngine;
use pool_exec::ExecEngine;
use pool_roots::Solver;
use pool_sim::Engine;

use crate::peers::{Integrator, Peer};

/// An evolution algorithm with its settings, as written on the command line:
///
/// | spec | engine |
/// | --- | --- |
/// | `event[:<solver>[:unculled]]` | the event-based engine with a root solver (`isolator`, the default, `ferrari`, `alg1010`, `companion`); `unculled` turns culling off to judge a solver on its own |
/// | `discrete:<dt>[:<scheme>[:<broad phase>]]` | the discrete integrator at step dt (s, in [[`pool_discrete::DT_MIN`], [`pool_discrete::DT_MAX`]]) with scheme `end_of_step` (default; alias `exact`), `euler`, `located` (events located inside the step) or `substep<k>` (k substeps on contact), and broad phase `culled` (default) or `exhaustive` |
/// | `exec[:timeout=<s>]:<command>` | any program speaking the harness's protocol (`docs/engine-protocol.md`), run by `sh -c` once per batch of shots, `<s>` seconds per shot (default [`pool_exec::DEFAULT_TIMEOUT_S`]) |
/// | `pooltool` | pooltool 0.6.0 through `benches/peers/pooltool_engine.py` (an `exec` engine; see [`crate::pooltool`]) |
/// | `rapier:<dt>` | the rapier2d game physics engine (f64 build, 0.36) at step dt (s, same range as the discrete integrator's), cloth friction as per-step forces (`pool-rapier`) |
/// | `mujoco:<dt>[:<integrator>]` | MuJoCo 4.0.0 at step dt (same range) with integrator `euler` (default), `implicitfast` or `rk4`, through `benches/peers/mujoco_engine.py` (see [`crate::peers`]) |
/// | `pybullet:<dt>`, `pymunk:<dt>`, `box2d:<dt>` | PyBullet 3.2.7, pymunk 7.3.1, Box2D 2.3.10 at step dt (same range), through their adapters |
/// | `billiards` | python-billiards 0.5.0 (event-driven, the `ideal` model only) through its adapter |
/// | `fastfiz` | FastFiz (P6-Pool/fastfiz 2c1c920, event-driven C++; the `fastfiz` table and preset only) through its adapter (docs/fastfiz.md) |
/// | `<family>[:<args>]` | an engine registered with [`crate::register`] |
///
/// `Display` writes the full form (`event:isolator`, `discrete:1e-4:end_of_step`, defaults of the
/// last fields left out), which parses back to the same spec.
#[derive(Clone, Debug, PartialEq)]
pub enum EngineSpec {
    /// The event-based engine.
    Event {
        /// The root solver.
        solver: Solver,
        /// Conservative culling before root solves (default on; same log for the default solver).
        culling: bool,
    },
    /// The discrete-time integrator.
    Discrete {
        /// Time step (s).
        dt: f64,
        /// Integration scheme.
        scheme: Scheme,
        /// How candidate pairs, cushions and pockets are found (same log either way).
        broad_phase: BroadPhase,
    },
    /// A program speaking the protocol (`docs/engine-protocol.md`).
    Exec {
        /// The command line (`sh -c`).
        command: String,
        /// Seconds it may take to answer one shot.
        timeout_s: f64,
        /// The time step (s) every request asks the program to take, for a program that takes
        /// one (`dt=<s>`): each answer must echo it (docs/engine-protocol.md). A program with
        /// one plays the outcome study's dt ladder as the schemes do.
        dt: Option<f64>,
        /// The short name the reports show for it (`name=<label>`), instead of its command.
        name: Option<String>,
    },
    /// pooltool 0.6.0 through its protocol adapter.
    Pooltool,
    /// rapier2d at a fixed step.
    Rapier {
        /// Time step (s).
        dt: f64,
    },
    /// A peer engine through its protocol adapter (`benches/peers/<name>_engine.py`).
    Peer {
        /// Which engine.
        peer: Peer,
        /// Its time step (s), for the fixed-step ones (every peer but `billiards`).
        dt: Option<f64>,
        /// MuJoCo's integrator (`None` for the other peers).
        integrator: Option<Integrator>,
    },
    /// An engine registered at run time.
    Registered {
        /// Its family name (the part before the first `:`).
        family: String,
        /// The rest of the spec, passed to its builder (may be empty).
        args: String,
    },
}

/// Why a spec cannot be used: one line naming the spec and what is wrong.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{spec:?}: {why}")]
pub struct SpecError {
    /// The spec as written.
    pub spec: String,
    /// What is wrong, with the valid choices.
    pub why: String,
}

/// How a built engine runs, beyond what its spec says.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RunOptions {
    /// Record every ball's state at every event, and (fixed-step engines) about every this
    /// many seconds, for drawing and checking; `None` records nothing.
    pub snapshots: Option<f64>,
    /// Stop with `Termination::Budget` after this many events (the event engine's default
    /// budget otherwise; fixed-step engines stop at the end of the step that reached it, and
    /// external programs are asked to).
    pub max_events: Option<usize>,
    /// Keep a program's process running between batches, for a caller that runs many batches
    /// with one engine, e.g. the outcome study's looks: the program's start-up is then paid
    /// once per engine (and thread), not once per batch, and the program is ended when the
    /// engine is dropped ([`ExecEngine::with_kept_sessions`]). For the engines that run a
    /// program (`exec`, `pooltool` and the peers); the others ignore it. Default `false`: one
    /// process per batch.
    pub keep_sessions: bool,
}

impl EngineSpec {
    /// The reference: the event engine with the default root solver, culling on.
    pub fn reference() -> Self {
        EngineSpec::Event {
            solver: Solver::default(),
            culling: true,
        }
    }

    /// The discrete integrator at `dt` (s) with `scheme` and the culled broad phase.
    ///
    /// # Errors
    /// `dt` out of range.
    pub fn discrete(dt: f64, scheme: Scheme) -> Result<Self, SpecError> {
        let spec = EngineSpec::Discrete {
            dt,
            scheme,
            broad_phase: BroadPhase::Culled,
        };
        DiscreteEngine::new(dt, scheme).map_err(|e| SpecError {
            spec: spec.to_string(),
            why: e.to_string(),
        })?;
        Ok(spec)
    }

    /// The family: `event`, `discrete`, or a registered engine's name (the `engine` column of
    /// reports).
    pub fn family(&self) -> &str {
        match self {
            EngineSpec::Event { .. } => crate::EVENT,
            EngineSpec::Discrete { .. } => crate::DISCRETE,
            EngineSpec::Exec { .. } => crate::EXEC,
            EngineSpec::Pooltool => crate::POOLTOOL,
            EngineSpec::Rapier { .. } => crate::RAPIER,
            EngineSpec::Peer { peer, .. } => peer.name(),
            EngineSpec::Registered { family, .. } => family,
        }
    }

    /// The variant within the family: the root solver, the scheme, MuJoCo's integrator, a
    /// peer's version, or a registered engine's arguments (the `scheme` column of reports).
    pub fn variant(&self) -> String {
        match self {
            EngineSpec::Event { solver, .. } => solver.name().to_string(),
            EngineSpec::Discrete { scheme, .. } => scheme.name().to_string(),
            EngineSpec::Exec { command, name, .. } => {
                name.clone().unwrap_or_else(|| command.clone())
            }
            EngineSpec::Pooltool => "0.6.0".into(),
            EngineSpec::Rapier { .. } => "rapier2d-f64 0.36".into(),
            EngineSpec::Peer {
                integrator: Some(i),
                ..
            } => i.name().into(),
            EngineSpec::Peer { peer, .. } => peer.package().1.into(),
            EngineSpec::Registered { args, .. } => args.clone(),
        }
    }

    /// A label for plots and frame headers: `event engine`, `event engine (ferrari)`,
    /// `discrete exact dt=1e-3 s`, `pooltool 0.6.0`, `exec: <command>`, or a registered
    /// engine's spec.
    pub fn label(&self) -> String {
        match self {
            EngineSpec::Event {
                solver: Solver::Isolator,
                ..
            } => "event engine".into(),
            EngineSpec::Event { solver, .. } => format!("event engine ({solver})"),
            EngineSpec::Discrete { dt, scheme, .. } => {
                format!("discrete {} dt={dt:.0e} s", scheme.name())
            }
            EngineSpec::Exec {
                command, dt, name, ..
            } => {
                let what = name.clone().unwrap_or_else(|| format!("exec: {command}"));
                match dt {
                    Some(dt) => format!("{what} dt={dt:.0e} s"),
                    None => what,
                }
            }
            EngineSpec::Pooltool => "pooltool 0.6.0".into(),
            EngineSpec::Rapier { dt } => format!("rapier dt={dt:.0e} s"),
            EngineSpec::Peer {
                peer,
                dt,
                integrator,
            } => {
                let mut label = peer.name().to_string();
                if let Some(i) = integrator {
                    label = format!("{label} {}", i.name());
                }
                match dt {
                    Some(dt) => format!("{label} dt={dt:.0e} s"),
                    None => format!("{label} {}", peer.package().1),
                }
            }
            EngineSpec::Registered { .. } => self.to_string(),
        }
    }

    /// The time step (s) of a fixed-step engine, `None` for an event-based one.
    pub fn dt(&self) -> Option<f64> {
        match self {
            EngineSpec::Discrete { dt, .. } | EngineSpec::Rapier { dt } => Some(*dt),
            EngineSpec::Peer { dt, .. } | EngineSpec::Exec { dt, .. } => *dt,
            _ => None,
        }
    }

    /// The same engine at time step `dt` (s): `None` for an engine without one, or when `dt`
    /// is out of its range ([`pool_discrete::DT_MIN`] to [`pool_discrete::DT_MAX`]).
    pub fn with_dt(&self, dt: f64) -> Option<EngineSpec> {
        if !(pool_discrete::DT_MIN..=pool_discrete::DT_MAX).contains(&dt) {
            return None;
        }
        match self {
            EngineSpec::Discrete {
                scheme,
                broad_phase,
                ..
            } => Some(EngineSpec::Discrete {
                dt,
                scheme: *scheme,
                broad_phase: *broad_phase,
            }),
            EngineSpec::Rapier { .. } => Some(EngineSpec::Rapier { dt }),
            EngineSpec::Exec {
                command,
                timeout_s,
                dt: Some(_),
                name,
            } => Some(EngineSpec::Exec {
                command: command.clone(),
                timeout_s: *timeout_s,
                dt: Some(dt),
                name: name.clone(),
            }),
            EngineSpec::Peer {
                peer,
                dt: Some(_),
                integrator,
            } => Some(EngineSpec::Peer {
                peer: *peer,
                dt: Some(dt),
                integrator: *integrator,
            }),
            _ => None,
        }
    }

    /// Why this engine cannot run here, for the optional ones (pooltool and the peers, which
    /// need a Python that has them): one line, or `None` when it can (every other engine).
    pub fn unavailable(&self) -> Option<String> {
        match self {
            EngineSpec::Pooltool => crate::pooltool::command().err(),
            EngineSpec::Peer { peer, .. } => crate::peers::python(*peer).err(),
            _ => None,
        }
    }

    /// The engine with default run options.
    ///
    /// # Errors
    /// A registered engine's builder refused its arguments.
    pub fn build(&self) -> Result<Box<dyn Engine>, SpecError> {
        self.build_with(&RunOptions::default())
    }

    /// The engine, configured by `options`.
    ///
    /// # Errors
    /// A registered engine's builder refused its arguments.
    pub fn build_with(&self, options: &RunOptions) -> Result<Box<dyn Engine>, SpecError> {
        let invalid = |why: String| SpecError {
            spec: self.to_string(),
            why,
        };
        Ok(match self {
            EngineSpec::Event { solver, culling } => {
                let mut e = EventEngine::new(solver.backend())
                    .with_snapshots(options.snapshots.is_some())
                    .with_culling(*culling);
                if let Some(n) = options.max_events {
                    e.max_events = n;
                }
                Box::new(e)
            }
            EngineSpec::Discrete {
                dt,
                scheme,
                broad_phase,
            } => Box::new(
                DiscreteEngine::new(*dt, *scheme)
                    .map_err(|e| invalid(e.to_string()))?
                    .with_broad_phase(*broad_phase)
                    .with_sampling(options.snapshots)
                    .with_max_events(options.max_events),
            ),
            EngineSpec::Exec {
                command,
                timeout_s,
                dt,
                ..
            } => Box::new(
                ExecEngine::new(command, *timeout_s)
                    .map_err(invalid)?
                    .with_dt(*dt)
                    .with_max_events(options.max_events)
                    .with_kept_sessions(options.keep_sessions),
            ),
            EngineSpec::Pooltool => Box::new(
                ExecEngine::new(
                    &crate::pooltool::command().map_err(invalid)?,
                    crate::pooltool::TIMEOUT_S,
                )
                .map_err(invalid)?
                .with_max_events(options.max_events)
                .with_kept_sessions(options.keep_sessions),
            ),
            EngineSpec::Rapier { dt } => rapier(*dt, options).map_err(invalid)?,
            EngineSpec::Peer {
                peer,
                dt,
                integrator,
            } => {
                let mut args = Vec::new();
                if let Some(dt) = dt {
                    args.extend(["--dt".to_string(), format!("{dt:e}")]);
                }
                if let Some(i) = integrator {
                    args.extend(["--integrator".to_string(), i.name().to_string()]);
                }
                Box::new(
                    ExecEngine::new(
                        &crate::peers::command(*peer, &args).map_err(invalid)?,
                        crate::peers::TIMEOUT_S,
                    )
                    .map_err(invalid)?
                    .with_max_events(options.max_events)
                    .with_kept_sessions(options.keep_sessions),
                )
            }
            EngineSpec::Registered { family, args } => {
                let build = crate::registry::builder(family)
                    .ok_or_else(|| invalid("no engine of this family is registered".into()))?;
                build(args, options).map_err(invalid)?
            }
        })
    }
}

fn unknown_solver() -> String {
    format!("unknown root solver; valid: {}", Solver::names().join(", "))
}

impl FromStr for EngineSpec {
    type Err = SpecError;

    fn from_str(s: &str) -> Result<Self, SpecError> {
        let bad = |why: String| SpecError {
            spec: s.to_string(),
            why,
        };
        if let Some(rest) = s.strip_prefix("exec:") {
            return parse_exec(rest).map_err(bad);
        }
        let parts: Vec<&str> = s.split(':').collect();
        if let Some(peer) = Peer::from_name(parts[0]) {
            return parse_peer(peer, &parts[1..]).map_err(bad);
        }
        match parts.as_slice() {
            ["event", rest @ ..] => {
                let (solver, culling) = match rest {
                    [] => ("isolator", true),
                    [solver] => (*solver, true),
                    [solver, "unculled"] => (*solver, false),
                    _ => {
                        return Err(bad(
                            "expected event[:<solver>[:unculled]], e.g. event:ferrari".into(),
                        ))
                    }
                };
                let solver = Solver::from_name(solver).ok_or_else(|| bad(unknown_solver()))?;
                Ok(EngineSpec::Event { solver, culling })
            }
            ["discrete", dt, rest @ ..] => {
                let dt: f64 = dt
                    .parse()
                    .map_err(|_| bad(format!("dt = {dt:?}: not a number (s)")))?;
                let (scheme, broad) = match rest {
                    [] => ("end_of_step", "culled"),
                    [scheme] => (*scheme, "culled"),
                    [scheme, broad] => (*scheme, *broad),
                    _ => {
                        return Err(bad(
                            "expected discrete:<dt>[:<scheme>[:<broad phase>]]".into()
                        ))
                    }
                };
                let scheme = Scheme::from_name(scheme).ok_or_else(|| {
                    bad(format!(
                        "unknown scheme {scheme:?}; valid: {}",
                        Scheme::NAMES
                    ))
                })?;
                let broad_phase = BroadPhase::from_name(broad).ok_or_else(|| {
                    bad(format!(
                        "unknown broad phase {broad:?}; valid: culled, exhaustive"
                    ))
                })?;
                DiscreteEngine::new(dt, scheme).map_err(|e| bad(e.to_string()))?;
                Ok(EngineSpec::Discrete {
                    dt,
                    scheme,
                    broad_phase,
                })
            }
            ["exec"] => Err(bad("an exec engine needs a command: exec:<command>, e.g. \
                 exec:python3 benches/peers/ideal_engine.py"
                .into())),
            ["pooltool"] => Ok(EngineSpec::Pooltool),
            ["rapier", dt] => {
                let dt: f64 = dt
                    .parse()
                    .map_err(|_| bad(format!("dt = {dt:?}: not a number (s)")))?;
                DiscreteEngine::new(dt, Scheme::EndOfStep).map_err(|e| bad(e.to_string()))?;
                Ok(EngineSpec::Rapier { dt })
            }
            ["rapier", ..] => Err(bad(
                "expected rapier:<dt>, e.g. rapier:1e-3 (a fixed step, s)".into(),
            )),
            ["pooltool", ..] => Err(bad("pooltool takes no arguments".into())),
            ["discrete"] => Err(bad(
                "the discrete integrator needs a time step: discrete:<dt>, e.g. discrete:1e-4"
                    .into(),
            )),
            [family, ..] if crate::registry::builder(family).is_some() => {
                Ok(EngineSpec::Registered {
                    family: family.to_string(),
                    args: s[family.len()..].trim_start_matches(':').to_string(),
                })
            }
            _ => {
                let mut families = vec![
                    "event[:<solver>]".to_string(),
                    "discrete:<dt>[:<scheme>]".to_string(),
                    "exec:<command>".to_string(),
                    "pooltool".to_string(),
                    "rapier:<dt>".to_string(),
                    "mujoco:<dt>[:<integrator>]".to_string(),
                    "pybullet:<dt>".to_string(),
                    "pymunk:<dt>".to_string(),
                    "box2d:<dt>".to_string(),
                    "billiards".to_string(),
                    "fastfiz".to_string(),
                ];
                families.extend(crate::registry::registered().into_iter().map(String::from));
                Err(bad(format!(
                    "unknown engine{}; valid: {}",
                    suggestion(parts[0], &spec_heads()),
                    families.join(", ")
                )))
            }
        }
    }
}

impl fmt::Display for EngineSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineSpec::Event { solver, culling } => {
                write!(f, "event:{solver}")?;
                if !culling {
                    f.write_str(":unculled")?;
                }
                Ok(())
            }
            EngineSpec::Discrete {
                dt,
                scheme,
                broad_phase,
            } => {
                write!(f, "discrete:{dt:e}:{}", scheme.name())?;
                if *broad_phase != BroadPhase::Culled {
                    write!(f, ":{}", broad_phase.name())?;
                }
                Ok(())
            }
            EngineSpec::Exec {
                command,
                timeout_s,
                dt,
                name,
            } => {
                f.write_str("exec:")?;
                if *timeout_s != pool_exec::DEFAULT_TIMEOUT_S {
                    write!(f, "timeout={timeout_s}:")?;
                }
                if let Some(dt) = dt {
                    write!(f, "dt={dt:e}:")?;
                }
                if let Some(name) = name {
                    write!(f, "name={name}:")?;
                }
                f.write_str(command)
            }
            EngineSpec::Pooltool => f.write_str(crate::POOLTOOL),
            EngineSpec::Rapier { dt } => write!(f, "rapier:{dt:e}"),
            EngineSpec::Peer {
                peer,
                dt,
                integrator,
            } => {
                f.write_str(peer.name())?;
                if let Some(dt) = dt {
                    write!(f, ":{dt:e}")?;
                }
                if let Some(i) = integrator {
                    write!(f, ":{}", i.name())?;
                }
                Ok(())
            }
            EngineSpec::Registered { family, args } if args.is_empty() => f.write_str(family),
            EngineSpec::Registered { family, args } => write!(f, "{family}:{args}"),
        }
    }
}

/// The rapier engine at `dt` (s).
#[cfg(feature = "rapier")]
fn rapier(dt: f64, options: &RunOptions) -> Result<Box<dyn Engine>, String> {
    Ok(Box::new(
        pool_rapier::RapierEngine::new(dt)?
            .with_sampling(options.snapshots)
            .with_max_events(options.max_events),
    ))
}

/// Without the `rapier` feature: why not.
#[cfg(not(feature = "rapier"))]
fn rapier(_dt: f64, _options: &RunOptions) -> Result<Box<dyn Engine>, String> {
    Err("this build of pool-engines was made without its `rapier` feature".into())
}

/// The fields after a peer's name: `<dt>` for the stepped ones (`<dt>[:<integrator>]` for
/// MuJoCo), nothing for `billiards` and `fastfiz`.
fn parse_peer(peer: Peer, rest: &[&str]) -> Result<EngineSpec, String> {
    let name = peer.name();
    let grammar = match peer {
        Peer::Mujoco => "mujoco:<dt>[:<integrator>], e.g. mujoco:1e-3:rk4".to_string(),
        Peer::Billiards | Peer::FastFiz => format!("{name} (event-driven: no time step)"),
        _ => format!("{name}:<dt>, e.g. {name}:1e-3 (a fixed step, s)"),
    };
    let (dt, integrator) = match (peer, rest) {
        (Peer::Billiards | Peer::FastFiz, []) => (None, None),
        (Peer::Mujoco, [dt]) => (Some(*dt), Some(Integrator::Euler)),
        (Peer::Mujoco, [dt, i]) => {
            let i = Integrator::from_name(i).ok_or_else(|| {
                let valid: Vec<&str> = Integrator::ALL.iter().map(|i| i.name()).collect();
                format!("unknown integrator {i:?}; valid: {}", valid.join(", "))
            })?;
            (Some(*dt), Some(i))
        }
        (Peer::Pybullet | Peer::Pymunk | Peer::Box2d, [dt]) => (Some(*dt), None),
        _ => return Err(format!("expected {grammar}")),
    };
    let dt = match dt {
        Some(text) => {
            let dt: f64 = text
                .parse()
                .map_err(|_| format!("dt = {text:?}: not a number (s)"))?;
            if !(pool_discrete::DT_MIN..=pool_discrete::DT_MAX).contains(&dt) {
                return Err(format!(
                    "dt = {dt} s: must be in [{:e}, {}] s",
                    pool_discrete::DT_MIN,
                    pool_discrete::DT_MAX
                ));
            }
            Some(dt)
        }
        None => None,
    };
    Ok(EngineSpec::Peer {
        peer,
        dt,
        integrator,
    })
}

/// The names a spec starts with: every family's, the peers' and the registered engines'.
pub fn spec_heads() -> Vec<String> {
    let mut heads: Vec<String> = ["event", "discrete", "exec", "pooltool", "rapier"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    heads.extend(Peer::ALL.iter().map(|p| p.name().to_string()));
    heads.extend(crate::registry::registered().into_iter().map(String::from));
    heads
}

/// `s` as one word for a POSIX shell, for the commands a report prints: as it is when it is
/// plain (letters, digits, `_-./:=,+@%`), else single-quoted (a `'` inside written `'\''`).
pub fn shell_word(s: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "_-./:=,+@%".contains(c);
    if !s.is_empty() && s.chars().all(plain) {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

/// The one of `names` nearest to `word` when it is near enough to be a typo (Jaro-Winkler
/// similarity at least 0.8, `strsim`), for a "did you mean" hint.
pub fn did_you_mean<'a, S: AsRef<str>>(word: &str, names: &'a [S]) -> Option<&'a str> {
    names
        .iter()
        .map(|n| (strsim::jaro_winkler(word, n.as_ref()), n.as_ref()))
        .filter(|(score, n)| *score >= 0.8 && *n != word)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, n)| n)
}

/// [`did_you_mean`] as an error message's hint: ` (did you mean "x"?)`, or nothing when no
/// name is near `word`.
pub fn suggestion<S: AsRef<str>>(word: &str, names: &[S]) -> String {
    did_you_mean(word, names).map_or(String::new(), |n| format!(" (did you mean {n:?}?)"))
}

/// A comma-separated list of specs as `--engines` takes it: a comma ends a spec only where
/// what follows starts one (a family's, a peer's or a registered engine's name, then `:` or
/// the next comma or the end), so that an `exec:` command keeps its own commas
/// (`exec:python3 e.py --dt 1e-3,1e-4` is one spec; `exec:a.py,mujoco:1e-3` is two).
pub fn split_list(text: &str) -> Vec<String> {
    let heads = spec_heads();
    let starts_spec = |rest: &str| {
        let head = rest.split([':', ',']).next().unwrap_or("").trim();
        heads.iter().any(|h| h == head)
    };
    let mut out: Vec<String> = Vec::new();
    let mut current = String::new();
    for (i, part) in text.split(',').enumerate() {
        if i > 0 && (current.is_empty() || starts_spec(part)) {
            out.push(std::mem::take(&mut current));
        } else if i > 0 {
            current.push(',');
        }
        current.push_str(part);
    }
    out.push(current);
    out.into_iter()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

/// `[timeout=<s>:][dt=<s>:][name=<label>:]<command>` of an `exec:` spec (the options in any
/// order, each once; the command is the rest, colons and commas included).
fn parse_exec(rest: &str) -> Result<EngineSpec, String> {
    let (mut timeout_s, mut dt, mut name) = (None, None, None);
    let mut command = rest;
    while let Some((key, after)) = command.split_once('=') {
        if !["timeout", "dt", "name"].contains(&key) {
            break;
        }
        let (value, more) = after
            .split_once(':')
            .ok_or_else(|| format!("expected exec:{key}=<value>:<command>"))?;
        let number = |v: &str, what: &str| -> Result<f64, String> {
            v.parse::<f64>()
                .map_err(|_| format!("{key} = {v:?}: not a number ({what})"))
        };
        let twice = |k: &str| format!("{k}= given twice");
        match key {
            "timeout" => {
                if timeout_s.replace(number(value, "s")?).is_some() {
                    return Err(twice(key));
                }
            }
            "dt" => {
                let v = number(value, "s, the time step the program takes")?;
                if !(pool_discrete::DT_MIN..=pool_discrete::DT_MAX).contains(&v) {
                    return Err(format!(
                        "dt = {v} s: must be in [{:e}, {}] s",
                        pool_discrete::DT_MIN,
                        pool_discrete::DT_MAX
                    ));
                }
                if dt.replace(v).is_some() {
                    return Err(twice(key));
                }
            }
            _ => {
                let ok = !value.is_empty()
                    && value.len() <= 40
                    && value
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || "_-.+".contains(c));
                if !ok {
                    return Err(format!(
                        "name = {value:?}: a short label, 1 to 40 letters, digits, _ - . +"
                    ));
                }
                if name.replace(value.to_string()).is_some() {
                    return Err(twice(key));
                }
            }
        }
        command = more;
    }
    let timeout_s = timeout_s.unwrap_or(pool_exec::DEFAULT_TIMEOUT_S);
    ExecEngine::new(command, timeout_s)?;
    Ok(EngineSpec::Exec {
        command: command.to_string(),
        timeout_s,
        dt,
        name,
    })
}
