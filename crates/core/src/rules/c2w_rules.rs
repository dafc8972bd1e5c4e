//! The `C2W-` rules: a CECP session held to the Chess Academy `.c2w` profile the GUI drove the
//! engine with (`check --c2w`). The GUI must use only the commands and forms the profile
//! declares; the engine must not refuse what the profile says it supports.
//!
//! Profiles name commands CECP does not have (`EngineCmdSD=depth`, `EngineCmdSB=fen\n` with
//! the FEN one element a line): such lines are the profile's, so [`C2wState::gui_line`] says
//! when a line belongs to a declared command and the judge then drops the decoder's "unknown
//! command" for it.

use super::judge::Out;
use crate::protocol::c2w::{
    C2wKey, EngineProfile, HashCmdType, HashPlace, HashSizeForm, InitPosition,
};
use crate::protocol::cecp::Msg as M;
use crate::rules::catalogue::RuleId;

/// What the rules keep per session.
#[derive(Debug, Default)]
pub(crate) struct C2wState {
    /// Inside the `\n` form of the FEN command: how many elements came.
    fen_elements: Option<usize>,
    /// The `\n` form of the hash command: its value is due on the next line.
    hash_value_due: bool,
    /// The declared hint command, sent and not answered by `Hint:` yet.
    hint_pending: Option<(super::finding::Place, String)>,
}

const ELEMENTS: [&str; 4] = [
    "board",
    "side to move",
    "castling rights",
    "en-passant square",
];

fn element_ok(i: usize, s: &str) -> bool {
    match i {
        0 => {
            s.split('/').count() == 8
                && s.bytes()
                    .all(|b| b == b'/' || b"12345678pnbrqkPNBRQK".contains(&b))
        }
        1 => s == "w" || s == "b",
        2 => s == "-" || (!s.is_empty() && s.bytes().all(|b| b"KQkq".contains(&b))),
        _ => {
            s == "-"
                || (s.len() == 2
                    && (b'a'..=b'h').contains(&s.as_bytes()[0])
                    && (s.as_bytes()[1] == b'3' || s.as_bytes()[1] == b'6'))
        }
    }
}

fn first_word(text: &str) -> &str {
    text.split_ascii_whitespace().next().unwrap_or("")
}

fn digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// A GUI line as the rules read it: trimmed, its first word, and the words after it.
struct GuiWords<'t> {
    text: &'t str,
    word: &'t str,
    args: Vec<&'t str>,
}

