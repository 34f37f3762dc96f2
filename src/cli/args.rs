//! The command line as `clap` sees it. These types stop at `cli`: each
//! command turns them once into the settings of the library stages.

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Parser, Subcommand, ValueEnum};

/// Plays the dust matching game of Nodiatis: reads the board from the game
/// window, finds the shortest clearing sequence and clicks it.
#[derive(Debug, Parser)]
#[command(name = "bot", version, args_conflicts_with_subcommands = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    #[command(flatten)]
    pub play: PlayArgs,
    /// More log output (-v debug, -vv trace).
    #[arg(short, long, action = clap::ArgAction::Count, global = true)]
    pub verbose: u8,
    /// Less log output (-q warnings only, -qq errors only).
    #[arg(short, long, action = clap::ArgAction::Count, global = true)]
    pub quiet: u8,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Solve boards given as board strings (`-` reads them from stdin).
    Solve(SolveArgs),
    /// Benchmark the solver strategies on random boards.
    Bench(BenchArgs),
    /// Learn the board geometry and dust colours from a screenshot.
    Calibrate(CalibrateArgs),
    /// Open a practice window that plays like the real game.
    Practice(PracticeArgs),
    /// List the visible windows (title, application, position, size).
    Windows,
}

/// Live play (`--window`) and dry runs (`--dry-run`).
#[derive(Debug, Args)]
pub struct PlayArgs {
    /// Play in the visible window whose title or application name contains
    /// TEXT (ignoring case).
    #[arg(long, value_name = "TEXT")]
    pub window: Option<String>,
    /// Read and plan but never click: from the given images or folders of
    /// images, or from the live `--window` when none is given.
    #[arg(long, value_name = "IMAGE|DIR", num_args = 0..)]
    pub dry_run: Option<Vec<PathBuf>>,
    /// The calibration file (default: calibration/nodiatis.toml).
    #[arg(long, value_name = "FILE")]
    pub calibration: Option<PathBuf>,
    /// Solver time budget in seconds; it stops earlier once the optimum is
    /// proven.
    #[arg(long, value_name = "SECS", default_value = "20", value_parser = parse_seconds, allow_negative_numbers = true)]
    pub time: Duration,
    /// Solver threads (default: all cores).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Where dry runs write their annotated images.
    #[arg(long, value_name = "DIR", default_value = "dry-run")]
    pub out: PathBuf,
    /// One JSON object per image on one line.
    #[arg(long)]
    pub json: bool,
    /// How long to wait for the board to settle after a click.
    #[arg(long, value_name = "MS", default_value_t = 3000)]
    pub settle_ms: u64,
    /// How many times to re-plan when the board read differs from the plan.
    #[arg(long, value_name = "N", default_value_t = 3)]
    pub max_replans: u32,
    /// Stop after this many clicks.
    #[arg(long, value_name = "N")]
    pub max_moves: Option<u32>,
    /// Where live play saves frames when something goes wrong.
    #[arg(long, value_name = "DIR", default_value = "debug")]
    pub debug_dir: PathBuf,
}

#[derive(Debug, Args)]
pub struct SolveArgs {
    /// Board strings (rows from the top, comma-separated), or `-` to read
    /// one board per line from standard input.
    #[arg(required = true, value_name = "BOARD")]
    pub boards: Vec<String>,
    /// Time budget per board in seconds.
    #[arg(long, value_name = "SECS", default_value = "20", value_parser = parse_seconds, allow_negative_numbers = true)]
    pub time: Duration,
    #[arg(long, value_enum, default_value_t = StrategyArg::Optimal)]
    pub strategy: StrategyArg,
    /// Search threads (default: all cores).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: Option<u32>,
    /// Transposition table size in MiB.
    #[arg(long, value_name = "MIB", default_value_t = 256, value_parser = clap::value_parser!(u32).range(1..=65536))]
    pub tt_mb: u32,
    /// One JSON object per board on one line.
    #[arg(long)]
    pub json: bool,
    /// Print the board after each move.
    #[arg(long)]
    pub show_boards: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum StrategyArg {
    /// Exact search that proves the optimum (default).
    Optimal,
    /// The article's solver: biggest cluster first.
    Standard,
    /// The article's solver: cluster size + biggest cluster it creates.
    Lookahead,
    /// The article's hybrid: lookahead near the root, standard deeper.
    Shortlook,
}

#[derive(Debug, Args)]
pub struct BenchArgs {
    /// How many random boards.
    #[arg(long, value_name = "N", default_value_t = 200)]
    pub boards: u32,
    /// Seed of the random boards.
    #[arg(long, value_name = "S", default_value_t = 2021)]
    pub seed: u64,
    /// Time cap per board and strategy, in seconds.
    #[arg(long, value_name = "SECS", default_value = "10", value_parser = parse_seconds, allow_negative_numbers = true)]
    pub cap: Duration,
    /// Comma-separated strategies to compare.
    #[arg(
        long,
        value_name = "LIST",
        value_enum,
        value_delimiter = ',',
        default_value = "optimal,shortlook"
    )]
    pub strategies: Vec<StrategyArg>,
    /// Threads for `optimal` (default: all cores).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: Option<u32>,
}

#[derive(Debug, Args)]
pub struct CalibrateArgs {
    /// A screenshot of the game showing the board.
    #[arg(value_name = "SCREENSHOT")]
    pub screenshot: PathBuf,
    /// The board in the screenshot, as a board string: learn from it instead
    /// of grouping colours and asking.
    #[arg(long, value_name = "STRING")]
    pub board: Option<String>,
    /// Calibration name: writes calibration/NAME.toml.
    #[arg(long, default_value = "nodiatis")]
    pub name: String,
    /// Overwrite an existing calibration file.
    #[arg(long)]
    pub force: bool,
    /// Accept the board read without asking.
    #[arg(long)]
    pub yes: bool,
}

#[derive(Debug, Args)]
pub struct PracticeArgs {
    /// Seed of a random board.
    #[arg(long, value_name = "N", conflicts_with = "board")]
    pub seed: Option<u64>,
    /// The board to play, as a board string.
    #[arg(long, value_name = "STRING")]
    pub board: Option<String>,
    /// Window scale: 1.0 is the real game's 80-pixel cells.
    #[arg(long, value_name = "F", default_value_t = 1.0)]
    pub scale: f32,
    /// Duration of the removal, fall and contraction animation.
    #[arg(long, value_name = "MS", default_value_t = 300)]
    pub anim_ms: u64,
    /// Window title.
    #[arg(long, value_name = "TEXT", default_value = "Dust Practice")]
    pub title: String,
    /// Write every click received as a JSON line to FILE.
    #[arg(long, value_name = "FILE")]
    pub log: Option<PathBuf>,
}

/// A positive, finite number of seconds.
fn parse_seconds(text: &str) -> Result<Duration, String> {
    let secs: f64 = text
        .parse()
        .map_err(|_| format!("{text:?} is not a number of seconds"))?;
    if !secs.is_finite() || secs <= 0.0 {
        return Err(format!("{text:?}: the time must be more than 0 seconds"));
    }
    Duration::try_from_secs_f64(secs).map_err(|e| format!("{text:?}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_must_be_positive() {
        assert_eq!(parse_seconds("1.5"), Ok(Duration::from_millis(1500)));
        assert!(parse_seconds("0").is_err());
        assert!(parse_seconds("-3").is_err());
        assert!(parse_seconds("nan").is_err());
        assert!(parse_seconds("soon").is_err());
    }

    #[test]
    fn cli_definition_is_consistent() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }
}
