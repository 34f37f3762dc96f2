//! The player's front door: `bot` alone on a terminal (or double-clicked)
//! finds the game by itself ([`find`]), shows the board it reads there,
//! the window, the calibration and the proven optimum, and asks what to do
//! with one key each ([`terminal`]): hints, play, calibrate on this board,
//! the record, quit. Hints and play are the commands' own runs (`--assist`,
//! live play) on the window found, game after game until the player quits;
//! what was chosen is remembered in the settings ([`super::settings`]).
//! A failure prints its message and asks again; it never closes the door.

mod terminal;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Result;
use console::Key;

use super::args::Cli;
use super::say;
use crate::app::calibrate::Calibrating;
use crate::app::settings::{self, Choice, Settings};
use crate::app::{Mode, Options, Run, Target};
use crate::desktop::{Desktop, WindowInfo, folders};
use crate::game::{Board, Colour};
use crate::live::find::{self, Found};
use crate::solver;
use crate::vision::Calibration;
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

/// What the player did while the session looked for the game.
enum Looked {
    /// Nothing: look again.
    Nothing,
    Quit,
    /// Took the last No back: this window is the game.
    TookBack(Box<Found>),
}

/// The session: the flags given (for the runs it starts), the settings,
/// the keys, the game found.
struct Session {
    options: Options,
    path: PathBuf,
    settings: Settings,
    keys: Keys,
    colour: bool,
    /// The settings could not be saved, and that was said: said once.
    unsaved_said: bool,
    /// The calibration in use instead of the one the settings name, which
    /// could not be loaded (the player chose the default, or `3`).
    calibration_instead: Option<PathBuf>,
}

