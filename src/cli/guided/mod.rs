//! The front door on a terminal: `bot` alone (or double-clicked) is the
//! door of the app floor ([`crate::app::door`]) with the terminal for its
//! face. What the door says is printed as it comes; what it offers is
//! asked with one key each ([`terminal`]): hints, play, calibrate on this
//! board, the record, quit, yes or no to a window found by its board, try
//! again after an error. Hints and play go on game after game until q,
//! Escape or Ctrl-C here, the hints in a window of their own beside the
//! game. The board read is drawn as a grid, and calibrating asks for each
//! row that differs, typed.

mod terminal;

use std::process::ExitCode;
use std::time::Duration;

use anyhow::Result;
use console::Key;

use super::args::Cli;
use super::say;
use crate::app::Options;
use crate::app::door::{self, Action, Door, Flow, Offer};
use crate::desktop::Desktop as _;
use crate::desktop::stop::Asker;
use crate::game::{Board, Colour};
use terminal::Keys;

/// How long the face waits for a key before it looks at the door again.
const POLL: Duration = Duration::from_millis(50);

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

/// The terminal's face of the door.
struct Guided {
    keys: Keys,
    colour: bool,
    /// The question last put, and what was offered then: the offer is
    /// printed again when either changes.
    put: Option<(u32, Offer)>,
    /// Whether a run was on at the last look.
    running: bool,
    /// The terminal to bring back to the front after a run (the player's
    /// clicks gave the game the keyboard).
    terminal: Option<crate::desktop::WindowInfo>,
}

/// Runs the guided session until the player quits.
pub fn run(options: Options) -> Result<ExitCode> {
    // Ctrl-C stops a run or answers a question, never the session at
    // once (a second one does, as in every run).
    crate::desktop::stop::catch()?;
    // A click in Windows' console would start a selection that freezes
    // the bot at its next line; the player's mode is back at the end.
    let _quick_edit = crate::desktop::console::quick_edit_off();
    say!(
        "dustbot {}: finds the game, shows what it reads, asks what to do (q quits)",
        env!("CARGO_PKG_VERSION")
    );
    // A terminal has no window beside the game: the hints get their own.
    let face = door::Face {
        hint_window: true,
        labels: key_of,
    };
    let mut door = Door::on_this_desktop(options, face)?;
    let mut face = Guided {
        keys: Keys::start(),
        colour: terminal::colour_wanted(),
        put: None,
        running: false,
        terminal: None,
    };
    loop {
        if let Some(asker) = terminal::ending() {
            // The run stopped by it has ended its game and said its
            // summary, or does now.
            door.close();
            for line in door.take_said() {
                say!("{line}");
            }
            say!("dustbot: ended by {asker}");
            crate::desktop::console::restore_input_mode();
            crate::desktop::stop::face_ended();
            return Ok(ExitCode::from(crate::desktop::stop::exit_code(asker)));
        }
        door.advance();
        let offer = door.offer();
        let put = Some((door.turn(), offer));
        // A new offer's question can be among the lines said with it ("is
        // this window the game?"): the keys typed before are dropped
        // before any of them shows, never after a key pressed at it.
        let fresh = face.put != put;
        if fresh {
            face.put = put;
            face.keys.ask();
        }
        for line in door.take_said() {
            say!("{line}");
        }
        face.follow_runs(offer);
        if fresh {
            face.put_offer(&door);
        }
        let read = match offer {
            Offer::Calibrating => face.corrections(&mut door),
            _ => face
                .keys
                .next(Some(POLL))
                .map(|key| key.and_then(|key| action_of(key, offer)))
                .map_err(anyhow::Error::from),
        };
        // A terminal that can no longer be read has closed: ended as
        // its hang-up ends the session, at the loop's top.
        let action = read.unwrap_or_else(|error| {
            log::debug!("the terminal cannot be read: {error:#}");
            crate::desktop::stop::terminal_closed();
            None
        });
        if let Some(action) = action
            && door.act(action) == Flow::Quit
        {
            door.close();
            for line in door.take_said() {
                say!("{line}");
            }
            return Ok(ExitCode::SUCCESS);
        }
    }
}

