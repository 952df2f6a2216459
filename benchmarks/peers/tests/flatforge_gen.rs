//! flatforge's generated code on the peers' workloads: its buffers are read by every peer, and it
//! reads theirs.

use flatforge_bench_peers::flatbench::{self, cpp, official, planus, EXPECTED_SUM};
use flatforge_bench_peers::flatforge_gen::{flatbench as ours, objectbox as ours_ob};
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
