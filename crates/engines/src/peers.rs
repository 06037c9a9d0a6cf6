//! The engines the field uses, as peers: MuJoCo, PyBullet, pymunk (Chipmunk2D), Box2D,
//! python-billiards and FastFiz, each through its protocol adapter in `benches/peers/`
//! (`<name>_engine.py`, docs/engine-protocol.md), run by a Python that imports it at the
//! version the adapter was written for. `benches/peers/install.sh` installs all six into one
//! virtualenv (FastFiz from its source, `FASTFIZ_SRC`); `benches/peers/README.md` says how each maps a shot and what it cannot represent.

use std::fmt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use crate::pooltool::{quote, workspace_root};

/// Seconds a peer may take per shot: a 15-ball break at dt = 1e-4 s is about a million steps
/// of a Python loop.
pub const TIMEOUT_S: f64 = 600.0;

/// One of the peer engines.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Peer {
    /// MuJoCo: spheres on a plane with sliding, torsional and rolling friction.
    Mujoco,
    /// PyBullet: spheres with lateral, spinning and rolling friction.
    Pybullet,
    /// pymunk (Chipmunk2D): discs with linear damping.
    Pymunk,
    /// Box2D: discs with linear damping.
    Box2d,
    /// python-billiards: event-driven elastic discs (the `ideal` model only).
    Billiards,
    /// FastFiz: the Computational Pool tournaments' C++ event engine (the `fastfiz` table and
    /// preset only; docs/fastfiz.md).
    FastFiz,
}

impl Peer {
    /// Every peer, in the order the docs list them.
    pub const ALL: [Peer; 6] = [
        Peer::Mujoco,
        Peer::Pybullet,
        Peer::Pymunk,
        Peer::Box2d,
        Peer::Billiards,
        Peer::FastFiz,
    ];

    /// Its family name in engine specs and reports.
    pub fn name(self) -> &'static str {
        match self {
            Peer::Mujoco => "mujoco",
            Peer::Pybullet => "pybullet",
            Peer::Pymunk => "pymunk",
            Peer::Box2d => "box2d",
            Peer::Billiards => "billiards",
            Peer::FastFiz => "fastfiz",
        }
    }

    /// The peer named `name`.
    pub fn from_name(name: &str) -> Option<Peer> {
        Peer::ALL.into_iter().find(|p| p.name() == name)
    }

    /// The Python module its adapter imports.
    pub fn module(self) -> &'static str {
        match self {
            Peer::Box2d => "Box2D",
            p => p.name(),
        }
    }

    /// The PyPI distribution and the version its adapter was written and measured against
    /// (`benches/peers/requirements.txt`).
    pub fn package(self) -> (&'static str, &'static str) {
        match self {
            Peer::Mujoco => ("mujoco", "4.0.0"),
            Peer::Pybullet => ("pybullet", "3.2.7"),
            Peer::Pymunk => ("pymunk", "7.3.1"),
            Peer::Box2d => ("box2d", "2.3.10"),
            Peer::Billiards => ("billiards", "0.5.0"),
            Peer::FastFiz => ("fastfiz", "0.0.1"),
        }
    }

    /// Whether it advances in fixed time steps (its spec then takes a dt).
    pub fn stepped(self) -> bool {
        !matches!(self, Peer::Billiards | Peer::FastFiz)
    }

    /// Its adapter script.
    pub fn adapter(self) -> PathBuf {
        workspace_root().join(format!("benches/peers/{}_engine.py", self.name()))
    }
}

impl fmt::Display for Peer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// MuJoCo's integrators (`mjtIntegrator`) a `mujoco:<dt>:<integrator>` spec names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Integrator {
    /// Semi-implicit Euler (MuJoCo's default).
    Euler,
    /// Implicit in velocity, without the Coriolis derivatives.
    Implicitfast,
    /// Fourth-order Runge-Kutta.
    Rk4,
}

impl Integrator {
    /// Every integrator, the default first.
    pub const ALL: [Integrator; 3] = [Integrator::Euler, Integrator::Implicitfast, Integrator::Rk4];

