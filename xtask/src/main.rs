//! `cargo xtask`: the harness's command line (the commands live in the library, `lib.rs`).

use std::process::ExitCode;

fn main() -> ExitCode {
    // First, while this process has one thread: a guardian process that kills every program's
    // group if this process is killed (SIGKILL), what the programs started included.
    pool_exec::start_guardian();
    // Exec sessions kill their program's whole group when they end; adopting the orphans lets
    // them reap what a program left running too (PID 1 may not). SIGINT, SIGTERM and SIGHUP
    // end every program with this process, and so does its end.
    pool_exec::adopt_orphans();
    pool_exec::end_on_signals();
    let code = xtask::run_cli(std::env::args_os());
    pool_exec::end_all();
    ExitCode::from(code)
}
