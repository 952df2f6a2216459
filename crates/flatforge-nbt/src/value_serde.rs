//! serde for the owned tree: [`Tag`], [`List`], [`Compound`] serialize as plain data (numbers, strings,
//! sequences, maps) and deserialize from any self-describing format with type inference. This is the JSON
//! mapping ([`to_json`], [`from_json`]).
//!
//! From plain data: integers become Int when they fit in 32 bits and Long otherwise, other numbers Double,
//! booleans Byte, maps Compounds (order kept), sequences Lists (ints widen to Long or Double when the
//! elements need it; other mixes are errors). JSON has no way to say Byte, Short, Float or the array types,
//! so those come back as Int, Double and Lists.

use serde::de::{self, MapAccess, SeqAccess, Visitor};
use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::error::{Error, ErrorKind, Result};
use crate::tag::{Compound, List, Tag};

impl Serialize for Tag {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        match self {
            Tag::Byte(v) => s.serialize_i8(*v),
            Tag::Short(v) => s.serialize_i16(*v),
            Tag::Int(v) => s.serialize_i32(*v),
            Tag::Long(v) => s.serialize_i64(*v),
            Tag::Float(v) => s.serialize_f32(*v),
            Tag::Double(v) => s.serialize_f64(*v),
            Tag::ByteArray(v) => v.serialize(s),
            Tag::String(v) => s.serialize_str(v),
            Tag::List(v) => v.serialize(s),
            Tag::Compound(v) => v.serialize(s),
            Tag::IntArray(v) => v.serialize(s),
            Tag::LongArray(v) => v.serialize(s),
        }
    }
}

impl Serialize for List {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        match self {
            List::End => s.serialize_seq(Some(0))?.end(),
            List::Byte(v) => v.serialize(s),
            List::Short(v) => v.serialize(s),
            List::Int(v) => v.serialize(s),
            List::Long(v) => v.serialize(s),
            List::Float(v) => v.serialize(s),
            List::Double(v) => v.serialize(s),
            List::ByteArray(v) => v.serialize(s),
            List::String(v) => v.serialize(s),
            List::List(v) => v.serialize(s),
            List::Compound(v) => v.serialize(s),
            List::IntArray(v) => v.serialize(s),
            List::LongArray(v) => v.serialize(s),
        }
    }
}

