//! Every user command is an [`Action`]; keys map to actions through one table, which the
//! help screen is generated from and the config file patches (`[keys]`, see docs/view.md).

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

macro_rules! actions {
    ($($v:ident $name:literal $help:literal,)*) => {
        /// What the user can ask for. Keys, mouse and the reader thread all end up here.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Action {
            $($v,)*
        }

        impl Action {
            /// The name used in the config file (`[keys]`).
            pub fn name(self) -> &'static str {
                match self { $(Action::$v => $name,)* }
            }

            /// One line for the help screen.
            pub fn help(self) -> &'static str {
                match self { $(Action::$v => $help,)* }
            }

            pub fn from_name(name: &str) -> Option<Action> {
                match name { $($name => Some(Action::$v),)* _ => None }
            }

            pub const ALL: &'static [Action] = &[$(Action::$v,)*];
        }
    };
}

actions! {
    Quit "quit" "quit (the copied position is printed on exit)",
    Up "up" "previous line",
    Down "down" "next line",
    PageUp "page_up" "page up",
    PageDown "page_down" "page down",
    HalfUp "half_page_up" "half a page up",
    HalfDown "half_page_down" "half a page down",
    Top "top" "first line",
    Bottom "bottom" "last line (as far as indexed)",
    NextViolation "next_violation" "next line with a finding",
    PrevViolation "prev_violation" "previous line with a finding",
    NextError "next_error" "next error",
    PrevError "prev_error" "previous error",
    NextWarning "next_warning" "next warning or error",
    PrevWarning "prev_warning" "previous warning or error",
    NextGap "next_gap" "next silence gap (no line for longer than --gap)",
    PrevGap "prev_gap" "previous silence gap",
    NextGame "next_game" "next game",
    PrevGame "prev_game" "previous game",
    NextSearch "next_search" "next search (go, engine to move)",
    PrevSearch "prev_search" "previous search",
    Search "search" "search the text with a regular expression",
    SearchNext "search_next" "next match",
    SearchPrev "search_prev" "previous match",
    Filter "filter" "filter the lines (language: see docs/view.md)",
    ClearFilter "clear_filter" "clear the filter and the search",
    SetMark "set_mark" "set a mark: then a letter",
    JumpMark "jump_mark" "jump to a mark: then a letter",
    NextMark "next_mark" "next marked line",
    PrevMark "prev_mark" "previous marked line",
    TimeMode "time_mode" "time column: since start, delta, absolute, since the request",
    FocusNext "focus_next" "next pane (traffic, violations, sessions)",
    Violations "violations" "focus the violations panel (again: hide it)",
    Sessions "sessions" "show or hide the session list",
    Chart "chart" "show the eval chart or the search panel",
    Copy "copy" "copy the position (FEN / GGF board): OSC 52, printed on exit",
    Follow "follow" "auto-scroll to new lines (with --follow)",
    Command "command" "command line: :500 (line), :t 12.5 (time), :write FILE, :copy, any action name",
    FilterList "filters" "the filter list: o turns one on/off, d deletes, enter edits",
    ToggleFilter "toggle_filter" "in the filter list: turn the filter on or off",
    DeleteFilter "delete_filter" "in the filter list: delete the filter",
    ScrollLeft "scroll_left" "scroll long lines left",
    ScrollRight "scroll_right" "scroll long lines right",
    Wrap "wrap" "wrap long lines (again: scroll them sideways)",
    Panes "panes" "board and search panes on/off (on a narrow terminal too)",
    Mouse "mouse" "mouse capture on/off (off: the terminal's own selection works)",
    CopyLines "copy_lines" "copy the marked lines (or this line) to the clipboard",
    Suspend "suspend" "suspend the viewer (the shell's fg resumes it)",
    DetailDown "detail_down" "scroll the detail pane (or the line view) down",
    DetailUp "detail_up" "scroll the detail pane (or the line view) up",
    Samples "samples" "the engine's process samples in the list on/off (hidden at first)",
    LineNumbers "line_numbers" "the input's line numbers in a column on/off (less -N)",
    ListOnly "list_only" "the whole screen to the list (again: the panes come back)",
    Enter "enter" "the selected line full screen (text, decoding, findings, board; esc closes); in a panel: jump to the violation / show the session",
    Escape "escape" "close the help, the prompt or a panel",
    Help "help" "this help",
}

/// A key as written in the config: `j`, `G`, `ctrl-d`, `pagedown`, `space`, `?`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Key {
    pub code: KeyCode,
    pub ctrl: bool,
    pub alt: bool,
}

