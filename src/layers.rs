//! The layering of both crates, enforced: a module may use modules of its own layer or below,
//! never one above. Between the crates the compiler refuses it; inside each, this test reads
//! the sources, grouped imports (`use crate::{a, b}`) and test code included, so a path from
//! the viewer into the command-line front end (or any path that runs up) fails the build's
//! tests with the file and line.
//! `rules::catalogue` (the rule ids) is its own layer, the bottom one, though it lives in
//! `rules/`.

/// Bottom first. The sans-IO core (`protocol`, `session`, `game`, `rules`) sits below every
/// front end; the catalogue of rule ids, the output-safety rule and the signal handlers below
/// everything.
const LAYERS: &[&[&str]] = &[
    &[
        "untrusted",
        "units",
        "catalogue",
        "swar",
        "eprintln_safe",
        "signals",
        "serde_static",
    ],
    &["recording", "game"],
    &["protocol"],
    &["session"],
    &["rules"],
    &["import", "export", "capture"],
    &["input", "style"],
    &["report"],
    &["replay"],
    &["shrink"],
    &["probe"],
    &["schemas"],
    &["tui"],
    &["cli"],
];

fn layer(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

/// The top-level module names a path after `crate::` names: one, or each of a group's
/// (`{a, b::c}`).
fn named(after: &str) -> Vec<String> {
    let word = |p: &str| -> String {
        let p = p.trim_start();
        let p = p
            .strip_prefix("rules::")
            .filter(|p| p.starts_with("catalogue"))
            .unwrap_or(p);
        p.chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    let Some(group) = after.strip_prefix('{') else {
        return vec![word(after)];
    };
    let mut out = Vec::new();
    let (mut depth, mut start) = (0usize, 0usize);
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => {
                out.push(word(&group[start..i]));
                break;
            }
            '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(word(&group[start..i]));
                start = i + 1;
            }
            _ => {}
        }
    }
    out
}

/// Every `crate::NAME` in the non-test code of `src/`, as (file, line, user, used).
fn uses() -> Vec<(String, usize, String, String)> {
    let top = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found = Vec::new();
    // The front ends, and the sans-IO core in a crate of its own (whose paths `crate::` name
    // its own modules, re-exported under the same names above).
    for shown in ["src", "crates/core/src"] {
        uses_under(&top.join(shown), shown, &mut found);
    }
    found
}

fn uses_under(
    root: &std::path::Path,
    shown: &str,
    found: &mut Vec<(String, usize, String, String)>,
) {
    let mut dirs = vec![root.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
                continue;
            }
            let rel = path
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if !name.ends_with(".rs") || rel == "layers.rs" {
                continue;
            }
            let user = if rel.starts_with("rules/catalogue/") {
                "catalogue".to_owned()
            } else {
                rel.split('/')
                    .next()
                    .unwrap()
                    .trim_end_matches(".rs")
                    .to_owned()
            };
            // Test code too: a test that reaches up the layers couples them as much as the
            // code does.
            let code = std::fs::read_to_string(&path).unwrap();
            let lines: Vec<&str> = code.lines().collect();
            for (n, line) in lines.iter().enumerate() {
                let line = line.split("//").next().unwrap_or("");
                // A group may run over several lines (`use crate::{` ... `};`): read on to
                // its end.
                let joined;
                let line = if line.contains("crate::{") && !line.contains('}') {
                    joined = lines[n..]
                        .iter()
                        .take(40)
                        .map(|l| l.split("//").next().unwrap_or(""))
                        .collect::<Vec<_>>()
                        .join(" ");
                    joined.as_str()
                } else {
                    line
                };
                for piece in line.split("crate::").skip(1) {
                    for used in named(piece) {
                        if !used.is_empty() && used != user {
                            found.push((format!("{shown}/{rel}"), n + 1, user.clone(), used));
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn no_module_uses_one_above_it() {
    let all = uses();
    assert!(all.len() > 100, "{} uses found", all.len());
    let mut wrong = Vec::new();
    for (file, line, user, used) in &all {
        let (Some(u), Some(d)) = (layer(user), layer(used)) else {
            wrong.push(format!(
                "{file}:{line}: `{user}` or `{used}` is in no layer"
            ));
            continue;
        };
        if d > u {
            wrong.push(format!(
                "{file}:{line}: `{user}` uses `{used}`, a layer above it"
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The sans-IO core's whole dependency tree, read from Cargo.lock: no async runtime,
/// terminal, thread pool, allocator or process and signal handling, whatever a dependency
/// pulls in later.
#[test]
fn the_core_crate_depends_on_no_runtime_terminal_threads_or_allocator() {
    let lock = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.lock"),
    )
    .unwrap();
    // name -> dependency names, from the [[package]] entries.
    let mut deps = std::collections::HashMap::<String, Vec<String>>::new();
    for entry in lock.split("[[package]]").skip(1) {
        let name = entry
            .lines()
            .find_map(|l| l.strip_prefix("name = "))
            .unwrap()
            .trim_matches('"')
            .to_owned();
        let list = entry
            .split_once("dependencies = [")
            .map(|(_, rest)| rest.split(']').next().unwrap_or(""))
            .unwrap_or("");
        // `"name"` or `"name version"` (when two versions are locked).
        let names = list
            .split(',')
            .filter_map(|d| d.trim().trim_matches('"').split(' ').next())
            .filter(|d| !d.is_empty())
            .map(str::to_owned)
            .collect();
        deps.entry(name).or_default().extend::<Vec<String>>(names);
    }
    let mut tree = std::collections::BTreeSet::new();
    let mut todo = vec!["kibitzer-core".to_owned()];
    while let Some(n) = todo.pop() {
        if tree.insert(n.clone()) {
            todo.extend(deps.get(&n).cloned().unwrap_or_default());
        }
    }
    assert!(
        tree.contains("shakmaty") && tree.contains("serde"),
        "{tree:?}"
    );
    let forbidden = [
        "tokio",
        "ratatui",
        "crossterm",
        "rayon",
        "rayon-core",
        "mimalloc",
        "libmimalloc-sys",
        "nix",
        "signal-hook",
        "indicatif",
        "memmap2",
        "flate2",
        "clap",
        "kibitzer",
    ];
    let found: Vec<&&str> = forbidden.iter().filter(|f| tree.contains(**f)).collect();
    assert!(found.is_empty(), "the core crate pulls in {found:?}");
}
