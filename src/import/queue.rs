//! The builder's queue of events not handed out yet. An event leaves it by swapping places
//! with one the caller is done with, and that one stays in the queue's room to be filled
//! again in place: a big log's events were each built, moved in, moved out and freed, and
//! those moves and frees were a sixth of the reading thread's time.

use crate::recording::{Event, Source};

/// Events in order, each with its session's index.
#[derive(Default)]
pub struct Queue {
    /// Every entry is a valid event: those from `head` on for `len` entries (wrapping) are
    /// queued, the others are spare, left by [`Queue::pop_into`] to be filled again.
    room: Vec<(usize, Event)>,
    head: usize,
    len: usize,
}

impl Queue {
    pub fn len(&self) -> usize {
        self.len
    }

    fn index(&self, i: usize) -> usize {
        let j = self.head + i;
        if j >= self.room.len() {
            j - self.room.len()
        } else {
            j
        }
    }

    pub fn get(&self, i: usize) -> Option<&(usize, Event)> {
        if i >= self.len {
            return None;
        }
        self.room.get(self.index(i))
    }

    pub fn get_mut(&mut self, i: usize) -> Option<&mut (usize, Event)> {
        if i >= self.len {
            return None;
        }
        let j = self.index(i);
        self.room.get_mut(j)
    }

    pub fn front(&self) -> Option<&(usize, Event)> {
        self.get(0)
    }

    /// A new entry at `at` (at most [`Queue::len`]), the entries from there on moved back
    /// by one. It holds a spare event, to be overwritten or filled again in place.
    pub fn insert_spare(&mut self, at: usize) -> Option<&mut (usize, Event)> {
        if at > self.len {
            return None;
        }
        if self.len == self.room.len() {
            // Full: the queued entries first, then room for more.
            self.room.rotate_left(self.head);
            self.head = 0;
            let more = self.room.len().max(16);
            self.room.reserve(more);
            self.room
                .extend((0..more).map(|_| (0, Event::line(0, 0, Source::Proxy, String::new()))));
        }
        self.len += 1;
        // Behind the entries after `at` (rare: only a line that speaks of two sessions,
        // the later one first, inserts anywhere but at the back).
        for i in (at + 1..self.len).rev() {
            let (a, b) = (self.index(i - 1), self.index(i));
            self.room.swap(a, b);
        }
        self.get_mut(at)
    }

    /// The first entry's event into `out`, which takes its place as a spare.
    pub fn pop_into(&mut self, out: &mut Event) -> bool {
        if self.len == 0 {
            return false;
        }
        let Some((_, e)) = self.room.get_mut(self.head) else {
            return false;
        };
        std::mem::swap(out, e);
        self.head = self.index(1);
        self.len -= 1;
        true
    }

    /// How many entries from the front satisfy `f` (which holds for a prefix of them).
    pub fn partition_point(&self, f: impl Fn(&(usize, Event)) -> bool) -> usize {
        let (mut lo, mut hi) = (0, self.len);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if self.get(mid).is_some_and(&f) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        lo
    }

    /// The first `n` entries, taken out of the queue in order.
    pub fn take_front(&mut self, n: usize) -> impl Iterator<Item = (usize, Event)> + '_ {
        let n = n.min(self.len);
        (0..n).filter_map(move |_| {
            let empty = (0, Event::line(0, 0, Source::Proxy, String::new()));
            let e = std::mem::replace(self.room.get_mut(self.head)?, empty);
            self.head = self.index(1);
            self.len -= 1;
            Some(e)
        })
    }

    /// Every queued entry, in order.
    pub fn into_queued(mut self) -> impl Iterator<Item = (usize, Event)> {
        let n = self.len;
        self.room.rotate_left(self.head);
        self.room.truncate(n);
        self.room.into_iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(n: u64) -> Event {
        Event::line(n, n, Source::Engine, format!("line {n}"))
    }

    fn push(q: &mut Queue, at: usize, n: u64) {
        let slot = q.insert_spare(at).expect("at is within the queue");
        *slot = (n as usize, ev(n));
    }

    fn queued(q: &Queue) -> Vec<u64> {
        (0..q.len())
            .filter_map(|i| q.get(i))
            .map(|(_, e)| e.seq)
            .collect()
    }

    #[test]
    fn keeps_order_through_wrapping_growth_and_inserts() {
        let mut q = Queue::default();
        let mut want = std::collections::VecDeque::new();
        let mut out = ev(0);
        let mut next = 1;
        // Push and pop at different rates so that the queue wraps and grows while wrapped.
        for round in 0..200u64 {
            for _ in 0..(round % 7) {
                let back = q.len();
                push(&mut q, back, next);
                want.push_back(next);
                next += 1;
            }
            if round % 5 == 0 && q.len() > 1 {
                push(&mut q, 1, next);
                want.insert(1, next);
                next += 1;
            }
            for _ in 0..(round % 4) {
                let expected = want.pop_front();
                assert_eq!(q.pop_into(&mut out), expected.is_some());
                if let Some(n) = expected {
                    assert_eq!(out.seq, n);
                    assert_eq!(out.text, format!("line {n}"));
                }
            }
            assert_eq!(queued(&q), want.iter().copied().collect::<Vec<_>>());
        }
        let n = q.partition_point(|(_, e)| e.seq < want[want.len() / 2]);
        assert_eq!(q.get(n).map(|(_, e)| e.seq), Some(want[want.len() / 2]));
        let taken: Vec<u64> = q.take_front(3).map(|(_, e)| e.seq).collect();
        let first: Vec<u64> = want.drain(..3).collect();
        assert_eq!(taken, first);
        let rest: Vec<u64> = q.into_queued().map(|(_, e)| e.seq).collect();
        assert_eq!(rest, want.into_iter().collect::<Vec<_>>());
    }

    #[test]
    fn a_popped_event_is_swapped_for_a_spare_that_is_filled_again() {
        let mut q = Queue::default();
        push(&mut q, 0, 1);
        let mut out = Event::line(9, 9, Source::Gui, "x".repeat(100));
        assert!(q.pop_into(&mut out));
        assert_eq!(out.seq, 1);
        // Once round the room, the caller's old event is the spare given to fill: its text
        // keeps its room.
        let mut other = ev(0);
        for n in 2..=16 {
            let back = q.len();
            push(&mut q, back, n);
            assert!(q.pop_into(&mut other));
            assert_eq!(other.seq, n);
        }
        let spare = q.insert_spare(0).expect("room");
        assert_eq!(spare.1.seq, 9);
        assert!(spare.1.text.capacity() >= 100);
        assert!(q.insert_spare(2).is_none(), "past the end");
    }
}
