//! Whole files: compression (gzip, zlib, none) and variant detection, the Bedrock level.dat header, and the
//! [`Nbt`] entry points that pick the codec for a [`Variant`].

use std::borrow::Cow;
use std::io::{Read, Write};

use crate::codec::{BigEndian, LittleEndian, VarInt, Variant};
use crate::error::{bytes, Error, ErrorKind, Result};
use crate::read::read_root;
use crate::tag::Nbt;
use crate::write::write_root;

/// The largest decompressed size accepted by [`decompress`] (1 GiB): a bound against compression bombs.
///
/// ```
/// use flatforge_nbt::{compress, decompress, Compression, MAX_DECOMPRESSED};
/// assert_eq!(MAX_DECOMPRESSED, 1 << 30);
/// // 1 MiB of zeros packs into about 1 KiB: a gzip bomb 1024 times as big would be refused.
/// let mib = compress(&vec![0; 1 << 20], Compression::Gzip).unwrap();
/// assert!(mib.len() < 2048);
/// assert_eq!(decompress(&mib).unwrap().0.len(), 1 << 20);
/// ```
pub const MAX_DECOMPRESSED: u64 = 1 << 30;

/// How a file is compressed.
///
/// ```
/// use flatforge_nbt::Compression;
/// assert_eq!(Compression::detect(&[0x1f, 0x8b, 8]), Compression::Gzip);
/// assert_eq!(Compression::detect(&[0x78, 0x9c]), Compression::Zlib);
/// assert_eq!(Compression::detect(&[10, 0, 0]), Compression::None);
/// assert_eq!("zlib".parse::<Compression>(), Ok(Compression::Zlib));
/// ```
///
/// More compressions may come (Bedrock and newer region files use others).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Compression {
    /// Uncompressed.
    None,
    /// gzip (RFC 1952), the usual compression of Java edition files.
    Gzip,
    /// zlib (RFC 1950), used in region files.
    Zlib,
}

impl Compression {
    /// Detects the compression from the first bytes: the gzip magic, or a valid zlib header (whose first
    /// byte, 0x78 for the usual window, is not a tag type, so NBT is never mistaken for zlib).
    ///
    /// ```
    /// assert_eq!(flatforge_nbt::Compression::detect(&[]), flatforge_nbt::Compression::None);
    /// ```
    pub fn detect(data: &[u8]) -> Compression {
        match data {
            [0x1f, 0x8b, ..] => Compression::Gzip,
            [cmf, flg, ..]
                if cmf & 0x0f == 8
                    && cmf >> 4 <= 7
                    && (u16::from(*cmf) << 8 | u16::from(*flg)) % 31 == 0 =>
            {
                Compression::Zlib
            }
            _ => Compression::None,
        }
    }

    /// The command-line name (`none`, `gzip`, `zlib`).
    ///
    /// ```
    /// assert_eq!(flatforge_nbt::Compression::Gzip.name(), "gzip");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Compression::None => "none",
            Compression::Gzip => "gzip",
            Compression::Zlib => "zlib",
        }
    }
}

impl std::fmt::Display for Compression {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Compression {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        [Compression::None, Compression::Gzip, Compression::Zlib]
            .into_iter()
            .find(|c| c.name() == s)
            .ok_or_else(|| format!("unknown compression {s:?} (none, gzip, zlib)"))
    }
}

fn compression_error(e: impl std::fmt::Display) -> Error {
    Error::new(ErrorKind::Compression(e.to_string()))
}

/// Decompresses `data` if it is gzip or zlib (detected), borrowing it unchanged otherwise. Refuses output
/// larger than [`MAX_DECOMPRESSED`].
///
/// ```
/// use flatforge_nbt::{compress, decompress, Compression};
/// let packed = compress(b"\x0a\x00\x00\x00", Compression::Zlib).unwrap();
/// let (plain, found) = decompress(&packed).unwrap();
/// assert_eq!((&*plain, found), (&b"\x0a\x00\x00\x00"[..], Compression::Zlib));
/// ```
pub fn decompress(data: &[u8]) -> Result<(Cow<'_, [u8]>, Compression)> {
    let compression = Compression::detect(data);
    let mut out = Vec::new();
    let read = match compression {
        Compression::None => return Ok((Cow::Borrowed(data), compression)),
        Compression::Gzip => flate2::read::MultiGzDecoder::new(data)
            .take(MAX_DECOMPRESSED + 1)
            .read_to_end(&mut out),
        Compression::Zlib => flate2::read::ZlibDecoder::new(data)
            .take(MAX_DECOMPRESSED + 1)
            .read_to_end(&mut out),
    };
    read.map_err(|e| {
        // Where it failed, as far as can be told: the decoder reads its input ahead.
        compression_error(format!(
            "{compression} data cut short or corrupt ({e}), after {} decompressed {} from {} \
             compressed bytes",
            out.len(),
            bytes(out.len() as u64),
            data.len(),
        ))
    })?;
    if out.len() as u64 > MAX_DECOMPRESSED {
        return Err(compression_error(format!(
            "decompressed data exceeds {MAX_DECOMPRESSED} bytes"
        )));
    }
    Ok((Cow::Owned(out), compression))
}

