//! The catalogue of every rule kibitzer knows, transcribed from the protocol texts (UCI, CECP,
//! NBoard), the tools' own behaviour and the Chess Academy text: the [`RuleId`] enum (one line per rule in
//! `ids`), one table of rows per family (side, default severity, the spec sentence, whether
//! a recording can decide it, whether kibitzer checks it), and the generator of
//! `docs/rules.md`.
//!
//! This module sits at the bottom of the crate, beside [`crate::untrusted`]: the parsers, the
//! session and the rules stage all name rules by [`RuleId`], and none of them is below it.

mod c2w;
mod cecp;
mod cross;
pub(crate) mod docs;
#[doc(hidden)]
pub use docs::first_differing_line;
mod ids;
mod nboard;
mod replay;
mod uci;

pub use docs::render_markdown;
pub use ids::RuleId;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::sync::LazyLock;

/// The side at fault when a rule fires.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// The engine.
    Engine,
    /// The GUI.
    Gui,
    /// Either side, depending on the case (the design writes "E/G"): e.g. a malformed move
    /// token is the fault of whoever sent it.
    Either,
}

impl Side {
    pub fn as_str(self) -> &'static str {
        match self {
            Side::Engine => "engine",
            Side::Gui => "gui",
            Side::Either => "either",
        }
    }
}

/// How serious a finding is. The order matters: filters such as "warnings and worse" compare.
///
/// What a severity does to a run is the same in every command that judges (`check`,
/// `report`, `probe`, `replay`, `c2w`, `view`): see [`Severity::fails`] and
/// [`Severity::counts_against`], and [`crate::rules::report::Standing`].
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Harmless chatter worth knowing about (e.g. undocumented output).
    Chat,
    /// More than chatter, less than a warning.
    Note,
    /// Counted against the run without failing it.
    Warning,
    /// Fails the run (exit status 1).
    Error,
}

impl Severity {
    /// A finding of this severity fails the run: `check` and `report` exit with status 1, a
    /// probe card is `FAILED`, `c2w suggest` says the engine broke the protocol.
    pub fn fails(self) -> bool {
        self >= Severity::Error
    }

    /// A finding of this severity counts against the run, failing it or not: the run
    /// `passed with warnings` at best, a probe step is `violated`, a profile and its engine
    /// disagree (`C2W-` rules), a replay differs from its original. Notes and chat are told,
    /// never counted against.
    pub fn counts_against(self) -> bool {
        self >= Severity::Warning
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Chat => "chat",
            Severity::Note => "note",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }

    /// Parses a severity as users type it on the command line; `warn` is accepted because the
    /// design's tables and most tools abbreviate it so.
    pub fn from_name(name: &str) -> Option<Severity> {
        let name = name.trim();
        [
            ("chat", Severity::Chat),
            ("note", Severity::Note),
            ("warning", Severity::Warning),
            ("warn", Severity::Warning),
            ("error", Severity::Error),
        ]
        .into_iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, s)| s)
    }
}

/// Which table of the design a rule comes from; also the prefix of its id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Family {
    Uci,
    Cecp,
    Nboard,
    /// Transport, timing and lifecycle rules that hold whatever the protocol (`X-` ids).
    Cross,
    /// Diagnostics of `kibitzer replay`; they are not spec violations.
    Replay,
    /// A CECP session held to a Chess Academy `.c2w` profile (`check --c2w`).
    C2w,
}

impl Family {
    /// In the order the documentation lists them.
    pub const ALL: [Family; 6] = [
        Family::Uci,
        Family::Cecp,
        Family::Nboard,
        Family::Cross,
        Family::Replay,
        Family::C2w,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Family::Uci => "uci",
            Family::Cecp => "cecp",
            Family::Nboard => "nboard",
            Family::Cross => "cross",
            Family::Replay => "replay",
            Family::C2w => "c2w",
        }
    }

    /// The prefix every id of the family starts with.
    pub fn prefix(self) -> &'static str {
        match self {
            Family::Uci => "UCI-",
            Family::Cecp => "CECP-",
            Family::Nboard => "NBOARD-",
            Family::Cross => "X-",
            Family::Replay => "REPLAY-",
            Family::C2w => "C2W-",
        }
    }

    /// Heading for the documentation.
    pub fn title(self) -> &'static str {
        match self {
            Family::Uci => "UCI",
            Family::Cecp => "CECP / xboard",
            Family::Nboard => "NBoard",
            Family::Cross => "Cross-protocol",
            Family::Replay => "Replay",
            Family::C2w => "Chess Academy `.c2w` profiles (`check --c2w`)",
        }
    }
}

