//! PyChess logs have no direction markers: engine traffic is interleaved with PyChess's own
//! dumps. Direction comes from the vocabulary: a line whose first word only a GUI sends is
//! `gui`; after the first GUI protocol line, every other line is taken as engine output
//! (engines print free text such as Xiphos' `threads=1`). Before that, and inside
//! `board=...)>` dumps or PyChess's own `Name.method(): ...` lines, lines are notes.

use super::Parser;
use crate::import::builder::Builder;
use crate::import::lines::find;
use crate::import::vocab::{Side, side_of};
use crate::recording::{ProxyKind, Source};

#[derive(Default)]
pub struct Pychess {
    started: bool,
    in_dump: bool,
}

/// PyChess's own diagnostic lines (`SubProcess.start(): ...`, `setOptionInitialBoard: ...`).
pub fn is_internal(line: &[u8]) -> bool {
    let head = line.split(|&c| c == b' ').next().unwrap_or(line);
    (head.ends_with(b":") && head.len() > 1 && !head.contains(&b'='))
        || find(head, b"().").is_some()
        || find(head, b"():").is_some()
        || line.starts_with(b"/")
        || find(line, b"GameModel at").is_some()
}

impl Parser for Pychess {
    fn line(&mut self, line: &[u8], b: &mut Builder) {
        let t = b.t(None);
        let sid = b.session("engine");
        if self.in_dump {
            if line.ends_with(b")>") {
                self.in_dump = false;
            }
            b.proxy(sid, ProxyKind::Note, t, line);
            return;
        }
        if line.starts_with(b"board=") {
            self.in_dump = !line.ends_with(b")>");
            b.proxy(sid, ProxyKind::Note, t, line);
            return;
        }
        let side = std::str::from_utf8(line).ok().and_then(side_of);
        if side == Some(Side::Gui) {
            self.started = true;
            b.traffic(sid, Source::Gui, t, line);
        } else if is_internal(line) || !self.started && side.is_none() {
            b.proxy(sid, ProxyKind::Note, t, line);
        } else {
            b.traffic(sid, Source::Engine, t, line);
        }
    }
}
