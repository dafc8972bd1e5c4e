//! PVs checked ahead ([`super::super::ahead`]): whatever the reading side verified, and
//! whichever lines it was left to parse, the decoder finds what it finds on its own.

use super::*;
use crate::session::ahead::Parsed;

/// Every line's findings as the decoder makes them when fed through [`Ahead`]; `eager(i)`
/// says whether the reading side parses line `i` (else it leaves it to the decoder, as
/// when the decoder falls behind). Also the number of PVs the reading side vouched for.
fn through_ahead(
    events: &[Event],
    eager: impl Fn(usize) -> bool,
) -> (Vec<(RuleId, String)>, usize) {
    let mut ahead = Ahead::default();
    let mut decoder = Decoder::new(None);
    let mut out = Decoded::default();
    let (mut found, mut vouched) = (Vec::new(), 0);
    for (i, ev) in events.iter().enumerate() {
        let mut parsed: Option<Parsed> = ahead.parse(ev, eager(i));
        vouched += usize::from(parsed.as_ref().is_some_and(|p| p.pv_legal_from.is_some()));
        decoder.push_ahead_into(ev, &mut parsed, &mut out);
        found.extend(out.breaches.iter().map(|b| (b.rule, b.message.clone())));
        if let Some(msg) = decoder.take_spent() {
            ahead.reclaim(msg);
        }
    }
    (found, vouched)
}

/// The findings of the decoder on its own.
fn alone(events: &[Event]) -> Vec<(RuleId, String)> {
    let mut decoder = Decoder::new(None);
    let mut out = Decoded::default();
    let mut found = Vec::new();
    for ev in events {
        decoder.push_into(ev, &mut out);
        found.extend(out.breaches.iter().map(|b| (b.rule, b.message.clone())));
    }
    found
}

fn illegal_pvs(found: &[(RuleId, String)]) -> Vec<&str> {
    found
        .iter()
        .filter(|(r, _)| *r == RuleId::UciInfoPvIllegal)
        .map(|(_, m)| m.as_str())
        .collect()
}

/// The decoder alone finds one illegal PV in `events`, and finds the same when fed through
/// [`Ahead`] (lines `eager`), after the reading side vouched for `vouched` PVs (`why`).
fn one_illegal_pv_found_anyway(
    events: &[Event],
    eager: impl Fn(usize) -> bool,
    vouched: usize,
    why: &str,
) {
    let want = alone(events);
    assert_eq!(illegal_pvs(&want).len(), 1, "{want:?}");
    let (got, vouched_here) = through_ahead(events, eager);
    assert_eq!(vouched_here, vouched, "{why}");
    assert_eq!(got, want);
}

/// A game whose PVs are legal, then shortened, grown, followed by the game, castle, take en
/// passant, and twice break the rules.
const GAME: &str = "
    > uci
    < uciok
    > isready
    < readyok
    > position startpos moves e2e4 e7e5
    > go movetime 100
    < info depth 1 score cp 20 pv g1f3
    < info depth 2 score cp 25 pv g1f3 b8c6 f1c4
    < info depth 3 score cp 25 pv g1f3 b8c6 f1c4 g8f6 e1g1
    < info depth 4 score cp 25 pv g1f3 b8c6
    < info depth 5 score cp 25 pv g1f3 b8c6 f1b5 a7a6 b5c6 d7c6 e1g1 f8d6 e1e2
    < bestmove g1f3 ponder b8c6
    > position startpos moves e2e4 e7e5 g1f3 b8c6
    > go movetime 100
    < info depth 1 score cp 20 pv f1b5 a7a6 b5c6 d7c6 e1g1
    < info depth 2 score cp 20 pv d2d4 e5d4 e4e5 d7d5 e5d6 d8d6
    < info depth 3 score cp 20 pv d2d4 e5d4 e4e5 d7d5 e5d6 d8d6 e1g1 c8g4 g1g2
    < bestmove d2d4
    > position startpos moves e2e4 e7e5 g1f3 b8c6 d2d4
    > go movetime 100
    < info depth 1 score cp 20 pv e5d4 e4e5 d7d5 e5d6
    < bestmove e5d4
";

#[test]
fn the_decoder_finds_what_it_finds_alone_whichever_lines_were_parsed_ahead() {
    let events = transcript(GAME);
    let want = alone(&events);
    assert_eq!(
        illegal_pvs(&want).len(),
        2,
        "the game's two illegal PVs: {want:?}"
    );
    let (all_ahead, vouched) = through_ahead(&events, |_| true);
    assert_eq!(all_ahead, want);
    // Every legal PV but none of the illegal ones was vouched for.
    assert_eq!(vouched, 7);
    // Any mix of lines parsed ahead and left to the decoder: a `position` left to the
    // decoder leaves the reading side's verdicts naming a position the decoder is not in.
    for period in 2..6 {
        for phase in 0..period {
            let (mixed, _) = through_ahead(&events, |i| (i + phase) % period != 0);
            assert_eq!(
                mixed, want,
                "every {period}th line from {phase} left to the decoder"
            );
        }
    }
}

#[test]
fn a_pv_vouched_for_in_another_position_is_checked_again() {
    let events = transcript(
        "
        > uci
        < uciok
        > position startpos moves e2e4
        > go movetime 100
        < info depth 1 score cp 20 pv e7e5
        < bestmove e7e5
        > position startpos moves e2e4 e7e5
        > go movetime 100
        < info depth 1 score cp 20 pv d7d5
        < bestmove g1f3
        ",
    );
    // The second `position` is left to the decoder: the reading side still stands in the
    // first, where Black's d7d5 is legal, and says so.
    let second = events
        .iter()
        .position(|e| e.text.ends_with("e7e5") && e.src == Source::Gui)
        .expect("second position");
    one_illegal_pv_found_anyway(
        &events,
        |i| i != second,
        2,
        "e7e5, then d7d5 from the first position",
    );
}

#[test]
fn a_pv_vouched_for_by_the_rules_of_chess_is_checked_again_in_a_variant() {
    // The reading side plays standard chess, where g1f3 is legal; in antichess White must
    // take on d5.
    let events = transcript(
        "
        > uci
        < option name UCI_Variant type combo default chess var chess var antichess
        < uciok
        > setoption name UCI_Variant value antichess
        > position startpos moves e2e4 d7d5
        > go movetime 100
        < info depth 1 score cp 20 pv g1f3
        < bestmove e4d5
        ",
    );
    one_illegal_pv_found_anyway(&events, |_| true, 1, "g1f3 is legal in chess");
}

#[test]
fn a_position_sent_during_a_search_does_not_vouch_for_the_running_search() {
    // The second `position` comes while the first search runs: the engine's next PV is still
    // the first search's, checked from its position (Black to move, so e4d5 is illegal), and
    // the reading side vouched for it from the second (where White takes on d5).
    let events = transcript(
        "
        > uci
        < uciok
        > position startpos moves e2e4
        > go infinite
        < info depth 1 score cp 20 pv d7d5
        > position startpos moves e2e4 d7d5
        > go infinite
        < info depth 2 score cp 20 pv e4d5
        > stop
        < bestmove d7d5
        ",
    );
    one_illegal_pv_found_anyway(
        &events,
        |_| true,
        2,
        "d7d5 from the first position, e4d5 from the second",
    );
}
