//! Functions of one job each, kept: no function of either crate runs over `LIMIT` lines
//! unless the comment right above its `fn` (above its attributes, if any) says why, in a line
//! that starts `// long:`. A flat `match` over an enum whose arms are a line or two each is the
//! usual reason; a function that does several things is split instead.
//!
//! A function's lines are counted from its `fn` line to the first line after it that closes
//! a brace at the `fn`'s indentation (rustfmt's layout), both included.

const LIMIT: usize = 120;

/// Functions over the limit that still do more than one job, by file and name: they wait to
/// be split. The list may only shrink: a function on it that is split (or shrinks under the
/// limit) fails the test until it is taken off.
const UNSPLIT: &[(&str, &str)] = &[];

/// A function found in the sources: file (from the repository's top), its `fn` line (1-based),
/// name, length in lines, and whether a `// long:` comment stands above it.
struct Found {
    file: String,
    line: usize,
    name: String,
    lines: usize,
    reason: bool,
}

/// The name of the function a line declares, if it opens one with a body.
fn declared(line: &str) -> Option<&str> {
    let mut rest = line.trim_start();
    if let Some(r) = rest.strip_prefix("pub") {
        rest = match r.strip_prefix('(') {
            Some(r) => r.split_once(')')?.1,
            None => r,
        }
        .trim_start();
    }
    for word in ["const ", "async ", "unsafe "] {
        rest = rest.strip_prefix(word).unwrap_or(rest);
    }
    if let Some(r) = rest.strip_prefix("extern \"") {
        rest = r.split_once('"')?.1.trim_start();
    }
    let rest = rest.strip_prefix("fn ")?;
    if line.trim_end().ends_with(';') {
        return None;
    }
    let name = rest
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .next()?;
    (!name.is_empty()).then_some(name)
}

fn functions_in(code: &str, file: &str, out: &mut Vec<Found>) {
    let lines: Vec<&str> = code.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        let Some(name) = declared(line) else {
            continue;
        };
        let indent = &line[..line.len() - line.trim_start().len()];
        let close = format!("{indent}}}");
        let end = if line.trim_end().ends_with('}') {
            Some(i)
        } else {
            (i + 1..lines.len()).find(|&j| lines[j] == close)
        };
        let Some(end) = end else {
            continue;
        };
        // The comment block right above the `fn` and its attributes.
        let reason = lines[..i]
            .iter()
            .rev()
            .map(|l| l.trim_start())
            .skip_while(|l| l.starts_with("#["))
            .take_while(|l| l.starts_with("//") && !l.starts_with("///"))
            .any(|l| l.starts_with("// long:"));
        out.push(Found {
            file: file.to_owned(),
            line: i + 1,
            name: name.to_owned(),
            lines: end - i + 1,
            reason,
        });
    }
}

/// Every function of both crates' sources.
fn functions() -> Vec<Found> {
    let top = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found = Vec::new();
    for root in ["src", "crates/core/src"] {
        let mut dirs = vec![top.join(root)];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).unwrap().flatten() {
                let path = entry.path();
                if path.is_dir() {
                    dirs.push(path);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    let file = path.strip_prefix(top).unwrap().to_string_lossy();
                    let code = std::fs::read_to_string(&path).unwrap();
                    functions_in(&code, &file, &mut found);
                }
            }
        }
    }
    found
}

#[test]
fn no_function_runs_long_without_a_reason() {
    let found = functions();
    assert!(
        found.len() > 1000,
        "only {} functions found: is the scan reading the sources?",
        found.len()
    );
    let long: Vec<&Found> = found.iter().filter(|f| f.lines > LIMIT).collect();
    let unexplained: Vec<String> = long
        .iter()
        .filter(|f| !f.reason && !UNSPLIT.contains(&(f.file.as_str(), f.name.as_str())))
        .map(|f| format!("{}:{} {} ({} lines)", f.file, f.line, f.name, f.lines))
        .collect();
    assert!(
        unexplained.is_empty(),
        "functions over {LIMIT} lines: split them into functions of one job each, or say \
         why one is best whole in a `// long:` comment above its `fn`:\n{}",
        unexplained.join("\n")
    );
    let done: Vec<String> = UNSPLIT
        .iter()
        .filter(|(file, name)| !long.iter().any(|f| f.file == *file && f.name == *name))
        .map(|(file, name)| format!("{file} {name}"))
        .collect();
    assert!(
        done.is_empty(),
        "no longer over {LIMIT} lines: take them off UNSPLIT:\n{}",
        done.join("\n")
    );
}

#[test]
fn a_function_is_measured_from_fn_to_its_closing_brace() {
    let code = "\
impl A {
    // long: one arm a variant,
    // each a line.
    pub(crate) fn kept(&self) {
        x();
    }

    #[inline]
    fn bare() -> u8 { 1 }
}
pub fn outer() {}
trait T {
    fn declared(&self);
}
";
    let mut found = Vec::new();
    functions_in(code, "f.rs", &mut found);
    let got: Vec<(&str, usize, usize, bool)> = found
        .iter()
        .map(|f| (f.name.as_str(), f.line, f.lines, f.reason))
        .collect();
    assert_eq!(
        got,
        [
            ("kept", 4, 3, true),
            ("bare", 9, 1, false),
            ("outer", 11, 1, false),
        ]
    );
}
