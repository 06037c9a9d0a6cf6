//! The progress every long command shows on stderr: on a terminal a bar with its ETA; written
//! to a file or a pipe (CI, `2> log`, `| tee`), where a bar draws nothing, one line every few
//! seconds saying what is done of what is planned and about how long is left.

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::console::errln;

/// How often the captured form writes its line.
const LINE_EVERY: Duration = Duration::from_secs(5);

/// A bar of `len` steps on stderr: elapsed time, the bar, `pos/len`, then `what` (an indicatif
/// template fragment, e.g. `"shots {per_sec}"`), and the time left. When stderr is not a
/// terminal, a line every [`LINE_EVERY`] instead, until the bar is finished or dropped:
/// `outcome runs: 1,200 of 4,800 (25 %) in 0:00:40, about 0:02:00 left; look 2`.
pub fn bar(len: u64, what: &str) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template(&format!(
            "{{elapsed_precise}} [{{bar:40}}] {{pos}}/{{len}} {what} · about {{left}} left{}",
            if what.contains("{msg}") { "" } else { " {msg}" }
        ))
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .with_key(
            "left",
            |s: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = w.write_str(&hms(time_left(s.elapsed(), s.pos(), s.len().unwrap_or(0))));
            },
        )
        .progress_chars("=> "),
    );
    if !std::io::stderr().is_terminal() {
        let label = label_of(what);
        let weak = bar.downgrade();
        // Holds only a weak reference: the line stops with the bar.
        std::thread::spawn(move || loop {
            std::thread::sleep(LINE_EVERY);
            let Some(bar) = weak.upgrade() else { return };
            if bar.is_finished() {
                return;
            }
            errln!("{}", line(&label, &bar));
        });
    }
    bar
}

/// The words of a bar's template fragment, without its `{...}` keys: `"outcome runs"`.
fn label_of(what: &str) -> String {
    what.split_whitespace()
        .filter(|w| !w.starts_with('{'))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The time left at the whole run's average rate so far (zero before the first step).
/// indicatif's own estimate follows the last steps, and runs that come in chunks (a look's shots,
/// a program's batch) make it swing by hours.
fn time_left(elapsed: Duration, pos: u64, len: u64) -> Duration {
    if pos == 0 || pos >= len {
        return Duration::ZERO;
    }
    elapsed.mul_f64((len - pos) as f64 / pos as f64)
}

/// The captured form's line for `bar` (its message, when it has one, after a `;`).
fn line(label: &str, bar: &ProgressBar) -> String {
    let (pos, len) = (bar.position(), bar.length().unwrap_or(0));
    let pct = if len > 0 {
        format!(" ({:.0} %)", 100.0 * pos as f64 / len as f64)
    } else {
        String::new()
    };
    let left = if pos > 0 && pos < len {
        format!(", about {} left", hms(time_left(bar.elapsed(), pos, len)))
    } else {
        String::new()
    };
    let msg = bar.message();
    let msg = if msg.is_empty() {
        String::new()
    } else {
        format!("; {msg}")
    };
    format!(
        "{label}: {} of {}{pct} in {}{left}{msg}",
        thousands(pos),
        thousands(len),
        hms(bar.elapsed())
    )
}

/// `h:mm:ss`.
fn hms(d: Duration) -> String {
    let s = d.as_secs();
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// `12,400`.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_captured_line_says_what_is_done_of_what_is_planned() {
        assert_eq!(label_of("outcome runs {per_sec}"), "outcome runs");
        assert_eq!(thousands(1_234_567), "1,234,567");
        assert_eq!(thousands(12), "12");
        assert_eq!(hms(Duration::from_secs(3725)), "1:02:05");
        // A stalled run's estimate grows with its elapsed time only, never by hours a line.
        assert_eq!(
            time_left(Duration::from_secs(60), 900, 1000),
            Duration::from_secs_f64(60.0 / 9.0)
        );
        assert_eq!(time_left(Duration::from_secs(60), 0, 1000), Duration::ZERO);
        let bar = ProgressBar::hidden();
        bar.set_length(4800);
        bar.set_position(1200);
        bar.set_message("look 2");
        let l = line("outcome runs", &bar);
        assert!(
            l.starts_with("outcome runs: 1,200 of 4,800 (25 %) in 0:00:0"),
            "{l}"
        );
        assert!(l.contains("left; look 2"), "{l}");
    }
}