impl<'t> GuiWords<'t> {
    fn of(text: &'t str) -> GuiWords<'t> {
        let text = text.trim();
        GuiWords {
            text,
            word: first_word(text),
            args: text.split_ascii_whitespace().skip(1).collect(),
        }
    }
}

/// Seconds per move and depth: the profile's word, or none at all. True when the line is
/// the profile's command.
fn search_limit_command(p: &EngineProfile, line: &GuiWords<'_>, out: &mut Out<'_>) -> bool {
    let (text, word, args) = (line.text, line.word, &line.args);
    let mut declared = false;
    for (std, key_name, cmd, what) in [
        ("st", C2wKey::CmdST, &p.st_cmd, "seconds-per-move"),
        ("sd", C2wKey::CmdSD, &p.sd_cmd, "search-depth"),
    ] {
        let rule = if std == "st" {
            RuleId::C2wStCommand
        } else {
            RuleId::C2wSdCommand
        };
        match cmd.as_deref() {
            Some(w) if w == word => {
                declared = true;
                if args.len() != 1 || !digits(args[0]) {
                    out.add(
                        rule,
                        format!("`{text}`: {} takes one number", p.quote(key_name, w)),
                    );
                }
            }
            Some(w) if word == std => out.add(
                rule,
                format!(
                    "`{text}`, but the profile's {what} command is `{w}` ({})",
                    p.quote(key_name, w)
                ),
            ),
            None if word == std => out.add(
                rule,
                format!(
                    "`{text}`, but the profile has no {key_name}: the engine has no {what} control"
                ),
            ),
            _ => {}
        }
    }
    declared
}

/// `level`, `time`/`otim` and `?` against what the profile's level type and move-now allow.
fn clock_command(p: &EngineProfile, msg: Option<&M>, line: &GuiWords<'_>, out: &mut Out<'_>) {
    let (text, args) = (line.text, &line.args);
    match msg {
        Some(M::Level(l)) => {
            if let Some(f) = p.level_type {
                let v = f.raw.to_string();
                if f.base_inc_only && (l.mps != 0 || l.inc_ms != 0) {
                    out.add(
                        RuleId::C2wLevelForm,
                        format!(
                            "`{text}`: under {} the only level is `level 0 BASE 0`",
                            p.quote(C2wKey::TypeOfCmdLevel, &v)
                        ),
                    );
                } else if args.get(1).is_some_and(|b| b.contains(':'))
                    && f.level_minutes
                    && !f.level_seconds
                {
                    out.add(
                        RuleId::C2wLevelForm,
                        format!(
                            "`{text}` gives the base in MIN:SEC, but {} has 1 (time without seconds), not 2",
                            p.quote(C2wKey::TypeOfCmdLevel, &v)
                        ),
                    );
                }
            }
        }
        Some(M::Time(_) | M::Otim(_)) => {
            if let Some(f) = p.level_type
                && !f.time_command
            {
                out.add(
                    RuleId::C2wTimeCommand,
                    format!(
                        "`{text}`, but {} lacks 4: the GUI does not send time",
                        p.quote(C2wKey::TypeOfCmdLevel, &f.raw.to_string())
                    ),
                );
            }
        }
        Some(M::MoveNow) if p.move_now != Some(true) => {
            let v = match p.move_now {
                Some(false) => p.quote(C2wKey::MoveNow, "0"),
                _ => format!("the profile has no {}", C2wKey::MoveNow),
            };
            out.add(
                RuleId::C2wMovenowUndeclared,
                format!("`?` (move now), but {v}: the engine cannot be told to move now"),
            );
        }
        _ => {}
    }
}

impl C2wState {
    /// Judges one GUI line; true when it belongs to a command the profile declares (so it is
    /// no unknown command).
    pub(crate) fn gui_line(
        &mut self,
        p: &EngineProfile,
        msg: Option<&M>,
        text: &str,
        out: &mut Out<'_>,
    ) -> bool {
        let line = GuiWords::of(text);
        self.hint_unanswered_by(p, line.text, out);
        if self.value_line(p, line.text, out) {
            return true;
        }

        let fen_word = p.fen_command.as_ref().map(|c| c.word.as_str());
        let setup = match msg {
            Some(M::Edit) => Some("edit"),
            Some(M::SetBoard(_)) => Some("setboard"),
            _ if Some(line.word) == fen_word => Some(line.word),
            _ => None,
        };
        if let Some(how) = setup {
            return self.setup(p, how, line.text, &line.args, out);
        }

        let mut declared = search_limit_command(p, &line, out);
        clock_command(p, msg, &line, out);
        declared |= self.hint_or_draw_command(p, &line, out);
        if let Some(t) = p.hash_cmd_type {
            let cmd_word = p.hash_cmd.as_ref().map(|c| c.word.as_str());
            if Some(line.word) == cmd_word || (cmd_word.is_none() && line.word == "hash") {
                declared = true;
                self.hash(p, t, line.text, &line.args, out);
            }
        }
        declared
    }

    /// The GUI moved on from the declared hint command with no `Hint:` answered.
    fn hint_unanswered_by(&mut self, p: &EngineProfile, text: &str, out: &mut Out<'_>) {
        if let Some((place, sent)) = self.hint_pending.take() {
            out.add_at(
                RuleId::C2wHintSilent,
                place,
                format!(
                    "`{sent}` got no `Hint: MOVE` before the GUI's next command (`{text}`), though {} says the engine gives hints",
                    p.quote(C2wKey::CmdHint, &sent)
                ),
            );
        }
    }

