//! Where things are in a shot file's text: line and column of a span, the field path of a
//! serde error, the value as written at a path. Error messages name fields by these paths.

use std::fmt::Write as _;
use std::ops::Range;
use std::path::Path;

use toml::de::{DeTable, DeValue};
use toml::Spanned;

use crate::ShotError;

/// Longest value text quoted in an error message, in characters.
const MAX_VALUE_CHARS: usize = 80;

/// The text being parsed and its file, for error messages.
pub(crate) struct Doc<'a> {
    pub text: &'a str,
    pub file: &'a Path,
}

/// A node of the parsed document found by [`find_node`]: its path and the span of its value.
struct Node {
    path: String,
    value_span: Range<usize>,
}

impl Doc<'_> {
    pub fn err(
        &self,
        field: impl Into<String>,
        value: impl Into<String>,
        message: impl Into<String>,
    ) -> ShotError {
        ShotError::new(self.file, field, value, message)
    }

    /// 1-based line and column (in characters) of byte offset `at`.
    pub fn line_col(&self, at: usize) -> (usize, usize) {
        let mut at = at.min(self.text.len());
        while !self.text.is_char_boundary(at) {
            at -= 1;
        }
        let before = &self.text[..at];
        let line = before.matches('\n').count() + 1;
        let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        (line, col)
    }

    pub fn source(&self, span: &Range<usize>) -> Option<&str> {
        self.text.get(span.clone())
    }

    pub fn syntax_error(&self, e: &toml::de::Error) -> ShotError {
        let (value, at) = match e.span() {
            Some(span) => {
                let (l, c) = self.line_col(span.start);
                (format!("{l}:{c}"), format!(" (line {l}, column {c})"))
            }
            None => ("?".to_string(), String::new()),
        };
        self.err("syntax", value, format!("{}{at}", e.message()))
    }

    /// Maps a serde error to the field it is about, using the error's span.
    pub fn serde_error(&self, e: &toml::de::Error, root: &Spanned<DeTable<'_>>) -> ShotError {
        let msg = e.message();
        let Some(span) = e.span() else {
            return self.err("(document)", "?", msg);
        };
        let (l, c) = self.line_col(span.start);
        let at = format!(" (line {l}, column {c})");
        if let Some(missing) = between(msg, "missing field `", "`") {
            // The span is the header of the table that lacks the field (empty for the root).
            let table = if span.is_empty() {
                None
            } else {
                find_node(root, |_, value_span| value_span == &span)
            };
            return match table {
                Some(t) => self.err(
                    join(&t.path, missing),
                    "(missing)",
                    format!("required field is missing{at}"),
                ),
                None => self.err(missing, "(missing)", "required field is missing"),
            };
        }
        let best = find_node(root, |node_span, _| {
            node_span.start <= span.start && span.end <= node_span.end
        });
        match best {
            Some(n) if !n.path.is_empty() => self.err(
                n.path,
                self.source(&n.value_span).unwrap_or("?"),
                format!("{msg}{at}"),
            ),
            _ => self.err(
                "(document)",
                self.source(&span).unwrap_or("?"),
                format!("{msg}{at}"),
            ),
        }
    }

    /// The value as written at `path` (e.g. `balls[2].v`), or `fallback`.
    pub fn written(
        &self,
        root: &Spanned<DeTable<'_>>,
        path: &str,
        fallback: impl FnOnce() -> String,
    ) -> String {
        lookup(root, path)
            .and_then(|span| self.source(&span))
            .map_or_else(fallback, str::to_string)
    }

    pub fn finite(
        &self,
        root: &Spanned<DeTable<'_>>,
        path: &str,
        xs: &[f64],
    ) -> Result<(), ShotError> {
        if xs.iter().all(|x| x.is_finite()) {
            Ok(())
        } else {
            Err(self.err(
                path,
                self.written(root, path, || format!("{xs:?}")),
                "NaN and infinite numbers are not allowed",
            ))
        }
    }
}

/// One step of a path into the document: a key or an array index.
#[derive(Clone, Copy)]
enum Seg<'a> {
    Key(&'a str),
    Index(usize),
}

