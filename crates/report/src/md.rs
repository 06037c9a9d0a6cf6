//! Markdown that carries text from elsewhere (an engine's command, a program's error and
//! stderr, a shot's or a table's name) as text, never as HTML: GitHub and most viewers render
//! raw HTML in Markdown, so a `<script>` in a program's stderr must not reach report.md as a
//! tag.
//!
//! Two layers. [`code`] and [`code_cell`] put such text in a code span whose fence no run of
//! backticks inside can close. [`no_html`], applied to a whole report, escapes every `<` and
//! `>` outside the code spans of each line (inside one, a renderer shows them as they are),
//! and every one of a line whose backticks do not pair up.

/// `s` as a CommonMark code span: a fence of one more backtick than its longest run, padded
/// with a space where it starts or ends with a backtick, line breaks turned into spaces (a
/// code span is one line here).
pub fn code(s: &str) -> String {
    let s: String = s
        .chars()
        .map(|c| if c == '\n' || c == '\r' { ' ' } else { c })
        .collect();
    let (mut longest, mut run) = (0, 0);
    for c in s.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat(longest + 1);
    let pad = if s.starts_with('`') || s.ends_with('`') || s.is_empty() {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{s}{pad}{fence}")
}

/// [`code`] for a table cell: a `|` inside would end the cell (GitHub splits table rows on it
/// even inside code spans), so it is written `\|`, which a table shows as `|`.
pub fn code_cell(s: &str) -> String {
    code(s).replace('|', "\\|")
}

/// The Markdown `md` with every `<` and `>` outside the code spans of each line written as
/// `&lt;` and `&gt;`: no tag, comment or autolink of raw HTML survives. A line whose backtick
/// runs do not pair up (a code span across lines, or a stray backtick) has all of them
/// escaped: at worst a code span shows `&lt;`, never a tag.
pub fn no_html(md: &str) -> String {
    let mut out = String::with_capacity(md.len());
    for (i, line) in md.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        escape_line(line, &mut out);
    }
    out
}

/// One line of [`no_html`].
fn escape_line(line: &str, out: &mut String) {
    let spans = code_spans(line);
    let inside = |at: usize| spans.iter().any(|&(a, b)| a <= at && at < b);
    for (at, c) in line.char_indices() {
        match c {
            '<' if !inside(at) => out.push_str("&lt;"),
            '>' if !inside(at) => out.push_str("&gt;"),
            c => out.push(c),
        }
    }
}

/// The byte ranges of `line`'s code spans, fences included (CommonMark: a run of n backticks
/// opens one that the next run of exactly n closes); none when a run is left open, so that
/// the whole line counts as outside.
fn code_spans(line: &str) -> Vec<(usize, usize)> {
    let bytes = line.as_bytes();
    let mut runs: Vec<(usize, usize)> = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'`' {
            let start = i;
            while i < bytes.len() && bytes[i] == b'`' {
                i += 1;
            }
            runs.push((start, i - start));
        } else {
            i += 1;
        }
    }
    let mut spans = Vec::new();
    let mut k = 0;
    while k < runs.len() {
        let (start, n) = runs[k];
        match (k + 1..runs.len()).find(|&j| runs[j].1 == n) {
            Some(j) => {
                spans.push((start, runs[j].0 + n));
                k = j + 1;
            }
            None => return Vec::new(),
        }
    }
    spans
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_spans_hold_any_text_and_no_html_survives_outside_them() {
        assert_eq!(code("exec:python3 e.py"), "`exec:python3 e.py`");
        assert_eq!(code("a`b"), "``a`b``");
        assert_eq!(code("`x``"), "``` `x`` ```");
        assert_eq!(code_cell("a|b"), "`a\\|b`");
        let hostile = "<script>alert(7)</script> `<img src=x onerror=alert(1)>`";
        let md = no_html(&format!("engine {} failed: {hostile}\n", code(hostile)));
        // Outside the spans nothing is a tag; inside, the text is the program's own.
        assert!(
            md.contains("failed: &lt;script&gt;alert(7)&lt;/script&gt; `"),
            "{md}"
        );
        assert!(
            md.starts_with("engine `` <script>alert(7)</script> `<img"),
            "{md}"
        );
        // A stray backtick: the whole line is escaped.
        assert_eq!(no_html("a ` <b>"), "a ` &lt;b&gt;");
        // Placeholders of the report's own prose read as written.
        assert_eq!(
            no_html("lattice:<gap> or `--rack <x>`"),
            "lattice:&lt;gap&gt; or `--rack <x>`"
        );
    }
}
