//! The CECP (xboard) rules over one line, in the judge's tracker: the feature negotiation,
//! time controls and their units, and what edit, force and ping change about the next lines.

use crate::protocol::cecp;
use crate::protocol::cecp::{FeatureSetting, boolean_feature};
use crate::recording::Event;
use crate::rules::catalogue::RuleId;
use crate::rules::judge::{Out, Tracker};
use crate::session::{Decoder, Session};

#[derive(Debug, Default)]
pub(crate) struct CecpRules {
    /// The current game ended on the board (mate, stalemate...) and no `result` came yet.
    ended_by_rule: Option<String>,
    /// `level`'s base in seconds, for the units of `time`.
    base_seconds: Option<u64>,
    /// A `ping` sent while the engine ponders (its move done, hard on): when.
    ping_while_pondering: Option<(i64, u64)>,
    previous_gui: Option<&'static str>,
    moves_since_new: bool,
    post: Option<bool>,
    /// The game's `level` (`MPS BASE INC`, normalised) and its line as sent.
    last_level: Option<(String, String)>,
    st_set: bool,
    level_set: bool,
    ping_on_move: Option<i64>,
}

/// A pong to a ping sent while pondering later than this is not "immediately".
const PONDER_PONG_MS: u64 = 500;

/// A move in the other notation than the `san` feature asks for: coordinates
/// (`e2e4`, `e7e8q`) when SAN is expected, or an unmistakable SAN move (`Nf3`, `O-O`, `exd5`,
/// `e4`) when coordinates are.
fn san_mismatch(mv: &str, san: bool) -> bool {
    let b = mv.as_bytes();
    let sq = |f: u8, r: u8| (b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r);
    // A drop (`N@f5`, crazyhouse and bughouse) is written the same way in coordinate notation
    // and in SAN (the xboard text, section 8: "P@h3"): right whatever `san` says.
    if let [p, b'@', f, r] = b
        && b"PNBRQKpnbrqk".contains(p)
        && sq(*f, *r)
    {
        return false;
    }
    let coordinate = matches!(b.len(), 4 | 5) && sq(b[0], b[1]) && sq(b[2], b[3]);
    let san_shaped = mv.starts_with("O-O")
        || (b.len() == 2 && sq(b[0], b[1]))
        || (b.len() >= 3 && b"KQRBN".contains(&b[0]) && !coordinate)
        || (b.len() >= 4 && b[1] == b'x' && (b'a'..=b'h').contains(&b[0]));
    if san { coordinate } else { san_shaped }
}

impl CecpRules {
    /// The game ended off the board (a loss on time): the GUI owes a `result`.
    pub(crate) fn game_ended(&mut self, how: &str) {
        self.ended_by_rule = Some(how.to_owned());
    }

    /// The game's end by rule, if no result followed it yet.
    pub(crate) fn take_ended_by_rule(&mut self) -> Option<String> {
        self.ended_by_rule.take()
    }
}

