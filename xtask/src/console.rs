//! The terminal: every line a command prints goes through here, so that a closed pipe or a full
//! disk on standard output ends the command with exit 1 instead of a panic, and a full or closed
//! standard error never changes the exit code.

use std::fmt;
use std::io::{self, Write};

use crate::CliError;

/// Prints a line on standard output: `outln!("...", args)?`. A failed write is an error (see
/// [`stdout_error`]).
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::console::out_line(format_args!($($arg)*))
    };
}

/// Prints a line on standard error, ignoring a failed write: there is nowhere left to report it,
/// and the exit code already says how the command ended.
macro_rules! errln {
    ($($arg:tt)*) => {
        $crate::console::err_line(format_args!($($arg)*))
    };
}

pub(crate) use {errln, outln};

/// See [`outln!`].
pub fn out_line(args: fmt::Arguments) -> Result<(), CliError> {
    let mut out = io::stdout().lock();
    out.write_fmt(args)
        .and_then(|()| out.write_all(b"\n"))
        .and_then(|()| out.flush())
        .map_err(stdout_error)
}

/// See [`errln!`].
pub fn err_line(args: fmt::Arguments) {
    let mut err = io::stderr().lock();
    let _ = err
        .write_fmt(args)
        .and_then(|()| err.write_all(b"\n"))
        .and_then(|()| err.flush());
}

/// A failed write to standard output as the command's error: a closed pipe (the reader, e.g.
/// `head`, has seen enough) ends it quietly with exit 1, as Unix tools do; anything else (a full
/// disk) with exit 1 and one line.
pub fn stdout_error(e: io::Error) -> CliError {
    if e.kind() == io::ErrorKind::BrokenPipe {
        CliError::BrokenPipe
    } else {
        CliError::Run(format!("writing to standard output: {e}"))
    }
}
