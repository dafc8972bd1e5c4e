//! The rows the viewer shows, in order.

/// The rows the filters show, in row order. While nothing is filtered that is every row, kept
/// as a count rather than a list of numbers: four bytes a line on a big input.
#[derive(Debug, Clone)]
pub enum View {
    /// Rows `0..n`.
    All(usize),
    /// These rows, sorted.
    Rows(Vec<u32>),
}

impl Default for View {
    fn default() -> Self {
        View::All(0)
    }
}

impl View {
    /// The view of `rows` (sorted) out of `total` rows: every row when it holds them all.
    pub fn of(rows: Vec<u32>, total: usize) -> View {
        if rows.len() == total {
            View::All(total)
        } else {
            View::Rows(rows)
        }
    }

    pub fn len(&self) -> usize {
        match self {
            View::All(n) => *n,
            View::Rows(v) => v.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The row at position `i`.
    pub fn get(&self, i: usize) -> Option<u32> {
        match self {
            View::All(n) => (i < *n).then(|| u32::try_from(i).unwrap_or(u32::MAX)),
            View::Rows(v) => v.get(i).copied(),
        }
    }

    /// The row at position `i`, which the caller knows is in the view.
    pub fn at(&self, i: usize) -> usize {
        self.get(i).map_or(usize::MAX, |r| r as usize)
    }

    /// Adds row `r`, after every row in the view.
    pub fn push(&mut self, r: u32) {
        match self {
            View::All(n) if r as usize == *n => *n += 1,
            View::All(n) => {
                let mut v: Vec<u32> = (0..*n).filter_map(|i| u32::try_from(i).ok()).collect();
                v.push(r);
                *self = View::Rows(v);
            }
            View::Rows(v) => v.push(r),
        }
    }

    /// The position of row `r`, or where it would go.
    pub fn position(&self, r: u32) -> Result<usize, usize> {
        match self {
            View::All(n) if (r as usize) < *n => Ok(r as usize),
            View::All(n) => Err(*n),
            View::Rows(v) => v.binary_search(&r),
        }
    }

    /// The number of leading rows for which `pred` holds (it must hold for a prefix).
    pub fn partition_point(&self, mut pred: impl FnMut(u32) -> bool) -> usize {
        match self {
            View::All(n) => {
                let (mut lo, mut hi) = (0usize, *n);
                while lo < hi {
                    let mid = lo + (hi - lo) / 2;
                    if pred(u32::try_from(mid).unwrap_or(u32::MAX)) {
                        lo = mid + 1;
                    } else {
                        hi = mid;
                    }
                }
                lo
            }
            View::Rows(v) => v.partition_point(|&r| pred(r)),
        }
    }

    pub fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        (0..self.len()).filter_map(|i| self.get(i))
    }

    pub fn to_vec(&self) -> Vec<u32> {
        self.iter().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::View;

    #[test]
    fn every_row_is_a_count_until_one_is_left_out() {
        let mut v = View::of(vec![0, 1, 2], 3);
        assert!(matches!(v, View::All(3)));
        v.push(3);
        assert_eq!(v.len(), 4);
        assert_eq!(v.position(2), Ok(2));
        assert_eq!(v.position(9), Err(4));
        assert_eq!(v.partition_point(|r| r < 2), 2);
        v.push(6);
        assert_eq!(v.to_vec(), vec![0, 1, 2, 3, 6]);
        assert_eq!(v.position(6), Ok(4));
        assert_eq!(v.get(5), None);
        let w = View::of(vec![1, 4], 6);
        assert_eq!(w.at(1), 4);
        assert_eq!(w.partition_point(|r| r < 4), 1);
    }
}
