//! Durations as every report writes them, so that `check`, `decode`, the judge's messages and
//! the viewer say the same time the same way.

/// `1.2 s` (nanoseconds in).
pub fn secs(ns: u64) -> String {
    format!("{:.1} s", ns as f64 / 1e9)
}

/// `1.2 s` from a second on, `12 ms` below (nanoseconds in).
pub fn secs_or_ms(ns: u64) -> String {
    if ns >= 1_000_000_000 {
        secs(ns)
    } else {
        format!("{} ms", ns / 1_000_000)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_second_is_where_milliseconds_stop() {
        assert_eq!(super::secs(1_250_000_000), "1.2 s");
        assert_eq!(super::secs_or_ms(999_999_999), "999 ms");
        assert_eq!(super::secs_or_ms(1_000_000_000), "1.0 s");
    }
}
