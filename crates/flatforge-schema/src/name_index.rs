//! [`NameIndex`]: the name order of a definition's members (fields, enum values), kept inline for
//! the few members most definitions have, so that compiling them allocates nothing for it.

use std::cmp::Ordering;
use std::fmt;

/// An index type of a [`NameIndex`] (the caller keeps the positions within its range).
pub(crate) trait Position: Copy + Default {
    /// The position `i`.
    fn new(i: usize) -> Self;
    /// The position as a `usize`.
    fn get(self) -> usize;
}

impl Position for u16 {
    fn new(i: usize) -> u16 {
        i as u16
    }
    fn get(self) -> usize {
        usize::from(self)
    }
}

impl Position for u32 {
    fn new(i: usize) -> u32 {
        i as u32
    }
    fn get(self) -> usize {
        self as usize
    }
}

/// `a.cmp(b)` (byte-wise), decided by the first bytes when they differ, as names mostly do,
/// without comparing the rest.
pub(crate) fn cmp_names(a: &str, b: &str) -> Ordering {
    match (a.as_bytes().first(), b.as_bytes().first()) {
        (Some(x), Some(y)) if x != y => x.cmp(y),
        _ => a.cmp(b),
    }
}

/// Positions of a definition's members, sorted by the members' names: up to `N` of them inline,
/// more on the heap.
#[derive(Clone, PartialEq, Eq)]
pub(crate) enum NameIndex<I, const N: usize> {
    Inline { len: u8, order: [I; N] },
    Heap(Box<[I]>),
}

impl<I: Position, const N: usize> NameIndex<I, N> {
    /// The positions `0..len` sorted by the names `name` gives them (byte-wise; names of
    /// members are unique, so the order is deterministic). Always inlined: for the few members
    /// of most definitions, a call costs a good part of the sort.
    #[inline(always)]
    pub(crate) fn sorted<'a>(len: usize, name: impl Fn(usize) -> &'a str) -> NameIndex<I, N> {
        if len > N.min(u8::MAX as usize) {
            let mut order: Box<[I]> = (0..len).map(I::new).collect();
            order.sort_unstable_by(|&a, &b| cmp_names(name(a.get()), name(b.get())));
            return NameIndex::Heap(order);
        }
        // An insertion sort: few members, often nearly in order. It compares the names' first
        // bytes, read once (0 for an empty name), and reads two names again only when those are
        // equal: member names mostly differ in their first byte.
        let mut first = [0u8; N];
        for (i, byte) in first.iter_mut().enumerate().take(len) {
            *byte = name(i).as_bytes().first().copied().unwrap_or(0);
        }
        let mut order = [I::default(); N];
        for i in 0..len {
            let mut j = i;
            while j > 0 {
                let before = order[j - 1].get();
                let greater = match first[before].cmp(&first[i]) {
                    Ordering::Equal => name(before) > name(i),
                    unequal => unequal.is_gt(),
                };
                if !greater {
                    break;
                }
                order[j] = order[j - 1];
                j -= 1;
            }
            order[j] = I::new(i);
        }
        NameIndex::Inline {
            len: len as u8,
            order,
        }
    }

    /// The sorted positions.
    pub(crate) fn as_slice(&self) -> &[I] {
        match self {
            NameIndex::Inline { len, order } => &order[..usize::from(*len)],
            NameIndex::Heap(order) => order,
        }
    }

    /// The position, among the sorted positions, of the member whose name `name_of` gives as
    /// `name`.
    pub(crate) fn find<'a>(&self, name: &str, name_of: impl Fn(usize) -> &'a str) -> Option<usize> {
        self.as_slice()
            .binary_search_by(|&p| name_of(p.get()).cmp(name))
            .ok()
            .map(|at| self.as_slice()[at].get())
    }
}

impl<I: Position + fmt::Debug, const N: usize> fmt::Debug for NameIndex<I, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::{cmp_names, NameIndex};

    #[test]
    fn sorts_inline_and_on_the_heap() {
        // Distinct names in a scrambled order, for sizes on both sides of the inline limit.
        for n in 0..40usize {
            let names: Vec<String> = (0..n)
                .map(|i| format!("{}{}", ["b", "a", "ab", "_", "B"][i % 5], (i * 7919) % 41))
                .collect();
            let index = NameIndex::<u16, 11>::sorted(n, |i| &names[i]);
            assert_eq!(matches!(index, NameIndex::Inline { .. }), n <= 11);
            let mut expected: Vec<u16> = (0..n as u16).collect();
            expected.sort_by(|&a, &b| names[usize::from(a)].cmp(&names[usize::from(b)]));
            assert_eq!(index.as_slice(), expected, "{names:?}");
            assert_eq!(format!("{index:?}"), format!("{expected:?}"));
            for (i, name) in names.iter().enumerate() {
                assert_eq!(index.find(name, |p| &names[p]), Some(i));
            }
            assert_eq!(index.find("none", |p| &names[p]), None);
        }
    }

    #[test]
    fn names_with_the_same_first_byte_or_none_sort_by_the_rest() {
        let names = ["ab", "", "\0", "a", "\0a", "aa", "b"];
        let index = NameIndex::<u16, 11>::sorted(names.len(), |i| names[i]);
        let sorted: Vec<&str> = index
            .as_slice()
            .iter()
            .map(|&p| names[usize::from(p)])
            .collect();
        assert_eq!(sorted, ["", "\0", "\0a", "a", "aa", "ab", "b"]);
    }

    #[test]
    fn names_compare_as_strings_do() {
        let names = [
            "", "a", "A", "ab", "abc", "b", "ba", "_", "a_b", "é", "e", "z9", "zz",
        ];
        for a in names {
            for b in names {
                assert_eq!(cmp_names(a, b), a.cmp(b), "{a:?} {b:?}");
            }
        }
    }
}
