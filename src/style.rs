//! One terminal styling for every text report (`check`, `probe`, `report`, `c2w`): anstyle's
//! styles, painted only when the output is a terminal that wants colour. Untrusted text is
//! escaped before it is painted (`untrusted`), never after.

use crate::rules::Severity;
use anstyle::{AnsiColor, Effects, Style};

pub const BOLD: Style = Style::new().effects(Effects::BOLD);
pub const DIM: Style = Style::new().effects(Effects::DIMMED);
pub const ERROR: Style = AnsiColor::Red.on_default().effects(Effects::BOLD);
pub const WARNING: Style = AnsiColor::Yellow.on_default().effects(Effects::BOLD);
pub const NOTE: Style = AnsiColor::Cyan.on_default();
pub const GOOD: Style = AnsiColor::Green.on_default().effects(Effects::BOLD);
/// Hangs and stalls: neither the engine's error nor a pass.
pub const STALL: Style = AnsiColor::Magenta.on_default().effects(Effects::BOLD);
/// What a runner said, beside kibitzer's own findings.
pub const RUNNER: Style = AnsiColor::Magenta.on_default();

/// Paints text, or leaves it plain.
#[derive(Debug, Clone, Copy)]
pub struct Painter {
    on: bool,
}

impl Painter {
    pub fn new(on: bool) -> Painter {
        Painter { on }
    }

    pub fn paint(&self, style: Style, text: &str) -> String {
        if self.on {
            format!("{}{text}{}", style.render(), style.render_reset())
        } else {
            text.to_owned()
        }
    }

    /// A severity's name in its colour.
    pub fn severity(&self, s: Severity) -> String {
        let style = match s {
            Severity::Error => ERROR,
            Severity::Warning => WARNING,
            Severity::Note => NOTE,
            Severity::Chat => DIM,
        };
        self.paint(style, s.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_unless_asked_and_reset_after_each_piece() {
        assert_eq!(Painter::new(false).paint(ERROR, "FAILED"), "FAILED");
        let painted = Painter::new(true).paint(ERROR, "FAILED");
        assert!(painted.starts_with('\x1b') && painted.contains("FAILED"));
        assert!(painted.ends_with("\x1b[0m"), "{painted:?}");
    }
}
