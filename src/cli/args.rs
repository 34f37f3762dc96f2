//! The command line as `clap` sees it. These types stop at `cli`: each
//! command turns them once into the settings of the library stages.

use std::path::PathBuf;
use std::time::Duration;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::app::{GameLogChoice, Options};
use crate::assist::Hints;
use crate::game::Rules;
use crate::live::RulesChoice;
use crate::practice::Style;
use crate::solver::{DEFAULT_TABLE_MB, SolveOptions, Strategy};
use crate::text::excerpt;

/// What a bare `bot` started on a console of its own (a double-click in
/// Explorer) says before it waits for Enter: the bot is a command-line
/// program.
pub const GETTING_STARTED: &str = "\
bot: a bot for the dust matching game of Nodiatis. It is a command-line
program: open a terminal in this folder (in Explorer, type cmd in the
address bar and press Enter), then:

  bot windows                          list the windows, to find the game's title
  bot --window Nodiatis --dry-run      read the board and plan, never click
  bot calibrate --window Nodiatis      calibrate from the game (a full board)
  bot --window Nodiatis --assist       hints for your own clicks
  bot --window Nodiatis                let the bot play
  bot --help                           every option

Moving the mouse or pressing Ctrl-C stops the bot at once.";

/// Plays the dust matching game of Nodiatis: reads the board from the game
/// window, finds the shortest clearing sequence and clicks it.
#[derive(Debug, Parser)]
#[command(
    name = "bot",
    // The usage line says `bot` on every platform, not `bot.exe`.
    bin_name = "bot",
    version,
    args_conflicts_with_subcommands = true,
    after_help = "Examples:\n  \
        bot --window Nodiatis                        play in the game window\n  \
        bot --window Nodiatis --dry-run              read and plan from the window, never click\n  \
        bot --window Nodiatis --assist               hint every click, follow yours, never click\n  \
        bot --dry-run samples/mid-1x-window.png      read and solve a screenshot\n  \
        bot --dry-run --json --out shots/out shots/  every image of a folder, as JSON"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    // Before the flattened groups, whose help headings would take them in.
    /// More log output (-v debug, -vv trace).
    #[arg(short, long, action = clap::ArgAction::Count, global = true)]
    pub verbose: u8,
    /// Less log output (-q warnings only, -qq errors only).
    #[arg(short, long, action = clap::ArgAction::Count, global = true)]
    pub quiet: u8,
    #[command(flatten)]
    pub play: PlayArgs,
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
    /// Summarise game logs: games, cleared, reward rate, clicks over the
    /// optimum, game time.
    Stats(StatsArgs),
    /// List the visible windows (title, application, position, size).
    Windows,
    /// Write a report to attach to a question: the version, the OS and
    /// its screens' scales, the window list, the settings, the last frames
    /// saved; written into the data folder, nothing else from the disk.
    Report(ReportArgs),
}

/// `bot report`.
#[derive(Debug, Args)]
pub struct ReportArgs {
    /// Where live play and assist mode saved their frames.
    #[arg(long, value_name = "DIR", default_value = "debug")]
    pub debug_dir: std::path::PathBuf,
}

