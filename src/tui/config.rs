//! The viewer's configuration: built-in themes (`themes/*.toml`, compiled in), theme files,
//! and the user's config file (theme, keys). A mistake names the file and line; nothing in
//! them can make the viewer panic.

use super::keys::{Action, Key, KeyMap};
use super::theme::{Theme, parse_color};
use anyhow::{Result, anyhow, bail};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use toml::Spanned;

/// The built-in themes: name and text.
pub const BUILTIN: &[(&str, &str)] = &[
    ("dark", include_str!("../../themes/dark.toml")),
    ("light", include_str!("../../themes/light.toml")),
    (
        "high-contrast",
        include_str!("../../themes/high-contrast.toml"),
    ),
];

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ThemeFile {
    #[allow(dead_code)]
    name: Option<String>,
    #[serde(default)]
    colors: BTreeMap<String, Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum Keys {
    One(String),
    Many(Vec<String>),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ConfigFile {
    theme: Option<Spanned<String>>,
    ascii: Option<bool>,
    gap: Option<Spanned<String>>,
    /// `osc52`: copies go to the terminal's clipboard; `off` (the default).
    clipboard: Option<Spanned<String>>,
    /// `false`: the terminal keeps the mouse (its own selection works).
    mouse: Option<bool>,
    /// Action name -> key or keys: they replace the action's default keys.
    #[serde(default)]
    keys: BTreeMap<Spanned<String>, Spanned<Keys>>,
}

/// What the config file sets.
#[derive(Debug, Default)]
pub struct Config {
    pub theme: Option<String>,
    pub ascii: Option<bool>,
    pub gap_ns: Option<u64>,
    pub osc52: bool,
    pub mouse: Option<bool>,
    pub keys: KeyMap,
}

/// `FILE:LINE:COL` of byte `offset` in `text`.
fn place(file: &str, text: &str, offset: usize) -> String {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before
        .rfind('\n')
        .map_or(before.len(), |i| before.len() - i - 1)
        + 1;
    format!("{file}:{line}:{col}")
}

fn parse<T: for<'de> Deserialize<'de>>(file: &str, text: &str) -> Result<T> {
    toml::from_str(text).map_err(|e| {
        let at = e
            .span()
            .map_or(file.to_owned(), |s| place(file, text, s.start));
        anyhow!("{at}: {}", e.message().trim_end())
    })
}

/// Applies theme text over `theme`.
pub fn apply_theme(theme: &mut Theme, file: &str, text: &str) -> Result<()> {
    let t: ThemeFile = parse(file, text)?;
    for (name, value) in &t.colors {
        let at = place(file, text, value.span().start);
        let Some(c) = parse_color(value.get_ref()) else {
            bail!(
                "{at}: `{}` is no colour: use #rrggbb, an ANSI name such as bright-blue, reset, or 0-255",
                value.get_ref()
            );
        };
        if !theme.set(name, c) {
            bail!(
                "{at}: no colour `{name}`; the colours are {}",
                Theme::NAMES.join(", ")
            );
        }
    }
    Ok(())
}

fn config_dir() -> Option<PathBuf> {
    std::env::var_os("XDG_CONFIG_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config")))
        .map(|d| d.join("kibitzer"))
}

/// The user's config file: `$XDG_CONFIG_HOME/kibitzer/view.toml` (or `~/.config/...`).
pub fn default_config_path() -> Option<PathBuf> {
    config_dir().map(|d| d.join("view.toml"))
}

