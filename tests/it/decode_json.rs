//! `kibitzer decode --format json` as a `jq` user reads it: every line of the output of every
//! shipped recording, corpus log and fixture log validates against
//! docs/decode-output.schema.json; every message kind of the three protocols has its typed
//! form in the schema and no other; and the typed fields say what the line on the wire said
//! (the queries below are the `jq` paths a user would write, e.g. `.msg.score.cp`). The
//! validator is the `jsonschema` crate (draft 2020-12).

use crate::common;

use common::schema::load;
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::path::Path;

/// `kibitzer decode --format json ARGS`, which must succeed, as one value per line.
fn decode(args: &[&str]) -> Vec<Value> {
    let mut all = vec!["decode", "--format", "json"];
    all.extend_from_slice(args);
    common::run_ok(&all)
        .0
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{args:?}: bad JSON {l}: {e}")))
        .collect()
}

/// A `jq` path (`.msg.score.cp`, `.msg.pv[0]`); `null` where there is nothing, as in jq.
fn q<'a>(v: &'a Value, path: &str) -> &'a Value {
    let mut cur = v;
    for part in path.split('.').skip(1) {
        let (key, index) = match part.split_once('[') {
            Some((k, i)) => (k, i.strip_suffix(']').and_then(|i| i.parse::<usize>().ok())),
            None => (part, None),
        };
        if !key.is_empty() {
            cur = cur.get(key).unwrap_or(&Value::Null);
        }
        if let Some(i) = index {
            cur = cur.get(i).unwrap_or(&Value::Null);
        }
    }
    cur
}

/// `select(.text == TEXT)`: the one transcript line with that text.
fn line<'a>(lines: &'a [Value], text: &str) -> &'a Value {
    let found: Vec<&Value> = lines.iter().filter(|l| l["text"] == text).collect();
    assert!(!found.is_empty(), "no line {text:?}");
    found[0]
}