/// Live play (`--window`) and dry runs (`--dry-run`).
#[derive(Debug, Args)]
pub struct PlayArgs {
    /// Screenshots to read and solve with --dry-run: images (PNG, JPEG) or
    /// folders of images, before or after the options.
    #[arg(value_name = "IMAGE|DIR", requires = "dry_run")]
    pub images: Vec<PathBuf>,
    /// Play in the visible window whose title or application name contains
    /// TEXT (ignoring case).
    #[arg(long, value_name = "TEXT", value_parser = parse_window)]
    pub window: Option<String>,
    /// Read and plan but never click: from the images given, or from the
    /// live --window when none is given.
    #[arg(long)]
    pub dry_run: bool,
    /// Assist a player who clicks for themselves: show the next click in a
    /// "Dust Hint" window beside the game and on the terminal, follow the
    /// player's clicks, never click.
    #[arg(long, requires = "window", conflicts_with = "dry_run")]
    pub assist: bool,
    /// With --assist: one JSON object per hint, a line each (the board, the
    /// clicks seen, the next click and its screen point).
    #[arg(long, value_name = "FILE", requires = "assist")]
    pub hint_log: Option<PathBuf>,
    /// With --assist (and the guided session's hints): where the hints
    /// show: marked on the game's own board, in the hint window beside
    /// it, or both (the default: the marks where the platform shows them,
    /// else beside).
    #[arg(long, value_name = "WHERE", value_enum)]
    pub hints: Option<HintsArg>,
    /// The calibration file (default: calibration/nodiatis.toml).
    #[arg(long, value_name = "FILE")]
    pub calibration: Option<PathBuf>,
    /// The rules the game plays by (RULES.md, "Rule variants"); dry runs of
    /// images take auto as centre-rows.
    #[arg(long, value_name = "RULES", default_value = "auto", value_parser = play_rules())]
    pub rules: RulesChoice,
    #[command(flatten)]
    pub solver: SolverArgs,
    #[command(flatten)]
    pub images_out: ImagesOutArgs,
    #[command(flatten)]
    pub live: LiveArgs,
}

impl From<&PlayArgs> for Options {
    /// The run's knobs as the flags set them.
    fn from(args: &PlayArgs) -> Options {
        Options {
            calibration: args.calibration.clone(),
            solve: args.solver.options(Strategy::Optimal, args.rules.start()),
            rules: args.rules,
            settle_limit: args.live.settle_limit,
            anim: args.live.anim,
            debug_dir: args.live.debug_dir.clone(),
            games: args.live.games,
            game_log: match (&args.live.game_log, args.live.no_game_log) {
                (Some(path), _) => GameLogChoice::File(path.clone()),
                (None, true) => GameLogChoice::Off,
                (None, false) => GameLogChoice::Default,
            },
            max_replans: args.live.max_replans,
            max_moves: args.live.max_moves,
            hints: args.hints.map(Hints::from),
        }
    }
}

/// How the exact solver may search: one definition for every command that
/// solves.
#[derive(Debug, Args)]
pub struct SolverArgs {
    /// Solver time budget in seconds; it stops earlier once the optimum is
    /// proven.
    #[arg(long, value_name = "SECS", default_value = "20", value_parser = parse_seconds, allow_negative_numbers = true)]
    pub time: Duration,
    #[command(flatten)]
    pub threads: ThreadsArg,
    /// The most the transposition table grows to, in MiB.
    #[arg(long, value_name = "MIB", default_value_t = DEFAULT_TABLE_MB as u32, value_parser = parse_table_mb, allow_negative_numbers = true)]
    pub tt_mb: u32,
}

impl SolverArgs {
    /// The solver's settings for `strategy` under `rules`.
    pub fn options(&self, strategy: Strategy, rules: Rules) -> SolveOptions {
        SolveOptions {
            strategy,
            time_limit: self.time,
            threads: self.threads.count(),
            table_mb: self.tt_mb as usize,
            rules,
            stop: None,
        }
    }
}

/// The rules of the commands that play one variant (`solve`, `bench`,
/// `practice`).
#[derive(Debug, Args)]
pub struct RulesArg {
    /// The rules the game plays by (RULES.md, "Rule variants").
    #[arg(long, value_name = "RULES", default_value = "centre-rows", value_parser = rules())]
    pub rules: Rules,
}

/// The variants' names, each with what it does.
fn rules_values() -> impl Iterator<Item = PossibleValue> {
    Rules::ALL
        .into_iter()
        .map(|rules| PossibleValue::new(rules.name()).help(rules.describe()))
}

