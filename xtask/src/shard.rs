//! Shards: a long run (stress, sweep) split into deterministic pieces that run anywhere (one
//! machine, a Ray cluster, a Slurm or Kubernetes job array) and merge back into the unsharded
//! run's files, byte for byte.
//!
//! A run of `total` jobs (shots, sweep points) in a fixed order is cut into `n` contiguous
//! ranges; shard `k` (1-based) runs jobs `[(k - 1) total / n, k total / n)`. Every job depends
//! only on the run's options and its own index (its seed or point), never on the shard, so the
//! shards' rows, concatenated in shard order, are the unsharded run's rows. Each shard writes a
//! manifest (`shard.json`) with the command, its options (those that change the answer) and its
//! range; `cargo xtask merge` checks that the shards belong together and cover the run once.

use std::path::Path;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::CliError;

/// Largest number of shards.
pub const MAX_SHARDS: u64 = 100_000;

/// The manifest's file name, next to the command's outputs (`stress/`, `sweep/`, `outcomes/`).
pub const MANIFEST: &str = "shard.json";

/// `--shard K/N`: the K-th (1-based) of N shards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which shard, 1 to `n`.
    pub k: u64,
    /// How many.
    pub n: u64,
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let bad = || {
            format!(
                "{s:?}: expected K/N with 1 <= K <= N <= {MAX_SHARDS}, e.g. 3/8 (the third of \
                 eight shards)"
            )
        };
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let k: u64 = k.trim().parse().map_err(|_| bad())?;
        let n: u64 = n.trim().parse().map_err(|_| bad())?;
        if !(1..=n).contains(&k) || n > MAX_SHARDS {
            return Err(bad());
        }
        Ok(Shard { k, n })
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

impl Shard {
    /// The whole run as one shard.
    pub const WHOLE: Shard = Shard { k: 1, n: 1 };

    /// This shard's jobs among `total`: `[lo, hi)`.
    pub fn range(&self, total: u64) -> (u64, u64) {
        let at = |k: u64| (u128::from(total) * u128::from(k) / u128::from(self.n)) as u64;
        (at(self.k - 1), at(self.k))
    }
}

/// The harness that makes a shard: its version and the commit it was built from (`build.rs`).
pub fn version() -> String {
    format!(
        "{} (commit {})",
        env!("CARGO_PKG_VERSION"),
        env!("XTASK_COMMIT")
    )
}

/// An input file a shard's rows depend on: its path as given and the SHA-256 of its bytes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Input {
    /// The path as given on the command line (or inside a given directory).
    pub path: String,
    /// SHA-256 of the file's bytes, hexadecimal.
    pub sha256: String,
}

impl Input {
    /// The input `path` (a shot file the run has loaded), hashed.
    ///
    /// # Errors
    /// A file that cannot be read, or larger than a shot file may be (exit 2).
    pub fn of(path: &Path) -> Result<Self, CliError> {
        use sha2::Digest;
        let mut bytes = Vec::new();
        std::fs::File::open(path)
            .and_then(|f| {
                std::io::Read::read_to_end(
                    &mut std::io::Read::take(f, pool_shots::MAX_FILE_BYTES + 1),
                    &mut bytes,
                )
            })
            .map_err(|e| CliError::Input(format!("{}: {e}", path.display())))?;
        let digest = sha2::Sha256::digest(&bytes);
        Ok(Input {
            path: path.display().to_string(),
            sha256: digest.iter().map(|b| format!("{b:02x}")).collect(),
        })
    }

    /// The file's name (the last part of its path): two shards given the same file from
    /// different places are of one run.
    fn name(&self) -> &str {
        Path::new(&self.path)
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or(&self.path)
    }
}

