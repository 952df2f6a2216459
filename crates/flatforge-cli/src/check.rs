//! `flatforge check`: compiles schemas and reports their errors and warnings.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use flatforge_schema::{Compiler, FsLoader, Schema};

use crate::output::{
    count, print_line, stdin_repeated, warn_missing_dirs, Output, EXIT_INVALID, EXIT_USAGE,
    STDIN_NAME,
};

/// Arguments of `flatforge check`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Each SCHEMA is compiled on its own, with the files it includes. \
Includes are found relative to the including file, then in each -I directory in order. \
A SCHEMA of `-` is read from standard input, as `<stdin>`, with its includes relative to the \
current directory.\n\n\
Exit status: 0 when every schema is valid (warnings allowed), 1 when one is not, 2 on usage errors."
)]
pub(crate) struct Args {
    /// Add DIR to the directories searched for included files (repeatable).
    #[arg(short = 'I', long = "include", value_name = "DIR")]
    include: Vec<PathBuf>,
    /// Print nothing for valid schemas.
    #[arg(short, long)]
    quiet: bool,
    /// Schema files (.fbs) to check (`-` for stdin).
    #[arg(value_name = "SCHEMA", required = true)]
    schemas: Vec<PathBuf>,
}

pub(crate) fn run(args: &Args, out: &Output) -> anyhow::Result<ExitCode> {
    warn_missing_dirs(&args.include, out);
    let mut compiler = Compiler::new(FsLoader);
    for dir in &args.include {
        compiler = compiler.include_dir(dir.clone());
    }
    if stdin_repeated(&args.schemas, out) {
        return Ok(ExitCode::from(EXIT_USAGE));
    }
    let mut failed = 0usize;
    for path in &args.schemas {
        let compiled = if is_stdin(path) {
            let text = crate::verify::read_input(path)?;
            compiler.compile_bytes(STDIN_NAME, &text)
        } else {
            compiler.compile(path)
        };
        let path = if is_stdin(path) {
            Path::new(STDIN_NAME)
        } else {
            path
        };
        match compiled {
            Ok(compiled) => {
                out.diagnostics(&compiled.warnings, &compiled.sources);
                if !args.quiet {
                    print_line(format_args!(
                        "ok: {} ({})",
                        path.display(),
                        summary(&compiled.schema)
                    ))?;
                }
            }
            Err(err) => {
                failed += 1;
                out.compile_error(path, &err);
            }
        }
    }
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_INVALID)
    })
}

fn is_stdin(path: &Path) -> bool {
    path == Path::new("-")
}

fn summary(schema: &Schema) -> String {
    let tables = schema.objects.iter().filter(|o| !o.is_struct).count();
    let structs = schema.objects.len() - tables;
    let unions = schema.enums.iter().filter(|e| e.is_union).count();
    let enums = schema.enums.len() - unions;
    let mut parts = vec![
        count(tables, "table"),
        count(structs, "struct"),
        count(enums, "enum"),
        count(unions, "union"),
    ];
    if !schema.services.is_empty() {
        parts.push(count(schema.services.len(), "service"));
    }
    parts.join(", ")
}