/// Whether a recording or log of the traffic can decide a rule: lines both ways with
/// timestamps, plus the proxy's own events (spawn, EOF, exit code or signal, signals
/// forwarded, write errors, kills).
///
/// The distinction matters because `check` runs on recordings after the fact; a rule that
/// needs more must come from the live proxy or from a replay, and the documentation says so
/// rather than listing it as merely "not yet" implemented.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Decidable {
    Traffic,
    /// What a recording lacks to decide the rule.
    NotFromTraffic(&'static str),
}

/// One row of the catalogue.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct Rule {
    pub id: RuleId,
    pub family: Family,
    /// Sub-heading within the family, for the documentation.
    pub group: &'static str,
    pub side: Side,
    pub severity: Severity,
    /// What the checker does, as the design states it.
    pub check: &'static str,
    /// The sentence of the spec (or other evidence) the rule rests on, verbatim where quoted.
    pub source: &'static str,
    pub decidable: Decidable,
    /// Whether kibitzer has a check for it (a test keeps this in step with the code).
    pub implemented: bool,
}

/// Every row, family by family in the documentation's order.
fn families() -> [&'static [Rule]; 6] {
    [
        uci::ROWS,
        cecp::ROWS,
        nboard::ROWS,
        cross::ROWS,
        replay::ROWS,
        c2w::ROWS,
    ]
}

/// Every rule, by family: UCI, CECP, NBoard, cross-protocol, replay and hang diagnostics, then
/// `.c2w`.
pub static RULES: LazyLock<Vec<&'static Rule>> =
    LazyLock::new(|| families().into_iter().flatten().collect());

/// The rows indexed by [`RuleId`]; a test checks each id has exactly one row.
static BY_ID: LazyLock<Vec<&'static Rule>> = LazyLock::new(|| {
    let mut rows: Vec<&'static Rule> = RULES.clone();
    rows.sort_by_key(|r| r.id);
    rows
});

impl RuleId {
    /// The rule's catalogue row.
    pub fn rule(self) -> &'static Rule {
        BY_ID[self as usize]
    }

    pub fn family(self) -> Family {
        self.rule().family
    }

    /// The id a user typed (`--rule`, `--ignore`), ignoring ASCII case.
    pub fn from_name(name: &str) -> Option<RuleId> {
        let name = name.trim();
        RuleId::ALL
            .iter()
            .copied()
            .find(|id| id.as_str().eq_ignore_ascii_case(name))
    }
}

impl std::fmt::Display for RuleId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.pad(self.as_str())
    }
}

impl Serialize for RuleId {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for RuleId {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<RuleId, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        RuleId::from_name(&text)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown rule id `{text}`")))
    }
}

/// In a report's JSON Schema, an id is its text.
impl JsonSchema for RuleId {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "RuleId".into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "description": "a rule id of docs/rules.md (`UCI-BESTMOVE-ILLEGAL`)",
        })
    }
}

/// Tests and reports compare ids with the text users see.
impl PartialEq<&str> for RuleId {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

/// The severity and the side at fault of a finding of rule `id` on a line `line_side` sent:
/// the catalogue's severity, and its side, or for rules of either side the sender's.
pub fn weigh(id: RuleId, line_side: Option<Side>) -> (Severity, Side) {
    let r = id.rule();
    match (r.side, line_side) {
        (Side::Either, Some(s)) => (r.severity, s),
        (s, _) => (r.severity, s),
    }
}

/// The rule with this id text, ignoring ASCII case (users type ids in lowercase too).
pub fn rule(id: &str) -> Option<&'static Rule> {
    RuleId::from_name(id).map(RuleId::rule)
}

#[cfg(test)]
mod tests {
    use super::docs::*;
    use super::*;
    use std::collections::HashSet;
    use std::path::Path;

