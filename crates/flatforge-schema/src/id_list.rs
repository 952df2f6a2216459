//! [`IdList`]: the model's short lists of ids, kept inline up to four, so that compiling a file
//! that declares a few definitions allocates nothing for its lists of them.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::{Deref, DerefMut};

/// How many ids an [`IdList`] keeps inline.
const INLINE: usize = 4;

/// A list of ids in the [`Schema`](crate::Schema) model (the files a file includes, the
/// definitions it declares): up to four are kept inline, without an allocation (more go to the
/// heap).
///
/// It reads as a slice (through `Deref`), iterates as one, and compares, hashes and prints as
/// its ids.
///
/// ```
/// use flatforge_schema::{IdList, ObjectId};
/// let schema = flatforge_schema::compile_str("a.fbs", "table B {} table A {}")?;
/// let objects: &IdList<ObjectId> = &schema.root_file().objects;
/// assert_eq!(objects.len(), 2);
/// assert_eq!(schema[objects[0]].name, "B"); // declaration order
/// let names: Vec<&str> = objects.iter().map(|&id| &*schema[id].name).collect();
/// assert_eq!(names, ["B", "A"]);
/// assert_eq!(*objects, [ObjectId(1), ObjectId(0)]);
/// assert_eq!(format!("{objects:?}"), "[ObjectId(1), ObjectId(0)]");
/// # Ok::<(), flatforge_schema::CompileError>(())
/// ```
#[derive(Clone)]
pub struct IdList<T>(Repr<T>);

#[derive(Clone)]
enum Repr<T> {
    /// The first `len` ids (the rest repeat the first one).
    Inline {
        len: u8,
        ids: [T; INLINE],
    },
    Heap(Vec<T>),
}

impl<T: Copy> IdList<T> {
    /// An empty list.
    ///
    /// ```
    /// assert!(flatforge_schema::IdList::<flatforge_schema::FileId>::new().is_empty());
    /// ```
    pub const fn new() -> IdList<T> {
        IdList(Repr::Heap(Vec::new()))
    }

    /// Appends `id`.
    ///
    /// ```
    /// use flatforge_schema::{EnumId, IdList};
    /// let mut list = IdList::new();
    /// for i in 0..6 {
    ///     list.push(EnumId(i));
    /// }
    /// assert_eq!(list.last(), Some(&EnumId(5)));
    /// assert_eq!(list.len(), 6);
    /// ```
    #[inline]
    pub fn push(&mut self, id: T) {
        match &mut self.0 {
            Repr::Inline { len, ids } if usize::from(*len) < INLINE => {
                ids[usize::from(*len)] = id;
                *len += 1;
            }
            Repr::Inline { ids, .. } => {
                let mut all = Vec::with_capacity(2 * INLINE);
                all.extend_from_slice(ids);
                all.push(id);
                self.0 = Repr::Heap(all);
            }
            Repr::Heap(all) if all.capacity() == 0 => {
                self.0 = Repr::Inline {
                    len: 1,
                    ids: [id; INLINE],
                };
            }
            Repr::Heap(all) => all.push(id),
        }
    }
}

impl<T: Copy> Default for IdList<T> {
    fn default() -> IdList<T> {
        IdList::new()
    }
}

impl<T> Deref for IdList<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        match &self.0 {
            Repr::Inline { len, ids } => &ids[..usize::from(*len)],
            Repr::Heap(all) => all,
        }
    }
}

impl<T> DerefMut for IdList<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        match &mut self.0 {
            Repr::Inline { len, ids } => &mut ids[..usize::from(*len)],
            Repr::Heap(all) => all,
        }
    }
}

impl<'a, T> IntoIterator for &'a IdList<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<'a, T> IntoIterator for &'a mut IdList<T> {
    type Item = &'a mut T;
    type IntoIter = std::slice::IterMut<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter_mut()
    }
}

impl<T: PartialEq> PartialEq for IdList<T> {
    fn eq(&self, other: &IdList<T>) -> bool {
        **self == **other
    }
}

impl<T: Eq> Eq for IdList<T> {}

impl<T: PartialEq, const N: usize> PartialEq<[T; N]> for IdList<T> {
    fn eq(&self, other: &[T; N]) -> bool {
        **self == *other
    }
}

impl<T: PartialEq> PartialEq<[T]> for IdList<T> {
    fn eq(&self, other: &[T]) -> bool {
        **self == *other
    }
}

impl<T: Hash> Hash for IdList<T> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        (**self).hash(state);
    }
}

impl<T: fmt::Debug> fmt::Debug for IdList<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&**self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::{IdList, Repr, INLINE};

    #[test]
    fn inline_then_on_the_heap() {
        let mut list = IdList::new();
        assert!(list.is_empty());
        for n in 1..=3 * INLINE as u32 {
            list.push(n);
            assert_eq!(*list, (1..=n).collect::<Vec<_>>()[..]);
            assert_eq!(matches!(list.0, Repr::Inline { .. }), n as usize <= INLINE);
        }
        for id in &mut list {
            *id *= 10;
        }
        assert_eq!(list.iter().sum::<u32>(), 780);
    }

    #[test]
    fn inline_and_heap_lists_of_the_same_ids_are_equal() {
        let mut inline = IdList::new();
        inline.push(7u32);
        let heap = IdList(Repr::Heap(vec![7u32]));
        assert_eq!(inline, heap);
        use std::hash::BuildHasher;
        let state = std::hash::RandomState::new();
        assert_eq!(state.hash_one(&inline), state.hash_one(&heap));
        assert_eq!(format!("{inline:?}"), "[7]");
    }
}
