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
    let key = |out: &mut String, k: &str, v: &str| {
        out.push_str(k);
        out.push('=');
        crate::untrusted::push_escaped(out, v);
        out.push('\n');
    };
    let notes = |out: &mut String, k: &str| {
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
    key(&mut out, "EnginePath", &loc.dir);
    notes(&mut out, "EngineName");
    if found.name.is_none() {
        comment(&mut out, "No feature myname: the executable's name.");
    }
    key(&mut out, "EngineName", &name);
    key(&mut out, "EngineSwitch", &loc.switch);
    match &found.version {
        Some(v) => key(&mut out, "EngineVersion", v),
        None => {
            comment(
                &mut out,
                "No version in the engine's name: write its version here.",
            );
            key(&mut out, "EngineVersion", "unknown");
        }
    }
    for n in found.notes_of("protocol") {
        comment(&mut out, n);
    }

    notes(&mut out, "EngineInitPos");
    if found.setboard == Some(true) {
        key(&mut out, "EngineInitPos", "1");
        key(&mut out, "EngineCmdSB", "setboard");
    } else if found.edit == Some(true) {
        comment(&mut out, "Positions go in with edit (no EngineCmdSB).");
        key(&mut out, "EngineInitPos", "1");
    } else if let Some(c) = &found.fen_command {
        key(&mut out, "EngineInitPos", "1");
        key(
            &mut out,
            "EngineCmdSB",
            &format!("{}{}", c.word, if c.own_line { "\\n" } else { "" }),
        );
    } else {
        comment(
            &mut out,
            "No way of setting a position up worked (setboard, edit, fen).",
        );
        key(&mut out, "EngineInitPos", "0");
    }

    notes(&mut out, "EngineMoveNow");
    match found.move_now {
        Some(m) => key(&mut out, "EngineMoveNow", if m { "1" } else { "0" }),
        None => comment(&mut out, "EngineMoveNow left out: not decided."),
    }

    notes(&mut out, "EngineCmdST");
    if found.st == Some(true) {
        key(&mut out, "EngineCmdST", "st");
    } else {
        comment(&mut out, "No EngineCmdST: no seconds-per-move control.");
    }

    notes(&mut out, "EngineCmdSD");
    match &found.sd {
        Some(w) => key(&mut out, "EngineCmdSD", w),
        None => comment(&mut out, "No EngineCmdSD: no depth limit."),
    }

    notes(&mut out, "EngineTypeOfCmdLevel");
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
        key(&mut out, "EngineTypeOfCmdLevel", &raw.to_string());
    } else if base_inc {
        comment(&mut out, "0: base and increment only (`level 0 BASE INC`).");
        key(&mut out, "EngineTypeOfCmdLevel", "0");
    } else {
        comment(&mut out, "No EngineTypeOfCmdLevel: no level form worked.");
    }

    notes(&mut out, "EngineCmdHint");
    if found.hint == Some(true) {
        key(&mut out, "EngineCmdHint", "hint");
    } else {
        comment(&mut out, "No EngineCmdHint.");
    }

    notes(&mut out, "EngineCmdDraw");
    if found.draw == Some(true) {
        key(&mut out, "EngineCmdDraw", "draw");
    } else {
        comment(&mut out, "No EngineCmdDraw.");
    }

    notes(&mut out, "EngineTypeOfCmdHash");
    comment(
        &mut out,
        "No EngineTypeOfCmdHash: a hash command's form cannot be seen from the engine's answers; \
         add the code of the text that fits it (e.g. 12 with EngineCmdHash=hash for `hash 32`).",
    );
    out
}