/// The theme `spec` names: a path (with a `/` or ending in `.toml`), a theme in the user's
/// theme folder, or a built-in one.
pub fn theme(spec: &str) -> Result<Theme> {
    let mut t = Theme::default();
    let path = if spec.contains('/') || spec.ends_with(".toml") {
        Some(PathBuf::from(spec))
    } else {
        config_dir()
            .map(|d| d.join("themes").join(format!("{spec}.toml")))
            .filter(|p| p.is_file())
    };
    if let Some(p) = path {
        let text =
            std::fs::read_to_string(&p).map_err(|e| anyhow!("theme {}: {e}", p.display()))?;
        apply_theme(&mut t, &p.display().to_string(), &text)?;
        return Ok(t);
    }
    match BUILTIN.iter().find(|(n, _)| *n == spec) {
        Some((n, text)) => apply_theme(&mut t, &format!("themes/{n}.toml"), text)?,
        None => bail!(
            "unknown theme `{spec}`; built in: {}; or give a path to a .toml file",
            BUILTIN
                .iter()
                .map(|(n, _)| *n)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
    Ok(t)
}

/// Reads the config at `path`; a missing file at the default place is no error.
pub fn load(path: Option<&Path>) -> Result<Config> {
    let (path, explicit) = match path {
        Some(p) => (p.to_path_buf(), true),
        None => match default_config_path() {
            Some(p) => (p, false),
            None => return Ok(Config::default()),
        },
    };
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && !explicit => {
            return Ok(Config::default());
        }
        Err(e) => bail!("config {}: {e}", path.display()),
    };
    parse_config(&path.display().to_string(), &text)
}

pub fn parse_config(file: &str, text: &str) -> Result<Config> {
    let c: ConfigFile = parse(file, text)?;
    let mut out = Config {
        theme: c.theme.map(Spanned::into_inner),
        ascii: c.ascii,
        mouse: c.mouse,
        ..Config::default()
    };
    if let Some(cb) = c.clipboard {
        out.osc52 = match cb.get_ref().as_str() {
            "osc52" => true,
            "off" => false,
            other => bail!(
                "{}: clipboard `{other}`: \"osc52\" (the terminal's clipboard) or \"off\"",
                place(file, text, cb.span().start)
            ),
        };
    }
    if let Some(g) = c.gap {
        out.gap_ns = Some(super::filter::duration_ns(g.get_ref()).ok_or_else(|| {
            anyhow!(
                "{}: gap `{}`: a duration such as 500ms or 2s",
                place(file, text, g.span().start),
                g.get_ref()
            )
        })?);
    }
    for (name, keys) in &c.keys {
        let at = place(file, text, name.span().start);
        let Some(action) = Action::from_name(name.get_ref()) else {
            bail!(
                "{at}: no action `{}`; the actions are {}",
                name.get_ref(),
                Action::ALL
                    .iter()
                    .map(|a| a.name())
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        };
        let list = match keys.get_ref() {
            Keys::One(k) => vec![k.clone()],
            Keys::Many(v) => v.clone(),
        };
        out.keys.bindings.retain(|(_, a)| *a != action);
        for k in list {
            let Some(key) = Key::parse(&k) else {
                bail!(
                    "{}: `{k}` is no key: a character, ctrl-X, alt-X, or up down left right pageup pagedown home end enter esc tab space",
                    place(file, text, keys.span().start)
                );
            };
            out.keys.bind(key, action);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_theme_parses_and_sets_every_colour() {
        for (name, text) in BUILTIN {
            let mut t = Theme::default();
            apply_theme(&mut t, name, text).unwrap();
            let f: ThemeFile = parse(name, text).unwrap();
            for c in Theme::NAMES {
                assert!(f.colors.contains_key(*c), "{name} lacks {c}");
            }
        }
        assert_eq!(
            theme("dark").unwrap(),
            Theme::default(),
            "dark.toml is the default"
        );
        assert_ne!(theme("light").unwrap(), Theme::default());
    }

    #[test]
    fn mistakes_name_the_file_and_line() {
        let e = theme_err("[colors]\ngui = \"#12345\"\n");
        assert!(e.starts_with("t.toml:2:7: `#12345` is no colour"), "{e}");
        let e = theme_err("[colors]\n\nguy = \"red\"\n");
        assert!(e.starts_with("t.toml:3:7: no colour `guy`"), "{e}");
        let e = theme_err("[colours]\n");
        assert!(e.starts_with("t.toml:1:"), "{e}");
        let e = theme_err("[colors\n");
        assert!(e.starts_with("t.toml:1:"), "{e}");
        let e = parse_config("c.toml", "theme = \"light\"\n[keys]\nquit = \"qq\"\n")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("c.toml:3:8: `qq` is no key"), "{e}");
        let e = parse_config("c.toml", "[keys]\nfly = \"x\"\n")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("c.toml:2:1: no action `fly`"), "{e}");
        let e = parse_config("c.toml", "gap = \"soon\"\n")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("c.toml:1:7: gap"), "{e}");
        let e = parse_config("c.toml", "clipboard = \"x11\"\n")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("c.toml:1:13: clipboard `x11`"), "{e}");
        assert!(
            parse_config("c.toml", "clipboard = \"osc52\"\nmouse = false\n")
                .is_ok_and(|c| c.osc52 && c.mouse == Some(false))
        );
        let e = parse_config("c.toml", "colour = 1\n")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("c.toml:1:1:"), "{e}");
    }

    fn theme_err(text: &str) -> String {
        apply_theme(&mut Theme::default(), "t.toml", text)
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn keys_replace_the_defaults_of_their_action() {
        let c = parse_config(
            "c.toml",
            "[keys]\nquit = [\"Q\", \"ctrl-q\"]\ndown = \"ctrl-n\"\n",
        )
        .unwrap();
        let k = |s: &str| c.keys.action(Key::parse(s).unwrap());
        assert_eq!(k("Q"), Some(Action::Quit));
        assert_eq!(k("ctrl-q"), Some(Action::Quit));
        assert_eq!(k("q"), None);
        assert_eq!(k("ctrl-n"), Some(Action::Down));
        assert_eq!(k("j"), None);
        assert_eq!(k("k"), Some(Action::Up));
    }
}
