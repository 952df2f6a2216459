//! What the numbers were measured on: CPU model and core count (from `/proc/cpuinfo`), the rustc
//! and flatc versions, the date, the commit and the benchmark mode.

use std::process::Command;
use std::time::{SystemTime, UNIX_EPOCH};

/// The machine and toolchain of a run.
#[derive(Clone, Debug, PartialEq)]
pub struct Machine {
    /// CPU model name.
    pub cpu: String,
    /// Logical cores.
    pub cores: usize,
    /// `rustc --version`.
    pub rustc: String,
    /// `flatc --version`.
    pub flatc: String,
    /// When the report was written, `YYYY-MM-DD HH:MM UTC`.
    pub date: String,
    /// `git describe --always --dirty` of the repository.
    pub commit: String,
    /// How the benchmarks were run (`quick` or `full`, with criterion's settings).
    pub mode: String,
}

impl Machine {
    /// Looks at this machine; `mode` is what the caller ran.
    ///
    /// ```
    /// let m = flatforge_bench_report::machine::Machine::detect("quick");
    /// assert!(m.cores >= 1);
    /// assert!(m.rustc.starts_with("rustc"));
    /// ```
    pub fn detect(mode: &str) -> Machine {
        let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        let (cpu, cores) = parse_cpuinfo(&cpuinfo).unwrap_or_else(|| {
            let cores = std::thread::available_parallelism().map_or(1, usize::from);
            ("unknown CPU".to_owned(), cores)
        });
        let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_owned());
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        Machine {
            cpu,
            cores,
            rustc: first_line(&rustc, &["--version"]),
            flatc: first_line("flatc", &["--version"]),
            date: utc_date(now),
            commit: first_line("git", &["describe", "--always", "--dirty"]),
            mode: mode.to_owned(),
        }
    }
}

/// The first line a command prints, or why there is none.
fn first_line(program: &str, args: &[&str]) -> String {
    match Command::new(program).args(args).output() {
        Ok(out) if out.status.success() => String::from_utf8_lossy(&out.stdout)
            .lines()
            .next()
            .unwrap_or_default()
            .trim()
            .to_owned(),
        Ok(out) => format!("`{program}` failed ({})", out.status),
        Err(e) => format!("`{program}` not found ({e})"),
    }
}

/// CPU model and logical core count from the text of `/proc/cpuinfo` (x86's `model name`, or
/// ARM's `Hardware` / `CPU part` when there is none).
///
/// ```
/// let text = "processor\t: 0\nmodel name\t: AMD EPYC\n\nprocessor\t: 1\nmodel name\t: AMD EPYC\n";
/// let parsed = flatforge_bench_report::machine::parse_cpuinfo(text);
/// assert_eq!(parsed, Some(("AMD EPYC".to_owned(), 2)));
/// ```
pub fn parse_cpuinfo(text: &str) -> Option<(String, usize)> {
    let value = |key: &str| {
        text.lines().find_map(|line| {
            let (k, v) = line.split_once(':')?;
            (k.trim() == key).then(|| v.trim().to_owned())
        })
    };
    let cores = text
        .lines()
        .filter(|line| line.split(':').next().map(str::trim) == Some("processor"))
        .count();
    let model = value("model name")
        .or_else(|| value("Hardware"))
        .or_else(|| value("CPU part").map(|part| format!("CPU part {part}")))?;
    (cores > 0).then_some((model, cores))
}

/// `YYYY-MM-DD HH:MM UTC` for seconds since the Unix epoch.
///
/// ```
/// use flatforge_bench_report::machine::utc_date;
/// assert_eq!(utc_date(0), "1970-01-01 00:00 UTC");
/// assert_eq!(utc_date(1_672_531_200 + 3661), "2023-01-01 01:01 UTC");
/// ```
pub fn utc_date(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let (hour, minute) = ((secs % 86_400) / 3600, (secs % 3600) / 60);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02} {hour:02}:{minute:02} UTC")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_across_leap_years_and_centuries() {
        assert_eq!(utc_date(951_782_400), "2000-02-29 00:00 UTC");
        assert_eq!(utc_date(4_107_542_400), "2100-03-01 00:00 UTC");
        assert_eq!(utc_date(1_795_305_599), "2026-11-21 23:59 UTC");
    }

    #[test]
    fn cpuinfo_of_other_architectures() {
        let arm = "processor : 0\nCPU part : 0xd0c\n\nprocessor : 1\nCPU part : 0xd0c\n";
        assert_eq!(parse_cpuinfo(arm), Some(("CPU part 0xd0c".to_owned(), 2)));
        let pi = "processor : 0\nmodel name : ARMv7\nHardware : BCM2835\n";
        assert_eq!(parse_cpuinfo(pi), Some(("ARMv7".to_owned(), 1)));
        assert_eq!(parse_cpuinfo(""), None);
        assert_eq!(parse_cpuinfo("model name : X\n"), None);
    }
}
