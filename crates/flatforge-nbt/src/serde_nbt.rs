//! serde for user types: [`from_bytes`] deserializes through the borrowed reader (strings are borrowed
//! from the input when they need no conversion), [`to_vec`] serializes straight to NBT bytes, no tree in
//! between.
//!
//! Mapping: structs and maps are compounds (`None` fields are left out), sequences and tuples are lists
//! (one element type), `bool` is a Byte, `u8`/`u16`/`u32`/`u64` are stored bit for bit as Byte, Short, Int
//! and Long, `char` and unit enum variants are strings, other enum variants are one-entry compounds, and
//! `serialize_bytes` writes a Byte Array. Wrap a field in [`ByteArray`], [`IntArray`] or [`LongArray`] to
//! get the array tag types.
//!
//! ```
//! use serde::{Deserialize, Serialize};
//! use flatforge_nbt::serde_nbt::{from_bytes, to_vec, IntArray};
//! use flatforge_nbt::Variant;
//!
//! #[derive(Serialize, Deserialize, PartialEq, Debug)]
//! struct Player<'a> {
//!     name: &'a str,
//!     health: f32,
//!     pos: Vec<f64>,
//!     uuid: IntArray,
//!     nick: Option<String>,
//! }
//!
//! let p = Player { name: "Steve", health: 20.0, pos: vec![0.5, 64.0, -3.5],
//!     uuid: IntArray(vec![1, 2, 3, 4]), nick: None };
//! let bytes = to_vec(&p, Variant::Java).unwrap();
//! let back: Player = from_bytes(&bytes, Variant::Java).unwrap();
//! assert_eq!(back, p);
//! ```

use std::borrow::Cow;

use serde::de::{self, DeserializeSeed, IntoDeserializer, Visitor};
use serde::ser::{self, Serialize};
use serde::Deserialize;

use crate::borrowed::{CompoundIter, Document, ListIter, Str, TagRef};
use crate::codec::{BigEndian, Codec, Enc, LittleEndian, VarInt, Variant};
use crate::error::{Error, ErrorKind, Result};
use crate::read::MAX_DEPTH;

impl de::Error for Error {
    fn custom<T: std::fmt::Display>(msg: T) -> Self {
        Error::new(ErrorKind::Serde(msg.to_string()))
    }
}

impl ser::Error for Error {
    fn custom<T: std::fmt::Display>(msg: T) -> Self {
        Error::new(ErrorKind::Serde(msg.to_string()))
    }
}

const BYTE_ARRAY: &str = "__flatforge_nbt_byte_array";
const INT_ARRAY: &str = "__flatforge_nbt_int_array";
const LONG_ARRAY: &str = "__flatforge_nbt_long_array";

macro_rules! array_wrapper {
    ($(#[$m:meta])* $name:ident, $t:ty, $token:ident) => {
        $(#[$m])*
        #[derive(Debug, Clone, PartialEq, Eq, Default)]
        pub struct $name(pub Vec<$t>);

        impl Serialize for $name {
            fn serialize<S: ser::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
                s.serialize_newtype_struct($token, &self.0)
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: de::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
                struct V;
                impl<'de> Visitor<'de> for V {
                    type Value = $name;
                    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                        f.write_str(stringify!($name))
                    }
                    fn visit_newtype_struct<D: de::Deserializer<'de>>(
                        self,
                        d: D,
                    ) -> std::result::Result<$name, D::Error> {
                        Vec::<$t>::deserialize(d).map($name)
                    }
                    fn visit_seq<A: de::SeqAccess<'de>>(self, seq: A) -> std::result::Result<$name, A::Error> {
                        Vec::<$t>::deserialize(de::value::SeqAccessDeserializer::new(seq)).map($name)
                    }
                }
                d.deserialize_newtype_struct($token, V)
            }
        }
    };
}

array_wrapper!(
    /// A field written as a Byte Array tag (other serde formats see a sequence).
    ///
    /// ```
    /// use flatforge_nbt::serde_nbt::{to_vec, ByteArray};
    /// let bytes = to_vec(&ByteArray(vec![1, -1]), flatforge_nbt::Variant::JavaNetwork).unwrap();
    /// assert_eq!(bytes, [7, 0, 0, 0, 2, 1, 0xff]);
    /// ```
    ByteArray, i8, BYTE_ARRAY);
array_wrapper!(
    /// A field written as an Int Array tag (other serde formats see a sequence).
    ///
    /// ```
    /// use flatforge_nbt::serde_nbt::{to_vec, IntArray};
    /// let bytes = to_vec(&IntArray(vec![1]), flatforge_nbt::Variant::JavaNetwork).unwrap();
    /// assert_eq!(bytes, [11, 0, 0, 0, 1, 0, 0, 0, 1]);
    /// ```
    IntArray, i32, INT_ARRAY);
