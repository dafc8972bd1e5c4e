//! Chess Academy `.c2w` engine profiles (specs/chess-academy-protocol-c2w.txt): `Key=Value`
//! lines describing how the GUI drives a WinBoard engine. The checker compares traffic
//! against the profile (e.g. `EngineCmdST=st` means `st` must be accepted).

use super::{Diagnostic, diag};

/// How the GUI sets up a non-initial position (`EngineInitPos`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InitPosition {
    /// 0: the engine cannot take a non-initial position.
    Unsupported,
    /// 1: with `edit`.
    Edit,
    /// A FEN command (`EngineCmdSB`, usually `setboard`).
    FenCommand,
    Other(u32),
}

/// `EngineTypeOfCmdLevel`, a sum of flags.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LevelFlags {
    pub raw: u32,
    /// 0: base+increment only (`level 0 TIME 0`).
    pub base_inc_only: bool,
    /// 1: standard `level`, time without seconds.
    pub level_minutes: bool,
    /// 2: standard `level`, time with seconds (`MIN:SEC`).
    pub level_seconds: bool,
    /// 4: `time` commands are used.
    pub time_command: bool,
}

impl LevelFlags {
    pub fn from_raw(raw: u32) -> Self {
        LevelFlags {
            raw,
            base_inc_only: raw == 0,
            level_minutes: raw & 1 != 0,
            level_seconds: raw & 2 != 0,
            time_command: raw & 4 != 0,
        }
    }
}

/// `EngineTypeOfCmdHash`: where and in which unit the hash size goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HashCmdType {
    /// 11: `hash 32M` (Crafty).
    CommandMegabytesSuffix,
    /// 12: `hash 32` (Exchess...).
    CommandMegabytes,
    /// 14..=33: engine-specific commands (TCB, Gromit, ColChess, Fortress, SSECHESS).
    CommandSpecial(u32),
    /// 40..=48, 331, 441: on the command line, engine-specific unit and switch.
    CommandLine(u32),
    /// 101..=104: in the engine's ini file (`EngineIniFile`, `EngineHashKeyInIniFile`).
    IniFile(u32),
    Unknown(u32),
}

impl HashCmdType {
    pub fn from_code(code: u32) -> Self {
        match code {
            11 => HashCmdType::CommandMegabytesSuffix,
            12 => HashCmdType::CommandMegabytes,
            14 | 15 | 16 | 32 | 33 => HashCmdType::CommandSpecial(code),
            40..=48 | 331 | 441 => HashCmdType::CommandLine(code),
            101..=104 => HashCmdType::IniFile(code),
            _ => HashCmdType::Unknown(code),
        }
    }

    /// Types that need `EngineCmdHash`.
    fn needs_command(self) -> bool {
        matches!(
            self,
            HashCmdType::CommandMegabytesSuffix
                | HashCmdType::CommandMegabytes
                | HashCmdType::CommandSpecial(16 | 32 | 33)
        )
    }
}

/// A decoded `.c2w` profile.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct EngineProfile {
    pub path: Option<String>,
    pub name: Option<String>,
    /// Executable plus command-line options.
    pub switch: Option<String>,
    pub version: Option<String>,
    pub init_position_method: Option<InitPosition>,
    /// `EngineCmdSB`, with `\n` kept literally; see [`EngineProfile::setboard_lines`].
    pub setboard_cmd: Option<String>,
    /// `EngineMoveNow`: the engine supports `?`.
    pub move_now: Option<bool>,
    pub move_now_cmd: Option<String>,
    pub st_cmd: Option<String>,
    pub sd_cmd: Option<String>,
    pub level_type: Option<LevelFlags>,
    pub hint_cmd: Option<String>,
    pub draw_cmd: Option<String>,
    pub hash_cmd_type: Option<HashCmdType>,
    pub hash_cmd: Option<String>,
    pub ini_file: Option<String>,
    pub hash_key_in_ini: Option<String>,
    /// Keys the description does not define, in file order.
    pub extra: Vec<(String, String)>,
}

impl EngineProfile {
    /// The FEN command split at its literal `\n` escapes (ColChess: `fen\n` sends `fen` on a
    /// line of its own before the FEN elements).
    pub fn setboard_lines(&self) -> Vec<&str> {
        self.setboard_cmd
            .as_deref()
            .map(|s| s.split("\\n").collect())
            .unwrap_or_default()
    }
}

fn code(key: &str, v: &str, d: &mut Vec<Diagnostic>) -> Option<u32> {
    let c = v.parse().ok();
    if c.is_none() {
        diag(d, format!("{key}: expected a number, got '{v}'"));
    }
    c
}

