//! Every peer on every workload gives the same result: the flatbench traverse sum, the ObjectBox
//! fields, the stream summaries, and the buffer sizes and bytes the workloads quote. Every buffer is
//! read back by every peer's reader, so a peer that builds or reads wrongly fails here.

use flatforge_bench_peers::flatbench::{self, cpp, official, planus, CPP_BUFFER_LEN, EXPECTED_SUM};
use flatforge_bench_peers::objectbox::{self, Variant};
use flatforge_bench_peers::streams::{self, baseline, Checksum, StreamError, Summary};
use std::ffi::CString;

/// Every flatbench reader on `buf`.
fn assert_flatbench_reads(buf: &[u8], who: &str) {
    official::verify(buf).unwrap_or_else(|e| panic!("official rejects {who}'s buffer: {e}"));
    assert_eq!(
        official::verify_traverse(buf).unwrap(),
        EXPECTED_SUM,
        "official on {who}"
    );
    // SAFETY: verified above.
    let unchecked = unsafe { official::traverse(buf) };
    assert_eq!(unchecked, EXPECTED_SUM, "official on {who}");
    assert_eq!(
        planus::traverse(buf).unwrap(),
        EXPECTED_SUM,
        "planus on {who}"
    );
    assert!(cpp::verify(buf), "C++ rejects {who}'s buffer");
    assert_eq!(cpp::traverse(buf).unwrap(), EXPECTED_SUM, "C++ on {who}");
    assert_eq!(
        cpp::verify_traverse(buf),
        Some(EXPECTED_SUM),
        "C++ on {who}"
    );
}

fn occurrences(haystack: &[u8], needle: &[u8]) -> usize {
    haystack
        .windows(needle.len())
        .filter(|w| *w == needle)
        .count()
}

#[test]
fn every_flatbench_buffer_reads_back_to_the_expected_sum_everywhere() {
    assert_eq!(flatbench::sum_of_data(), EXPECTED_SUM);
    let official = official::Encoder::new().encode().to_vec();
    let planus = planus::Encoder::new().encode().to_vec();
    let cpp = cpp::Encoder::new().encode().to_vec();
    for (who, buf) in [("official", &official), ("planus", &planus), ("C++", &cpp)] {
        assert_flatbench_reads(buf, who);
        // "Hello, World!" is a new string each time: three copies, never shared.
        assert_eq!(
            occurrences(buf, b"Hello, World!\0"),
            3,
            "{who} shares strings"
        );
    }
    assert_eq!(flatbench::buffer(), official);
}

#[test]
fn flatbench_buffer_sizes_match_the_published_ones() {
    let cpp = cpp::Encoder::new().encode().to_vec();
    assert_eq!(
        cpp.len(),
        CPP_BUFFER_LEN,
        "WORKLOADS.md: Google's C++ builds 344 bytes"
    );
    // The official crate is a port of the C++ builder: the same bytes.
    assert_eq!(official::Encoder::new().encode(), cpp.as_slice());
    // planus lays tables out in its own order and pads less.
    assert_eq!(planus::Encoder::new().encode().len(), 310);
}

#[test]
fn flatbench_encoders_reset_their_builder() {
    let mut official = official::Encoder::new();
    let first = official.encode().to_vec();
    assert_eq!(official.encode(), first.as_slice());
    let mut planus = planus::Encoder::new();
    let first = planus.encode().to_vec();
    assert_eq!(planus.encode(), first.as_slice());
    let mut cpp = cpp::Encoder::new();
    let first = cpp.encode().to_vec();
    assert_eq!(cpp.encode(), first.as_slice());
}