impl Serialize for Compound {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.len()))?;
        for (k, v) in self.iter() {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

struct TagVisitor;

impl<'de> Visitor<'de> for TagVisitor {
    type Value = Tag;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("an NBT value (number, string, sequence or map)")
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> std::result::Result<Tag, E> {
        Ok(Tag::Byte(v.into()))
    }
    fn visit_i8<E: de::Error>(self, v: i8) -> std::result::Result<Tag, E> {
        Ok(Tag::Byte(v))
    }
    fn visit_i16<E: de::Error>(self, v: i16) -> std::result::Result<Tag, E> {
        Ok(Tag::Short(v))
    }
    fn visit_i32<E: de::Error>(self, v: i32) -> std::result::Result<Tag, E> {
        Ok(Tag::Int(v))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> std::result::Result<Tag, E> {
        Ok(i32::try_from(v).map_or(Tag::Long(v), Tag::Int))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> std::result::Result<Tag, E> {
        i64::try_from(v)
            .map(|v| self.visit_i64::<E>(v).expect("infallible"))
            .map_err(|_| E::custom(format!("{v} does not fit in a 64-bit signed Long")))
    }
    fn visit_f32<E: de::Error>(self, v: f32) -> std::result::Result<Tag, E> {
        Ok(Tag::Float(v))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> std::result::Result<Tag, E> {
        Ok(Tag::Double(v))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> std::result::Result<Tag, E> {
        Ok(Tag::String(v.to_owned()))
    }
    fn visit_string<E: de::Error>(self, v: String) -> std::result::Result<Tag, E> {
        Ok(Tag::String(v))
    }
    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> std::result::Result<Tag, E> {
        Ok(Tag::ByteArray(v.iter().map(|&b| b as i8).collect()))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<Tag, A::Error> {
        let mut tags = Vec::new();
        while let Some(t) = seq.next_element::<Tag>()? {
            tags.push(t);
        }
        list_from_inferred(tags)
            .map(Tag::List)
            .map_err(de::Error::custom)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<Tag, A::Error> {
        let mut c = Compound::new();
        while let Some((k, v)) = map.next_entry::<String, Tag>()? {
            c.push(k, v);
        }
        Ok(Tag::Compound(c))
    }
}

/// Builds a list from inferred tags, widening Int to Long, and integers to Double, when the elements mix.
fn list_from_inferred(mut tags: Vec<Tag>) -> std::result::Result<List, String> {
    let all = |f: fn(&Tag) -> bool, tags: &[Tag]| tags.iter().all(f);
    if all(|t| matches!(t, Tag::Int(_) | Tag::Long(_)), &tags)
        && !all(|t| matches!(t, Tag::Int(_)), &tags)
    {
        tags = tags
            .into_iter()
            .map(|t| Tag::Long(t.as_i64().expect("integer")))
            .collect();
    } else if all(
        |t| matches!(t, Tag::Int(_) | Tag::Long(_) | Tag::Double(_)),
        &tags,
    ) && tags.iter().any(|t| matches!(t, Tag::Double(_)))
    {
        tags = tags
            .into_iter()
            .map(|t| Tag::Double(t.as_f64().expect("number")))
            .collect();
    }
    List::from_tags(tags).ok_or_else(|| "list elements have different types".to_owned())
}

impl<'de> Deserialize<'de> for Tag {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Tag, D::Error> {
        d.deserialize_any(TagVisitor)
    }
}

impl<'de> Deserialize<'de> for Compound {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Compound, D::Error> {
        match Tag::deserialize(d)? {
            Tag::Compound(c) => Ok(c),
            other => Err(de::Error::custom(format!(
                "expected a compound, found {}",
                other.tag_type()
            ))),
        }
    }
}

/// Prints a tag as JSON (two-space indent when `pretty`), compound entries in their order.
///
/// # Errors
/// When a float is NaN or infinite, which JSON cannot represent; the error names the path.
///
/// ```
/// use flatforge_nbt::{json, Compound, List, Tag};
/// let mut c = Compound::new();
/// c.insert("b", 1i8);
/// c.insert("a", List::Double(vec![0.5]));
/// assert_eq!(json::to_json(&Tag::Compound(c), false).unwrap(), r#"{"b":1,"a":[0.5]}"#);
/// ```
pub fn to_json(tag: &Tag, pretty: bool) -> Result<String> {
    check_finite(tag)?;
    let r = if pretty {
        serde_json::to_string_pretty(tag)
    } else {
        serde_json::to_string(tag)
    };
    r.map_err(|e| Error::new(ErrorKind::Json(e.to_string())))
}

fn check_finite(tag: &Tag) -> Result<()> {
    let bad = || {
        Error::new(ErrorKind::Json(
            "NaN or infinite float cannot be written as JSON".into(),
        ))
    };
    let each = |v: Vec<Tag>| -> Result<()> {
        for (i, t) in v.iter().enumerate() {
            check_finite(t).map_err(|e| e.in_index(i))?;
        }
        Ok(())
    };
    match tag {
        Tag::Float(v) if !v.is_finite() => Err(bad()),
        Tag::Double(v) if !v.is_finite() => Err(bad()),
        Tag::List(l @ (List::Float(_) | List::Double(_) | List::List(_) | List::Compound(_))) => {
            each(l.clone().into_tags())
        }
        Tag::Compound(c) => {
            for (k, v) in c.iter() {
                check_finite(v).map_err(|e| e.in_field(k))?;
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// Parses JSON into a tag with the inference described in the module docs. One byte order mark
/// (U+FEFF) before the value is skipped.
///
/// # Errors
/// Invalid JSON (with the line and column, which do not count a byte order mark), `null`, integers
/// beyond 64 bits and lists of mixed types.
///
/// ```
/// use flatforge_nbt::{json, List, Tag};
/// let t = json::from_json(r#"{"a": [1, 2], "b": 3000000000, "c": 0.5, "d": true}"#).unwrap();
/// let c = t.as_compound().unwrap();
/// assert_eq!(c["a"], Tag::List(List::Int(vec![1, 2])));
/// assert_eq!(c["b"], Tag::Long(3000000000));
/// assert_eq!(c["c"], Tag::Double(0.5));
/// assert_eq!(c["d"], Tag::Byte(1));
/// assert_eq!(json::from_json("\u{feff}[1]").unwrap(), Tag::List(List::Int(vec![1])));
/// let err = json::from_json("\u{feff}[1, x]").unwrap_err();
/// assert_eq!(err.to_string(), "JSON: expected value at line 1 column 5");
/// ```
pub fn from_json(text: &str) -> Result<Tag> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    serde_json::from_str(text).map_err(|e| Error::new(ErrorKind::Json(e.to_string())))
}
