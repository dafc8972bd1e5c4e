//! Lower search limits: a `go` that searches less reaches the fault sooner, and says more
//! about it (the fault is not in the depth).

/// The numeric fields of a UCI `go` that bound a search, and the least each is lowered to.
const FIELDS: &[(&str, u64)] = &[
    ("depth", 1),
    ("nodes", 1),
    ("movetime", 10),
    ("wtime", 100),
    ("btime", 100),
    ("winc", 0),
    ("binc", 0),
    ("movestogo", 1),
    ("mate", 1),
];

/// The `go` line with each limit divided by `divisor` (at least its floor); `divisor == 0`
/// lowers every limit to its floor. `None` when nothing would change.
pub fn lowered(go: &str, divisor: u64) -> Option<String> {
    let words: Vec<&str> = go.split_whitespace().collect();
    if words.first() != Some(&"go") {
        return None;
    }
    let mut out: Vec<String> = Vec::with_capacity(words.len());
    let mut changed = false;
    let mut i = 0;
    while i < words.len() {
        out.push(words[i].to_owned());
        if let Some(&(_, floor)) = FIELDS.iter().find(|(f, _)| *f == words[i])
            && let Some(v) = words.get(i + 1).and_then(|v| v.parse::<u64>().ok())
        {
            let new = match divisor {
                0 => floor,
                d => (v / d).max(floor),
            };
            changed |= new < v;
            out.push(new.min(v).to_string());
            i += 1;
        }
        i += 1;
    }
    changed.then(|| out.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_go_down_to_their_floor_and_nothing_else_moves() {
        assert_eq!(
            lowered("go wtime 60000 btime 60000 movestogo 30", 0).as_deref(),
            Some("go wtime 100 btime 100 movestogo 1")
        );
        assert_eq!(lowered("go depth 12", 4).as_deref(), Some("go depth 3"));
        assert_eq!(lowered("go depth 1", 0), None);
        assert_eq!(lowered("go ponder", 0), None);
        assert_eq!(
            lowered("go ponder wtime 500 searchmoves e2e4", 0).as_deref(),
            Some("go ponder wtime 100 searchmoves e2e4")
        );
    }
}
