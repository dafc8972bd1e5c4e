//! Adding reports together: a file into its worker's report, a worker's into the whole, and
//! `--merge` of reports made elsewhere. Exact: the sum of two reports is the report of their
//! inputs together, whichever order the files were read in. Sums saturate: a report read back
//! with absurd counts cannot overflow them.

use super::model::{
    EndingCount, EngineReport, HangRow, InputProblem, Inputs, LatencyRow, PLACES, Report, Results,
    RuleRow, VerdictRow,
};
use crate::rules::report::Counts;

fn add(a: &mut u64, b: u64) {
    *a = a.saturating_add(b);
}

impl Report {
    /// An empty report under these settings.
    pub fn empty(profile: &str, c2w: Option<String>) -> Report {
        Report {
            schema: super::model::SCHEMA,
            tool: concat!("kibitzer ", env!("CARGO_PKG_VERSION")).to_owned(),
            profile: profile.to_owned(),
            c2w,
            inputs: Inputs::default(),
            engines: Vec::new(),
            findings: Counts::default(),
        }
    }

    /// Adds `other` in. The figures derived from the rows (counts by severity, percentiles)
    /// are left to [`Report::settle`].
    pub fn merge(&mut self, other: Report) {
        self.inputs.merge(other.inputs);
        // By name through an index: a farm's merged reports hold many engines, and a search
        // per row would make the merge quadratic.
        let mut index: std::collections::HashMap<String, usize> = self
            .engines
            .iter()
            .enumerate()
            .map(|(i, e)| (e.engine.clone(), i))
            .collect();
        for e in other.engines {
            match index.get(&e.engine) {
                Some(&i) => self.engines[i].merge(e),
                None => {
                    index.insert(e.engine.clone(), self.engines.len());
                    self.engines.push(e);
                }
            }
        }
    }

    /// Adds one engine's rows to the engine of that name.
    pub fn add_engine(&mut self, e: EngineReport) {
        match self.engines.iter_mut().find(|x| x.engine == e.engine) {
            Some(mine) => mine.merge(e),
            None => self.engines.push(e),
        }
    }

    /// Puts every list in its order and recomputes the derived figures: call once all is
    /// merged.
    pub fn settle(&mut self) {
        self.engines.sort_by(|a, b| a.engine.cmp(&b.engine));
        self.findings = Counts::default();
        for e in &mut self.engines {
            e.settle();
            let (c, o) = (&mut self.findings, &e.findings);
            c.error = c.error.saturating_add(o.error);
            c.warning = c.warning.saturating_add(o.warning);
            c.note = c.note.saturating_add(o.note);
            c.chat = c.chat.saturating_add(o.chat);
        }
    }

    /// Why a report read back (`--merge`) cannot be added in, if it cannot: its histograms
    /// must be ones kibitzer could have made.
    pub fn problem(&self) -> Option<String> {
        self.engines.iter().find_map(|e| {
            e.latencies.iter().find_map(|l| {
                (!l.histogram.is_well_formed()).then(|| {
                    format!(
                        "the {} histogram of {} is not one kibitzer makes",
                        l.request, e.engine
                    )
                })
            })
        })
    }
}

impl Inputs {
    fn merge(&mut self, o: Inputs) {
        add(&mut self.files, o.files);
        add(&mut self.sessions, o.sessions);
        add(&mut self.games, o.games);
        add(&mut self.unreadable, o.unreadable);
        add(&mut self.not_recognised, o.not_recognised);
        keep_first(&mut self.unreadable_files, o.unreadable_files);
        keep_first(&mut self.not_recognised_files, o.not_recognised_files);
        add(&mut self.pgn_files, o.pgn_files);
        add(&mut self.pgn_games, o.pgn_games);
        add(&mut self.pgn_games_matched, o.pgn_games_matched);
        keep_first(&mut self.pgn_games_unmatched, o.pgn_games_unmatched);
    }

    pub fn unreadable(&mut self, p: InputProblem) {
        add(&mut self.unreadable, 1);
        keep_first(&mut self.unreadable_files, vec![p]);
    }

    pub fn not_recognised(&mut self, p: InputProblem) {
        add(&mut self.not_recognised, 1);
        keep_first(&mut self.not_recognised_files, vec![p]);
    }
}

/// The first [`PLACES`] of both lists, in order, without repeats.
pub fn keep_first<T: Ord>(mine: &mut Vec<T>, theirs: Vec<T>) {
    mine.extend(theirs);
    mine.sort();
    mine.dedup();
    mine.truncate(PLACES);
}