/// Runs the guided session until the player quits.
pub fn run(options: Options) -> Result<ExitCode> {
    let path = settings::settings_path()?;
    let settings = Settings::load(&path)?;
    // Ctrl-C stops a run or answers a question, never the session at
    // once (a second one does, as in every run).
    crate::desktop::stop::catch()?;
    // A click in Windows' console would start a selection that freezes
    // the bot at its next line; the player's mode is back at the end.
    let _quick_edit = crate::desktop::console::quick_edit_off();
    let mut session = Session {
        options,
        path,
        settings,
        keys: Keys::start(),
        colour: terminal::colour_wanted(),
        unsaved_said: false,
        calibration_instead: None,
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
                session.keys.ask();
                say!("error: {message}");
                say!("r: try again   s: save a report   q: quit");
                loop {
                    match session.keys.choice() {
                        Ok('r') => break,
                        Ok('s') => {
                            match crate::app::report::save(
                                Some(&message),
                                &session.options.debug_dir(),
                            ) {
                                Ok(path) => {
                                    say!(
                                        "wrote the report {}: attach it to your question",
                                        path.display()
                                    );
                                    crate::desktop::console::show_in_explorer(&path);
                                }
                                Err(error) => say!("error: {error:#}"),
                            }
                            session.keys.ask();
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

/// The choice at a saved calibration that cannot be loaded.
enum Fallback {
    Default,
    Calibrate,
    Quit,
}

impl Session {
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
    /// the player's board (unless it could not be loaded and the player
    /// chose another), else the default.
    fn calibration_path(&self) -> PathBuf {
        self.options
            .calibration
            .clone()
            .or_else(|| self.calibration_instead.clone())
            .or_else(|| self.settings.calibration.clone())
            .unwrap_or_else(Calibration::default_path)
    }

    /// Saves one change to the settings: the file read again first (a
    /// second session's keys, the player's hand edits are kept), only this
    /// key changed, through a link. A file that no longer parses is not
    /// written over, and a folder that cannot be written is said once:
    /// the session goes on without remembering.
    fn save(&mut self, change: impl FnOnce(&mut Settings)) {
        match settings::update(&self.path, change) {
            Ok(saved) => self.settings = saved,
            Err(error) if !self.unsaved_said => {
                say!("not remembered: {error}");
                self.unsaved_said = true;
            }
            Err(error) => log::debug!("not remembered: {error}"),
        }
    }

    /// Finds the game, then the menu until the player quits.
    fn front_door(&mut self) -> Result<()> {
        let mut calibrate_first = false;
        let calibration_path = self.calibration_path();
        let loaded = if self.names_a_calibration() {
            Calibration::load(&calibration_path)
        } else {
            // The default: built in when its file is not beside the bot.
            Calibration::load_default(&calibration_path)
        };
        let calibration = match loaded {
            Ok(calibration) => calibration,
            Err(error) if self.is_the_saved_calibration(&calibration_path) => {
                match self.saved_calibration_failed(&error)? {
                    Fallback::Quit => return Ok(()),
                    Fallback::Calibrate => calibrate_first = true,
                    Fallback::Default => {}
                }
                self.calibration_instead = Some(Calibration::default_path());
                return self.front_door_with(Calibration::default_path(), calibrate_first);
            }
            Err(error) => return Err(error.into()),
        };
        self.door(calibration, calibration_path, calibrate_first)
    }

    /// Whether a flag, the settings or the player's choice names the
    /// calibration in use (else it is the default).
    fn names_a_calibration(&self) -> bool {
        self.options.calibration.is_some()
            || self.calibration_instead.is_some()
            || self.settings.calibration.is_some()
    }

    /// [`Session::front_door`] with the default calibration at `path`.
    fn front_door_with(&mut self, path: PathBuf, calibrate_first: bool) -> Result<()> {
        let calibration = Calibration::load_default(&path)?;
        self.door(calibration, path, calibrate_first)
    }

    /// Whether `path` is the calibration the settings name (no flag gave
    /// one, and no other was chosen in its place).
    fn is_the_saved_calibration(&self, path: &Path) -> bool {
        self.options.calibration.is_none()
            && self.calibration_instead.is_none()
            && self.settings.calibration.as_deref() == Some(path)
    }

    /// The calibration the settings name cannot be loaded (gone, broken):
    /// said with the settings' line that names it, and the player chooses
    /// the default calibration, a new one on the board, or to quit.
    fn saved_calibration_failed(&mut self, error: &impl std::fmt::Display) -> Result<Fallback> {
        let line = settings::line_of(&self.path, "calibration")
            .map(|line| format!(" line {line}"))
            .unwrap_or_default();
        self.keys.ask();
        say!("error: {error}");
        say!("(the calibration saved in {}{line})", self.path.display());
        say!("d: use the default calibration   3: calibrate on the board   q: quit");
        loop {
            match self.keys.choice()? {
                'd' => {
                    self.save(|s| s.calibration = None);
                    return Ok(Fallback::Default);
                }
                '3' => return Ok(Fallback::Calibrate),
                'q' => return Ok(Fallback::Quit),
                _ => {}
            }
        }
    }

    /// The front door with a calibration loaded: the game found, the
    /// window remembered, then the menu.
    fn door(
        &mut self,
        calibration: Calibration,
        calibration_path: PathBuf,
        calibrate_first: bool,
    ) -> Result<()> {
        let mut desktop = crate::desktop::system();
        let Some(found) = self.find_game(&mut desktop, &calibration)? else {
            return Ok(());
        };
        let all = desktop.windows()?;
        // The text that finds it again, remembered; a window no text tells
        // from the others is played by its id, and not remembered.
        let text = find::text_that_finds(&all, &found.window);
        match &text {
            Some(text) if self.settings.window.as_deref() != Some(text.as_str()) => {
                let text = text.clone();
                self.save(|s| s.window = Some(text));
            }
            Some(_) => {}
            None => say!("no title tells this window from the others: it is not remembered"),
        }
        let mut board = found.board;
        let mut window = found.window;
        // Once, as the game is found: a washed-out capture misreads. The
        // warning's line is on the terminal already.
        crate::desktop::hdr::HdrState::warn_for_game(window.id);
        if calibrate_first {
            self.calibrate(&mut desktop, &window, &calibration)?;
            return self.front_door();
        }
        loop {
            self.show(&window, board.as_ref(), &calibration_path);
            match self.menu()? {
                Action::Quit => return Ok(()),
                Action::Run(choice) => {
                    self.remember(choice);
                    let query = text.clone().unwrap_or_else(|| window.title.clone());
                    self.play(&window, &query, choice, &calibration, &calibration_path)?;
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
    /// tried; looks again every [`LOOK_AGAIN`] while none is found. A
    /// window found only by the board it shows is the game only once the
    /// player says so: it may be a picture of one.
    fn find_game(
        &mut self,
        desktop: &mut dyn Desktop,
        calibration: &Calibration,
    ) -> Result<Option<Found>> {
        let remembered = self.settings.window.clone();
        let (mut said_none, mut said_covered) = (false, false);
        // Windows the player said are not the game: not offered again
        // while they show that board.
        let mut declined = find::Declined::default();
        let mut seen = find::Seen::default();
        loop {
            let mut search = find::search(
                desktop,
                calibration,
                remembered.as_deref(),
                find::SEARCH_BUDGET,
                &mut seen,
            )?;
            declined.leave_out(&mut search);
            match search.found.as_slice() {
                [one] if !one.needs_a_yes() => {
                    say!("found the game by {}: {}", one.by.words(), one.window);
                    return Ok(Some(one.clone()));
                }
                [one] => {
                    self.keys.ask();
                    say!(
                        "a full board shows in {}: is this window the game? (it may be a picture of a board)",
                        one.window
                    );
                    say!("y: yes, play here   n: no, look again   q: quit");
                    loop {
                        // Asked while the window is there: one that closed
                        // is no answer to give.
                        let Some(answer) = self.keys.choice_within(LOOK_AGAIN)? else {
                            if desktop.windows()?.iter().all(|w| w.id != one.window.id) {
                                say!("{} closed: looking again", one.window);
                                break;
                            }
                            continue;
                        };
                        match answer {
                            'y' => {
                                say!("found the game by its board: {}", one.window);
                                return Ok(Some(one.clone()));
                            }
                            'n' => {
                                declined.decline(one);
                                say!("you said {} is not the game: y takes it back", one.window);
                                break;
                            }
                            'q' => return Ok(None),
                            _ => {}
                        }
                    }
                    said_none = false;
                }
                [] if search.covering.is_some() => {
                    // Its own terminal hides what it would read: never "no
                    // game", which would blame the game.
                    if !said_covered {
                        let terminal = search.covering.as_ref().map(ToString::to_string);
                        say!(
                            "this terminal ({}) covers the windows it would read: move it aside; looking again every {} s (q quits)",
                            terminal.unwrap_or_default(),
                            LOOK_AGAIN.as_secs()
                        );
                        (said_covered, said_none) = (true, false);
                        self.keys.ask();
                    }
                    match self.while_looking(&mut declined)? {
                        Looked::Quit => return Ok(None),
                        Looked::TookBack(found) => return Ok(Some(*found)),
                        Looked::Nothing => {}
                    }
                }
                [] => {
                    if !said_none {
                        say!(
                            "no game found: no window is named {} and none shows a full board{}",
                            find::GAME_NAME,
                            if declined.last().is_some() {
                                " but the one you said is not the game"
                            } else {
                                ""
                            }
                        );
                        for (window, why) in &search.tried {
                            say!("  {window}: {why}");
                        }
                        say!(
                            "start the dust game so that a full board shows: looking again every {} s (q quits)",
                            LOOK_AGAIN.as_secs()
                        );
                        (said_covered, said_none) = (false, true);
                        self.keys.ask();
                    }
                    match self.while_looking(&mut declined)? {
                        Looked::Quit => return Ok(None),
                        Looked::TookBack(found) => return Ok(Some(*found)),
                        Looked::Nothing => {}
                    }
                }
                several => {
                    self.keys.ask();
                    say!("{} windows may be the game:", several.len());
                    let twins = |f: &Found| {
                        several.iter().any(|o| {
                            o.window.id != f.window.id
                                && o.window.title == f.window.title
                                && o.window.app == f.window.app
                        })
                    };
                    for (n, found) in several.iter().enumerate().take(9) {
                        let id = if twins(found) {
                            format!(" [window id {}]", found.window.id)
                        } else {
                            String::new()
                        };
                        let picture = if found.needs_a_yes() {
                            " (a picture of a board, perhaps)"
                        } else {
                            ""
                        };
                        say!(
                            "  {}  {}{id}, found by {}{picture}",
                            n + 1,
                            found.window,
                            found.by.words()
                        );
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

    /// Waits [`LOOK_AGAIN`] for the game to show: whether the player
    /// quit meanwhile (q, Escape, Ctrl-C), or took their last No back (y).
    fn while_looking(&mut self, declined: &mut find::Declined) -> Result<Looked> {
        Ok(match self.keys.next(Some(LOOK_AGAIN))? {
            Some(Key::Char('q' | 'Q') | Key::CtrlC | Key::Escape) => Looked::Quit,
            Some(Key::Char('y' | 'Y')) => match declined.take_back() {
                Some(found) => {
                    say!("found the game by its board: {}", found.window);
                    Looked::TookBack(Box::new(found))
                }
                None => Looked::Nothing,
            },
            _ => Looked::Nothing,
        })
    }

    /// The window, the calibration, the board read with its proven
    /// optimum.
    fn show(&self, window: &WindowInfo, board: Option<&Board>, calibration: &Path) {
        say!("window: {window}");
        say!("calibration: {}", crate::app::calibration_name(calibration));
        let Some(board) = board else {
            say!("no board read now (a game not started, or one part played)");
            return;
        };
        say!("board read: {board}");
        crate::cli::stdout::show(&terminal::grid(board, self.colour));
        let outcome = solver::solve(board, &self.options.solve, &mut |_| {});
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
        self.keys.ask();
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
    fn remember(&mut self, choice: Choice) {
        if self.settings.last_choice != Some(choice) {
            self.save(|s| s.last_choice = Some(choice));
        }
    }

    /// Hints or play in `window` (found again by `text` when the game
    /// makes it anew), game after game until `q` or Ctrl-C, as `bot
    /// --window TEXT [--assist] --games 0` runs with the flags given.
    fn play(
        &mut self,
        window: &WindowInfo,
        text: &str,
        choice: Choice,
        calibration: &Calibration,
        calibration_path: &Path,
    ) -> Result<()> {
        let mode = match choice {
            Choice::Hints => {
                say!("hints: click as the hint says; q or Ctrl-C in this terminal ends them");
                Mode::Assist
            }
            Choice::Play => {
                say!("playing: move the mouse to stop, or press q or Ctrl-C");
                Mode::Play
            }
        };
        let target = Target::Found(window.clone());
        let loaded = (calibration.clone(), calibration_path.to_owned());
        let mut run = Run::with(&self.options, mode, target, loaded)?;
        run.live.query = text.to_owned();
        run.games = 0;
        let terminal = crate::desktop::system().own_terminal().ok().flatten();
        let ran = self.keys.watching(|| super::live::games(&run, None));
        // The player's clicks gave the game the keyboard: the terminal
        // comes back for the menu's key.
        if let Some(terminal) = terminal
            && let Err(why) = crate::desktop::bring_to_front(terminal.id)
        {
            log::debug!("the terminal stays behind: {why}");
        }
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
        let calibrating = Calibrating::capture(desktop, window, current)?;
        let mut board = calibrating.proposed;
        loop {
            self.keys.ask();
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
        let path = calibrating.save(&board, &folders::config_folder()?)?.path;
        let saved = path.clone();
        self.save(|s| s.calibration = Some(saved));
        self.calibration_instead = Some(path.clone());
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
        let plot = folders::data_folder()?.join("record.png");
        super::show(&crate::app::stats::record_text(&[log], Some(&plot), false)?);
        match folders::open_picture(&plot) {
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
                "{}: the rows are 0 (bottom) to {} (top)",
                crate::text::excerpt(number),
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