impl Tracker {
    /// One CECP line: where it comes in the session, then the rules of its kind, one method
    /// each for the kinds with more than a flag to set. The guards stay in this match, since
    /// their order decides (inside `edit` a move is a placement; a `new` after a game that
    /// ended without a result is judged as that first).
    pub(crate) fn cecp_line(
        &mut self,
        m: &cecp::Msg,
        ev: &Event,
        dec: &Decoder,
        session: usize,
        owed_move: usize,
        out: &mut Out<'_>,
    ) {
        use cecp::Msg as M;
        let sess = dec.session(session);
        self.note_ended_by_rule(m, sess);
        if ev.src == crate::recording::Source::Gui && !matches!(m, M::Unknown(_)) {
            self.cecp_gui_order(m, ev, sess, out);
        }
        let time_off = sess.and_then(|s| s.feature_flag("time")) == Some(false);
        match m {
            M::Ping(n) => self.cecp_ping(n, ev, dec, session, owed_move, out),
            M::Result { .. } => self.cecp.ended_by_rule = None,
            M::New | M::Quit if self.cecp.ended_by_rule.is_some() => {
                self.cecp_result_missing(m, ev, out)
            }
            M::Edit => self.cecp.moves_since_new = true,
            // Inside `edit` mode (the session's), `Ke1` is a placement, not a move.
            M::Dot => {}
            _ if sess.is_some_and(|s| s.modes.edit) => {}
            M::UserMove(mv) | M::Move(mv) => self.cecp_move_form(m, mv, sess, out),
            M::Time(t) => self.cecp_time(t, time_off, out),
            M::Otim(_) if time_off && self.first(RuleId::CecpTimeWithoutFeature) => {
                out.add(
                    RuleId::CecpTimeWithoutFeature,
                    "time/otim although the engine set feature time=0",
                );
            }
            M::SetBoard(_) => {
                let setboard = sess.and_then(|s| s.feature_flag("setboard"));
                if setboard != Some(true) && self.first(RuleId::CecpSetboardWithoutFeature) {
                    out.add(
                        RuleId::CecpSetboardWithoutFeature,
                        "setboard although the engine did not set feature setboard=1",
                    );
                }
                self.cecp.moves_since_new = true;
            }
            M::New => {
                self.cecp.moves_since_new = false;
                self.cecp.last_level = None;
                // A GUI sets each game's time control after `new`: `st` in one game and
                // `level` in the next replace each other, they are not both active.
                self.cecp.st_set = false;
                self.cecp.level_set = false;
            }
            M::Variant(v) if self.cecp.moves_since_new => {
                out.add(
                    RuleId::CecpVariantOrder,
                    format!("variant {v} after the game's first move, edit or setboard"),
                );
            }
            M::Undo if !sess.is_some_and(|s| s.modes.force) => {
                out.add(
                    RuleId::CecpUndoWithoutForce,
                    "undo while the engine is not in force mode",
                );
            }
            M::Remove if owed_move > 0 => {
                out.add(
                    RuleId::CecpRemoveEngineOnMove,
                    "remove while the engine is on move",
                );
            }
            M::Go if owed_move > 1 => {
                out.add(
                    RuleId::CecpGoWhileThinking,
                    "go while the engine is already thinking on its move",
                );
            }
            M::Level(l) => self.cecp_level(l, ev, out),
            M::St(s) => self.cecp_st(s, out),
            M::Post => self.cecp.post = Some(true),
            M::NoPost => self.cecp.post = Some(false),
            M::Quit => self.quit = Some(out.place),
            M::Feature(list) => self.cecp_features(list, ev, sess, out),
            M::Thinking(_)
                if self.cecp.post == Some(false) && self.first(RuleId::CecpThinkingWithoutPost) =>
            {
                out.add(
                    RuleId::CecpThinkingWithoutPost,
                    "thinking output after nopost (reported once)",
                );
            }
            M::Pong(n) => self.cecp_pong(n, ev, owed_move, out),
            M::EngineMove(_) => self.cecp.ping_on_move = None,
            _ => {}
        }
    }

    /// A move after the game ended on the board (mate, stalemate...): the GUI owes a `result`.
    fn note_ended_by_rule(&mut self, m: &cecp::Msg, sess: Option<&Session>) {
        use cecp::Msg as M;
        if matches!(m, M::UserMove(_) | M::Move(_) | M::EngineMove(_))
            && let Some(o) = sess
                .and_then(|s| s.games.last())
                .and_then(|g| g.outcome.as_ref())
            && matches!(
                o.reason.as_str(),
                "checkmate" | "stalemate" | "insufficientmaterial" | "variantend" | "bareking"
            )
        {
            self.cecp.ended_by_rule = Some(o.reason.clone());
        }
    }

