//! `flatforge-bench-report`: writes BENCHMARKS.md and the ratio chart from criterion's results.
//! `scripts/bench` runs it after the benchmarks; run it by hand to re-render the last results.

use anyhow::{Context, Result};
use clap::Parser;
use flatforge_bench_report::{load, machine::Machine, render, Group};
use std::path::{Component, Path, PathBuf};

/// Writes BENCHMARKS.md and an SVG chart of flatforge's ratios to its peers from criterion's
/// results.
#[derive(Parser)]
#[command(version)]
struct Args {
    /// criterion's output directory (`<target dir>/criterion`).
    #[arg(long)]
    criterion_dir: PathBuf,
    /// The Markdown page to write.
    #[arg(long, default_value = "BENCHMARKS.md")]
    markdown: PathBuf,
    /// The SVG chart to write.
    #[arg(long, default_value = "benchmarks/ratios.svg")]
    svg: PathBuf,
    /// How the benchmarks were run, recorded at the top of the page.
    #[arg(long)]
    mode: String,
    /// Report only results written at or after this file's modification time (the start of the
    /// run), so that results of benchmarks that no longer exist are left out.
    #[arg(long)]
    since: Option<PathBuf>,
}

/// `target` relative to the directory holding `page`, when both are relative paths.
fn link(page: &Path, target: &Path) -> String {
    let base = page.parent().unwrap_or(Path::new(""));
    let depth = base
        .components()
        .filter(|c| matches!(c, Component::Normal(_)))
        .count();
    let relative = target.strip_prefix(base).map_or_else(
        |_| {
            let mut up = PathBuf::new();
            for _ in 0..depth {
                up.push("..");
            }
            up.join(target)
        },
        Path::to_path_buf,
    );
    relative.to_string_lossy().replace('\\', "/")
}

fn main() -> Result<()> {
    let args = Args::parse();
    let since = match &args.since {
        Some(path) => Some(
            std::fs::metadata(path)
                .and_then(|m| m.modified())
                .with_context(|| format!("cannot read the time of {}", path.display()))?,
        ),
        None => None,
    };
    let measurements = load::load(&args.criterion_dir, since)?;
    let groups = Group::collect(measurements);
    let machine = Machine::detect(&args.mode);
    let page = render::markdown(&machine, &groups, Some(&link(&args.markdown, &args.svg)));
    let chart = render::svg(&groups);
    for (path, text) in [(&args.markdown, page), (&args.svg, chart)] {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create {}", dir.display()))?;
        }
        std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))?;
    }
    let rows: usize = groups.iter().map(|g| g.rows.len()).sum();
    println!(
        "wrote {} and {} ({rows} results in {} operations)",
        args.markdown.display(),
        args.svg.display(),
        groups.len()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::link;
    use std::path::Path;

    #[test]
    fn chart_links_are_relative_to_the_page() {
        assert_eq!(
            link(
                Path::new("BENCHMARKS.md"),
                Path::new("benchmarks/ratios.svg")
            ),
            "benchmarks/ratios.svg"
        );
        assert_eq!(
            link(
                Path::new("docs/BENCHMARKS.md"),
                Path::new("docs/ratios.svg")
            ),
            "ratios.svg"
        );
        assert_eq!(
            link(
                Path::new("docs/BENCHMARKS.md"),
                Path::new("benchmarks/r.svg")
            ),
            "../benchmarks/r.svg"
        );
    }
}