array_wrapper!(
    /// A field written as a Long Array tag (other serde formats see a sequence).
    ///
    /// ```
    /// use flatforge_nbt::serde_nbt::{to_vec, LongArray};
    /// let bytes = to_vec(&LongArray(vec![]), flatforge_nbt::Variant::JavaNetwork).unwrap();
    /// assert_eq!(bytes, [12, 0, 0, 0, 0]);
    /// ```
    LongArray, i64, LONG_ARRAY);

// ---------------------------------------------------------------------------------------------------
// Deserialization

/// Deserializes a `T` from uncompressed NBT of `variant` (the whole input; the root name is checked as the
/// owned reader checks it, then ignored).
///
/// # Errors
/// Malformed input (as [`Document::parse`]), a root name that is not valid (modified) UTF-8, or data that
/// does not match `T`; errors name the path.
///
/// ```
/// use std::collections::BTreeMap;
/// let bytes = [10, 0, 0, 3, 0, 1, b'a', 0, 0, 0, 7, 0];
/// let m: BTreeMap<String, i32> =
///     flatforge_nbt::serde_nbt::from_bytes(&bytes, flatforge_nbt::Variant::Java).unwrap();
/// assert_eq!(m["a"], 7);
/// ```
pub fn from_bytes<'de, T: Deserialize<'de>>(data: &'de [u8], variant: Variant) -> Result<T> {
    let doc = Document::parse(data, variant)?;
    let name = doc.root_name();
    if let Err(e) = name.to_str() {
        let offset = name.as_bytes().as_ptr() as usize - data.as_ptr() as usize;
        return Err(e.with_offset(offset));
    }
    from_tag(doc.root())
}

/// Deserializes a `T` from a tag of a parsed [`Document`].
///
/// ```
/// use flatforge_nbt::{borrowed::Document, Variant};
/// let doc = Document::parse(&[8, 0, 0, 0, 2, b'h', b'i'], Variant::Java).unwrap();
/// let s: &str = flatforge_nbt::serde_nbt::from_tag(doc.root()).unwrap();
/// assert_eq!(s, "hi");
/// ```
pub fn from_tag<'de, T: Deserialize<'de>>(tag: TagRef<'_, 'de>) -> Result<T> {
    T::deserialize(TagDeserializer { tag })
}

struct TagDeserializer<'d, 'de> {
    tag: TagRef<'d, 'de>,
}

fn visit_str<'de, V: Visitor<'de>>(s: Str<'de>, v: V) -> Result<V::Value> {
    match s.to_str()? {
        Cow::Borrowed(b) => v.visit_borrowed_str(b),
        Cow::Owned(o) => v.visit_string(o),
    }
}

macro_rules! unsigned {
    ($method:ident, $visit:ident, $getter:ident, $t:ty) => {
        fn $method<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
            match self.tag.$getter() {
                Some(x) => v.$visit(x as $t),
                None => self.deserialize_any(v),
            }
        }
    };
}

