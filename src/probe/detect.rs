//! Which protocol an engine speaks, when the user did not say: each protocol's first command
//! sent to its own fresh start of the engine, each waited for as long as the handshake itself
//! would be (an engine that answers `uci` after 4 s is a UCI engine). NBoard's is the
//! reference GUI's start, `nboard 2`, `set depth`, `ping 1`.
//!
//! Detection costs about one start of the engine: `uci` goes first, alone, and the other
//! protocols' starts follow only when it has not decided within `STAGGER` (or the engine
//! went). The start that answered is kept and becomes the run's first start: its opening
//! line is the handshake step's request, so a UCI or CECP engine is not started again.
//! The order of preference is uci, then xboard, then nboard: an engine that answers two (as
//! Fairy-Stockfish does) is probed as the first, and once any protocol has answered, the
//! preferred ones get only a short grace more.
//!
//! The attempts are recorded beside the recording; when none answers, they become the
//! recording (one session per attempt), so that there is something to inspect.

use super::run::Timeouts;
use crate::protocol::Protocol;
use crate::recording::Header;
use crate::replay::driver::{Driver, Waited};
use crate::session::{Decoder, Handshake, Owed, Session};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// What shows that the engine speaks a protocol, when it does.
type Seen = fn(&Session) -> Option<&'static str>;

/// Once one protocol answered, how much longer a preferred one still gets.
const GRACE: Duration = Duration::from_millis(500);
/// How long `uci` alone gets before the other protocols' starts join it: a UCI engine
/// answers within it (Stockfish in 80 ms when the machine is idle), and one that does not is
/// only tried alongside the others, at the cost of this much more detection time for CECP
/// and NBoard engines.
const STAGGER: Duration = Duration::from_millis(300);
/// How long one attempt's wait lasts before the next attempt is looked at.
const SLICE: Duration = Duration::from_millis(10);

/// Why no protocol was found, or why the engine could not be started.
#[derive(Debug)]
pub struct Undetected {
    pub message: String,
    /// The attempts' recording, when one was kept.
    pub recording: Option<PathBuf>,
}

/// The protocol found, what showed it, and the start of the engine that showed it when the
/// run can go on with it.
pub struct Detected {
    pub protocol: Protocol,
    pub reason: String,
    pub kept: Option<Kept>,
}

/// A start of the engine that answered, recording into the run's recording already: its
/// opening line is the first step's request, sent as step 1 (the step's fact written before
/// it).
pub struct Kept {
    pub driver: Driver,
    /// The opening's last line (`uci`, `protover 2`).
    pub request: Option<u64>,
    pub sent_at: Instant,
}

/// How each attempt is started: the run's header and decoder for that protocol, and the
/// first step of its suite (id, title), so that a kept start is the run's own.
pub type Prepare<'a> =
    &'a dyn Fn(Protocol) -> (Header, Decoder, Option<(&'static str, &'static str)>);

/// The protocol and what showed it. `output`: where the run's recording goes; the attempts
/// are recorded beside it, the kept one becomes it, and all of them become it when nothing is
/// detected.
pub fn detect(
    engine: &[OsString],
    dir: Option<&Path>,
    t: &Timeouts,
    output: &Path,
    prepare: Prepare<'_>,
) -> Result<Detected, Undetected> {
    let d = Detection {
        engine,
        dir,
        output,
        prepare,
        within: t.handshake,
    };
    let mut running: Vec<Attempt> = Vec::new();
    let mut waiting = openings().into_iter();
    if let Some(opening) = waiting.next() {
        running.push(d.start(opening).map_err(not_started)?);
    }
    d.race(&mut running, &mut waiting)?;
    let found = running.iter().position(|a| a.why.is_some());
    if let Some(i) = found {
        let winner = running.remove(i);
        for a in running {
            a.discard();
        }
        return Ok(winner.keep(output));
    }
    Err(d.undetected(running))
}

/// A protocol's opening lines, and what shows the engine answered them.
type Opening = (Protocol, &'static [u8], Seen);

/// The openings, in order of preference.
fn openings() -> [Opening; 3] {
    [
        (Protocol::Uci, b"uci\n", |s| {
            if matches!(s.handshake, Handshake::Done(_)) {
                Some("answered `uci` with `uciok`")
            } else {
                s.engine_name
                    .as_ref()
                    .map(|_| "answered `uci` with `id name`")
            }
        }),
        (Protocol::Cecp, b"xboard\nprotover 2\n", |s| {
            (!s.features.is_empty() || matches!(s.handshake, Handshake::Done(_)))
                .then_some("answered `protover 2` with `feature`")
        }),
        (Protocol::Nboard, NBOARD_START, nboard_seen),
    ]
}

fn not_started(e: std::io::Error) -> Undetected {
    Undetected {
        message: e.to_string(),
        recording: None,
    }
}

/// One detection: the engine, where its attempts are recorded, and how long each waits.
struct Detection<'a> {
    engine: &'a [OsString],
    dir: Option<&'a Path>,
    output: &'a Path,
    prepare: Prepare<'a>,
    within: Duration,
}

