//! The owned NBT tree: [`Tag`], typed [`List`]s, insertion-ordered [`Compound`]s and the named root [`Nbt`].

use std::fmt;

use crate::name::Name;

/// The type byte of a tag, 0–12.
///
/// ```
/// use flatforge_nbt::TagType;
/// assert_eq!(TagType::from_u8(10), Some(TagType::Compound));
/// assert_eq!(TagType::from_u8(13), None);
/// assert_eq!(TagType::IntArray.name(), "TAG_Int_Array");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum TagType {
    /// Marks the end of a compound; the element type of empty untyped lists.
    End = 0,
    /// Signed 8-bit integer.
    Byte = 1,
    /// Signed 16-bit integer.
    Short = 2,
    /// Signed 32-bit integer.
    Int = 3,
    /// Signed 64-bit integer.
    Long = 4,
    /// 32-bit IEEE 754 float.
    Float = 5,
    /// 64-bit IEEE 754 float.
    Double = 6,
    /// Array of signed bytes.
    ByteArray = 7,
    /// String (modified UTF-8 in Java, UTF-8 in Bedrock).
    String = 8,
    /// List of unnamed tags of one type.
    List = 9,
    /// Named tags, ended by an End tag.
    Compound = 10,
    /// Array of 32-bit integers.
    IntArray = 11,
    /// Array of 64-bit integers.
    LongArray = 12,
}

impl TagType {
    /// The tag type for a type byte, `None` for bytes above 12.
    ///
    /// ```
    /// assert_eq!(flatforge_nbt::TagType::from_u8(0), Some(flatforge_nbt::TagType::End));
    /// ```
    #[inline]
    pub const fn from_u8(b: u8) -> Option<Self> {
        Some(match b {
            0 => TagType::End,
            1 => TagType::Byte,
            2 => TagType::Short,
            3 => TagType::Int,
            4 => TagType::Long,
            5 => TagType::Float,
            6 => TagType::Double,
            7 => TagType::ByteArray,
            8 => TagType::String,
            9 => TagType::List,
            10 => TagType::Compound,
            11 => TagType::IntArray,
            12 => TagType::LongArray,
            _ => return None,
        })
    }

    /// The name used by the NBT specification, such as `TAG_Compound`.
    ///
    /// ```
    /// assert_eq!(flatforge_nbt::TagType::Byte.name(), "TAG_Byte");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            TagType::End => "TAG_End",
            TagType::Byte => "TAG_Byte",
            TagType::Short => "TAG_Short",
            TagType::Int => "TAG_Int",
            TagType::Long => "TAG_Long",
            TagType::Float => "TAG_Float",
            TagType::Double => "TAG_Double",
            TagType::ByteArray => "TAG_Byte_Array",
            TagType::String => "TAG_String",
            TagType::List => "TAG_List",
            TagType::Compound => "TAG_Compound",
            TagType::IntArray => "TAG_Int_Array",
            TagType::LongArray => "TAG_Long_Array",
        }
    }
}

impl fmt::Display for TagType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One NBT value.
///
/// ```
/// use flatforge_nbt::{Tag, TagType};
/// let t = Tag::from(42i32);
/// assert_eq!(t.tag_type(), TagType::Int);
/// assert_eq!(t.as_i64(), Some(42));
/// ```
#[derive(Debug, Clone, PartialEq)]
#[repr(u8)]
pub enum Tag {
    /// TAG_Byte.
    Byte(i8),
    /// TAG_Short.
    Short(i16),
    /// TAG_Int.
    Int(i32),
    /// TAG_Long.
    Long(i64),
    /// TAG_Float.
    Float(f32),
    /// TAG_Double.
    Double(f64),
    /// TAG_Byte_Array.
    ByteArray(Vec<i8>),
    /// TAG_String.
    String(String),
    /// TAG_List.
    List(List),
    /// TAG_Compound.
    Compound(Compound),
    /// TAG_Int_Array.
    IntArray(Vec<i32>),
    /// TAG_Long_Array.
    LongArray(Vec<i64>),
}