/// One of the variants, by name.
fn rules() -> impl TypedValueParser<Value = Rules> {
    PossibleValuesParser::new(rules_values()).try_map(|name| name.parse::<Rules>())
}

/// One of the practice window's animation styles, by name.
fn styles() -> impl TypedValueParser<Value = Style> {
    let values = Style::ALL
        .into_iter()
        .map(|style| PossibleValue::new(style.name()).help(style.describe()));
    PossibleValuesParser::new(values).try_map(|name| name.parse::<Style>())
}

/// `auto` or one of the variants, by name.
fn play_rules() -> impl TypedValueParser<Value = RulesChoice> {
    let auto = PossibleValue::new("auto").help(
        "start with centre-rows; when the board after a click shows other rules, switch to them",
    );
    PossibleValuesParser::new(std::iter::once(auto).chain(rules_values())).try_map(
        |name| match name.as_str() {
            "auto" => Ok(RulesChoice::Auto),
            name => name.parse().map(RulesChoice::Given),
        },
    )
}

/// The solver's threads.
#[derive(Debug, Args)]
pub struct ThreadsArg {
    /// Search threads (1 to 256; default: all cores).
    #[arg(long, value_name = "N", value_parser = parse_threads, allow_negative_numbers = true)]
    pub threads: Option<u32>,
}

impl ThreadsArg {
    /// The threads asked for, or all cores.
    pub fn count(&self) -> usize {
        self.threads
            .map_or(SolveOptions::default().threads, |n| n as usize)
    }
}

/// More threads than this only contend for the same cores (and each costs a
/// stack): the bound keeps a typo from exhausting memory.
const MAX_THREADS: u32 = 256;

fn parse_threads(text: &str) -> Result<u32, String> {
    let range = 1..=MAX_THREADS;
    text.parse()
        .ok()
        .filter(|n| range.contains(n))
        .ok_or_else(|| {
            format!(
                "{}: the threads must be a whole number from 1 to {MAX_THREADS}",
                excerpt(text)
            )
        })
}

/// What dry runs of images write.
#[derive(Debug, Args)]
#[command(next_help_heading = "Dry runs of images")]
pub struct ImagesOutArgs {
    /// Where dry runs of images write their annotated images and
    /// storyboards (never over an input).
    #[arg(
        long,
        value_name = "DIR",
        default_value = "dry-run",
        conflicts_with = "window"
    )]
    pub out: PathBuf,
    /// One JSON object per image on one line.
    #[arg(long, conflicts_with = "window")]
    pub json: bool,
}

/// What only live play uses.
#[derive(Debug, Args)]
#[command(next_help_heading = "Live play")]
pub struct LiveArgs {
    /// How long to wait for the board to settle after a click, in
    /// milliseconds.
    #[arg(long = "settle-ms", value_name = "MS", default_value = "3000", value_parser = parse_settle, requires = "window", allow_negative_numbers = true)]
    pub settle_limit: Duration,
    /// How long the game animates a move, in milliseconds, when you know
    /// it: the next click waits that long after the last one, and a board
    /// the rules did not predict must hold still longer. Without it the
    /// bot learns it from the clicks.
    #[arg(long = "anim-ms", value_name = "MS", value_parser = parse_anim, requires = "window")]
    pub anim: Option<Duration>,
    /// How many times to re-plan when the board read differs from the plan.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 3,
        requires = "window",
        conflicts_with = "assist",
        allow_negative_numbers = true
    )]
    pub max_replans: u32,
    /// Stop after this many clicks.
    #[arg(
        long,
        value_name = "N",
        requires = "window",
        conflicts_with = "assist",
        allow_negative_numbers = true
    )]
    pub max_moves: Option<u32>,
    /// Where live play and assist mode save frames when something goes
    /// wrong [default: debug]. A folder given that cannot be written stops
    /// the run before the game; the default one only goes without frames.
    #[arg(long, value_name = "DIR", requires = "window")]
    pub debug_dir: Option<PathBuf>,
    /// How many games to play (or assist) one after another: after each,
    /// wait for the next game's full board (you or the game start it; the
    /// bot never clicks to start one). 0 goes on until Ctrl-C.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 1,
        requires = "window",
        conflicts_with = "dry_run",
        allow_negative_numbers = true
    )]
    pub games: u32,
    /// Append one JSON line per game to FILE, your record for `bot stats`:
    /// the first board, the rules, the optimum, every click, cleared or
    /// not, the reward, the time (README, "Your record").
    #[arg(
        long,
        value_name = "FILE",
        requires = "window",
        conflicts_with = "dry_run"
    )]
    pub game_log: Option<PathBuf>,
    /// Record no game: without it, and without --game-log, every game is
    /// appended to games.jsonl in the bot's data folder (README, "Your
    /// record").
    #[arg(
        long,
        requires = "window",
        conflicts_with_all = ["game_log", "dry_run"]
    )]
    pub no_game_log: bool,
}