/// What a shard was: written as `<command>/shard.json`, read back by `merge`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// The harness that made it ([`version`]; empty in older versions' manifests): the shards
    /// of one run come from one build.
    #[serde(default)]
    pub version: String,
    /// The command (`stress`, `sweep`, `outcomes`).
    pub command: String,
    /// The options that decide the rows, as `--name value` pairs in a fixed order (not the
    /// shard, output place or thread count).
    pub options: Vec<(String, String)>,
    /// The engine family, which the summary names.
    pub engine: String,
    /// This shard, 1-based.
    pub k: u64,
    /// The number of shards.
    pub n: u64,
    /// Jobs of the whole run.
    pub total: u64,
    /// This shard's first job.
    pub lo: u64,
    /// One past its last job.
    pub hi: u64,
    /// Every input file its rows depend on (a sweep's base shot, `--replay`'s shot files),
    /// hashed: the shards of one run read the same files.
    #[serde(default)]
    pub inputs: Vec<Input>,
    /// The look of a sequential outcome study this shard plays (`outcomes --look K`); its
    /// jobs are then the look's (family, shot) units.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub look: Option<u32>,
    /// SHA-256 of the state (`outcomes/looks.json`) a look after the first resumed from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state_sha256: Option<String>,
    /// The study's options as given on the command line (for the next look's command).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<String>,
}

impl Manifest {
    /// Reads `<dir>/<command>/shard.json` for whichever command the run directory holds.
    ///
    /// # Errors
    /// No manifest (not a shard's run directory) or an unreadable one (exit 2).
    pub fn read(dir: &Path) -> Result<Self, CliError> {
        for command in ["stress", "sweep", "outcomes"] {
            let path = dir.join(command).join(MANIFEST);
            if path.is_file() {
                let text = std::fs::read_to_string(&path)
                    .map_err(|e| CliError::Input(format!("{}: {e}", path.display())))?;
                let m: Manifest = serde_json::from_str(&text).map_err(|e| {
                    CliError::Input(format!("{}: not a shard manifest: {e}", path.display()))
                })?;
                if m.command != command {
                    return Err(CliError::Input(format!(
                        "{}: command = {:?}, expected {command:?}",
                        path.display(),
                        m.command
                    )));
                }
                return Ok(m);
            }
        }
        Err(CliError::Input(format!(
            "{}: not a shard's run directory (no stress/{MANIFEST}, sweep/{MANIFEST} or \
             outcomes/{MANIFEST}): run the command with --shard K/N",
            dir.display()
        )))
    }

    /// JSON text of the manifest.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default() + "\n"
    }
}

/// Checks that `shards` (each with the directory it came from) are the 1st to n-th shard of one
/// run, each once, and returns them in shard order.
///
/// # Errors
/// Shards of different commands, options or counts, a shard missing or given twice (exit 2).
pub fn in_order<T>(mut shards: Vec<(Manifest, T)>) -> Result<Vec<(Manifest, T)>, CliError> {
    let Some((first, _)) = shards.first() else {
        return Err(CliError::Input("merge: no shard directories given".into()));
    };
    let first = first.clone();
    for (m, _) in &shards {
        check_build_and_inputs(m, &first)?;
        check_look(m, &first)?;
        let same = m.command == first.command
            && m.options == first.options
            && m.engine == first.engine
            && m.n == first.n
            && m.total == first.total;
        if !same {
            return Err(CliError::Input(format!(
                "merge: shard {}/{} of `{}` ({}) is not of the same run as shard {}/{} of `{}` \
                 ({}): the command, options and shard count must agree",
                m.k,
                m.n,
                m.command,
                describe(&m.options),
                first.k,
                first.n,
                first.command,
                describe(&first.options)
            )));
        }
        let want = Shard { k: m.k, n: m.n }.range(m.total);
        if (m.lo, m.hi) != want {
            return Err(CliError::Input(format!(
                "merge: shard {}/{} covers jobs {}..{}, expected {}..{}",
                m.k, m.n, m.lo, m.hi, want.0, want.1
            )));
        }
    }
    shards.sort_by_key(|(m, _)| m.k);
    for (i, (m, _)) in shards.iter().enumerate() {
        let expected = i as u64 + 1;
        if m.k != expected {
            let what = if m.k < expected {
                "given twice"
            } else {
                "missing"
            };
            let k = if m.k < expected { m.k } else { expected };
            return Err(CliError::Input(format!(
                "merge: shard {k}/{} is {what} (give each of the {} shards once)",
                first.n, first.n
            )));
        }
    }
    if shards.len() as u64 != first.n {
        return Err(CliError::Input(format!(
            "merge: {} of {} shards given; shard {}/{} is missing",
            shards.len(),
            first.n,
            shards.len() + 1,
            first.n
        )));
    }
    Ok(shards)
}

