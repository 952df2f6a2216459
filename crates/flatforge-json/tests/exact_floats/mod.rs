//! Checks that every float a printer wrote reads back (with `str::parse::<f32>` or `::<f64>`) to
//! exactly the bits stored in the buffer: the buffer is walked with the schema model, and each
//! float field, struct member, array or vector element found there is looked up at the same place
//! in the printed JSON. Every number printed as a float (with a `.`, an exponent, `nan` or `inf`)
//! must be one the walk checked, except in FlexBuffers, whose values the schema does not describe.
//! NaN is compared as NaN: the text cannot carry its sign or payload.

use flatforge_schema::{BaseType, Field, Object, ObjectId, Schema, Type, TypeRef};

/// A JSON value that keeps the text of its numbers.
#[derive(Debug)]
enum J {
    Obj(Vec<(String, J)>),
    Arr(Vec<J>),
    /// A number, or a bare `nan`, `inf` or `-inf`.
    Num(String),
    /// Strings, `true`, `false`, `null`.
    Other,
}

impl J {
    fn get(&self, key: &str) -> Option<&J> {
        match self {
            J::Obj(fields) => fields.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    fn at(&self, i: usize) -> &J {
        match self {
            J::Arr(items) => items
                .get(i)
                .unwrap_or_else(|| panic!("no element {i} in {self:?}")),
            _ => panic!("expected an array, found {self:?}"),
        }
    }

    /// How many numbers in this value are printed as floats.
    fn floats(&self) -> usize {
        match self {
            J::Obj(fields) => fields.iter().map(|(_, v)| v.floats()).sum(),
            J::Arr(items) => items.iter().map(J::floats).sum(),
            J::Num(t) => usize::from(t.contains(['.', 'e', 'E', 'n'])),
            J::Other => 0,
        }
    }
}

/// Parses JSON as the printers write it (strict or with bare keys; bare `nan` and `inf`).
fn parse(text: &str) -> J {
    let mut p = Reader {
        s: text.as_bytes(),
        i: 0,
    };
    let v = p.value();
    p.ws();
    assert_eq!(p.i, p.s.len(), "trailing text after the JSON");
    v
}

struct Reader<'a> {
    s: &'a [u8],
    i: usize,
}

impl Reader<'_> {
    fn ws(&mut self) {
        while self.s.get(self.i).is_some_and(u8::is_ascii_whitespace) {
            self.i += 1;
        }
    }

    fn word(&mut self) -> String {
        let start = self.i;
        while self
            .s
            .get(self.i)
            .is_some_and(|c| c.is_ascii_alphanumeric() || b"_+-.".contains(c))
        {
            self.i += 1;
        }
        String::from_utf8(self.s[start..self.i].to_vec()).unwrap()
    }

    fn string(&mut self) -> String {
        self.i += 1;
        let start = self.i;
        while self.s[self.i] != b'"' {
            self.i += if self.s[self.i] == b'\\' { 2 } else { 1 };
        }
        self.i += 1;
        String::from_utf8(self.s[start..self.i - 1].to_vec()).unwrap()
    }

    fn value(&mut self) -> J {
        self.ws();
        match self.s[self.i] {
            b'{' => {
                self.i += 1;
                let mut fields = Vec::new();
                loop {
                    self.ws();
                    if self.s[self.i] == b'}' {
                        self.i += 1;
                        return J::Obj(fields);
                    }
                    let key = if self.s[self.i] == b'"' {
                        self.string()
                    } else {
                        self.word()
                    };
                    self.ws();
                    assert_eq!(self.s[self.i], b':');
                    self.i += 1;
                    fields.push((key, self.value()));
                    self.ws();
                    if self.s[self.i] == b',' {
                        self.i += 1;
                    }
                }
            }
            b'[' => {
                self.i += 1;
                let mut items = Vec::new();
                loop {
                    self.ws();
                    if self.s[self.i] == b']' {
                        self.i += 1;
                        return J::Arr(items);
                    }
                    items.push(self.value());
                    self.ws();
                    if self.s[self.i] == b',' {
                        self.i += 1;
                    }
                }
            }
            b'"' => {
                self.string();
                J::Other
            }
            _ => {
                let w = self.word();
                match w.as_str() {
                    "true" | "false" | "null" => J::Other,
                    _ => J::Num(w),
                }
            }
        }
    }
}