impl LiveArgs {
    /// Where frames are saved: `--debug-dir`, else `debug`.
    pub fn debug_dir(&self) -> PathBuf {
        self.debug_dir
            .clone()
            .unwrap_or_else(|| PathBuf::from("debug"))
    }
}

#[derive(Debug, Args)]
pub struct SolveArgs {
    /// Board strings (rows from the top, comma-separated), or `-` to read
    /// one board per line from standard input.
    #[arg(required = true, value_name = "BOARD")]
    pub boards: Vec<String>,
    #[command(flatten)]
    pub solver: SolverArgs,
    #[command(flatten)]
    pub rules: RulesArg,
    #[arg(long, value_enum, default_value_t = StrategyArg::Optimal)]
    pub strategy: StrategyArg,
    /// One JSON object per board on one line.
    #[arg(long)]
    pub json: bool,
    /// Print the board after each move.
    #[arg(long)]
    pub show_boards: bool,
}

/// `--hints`: where assist mode shows its hints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum HintsArg {
    /// Marked on the game's own board.
    Board,
    /// In the hint window beside the game.
    Beside,
    /// Both (default).
    Both,
}

impl From<HintsArg> for Hints {
    fn from(arg: HintsArg) -> Hints {
        match arg {
            HintsArg::Board => Hints::Board,
            HintsArg::Beside => Hints::Beside,
            HintsArg::Both => Hints::Both,
        }
    }
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

impl From<StrategyArg> for Strategy {
    fn from(arg: StrategyArg) -> Strategy {
        match arg {
            StrategyArg::Optimal => Strategy::Optimal,
            StrategyArg::Standard => Strategy::Standard,
            StrategyArg::Lookahead => Strategy::Lookahead,
            StrategyArg::Shortlook => Strategy::Shortlook,
        }
    }
}

#[derive(Debug, Args)]
pub struct BenchArgs {
    /// How many random boards (at most 100000).
    #[arg(long, value_name = "N", default_value_t = 200, value_parser = clap::value_parser!(u32).range(0..=100_000), allow_negative_numbers = true)]
    pub boards: u32,
    /// Seed of the random boards.
    #[arg(
        long,
        value_name = "S",
        default_value_t = 2021,
        allow_negative_numbers = true
    )]
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
    #[command(flatten)]
    pub threads: ThreadsArg,
    #[command(flatten)]
    pub rules: RulesArg,
    /// Also draw each strategy's time to proof against the solution's
    /// length into this PNG (checked before the run, written at its end).
    #[arg(long, value_name = "FILE.png")]
    pub plot: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct CalibrateArgs {
    /// Screenshots of the game showing the board, each followed by its
    /// --board (a full board first: it gives the board's place; mid-game
    /// ones teach the swamp where piles were), or folders of NAME.png with
    /// NAME.board beside each.
    #[arg(value_name = "SCREENSHOT|DIR", required_unless_present = "window")]
    pub screenshots: Vec<PathBuf>,
    /// The board in the screenshot before it, as a board string: learn
    /// from it instead of grouping colours and asking (one screenshot).
    #[arg(long, value_name = "STRING")]
    pub board: Vec<String>,
    /// Take the first screenshot from the live window whose title or
    /// application name contains TEXT (its board is the first --board),
    /// after a countdown to move the mouse off the board; it is kept as
    /// calibration/NAME-window.png.
    #[arg(long, value_name = "TEXT", value_parser = parse_window)]
    pub window: Option<String>,
    /// Seconds of the countdown before --window's screenshot.
    #[arg(long, value_name = "SECS", default_value_t = 3, requires = "window", value_parser = clap::value_parser!(u64).range(0..=60), allow_negative_numbers = true)]
    pub countdown: u64,
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
    /// Seed of the random boards: game k's board is drawn from seed
    /// N + k - 1.
    #[arg(
        long,
        value_name = "N",
        conflicts_with = "board",
        allow_negative_numbers = true
    )]
    pub seed: Option<u64>,
    /// Random boards whose proven optimum is exactly N clicks (9 to 13):
    /// each game's boards are drawn from its seed and proven until one is.
    #[arg(long, value_name = "N", conflicts_with = "board", value_parser = clap::value_parser!(u8).range(9..=13), allow_negative_numbers = true)]
    pub optimum: Option<u8>,
    /// How long --optimum draws at most, in seconds, before it gives up
    /// (a rare optimum under some rules: 9 clicks under gravity).
    #[arg(long = "draw-for", value_name = "SECS", default_value = "60", requires = "optimum", value_parser = parse_seconds, allow_negative_numbers = true)]
    pub draw_for: Duration,
    /// The first board to play, as a board string (the next ones are
    /// random boards of its size, from seeds 1, 2, ...).
    #[arg(long, value_name = "STRING")]
    pub board: Option<String>,
    /// Window scale, 0.25 to 4: 1.0 is the real game's 80-pixel cells.
    #[arg(long, value_name = "F", default_value = "1", value_parser = parse_scale, allow_negative_numbers = true)]
    pub scale: f32,
    /// Duration of the removal, fall and contraction animation, in
    /// milliseconds.
    #[arg(long = "anim-ms", value_name = "MS", default_value = "300", value_parser = parse_anim, allow_negative_numbers = true)]
    pub anim: Duration,
    /// How a move is animated.
    #[arg(long = "anim-style", value_name = "STYLE", default_value = "smooth", value_parser = styles())]
    pub style: Style,
    /// Window title.
    #[arg(long, value_name = "TEXT", default_value = "Dust Practice")]
    pub title: String,
    /// Start the next board by itself MS milliseconds after a board is
    /// cleared (0 to 60000); without it only N, Space or Enter does.
    #[arg(long = "next-after", value_name = "MS", value_parser = parse_next_after, allow_negative_numbers = true)]
    pub next_after: Option<Duration>,
    /// Write every click received, and every next board, as a JSON line to
    /// FILE.
    #[arg(long, value_name = "FILE")]
    pub log: Option<PathBuf>,
    #[command(flatten)]
    pub rules: RulesArg,
}

