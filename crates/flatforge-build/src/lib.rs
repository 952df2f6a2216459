//! The `build.rs` entry point of flatforge: compiles FlatBuffers schemas to Rust code in `OUT_DIR`,
//! in process (no `flatc` or other binary needed), in the style of `prost-build`.
//!
//! ```no_run
//! // build.rs
//! fn main() -> Result<(), flatforge_build::Error> {
//!     flatforge_build::Config::new()
//!         .include_dir("schemas")
//!         .compile(&["schemas/monster.fbs"])?;
//!     Ok(())
//! }
//! ```
//!
//! ```ignore
//! // src/lib.rs: the generated file is named after the schema, `<stem>_generated.rs`.
//! pub mod monster {
//!     include!(concat!(env!("OUT_DIR"), "/monster_generated.rs"));
//! }
//! ```
//!
//! The crate that includes the generated code depends on `flatforge` (the runtime, same version as
//! this crate). The object API's `serde` derives are compiled when that crate's `serde` feature is
//! on (`[features] serde = ["dep:serde"]`, with `serde = { version = "1", features = ["derive"],
//! optional = true }`); [`Config::serde_feature`] renames or removes the feature. A crate without
//! the feature compiles the code without the derives, and without warnings: [`Config::compile`]
//! prints `cargo:rustc-check-cfg=cfg(feature, values("serde"))`, which tells rustc that the cfg is
//! expected (its `unexpected_cfgs` lint would otherwise warn at every derive).
//!
//! Each schema passed to [`Config::compile`] gives one file holding its definitions and those of
//! every file it includes, one module per namespace; include each generated file in its own module.
//!
//! Schema errors come back as an [`Error`] whose text is the rendered diagnostics (file, line,
//! source snippet), which cargo shows when `main` returns it. Warnings are printed as
//! `cargo:warning=` lines. The build script is rerun when any schema file it read changes. Files
//! are written only when their contents change, so an unchanged schema does not trigger a rebuild
//! of the crate.
//!
//! The `cargo:` lines are printed only in a build script (where cargo sets the `OUT_DIR`
//! environment variable). Called from any other program, [`Config::compile`] prints nothing on
//! standard output, and the schemas' warnings go to standard error as rendered diagnostics.
#![deny(missing_docs)]

use std::fmt;
use std::path::{Path, PathBuf};

use flatforge_codegen::{Claim, OutputFiles};
use flatforge_schema::{Compiler, FsLoader};

/// Why generating code failed.
///
/// Its `Debug` form is its `Display` form (the rendered diagnostics), so that a `build.rs` whose
/// `main` returns it shows readable errors.
///
/// ```
/// use flatforge_build::{Config, Error};
/// let dir = std::env::temp_dir().join(format!("flatforge-build-error-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// std::fs::write(dir.join("game.fbs"), "table Monster { hp: shrot; }")?;
/// let err = Config::new().out_dir(&dir).emit_rerun_if_changed(false).compile(&[dir.join("game.fbs")]);
/// match err {
///     Err(Error::Schema { schema, rendered }) => {
///         assert_eq!(schema, dir.join("game.fbs"));
///         assert!(rendered.contains("game.fbs:1:"), "{rendered}"); // file:line:col, then a snippet
///         assert!(rendered.contains("unknown type `shrot`"), "{rendered}");
///     }
///     other => panic!("{other:?}"),
/// }
/// // Outside a build script, without `out_dir`, there is nowhere to write.
/// if std::env::var_os("OUT_DIR").is_none() {
///     let err = Config::new().compile(&[dir.join("game.fbs")]).unwrap_err();
///     assert!(matches!(err, Error::NoOutDir));
/// }
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A schema has errors; `rendered` holds them with source snippets.
    #[error("{rendered}")]
    Schema {
        /// The schema that failed.
        schema: PathBuf,
        /// The diagnostics, rendered.
        rendered: String,
    },
    /// A schema uses something the generator does not support, or the generator failed.
    #[error("cannot generate Rust code for `{}`:\n{rendered}", schema.display())]
    Generate {
        /// The schema.
        schema: PathBuf,
        /// What went wrong, rendered.
        rendered: String,
    },
    /// Two schemas of one [`Config::compile`] call would be generated as the same file (their file
    /// names are the same, in different directories).
    #[error(
        "`{}` and `{}` would both be generated as `{file}`: rename one of them, or compile them \
         into different output directories",
        first.display(),
        second.display()
    )]
    SameOutputFile {
        /// The generated file's name.
        file: String,
        /// The schema compiled first.
        first: PathBuf,
        /// The other one.
        second: PathBuf,
    },
    /// No output directory: neither [`Config::out_dir`] nor the `OUT_DIR` variable cargo sets for
    /// build scripts.
    #[error("no output directory: OUT_DIR is not set (call Config::out_dir outside build.rs)")]
    NoOutDir,
    /// Writing a generated file failed.
    #[error("cannot write `{}`: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Configures and runs the code generation.
