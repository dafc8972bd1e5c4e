//! Writing a profile: [`ProfileWriter`] puts down `Key=Value` lines and `;` comments, what
//! [`parse`](super::parse) reads back. Which keys a profile gets, and why, is its caller's
//! (`c2w suggest`).

use super::{C2wKey, Command};
use std::fmt;

/// A profile's text, a line at a time. Values and comments are often what an engine said (its
/// name above all), which is untrusted: a CR would split a key, an ESC would reach whoever
/// prints the profile. Both are written escaped.
#[derive(Debug, Default)]
pub struct ProfileWriter {
    out: String,
}

impl ProfileWriter {
    pub fn new() -> ProfileWriter {
        ProfileWriter::default()
    }

    /// `; TEXT`
    pub fn comment(&mut self, text: &str) {
        self.out.push_str("; ");
        crate::untrusted::push_escaped_controls(&mut self.out, text);
        self.out.push('\n');
    }

    /// `KEY=VALUE`
    pub fn key(&mut self, key: C2wKey, value: &str) {
        self.out.push_str(key.as_str());
        self.out.push('=');
        crate::untrusted::push_escaped_controls(&mut self.out, value);
        self.out.push('\n');
    }

    /// The profile's text.
    pub fn finish(self) -> String {
        self.out
    }
}

/// The command as a profile's value: the word, and `\n` after it for the own-line form
/// (`fen\n`), as [`parse`](super::parse) reads it.
impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.word)?;
        if self.own_line {
            f.write_str("\\n")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::{InitPosition, parse};
    use super::*;

    #[test]
    fn what_is_written_reads_back() {
        let mut w = ProfileWriter::new();
        w.comment("written by a test");
        w.key(C2wKey::Path, "/engines/colchess");
        w.key(C2wKey::Name, "ColChess");
        w.key(C2wKey::Switch, "colchess.exe -xb");
        w.key(C2wKey::Version, "7.0");
        let fen = Command {
            word: "fen".into(),
            own_line: true,
        };
        w.key(C2wKey::InitPos, "1");
        w.key(C2wKey::CmdSB, &fen.to_string());
        let hash = Command {
            word: "brain".into(),
            own_line: false,
        };
        w.key(C2wKey::TypeOfCmdHash, "32");
        w.key(C2wKey::CmdHash, &hash.to_string());
        let text = w.finish();
        assert!(text.starts_with("; written by a test\nEnginePath=/engines/colchess\n"));
        assert!(text.contains("\nEngineCmdSB=fen\\n\n"), "{text}");
        let p = parse(&text).unwrap();
        assert_eq!(p.name, "ColChess");
        assert_eq!(p.init_position, Some(InitPosition::FenCommand));
        assert_eq!(p.fen_command, Some(fen));
        assert_eq!(p.hash_cmd, Some(hash));
        assert_eq!(p.line_of(C2wKey::CmdSB), Some(7));
    }

    #[test]
    fn an_engines_text_cannot_split_a_line() {
        let mut w = ProfileWriter::new();
        w.comment("a\rEngineName=evil\x1b[2J");
        w.key(C2wKey::Name, "x\nEngineSwitch=evil");
        let text = w.finish();
        assert_eq!(text.lines().count(), 2, "{text}");
        assert!(!text.contains('\r') && !text.contains('\x1b'), "{text:?}");
    }
}
