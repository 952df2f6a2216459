//! Writes a large flatbench JSON document (bench.fbs, a `FooBarContainer` whose `list` holds N
//! tables; 139,000 give about 50 MB) for whole-process comparisons with flatc:
//!
//! ```sh
//! cargo run --release -p flatforge-bench-json --example big_json -- big.json 139000
//! hyperfine -N "flatforge binary -s bench.fbs big.json -o big.bin" "flatc -b -o out bench.fbs big.json"
//! hyperfine -N "flatforge json -s bench.fbs big.bin -o big.out.json" \
//!     "flatc -t --strict-json --raw-binary -o out bench.fbs -- big.bin"
//! ```

use std::io::{BufWriter, Write};

// 3.14159 is the workload's value (WORKLOADS.md §1), not an approximation of π.
#[allow(clippy::approx_constant)]
fn main() -> std::io::Result<()> {
    let mut args = std::env::args().skip(1);
    let path = args.next().unwrap_or_else(|| "big.json".into());
    let n: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(139_000);
    let mut out = BufWriter::new(std::fs::File::create(&path)?);
    writeln!(out, "{{\n  \"list\": [")?;
    for i in 0..n {
        let k = i % 1000;
        let sep = if i + 1 < n { "," } else { "" };
        write!(
            out,
            "    {{\n      \"sibling\": {{\n        \"parent\": {{\n          \"id\": {},\n          \
             \"count\": {},\n          \"prefix\": {},\n          \"length\": {}\n        }},\n        \
             \"time\": {},\n        \"ratio\": {},\n        \"size\": {}\n      }},\n      \
             \"name\": \"Hello, World! {i}\",\n      \"rating\": {},\n      \"postfix\": {}\n    }}{sep}\n",
            0xABAD_CAFE_ABAD_CAFEu64.wrapping_add(i),
            10_000 + k,
            64 + i % 60,
            1_000_000 + i,
            123_456 + i,
            3.14159f32 + k as f32,
            10_000 + k,
            3.141_543_243_244_554_4f64 + k as f64,
            33 + i % 90,
        )?;
    }
    writeln!(
        out,
        "  ],\n  \"initialized\": true,\n  \"fruit\": \"Bananas\",\n  \"location\": \"http://google.com/flatbuffers/\"\n}}"
    )?;
    out.flush()
}
