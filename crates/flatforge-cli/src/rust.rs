//! `flatforge rust`: generates Rust code (views, verifiers, builders, object API) for schemas.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use flatforge_schema::{Compiler, FsLoader};

use crate::output::{Output, EXIT_INVALID};

/// Arguments of `flatforge rust`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Each SCHEMA gives OUT_DIR/<stem>_generated.rs with its definitions and those of every \
file it includes (one module per namespace); include it with \
`include!(concat!(env!(\"OUT_DIR\"), \"/<stem>_generated.rs\"))` or as a module. The code needs the \
`flatforge` runtime of the same version. Files are rewritten only when their contents change.\n\n\
Exit status: 0 when every schema was generated, 1 when one was not, 2 on usage errors."
)]
pub(crate) struct Args {
    /// Add DIR to the directories searched for included files (repeatable).
    #[arg(short = 'I', long = "include", value_name = "DIR")]
    include: Vec<PathBuf>,
    /// Directory to write the generated files to (created if missing).
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
    /// Print nothing for generated files.
    #[arg(short, long)]
    quiet: bool,
    /// Schema files (.fbs).
    #[arg(value_name = "SCHEMA", required = true)]
    schemas: Vec<PathBuf>,
}

pub(crate) fn run(args: &Args, out: &Output) -> anyhow::Result<ExitCode> {
    let compiler = args
        .include
        .iter()
        .fold(Compiler::new(FsLoader), |c, d| c.include_dir(d.clone()));
    let options = flatforge_codegen::Options::new()
        .object_api(!args.no_object_api)
        .serde_feature((!args.no_serde).then_some(args.serde_feature.as_str()));
    std::fs::create_dir_all(&args.out_dir)
        .with_context(|| format!("cannot create `{}`", args.out_dir.display()))?;
    let mut failed = 0usize;
    for path in &args.schemas {
        let compiled = match compiler.compile(path) {
            Ok(c) => c,
            Err(err) => {
                failed += 1;
                out.diagnostics(&err.diagnostics, &err.sources);
                let n = err.error_count();
                out.error(&format!(
                    "{}: {n} error{}",
                    path.display(),
                    if n == 1 { "" } else { "s" }
                ));
                continue;
            }
        };
        out.diagnostics(&compiled.warnings, &compiled.sources);
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
        let target = args.out_dir.join(&file.name);
        let unchanged = std::fs::read(&target).is_ok_and(|old| old == file.code.as_bytes());
        if !unchanged {
            std::fs::write(&target, &file.code)
                .with_context(|| format!("cannot write `{}`", target.display()))?;
        }
        if !args.quiet {
            println!(
                "{}: {} ({})",
                if unchanged { "unchanged" } else { "wrote" },
                target.display(),
                path.display()
            );
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
        let code = run_with(&["-q", "-I", d, "-o", o, m.to_str().unwrap()]);
        assert_eq!(code, ExitCode::SUCCESS);
        let text = std::fs::read_to_string(out.join("main_generated.rs")).unwrap();
        assert!(text.contains("pub mod dep"), "{text}");
        assert!(text.contains("pub fn root_as_t("), "{text}");
        let bad = dir.join("bad.fbs");
        let code = run_with(&["-q", "-o", o, bad.to_str().unwrap()]);
        assert_eq!(code, ExitCode::from(EXIT_INVALID));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