impl Tag {
    /// The type of this tag.
    ///
    /// ```
    /// assert_eq!(flatforge_nbt::Tag::from("hi").tag_type(), flatforge_nbt::TagType::String);
    /// ```
    pub fn tag_type(&self) -> TagType {
        match self {
            Tag::Byte(_) => TagType::Byte,
            Tag::Short(_) => TagType::Short,
            Tag::Int(_) => TagType::Int,
            Tag::Long(_) => TagType::Long,
            Tag::Float(_) => TagType::Float,
            Tag::Double(_) => TagType::Double,
            Tag::ByteArray(_) => TagType::ByteArray,
            Tag::String(_) => TagType::String,
            Tag::List(_) => TagType::List,
            Tag::Compound(_) => TagType::Compound,
            Tag::IntArray(_) => TagType::IntArray,
            Tag::LongArray(_) => TagType::LongArray,
        }
    }

    /// Any integer tag (Byte, Short, Int, Long) widened to `i64`.
    ///
    /// ```
    /// assert_eq!(flatforge_nbt::Tag::Byte(-3).as_i64(), Some(-3));
    /// ```
    pub fn as_i64(&self) -> Option<i64> {
        match *self {
            Tag::Byte(v) => Some(v.into()),
            Tag::Short(v) => Some(v.into()),
            Tag::Int(v) => Some(v.into()),
            Tag::Long(v) => Some(v),
            _ => None,
        }
    }

    /// Any number tag converted to `f64`.
    ///
    /// ```
    /// assert_eq!(flatforge_nbt::Tag::Float(0.5).as_f64(), Some(0.5));
    /// ```
    pub fn as_f64(&self) -> Option<f64> {
        match *self {
            Tag::Float(v) => Some(v.into()),
            Tag::Double(v) => Some(v),
            _ => self.as_i64().map(|v| v as f64),
        }
    }

    /// The string of a String tag.
    ///
    /// ```
    /// assert_eq!(flatforge_nbt::Tag::from("x").as_str(), Some("x"));
    /// ```
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Tag::String(s) => Some(s),
            _ => None,
        }
    }

    /// The compound of a Compound tag.
    ///
    /// ```
    /// let t = flatforge_nbt::Tag::Compound(Default::default());
    /// assert!(t.as_compound().unwrap().is_empty());
    /// ```
    pub fn as_compound(&self) -> Option<&Compound> {
        match self {
            Tag::Compound(c) => Some(c),
            _ => None,
        }
    }

    /// The compound of a Compound tag, mutably.
    ///
    /// ```
    /// let mut t = flatforge_nbt::Tag::Compound(Default::default());
    /// t.as_compound_mut().unwrap().insert("a", 1i8);
    /// assert_eq!(t.as_compound().unwrap().len(), 1);
    /// ```
    pub fn as_compound_mut(&mut self) -> Option<&mut Compound> {
        match self {
            Tag::Compound(c) => Some(c),
            _ => None,
        }
    }

    /// The list of a List tag.
    ///
    /// ```
    /// let t = flatforge_nbt::Tag::List(flatforge_nbt::List::Int(vec![1, 2]));
    /// assert_eq!(t.as_list().unwrap().len(), 2);
    /// ```
    pub fn as_list(&self) -> Option<&List> {
        match self {
            Tag::List(l) => Some(l),
            _ => None,
        }
    }
}

macro_rules! from_impls {
    ($($t:ty => $v:ident),* $(,)?) => {$(
        impl From<$t> for Tag {
            fn from(v: $t) -> Self { Tag::$v(v) }
        }
    )*};
}
from_impls!(i8 => Byte, i16 => Short, i32 => Int, i64 => Long, f32 => Float, f64 => Double,
    Vec<i8> => ByteArray, String => String, List => List, Compound => Compound,
    Vec<i32> => IntArray, Vec<i64> => LongArray);

impl From<&str> for Tag {
    fn from(v: &str) -> Self {
        Tag::String(v.to_owned())
    }
}

impl From<bool> for Tag {
    fn from(v: bool) -> Self {
        Tag::Byte(v.into())
    }
}

