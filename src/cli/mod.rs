//! The command line on top of the library: parses arguments, sets up
//! logging, and hands each command its validated settings. The only module
//! that sees `clap` types; `anyhow` context is added here.

mod args;
mod assist;
mod bench;
mod calibrate;
pub mod desk;
mod dry_run;
mod guided;
mod live;
mod output;
mod practice;
mod progress;
mod report;
mod solve;
mod stats;
mod stdout;
mod windows;

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};

use crate::app::{self, GameLogChoice, Mode, Run, Target};
use crate::assist::Hints;
use crate::desktop::console;
use crate::files;
use crate::live::LiveSettings;
use crate::solver::Strategy;
use crate::vision::Calibration;

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
    // are the session's own, the log's notes only asked for (-v), its
    // warnings still said.
    let quiet = cli.quiet.saturating_add(u8::from(guided::wanted(&cli)));
    let bars = init_logging(cli.verbose, quiet);
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

/// Sets up the log (standard error) and returns the progress bars that
/// its lines keep clear of.
fn init_logging(verbose: u8, quiet: u8) -> indicatif::MultiProgress {
    let level = match i16::from(verbose) - i16::from(quiet) {
        i16::MIN..=-2 => log::LevelFilter::Error,
        -1 => log::LevelFilter::Warn,
        0 => log::LevelFilter::Info,
        1 => log::LevelFilter::Debug,
        _ => log::LevelFilter::Trace,
    };
    // enigo warns of the keyboard's modifier map, which the bot never
    // uses (it only moves and clicks the mouse): noise to a player, said
    // at every game. Its errors still show, and all of it with -v.
    let enigo = if level >= log::LevelFilter::Debug {
        level
    } else {
        level.min(log::LevelFilter::Error)
    };
    // xcap logs an error line for each process whose program it cannot
    // open (on Windows, every process of another user or elevated, the
    // game run as administrator among them) while it lists the windows:
    // nothing the player can act on, shown with -v only.
    let xcap = if level >= log::LevelFilter::Debug {
        level
    } else {
        log::LevelFilter::Off
    };
    progress::install_logger(
        env_logger::Builder::new()
            .filter_level(level)
            .filter_module("enigo", enigo)
            .filter_module("xcap", xcap)
            .parse_env("DUSTBOT_LOG")
            .format(log_line)
            .build(),
    )
}

/// A log line as `[2026-11-26T06:30:56Z INFO ] message`: the time in UTC
/// to the second, by the game log's clock (`record::now_rfc3339`) rather
/// than env_logger's, whose time zone crate would be compiled for this
/// one line, and the level in its colour where the terminal has colour.
fn log_line(out: &mut env_logger::fmt::Formatter, record: &log::Record<'_>) -> std::io::Result<()> {
    let level = out.default_level_style(record.level());
    writeln!(
        out,
        "[{} {level}{:<5}{level:#}] {}",
        crate::record::now_rfc3339(),
        record.level(),
        record.args()
    )
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
        Some(Command::Report(args)) => report::run(&args.debug_dir),
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
                    let run = run_of(play, mode, Target::Text(text.clone()))?;
                    live::games(&run, play.hint_log.as_deref())
                }
                (None, true) => dry_run::run(play),
                (None, false) if guided => guided::run(play),
                (None, false) => anyhow::bail!(
                    "nothing to do: give --window TEXT, --dry-run IMAGE..., or a command (see --help)"
                ),
            }
        }
    }
}

/// The run `args` ask for in `mode`, in the window `target` names, as
/// the flags say it: the calibration (`--calibration`, else the one made
/// on the player's board, else the default), the solver, the settling,
/// the games and their log. `--debug-dir` is checked before the game (as
/// `--out` is before a dry run).
fn run_of(args: &args::PlayArgs, mode: Mode, target: Target) -> Result<Run> {
    let loaded = app::calibration(args.calibration.as_deref())?;
    run_with(args, mode, target, loaded)
}

/// [`run_of`] with the calibration loaded already, and where it came
/// from.
fn run_with(
    args: &args::PlayArgs,
    mode: Mode,
    target: Target,
    (calibration, calibration_path): (Calibration, PathBuf),
) -> Result<Run> {
    let debug_dir = args.live.debug_dir();
    app::check_debug_dir(&debug_dir, args.live.debug_dir.is_some())?;
    let query = match &target {
        Target::Text(text) => text.clone(),
        Target::Found(window) => window.title.clone(),
    };
    let live = LiveSettings {
        calibration,
        solve: args.solver.options(Strategy::Optimal, args.rules.start()),
        rules: args.rules,
        settle_limit: args.live.settle_limit,
        anim: args.live.anim,
        debug_dir,
        query,
    };
    let mut run = Run::new(mode, target, live, calibration_path);
    run.games = args.live.games;
    run.game_log = match (&args.live.game_log, args.live.no_game_log) {
        (Some(path), _) => GameLogChoice::File(path.clone()),
        (None, true) => GameLogChoice::Off,
        (None, false) => GameLogChoice::Default,
    };
    run.max_replans = args.live.max_replans;
    run.max_moves = args.live.max_moves;
    // The flag, else the settings' key, else both.
    run.hints = match args.hints {
        Some(hints) => Hints::from(hints),
        None => app::settings::current()?.hints.unwrap_or_default(),
    };
    Ok(run)
}

/// Writes a `--plot` picture to `path` whole (an interrupted run leaves no
/// half picture).
fn save_plot(path: &Path, picture: &image::RgbImage) -> Result<()> {
    files::save_png(path, picture, files::Existing::Replace)
        .with_context(|| format!("--plot {}: cannot write it", path.display()))
}

/// Refuses a `--plot` path (`bot bench`, `bot stats`) that the end of the
/// run could not write, before the run: a missing or unwritable folder, a
/// folder for a file, a name that is no PNG's.
fn check_plot_path(path: &Path) -> Result<()> {
    let shown = path.display();
    if !path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("png"))
    {
        bail!("--plot {shown}: the plot is a PNG: name the file FILE.png");
    }
    if path.is_dir() {
        bail!("--plot {shown}: a folder, not a file");
    }
    let folder = files::folder_of(path);
    if !folder.is_dir() {
        bail!("--plot {shown}: no folder {}", folder.display());
    }
    files::probe_folder(&folder)
        .with_context(|| format!("--plot {shown}: cannot write into {}", folder.display()))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plot_path_that_cannot_be_written_is_refused_by_name() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        check_plot_path(&d.join("x.png")).unwrap();
        check_plot_path(&d.join("X.PNG")).unwrap();
        let refused = |path: &Path| format!("{:#}", check_plot_path(path).unwrap_err());
        let missing = d.join("no-such").join("x.png");
        let e = refused(&missing);
        assert!(e.contains(&missing.display().to_string()), "{e}");
        assert!(e.contains("no folder"), "{e}");
        assert!(refused(&d.join("x.jpg")).contains("PNG"));
        std::fs::create_dir(d.join("dir.png")).unwrap();
        assert!(refused(&d.join("dir.png")).contains("a folder"));
        std::fs::write(d.join("file"), "").unwrap();
        assert!(refused(&d.join("file").join("x.png")).contains("no folder"));
        assert_eq!(std::fs::read_dir(d).unwrap().count(), 2, "no probe left");
    }
}