impl Key {
    pub fn parse(s: &str) -> Option<Key> {
        let mut ctrl = false;
        let mut alt = false;
        let mut rest = s;
        loop {
            if let Some(r) = rest.strip_prefix("ctrl-") {
                ctrl = true;
                rest = r;
            } else if let Some(r) = rest.strip_prefix("alt-") {
                alt = true;
                rest = r;
            } else {
                break;
            }
        }
        let code = match rest.to_ascii_lowercase().as_str() {
            "up" => KeyCode::Up,
            "down" => KeyCode::Down,
            "left" => KeyCode::Left,
            "right" => KeyCode::Right,
            "pageup" => KeyCode::PageUp,
            "pagedown" => KeyCode::PageDown,
            "home" => KeyCode::Home,
            "end" => KeyCode::End,
            "enter" => KeyCode::Enter,
            "esc" => KeyCode::Esc,
            "tab" => KeyCode::Tab,
            "backtab" => KeyCode::BackTab,
            "delete" => KeyCode::Delete,
            "backspace" => KeyCode::Backspace,
            "space" => KeyCode::Char(' '),
            _ => {
                let mut c = rest.chars();
                let ch = c.next()?;
                if c.next().is_some() {
                    return None;
                }
                KeyCode::Char(ch)
            }
        };
        Some(Key { code, ctrl, alt })
    }

    pub fn of(ev: &KeyEvent) -> Key {
        Key {
            code: ev.code,
            ctrl: ev.modifiers.contains(KeyModifiers::CONTROL),
            alt: ev.modifiers.contains(KeyModifiers::ALT),
        }
    }

    pub fn label(&self) -> String {
        let base = match self.code {
            KeyCode::Up => "up".into(),
            KeyCode::Down => "down".into(),
            KeyCode::Left => "left".into(),
            KeyCode::Right => "right".into(),
            KeyCode::PageUp => "pageup".into(),
            KeyCode::PageDown => "pagedown".into(),
            KeyCode::Home => "home".into(),
            KeyCode::End => "end".into(),
            KeyCode::Enter => "enter".into(),
            KeyCode::Esc => "esc".into(),
            KeyCode::Tab => "tab".into(),
            KeyCode::BackTab => "backtab".into(),
            KeyCode::Delete => "delete".into(),
            KeyCode::Backspace => "backspace".into(),
            KeyCode::Char(' ') => "space".into(),
            KeyCode::Char(c) => c.to_string(),
            _ => "?".into(),
        };
        format!(
            "{}{}{base}",
            if self.ctrl { "ctrl-" } else { "" },
            if self.alt { "alt-" } else { "" }
        )
    }
}

/// The key table: defaults, patched by the config.
#[derive(Debug, Clone)]
pub struct KeyMap {
    pub bindings: Vec<(Key, Action)>,
}

const DEFAULTS: &[(&str, Action)] = &[
    ("q", Action::Quit),
    ("ctrl-c", Action::Quit),
    ("k", Action::Up),
    ("up", Action::Up),
    ("j", Action::Down),
    ("down", Action::Down),
    ("pageup", Action::PageUp),
    ("ctrl-b", Action::PageUp),
    ("pagedown", Action::PageDown),
    ("ctrl-f", Action::PageDown),
    ("space", Action::PageDown),
    ("ctrl-u", Action::HalfUp),
    ("ctrl-d", Action::HalfDown),
    ("g", Action::Top),
    ("home", Action::Top),
    ("G", Action::Bottom),
    ("end", Action::Bottom),
    ("v", Action::NextViolation),
    ("V", Action::PrevViolation),
    ("e", Action::NextError),
    ("E", Action::PrevError),
    ("w", Action::NextWarning),
    ("W", Action::PrevWarning),
    ("s", Action::NextGap),
    ("S", Action::PrevGap),
    ("}", Action::NextGame),
    ("{", Action::PrevGame),
    (")", Action::NextSearch),
    ("(", Action::PrevSearch),
    ("/", Action::Search),
    ("n", Action::SearchNext),
    ("N", Action::SearchPrev),
    ("f", Action::Filter),
    ("|", Action::Filter),
    ("ctrl-l", Action::ClearFilter),
    ("m", Action::SetMark),
    ("'", Action::JumpMark),
    ("u", Action::NextMark),
    ("U", Action::PrevMark),
    ("t", Action::TimeMode),
    ("tab", Action::FocusNext),
    ("x", Action::Violations),
    ("l", Action::Sessions),
    ("c", Action::Chart),
    ("y", Action::Copy),
    ("F", Action::Follow),
    (":", Action::Command),
    ("i", Action::FilterList),
    ("o", Action::ToggleFilter),
    ("d", Action::DeleteFilter),
    ("delete", Action::DeleteFilter),
    ("left", Action::ScrollLeft),
    ("right", Action::ScrollRight),
    ("z", Action::Wrap),
    ("p", Action::Panes),
    ("M", Action::Mouse),
    ("Y", Action::CopyLines),
    ("ctrl-z", Action::Suspend),
    ("]", Action::DetailDown),
    ("[", Action::DetailUp),
    ("L", Action::ListOnly),
    ("P", Action::Samples),
    ("#", Action::LineNumbers),
    ("enter", Action::Enter),
    ("esc", Action::Escape),
    ("?", Action::Help),
];