fn recording(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("recordings")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

#[test]
fn every_shipped_input_validates_against_the_schema() {
    let schema = load("decode-output.schema.json");
    let files = common::shipped_inputs();
    assert!(files.len() >= 35, "only {} inputs", files.len());
    let mut typed = 0;
    let mut kinds = BTreeSet::new();
    for f in &files {
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        let lines = decode(&[f.to_str().unwrap()]);
        assert_eq!(
            lines[0],
            json!({"type": "header", "schema": "kibitzer-decode/3",
                   "tool": concat!("kibitzer ", env!("CARGO_PKG_VERSION"))}),
            "{name}"
        );
        assert!(lines.iter().any(|l| l["type"] == "summary"), "{name}");
        for (i, l) in lines.iter().enumerate() {
            schema
                .validate(l)
                .unwrap_or_else(|e| panic!("{name}, output line {}: {e}\n{l}", i + 1));
            if l["type"] != "line" || l.get("protocol").is_none() {
                continue;
            }
            // Every decoded message has its typed form, of the kind the line names.
            assert_eq!(q(l, ".msg.type"), &l["kind"], "{name}: {l}");
            typed += 1;
            kinds.insert(format!(
                "{} {}",
                l["protocol"].as_str().unwrap(),
                l["kind"].as_str().unwrap()
            ));
        }
    }
    // Not vacuous: thousands of messages of many kinds, all three protocols.
    assert!(typed > 5000, "only {typed} typed messages");
    for k in [
        "uci info",
        "uci option",
        "uci bestmove",
        "xboard feature",
        "xboard thinking",
        "nboard search",
        "nboard ===",
    ] {
        assert!(kinds.contains(k), "{k} not among {kinds:?}");
    }
}

/// The kinds a protocol's `msg` may have, from the schema's `oneOf`.
fn schema_kinds(schema: &Value, protocol: &str) -> BTreeSet<String> {
    schema["$defs"][format!("{protocol}_msg")]["oneOf"]
        .as_array()
        .unwrap_or_else(|| panic!("no {protocol}_msg in the schema"))
        .iter()
        .map(|r| {
            let name = r["$ref"].as_str().unwrap().trim_start_matches("#/$defs/");
            schema["$defs"][name]["properties"]["type"]["const"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect()
}

const UCI_ALL: &str = r#"
0.0 > uci
0.0 < id name Engine 1.0
0.0 < id author Someone
0.0 < id version 3
0.0 < option name Hash type spin default 16 min 1 max 64
0.0 < uciok
0.0 > debug on
0.0 > setoption name Hash value 32
0.0 > register later
0.0 > register name Bob code 42
0.0 > isready
0.0 < copyprotection ok
0.0 < registration checking
0.0 < readyok
0.0 > ucinewgame
0.0 > position startpos moves e2e4
0.0 > go ponder wtime 1000 btime -5 winc 10 binc 10 movestogo 3 depth 4 nodes 99 mate 2 movetime 50 infinite perft 3 searchmoves e7e5
0.0 < info depth 3 seldepth 4 multipv 2 score mate -2 lowerbound wdl 1 2 997 nodes 10 nps 5 hashfull 1 tbhits 0 sbhits 0 cpuload 9 time 7 currmove e7e5 currmovenumber 1 movesleft 30 refutation e7e5 g1f3 currline 1 e7e5 pv e7e5 g1f3
0.0 < info string hello there
0.0 > ponderhit
0.0 > stop
0.0 < bestmove e7e5 ponder g1f3
0.0 <
0.0 < what is this
0.0 > quit
"#;

const XBOARD_ALL: &str = r#"
0.0 > xboard
0.0 > protover 2
0.0 < feature ping=1 myname="Max" option="Resign -check 0" option="Style -combo Solid /// *Normal" option="Depth -spin 5 1 9" option="Book -file x.bin" option="Clear -button" odd=abc done=1
0.0 < feature san option="Weird -frob 1 2" option="Bad -spin x"
0.0 > accepted ping
0.0 > rejected san
0.0 > new
0.0 > variant normal
0.0 > random
0.0 > level 40 5:30 0.5
0.0 > level 40 25+5 0
0.0 > st 10
0.0 > sd 4
0.0 > nps 1000
0.0 > time 100
0.0 > otim -20
0.0 > post
0.0 > nopost
0.0 > hard
0.0 > easy
0.0 > computer
0.0 > name Bob
0.0 > rating 2000 1900
0.0 > ics freechess.org
0.0 > memory 64
0.0 > cores 2
0.0 > egtpath syzygy /tb
0.0 > option Resign=1
0.0 > ping 1
0.0 < pong 1
0.0 > force
0.0 > usermove e2e4
0.0 > e7e5
0.0 > white
0.0 > black
0.0 > playother
0.0 > go
0.0 < 9 31 100 1234 g1f3 b8c6
0.0 < 9& 31 1 1234 g1f3
0.0 <     b8c6 f1b5
0.0 < stat01: 100 1000 5 3 20 g1f3
0.0 < ++
0.0 < --
0.0 < move g1f3
0.0 > ?
0.0 > hint
0.0 < Hint: b8c6
0.0 > bk
0.0 > draw
0.0 < offer draw
0.0 > undo
0.0 > remove
0.0 > exclude e2e4
0.0 > include all
0.0 > setscore 10 5
0.0 > analyze
0.0 > exit
0.0 > pause
0.0 > resume
0.0 > edit
0.0 > c
0.0 > #
0.0 > xa4
0.0 > .
0.0 > setboard rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1
0.0 > lift e2
0.0 > put e4
0.0 > hover e4
0.0 > partner bob
0.0 > ptell hello
0.0 > holding [PQ] [] P
0.0 < Illegal move (not legal): e2e5
0.0 < Error (unknown command): frob
0.0 < tellopponent hi
0.0 < tellothers hi
0.0 < tellall hi
0.0 < telluser hi
0.0 < tellusererror oops
0.0 < tellics say hi
0.0 < tellicsnoalias say hi
0.0 < askuser q1 Your name?
0.0 < # a debug line
0.0 < setup (PNBRQKpnbrqk) 8x8+0_fairy
0.0 < piece N& N
0.0 < highlight e4
0.0 < click e4
0.0 < choice QRBN
0.0 < resign
0.0 < 1-0 {White mates}
0.0 < White resigns
0.0 > result 0-1 {Black mates}
0.0 <
0.0 < what is this
0.0 > quit
"#;

const NBOARD_ALL: &str = r#"
0.0 > nboard 2
0.0 > set depth 4
0.0 > set game (;GM[Othello]PC[NBoard]PB[a]PW[b]RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *];)
0.0 > set contempt 0
0.0 > set other thing
0.0 > ping 1
0.0 < set myname Scripted
0.0 < pong 1
0.0 > go
0.0 < status thinking
0.0 < search F5d6 1.50 0 4 greedy
0.0 < book F5 0.00 100 4 x
0.0 < nodestats 100 0.5
0.0 < === F5/1.50/0.5
0.0 > move F5/1.50/0.5
0.0 > D6
0.0 > hint 3
0.0 > learn
0.0 < learned
0.0 > analyze
0.0 < analysis 3 1.5
0.0 <
0.0 < what is this
0.0 > quit
"#;

/// Every message kind each protocol's parser knows, in both directions, decodes to a typed
/// `msg` that validates, and the schema lists exactly those kinds: none the decoder can
/// print is missing, none it never prints is documented.
#[test]
fn every_message_kind_has_exactly_its_schema() {
    let schema = load("decode-output.schema.json");
    let dir = tempfile::tempdir().unwrap();
    for (protocol, transcript) in [
        ("uci", UCI_ALL),
        ("xboard", XBOARD_ALL),
        ("nboard", NBOARD_ALL),
    ] {
        let rec = common::transcript::recording(dir.path(), protocol, transcript);
        let lines = decode(&["--protocol", protocol, rec.to_str().unwrap()]);
        let mut seen = BTreeSet::new();
        for l in &lines {
            schema
                .validate(l)
                .unwrap_or_else(|e| panic!("{protocol}: {e}\n{l}"));
            if l["type"] == "line" {
                assert_eq!(l["protocol"], protocol, "{l}");
                seen.insert(q(l, ".msg.type").as_str().unwrap().to_owned());
            }
        }
        assert_eq!(seen, schema_kinds(&schema.json, protocol), "{protocol}");
        if protocol == "uci" {
            // No shipped recording has a mate score: this one shows its form.
            let info = lines.iter().find(|l| q(l, ".msg.depth") == 3).unwrap();
            assert_eq!(
                q(info, ".msg"),
                &json!({"type": "info", "depth": 3, "seldepth": 4, "multipv": 2,
                        "score": {"mate": -2, "lowerbound": true}, "wdl": [1, 2, 997],
                        "nodes": 10, "nps": 5, "hashfull": 1, "tbhits": 0, "sbhits": 0,
                        "cpuload": 9, "time": 7, "currmove": "e7e5", "currmovenumber": 1,
                        "refutation": ["e7e5", "g1f3"],
                        "currline": {"cpu": 1, "moves": ["e7e5"]},
                        "pv": ["e7e5", "g1f3"],
                        "extra": [{"name": "movesleft", "values": ["30"]}]})
            );
        }
    }
}

#[test]
fn uci_info_bestmove_and_option_fields_are_typed() {
    let lines = decode(&[&recording("stockfish-uci-game.jsonl")]);
    let info = line(
        &lines,
        "info depth 1 seldepth 1 multipv 1 score cp 21 wdl 22 976 2 nodes 48 nps 24000 hashfull 0 tbhits 0 time 2 pv f2f3",
    );
    assert_eq!(q(info, ".msg.type"), "info");
    assert_eq!(q(info, ".msg.depth"), 1);
    assert_eq!(q(info, ".msg.score"), &json!({"cp": 21}));
    assert_eq!(q(info, ".msg.score.cp"), 21);
    assert_eq!(q(info, ".msg.nodes"), 48);
    assert_eq!(q(info, ".msg.nps"), 24000);
    assert_eq!(q(info, ".msg.wdl"), &json!([22, 976, 2]));
    assert_eq!(q(info, ".msg.pv[0]"), "f2f3");
    // The compatibility string is still there.
    assert_eq!(q(info, ".decoded"), q(info, ".text"));

    let best = line(&lines, "bestmove c1e3 ponder e7e6");
    assert_eq!(
        q(best, ".msg"),
        &json!({"type": "bestmove", "move": "c1e3", "ponder": "e7e6"})
    );

    let hash = line(
        &lines,
        "option name Hash type spin default 16 min 1 max 33554432",
    );
    assert_eq!(
        q(hash, ".msg"),
        &json!({"type": "option", "name": "Hash", "option_type": "spin", "default": 16,
                "min": 1, "max": 33554432})
    );
    let ponder = line(&lines, "option name Ponder type check default false");
    assert_eq!(q(ponder, ".msg.default"), false);
    let empty = line(&lines, "option name Debug Log File type string default ");
    assert_eq!(q(empty, ".msg.default"), "");

    let pos = line(
        &lines,
        "position startpos moves e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6 b1c3 a7a6",
    );
    assert_eq!(q(pos, ".msg.startpos"), true);
    assert_eq!(q(pos, ".msg.moves[9]"), "a7a6");
    assert_eq!(
        q(line(&lines, "go depth 9"), ".msg"),
        &json!({"type": "go", "depth": 9})
    );
}

/// What a user checks over a whole game: for every `info` and `bestmove` of every shipped
/// UCI recording, the typed depth, score, nodes, PV, move and ponder are the words on the wire.
#[test]
fn typed_uci_fields_agree_with_the_wire_on_every_line() {
    let mut infos = 0;
    let mut bounds = 0;
    for name in [
        "stockfish-uci-game.jsonl",
        "stockfish-uci-long-game.jsonl",
        "stockfish-analysis.jsonl",
    ] {
        for l in decode(&[&recording(name)]) {
            let text = l["text"].as_str().unwrap_or("");
            let words: Vec<&str> = text.split_whitespace().collect();
            let after = |key: &str| words.iter().position(|w| *w == key).map(|i| i + 1);
            match q(&l, ".msg.type").as_str() {
                Some("info") if after("pv").is_some() => {
                    infos += 1;
                    let depth: u64 = words[after("depth").unwrap()].parse().unwrap();
                    assert_eq!(q(&l, ".msg.depth"), depth, "{text}");
                    let nodes: u64 = words[after("nodes").unwrap()].parse().unwrap();
                    assert_eq!(q(&l, ".msg.nodes"), nodes, "{text}");
                    let s = after("score").unwrap();
                    let value: i64 = words[s + 1].parse().unwrap();
                    assert_eq!(q(&l, &format!(".msg.score.{}", words[s])), value, "{text}");
                    for bound in ["lowerbound", "upperbound"] {
                        let flagged = q(&l, &format!(".msg.score.{bound}")) == true;
                        assert_eq!(flagged, words.contains(&bound), "{text}");
                        bounds += usize::from(flagged);
                    }
                    let pv: Vec<&str> = words[after("pv").unwrap()..].to_vec();
                    assert_eq!(q(&l, ".msg.pv"), &json!(pv), "{text}");
                }
                Some("bestmove") => {
                    assert_eq!(q(&l, ".msg.move"), words[1], "{text}");
                    let ponder = after("ponder").map(|i| words[i]);
                    assert_eq!(q(&l, ".msg.ponder").as_str(), ponder, "{text}");
                }
                _ => {}
            }
        }
    }
    assert!(infos > 1000, "only {infos} info lines with a PV");
    assert!(bounds > 0, "no bounded score among the recordings");
}

#[test]
fn cecp_features_thinking_and_moves_are_typed() {
    let lines = decode(&[&recording("fairymax-cecp-game.jsonl")]);
    let f = line(&lines, "feature setboard=0 xedit=1 ping=1 done=0");
    // jq: [.msg.features[] | {(.name): .value}] | add
    let pairs: serde_json::Map<String, Value> = q(f, ".msg.features")
        .as_array()
        .unwrap()
        .iter()
        .map(|x| (x["name"].as_str().unwrap().to_owned(), x["value"].clone()))
        .collect();
    assert_eq!(
        Value::Object(pairs),
        json!({"setboard": 0, "xedit": 1, "ping": 1, "done": 0})
    );
    let name = line(&lines, "feature myname=\"Fairy-Max 5.0b\"");
    assert_eq!(q(name, ".msg.features[0].value"), "Fairy-Max 5.0b");
    let opt = line(
        &lines,
        "feature option=\"Resign Threshold -spin 800 200 1200\"",
    );
    assert_eq!(
        q(opt, ".msg.features[0]"),
        &json!({"name": "option", "value": "Resign Threshold -spin 800 200 1200",
                "option": {"name": "Resign Threshold", "option_type": "spin",
                           "default": 800, "min": 200, "max": 1200}})
    );
    let check = line(&lines, "feature option=\"Resign -check 0\"");
    assert_eq!(q(check, ".msg.features[0].option.default"), false);

    let think = line(&lines, " 2      0        0         17 c2c4 c7c5");
    assert_eq!(
        q(think, ".msg"),
        &json!({"type": "thinking", "ply": 2, "score": {"cp": 0}, "centiseconds": 0,
                "nodes": 17, "pv": "c2c4 c7c5"})
    );
    assert_eq!(
        q(line(&lines, "move d2d4"), ".msg"),
        &json!({"type": "move", "move": "d2d4"})
    );
    assert_eq!(
        q(line(&lines, "protover 2"), ".msg"),
        &json!({"type": "protover", "version": 2})
    );
}

#[test]
fn nboard_messages_are_typed() {
    let lines = decode(&[&recording("nboard-scripted-engine.jsonl")]);
    assert_eq!(
        q(line(&lines, "=== D3/3.00/0.01"), ".msg"),
        &json!({"type": "===", "move": "D3", "eval": 3.0, "time": 0.01})
    );
    assert_eq!(
        q(line(&lines, "search D3 3.00 0 4 greedy"), ".msg"),
        &json!({"type": "search", "move": "D3", "pv": "D3", "eval": 3.0, "games": 0,
                "depth": "4", "text": "greedy"})
    );
    assert_eq!(
        q(line(&lines, "nodestats 69 0.01"), ".msg"),
        &json!({"type": "nodestats", "nodes": 69, "seconds": 0.01})
    );
    assert_eq!(
        q(line(&lines, "set depth 4"), ".msg"),
        &json!({"type": "set depth", "depth": 4})
    );
    let game = lines
        .iter()
        .find(|l| q(l, ".msg.type") == "set game")
        .expect("a set game line");
    assert!(
        q(game, ".msg.ggf")
            .as_str()
            .unwrap()
            .starts_with("(;GM[Othello]"),
        "{game}"
    );
}

/// The schema is no rubber stamp: it refuses what the decoder must not print.
#[test]
fn the_schema_refuses_wrong_output() {
    let schema = load("decode-output.schema.json");
    let lines = decode(&[&recording("stockfish-uci-game.jsonl")]);
    let info = line(
        &lines,
        "info depth 1 seldepth 1 multipv 1 score cp 21 wdl 22 976 2 nodes 48 nps 24000 hashfull 0 tbhits 0 time 2 pv f2f3",
    )
    .clone();
    assert!(schema.validate(&info).is_ok());
    let mut extra = info.clone();
    extra["msg"]["depthx"] = json!(1);
    assert!(schema.validate(&extra).is_err());
    let mut wrong_type = info.clone();
    wrong_type["msg"]["depth"] = json!("1");
    assert!(schema.validate(&wrong_type).is_err());
    let mut score = info.clone();
    score["msg"]["score"] = json!(21);
    assert!(schema.validate(&score).is_err());
    let mut other_protocol = info.clone();
    other_protocol["protocol"] = json!("nboard");
    assert!(schema.validate(&other_protocol).is_err());
    let mut header = lines[0].clone();
    header["schema"] = json!("kibitzer-decode/1");
    assert!(schema.validate(&header).is_err());
}
