//! Figures published by others for the workloads of WORKLOADS.md, with their sources. They were
//! not measured by our runs (different hardware, and sometimes a lighter workload: see each
//! [`Published::note`]); the report prints them beside the groups they belong to, never in ratios.

/// One published figure.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Published {
    /// The group it corresponds to, `<workload>/<operation>`.
    pub group: &'static str,
    /// Who was measured.
    pub implementation: &'static str,
    /// Lowest published time per operation, nanoseconds.
    pub low_ns: f64,
    /// Highest published time (the same as `low_ns` for a single figure).
    pub high_ns: f64,
    /// Where it was measured.
    pub hardware: &'static str,
    /// Where it was published.
    pub source: &'static str,
    /// How the published workload differs from ours, if it does.
    pub note: &'static str,
}

const WORKLOADS_MD: &str = "../shared/WORKLOADS.md §1";
const THIS_KIND: &str = "a machine like this one";
const MOONBIT: &str = "FlatBuffers.mbt (MoonBit), as quoted in ../shared/WORKLOADS.md §2";
const MOONBIT_BUILD: &str =
    "the range over its five build workloads; it does not say which is which";
const MOONBIT_JSON: &str =
    "its one \"json\" figure, which does not say whether it prints or parses";
const DOTNET: &str = "CoPokBl/NBT (.NET 8), Benchmarks/NbtBenchmarks.cs, as quoted in \
     ../shared/WORKLOADS.md §5";
const DOTNET_HARDWARE: &str = "AMD EPYC 7763 (CoPokBl/NBT's published baseline)";
const FLATSTREAM_CMP: &str =
    "flatstream-rs docs/benchmark/BENCHMARK_COMPARISON.md, \"V2 Results\" \
     (github.com/dallasmarlow/flatstream-rs, commit 09bdd26)";
const FLATSTREAM_GUIDE: &str = "flatstream-rs docs/benchmark/BENCHMARKING_GUIDE.md, \"Sample \
     Results\" (github.com/dallasmarlow/flatstream-rs, commit 09bdd26)";
const APPLE: &str = "Apple Silicon MacBook Pro (flatstream-rs README)";
const FLATSTREAM_EVENT: &str = "its event is a 24-byte [ubyte] vector, not a table";
const FLATSTREAM_READ: &str = "its event is a 24-byte [ubyte] vector, not a table; the read \
     deframes and counts messages without reading any field";

const FLATSTREAM_FRAMES: &str =
    "its read benchmark, the same operation as this group's: deframe and \
     count without reading any field (its event is a 24-byte [ubyte] vector)";

const FLATSTREAM_VECTORS: &str = "its write benchmark, the same operation as this group's: each \
     event as a 24-byte [ubyte] vector, built and framed (it also allocates the 24 bytes and a new \
     output Vec each time)";

const fn one(
    group: &'static str,
    implementation: &'static str,
    ns: f64,
    hardware: &'static str,
    source: &'static str,
    note: &'static str,
) -> Published {
    Published {
        group,
        implementation,
        low_ns: ns,
        high_ns: ns,
        hardware,
        source,
        note,
    }
}

/// A MoonBit figure range (unknown hardware).
const fn range(
    group: &'static str,
    implementation: &'static str,
    low_ns: f64,
    high_ns: f64,
    note: &'static str,
) -> Published {
    Published {
        group,
        implementation,
        low_ns,
        high_ns,
        hardware: "unknown",
        source: MOONBIT,
        note,
    }
}

/// A figure of the .NET NBT benchmark, whose tags the `dotnet_*` workloads rebuild.
const fn dotnet(group: &'static str, ns: f64) -> Published {
    one(
        group,
        ".NET NBT",
        ns,
        DOTNET_HARDWARE,
        DOTNET,
        "a new array per write, where ours append to a reused buffer",
    )
}