    /// The `\n` forms: the lines after the command word are its value. True when `text` is
    /// such a value line, as due.
    fn value_line(&mut self, p: &EngineProfile, text: &str, out: &mut Out<'_>) -> bool {
        if let Some(n) = self.fen_elements {
            if n < 4 && element_ok(n, text) {
                self.fen_elements = Some(n + 1);
                return true;
            }
            if (4..6).contains(&n) && digits(text) {
                self.fen_elements = Some(n + 1);
                return true;
            }
            self.fen_elements = None;
            if n < 4 {
                let word = p.fen_command.as_ref().map_or("", |c| c.word.as_str());
                out.add(
                    RuleId::C2wFenForm,
                    format!(
                        "`{text}` where the FEN's {} was due: {} sends the FEN one element a line after `{word}`",
                        ELEMENTS[n],
                        p.quote(C2wKey::CmdSB, &format!("{word}\\n"))
                    ),
                );
            }
        }
        if self.hash_value_due {
            self.hash_value_due = false;
            if digits(text) {
                return true;
            }
            out.add(
                RuleId::C2wHashForm,
                format!(
                    "`{text}` where the hash size was due on a line of its own ({})",
                    hash_key(p)
                ),
            );
        }
        false
    }

    /// The declared hint and draw commands; true when the line is one. A declared hint is
    /// owed a `Hint:` before the GUI's next command.
    fn hint_or_draw_command(
        &mut self,
        p: &EngineProfile,
        line: &GuiWords<'_>,
        out: &mut Out<'_>,
    ) -> bool {
        let (text, word) = (line.text, line.word);
        let mut declared = false;
        for (std, key_name, cmd, rule) in [
            (
                "hint",
                C2wKey::CmdHint,
                &p.hint_cmd,
                RuleId::C2wHintUndeclared,
            ),
            (
                "draw",
                C2wKey::CmdDraw,
                &p.draw_cmd,
                RuleId::C2wDrawUndeclared,
            ),
        ] {
            match cmd.as_deref() {
                Some(w) if w == word => {
                    declared = true;
                    if std == "hint" {
                        self.hint_pending = Some((out.place, w.to_owned()));
                    }
                }
                Some(w) if word == std => out.add(
                    rule,
                    format!(
                        "`{text}`, but the profile's command is `{w}` ({})",
                        p.quote(key_name, w)
                    ),
                ),
                None if word == std => {
                    out.add(rule, format!("`{text}`, but the profile has no {key_name}"))
                }
                _ => {}
            }
        }
        declared
    }

    /// A position set up by `how` (`edit`, `setboard`, or the profile's FEN word).
    fn setup(
        &mut self,
        p: &EngineProfile,
        how: &str,
        text: &str,
        args: &[&str],
        out: &mut Out<'_>,
    ) -> bool {
        let fen = p.fen_command.as_ref();
        match p.init_position {
            None | Some(InitPosition::Unsupported) => {
                let why = match p.init_position {
                    None => format!("the profile has no {}", C2wKey::InitPos),
                    _ => p.quote(C2wKey::InitPos, "0"),
                };
                out.add(
                    RuleId::C2wInitposUnsupported,
                    format!("`{text}` sets a position up, but {why}: the engine cannot enter a non-initial position"),
                );
                false
            }
            Some(InitPosition::Edit) if how != "edit" => {
                out.add(
                    RuleId::C2wInitposMethod,
                    format!(
                        "`{how}`, but the profile sets positions up with edit ({} without {})",
                        p.quote(C2wKey::InitPos, "1"),
                        C2wKey::CmdSB
                    ),
                );
                false
            }
            Some(InitPosition::Edit) => false,
            Some(InitPosition::FenCommand) => {
                let Some(c) = fen else {
                    return false;
                };
                let sb = p.quote(C2wKey::CmdSB, &c.to_string());
                if how != c.word {
                    out.add(
                        RuleId::C2wInitposMethod,
                        format!(
                            "`{how}`, but the profile sets positions up with `{}` ({sb})",
                            c.word
                        ),
                    );
                    return false;
                }
                match (c.own_line, args.is_empty()) {
                    (true, true) => self.fen_elements = Some(0),
                    (true, false) => out.add(
                        RuleId::C2wFenForm,
                        format!(
                            "the FEN on the command's line, but {sb} sends `{}` alone and the FEN one element a line",
                            c.word
                        ),
                    ),
                    (false, true) => out.add(
                        RuleId::C2wFenForm,
                        format!("`{}` alone, but {sb} sends the FEN on the same line", c.word),
                    ),
                    (false, false) => {}
                }
                true
            }
        }
    }