#[derive(Debug, Args)]
pub struct StatsArgs {
    /// Game logs, a JSON line per game (live play's and assist mode's
    /// --game-log), read in the order given; without one, the game log
    /// in the bot's data folder, where play and hints record by default.
    #[arg(value_name = "FILE")]
    pub logs: Vec<PathBuf>,
    /// Also draw the games into this PNG: the clicks over the optimum game
    /// by game with their trend, and the share of games with the reward.
    #[arg(long, value_name = "FILE.png")]
    pub plot: Option<PathBuf>,
    /// The sums as one JSON object, the lines skipped with them.
    #[arg(long)]
    pub json: bool,
}

/// A positive number of seconds that a clock can count.
fn parse_seconds(text: &str) -> Result<Duration, String> {
    let secs: f64 = text
        .parse()
        .map_err(|_| format!("{} is not a number of seconds", excerpt(text)))?;
    if secs.is_nan() || secs <= 0.0 {
        return Err(format!(
            "{}: the time must be more than 0 seconds",
            excerpt(text)
        ));
    }
    Duration::try_from_secs_f64(secs).map_err(|_| format!("{}: too many seconds", excerpt(text)))
}

/// Milliseconds up to a minute: a board that takes longer to settle is not
/// settling.
fn parse_settle(text: &str) -> Result<Duration, String> {
    parse_millis(text, 1..=60_000)
}

