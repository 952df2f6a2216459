//! [`OneOrMany`]: a vector that keeps a single element inline, for the per-file state of a
//! compilation (most compilations read one file, and then need no allocation for it).

use std::ops::{Deref, DerefMut};

/// A non-empty sequence: one element inline, or a vector of them.
#[derive(Debug)]
pub(crate) enum OneOrMany<T> {
    One(T),
    Many(Vec<T>),
}

impl<T> OneOrMany<T> {
    /// A sequence of `f` of each element, in order.
    #[inline]
    pub(crate) fn map<'a, U>(&'a self, mut f: impl FnMut(&'a T) -> U) -> OneOrMany<U> {
        match self {
            OneOrMany::One(item) => OneOrMany::One(f(item)),
            OneOrMany::Many(all) => OneOrMany::Many(all.iter().map(f).collect()),
        }
    }

    /// Appends an element (the second one moves both into a vector).
    pub(crate) fn push(&mut self, item: T) {
        let old = std::mem::replace(self, OneOrMany::Many(Vec::new()));
        *self = OneOrMany::Many(match old {
            OneOrMany::One(first) => vec![first, item],
            OneOrMany::Many(mut all) => {
                all.push(item);
                all
            }
        });
    }
}

impl<T> Deref for OneOrMany<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        match self {
            OneOrMany::One(item) => std::slice::from_ref(item),
            OneOrMany::Many(all) => all,
        }
    }
}

impl<T> DerefMut for OneOrMany<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        match self {
            OneOrMany::One(item) => std::slice::from_mut(item),
            OneOrMany::Many(all) => all,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_then_many() {
        let mut v = OneOrMany::One(1);
        assert_eq!(&*v, &[1]);
        v[0] = 5;
        v.push(2);
        v.push(3);
        assert_eq!(&*v, &[5, 2, 3]);
        assert_eq!(&*v.map(|x| x * 2), &[10, 4, 6]);
        assert!(matches!(
            OneOrMany::One(7).map(|x| x + 1),
            OneOrMany::One(8)
        ));
    }
}