impl<'de> de::Deserializer<'de> for TagDeserializer<'_, 'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        let t = self.tag;
        match t.tag_type() as u8 {
            1 => v.visit_i8(t.byte().expect("byte")),
            2 => v.visit_i16(t.short().expect("short")),
            3 => v.visit_i32(t.int().expect("int")),
            4 => v.visit_i64(t.long().expect("long")),
            5 => v.visit_f32(t.float().expect("float")),
            6 => v.visit_f64(t.double().expect("double")),
            7 => v.visit_seq(NumberSeq {
                it: t.byte_array().expect("bytes").iter().map(|&b| b as i8),
                i: 0,
            }),
            8 => visit_str(t.string().expect("string"), v),
            9 => v.visit_seq(ListSeq {
                it: t.list().expect("list").iter(),
                i: 0,
            }),
            10 => v.visit_map(CompoundMap {
                it: t.compound().expect("compound").iter(),
                value: None,
                key: String::new(),
            }),
            11 => v.visit_seq(NumberSeq {
                it: t.int_array().expect("ints").iter(),
                i: 0,
            }),
            _ => v.visit_seq(NumberSeq {
                it: t.long_array().expect("longs").iter(),
                i: 0,
            }),
        }
    }

    fn deserialize_bool<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        match self.tag.byte() {
            Some(b) => v.visit_bool(b != 0),
            None => self.deserialize_any(v),
        }
    }

    unsigned!(deserialize_u8, visit_u8, byte, u8);
    unsigned!(deserialize_u16, visit_u16, short, u16);
    unsigned!(deserialize_u32, visit_u32, int, u32);
    unsigned!(deserialize_u64, visit_u64, long, u64);

    fn deserialize_bytes<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        match self.tag.byte_array() {
            Some(b) => v.visit_borrowed_bytes(b),
            None => self.deserialize_any(v),
        }
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.deserialize_bytes(v)
    }

    fn deserialize_option<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        v.visit_some(self)
    }

    fn deserialize_unit<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        v.visit_unit()
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        v: V,
    ) -> Result<V::Value> {
        v.visit_unit()
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        v: V,
    ) -> Result<V::Value> {
        v.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        v: V,
    ) -> Result<V::Value> {
        if let Some(s) = self.tag.string() {
            let name: String = s.to_str()?.into_owned();
            return v.visit_enum(name.into_deserializer());
        }
        match self.tag.compound() {
            Some(c) if c.len() == 1 => {
                let (k, value) = c.iter().next().expect("one entry");
                let key = k.to_str()?.into_owned();
                v.visit_enum(EnumAccess { key, value })
                    .map_err(|e: Error| e.in_field(&k.to_string_lossy()))
            }
            _ => Err(de::Error::custom(format!(
                "expected an enum (a string or a compound with one entry), found {}",
                self.tag.tag_type()
            ))),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        v.visit_unit()
    }

    serde::forward_to_deserialize_any! {
        i8 i16 i32 i64 i128 u128 f32 f64 char str string seq tuple tuple_struct map struct identifier
    }
}

struct NumberSeq<I> {
    it: I,
    i: usize,
}

impl<'de, I, T> de::SeqAccess<'de> for NumberSeq<I>
where
    I: ExactSizeIterator<Item = T>,
    T: IntoDeserializer<'de, Error>,
{
    type Error = Error;

    fn next_element_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<Option<S::Value>> {
        match self.it.next() {
            Some(x) => {
                let i = self.i;
                self.i += 1;
                seed.deserialize(x.into_deserializer())
                    .map(Some)
                    .map_err(|e| e.in_index(i))
            }
            None => Ok(None),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.it.len())
    }
}

struct ListSeq<'d, 'de> {
    it: ListIter<'d, 'de>,
    i: usize,
}

impl<'de> de::SeqAccess<'de> for ListSeq<'_, 'de> {
    type Error = Error;

    fn next_element_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<Option<S::Value>> {
        match self.it.next() {
            Some(tag) => {
                let i = self.i;
                self.i += 1;
                seed.deserialize(TagDeserializer { tag })
                    .map(Some)
                    .map_err(|e| e.in_index(i))
            }
            None => Ok(None),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.it.len())
    }
}

struct CompoundMap<'d, 'de> {
    it: CompoundIter<'d, 'de>,
    value: Option<TagRef<'d, 'de>>,
    key: String,
}

impl<'de> de::MapAccess<'de> for CompoundMap<'_, 'de> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        match self.it.next() {
            Some((k, v)) => {
                self.value = Some(v);
                self.key = k.to_string_lossy().into_owned();
                seed.deserialize(KeyDeserializer { key: k }).map(Some)
            }
            None => Ok(None),
        }
    }

    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value> {
        let tag = self
            .value
            .take()
            .ok_or_else(|| <Error as de::Error>::custom("value requested before key"))?;
        seed.deserialize(TagDeserializer { tag })
            .map_err(|e| e.in_field(&self.key))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.it.len())
    }
}

struct KeyDeserializer<'de> {
    key: Str<'de>,
}

impl<'de> de::Deserializer<'de> for KeyDeserializer<'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        visit_str(self.key, v)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf option unit
        unit_struct newtype_struct seq tuple tuple_struct map struct enum identifier ignored_any
    }
}

struct EnumAccess<'d, 'de> {
    key: String,
    value: TagRef<'d, 'de>,
}

impl<'d, 'de> de::EnumAccess<'de> for EnumAccess<'d, 'de> {
    type Error = Error;
    type Variant = VariantAccess<'d, 'de>;

    fn variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<(S::Value, Self::Variant)> {
        let key: de::value::StringDeserializer<Error> = self.key.into_deserializer();
        Ok((seed.deserialize(key)?, VariantAccess { value: self.value }))
    }
}

struct VariantAccess<'d, 'de> {
    value: TagRef<'d, 'de>,
}

impl<'de> de::VariantAccess<'de> for VariantAccess<'_, 'de> {
    type Error = Error;