///
/// ```
/// let dir = std::env::temp_dir().join(format!("flatforge-build-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// std::fs::write(dir.join("point.fbs"), "struct Point { x: float; y: float; }")?;
/// let written = flatforge_build::Config::new()
///     .out_dir(&dir)
///     .emit_rerun_if_changed(false)
///     .compile(&[dir.join("point.fbs")])?;
/// assert_eq!(written, [dir.join("point_generated.rs")]);
/// let code = std::fs::read_to_string(&written[0])?;
/// assert!(code.contains("pub struct Point"));
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Config {
    include_dirs: Vec<PathBuf>,
    out_dir: Option<PathBuf>,
    options: flatforge_codegen::Options,
    rerun: bool,
    warnings: bool,
    color: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config::new()
    }
}

impl Config {
    /// The defaults: output to `OUT_DIR`, rerun-if-changed lines on, object API on, serde derives
    /// behind the including crate's `serde` feature.
    ///
    /// ```
    /// let config = flatforge_build::Config::new();
    /// ```
    pub fn new() -> Config {
        Config {
            include_dirs: Vec::new(),
            out_dir: None,
            options: flatforge_codegen::Options::new(),
            rerun: true,
            warnings: true,
            color: false,
        }
    }

    /// Adds a directory to search for included schemas (after the including file's directory).
    ///
    /// ```
    /// let config = flatforge_build::Config::new().include_dir("schemas").include_dir("vendor");
    /// ```
    pub fn include_dir(mut self, dir: impl Into<PathBuf>) -> Config {
        self.include_dirs.push(dir.into());
        self
    }

    /// Where to write the generated files (default: the `OUT_DIR` cargo gives build scripts); it
    /// is created, with its parents, when the first file is written.
    ///
    /// ```
    /// let config = flatforge_build::Config::new().out_dir("target/generated");
    /// ```
    pub fn out_dir(mut self, dir: impl Into<PathBuf>) -> Config {
        self.out_dir = Some(dir.into());
        self
    }

    /// The cargo feature of the including crate that turns on the serde derives (default
    /// `"serde"`); `None` generates no serde code. The including crate need not have the feature:
    /// [`Config::compile`] declares its cfg expected.
    ///
    /// ```
    /// let config = flatforge_build::Config::new().serde_feature(None);
    /// ```
    pub fn serde_feature(mut self, feature: Option<&str>) -> Config {
        self.options = self.options.serde_feature(feature);
        self
    }

    /// Whether to generate the object API (default on).
    ///
    /// ```
    /// let config = flatforge_build::Config::new().object_api(false);
    /// ```
    pub fn object_api(mut self, on: bool) -> Config {
        self.options = self.options.object_api(on);
        self
    }

    /// Whether to print `cargo:rerun-if-changed` lines for every schema file read (default on; in
    /// a build script only).
    ///
    /// ```
    /// let config = flatforge_build::Config::new().emit_rerun_if_changed(false);
    /// ```
    pub fn emit_rerun_if_changed(mut self, on: bool) -> Config {
        self.rerun = on;
        self
    }

    /// Whether to print the schemas' warnings (default on): as `cargo:warning=` lines in a build
    /// script, else on standard error.
    ///
    /// ```
    /// let config = flatforge_build::Config::new().print_warnings(false);
    /// ```
    pub fn print_warnings(mut self, on: bool) -> Config {
        self.warnings = on;
        self
    }

