//! `cargo xtask import-pooltool`: a pooltool `System.save` file (JSON or msgpack) as a shot
//! file (`pool_pooltool::import`; the frames, what carries over and what does not are in that
//! crate's documentation).

use std::path::PathBuf;

use crate::console::{errln, outln};
use crate::CliError;

/// Options of `cargo xtask import-pooltool`.
#[derive(clap::Args, Debug)]
pub struct ImportArgs {
    /// pooltool file written by `System.save` (.json or .msgpack)
    pub file: PathBuf,
    /// Write the shot file to FILE (never overwriting a file) instead of printing it (a file,
    /// where every other command's --out is a directory; --out is its old spelling)
    #[arg(long = "output", alias = "out", value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// pooltool resolver file (resolver.yaml, or the same as .json) whose laws the shot takes,
    /// e.g. ~/.config/pooltool/physics/resolver.yaml [default: the file's own `resolver` entry,
    /// else pooltool's default laws, the pooltool_default preset, as `pt.simulate` runs it]
    #[arg(long, value_name = "FILE")]
    pub resolver: Option<PathBuf>,
    /// The shot's description [default: "Imported from <file> (pooltool 0.6.0 System)"]
    #[arg(long)]
    pub description: Option<String>,
}

/// Reads the file, prints or writes the shot file, and reports what was left out on stderr.
pub fn run(args: ImportArgs) -> Result<(), CliError> {
    let name = args
        .out
        .as_ref()
        .unwrap_or(&args.file)
        .file_stem()
        .map_or_else(|| "imported".into(), |s| s.to_string_lossy().into_owned());
    let imported = pool_pooltool::import(&args.file, &name, args.resolver.as_deref())
        .map_err(|e| CliError::Input(e.to_string()))?;
    for note in &imported.notes {
        errln!("note: {}: {note}", args.file.display());
    }
    let description = args.description.unwrap_or_else(|| {
        format!(
            "Imported from {} (pooltool 0.6.0 System)",
            args.file.file_name().map_or_else(
                || args.file.display().to_string(),
                |n| n.to_string_lossy().into_owned()
            )
        )
    });
    let text = pool_shots::to_toml(&imported.setup, &description);
    match &args.out {
        None => outln!("{}", text.trim_end_matches('\n'))?,
        Some(out) => write_new(out, text.as_bytes())?,
    }
    Ok(())
}

/// Writes `bytes` to `path` through a temporary file renamed into place: never half a file,
/// never over an existing one, even when another import writes the same path at once.
fn write_new(path: &std::path::Path, bytes: &[u8]) -> Result<(), CliError> {
    pool_report::files::write_new(path, bytes).map_err(|e| {
        if e.kind() == std::io::ErrorKind::AlreadyExists {
            CliError::Input(format!(
                "--output {}: the file exists already (never overwritten)",
                path.display()
            ))
        } else {
            CliError::Run(format!("writing {}: {e}", path.display()))
        }
    })
}
