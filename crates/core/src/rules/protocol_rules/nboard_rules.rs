//! The NBoard rules over one line, in the judge's tracker: the setup a search needs, and
//! which of the engine's answers a ping after a position change makes stale.

use crate::protocol::nboard;
use crate::recording::Event;
use crate::rules::catalogue::RuleId;
use crate::rules::judge::{Out, Tracker};

#[derive(Debug, Default)]
pub(crate) struct NboardRules {
    depth_set: bool,
    game_set: bool,
    /// The GUI changed the position (`set game`, a move) since its last ping.
    moved_since_ping: bool,
    /// A ping sent after a position change, not answered yet: (n, when).
    sync_ping: Option<(i64, u64)>,
    /// When the engine answered such a ping: its later output is for the new position only.
    synced_at: Option<u64>,
    /// A `===` that came while that ping was unanswered: stale for the GUI to play.
    stale_move: Option<String>,
    /// When the GUI last asked for output (`go`, `hint`, `learn`, `analyze`).
    request_t: Option<u64>,
}

impl Tracker {
    pub(crate) fn nboard_line(&mut self, m: &nboard::Msg, ev: &Event, out: &mut Out<'_>) {
        use nboard::Msg as M;
        let from_gui = ev.src == crate::recording::Source::Gui;
        if from_gui && !matches!(m, M::Unknown(_) | M::Empty) {
            self.gui_protocol_lines += 1;
            if self.gui_protocol_lines == 1 && !matches!(m, M::Nboard(_)) && self.at_start() {
                out.add(
                    RuleId::NboardFirstCommand,
                    format!(
                        "the GUI's first command is `{}`, not `nboard`",
                        ev.text.trim()
                    ),
                );
            }
        }
        if !from_gui
            && let M::Unknown(text) = m
            && self.gui_protocol_lines <= 2
        {
            self.nboard_version_complaint(text, out);
        }
        let nb = &mut self.nboard;
        match m {
            M::SetGame(_) | M::Move(_) | M::BareMove(_) => {
                nb.moved_since_ping = true;
                nb.synced_at = None;
                // A new game: an old position's `===` is no longer the GUI's to play.
                if matches!(m, M::SetGame(_)) {
                    nb.stale_move = None;
                }
            }
            M::Ping(n) if nb.moved_since_ping => {
                nb.sync_ping = Some((*n, ev.t));
                nb.moved_since_ping = false;
            }
            M::Pong(n) if nb.sync_ping.is_some_and(|(p, _)| p == *n) => {
                nb.synced_at = nb.sync_ping.take().map(|(_, t)| t);
            }
            M::BestMove(me) if nb.sync_ping.is_some() => {
                nb.stale_move = Some(me.mv.to_ascii_uppercase());
            }
            // An answer after the fence supersedes one that came before it.
            M::BestMove(_) => nb.stale_move = None,
            // `learn` and `analyze` ask for output too (NTest's learning prints `search`
            // lines): what follows them is for the position they were sent in.
            M::Go | M::Hint(_) | M::Learn | M::Analyze => nb.request_t = Some(ev.t),
            _ => {}
        }
        // After the pong that follows a position change, answers to earlier requests are stale.
        if let Some(ping_t) = self.nboard.synced_at
            && !from_gui
            && matches!(m, M::BestMove(_) | M::Search(_) | M::Book(_))
            && self.nboard.request_t.is_some_and(|r| r < ping_t)
        {
            out.add(
                RuleId::NboardOutputAfterPong,
                format!(
                    "`{}` after pong, for the position before the ping",
                    ev.text.trim()
                ),
            );
        }
        if from_gui && let M::Move(me) = m {
            let played = me.mv.to_ascii_uppercase();
            if self.nboard.stale_move.take().is_some_and(|s| s == played) {
                out.add(
                    RuleId::NboardStaleResult,
                    format!(
                        "the GUI plays {played}, an === that came while its ping was unanswered"
                    ),
                );
            }
        }
        match m {
            M::SetDepth(_) => self.nboard.depth_set = true,
            M::SetGame(_) => self.nboard.game_set = true,
            M::Go | M::Hint(_) if !(self.nboard.depth_set && self.nboard.game_set) => {
                out.add(
                    RuleId::NboardGoWithoutSetup,
                    format!("`{}` before both set depth and set game", ev.text.trim()),
                );
            }
            M::Search(l) | M::Book(l) if l.pv.contains(char::is_whitespace) => {
                out.add(
                    RuleId::NboardHintPvFormat,
                    format!("pv `{}` contains whitespace", l.pv),
                );
            }
            M::Quit => self.quit = Some(out.place),
            _ => {}
        }
    }

    /// An engine line (stdout or stderr) refusing the `nboard` version.
    pub(crate) fn nboard_version_complaint(&mut self, text: &str, out: &mut Out<'_>) {
        let t = text.to_ascii_lowercase();
        if (t.contains("nboard") || t.contains("version"))
            && (t.contains("error") || t.contains("expected") || t.contains("unsupported"))
            && self.first(RuleId::NboardVersion)
        {
            out.add(
                RuleId::NboardVersion,
                format!("the engine rejects the protocol version: {}", text.trim()),
            );
        }
    }
}