/// Shard `m` was made by the build that made `first`, from the same input files (by name and
/// hash).
///
/// # Errors
/// Another build, or another file (exit 2, naming both shards and the first difference).
fn check_build_and_inputs(m: &Manifest, first: &Manifest) -> Result<(), CliError> {
    let short = |s: &str| s.chars().take(120).collect::<String>();
    if m.version != first.version {
        return Err(CliError::Input(format!(
            "merge: shard {}/{} was made by the harness {:?}, shard {}/{} by {:?}: the shards of \
             one run come from one build",
            m.k,
            m.n,
            short(&m.version),
            first.k,
            first.n,
            short(&first.version)
        )));
    }
    let inputs = |m: &Manifest| -> Vec<(String, String)> {
        m.inputs
            .iter()
            .map(|i| (i.name().to_string(), i.sha256.clone()))
            .collect()
    };
    let (a, b) = (inputs(m), inputs(first));
    if a != b {
        let which = a.iter().zip(&b).find(|(x, y)| x != y).map_or_else(
            || format!("{} input files against {}", a.len(), b.len()),
            |(x, y)| {
                format!(
                    "{} (sha256 {}) against {} (sha256 {})",
                    short(&x.0),
                    short(&x.1[..x.1.len().min(12)]),
                    short(&y.0),
                    short(&y.1[..y.1.len().min(12)])
                )
            },
        );
        return Err(CliError::Input(format!(
            "merge: shard {}/{} read other input files than shard {}/{}: {which}; the shards of \
             one run read the same files",
            m.k, m.n, first.k, first.n
        )));
    }
    Ok(())
}

/// Shard `m` plays the look `first` plays, resumed from the same state.
///
/// # Errors
/// Another look, or another state (exit 2, naming both shards).
fn check_look(m: &Manifest, first: &Manifest) -> Result<(), CliError> {
    let look = |m: &Manifest| {
        m.look
            .map_or("one look".to_string(), |k| format!("look {k}"))
    };
    if m.look != first.look {
        return Err(CliError::Input(format!(
            "merge: shard {}/{} plays {} of its study, shard {}/{} {}: merge one look at a time",
            m.k,
            m.n,
            look(m),
            first.k,
            first.n,
            look(first)
        )));
    }
    if m.state_sha256 != first.state_sha256 {
        let sha = |m: &Manifest| {
            m.state_sha256
                .as_deref()
                .map_or("none".to_string(), |s| s.chars().take(12).collect())
        };
        return Err(CliError::Input(format!(
            "merge: shard {}/{} resumed from the state sha256 {}, shard {}/{} from {}: the \
             shards of a look resume from one merged look",
            m.k,
            m.n,
            sha(m),
            first.k,
            first.n,
            sha(first)
        )));
    }
    Ok(())
}

/// Most seconds a timing of `wall.csv` may hold: a year of one run's shots.
const MAX_SECONDS: f64 = 3.2e7;

/// A shard's timing row: its times finite, non-negative and below [`MAX_SECONDS`].
///
/// # Errors
/// A time out of range (exit 2, naming the file, the row's run and the field).
pub fn check_times(w: &pool_outcome::WallRow, file: &Path) -> Result<(), CliError> {
    for (field, v) in [("wall_s", Some(w.wall_s)), ("engine_s", w.engine_s)] {
        if let Some(v) = v.filter(|v| !(0.0..=MAX_SECONDS).contains(v)) {
            return Err(CliError::Input(format!(
                "{}: {}/{}/{}: {field} = {v:?}: a time must be a number of seconds in [0, {MAX_SECONDS:e}]",
                file.display(),
                w.family,
                w.table,
                w.run
            )));
        }
    }
    Ok(())
}