fn path_string(stack: &[Seg<'_>]) -> String {
    let mut out = String::new();
    for seg in stack {
        match seg {
            Seg::Key(k) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(k);
            }
            Seg::Index(i) => {
                let _ = write!(out, "[{i}]");
            }
        }
    }
    out
}

/// The node of the document (a key or a value; a key's value span is its value's) for which
/// `matches(span, value_span)` holds, preferring the smallest span and then the deepest path.
/// Walks the document without allocating per node, so that errors in huge files stay cheap.
fn find_node(
    root: &Spanned<DeTable<'_>>,
    matches: impl Fn(&Range<usize>, &Range<usize>) -> bool,
) -> Option<Node> {
    struct Search<'m, M> {
        matches: &'m M,
        best: Option<(usize, usize, Node)>,
    }
    impl<M: Fn(&Range<usize>, &Range<usize>) -> bool> Search<'_, M> {
        fn offer(&mut self, span: Range<usize>, value_span: Range<usize>, stack: &[Seg<'_>]) {
            if !(self.matches)(&span, &value_span) {
                return;
            }
            let better = match &self.best {
                None => true,
                Some((len, depth, _)) => {
                    (span.len(), usize::MAX - stack.len()) < (*len, usize::MAX - depth)
                }
            };
            if better {
                let node = Node {
                    path: path_string(stack),
                    value_span,
                };
                self.best = Some((span.len(), stack.len(), node));
            }
        }
        fn table<'a>(&mut self, t: &'a DeTable<'a>, stack: &mut Vec<Seg<'a>>) {
            for (k, x) in t.iter() {
                stack.push(Seg::Key(k.get_ref()));
                self.offer(k.span(), x.span(), stack);
                self.value(x, stack);
                stack.pop();
            }
        }
        fn value<'a>(&mut self, v: &'a Spanned<DeValue<'a>>, stack: &mut Vec<Seg<'a>>) {
            // The TOML parser limits nesting already; this guard keeps the walk bounded anyway.
            if stack.len() > 256 {
                return;
            }
            self.offer(v.span(), v.span(), stack);
            match v.get_ref() {
                DeValue::Table(t) => self.table(t, stack),
                DeValue::Array(a) => {
                    for (i, x) in a.iter().enumerate() {
                        stack.push(Seg::Index(i));
                        self.value(x, stack);
                        stack.pop();
                    }
                }
                _ => {}
            }
        }
    }
    let mut search = Search {
        matches: &matches,
        best: None,
    };
    search.table(root.get_ref(), &mut Vec::new());
    search.best.map(|(_, _, node)| node)
}

/// The span of the value at `path` (`a.b[2].c` syntax; keys must not contain `.` or `[`).
pub(crate) fn lookup(root: &Spanned<DeTable<'_>>, path: &str) -> Option<Range<usize>> {
    let mut table = root.get_ref();
    let mut current: Option<&Spanned<DeValue<'_>>> = None;
    for part in path.split('.') {
        let (key, indices) = match part.find('[') {
            Some(i) => (&part[..i], &part[i..]),
            None => (part, ""),
        };
        if let Some(c) = current {
            table = c.get_ref().as_table()?;
        }
        let mut v = table
            .iter()
            .find(|(k, _)| k.get_ref() == key)
            .map(|(_, v)| v)?;
        for idx in indices.split('[').skip(1) {
            let i: usize = idx.strip_suffix(']')?.parse().ok()?;
            v = v.get_ref().as_array()?.get(i)?;
        }
        current = Some(v);
    }
    current.map(|v| v.span())
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

/// The text between `start` and the next `end` in `s`.
fn between<'a>(s: &'a str, start: &str, end: &str) -> Option<&'a str> {
    let rest = &s[s.find(start)? + start.len()..];
    Some(&rest[..rest.find(end)?])
}

/// Collapses whitespace runs (newlines included) to single spaces.
pub(crate) fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// One line, at most [`MAX_VALUE_CHARS`] characters.
pub(crate) fn shorten(s: &str) -> String {
    let s = one_line(s);
    if s.chars().count() <= MAX_VALUE_CHARS {
        s
    } else {
        let head: String = s.chars().take(MAX_VALUE_CHARS).collect();
        format!("{head}...")
    }
}
