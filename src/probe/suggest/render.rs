//! The `.c2w` profile `c2w suggest` writes: each key with what was observed above it.

use super::*;

/// Where the engine is, as a profile says it: its directory and its command line.
#[derive(Debug, Clone)]
pub struct Location {
    /// `EnginePath`: the executable's directory, absolute.
    pub dir: String,
    /// `EngineSwitch`: the executable's file name and the arguments (quoted when blank).
    pub switch: String,
    /// The executable's file name, for a name when the engine says none.
    pub program: String,
}

/// The profile's text: every key with the observations above it as `;` comments, and the
/// keys left out with why. What the engine said is written escaped ([`ProfileWriter`]).
pub fn render(found: &Found, loc: &Location, recording: &str, tool: &str) -> String {
    let mut out = ProfileWriter::new();
    let name = found.name.clone().unwrap_or_else(|| loc.program.clone());
    out.comment(&format!(
        "Chess Academy profile for {name}, suggested by {tool} (`kibitzer c2w suggest`)"
    ));
    out.comment(&format!(
        "from what the engine did when tried; the session: {recording}"
    ));
    out.comment("Check engine and profile together with: kibitzer probe --c2w THIS_FILE");
    engine_keys(&mut out, found, loc, &name);
    position_keys(&mut out, found);
    search_keys(&mut out, found);
    level_key(&mut out, found);
    command_keys(&mut out, found);
    out.finish()
}

/// The observations about `k`, as comments above it.
fn notes(out: &mut ProfileWriter, found: &Found, k: C2wKey) {
    for n in found.notes_of(k) {
        out.comment(n);
    }
}

/// Where the engine is, its name and version.
fn engine_keys(out: &mut ProfileWriter, found: &Found, loc: &Location, name: &str) {
    out.comment(
        "The engine's directory on this machine (Chess Academy's own directory when relative).",
    );
    out.key(C2wKey::Path, &loc.dir);
    notes(out, found, C2wKey::Name);
    if found.name.is_none() {
        out.comment("No feature myname: the executable's name.");
    }
    out.key(C2wKey::Name, name);
    out.key(C2wKey::Switch, &loc.switch);
    match &found.version {
        Some(v) => out.key(C2wKey::Version, v),
        None => {
            out.comment("No version in the engine's name: write its version here.");
            out.key(C2wKey::Version, "unknown");
        }
    }
    for n in found.protocol_notes() {
        out.comment(n);
    }
}

/// How positions are set up.
fn position_keys(out: &mut ProfileWriter, found: &Found) {
    notes(out, found, C2wKey::InitPos);
    if found.setboard == Some(true) {
        out.key(C2wKey::InitPos, "1");
        out.key(C2wKey::CmdSB, "setboard");
    } else if found.edit == Some(true) {
        out.comment(&format!(
            "Positions go in with edit (no {}).",
            C2wKey::CmdSB
        ));
        out.key(C2wKey::InitPos, "1");
    } else if let Some(c) = &found.fen_command {
        out.key(C2wKey::InitPos, "1");
        out.key(C2wKey::CmdSB, &c.to_string());
    } else {
        out.comment("No way of setting a position up worked (setboard, edit, fen).");
        out.key(C2wKey::InitPos, "0");
    }
}

/// Move now, seconds per move and depth.
fn search_keys(out: &mut ProfileWriter, found: &Found) {
    notes(out, found, C2wKey::MoveNow);
    match found.move_now {
        Some(m) => out.key(C2wKey::MoveNow, if m { "1" } else { "0" }),
        None => out.comment(&format!("{} left out: not decided.", C2wKey::MoveNow)),
    }

    notes(out, found, C2wKey::CmdST);
    if found.st == Some(true) {
        out.key(C2wKey::CmdST, "st");
    } else {
        out.comment(&format!(
            "No {}: no seconds-per-move control.",
            C2wKey::CmdST
        ));
    }

    notes(out, found, C2wKey::CmdSD);
    match &found.sd {
        Some(w) => out.key(C2wKey::CmdSD, w),
        None => out.comment(&format!("No {}: no depth limit.", C2wKey::CmdSD)),
    }
}

/// The level forms and `time` that worked, as the sum of their codes.
fn level_key(out: &mut ProfileWriter, found: &Found) {
    notes(out, found, C2wKey::TypeOfCmdLevel);
    let yes = |o: Option<bool>| o == Some(true);
    let (minutes, seconds, base_inc, time) = (
        yes(found.level_minutes),
        yes(found.level_seconds),
        yes(found.level_base_inc),
        yes(found.time),
    );
    if minutes || seconds {
        let raw = u32::from(minutes) + 2 * u32::from(seconds) + 4 * u32::from(time);
        let mut parts = Vec::new();
        if minutes {
            parts.push("1 (level, minutes)");
        }
        if seconds {
            parts.push("2 (level, MIN:SEC)");
        }
        if time {
            parts.push("4 (time)");
        }
        out.comment(&format!("{raw} = {}", parts.join(" + ")));
        out.key(C2wKey::TypeOfCmdLevel, &raw.to_string());
    } else if base_inc {
        out.comment("0: base and increment only (`level 0 BASE INC`).");
        out.key(C2wKey::TypeOfCmdLevel, "0");
    } else {
        out.comment(&format!(
            "No {}: no level form worked.",
            C2wKey::TypeOfCmdLevel
        ));
    }
}

/// Hint, draw, and the hash command the answers cannot show.
fn command_keys(out: &mut ProfileWriter, found: &Found) {
    notes(out, found, C2wKey::CmdHint);
    if found.hint == Some(true) {
        out.key(C2wKey::CmdHint, "hint");
    } else {
        out.comment(&format!("No {}.", C2wKey::CmdHint));
    }

    notes(out, found, C2wKey::CmdDraw);
    if found.draw == Some(true) {
        out.key(C2wKey::CmdDraw, "draw");
    } else {
        out.comment(&format!("No {}.", C2wKey::CmdDraw));
    }

    notes(out, found, C2wKey::TypeOfCmdHash);
    out.comment(&format!(
        "No {}: a hash command's form cannot be seen from the engine's answers; \
         add the code of the text that fits it (e.g. {} with {}=hash for `hash 32`).",
        C2wKey::TypeOfCmdHash,
        HashCmdType::CommandMegabytes.code(),
        C2wKey::CmdHash
    ));
}
