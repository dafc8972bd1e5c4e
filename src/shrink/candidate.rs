//! A candidate session: which steps of the original's script it keeps, and the lines it sends
//! in another form (a move list cut to a FEN, a lower search limit). Its script is the
//! original's with the same sync points, so it is paced as `replay` paces the original.

use crate::replay::script::Script;

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Candidate {
    pub keep: Vec<bool>,
    /// A step's line replaced (without its terminator).
    pub edits: Vec<Option<String>>,
}

impl Candidate {
    /// Every step of `base`, unchanged.
    pub fn whole(base: &Script) -> Candidate {
        Candidate {
            keep: vec![true; base.steps.len()],
            edits: vec![None; base.steps.len()],
        }
    }

    /// The lines it sends (the close of the input not counted); a step rewritten into several
    /// lines (CECP `edit` mode) counts each.
    pub fn lines(&self, base: &Script) -> usize {
        (0..base.steps.len())
            .filter(|&i| self.keep[i] && base.steps[i].send.is_some())
            .map(|i| self.text(base, i).lines().count().max(1))
            .sum()
    }

    /// Without the steps in `drop`.
    pub fn without(&self, drop: impl IntoIterator<Item = usize>) -> Candidate {
        let mut c = self.clone();
        for i in drop {
            if let Some(k) = c.keep.get_mut(i) {
                *k = false;
            }
        }
        c
    }

    /// With step `i` sending `text` instead.
    pub fn edited(&self, i: usize, text: String) -> Candidate {
        let mut c = self.clone();
        if let Some(e) = c.edits.get_mut(i) {
            *e = Some(text);
        }
        c
    }

    /// The line step `i` sends in this candidate.
    pub fn text<'a>(&'a self, base: &'a Script, i: usize) -> &'a str {
        match self.edits.get(i) {
            Some(Some(t)) => t,
            _ => base.steps.get(i).map_or("", |s| s.text.as_str()),
        }
    }

    /// The script to run: `base`'s kept steps, edited lines with the original's line ending
    /// (each line of a step rewritten into several).
    pub fn script(&self, base: &Script) -> Script {
        let mut s = base.clone();
        for (step, edit) in s.steps.iter_mut().zip(&self.edits) {
            let (Some(text), Some(bytes)) = (edit, &step.send) else {
                continue;
            };
            let eol: &[u8] = if bytes.ends_with(b"\r\n") {
                b"\r\n"
            } else if bytes.ends_with(b"\n") {
                b"\n"
            } else {
                b""
            };
            let mut new = Vec::new();
            for line in text.lines() {
                new.extend_from_slice(line.as_bytes());
                new.extend_from_slice(if eol.is_empty() { b"\n" } else { eol });
            }
            if eol.is_empty() {
                new.pop();
            }
            step.send = Some(new);
            step.text = text.clone();
        }
        s.retain(self.keep.clone());
        s
    }

    /// The GUI's lines, as a plain script (`ENGINE < repro.txt`).
    pub fn plain(&self, base: &Script) -> String {
        let mut out = String::new();
        for (i, s) in base.steps.iter().enumerate() {
            if self.keep.get(i).copied().unwrap_or(false) && s.send.is_some() {
                out.push_str(self.text(base, i));
                out.push('\n');
            }
        }
        out
    }
}
