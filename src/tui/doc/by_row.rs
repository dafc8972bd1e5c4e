//! A map from row to a value for rows that come in (nearly) increasing order, as requests are
//! answered: a sorted vector, appended to, searched by halves. A hash map's insert, into a
//! table too big for the cache, was a fifth of the document's own time on a 1 GB log.

#[derive(Debug, Default)]
pub struct ByRow(Vec<(u32, u32)>);

impl ByRow {
    /// Sets `row`'s value, replacing an earlier one.
    pub fn insert(&mut self, row: u32, value: u32) {
        match self.0.last() {
            Some(&(last, _)) if last < row => self.0.push((row, value)),
            None => self.0.push((row, value)),
            // Out of order (a request answered after a later one): rare, and close to the end.
            Some(_) => match self.0.binary_search_by_key(&row, |&(r, _)| r) {
                Ok(i) => self.0[i].1 = value,
                Err(i) => self.0.insert(i, (row, value)),
            },
        }
    }

    pub fn get(&self, row: u32) -> Option<u32> {
        let i = self.0.binary_search_by_key(&row, |&(r, _)| r).ok()?;
        self.0.get(i).map(|&(_, v)| v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::HashMap;

    proptest! {
        #[test]
        fn answers_as_a_hash_map_does(ops in proptest::collection::vec(
            (prop_oneof![3 => 0..64u32, 1 => Just(u32::MAX)], any::<u32>()), 0..200)) {
            let (mut ours, mut theirs) = (ByRow::default(), HashMap::new());
            // Mostly increasing rows, as answers come.
            for (n, (row, value)) in ops.into_iter().enumerate() {
                let row = if row == u32::MAX { row } else { row + n as u32 };
                ours.insert(row, value);
                theirs.insert(row, value);
            }
            for row in 0..300u32 {
                prop_assert_eq!(ours.get(row), theirs.get(&row).copied());
            }
            prop_assert_eq!(ours.get(u32::MAX), theirs.get(&u32::MAX).copied());
        }
    }
}
