//! The Markdown page (`BENCHMARKS.md`) and the SVG chart of the ratios, both written by hand: no
//! templating or plotting dependency.

use crate::machine::Machine;
use crate::published::{self, Published};
use crate::{has_flatforge, is_flatforge, rank, Group, FLATFORGE, IMPLEMENTATION_ORDER};
use std::fmt::Write;

/// A time with three significant digits and a unit.
///
/// ```
/// use flatforge_bench_report::render::format_ns;
/// assert_eq!(format_ns(16.876), "16.9 ns");
/// assert_eq!(format_ns(1760.3), "1.76 µs");
/// assert_eq!(format_ns(17_358.0), "17.4 µs");
/// assert_eq!(format_ns(2_500_000.0), "2.50 ms");
/// ```
pub fn format_ns(ns: f64) -> String {
    let (value, unit) = if ns < 1e3 {
        (ns, "ns")
    } else if ns < 1e6 {
        (ns / 1e3, "µs")
    } else if ns < 1e9 {
        (ns / 1e6, "ms")
    } else {
        (ns / 1e9, "s")
    };
    let decimals = if value < 10.0 {
        2
    } else if value < 100.0 {
        1
    } else {
        0
    };
    format!("{value:.decimals$} {unit}")
}

/// A ratio as `0.53×`.
///
/// ```
/// assert_eq!(flatforge_bench_report::render::format_ratio(0.5312), "0.53×");
/// ```
pub fn format_ratio(ratio: f64) -> String {
    format!("{ratio:.2}×")
}

fn format_published(p: &Published) -> String {
    if p.low_ns == p.high_ns {
        format_ns(p.low_ns)
    } else {
        format!("{}–{}", format_ns(p.low_ns), format_ns(p.high_ns))
    }
}

/// Every implementation that appears, in the report's order.
fn implementations(groups: &[Group]) -> Vec<String> {
    let mut names: Vec<String> = groups
        .iter()
        .flat_map(|g| g.rows.iter().map(|m| m.implementation.clone()))
        .collect();
    names.sort_by(|a, b| rank(IMPLEMENTATION_ORDER, a).cmp(&rank(IMPLEMENTATION_ORDER, b)));
    names.dedup();
    names
}

/// Peers that share at least one group with flatforge.
fn compared_peers(groups: &[Group]) -> Vec<String> {
    implementations(groups)
        .into_iter()
        .filter(|p| !is_flatforge(p) && groups.iter().any(|g| g.ratio_to(p).is_some()))
        .collect()
}

fn table_row(out: &mut String, cells: &[String]) {
    out.push('|');
    for cell in cells {
        let _ = write!(out, " {cell} |");
    }
    out.push('\n');
}

fn table_header(out: &mut String, header: &[&str], right_aligned_from: usize) {
    table_row(
        out,
        &header.iter().map(|h| h.to_string()).collect::<Vec<_>>(),
    );
    let rule: Vec<String> = (0..header.len())
        .map(|i| {
            if i < right_aligned_from {
                "---"
            } else {
                "---:"
            }
            .to_owned()
        })
        .collect();
    table_row(out, &rule);
}

fn summary(out: &mut String, groups: &[Group]) {
    let names = implementations(groups);
    let peers = compared_peers(groups);
    let mut header: Vec<String> = vec!["operation".into()];
    header.extend(names.iter().cloned());
    header.extend(peers.iter().map(|p| format!("{FLATFORGE} / {p}")));
    table_header(
        out,
        &header.iter().map(String::as_str).collect::<Vec<_>>(),
        1,
    );
    for g in groups {
        let mut cells = vec![format!("[{}](#{})", g.id, anchor(&g.id))];
        cells.extend(
            names
                .iter()
                .map(|n| g.row(n).map_or("–".to_owned(), |m| format_ns(m.median_ns))),
        );
        cells.extend(
            peers
                .iter()
                .map(|p| g.ratio_to(p).map_or("–".to_owned(), format_ratio)),
        );
        table_row(out, &cells);
    }
}

/// GitHub's heading anchor for a `### group` heading.
fn anchor(heading: &str) -> String {
    heading
        .chars()
        .filter_map(|c| match c {
            'a'..='z' | '0'..='9' | '_' | '-' => Some(c),
            'A'..='Z' => Some(c.to_ascii_lowercase()),
            ' ' => Some('-'),
            _ => None,
        })
        .collect()
}

