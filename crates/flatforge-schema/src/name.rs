//! [`Name`]: the string type of the model's names (definitions, fields, enum values,
//! namespaces, attributes), stored inline up to 24 bytes, so that compiling a schema allocates
//! nothing for its usual names.

use std::borrow::Borrow;
use std::fmt;
use std::ops::Deref;

use compact_str::CompactString;

/// A name in the [`Schema`](crate::Schema) model: an immutable string that is kept inline,
/// without an allocation, when it is at most 24 bytes long (longer ones go to the heap).
///
/// It reads as a `&str` (through `Deref`), compares with `str`, `&str` and `String`, and
/// prints as its text.
///
/// ```
/// use flatforge_schema::Name;
/// let schema = flatforge_schema::compile_str("a.fbs", "table Monster { hp: short; }").unwrap();
/// let name: &Name = &schema.objects[0].name;
/// assert_eq!(name, "Monster");
/// assert!(name.starts_with("Mon")); // any `str` method
/// assert_eq!(format!("{name}!"), "Monster!");
/// assert_eq!(Name::from("hp"), schema.objects[0].fields[0].name);
/// ```
#[derive(Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Name(CompactString);

impl Name {
    /// The name's text.
    ///
    /// ```
    /// assert_eq!(flatforge_schema::Name::from("Monster").as_str(), "Monster");
    /// ```
    pub fn as_str(&self) -> &str {
        self.0.as_str()
    }
}

impl Deref for Name {
    type Target = str;

    fn deref(&self) -> &str {
        self.0.as_str()
    }
}

impl AsRef<str> for Name {
    fn as_ref(&self) -> &str {
        self.0.as_str()
    }
}

impl Borrow<str> for Name {
    fn borrow(&self) -> &str {
        self.0.as_str()
    }
}

impl From<&str> for Name {
    #[inline]
    fn from(text: &str) -> Name {
        Name(CompactString::new(text))
    }
}

impl From<String> for Name {
    fn from(text: String) -> Name {
        Name(CompactString::from(text))
    }
}

impl From<std::borrow::Cow<'_, str>> for Name {
    /// (A borrowed text takes the inline `From<&str>`, without a call.)
    #[inline]
    fn from(text: std::borrow::Cow<'_, str>) -> Name {
        match text {
            std::borrow::Cow::Borrowed(text) => Name::from(text),
            std::borrow::Cow::Owned(text) => Name::from(text),
        }
    }
}

impl From<Name> for String {
    fn from(name: Name) -> String {
        name.0.into_string()
    }
}

impl PartialEq<str> for Name {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Name {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<String> for Name {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other.as_str()
    }
}

impl PartialEq<Name> for str {
    fn eq(&self, other: &Name) -> bool {
        self == other.as_str()
    }
}

impl PartialEq<Name> for &str {
    fn eq(&self, other: &Name) -> bool {
        *self == other.as_str()
    }
}

impl PartialEq<Name> for String {
    fn eq(&self, other: &Name) -> bool {
        self.as_str() == other.as_str()
    }
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.as_str(), f)
    }
}

impl fmt::Debug for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

#[cfg(test)]
mod tests {
    use super::Name;

    #[test]
    fn short_and_long_names_keep_their_text() {
        for len in [0, 1, 23, 24, 25, 100] {
            let text: String = (0..len)
                .map(|i| char::from(b'a' + (i % 26) as u8))
                .collect();
            let name = Name::from(text.as_str());
            assert_eq!(name, text);
            assert_eq!(name.len(), len);
            assert_eq!(Name::from(text.clone()), name);
            assert_eq!(String::from(name.clone()), text);
            assert_eq!(format!("{name:?}"), format!("{text:?}"));
        }
    }

    #[test]
    fn a_name_is_as_large_as_a_string_and_keeps_multibyte_text() {
        assert_eq!(std::mem::size_of::<Name>(), std::mem::size_of::<String>());
        // 2- and 4-byte characters at and across the inline limit of 24 bytes.
        for text in [
            "é".repeat(12),
            "é".repeat(13),
            "🦀".repeat(6),
            "🦀".repeat(7),
        ] {
            assert_eq!(Name::from(text.as_str()), text);
        }
    }

    #[test]
    fn names_order_as_their_text() {
        let mut names: Vec<Name> = ["b", "a", "ab", "B"].into_iter().map(Name::from).collect();
        names.sort();
        assert_eq!(names, ["B", "a", "ab", "b"]);
    }

    #[test]
    fn names_hash_as_their_text() {
        let map: std::collections::HashMap<Name, u32> = [(Name::from("Monster"), 1)].into();
        assert_eq!(map.get("Monster"), Some(&1));
    }
}