    /// A GUI move in the form the engine's features ask for: SAN or coordinates (`san`), and
    /// `usermove MOVE` or the bare move (`usermove`). Before any feature, any form goes.
    fn cecp_move_form(
        &mut self,
        m: &cecp::Msg,
        mv: &str,
        sess: Option<&Session>,
        out: &mut Out<'_>,
    ) {
        if sess.is_none_or(|s| s.features.is_empty()) {
            self.cecp.moves_since_new = true;
            return;
        }
        let flag = |name: &str| sess.and_then(|s| s.feature_flag(name));
        let san = flag("san") == Some(true);
        if san_mismatch(mv, san) && self.first(RuleId::CecpSanFeature) {
            let want = if san {
                "SAN (the engine set san=1)"
            } else {
                "coordinates (the engine did not set san=1)"
            };
            out.add(
                RuleId::CecpSanFeature,
                format!("move `{mv}` should be in {want}"),
            );
            return;
        }
        let usermove = flag("usermove") == Some(true);
        let sent_usermove = matches!(m, cecp::Msg::UserMove(_));
        if sent_usermove != usermove && self.first(RuleId::CecpUsermoveFormat) {
            out.add(
                RuleId::CecpUsermoveFormat,
                if sent_usermove {
                    "usermove MOVE although the engine did not set feature usermove=1"
                } else {
                    "a bare move although the engine set feature usermove=1"
                },
            );
        }
        self.cecp.moves_since_new = true;
    }

    /// A GUI command where it comes: first, after `xboard`, before the engine's features.
    fn cecp_gui_order(
        &mut self,
        m: &cecp::Msg,
        ev: &Event,
        sess: Option<&Session>,
        out: &mut Out<'_>,
    ) {
        use cecp::Msg as M;
        self.gui_protocol_lines += 1;
        if self.gui_protocol_lines == 1 && !matches!(m, M::Xboard) && self.at_start() {
            out.add(
                RuleId::CecpXboardFirst,
                format!(
                    "the GUI's first command is `{}`, not `xboard`",
                    ev.text.trim()
                ),
            );
        }
        if let M::Protover(v) = m
            && *v >= 2
            && self.cecp.previous_gui != Some("xboard")
            && self.at_start()
        {
            out.add(
                RuleId::CecpProtoverAfterXboard,
                "protover does not follow xboard",
            );
        }
        let game_command = matches!(
            m,
            M::New | M::Level(_) | M::St(_) | M::Go | M::UserMove(_) | M::Move(_) | M::SetBoard(_)
        );
        if let M::Protover(v) = m
            && *v >= 2
        {
            self.protover2 = Some(ev.t);
        }
        // v2 GUIs wait for `feature done=1`, at most 2 s (an hour after done=0); v1 GUIs
        // never hear of it.
        let waiting = self.protover2.is_some_and(|t| {
            let limit = if self.done0 {
                3_600_000_000_000
            } else {
                2_000_000_000
            };
            ev.t.saturating_sub(t) < limit
        });
        let done = sess.is_some_and(|s| s.features_done_before(ev.seq));
        if game_command && !done && waiting {
            let rule = if self.done0 {
                RuleId::CecpDone0Honoured
            } else {
                RuleId::CecpCommandBeforeFeatures
            };
            if self.first(rule) {
                out.add(
                    rule,
                    format!("`{}` before the engine sent feature done=1", ev.text.trim()),
                );
            }
        }
        self.cecp.previous_gui = Some(m.kind());
    }

    /// `ping`: allowed by the features, and what its `pong` must come after or at once.
    fn cecp_ping(
        &mut self,
        n: &i64,
        ev: &Event,
        dec: &Decoder,
        session: usize,
        owed_move: usize,
        out: &mut Out<'_>,
    ) {
        if dec.session(session).and_then(|s| s.feature_flag("ping")) != Some(true)
            && self.first(RuleId::CecpPingNotEnabled)
        {
            out.add(
                RuleId::CecpPingNotEnabled,
                "ping although the engine did not set feature ping=1",
            );
        }
        if owed_move > 0 {
            self.cecp.ping_on_move = Some(*n);
        } else if dec.session(session).is_some_and(|s| s.modes.ponder) {
            self.cecp.ping_while_pondering = Some((*n, ev.t));
        }
    }