impl Results {
    fn merge(&mut self, o: Results) {
        add(&mut self.wins, o.wins);
        add(&mut self.draws, o.draws);
        add(&mut self.losses, o.losses);
        add(&mut self.unknown, o.unknown);
    }
}

impl EngineReport {
    pub fn new(engine: String) -> EngineReport {
        EngineReport {
            engine,
            ..EngineReport::default()
        }
    }

    pub fn merge(&mut self, o: EngineReport) {
        for p in o.protocols {
            if !self.protocols.contains(&p) {
                self.protocols.push(p);
            }
        }
        add(&mut self.sessions, o.sessions);
        add(&mut self.games, o.games);
        self.results.merge(o.results);
        for x in o.endings {
            let mine = self.ending(x.ending);
            add(&mut mine.runner, x.runner);
            add(&mut mine.kibitzer, x.kibitzer);
            add(&mut mine.explained, x.explained);
            keep_first(&mut mine.places, x.places);
            keep_first(&mut mine.unexplained, x.unexplained);
        }
        for x in o.rules {
            self.add_rule(x);
        }
        for x in o.hangs {
            self.add_hang(x);
        }
        for x in o.runner_verdicts {
            self.add_verdict(x);
        }
        for x in o.latencies {
            self.latency(&x.request).histogram.merge(&x.histogram);
        }
        if let Some(p) = o.process {
            match &mut self.process {
                Some(mine) => mine.merge(&p),
                None => self.process = Some(p),
            }
        }
    }

    /// Adds a rule's row to the one of the same rule, side and severity.
    pub fn add_rule(&mut self, x: RuleRow) {
        match self
            .rules
            .iter_mut()
            .find(|r| r.rule == x.rule && r.side == x.side && r.severity == x.severity)
        {
            Some(r) => {
                add(&mut r.count, x.count);
                add(&mut r.sessions, x.sessions);
                keep_first(&mut r.places, x.places);
            }
            None => self.rules.push(x),
        }
    }

    pub fn add_hang(&mut self, x: HangRow) {
        match self
            .hangs
            .iter_mut()
            .find(|h| h.class == x.class && h.label == x.label && h.process == x.process)
        {
            Some(h) => {
                add(&mut h.count, x.count);
                keep_first(&mut h.places, x.places);
            }
            None => self.hangs.push(x),
        }
    }

    pub fn add_verdict(&mut self, x: VerdictRow) {
        match self.runner_verdicts.iter_mut().find(|v| v.kind == x.kind) {
            Some(v) => {
                add(&mut v.count, x.count);
                add(&mut v.kibitzer_disagrees, x.kibitzer_disagrees);
                keep_first(&mut v.places, x.places);
            }
            None => self.runner_verdicts.push(x),
        }
    }

    /// The row of an ending, made when missing.
    pub fn ending(&mut self, ending: super::model::Ending) -> &mut EndingCount {
        let i = match self.endings.iter().position(|e| e.ending == ending) {
            Some(i) => i,
            None => {
                self.endings.push(EndingCount {
                    ending,
                    runner: 0,
                    kibitzer: 0,
                    explained: 0,
                    places: Vec::new(),
                    unexplained: Vec::new(),
                });
                self.endings.len() - 1
            }
        };
        &mut self.endings[i]
    }

    /// The row of a request type, made when missing.
    pub fn latency(&mut self, request: &str) -> &mut LatencyRow {
        let i = match self.latencies.iter().position(|l| l.request == request) {
            Some(i) => i,
            None => {
                self.latencies.push(LatencyRow::new(request));
                self.latencies.len() - 1
            }
        };
        &mut self.latencies[i]
    }

    /// Orders the rows and derives the counts by severity and the latency figures.
    fn settle(&mut self) {
        self.protocols.sort();
        self.endings.retain(|e| e.runner + e.kibitzer > 0);
        self.endings.sort_by_key(|e| e.ending);
        self.rules.sort_by(|a, b| {
            b.severity
                .cmp(&a.severity)
                .then(b.count.cmp(&a.count))
                .then(a.rule.as_str().cmp(b.rule.as_str()))
                .then(a.side.as_str().cmp(b.side.as_str()))
        });
        self.findings = Counts::default();
        for r in &self.rules {
            let n = usize::try_from(r.count).unwrap_or(usize::MAX);
            self.findings.add_n(r.severity, n);
        }
        self.hangs
            .sort_by(|a, b| (a.class.as_str(), &a.label).cmp(&(b.class.as_str(), &b.label)));
        self.runner_verdicts.sort_by(|a, b| a.kind.cmp(&b.kind));
        self.latencies.sort_by(|a, b| a.request.cmp(&b.request));
        for l in &mut self.latencies {
            l.settle();
        }
    }
}
