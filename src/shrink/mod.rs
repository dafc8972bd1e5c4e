//! `kibitzer shrink`: a long session turned into the shortest one that still shows the same
//! fault against an engine, by delta debugging over the session's structure.
//!
//! - [`units`]: what may be dropped (games, searches, options, `isready`, `ucinewgame`);
//! - [`candidate`]: a session made of the original's steps, some dropped or rewritten;
//! - [`moves`], [`cecp_moves`] and [`limits`]: a `position` cut to the FEN before, a CECP
//!   game's first moves to one `setboard`, a `go` searching less;
//! - [`fault`]: what must still show (a rule, a crash, a hang, an illegal move, a command);
//! - [`trial`]: candidates run against fresh engines (`replay`'s pacing and judge), side by
//!   side, several tries each;
//! - [`ddmin`]: the reduction; [`search`]: the phases in order; [`report`]: the typed report.

pub mod attempt;
pub mod candidate;
pub mod cecp_moves;
pub mod ddmin;
pub mod fault;
pub mod limits;
pub mod moves;
pub mod report;
pub mod search;
pub mod trial;
pub mod units;

pub use search::{NotReproduced, Shrunk, shrink};
