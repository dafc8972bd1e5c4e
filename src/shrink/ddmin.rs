//! Delta debugging (Zeller's ddmin) over units, in its complement-only form: at each
//! granularity the session without each chunk is tried (side by side on the cores), and the
//! first that still shows the fault becomes the best so far. Trying each chunk alone as well
//! costs a failing run per chunk whenever the fault needs units of several chunks (an option
//! and a position), which is the common case; the empty set is tried once at the start for
//! the faults that need none of the units.

/// Reduces `units` to a subset whose candidate still shows the fault. `test` gets the unit
/// sets to try, best first, and answers the index of the first that reproduces; `stop` ends
/// the search early (the budget), with the best so far.
pub fn ddmin(
    units: Vec<usize>,
    test: &mut dyn FnMut(&[Vec<usize>]) -> Option<usize>,
    stop: &dyn Fn() -> bool,
) -> Vec<usize> {
    let mut cur = units;
    if cur.is_empty() || stop() {
        return cur;
    }
    // The cheapest win first: the fault needs none of them.
    if test(&[Vec::new()]).is_some() {
        return Vec::new();
    }
    let mut n = 2;
    while cur.len() >= 2 && !stop() {
        let n_now = n.min(cur.len());
        let chunks = split(&cur, n_now);
        let mut tries: Vec<Vec<usize>> = (0..n_now)
            .map(|i| {
                chunks
                    .iter()
                    .enumerate()
                    .filter(|(j, _)| *j != i)
                    .flat_map(|(_, c)| c.iter().copied())
                    .collect()
            })
            .collect();
        match test(&tries) {
            Some(i) => {
                cur = tries.swap_remove(i);
                n = (n_now - 1).max(2);
            }
            None if n_now >= cur.len() => break,
            None => n = (n_now * 2).min(cur.len()),
        }
    }
    cur
}

/// `items` in `n` contiguous chunks of near-equal size.
fn split(items: &[usize], n: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::with_capacity(n);
    let mut start = 0;
    for i in 0..n {
        let end = start + (items.len() - start) / (n - i);
        out.push(items[start..end].to_vec());
        start = end;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shrink(n: usize, needed: &[usize]) -> (Vec<usize>, usize) {
        let mut calls = 0;
        let kept = ddmin(
            (0..n).collect(),
            &mut |sets| {
                calls += sets.len();
                sets.iter()
                    .position(|s| needed.iter().all(|x| s.contains(x)))
            },
            &|| false,
        );
        (kept, calls)
    }

    #[test]
    fn finds_the_units_the_fault_needs() {
        assert_eq!(shrink(100, &[37]).0, [37]);
        assert_eq!(shrink(100, &[3, 90]).0, [3, 90]);
        assert_eq!(shrink(10, &[]).0, Vec::<usize>::new());
        let (kept, calls) = shrink(200, &[5, 6, 150]);
        assert_eq!(kept, [5, 6, 150]);
        assert!(calls < 400, "{calls}");
    }

    #[test]
    fn splits_evenly() {
        assert_eq!(split(&[1, 2, 3, 4, 5], 2), [vec![1, 2], vec![3, 4, 5]]);
        assert_eq!(split(&[1, 2, 3], 3), [vec![1], vec![2], vec![3]]);
    }
}
