//! `cargo xtask`: the harness's command line (the commands live in the library, `lib.rs`).

use std::process::ExitCode;

fn main() -> ExitCode {
    ExitCode::from(xtask::run_cli(std::env::args_os()))
}