/// Parses a profile. Blank lines, `;`/`#` comments and `[section]` headers are skipped; keys are
/// matched case-insensitively (Windows INI habit).
pub fn parse(text: &str) -> (EngineProfile, Vec<Diagnostic>) {
    let mut p = EngineProfile::default();
    let mut d = Vec::new();
    let mut init_raw = None;
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim_ascii();
        if line.is_empty()
            || line.starts_with(';')
            || line.starts_with('#')
            || line.starts_with('[')
        {
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            diag(&mut d, format!("line {}: not Key=Value: '{line}'", n + 1));
            continue;
        };
        let key = key.trim_ascii();
        let v = value.trim_ascii();
        let s = || Some(v.to_owned());
        match key.to_ascii_lowercase().as_str() {
            "enginepath" => p.path = s(),
            "enginename" => p.name = s(),
            "engineswitch" => p.switch = s(),
            "engineversion" => p.version = s(),
            "engineinitpos" => init_raw = code(key, v, &mut d),
            "enginecmdsb" => p.setboard_cmd = s(),
            "enginemovenow" => match v.parse::<u32>() {
                Ok(0) => p.move_now = Some(false),
                Ok(1) => p.move_now = Some(true),
                _ => {
                    // Some profiles give the command itself rather than a flag.
                    p.move_now = Some(true);
                    p.move_now_cmd = s();
                }
            },
            "enginecmdst" => p.st_cmd = s(),
            "enginecmdsd" => p.sd_cmd = s(),
            "enginetypeofcmdlevel" => {
                p.level_type = code(key, v, &mut d).map(LevelFlags::from_raw);
                if let Some(l) = p.level_type
                    && l.raw > 7
                {
                    diag(&mut d, format!("{key}: unknown flag bits in {}", l.raw));
                }
            }
            "enginecmdhint" => p.hint_cmd = s(),
            "enginecmddraw" => p.draw_cmd = s(),
            "enginetypeofcmdhash" => {
                p.hash_cmd_type = code(key, v, &mut d).map(HashCmdType::from_code);
                if let Some(HashCmdType::Unknown(c)) = p.hash_cmd_type {
                    diag(&mut d, format!("{key}: unknown hash command type {c}"));
                }
            }
            "enginecmdhash" => p.hash_cmd = s(),
            "engineinifile" => p.ini_file = s(),
            "enginehashkeyininifile" => p.hash_key_in_ini = s(),
            _ => {
                diag(&mut d, format!("line {}: unknown key '{key}'", n + 1));
                p.extra.push((key.to_owned(), v.to_owned()));
            }
        }
    }
    p.init_position_method = init_raw.map(|c| match c {
        0 => InitPosition::Unsupported,
        1 if p.setboard_cmd.is_some() => InitPosition::FenCommand,
        1 => InitPosition::Edit,
        2 => InitPosition::FenCommand,
        other => InitPosition::Other(other),
    });
    if let Some(InitPosition::Other(c)) = p.init_position_method {
        diag(&mut d, format!("EngineInitPos: unknown value {c}"));
    }
    if p.init_position_method == Some(InitPosition::FenCommand) && p.setboard_cmd.is_none() {
        diag(
            &mut d,
            "EngineInitPos asks for a FEN command but EngineCmdSB is missing",
        );
    }
    for (key, present) in [
        ("EnginePath", p.path.is_some()),
        ("EngineName", p.name.is_some()),
        ("EngineSwitch", p.switch.is_some()),
        ("EngineVersion", p.version.is_some()),
    ] {
        if !present {
            diag(&mut d, format!("missing mandatory key {key}"));
        }
    }
    if let Some(t) = p.hash_cmd_type {
        if t.needs_command() && p.hash_cmd.is_none() {
            diag(&mut d, "EngineTypeOfCmdHash needs EngineCmdHash");
        }
        if matches!(t, HashCmdType::IniFile(_))
            && (p.ini_file.is_none() || p.hash_key_in_ini.is_none())
        {
            diag(
                &mut d,
                "EngineTypeOfCmdHash 101-104 needs EngineIniFile and EngineHashKeyInIniFile",
            );
        }
    }
    (p, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_profile_from_the_description() {
        let text = "EnginePath=engines\\ColChess\r\nEngineName=ColChess\r\n\
            EngineSwitch=colchess.exe -xb\r\nEngineVersion=7.0\r\nEngineInitPos=1\r\n\
            EngineCmdSB=fen\\n\r\nEngineMoveNow=1\r\nEngineCmdST=st\r\nEngineCmdSD=sd\r\n\
            EngineTypeOfCmdLevel=6\r\nEngineTypeOfCmdHash=16\r\nEngineCmdHash=hash\\n\r\n";
        let (p, d) = parse(text);
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(p.switch.as_deref(), Some("colchess.exe -xb"));
        assert_eq!(p.init_position_method, Some(InitPosition::FenCommand));
        assert_eq!(p.setboard_lines(), vec!["fen", ""]);
        assert_eq!(p.move_now, Some(true));
        assert_eq!(p.st_cmd.as_deref(), Some("st"));
        let l = p.level_type.unwrap_or_default();
        assert!(l.level_seconds && l.time_command && !l.level_minutes && !l.base_inc_only);
        assert_eq!(p.hash_cmd_type, Some(HashCmdType::CommandSpecial(16)));
    }

    #[test]
    fn bad_values_unknown_keys_and_missing_keys_are_diagnosed() {
        let (p, d) = parse(
            "[Engine]\nEngineName=X\nEngineInitPos=0\nEngineTypeOfCmdLevel=abc\n\
             EngineFoo=1\nnonsense\nEngineTypeOfCmdHash=101\n",
        );
        assert_eq!(p.init_position_method, Some(InitPosition::Unsupported));
        assert_eq!(p.level_type, None);
        assert_eq!(p.extra, vec![("EngineFoo".to_owned(), "1".to_owned())]);
        let all: String = d.iter().map(|x| x.message.clone() + "\n").collect();
        for needle in [
            "EngineTypeOfCmdLevel",
            "unknown key 'EngineFoo'",
            "not Key=Value",
            "missing mandatory key EnginePath",
            "EngineIniFile",
        ] {
            assert!(all.contains(needle), "no '{needle}' in {all}");
        }
        assert!(!all.contains("EngineName"));
    }

    #[test]
    fn edit_when_no_fen_command() {
        let (p, _) = parse("EngineInitPos=1\nenginetypeofcmdlevel=0");
        assert_eq!(p.init_position_method, Some(InitPosition::Edit));
        assert!(p.level_type.is_some_and(|l| l.base_inc_only));
    }
}
