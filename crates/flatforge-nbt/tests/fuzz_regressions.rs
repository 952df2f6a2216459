//! Inputs the fuzz targets found, replayed with the checks of fuzz/fuzz_targets/nbt_read.rs.

use flatforge_nbt::borrowed::Document;
use flatforge_nbt::{ErrorKind, Nbt, Variant};

/// Equal trees, comparing floats bit for bit (NaN is not equal to itself under `PartialEq`).
fn same(a: &Nbt, b: &Nbt) -> bool {
    a.name == b.name && same_tag(a, b)
}

/// Equal root tags (names ignored), floats compared bit for bit.
fn same_tag(a: &Nbt, b: &Nbt) -> bool {
    a.to_vec(Variant::JavaNetwork).ok() == b.to_vec(Variant::JavaNetwork).ok()
}

fn check_readers(data: &[u8]) {
    for variant in Variant::ALL {
        let owned = Nbt::read(data, variant);
        let doc = Document::parse(data, variant);
        let borrowed = doc.as_ref().map_err(Clone::clone).and_then(|d| d.to_nbt());
        // Both accept or both reject; the first error may differ, because the borrowed reader checks
        // strings only when they are decoded.
        assert_eq!(
            owned.is_ok(),
            borrowed.is_ok(),
            "readers disagree in {variant}: {owned:?} {borrowed:?}"
        );
        if let (Ok(a), Ok(b)) = (&owned, &borrowed) {
            assert!(same(a, b), "readers disagree in {variant}");
        }
        if let (Ok(nbt), Ok(doc)) = (&owned, &doc) {
            let bytes = nbt.to_vec(variant).unwrap();
            assert!(same(&Nbt::read(&bytes, variant).unwrap(), nbt));
            for target in Variant::ALL {
                if let Ok(converted) = doc.to_vec(target) {
                    assert!(same_tag(&Nbt::read(&converted, target).unwrap(), nbt));
                }
            }
        }
    }
    let _ = Nbt::from_file_bytes(data);
}

/// A Bedrock network root name of 1,348,849 bytes: the owned reader ran out of input while the borrowed
/// one rejected the length; names are now limited to 65,535 bytes in every variant and reader.
#[test]
fn bedrock_network_overlong_root_name() {
    let data = [0x0a, 0xf1, 0xa9, 0x52];
    check_readers(&data);
    let err = Nbt::read(&data, Variant::BedrockNetwork).unwrap_err();
    assert_eq!(
        err.kind(),
        &ErrorKind::StringTooLong {
            len: 1_348_849,
            max: 65535
        }
    );
    assert_eq!(err.offset(), Some(1));
}

/// An invalid name followed by a truncated payload: the owned reader reports the name, the borrowed one
/// (which decodes names only when asked) the missing bytes. Both must reject it.
#[test]
fn invalid_name_then_truncated_payload() {
    let data = [0x03, 0x00, 0x01, 0xef];
    check_readers(&data);
    let owned = Nbt::read(&data, Variant::Java).unwrap_err();
    assert_eq!(
        owned.kind(),
        &ErrorKind::InvalidString("truncated sequence")
    );
    let borrowed = Document::parse(&data, Variant::Java).err().unwrap();
    assert!(matches!(borrowed.kind(), ErrorKind::UnexpectedEof { .. }));
}

/// A Bedrock network Float root holding a NaN: `PartialEq` on the trees said the readers disagree; trees
/// are now compared by their encodings.
#[test]
fn nan_float_root() {
    let data = [0x05, 0x00, 0xff, 0xff, 0xff, 0xff];
    check_readers(&data);
    let nbt = Nbt::read(&data, Variant::BedrockNetwork).unwrap();
    assert!(matches!(nbt.tag, flatforge_nbt::Tag::Float(f) if f.is_nan()));
}

/// nbt_serde: `serde_nbt::from_bytes` did not look at the root name, so it accepted a root name that is
/// not modified UTF-8, which the readers refuse; it now checks the name and gives the readers' error.
#[test]
fn serde_checks_the_root_name() {
    use flatforge_nbt::serde_nbt::from_bytes;
    use flatforge_nbt::{Compound, Tag};
    // An empty compound named "\xffx".
    let data = [10, 0, 2, 0xff, b'x', 0];
    let read = Nbt::read(&data, Variant::Java).unwrap_err();
    for e in [
        from_bytes::<Tag>(&data, Variant::Java).unwrap_err(),
        from_bytes::<Compound>(&data, Variant::Java).unwrap_err(),
    ] {
        assert!(matches!(e.kind(), ErrorKind::InvalidString(_)), "{e}");
        assert_eq!(e.offset(), read.offset());
        assert_eq!(e.offset(), Some(3));
    }
    // The same compound with a valid name deserializes.
    let data = [10, 0, 2, b'x', b'x', 0];
    assert_eq!(
        from_bytes::<Compound>(&data, Variant::Java).unwrap(),
        Compound::new()
    );
}