/// The key that asks the door for `action`, as the menu and the
/// questions name it ([`action_of`]'s keys).
fn key_of(action: Action) -> &'static str {
    match action {
        Action::Hints => "1",
        Action::Play => "2",
        Action::Calibrate => "3",
        Action::Record => "4",
        Action::Again | Action::Save => "Enter",
        Action::Stop(_) | Action::Quit | Action::Cancel => "q",
        Action::Report => "s",
        Action::Yes => "y",
        Action::No => "n",
        Action::TryAgain => "r",
        Action::UseDefault => "d",
    }
}

/// The door's action a key asks for, where the door offers `offer`: the
/// guided session's keys, as the menu and the questions name them.
fn action_of(key: Key, offer: Offer) -> Option<Action> {
    if offer == Offer::Running {
        return match key {
            Key::Char('q' | 'Q') => Some(Action::Stop(Asker::Key('q'))),
            Key::Escape => Some(Action::Stop(Asker::Escape)),
            Key::CtrlC => Some(Action::Stop(Asker::CtrlC)),
            _ => None,
        };
    }
    let c = terminal::chosen(key)?;
    Some(match (c, offer) {
        ('q', _) => Action::Quit,
        ('y', Offer::Question | Offer::Looking) | ('\n', Offer::Question) => Action::Yes,
        ('n', Offer::Question) => Action::No,
        ('\n', Offer::Menu) => Action::Again,
        ('r', Offer::Failed) => Action::TryAgain,
        ('s', Offer::Failed | Offer::Menu) => Action::Report,
        ('d', Offer::Unusable) => Action::UseDefault,
        ('3', Offer::Unusable | Offer::Menu) => Action::Calibrate,
        ('1', Offer::Menu) => Action::Hints,
        ('2', Offer::Menu) => Action::Play,
        ('4', Offer::Menu) => Action::Record,
        _ => return None,
    })
}

impl Guided {
    /// A run started: the terminal is remembered; a run ended: the
    /// terminal back in front, for the menu's key.
    fn follow_runs(&mut self, offer: Offer) {
        let running = offer == Offer::Running;
        if running == self.running {
            return;
        }
        self.running = running;
        if running {
            self.terminal = crate::desktop::system().own_terminal().ok().flatten();
        } else if let Some(terminal) = self.terminal.take()
            && let Err(why) = crate::desktop::bring_to_front(terminal.id)
        {
            log::debug!("the terminal stays behind: {why}");
        }
    }

    /// Prints what the door offers now, with its keys.
    fn put_offer(&self, door: &Door) {
        match door.offer() {
            Offer::Looking => say!("(q quits)"),
            Offer::Question => say!("y: yes, play here   n: no, look again   q: quit"),
            Offer::Running => say!("q, Escape or Ctrl-C here stops it"),
            Offer::Failed => say!("r: try again   s: save a report   q: quit"),
            Offer::Unusable => {
                say!("d: use the default calibration   3: calibrate on the board   q: quit")
            }
            Offer::Calibrating => {
                if let Some(board) = door.calibrating() {
                    super::stdout::show(&terminal::grid(board, self.colour));
                }
                say!(
                    "Enter if it is the board in the game; else type a row that differs as ROW LETTERS (e.g. 5 GGOYBRRG, {}) and Enter; q leaves the calibration as it is",
                    colour_letters()
                );
            }
            Offer::Menu => {
                if let Some(shown) = door.shown() {
                    super::stdout::show(&terminal::grid(&shown.board, self.colour));
                }
                say!("\nWhat now?");
                say!("  1  hints: the best next click shown, you click (game after game)");
                say!("  2  play for me (game after game; moving the mouse stops it)");
                say!("  3  calibrate on this board");
                say!("  4  my record");
                say!("  s  save a report");
                say!("  q  quit");
                if let Some(choice) = door.last_choice() {
                    say!(
                        "Enter: {} {} (your last choice)",
                        choice.key(),
                        choice.name()
                    );
                }
            }
        }
    }

