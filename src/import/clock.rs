//! Log timestamps and their normalisation to the recording's `t` (ns since `started`).
//!
//! Logs stamp lines in four ways: a full local date-time (Arena, lichess-bot, log4j), a time of
//! day without date (fastchess, lc0, Banksia), a count since program start (xboard,
//! cutechess-cli, InBetween, PolyGlot on Windows) or nothing at all. `t` is measured from the
//! first stamp in the log; lines without a stamp inherit the last one (0 before any), so `t`
//! never invents precision the log does not have. Stamps earlier than the first one (fastchess
//! out-of-order lines) clamp to 0. A time of day that jumps back by more than 12 hours is taken
//! as a midnight wrap.

use super::lines::{digits, fixed_digits};

const NS_PER_SEC: i128 = 1_000_000_000;
const DAY_NS: i128 = 86_400 * NS_PER_SEC;

/// A timestamp as written in the log.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Stamp {
    /// Wall clock with a date: ns since the Unix epoch (local time taken as UTC, logs carry no zone).
    Absolute(i128),
    /// Wall clock without a date: ns since midnight.
    TimeOfDay(i128),
    /// Time since the producing program (or match) started, in ns.
    Relative(i128),
}

/// What `header.started` and `t` mean for an imported log.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ClockKind {
    /// The log gives date and time: `started` is the first stamp (local time written as UTC).
    Absolute,
    /// Time of day only: `started` is left out (no date), `t` counts from the first stamp.
    TimeOfDay,
    /// Time since program start: `started` is left out.
    Relative,
    /// No timestamps: every `t` is 0 and `started` is left out.
    None,
}

/// `started` of a log that gives no date: unknown, so left out of the header.
pub const PLACEHOLDER_STARTED: &str = "";

#[derive(Debug, Default)]
pub struct Clock {
    first: Option<(Stamp, i128)>,
    day_offset: i128,
    last_tod: Option<i128>,
    now: u64,
}

impl Clock {
    /// Feeds a stamp and returns the event time `t` for it.
    pub fn stamp(&mut self, s: Stamp) -> u64 {
        let v = match s {
            Stamp::TimeOfDay(tod) => {
                if let Some(last) = self.last_tod
                    && tod + DAY_NS / 2 < last
                {
                    self.day_offset += DAY_NS;
                }
                self.last_tod = Some(tod);
                tod + self.day_offset
            }
            Stamp::Absolute(v) | Stamp::Relative(v) => v,
        };
        let base = match self.first {
            Some((_, b)) => b,
            None => {
                self.first = Some((s, v));
                v
            }
        };
        self.now = u64::try_from((v - base).max(0)).unwrap_or(u64::MAX);
        self.now
    }

    /// `t` for a line without its own stamp.
    pub fn now(&self) -> u64 {
        self.now
    }

    pub fn kind(&self) -> ClockKind {
        match self.first {
            None => ClockKind::None,
            Some((Stamp::Absolute(_), _)) => ClockKind::Absolute,
            Some((Stamp::TimeOfDay(_), _)) => ClockKind::TimeOfDay,
            Some((Stamp::Relative(_), _)) => ClockKind::Relative,
        }
    }

    /// RFC 3339 time of `t = 0`.
    pub fn started(&self) -> String {
        match self.first {
            Some((Stamp::Absolute(v), _)) => rfc3339(v),
            _ => PLACEHOLDER_STARTED.to_owned(),
        }
    }
}

fn rfc3339(ns: i128) -> String {
    let secs = ns.div_euclid(NS_PER_SEC);
    let sub = ns.rem_euclid(NS_PER_SEC);
    let dt = i64::try_from(secs)
        .ok()
        .and_then(|s| chrono::DateTime::from_timestamp(s, u32::try_from(sub).unwrap_or(0)));
    match dt {
        Some(d) => d.to_rfc3339_opts(chrono::SecondsFormat::Nanos, true),
        None => PLACEHOLDER_STARTED.to_owned(),
    }
}

/// Fraction digits after a separator as ns: `.5` → 500 ms, `.123456` → 123456 µs.
fn fraction(b: &[u8]) -> (i128, usize) {
    let (v, n) = digits(b.get(..9.min(b.len())).unwrap_or(b));
    if n == 0 {
        return (0, 0);
    }
    let mut ns = i128::from(v);
    for _ in n..9 {
        ns *= 10;
    }
    (ns, n)
}