    /// `new` or `quit` after a game that ended on the board without a `result`.
    fn cecp_result_missing(&mut self, m: &cecp::Msg, ev: &Event, out: &mut Out<'_>) {
        use cecp::Msg as M;
        let how = self.cecp.ended_by_rule.take().unwrap_or_default();
        out.add(
            RuleId::CecpResultMissing,
            format!(
                "the game ended ({how}) and the GUI sent no result before `{}`",
                ev.text.trim()
            ),
        );
        if matches!(m, M::New) {
            self.cecp.moves_since_new = false;
            self.cecp.last_level = None;
        } else {
            self.quit = Some(out.place);
        }
    }

    /// `time`: its units against the game's `level`, and the `time` feature.
    fn cecp_time(&mut self, t: &i64, time_off: bool, out: &mut Out<'_>) {
        self.cecp_time_cs = Some(*t);
        // `time` counts centiseconds: milliseconds are ten times the whole clock,
        // seconds a few units for a game of minutes.
        if let Some(base) = self.cecp.base_seconds.filter(|b| *b >= 60) {
            let base_cs = i64::try_from(base).unwrap_or(i64::MAX).saturating_mul(100);
            let wrong = if *t > base_cs.saturating_mul(5) {
                Some("milliseconds?")
            } else if (0..=10).contains(t) && self.cecp.moves_since_new {
                None
            } else if (0..=10).contains(t) {
                Some("seconds?")
            } else {
                None
            };
            if let Some(w) = wrong
                && self.first(RuleId::CecpTimeUnits)
            {
                out.add(
                    RuleId::CecpTimeUnits,
                    format!("time {t} for a {base} s game: time counts centiseconds ({w})"),
                );
            }
        }
        if time_off && self.first(RuleId::CecpTimeWithoutFeature) {
            out.add(
                RuleId::CecpTimeWithoutFeature,
                "time/otim although the engine set feature time=0",
            );
        }
    }

    /// `level`: against `st`, and sent again within one game.
    fn cecp_level(&mut self, l: &cecp::Level, ev: &Event, out: &mut Out<'_>) {
        self.cecp.base_seconds = Some(l.base_seconds);
        let text = format!("{} {} {}", l.mps, l.base_seconds, l.inc_ms);
        let sent = ev.text.trim().to_owned();
        if self.cecp.st_set && self.first(RuleId::CecpTcSemantics) {
            out.add(
                RuleId::CecpTcSemantics,
                "level after st: the two time controls exclude each other",
            );
        }
        // `level 0 0:30 0` once in a game is a whole-game clock (xboard -tc 0:30,
        // python-chess): right. Re-sent or replaced within the same game, it was
        // used as a limit for one move, which is what st is for.
        match self.cecp.last_level.clone() {
            Some((before, before_sent))
                if before.starts_with("0 ")
                    && before.ends_with(" 0")
                    && self.first(RuleId::CecpTcSemantics) =>
            {
                out.add(
                    RuleId::CecpTcSemantics,
                    format!(
                        "`{sent}` after `{before_sent}` within one game: a `level 0 BASE 0` \
                         is the whole game's clock, and sent again between moves it was \
                         used as a per-move limit (st is the command for that)"
                    ),
                );
            }
            Some((before, _)) if before == text && self.first(RuleId::CecpLevelEveryMove) => {
                out.add(
                    RuleId::CecpLevelEveryMove,
                    "level sent again within the game, unchanged (reported once)",
                );
            }
            _ => {}
        }
        self.cecp.last_level = Some((text, sent));
        self.cecp.level_set = true;
        // "erasing each other's effect": the move's limit is the clock's again.
        self.cecp_st = None;
    }

    /// `st`: its units, and against `level`.
    fn cecp_st(&mut self, s: &u64, out: &mut Out<'_>) {
        self.cecp_st = Some(*s);
        if *s >= 1000 {
            out.add(
                RuleId::CecpStUnits,
                format!("st {s}: st counts seconds, this is over 16 minutes a move"),
            );
        }
        if self.cecp.level_set && self.first(RuleId::CecpTcSemantics) {
            out.add(
                RuleId::CecpTcSemantics,
                "st after level: the two time controls exclude each other",
            );
        }
        self.cecp.st_set = true;
    }

