//! Chess Academy `.c2w` engine profiles (specs/chess-academy-protocol-c2w.txt): `Key=Value`
//! lines telling the GUI how to start and drive a WinBoard engine. `record --c2w` starts the
//! engine a profile names; `check --c2w` holds a CECP session to the forms it declares.
//!
//! A profile is configuration the user wrote by hand, so [`parse`] is strict: a missing
//! obligatory key, an unknown key or value and a line that is no `Key=Value` are errors with
//! their line, rather than a profile that silently means something else.

use std::fmt;

mod parse;
mod write;
pub use parse::parse;
pub use write::ProfileWriter;

/// Lists every key once: its variant, its text (the description's spelling) and a doc line.
macro_rules! keys {
    ($($(#[doc = $doc:literal])+ $key:ident = $text:literal,)+) => {
        /// A key of a `.c2w` profile. Its text ([`C2wKey::as_str`], `Display`) is the
        /// description's spelling; profiles may write it in any case ([`C2wKey::from_name`]).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum C2wKey {
            $($(#[doc = $doc])+ $key,)+
        }

        impl C2wKey {
            /// Every key the description defines, in its order.
            pub const ALL: &[C2wKey] = &[$(C2wKey::$key,)+];

            /// The key as the description spells it (`EngineCmdSB`).
            pub const fn as_str(self) -> &'static str {
                match self {
                    $(C2wKey::$key => $text,)+
                }
            }
        }
    };
}

keys! {
    /// The engine's directory: absolute, or relative to the GUI's own (`cha.exe`). Obligatory.
    Path = "EnginePath",
    /// The engine's name. Obligatory.
    Name = "EngineName",
    /// The executable and its command-line options. Obligatory.
    Switch = "EngineSwitch",
    /// The engine's version. Obligatory.
    Version = "EngineVersion",
    /// 0: no non-initial positions; 1: positions with `edit`, or with the FEN command of
    /// `EngineCmdSB` when there is one.
    InitPos = "EngineInitPos",
    /// The FEN command (`setboard`); `WORD\n`: the FEN one element a line after the word.
    CmdSB = "EngineCmdSB",
    /// 1: the engine supports `?` (move now).
    MoveNow = "EngineMoveNow",
    /// The seconds-per-move command (`st`).
    CmdST = "EngineCmdST",
    /// The search-depth command (`sd`).
    CmdSD = "EngineCmdSD",
    /// The `level` forms and `time`, a sum of flags ([`LevelFlags`]).
    TypeOfCmdLevel = "EngineTypeOfCmdLevel",
    /// The hint command (`hint`).
    CmdHint = "EngineCmdHint",
    /// The draw command (`draw`).
    CmdDraw = "EngineCmdDraw",
    /// Where and in which unit the hash size goes, a code ([`HashCmdType`]).
    TypeOfCmdHash = "EngineTypeOfCmdHash",
    /// The hash command's word (`hash`, `hash\n`, `brain`).
    CmdHash = "EngineCmdHash",
    /// The engine's ini file, for the hash types that put the size there.
    IniFile = "EngineIniFile",
    /// The hash key in that ini file (`\n`: the file's second line).
    HashKeyInIniFile = "EngineHashKeyInIniFile",
}

impl C2wKey {
    /// The keys every profile must give, non-empty.
    pub const OBLIGATORY: [C2wKey; 4] =
        [C2wKey::Path, C2wKey::Name, C2wKey::Switch, C2wKey::Version];

    /// The key spelled `name` in any case (the Windows INI habit).
    pub fn from_name(name: &str) -> Option<C2wKey> {
        C2wKey::ALL
            .iter()
            .copied()
            .find(|k| k.as_str().eq_ignore_ascii_case(name))
    }
}

impl fmt::Display for C2wKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.as_str())
    }
}

