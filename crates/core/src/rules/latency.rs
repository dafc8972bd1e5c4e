//! Latencies, one way for every command: `check`, `report` and the viewer take their figures
//! from the histograms the judge fills, so they print the same numbers for the same requests.
//!
//! A histogram that merges exactly: fixed buckets, so the report of a farm's halves merged is
//! the report of the whole, to the count. A sketch with data-dependent centroids (t-digest)
//! would merge only approximately.
//!
//! Buckets are log-linear over microseconds: exact below 16 µs, then 8 per doubling, so a
//! percentile is off by at most 1/8 (12.5 %) of its value, and any value up to hours needs at
//! most a few hundred buckets. The JSON keeps the non-empty ones. The mean, the minimum and the
//! maximum are exact.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Sub-buckets per doubling.
const SUB: u64 = 8;
const SUB_BITS: u32 = 3;
/// Values below this (µs) have a bucket each.
const LINEAR: u64 = 2 * SUB;
/// Buckets a u64 of microseconds needs: the last is `bucket(u64::MAX)`.
const BUCKETS: u32 = (LINEAR + (63 - SUB_BITS as u64) * SUB) as u32;

/// Latencies in microseconds, bucketed.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Histogram {
    pub count: u64,
    /// Sum of the values (µs), for the mean.
    pub sum_us: u64,
    pub min_us: u64,
    pub max_us: u64,
    /// `[bucket, count]` for each non-empty bucket, by bucket. Bucket `b` holds the values
    /// from [`Histogram::lower_us`]`(b)` up to the next bucket's lower bound.
    pub buckets: Vec<(u32, u64)>,
}

impl Histogram {
    fn bucket(us: u64) -> u32 {
        if us < LINEAR {
            return us as u32;
        }
        let exp = 63 - us.leading_zeros();
        let sub = (us >> (exp - SUB_BITS)) & (SUB - 1);
        (LINEAR + u64::from(exp - SUB_BITS - 1) * SUB + sub) as u32
    }

    /// The smallest value (µs) bucket `b` holds (`u64::MAX` past the last bucket).
    pub fn lower_us(b: u32) -> u64 {
        if b >= BUCKETS {
            return u64::MAX;
        }
        let b = u64::from(b);
        if b < LINEAR {
            return b;
        }
        let exp = (b - LINEAR) / SUB + u64::from(SUB_BITS) + 1;
        let sub = (b - LINEAR) % SUB;
        (SUB + sub) << (exp - u64::from(SUB_BITS))
    }

    /// A histogram read back from a report: buckets in order, each one kibitzer makes, and
    /// the count their sum.
    pub fn is_well_formed(&self) -> bool {
        self.buckets.windows(2).all(|w| w[0].0 < w[1].0)
            && self.buckets.iter().all(|&(b, n)| b < BUCKETS && n > 0)
            && self
                .buckets
                .iter()
                .try_fold(0u64, |sum, &(_, n)| sum.checked_add(n))
                == Some(self.count)
            && (self.count == 0 || self.min_us <= self.max_us)
    }

    pub fn add_ns(&mut self, ns: u64) {
        self.add_us(ns / 1_000);
    }

    pub fn add_us(&mut self, us: u64) {
        let b = Self::bucket(us);
        match self.buckets.binary_search_by_key(&b, |&(k, _)| k) {
            Ok(i) => self.buckets[i].1 += 1,
            Err(i) => self.buckets.insert(i, (b, 1)),
        }
        self.min_us = if self.count == 0 {
            us
        } else {
            self.min_us.min(us)
        };
        self.max_us = self.max_us.max(us);
        self.count += 1;
        self.sum_us = self.sum_us.saturating_add(us);
    }

    pub fn merge(&mut self, other: &Histogram) {
        if other.count == 0 {
            return;
        }
        self.min_us = if self.count == 0 {
            other.min_us
        } else {
            self.min_us.min(other.min_us)
        };
        self.max_us = self.max_us.max(other.max_us);
        self.count = self.count.saturating_add(other.count);
        self.sum_us = self.sum_us.saturating_add(other.sum_us);
        let mut merged: Vec<(u32, u64)> =
            self.buckets.iter().chain(&other.buckets).copied().collect();
        merged.sort_unstable_by_key(|&(b, _)| b);
        merged.dedup_by(|later, kept| {
            let same = later.0 == kept.0;
            if same {
                kept.1 = kept.1.saturating_add(later.1);
            }
            same
        });
        self.buckets = merged;
    }

    /// The `q`-quantile (0 to 1) in µs: the upper end of the bucket it falls in, never above
    /// the largest value seen.
    pub fn quantile_us(&self, q: f64) -> u64 {
        if self.count == 0 {
            return 0;
        }
        if q <= 0.0 {
            return self.min_us;
        }
        let rank = ((self.count as f64 * q).ceil() as u64).clamp(1, self.count);
        let mut seen = 0;
        for &(b, n) in &self.buckets {
            seen += n;
            if seen >= rank {
                let upper = Self::lower_us(b.saturating_add(1)).saturating_sub(1);
                return upper.min(self.max_us).max(self.min_us);
            }
        }
        self.max_us
    }
}

