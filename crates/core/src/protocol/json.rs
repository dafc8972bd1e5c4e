//! The JSON form of a decoded message (the `msg` object of `decode --format json`): its `type`
//! is the message kind ([`Msg::kind`]), then the typed fields, named as on the wire where the
//! protocol names them. Optional fields are left out when the line did not have them, and
//! flags that are off are left out too (`ponder`, `infinite`). Specified, field by field, in
//! docs/decode-output.md and docs/decode-output.schema.json.
//!
//! Written by hand rather than derived: the messages are enums whose variants carry bare
//! values, and a flat object per message (`{"type":"info","depth":10,...}`) is what `jq` users
//! want; it also lets the `info` flood go straight to the output without an intermediate value.

use serde::ser::{Serialize, SerializeMap, Serializer};

use super::Msg;
use super::cecp::{self, FeatureValue, GameResult, Idiom, MoveSel, OptionKind};
use super::nboard;
use super::tokens::Moves;
use super::uci::{self, Bound, Id, OptionType, Register, Score, ScoreValue, Status};

impl Serialize for Msg {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Msg::Uci(m) => m.serialize(s),
            Msg::Cecp(m) => m.serialize(s),
            Msg::Nboard(m) => m.serialize(s),
        }
    }
}

/// `{"cp":31}` or `{"mate":-3}`, with `"lowerbound":true` / `"upperbound":true` when the
/// engine qualified the score; `{}` for a `score` without a value.
impl Serialize for Score {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(None)?;
        match self.value {
            Some(ScoreValue::Cp(v)) => m.serialize_entry("cp", &v)?,
            Some(ScoreValue::Mate(v)) => m.serialize_entry("mate", &v)?,
            None => {}
        }
        match self.bound {
            Bound::Exact => {}
            Bound::Lower => m.serialize_entry("lowerbound", &true)?,
            Bound::Upper => m.serialize_entry("upperbound", &true)?,
        }
        m.end()
    }
}

/// A move list as a JSON array of its moves.
struct List<'a>(&'a Moves);

impl Serialize for List<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter())
    }
}

/// `{"cp": N}`: the centipawn score of CECP thinking output in the form UCI scores take.
struct Centipawns(i64);

impl Serialize for Centipawns {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(1))?;
        m.serialize_entry("cp", &self.0)?;
        m.end()
    }
}

/// An option's default in the type its declaration gives it: `true`/`false` for a check
/// box, an integer for a spin; as sent (a string) otherwise, or when it does not read as that.
struct TypedDefault<'a>(&'a OptionType, &'a str);

impl Serialize for TypedDefault<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match (self.0, self.1) {
            (OptionType::Check, "true") => s.serialize_bool(true),
            (OptionType::Check, "false") => s.serialize_bool(false),
            (OptionType::Spin, v) => match v.parse::<i64>() {
                Ok(n) => s.serialize_i64(n),
                Err(_) => s.serialize_str(v),
            },
            (_, v) => s.serialize_str(v),
        }
    }
}

/// Writes the `type` entry, then whatever `fields` adds.
fn tagged<S: Serializer>(
    s: S,
    kind: &str,
    fields: impl FnOnce(&mut S::SerializeMap) -> Result<(), S::Error>,
) -> Result<S::Ok, S::Error> {
    let mut m = s.serialize_map(None)?;
    m.serialize_entry("type", kind)?;
    fields(&mut m)?;
    m.end()
}

/// An entry only when the value is there.
fn opt<M: SerializeMap, T: Serialize + ?Sized>(
    m: &mut M,
    key: &'static str,
    v: Option<&T>,
) -> Result<(), M::Error> {
    match v {
        Some(v) => m.serialize_entry(key, v),
        None => Ok(()),
    }
}

/// `key: true` when the flag is set, nothing otherwise.
fn flag<M: SerializeMap>(m: &mut M, key: &'static str, on: bool) -> Result<(), M::Error> {
    if on {
        m.serialize_entry(key, &true)
    } else {
        Ok(())
    }
}

