//! The object API workload: every implementation reads every implementation's Person, and
//! rejects a cut one.

use flatforge_bench_peers::person::{flatforge, official, planus};

#[test]
fn every_reader_reads_every_writer() {
    let buffers = [
        ("flatforge", flatforge::Writer::new().write().to_vec()),
        ("official", official::Writer::new().write().to_vec()),
        ("planus", planus::Writer::new().write().to_vec()),
    ];
    for (who, buf) in &buffers {
        assert!(
            flatforge::matches(&flatforge::read(buf).unwrap()),
            "flatforge on {who}'s"
        );
        assert!(
            official::matches(&official::read(buf).unwrap()),
            "official on {who}'s"
        );
        assert!(
            planus::matches(&planus::read(buf).unwrap()),
            "planus on {who}'s"
        );
    }
}

#[test]
fn writers_reuse_their_builder() {
    let mut w = flatforge::Writer::new();
    let first = w.write().to_vec();
    assert_eq!(w.write(), first.as_slice());
    let mut w = official::Writer::new();
    let first = w.write().to_vec();
    assert_eq!(w.write(), first.as_slice());
}

#[test]
fn cut_buffers_are_rejected() {
    let buf = flatforge::Writer::new().write().to_vec();
    for cut in 0..buf.len() {
        let cut_buf = &buf[..cut];
        // What still verifies after a cut (only trailing padding removed) must read the same.
        if let Ok(p) = flatforge::read(cut_buf) {
            assert!(flatforge::matches(&p), "cut at {cut}");
            assert!(buf[cut..].iter().all(|&b| b == 0), "cut at {cut}");
        }
    }
    assert!(flatforge::read(&buf[..4]).is_err());
}