fn group_section(out: &mut String, g: &Group) {
    let _ = writeln!(out, "### {}\n", g.id);
    let flatforge = g.flatforge().map(|m| m.implementation.as_str());
    let with_ratio = flatforge.is_some();
    let mut header = vec![
        "implementation",
        "median",
        "spread (MAD)",
        "95% CI of the median",
        "bytes",
    ];
    if with_ratio {
        header.push("flatforge / this");
    }
    table_header(out, &header, 1);
    for m in &g.rows {
        let mut cells = vec![
            m.implementation.clone(),
            format_ns(m.median_ns),
            format!("±{:.1}%", 100.0 * m.mad_ns / m.median_ns),
            format!(
                "{} – {}",
                format_ns(m.median_ci_ns.0),
                format_ns(m.median_ci_ns.1)
            ),
            m.bytes.map_or("–".to_owned(), |b| b.to_string()),
        ];
        if with_ratio {
            cells.push(
                g.ratio_to(&m.implementation)
                    .map_or("–".to_owned(), format_ratio),
            );
        }
        table_row(out, &cells);
    }
    if let Some(variant) = flatforge.filter(|f| *f != FLATFORGE) {
        let _ = writeln!(
            out,
            "\nRatios use `{variant}`, the fastest flatforge variant here."
        );
    }
    let figures = published::for_group(&g.id);
    if !figures.is_empty() {
        out.push_str("\nPublished elsewhere (not measured by this run):\n");
        for p in figures {
            published_line(out, "", p);
        }
    }
    out.push('\n');
}

fn published_line(out: &mut String, prefix: &str, p: &Published) {
    let _ = write!(
        out,
        "- {prefix}{} {} ({}; {})",
        p.implementation,
        format_published(p),
        p.hardware,
        p.source
    );
    if !p.note.is_empty() {
        let _ = write!(out, ": {}", p.note);
    }
    out.push('\n');
}

/// The whole `BENCHMARKS.md`; `chart` is the chart's path relative to the page.
///
/// ```
/// use flatforge_bench_report::{load::Measurement, machine::Machine, render, Group};
/// let machine = Machine {
///     cpu: "AMD EPYC".into(), cores: 2, rustc: "rustc 1.95.0".into(),
///     flatc: "flatc version 25.12.19".into(), date: "2026-11-22 03:00 UTC".into(),
///     commit: "abc1234".into(), mode: "quick".into(),
/// };
/// let row = Measurement {
///     group: "flatbench/encode".into(), implementation: "cpp".into(), median_ns: 128.8,
///     median_ci_ns: (122.1, 136.2), mad_ns: 2.0, bytes: Some(344),
/// };
/// let page = render::markdown(&machine, &Group::collect(vec![row]), Some("benchmarks/ratios.svg"));
/// assert!(page.contains("| cpp | 129 ns | ±1.6% | 122 ns – 136 ns | 344 |"));
/// assert!(!page.contains("flatforge / cpp"));
/// ```
pub fn markdown(machine: &Machine, groups: &[Group], chart: Option<&str>) -> String {
    let mut out = String::new();
    out.push_str("# flatforge benchmarks\n\n");
    let _ = writeln!(
        out,
        "Written by `scripts/bench` on {}: every figure measured here comes from that run. Do not \
         edit by hand; rerun the command (`scripts/bench --quick` for a first look, `scripts/bench` \
         for the figures to commit).\n",
        machine.date
    );
    table_header(&mut out, &["machine", ""], 2);
    let cpu = format!("{}, {} logical cores", machine.cpu, machine.cores);
    for (key, value) in [
        ("CPU", cpu.as_str()),
        ("rustc", machine.rustc.as_str()),
        ("flatc", machine.flatc.as_str()),
        ("mode", machine.mode.as_str()),
        ("commit", machine.commit.as_str()),
        ("date", machine.date.as_str()),
    ] {
        table_row(&mut out, &[key.to_owned(), value.to_owned()]);
    }
    out.push('\n');
    if has_flatforge(groups) {
        out.push_str(
            "Ratios are flatforge's median time divided by the peer's, measured in the same run: \
             below 1× flatforge is faster.\n\n",
        );
    } else {
        out.push_str(
            "No flatforge benchmark has run yet, so this page lists the peers alone. The ratio \
             columns (here and in the chart) appear by themselves as soon as a group has a \
             `flatforge` function.\n\n",
        );
    }
    if let Some(chart) = chart {
        let _ = writeln!(out, "![ratios]({chart})\n");
    }
    let mut start = 0;
    while start < groups.len() {
        let workload = groups[start].workload();
        let end = start
            + groups[start..]
                .iter()
                .take_while(|g| g.workload() == workload)
                .count();
        let _ = writeln!(out, "## {workload}\n\nMedian time per operation:\n");
        summary(&mut out, &groups[start..end]);
        out.push('\n');
        for g in &groups[start..end] {
            group_section(&mut out, g);
        }
        start = end;
    }
    let others: Vec<&Published> = published::PUBLISHED
        .iter()
        .filter(|p| groups.iter().all(|g| g.id != p.group))
        .collect();
    if !others.is_empty() {
        out.push_str("## Published figures for operations not in this run\n\n");
        for p in others {
            published_line(&mut out, &format!("{}: ", p.group), p);
        }
        out.push('\n');
    }
    out.push_str(
        "## How to read this page\n\n\
         - **median**: criterion's median time per iteration; **spread**: the median absolute \
         deviation as a share of the median; **95% CI**: criterion's bootstrap interval of the \
         median. The machine is shared and noisy: compare implementations within one run, as the \
         ratios do.\n\
         - **bytes**: the size of the buffer or stream the operation builds or reads (criterion's \
         throughput).\n\
         - Benchmarks are named `<workload>/<operation>/<implementation>` after \
         `../shared/WORKLOADS.md`; each implementation is given the same data and its result is \
         checked before it is timed. The C++ peer times loops run inside C++, so the FFI call is \
         not what is measured.\n\
         - A group's `flatforge` row may come in variants (`flatforge_owned`, \
         `flatforge_borrowed`): the ratios then use the fastest one, and the group says which.\n\
         - criterion's HTML reports (distributions, regressions against the previous run) are \
         written to `target/criterion/report/index.html` and are not committed.\n",
    );
    out
}

