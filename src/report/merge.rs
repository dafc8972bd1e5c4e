//! Adding reports together: a worker's share of the files into the whole, and `--merge` of
//! reports made elsewhere. Exact: the sum of two reports is the report of their inputs
//! together, whichever order the files were read in.

use super::model::{
    EndingCount, EngineReport, InputProblem, Inputs, LatencyRow, PLACES, Report, Results,
};
use crate::rules::report::Counts;

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

    /// Adds `other` in.
    pub fn merge(&mut self, other: Report) {
        self.inputs.merge(other.inputs);
        add_counts(&mut self.findings, &other.findings);
        for e in other.engines {
            match self.engines.iter_mut().find(|x| x.engine == e.engine) {
                Some(mine) => mine.merge(e),
                None => self.engines.push(e),
            }
        }
    }

    /// Puts every list in its order and recomputes the figures: call once all is merged.
    pub fn settle(&mut self) {
        self.engines.sort_by(|a, b| a.engine.cmp(&b.engine));
        self.findings = Counts::default();
        for e in &mut self.engines {
            e.settle();
            add_counts(&mut self.findings, &e.findings);
        }
    }
}

impl Inputs {
    fn merge(&mut self, o: Inputs) {
        self.files += o.files;
        self.sessions += o.sessions;
        self.games += o.games;
        self.unreadable += o.unreadable;
        self.not_recognised += o.not_recognised;
        keep_first(&mut self.unreadable_files, o.unreadable_files);
        keep_first(&mut self.not_recognised_files, o.not_recognised_files);
    }

    pub fn unreadable(&mut self, p: InputProblem) {
        self.unreadable += 1;
        keep_first(&mut self.unreadable_files, vec![p]);
    }

    pub fn not_recognised(&mut self, p: InputProblem) {
        self.not_recognised += 1;
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

fn add_counts(c: &mut Counts, o: &Counts) {
    c.error += o.error;
    c.warning += o.warning;
    c.note += o.note;
    c.chat += o.chat;
}

impl Results {
    fn merge(&mut self, o: Results) {
        self.wins += o.wins;
        self.draws += o.draws;
        self.losses += o.losses;
        self.unknown += o.unknown;
    }
}

impl EngineReport {
    pub fn new(engine: String) -> EngineReport {
        EngineReport {
            engine,
            protocols: Vec::new(),
            sessions: 0,
            games: 0,
            results: Results::default(),
            endings: Vec::new(),
            findings: Counts::default(),
            rules: Vec::new(),
            hangs: Vec::new(),
            runner_verdicts: Vec::new(),
            latencies: Vec::new(),
        }
    }

    pub fn merge(&mut self, o: EngineReport) {
        for p in o.protocols {
            if !self.protocols.contains(&p) {
                self.protocols.push(p);
            }
        }
        self.sessions += o.sessions;
        self.games += o.games;
        self.results.merge(o.results);
        add_counts(&mut self.findings, &o.findings);
        for x in o.endings {
            let mine = self.ending(x.ending);
            mine.runner += x.runner;
            mine.kibitzer += x.kibitzer;
            keep_first(&mut mine.places, x.places);
        }
        for x in o.rules {
            match self
                .rules
                .iter_mut()
                .find(|r| r.rule == x.rule && r.side == x.side && r.severity == x.severity)
            {
                Some(r) => {
                    r.count += x.count;
                    r.sessions += x.sessions;
                    keep_first(&mut r.places, x.places);
                }
                None => self.rules.push(x),
            }
        }
        for x in o.hangs {
            match self
                .hangs
                .iter_mut()
                .find(|h| h.class == x.class && h.label == x.label)
            {
                Some(h) => {
                    h.count += x.count;
                    keep_first(&mut h.places, x.places);
                }
                None => self.hangs.push(x),
            }
        }
        for x in o.runner_verdicts {
            match self.runner_verdicts.iter_mut().find(|v| v.kind == x.kind) {
                Some(v) => {
                    v.count += x.count;
                    v.kibitzer_disagrees += x.kibitzer_disagrees;
                    keep_first(&mut v.places, x.places);
                }
                None => self.runner_verdicts.push(x),
            }
        }
        for x in o.latencies {
            self.latency(&x.request).histogram.merge(&x.histogram);
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
                    places: Vec::new(),
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
            match r.severity {
                crate::rules::Severity::Error => self.findings.error += n,
                crate::rules::Severity::Warning => self.findings.warning += n,
                crate::rules::Severity::Note => self.findings.note += n,
                crate::rules::Severity::Chat => self.findings.chat += n,
            }
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