fn describe(options: &[(String, String)]) -> String {
    options
        .iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_cut_the_run_into_contiguous_ranges_that_cover_it_once() {
        for total in [0u64, 1, 7, 100, 100_001, u64::MAX] {
            for n in [1u64, 2, 3, 8, 13] {
                let mut next = 0;
                for k in 1..=n {
                    let (lo, hi) = Shard { k, n }.range(total);
                    assert_eq!(lo, next, "total {total}, shard {k}/{n}");
                    assert!(hi >= lo);
                    next = hi;
                }
                assert_eq!(next, total);
            }
        }
    }

    #[test]
    fn shard_options_parse_and_refuse_in_one_line() {
        assert_eq!("3/8".parse::<Shard>(), Ok(Shard { k: 3, n: 8 }));
        for bad in ["0/8", "9/8", "3", "a/b", "1/0", "1/1000000", "-1/2"] {
            assert!(
                bad.parse::<Shard>().unwrap_err().contains("expected K/N"),
                "{bad}"
            );
        }
    }

    fn manifest(k: u64, n: u64, total: u64) -> Manifest {
        let (lo, hi) = Shard { k, n }.range(total);
        Manifest {
            version: version(),
            inputs: Vec::new(),
            look: None,
            state_sha256: None,
            args: Vec::new(),
            command: "stress".into(),
            options: vec![("--seed".into(), "1".into())],
            engine: "event".into(),
            k,
            n,
            total,
            lo,
            hi,
        }
    }

    #[test]
    fn merge_takes_each_shard_of_one_run_once_in_order() {
        let shards = vec![
            (manifest(2, 3, 10), 'b'),
            (manifest(1, 3, 10), 'a'),
            (manifest(3, 3, 10), 'c'),
        ];
        let order: Vec<char> = in_order(shards).unwrap().into_iter().map(|s| s.1).collect();
        assert_eq!(order, ['a', 'b', 'c']);
        let missing = in_order(vec![(manifest(1, 3, 10), ()), (manifest(3, 3, 10), ())]);
        assert!(matches!(missing, Err(CliError::Input(m)) if m.contains("2/3 is missing")));
        let twice = in_order(vec![
            (manifest(1, 2, 10), ()),
            (manifest(1, 2, 10), ()),
            (manifest(2, 2, 10), ()),
        ]);
        assert!(matches!(twice, Err(CliError::Input(m)) if m.contains("1/2 is given twice")));
        let mut other = manifest(2, 2, 10);
        other.options[0].1 = "2".into();
        let mixed = in_order(vec![(manifest(1, 2, 10), ()), (other, ())]);
        assert!(matches!(mixed, Err(CliError::Input(m)) if m.contains("not of the same run")));
        let mut older = manifest(2, 2, 10);
        older.version = "0.0.9 (commit x)".into();
        let built = in_order(vec![(manifest(1, 2, 10), ()), (older, ())]);
        assert!(matches!(built, Err(CliError::Input(m)) if m.contains("one build")));
        let mut edited = manifest(2, 2, 10);
        edited.inputs.push(Input {
            path: "a/cut.toml".into(),
            sha256: "1".into(),
        });
        let mut first = manifest(1, 2, 10);
        first.inputs.push(Input {
            path: "b/cut.toml".into(),
            sha256: "2".into(),
        });
        let read = in_order(vec![(first.clone(), ()), (edited.clone(), ())]);
        assert!(matches!(read, Err(CliError::Input(m)) if m.contains("other input files")));
        edited.inputs[0].sha256 = "2".into();
        assert!(in_order(vec![(first, ()), (edited, ())]).is_ok());
    }
}
