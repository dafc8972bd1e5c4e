//! A search's engine lines as compared: its reports and its answer, with what depends on the
//! clock or the machine masked.

use crate::session::Line;

/// UCI `info` fields that depend on timing or the machine, not on the search.
const VOLATILE: [&str; 9] = [
    "time",
    "nps",
    "hashfull",
    "tbhits",
    "sbhits",
    "cpuload",
    "currmove",
    "currmovenumber",
    "currline",
];

/// An engine line of a search as compared: its reports and its answer, volatile fields
/// masked; `None` for anything else. Other lines (CECP `#` debug output with its clock, NBoard
/// `status`, `Illegal move` or `Error` answers to the GUI's previous line) are left out: they
/// are not the search's, and where they fall against the GUI's lines is a matter of timing.
/// What they say about the protocol is compared through the findings.
pub fn masked(line: &Line) -> Option<String> {
    let kind = line.msg.as_ref().map(|m| m.kind());
    let text = line.text.trim();
    match kind {
        Some("info") => mask_info(text),
        Some("thinking") => {
            // `ply score time nodes pv`: the time is the clock's.
            let mut t: Vec<&str> = text.split_whitespace().collect();
            if t.len() >= 3 {
                t[2] = "*";
            }
            Some(t.join(" "))
        }
        Some("bestmove" | "move" | "search" | "===" | "book" | "continuation") => {
            Some(text.split_whitespace().collect::<Vec<_>>().join(" "))
        }
        _ => None,
    }
}

fn mask_info(text: &str) -> Option<String> {
    let mut out: Vec<&str> = Vec::new();
    let mut skip = false;
    let mut toks = text.split_whitespace();
    let mut substantive = false;
    while let Some(t) = toks.next() {
        if t == "string" {
            out.push(t);
            out.extend(toks.by_ref());
            substantive = true;
            break;
        }
        // The protocol's own keyword list: a second list would drift from the parser's.
        if crate::protocol::INFO_KEYWORDS.contains(&t) || t == "info" {
            skip = VOLATILE.contains(&t);
            substantive |= matches!(t, "score" | "pv" | "refutation");
        }
        if !skip {
            out.push(t);
        }
    }
    substantive.then(|| out.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn volatile_info_fields_are_masked_and_empty_lines_dropped() {
        assert_eq!(
            mask_info("info depth 5 seldepth 7 time 120 nodes 3000 nps 25000 hashfull 3 tbhits 0 score cp 20 pv e2e4 e7e5").as_deref(),
            Some("info depth 5 seldepth 7 nodes 3000 score cp 20 pv e2e4 e7e5")
        );
        assert_eq!(
            mask_info("info depth 5 currmove e2e4 currmovenumber 1 time 3000"),
            None
        );
        assert_eq!(mask_info("info nps 100000 hashfull 10"), None);
        // `wdl` is a keyword of its own, not part of a masked field before it.
        assert_eq!(
            mask_info("info depth 3 hashfull 0 wdl 1 998 1 score cp 5").as_deref(),
            Some("info depth 3 wdl 1 998 1 score cp 5")
        );
        assert_eq!(
            mask_info("info string NNUE enabled time 5").as_deref(),
            Some("info string NNUE enabled time 5")
        );
    }
}
