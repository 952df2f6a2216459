//! `StreamWriter::append` on a file holding arbitrary bytes: it either refuses and leaves the file
//! as it was, or keeps every frame it found (the bytes up to `frames_end` are unchanged; all of
//! them for a plain stream, from which nothing is cut) and the stream it leaves, with one more
//! message, reads back cleanly; a second append, abandoned, leaves that stream as it was.
#![no_main]

use flatforge_stream::{Checksum, Format, ReaderOptions, StreamSlice, StreamWriter, WriterOptions};
use libfuzzer_sys::fuzz_target;

#[path = "../../crates/flatforge-stream/tests/common/mod.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    let path = std::env::temp_dir().join(format!("ffs-fuzz-append-{}", std::process::id()));
    let framed = WriterOptions::default();
    for opts in [
        framed.clone(),
        framed.clone().checksum(Checksum::Crc32c).index(true),
        framed.checksum(Checksum::Xxh3),
        WriterOptions::default().format(Format::Plain),
    ] {
        std::fs::write(&path, data).expect("write the input");
        let (mut w, found) = match StreamWriter::append(&path, opts.clone()) {
            Ok(appending) => appending,
            Err(_) => {
                assert_eq!(std::fs::read(&path).expect("read"), data, "refused, yet changed");
                continue;
            }
        };
        w.write_with(|b| b.create_string("appended")).expect("write");
        w.finish().expect("finish");
        let after = std::fs::read(&path).expect("read");
        let kept = found.frames_end as usize;
        assert_eq!(after[..kept], data[..kept], "a kept frame changed");
        if opts.format == Format::Plain {
            assert_eq!(kept, data.len(), "something was cut from a plain stream");
        }
        let read = ReaderOptions::default().format(opts.format);
        let o = common::read_all(&after, &read);
        assert_eq!(o.end, Ok(()), "the appended stream ends cleanly");
        assert_eq!(o.frames.len() as u64, found.frames + 1);
        let stream = StreamSlice::new(&after, &read).expect("a stream");
        // (The frames found are checked for framing only: their messages may be anything.)
        let last = stream.frames().last().expect("a frame").expect("framed");
        assert_eq!(last.root::<&str>().expect("valid"), "appended");
        // An append taken back leaves the file as it was.
        let (mut w, _) = StreamWriter::append(&path, opts.clone()).expect("append again");
        w.write_with(|b| b.create_string("taken back")).expect("write");
        w.flush().expect("flush");
        w.write_with(|b| b.create_string("pending")).expect("write");
        w.abandon().expect("abandon");
        assert_eq!(std::fs::read(&path).expect("read"), after, "abandon changed the file");
    }
    let _ = std::fs::remove_file(&path);
});