fn extras<M: SerializeMap>(m: &mut M, extra: &[uci::Extra]) -> Result<(), M::Error> {
    struct E<'a>(&'a uci::Extra);
    impl Serialize for E<'_> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let mut m = s.serialize_map(Some(2))?;
            m.serialize_entry("name", &self.0.name)?;
            m.serialize_entry("values", &List(&self.0.values))?;
            m.end()
        }
    }
    if extra.is_empty() {
        return Ok(());
    }
    m.serialize_entry("extra", &SeqOf(extra, E))
}

/// A slice serialized through a wrapper per element.
struct SeqOf<'a, T, W>(&'a [T], fn(&'a T) -> W);

impl<'a, T, W: Serialize> Serialize for SeqOf<'a, T, W> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(self.1))
    }
}

fn info<M: SerializeMap>(m: &mut M, i: &uci::Info) -> Result<(), M::Error> {
    opt(m, "depth", i.depth.as_ref())?;
    opt(m, "seldepth", i.seldepth.as_ref())?;
    opt(m, "multipv", i.multipv.as_ref())?;
    opt(m, "score", i.score.as_ref())?;
    opt(m, "wdl", i.wdl.as_ref())?;
    opt(m, "nodes", i.nodes.as_ref())?;
    opt(m, "nps", i.nps.as_ref())?;
    opt(m, "hashfull", i.hashfull.as_ref())?;
    opt(m, "tbhits", i.tbhits.as_ref())?;
    opt(m, "sbhits", i.sbhits.as_ref())?;
    opt(m, "cpuload", i.cpuload.as_ref())?;
    opt(m, "time", i.time.as_ref())?;
    opt(m, "currmove", i.currmove.as_ref())?;
    opt(m, "currmovenumber", i.currmovenumber.as_ref())?;
    opt(m, "refutation", i.refutation.as_ref().map(List).as_ref())?;
    if let Some(c) = &i.currline {
        struct C<'a>(&'a uci::CurrLine);
        impl Serialize for C<'_> {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                let mut m = s.serialize_map(None)?;
                opt(&mut m, "cpu", self.0.cpu.as_ref())?;
                m.serialize_entry("moves", &List(&self.0.moves))?;
                m.end()
            }
        }
        m.serialize_entry("currline", &C(c))?;
    }
    opt(m, "pv", i.pv.as_ref().map(List).as_ref())?;
    opt(m, "string", i.string.as_ref())?;
    extras(m, &i.extra)
}

fn go<M: SerializeMap>(m: &mut M, g: &uci::Go) -> Result<(), M::Error> {
    flag(m, "ponder", g.ponder)?;
    opt(m, "wtime", g.wtime.as_ref())?;
    opt(m, "btime", g.btime.as_ref())?;
    opt(m, "winc", g.winc.as_ref())?;
    opt(m, "binc", g.binc.as_ref())?;
    opt(m, "movestogo", g.movestogo.as_ref())?;
    opt(m, "depth", g.depth.as_ref())?;
    opt(m, "nodes", g.nodes.as_ref())?;
    opt(m, "mate", g.mate.as_ref())?;
    opt(m, "movetime", g.movetime.as_ref())?;
    flag(m, "infinite", g.infinite)?;
    if !g.searchmoves.is_empty() {
        m.serialize_entry("searchmoves", &List(&g.searchmoves))?;
    }
    extras(m, &g.extra)
}

fn option_decl<M: SerializeMap>(m: &mut M, o: &uci::OptionDecl) -> Result<(), M::Error> {
    m.serialize_entry("name", &o.name)?;
    m.serialize_entry("option_type", &o.kind.to_string())?;
    opt(
        m,
        "default",
        o.default
            .as_deref()
            .map(|d| TypedDefault(&o.kind, d))
            .as_ref(),
    )?;
    opt(m, "min", o.min.as_ref())?;
    opt(m, "max", o.max.as_ref())?;
    if !o.vars.is_empty() {
        m.serialize_entry("vars", &o.vars)?;
    }
    Ok(())
}

fn status(s: &Status) -> &str {
    match s {
        Status::Checking => "checking",
        Status::Ok => "ok",
        Status::Error => "error",
        Status::Other(s) => s,
    }
}