/// Compresses `data` (default level).
///
/// ```
/// use flatforge_nbt::{compress, Compression};
/// assert_eq!(compress(b"abc", Compression::None).unwrap(), b"abc");
/// assert_eq!(&compress(b"abc", Compression::Gzip).unwrap()[..2], &[0x1f, 0x8b]);
/// ```
pub fn compress(data: &[u8], compression: Compression) -> Result<Vec<u8>> {
    let level = flate2::Compression::default();
    match compression {
        Compression::None => Ok(data.to_vec()),
        Compression::Gzip => {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), level);
            e.write_all(data).map_err(compression_error)?;
            e.finish().map_err(compression_error)
        }
        Compression::Zlib => {
            let mut e = flate2::write::ZlibEncoder::new(Vec::new(), level);
            e.write_all(data).map_err(compression_error)?;
            e.finish().map_err(compression_error)
        }
    }
}

/// Everything needed to write a file back the way it was read.
///
/// ```
/// use flatforge_nbt::{Compression, Format, Variant};
/// let f = Format::new(Variant::Java, Compression::Gzip);
/// assert_eq!(f.bedrock_header, None);
/// ```
///
/// More fields may come: build one with [`Format::new`] and the `with_` setters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Format {
    /// The binary variant.
    pub variant: Variant,
    /// The compression around it.
    pub compression: Compression,
    /// The storage version of a Bedrock level.dat header (4-byte version + 4-byte length, little-endian),
    /// when the file has one.
    pub bedrock_header: Option<i32>,
}

impl Format {
    /// A format without a Bedrock header.
    ///
    /// ```
    /// let f = flatforge_nbt::Format::new(flatforge_nbt::Variant::Bedrock, flatforge_nbt::Compression::None);
    /// assert_eq!(f.variant, flatforge_nbt::Variant::Bedrock);
    /// ```
    pub fn new(variant: Variant, compression: Compression) -> Self {
        Format {
            variant,
            compression,
            bedrock_header: None,
        }
    }

    /// This format with the storage version `bedrock_header` of a Bedrock level.dat header, or
    /// without a header when `None`.
    ///
    /// ```
    /// use flatforge_nbt::{Compound, Compression, Format, Nbt, Variant};
    /// let format = Format::new(Variant::Bedrock, Compression::None).with_bedrock_header(Some(10));
    /// let bytes = Nbt::new("", Compound::new()).to_file_bytes(&format)?;
    /// assert_eq!(bytes, [10, 0, 0, 0, 4, 0, 0, 0, 10, 0, 0, 0]);
    /// assert_eq!(Nbt::from_file_bytes(&bytes)?.1, format);
    /// # Ok::<(), flatforge_nbt::Error>(())
    /// ```
    #[must_use]
    pub const fn with_bedrock_header(mut self, bedrock_header: Option<i32>) -> Self {
        self.bedrock_header = bedrock_header;
        self
    }
}

/// The storage version of a Bedrock level.dat header at the start of `data`, if there is one: 4 bytes of
/// version, 4 bytes holding the length of the rest, then a compound tag.
///
/// ```
/// let data = [9, 0, 0, 0, 4, 0, 0, 0, 10, 0, 0, 0];
/// assert_eq!(flatforge_nbt::bedrock_header(&data), Some(9));
/// assert_eq!(flatforge_nbt::bedrock_header(&data[..11]), None);
/// ```
pub fn bedrock_header(data: &[u8]) -> Option<i32> {
    let version = i32::from_le_bytes(data.get(0..4)?.try_into().ok()?);
    let len = u32::from_le_bytes(data.get(4..8)?.try_into().ok()?);
    (len as usize == data.len() - 8 && data.get(8) == Some(&10)).then_some(version)
}

