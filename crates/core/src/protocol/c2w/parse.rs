//! Reading a profile: [`parse`].

use super::{
    C2wKey, Command, EngineProfile, HashCmdType, HashPlace, InitPosition, LevelFlags, ProfileError,
};

impl Command {
    fn parse(v: &str) -> Command {
        match v.strip_suffix("\\n") {
            Some(w) => Command {
                word: w.trim_ascii().to_owned(),
                own_line: true,
            },
            None => Command {
                word: v.to_owned(),
                own_line: false,
            },
        }
    }
}

/// Parses a profile. Blank lines, `;`/`#` comments and `[section]` headers are skipped; keys are
/// matched case-insensitively (the Windows INI habit). Every problem is reported, not just the
/// first.
pub fn parse(text: &str) -> Result<EngineProfile, Vec<ProfileError>> {
    let mut errors = Vec::new();
    let values = Values::read(text, &mut errors);
    values.obligatory_given(&mut errors);
    // The description defines 0 and 1 (with EngineCmdSB: a FEN command); 2, which some
    // profiles give for the FEN command, is read the same way.
    let init = values.number(C2wKey::InitPos, "0, 1 or 2", |c| c <= 2, &mut errors);
    let move_now = values
        .number(C2wKey::MoveNow, "0 or 1", |c| c <= 1, &mut errors)
        .map(|c| c == 1);
    let level = values
        .number(
            C2wKey::TypeOfCmdLevel,
            "a sum of 0, 1, 2 and 4 (0 to 7)",
            |c| c <= 7,
            &mut errors,
        )
        .map(LevelFlags::from_raw);
    let hash = values
        .number(
            C2wKey::TypeOfCmdHash,
            "one of the description's codes (11, 12, 14, 15, 16, 32, 33, 40-48, 331, 441, 101-104)",
            |c| HashCmdType::from_code(c).is_some(),
            &mut errors,
        )
        .and_then(HashCmdType::from_code);

    let owned = |key: C2wKey| values.get(key).map(|(v, _)| v.to_owned());
    let fen_command = values.get(C2wKey::CmdSB).map(|(v, _)| Command::parse(v));
    let init_position = init.map(|c| match (c, &fen_command) {
        (0, _) => InitPosition::Unsupported,
        (_, Some(_)) => InitPosition::FenCommand,
        _ => InitPosition::Edit,
    });
    if init == Some(2) && fen_command.is_none() {
        errors.push(ProfileError {
            line: values.get(C2wKey::InitPos).map(|(_, n)| n),
            message: format!(
                "{}=2 sets positions up with a FEN command, but {} is missing",
                C2wKey::InitPos,
                C2wKey::CmdSB
            ),
        });
    }
    let hash_cmd = values.get(C2wKey::CmdHash).map(|(v, _)| Command::parse(v));
    if let Some(t) = hash {
        values.hash_type_served(t, hash_cmd.is_some(), &mut errors);
    }
    if !errors.is_empty() {
        errors.sort_by_key(|e| e.line.unwrap_or(usize::MAX));
        return Err(errors);
    }
    Ok(EngineProfile {
        path: owned(C2wKey::Path).unwrap_or_default(),
        name: owned(C2wKey::Name).unwrap_or_default(),
        switch: owned(C2wKey::Switch).unwrap_or_default(),
        version: owned(C2wKey::Version).unwrap_or_default(),
        init_position,
        fen_command,
        move_now,
        st_cmd: owned(C2wKey::CmdST),
        sd_cmd: owned(C2wKey::CmdSD),
        level_type: level,
        hint_cmd: owned(C2wKey::CmdHint),
        draw_cmd: owned(C2wKey::CmdDraw),
        hash_cmd_type: hash,
        hash_cmd,
        ini_file: owned(C2wKey::IniFile),
        // Dragon's key is `\n` (the second line of the file): kept as written.
        hash_key_in_ini: values
            .raw(C2wKey::HashKeyInIniFile)
            .map(|(v, _)| v.to_owned()),
        lines: values.0.iter().map(|(k, _, n)| (*k, *n)).collect(),
    })
}

/// A profile's values as given: key, value (trimmed) and line, in the file's order.
struct Values(Vec<(C2wKey, String, usize)>);

