//! flatforge's generated code on the peers' workloads: its buffers are read by every peer, and it
//! reads theirs.

use flatforge_bench_peers::flatbench::{self, cpp, official, planus, EXPECTED_SUM};
use flatforge_bench_peers::flatforge_gen::{flatbench as ours, objectbox as ours_ob};
use flatforge_bench_peers::monster;
use flatforge_bench_peers::objectbox::{self, Variant};

#[test]
fn flatbench_buffers_are_read_by_every_peer_and_theirs_by_flatforge() {
    let mut encoder = ours::Encoder::new();
    let buf = encoder.encode().to_vec();
    assert_eq!(ours::verify_traverse(&buf).unwrap(), EXPECTED_SUM);
    assert_eq!(official::verify_traverse(&buf).unwrap(), EXPECTED_SUM);
    assert_eq!(planus::traverse(&buf).unwrap(), EXPECTED_SUM);
    assert_eq!(cpp::traverse(&buf).unwrap(), EXPECTED_SUM);
    for theirs in [
        flatbench::buffer(),
        planus::Encoder::new().encode().to_vec(),
        cpp::Encoder::new().encode().to_vec(),
    ] {
        assert_eq!(ours::verify_traverse(&theirs).unwrap(), EXPECTED_SUM);
        ours::verify(&theirs).unwrap();
        // SAFETY: verified just above.
        assert_eq!(unsafe { ours::traverse(&theirs) }, EXPECTED_SUM);
    }
    // A cut buffer fails verification, unless only trailing padding was cut.
    for cut in 0..buf.len() {
        if let Ok(sum) = ours::verify_traverse(&buf[..cut]) {
            assert_eq!(sum, EXPECTED_SUM, "cut at {cut}");
            assert!(buf[cut..].iter().all(|&b| b == 0), "cut at {cut}");
        }
    }
}

#[test]
fn objectbox_buffers_are_read_by_every_peer_and_theirs_by_flatforge() {
    for variant in Variant::ALL {
        let expected = variant.expected();
        let mut writer = ours_ob::Writer::new();
        let buf = writer.write(variant).to_vec();
        assert_eq!(ours_ob::read_verified(&buf).unwrap(), expected);
        assert_eq!(objectbox::official::read_verified(&buf).unwrap(), expected);
        assert_eq!(objectbox::planus::read(&buf).unwrap(), expected);
        assert_eq!(objectbox::cpp::read(&buf).unwrap(), expected);
        let theirs = objectbox::official::Writer::new().write(variant).to_vec();
        assert_eq!(ours_ob::read_verified(&theirs).unwrap(), expected);
        // SAFETY: verified just above.
        assert_eq!(unsafe { ours_ob::read(&theirs) }, expected);
    }
}

/// Whether a rejection is one of the checks the verifier makes beyond Google's C++ verifier (see
/// the `flatforge::verify` module docs): strings must be UTF-8, tables must lie in the buffer and
/// their fields in the table, vtables and tables must be large enough for their own headers, a
/// vector's elements must be aligned, a vector's element offset may not be 0, and a union's type
/// and value come together.
fn stricter_than_cpp(e: &flatforge::Error) -> bool {
    use flatforge::{ErrorKind, Object};
    matches!(
        e.kind(),
        ErrorKind::InvalidUtf8 { .. }
            | ErrorKind::OutOfBounds {
                object: Object::Table,
                ..
            }
            | ErrorKind::FieldOutOfTable { .. }
            | ErrorKind::InvalidTableSize { .. }
            | ErrorKind::InvalidVtableSize { .. }
            | ErrorKind::InvalidOffset { value: 0 }
            | ErrorKind::UnionTypeWithoutValue { .. }
            | ErrorKind::UnionValueWithoutType
            | ErrorKind::Unaligned {
                object: Object::Vector,
                ..
            }
    )
}

/// A reference verifier: whether it accepts the bytes.
type Verdict = dyn Fn(&[u8]) -> bool;