impl Detection<'_> {
    /// Starts an attempt, recorded beside the run's recording.
    fn start(&self, (protocol, hello, seen): Opening) -> std::io::Result<Attempt> {
        let mut part = self.output.to_path_buf().into_os_string();
        part.push(format!(".detect-{}.part", protocol.name()));
        Attempt::start(
            self.engine,
            self.dir,
            protocol,
            hello,
            seen,
            PathBuf::from(part),
            self.prepare,
        )
    }

    /// Waits on the attempts until one is decided or none can be: `uci` alone first, the
    /// others joining it after `STAGGER`, a preferred attempt still open given `GRACE`.
    fn race(
        &self,
        running: &mut Vec<Attempt>,
        waiting: &mut std::array::IntoIter<Opening, 3>,
    ) -> Result<(), Undetected> {
        let began = Instant::now();
        let mut deadline = began + self.within;
        loop {
            let mut open = 0;
            for a in running.iter_mut() {
                a.poll();
                if a.driver.is_some() && a.why.is_none() {
                    open += 1;
                }
            }
            // The first in order of preference that answered, once nothing preferred to it is
            // still waited for.
            let decided = running.iter().position(|a| a.why.is_some());
            if decided.is_none() && (open == 0 || began.elapsed() >= STAGGER) && waiting.len() > 0 {
                for opening in waiting.by_ref() {
                    match self.start(opening) {
                        Ok(a) => running.push(a),
                        Err(e) => {
                            for a in running.drain(..) {
                                a.discard();
                            }
                            return Err(not_started(e));
                        }
                    }
                }
                // The later starts get the whole handshake time too.
                deadline = Instant::now() + self.within;
                continue;
            }
            if let Some(i) = decided {
                let preferred_open = running[..i]
                    .iter()
                    .any(|a| a.driver.is_some() && a.why.is_none());
                if !preferred_open {
                    return Ok(());
                }
                deadline = deadline.min(Instant::now() + GRACE);
            }
            if open == 0 || Instant::now() >= deadline {
                return Ok(());
            }
        }
    }

    /// No attempt answered: what was tried and how it ended, with the attempts kept in the
    /// run's recording.
    fn undetected(&self, running: Vec<Attempt>) -> Undetected {
        let output = self.output;
        let tried: Vec<String> = running
            .iter()
            .map(|a| {
                format!(
                    "`{}`",
                    String::from_utf8_lossy(a.hello)
                        .trim()
                        .replace('\n', "`, `")
                )
            })
            .collect();
        let exited = running.iter().all(|a| a.driver.is_none());
        let flooded = running.iter().any(|a| a.flooded);
        let mut ended = Vec::new();
        for a in running {
            ended.push(a.end());
        }
        let recording = keep(output, &ended).ok().map(|()| output.to_path_buf());
        for (_, p) in &ended {
            let _ = std::fs::remove_file(p);
        }
        let kept = match &recording {
            Some(r) => format!("; the attempts are in {}", r.display()),
            None => String::new(),
        };
        let how = if flooded {
            "the engine was stopped for flooding its output before it answered".to_owned()
        } else if exited {
            "the engine exited without answering".to_owned()
        } else {
            format!("no answer within {:.1} s", self.within.as_secs_f64())
        };
        Undetected {
            message: format!(
                "{}: no protocol detected ({how} to {}){kept}; say which with --protocol",
                self.engine
                    .first()
                    .map(|e| e.to_string_lossy().into_owned())
                    .unwrap_or_default(),
                tried.join(", nor to ")
            ),
            recording,
        }
    }
}

/// How the reference GUI starts an NBoard engine (weltyc/novello ParsedEngine.java): `nboard 2`
/// alone, then with its first request `set depth` and a `ping`. No real engine answers
/// `nboard 2` by itself (NTest and Edax say `set myname` on `set depth`), so the whole start
/// is sent at once, to the attempt's own start of the engine: a UCI or CECP engine waits for
/// nothing more than before.
const NBOARD_START: &[u8] = b"nboard 2\nset depth 1\nping 1\n";

/// An NBoard engine answered the start: `set myname`, or the `pong 1` the ping is owed.
fn nboard_seen(s: &Session) -> Option<&'static str> {
    if s.engine_name.is_some() {
        return Some("answered `nboard 2`, `set depth 1` with `set myname`");
    }
    s.obligations
        .iter()
        .any(|o| matches!(&o.owed, Owed::Pong(n) if n == "1") && o.closed.is_some() && !o.cancelled)
        .then_some("answered `nboard 2`, `set depth 1`, `ping 1` with `pong 1`")
}

/// What one detection attempt may read from the engine.
const DETECTION_BYTES: u64 = 8 << 20;

