//! [`NameIndex`]: the name order of a definition's members (fields, enum values), kept inline for
//! the few members most definitions have, so that compiling them allocates nothing for it.

use std::cmp::Ordering;
use std::fmt;

/// An index type of a [`NameIndex`].
pub(crate) trait Position: Copy + Default {
    /// The position as a `usize`.
    fn get(self) -> usize;
}

impl Position for u16 {
    fn get(self) -> usize {
        usize::from(self)
    }
}

impl Position for u32 {
    fn get(self) -> usize {
        self as usize
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
    /// The `positions` sorted by `cmp` (positions with equal names would keep no particular
    /// order: names of members are unique).
    pub(crate) fn sorted(
        positions: impl ExactSizeIterator<Item = I>,
        mut cmp: impl FnMut(I, I) -> Ordering,
    ) -> NameIndex<I, N> {
        if positions.len() > N.min(u8::MAX as usize) {
            let mut order: Box<[I]> = positions.collect();
            order.sort_unstable_by(|&a, &b| cmp(a, b));
            return NameIndex::Heap(order);
        }
        // An insertion sort: few members, mostly in order or nearly so.
        let mut order = [I::default(); N];
        let mut len = 0;
        for p in positions {
            let mut j = len;
            while j > 0 && cmp(order[j - 1], p).is_gt() {
                order[j] = order[j - 1];
                j -= 1;
            }
            order[j] = p;
            len += 1;
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
    use super::NameIndex;

    #[test]
    fn sorts_inline_and_on_the_heap() {
        // Distinct names in a scrambled order, for sizes on both sides of the inline limit.
        for n in 0..40usize {
            let names: Vec<String> = (0..n)
                .map(|i| format!("{}{}", ["b", "a", "ab", "_", "B"][i % 5], (i * 7919) % 41))
                .collect();
            let index = NameIndex::<u16, 11>::sorted(0..n as u16, |a, b| {
                names[usize::from(a)].cmp(&names[usize::from(b)])
            });
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
}
