//! `cargo xtask`: the harness's command line (the commands live in the library, `lib.rs`).

use std::process::ExitCode;

fn main() -> ExitCode {
    // Exec sessions kill their program's whole group when they end; adopting the orphans lets
    // them reap what a program left running too (PID 1 may not).
    pool_exec::adopt_orphans();
    ExitCode::from(xtask::run_cli(std::env::args_os()))
}
