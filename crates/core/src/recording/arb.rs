//! Proptest strategies shared by the recording tests.

use super::event::{Eol, Event, ProxyKind, Source};
use proptest::prelude::*;

/// Any event the format can hold; optional fields are mostly absent, as in real recordings,
/// so that the common shapes get most of the cases.
pub(crate) fn arb_event() -> impl Strategy<Value = Event> {
    let kinds = prop_oneof![
        6 => Just(None),
        1 => Just(Some(ProxyKind::EngineExit)),
        1 => Just(Some(ProxyKind::GameFinished))
    ];
    (
        (
            any::<u64>(),
            any::<u64>(),
            0..4u8,
            ".*",
            proptest::option::of("[0-9a-f]{0,8}"),
        ),
        (
            0..3u8,
            any::<bool>(),
            kinds,
            proptest::option::weighted(0.1, any::<u32>()),
            proptest::option::weighted(0.1, any::<i32>()),
        ),
        (
            proptest::option::weighted(0.1, ".*"),
            proptest::option::weighted(0.1, ".*"),
            proptest::option::weighted(0.1, ".*"),
            proptest::option::weighted(0.1, any::<u64>()),
            proptest::option::of(any::<u64>()),
        ),
    )
        .prop_map(
            |(
                (seq, t, src, text, hex),
                (eol, more, kind, pid, code),
                (signal, result, session, line, ts),
            )| {
                let src =
                    [Source::Gui, Source::Engine, Source::Stderr, Source::Proxy][src as usize];
                let mut e = Event::line(seq, t, src, text);
                e.ts = ts;
                e.hex = hex;
                e.eol = [Eol::Lf, Eol::Crlf, Eol::None][eol as usize];
                e.more = more;
                e.kind = kind;
                e.pid = pid;
                e.code = code;
                e.signal = signal;
                e.result = result;
                e.session = session.map(Into::into);
                e.line = line;
                e
            },
        )
}