    fn unit_variant(self) -> Result<()> {
        Ok(())
    }

    fn newtype_variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<S::Value> {
        seed.deserialize(TagDeserializer { tag: self.value })
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, v: V) -> Result<V::Value> {
        de::Deserializer::deserialize_any(TagDeserializer { tag: self.value }, v)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        v: V,
    ) -> Result<V::Value> {
        de::Deserializer::deserialize_any(TagDeserializer { tag: self.value }, v)
    }
}

// ---------------------------------------------------------------------------------------------------
// Serialization

/// Serializes `value` as uncompressed NBT of `variant`, with an empty root name.
///
/// # Errors
/// Values NBT cannot hold (128-bit integers, a `None` root or list element, lists of mixed types, non-string
/// map keys), strings over the variant's limit, nesting deeper than 512.
///
/// ```
/// use std::collections::BTreeMap;
/// let m: BTreeMap<&str, i16> = [("a", 1)].into_iter().collect();
/// let bytes = flatforge_nbt::serde_nbt::to_vec(&m, flatforge_nbt::Variant::Java).unwrap();
/// assert_eq!(bytes, [10, 0, 0, 2, 0, 1, b'a', 0, 1, 0]);
/// ```
pub fn to_vec<T: Serialize + ?Sized>(value: &T, variant: Variant) -> Result<Vec<u8>> {
    let mut out = Vec::with_capacity(128);
    to_writer_vec(value, variant, &mut out)?;
    Ok(out)
}

/// Like [`to_vec`], appending to `out` (reuse one buffer to avoid allocations).
///
/// ```
/// let mut out = Vec::new();
/// flatforge_nbt::serde_nbt::to_writer_vec(&5i32, flatforge_nbt::Variant::JavaNetwork, &mut out).unwrap();
/// assert_eq!(out, [3, 0, 0, 0, 5]);
/// ```
pub fn to_writer_vec<T: Serialize + ?Sized>(
    value: &T,
    variant: Variant,
    out: &mut Vec<u8>,
) -> Result<()> {
    match variant {
        Variant::Java => root::<BigEndian, T>(value, true, out),
        Variant::JavaNetwork => root::<BigEndian, T>(value, false, out),
        Variant::Bedrock => root::<LittleEndian, T>(value, true, out),
        Variant::BedrockNetwork => root::<VarInt, T>(value, true, out),
    }
}

fn root<C: Codec, T: Serialize + ?Sized>(value: &T, named: bool, out: &mut Vec<u8>) -> Result<()> {
    let start = out.len();
    out.push(0);
    if named {
        C::put_name(out, "")?;
    }
    let written = value.serialize(ValueSer::<C> {
        out,
        slot: Slot::Type(start),
        depth: 0,
        array: None,
        _c: std::marker::PhantomData,
    })?;
    if written == Written::Nothing {
        out.truncate(start);
        return Err(ser::Error::custom("the root value is None"));
    }
    Ok(())
}

#[derive(PartialEq, Eq)]
enum Written {
    Value,
    Nothing,
}

/// Where a value's tag type byte goes.
enum Slot<'a> {
    /// At this position of the output.
    Type(usize),
    /// As the element type of a list (checked against the earlier elements).
    Elem(&'a mut ListState),
}

struct ListState {
    type_pos: usize,
    ty: u8,
}

struct ValueSer<'a, C> {
    out: &'a mut Vec<u8>,
    slot: Slot<'a>,
    depth: usize,
    /// Set by the array wrappers: the array tag type the next sequence is written as.
    array: Option<u8>,
    _c: std::marker::PhantomData<C>,
}

fn mixed(first: u8, now: u8) -> Error {
    let name = |t| crate::TagType::from_u8(t).map_or("?", |t| t.name());
    ser::Error::custom(format!(
        "list elements have different types: {} then {}",
        name(first),
        name(now)
    ))
}

impl<'a, C: Codec> ValueSer<'a, C> {
    fn set_type(&mut self, ty: u8) -> Result<()> {
        match &mut self.slot {
            Slot::Type(pos) => {
                self.out[*pos] = ty;
                Ok(())
            }
            Slot::Elem(list) => {
                if list.ty == 0 {
                    list.ty = ty;
                    self.out[list.type_pos] = ty;
                    Ok(())
                } else if list.ty == ty {
                    Ok(())
                } else {
                    Err(mixed(list.ty, ty))
                }
            }
        }
    }

    fn container(&mut self, ty: u8) -> Result<usize> {
        if self.depth >= MAX_DEPTH {
            return Err(Error::new(ErrorKind::TooDeep(MAX_DEPTH)));
        }
        self.set_type(ty)?;
        Ok(self.depth + 1)
    }

