//! Feeds arbitrary bytes to every stream reader of flatforge-stream (slice, io::Read with several
//! read sizes, as framed, plain and auto-detected streams), checks that they all agree, verifies
//! every frame as a TelemetryEvent, and drives the index, seeking and recovery.
#![no_main]

use std::io::Cursor;

use flatforge_stream::{recover, Format, ReaderOptions, StreamReader, StreamSlice};
use libfuzzer_sys::fuzz_target;

#[path = "../../crates/flatforge-stream/tests/common/mod.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    for format in [Format::Framed, Format::Plain, Format::Auto] {
        // Small limits too, so that the length check is exercised on short inputs.
        for max in [64 << 20, 40] {
            let opts = ReaderOptions::default().format(format).max_frame_len(max);
            std::hint::black_box(common::read_all(data, &opts));
        }
    }
    let opts = ReaderOptions::default();
    if let Ok(stream) = StreamSlice::new(data, &opts) {
        if let Ok(index) = stream.index() {
            for n in [0, 1, index.len().saturating_sub(1), index.len()] {
                if let Ok(f) = index.frame(n) {
                    std::hint::black_box(f.root::<common::TelemetryEvent>().ok().map(common::read));
                }
            }
        }
    }
    if let Ok(mut r) = StreamReader::new(Cursor::new(data), &opts) {
        if let Ok(count) = r.frame_count() {
            for n in [count / 2, 0, count] {
                if r.seek_frame(n).is_ok() {
                    while let Ok(Some(f)) = r.next_frame() {
                        std::hint::black_box(f.payload().len());
                    }
                }
            }
        }
    }
    let recovered = recover(Cursor::new(data), &opts, |f| {
        f.root::<common::TelemetryEvent>().map(drop)
    });
    if let Ok(r) = recovered {
        assert!(r.valid_len <= r.original_len);
        if r.valid_len == 0 {
            // Only part of a header (or nothing) was there: nothing is kept, nothing to read back.
            assert_eq!(r.frames, 0);
            return;
        }
        // What recovery keeps reads back cleanly, with the same frames.
        let kept = &data[..r.valid_len as usize];
        let o = common::read_all(kept, &opts);
        assert_eq!(o.end, Ok(()), "a recovered stream ends cleanly");
        assert_eq!(o.frames.len() as u64, r.frames);
    }
});