/// The error to report for `plain`, which no variant reads, given `headerless`, the error from reading
/// it: when `plain` starts as a Bedrock level.dat header does (a small version, then a compound tag at
/// byte 8) but its length field disagrees with the data, so that [`bedrock_header`] finds none, and the
/// NBT after those 8 bytes reads further than `headerless` got, the header's length is the fault.
#[cold]
fn blame_header(plain: &[u8], headerless: Error) -> Error {
    let (Some(version), Some(claimed), Some(&10)) =
        (plain.get(0..4), plain.get(4..8), plain.get(8))
    else {
        return headerless;
    };
    let version = i32::from_le_bytes(version.try_into().expect("4 bytes"));
    let claimed = u32::from_le_bytes(claimed.try_into().expect("4 bytes"));
    // Real files have versions up to about 10; Java and Bedrock NBT without a header whose root is
    // a compound holding anything have a name length or a tag type in bytes 2 and 3.
    let actual = plain.len() - 8;
    if !(0..=0xFFFF).contains(&version) || claimed as usize == actual {
        return headerless;
    }
    let (reached, read) = match Nbt::read_prefix(&plain[8..], Variant::Bedrock) {
        Ok((_, used)) => (
            8 + used,
            format!("a root tag of {used} then trailing bytes"),
        ),
        Err(e) => match e.offset() {
            Some(offset) => (8 + offset, format!("reading them: {}", e.shifted(8))),
            None => return headerless,
        },
    };
    if headerless.offset().is_some_and(|o| o >= reached) {
        return headerless;
    }
    let message = format!(
        "Bedrock level.dat header (version {version}) claims {claimed} {} of NBT, but the file \
         has {actual} after it ({read})",
        crate::error::bytes(claimed.into()),
    );
    Error::at(ErrorKind::InvalidHeader(message), 4)
}

impl Nbt {
    /// Reads uncompressed NBT of `variant`; the whole input must be one root tag.
    ///
    /// ```
    /// use flatforge_nbt::{Nbt, Tag, Variant};
    /// let nbt = Nbt::read(&[3, 0, 0, 0, 0, 0, 7], Variant::Java).unwrap();
    /// assert_eq!(nbt.tag, Tag::Int(7));
    /// assert!(Nbt::read(&[3, 0, 0, 0, 0, 0, 7, 0], Variant::Java).is_err());
    /// ```
    pub fn read(data: &[u8], variant: Variant) -> Result<Nbt> {
        let (nbt, used) = Nbt::read_prefix(data, variant)?;
        if used != data.len() {
            return Err(Error::at(ErrorKind::TrailingBytes(data.len() - used), used));
        }
        Ok(nbt)
    }

    /// Reads one root tag from the start of `data` and returns it with the number of bytes it took (for
    /// NBT embedded in network packets).
    ///
    /// ```
    /// use flatforge_nbt::{Nbt, Tag, Variant};
    /// let (nbt, used) = Nbt::read_prefix(&[1, 5, 0xff], Variant::JavaNetwork).unwrap();
    /// assert_eq!((nbt.tag, used), (Tag::Byte(5), 2));
    /// ```
    pub fn read_prefix(data: &[u8], variant: Variant) -> Result<(Nbt, usize)> {
        match variant {
            Variant::Java => read_root::<BigEndian>(data, true),
            Variant::JavaNetwork => read_root::<BigEndian>(data, false),
            Variant::Bedrock => read_root::<LittleEndian>(data, true),
            Variant::BedrockNetwork => read_root::<VarInt>(data, true),
        }
    }

    /// Appends the uncompressed encoding in `variant` to `out`.
    ///
    /// ```
    /// use flatforge_nbt::{Nbt, Tag, Variant};
    /// let nbt = Nbt { name: String::new(), tag: Tag::Int(-1) };
    /// let mut out = Vec::new();
    /// nbt.write_to(Variant::BedrockNetwork, &mut out).unwrap();
    /// assert_eq!(out, [3, 0, 1]);
    /// ```
    pub fn write_to(&self, variant: Variant, out: &mut Vec<u8>) -> Result<()> {
        match variant {
            Variant::Java => write_root::<BigEndian>(self, true, out),
            Variant::JavaNetwork => write_root::<BigEndian>(self, false, out),
            Variant::Bedrock => write_root::<LittleEndian>(self, true, out),
            Variant::BedrockNetwork => write_root::<VarInt>(self, true, out),
        }
    }