    fn begin_list(mut self, len: Option<usize>) -> Result<SeqSer<'a, C>> {
        if let Some(array) = self.array {
            self.set_type(array)?;
            let len_pos = self.out.len();
            if C::ENC != Enc::Var {
                self.out.extend_from_slice(&[0; 4]);
            }
            return Ok(SeqSer {
                out: self.out,
                state: ListState {
                    type_pos: 0,
                    ty: array,
                },
                len_pos,
                count: 0,
                depth: self.depth,
                array: Some(array),
                _c: std::marker::PhantomData,
                expected: len,
            });
        }
        let depth = self.container(9)?;
        let type_pos = self.out.len();
        self.out.push(0);
        let len_pos = self.out.len();
        if C::ENC != Enc::Var {
            self.out.extend_from_slice(&[0; 4]);
        }
        Ok(SeqSer {
            out: self.out,
            state: ListState { type_pos, ty: 0 },
            len_pos,
            count: 0,
            depth,
            array: None,
            _c: std::marker::PhantomData,
            expected: len,
        })
    }

    /// Opens the one-entry compound `{variant: …}` and returns the serializer of its value.
    fn variant_value(self, variant: &str) -> Result<ValueSer<'a, C>> {
        let mut outer = self.begin_compound()?;
        outer.begin_field(variant)?;
        Ok(ValueSer {
            slot: Slot::Type(outer.field_start),
            depth: outer.depth,
            out: outer.out,
            array: None,
            _c: std::marker::PhantomData,
        })
    }

    fn begin_compound(mut self) -> Result<MapSer<'a, C>> {
        let depth = self.container(10)?;
        Ok(MapSer {
            out: self.out,
            depth,
            field_start: 0,
            _c: std::marker::PhantomData,
        })
    }
}

macro_rules! scalar {
    ($method:ident, $t:ty, $ty:literal, |$out:ident, $v:ident| $write:expr) => {
        fn $method(mut self, $v: $t) -> Result<Written> {
            self.set_type($ty)?;
            let $out = &mut *self.out;
            $write;
            Ok(Written::Value)
        }
    };
}

impl<'a, C: Codec> ser::Serializer for ValueSer<'a, C> {
    type Ok = Written;
    type Error = Error;
    type SerializeSeq = SeqSer<'a, C>;
    type SerializeTuple = SeqSer<'a, C>;
    type SerializeTupleStruct = SeqSer<'a, C>;
    type SerializeTupleVariant = VariantSer<SeqSer<'a, C>>;
    type SerializeMap = MapSer<'a, C>;
    type SerializeStruct = MapSer<'a, C>;
    type SerializeStructVariant = VariantSer<MapSer<'a, C>>;

    scalar!(serialize_bool, bool, 1, |out, v| out.push(u8::from(v)));
    scalar!(serialize_i8, i8, 1, |out, v| out.push(v as u8));
    scalar!(serialize_u8, u8, 1, |out, v| out.push(v));
    scalar!(serialize_i16, i16, 2, |out, v| C::put_i16(out, v));
    scalar!(serialize_u16, u16, 2, |out, v| C::put_i16(out, v as i16));
    scalar!(serialize_i32, i32, 3, |out, v| C::put_i32(out, v));
    scalar!(serialize_u32, u32, 3, |out, v| C::put_i32(out, v as i32));
    scalar!(serialize_i64, i64, 4, |out, v| C::put_i64(out, v));
    scalar!(serialize_u64, u64, 4, |out, v| C::put_i64(out, v as i64));
    scalar!(serialize_f32, f32, 5, |out, v| C::put_f32(out, v));
    scalar!(serialize_f64, f64, 6, |out, v| C::put_f64(out, v));

    fn serialize_char(self, v: char) -> Result<Written> {
        self.serialize_str(v.encode_utf8(&mut [0; 4]))
    }

    fn serialize_str(mut self, v: &str) -> Result<Written> {
        self.set_type(8)?;
        C::put_str(self.out, v)?;
        Ok(Written::Value)
    }

    fn serialize_bytes(mut self, v: &[u8]) -> Result<Written> {
        self.set_type(7)?;
        C::put_len(self.out, v.len())?;
        self.out.extend_from_slice(v);
        Ok(Written::Value)
    }