impl Default for KeyMap {
    fn default() -> Self {
        KeyMap {
            bindings: DEFAULTS
                .iter()
                .filter_map(|(k, a)| Key::parse(k).map(|k| (k, *a)))
                .collect(),
        }
    }
}

impl KeyMap {
    pub fn action(&self, key: Key) -> Option<Action> {
        // Shifted letters come as the upper-case char, sometimes with SHIFT set too.
        self.bindings
            .iter()
            .rev()
            .find(|(k, _)| *k == key)
            .map(|(_, a)| *a)
    }

    /// Binds `key` to `action` (a later binding of the same key wins).
    pub fn bind(&mut self, key: Key, action: Action) {
        self.bindings.retain(|(k, _)| *k != key);
        self.bindings.push((key, action));
    }

    /// The first key bound to `a`.
    pub fn key_for(&self, a: Action) -> Option<String> {
        self.bindings
            .iter()
            .find(|(_, b)| *b == a)
            .map(|(k, _)| k.label())
    }

    /// The hint line: the main keys as the config binds them (an action with no key is left
    /// out, so the line never names a key that does something else).
    pub fn hints(&self) -> String {
        const SHOWN: &[(&[Action], &str)] = &[
            (&[Action::Help], "help"),
            (&[Action::Quit], "quit"),
            (&[Action::Search], "search"),
            (&[Action::Filter], "filter"),
            (&[Action::Command], "command"),
            (&[Action::NextViolation, Action::PrevViolation], "finding"),
            (&[Action::NextError, Action::PrevError], "error"),
            (&[Action::NextGap, Action::PrevGap], "silence"),
            (&[Action::PrevGame, Action::NextGame], "game"),
            (&[Action::Violations], "violations"),
            (&[Action::Sessions], "sessions"),
            (&[Action::Chart], "chart"),
            (&[Action::Copy], "copy"),
        ];
        let mut out = Vec::new();
        for (actions, what) in SHOWN {
            let keys: Vec<String> = actions.iter().filter_map(|a| self.key_for(*a)).collect();
            if !keys.is_empty() {
                out.push(format!("{} {what}", keys.join("/")));
            }
        }
        out.join("  ")
    }

    /// The help screen: one line per action with its keys.
    pub fn help_lines(&self) -> Vec<(String, &'static str)> {
        Action::ALL
            .iter()
            .map(|a| {
                let keys: Vec<String> = self
                    .bindings
                    .iter()
                    .filter(|(_, b)| b == a)
                    .map(|(k, _)| k.label())
                    .collect();
                (keys.join(" "), a.help())
            })
            .filter(|(k, _)| !k.is_empty())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_action_has_a_default_key_and_a_name_that_round_trips() {
        let km = KeyMap::default();
        for a in Action::ALL {
            assert_eq!(Action::from_name(a.name()), Some(*a));
            assert!(km.bindings.iter().any(|(_, b)| b == a), "{a:?} has no key");
        }
        assert_eq!(
            DEFAULTS.len(),
            km.bindings.len(),
            "a default key did not parse"
        );
    }

    #[test]
    fn the_hint_line_follows_the_bindings() {
        let mut km = KeyMap::default();
        assert!(
            km.hints()
                .starts_with("? help  q quit  / search  f filter  : command  v/V finding")
        );
        km.bindings.retain(|(_, a)| *a != Action::Search);
        km.bind(Key::parse("ctrl-s").unwrap(), Action::Search);
        let h = km.hints();
        assert!(
            h.contains("ctrl-s search") && !h.contains("/ search"),
            "{h}"
        );
    }

    #[test]
    fn keys_parse_and_print() {
        for s in [
            "j", "G", "ctrl-d", "pagedown", "space", "?", "alt-x", "enter", "delete",
        ] {
            assert_eq!(Key::parse(s).map(|k| k.label()), Some(s.to_owned()));
        }
        assert_eq!(Key::parse("jj"), None);
    }
}
