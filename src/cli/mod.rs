//! The command line on top of the library: parses arguments, sets up
//! logging, and hands each command its validated settings. The only module
//! that sees `clap` types; `anyhow` context is added here.

mod args;
mod bench;
mod calibrate;
mod dry_run;
mod live;
mod practice;
mod solve;
mod windows;

use std::process::ExitCode;

use std::io::Write as _;

use anyhow::Result;
use clap::Parser;

use crate::solver::SolveOptions;
use crate::vision::Calibration;

pub use args::Cli;
use args::Command;

/// Runs the `bot` command line and returns its exit code: 0 on success, 2 on
/// bad input or any other error (after a one-line message).
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => return usage_error(&error),
    };
    init_logging(cli.verbose, cli.quiet);
    match run(cli) {
        Ok(code) => code,
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::from(2)
        }
    }
}

/// Help and version go out as clap writes them; a bad argument becomes the
/// one-line error that every other bad input gets (clap's own message spans
/// several lines with usage and tips), exit code 2.
fn usage_error(error: &clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    if matches!(
        error.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        // Prints to stdout and exits 0, or 2 for a bare `bot solve`.
        error.exit();
    }
    let text = error.render().to_string();
    let mut line = String::new();
    for part in text
        .lines()
        .map(str::trim)
        .filter(|l| {
            !l.is_empty() && !l.starts_with("Usage:") && !l.starts_with("For more information")
        })
        .map(|l| l.strip_prefix("error: ").unwrap_or(l))
    {
        // A list announced by a colon continues the sentence.
        if !line.is_empty() {
            line += if line.ends_with(':') { " " } else { "; " };
        }
        line += part;
    }
    eprintln!("error: {line}");
    ExitCode::from(2)
}

fn init_logging(verbose: u8, quiet: u8) {
    let level = match i16::from(verbose) - i16::from(quiet) {
        i16::MIN..=-2 => log::LevelFilter::Error,
        -1 => log::LevelFilter::Warn,
        0 => log::LevelFilter::Info,
        1 => log::LevelFilter::Debug,
        _ => log::LevelFilter::Trace,
    };
    env_logger::Builder::new()
        .filter_level(level)
        .parse_env("DUSTBOT_LOG")
        .format_target(false)
        .init();
}

fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Some(Command::Solve(args)) => solve::run(&args),
        Some(Command::Bench(args)) => bench::run(&args),
        Some(Command::Calibrate(args)) => calibrate::run(&args),
        Some(Command::Practice(args)) => practice::run(&args),
        Some(Command::Windows) => windows::run(),
        None => match (&cli.play.dry_run, &cli.play.window) {
            (Some(images), None) => dry_run::run(images, &cli.play),
            (_, Some(_)) => live::run(&cli.play),
            (None, None) => {
                anyhow::bail!(
                    "nothing to do: give --window TEXT, --dry-run IMAGE..., or a command (see --help)"
                )
            }
        },
    }
}

/// What live play and dry runs share: the calibration (and where it came
/// from) and the solver settings.
struct PlaySettings {
    calibration: Calibration,
    calibration_path: std::path::PathBuf,
    solve: SolveOptions,
}

fn play_settings(args: &args::PlayArgs) -> Result<PlaySettings> {
    if args.threads == Some(0) {
        anyhow::bail!("--threads 0: the solver needs at least one thread");
    }
    let calibration_path = args
        .calibration
        .clone()
        .unwrap_or_else(Calibration::default_path);
    let calibration = Calibration::load(&calibration_path)?;
    let solve = SolveOptions {
        time_limit: args.time,
        threads: args.threads.unwrap_or(SolveOptions::default().threads),
        ..SolveOptions::default()
    };
    Ok(PlaySettings {
        calibration,
        calibration_path,
        solve,
    })
}

/// Prints `text` at once (a search may go on for long); a closed standard
/// output (`| head`) only silences the run.
fn show(text: &str) {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .ok();
}
