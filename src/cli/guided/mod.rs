//! The player's front door: `bot` alone on a terminal (or double-clicked)
//! finds the game by itself ([`find`]), shows the board it reads there,
//! the window, the calibration and the proven optimum, and asks what to do
//! with one key each ([`terminal`]): hints, play, calibrate on this board,
//! the record, quit. Hints and play are the commands' own runs (`--assist`,
//! live play) on the window found, game after game until the player quits;
//! what was chosen is remembered in the settings ([`super::settings`]).
//! A failure prints its message and asks again; it never closes the door.

mod find;
mod terminal;

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, Result, anyhow, bail};
use clap::Parser as _;
use console::Key;

use super::args::{Cli, PlayArgs, StatsArgs};
use super::say;
use super::settings::{self, Choice, Settings};
use crate::desktop::{Desktop, WindowInfo};
use crate::game::{Board, Colour, NODIATIS_HEIGHT, NODIATIS_WIDTH};
use crate::solver::{self, Strategy};
use crate::vision::{self, Calibration};
use find::{By, Found};
use terminal::Keys;

/// How often the windows are looked at again while no game is found.
const LOOK_AGAIN: Duration = Duration::from_secs(2);

/// Whether `bot` with these arguments is a guided session: no command, no
/// window, no dry run, and a player at a terminal (standard input and
/// output both terminals).
pub fn wanted(cli: &Cli) -> bool {
    let play = &cli.play;
    cli.command.is_none()
        && play.window.is_none()
        && !play.dry_run
        && play.images.is_empty()
        && on_a_terminal()
}

/// Whether standard input and output are both terminals.
pub fn on_a_terminal() -> bool {
    use std::io::IsTerminal as _;
    std::io::stdin().is_terminal() && std::io::stdout().is_terminal()
}

/// What the player chose at the menu.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Action {
    Run(Choice),
    Calibrate,
    Record,
    Quit,
}

/// The session: the flags given (for the runs it starts), the settings,
/// the keys, the game found.
struct Session<'a> {
    args: &'a PlayArgs,
    flags: Vec<OsString>,
    path: PathBuf,
    settings: Settings,
    keys: Keys,
    colour: bool,
}

/// Runs the guided session until the player quits.
pub fn run(args: &PlayArgs) -> Result<ExitCode> {
    let path = settings::settings_path()?;
    let settings = Settings::load(&path)?;
    // Ctrl-C stops a run or answers a question, never the session at
    // once (a second one does, as in every run).
    crate::desktop::stop::catch()?;
    let mut session = Session {
        args,
        // The flags given go to every run the session starts (a
        // calibration, the solver's time, the log level).
        flags: std::env::args_os().skip(1).collect(),
        path,
        settings,
        keys: Keys::start(),
        colour: terminal::colour_wanted(),
    };
    say!(
        "dustbot {}: finds the game, shows what it reads, asks what to do (q quits)",
        env!("CARGO_PKG_VERSION")
    );
    session.say_remembered();
    loop {
        match session.front_door() {
            Ok(()) => return Ok(ExitCode::SUCCESS),
            Err(error) => {
                let message = format!("{error:#}");
                say!("error: {message}");
                say!("r: try again   s: save a report   q: quit");
                loop {
                    match session.keys.choice() {
                        Ok('r') => break,
                        Ok('s') => {
                            match super::report::save(Some(&message), &args.live.debug_dir()) {
                                Ok(path) => say!(
                                    "wrote the report {}: attach it to your question",
                                    path.display()
                                ),
                                Err(error) => say!("error: {error:#}"),
                            }
                            say!("r: try again   q: quit");
                        }
                        Ok('q') | Err(_) => return Ok(ExitCode::SUCCESS),
                        Ok(_) => {}
                    }
                }
            }
        }
    }
}