/// `good` with one to three bytes set to random values, and now and then cut.
fn mutated(rng: &mut flatforge_testkit::SplitMix64, good: &[u8]) -> Vec<u8> {
    let mut buf = good.to_vec();
    for _ in 0..1 + rng.below(3) {
        let at = rng.below(buf.len());
        buf[at] = match rng.below(4) {
            0 => 0,
            1 => 0xFF,
            2 => buf[at] ^ (1 << rng.below(8)),
            _ => rng.next_u64() as u8,
        };
    }
    if rng.below(10) == 0 {
        buf.truncate(rng.below(buf.len()));
    }
    buf
}

/// Verifies `cases` mutations of `good` with `ours` and with the reference verifiers (`others`,
/// C++ first): ours accepts none they reject (unless `excused`), and rejects those C++ accepts
/// only by its stricter checks. Returns how many ours rejected that C++ accepted.
fn never_more_lenient(
    good: &[u8],
    cases: usize,
    ours: impl Fn(&[u8]) -> Result<(), flatforge::Error>,
    others: &[&Verdict],
    excused: impl Fn(&[u8]) -> bool,
) -> usize {
    let mut rng = flatforge_testkit::SplitMix64::new(0x5eed);
    let mut differ = Vec::new();
    let (mut accepted, mut stricter) = (0, 0);
    for case in 0..cases {
        let buf = mutated(&mut rng, good);
        let verdict = ours(&buf);
        let theirs: Vec<bool> = others.iter().map(|verify| verify(&buf)).collect();
        let fine = match &verdict {
            Ok(()) => theirs.iter().all(|&ok| ok) || excused(&buf),
            // (The official crate accepts some misaligned structs that C++ and we reject.)
            Err(e) if theirs[0] => stricter_than_cpp(e),
            Err(_) => true,
        };
        accepted += usize::from(verdict.is_ok());
        stricter += usize::from(verdict.is_err() && theirs[0]);
        if !fine && differ.len() < 10 {
            let changed: Vec<String> = (0..buf.len().min(good.len()))
                .filter(|&i| buf[i] != good[i])
                .map(|i| format!("[{i}] {:#04x} -> {:#04x}", good[i], buf[i]))
                .collect();
            differ.push(format!(
                "case {case}: we {verdict:?}, they {theirs:?}; {} of {} bytes, changed {}",
                buf.len(),
                good.len(),
                changed.join(", ")
            ));
        }
    }
    assert!(differ.is_empty(), "{}", differ.join("\n"));
    // Both verdicts are common.
    assert!(
        accepted > cases / 10 && accepted < cases * 9 / 10,
        "{accepted} of {cases} accepted"
    );
    stricter
}

/// Mutated flatbench buffers: the generated verifier accepts none that Google's C++ verifier or
/// the official Rust crate's rejects, and rejects those C++ accepts only by its stricter checks.
#[test]
fn flatbench_verifier_is_never_more_lenient_than_cpp_or_official() {
    let official_ok = |buf: &[u8]| official::verify(buf).is_ok();
    let stricter = never_more_lenient(
        &flatbench::buffer(),
        40_000,
        ours::verify,
        &[&cpp::verify, &official_ok],
        |_| false,
    );
    // Most of them UTF-8: many mutations land in the strings.
    assert!(
        stricter > 2_000,
        "{stricter} rejected by stricter checks only"
    );
}

/// The same on monster_test's golden buffer (unions, nested flatbuffers, vectors of structs,
/// tables and strings), against C++; except that C++ also verifies the FlexBuffer of the `flex`
/// field, which flatforge's verifier takes as bytes (its FlexBuffer reader checks them).
#[test]
fn monster_verifier_is_never_more_lenient_than_cpp() {
    let stricter = never_more_lenient(
        &monster::buffer(),
        40_000,
        monster::verify,
        &[&monster::cpp_verify],
        monster::has_invalid_flexbuffer,
    );
    assert!(stricter > 0, "no rejection by stricter checks only");
}
