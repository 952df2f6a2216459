//! Reading criterion's results: for every benchmark, `<criterion dir>/**/new/benchmark.json` (its
//! ids and throughput) and `new/estimates.json` (its statistics, in nanoseconds).

use serde::Deserialize;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// One benchmark's result.
#[derive(Clone, Debug, PartialEq)]
pub struct Measurement {
    /// The operation, `<workload>/<operation>` (criterion's group id, plus its parameter if any).
    pub group: String,
    /// The implementation (criterion's function id).
    pub implementation: String,
    /// Median time per iteration, in nanoseconds.
    pub median_ns: f64,
    /// 95% confidence interval of the median, in nanoseconds.
    pub median_ci_ns: (f64, f64),
    /// Median absolute deviation, in nanoseconds.
    pub mad_ns: f64,
    /// Bytes per iteration (the buffer built or read), when the benchmark declared them.
    pub bytes: Option<u64>,
}

/// Why criterion's results could not be read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LoadError {
    /// A file or directory could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The path.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// A file is not in criterion's format.
    #[error("{path} is not in criterion's format: {source}")]
    Format {
        /// The path.
        path: PathBuf,
        /// What did not parse.
        source: serde_json::Error,
    },
    /// No results at all (or none recent enough).
    #[error("no criterion results in {dir}: run the benchmarks first")]
    Empty {
        /// The criterion directory.
        dir: PathBuf,
    },
}

#[derive(Deserialize)]
struct BenchmarkJson {
    group_id: String,
    function_id: Option<String>,
    value_str: Option<String>,
    throughput: Option<serde_json::Value>,
}

#[derive(Deserialize)]
struct EstimatesJson {
    median: Estimate,
    median_abs_dev: Estimate,
}

#[derive(Deserialize)]
struct Estimate {
    point_estimate: f64,
    confidence_interval: Interval,
}

#[derive(Deserialize)]
struct Interval {
    lower_bound: f64,
    upper_bound: f64,
}

/// Bytes of criterion's `Throughput` (`{"Bytes": n}`, `{"BytesDecimal": n}` or
/// `{"ElementsAndBytes": {"elements": e, "bytes": n}}`); `None` for elements alone.
fn bytes_of(throughput: &serde_json::Value) -> Option<u64> {
    throughput
        .get("Bytes")
        .or_else(|| throughput.get("BytesDecimal"))
        .or_else(|| throughput.get("ElementsAndBytes")?.get("bytes"))
        .and_then(serde_json::Value::as_u64)
}

/// One benchmark from the text of its `benchmark.json` and `estimates.json`.
///
/// A benchmark made with `bench_function` outside a group has no function id; its id is then split
/// at its last `/` into operation and implementation.
///
/// ```
/// let benchmark = r#"{"group_id":"flatbench/encode","function_id":"cpp","value_str":null,
///     "throughput":{"Bytes":344}}"#;
/// let estimates = r#"{
///     "median":{"confidence_interval":{"lower_bound":120.0,"upper_bound":130.0},"point_estimate":125.0},
///     "median_abs_dev":{"confidence_interval":{"lower_bound":1.0,"upper_bound":3.0},"point_estimate":2.0}}"#;
/// let m = flatforge_bench_report::load::parse(benchmark, estimates).unwrap();
/// assert_eq!((m.group.as_str(), m.implementation.as_str()), ("flatbench/encode", "cpp"));
/// assert_eq!((m.median_ns, m.median_ci_ns, m.mad_ns, m.bytes), (125.0, (120.0, 130.0), 2.0, Some(344)));
/// ```
pub fn parse(benchmark_json: &str, estimates_json: &str) -> Result<Measurement, serde_json::Error> {
    let benchmark: BenchmarkJson = serde_json::from_str(benchmark_json)?;
    let estimates: EstimatesJson = serde_json::from_str(estimates_json)?;
    let with_value = |id: String| match &benchmark.value_str {
        Some(value) => format!("{id}/{value}"),
        None => id,
    };
    let (group, implementation) = match benchmark.function_id {
        Some(function) => (with_value(benchmark.group_id), function),
        None => match benchmark.group_id.rsplit_once('/') {
            Some((group, function)) => (with_value(group.to_owned()), function.to_owned()),
            None => (with_value(benchmark.group_id.clone()), benchmark.group_id),
        },
    };
    Ok(Measurement {
        group,
        implementation,
        median_ns: estimates.median.point_estimate,
        median_ci_ns: (
            estimates.median.confidence_interval.lower_bound,
            estimates.median.confidence_interval.upper_bound,
        ),
        mad_ns: estimates.median_abs_dev.point_estimate,
        bytes: benchmark.throughput.as_ref().and_then(bytes_of),
    })
}