/// How the GUI sets up a non-initial position (`EngineInitPos`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InitPosition {
    /// 0: the engine cannot take a non-initial position.
    Unsupported,
    /// 1 without `EngineCmdSB`: with `edit`.
    Edit,
    /// 1 (or 2) with `EngineCmdSB`: a FEN command, usually `setboard`.
    FenCommand,
}

/// `EngineTypeOfCmdLevel`, a sum of flags.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LevelFlags {
    pub raw: u32,
    /// 0: base+increment only, `level` only as `level 0 TIME 0`.
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

/// `EngineTypeOfCmdHash`: where and in which unit the hash size goes. The one place that
/// knows what each code means: the probe, `c2w suggest` and the `C2W-` rules ask it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HashCmdType {
    /// 11: `hash 32M` (Crafty).
    CommandMegabytesSuffix,
    /// 12: `hash 32` (Exchess...).
    CommandMegabytes,
    /// 14, 15, 16, 32, 33: engine-specific commands (TCB, Gromit, ColChess, Fortress, SSECHESS).
    CommandSpecial(u32),
    /// 40..=48, 331, 441: on the command line, engine-specific unit and switch.
    CommandLine(u32),
    /// 101..=104: in the engine's ini file (`EngineIniFile`, `EngineHashKeyInIniFile`).
    IniFile(u32),
}

impl HashCmdType {
    /// The codes the description lists; any other is refused.
    pub fn from_code(code: u32) -> Option<Self> {
        Some(match code {
            11 => HashCmdType::CommandMegabytesSuffix,
            12 => HashCmdType::CommandMegabytes,
            14 | 15 | 16 | 32 | 33 => HashCmdType::CommandSpecial(code),
            40..=48 | 331 | 441 => HashCmdType::CommandLine(code),
            101..=104 => HashCmdType::IniFile(code),
            _ => return None,
        })
    }

    pub fn code(self) -> u32 {
        match self {
            HashCmdType::CommandMegabytesSuffix => 11,
            HashCmdType::CommandMegabytes => 12,
            HashCmdType::CommandSpecial(c)
            | HashCmdType::CommandLine(c)
            | HashCmdType::IniFile(c) => c,
        }
    }

    /// Types whose description says "The following line is required: EngineCmdHash=".
    fn needs_command(self) -> bool {
        matches!(
            self,
            HashCmdType::CommandMegabytesSuffix
                | HashCmdType::CommandMegabytes
                | HashCmdType::CommandSpecial(16 | 32 | 33)
        )
    }

    /// Where the size goes.
    pub fn place(self) -> HashPlace {
        match self {
            HashCmdType::CommandMegabytesSuffix
            | HashCmdType::CommandMegabytes
            | HashCmdType::CommandSpecial(_) => HashPlace::Wire,
            HashCmdType::CommandLine(_) => HashPlace::CommandLine,
            HashCmdType::IniFile(_) => HashPlace::IniFile,
        }
    }

    /// The size goes on the wire (not on the command line or in an ini file).
    pub fn on_the_wire(self) -> bool {
        self.place() == HashPlace::Wire
    }

    /// The form of the size after the command's word on its line, where the description
    /// gives one to hold a GUI to: none for 14 (TCB) and 15 (Gromit), whose "special" forms
    /// it does not spell out, for 16 (ColChess), whose size goes on a line of its own
    /// (`hash\n`), and for the types that put the size elsewhere.
    pub fn size_form(self) -> Option<HashSizeForm> {
        match self {
            HashCmdType::CommandMegabytesSuffix => Some(HashSizeForm::MegabytesM),
            HashCmdType::CommandMegabytes | HashCmdType::CommandSpecial(32 | 33) => {
                Some(HashSizeForm::Number)
            }
            _ => None,
        }
    }