    /// Whether diagnostics in errors are colored (default off: cargo shows build script output
    /// as plain text).
    ///
    /// ```
    /// let config = flatforge_build::Config::new().color(true);
    /// ```
    pub fn color(mut self, on: bool) -> Config {
        self.color = on;
        self
    }

    /// Compiles each schema (with the files it includes) and writes `<stem>_generated.rs` to the
    /// output directory, unless a file with the same contents is already there. Returns the paths
    /// of the generated files, in the order of `schemas`. With a serde feature, it first prints
    /// `cargo:rustc-check-cfg=cfg(feature, values("serde"))` (see the crate docs). `cargo:` lines
    /// are printed in a build script only (see the crate docs).
    ///
    /// Stops at the first schema that fails; its error holds every diagnostic of that schema.
    ///
    /// ```
    /// let dir = std::env::temp_dir().join(format!("flatforge-build-err-{}", std::process::id()));
    /// std::fs::create_dir_all(&dir)?;
    /// std::fs::write(dir.join("bad.fbs"), "table T { a: Nope; }")?;
    /// let err = flatforge_build::Config::new()
    ///     .out_dir(&dir)
    ///     .emit_rerun_if_changed(false)
    ///     .compile(&[dir.join("bad.fbs")])
    ///     .unwrap_err();
    /// assert!(err.to_string().contains("unknown type `Nope`"));
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn compile(&self, schemas: &[impl AsRef<Path>]) -> Result<Vec<PathBuf>, Error> {
        let mut report = Report::new(std::env::var_os("OUT_DIR").is_some());
        let result = self.compile_reporting(schemas, &mut report);
        report.print();
        result
    }

    /// [`compile`](Self::compile), with what it prints collected in `report`.
    fn compile_reporting(
        &self,
        schemas: &[impl AsRef<Path>],
        report: &mut Report,
    ) -> Result<Vec<PathBuf>, Error> {
        let out_dir = match &self.out_dir {
            Some(d) => d.clone(),
            None => std::env::var_os("OUT_DIR")
                .map(PathBuf::from)
                .ok_or(Error::NoOutDir)?,
        };
        let compiler = self
            .include_dirs
            .iter()
            .fold(Compiler::new(FsLoader), |c, d| c.include_dir(d.clone()));
        if let Some(feature) = self.options.serde_feature_name() {
            report.cargo(check_cfg(feature));
        }
        let mut written = Vec::with_capacity(schemas.len());
        let mut outputs = OutputFiles::default();
        for schema in schemas {
            let schema = schema.as_ref();
            if self.rerun {
                report.cargo(format!("cargo:rerun-if-changed={}", schema.display()));
            }
            let compiled = match compiler.compile(schema) {
                Ok(c) => c,
                Err(e) => {
                    if self.rerun {
                        for f in &e.sources.files {
                            report.cargo(format!("cargo:rerun-if-changed={}", f.path.display()));
                        }
                    }
                    return Err(Error::Schema {
                        schema: schema.to_path_buf(),
                        rendered: e.render(self.color),
                    });
                }
            };
            if self.rerun {
                for f in &compiled.sources.files {
                    report.cargo(format!("cargo:rerun-if-changed={}", f.path.display()));
                }
            }
            let file_name = flatforge_codegen::output_file_name(&compiled.schema);
            match outputs.claim(&file_name, schema) {
                Claim::Taken(first) => {
                    return Err(Error::SameOutputFile {
                        file: file_name,
                        first: first.to_path_buf(),
                        second: schema.to_path_buf(),
                    })
                }
                Claim::Again => continue,
                Claim::New => {}
            }
            if self.warnings && !compiled.warnings.is_empty() {
                report.warnings(&flatforge_schema::render(
                    &compiled.warnings,
                    &compiled.sources,
                    false,
                ));
            }
            let file =
                flatforge_codegen::generate(&compiled.schema, &compiled.sources, &self.options)
                    .map_err(|e| Error::Generate {
                        schema: schema.to_path_buf(),
                        rendered: match &e {
                            flatforge_codegen::GenerateError::Unsupported { diagnostics } => {
                                flatforge_schema::render(diagnostics, &compiled.sources, self.color)
                            }
                            other => other.to_string(),
                        },
                    })?;
            if written.is_empty() {
                std::fs::create_dir_all(&out_dir).map_err(|source| Error::Io {
                    path: out_dir.clone(),
                    source,
                })?;
            }
            let path = out_dir.join(&file.name);
            write_if_changed(&path, file.code.as_bytes())?;
            written.push(path);
        }
        Ok(written)
    }
}

