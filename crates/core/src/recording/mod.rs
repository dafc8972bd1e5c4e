//! The recording format (v1, JSON Lines): model, reader, writer. See `docs/recording-format.md`.
#[cfg(test)]
mod arb;
pub mod event;
pub mod probe;
pub mod reader;
pub mod sample;
pub mod writer;

pub use event::{
    C2wNote, Eol, Event, FORMAT_VERSION, Header, PIECE_BYTES, ProxyKind, ReplayOf, RunnerVerdict,
    Source, VerdictKind,
};
pub use probe::ProbeFact;
pub use reader::{IssueKind, ReadIssue, Reader, Recording, RecordingError, read_all};
pub use sample::{Capture, ProcSample, ThreadDetail, ThreadStates, WaitCount};