    fn serialize_none(self) -> Result<Written> {
        match self.slot {
            Slot::Type(_) => Ok(Written::Nothing),
            Slot::Elem(_) => Err(ser::Error::custom("None cannot be a list element")),
        }
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<Written> {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result<Written> {
        ser::SerializeMap::end(self.begin_compound()?)
    }

    fn serialize_unit_struct(self, _name: &'static str) -> Result<Written> {
        self.serialize_unit()
    }

    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<Written> {
        self.serialize_str(variant)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        mut self,
        name: &'static str,
        value: &T,
    ) -> Result<Written> {
        self.array = match name {
            BYTE_ARRAY => Some(7),
            INT_ARRAY => Some(11),
            LONG_ARRAY => Some(12),
            _ => None,
        };
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<Written> {
        let mut map = self.begin_compound()?;
        ser::SerializeStruct::serialize_field(&mut map, variant, value)?;
        ser::SerializeStruct::end(map)
    }

    fn serialize_seq(self, len: Option<usize>) -> Result<SeqSer<'a, C>> {
        self.begin_list(len)
    }

    fn serialize_tuple(self, len: usize) -> Result<SeqSer<'a, C>> {
        self.begin_list(Some(len))
    }

    fn serialize_tuple_struct(self, _name: &'static str, len: usize) -> Result<SeqSer<'a, C>> {
        self.begin_list(Some(len))
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self::SerializeTupleVariant> {
        Ok(VariantSer {
            inner: self.variant_value(variant)?.begin_list(Some(len))?,
        })
    }

    fn serialize_map(self, _len: Option<usize>) -> Result<MapSer<'a, C>> {
        self.begin_compound()
    }

    fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<MapSer<'a, C>> {
        self.begin_compound()
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStructVariant> {
        Ok(VariantSer {
            inner: self.variant_value(variant)?.begin_compound()?,
        })
    }

    fn serialize_i128(self, _v: i128) -> Result<Written> {
        Err(ser::Error::custom(
            "128-bit integers cannot be stored in NBT",
        ))
    }

    fn serialize_u128(self, _v: u128) -> Result<Written> {
        Err(ser::Error::custom(
            "128-bit integers cannot be stored in NBT",
        ))
    }
}

struct SeqSer<'a, C> {
    out: &'a mut Vec<u8>,
    state: ListState,
    len_pos: usize,
    count: usize,
    depth: usize,
    array: Option<u8>,
    expected: Option<usize>,
    _c: std::marker::PhantomData<C>,
}

impl<C: Codec> SeqSer<'_, C> {
    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        let i = self.count;
        self.count += 1;
        if let Some(array) = self.array {
            return value
                .serialize(ArrayElem::<C> {
                    out: self.out,
                    array,
                    _c: std::marker::PhantomData,
                })
                .map_err(|e| e.in_index(i));
        }
        value
            .serialize(ValueSer::<C> {
                out: self.out,
                slot: Slot::Elem(&mut self.state),
                depth: self.depth,
                array: None,
                _c: std::marker::PhantomData,
            })
            .map(|_| ())
            .map_err(|e| e.in_index(i))
    }

    fn finish(&mut self) -> Result<Written> {
        let mut len = Vec::with_capacity(5);
        C::put_len(&mut len, self.count)?;
        if C::ENC == Enc::Var {
            self.out.splice(self.len_pos..self.len_pos, len);
        } else {
            self.out[self.len_pos..self.len_pos + 4].copy_from_slice(&len);
        }
        debug_assert!(self.expected.is_none_or(|n| n == self.count));
        Ok(Written::Value)
    }
}

impl<C: Codec> ser::SerializeSeq for SeqSer<'_, C> {
    type Ok = Written;
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.element(value)
    }
    fn end(mut self) -> Result<Written> {
        self.finish()
    }
}

impl<C: Codec> ser::SerializeTuple for SeqSer<'_, C> {
    type Ok = Written;
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.element(value)
    }
    fn end(mut self) -> Result<Written> {
        self.finish()
    }
}

impl<C: Codec> ser::SerializeTupleStruct for SeqSer<'_, C> {
    type Ok = Written;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.element(value)
    }
    fn end(mut self) -> Result<Written> {
        self.finish()
    }
}

struct MapSer<'a, C> {
    out: &'a mut Vec<u8>,
    depth: usize,
    /// Where the current field's type byte is.
    field_start: usize,
    _c: std::marker::PhantomData<C>,
}

impl<'a, C: Codec> MapSer<'a, C> {
    fn begin_field(&mut self, key: &str) -> Result<()> {
        self.field_start = self.out.len();
        self.out.push(0);
        C::put_name(self.out, key).map_err(|e| e.in_field(key))
    }