struct Attempt {
    protocol: Protocol,
    hello: &'static [u8],
    seen: Seen,
    driver: Option<Driver>,
    why: Option<&'static str>,
    path: PathBuf,
    /// Stopped for flooding its output.
    flooded: bool,
    /// The opening's last line, and when it was sent.
    request: Option<u64>,
    sent_at: Instant,
    /// The opening was sent as the suite's first step: the start can be the run's.
    as_step: bool,
}

impl Attempt {
    /// Starts the engine for `protocol` as the run would and sends the opening, as the first
    /// step of the suite when that step's request is the opening.
    fn start(
        engine: &[OsString],
        dir: Option<&Path>,
        protocol: Protocol,
        hello: &'static [u8],
        seen: Seen,
        path: PathBuf,
        prepare: Prepare<'_>,
    ) -> std::io::Result<Attempt> {
        let (header, decoder, first_step) = prepare(protocol);
        let mut d = Driver::spawn_with(engine, dir, Some(&path), &header, decoder)?;
        // An answer to the opening line is a few lines: a few MiB without one is a flood, and
        // the attempts must not each keep the run's whole allowance.
        d.limit_engine_bytes(DETECTION_BYTES);
        if let Some((id, title)) = first_step {
            d.probe_fact(crate::recording::ProbeFact::Step {
                n: 1,
                id: id.to_owned(),
                title: title.to_owned(),
            });
        }
        let sent_at = Instant::now();
        let mut request = None;
        for line in hello.split_inclusive(|b| *b == b'\n') {
            request = d.send(line);
        }
        Ok(Attempt {
            protocol,
            hello,
            seen,
            driver: Some(d),
            why: None,
            path,
            flooded: false,
            request,
            sent_at,
            as_step: first_step.is_some(),
        })
    }

    /// The attempt that answered, as the run's: its recording moved to `output` (the file
    /// stays open for the driver, which keeps writing to it), its engine kept when its
    /// opening was the first step's; otherwise ended, and the run starts afresh.
    fn keep(mut self, output: &Path) -> Detected {
        let reason = format!("detected: {}", self.why.unwrap_or("answered"));
        let protocol = self.protocol;
        if self.as_step
            && let Some(driver) = self.driver.take()
        {
            if std::fs::rename(&self.path, output).is_ok() {
                driver.restore_engine_bytes();
                return Detected {
                    protocol,
                    reason,
                    kept: Some(Kept {
                        driver,
                        request: self.request,
                        sent_at: self.sent_at,
                    }),
                };
            }
            self.driver = Some(driver);
        }
        self.discard();
        Detected {
            protocol,
            reason,
            kept: None,
        }
    }

    /// Handles what the engine said so far (waiting a moment for more).
    fn poll(&mut self) {
        let Some(d) = self.driver.as_mut() else {
            return;
        };
        if self.why.is_some() {
            return;
        }
        let seen = self.seen;
        let mut why = None;
        let r = d.wait_until(Instant::now() + SLICE, |d| {
            why = d.decoder().session(0).and_then(seen);
            why.is_some()
        });
        self.why = why;
        if r == Waited::EngineGone
            && self.why.is_none()
            && let Some(d) = self.driver.take()
        {
            self.flooded = d.flooded();
            d.abort("protocol detection: the engine went");
        }
    }

    fn end(mut self) -> (Protocol, PathBuf) {
        if let Some(d) = self.driver.take() {
            d.abort("protocol detection over");
        }
        (self.protocol, self.path)
    }

    fn discard(self) {
        let (_, p) = self.end();
        let _ = std::fs::remove_file(p);
    }
}

/// The attempts as one recording at `output`: the first attempt's header, as the detection's,
/// then every attempt's events as its own session, `detect PROTOCOL`.
fn keep(output: &Path, attempts: &[(Protocol, PathBuf)]) -> anyhow::Result<()> {
    use std::io::Write as _;
    let Some((_, first)) = attempts.first() else {
        anyhow::bail!("no attempt");
    };
    let header = std::fs::read(first)?;
    let header = header.split(|b| *b == b'\n').next().unwrap_or_default();
    let mut header: Header = serde_json::from_slice(header)?;
    // Each session is its own protocol's: the header names none.
    header.protocol = None;
    header.label = Some("kibitzer probe: protocol detection".to_owned());
    let mut buf = Vec::new();
    crate::recording::writer::encode_header(&mut buf, &header);
    // The attempts ran side by side, each timed from its own start a moment apart: merged
    // in time order, so that the file reads as what happened.
    let mut events = Vec::new();
    for (protocol, path) in attempts {
        let label: std::sync::Arc<str> = format!("detect {}", protocol.name()).into();
        for (mut ev, _) in crate::replay::read_back(path)? {
            ev.session = Some(label.clone());
            events.push(ev);
        }
    }
    events.sort_by_key(|e| e.t);
    for (seq, mut ev) in (1..).zip(events) {
        ev.seq = seq;
        crate::recording::writer::encode_event(&mut buf, &ev);
    }
    let mut f = std::fs::File::create(output)?;
    f.write_all(&buf)?;
    f.flush()?;
    Ok(())
}