fn read(path: &Path) -> Result<String, LoadError> {
    fs::read_to_string(path).map_err(|source| LoadError::Io {
        path: path.to_owned(),
        source,
    })
}

fn walk(
    dir: &Path,
    since: Option<SystemTime>,
    out: &mut Vec<Measurement>,
) -> Result<(), LoadError> {
    let io = |source| LoadError::Io {
        path: dir.to_owned(),
        source,
    };
    for entry in fs::read_dir(dir).map_err(io)? {
        let path = entry.map_err(io)?.path();
        if !path.is_dir() {
            continue;
        }
        let benchmark = path.join("benchmark.json");
        let estimates = path.join("estimates.json");
        if path.ends_with("new") && benchmark.is_file() && estimates.is_file() {
            if let Some(since) = since {
                let modified = fs::metadata(&estimates)
                    .and_then(|m| m.modified())
                    .map_err(|source| LoadError::Io {
                        path: estimates.clone(),
                        source,
                    })?;
                if modified < since {
                    continue;
                }
            }
            let measurement = parse(&read(&benchmark)?, &read(&estimates)?)
                .map_err(|source| LoadError::Format { path, source })?;
            out.push(measurement);
        } else {
            walk(&path, since, out)?;
        }
    }
    Ok(())
}

/// Every benchmark under a criterion directory (`target/criterion`), or only those whose estimates
/// were written at or after `since` (the start of the run being reported).
///
/// ```
/// let dir = std::env::temp_dir().join(format!("report-load-doc-{}", std::process::id()));
/// let err = flatforge_bench_report::load::load(&dir, None).unwrap_err();
/// assert!(err.to_string().contains("cannot read"));
/// ```
pub fn load(dir: &Path, since: Option<SystemTime>) -> Result<Vec<Measurement>, LoadError> {
    let mut out = Vec::new();
    walk(dir, since, &mut out)?;
    if out.is_empty() {
        return Err(LoadError::Empty {
            dir: dir.to_owned(),
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const ESTIMATES: &str = r#"{"mean":{"confidence_interval":{"confidence_level":0.95,"lower_bound":249.7,"upper_bound":251.5},"point_estimate":250.6,"standard_error":0.47},"median":{"confidence_interval":{"confidence_level":0.95,"lower_bound":249.38,"upper_bound":250.13},"point_estimate":249.77,"standard_error":0.19},"median_abs_dev":{"confidence_interval":{"confidence_level":0.95,"lower_bound":1.24,"upper_bound":2.30},"point_estimate":1.84,"standard_error":0.27},"slope":null,"std_dev":{"confidence_interval":{"confidence_level":0.95,"lower_bound":3.05,"upper_bound":6.29},"point_estimate":4.78,"standard_error":0.83}}"#;

    fn benchmark(
        group: &str,
        function: Option<&str>,
        value: Option<&str>,
        throughput: &str,
    ) -> String {
        let quote = |s: Option<&str>| s.map_or("null".to_owned(), |s| format!("\"{s}\""));
        format!(
            r#"{{"group_id":"{group}","function_id":{},"value_str":{},"throughput":{throughput},"full_id":"x","directory_name":"x","title":"x"}}"#,
            quote(function),
            quote(value)
        )
    }

    #[test]
    fn reads_criterion_0_8_files() {
        let b = benchmark(
            "flatbench/encode",
            Some("official"),
            None,
            r#"{"Bytes":344}"#,
        );
        let m = parse(&b, ESTIMATES).unwrap();
        assert_eq!(m.group, "flatbench/encode");
        assert_eq!(m.implementation, "official");
        assert_eq!(m.median_ns, 249.77);
        assert_eq!(m.median_ci_ns, (249.38, 250.13));
        assert_eq!(m.mad_ns, 1.84);
        assert_eq!(m.bytes, Some(344));
    }

    #[test]
    fn ids_without_a_function_split_at_the_last_slash() {
        let b = benchmark("runtime/build/simple_table/flatforge", None, None, "null");
        let m = parse(&b, ESTIMATES).unwrap();
        assert_eq!(
            (m.group.as_str(), m.implementation.as_str()),
            ("runtime/build/simple_table", "flatforge")
        );
        assert_eq!(m.bytes, None);
        let b = benchmark("alone", None, None, "null");
        let m = parse(&b, ESTIMATES).unwrap();
        assert_eq!(
            (m.group.as_str(), m.implementation.as_str()),
            ("alone", "alone")
        );
    }

    #[test]
    fn parameters_join_the_group() {
        let b = benchmark(
            "streams/write",
            Some("flatforge"),
            Some("xxh3"),
            r#"{"Elements":100}"#,
        );
        let m = parse(&b, ESTIMATES).unwrap();
        assert_eq!(
            (m.group.as_str(), m.implementation.as_str()),
            ("streams/write/xxh3", "flatforge")
        );
        assert_eq!(m.bytes, None);
        let b = benchmark(
            "g",
            Some("f"),
            None,
            r#"{"ElementsAndBytes":{"elements":3,"bytes":12}}"#,
        );
        assert_eq!(parse(&b, ESTIMATES).unwrap().bytes, Some(12));
        let b = benchmark("g", Some("f"), None, r#"{"BytesDecimal":7}"#);
        assert_eq!(parse(&b, ESTIMATES).unwrap().bytes, Some(7));
    }

    #[test]
    fn rejects_other_formats() {
        assert!(parse("{}", ESTIMATES).is_err());
        let b = benchmark("g", Some("f"), None, "null");
        assert!(parse(&b, r#"{"median":{}}"#).is_err());
    }

    fn write_result(root: &Path, dir: &str, group: &str, function: &str) {
        let new = root.join(dir).join("new");
        fs::create_dir_all(&new).unwrap();
        fs::write(
            new.join("benchmark.json"),
            benchmark(group, Some(function), None, "null"),
        )
        .unwrap();
        fs::write(new.join("estimates.json"), ESTIMATES).unwrap();
        // criterion keeps the previous run in `base`, which is not reported.
        let base = root.join(dir).join("base");
        fs::create_dir_all(&base).unwrap();
        fs::write(base.join("benchmark.json"), "not json").unwrap();
        fs::write(base.join("estimates.json"), "not json").unwrap();
    }

    #[test]
    fn walks_a_criterion_directory() {
        let root = std::env::temp_dir().join(format!("report-load-{}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        assert!(matches!(load(&root, None), Err(LoadError::Io { .. })));
        fs::create_dir_all(root.join("report")).unwrap();
        assert!(matches!(load(&root, None), Err(LoadError::Empty { .. })));

        write_result(
            &root,
            "flatbench_encode/official",
            "flatbench/encode",
            "official",
        );
        write_result(&root, "flatbench_encode/cpp", "flatbench/encode", "cpp");
        let mut found = load(&root, None).unwrap();
        found.sort_by(|a, b| a.implementation.cmp(&b.implementation));
        let names: Vec<_> = found.iter().map(|m| m.implementation.as_str()).collect();
        assert_eq!(names, ["cpp", "official"]);

        let future = SystemTime::now() + std::time::Duration::from_secs(3600);
        assert!(matches!(
            load(&root, Some(future)),
            Err(LoadError::Empty { .. })
        ));

        fs::write(root.join("flatbench_encode/cpp/new/estimates.json"), "{").unwrap();
        let err = load(&root, None).unwrap_err();
        assert!(matches!(err, LoadError::Format { .. }), "{err}");
        fs::remove_dir_all(&root).unwrap();
    }
}