    fn field<T: Serialize + ?Sized>(&mut self, key: &str, value: &T) -> Result<()> {
        let depth = self.depth;
        self.begin_field(key)?;
        let start = self.field_start;
        let written = value
            .serialize(ValueSer::<C> {
                out: self.out,
                slot: Slot::Type(start),
                depth,
                array: None,
                _c: std::marker::PhantomData,
            })
            .map_err(|e| e.in_field(key))?;
        if written == Written::Nothing {
            self.out.truncate(start);
        }
        Ok(())
    }
}

impl<C: Codec> ser::SerializeStruct for MapSer<'_, C> {
    type Ok = Written;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<()> {
        self.field(key, value)
    }
    fn end(self) -> Result<Written> {
        self.out.push(0);
        Ok(Written::Value)
    }
}

impl<C: Codec> ser::SerializeMap for MapSer<'_, C> {
    type Ok = Written;
    type Error = Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, _key: &T) -> Result<()> {
        Err(ser::Error::custom("maps are written with serialize_entry"))
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, _value: &T) -> Result<()> {
        Err(ser::Error::custom("maps are written with serialize_entry"))
    }
    fn serialize_entry<K: Serialize + ?Sized, V: Serialize + ?Sized>(
        &mut self,
        key: &K,
        value: &V,
    ) -> Result<()> {
        let key = key.serialize(KeySer)?;
        self.field(&key, value)
    }
    fn end(self) -> Result<Written> {
        self.out.push(0);
        Ok(Written::Value)
    }
}

/// A tuple or struct enum variant: `{variant: inner}`; the outer compound is closed after the inner value.
struct VariantSer<I> {
    inner: I,
}

impl<C: Codec> ser::SerializeTupleVariant for VariantSer<SeqSer<'_, C>> {
    type Ok = Written;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.inner.element(value)
    }
    fn end(mut self) -> Result<Written> {
        self.inner.finish()?;
        self.inner.out.push(0);
        Ok(Written::Value)
    }
}

impl<C: Codec> ser::SerializeStructVariant for VariantSer<MapSer<'_, C>> {
    type Ok = Written;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<()> {
        self.inner.field(key, value)
    }
    fn end(self) -> Result<Written> {
        self.inner.out.extend_from_slice(&[0, 0]);
        Ok(Written::Value)
    }
}

fn unsupported(what: &str) -> Error {
    ser::Error::custom(format!("{what} cannot be written here"))
}

/// Generates the `Serializer` methods that are errors for a restricted serializer.
macro_rules! reject {
    ($what:literal; $($method:ident($($arg:ident: $t:ty),*) -> $ret:ty;)*) => {$(
        fn $method(self, $(_: $t),*) -> Result<$ret> {
            Err(unsupported($what))
        }
    )*};
}

macro_rules! reject_generic {
    ($what:literal) => {
        fn serialize_some<T: Serialize + ?Sized>(self, _v: &T) -> Result<Self::Ok> {
            Err(unsupported($what))
        }
        fn serialize_newtype_struct<T: Serialize + ?Sized>(
            self,
            _n: &'static str,
            _v: &T,
        ) -> Result<Self::Ok> {
            Err(unsupported($what))
        }
        fn serialize_newtype_variant<T: Serialize + ?Sized>(
            self,
            _n: &'static str,
            _i: u32,
            _v: &'static str,
            _x: &T,
        ) -> Result<Self::Ok> {
            Err(unsupported($what))
        }
        fn serialize_seq(self, _l: Option<usize>) -> Result<Self::SerializeSeq> {
            Err(unsupported($what))
        }
        fn serialize_tuple(self, _l: usize) -> Result<Self::SerializeTuple> {
            Err(unsupported($what))
        }
        fn serialize_tuple_struct(
            self,
            _n: &'static str,
            _l: usize,
        ) -> Result<Self::SerializeTupleStruct> {
            Err(unsupported($what))
        }
        fn serialize_tuple_variant(
            self,
            _n: &'static str,
            _i: u32,
            _v: &'static str,
            _l: usize,
        ) -> Result<Self::SerializeTupleVariant> {
            Err(unsupported($what))
        }
        fn serialize_map(self, _l: Option<usize>) -> Result<Self::SerializeMap> {
            Err(unsupported($what))
        }
        fn serialize_struct(self, _n: &'static str, _l: usize) -> Result<Self::SerializeStruct> {
            Err(unsupported($what))
        }
        fn serialize_struct_variant(
            self,
            _n: &'static str,
            _i: u32,
            _v: &'static str,
            _l: usize,
        ) -> Result<Self::SerializeStructVariant> {
            Err(unsupported($what))
        }
    };
}

/// Map keys: strings and chars only.
struct KeySer;

