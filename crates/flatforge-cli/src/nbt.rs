//! `flatforge nbt`: shows Minecraft NBT files as SNBT or JSON and converts them between variants and
//! compressions. The work is done by `flatforge-nbt`; this module reads and writes files (`-` is
//! stdin/stdout) and turns errors into messages with the byte offset and path.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use flatforge_nbt::snbt::{to_snbt, Dialect, SnbtOptions};
use flatforge_nbt::{json, Compression, Format, Nbt, Variant};

/// Arguments of `flatforge nbt`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(subcommand)]
    command: NbtCommand,
}

#[derive(Debug, clap::Subcommand)]
enum NbtCommand {
    /// Print an NBT file as pretty SNBT (default) or JSON.
    Show(ShowArgs),
    /// Convert an NBT file to another variant and/or compression.
    Convert(ConvertArgs),
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum VariantArg {
    Java,
    JavaNetwork,
    Bedrock,
    BedrockNetwork,
}

impl From<VariantArg> for Variant {
    fn from(v: VariantArg) -> Variant {
        match v {
            VariantArg::Java => Variant::Java,
            VariantArg::JavaNetwork => Variant::JavaNetwork,
            VariantArg::Bedrock => Variant::Bedrock,
            VariantArg::BedrockNetwork => Variant::BedrockNetwork,
        }
    }
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum CompressionArg {
    None,
    Gzip,
    Zlib,
}

impl From<CompressionArg> for Compression {
    fn from(c: CompressionArg) -> Compression {
        match c {
            CompressionArg::None => Compression::None,
            CompressionArg::Gzip => Compression::Gzip,
            CompressionArg::Zlib => Compression::Zlib,
        }
    }
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum ShowFormat {
    Snbt,
    Json,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum DialectArg {
    /// Minecraft up to 1.21.4.
    Classic,
    /// Minecraft 1.21.5 and later.
    Modern,
}

#[derive(Debug, clap::Args)]
#[command(
    after_help = "The compression (gzip, zlib, none), the variant and a Bedrock level.dat header \
are detected unless --from names the variant.\n\nExit status: 0 on success, 1 when the input is not valid \
NBT (the message names the byte offset and the path), 2 on usage errors."
)]
struct ShowArgs {
    /// Output format.
    #[arg(long, value_enum, default_value_t = ShowFormat::Snbt)]
    format: ShowFormat,
    /// SNBT grammar to print.
    #[arg(long, value_enum, default_value_t = DialectArg::Modern)]
    dialect: DialectArg,
    /// The input's variant (detected when absent).
    #[arg(long, value_enum)]
    from: Option<VariantArg>,
    /// NBT file, or `-` for standard input.
    #[arg(value_name = "FILE")]
    file: PathBuf,
}

#[derive(Debug, clap::Args)]
#[command(
    after_help = "The output keeps the input's variant, compression and Bedrock header unless \
--to or --compression say otherwise.\n\nExit status: 0 on success, 1 when the input is not valid NBT or \
cannot be written in the target variant, 2 on usage errors."
)]
struct ConvertArgs {
    /// NBT file, or `-` for standard input.
    #[arg(value_name = "IN")]
    input: PathBuf,
    /// Output file, or `-` for standard output.
    #[arg(short, long, value_name = "OUT")]
    output: PathBuf,
    /// The input's variant (detected when absent).
    #[arg(long, value_enum)]
    from: Option<VariantArg>,
    /// The output's variant.
    #[arg(long, value_enum)]
    to: Option<VariantArg>,
    /// The output's compression.
    #[arg(long, value_enum)]
    compression: Option<CompressionArg>,
}

pub(crate) fn run(args: &Args) -> anyhow::Result<ExitCode> {
    match &args.command {
        NbtCommand::Show(a) => show(a),
        NbtCommand::Convert(a) => convert(a),
    }
}

fn read_input(path: &Path) -> anyhow::Result<Vec<u8>> {
    if path == Path::new("-") {
        let mut data = Vec::new();
        std::io::stdin()
            .read_to_end(&mut data)
            .context("reading standard input")?;
        Ok(data)
    } else {
        std::fs::read(path).with_context(|| format!("reading {}", path.display()))
    }
}

fn load(path: &Path, from: Option<VariantArg>) -> anyhow::Result<(Nbt, Format)> {
    let data = read_input(path)?;
    let result = match from {
        Some(v) => Nbt::from_file_bytes_as(&data, v.into()),
        None => Nbt::from_file_bytes(&data),
    };
    result.with_context(|| format!("{} is not valid NBT", path.display()))
}

fn show(args: &ShowArgs) -> anyhow::Result<ExitCode> {
    let (nbt, _) = load(&args.file, args.from)?;
    let text = match args.format {
        ShowFormat::Snbt => {
            let dialect = match args.dialect {
                DialectArg::Classic => Dialect::Classic,
                DialectArg::Modern => Dialect::Modern,
            };
            to_snbt(
                &nbt.tag,
                SnbtOptions {
                    dialect,
                    pretty: true,
                },
            )
        }
        ShowFormat::Json => json::to_json(&nbt.tag, true).context("converting to JSON")?,
    };
    let mut stdout = std::io::stdout().lock();
    writeln!(stdout, "{text}").context("writing standard output")?;
    Ok(ExitCode::SUCCESS)
}

fn convert(args: &ConvertArgs) -> anyhow::Result<ExitCode> {
    let (nbt, input) = load(&args.input, args.from)?;
    let variant = args.to.map_or(input.variant, Variant::from);
    let format = Format {
        variant,
        compression: args
            .compression
            .map_or(input.compression, Compression::from),
        bedrock_header: input.bedrock_header.filter(|_| variant == Variant::Bedrock),
    };
    let bytes = nbt
        .to_file_bytes(&format)
        .with_context(|| format!("cannot write {} as {variant}", args.input.display()))?;
    if args.output == Path::new("-") {
        let mut stdout = std::io::stdout().lock();
        stdout
            .write_all(&bytes)
            .context("writing standard output")?;
        stdout.flush().context("writing standard output")?;
    } else {
        std::fs::write(&args.output, &bytes)
            .with_context(|| format!("writing {}", args.output.display()))?;
    }
    Ok(ExitCode::SUCCESS)
}
