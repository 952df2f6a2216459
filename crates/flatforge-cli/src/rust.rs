//! `flatforge rust`: generates Rust code (views, verifiers, builders, object API) for schemas.
//!
//! The code generator formats in process (prettyplease). Code written here is usually committed
//! and checked with `cargo fmt --check`, so it is passed through `rustfmt` as well when one is
//! installed (`--rustfmt`), which makes it exactly what `cargo fmt` would write.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};

use anyhow::Context;
use flatforge_codegen::{Claim, OutputFiles};
use flatforge_schema::{Compiler, FsLoader};

use crate::output::{print_line, warn_missing_dirs, Output, UsageError, EXIT_INVALID};

/// Arguments of `flatforge rust`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Each SCHEMA gives OUT_DIR/<stem>_generated.rs with its definitions and those of every \
file it includes (one module per namespace); include it with \
`include!(concat!(env!(\"OUT_DIR\"), \"/<stem>_generated.rs\"))` or as a module. The code needs the \
`flatforge` runtime of the same version. Files are rewritten only when their contents change.\n\n\
Schemas generated separately each get their own copy of what they include: Arrow's File.fbs and \
Message.fbs both include Schema.fbs, so File_generated.rs and Message_generated.rs each define \
`Schema`, `Field`, ..., and in one crate those are distinct types. For shared types, generate one \
schema that includes the others (`include \"File.fbs\"; include \"Message.fbs\";`): its file has \
every definition once and the root functions of each included file (the warnings that nothing of \
those includes is used are expected there). flatforge-build's Config::compile does the same per \
schema.\n\n\
The serde derives are behind the including crate's feature (--serde-feature): a crate without it \
declares the cfg expected in its Cargo.toml, as the generated file's header shows, or uses \
--no-serde.\n\n\
Exit status: 0 when every schema was generated, 1 when one was not, 2 on usage errors."
)]
pub(crate) struct Args {
    /// Add DIR to the directories searched for included files (repeatable).
    #[arg(short = 'I', long = "include", value_name = "DIR")]
    include: Vec<PathBuf>,
    /// Directory to write the generated files to (created when there is a file to write).
    #[arg(short = 'o', long = "out-dir", value_name = "OUT_DIR")]
    out_dir: PathBuf,
    /// Do not generate the object API (owned `...T` types with pack/unpack).
    #[arg(long)]
    no_object_api: bool,
    /// The cargo feature of the including crate that enables the serde derives of the object API.
    #[arg(
        long,
        value_name = "FEATURE",
        default_value = "serde",
        conflicts_with = "no_serde"
    )]
    serde_feature: String,
    /// Generate no serde derives.
    #[arg(long)]
    no_serde: bool,
    /// When to pass the code through rustfmt (`RUSTFMT` or `rustfmt` on PATH): `auto` when it is
    /// installed, `always` (an error if it is not), `never` (the generator's own formatting).
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = Rustfmt::Auto)]
    rustfmt: Rustfmt,
    /// Print nothing for generated files.
    #[arg(short, long)]
    quiet: bool,
    /// Schema files (.fbs).
    #[arg(value_name = "SCHEMA", required = true)]
    schemas: Vec<PathBuf>,
}

/// The `--rustfmt` choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Rustfmt {
    /// Use rustfmt when it is installed.
    Auto,
    /// Always use rustfmt; fail if it is missing.
    Always,
    /// Never use rustfmt.
    Never,
}

/// The rustfmt to run: `RUSTFMT` or `rustfmt` from PATH.
fn rustfmt_program() -> PathBuf {
    std::env::var_os("RUSTFMT").map_or_else(|| PathBuf::from("rustfmt"), PathBuf::from)
}