/// Milliseconds up to ten seconds, 0 for no animation.
fn parse_anim(text: &str) -> Result<Duration, String> {
    parse_millis(text, 0..=10_000)
}

/// Milliseconds up to a minute, 0 for at once.
fn parse_next_after(text: &str) -> Result<Duration, String> {
    parse_millis(text, 0..=60_000)
}

fn parse_millis(text: &str, range: std::ops::RangeInclusive<u64>) -> Result<Duration, String> {
    let out_of_range = || {
        format!(
            "{} ms: must be {} to {} ms",
            excerpt(text),
            range.start(),
            range.end()
        )
    };
    // A whole number too big for any clock, or below 0, is out of range.
    let digits = text.strip_prefix('-').unwrap_or(text);
    let whole = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
    match text.parse::<u64>() {
        Ok(ms) if range.contains(&ms) => Ok(Duration::from_millis(ms)),
        _ if whole => Err(out_of_range()),
        _ => Err(format!(
            "{} is not a whole number of milliseconds",
            excerpt(text)
        )),
    }
}

/// What `--window` looks for: some text (an empty one is in every title).
fn parse_window(text: &str) -> Result<String, String> {
    if text.trim().is_empty() {
        return Err("give part of the window's title or application name (see bot windows)".into());
    }
    Ok(text.to_owned())
}

/// The transposition table's most MiB: at most half the machine's memory
/// (where it is known), so that a typo cannot take it all.
fn parse_table_mb(text: &str) -> Result<u32, String> {
    let most = crate::solver::max_table_mb();
    text.parse::<u32>()
        .ok()
        .filter(|mb| (1..=most).contains(mb))
        .ok_or_else(|| {
            format!(
                "{}: the table must be a whole number of MiB from 1 to {most} (half this machine's memory at most)",
                excerpt(text)
            )
        })
}