/// One bar of the chart.
struct Bar {
    group: usize,
    label: String,
    value: f64,
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The SVG chart: flatforge's ratio to each peer per operation (log scale, below 1 faster) or,
/// before any flatforge benchmark exists, each peer's time relative to the fastest of its group.
///
/// ```
/// let svg = flatforge_bench_report::render::svg(&[]);
/// assert!(svg.starts_with("<svg") && svg.contains("no results"));
/// ```
pub fn svg(groups: &[Group]) -> String {
    let mut bars = Vec::new();
    let ratios = has_flatforge(groups);
    for (i, g) in groups.iter().enumerate() {
        for m in g.rows.iter().filter(|m| !is_flatforge(&m.implementation)) {
            let value = if ratios {
                match g.ratio_to(&m.implementation) {
                    Some(r) => r,
                    None => continue,
                }
            } else {
                m.median_ns / g.fastest_ns()
            };
            let label = if ratios {
                format!("{} vs {}", g.id, m.implementation)
            } else {
                format!("{}: {}", g.id, m.implementation)
            };
            bars.push(Bar {
                group: i,
                label,
                value,
            });
        }
    }
    let title = if ratios {
        "flatforge's median time / the peer's, same run (log scale; below 1× flatforge is faster)"
    } else {
        "No flatforge benchmarks yet: each peer's median time / the fastest peer's, per operation (log scale)"
    };
    chart(title, &bars, ratios)
}

fn chart(title: &str, bars: &[Bar], ratios: bool) -> String {
    const WIDTH: f64 = 980.0;
    const LABEL_X: f64 = 370.0;
    const PLOT_X: f64 = 380.0;
    const PLOT_W: f64 = 500.0;
    const ROW: f64 = 20.0;
    const TOP: f64 = 50.0;
    let height = TOP + ROW * bars.len().max(1) as f64 + 50.0;
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" viewBox="0 0 {WIDTH} {height}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(out, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        out,
        r#"<text x="10" y="24" font-size="14" font-weight="bold">{}</text>"#,
        escape(title)
    );
    if bars.is_empty() {
        let _ = writeln!(out, r#"<text x="10" y="{}">no results</text>"#, TOP + 14.0);
        out.push_str("</svg>\n");
        return out;
    }
    let logs: Vec<f64> = bars.iter().map(|b| b.value.log2()).collect();
    let lo = logs.iter().copied().fold(0.0, f64::min).floor();
    let lo = if ratios { lo.min(-1.0) } else { lo };
    let hi = logs.iter().copied().fold(0.0, f64::max).ceil().max(1.0);
    let x = |log: f64| PLOT_X + (log - lo) / (hi - lo) * PLOT_W;
    let bottom = TOP + ROW * bars.len() as f64;
    for (i, bar) in bars.iter().enumerate() {
        let y = TOP + ROW * i as f64;
        if bar.group % 2 == 1 {
            let _ = writeln!(
                out,
                r##"<rect x="0" y="{y}" width="{WIDTH}" height="{ROW}" fill="#f3f3f3"/>"##
            );
        }
        let (from, to) = (x(0.0), x(logs[i]));
        let color = match (ratios, bar.value < 1.0) {
            (false, _) => "#1565c0",
            (true, true) => "#2e7d32",
            (true, false) => "#c62828",
        };
        let _ = writeln!(
            out,
            r#"<text x="{LABEL_X}" y="{}" text-anchor="end">{}</text>"#,
            y + 14.0,
            escape(&bar.label)
        );
        let _ = writeln!(
            out,
            r#"<rect x="{:.1}" y="{}" width="{:.1}" height="{}" fill="{color}"/>"#,
            from.min(to),
            y + 4.0,
            (to - from).abs().max(1.0),
            ROW - 8.0
        );
        let _ = writeln!(
            out,
            r#"<text x="{:.1}" y="{}">{}</text>"#,
            PLOT_X + PLOT_W + 8.0,
            y + 14.0,
            format_ratio(bar.value)
        );
    }
    for tick in (lo as i32)..=(hi as i32) {
        let tx = x(f64::from(tick));
        let label = if tick >= 0 {
            format!("{}×", 1u64 << tick)
        } else {
            format!("1/{}×", 1u64 << -tick)
        };
        let (stroke, width) = if tick == 0 {
            ("#000", 1.5)
        } else {
            ("#bbb", 0.5)
        };
        let _ = writeln!(
            out,
            r#"<line x1="{tx:.1}" y1="{}" x2="{tx:.1}" y2="{}" stroke="{stroke}" stroke-width="{width}"/>"#,
            TOP - 4.0,
            bottom + 4.0
        );
        let _ = writeln!(
            out,
            r#"<text x="{tx:.1}" y="{}" text-anchor="middle">{label}</text>"#,
            bottom + 20.0
        );
    }
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::Measurement;

    fn m(group: &str, implementation: &str, median_ns: f64) -> Measurement {
        Measurement {
            group: group.into(),
            implementation: implementation.into(),
            median_ns,
            median_ci_ns: (median_ns * 0.9, median_ns * 1.1),
            mad_ns: median_ns / 100.0,
            bytes: Some(344),
        }
    }

    fn machine() -> Machine {
        Machine {
            cpu: "AMD EPYC".into(),
            cores: 2,
            rustc: "rustc 1.95.0".into(),
            flatc: "flatc version 25.12.19".into(),
            date: "2026-11-22 03:00 UTC".into(),
            commit: "abc1234".into(),
            mode: "quick".into(),
        }
    }

    fn peers() -> Vec<Measurement> {
        vec![
            m("flatbench/encode", "official", 250.0),
            m("flatbench/encode", "planus", 200.0),
            m("flatbench/encode", "cpp", 125.0),
            m("streams/write_100", "baseline", 5000.0),
        ]
    }

    #[test]
    fn peers_alone_have_no_ratio_columns() {
        let groups = Group::collect(peers());
        let page = markdown(&machine(), &groups, Some("benchmarks/ratios.svg"));
        assert!(!page.contains("flatforge / "), "{page}");
        assert!(page.contains("No flatforge benchmark has run yet"));
        assert!(page.contains("## flatbench\n\nMedian time per operation:\n\n| operation | official | planus | cpp |\n"));
        assert!(
            page.contains("## streams\n\nMedian time per operation:\n\n| operation | baseline |\n")
        );
        assert!(
            page.contains("| [flatbench/encode](#flatbenchencode) | 250 ns | 200 ns | 125 ns |\n")
        );
        assert!(page.contains("| AMD EPYC, 2 logical cores |"));
        assert!(page.contains("![ratios](benchmarks/ratios.svg)"));
        // Published figures sit under their group.
        assert!(
            page.contains("- planus 126 ns (a machine like this one; ../shared/WORKLOADS.md §1)")
        );
        assert!(page.contains("- flatstream v2 1.76 µs"));
        // ... and those of groups not run are listed at the end.
        assert!(page.contains("- flatbench/json_print: flatcc 940 ns"));

        let chart = svg(&groups);
        assert!(chart.contains("No flatforge benchmarks yet"));
        assert!(chart.contains("flatbench/encode: official"));
        assert!(chart.contains(">2.00×<"), "official is 2× the fastest");
        assert!(chart.contains(">1.00×<"), "cpp is the fastest");
    }

    #[test]
    fn a_flatforge_function_brings_the_ratios() {
        let mut measurements = peers();
        measurements.push(m("flatbench/encode", "flatforge", 100.0));
        let groups = Group::collect(measurements);
        let page = markdown(&machine(), &groups, None);
        assert!(page.contains(
            "| operation | flatforge | official | planus | cpp | flatforge / official | flatforge / planus | flatforge / cpp |"
        ), "{page}");
        assert!(page.contains("| 100 ns | 250 ns | 200 ns | 125 ns | 0.40× | 0.50× | 0.80× |"));
        assert!(page.contains("| operation | baseline |\n"));
        assert!(page.contains("| implementation | median | spread (MAD) | 95% CI of the median | bytes | flatforge / this |"));
        assert!(page.contains("| flatforge | 100 ns | ±1.0% | 90.0 ns – 110 ns | 344 | – |"));
        assert!(page.contains("| cpp | 125 ns | ±1.0% | 112 ns – 138 ns | 344 | 0.80× |"));
        // The streams group has no flatforge row: no ratio column there.
        let streams = page.split("### streams/write_100").nth(1).unwrap();
        assert!(!streams.contains("flatforge / this"));
        assert!(!page.contains("![ratios]"));

        let chart = svg(&groups);
        assert!(chart.contains("flatforge's median time / the peer's"));
        assert!(chart.contains(">0.40×<") && chart.contains(">0.80×<"));
        assert!(
            !chart.contains("streams/write_100 vs baseline"),
            "no ratio, no bar"
        );
        assert!(chart.contains("#2e7d32"), "faster bars are green");
        assert!(!chart.contains("#c62828"));
    }

    #[test]
    fn ratios_use_the_fastest_flatforge_variant() {
        let groups = Group::collect(vec![
            m("nbt/read_hello_world", "fastnbt_value", 400.0),
            m("nbt/read_hello_world", "flatforge_owned", 300.0),
            m("nbt/read_hello_world", "flatforge_borrowed", 100.0),
        ]);
        let rows: Vec<_> = groups[0]
            .rows
            .iter()
            .map(|m| m.implementation.as_str())
            .collect();
        assert_eq!(
            rows,
            ["flatforge_borrowed", "flatforge_owned", "fastnbt_value"]
        );
        assert_eq!(groups[0].ratio_to("fastnbt_value"), Some(0.25));
        assert_eq!(groups[0].ratio_to("flatforge_owned"), None);
        let page = markdown(&machine(), &groups, None);
        assert!(page.contains("| flatforge_owned | 300 ns | ±1.0% | 270 ns – 330 ns | 344 | – |"));
        assert!(page.contains("| fastnbt_value | 400 ns | ±1.0% | 360 ns – 440 ns | 344 | 0.25× |"));
        assert!(
            page.contains("Ratios use `flatforge_borrowed`, the fastest flatforge variant here.")
        );
        assert!(page.contains(
            "| flatforge_borrowed | flatforge_owned | fastnbt_value | flatforge / fastnbt_value |"
        ));
        let chart = svg(&groups);
        assert!(chart.contains("nbt/read_hello_world vs fastnbt_value"));
        assert!(!chart.contains("vs flatforge_owned"));
    }

    #[test]
    fn chart_axis_spans_every_ratio() {
        let groups = Group::collect(vec![
            m("flatbench/verify", "official", 400.0),
            m("flatbench/verify", "cpp", 20.0),
            m("flatbench/verify", "flatforge", 40.0),
        ]);
        let chart = svg(&groups);
        assert!(
            chart.contains(">1/16×<") && chart.contains(">2×<"),
            "{chart}"
        );
        assert!(chart.contains("#c62828"), "slower bars are red");
        assert!(chart.contains(">0.10×<") && chart.contains(">2.00×<"));
    }

    #[test]
    fn labels_are_escaped() {
        let groups = Group::collect(vec![m("a<b>/c&d", "x", 1.0)]);
        let chart = svg(&groups);
        assert!(chart.contains("a&lt;b&gt;/c&amp;d: x"));
        assert!(!chart.contains("a<b>"));
    }

    #[test]
    fn times_keep_three_significant_digits() {
        assert_eq!(format_ns(0.5), "0.50 ns");
        assert_eq!(format_ns(999.4), "999 ns");
        assert_eq!(format_ns(999_999.0), "1000 µs");
        assert_eq!(format_ns(3e9), "3.00 s");
        assert_eq!(
            anchor("flatbench/verify_traverse"),
            "flatbenchverify_traverse"
        );
    }
}
