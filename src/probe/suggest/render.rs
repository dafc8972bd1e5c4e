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
/// keys left out with why.
pub fn render(found: &Found, loc: &Location, recording: &str, tool: &str) -> String {
    let mut out = String::new();
    // What the engine said (its name above all) is untrusted: a CR would split a key, an ESC
    // would reach whoever prints the profile. Both are written escaped.
    let comment = |out: &mut String, text: &str| {
        out.push_str("; ");
        crate::untrusted::push_escaped(out, text);
        out.push('\n');
    };
    let name = found.name.clone().unwrap_or_else(|| loc.program.clone());
    comment(
        &mut out,
        &format!("Chess Academy profile for {name}, suggested by {tool} (`kibitzer c2w suggest`)"),
    );
    comment(
        &mut out,
        &format!("from what the engine did when tried; the session: {recording}"),
    );
    comment(
        &mut out,
        "Check engine and profile together with: kibitzer probe --c2w THIS_FILE",
    );
    let key = |out: &mut String, k: C2wKey, v: &str| {
        out.push_str(k.as_str());
        out.push('=');
        crate::untrusted::push_escaped(out, v);
        out.push('\n');
    };
    let notes = |out: &mut String, k: C2wKey| {
        for n in found.notes_of(k) {
            out.push_str("; ");
            crate::untrusted::push_escaped(out, n);
            out.push('\n');
        }
    };
    comment(
        &mut out,
        "The engine's directory on this machine (Chess Academy's own directory when relative).",
    );
    key(&mut out, C2wKey::Path, &loc.dir);
    notes(&mut out, C2wKey::Name);
    if found.name.is_none() {
        comment(&mut out, "No feature myname: the executable's name.");
    }
    key(&mut out, C2wKey::Name, &name);
    key(&mut out, C2wKey::Switch, &loc.switch);
    match &found.version {
        Some(v) => key(&mut out, C2wKey::Version, v),
        None => {
            comment(
                &mut out,
                "No version in the engine's name: write its version here.",
            );
            key(&mut out, C2wKey::Version, "unknown");
        }
    }
    for n in found.protocol_notes() {
        comment(&mut out, n);
    }

    notes(&mut out, C2wKey::InitPos);
    if found.setboard == Some(true) {
        key(&mut out, C2wKey::InitPos, "1");
        key(&mut out, C2wKey::CmdSB, "setboard");
    } else if found.edit == Some(true) {
        comment(
            &mut out,
            &format!("Positions go in with edit (no {}).", C2wKey::CmdSB),
        );
        key(&mut out, C2wKey::InitPos, "1");
    } else if let Some(c) = &found.fen_command {
        key(&mut out, C2wKey::InitPos, "1");
        key(
            &mut out,
            C2wKey::CmdSB,
            &format!("{}{}", c.word, if c.own_line { "\\n" } else { "" }),
        );
    } else {
        comment(
            &mut out,
            "No way of setting a position up worked (setboard, edit, fen).",
        );
        key(&mut out, C2wKey::InitPos, "0");
    }

    notes(&mut out, C2wKey::MoveNow);
    match found.move_now {
        Some(m) => key(&mut out, C2wKey::MoveNow, if m { "1" } else { "0" }),
        None => comment(
            &mut out,
            &format!("{} left out: not decided.", C2wKey::MoveNow),
        ),
    }

    notes(&mut out, C2wKey::CmdST);
    if found.st == Some(true) {
        key(&mut out, C2wKey::CmdST, "st");
    } else {
        comment(
            &mut out,
            &format!("No {}: no seconds-per-move control.", C2wKey::CmdST),
        );
    }

    notes(&mut out, C2wKey::CmdSD);
    match &found.sd {
        Some(w) => key(&mut out, C2wKey::CmdSD, w),
        None => comment(&mut out, &format!("No {}: no depth limit.", C2wKey::CmdSD)),
    }

    notes(&mut out, C2wKey::TypeOfCmdLevel);
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
        comment(&mut out, &format!("{raw} = {}", parts.join(" + ")));
        key(&mut out, C2wKey::TypeOfCmdLevel, &raw.to_string());
    } else if base_inc {
        comment(&mut out, "0: base and increment only (`level 0 BASE INC`).");
        key(&mut out, C2wKey::TypeOfCmdLevel, "0");
    } else {
        comment(
            &mut out,
            &format!("No {}: no level form worked.", C2wKey::TypeOfCmdLevel),
        );
    }

    notes(&mut out, C2wKey::CmdHint);
    if found.hint == Some(true) {
        key(&mut out, C2wKey::CmdHint, "hint");
    } else {
        comment(&mut out, &format!("No {}.", C2wKey::CmdHint));
    }

    notes(&mut out, C2wKey::CmdDraw);
    if found.draw == Some(true) {
        key(&mut out, C2wKey::CmdDraw, "draw");
    } else {
        comment(&mut out, &format!("No {}.", C2wKey::CmdDraw));
    }

    notes(&mut out, C2wKey::TypeOfCmdHash);
    comment(
        &mut out,
        &format!(
            "No {}: a hash command's form cannot be seen from the engine's answers; \
             add the code of the text that fits it (e.g. {} with {}=hash for `hash 32`).",
            C2wKey::TypeOfCmdHash,
            HashCmdType::CommandMegabytes.code(),
            C2wKey::CmdHash
        ),
    );
    out
}