/// A window scale the practice window can draw.
fn parse_scale(text: &str) -> Result<f32, String> {
    let scale: f32 = text
        .parse()
        .map_err(|_| format!("{} is not a number", excerpt(text)))?;
    if !crate::practice::SCALES.contains(&scale) {
        return Err(format!(
            "{}: must be between {} and {}",
            excerpt(text),
            crate::practice::SCALES.start(),
            crate::practice::SCALES.end()
        ));
    }
    Ok(scale)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_flag_gives_the_runs_defaults() {
        // The app floor's defaults are the ones every face without flags
        // runs with: the flags' own, written in their attributes, agree.
        let cli = Cli::try_parse_from(["bot"]).unwrap();
        let flags = Options::from(&cli.play);
        assert_eq!(format!("{flags:?}"), format!("{:?}", Options::default()));
        assert!(cli.play.window.is_none());
        // And a flag given is the run's.
        let cli = Cli::try_parse_from(["bot", "--window", "x", "--games", "0", "--time", "2"]);
        let flags = Options::from(&cli.unwrap().play);
        assert_eq!(
            (flags.games, flags.solve.time_limit),
            (0, Duration::from_secs(2))
        );
    }

    #[test]
    fn seconds_must_be_positive() {
        assert_eq!(parse_seconds("1.5"), Ok(Duration::from_millis(1500)));
        assert!(parse_seconds("0").is_err());
        assert!(parse_seconds("-3").is_err());
        assert!(parse_seconds("nan").is_err());
        assert!(parse_seconds("inf").is_err());
        assert!(parse_seconds(&"9".repeat(400)).is_err());
        assert!(parse_seconds("soon").is_err());
    }

    #[test]
    fn milliseconds_out_of_range_are_called_so() {
        assert_eq!(parse_anim("300"), Ok(Duration::from_millis(300)));
        for text in ["99999999999999999999", "10001", "-5"] {
            let error = parse_anim(text).unwrap_err();
            assert!(
                error.ends_with("ms: must be 0 to 10000 ms"),
                "{text}: {error}"
            );
        }
        assert!(
            parse_anim("soon")
                .unwrap_err()
                .contains("not a whole number")
        );
        assert!(parse_settle("").unwrap_err().contains("not a whole number"));
        assert_eq!(parse_next_after("0"), Ok(Duration::ZERO));
        assert!(
            parse_next_after("60001")
                .unwrap_err()
                .ends_with("must be 0 to 60000 ms")
        );
    }

    #[test]
    fn negative_numbers_reach_their_flags_check() {
        for args in [
            &["bot", "solve", "--threads", "-5", "GG"][..],
            &["bot", "solve", "--tt-mb", "-5", "GG"],
            &["bot", "--window", "W", "--settle-ms", "-4"],
            &["bot", "--window", "W", "--max-moves", "-1"],
            &["bot", "practice", "--anim-ms", "-5"],
            &["bot", "practice", "--next-after", "-5"],
            &["bot", "practice", "--seed", "-1"],
            &["bot", "bench", "--boards", "-1"],
        ] {
            let error = Cli::try_parse_from(args).unwrap_err();
            assert_eq!(
                error.kind(),
                clap::error::ErrorKind::ValueValidation,
                "{args:?}: {error}"
            );
        }
    }

    #[test]
    fn an_empty_window_text_names_no_window() {
        assert!(Cli::try_parse_from(["bot", "--window", ""]).is_err());
        assert!(Cli::try_parse_from(["bot", "--window", "  "]).is_err());
        assert!(Cli::try_parse_from(["bot", "calibrate", "--window", ""]).is_err());
        assert!(Cli::try_parse_from(["bot", "--window", "Dust"]).is_ok());
    }

    #[test]
    fn the_table_is_bounded_by_the_machines_memory() {
        let most = crate::solver::max_table_mb();
        if most >= 256 {
            assert_eq!(parse_table_mb("256"), Ok(256));
        }
        assert_eq!(parse_table_mb(&most.to_string()), Ok(most));
        let error = parse_table_mb(&(u64::from(most) + 1).to_string()).unwrap_err();
        assert!(error.contains(&format!("from 1 to {most}")), "{error}");
        assert!(parse_table_mb("0").is_err());
    }

    #[test]
    fn rules_are_read_by_name() {
        let solve = |rules: &str| Cli::try_parse_from(["bot", "solve", "--rules", rules, "GG"]);
        for rules in Rules::ALL {
            let Ok(Cli {
                command: Some(Command::Solve(args)),
                ..
            }) = solve(rules.name())
            else {
                panic!("{rules} refused");
            };
            assert_eq!(args.rules.rules, rules);
        }
        assert!(solve("auto").is_err());
        assert!(solve("centre").is_err());
        let play = |args: &[&str]| Cli::try_parse_from([&["bot", "--window", "W"], args].concat());
        assert_eq!(play(&[]).unwrap().play.rules, RulesChoice::Auto);
        assert_eq!(
            play(&["--rules", "gravity"]).unwrap().play.rules,
            RulesChoice::Given(Rules::Gravity)
        );
        assert!(play(&["--rules", "rows"]).is_err());
    }

    #[test]
    fn cli_definition_is_consistent() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }
}
