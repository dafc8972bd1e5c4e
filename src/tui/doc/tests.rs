//! The document's compact index keeps what it was given.

use super::Doc;
use crate::recording::{Event, Source};
use crate::rules::Profile;

#[test]
fn a_row_is_16_bytes() {
    assert_eq!(std::mem::size_of::<super::Row>(), 16);
}

fn doc_of(seqs: &[u64]) -> Doc {
    let mut d = Doc::new(
        "t",
        "recording",
        Doc::new_decoder(None, Vec::new()),
        Profile::default_profile(),
    );
    for &seq in seqs {
        d.push(&Event::line(seq, 0, Source::Gui, "isready"), None);
    }
    d
}

/// Rows keep their events' numbers however a recording numbers them: one after the
/// other, with gaps, out of order, or the same number twice.
#[test]
fn every_row_keeps_its_event_number() {
    for seqs in [
        vec![1, 2, 3, 4, 5],
        vec![1, 2, 7, 8, 20],
        vec![5, 6, 1, 2, 3],
        vec![3, 3, 3],
        vec![u64::MAX - 1, u64::MAX, 0],
    ] {
        let d = doc_of(&seqs);
        for (r, &seq) in seqs.iter().enumerate() {
            assert_eq!(d.seq(r), seq, "{seqs:?} row {r}");
            // The last row with the number, as when the rows were searched one by one.
            let last = seqs.iter().rposition(|&s| s == seq);
            assert_eq!(d.row_of_seq(seq), last, "{seqs:?} seq {seq}");
        }
        assert_eq!(d.row_of_seq(1000), None);
    }
}

/// A row keeps its time whole past 78 hours (a tournament's log over days), and when
/// times go back.
#[test]
fn every_row_keeps_its_time() {
    let ts = [0, 5, (1 << 48) + 7, 1 << 49, 3, u64::MAX];
    let mut d = doc_of(&[]);
    for (i, &t) in ts.iter().enumerate() {
        d.push(&Event::line(i as u64 + 1, t, Source::Gui, "isready"), None);
    }
    for (r, &t) in ts.iter().enumerate() {
        assert_eq!(d.t(r), t, "row {r}");
    }
}

/// Line numbers come back as given, and going to a line finds the first row read at or
/// after it, whether lines repeat (two events on one line), skip, or are unknown (0).
#[test]
fn every_row_keeps_its_line_and_lines_are_found() {
    for lines in [
        vec![2, 3, 4, 5],
        vec![2, 3, 3, 4, 10, 11, 11, 12],
        vec![7, 7, 7],
        vec![0, 0, 5, 6],
        vec![5, 6, 0, 7, 2],
    ] {
        let mut d = doc_of(&[]);
        for (i, &l) in lines.iter().enumerate() {
            d.push(
                &Event::line(i as u64 + 1, 0, Source::Gui, "isready"),
                Some(l),
            );
        }
        for (r, &l) in lines.iter().enumerate() {
            assert_eq!(d.line(r), l, "{lines:?} row {r}");
        }
        for n in 0..14 {
            let want = lines.iter().position(|&l| l != 0 && l >= n);
            assert_eq!(d.row_at_line(n), want, "{lines:?} line {n}");
        }
    }
}

/// What each answered request was owed comes back whole, a pong's number too.
#[test]
fn answered_requests_keep_what_was_owed() {
    let mut d = doc_of(&[]);
    let lines = [
        (Source::Gui, "xboard"),
        (Source::Gui, "protover 2"),
        (Source::Engine, "feature ping=1 done=1"),
        (Source::Gui, "ping 7"),
        (Source::Engine, "pong 7"),
    ];
    for (i, (src, text)) in lines.into_iter().enumerate() {
        d.push(&Event::line(i as u64 + 1, i as u64, src, text), None);
    }
    let owed: Vec<String> = d.answered.iter().map(|a| d.owed(a).to_string()).collect();
    assert_eq!(owed, ["feature done=1", "pong 7"]);
    assert!(d.answered.iter().all(|a| !a.cancelled()));
    assert_eq!(d.answer_of(3).map(|a| a.close_row), Some(4));
}