    /// Its name in specs (the adapter's `--integrator`).
    pub fn name(self) -> &'static str {
        match self {
            Integrator::Euler => "euler",
            Integrator::Implicitfast => "implicitfast",
            Integrator::Rk4 => "rk4",
        }
    }

    /// The integrator named `name`.
    pub fn from_name(name: &str) -> Option<Integrator> {
        Integrator::ALL.into_iter().find(|i| i.name() == name)
    }
}

/// The one line a command prints when the peers' Python is not there.
pub const HOW_TO_INSTALL: &str = "install the peers with `bash benches/peers/install.sh` \
    (into .venv-peers/) or set $PEERS_PYTHON to a Python that has them";

/// Whether `python` runs and imports `peer` at its pinned version: `Err` says why not (it
/// cannot be run, it cannot import the module: the import's last line, or another version).
///
/// # Errors
/// The reason, one line.
pub fn check_python(python: &Path, peer: Peer) -> Result<(), String> {
    let (dist, version) = peer.package();
    let script = format!(
        "import sys, importlib.metadata as md\nimport {}\nv = md.version({dist:?})\n\
         sys.stderr.write(v)\nsys.exit(0 if v == {version:?} else 3)",
        peer.module()
    );
    let out = Command::new(python)
        .args(["-c", &script])
        .output()
        .map_err(|e| format!("cannot run {}: {e}", python.display()))?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    let last = stderr.lines().last().unwrap_or("no message").trim();
    match out.status.code() {
        Some(0) => Ok(()),
        Some(3) => Err(format!(
            "{} has {dist} {last}, not {version}",
            python.display()
        )),
        _ => Err(format!(
            "{} cannot import {} ({last})",
            python.display(),
            peer.module()
        )),
    }
}

/// The Pythons looked at, in order: `$PEERS_PYTHON`, then `<workspace>/.venv-peers/bin/python`.
pub fn candidates() -> Vec<PathBuf> {
    std::env::var_os("PEERS_PYTHON")
        .map(PathBuf::from)
        .into_iter()
        .chain(std::iter::once(
            workspace_root().join(".venv-peers/bin/python"),
        ))
        .collect()
}

/// The first of [`candidates`] that imports `peer` at its version, or why none does (the
/// first candidate's reason, and how to install).
///
/// # Errors
/// No Python has the peer.
pub fn find_python(peer: Peer) -> Result<PathBuf, String> {
    let mut first_reason = None;
    for python in candidates() {
        if !python.exists() && python.components().count() > 1 {
            first_reason.get_or_insert_with(|| format!("no {}", python.display()));
            continue;
        }
        match check_python(&python, peer) {
            Ok(()) => return Ok(python),
            Err(why) => {
                first_reason.get_or_insert(why);
            }
        }
    }
    Err(format!(
        "{} {} not found: {}; {HOW_TO_INSTALL}",
        peer.package().0,
        peer.package().1,
        first_reason.unwrap_or_default()
    ))
}

/// The Python for `peer`, looked up once per process.
///
/// # Errors
/// As [`find_python`].
pub fn python(peer: Peer) -> Result<&'static Path, String> {
    static FOUND: [OnceLock<Result<PathBuf, String>>; 6] = [
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
    ];
    let slot = Peer::ALL.iter().position(|&p| p == peer).unwrap_or(0);
    FOUND[slot]
        .get_or_init(|| find_python(peer))
        .as_ref()
        .map(PathBuf::as_path)
        .map_err(Clone::clone)
}

/// The command that runs `peer`'s adapter with `args` (`--dt`, `--integrator`), or why it
/// cannot run here.
///
/// # Errors
/// As [`find_python`].
pub fn command(peer: Peer, args: &[String]) -> Result<String, String> {
    let python = python(peer)?;
    let mut parts = vec![
        quote(&python.display().to_string()),
        quote(&peer.adapter().display().to_string()),
    ];
    parts.extend(args.iter().map(|a| quote(a)));
    Ok(parts.join(" "))
}