    /// About 16 MB in the unit of the type's command, as a GUI sends it: `16M` (11); 16 (12
    /// megabytes, and 14 and 15, whose units the description leaves to the engine); 18, 2^18
    /// entries where it counts entries (16 ColChess, 33 SSECHESS); 10, Fortress's `brain N`
    /// being 2^(N-1) * 32 KB (32). `None` when the size does not go on the wire.
    pub fn size_of_16_mb(self) -> Option<&'static str> {
        Some(match self {
            HashCmdType::CommandMegabytesSuffix => "16M",
            HashCmdType::CommandSpecial(16 | 33) => "18",
            HashCmdType::CommandSpecial(32) => "10",
            HashCmdType::CommandMegabytes | HashCmdType::CommandSpecial(_) => "16",
            HashCmdType::CommandLine(_) | HashCmdType::IniFile(_) => return None,
        })
    }
}

/// Where an [`HashCmdType`] puts the hash size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HashPlace {
    /// In a command to the engine (11 to 33).
    Wire,
    /// On the engine's command line (40 to 48, 331, 441).
    CommandLine,
    /// In the engine's ini file (101 to 104).
    IniFile,
}

/// How a hash command writes the size after its word ([`HashCmdType::size_form`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HashSizeForm {
    /// Megabytes with an M: `hash 32M` (11).
    MegabytesM,
    /// One number, no unit: `hash 32` (12), `brain 10` (32), `hash 18` (33).
    Number,
}

impl HashSizeForm {
    /// Whether `size`, the one word after the command's, has this form (`m` is taken for `M`).
    pub fn accepts(self, size: &str) -> bool {
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        match self {
            HashSizeForm::MegabytesM => size.strip_suffix(['M', 'm']).is_some_and(digits),
            HashSizeForm::Number => digits(size),
        }
    }
}

/// A command of the profile whose value may carry the description's `\n`: the command word
/// goes on a line of its own and what follows on the next lines (`EngineCmdSB=fen\n`,
/// `EngineCmdHash=hash\n`).
#[derive(
    Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
pub struct Command {
    pub word: String,
    /// `\n` follows the word.
    pub own_line: bool,
}

/// A decoded `.c2w` profile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineProfile {
    /// The engine's directory: absolute, or relative to the GUI's own (`cha.exe`) directory.
    pub path: String,
    pub name: String,
    /// Executable plus command-line options.
    pub switch: String,
    pub version: String,
    pub init_position: Option<InitPosition>,
    /// `EngineCmdSB`.
    pub fen_command: Option<Command>,
    /// `EngineMoveNow`: the engine supports `?`.
    pub move_now: Option<bool>,
    pub st_cmd: Option<String>,
    pub sd_cmd: Option<String>,
    pub level_type: Option<LevelFlags>,
    pub hint_cmd: Option<String>,
    pub draw_cmd: Option<String>,
    pub hash_cmd_type: Option<HashCmdType>,
    pub hash_cmd: Option<Command>,
    pub ini_file: Option<String>,
    pub hash_key_in_ini: Option<String>,
    /// The line of each key given.
    lines: Vec<(C2wKey, usize)>,
}

impl EngineProfile {
    /// The line (1-based) a key was given on.
    pub fn line_of(&self, key: C2wKey) -> Option<usize> {
        self.lines.iter().find(|(k, _)| *k == key).map(|(_, l)| *l)
    }

    /// `KEY=VALUE (profile line N)`, or `KEY=VALUE` for a key the profile does not give: the
    /// key a message blames or a choice follows.
    pub fn quote(&self, key: C2wKey, value: &str) -> String {
        match self.line_of(key) {
            Some(l) => format!("{key}={value} (profile line {l})"),
            None => format!("{key}={value}"),
        }
    }

