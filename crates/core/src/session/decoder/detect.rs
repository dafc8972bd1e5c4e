//! Streaming detection: a session whose protocol is not known yet has its lines kept until
//! one decides, then decoded at their own time and place. Apart from the push loop because
//! it is the one place where lines are decoded later than they came in.

use crate::protocol::{self, Dir};
use crate::recording::Event;

use super::{EarlierLine, State};
use crate::session::model::{At, Party};

/// Lines buffered per session while its protocol is still unknown (streaming only).
const DETECT_WINDOW: usize = 200;

/// Streaming detection: buffer the first lines until one decides, then replay them into the
/// session state at their own time and input line; their findings go out with the deciding
/// line ([`Decoded::earlier`](super::Decoded::earlier)), as their own `Decoded` already went
/// out undecoded.
pub(super) fn detect_streaming(st: &mut State, dir: Dir, ev: &Event) {
    if st.detect_done {
        return;
    }
    let mut kept = ev.clone();
    kept.line = st.line;
    st.detect_buf.push((dir, kept));
    let found = protocol::detect(st.detect_buf.iter().map(|(d, e)| (*d, e.text.as_str())));
    let Some(found) = found else {
        if st.detect_buf.len() >= DETECT_WINDOW {
            st.detect_done = true;
            st.detect_buf = Vec::new();
        }
        return;
    };
    st.detect_done = true;
    st.decided_at_first = st.detect_buf.len() == 1;
    st.s.protocol = Some(found.protocol);
    st.s.protocol_reason = found.reason.to_owned();
    let buffered = std::mem::take(&mut st.detect_buf);
    // The current line is decoded by the caller; replay only the earlier ones.
    let earlier = buffered.len().saturating_sub(1);
    let saved = std::mem::take(&mut st.diags);
    let (line, side) = (st.line, st.line_side);
    for (d, e) in buffered.into_iter().take(earlier) {
        let at = At { seq: e.seq, t: e.t };
        st.line = e.line;
        st.line_side = Some(match d {
            Dir::ToEngine => Party::Gui,
            Dir::FromEngine => Party::Engine,
        });
        let msg = st.dispatch(found.protocol, &e, d, at, &mut None);
        let breaches = std::mem::take(&mut st.diags);
        st.earlier.push(EarlierLine {
            at,
            line: e.line,
            msg,
            breaches,
        });
    }
    (st.line, st.line_side) = (line, side);
    st.diags = saved;
}
