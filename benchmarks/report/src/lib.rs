//! Turns criterion's results into `BENCHMARKS.md` and an SVG chart of flatforge's ratios to its
//! peers; `scripts/bench` runs it after the benchmarks.
//!
//! Benchmarks are named `<workload>/<operation>/<implementation>`: a criterion group per operation
//! (`flatbench/encode`), a function per implementation (`official`, `planus`, `cpp`, `baseline`,
//! `flatforge`). Where a group has a `flatforge` function, every other row gets the ratio of
//! flatforge's median to its own (below 1: flatforge is faster) and the chart plots those ratios;
//! until then the report lists the peers alone and the chart shows each peer against the fastest
//! one of its group.
//!
//! - [`load`]: reads `target/criterion/**/new/{benchmark,estimates}.json`.
//! - [`machine`]: what the numbers were measured on.
//! - [`published`]: figures published by others, with their sources.
//! - [`render`]: the Markdown page and the SVG chart.
//!
//! ```
//! use flatforge_bench_report::{load::Measurement, render, Group};
//!
//! let m = |implementation: &str, median_ns| Measurement {
//!     group: "flatbench/encode".into(),
//!     implementation: implementation.into(),
//!     median_ns,
//!     median_ci_ns: (median_ns, median_ns),
//!     mad_ns: 1.0,
//!     bytes: Some(344),
//! };
//! let groups = Group::collect(vec![m("official", 250.0), m("flatforge", 125.0)]);
//! assert_eq!(groups[0].ratio_to("official"), Some(0.5));
//! assert!(render::svg(&groups).contains("0.50×"));
//! ```
#![deny(missing_docs)]

pub mod load;
pub mod machine;
pub mod published;
pub mod render;

use load::Measurement;

/// The implementation whose ratios to the others the report shows. Variants of it are named
/// `flatforge_<variant>` (`flatforge_owned`, `flatforge_borrowed`); ratios use the fastest variant.
pub const FLATFORGE: &str = "flatforge";

/// Whether an implementation is flatforge or one of its variants.
///
/// ```
/// use flatforge_bench_report::is_flatforge;
/// assert!(is_flatforge("flatforge") && is_flatforge("flatforge_owned"));
/// assert!(!is_flatforge("official") && !is_flatforge("flatforged"));
/// ```
pub fn is_flatforge(implementation: &str) -> bool {
    implementation == FLATFORGE
        || implementation
            .strip_prefix(FLATFORGE)
            .is_some_and(|rest| rest.starts_with('_'))
}

/// Workloads in the order of WORKLOADS.md; groups of other workloads follow, sorted by name.
const WORKLOAD_ORDER: &[&str] = &["flatbench", "runtime", "mbt", "objectbox", "streams", "nbt"];

/// Operations (by prefix) in the order they are listed within a workload; others follow.
const OPERATION_ORDER: &[&str] = &[
    "build", "encode", "write", "traverse", "read", "verify", "json", "cycle",
];

/// Implementations in the order rows are listed; others follow, sorted by name.
const IMPLEMENTATION_ORDER: &[&str] = &[FLATFORGE, "official", "planus", "cpp", "baseline"];

/// One operation (a criterion group) with a row per implementation, flatforge first.
#[derive(Clone, Debug, PartialEq)]
pub struct Group {
    /// `<workload>/<operation>`, e.g. `flatbench/encode`.
    pub id: String,
    /// The rows, flatforge first, then the peers in a fixed order.
    pub rows: Vec<Measurement>,
}

fn rank<'a>(order: &[&str], name: &'a str) -> (usize, &'a str) {
    let position = if is_flatforge(name) {
        0
    } else {
        order.iter().position(|o| *o == name).unwrap_or(order.len())
    };
    (position, name)
}

impl Group {
    /// Groups measurements by operation: workloads in the order of WORKLOADS.md, then operations
    /// build/encode/write, traverse/read, verify, json, cycle, then by name.
    ///
    /// ```
    /// use flatforge_bench_report::{load::Measurement, Group};
    /// let m = |group: &str, implementation: &str| Measurement {
    ///     group: group.into(),
    ///     implementation: implementation.into(),
    ///     median_ns: 1.0,
    ///     median_ci_ns: (1.0, 1.0),
    ///     mad_ns: 0.0,
    ///     bytes: None,
    /// };
    /// let groups = Group::collect(vec![
    ///     m("streams/read_100", "baseline"),
    ///     m("flatbench/traverse", "cpp"),
    ///     m("flatbench/traverse", "official"),
    ///     m("flatbench/encode", "cpp"),
    /// ]);
    /// let ids: Vec<_> = groups.iter().map(|g| g.id.as_str()).collect();
    /// assert_eq!(ids, ["flatbench/encode", "flatbench/traverse", "streams/read_100"]);
    /// assert_eq!(groups[1].rows[0].implementation, "official");
    /// ```
    pub fn collect(mut measurements: Vec<Measurement>) -> Vec<Group> {
        measurements.sort_by(|a, b| {
            let key = |m: &Measurement| {
                let (workload, operation) = m.group.split_once('/').unwrap_or((&m.group, ""));
                let operation_rank = OPERATION_ORDER
                    .iter()
                    .position(|o| operation.starts_with(o))
                    .unwrap_or(OPERATION_ORDER.len());
                (
                    rank(WORKLOAD_ORDER, workload).0,
                    workload.to_owned(),
                    operation_rank,
                    m.group.clone(),
                    rank(IMPLEMENTATION_ORDER, &m.implementation).0,
                    m.implementation.clone(),
                )
            };
            key(a).cmp(&key(b))
        });
        let mut groups: Vec<Group> = Vec::new();
        for m in measurements {
            match groups.last_mut() {
                Some(g) if g.id == m.group => g.rows.push(m),
                _ => groups.push(Group {
                    id: m.group.clone(),
                    rows: vec![m],
                }),
            }
        }
        groups
    }

    /// The workload, the part of the id before the first `/`.
    ///
    /// ```
    /// let g = flatforge_bench_report::Group { id: "streams/read_100".into(), rows: vec![] };
    /// assert_eq!(g.workload(), "streams");
    /// ```
    pub fn workload(&self) -> &str {
        self.id.split('/').next().unwrap_or_default()
    }

    /// The row of one implementation.
    pub fn row(&self, implementation: &str) -> Option<&Measurement> {
        self.rows
            .iter()
            .find(|m| m.implementation == implementation)
    }

    /// flatforge's row: `flatforge`, or the fastest `flatforge_<variant>`.
    pub fn flatforge(&self) -> Option<&Measurement> {
        self.rows
            .iter()
            .filter(|m| is_flatforge(&m.implementation))
            .min_by(|a, b| a.median_ns.total_cmp(&b.median_ns))
    }

    /// flatforge's median (its fastest variant's) divided by `peer`'s, when both were measured.
    pub fn ratio_to(&self, peer: &str) -> Option<f64> {
        let flatforge = self.flatforge()?;
        let peer = self
            .row(peer)
            .filter(|p| !is_flatforge(&p.implementation))?;
        Some(flatforge.median_ns / peer.median_ns)
    }

    /// The fastest median of the group.
    pub fn fastest_ns(&self) -> f64 {
        self.rows
            .iter()
            .map(|m| m.median_ns)
            .fold(f64::INFINITY, f64::min)
    }
}

/// Whether any group has a flatforge row (and so ratios to show).
///
/// ```
/// assert!(!flatforge_bench_report::has_flatforge(&[]));
/// ```
pub fn has_flatforge(groups: &[Group]) -> bool {
    groups.iter().any(|g| g.flatforge().is_some())
}