    /// `EngineSwitch` split into the executable and its arguments. Words are separated by
    /// blanks; double quotes keep blanks inside a word (Windows paths with spaces).
    pub fn switch_words(&self) -> Vec<String> {
        let mut words = Vec::new();
        let mut cur = String::new();
        let mut quoted = false;
        let mut any = false;
        for c in self.switch.chars() {
            match c {
                '"' => {
                    quoted = !quoted;
                    any = true;
                }
                c if c.is_ascii_whitespace() && !quoted => {
                    if any {
                        words.push(std::mem::take(&mut cur));
                        any = false;
                    }
                }
                c => {
                    cur.push(c);
                    any = true;
                }
            }
        }
        if any {
            words.push(cur);
        }
        words
    }
}

/// What is wrong with a profile, at a line when one is to blame.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProfileError {
    /// 1-based; `None` for a key that is missing altogether.
    pub line: Option<usize>,
    pub message: String,
}

impl fmt::Display for ProfileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(l) => write!(f, "line {l}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_once_in_the_descriptions_order_found_in_any_case() {
        let texts: Vec<&str> = C2wKey::ALL.iter().map(|k| k.as_str()).collect();
        assert_eq!(texts.len(), 16);
        assert_eq!(texts[0], "EnginePath");
        assert_eq!(texts[15], "EngineHashKeyInIniFile");
        for (i, k) in C2wKey::ALL.iter().enumerate() {
            assert!(k.as_str().starts_with("Engine"), "{k}");
            assert_eq!(texts.iter().filter(|t| **t == k.as_str()).count(), 1, "{k}");
            assert_eq!(
                C2wKey::from_name(&k.as_str().to_ascii_lowercase()),
                Some(*k)
            );
            assert_eq!(
                C2wKey::from_name(&k.as_str().to_ascii_uppercase()),
                Some(*k)
            );
            assert_eq!(k.to_string(), k.as_str());
            // ALL is in the variants' order, so a sorted set of keys reads as the description.
            assert!(C2wKey::ALL[..i].iter().all(|before| before < k));
        }
        assert_eq!(C2wKey::from_name("EngineFoo"), None);
        assert_eq!(C2wKey::from_name("Engine"), None);
    }

    #[test]
    fn each_hash_code_says_where_its_size_goes_and_in_which_form() {
        let t = |c| HashCmdType::from_code(c).unwrap();
        for c in [11, 12, 14, 15, 16, 32, 33] {
            assert_eq!(t(c).place(), HashPlace::Wire, "{c}");
            assert!(t(c).size_of_16_mb().is_some(), "{c}");
        }
        for c in [40, 44, 48, 331, 441] {
            assert_eq!(t(c).place(), HashPlace::CommandLine, "{c}");
            assert_eq!(t(c).size_form(), None, "{c}");
            assert_eq!(t(c).size_of_16_mb(), None, "{c}");
        }
        for c in [101, 104] {
            assert_eq!(t(c).place(), HashPlace::IniFile, "{c}");
        }
        let sizes: Vec<_> = [11, 12, 14, 15, 16, 32, 33]
            .map(|c| t(c).size_of_16_mb().unwrap())
            .to_vec();
        assert_eq!(sizes, ["16M", "16", "16", "16", "18", "10", "18"]);
        assert_eq!(t(11).size_form(), Some(HashSizeForm::MegabytesM));
        for c in [12, 32, 33] {
            assert_eq!(t(c).size_form(), Some(HashSizeForm::Number), "{c}");
        }
        for c in [14, 15, 16] {
            assert_eq!(t(c).size_form(), None, "{c}");
        }
        // Every size the GUI sends has the type's form.
        for c in [11, 12, 32, 33] {
            let form = t(c).size_form().unwrap();
            assert!(form.accepts(t(c).size_of_16_mb().unwrap()), "{c}");
        }
        assert!(HashSizeForm::MegabytesM.accepts("32m"));
        assert!(!HashSizeForm::MegabytesM.accepts("32"));
        assert!(!HashSizeForm::MegabytesM.accepts("M"));
        assert!(!HashSizeForm::Number.accepts("32M"));
        assert!(!HashSizeForm::Number.accepts(""));
    }
}