impl Serialize for uci::Msg {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use uci::Msg as U;
        tagged(s, self.kind(), |m| match self {
            U::Debug(on) => opt(m, "on", on.as_ref()),
            U::SetOption { name, value } => {
                m.serialize_entry("name", name)?;
                opt(m, "value", value.as_ref())
            }
            U::Register(Register::Later) => m.serialize_entry("later", &true),
            U::Register(Register::With { name, code }) => {
                opt(m, "name", name.as_ref())?;
                opt(m, "code", code.as_ref())
            }
            U::Position(p) => {
                match &p.fen {
                    None => m.serialize_entry("startpos", &true)?,
                    Some(fen) => m.serialize_entry("fen", fen)?,
                }
                m.serialize_entry("moves", &List(&p.moves))
            }
            U::Go(g) => go(m, g),
            U::Id(Id::Name(n)) => m.serialize_entry("name", n),
            U::Id(Id::Author(a)) => m.serialize_entry("author", a),
            U::Id(Id::Other { key, value }) => {
                m.serialize_entry("key", key)?;
                m.serialize_entry("value", value)
            }
            U::BestMove { best, ponder } => {
                m.serialize_entry("move", best)?;
                opt(m, "ponder", ponder.as_ref())
            }
            U::CopyProtection(st) | U::Registration(st) => m.serialize_entry("status", status(st)),
            U::Info(i) => info(m, i),
            U::Option(o) => option_decl(m, o),
            U::Uci
            | U::IsReady
            | U::UciNewGame
            | U::Stop
            | U::PonderHit
            | U::Quit
            | U::UciOk
            | U::ReadyOk
            | U::Empty
            | U::Unknown(_) => Ok(()),
        })
    }
}

fn idiom_name(i: Idiom) -> &'static str {
    match i {
        Idiom::WhiteResigns => "white-resigns",
        Idiom::BlackResigns => "black-resigns",
        Idiom::White => "white",
        Idiom::Black => "black",
        Idiom::Draw => "draw",
        Idiom::ComputerMates => "computer-mates",
        Idiom::OpponentMates => "opponent-mates",
        Idiom::ComputerResigns => "computer-resigns",
        Idiom::GameIsADraw => "game-is-a-draw",
        Idiom::Checkmate => "checkmate",
    }
}

fn result<M: SerializeMap>(
    m: &mut M,
    result: GameResult,
    comment: Option<&String>,
) -> Result<(), M::Error> {
    m.serialize_entry("result", result.as_str())?;
    opt(m, "comment", comment)
}

/// An engine-defined option of `feature option="..."`.
struct CecpOption<'a>(&'a cecp::OptionDef);

impl Serialize for CecpOption<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let o = self.0;
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("name", &o.name)?;
        let kind = match &o.kind {
            OptionKind::Button => "button",
            OptionKind::Save => "save",
            OptionKind::Reset => "reset",
            OptionKind::Check(_) => "check",
            OptionKind::String(_) => "string",
            OptionKind::Spin { .. } => "spin",
            OptionKind::Slider { .. } => "slider",
            OptionKind::Combo(_) => "combo",
            OptionKind::File(_) => "file",
            OptionKind::Path(_) => "path",
            OptionKind::Other { kind, .. } => kind,
        };
        m.serialize_entry("option_type", kind)?;
        match &o.kind {
            OptionKind::Button | OptionKind::Save | OptionKind::Reset => {}
            OptionKind::Check(b) => m.serialize_entry("default", b)?,
            OptionKind::String(v) | OptionKind::File(v) | OptionKind::Path(v) => {
                m.serialize_entry("default", v)?;
            }
            OptionKind::Spin { value, min, max } | OptionKind::Slider { value, min, max } => {
                m.serialize_entry("default", value)?;
                m.serialize_entry("min", min)?;
                m.serialize_entry("max", max)?;
            }
            OptionKind::Combo(choices) => m.serialize_entry("choices", choices)?,
            OptionKind::Other { args, .. } => m.serialize_entry("args", args)?,
        }
        m.end()
    }
}

