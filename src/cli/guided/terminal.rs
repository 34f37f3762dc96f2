//! The guided session's terminal: single keys read in raw mode (the
//! `console` crate, already under the progress bars) on a thread of their
//! own, so that a wait can end on a key or a time (a run's `q`, Escape
//! or Ctrl-C among them, which the face turns into the door's stop); and the board
//! drawn with its letters in colour where the terminal has colour.

use std::fmt::Write as _;
use std::io;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

use console::{Key, Term};

use crate::desktop::stop;
use crate::game::{Board, Cell};

/// The player's keys. A key is read only when one is wanted, so that no
/// read is left waiting in raw mode
/// when the session ends; and only a key pressed at a question answers it
/// (keys typed before are dropped, an escape sequence whole).
#[derive(Debug)]
pub struct Keys {
    want: Sender<()>,
    keys: Receiver<(Instant, io::Result<Key>)>,
    /// A key was asked for and not yet received.
    asked: bool,
    /// When the question now on the screen was asked: a key read before
    /// it answers nothing.
    since: Instant,
}

impl Keys {
    /// The reader of standard input's terminal.
    pub fn start() -> Keys {
        let (want, wanted) = mpsc::channel::<()>();
        let (send, keys) = mpsc::channel();
        std::thread::spawn(move || {
            let term = Term::stdout();
            while wanted.recv().is_ok() {
                loop {
                    // Ctrl-C as a key ([`Key::CtrlC`]), not as a signal: at
                    // a question it is an answer, never a stop kept for the
                    // next run.
                    let key = term.read_key_raw();
                    let at = Instant::now();
                    if let Ok(Key::UnknownEscSeq(_)) = key {
                        // A sequence console does not know ends after three
                        // bytes: its rest (Shift+Up's `2A`) is no key typed.
                        crate::desktop::drop_typed_ahead();
                        continue;
                    }
                    if send.send((at, key)).is_err() {
                        return;
                    }
                    break;
                }
            }
        });
        Keys {
            want,
            keys,
            asked: false,
            since: Instant::now(),
        }
    }

    /// A question is about to be put, before its first line is shown: the
    /// keys typed before (an Enter pressed while the bot started, a key
    /// pressed during a run) answer nothing.
    pub fn ask(&mut self) {
        crate::desktop::drop_typed_ahead();
        self.since = Instant::now();
    }

    /// The next key pressed since the question was asked ([`Keys::ask`]),
    /// waiting at most `wait` (`None`: for ever); `Ok(None)` when the time
    /// is up.
    pub fn next(&mut self, wait: Option<Duration>) -> io::Result<Option<Key>> {
        let ended = || io::Error::other("the terminal's reader ended");
        let deadline = wait.map(|wait| Instant::now() + wait);
        loop {
            if !self.asked {
                self.want.send(()).map_err(|_| ended())?;
                self.asked = true;
            }
            let (at, key) = match deadline {
                None => self.keys.recv().map_err(|_| ended())?,
                Some(deadline) => {
                    let left = deadline.saturating_duration_since(Instant::now());
                    match self.keys.recv_timeout(left) {
                        Ok(key) => key,
                        Err(RecvTimeoutError::Timeout) => return Ok(None),
                        Err(RecvTimeoutError::Disconnected) => return Err(ended()),
                    }
                }
            };
            self.asked = false;
            if at >= self.since {
                return key.map(Some);
            }
        }
    }

    /// The answer to the question asked ([`Keys::ask`]): a line typed,
    /// echoed as it is typed (Backspace takes a letter back), without its
    /// Enter; Ctrl-C is a line `q`, and so is a request to end the
    /// session ([`ending`]) while it waits.
    pub fn line(&mut self) -> io::Result<String> {
        let term = Term::stdout();
        let mut line = String::new();
        loop {
            if ending().is_some() {
                return Ok("q".to_owned());
            }
            match self.next(Some(END_LOOK))? {
                Some(Key::Enter) => {
                    term.write_line("")?;
                    return Ok(line);
                }
                Some(Key::CtrlC) => {
                    term.write_line("")?;
                    return Ok("q".to_owned());
                }
                Some(Key::Backspace) if line.pop().is_some() => term.clear_chars(1)?,
                Some(Key::Char(c)) if !c.is_control() => {
                    line.push(c);
                    term.write_str(&c.to_string())?;
                }
                _ => {}
            }
        }
    }
}

