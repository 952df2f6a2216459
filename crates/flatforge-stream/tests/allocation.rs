//! A frame length that claims far more bytes than the input holds does not make a reader allocate
//! them: `StreamReader` and `recover` (which reads with no length limit) grow their buffer with the
//! bytes that arrive. Found by the `stream_append` fuzz target (an out-of-memory abort in
//! `recover` on a 596-byte plain stream whose frame claimed 2 GiB). A large frame that does
//! arrive in small reads still costs a few doublings of the buffer, not one growth per read.

use std::alloc::{GlobalAlloc, Layout, System};
use std::io::Cursor;
use std::sync::atomic::{AtomicUsize, Ordering};

use flatforge_stream::{recover, Format, ReaderOptions, StreamReader, StreamWriter, WriterOptions};

/// The system allocator, recording the largest block asked for.
struct Largest;

static LARGEST: AtomicUsize = AtomicUsize::new(0);

/// Allocations of 64 KiB or more.
static BIG: AtomicUsize = AtomicUsize::new(0);

fn record(size: usize) {
    LARGEST.fetch_max(size, Ordering::Relaxed);
    if size >= 64 << 10 {
        BIG.fetch_add(1, Ordering::Relaxed);
    }
}

// SAFETY: every call is forwarded to `System` with the caller's arguments.
unsafe impl GlobalAlloc for Largest {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        record(layout.size());
        // SAFETY: the caller's contract for `alloc`, forwarded.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        record(layout.size());
        // SAFETY: the caller's contract for `alloc_zeroed`, forwarded.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System` with `layout` (every allocation here does).
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        record(new_size);
        // SAFETY: the caller's contract for `realloc`, forwarded.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Largest = Largest;

/// The largest allocation made by `f`.
fn largest_allocation(f: impl FnOnce()) -> usize {
    LARGEST.store(0, Ordering::Relaxed);
    f();
    LARGEST.load(Ordering::Relaxed)
}

/// The allocations of 64 KiB or more made by `f`.
fn big_allocations(f: impl FnOnce()) -> usize {
    BIG.store(0, Ordering::Relaxed);
    f();
    BIG.load(Ordering::Relaxed)
}

/// Hands out at most 4 KiB per read.
struct Trickle<'a>(&'a [u8]);

impl std::io::Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = buf.len().min(self.0.len()).min(4096);
        buf[..n].copy_from_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        Ok(n)
    }
}

const CLAIMED: u32 = 0x7FFF_FFF0;

/// A framed stream's header, then a frame header claiming `CLAIMED` bytes and 100 bytes of them.
fn framed_claiming_2_gib() -> Vec<u8> {
    let mut bytes = StreamWriter::new(Vec::new(), WriterOptions::default())
        .unwrap()
        .finish()
        .unwrap();
    bytes.extend_from_slice(&CLAIMED.to_le_bytes());
    bytes.extend_from_slice(&(!CLAIMED).to_le_bytes());
    bytes.extend_from_slice(&[0; 100]);
    bytes
}

/// A plain stream: one small size-prefixed buffer, then a size prefix claiming `CLAIMED` bytes.
fn plain_claiming_2_gib() -> Vec<u8> {
    let mut b = flatforge::Builder::new();
    let s = b.create_string("first").unwrap();
    let mut bytes = b.finish_size_prefixed(s, None).unwrap().to_vec();
    bytes.extend_from_slice(&CLAIMED.to_le_bytes());
    bytes.extend_from_slice(&[0; 400]);
    bytes
}

#[test]
fn claimed_lengths_cost_memory_only_as_their_bytes_arrive() {
    // (One test: the allocator's record is shared by the whole process.)
    const LIMIT: usize = 1 << 20;
    let unlimited = ReaderOptions::default().max_frame_len(usize::MAX);
    for (bytes, format) in [
        (framed_claiming_2_gib(), Format::Framed),
        (plain_claiming_2_gib(), Format::Plain),
    ] {
        let opts = unlimited.clone().format(format);
        let largest = largest_allocation(|| {
            let mut r = StreamReader::new(&bytes[..], &opts).unwrap();
            let mut frames = 0;
            let err = loop {
                match r.next_frame() {
                    Ok(Some(_)) => frames += 1,
                    Ok(None) => panic!("the claimed frame is cut short"),
                    Err(e) => break e,
                }
            };
            assert!(err.is_truncation(), "{err}");
            assert_eq!(frames, usize::from(format == Format::Plain));
        });
        assert!(largest < LIMIT, "{format:?}: a {largest}-byte allocation");
        let largest = largest_allocation(|| {
            let found = recover(Cursor::new(&bytes), &opts, |_| Ok(())).unwrap();
            assert!(found.truncates());
        });
        assert!(
            largest < LIMIT,
            "{format:?} recover: a {largest}-byte allocation"
        );
    }

    // A 16 MiB frame read 4 KiB at a time: the buffer doubles its way up (about 10 times).
    let payload = vec![7u8; 16 << 20];
    let mut w = StreamWriter::new(Vec::new(), WriterOptions::default()).unwrap();
    w.write_with(|b| b.create_vector(&payload)).unwrap();
    let stream = w.finish().unwrap();
    let big = big_allocations(|| {
        let mut r = StreamReader::new(Trickle(&stream), &ReaderOptions::default()).unwrap();
        let frame = r.next_frame().unwrap().unwrap();
        assert_eq!(
            frame.root::<flatforge::Vector<u8>>().unwrap().len(),
            16 << 20
        );
    });
    assert!(big <= 16, "{big} allocations of 64 KiB or more");
}
