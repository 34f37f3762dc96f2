//! The terminal's faces on top of the library: the `bot` command line
//! parses arguments, sets up logging and hands each command its validated
//! settings (live play's as the run floor's [`crate::app::Options`]); `bot`
//! alone on a terminal is the front door's terminal face ([`guided`]). The
//! only module that sees `clap` types; `anyhow` context is added here.

mod args;
mod assist;
mod bench;
mod calibrate;
mod dry_run;
mod guided;
pub mod live;
mod practice;
mod progress;
mod solve;
mod stats;
mod stdout;
mod windows;

use std::path::Path;
use std::process::ExitCode;

use anyhow::Result;

use crate::app::{self, Mode, Options, Run, Target};
use crate::desktop::console;

pub use args::Cli;
use args::Command;
use stdout::{say, show};

/// Runs the `bot` command line and returns its exit code: 0 on success, 2 on
/// bad input or any other error (after a one-line message).
pub fn main() -> ExitCode {
    // Before any window, capture or click (see `desktop::prepare`).
    let prepared = crate::desktop::prepare();
    // Before any colour: Windows 10's console draws escape codes only
    // once asked to (the guided grid asks again, to know the answer).
    console::colour();
    hold_after_a_panic();
    // A double-click starts the guided session, on the console Windows
    // made for it; without one to ask on, it says what to do.
    if std::env::args_os().len() == 1 && crate::desktop::own_console() && !guided::on_a_terminal() {
        return started_from_explorer();
    }
    let cli = match parse() {
        Ok(cli) => cli,
        Err(error) => {
            // A shortcut with a mistyped flag: the error stays readable.
            let code = usage_error(&error);
            if code != ExitCode::SUCCESS {
                console::hold_if_closing();
            }
            return code;
        }
    };
    // The guided session's terminal is the player's to read: its lines
    // are the session's own, which say every warning in words; the log's
    // lines show there only when asked for (-v), and are kept for a
    // report either way.
    let guided = guided::wanted(&cli);
    let quiet = cli.quiet.saturating_add(u8::from(guided));
    let shown = !guided || cli.verbose > 0;
    let bars = app::logging::init(cli.verbose, quiet, shown);
    if let Err(cause) = prepared {
        log::warn!("{cause}: on a scaled display the pixels read and the clicks may disagree");
    }
    if let Some(folder) = crate::desktop::folders::unpacked_for_one_run() {
        log::warn!(
            "the bot runs from inside an archive (a copy alone in {}, which goes when the archive is closed): extract the zip first (right-click it, Extract All), then start the bot in the folder extracted",
            folder.display()
        );
    }
    let code = match run(cli, &bars) {
        // What the run did cannot have been said whole.
        Ok(code) => match stdout::failure() {
            Some(cause) => {
                eprintln!("error: standard output cannot be written: {cause}");
                ExitCode::from(2)
            }
            None => code,
        },
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::from(2)
        }
    };
    // A failed run whose console closes at exit (a shortcut, a batch
    // file run from Explorer) waits for Enter: the player reads why first.
    if code != ExitCode::SUCCESS {
        console::hold_if_closing();
    }
    // The hint window's and the practice window's thread left before the
    // exit (see `end_windows`).
    crate::desktop::end_windows();
    code
}

/// `bot` double-clicked in Explorer: its console closes when it exits, so
/// it says what to do and waits for Enter instead of flashing past.
fn started_from_explorer() -> ExitCode {
    say!("{}", args::GETTING_STARTED);
    console::hold_if_closing();
    ExitCode::SUCCESS
}

/// A panic is said as Rust says it, then the console the player may be
/// using gets its QuickEdit back, and a console that closes at exit waits
/// for Enter, so that the message can be read (and reported).
fn hold_after_a_panic() {
    let said = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        said(info);
        console::restore_input_mode();
        console::hold_if_closing();
    }));
}