/// How often a wait for a whole line looks for a request to end.
const END_LOOK: Duration = Duration::from_millis(100);

/// The request that ends the guided session, once one came: a signal to
/// end (SIGTERM), the terminal closing (SIGHUP) or the display closing;
/// never Ctrl-C, which stops a run and answers questions here.
pub fn ending() -> Option<stop::Asker> {
    stop::end_beyond_ctrl_c()
}

/// The answer `key` gives to a question: a letter or digit, lower case,
/// Enter as `'\n'`, Ctrl-C and Escape as `q`; `None` for other keys.
pub fn chosen(key: Key) -> Option<char> {
    match key {
        Key::CtrlC | Key::Escape => Some('q'),
        Key::Char(c) => crate::text::answer(c),
        Key::Enter => Some('\n'),
        _ => None,
    }
}

/// Whether to draw in colour: standard output is a terminal that has
/// colour, and `NO_COLOR` (no-color.org) is not set to something.
pub fn colour_wanted() -> bool {
    // Windows' console shows colour only once it reads escape codes.
    colour_rule(
        std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()),
        std::env::var("TERM").ok().as_deref(),
        Term::stdout().is_term(),
    ) && crate::desktop::console::colour()
}

/// [`colour_wanted`]'s rule: `no_color` set, the terminal's `TERM`, and
/// whether standard output is a terminal.
fn colour_rule(no_color: bool, term: Option<&str>, is_term: bool) -> bool {
    is_term && !no_color && term != Some("dumb")
}

/// The ANSI colour of each of the game's colours, by its letter: the
/// terminal's own red, green, yellow and blue, and orange from the 256.
fn ansi(letter: char) -> &'static str {
    match letter {
        'G' => "32",
        'O' => "38;5;208",
        'R' => "31",
        'Y' => "33",
        'B' => "34",
        'C' => "36",
        'P' => "35",
        _ => "37",
    }
}

/// The board as a grid with its row and column numbers (as
/// [`Board::grid`] draws it), each letter in its colour when `colour`.
pub fn grid(board: &Board, colour: bool) -> String {
    let mut text = String::from("  |");
    for x in 0..board.width() {
        let _ = write!(text, " {}", x % 10);
    }
    let _ = writeln!(text, "\n--+{}", "-".repeat(2 * board.width() as usize));
    for y in (0..board.height()).rev() {
        let _ = write!(text, "{} |", y % 10);
        for x in 0..board.width() {
            let letter = board.get(Cell::new(x, y)).map_or(' ', |c| c.letter());
            if colour && letter != ' ' {
                let _ = write!(text, " \x1b[1;{}m{letter}\x1b[0m", ansi(letter));
            } else {
                let _ = write!(text, " {letter}");
            }
        }
        text.push('\n');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colour_only_on_a_terminal_and_never_against_no_color() {
        assert!(colour_rule(false, Some("xterm-256color"), true));
        assert!(!colour_rule(true, Some("xterm-256color"), true));
        assert!(!colour_rule(false, Some("xterm"), false));
        assert!(!colour_rule(false, Some("dumb"), true));
        assert!(colour_rule(false, None, true));
    }

    #[test]
    fn the_grid_is_the_boards_in_colour_or_plain() {
        let board: Board = crate::game::EXAMPLE_BOARD.parse().unwrap();
        assert_eq!(grid(&board, false), board.grid().to_string());
        let coloured = grid(&board, true);
        assert!(coloured.contains("\x1b[1;32mG\x1b[0m"), "{coloured}");
        // Without the colours it is the plain grid again.
        let mut stripped = coloured.clone();
        for code in ["32", "38;5;208", "31", "33", "34"] {
            stripped = stripped.replace(&format!("\x1b[1;{code}m"), "");
        }
        assert_eq!(stripped.replace("\x1b[0m", ""), grid(&board, false));
    }
}
