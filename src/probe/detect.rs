//! Which protocol an engine speaks, when the user did not say: each protocol's first command
//! sent to a fresh start of the engine, uci first, then xboard, then nboard, each with a short
//! timeout. Nothing of these starts is recorded; the probe itself starts the engine again.

use super::run::Timeouts;
use crate::protocol::Protocol;
use crate::recording::Header;
use crate::replay::driver::Driver;
use crate::session::{Decoder, Handshake, Session};
use std::ffi::OsString;
use std::time::{Duration, Instant};

/// What shows that the engine speaks a protocol, when it does.
type Seen = fn(&Session) -> Option<&'static str>;

/// The longest a single attempt waits.
const ATTEMPT: Duration = Duration::from_secs(3);

/// The protocol and what showed it; `Err` says why none was found, or why the engine could not
/// be started.
pub fn detect(engine: &[OsString], t: &Timeouts) -> Result<(Protocol, String), String> {
    let within = t.handshake.min(ATTEMPT);
    let attempts: [(Protocol, &[u8], Seen); 3] = [
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
        (Protocol::Nboard, b"nboard 2\n", |s| {
            s.engine_name
                .as_ref()
                .map(|_| "answered `nboard 2` with `set myname`")
        }),
    ];
    let mut tried = Vec::new();
    for (protocol, hello, seen) in attempts {
        let header = Header::new(
            concat!("kibitzer ", env!("CARGO_PKG_VERSION")),
            String::new(),
        );
        let decoder = Decoder::new(Some(protocol));
        let mut d =
            Driver::spawn_with(engine, None, None, &header, decoder).map_err(|e| e.to_string())?;
        d.send(hello);
        let mut why = None;
        d.wait_until(Instant::now() + within, |d| {
            why = d.decoder().session(0).and_then(seen);
            why.is_some()
        });
        d.abort("protocol detection over");
        if let Some(why) = why {
            return Ok((protocol, format!("detected: {why}")));
        }
        tried.push(format!(
            "`{}`",
            String::from_utf8_lossy(hello).trim().replace('\n', "`, `")
        ));
    }
    Err(format!(
        "{}: no protocol detected (no answer within {:.1} s to {}); say which with --protocol",
        engine
            .first()
            .map(|e| e.to_string_lossy().into_owned())
            .unwrap_or_default(),
        within.as_secs_f64(),
        tried.join(", then ")
    ))
}
