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

/// The line's search limit lowered: each limit of a UCI `go` divided by `divisor` (at least
/// its floor; `divisor == 0` lowers it to its floor), likewise CECP `sd N`, `st N`, the clocks
/// (`time N`, `otim N` in centiseconds, floor 10; `level MPS BASE INC`, base floor 1 s,
/// increment floor 0) and NBoard `set depth N`. `None` when nothing would change or the line
/// sets no limit.
pub fn lowered(line: &str, divisor: u64) -> Option<String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    match words.as_slice() {
        ["go", ..] => go(&words, divisor),
        [head @ ("sd" | "st"), v] => single(&format!("{head} "), v, 1, divisor),
        [head @ ("time" | "otim"), v] => single(&format!("{head} "), v, 10, divisor),
        ["level", mps, base, inc] => level(mps, base, inc, divisor),
        ["set", "depth", v] => single("set depth ", v, 1, divisor),
        _ => None,
    }
}

/// `level MPS BASE INC` with less time: BASE is minutes or `MIN:SEC`, INC seconds.
fn level(mps: &str, base: &str, inc: &str, divisor: u64) -> Option<String> {
    let base_s: u64 = match base.split_once(':') {
        Some((m, s)) => m
            .parse::<u64>()
            .ok()?
            .checked_mul(60)?
            .checked_add(s.parse().ok()?)?,
        None => base.parse::<u64>().ok()?.checked_mul(60)?,
    };
    let inc_s: f64 = inc
        .parse()
        .ok()
        .filter(|v: &f64| v.is_finite() && *v >= 0.0)?;
    let (new_base, new_inc) = match divisor {
        0 => (1, 0.0),
        d => ((base_s / d).max(1), inc_s / d as f64),
    };
    if new_base >= base_s && new_inc >= inc_s {
        return None;
    }
    let base = if new_base % 60 == 0 {
        (new_base / 60).to_string()
    } else {
        format!("{}:{:02}", new_base / 60, new_base % 60)
    };
    let inc = if new_inc.fract() == 0.0 {
        format!("{}", new_inc as u64)
    } else {
        format!("{new_inc:.2}")
    };
    Some(format!("level {mps} {base} {inc}"))
}

fn single(prefix: &str, value: &str, floor: u64, divisor: u64) -> Option<String> {
    let v: u64 = value.parse().ok()?;
    let new = match divisor {
        0 => floor,
        d => (v / d).max(floor),
    };
    (new < v).then(|| format!("{prefix}{new}"))
}

fn go(words: &[&str], divisor: u64) -> Option<String> {
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
        assert_eq!(lowered("sd 12", 2).as_deref(), Some("sd 6"));
        assert_eq!(lowered("set depth 20", 0).as_deref(), Some("set depth 1"));
        assert_eq!(lowered("st 1", 0), None);
        assert_eq!(
            lowered("level 40 5 0", 0).as_deref(),
            Some("level 40 0:01 0")
        );
        assert_eq!(
            lowered("level 0 2:30 2", 2).as_deref(),
            Some("level 0 1:15 1")
        );
        assert_eq!(lowered("level 40 0:01 0", 4), None);
        assert_eq!(lowered("time 30000", 4).as_deref(), Some("time 7500"));
        assert_eq!(lowered("otim 5", 0), None);
        // A number no clock holds is left as it is, never a panic.
        assert_eq!(lowered("level 40 400000000000000000 0", 0), None);
        assert_eq!(lowered("level 40 5 nan", 0), None);
        assert_eq!(
            lowered("go ponder wtime 500 searchmoves e2e4", 0).as_deref(),
            Some("go ponder wtime 100 searchmoves e2e4")
        );
    }
}