/// Every published figure we compare with.
///
/// ```
/// use flatforge_bench_report::published::PUBLISHED;
/// let cpp = PUBLISHED.iter().find(|p| p.group == "flatbench/traverse" && p.implementation == "cpp");
/// assert_eq!(cpp.unwrap().low_ns, 18.0);
/// ```
pub const PUBLISHED: &[Published] = &[
    one("flatbench/encode", "planus", 126.0, THIS_KIND, WORKLOADS_MD, ""),
    one("flatbench/encode", "cpp", 207.0, THIS_KIND, WORKLOADS_MD, ""),
    one("flatbench/encode", "official", 238.0, THIS_KIND, WORKLOADS_MD, ""),
    one("flatbench/traverse", "cpp", 18.0, THIS_KIND, WORKLOADS_MD, ""),
    one("flatbench/traverse", "official", 38.0, THIS_KIND, WORKLOADS_MD, "unchecked"),
    one("flatbench/traverse", "planus", 81.0, THIS_KIND, WORKLOADS_MD, ""),
    one("flatbench/verify_traverse", "official", 376.0, THIS_KIND, WORKLOADS_MD, ""),
    one(
        "flatbench/json_print",
        "flatcc",
        940.0,
        THIS_KIND,
        "flatcc's JSON benchmark, as quoted in ../shared/WORKLOADS.md §1",
        "flatcc's printer (not runnable here: no package ships its sources)",
    ),
    one(
        "flatbench/json_parse",
        "flatcc",
        1580.0,
        THIS_KIND,
        "flatcc's JSON benchmark, as quoted in ../shared/WORKLOADS.md §1",
        "flatcc's parser (not runnable here: no package ships its sources)",
    ),
    one(
        "objectbox/write_without_bytes",
        "ObjectBox Go",
        128.0,
        "unknown",
        "../shared/WORKLOADS.md §3",
        "ObjectBox's Go builder; the figure does not say which variant",
    ),
    Published {
        group: "objectbox/write_without_bytes",
        implementation: "ObjectBox Dart",
        low_ns: 300.0,
        high_ns: 400.0,
        hardware: "unknown",
        source: "../shared/WORKLOADS.md §3",
        note: "ObjectBox's Dart builder; the figure does not say which variant",
    },
    Published {
        group: "objectbox/read_without_bytes",
        implementation: "ObjectBox Go",
        low_ns: 80.0,
        high_ns: 100.0,
        hardware: "unknown",
        source: "../shared/WORKLOADS.md §3",
        note: "ObjectBox's Go reader; the figure does not say which variant",
    },
    range("mbt/build/simple_table", "MoonBit", 230.0, 500.0, MOONBIT_BUILD),
    range("mbt/build/string_vector", "MoonBit", 230.0, 500.0, MOONBIT_BUILD),
    range("mbt/build/byte_vector", "MoonBit", 230.0, 500.0, MOONBIT_BUILD),
    range("mbt/build/shared_strings", "MoonBit", 230.0, 500.0, MOONBIT_BUILD),
    range("mbt/build/nested_table", "MoonBit", 230.0, 500.0, MOONBIT_BUILD),
    one("mbt/read/simple_table", "MoonBit", 70.0, "unknown", MOONBIT, ""),
    one("mbt/read/byte_vector_slice", "MoonBit", 50.0, "unknown", MOONBIT, "its \"bulk bytes\" read"),
    one("mbt/read/nested_table", "MoonBit", 140.0, "unknown", MOONBIT, ""),
    one("mbt/build/object_api_person", "MoonBit", 300.0, "unknown", MOONBIT, ""),
    one("mbt/read/object_api_person", "MoonBit", 110.0, "unknown", MOONBIT, ""),
    one("mbt/json_print/simple_table", "MoonBit", 600.0, "unknown", MOONBIT, MOONBIT_JSON),
    one("mbt/json_parse/simple_table", "MoonBit", 600.0, "unknown", MOONBIT, MOONBIT_JSON),
    one("schema/parse_small_monster", "MoonBit", 550.0, "unknown", MOONBIT, "its schema_parse"),
    one("schema/codegen_small_monster", "MoonBit", 7300.0, "unknown", MOONBIT, ""),
    dotnet("nbt/read/dotnet_simple", 396.0),
    dotnet("nbt/write/dotnet_simple", 704.0),
    dotnet("nbt/read/dotnet_complex", 1280.0),
    dotnet("nbt/write/dotnet_complex", 1890.0),
    dotnet("nbt/read/dotnet_large_array", 26800.0),
    dotnet("nbt/write/dotnet_large_array", 27000.0),
    Published {
        group: "nbt/read/complex_player",
        implementation: "simdnbt (borrow)",
        low_ns: 1500.0,
        high_ns: 1900.0,
        hardware: THIS_KIND,
        source: "../shared/WORKLOADS.md §5",
        note: "",
    },
    one("streams/write_100", "flatstream v2", 1760.3, APPLE, FLATSTREAM_CMP, FLATSTREAM_EVENT),
    one("streams/read_100", "flatstream v2", 2162.5, APPLE, FLATSTREAM_CMP, FLATSTREAM_READ),
    one("streams/cycle_50", "flatstream v2", 4429.0, APPLE, FLATSTREAM_CMP, FLATSTREAM_READ),
    one("streams/write_1000", "flatstream v2", 17358.0, APPLE, FLATSTREAM_CMP, FLATSTREAM_EVENT),
    one("streams/read_1000", "flatstream v2", 4433.6, APPLE, FLATSTREAM_CMP, FLATSTREAM_READ),
    one("streams/frames_100", "flatstream v2", 2162.5, APPLE, FLATSTREAM_CMP, FLATSTREAM_FRAMES),
    one("streams/frames_1000", "flatstream v2", 4433.6, APPLE, FLATSTREAM_CMP, FLATSTREAM_FRAMES),
    one("streams/write_vectors_100", "flatstream v2", 1760.3, APPLE, FLATSTREAM_CMP, FLATSTREAM_VECTORS),
    one("streams/write_vectors_1000", "flatstream v2", 17358.0, APPLE, FLATSTREAM_CMP, FLATSTREAM_VECTORS),
    one(
        "streams/write_large_50",
        "flatstream v2",
        1289.6,
        APPLE,
        FLATSTREAM_CMP,
        "its \"large_messages_50_messages\" writes 50 ordinary 24-byte events, without a 4 KiB payload",
    ),
    one(
        "streams/write_100_xxh3",
        "flatstream",
        2194.7,
        APPLE,
        FLATSTREAM_GUIDE,
        "short string messages, its XxHash64 checksum, a new writer and output Vec per iteration",
    ),
    one(
        "streams/write_100_crc32c",
        "flatstream",
        2342.2,
        APPLE,
        FLATSTREAM_GUIDE,
        "short string messages, its CRC32 (not CRC32C) checksum, a new writer and output Vec per iteration",
    ),
];

/// The published figures for one group.
///
/// ```
/// let figures = flatforge_bench_report::published::for_group("streams/write_100");
/// assert_eq!(figures[0].implementation, "flatstream v2");
/// ```
pub fn for_group(group: &str) -> Vec<&'static Published> {
    PUBLISHED.iter().filter(|p| p.group == group).collect()
}
