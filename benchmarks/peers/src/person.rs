//! The object API workload of the FlatBuffers.mbt micro-workloads (WORKLOADS.md §2), on
//! `schemas/person.fbs`: `Person {name: "TestPerson", age: int32 30, score: int16 95}`.
//!
//! **build**: pack an owned Person, made once, into a builder made once and reset (cleared) each
//! time, and finish the buffer. **read**: verify a buffer and unpack it into a new owned Person
//! (which allocates its name). Each peer uses its own generator's owned type: `PersonT` from
//! `flatc --rust --gen-object-api`, planus's `Person`, and flatforge's `PersonT`.
//!
//! ```
//! use flatforge_bench_peers::person::{flatforge, official, planus};
//!
//! let buf = official::Writer::new().write().to_vec();
//! assert!(flatforge::read(&buf).is_ok_and(|p| flatforge::matches(&p)));
//! assert!(planus::read(&buf).is_ok_and(|p| planus::matches(&p)));
//! ```

/// The name field.
pub const NAME: &str = "TestPerson";
/// The age field.
pub const AGE: i32 = 30;
/// The score field.
pub const SCORE: i16 = 95;

/// The official `flatbuffers` crate with `flatc --rust --gen-object-api` code.
pub mod official {
    use super::{AGE, NAME, SCORE};
    use crate::generated::official_person::peers::person::{root_as_person, PersonT};
    use flatbuffers::{FlatBufferBuilder, InvalidFlatbuffer};

    /// A builder made once and the owned Person it packs.
    ///
    /// ```
    /// use flatforge_bench_peers::person::official;
    /// let mut w = official::Writer::new();
    /// assert!(official::matches(&official::read(w.write()).unwrap()));
    /// ```
    pub struct Writer {
        builder: FlatBufferBuilder<'static>,
        person: PersonT,
    }

    impl Default for Writer {
        fn default() -> Self {
            Self::new()
        }
    }

    impl Writer {
        /// The builder and the owned Person.
        pub fn new() -> Self {
            Self {
                builder: FlatBufferBuilder::with_capacity(256),
                person: PersonT {
                    name: Some(NAME.to_owned()),
                    age: AGE,
                    score: SCORE,
                },
            }
        }

        /// Resets the builder, packs the Person and finishes; returns the buffer.
        pub fn write(&mut self) -> &[u8] {
            self.builder.reset();
            let root = self.person.pack(&mut self.builder);
            self.builder.finish(root, None);
            self.builder.finished_data()
        }
    }

    /// Verifies `buf` and unpacks its Person.
    pub fn read(buf: &[u8]) -> Result<PersonT, InvalidFlatbuffer> {
        root_as_person(buf).map(|p| p.unpack())
    }

    /// Whether `p` holds the workload's values.
    pub fn matches(p: &PersonT) -> bool {
        p.name.as_deref() == Some(NAME) && p.age == AGE && p.score == SCORE
    }
}

/// `planus` with `planus-cli` code: its owned `Person` type.
pub mod planus {
    use super::{AGE, NAME, SCORE};
    use crate::generated::planus_person::peers::person::{Person, PersonRef};
    use planus::{Builder, ReadAsRoot};

    /// A builder made once and the owned Person it packs.
    ///
    /// ```
    /// use flatforge_bench_peers::person::planus;
    /// let mut w = planus::Writer::new();
    /// assert!(planus::matches(&planus::read(w.write()).unwrap()));
    /// ```
    pub struct Writer {
        builder: Builder,
        person: Person,
    }

    impl Default for Writer {
        fn default() -> Self {
            Self::new()
        }
    }

    impl Writer {
        /// The builder and the owned Person.
        pub fn new() -> Self {
            Self {
                builder: Builder::with_capacity(256),
                person: Person {
                    name: Some(NAME.to_owned()),
                    age: AGE,
                    score: SCORE,
                },
            }
        }

        /// Clears the builder, writes the Person and finishes; returns the buffer.
        pub fn write(&mut self) -> &[u8] {
            self.builder.clear();
            self.builder.finish(&self.person, None)
        }
    }

    /// Reads `buf` (planus checks what it reads) and converts it into an owned Person.
    pub fn read(buf: &[u8]) -> planus::Result<Person> {
        Person::try_from(PersonRef::read_as_root(buf)?)
    }

    /// Whether `p` holds the workload's values.
    pub fn matches(p: &Person) -> bool {
        p.name.as_deref() == Some(NAME) && p.age == AGE && p.score == SCORE
    }
}

/// The generated code for `schemas/person.fbs`.
#[allow(unreachable_pub, dead_code)]
mod generated {
    include!(concat!(env!("OUT_DIR"), "/flatforge/person_generated.rs"));
}

/// flatforge's generated object API: `PersonT::pack` and `Person::unpack`.
pub mod flatforge {
    use super::generated::peers::person::{root_as_person, PersonT};
    use super::{AGE, NAME, SCORE};
    use flatforge::{Builder, Error};

    /// A builder made once and the owned Person it packs.
    ///
    /// ```
    /// use flatforge_bench_peers::person::flatforge;
    /// let mut w = flatforge::Writer::new();
    /// assert!(flatforge::matches(&flatforge::read(w.write()).unwrap()));
    /// ```
    pub struct Writer {
        builder: Builder,
        person: PersonT,
    }

    impl Default for Writer {
        fn default() -> Self {
            Self::new()
        }
    }

    impl Writer {
        /// The builder and the owned Person.
        pub fn new() -> Self {
            Self {
                builder: Builder::with_capacity(256),
                person: PersonT {
                    name: Some(NAME.into()),
                    age: AGE,
                    score: SCORE,
                },
            }
        }

        /// Resets the builder, packs the Person and finishes; returns the buffer.
        pub fn write(&mut self) -> &[u8] {
            self.builder.reset();
            let root = self
                .person
                .pack(&mut self.builder)
                .expect("a Person fits the builder's limit");
            self.builder
                .finish(root, None)
                .expect("a Person fits the builder's limit")
        }
    }

    /// Verifies `buf` and unpacks its Person.
    pub fn read(buf: &[u8]) -> Result<PersonT, Error> {
        root_as_person(buf).map(|p| p.unpack())
    }

    /// Whether `p` holds the workload's values.
    pub fn matches(p: &PersonT) -> bool {
        p.name.as_deref() == Some(NAME) && p.age == AGE && p.score == SCORE
    }
}