#[test]
fn flatbench_verifiers_reject_truncated_buffers() {
    let buf = flatbench::buffer();
    // The buffer ends with the first "Hello, World!" and 2 bytes of padding after its NUL.
    let padding = 2;
    for len in 0..buf.len() - padding {
        let cut = &buf[..len];
        assert!(
            official::verify(cut).is_err(),
            "official accepts {len} bytes"
        );
        assert!(!cpp::verify(cut), "C++ accepts {len} bytes");
        assert_eq!(cpp::verify_traverse(cut), None, "C++ accepts {len} bytes");
        assert!(cpp::traverse(cut).is_err(), "C++ traverses {len} bytes");
        assert!(
            cpp::time_traverse(cut, 1).is_err(),
            "C++ loops over {len} bytes"
        );
        // planus does not check the NUL terminator (its `extra-validation` feature is off), so it
        // also accepts the buffer without it.
        if len < buf.len() - padding - 1 {
            assert!(planus::traverse(cut).is_err(), "planus accepts {len} bytes");
        }
    }
}

#[test]
fn flatbench_verifiers_reject_a_corrupted_offset() {
    let mut buf = flatbench::buffer();
    // The root offset pointing past the end.
    buf[..4].copy_from_slice(&1000u32.to_le_bytes());
    assert!(official::verify(&buf).is_err());
    assert!(!cpp::verify(&buf));
    assert!(planus::traverse(&buf).is_err());
}