    #[test]
    fn ids_are_unique_uppercase_and_prefixed() {
        let mut seen = HashSet::new();
        for r in RULES.iter() {
            assert!(seen.insert(r.id), "duplicate id {}", r.id);
            let id = r.id.as_str();
            assert!(
                id.chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '-'),
                "{id} is not an uppercase id"
            );
            assert!(
                id.starts_with(r.family.prefix()),
                "{id} does not start with {}",
                r.family.prefix()
            );
            assert!(!id.ends_with('-') && !id.contains("--"), "{id}");
            assert!(!r.group.is_empty() && !r.check.is_empty() && !r.source.is_empty());
        }
    }

    #[test]
    fn counts_per_family_match_the_transcribed_tables() {
        // rules.md claims "51 UCI + 43 CECP + 13 NBoard + 16 cross-protocol = 123 checkable
        // rules (+5 replay/hang diagnostics)", and its tables do have 51, 43, 13 and 16 rows
        // and 5 diagnostics. The catalogue differs from the claim in two places, both by
        // design: the single 6.4 row "X-NON-UTF8 / X-CONTROL-CHARS" is two rules here (16 rows,
        // 17 rules), and the diagnostic X-HANG belongs to the cross-protocol family by its id,
        // leaving 4 in the replay family. 129 = 123 + 1 + 5. The second terms are the rules
        // kibitzer adds (their source says "(kibitzer)"): 129 + 24 = 153, and one since
        // (X-OUTPUT-FLOOD-STOPPED), and two more of the hostile-engine set (X-LINE-TOO-LONG,
        // X-LEFTOVER-PROCESS), and CECP-COMMAND-REFUSED, and the six classes of a silent
        // engine's process (X-HANG-STARVED ... X-HANG-BLOCKED).
        let count = |f: Family| RULES.iter().filter(|r| r.family == f).count();
        assert_eq!(count(Family::Uci), 51 + 3);
        assert_eq!(count(Family::Cecp), 43 + 14);
        assert_eq!(count(Family::Nboard), 13 + 6);
        assert_eq!(count(Family::Cross), 17 + 1 + 5 + 6);
        assert_eq!(count(Family::Replay), 4);
        // The `.c2w` rules come from the Chess Academy text, not the design's tables (one,
        // C2W-HINT-SILENT, is kibitzer's reading of it).
        assert_eq!(count(Family::C2w), 13);
        assert_eq!(RULES.len(), 157 + 13 + 6);
    }

    #[test]
    fn spot_checks_against_the_design() {
        let expect = |id: &str, side: Side, severity: Severity| {
            let r = rule(id).unwrap_or_else(|| panic!("{id} missing"));
            assert_eq!((r.side, r.severity), (side, severity), "{id}");
        };
        expect("UCI-GO-WHILE-SEARCHING", Side::Gui, Severity::Error);
        expect("UCI-INFO-PV-ILLEGAL", Side::Engine, Severity::Warning);
        expect("CECP-MOVE-ILLEGAL", Side::Engine, Severity::Error);
        expect("NBOARD-FIRST-COMMAND", Side::Gui, Severity::Error);
        expect("X-LINE-ENDING", Side::Either, Severity::Note);
        expect("X-NON-UTF8", Side::Engine, Severity::Note);
        expect("X-CONTROL-CHARS", Side::Engine, Severity::Note);
        expect("X-HANG", Side::Either, Severity::Error);
        expect("REPLAY-DIVERGENCE", Side::Either, Severity::Note);
        assert_eq!(
            rule("UCI-INFO-CURRMOVE-EARLY").map(|r| r.group),
            Some("Info lines")
        );
    }

    #[test]
    fn lookup_ignores_case_but_not_spelling() {
        assert_eq!(
            rule("uci-bestmove-illegal").map(|r| r.id),
            Some(RuleId::UciBestmoveIllegal)
        );
        assert!(rule("UCI-BESTMOVE").is_none());
        assert!(rule("").is_none());
    }

    #[test]
    fn severities_order_and_parse() {
        assert!(Severity::Chat < Severity::Note);
        assert!(Severity::Note < Severity::Warning);
        assert!(Severity::Warning < Severity::Error);
        for s in [
            Severity::Chat,
            Severity::Note,
            Severity::Warning,
            Severity::Error,
        ] {
            assert_eq!(Severity::from_name(s.as_str()), Some(s));
        }
        assert_eq!(Severity::from_name("WARN"), Some(Severity::Warning));
        assert_eq!(Severity::from_name("Error"), Some(Severity::Error));
        assert_eq!(Severity::from_name("fatal"), None);
    }

    #[test]
    fn serialized_names_match_as_str() {
        let r = rule("UCI-MOVE-FORMAT").unwrap();
        let v = serde_json::to_value(r).unwrap();
        assert_eq!(v["side"], "either");
        assert_eq!(v["severity"], "error");
        assert_eq!(v["family"], "uci");
        assert_eq!(v["decidable"], "traffic");
        let v = serde_json::to_value(rule("X-PIPE-DEADLOCK").unwrap()).unwrap();
        assert!(v["decidable"]["not-from-traffic"].is_string());
    }

    #[test]
    fn undecidable_rules_are_few_and_explained() {
        let undecidable: Vec<_> = RULES
            .iter()
            .filter_map(|r| match r.decidable {
                Decidable::NotFromTraffic(reason) => Some((r.id, reason)),
                Decidable::Traffic => None,
            })
            .collect();
        for (id, reason) in &undecidable {
            assert!(reason.len() > 20, "{id} needs a real reason");
        }
        // A guard, not a law: raising it should come with a reason per rule.
        assert!(undecidable.len() <= 10, "{undecidable:?}");
    }

    #[test]
    fn every_id_has_exactly_one_row() {
        assert_eq!(RULES.len(), RuleId::ALL.len());
        for &id in RuleId::ALL {
            assert_eq!(id.rule().id, id);
            assert_eq!(RULES.iter().filter(|r| r.id == id).count(), 1, "{id}");
            assert_eq!(RuleId::from_name(&id.as_str().to_lowercase()), Some(id));
        }
        let v = serde_json::to_value(RuleId::XHang).unwrap();
        assert_eq!(v, "X-HANG");
        assert_eq!(serde_json::from_value::<RuleId>(v).unwrap(), RuleId::XHang);
        assert!(serde_json::from_value::<RuleId>("X-NOPE".into()).is_err());
    }

    /// Every `RuleId::Variant` named by the code that judges traffic (outside the catalogue
    /// and the tests), found by reading the sources: a row says `implemented` exactly when
    /// some code reports its rule.
    fn ids_in_code() -> std::collections::BTreeSet<RuleId> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        // replay and probe decide what only they can set up: they are the `kibitzer` crate's.
        let app = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../src");
        let mut found = std::collections::BTreeSet::new();
        let mut dirs = vec![
            root.join("session"),
            root.join("protocol"),
            root.join("rules"),
            app.join("replay"),
            app.join("probe"),
        ];
        let names: Vec<(String, RuleId)> = RuleId::ALL
            .iter()
            .map(|&id| (format!("{id:?}"), id))
            .collect();
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).unwrap().flatten() {
                let path = entry.path();
                if path.is_dir() {
                    dirs.push(path);
                    continue;
                }
                let name = path.file_name().unwrap().to_string_lossy().into_owned();
                // The catalogue's rows name every id; test files name ids without reporting.
                if name.contains("test") || path.starts_with(root.join("rules/catalogue")) {
                    continue;
                }
                let text = std::fs::read_to_string(&path).unwrap();
                let text = text.split("#[cfg(test)]").next().unwrap_or("");
                for piece in text.split("RuleId::").skip(1) {
                    let word: String = piece
                        .chars()
                        .take_while(|c| c.is_ascii_alphanumeric())
                        .collect();
                    if let Some((_, id)) = names.iter().find(|(n, _)| *n == word) {
                        found.insert(*id);
                    }
                }
            }
        }
        found
    }

    #[test]
    fn a_row_is_implemented_exactly_when_code_reports_its_rule() {
        let in_code = ids_in_code();
        assert!(in_code.len() > 40, "{in_code:?}");
        let listed: std::collections::BTreeSet<RuleId> = RULES
            .iter()
            .filter(|r| r.implemented)
            .map(|r| r.id)
            .collect();
        let missing: Vec<_> = in_code.difference(&listed).collect();
        let extra: Vec<_> = listed.difference(&in_code).collect();
        assert!(
            missing.is_empty() && extra.is_empty(),
            "the rows' `implemented` is out of date: set it for {missing:?}, clear it for {extra:?}"
        );
    }

    #[test]
    fn cells_escape_pipes_and_stray_tags() {
        assert_eq!(escape_cell("a | b"), "a \\| b");
        assert_eq!(escape_cell("`x|y`"), "`x\\|y`");
        assert_eq!(escape_cell("id name <x>"), "id name &lt;x>");
        assert_eq!(escape_cell("`cp <int>`"), "`cp <int>`");
    }

    #[test]
    fn rendering_has_one_row_per_rule() {
        let md = render_markdown();
        let rows = md
            .lines()
            .filter(|l| l.starts_with("| ") && !l.starts_with("| id "))
            .count();
        assert_eq!(rows, RULES.len());
        assert!(md.contains("| UCI-FIRST-COMMAND | gui | warning |"));
        let done = RULES.iter().filter(|r| r.implemented).count();
        assert!(md.contains(&format!("{done} implemented.")));
        assert!(md.contains("| X-PIPE-DEADLOCK |") && md.contains("- **X-PIPE-DEADLOCK**: "));
    }

    #[test]
    fn docs_rules_md_is_current() {
        let rendered = render_markdown();
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/rules.md");
        if std::env::var_os("KIBITZER_BLESS").is_some_and(|v| v == "1") {
            std::fs::write(&path, &rendered).unwrap();
            return;
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        if committed != rendered {
            let line = docs::first_differing_line(&committed, &rendered);
            panic!(
                "docs/rules.md is stale (first difference at line {}); regenerate it with \
                 `KIBITZER_BLESS=1 cargo test --lib catalogue` and commit it",
                line + 1
            );
        }
    }
}