impl ser::Serializer for KeySer {
    type Ok = String;
    type Error = Error;
    type SerializeSeq = ser::Impossible<String, Error>;
    type SerializeTuple = ser::Impossible<String, Error>;
    type SerializeTupleStruct = ser::Impossible<String, Error>;
    type SerializeTupleVariant = ser::Impossible<String, Error>;
    type SerializeMap = ser::Impossible<String, Error>;
    type SerializeStruct = ser::Impossible<String, Error>;
    type SerializeStructVariant = ser::Impossible<String, Error>;

    fn serialize_str(self, v: &str) -> Result<String> {
        Ok(v.to_owned())
    }
    fn serialize_char(self, v: char) -> Result<String> {
        Ok(v.to_string())
    }
    fn serialize_unit_variant(self, _n: &'static str, _i: u32, v: &'static str) -> Result<String> {
        Ok(v.to_owned())
    }
    reject!("a non-string map key";
        serialize_bool(v: bool) -> String;
        serialize_i8(v: i8) -> String;
        serialize_i16(v: i16) -> String;
        serialize_i32(v: i32) -> String;
        serialize_i64(v: i64) -> String;
        serialize_u8(v: u8) -> String;
        serialize_u16(v: u16) -> String;
        serialize_u32(v: u32) -> String;
        serialize_u64(v: u64) -> String;
        serialize_f32(v: f32) -> String;
        serialize_f64(v: f64) -> String;
        serialize_bytes(v: &[u8]) -> String;
        serialize_none() -> String;
        serialize_unit() -> String;
        serialize_unit_struct(n: &'static str) -> String;
    );
    reject_generic!("a non-string map key");
}

/// Elements of [`ByteArray`], [`IntArray`] and [`LongArray`]: integers of the array's width.
struct ArrayElem<'a, C> {
    out: &'a mut Vec<u8>,
    array: u8,
    _c: std::marker::PhantomData<C>,
}

impl<C: Codec> ArrayElem<'_, C> {
    fn int(self, v: i64) -> Result<()> {
        let range = |ok: bool| -> Result<()> {
            if ok {
                Ok(())
            } else {
                Err(ser::Error::custom(format!(
                    "{v} does not fit the array's element type"
                )))
            }
        };
        match self.array {
            7 => {
                range(i8::try_from(v).is_ok())?;
                self.out.push(v as u8);
            }
            11 => {
                range(i32::try_from(v).is_ok())?;
                C::put_i32(self.out, v as i32);
            }
            _ => C::put_i64(self.out, v),
        }
        Ok(())
    }
}

impl<C: Codec> ser::Serializer for ArrayElem<'_, C> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = ser::Impossible<(), Error>;
    type SerializeTuple = ser::Impossible<(), Error>;
    type SerializeTupleStruct = ser::Impossible<(), Error>;
    type SerializeTupleVariant = ser::Impossible<(), Error>;
    type SerializeMap = ser::Impossible<(), Error>;
    type SerializeStruct = ser::Impossible<(), Error>;
    type SerializeStructVariant = ser::Impossible<(), Error>;

    fn serialize_i8(self, v: i8) -> Result<()> {
        self.int(v.into())
    }
    fn serialize_i16(self, v: i16) -> Result<()> {
        self.int(v.into())
    }
    fn serialize_i32(self, v: i32) -> Result<()> {
        self.int(v.into())
    }
    fn serialize_i64(self, v: i64) -> Result<()> {
        self.int(v)
    }
    fn serialize_u8(self, v: u8) -> Result<()> {
        let v = if self.array == 7 {
            i64::from(v as i8)
        } else {
            v.into()
        };
        self.int(v)
    }
    fn serialize_u16(self, v: u16) -> Result<()> {
        self.int(v.into())
    }
    fn serialize_u32(self, v: u32) -> Result<()> {
        let v = if self.array == 11 {
            i64::from(v as i32)
        } else {
            v.into()
        };
        self.int(v)
    }
    fn serialize_u64(self, v: u64) -> Result<()> {
        self.int(v as i64)
    }
    reject!("a non-integer array element";
        serialize_bool(v: bool) -> ();
        serialize_f32(v: f32) -> ();
        serialize_f64(v: f64) -> ();
        serialize_char(v: char) -> ();
        serialize_str(v: &str) -> ();
        serialize_bytes(v: &[u8]) -> ();
        serialize_none() -> ();
        serialize_unit() -> ();
        serialize_unit_struct(n: &'static str) -> ();
        serialize_unit_variant(n: &'static str, i: u32, v: &'static str) -> ();
    );
    reject_generic!("a non-integer array element");
}
