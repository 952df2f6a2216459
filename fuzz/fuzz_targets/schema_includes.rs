//! Fuzzes include handling: the input is split at 0xFE bytes into up to four in-memory files
//! (`a.fbs`, `b.fbs`, `sub/c.fbs`, `d.fbs`) that may include each other (cycles, repeats,
//! missing files); `a.fbs` is compiled with `sub` as include directory. Nothing may panic.
#![no_main]

use flatforge_schema::{Compiler, MemoryLoader};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let names = ["a.fbs", "b.fbs", "sub/c.fbs", "d.fbs"];
    let mut loader = MemoryLoader::new();
    for (name, part) in names.iter().zip(data.split(|&b| b == 0xFE)) {
        loader.insert(name, part);
    }
    match Compiler::new(loader).include_dir("sub").compile("a.fbs") {
        Ok(compiled) => {
            assert!(!compiled.schema.files.is_empty());
            let _ = flatforge_schema::render(&compiled.warnings, &compiled.sources, false);
        }
        Err(err) => {
            let _ = err.render(false);
        }
    }
});