/// A list: every element has the same type, so each element type has its own vector.
///
/// `End` is the empty list whose element type is End; an empty `Int(vec![])` keeps its element type
/// when written, so files round-trip byte for byte.
///
/// ```
/// use flatforge_nbt::{List, Tag, TagType};
/// let l = List::from_tags(vec![Tag::Int(1), Tag::Int(2)]).unwrap();
/// assert_eq!(l, List::Int(vec![1, 2]));
/// assert_eq!(l.element_type(), TagType::Int);
/// assert!(List::from_tags(vec![Tag::Int(1), Tag::Byte(2)]).is_none());
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub enum List {
    /// An empty list of element type End.
    #[default]
    End,
    /// List of bytes.
    Byte(Vec<i8>),
    /// List of shorts.
    Short(Vec<i16>),
    /// List of ints.
    Int(Vec<i32>),
    /// List of longs.
    Long(Vec<i64>),
    /// List of floats.
    Float(Vec<f32>),
    /// List of doubles.
    Double(Vec<f64>),
    /// List of byte arrays.
    ByteArray(Vec<Vec<i8>>),
    /// List of strings.
    String(Vec<String>),
    /// List of lists.
    List(Vec<List>),
    /// List of compounds.
    Compound(Vec<Compound>),
    /// List of int arrays.
    IntArray(Vec<Vec<i32>>),
    /// List of long arrays.
    LongArray(Vec<Vec<i64>>),
}

macro_rules! list_dispatch {
    ($self:expr, $v:ident => $e:expr, End => $end:expr) => {
        match $self {
            List::End => $end,
            List::Byte($v) => $e,
            List::Short($v) => $e,
            List::Int($v) => $e,
            List::Long($v) => $e,
            List::Float($v) => $e,
            List::Double($v) => $e,
            List::ByteArray($v) => $e,
            List::String($v) => $e,
            List::List($v) => $e,
            List::Compound($v) => $e,
            List::IntArray($v) => $e,
            List::LongArray($v) => $e,
        }
    };
}

impl List {
    /// The element type (End for [`List::End`]).
    ///
    /// ```
    /// assert_eq!(flatforge_nbt::List::String(vec![]).element_type(), flatforge_nbt::TagType::String);
    /// ```
    pub fn element_type(&self) -> TagType {
        match self {
            List::End => TagType::End,
            List::Byte(_) => TagType::Byte,
            List::Short(_) => TagType::Short,
            List::Int(_) => TagType::Int,
            List::Long(_) => TagType::Long,
            List::Float(_) => TagType::Float,
            List::Double(_) => TagType::Double,
            List::ByteArray(_) => TagType::ByteArray,
            List::String(_) => TagType::String,
            List::List(_) => TagType::List,
            List::Compound(_) => TagType::Compound,
            List::IntArray(_) => TagType::IntArray,
            List::LongArray(_) => TagType::LongArray,
        }
    }

    /// The number of elements.
    ///
    /// ```
    /// assert_eq!(flatforge_nbt::List::Byte(vec![1, 2, 3]).len(), 3);
    /// ```
    pub fn len(&self) -> usize {
        list_dispatch!(self, v => v.len(), End => 0)
    }

    /// Whether the list has no elements.
    ///
    /// ```
    /// assert!(flatforge_nbt::List::End.is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// An empty list with the given element type.
    ///
    /// ```
    /// use flatforge_nbt::{List, TagType};
    /// assert_eq!(List::empty(TagType::Long).element_type(), TagType::Long);
    /// ```
    pub fn empty(element_type: TagType) -> List {
        match element_type {
            TagType::End => List::End,
            TagType::Byte => List::Byte(Vec::new()),
            TagType::Short => List::Short(Vec::new()),
            TagType::Int => List::Int(Vec::new()),
            TagType::Long => List::Long(Vec::new()),
            TagType::Float => List::Float(Vec::new()),
            TagType::Double => List::Double(Vec::new()),
            TagType::ByteArray => List::ByteArray(Vec::new()),
            TagType::String => List::String(Vec::new()),
            TagType::List => List::List(Vec::new()),
            TagType::Compound => List::Compound(Vec::new()),
            TagType::IntArray => List::IntArray(Vec::new()),
            TagType::LongArray => List::LongArray(Vec::new()),
        }
    }

    /// The element at `index` as a [`Tag`] (cloned).
    ///
    /// ```
    /// let l = flatforge_nbt::List::Int(vec![5, 6]);
    /// assert_eq!(l.get(1), Some(flatforge_nbt::Tag::Int(6)));
    /// assert_eq!(l.get(2), None);
    /// ```
    pub fn get(&self, index: usize) -> Option<Tag> {
        Some(match self {
            List::End => return None,
            List::Byte(v) => Tag::Byte(*v.get(index)?),
            List::Short(v) => Tag::Short(*v.get(index)?),
            List::Int(v) => Tag::Int(*v.get(index)?),
            List::Long(v) => Tag::Long(*v.get(index)?),
            List::Float(v) => Tag::Float(*v.get(index)?),
            List::Double(v) => Tag::Double(*v.get(index)?),
            List::ByteArray(v) => Tag::ByteArray(v.get(index)?.clone()),
            List::String(v) => Tag::String(v.get(index)?.clone()),
            List::List(v) => Tag::List(v.get(index)?.clone()),
            List::Compound(v) => Tag::Compound(v.get(index)?.clone()),
            List::IntArray(v) => Tag::IntArray(v.get(index)?.clone()),
            List::LongArray(v) => Tag::LongArray(v.get(index)?.clone()),
        })
    }

