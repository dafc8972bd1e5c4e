//! Tab at a prompt: the word before the cursor completed from what the input and the
//! catalogue have (filter kinds, rule ids, severities, sessions by number or engine name, the
//! filter language's words, command names, file paths for `:write`). One candidate is put in;
//! several put in what they share and are listed above the prompt.

use super::{App, PromptKind};
use crate::tui::doc::Doc;
use crate::tui::draw::visible;

/// Candidates listed past this many are counted, not shown.
const LISTED: usize = 200;

impl App {
    pub(super) fn complete_prompt(
        &mut self,
        doc: &Doc,
        kind: PromptKind,
        text: &str,
    ) -> Option<String> {
        let (head, word, cands) = match kind {
            PromptKind::Filter | PromptKind::EditFilter(_) => {
                let (head, word) = last_word(text);
                (head, word, filter_words(doc, word))
            }
            PromptKind::Command => command_words(doc, text),
            PromptKind::Search | PromptKind::HelpSearch => return None,
        };
        self.candidates.clear();
        match cands.as_slice() {
            [] => {
                self.message = Some((format!("nothing completes `{}`", visible(word)), true));
                None
            }
            [(one, _)] => {
                let end = if one.ends_with(':') || one.ends_with('/') || one.ends_with('>') {
                    ""
                } else {
                    " "
                };
                Some(format!("{head}{one}{end}"))
            }
            many => {
                self.candidates = many.iter().take(LISTED).map(|(_, l)| l.clone()).collect();
                if many.len() > LISTED {
                    self.candidates
                        .push(format!("… {} more", many.len() - LISTED));
                }
                let first = &many[0].0;
                let shared = first
                    .char_indices()
                    .map(|(i, c)| i + c.len_utf8())
                    .take_while(|&l| many.iter().all(|(c, _)| c.get(..l) == first.get(..l)))
                    .last()
                    .unwrap_or(0);
                (shared > word.len()).then(|| format!("{head}{}", &first[..shared]))
            }
        }
    }
}

/// The text before the word being typed, and the word.
fn last_word(text: &str) -> (&str, &str) {
    let at = text
        .rfind(|c: char| c.is_whitespace() || c == '(' || c == '!')
        .map_or(0, |i| i + 1);
    (&text[..at], &text[at..])
}

/// (completion, how the list shows it).
type Cands = Vec<(String, String)>;

fn filter_words(doc: &Doc, word: &str) -> Cands {
    let lower = word.to_ascii_lowercase();
    let pick = |all: Vec<String>| -> Cands {
        all.into_iter()
            .filter(|c| c.to_ascii_lowercase().starts_with(&lower))
            .map(|c| (c.clone(), c))
            .collect()
    };
    if lower.starts_with("kind:") {
        let mut kinds: Vec<String> = doc.kinds().iter().map(|k| format!("kind:{k}")).collect();
        kinds.sort_unstable();
        kinds.dedup();
        return pick(kinds);
    }
    if lower.starts_with("rule:") {
        return pick(
            crate::rules::catalogue::RuleId::ALL
                .iter()
                .map(|r| format!("rule:{}", r.as_str()))
                .collect(),
        );
    }
    if lower.starts_with("sev:") {
        return pick(
            ["chat", "note", "warning", "error"]
                .iter()
                .map(|s| format!("sev:{s}"))
                .collect(),
        );
    }
    if let Some(rest) = lower.strip_prefix("session:") {
        // By number or by the engine's name: the completion is the number either way.
        return doc
            .decoder()
            .sessions()
            .enumerate()
            .filter_map(|(i, s)| {
                let n = (i + 1).to_string();
                let name = s
                    .engine_name
                    .as_deref()
                    .or(s.label.as_deref())
                    .unwrap_or("");
                let p = s.protocol.map_or("?", |p| p.name());
                (n.starts_with(rest) || name.to_ascii_lowercase().starts_with(rest)).then(|| {
                    (
                        format!("session:{n}"),
                        format!("session:{n} {p} {}", visible(name)),
                    )
                })
            })
            .collect();
    }
    pick(
        [
            "gui", "engine", "stderr", "proxy", "open", "kind:", "rule:", "sev:", "session:",
            "lat>", "re:", "or", "not",
        ]
        .iter()
        .map(|s| (*s).to_owned())
        .collect(),
    )
}

fn command_words<'t>(doc: &Doc, text: &'t str) -> (&'t str, &'t str, Cands) {
    let Some((name, _)) = text.split_once(char::is_whitespace) else {
        let names = App::command_names(text);
        return (
            "",
            text,
            names.into_iter().map(|n| (n.clone(), n)).collect(),
        );
    };
    let (head, word) = last_word(text);
    let cands = match name {
        "filter" => filter_words(doc, word),
        "write" | "w" if !["line", "marked", "shown"].contains(&word) => paths(word),
        _ => Vec::new(),
    };
    (head, word, cands)
}

/// Files and directories that start with `word` (a directory gets its `/`).
fn paths(word: &str) -> Cands {
    let (dir, stem) = match word.rfind('/') {
        Some(i) => (&word[..=i], &word[i + 1..]),
        None => ("", word),
    };
    let Ok(entries) = std::fs::read_dir(if dir.is_empty() { "." } else { dir }) else {
        return Vec::new();
    };
    let mut out: Cands = entries
        .filter_map(Result::ok)
        .take(10_000)
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            if !name.starts_with(stem) || (stem.is_empty() && name.starts_with('.')) {
                return None;
            }
            let slash = if e.file_type().ok()?.is_dir() {
                "/"
            } else {
                ""
            };
            Some((
                format!("{dir}{name}{slash}"),
                visible(&format!("{name}{slash}")),
            ))
        })
        .collect();
    out.sort_unstable();
    out
}