/// `HH:MM:SS` with an optional `.frac`, `,frac` or `:zzz` (Substitute): (ns since midnight, bytes used).
pub fn time_of_day(b: &[u8]) -> Option<(i128, usize)> {
    let h = fixed_digits(b, 2)?;
    let m = fixed_digits(b.get(3..)?, 2)?;
    let s = fixed_digits(b.get(6..)?, 2)?;
    if b.get(2) != Some(&b':') || b.get(5) != Some(&b':') || h > 23 || m > 59 || s > 60 {
        return None;
    }
    let mut ns = i128::from(h * 3600 + m * 60 + s) * NS_PER_SEC;
    let mut used = 8;
    if let Some(b'.' | b',' | b':') = b.get(8) {
        let (f, n) = fraction(b.get(9..).unwrap_or(&[]));
        if n > 0 {
            ns += f;
            used = 9 + n;
            // Skip digits beyond ns precision.
            used += digits(b.get(used..).unwrap_or(&[])).1;
        }
    }
    Some((ns, used))
}

/// `YYYY-MM-DD HH:MM:SS[.,frac]` (or `T` between date and time): (ns since epoch, bytes used).
pub fn date_time(b: &[u8]) -> Option<(i128, usize)> {
    let y = fixed_digits(b, 4)?;
    let mo = fixed_digits(b.get(5..)?, 2)?;
    let d = fixed_digits(b.get(8..)?, 2)?;
    if b.get(4) != Some(&b'-') || b.get(7) != Some(&b'-') || !matches!(b.get(10), Some(b' ' | b'T'))
    {
        return None;
    }
    let date = chrono::NaiveDate::from_ymd_opt(
        i32::try_from(y).ok()?,
        u32::try_from(mo).ok()?,
        u32::try_from(d).ok()?,
    )?;
    let days = i128::from(
        date.signed_duration_since(chrono::NaiveDate::default())
            .num_days(),
    );
    let (tod, used) = time_of_day(b.get(11..)?)?;
    Some((days * DAY_NS + tod, 11 + used))
}

/// Integer milliseconds at the start of `b`, followed by a space: (ns, bytes used incl. the space).
pub fn millis_then_space(b: &[u8]) -> Option<(i128, usize)> {
    let (v, n) = digits(b);
    if n == 0 || n > 15 || b.get(n) != Some(&b' ') {
        return None;
    }
    Some((i128::from(v) * 1_000_000, n + 1))
}

/// `seconds.frac` (PolyGlot, InBetween): (ns, bytes used).
pub fn seconds_frac(b: &[u8]) -> Option<(i128, usize)> {
    let (v, n) = digits(b);
    if n == 0 || n > 15 || b.get(n) != Some(&b'.') {
        return None;
    }
    let (f, k) = fraction(b.get(n + 1..).unwrap_or(&[]));
    if k == 0 {
        return None;
    }
    Some((i128::from(v) * NS_PER_SEC + f, n + 1 + k))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_stamp_shapes() {
        assert_eq!(
            time_of_day(b"11:00:31.727951 x"),
            Some((39_631_727_951_000, 15))
        );
        assert_eq!(
            time_of_day(b"21:46:26 OliThink"),
            Some((78_386_000_000_000, 8))
        );
        assert_eq!(time_of_day(b"25:00:00"), None);
        let (v, n) = date_time(b"2024-10-02 19:45:39,412**").unwrap();
        assert_eq!(n, 23);
        assert_eq!(rfc3339(v), "2024-10-02T19:45:39.412000000Z");
        assert!(date_time(b"2024-13-02 19:45:39").is_none());
        assert_eq!(seconds_frac(b"295.092: <"), Some((295_092_000_000, 7)));
        assert_eq!(millis_then_space(b"452 >x"), Some((452_000_000, 4)));
    }

    #[test]
    fn time_is_relative_to_first_stamp_and_wraps_midnight() {
        let mut c = Clock::default();
        let h = |x: i128| x * 3600 * NS_PER_SEC;
        assert_eq!(c.stamp(Stamp::TimeOfDay(h(23))), 0);
        assert_eq!(c.stamp(Stamp::TimeOfDay(h(1))), 2 * 3600 * 1_000_000_000);
        assert_eq!(c.kind(), ClockKind::TimeOfDay);
        // No date in the log: no start time is claimed.
        assert_eq!(c.started(), "");
    }

    #[test]
    fn earlier_stamps_clamp_to_zero() {
        let mut c = Clock::default();
        c.stamp(Stamp::Relative(5_000));
        assert_eq!(c.stamp(Stamp::Relative(1_000)), 0);
        assert_eq!(c.started(), PLACEHOLDER_STARTED);
    }
}