#[test]
fn cpp_json_matches_flatc_and_round_trips() {
    let buf = flatbench::buffer();
    let mut json = cpp::Json::new().unwrap();
    let text = json.print(&buf).unwrap().to_owned();

    // The same text as the reference flatc binary prints for the same bytes.
    let dir = std::env::temp_dir().join(format!("flatforge-peers-json-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bin = dir.join("flatbench.bin");
    std::fs::write(&bin, &buf).unwrap();
    let schema = flatforge_testkit::testdata("flatbuffers/benchmarks/cpp/flatbuffers/bench.fbs");
    let out = flatforge_testkit::flatc()
        .args(["--json", "--strict-json", "--raw-binary", "-o"])
        .arg(&dir)
        .arg(&schema)
        .arg("--")
        .arg(&bin)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let expected = std::fs::read_to_string(dir.join("flatbench.json")).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(text, expected);

    let c_text = CString::new(text.clone()).unwrap();
    let parsed = json.parse(&c_text).unwrap().to_vec();
    assert_flatbench_reads(&parsed, "flatc's JSON parser");
    assert_eq!(json.print(&parsed).unwrap(), text);

    let bad = CString::new("{ \"list\": [ { \"name\": 12 ").unwrap();
    assert!(matches!(json.parse(&bad), Err(cpp::CppError::Parse(_))));
    assert!(matches!(
        json.print(&buf[..100]),
        Err(cpp::CppError::InvalidBuffer)
    ));
    assert!(json.time_print(&buf[..100], 1).is_err());
    assert!(json.time_print(&buf, 3).is_ok());
    json.time_parse(&c_text, 3);
}

#[test]
fn every_objectbox_buffer_reads_back_everywhere() {
    for variant in Variant::ALL {
        let expected = variant.expected();
        let official = objectbox::official::Writer::new().write(variant).to_vec();
        let planus = objectbox::planus::Writer::new().write(variant).to_vec();
        let cpp = objectbox::cpp::Writer::new().write(variant).to_vec();
        for (who, buf) in [("official", &official), ("planus", &planus), ("C++", &cpp)] {
            let from = format!("{who}'s {variant:?}");
            assert_eq!(
                objectbox::official::read_verified(buf).unwrap(),
                expected,
                "official on {from}"
            );
            // SAFETY: verified just above.
            let unchecked = unsafe { objectbox::official::read(buf) };
            assert_eq!(unchecked, expected, "official on {from}");
            assert_eq!(
                objectbox::planus::read(buf).unwrap(),
                expected,
                "planus on {from}"
            );
            assert_eq!(
                objectbox::cpp::read(buf).unwrap(),
                expected,
                "C++ on {from}"
            );
            assert!(objectbox::cpp::time_read(buf, 2).is_ok());
        }
        assert_eq!(official, cpp, "the official crate builds the C++ bytes");
        let sizes = [official.len(), planus.len()];
        match variant {
            Variant::WithoutBytes => assert_eq!(sizes, [48, 48]),
            Variant::WithBytes => assert_eq!(sizes, [72, 62]),
        }
        assert!(objectbox::cpp::read(&cpp[..cpp.len() - 8]).is_err());
        assert!(objectbox::cpp::time_read(&cpp[..cpp.len() - 8], 1).is_err());
        assert!(objectbox::official::read_verified(&cpp[..cpp.len() - 8]).is_err());
        assert!(objectbox::planus::read(&cpp[..cpp.len() - 8]).is_err());
    }
}

#[test]
fn objectbox_writers_reuse_their_builder_across_variants() {
    let mut writer = objectbox::cpp::Writer::new();
    let with = writer.write(Variant::WithBytes).to_vec();
    let without = writer.write(Variant::WithoutBytes).to_vec();
    assert_eq!(with, writer.write(Variant::WithBytes));
    assert_eq!(objectbox::cpp::read(&without).unwrap().data, None);
    writer.time_write(Variant::WithoutBytes, 3);
    assert_eq!(writer.write(Variant::WithoutBytes), without.as_slice());
}

#[test]
fn streams_round_trip_with_every_checksum() {
    for checksum in Checksum::ALL {
        let mut writer = baseline::Writer::new(checksum);
        let mut stream = Vec::new();
        for (count, large) in [(100, false), (1000, false), (50, true)] {
            writer.write_events(&mut stream, count, large);
            let summary = baseline::read_events(&stream, checksum).unwrap();
            assert_eq!(
                summary,
                Summary::expected(count, large),
                "{checksum:?} {count} {large}"
            );
        }
        // 100 small events: 4776 bytes of payload, and a header of 4 + checksum bytes each.
        writer.write_events(&mut stream, 100, false);
        assert_eq!(stream.len(), 4776 + 100 * (4 + checksum.len()));
    }
}

#[test]
fn stream_summaries_cover_every_field() {
    let summary = Summary::expected(4, true);
    assert_eq!(summary.messages, 4);
    assert_eq!(summary.device_ids, 6);
    assert_eq!(summary.timestamps, 4 * streams::BASE_TIMESTAMP + 6);
    assert_eq!(summary.values, 9.0);
    assert_eq!(summary.payload_bytes, 4 * 4096);
}

#[test]
fn stream_readers_report_where_a_stream_is_broken() {
    let mut stream = Vec::new();
    baseline::Writer::new(Checksum::Xxh3).write_events(&mut stream, 3, false);
    let frame = 4 + 8 + u32::from_le_bytes(stream[..4].try_into().unwrap()) as usize;

    let mut flipped = stream.clone();
    flipped[frame + 20] ^= 0x40;
    let err = baseline::read_events(&flipped, Checksum::Xxh3).unwrap_err();
    assert!(
        matches!(err, StreamError::ChecksumMismatch { offset } if offset == frame),
        "{err}"
    );

    let err = baseline::read_events(&stream[..stream.len() - 1], Checksum::Xxh3).unwrap_err();
    assert!(matches!(err, StreamError::Truncated { .. }), "{err}");
    let err = baseline::read_events(&stream[..2], Checksum::Xxh3).unwrap_err();
    assert!(matches!(err, StreamError::Truncated { offset: 0 }), "{err}");

    // Without a checksum, the verifier catches a broken payload.
    let mut plain = Vec::new();
    baseline::Writer::new(Checksum::None).write_events(&mut plain, 2, false);
    plain[4..8].copy_from_slice(&1000u32.to_le_bytes());
    let err = baseline::read_events(&plain, Checksum::None).unwrap_err();
    assert!(
        matches!(err, StreamError::Invalid { offset: 0, .. }),
        "{err}"
    );
}