    /// The uncompressed encoding in `variant`.
    ///
    /// ```
    /// use flatforge_nbt::{Compound, Nbt, Variant};
    /// assert_eq!(Nbt::new("", Compound::new()).to_vec(Variant::Java).unwrap(), [10, 0, 0, 0]);
    /// ```
    pub fn to_vec(&self, variant: Variant) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        self.write_to(variant, &mut out)?;
        Ok(out)
    }

    /// Reads a file whose compression, variant and Bedrock header are detected. A Bedrock level.dat
    /// header is detected when its length field matches the rest of the file and a compound follows it;
    /// then, or when that compound does not read, each variant is tried on the whole input in
    /// [`Variant::ALL`] order; the first that reads it all wins. When none does, the error is the one
    /// that got furthest, or [`ErrorKind::InvalidHeader`] when the data looks like a level.dat whose
    /// header's length is wrong.
    ///
    /// ```
    /// use flatforge_nbt::{Compression, Nbt, Variant};
    /// let data = std::fs::read(format!("{}/../../../shared/testdata/nbt/bigtest.nbt",
    ///     env!("CARGO_MANIFEST_DIR"))).unwrap();
    /// let (nbt, format) = Nbt::from_file_bytes(&data).unwrap();
    /// assert_eq!((format.variant, format.compression), (Variant::Java, Compression::Gzip));
    /// assert_eq!(nbt.name, "Level");
    ///
    /// // A level.dat header (version 10) claiming 12 bytes of NBT, then a compound of 9.
    /// let cut = b"\x0a\0\0\0\x0c\0\0\0\x0a\0\0\x03\x01\0a\x05\0";
    /// let err = Nbt::from_file_bytes(cut).unwrap_err();
    /// assert_eq!(err.offset(), Some(4));
    /// assert!(err.to_string().starts_with("invalid header: Bedrock level.dat header (version 10) \
    ///     claims 12 bytes of NBT, but the file has 9 after it"), "{err}");
    /// ```
    pub fn from_file_bytes(data: &[u8]) -> Result<(Nbt, Format)> {
        let (plain, compression) = decompress(data)?;
        let mut furthest: Option<Error> = None;
        if let Some(version) = bedrock_header(&plain) {
            match Nbt::read(&plain[8..], Variant::Bedrock) {
                Ok(nbt) => {
                    let format = Format {
                        variant: Variant::Bedrock,
                        compression,
                        bedrock_header: Some(version),
                    };
                    return Ok((nbt, format));
                }
                Err(e) => furthest = Some(e.shifted(8)),
            }
        }
        for variant in Variant::ALL {
            match Nbt::read(&plain, variant) {
                Ok(nbt) => return Ok((nbt, Format::new(variant, compression))),
                Err(e) => {
                    if furthest.as_ref().is_none_or(|f| e.offset() > f.offset()) {
                        furthest = Some(e);
                    }
                }
            }
        }
        let furthest = furthest.unwrap_or_else(|| Error::new(ErrorKind::UnknownFormat));
        Err(blame_header(&plain, furthest))
    }

    /// Reads a file of a known variant; compression and, for [`Variant::Bedrock`], the level.dat header
    /// are still detected (as [`Nbt::from_file_bytes`] detects them).
    ///
    /// ```
    /// use flatforge_nbt::{Nbt, Variant};
    /// let data = std::fs::read(format!("{}/../../../shared/testdata/nbt/level.dat",
    ///     env!("CARGO_MANIFEST_DIR"))).unwrap();
    /// let (nbt, format) = Nbt::from_file_bytes_as(&data, Variant::Java).unwrap();
    /// assert!(nbt.root().get("Data").is_some());
    /// ```
    pub fn from_file_bytes_as(data: &[u8], variant: Variant) -> Result<(Nbt, Format)> {
        let (plain, compression) = decompress(data)?;
        if variant == Variant::Bedrock {
            if let Some(version) = bedrock_header(&plain) {
                let nbt = Nbt::read(&plain[8..], variant).map_err(|e| e.shifted(8))?;
                let format = Format {
                    variant,
                    compression,
                    bedrock_header: Some(version),
                };
                return Ok((nbt, format));
            }
        }
        let nbt = Nbt::read(&plain, variant).map_err(|e| match variant {
            Variant::Bedrock => blame_header(&plain, e),
            _ => e,
        })?;
        Ok((nbt, Format::new(variant, compression)))
    }

    /// Encodes a file: the variant, the Bedrock header if the format has one, then compression.
    ///
    /// ```
    /// use flatforge_nbt::{Compound, Compression, Format, Nbt, Variant};
    /// let nbt = Nbt::new("", Compound::new());
    /// let format = Format::new(Variant::Bedrock, Compression::None).with_bedrock_header(Some(10));
    /// assert_eq!(nbt.to_file_bytes(&format).unwrap(), [10, 0, 0, 0, 4, 0, 0, 0, 10, 0, 0, 0]);
    /// ```
    pub fn to_file_bytes(&self, format: &Format) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        if let Some(version) = format.bedrock_header {
            out.extend_from_slice(&version.to_le_bytes());
            out.extend_from_slice(&[0; 4]);
        }
        self.write_to(format.variant, &mut out)?;
        if format.bedrock_header.is_some() {
            let len = u32::try_from(out.len() - 8)
                .map_err(|_| Error::new(ErrorKind::TooLong(out.len())))?;
            out[4..8].copy_from_slice(&len.to_le_bytes());
        }
        match format.compression {
            Compression::None => Ok(out),
            c => compress(&out, c),
        }
    }
}