impl Values {
    /// The `Key=Value` lines of `text`; a line that is none, an unknown key and a key given
    /// twice are errors.
    fn read(text: &str, errors: &mut Vec<ProfileError>) -> Values {
        let mut values: Vec<(C2wKey, String, usize)> = Vec::new();
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        for (n, raw) in text.lines().enumerate() {
            let n = n + 1;
            let line = raw.trim_ascii();
            if line.is_empty()
                || line.starts_with(';')
                || line.starts_with('#')
                || line.starts_with('[')
            {
                continue;
            }
            let err = |m: String| ProfileError {
                line: Some(n),
                message: m,
            };
            let Some((key, value)) = line.split_once('=') else {
                errors.push(err(format!("`{line}` is not Key=Value")));
                continue;
            };
            let key = key.trim_ascii();
            let Some(canonical) = C2wKey::from_name(key) else {
                let all: Vec<&str> = C2wKey::ALL.iter().map(|k| k.as_str()).collect();
                errors.push(err(format!(
                    "unknown key `{key}` (the keys of the description: {})",
                    all.join(", ")
                )));
                continue;
            };
            if let Some((_, _, first)) = values.iter().find(|(k, _, _)| *k == canonical) {
                errors.push(err(format!(
                    "{canonical} again (first given on line {first})"
                )));
                continue;
            }
            values.push((canonical, value.trim_ascii().to_owned(), n));
        }
        Values(values)
    }

    /// `key`'s value and line, even when empty.
    fn raw(&self, key: C2wKey) -> Option<(&str, usize)> {
        self.0
            .iter()
            .find(|(k, _, _)| *k == key)
            .map(|(_, v, n)| (v.as_str(), *n))
    }

    /// `key`'s value and line, when given and not empty.
    fn get(&self, key: C2wKey) -> Option<(&str, usize)> {
        self.raw(key).filter(|(v, _)| !v.is_empty())
    }

    /// Every obligatory key given, and not empty.
    fn obligatory_given(&self, errors: &mut Vec<ProfileError>) {
        for key in C2wKey::OBLIGATORY {
            match self.raw(key) {
                None => errors.push(ProfileError {
                    line: None,
                    message: format!("the obligatory key {key} is missing"),
                }),
                Some(("", n)) => errors.push(ProfileError {
                    line: Some(n),
                    message: format!("the obligatory key {key} is empty"),
                }),
                _ => {}
            }
        }
    }

    /// `key`'s number, when given and `ok`; else an error saying what is `allowed`.
    fn number(
        &self,
        key: C2wKey,
        allowed: &str,
        ok: impl Fn(u32) -> bool,
        errors: &mut Vec<ProfileError>,
    ) -> Option<u32> {
        let (v, n) = self.get(key)?;
        match v.parse::<u32>() {
            Ok(c) if ok(c) => Some(c),
            _ => {
                errors.push(ProfileError {
                    line: Some(n),
                    message: format!("{key}={v}: expected {allowed}"),
                });
                None
            }
        }
    }