/// The latencies of one kind of request, as every report shows them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct LatencyStats {
    /// `isready→readyok`, `go→bestmove`, `stop→bestmove`, `ping→pong`..., and two of
    /// searches against their budget: `go→bestmove beyond movetime` (how much longer than its
    /// `movetime` a search took, 0 when within) and `go→bestmove beyond reported time` (time
    /// the GUI waited beyond the search time the engine last reported: time lost in the
    /// engine's output or the pipe). Open-ended searches (`go infinite`, `go ponder`) are not
    /// counted: they last as long as the GUI lets them.
    pub request: String,
    pub count: u64,
    pub mean_ms: f64,
    /// Percentiles, within 1/8 of the exact value (the histogram's buckets).
    pub p50_ms: f64,
    pub p90_ms: f64,
    pub p99_ms: f64,
    pub max_ms: f64,
    /// What the profile allows, when it sets a deadline for this kind of request.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allowed_ms: Option<f64>,
    /// The distribution the figures come from (mergeable).
    pub histogram: Histogram,
}

impl LatencyStats {
    pub fn new(request: &str) -> LatencyStats {
        LatencyStats {
            request: request.to_owned(),
            count: 0,
            mean_ms: 0.0,
            p50_ms: 0.0,
            p90_ms: 0.0,
            p99_ms: 0.0,
            max_ms: 0.0,
            allowed_ms: None,
            histogram: Histogram::default(),
        }
    }

    /// The figures of `histogram` under `request`.
    pub fn of(request: &str, histogram: Histogram, allowed_ms: Option<f64>) -> LatencyStats {
        let mut s = LatencyStats::new(request);
        s.histogram = histogram;
        s.allowed_ms = allowed_ms;
        s.settle();
        s
    }

    /// Recomputes the figures from the histogram.
    pub fn settle(&mut self) {
        let h = &self.histogram;
        let ms = |us: u64| us as f64 / 1000.0;
        self.count = h.count;
        self.mean_ms = ms(h.sum_us.checked_div(h.count).unwrap_or(0));
        self.p50_ms = ms(h.quantile_us(0.5));
        self.p90_ms = ms(h.quantile_us(0.9));
        self.p99_ms = ms(h.quantile_us(0.99));
        self.max_ms = ms(h.max_us);
    }

    /// Adds `other`'s latencies (same request) in.
    pub fn merge(&mut self, other: &LatencyStats) {
        self.histogram.merge(&other.histogram);
        self.allowed_ms = self.allowed_ms.or(other.allowed_ms);
        self.settle();
    }
}

/// Merges tables of latencies by request, keeping the first table's order and adding rows it
/// lacks at the end.
pub fn merge_tables(into: &mut Vec<LatencyStats>, from: &[LatencyStats]) {
    for row in from {
        match into.iter_mut().find(|r| r.request == row.request) {
            Some(r) => r.merge(row),
            None => into.push(row.clone()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_tile_the_line_and_stay_within_an_eighth() {
        let mut last = 0;
        for us in 0..200_000u64 {
            let b = Histogram::bucket(us);
            assert!(b >= last, "{us}");
            last = b;
            let lo = Histogram::lower_us(b);
            let hi = Histogram::lower_us(b + 1);
            assert!(lo <= us && us < hi, "{us}: [{lo}, {hi})");
            assert!(hi - lo <= 1 + lo / 8, "{us}: [{lo}, {hi}) wider than 1/8");
        }
        assert!(Histogram::bucket(3_600_000_000) < 300);
        assert_eq!(Histogram::bucket(u64::MAX), BUCKETS - 1);
        assert_eq!(Histogram::lower_us(BUCKETS), u64::MAX);
        assert_eq!(Histogram::lower_us(u32::MAX), u64::MAX);
    }

    #[test]
    fn a_histogram_read_back_is_checked_before_use() {
        let mut h = Histogram::default();
        h.add_us(5);
        h.add_us(70_000);
        assert!(h.is_well_formed());
        let mut bad = h.clone();
        bad.buckets[1].0 = u32::MAX;
        assert!(!bad.is_well_formed());
        let mut bad = h.clone();
        bad.count = 3;
        assert!(!bad.is_well_formed());
        let mut bad = h;
        bad.buckets.swap(0, 1);
        assert!(!bad.is_well_formed());
    }

    #[test]
    fn merging_halves_gives_the_whole() {
        let values: Vec<u64> = (0..5000).map(|i| (i * 7919) % 123_457).collect();
        let mut whole = Histogram::default();
        let (mut a, mut b) = (Histogram::default(), Histogram::default());
        for (i, &v) in values.iter().enumerate() {
            whole.add_us(v);
            if i % 3 == 0 { &mut a } else { &mut b }.add_us(v);
        }
        a.merge(&b);
        assert_eq!(a, whole);
    }

    #[test]
    fn quantiles_are_within_the_bucket_precision() {
        let mut h = Histogram::default();
        for v in 1..=1000u64 {
            h.add_us(v * 1000);
        }
        for (q, exact) in [(0.5, 500_000.0), (0.9, 900_000.0), (0.99, 990_000.0)] {
            let got = h.quantile_us(q) as f64;
            assert!(
                (got - exact).abs() / exact <= 0.125,
                "q{q}: {got} vs {exact}"
            );
        }
        assert_eq!(h.quantile_us(1.0), 1_000_000);
        assert_eq!(h.quantile_us(0.0), 1000);
    }
}
