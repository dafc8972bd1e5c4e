//! Colours of the viewer. The built-in themes are `themes/*.toml` compiled in; a theme file
//! sets some colours and keeps the dark default's for the rest.

use ratatui::style::Color;

macro_rules! theme {
    ($($field:ident,)*) => {
        /// Every colour the viewer uses.
        #[derive(Debug, Clone, PartialEq)]
        pub struct Theme {
            $(pub $field: Color,)*
        }

        impl Theme {
            /// Sets colour `name` (a field name); `false` when there is no such colour.
            pub fn set(&mut self, name: &str, c: Color) -> bool {
                match name {
                    $(stringify!($field) => self.$field = c,)*
                    _ => return false,
                }
                true
            }

            pub const NAMES: &'static [&'static str] = &[$(stringify!($field),)*];
        }
    };
}

theme! {
    fg,
    bg,
    dim,
    border,
    focus,
    title,
    selected_bg,
    selected_fg,
    gui,
    engine,
    stderr,
    proxy,
    error,
    warning,
    note,
    chat,
    match_bg,
    status_fg,
    status_bg,
    hang,
    light_square,
    dark_square,
    last_move,
    white_piece,
    black_piece,
    eval_line,
}

impl Default for Theme {
    /// The dark theme (`themes/dark.toml` says the same).
    fn default() -> Self {
        Theme {
            fg: Color::Reset,
            bg: Color::Reset,
            dim: Color::DarkGray,
            border: Color::DarkGray,
            focus: Color::Cyan,
            title: Color::White,
            selected_bg: Color::Rgb(0x30, 0x3a, 0x50),
            selected_fg: Color::White,
            gui: Color::Rgb(0x87, 0xaf, 0xff),
            engine: Color::Rgb(0xa8, 0xe0, 0x8a),
            stderr: Color::Rgb(0xd7, 0x87, 0xaf),
            proxy: Color::Rgb(0x9e, 0x9e, 0x9e),
            error: Color::Rgb(0xff, 0x5f, 0x5f),
            warning: Color::Rgb(0xff, 0xd7, 0x5f),
            note: Color::Rgb(0x5f, 0xd7, 0xd7),
            chat: Color::DarkGray,
            match_bg: Color::Rgb(0x5f, 0x5f, 0x00),
            status_fg: Color::Black,
            status_bg: Color::Rgb(0x87, 0xaf, 0xd7),
            hang: Color::Rgb(0xff, 0x87, 0xff),
            light_square: Color::Rgb(0xb5, 0x9f, 0x7a),
            dark_square: Color::Rgb(0x7a, 0x5c, 0x3d),
            last_move: Color::Rgb(0xaa, 0xa2, 0x3a),
            white_piece: Color::White,
            black_piece: Color::Black,
            eval_line: Color::Rgb(0x87, 0xd7, 0xff),
        }
    }
}

impl Theme {
    /// `NO_COLOR`: every colour the terminal's own; the viewer tells things apart by shape
    /// (gutter marks, arrows, outline and filled pieces) and reverse video instead.
    pub fn no_color() -> Theme {
        let mut t = Theme::default();
        for name in Theme::NAMES {
            t.set(name, Color::Reset);
        }
        t
    }
}

/// `#rrggbb`, an ANSI name (`red`, `bright-blue`, `dark-gray`...), `reset` or an index 0-255.
pub fn parse_color(s: &str) -> Option<Color> {
    let s = s.trim();
    if let Some(hex) = s.strip_prefix('#') {
        if hex.len() != 6 {
            return None;
        }
        let v = u32::from_str_radix(hex, 16).ok()?;
        return Some(Color::Rgb((v >> 16) as u8, (v >> 8) as u8, v as u8));
    }
    if let Ok(i) = s.parse::<u8>() {
        return Some(Color::Indexed(i));
    }
    Some(match s.to_ascii_lowercase().replace('_', "-").as_str() {
        "reset" | "default" => Color::Reset,
        "black" => Color::Black,
        "red" => Color::Red,
        "green" => Color::Green,
        "yellow" => Color::Yellow,
        "blue" => Color::Blue,
        "magenta" => Color::Magenta,
        "cyan" => Color::Cyan,
        "gray" | "grey" => Color::Gray,
        "dark-gray" | "dark-grey" | "bright-black" => Color::DarkGray,
        "bright-red" => Color::LightRed,
        "bright-green" => Color::LightGreen,
        "bright-yellow" => Color::LightYellow,
        "bright-blue" => Color::LightBlue,
        "bright-magenta" => Color::LightMagenta,
        "bright-cyan" => Color::LightCyan,
        "white" => Color::White,
        _ => return None,
    })
}