    /// The keys hash command type `t` needs: the command, or the engine's ini file and key.
    fn hash_type_served(&self, t: HashCmdType, has_command: bool, errors: &mut Vec<ProfileError>) {
        let at = self.get(C2wKey::TypeOfCmdHash).map(|(_, n)| n);
        if t.needs_command() && !has_command {
            errors.push(ProfileError {
                line: at,
                message: format!(
                    "{}={} needs {}",
                    C2wKey::TypeOfCmdHash,
                    t.code(),
                    C2wKey::CmdHash
                ),
            });
        }
        if t.place() == HashPlace::IniFile
            && (self.get(C2wKey::IniFile).is_none() || self.raw(C2wKey::HashKeyInIniFile).is_none())
        {
            errors.push(ProfileError {
                line: at,
                message: format!(
                    "{}={} needs {} and {}",
                    C2wKey::TypeOfCmdHash,
                    t.code(),
                    C2wKey::IniFile,
                    C2wKey::HashKeyInIniFile
                ),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const COLCHESS: &str = "EnginePath=engines\\ColChess\r\nEngineName=ColChess\r\n\
        EngineSwitch=colchess.exe -xb\r\nEngineVersion=7.0\r\nEngineInitPos=1\r\n\
        EngineCmdSB=fen\\n\r\nEngineMoveNow=1\r\nEngineCmdST=st\r\nEngineCmdSD=sd\r\n\
        EngineTypeOfCmdLevel=6\r\nEngineTypeOfCmdHash=16\r\nEngineCmdHash=hash\\n\r\n";

    fn errors(text: &str) -> Vec<String> {
        parse(text)
            .err()
            .unwrap_or_default()
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn full_profile_from_the_description() {
        let p = parse(COLCHESS).unwrap();
        assert_eq!(p.switch_words(), vec!["colchess.exe", "-xb"]);
        assert_eq!(p.init_position, Some(InitPosition::FenCommand));
        assert_eq!(
            p.fen_command,
            Some(Command {
                word: "fen".into(),
                own_line: true
            })
        );
        assert_eq!(p.move_now, Some(true));
        assert_eq!(p.st_cmd.as_deref(), Some("st"));
        let l = p.level_type.unwrap_or_default();
        assert!(l.level_seconds && l.time_command && !l.level_minutes && !l.base_inc_only);
        assert_eq!(p.hash_cmd_type, Some(HashCmdType::CommandSpecial(16)));
        assert_eq!(p.line_of(C2wKey::CmdST), Some(8));
    }

    #[test]
    fn every_problem_is_reported_with_its_line() {
        let e = errors(
            "[Engine]\nEngineName=X\nEngineInitPos=3\nEngineTypeOfCmdLevel=abc\n\
             EngineFoo=1\nnonsense\nEngineTypeOfCmdHash=101\nEngineName=Y\nEngineMoveNow=yes\n\
             EngineTypeOfCmdHash=13\nEngineSwitch=\n",
        );
        let want = [
            "line 3: EngineInitPos=3: expected 0, 1 or 2",
            "line 4: EngineTypeOfCmdLevel=abc: expected a sum",
            "line 5: unknown key `EngineFoo`",
            "line 6: `nonsense` is not Key=Value",
            "line 7: EngineTypeOfCmdHash=101 needs EngineIniFile",
            "line 8: EngineName again (first given on line 2)",
            "line 9: EngineMoveNow=yes: expected 0 or 1",
            "line 10: EngineTypeOfCmdHash again",
            "line 11: the obligatory key EngineSwitch is empty",
            "the obligatory key EnginePath is missing",
            "the obligatory key EngineVersion is missing",
        ];
        assert_eq!(e.len(), want.len(), "{e:#?}");
        for (got, want) in e.iter().zip(want) {
            assert!(got.starts_with(want), "{got} should start with {want}");
        }
    }

    #[test]
    fn edit_without_a_fen_command_and_quoted_switch() {
        let p = parse(
            "\u{feff}EnginePath=c:\\Program Files\\X\nEngineName=X\nEngineVersion=1\n\
             EngineSwitch=\"my engine.exe\" -xb  hash=32m\nEngineInitPos=1\n\
             enginetypeofcmdlevel=0\nEngineCmdHint=\n",
        )
        .unwrap();
        assert_eq!(p.init_position, Some(InitPosition::Edit));
        assert!(p.level_type.is_some_and(|l| l.base_inc_only));
        assert_eq!(p.switch_words(), vec!["my engine.exe", "-xb", "hash=32m"]);
        // An empty optional key is as good as none.
        assert_eq!(p.hint_cmd, None);
    }

    #[test]
    fn hash_types_that_need_a_command_say_so() {
        let base = "EnginePath=.\nEngineName=X\nEngineSwitch=x\nEngineVersion=1\n";
        let e = errors(&format!("{base}EngineTypeOfCmdHash=11\n"));
        assert_eq!(
            e,
            vec!["line 5: EngineTypeOfCmdHash=11 needs EngineCmdHash"]
        );
        let e = errors(&format!("{base}EngineInitPos=2\n"));
        assert!(e[0].contains("EngineCmdSB is missing"), "{e:?}");
        let p = parse(&format!("{base}EngineTypeOfCmdHash=48\n")).unwrap();
        assert!(!p.hash_cmd_type.unwrap().on_the_wire());
    }
}