    /// All elements as [`Tag`]s.
    ///
    /// ```
    /// let l = flatforge_nbt::List::Byte(vec![1]);
    /// assert_eq!(l.into_tags(), vec![flatforge_nbt::Tag::Byte(1)]);
    /// ```
    pub fn into_tags(self) -> Vec<Tag> {
        fn map<T>(v: Vec<T>, f: fn(T) -> Tag) -> Vec<Tag> {
            v.into_iter().map(f).collect()
        }
        match self {
            List::End => Vec::new(),
            List::Byte(v) => map(v, Tag::Byte),
            List::Short(v) => map(v, Tag::Short),
            List::Int(v) => map(v, Tag::Int),
            List::Long(v) => map(v, Tag::Long),
            List::Float(v) => map(v, Tag::Float),
            List::Double(v) => map(v, Tag::Double),
            List::ByteArray(v) => map(v, Tag::ByteArray),
            List::String(v) => map(v, Tag::String),
            List::List(v) => map(v, Tag::List),
            List::Compound(v) => map(v, Tag::Compound),
            List::IntArray(v) => map(v, Tag::IntArray),
            List::LongArray(v) => map(v, Tag::LongArray),
        }
    }

    /// Builds a list from tags of one type; `None` when the types differ. An empty vector gives
    /// [`List::End`].
    ///
    /// ```
    /// assert_eq!(flatforge_nbt::List::from_tags(vec![]), Some(flatforge_nbt::List::End));
    /// ```
    pub fn from_tags(tags: Vec<Tag>) -> Option<List> {
        let Some(first) = tags.first() else {
            return Some(List::End);
        };
        let mut list = List::empty(first.tag_type());
        for t in tags {
            if !list.push(t) {
                return None;
            }
        }
        Some(list)
    }

    /// Appends a tag; returns `false` (and leaves the list unchanged) when its type differs from the
    /// element type. Pushing onto [`List::End`] sets the element type.
    ///
    /// ```
    /// let mut l = flatforge_nbt::List::End;
    /// assert!(l.push(flatforge_nbt::Tag::Short(1)));
    /// assert!(!l.push(flatforge_nbt::Tag::Int(1)));
    /// ```
    pub fn push(&mut self, tag: Tag) -> bool {
        if let List::End = self {
            *self = List::empty(tag.tag_type());
        }
        match (self, tag) {
            (List::Byte(v), Tag::Byte(t)) => v.push(t),
            (List::Short(v), Tag::Short(t)) => v.push(t),
            (List::Int(v), Tag::Int(t)) => v.push(t),
            (List::Long(v), Tag::Long(t)) => v.push(t),
            (List::Float(v), Tag::Float(t)) => v.push(t),
            (List::Double(v), Tag::Double(t)) => v.push(t),
            (List::ByteArray(v), Tag::ByteArray(t)) => v.push(t),
            (List::String(v), Tag::String(t)) => v.push(t),
            (List::List(v), Tag::List(t)) => v.push(t),
            (List::Compound(v), Tag::Compound(t)) => v.push(t),
            (List::IntArray(v), Tag::IntArray(t)) => v.push(t),
            (List::LongArray(v), Tag::LongArray(t)) => v.push(t),
            _ => return false,
        }
        true
    }
}

/// A compound: named tags in insertion order.
///
/// Reading keeps entries exactly as they appear, duplicates included, so files round-trip byte for
/// byte; [`Compound::insert`] replaces an existing entry in place. Lookups find the first of duplicate
/// names, where Minecraft (which reads a compound into a map) keeps the last. Names of up to 22 bytes
/// are stored in the entry itself, so a compound of short names allocates once, for its entries.
///
/// ```
/// use flatforge_nbt::{Compound, Tag};
/// let mut c = Compound::new();
/// c.insert("b", 1i32);
/// c.insert("a", "x");
/// c.insert("b", 2i32);
/// assert_eq!(c.keys().collect::<Vec<_>>(), ["b", "a"]);
/// assert_eq!(c.get("b"), Some(&Tag::Int(2)));
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Compound {
    entries: Vec<(Name, Tag)>,
}

