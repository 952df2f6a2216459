//! A stream written by one process and read by another, through a file: every message comes back;
//! and a writer that dies in the middle of a frame leaves a stream whose flushed frames all survive
//! recovery.
//!
//! The test binary is its own child process (`harness = false`): `cross_process child-write PATH
//! COUNT` writes a stream and exits, `cross_process child-crash PATH COUNT` flushes COUNT frames,
//! then dies (`abort`) half-way through writing one more.

mod common;

use std::cell::Cell;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::rc::Rc;

use common::{build, event, read, TelemetryEvent};
use flatforge_stream::{
    recover_file, Checksum, Error, ReaderOptions, StreamReader, StreamWriter, WriterOptions,
};

fn opts() -> WriterOptions {
    WriterOptions::default()
        .checksum(Checksum::Crc32c)
        .file_identifier(*b"TELE")
        .index(true)
}

fn child_write(path: &Path, count: u64) {
    let mut w = StreamWriter::new(File::create(path).expect("create"), opts()).expect("writer");
    for i in 0..count {
        w.write_with(|b| build(b, &event(i))).expect("write");
    }
    w.sync().expect("sync");
    w.finish().expect("finish");
}

/// Passes writes through until told to tear, then writes half of the next write and dies.
struct Tearing {
    file: File,
    tear: Rc<Cell<bool>>,
}

impl Write for Tearing {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.tear.get() {
            self.file.write_all(&buf[..buf.len() / 2])?;
            self.file.sync_all()?;
            std::process::abort();
        }
        self.file.write(buf)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.file.flush()
    }
}

fn child_crash(path: &Path, count: u64) {
    let tear = Rc::new(Cell::new(false));
    let sink = Tearing {
        file: File::create(path).expect("create"),
        tear: Rc::clone(&tear),
    };
    let mut w = StreamWriter::new(sink, opts()).expect("writer");
    for i in 0..count {
        w.write_with(|b| build(b, &event(i))).expect("write");
        if i % 7 == 6 {
            w.flush().expect("flush");
        }
    }
    w.flush().expect("flush");
    tear.set(true);
    w.write_with(|b| build(b, &event(count))).expect("written");
    let _ = w.flush();
    unreachable!("the tearing sink aborts the process");
}

fn run_child(mode: &str, path: &Path, count: u64) -> std::process::ExitStatus {
    Command::new(std::env::current_exe().expect("own path"))
        .arg(mode)
        .arg(path)
        .arg(count.to_string())
        .status()
        .expect("spawn the child")
}

fn read_back(path: &Path) -> (Vec<common::Event>, Result<(), Error>) {
    let mut r = StreamReader::new(File::open(path).expect("open"), &ReaderOptions::default())
        .expect("header");
    let mut events = Vec::new();
    let end = r
        .for_each(|f| {
            events.push(read(f.root::<TelemetryEvent>()?));
            Ok::<(), Error>(())
        })
        .map(drop);
    (events, end)
}

fn whole_stream(dir: &Path) {
    let path = dir.join("whole.ffs");
    let count = 10_000;
    assert!(run_child("child-write", &path, count).success());
    let (events, end) = read_back(&path);
    end.expect("a clean end");
    assert_eq!(events.len() as u64, count);
    for (i, e) in events.iter().enumerate() {
        assert_eq!(*e, event(i as u64));
    }
}

fn crash_mid_frame(dir: &Path) {
    let path = dir.join("crash.ffs");
    let count = 300;
    let status = run_child("child-crash", &path, count);
    assert!(!status.success(), "the child must die: {status:?}");
    let (events, end) = read_back(&path);
    let err = end.expect_err("a torn last frame");
    assert!(err.is_truncation(), "{err}");
    assert_eq!(err.frame(), Some(count));
    assert_eq!(events.len() as u64, count);
    let r = recover_file(&path, &ReaderOptions::default(), |f| {
        f.root::<TelemetryEvent>().map(drop)
    })
    .expect("recover");
    assert!(r.truncates());
    assert_eq!(r.frames, count);
    let (events, end) = read_back(&path);
    end.expect("a clean end after recovery");
    assert_eq!(events, (0..count).map(event).collect::<Vec<_>>());
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let [_, mode, path, count] = &args[..] {
        let count = count.parse().expect("a count");
        match mode.as_str() {
            "child-write" => return child_write(Path::new(path), count),
            "child-crash" => return child_crash(Path::new(path), count),
            _ => {}
        }
    }
    let dir: PathBuf = std::env::temp_dir().join(format!("ffs-xproc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    whole_stream(&dir);
    crash_mid_frame(&dir);
    std::fs::remove_dir_all(&dir).expect("clean up");
    println!("cross_process: whole_stream ok, crash_mid_frame ok");
}