/// One `NAME=VALUE` of a `feature` line: `value` an integer, or a string (the option text for
/// `option`, with the option decoded beside it); `unquoted` for a value without quotes that
/// is not an integer; no `value` when the line had no `=VALUE`.
struct CecpFeature<'a>(&'a cecp::Feature);

impl Serialize for CecpFeature<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let f = self.0;
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("name", &f.name)?;
        match &f.value {
            FeatureValue::Int(n) => m.serialize_entry("value", n)?,
            FeatureValue::Str(v) => m.serialize_entry("value", v)?,
            FeatureValue::Option(o) => {
                m.serialize_entry("value", &o.to_string())?;
                m.serialize_entry("option", &CecpOption(o))?;
            }
            FeatureValue::Bare(v) if v.is_empty() => {}
            FeatureValue::Bare(v) => {
                m.serialize_entry("value", v)?;
                m.serialize_entry("unquoted", &true)?;
            }
        }
        m.end()
    }
}

impl Serialize for cecp::Msg {
    // long: one arm a message kind, each the fields that kind carries: a table, best read whole.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use cecp::Msg as C;
        tagged(s, self.kind(), |m| match self {
            C::Protover(n) => m.serialize_entry("version", n),
            C::Accepted(f) | C::Rejected(f) => m.serialize_entry("feature", f),
            C::Variant(v) => m.serialize_entry("variant", v),
            C::Level(l) => {
                m.serialize_entry("mps", &l.mps)?;
                m.serialize_entry("base_seconds", &l.base_seconds)?;
                if !l.base_suffix.is_empty() {
                    m.serialize_entry("base_suffix", &l.base_suffix)?;
                }
                m.serialize_entry("inc_ms", &l.inc_ms)
            }
            C::St(n) => m.serialize_entry("seconds", n),
            C::Sd(n) => m.serialize_entry("depth", n),
            C::Nps(n) => m.serialize_entry("nps", n),
            C::Time(n) | C::Otim(n) => m.serialize_entry("centiseconds", n),
            C::UserMove(mv) | C::Move(mv) | C::EngineMove(mv) | C::HintMove(mv) => {
                m.serialize_entry("move", mv)
            }
            C::Ping(n) | C::Pong(n) => m.serialize_entry("number", n),
            C::Result { result: r, comment } | C::GameEnd { result: r, comment } => {
                result(m, *r, comment.as_ref())
            }
            C::SetBoard(fen) => m.serialize_entry("fen", fen),
            C::EditEmpty(sq) | C::Lift(sq) | C::Put(sq) | C::Hover(sq) => {
                m.serialize_entry("square", sq)
            }
            C::Name(n) => m.serialize_entry("name", n),
            C::Rating { own, opponent } => {
                m.serialize_entry("own", own)?;
                m.serialize_entry("opponent", opponent)
            }
            C::Ics(host) => m.serialize_entry("host", host),
            C::Memory(mb) => m.serialize_entry("mb", mb),
            C::Cores(n) => m.serialize_entry("cores", n),
            C::EgtPath { kind, path } => {
                m.serialize_entry("egt_type", kind)?;
                m.serialize_entry("path", path)
            }
            C::SetOption { name, value } => {
                m.serialize_entry("name", name)?;
                opt(m, "value", value.as_ref())
            }
            C::Exclude(sel) | C::Include(sel) => match sel {
                MoveSel::All => m.serialize_entry("all", &true),
                MoveSel::Move(mv) => m.serialize_entry("move", mv),
            },
            C::SetScore { score, depth } => {
                m.serialize_entry("score", &Centipawns(i64::from(*score)))?;
                m.serialize_entry("depth", depth)
            }
            C::Partner(p) => opt(m, "player", p.as_ref()),
            C::Ptell(t)
            | C::Holding(t)
            | C::Debug(t)
            | C::Setup(t)
            | C::Piece(t)
            | C::Highlight(t)
            | C::Click(t)
            | C::Choice(t)
            | C::Continuation(t)
            | C::Tell { text: t, .. } => m.serialize_entry("text", t),
            C::Feature(fs) => m.serialize_entry("features", &SeqOf(fs, CecpFeature)),
            C::IllegalMove { reason, mv } => {
                m.serialize_entry("move", mv)?;
                opt(m, "reason", reason.as_ref())
            }
            C::Error { kind, command } => {
                m.serialize_entry("error_type", kind)?;
                m.serialize_entry("command", command)
            }
            C::AskUser { tag, text } => {
                m.serialize_entry("tag", tag)?;
                m.serialize_entry("text", text)
            }
            C::Thinking(t) => {
                m.serialize_entry("ply", &t.ply)?;
                opt(m, "flag", t.flag.as_ref())?;
                m.serialize_entry("score", &Centipawns(t.score))?;
                m.serialize_entry("centiseconds", &t.time_centis())?;
                m.serialize_entry("nodes", &t.nodes)?;
                m.serialize_entry("pv", &t.pv)
            }
            C::Stat01(st) => {
                m.serialize_entry("time", &st.time)?;
                m.serialize_entry("nodes", &st.nodes)?;
                m.serialize_entry("ply", &st.ply)?;
                m.serialize_entry("mvleft", &st.mvleft)?;
                m.serialize_entry("mvtot", &st.mvtot)?;
                opt(m, "mvname", st.mvname.as_ref())
            }
            C::Idiom { idiom, .. } => {
                m.serialize_entry("idiom", idiom_name(*idiom))?;
                opt(m, "result", idiom.result().map(GameResult::as_str))
            }
            C::Xboard
            | C::New
            | C::Quit
            | C::Random
            | C::Force
            | C::Go
            | C::PlayOther
            | C::White
            | C::Black
            | C::MoveNow
            | C::Draw
            | C::Edit
            | C::EditColor
            | C::EditClear
            | C::Dot
            | C::Hint
            | C::Bk
            | C::Undo
            | C::Remove
            | C::Hard
            | C::Easy
            | C::Post
            | C::NoPost
            | C::Analyze
            | C::Exit
            | C::Computer
            | C::Pause
            | C::Resume
            | C::Resign
            | C::OfferDraw
            | C::FailHigh
            | C::FailLow
            | C::Empty
            | C::Unknown(_) => Ok(()),
        })
    }
}