    fn hash(
        &mut self,
        p: &EngineProfile,
        t: HashCmdType,
        text: &str,
        args: &[&str],
        out: &mut Out<'_>,
    ) {
        let own_line = p.hash_cmd.as_ref().is_some_and(|c| c.own_line);
        let bad = match t.place() {
            HashPlace::IniFile => {
                Some("the profile puts the hash size in the engine's ini file, not on the wire")
            }
            HashPlace::CommandLine => {
                Some("the profile puts the hash size on the engine's command line, not on the wire")
            }
            HashPlace::Wire if own_line => {
                if args.is_empty() {
                    self.hash_value_due = true;
                    None
                } else {
                    Some("the size goes on the next line, after the command alone")
                }
            }
            HashPlace::Wire => match t.size_form() {
                Some(form) if !(args.len() == 1 && form.accepts(args[0])) => Some(match form {
                    HashSizeForm::MegabytesM => "the size is megabytes with an M (`hash 32M`)",
                    HashSizeForm::Number => "the size is one number, no unit",
                }),
                _ => None,
            },
        };
        if let Some(why) = bad {
            out.add(
                RuleId::C2wHashForm,
                format!("`{text}`: {why} ({})", hash_key(p)),
            );
        }
    }

    /// Judges one engine line: a refusal of a command the profile declares.
    pub(crate) fn engine_line(&mut self, p: &EngineProfile, text: &str, out: &mut Out<'_>) {
        let t = text.trim();
        if t.starts_with("Hint:") {
            self.hint_pending = None;
        }
        let lower = t.to_ascii_lowercase();
        let refusal = lower.starts_with("error")
            || lower.starts_with("illegal move")
            || lower.starts_with("invalid move");
        let Some((_, refused)) = t.split_once(':').filter(|_| refusal) else {
            return;
        };
        let word = first_word(refused.trim());
        if word.is_empty() {
            return;
        }
        let Some(k) = declaring_key(p, word) else {
            return;
        };
        out.add(
            RuleId::C2wDeclaredRefused,
            format!(
                "the engine refuses `{}`, which the profile declares ({k})",
                refused.trim()
            ),
        );
    }
}

fn hash_key(p: &EngineProfile) -> String {
    let t = p.hash_cmd_type.map_or(0, HashCmdType::code);
    p.quote(C2wKey::TypeOfCmdHash, &t.to_string())
}

/// The profile key that declares `word` as a command the engine supports.
fn declaring_key(p: &EngineProfile, word: &str) -> Option<String> {
    let is = |c: &Option<String>| c.as_deref() == Some(word);
    if is(&p.st_cmd) {
        return Some(p.quote(C2wKey::CmdST, word));
    }
    if is(&p.sd_cmd) {
        return Some(p.quote(C2wKey::CmdSD, word));
    }
    if is(&p.hint_cmd) {
        return Some(p.quote(C2wKey::CmdHint, word));
    }
    if is(&p.draw_cmd) {
        return Some(p.quote(C2wKey::CmdDraw, word));
    }
    if word == "?" && p.move_now == Some(true) {
        return Some(p.quote(C2wKey::MoveNow, "1"));
    }
    if let Some(c) = &p.fen_command
        && c.word == word
        && p.init_position == Some(InitPosition::FenCommand)
    {
        return Some(p.quote(C2wKey::CmdSB, &c.word));
    }
    if word == "edit" && p.init_position == Some(InitPosition::Edit) {
        return Some(p.quote(C2wKey::InitPos, "1"));
    }
    if let Some(c) = &p.hash_cmd
        && c.word == word
        && p.hash_cmd_type.is_some_and(HashCmdType::on_the_wire)
    {
        return Some(p.quote(C2wKey::CmdHash, &c.word));
    }
    if let Some(f) = p.level_type {
        if word == "level" {
            return Some(p.quote(C2wKey::TypeOfCmdLevel, &f.raw.to_string()));
        }
        if (word == "time" || word == "otim") && f.time_command {
            return Some(p.quote(C2wKey::TypeOfCmdLevel, &f.raw.to_string()));
        }
    }
    None
}