    /// A row typed while calibrating: Enter alone saves, q cancels, a row
    /// corrects the board, which is shown again.
    fn corrections(&mut self, door: &mut Door) -> Result<Option<Action>> {
        let line = self.keys.line()?;
        Ok(match line.trim() {
            "" => Some(Action::Save),
            "q" | "Q" => Some(Action::Cancel),
            row => {
                door.correct(|board| {
                    let corrected = correct_row(board, row)?;
                    Ok((corrected, format!("row {} put in", row.trim())))
                });
                // The board and the question again.
                self.put = None;
                None
            }
        })
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
    fn the_keys_the_menu_and_the_questions_name_ask_the_door() {
        let at = |key: Key, offer| action_of(key, offer);
        assert_eq!(at(Key::Char('1'), Offer::Menu), Some(Action::Hints));
        assert_eq!(at(Key::Char('2'), Offer::Menu), Some(Action::Play));
        assert_eq!(at(Key::Enter, Offer::Menu), Some(Action::Again));
        assert_eq!(at(Key::Char('Y'), Offer::Question), Some(Action::Yes));
        assert_eq!(at(Key::Char('n'), Offer::Question), Some(Action::No));
        assert_eq!(at(Key::Char('r'), Offer::Failed), Some(Action::TryAgain));
        assert_eq!(
            at(Key::Char('d'), Offer::Unusable),
            Some(Action::UseDefault)
        );
        assert_eq!(at(Key::Char('3'), Offer::Unusable), Some(Action::Calibrate));
        // Ctrl-C and Escape answer q; AZERTY's top row types its digits.
        assert_eq!(at(Key::CtrlC, Offer::Question), Some(Action::Quit));
        assert_eq!(at(Key::Escape, Offer::Looking), Some(Action::Quit));
        assert_eq!(at(Key::Char('&'), Offer::Menu), Some(Action::Hints));
        // During a run q, Escape and Ctrl-C ask the door to stop it, each
        // said as itself; the menu's keys do nothing.
        assert_eq!(
            at(Key::Char('q'), Offer::Running),
            Some(Action::Stop(Asker::Key('q')))
        );
        assert_eq!(
            at(Key::Escape, Offer::Running),
            Some(Action::Stop(Asker::Escape))
        );
        assert_eq!(
            at(Key::CtrlC, Offer::Running),
            Some(Action::Stop(Asker::CtrlC))
        );
        assert_eq!(at(Key::Char('2'), Offer::Running), None);
        // A key the offer does not name does nothing.
        assert_eq!(at(Key::Char('1'), Offer::Question), None);
        assert_eq!(at(Key::Char('d'), Offer::Menu), None);
    }

    #[test]
    fn the_key_a_line_names_for_an_action_asks_for_that_action() {
        let key = |action| match key_of(action) {
            "Enter" => Key::Enter,
            key => Key::Char(key.chars().next().unwrap()),
        };
        // Where the door's lines name them: y taking a No back, q
        // stopping a run, r and s after an error, 3 at the menu.
        for (offer, action) in [
            (Offer::Question, Action::Yes),
            (Offer::Looking, Action::Yes),
            (Offer::Running, Action::Stop(Asker::Key('q'))),
            (Offer::Failed, Action::TryAgain),
            (Offer::Failed, Action::Report),
            (Offer::Menu, Action::Calibrate),
            (Offer::Unusable, Action::Calibrate),
        ] {
            assert_eq!(action_of(key(action), offer), Some(action), "{offer:?}");
        }
        // And wherever else a key asks, it asks for its own action (q is
        // a run's stop, and quits elsewhere).
        for offer in Offer::ALL {
            for &action in offer.actions() {
                if let Some(asked) = action_of(key(action), offer)
                    && offer != Offer::Calibrating
                    && key_of(action) != "q"
                {
                    assert_eq!(
                        std::mem::discriminant(&asked),
                        std::mem::discriminant(&action),
                        "{offer:?}"
                    );
                }
            }
        }
    }

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