fn move_eval<M: SerializeMap>(m: &mut M, me: &nboard::MoveEval) -> Result<(), M::Error> {
    m.serialize_entry("move", &me.mv)?;
    opt(m, "eval", me.eval.as_ref())?;
    opt(m, "time", me.time.as_ref())
}

/// A number when the text is one, else the text as sent (NBoard's `draw-to-black,...`).
struct NumberOrText<'a>(&'a str);

impl Serialize for NumberOrText<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0.parse::<f64>() {
            Ok(v)
                if v.is_finite()
                    && self
                        .0
                        .bytes()
                        .all(|b| b.is_ascii_digit() || b".+-".contains(&b)) =>
            {
                s.serialize_f64(v)
            }
            _ => s.serialize_str(self.0),
        }
    }
}

fn search_line<M: SerializeMap>(m: &mut M, l: &nboard::SearchLine) -> Result<(), M::Error> {
    m.serialize_entry("move", l.first_move())?;
    m.serialize_entry("pv", &l.pv)?;
    m.serialize_entry("eval", &NumberOrText(&l.eval))?;
    m.serialize_entry("games", &l.games)?;
    m.serialize_entry("depth", &l.depth)?;
    m.serialize_entry("text", &l.text)
}

impl Serialize for nboard::Msg {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use nboard::Msg as N;
        tagged(s, self.kind(), |m| match self {
            N::Nboard(v) => m.serialize_entry("version", v),
            N::SetDepth(d) => m.serialize_entry("depth", d),
            N::SetGame(ggf) => m.serialize_entry("ggf", ggf),
            N::SetContempt(c) => m.serialize_entry("contempt", c),
            N::Set { key, value } => {
                m.serialize_entry("key", key)?;
                m.serialize_entry("value", value)
            }
            N::Move(me) | N::BestMove(me) => move_eval(m, me),
            N::BareMove(mv) => m.serialize_entry("move", mv),
            N::Hint(n) => m.serialize_entry("count", n),
            N::Ping(n) | N::Pong(n) => m.serialize_entry("number", n),
            N::SetMyName(n) => m.serialize_entry("name", n),
            N::Status(t) => m.serialize_entry("text", t),
            N::NodeStats { nodes, seconds } => {
                m.serialize_entry("nodes", nodes)?;
                m.serialize_entry("seconds", seconds)
            }
            N::Search(l) | N::Book(l) => search_line(m, l),
            N::Analysis { moves_made, eval } => {
                m.serialize_entry("moves_made", moves_made)?;
                m.serialize_entry("eval", eval)
            }
            N::Go | N::Learn | N::Analyze | N::Quit | N::Learned | N::Empty | N::Unknown(_) => {
                Ok(())
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Dir, Protocol, parse};
    use serde_json::{Value, json};

    fn msg(p: Protocol, dir: Dir, line: &str) -> Value {
        serde_json::to_value(parse(p, dir, line).0).unwrap_or_default()
    }

    #[test]
    fn uci_info_gives_its_fields_and_a_tagged_score() {
        let v = msg(
            Protocol::Uci,
            Dir::FromEngine,
            "info depth 10 seldepth 14 multipv 1 score cp 31 upperbound nodes 1234 nps 5000 time 12 pv e2e4 e7e5",
        );
        assert_eq!(
            v,
            json!({"type": "info", "depth": 10, "seldepth": 14, "multipv": 1,
                   "score": {"cp": 31, "upperbound": true}, "nodes": 1234, "nps": 5000,
                   "time": 12, "pv": ["e2e4", "e7e5"]})
        );
        let v = msg(
            Protocol::Uci,
            Dir::FromEngine,
            "info score mate -3 string x y",
        );
        assert_eq!(
            v,
            json!({"type": "info", "score": {"mate": -3}, "string": "x y"})
        );
    }

    #[test]
    fn uci_option_defaults_take_the_declared_type() {
        let v = msg(
            Protocol::Uci,
            Dir::FromEngine,
            "option name Hash type spin default 16 min 1 max 33554432",
        );
        assert_eq!(
            v,
            json!({"type": "option", "name": "Hash", "option_type": "spin", "default": 16,
                   "min": 1, "max": 33554432})
        );
        let v = msg(
            Protocol::Uci,
            Dir::FromEngine,
            "option name Ponder type check default false",
        );
        assert_eq!(v["default"], json!(false));
        let v = msg(
            Protocol::Uci,
            Dir::FromEngine,
            "option name X type spin default many",
        );
        assert_eq!(v["default"], json!("many"));
        let v = msg(
            Protocol::Uci,
            Dir::FromEngine,
            "option name Style type combo default Normal var Solid var Normal",
        );
        assert_eq!(v["vars"], json!(["Solid", "Normal"]));
        assert_eq!(v["default"], json!("Normal"));
    }

    #[test]
    fn cecp_features_are_name_value_pairs() {
        let v = msg(
            Protocol::Cecp,
            Dir::FromEngine,
            r#"feature ping=1 myname="Fairy-Max 5.0b" option="Resign Threshold -spin 800 200 1200" done=1"#,
        );
        assert_eq!(
            v,
            json!({"type": "feature", "features": [
                {"name": "ping", "value": 1},
                {"name": "myname", "value": "Fairy-Max 5.0b"},
                {"name": "option", "value": "Resign Threshold -spin 800 200 1200",
                 "option": {"name": "Resign Threshold", "option_type": "spin",
                            "default": 800, "min": 200, "max": 1200}},
                {"name": "done", "value": 1}]})
        );
    }

    #[test]
    fn nboard_evals_are_numbers() {
        let v = msg(Protocol::Nboard, Dir::FromEngine, "=== D3/3.00/0.01");
        assert_eq!(
            v,
            json!({"type": "===", "move": "D3", "eval": 3.0, "time": 0.01})
        );
        let v = msg(
            Protocol::Nboard,
            Dir::FromEngine,
            "search D3 3.00 0 4 greedy",
        );
        assert_eq!(
            v,
            json!({"type": "search", "move": "D3", "pv": "D3", "eval": 3.0, "games": 0,
                   "depth": "4", "text": "greedy"})
        );
    }
}