    /// `feature`: its syntax, and where it comes in the handshake. What the engine declared
    /// before is the session's (the decoder keeps the features); a line's own features count
    /// in their order.
    fn cecp_features(
        &mut self,
        list: &[cecp::Feature],
        ev: &Event,
        sess: Option<&Session>,
        out: &mut Out<'_>,
    ) {
        let mut done = sess.is_some_and(|s| s.features_done_before(ev.seq));
        let mut ping = sess
            .and_then(|s| {
                s.features
                    .iter()
                    .rev()
                    .find(|f| f.name == "ping" && f.at.seq < ev.seq)
            })
            .is_some_and(|f| f.value == FeatureSetting::Flag(true) && f.accepted != Some(false));
        for f in list {
            let value = f.setting();
            if matches!(value, FeatureSetting::Malformed(_))
                && (boolean_feature(&f.name) || f.name == "done")
            {
                out.add(
                    RuleId::CecpFeatureSyntax,
                    format!("feature {}={value}: a boolean feature is 0 or 1", f.name),
                );
            }
            if done && f.name != "option" && f.name != "done" {
                out.add(
                    RuleId::CecpFeatureAfterDone,
                    format!("feature {} after done=1", f.name),
                );
            }
            match (f.name.as_str(), value) {
                ("ping", v) => ping = v == FeatureSetting::Flag(true),
                ("done", FeatureSetting::Number(0)) => self.done0 = true,
                ("done", FeatureSetting::Number(1)) => {
                    done = true;
                    if !ping {
                        out.add(
                            RuleId::CecpPingNotDeclared,
                            "feature done=1 without ping=1: the GUI cannot synchronise with the engine",
                        );
                    }
                }
                _ => {}
            }
        }
    }

    /// `pong`: late while pondering, or before the move a ping on move waited for.
    fn cecp_pong(&mut self, n: &i64, ev: &Event, owed_move: usize, out: &mut Out<'_>) {
        if let Some((p, t)) = self.cecp.ping_while_pondering.take()
            && p == *n
            && ev.t.saturating_sub(t) > PONDER_PONG_MS * 1_000_000
            && self.first(RuleId::CecpPongWhilePonderingDelayed)
        {
            out.add(
                RuleId::CecpPongWhilePonderingDelayed,
                format!(
                    "pong {n} {} ms after the ping, while pondering: it should come at once (reported once)",
                    ev.t.saturating_sub(t) / 1_000_000
                ),
            );
        }
        let pinged_on_move = self.cecp.ping_on_move.take() == Some(*n);
        if pinged_on_move && owed_move > 0 {
            out.add(
                RuleId::CecpPongBeforeMove,
                format!("pong {n} while the engine still owes its move: the move must come first"),
            );
        }
    }

    /// CECP rules decided once the session's input is over.
    pub(super) fn cecp_session_end(&mut self, s: &Session, out: &mut Out<'_>) {
        if self.protocol == Some(crate::protocol::Protocol::Cecp) && self.protover2.is_some() {
            let mut unanswered: Vec<(&str, usize)> = Vec::new();
            for f in s
                .features
                .iter()
                .filter(|f| f.accepted.is_none() && f.name != "done")
            {
                match unanswered.iter_mut().find(|(n, _)| *n == f.name) {
                    Some((_, k)) => *k += 1,
                    None => unanswered.push((f.name.as_str(), 1)),
                }
            }
            let unanswered: Vec<String> = unanswered
                .into_iter()
                .map(|(n, k)| {
                    if k > 1 {
                        format!("{n} (x{k})")
                    } else {
                        n.to_owned()
                    }
                })
                .collect();
            if !unanswered.is_empty() {
                out.side = None;
                out.add(
                    RuleId::CecpFeatureNotAcked,
                    format!(
                        "the GUI answered neither accepted nor rejected to feature {}",
                        unanswered.join(", ")
                    ),
                );
            }
        }
    }
}