impl Session<'_> {
    /// Says what the settings remember, when they do.
    fn say_remembered(&self) {
        let s = &self.settings;
        if s == &Settings::default() {
            return;
        }
        let mut parts = Vec::new();
        if let Some(window) = &s.window {
            parts.push(format!("the window {}", crate::text::excerpt(window)));
        }
        if let Some(path) = &s.calibration {
            parts.push(format!("the calibration {}", path.display()));
        }
        if let Some(choice) = s.last_choice {
            parts.push(format!(
                "your last choice, {} {}",
                choice.key(),
                choice.name()
            ));
        }
        say!("remembered ({}): {}", self.path.display(), parts.join(", "));
    }

    /// The calibration file in use: `--calibration`, else the one made on
    /// the player's board, else the default.
    fn calibration_path(&self) -> PathBuf {
        self.args
            .calibration
            .clone()
            .or_else(|| self.settings.calibration.clone())
            .unwrap_or_else(Calibration::default_path)
    }

    /// Finds the game, then the menu until the player quits.
    fn front_door(&mut self) -> Result<()> {
        let calibration_path = self.calibration_path();
        let calibration = Calibration::load(&calibration_path)?;
        let mut desktop = crate::desktop::system();
        let Some(found) = self.find_game(&mut desktop, &calibration)? else {
            return Ok(());
        };
        let all = desktop.windows()?;
        let text = find::text_that_finds(&all, &found.window).ok_or_else(|| {
            anyhow!(
                "the window {} has the title and application of another one: close the other to play here",
                found.window
            )
        })?;
        if self.settings.window.as_deref() != Some(&text) {
            self.settings.window = Some(text.clone());
            self.settings.save(&self.path)?;
        }
        let mut board = found.board;
        let mut window = found.window;
        loop {
            self.show(&window, board.as_ref(), &calibration_path);
            match self.menu()? {
                Action::Quit => return Ok(()),
                Action::Run(choice) => {
                    self.remember(choice)?;
                    self.play(&text, choice)?;
                }
                Action::Calibrate => {
                    self.calibrate(&mut desktop, &window, &calibration)?;
                    // Read from here on with the calibration made.
                    return self.front_door();
                }
                Action::Record => self.record()?,
            }
            // Its title as it is now (the game may change it as it goes).
            if let Some(now) = desktop.windows()?.into_iter().find(|w| w.id == window.id) {
                window = now;
            }
            board = find::read_board(&mut desktop, &window, &calibration).ok();
        }
    }

    /// Looks for the game until it is found (one, or the one the player
    /// picks of several) or the player quits (`None`), saying what it
    /// tried; looks again every [`LOOK_AGAIN`] while none is found.
    fn find_game(
        &mut self,
        desktop: &mut dyn Desktop,
        calibration: &Calibration,
    ) -> Result<Option<Found>> {
        let remembered = self.settings.window.clone();
        let mut said_none = false;
        loop {
            let search = find::search(
                desktop,
                calibration,
                remembered.as_deref(),
                find::SEARCH_BUDGET,
            )?;
            let how = match search.by {
                By::Remembered => "the window remembered",
                By::Name => "its name",
                By::Board => "its board",
            };
            match search.found.as_slice() {
                [one] => {
                    say!("found the game by {how}: {}", one.window);
                    return Ok(Some(one.clone()));
                }
                [] => {
                    if !said_none {
                        say!(
                            "no game found: no window is named {} and none shows a full board",
                            find::GAME_NAME
                        );
                        for (window, why) in &search.tried {
                            say!("  {window}: {why}");
                        }
                        say!(
                            "start the dust game so that a full board shows: looking again every {} s (q quits)",
                            LOOK_AGAIN.as_secs()
                        );
                        said_none = true;
                    }
                    if let Some(Key::Char('q' | 'Q') | Key::CtrlC) =
                        self.keys.next(Some(LOOK_AGAIN))?
                    {
                        return Ok(None);
                    }
                }
                several => {
                    say!("{} windows may be the game (by {how}):", several.len());
                    for (n, found) in several.iter().enumerate().take(9) {
                        say!("  {}  {}", n + 1, found.window);
                    }
                    say!("which one? (1-{}, q quits)", several.len().min(9));
                    loop {
                        match self.keys.choice()? {
                            'q' => return Ok(None),
                            c => {
                                let n = c.to_digit(10).unwrap_or(0) as usize;
                                if let Some(found) = several.get(n.wrapping_sub(1)) {
                                    return Ok(Some(found.clone()));
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// The window, the calibration, the board read with its proven
    /// optimum.
    fn show(&self, window: &WindowInfo, board: Option<&Board>, calibration: &Path) {
        say!("window: {window}");
        say!("calibration: {}", calibration.display());
        let Some(board) = board else {
            say!("no board read now (a game not started, or one part played)");
            return;
        };
        say!("board read: {board}");
        crate::cli::stdout::show(&terminal::grid(board, self.colour));
        let options = self
            .args
            .solver
            .options(Strategy::Optimal, self.args.rules.start());
        let outcome = solver::solve(board, &options, &mut |_| {});
        say!(
            "optimum: {} clicks{}",
            outcome.length(),
            if outcome.proven_optimal {
                ", proven"
            } else {
                " (not proven within --time)"
            }
        );
    }

    /// The menu; the player's one key.
    fn menu(&mut self) -> Result<Action> {
        say!("\nWhat now?");
        say!("  1  hints: the best next click shown, you click (game after game)");
        say!("  2  play for me (game after game; moving the mouse stops it)");
        say!("  3  calibrate on this board");
        say!("  4  my record");
        say!("  q  quit");
        let last = self.settings.last_choice;
        if let Some(choice) = last {
            say!(
                "Enter: {} {} (your last choice)",
                choice.key(),
                choice.name()
            );
        }
        loop {
            let action = match self.keys.choice()? {
                '1' => Action::Run(Choice::Hints),
                '2' => Action::Run(Choice::Play),
                '3' => Action::Calibrate,
                '4' => Action::Record,
                'q' => Action::Quit,
                '\n' => match last {
                    Some(choice) => Action::Run(choice),
                    None => continue,
                },
                _ => continue,
            };
            return Ok(action);
        }
    }

    /// Keeps `choice` as the last one.
    fn remember(&mut self, choice: Choice) -> Result<()> {
        if self.settings.last_choice != Some(choice) {
            self.settings.last_choice = Some(choice);
            self.settings.save(&self.path)?;
        }
        Ok(())
    }

    /// Hints or play in the window `text` finds, game after game until
    /// `q` or Ctrl-C, as `bot --window TEXT [--assist] --games 0` runs.
    fn play(&mut self, text: &str, choice: Choice) -> Result<()> {
        let mut argv: Vec<OsString> = vec!["bot".into()];
        argv.extend(self.flags.iter().cloned());
        argv.extend(["--window", text, "--games", "0"].map(OsString::from));
        if choice == Choice::Hints {
            argv.push("--assist".into());
            say!("hints: click as the hint says; q or Ctrl-C ends them");
        } else {
            say!("playing: move the mouse to stop, or press q or Ctrl-C");
        }
        let cli = Cli::try_parse_from(argv).context("the flags given")?;
        let ran = self.keys.watching(|| match choice {
            Choice::Hints => super::assist::run(&cli.play),
            Choice::Play => super::live::run(&cli.play),
        });
        ran.map(drop)
    }

    /// Calibrates on the board `window` shows: the board read (with the
    /// calibration in use, else by grouping its colours) confirmed or
    /// corrected by the player, learned, read back, saved in the settings
    /// folder and used from then on.
    fn calibrate(
        &mut self,
        desktop: &mut dyn Desktop,
        window: &WindowInfo,
        current: &Calibration,
    ) -> Result<()> {
        let picture = desktop.open(window)?.capture_client()?;
        let read = vision::read(&picture, current, None)
            .ok()
            .and_then(|reading| reading.board().ok());
        let mut board = match read {
            Some(board) => board,
            None => {
                vision::cluster_colours(&picture, NODIATIS_WIDTH, NODIATIS_HEIGHT)
                    .context("no board to calibrate on in the window")?
                    .1
            }
        };
        loop {
            say!("the board read:");
            crate::cli::stdout::show(&terminal::grid(&board, self.colour));
            say!(
                "Enter if it is the board in the game; else type a row that differs as ROW LETTERS (e.g. 5 GGOYBRRG, {}) and Enter; q leaves the calibration as it is",
                colour_letters()
            );
            let line = self.keys.line()?;
            match line.trim() {
                "" => break,
                "q" | "Q" => return Ok(()),
                row => match correct_row(&board, row) {
                    Ok(corrected) => board = corrected,
                    Err(why) => say!("{why}"),
                },
            }
        }
        let calibration = vision::learn(&picture, &board).context("cannot learn the colours")?;
        let back = vision::read(&picture, &calibration, None)
            .ok()
            .and_then(|reading| reading.board().ok());
        if back != Some(board) {
            bail!("the calibration learned does not read the board back: nothing saved");
        }
        let path = settings::config_folder()?.join("calibration.toml");
        calibration.save(&path, true)?;
        self.settings.calibration = Some(path.clone());
        self.settings.save(&self.path)?;
        say!(
            "saved the calibration as {}: used from now on",
            path.display()
        );
        Ok(())
    }

    /// The record of the games in the default game log, as `bot stats`
    /// prints it, and its plot opened in the system's picture viewer.
    fn record(&mut self) -> Result<()> {
        let log = settings::default_game_log()?;
        if !log.exists() {
            say!(
                "no games recorded yet ({}): hints and play record each game",
                log.display()
            );
            return Ok(());
        }
        let plot = settings::data_folder()?.join("record.png");
        super::stats::record(&StatsArgs {
            logs: vec![log],
            plot: Some(plot.clone()),
            json: false,
        })?;
        match open_picture(&plot) {
            Ok(()) => say!("the plot {} opened in your picture viewer", plot.display()),
            Err(why) => say!(
                "the plot is {}: open it with your picture viewer ({why})",
                plot.display()
            ),
        }
        Ok(())
    }
}

/// "G green, O orange, ...": the letters the board is typed in.
fn colour_letters() -> String {
    let letters: Vec<String> = (0..5)
        .filter_map(Colour::new)
        .map(|c| format!("{} {}", c.letter(), c.name()))
        .collect();
    letters.join(", ")
}

/// `board` with the row `typed` ("5 GGOYBRRG": the row's number as the
/// grid shows it, then its letters from the left, a `.` for an empty
/// cell) put in, or why it cannot be.
fn correct_row(board: &Board, typed: &str) -> Result<Board, String> {
    let (number, letters) = typed
        .split_once(char::is_whitespace)
        .ok_or_else(|| format!("{typed:?}: give the row's number, a space, then its letters"))?;
    let y: u8 = number
        .parse()
        .ok()
        .filter(|y| *y < board.height())
        .ok_or_else(|| {
            format!(
                "{number:?}: the rows are 0 (bottom) to {} (top)",
                board.height() - 1
            )
        })?;
    let letters: Vec<char> = letters.trim().chars().collect();
    if letters.len() != board.width() as usize {
        return Err(format!(
            "row {y}: {} letters for {} columns",
            letters.len(),
            board.width()
        ));
    }
    let text = board.to_string();
    let mut rows: Vec<String> = text.split(',').map(str::to_owned).collect();
    // The board string's rows go from the top.
    rows[usize::from(board.height() - 1 - y)] = letters
        .iter()
        .map(|&c| {
            if c == '.' {
                ' '
            } else {
                c.to_ascii_uppercase()
            }
        })
        .collect();
    rows.join(",").parse().map_err(|e| format!("row {y}: {e}"))
}

/// Opens `path` with the system's picture viewer, without waiting for it.
fn open_picture(path: &Path) -> Result<(), String> {
    let viewer = if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    };
    let mut child = std::process::Command::new(viewer)
        .arg(path)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map_err(|e| format!("{viewer}: {e}"))?;
    // Reaped when it ends; the session goes on meanwhile.
    std::thread::spawn(move || child.wait());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_typed_replaces_that_row_only() {
        let board: Board = crate::game::EXAMPLE_BOARD.parse().unwrap();
        let corrected = correct_row(&board, "5 rrrrrrrr").unwrap();
        let rows: Vec<String> = corrected
            .to_string()
            .split(',')
            .map(str::to_owned)
            .collect();
        let before: Vec<&str> = crate::game::EXAMPLE_BOARD.split(',').collect();
        assert_eq!(rows[0], "RRRRRRRR");
        assert_eq!(rows[1..], before[1..]);
        // An empty cell is typed as a dot; the bottom row is 0.
        let top = correct_row(&board, "5 GGGGGGG.").unwrap().to_string();
        assert!(top.starts_with("GGGGGGG ,"), "{top}");
        let bottom = correct_row(&board, "0 rrrrrrrr").unwrap().to_string();
        assert!(bottom.ends_with(",RRRRRRRR"), "{bottom}");
        assert!(
            correct_row(&board, "0 GGGGGGG.")
                .unwrap_err()
                .contains("floats")
        );
    }

    #[test]
    fn a_row_that_cannot_be_is_said_why() {
        let board: Board = crate::game::EXAMPLE_BOARD.parse().unwrap();
        assert!(correct_row(&board, "GGGG").unwrap_err().contains("number"));
        assert!(
            correct_row(&board, "6 GGGGGGGG")
                .unwrap_err()
                .contains("0 (bottom) to 5")
        );
        assert!(
            correct_row(&board, "2 GGG")
                .unwrap_err()
                .contains("3 letters for 8")
        );
        assert!(correct_row(&board, "2 GGGGGGGX").is_err());
    }
}