impl Compound {
    /// An empty compound.
    ///
    /// ```
    /// assert!(flatforge_nbt::Compound::new().is_empty());
    /// ```
    pub fn new() -> Self {
        Compound::default()
    }

    /// An empty compound with room for `n` entries.
    ///
    /// ```
    /// assert!(flatforge_nbt::Compound::with_capacity(4).is_empty());
    /// ```
    pub fn with_capacity(n: usize) -> Self {
        Compound {
            entries: Vec::with_capacity(n),
        }
    }

    /// Number of entries.
    ///
    /// ```
    /// assert_eq!(flatforge_nbt::Compound::new().len(), 0);
    /// ```
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there are no entries.
    ///
    /// ```
    /// assert!(flatforge_nbt::Compound::new().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The value of the first entry named `name`.
    ///
    /// ```
    /// let mut c = flatforge_nbt::Compound::new();
    /// c.insert("a", 1i8);
    /// assert!(c.get("a").is_some() && c.get("b").is_none());
    /// ```
    pub fn get(&self, name: &str) -> Option<&Tag> {
        self.entries
            .iter()
            .find(|(k, _)| k.as_str() == name)
            .map(|(_, v)| v)
    }

    /// The value of the first entry named `name`, mutably.
    ///
    /// ```
    /// let mut c = flatforge_nbt::Compound::new();
    /// c.insert("a", 1i8);
    /// *c.get_mut("a").unwrap() = 2i8.into();
    /// assert_eq!(c.get("a"), Some(&flatforge_nbt::Tag::Byte(2)));
    /// ```
    pub fn get_mut(&mut self, name: &str) -> Option<&mut Tag> {
        self.entries
            .iter_mut()
            .find(|(k, _)| k.as_str() == name)
            .map(|(_, v)| v)
    }

    /// Sets `name` to `value`: replaces the first entry with that name in place, or appends. Returns the
    /// old value.
    ///
    /// ```
    /// let mut c = flatforge_nbt::Compound::new();
    /// assert!(c.insert("a", 1i8).is_none());
    /// assert!(c.insert("a", 2i8).is_some());
    /// ```
    pub fn insert(&mut self, name: impl AsRef<str>, value: impl Into<Tag>) -> Option<Tag> {
        let name = name.as_ref();
        let value = value.into();
        if let Some(slot) = self.get_mut(name) {
            return Some(std::mem::replace(slot, value));
        }
        self.entries.push((Name::new(name), value));
        None
    }

    /// Appends an entry without looking for an existing one (readers use this to keep files as they
    /// are, duplicates included).
    ///
    /// ```
    /// let mut c = flatforge_nbt::Compound::new();
    /// c.push("a", 1i8);
    /// c.push("a", 2i8);
    /// assert_eq!(c.len(), 2);
    /// ```
    pub fn push(&mut self, name: impl AsRef<str>, value: impl Into<Tag>) {
        self.entries.push((Name::new(name.as_ref()), value.into()));
    }

    /// A compound of these entries.
    #[inline]
    pub(crate) fn from_entries(entries: Vec<(Name, Tag)>) -> Self {
        Compound { entries }
    }

    /// The entries, for the writer.
    #[inline]
    pub(crate) fn entries(&self) -> &[(Name, Tag)] {
        &self.entries
    }

    /// Removes the first entry named `name`, keeping the order of the others.
    ///
    /// ```
    /// let mut c = flatforge_nbt::Compound::new();
    /// c.insert("a", 1i8);
    /// assert_eq!(c.remove("a"), Some(flatforge_nbt::Tag::Byte(1)));
    /// ```
    pub fn remove(&mut self, name: &str) -> Option<Tag> {
        let i = self.entries.iter().position(|(k, _)| k.as_str() == name)?;
        Some(self.entries.remove(i).1)
    }