fn u16_at(b: &[u8], at: usize) -> usize {
    usize::from(u16::from_le_bytes([b[at], b[at + 1]]))
}

fn u32_at(b: &[u8], at: usize) -> usize {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap()) as usize
}

fn u64_at(b: &[u8], at: usize) -> usize {
    u64::from_le_bytes(b[at..at + 8].try_into().unwrap()) as usize
}

/// The position the 32-bit offset at `at` points to.
fn deref(b: &[u8], at: usize) -> usize {
    at + u32_at(b, at)
}

/// The position of field `id` of the table at `pos`, if present.
fn field_pos(b: &[u8], pos: usize, id: u16) -> Option<usize> {
    let vt =
        (pos as i64 - i64::from(i32::from_le_bytes(b[pos..pos + 4].try_into().unwrap()))) as usize;
    let entry = 4 + 2 * usize::from(id);
    if entry + 2 > u16_at(b, vt) {
        return None;
    }
    let off = u16_at(b, vt + entry);
    (off != 0).then_some(pos + off)
}

struct Walk<'a> {
    schema: &'a Schema,
    checked: usize,
    skipped: usize,
}

impl Walk<'_> {
    /// Checks that `text` reads back to the float of type `base` stored at `at`.
    fn float(&mut self, b: &[u8], base: BaseType, at: usize, j: &J, path: &str) {
        let J::Num(text) = j else {
            panic!("{path}: expected a number, found {j:?}");
        };
        match base {
            BaseType::Float => {
                let stored = f32::from_le_bytes(b[at..at + 4].try_into().unwrap());
                let read: f32 = text
                    .parse()
                    .unwrap_or_else(|e| panic!("{path}: {text}: {e}"));
                assert!(
                    read.to_bits() == stored.to_bits() || (read.is_nan() && stored.is_nan()),
                    "{path}: {text} reads back as {read:e}, the buffer holds {stored:e}"
                );
            }
            _ => {
                let stored = f64::from_le_bytes(b[at..at + 8].try_into().unwrap());
                let read: f64 = text
                    .parse()
                    .unwrap_or_else(|e| panic!("{path}: {text}: {e}"));
                assert!(
                    read.to_bits() == stored.to_bits() || (read.is_nan() && stored.is_nan()),
                    "{path}: {text} reads back as {read:e}, the buffer holds {stored:e}"
                );
            }
        }
        self.checked += 1;
    }

    fn object(&self, ty: &Type) -> Option<(ObjectId, &Object)> {
        ty.object().map(|o| (o, &self.schema[o]))
    }

    /// A scalar, struct or table (an offset at `at`) of type `ty`.
    fn value(&mut self, b: &[u8], ty: Type, at: usize, j: &J, path: &str) {
        if matches!(ty.base_type, BaseType::Float | BaseType::Double) {
            return self.float(b, ty.base_type, at, j, path);
        }
        if ty.base_type != BaseType::Obj {
            return;
        }
        let Some((id, o)) = self.object(&ty) else {
            return;
        };
        if o.is_struct {
            self.structure(b, id, at, j, path);
        } else {
            self.table(b, id, deref(b, at), j, path);
        }
    }

    fn structure(&mut self, b: &[u8], id: ObjectId, pos: usize, j: &J, path: &str) {
        let o = &self.schema[id];
        for f in &o.fields {
            let at = pos + usize::from(f.offset);
            let jf = j
                .get(&f.name)
                .unwrap_or_else(|| panic!("{path}.{}: not printed", f.name));
            let p = format!("{path}.{}", f.name);
            if f.ty.base_type == BaseType::Array {
                let elem = f.ty.element_type();
                let size = elem.inline_size(self.schema);
                for i in 0..usize::from(f.ty.fixed_length) {
                    self.value(b, elem, at + i * size, jf.at(i), &format!("{p}[{i}]"));
                }
            } else {
                self.value(b, f.ty, at, jf, &p);
            }
        }
    }

    /// The table at `pos`.
    fn table(&mut self, b: &[u8], id: ObjectId, pos: usize, j: &J, path: &str) {
        let o = &self.schema[id];
        for f in &o.fields {
            let Some(at) = field_pos(b, pos, f.id) else {
                continue;
            };
            let p = &format!("{path}.{}", f.name);
            let j = j.get(&f.name).unwrap_or_else(|| panic!("{p}: not printed"));
            match f.ty.base_type {
                BaseType::Union => {
                    let sibling = &o.fields[usize::from(f.union_sibling.unwrap())];
                    let ty = field_pos(b, pos, sibling.id).map_or(0, |t| b[t]);
                    self.union_member(b, f, ty, at, j, p);
                }
                BaseType::Vector | BaseType::Vector64 => {
                    // A vector of unions: where its types are.
                    let types = f
                        .union_sibling
                        .and_then(|s| field_pos(b, pos, o.fields[usize::from(s)].id))
                        .map(|t| deref(b, t) + 4);
                    self.vector(b, f, at, types, j, p);
                }
                _ => self.value(b, f.ty, at, j, p),
            }
        }
    }

    /// The vector of field `f`, whose offset is at `at`; `types` is where the types of a vector of
    /// unions are.
    fn vector(&mut self, b: &[u8], f: &Field, at: usize, types: Option<usize>, j: &J, p: &str) {
        let v = if f.offset64 {
            at + u64_at(b, at)
        } else {
            deref(b, at)
        };
        let (data, len) = if f.ty.base_type == BaseType::Vector64 {
            (v + 8, u64_at(b, v))
        } else {
            (v + 4, u32_at(b, v))
        };
        if let Some(nested) = f.nested_flatbuffer {
            let buf = &b[data..data + len];
            return self.table(buf, nested, deref(buf, 0), j, p);
        }
        if f.flexbuffer {
            self.skipped += j.floats();
            return;
        }
        let elem = f.ty.element_type();
        if elem.base_type == BaseType::Union {
            for i in 0..len {
                let ty = types.map_or(0, |t| b[t + i]);
                self.union_member(b, f, ty, data + 4 * i, j.at(i), &format!("{p}[{i}]"));
            }
            return;
        }
        let size = elem.inline_size(self.schema);
        for i in 0..len {
            self.value(b, elem, data + i * size, j.at(i), &format!("{p}[{i}]"));
        }
    }

    /// The member of type `ty` of the union of field `f`, whose offset is at `at`.
    fn union_member(&mut self, b: &[u8], f: &Field, ty: u8, at: usize, j: &J, p: &str) {
        let Some(TypeRef::Enum(e)) = f.ty.index else {
            return;
        };
        let member = self.schema[e]
            .values
            .iter()
            .find(|v| v.value == i64::from(ty))
            .and_then(|v| v.union_type);
        if let Some((id, o)) = member.as_ref().and_then(|t| self.object(t)) {
            let pos = deref(b, at);
            if o.is_struct {
                self.structure(b, id, pos, j, p);
            } else {
                self.table(b, id, pos, j, p);
            }
        }
    }
}

/// Checks every float of the verified buffer `buf` (root table `root`) against `json`, which a
/// printer made from it with bare non-finite floats and without `--defaults-json`.
pub(crate) fn check(schema: &Schema, root: ObjectId, buf: &[u8], json: &str, what: &str) {
    let j = parse(json);
    let mut w = Walk {
        schema,
        checked: 0,
        skipped: 0,
    };
    w.table(buf, root, deref(buf, 0), &j, &schema[root].name);
    assert_eq!(
        w.checked + w.skipped,
        j.floats(),
        "{what}: the walk did not reach every float printed"
    );
}
