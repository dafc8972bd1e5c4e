//! The catalogue rows of the `kibitzer replay` diagnostics.

use super::{Decidable, Family, Rule, RuleId, Severity, Side};

pub(super) static ROWS: &[Rule] = &[
    Rule {
        id: RuleId::ReplayDivergence,
        family: Family::Replay,
        group: "Replay diagnostics",
        side: Side::Either,
        severity: Severity::Note,
        check: "first search whose fingerprint (bestmove, ponder, depth, nodes, score, PV) differs from the recording",
        source: "(kibitzer) a diagnostic of `replay`, docs/replay.md (not a spec violation)",
        decidable: Decidable::NotFromTraffic(
            "compares a replay's searches with the recording, so it needs a replay",
        ),
        implemented: false,
    },
    Rule {
        id: RuleId::ReplayNondeterministicSetup,
        family: Family::Replay,
        group: "Replay diagnostics",
        side: Side::Either,
        severity: Severity::Note,
        check: "recording used Threads>1, wall-clock TCs, Ponder on, or no `ucinewgame`/`new` between games",
        source: "(kibitzer) a diagnostic of `replay`, docs/replay.md (not a spec violation)",
        decidable: Decidable::Traffic,
        implemented: true,
    },
    Rule {
        id: RuleId::ReplayBinaryChanged,
        family: Family::Replay,
        group: "Replay diagnostics",
        side: Side::Either,
        severity: Severity::Note,
        check: "the replayed engine names itself otherwise than the recorded one (`id name`, `feature myname`, NBoard `set myname`)",
        source: "(kibitzer) a diagnostic of `replay`, docs/replay.md (not a spec violation)",
        decidable: Decidable::NotFromTraffic(
            "compares the name the replayed engine gives itself with the recorded one, so it needs a replay",
        ),
        implemented: true,
    },
    Rule {
        id: RuleId::ReplayOptionDrift,
        family: Family::Replay,
        group: "Replay diagnostics",
        side: Side::Either,
        severity: Severity::Note,
        check: "option set after `uciok`/features differs (defaults changed between versions)",
        source: "(kibitzer) a diagnostic of `replay`, docs/replay.md (not a spec violation)",
        decidable: Decidable::NotFromTraffic(
            "compares the options the replayed engine declares with the recorded ones, so it needs a replay",
        ),
        implemented: true,
    },
];