/// What [`Config::compile`] prints: `cargo:` lines on standard output in a build script, nothing
/// there otherwise; warnings as `cargo:warning=` lines, or on standard error outside a build script.
struct Report {
    build_script: bool,
    stdout: Vec<String>,
    stderr: String,
}

impl Report {
    fn new(build_script: bool) -> Report {
        Report {
            build_script,
            stdout: Vec::new(),
            stderr: String::new(),
        }
    }

    /// A `cargo:` line (dropped outside a build script, and when it was given already: a root
    /// schema is named once as given and once among the files read).
    fn cargo(&mut self, line: String) {
        if self.build_script && !self.stdout.contains(&line) {
            self.stdout.push(line);
        }
    }

    /// Rendered warnings.
    fn warnings(&mut self, rendered: &str) {
        if self.build_script {
            let lines = rendered.lines().map(|l| format!("cargo:warning={l}"));
            self.stdout.extend(lines);
        } else {
            self.stderr.push_str(rendered);
        }
    }

    fn print(&self) {
        for line in &self.stdout {
            println!("{line}");
        }
        eprint!("{}", self.stderr);
    }
}

/// The line that tells cargo that `cfg(feature = "{feature}")` is expected: the generated serde
/// derives are behind it, and in a crate without that feature rustc would warn (`unexpected_cfgs`)
/// at each.
fn check_cfg(feature: &str) -> String {
    format!("cargo:rustc-check-cfg=cfg(feature, values({feature:?}))")
}