    /// Entries in order.
    ///
    /// ```
    /// let mut c = flatforge_nbt::Compound::new();
    /// c.insert("a", 1i8);
    /// assert_eq!(c.iter().count(), 1);
    /// ```
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&str, &Tag)> {
        self.entries.iter().map(|(k, v)| (k.as_str(), v))
    }

    /// Entries in order, values mutable.
    ///
    /// ```
    /// let mut c = flatforge_nbt::Compound::new();
    /// c.insert("a", 1i32);
    /// for (_, v) in c.iter_mut() { *v = 2i32.into(); }
    /// assert_eq!(c.get("a"), Some(&flatforge_nbt::Tag::Int(2)));
    /// ```
    pub fn iter_mut(&mut self) -> impl ExactSizeIterator<Item = (&str, &mut Tag)> {
        self.entries.iter_mut().map(|(k, v)| (k.as_str(), v))
    }

    /// Names in order.
    ///
    /// ```
    /// assert_eq!(flatforge_nbt::Compound::new().keys().count(), 0);
    /// ```
    pub fn keys(&self) -> impl ExactSizeIterator<Item = &str> {
        self.entries.iter().map(|(k, _)| k.as_str())
    }
}

/// The entries of a compound, by value, in order: what `for (name, value) in compound` iterates.
///
/// ```
/// let mut c = flatforge_nbt::Compound::new();
/// c.insert("a", 1i8);
/// c.insert("b", 2i8);
/// let entries: Vec<(String, flatforge_nbt::Tag)> = c.into_iter().collect();
/// assert_eq!(entries[1], ("b".to_string(), flatforge_nbt::Tag::Byte(2)));
/// ```
#[derive(Debug)]
pub struct CompoundIntoIter(std::vec::IntoIter<(Name, Tag)>);

impl Iterator for CompoundIntoIter {
    type Item = (String, Tag);

    fn next(&mut self) -> Option<(String, Tag)> {
        self.0.next().map(|(k, v)| (k.as_str().to_owned(), v))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl ExactSizeIterator for CompoundIntoIter {}

impl DoubleEndedIterator for CompoundIntoIter {
    fn next_back(&mut self) -> Option<(String, Tag)> {
        self.0.next_back().map(|(k, v)| (k.as_str().to_owned(), v))
    }
}

impl IntoIterator for Compound {
    type Item = (String, Tag);
    type IntoIter = CompoundIntoIter;
    fn into_iter(self) -> CompoundIntoIter {
        CompoundIntoIter(self.entries.into_iter())
    }
}

impl<K: AsRef<str>, V: Into<Tag>> FromIterator<(K, V)> for Compound {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Self {
        let mut c = Compound::new();
        for (k, v) in iter {
            c.insert(k, v);
        }
        c
    }
}

impl std::ops::Index<&str> for Compound {
    type Output = Tag;
    /// # Panics
    /// When there is no entry with that name (use [`Compound::get`] to avoid the panic).
    fn index(&self, name: &str) -> &Tag {
        self.get(name)
            .unwrap_or_else(|| panic!("no entry named {name:?} in compound"))
    }
}

/// A whole NBT document: the root tag and its name.
///
/// The Java network variant has no root name (`name` is empty when read, and ignored when written).
///
/// ```
/// use flatforge_nbt::{Nbt, Variant};
/// let bytes = std::fs::read(format!("{}/../../../shared/testdata/nbt/hello_world.nbt",
///     env!("CARGO_MANIFEST_DIR"))).unwrap();
/// let nbt = Nbt::read(&bytes, Variant::Java).unwrap();
/// assert_eq!(nbt.name, "hello world");
/// assert_eq!(nbt.root()["name"].as_str(), Some("Bananrama"));
/// assert_eq!(nbt.to_vec(Variant::Java).unwrap(), bytes);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Nbt {
    /// The root tag's name (empty in the Java network variant).
    pub name: String,
    /// The root tag, usually a compound.
    pub tag: Tag,
}

impl Nbt {
    /// A document with a compound root.
    ///
    /// ```
    /// let nbt = flatforge_nbt::Nbt::new("", flatforge_nbt::Compound::new());
    /// assert!(nbt.root().is_empty());
    /// ```
    pub fn new(name: impl Into<String>, root: Compound) -> Self {
        Nbt {
            name: name.into(),
            tag: Tag::Compound(root),
        }
    }

    /// The root compound.
    ///
    /// # Panics
    /// When the root is not a compound (possible only in network NBT); use `tag` directly then.
    ///
    /// ```
    /// let nbt = flatforge_nbt::Nbt::new("", flatforge_nbt::Compound::new());
    /// assert_eq!(nbt.root().len(), 0);
    /// ```
    pub fn root(&self) -> &Compound {
        match &self.tag {
            Tag::Compound(c) => c,
            other => panic!("root tag is {}, not a compound", other.tag_type()),
        }
    }
}