/// The command line, `--help` ending with where the settings are.
fn parse() -> Result<Cli, clap::Error> {
    use clap::{CommandFactory as _, FromArgMatches as _};
    let command = Cli::command();
    let help = format!(
        "{}\n\n{}",
        command
            .get_after_help()
            .map(ToString::to_string)
            .unwrap_or_default(),
        app::settings::help_line()
    );
    let matches = command.after_help(help).try_get_matches()?;
    Cli::from_arg_matches(&matches)
}

/// Help and version go out as clap writes them; a bad argument becomes the
/// one-line error that every other bad input gets (clap's own message spans
/// several lines with usage and tips), exit code 2.
fn usage_error(error: &clap::Error) -> ExitCode {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if matches!(
        error.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        // To stdout, exit 0, or 2 for a bare `bot solve`; help that
        // cannot be written is a failure like any other output's.
        return match error
            .print()
            .and_then(|()| std::io::Write::flush(&mut std::io::stdout()))
        {
            Ok(()) => ExitCode::from(u8::try_from(error.exit_code()).unwrap_or(2)),
            Err(cause) => {
                eprintln!("error: standard output cannot be written: {cause}");
                ExitCode::from(2)
            }
        };
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
    // clap quotes the value it refused, which may be anything a user
    // pasted: a one-line error stays one readable line.
    if let Some(ContextValue::String(value)) = error.get(ContextKind::InvalidValue) {
        let cut: String = value.chars().take(crate::text::EXCERPT).collect();
        if cut.len() < value.len() {
            line = line.replace(value.as_str(), &format!("{cut}..."));
        }
    }
    eprintln!("error: {line}");
    ExitCode::from(2)
}

fn run(cli: Cli, bars: &indicatif::MultiProgress) -> Result<ExitCode> {
    let guided = guided::wanted(&cli);
    match cli.command {
        Some(Command::Solve(args)) => solve::run(&args),
        Some(Command::Bench(args)) => bench::run(&args, bars),
        Some(Command::Calibrate(args)) => calibrate::run(&args),
        Some(Command::Practice(args)) => practice::run(&args),
        Some(Command::Stats(args)) => stats::run(&args),
        Some(Command::Windows) => windows::run(),
        Some(Command::Report(args)) => report(&args.debug_dir),
        None => {
            let play = &cli.play;
            match (&play.window, play.dry_run) {
                (Some(_), _) if !play.images.is_empty() => anyhow::bail!(
                    "--window reads the live window: give no images with it, or no --window"
                ),
                (Some(text), dry_run) => {
                    // The one place the flags settle what a run does.
                    let mode = match (play.assist, dry_run) {
                        (true, _) => Mode::Assist,
                        (false, true) => Mode::Watch,
                        (false, false) => Mode::Play,
                    };
                    let run = Run::of(&Options::from(play), mode, Target::Text(text.clone()))?;
                    live::games(
                        &run,
                        &mut crate::desktop::system(),
                        play.hint_log.as_deref(),
                    )
                }
                (None, true) => dry_run::run(play),
                (None, false) if guided => guided::run(Options::from(play)),
                (None, false) => anyhow::bail!(
                    "nothing to do: give --window TEXT, --dry-run IMAGE..., or a command (see --help)"
                ),
            }
        }
    }
}

/// `bot report`: writes the report into the data folder and says where.
fn report(debug_dir: &Path) -> Result<ExitCode> {
    let data = crate::desktop::folders::data_folder()?;
    let path = app::report::save(&data, None, debug_dir)?;
    say!(
        "wrote the report {}: attach it to your question",
        path.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// The one rule of `bot solve` and dry runs for an input that fails: it is
/// reported in its answer's place (an `error:` line, or with `--json` an
/// object `{input_key: input, "error"}` on standard output) and the run
/// goes on, to exit 2 at the end ([`exit_code`]). Whether standard output
/// is still open.
fn report_failure(json: bool, (input_key, input): (&str, &str), error: &anyhow::Error) -> bool {
    if json {
        let object = serde_json::json!({input_key: input, "error": format!("{error:#}")});
        show(&format!("{object}\n"))
    } else {
        eprintln!("error: {error:#}");
        true
    }
}

/// Exit 2 when an input failed, else 0.
fn exit_code(failed: bool) -> ExitCode {
    if failed {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    }
}