/// Writes `contents` to `path` unless the file already holds exactly these bytes.
fn write_if_changed(path: &Path, contents: &[u8]) -> Result<(), Error> {
    if std::fs::read(path).is_ok_and(|old| old == contents) {
        return Ok(());
    }
    std::fs::write(path, contents).map_err(|source| Error::Io {
        path: path.to_path_buf(),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unchanged_files_are_not_rewritten() {
        let dir = std::env::temp_dir().join(format!("flatforge-build-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("a.fbs"), "table A { x: int; }").unwrap();
        let config = Config::new().out_dir(&dir).emit_rerun_if_changed(false);
        let out = config.compile(&[dir.join("a.fbs")]).unwrap();
        let before = std::fs::metadata(&out[0]).unwrap().modified().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(20));
        config.compile(&[dir.join("a.fbs")]).unwrap();
        let after = std::fs::metadata(&out[0]).unwrap().modified().unwrap();
        assert_eq!(before, after);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn schemas_generated_as_the_same_file_are_an_error() {
        let dir = std::env::temp_dir().join(format!("flatforge-build-same-{}", std::process::id()));
        for sub in ["a", "b"] {
            std::fs::create_dir_all(dir.join(sub)).unwrap();
            std::fs::write(dir.join(sub).join("x.fbs"), "table X { v: int; }").unwrap();
        }
        let config = Config::new().out_dir(&dir).emit_rerun_if_changed(false);
        let (a, b) = (dir.join("a/x.fbs"), dir.join("b/x.fbs"));
        let err = config.compile(&[&a, &b]).unwrap_err();
        assert!(
            matches!(&err, Error::SameOutputFile { file, first, second }
                if file == "x_generated.rs" && *first == a && *second == b),
            "{err}"
        );
        // The same schema twice, however it is named, is generated once.
        let also_a = dir.join("b/../a/x.fbs");
        assert_eq!(config.compile(&[&a, &also_a]).unwrap().len(), 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_namespace_too_deep_for_rust_is_an_error() {
        let dir = std::env::temp_dir().join(format!("flatforge-build-deep-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let components: Vec<String> = (0..3000).map(|i| format!("n{i}")).collect();
        let schema = dir.join("deep.fbs");
        std::fs::write(
            &schema,
            format!("namespace {}; table T {{}}", components.join(".")),
        )
        .unwrap();
        let err = Config::new()
            .out_dir(&dir)
            .emit_rerun_if_changed(false)
            .compile(&[&schema])
            .unwrap_err();
        let Error::Generate {
            schema: failed,
            rendered,
        } = &err
        else {
            panic!("{err}");
        };
        assert_eq!(*failed, schema);
        assert!(rendered.contains("has 3000 components"), "{rendered}");
        assert!(rendered.contains("supports at most 256"), "{rendered}");
        assert!(!dir.join("deep_generated.rs").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_serde_feature_is_declared_an_expected_cfg() {
        assert_eq!(
            check_cfg("serde"),
            r#"cargo:rustc-check-cfg=cfg(feature, values("serde"))"#
        );
        assert_eq!(
            check_cfg("with \"quotes\""),
            r#"cargo:rustc-check-cfg=cfg(feature, values("with \"quotes\""))"#
        );
    }

    #[test]
    fn cargo_lines_are_printed_in_build_scripts_only() {
        let dir =
            std::env::temp_dir().join(format!("flatforge-build-lines-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // An include that nothing uses is a warning.
        std::fs::write(dir.join("lib.fbs"), "table L { x: int; }").unwrap();
        std::fs::write(
            dir.join("main.fbs"),
            "include \"lib.fbs\"; table M { y: int; }",
        )
        .unwrap();
        let config = Config::new().out_dir(&dir);
        let schema = dir.join("main.fbs");

        let mut script = Report::new(true);
        config.compile_reporting(&[&schema], &mut script).unwrap();
        let stdout = script.stdout.join("\n");
        assert!(
            stdout.contains(r#"cargo:rustc-check-cfg=cfg(feature, values("serde"))"#),
            "{stdout}"
        );
        assert!(
            stdout.contains(&format!("cargo:rerun-if-changed={}", schema.display())),
            "{stdout}"
        );
        assert!(stdout.contains("lib.fbs"), "{stdout}");
        assert!(
            stdout.contains("cargo:warning=warning: nothing from"),
            "{stdout}"
        );
        assert!(script.stderr.is_empty());

        let mut program = Report::new(false);
        config.compile_reporting(&[&schema], &mut program).unwrap();
        assert!(program.stdout.is_empty(), "{:?}", program.stdout);
        assert!(
            program.stderr.contains("warning: nothing from"),
            "{}",
            program.stderr
        );
        assert!(program.stderr.contains("main.fbs:1:"), "{}", program.stderr);

        // Each file once, the root schema included.
        let reruns = |lines: &[String]| {
            let mut files: Vec<&String> = lines
                .iter()
                .filter(|l| l.starts_with("cargo:rerun-if-changed="))
                .collect();
            let all = files.len();
            files.dedup();
            (all, files.len())
        };
        let (all, distinct) = reruns(&script.stdout);
        assert_eq!((all, distinct), (2, 2), "{stdout}");

        let quiet = config.print_warnings(false).emit_rerun_if_changed(false);
        let mut script = Report::new(true);
        quiet.compile_reporting(&[&schema], &mut script).unwrap();
        assert_eq!(script.stdout.len(), 1, "{:?}", script.stdout); // the check-cfg line
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_out_dir_is_created_when_a_file_is_written() {
        let dir =
            std::env::temp_dir().join(format!("flatforge-build-mkdir-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("a.fbs"), "table A { x: int; }").unwrap();
        std::fs::write(dir.join("bad.fbs"), "table A { x: Nope; }").unwrap();
        let out = dir.join("generated/deeper");
        let config = Config::new().out_dir(&out).emit_rerun_if_changed(false);
        // Nothing to write: nothing created.
        assert!(config.compile(&[dir.join("bad.fbs")]).is_err());
        assert!(!dir.join("generated").exists());
        let written = config.compile(&[dir.join("a.fbs")]).unwrap();
        assert_eq!(written, [out.join("a_generated.rs")]);
        assert!(written[0].is_file());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn missing_out_dir_is_an_error() {
        if std::env::var_os("OUT_DIR").is_none() {
            let err = Config::new().compile(&["x.fbs"]).unwrap_err();
            assert!(matches!(err, Error::NoOutDir));
        }
    }
}
