//! `--c2w PROFILE`: a Chess Academy engine profile read for `record` and `check`, and the engine
//! command it names.

use crate::protocol::c2w::{self, C2wKey, EngineProfile};
use crate::recording::C2wNote;
use anyhow::{Context, Result, bail};
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// A profile read from its file.
pub struct Loaded {
    pub profile: EngineProfile,
    /// As the user gave it, for messages.
    pub shown: String,
    /// Absolute.
    pub file: PathBuf,
    pub text: String,
}

impl Loaded {
    /// What the recording's header notes of the profile.
    pub fn note(&self) -> C2wNote {
        C2wNote {
            file: self.file.display().to_string(),
            name: self.profile.name.clone(),
            version: self.profile.version.clone(),
            text: self.text.clone(),
        }
    }

    fn at(&self, key: C2wKey) -> String {
        match self.profile.line_of(key) {
            Some(l) => format!("{}:{l}", self.shown),
            None => self.shown.clone(),
        }
    }
}

/// The largest profile read. Chess Academy's own profiles are a few hundred bytes; anything
/// near this is no profile (`/dev/zero`, a recording given by mistake), and reading it whole
/// would cost memory without bound.
pub const MAX_PROFILE_BYTES: u64 = 64 * 1024;

/// Reads and parses a profile; every problem of a bad one is in the error, as `FILE:LINE:`.
pub fn load(path: &Path) -> Result<Loaded> {
    use std::io::Read;
    use std::os::unix::fs::FileTypeExt;
    let shown = path.display().to_string();
    // A FIFO (or socket, or device) would be waited on for ever, or read without end: a
    // profile is a file.
    if let Ok(m) = std::fs::metadata(path)
        && !m.is_file()
    {
        let what = match m.file_type() {
            t if t.is_fifo() => "a FIFO",
            t if t.is_dir() => "a directory",
            t if t.is_socket() => "a socket",
            _ => "a device",
        };
        bail!("{shown} is {what}, not a file: a .c2w profile is a file");
    }
    let file = std::fs::File::open(path).with_context(|| format!("cannot read profile {shown}"))?;
    let mut bytes = Vec::new();
    file.take(MAX_PROFILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .with_context(|| format!("cannot read profile {shown}"))?;
    if bytes.len() as u64 > MAX_PROFILE_BYTES {
        bail!(
            "{shown} is larger than {} KiB: no .c2w profile is (Chess Academy's are a few \
             hundred bytes)",
            MAX_PROFILE_BYTES / 1024
        );
    }
    // Chess Academy writes its profiles in the Windows code page: a stray byte there should not
    // make the whole file unreadable.
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let profile = match c2w::parse(&text) {
        Ok(p) => p,
        Err(errors) => {
            let lines: Vec<String> = errors
                .iter()
                .map(|e| match e.line {
                    Some(l) => format!("{shown}:{l}: {}", e.message),
                    None => format!("{shown}: {}", e.message),
                })
                .collect();
            bail!("bad .c2w profile:\n{}", lines.join("\n"));
        }
    };
    let file = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    Ok(Loaded {
        profile,
        shown,
        file,
        text,
    })
}

/// The engine a profile starts: its argv, and the directory to run it in.
pub struct EngineCommand {
    pub argv: Vec<OsString>,
    pub dir: PathBuf,
}

/// Profiles are written on Windows: `engines\crafty`.
fn local(path: &str) -> PathBuf {
    PathBuf::from(path.replace('\\', "/"))
}

fn has_drive(path: &str) -> bool {
    let b = path.as_bytes();
    b.len() >= 2 && b[0].is_ascii_alphabetic() && b[1] == b':'
}

/// `EnginePath` is "a) full path ... b) relatively cha.exe file": a relative one is resolved
/// against `home`, the directory that plays Chess Academy's own, by default the profile's
/// directory. The first word of `EngineSwitch` is the executable in that directory; the rest
/// are its options.
///
/// A profile is a file users download: its `EnginePath` must stay inside the home (not
/// absolute elsewhere, not climbing out with `..` or through a link) unless `allow_outside`
/// (`--c2w-allow-outside`), and the error names the program it would have started.
pub fn engine_command(
    l: &Loaded,
    home: Option<&Path>,
    allow_outside: bool,
) -> Result<EngineCommand> {
    let p = &l.profile;
    if has_drive(&p.path) {
        bail!(
            "{}: {} `{}` has a Windows drive letter; give the engine's directory on this machine (absolute, or relative to the profile's directory or --c2w-home)",
            l.at(C2wKey::Path),
            C2wKey::Path,
            p.path
        );
    }
    let path = local(&p.path);
    let home = match home {
        Some(h) => h.to_path_buf(),
        None => l
            .file
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .map(Path::to_path_buf)
            .unwrap_or_else(|| PathBuf::from(".")),
    };
    let dir = if path.is_absolute() {
        path
    } else {
        home.join(path)
    };
    if !dir.is_dir() {
        bail!(
            "{}: {} `{}` is no directory ({})",
            l.at(C2wKey::Path),
            C2wKey::Path,
            p.path,
            dir.display()
        );
    }
    let words = p.switch_words();
    let Some((exe, args)) = words.split_first() else {
        bail!(
            "{}: {} names no executable",
            l.at(C2wKey::Switch),
            C2wKey::Switch
        );
    };
    if has_drive(exe) {
        bail!(
            "{}: {} `{exe}` has a Windows drive letter; name the executable in {}",
            l.at(C2wKey::Switch),
            C2wKey::Switch,
            C2wKey::Path
        );
    }
    // Chess Academy starts `EnginePath\EngineSwitch`: the executable is in the engine's
    // directory. A profile from the internet must not start a program elsewhere.
    let exe_path = local(exe);
    if exe_path.is_absolute()
        || exe_path
            .components()
            .any(|c| matches!(c, std::path::Component::ParentDir))
    {
        bail!(
            "{}: {} `{exe}` names a program outside {}; Chess Academy runs \
             the executable of the engine's own directory, and so does kibitzer",
            l.at(C2wKey::Switch),
            C2wKey::Switch,
            C2wKey::Path
        );
    }
    let program = dir.join(exe_path);
    if !program.is_file() {
        bail!(
            "{}: {} names `{exe}`, but there is no file {} ({} {})",
            l.at(C2wKey::Switch),
            C2wKey::Switch,
            program.display(),
            C2wKey::Path,
            l.at(C2wKey::Path)
        );
    }
    let inside = match (dir.canonicalize(), home.canonicalize()) {
        (Ok(d), Ok(h)) => d.starts_with(h),
        _ => false,
    };
    if !inside && !allow_outside {
        bail!(
            "{}: {} `{}` is outside the profile's home {} (it would start {}{}); a profile \
             from elsewhere could start any program this way: give --c2w-home DIR to say \
             where its engines live, or --c2w-allow-outside to start it anyway",
            l.at(C2wKey::Path),
            C2wKey::Path,
            p.path,
            home.display(),
            program.display(),
            args.iter().map(|a| format!(" {a}")).collect::<String>()
        );
    }
    let mut argv = vec![program.into_os_string()];
    argv.extend(args.iter().map(OsString::from));
    Ok(EngineCommand { argv, dir })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn loaded(dir: &Path, text: &str) -> Loaded {
        let f = dir.join("e.c2w");
        std::fs::write(&f, text).unwrap();
        load(&f).unwrap()
    }

    #[test]
    fn relative_paths_start_from_the_profile_or_home() {
        let tmp = tempfile::tempdir().unwrap();
        let eng = tmp.path().join("engines").join("toy");
        std::fs::create_dir_all(&eng).unwrap();
        std::fs::write(eng.join("toy.sh"), "").unwrap();
        let l = loaded(
            tmp.path(),
            "EnginePath=engines\\toy\nEngineName=Toy\nEngineSwitch=toy.sh -xb \"a b\"\nEngineVersion=1\n",
        );
        let c = engine_command(&l, None, false).unwrap();
        assert_eq!(c.dir, eng);
        assert_eq!(
            c.argv,
            vec![
                eng.join("toy.sh").into_os_string(),
                OsString::from("-xb"),
                OsString::from("a b")
            ]
        );
        let e = engine_command(&l, Some(&eng), false)
            .err()
            .unwrap()
            .to_string();
        assert!(
            e.contains("e.c2w:1: EnginePath `engines\\toy` is no directory"),
            "{e}"
        );
    }

    #[test]
    fn a_profile_larger_than_the_bound_is_refused_without_reading_it_whole() {
        // A device is refused before it is opened: it is no file.
        let e = load(Path::new("/dev/zero")).err().unwrap().to_string();
        assert!(e.contains("is a device, not a file"), "{e}");
        let tmp = tempfile::tempdir().unwrap();
        let f = tmp.path().join("big.c2w");
        let line = "; a comment line of a profile padded out to a realistic length\n";
        std::fs::write(&f, line.repeat(65 * 1024 / line.len() + 1)).unwrap();
        assert!(load(&f).is_err());
        // Near miss: just under the bound is read (and judged on its keys).
        let ok = "EnginePath=e\nEngineName=T\nEngineSwitch=t\nEngineVersion=1\n";
        let pad = line.repeat((60 * 1024) / line.len());
        std::fs::write(&f, format!("{pad}{ok}")).unwrap();
        assert!(load(&f).is_ok());
    }

    #[test]
    fn an_engine_switch_outside_engine_path_is_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let eng = tmp.path().join("engines");
        std::fs::create_dir_all(&eng).unwrap();
        std::fs::write(tmp.path().join("evil.sh"), "").unwrap();
        for switch in ["../evil.sh", "/bin/sh -c id", "sub/../../evil.sh"] {
            let l = loaded(
                tmp.path(),
                &format!(
                    "EnginePath=engines\nEngineName=T\nEngineSwitch={switch}\nEngineVersion=1\n"
                ),
            );
            let e = engine_command(&l, None, false).err().unwrap().to_string();
            assert!(e.contains("outside EnginePath"), "{switch}: {e}");
        }
        // Near miss: a subdirectory of EnginePath is the engine's own.
        std::fs::create_dir_all(eng.join("bin")).unwrap();
        std::fs::write(eng.join("bin").join("e.sh"), "").unwrap();
        let l = loaded(
            tmp.path(),
            "EnginePath=engines\nEngineName=T\nEngineSwitch=bin\\e.sh\nEngineVersion=1\n",
        );
        assert!(engine_command(&l, None, false).is_ok());
    }

    #[test]
    fn a_missing_executable_or_a_drive_letter_names_the_line() {
        let tmp = tempfile::tempdir().unwrap();
        let l = loaded(
            tmp.path(),
            "EngineName=Toy\nEnginePath=.\nEngineSwitch=toy.exe\nEngineVersion=1\n",
        );
        let e = engine_command(&l, None, false).err().unwrap().to_string();
        assert!(
            e.contains("e.c2w:3: EngineSwitch names `toy.exe`, but there is no file"),
            "{e}"
        );
        let l = loaded(
            tmp.path(),
            "EngineName=Toy\nEnginePath=c:\\engines\nEngineSwitch=toy.exe\nEngineVersion=1\n",
        );
        let e = engine_command(&l, None, false).err().unwrap().to_string();
        assert!(
            e.contains("e.c2w:2: EnginePath `c:\\engines` has a Windows drive letter"),
            "{e}"
        );
    }

    #[test]
    fn a_bad_profile_lists_every_problem_as_file_and_line() {
        let tmp = tempfile::tempdir().unwrap();
        let f = tmp.path().join("bad.c2w");
        std::fs::write(&f, "EngineName=X\nEngineMoveNow=2\n").unwrap();
        let e = format!("{:#}", load(&f).err().unwrap());
        assert!(
            e.contains("bad.c2w:2: EngineMoveNow=2: expected 0 or 1"),
            "{e}"
        );
        assert!(
            e.contains("bad.c2w: the obligatory key EnginePath is missing"),
            "{e}"
        );
    }
}