/// Formats `code` with `rustfmt` (edition 2021, its default settings). `Ok(None)` when the program
/// cannot be started (not installed); an error when it runs and fails.
fn rustfmt(program: &Path, code: &str) -> anyhow::Result<Option<String>> {
    let mut child = match Command::new(program)
        .args(["--edition", "2021", "--emit", "stdout", "--quiet"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
    {
        Ok(child) => child,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e).with_context(|| format!("cannot run `{}`", program.display())),
    };
    // Write from a thread: rustfmt may fill its output pipe before it has read all its input.
    let mut stdin = child.stdin.take().expect("stdin is piped");
    let input = code.to_owned();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child
        .wait_with_output()
        .with_context(|| format!("cannot run `{}`", program.display()))?;
    let written = writer.join().expect("the writer thread does not panic");
    anyhow::ensure!(
        output.status.success(),
        "`{}` failed on the generated code ({}): {}",
        program.display(),
        output.status,
        String::from_utf8_lossy(&output.stderr).trim()
    );
    written.with_context(|| format!("cannot write to `{}`", program.display()))?;
    String::from_utf8(output.stdout)
        .map(Some)
        .with_context(|| format!("`{}` wrote invalid UTF-8", program.display()))
}

pub(crate) fn run(args: &Args, out: &Output) -> anyhow::Result<ExitCode> {
    warn_missing_dirs(&args.include, out);
    if args.out_dir.exists() && !args.out_dir.is_dir() {
        return Err(anyhow::Error::new(UsageError(format!(
            "`{}` is a file: -o names the directory the code goes to",
            args.out_dir.display()
        ))));
    }
    let compiler = args
        .include
        .iter()
        .fold(Compiler::new(FsLoader), |c, d| c.include_dir(d.clone()));
    let options = flatforge_codegen::Options::new()
        .object_api(!args.no_object_api)
        .serde_feature((!args.no_serde).then_some(args.serde_feature.as_str()));
    let mut failed = 0usize;
    let mut outputs = OutputFiles::default();
    for path in &args.schemas {
        let compiled = match compiler.compile(path) {
            Ok(c) => c,
            Err(err) => {
                failed += 1;
                out.compile_error(path, &err);
                continue;
            }
        };
        out.diagnostics(&compiled.warnings, &compiled.sources);
        let name = flatforge_codegen::output_file_name(&compiled.schema);
        match outputs.claim(&name, path) {
            Claim::Taken(first) => {
                failed += 1;
                out.error(&format!(
                    "`{}` and `{}` would both be written to `{}`: rename one of them, or generate \
                     them into different directories",
                    first.display(),
                    path.display(),
                    args.out_dir.join(&name).display()
                ));
                continue;
            }
            Claim::Again => continue,
            Claim::New => {}
        }
        let file = match flatforge_codegen::generate(&compiled.schema, &compiled.sources, &options)
        {
            Ok(f) => f,
            Err(flatforge_codegen::GenerateError::Unsupported { diagnostics }) => {
                failed += 1;
                out.diagnostics(&diagnostics, &compiled.sources);
                out.error(&format!(
                    "{}: cannot generate Rust code for this schema",
                    path.display()
                ));
                continue;
            }
            Err(e) => return Err(e.into()),
        };
        let mut code = file.code;
        if args.rustfmt != Rustfmt::Never {
            let program = rustfmt_program();
            match rustfmt(&program, &code)? {
                Some(formatted) => code = formatted,
                None if args.rustfmt == Rustfmt::Always => anyhow::bail!(
                    "`{}` is not installed (rustup component add rustfmt), and --rustfmt always \
                     asks for it",
                    program.display()
                ),
                None => {}
            }
        }
        let target = args.out_dir.join(&file.name);
        let unchanged = std::fs::read(&target).is_ok_and(|old| old == code.as_bytes());
        if !unchanged {
            // Created only now, so that a run that writes nothing leaves no directory behind.
            std::fs::create_dir_all(&args.out_dir)
                .with_context(|| format!("cannot create `{}`", args.out_dir.display()))?;
            std::fs::write(&target, &code)
                .with_context(|| format!("cannot write `{}`", target.display()))?;
        }
        if !args.quiet {
            print_line(format_args!(
                "{}: {} ({})",
                if unchanged { "unchanged" } else { "wrote" },
                target.display(),
                path.display()
            ))?;
        }
    }
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_INVALID)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::ColorChoice;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: Args,
    }

    fn run_with(argv: &[&str]) -> ExitCode {
        let cli = Cli::try_parse_from(std::iter::once("rust").chain(argv.iter().copied()))
            .expect("valid arguments");
        run(&cli.args, &Output::new(ColorChoice::Never)).expect("runs")
    }

    #[test]
    fn writes_one_file_per_schema_and_fails_on_errors() {
        let dir = std::env::temp_dir().join(format!("flatforge-cli-rust-{}", std::process::id()));
        let inc = dir.join("inc");
        std::fs::create_dir_all(&inc).unwrap();
        std::fs::write(inc.join("dep.fbs"), "namespace Dep; struct P { x: int; }").unwrap();
        std::fs::write(
            dir.join("main.fbs"),
            "include \"dep.fbs\"; table T { p: Dep.P; } root_type T;",
        )
        .unwrap();
        std::fs::write(dir.join("bad.fbs"), "table T { x: Nope; }").unwrap();
        let out = dir.join("out");
        let (d, o, m) = (
            inc.to_str().unwrap(),
            out.to_str().unwrap(),
            dir.join("main.fbs"),
        );
        let code = run_with(&[
            "-q",
            "--rustfmt",
            "never",
            "-I",
            d,
            "-o",
            o,
            m.to_str().unwrap(),
        ]);
        assert_eq!(code, ExitCode::SUCCESS);
        let text = std::fs::read_to_string(out.join("main_generated.rs")).unwrap();
        assert!(text.contains("pub mod dep"), "{text}");
        assert!(text.contains("pub fn root_as_t("), "{text}");
        let bad = dir.join("bad.fbs");
        let code = run_with(&["-q", "--rustfmt", "never", "-o", o, bad.to_str().unwrap()]);
        assert_eq!(code, ExitCode::from(EXIT_INVALID));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
