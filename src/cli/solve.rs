//! `bot solve BOARD...`: solves board strings (or one per line from standard
//! input with `-`), printing the board's shape and grid, each improving
//! solution as it is found, then the moves; or one JSON object per board
//! with `--json`.

use std::io::{BufRead, Read as _};
use std::process::ExitCode;

use anyhow::{Context, Result, anyhow};

use super::args::SolveArgs;
use super::{exit_code, report_failure, show};
use crate::app::words::{describe, improvement_line, outcome_json};
use crate::game::Board;
use crate::solver;
use crate::text::excerpt;

/// The longest line `bot solve -` reads: the longest board string the
/// parser accepts is 255 characters (128 one-cell rows and their commas),
/// so a longer line is no board, and is not read whole (an endless stream
/// costs no more than this).
const MAX_LINE: usize = 1024;

pub fn run(args: &SolveArgs) -> Result<ExitCode> {
    let options = args.solver.options(args.strategy.into(), args.rules.rules);
    let mut failed = false;
    for (name, text) in boards(&args.boards) {
        let board = text.and_then(|text| {
            text.parse::<Board>()
                .with_context(|| format!("{name} {}", excerpt(&text)))
        });
        let open = match board {
            Ok(board) => solve(&board, &options, args),
            // One rule with dry runs: reported, and the rest solved.
            Err(error) => {
                failed = true;
                report_failure(args.json, ("input", &name), &error)
            }
        };
        if !open {
            // No one reads the answers any more.
            break;
        }
    }
    Ok(exit_code(failed))
}

/// Solves and prints one board; whether standard output is still open.
fn solve(board: &Board, options: &solver::SolveOptions, args: &SolveArgs) -> bool {
    if !args.json
        && !show(&format!(
            "{}x{} board, rules {}\n{}",
            board.width(),
            board.height(),
            options.rules,
            board.grid()
        ))
    {
        return false;
    }
    let outcome = solver::solve(board, options, &mut |found| {
        if !args.json {
            show(&format!("{}\n", improvement_line(found)));
        }
    });
    if args.json {
        show(&format!("{}\n", outcome_json(board, &outcome)))
    } else {
        show(&describe(&outcome, args.show_boards))
    }
}

/// The board strings given, each with the name its errors use ("board 2",
/// "standard input, line 7"), `-` standing for the lines of standard input
/// (blank lines skipped); a line that is no text is an error in its place.
fn boards(args: &[String]) -> impl Iterator<Item = (String, Result<String>)> + '_ {
    let mut position = 0;
    args.iter().flat_map(
        move |arg| -> Box<dyn Iterator<Item = (String, Result<String>)>> {
            if arg == "-" {
                Box::new(Lines::new(std::io::stdin().lock()))
            } else {
                position += 1;
                Box::new(std::iter::once((
                    format!("board {position}"),
                    Ok(arg.clone()),
                )))
            }
        },
    )
}

/// The non-blank lines of a reader, each at most [`MAX_LINE`] bytes of
/// UTF-8 (a byte order mark before the first is dropped); an input with
/// none is an error, so that `bot solve -` on an empty pipe does not pass
/// for a success. A line longer than any board, or a failed read, ends
/// the input: what follows is no list of boards (and may never end).
struct Lines<R> {
    reader: R,
    line: usize,
    boards: usize,
    done: bool,
}

/// What errors about the input as a whole name.
const STDIN: &str = "standard input";

impl<R: BufRead> Lines<R> {
    fn new(reader: R) -> Lines<R> {
        Lines {
            reader,
            line: 0,
            boards: 0,
            done: false,
        }
    }

    /// The next line (without its end) or why it is none, `None` at the end
    /// of the input.
    fn read_line(&mut self) -> Option<Result<String>> {
        let mut bytes = Vec::new();
        let limit = MAX_LINE as u64 + 1;
        let read = match (&mut self.reader).take(limit).read_until(b'\n', &mut bytes) {
            Ok(read) => read,
            Err(e) => {
                self.done = true;
                return Some(Err(anyhow!("cannot read boards from it: {e}")));
            }
        };
        if read == 0 {
            return None;
        }
        self.line += 1;
        if bytes.last() == Some(&b'\n') {
            bytes.pop();
        } else if bytes.len() > MAX_LINE {
            self.done = true;
            return Some(Err(anyhow!(
                "longer than {MAX_LINE} bytes, so not a board; the rest of the input is not read"
            )));
        }
        if bytes.last() == Some(&b'\r') {
            bytes.pop();
        }
        if self.line == 1 && bytes.starts_with("\u{feff}".as_bytes()) {
            bytes.drain(..3);
        }
        Some(String::from_utf8(bytes).map_err(|_| anyhow!("not UTF-8 text")))
    }
}

impl<R: BufRead> Iterator for Lines<R> {
    type Item = (String, Result<String>);

    fn next(&mut self) -> Option<Self::Item> {
        while !self.done {
            let Some(read) = self.read_line() else {
                self.done = true;
                if self.boards == 0 {
                    return Some((STDIN.into(), Err(anyhow!("no board on {STDIN}"))));
                }
                break;
            };
            let name = format!("{STDIN}, line {}", self.line);
            match read {
                Ok(text) if text.trim().is_empty() => {}
                Ok(text) => {
                    self.boards += 1;
                    return Some((name, Ok(text)));
                }
                Err(error) => {
                    self.boards += 1;
                    return Some((name.clone(), Err(error.context(name))));
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8]) -> Vec<(String, Result<String, String>)> {
        Lines::new(input)
            .map(|(name, r)| (name, r.map_err(|e| format!("{e:#}"))))
            .collect()
    }

    fn line(n: usize, text: Result<&str, &str>) -> (String, Result<String, String>) {
        (
            format!("standard input, line {n}"),
            text.map(Into::into).map_err(Into::into),
        )
    }

    #[test]
    fn lines_skip_blanks_and_name_their_place() {
        assert_eq!(
            lines(b"GG,GG\r\n\n  \nRR,BB"),
            [line(1, Ok("GG,GG")), line(4, Ok("RR,BB"))]
        );
    }

    #[test]
    fn a_byte_order_mark_is_no_part_of_the_first_line() {
        assert_eq!(
            lines("\u{feff}GG,GG\n\u{feff}RR".as_bytes()),
            [line(1, Ok("GG,GG")), line(2, Ok("\u{feff}RR"))]
        );
    }

    #[test]
    fn no_line_is_an_error() {
        let none = (
            "standard input".to_owned(),
            Err("no board on standard input".to_owned()),
        );
        assert_eq!(lines(b""), std::slice::from_ref(&none));
        assert_eq!(lines(b"\n \n"), [none]);
    }

    #[test]
    fn a_line_longer_than_any_board_ends_the_input_unread() {
        let mut input = b"GG,GG\n".to_vec();
        input.extend(std::iter::repeat_n(b'G', 10 * MAX_LINE));
        input.extend(b"\nRR,RR\n");
        assert_eq!(
            lines(&input),
            [
                line(1, Ok("GG,GG")),
                line(
                    2,
                    Err(&format!(
                        "standard input, line 2: longer than {MAX_LINE} bytes, so not a board; the rest of the input is not read"
                    ))
                ),
            ]
        );
        // The longest line allowed is still read.
        let longest = "G".repeat(MAX_LINE);
        assert_eq!(lines(longest.as_bytes()), [line(1, Ok(&longest))]);
    }

    #[test]
    fn bytes_that_are_not_text_are_refused_and_the_next_lines_read() {
        assert_eq!(
            lines(b"GG,GG\n\xff\xfe\nRR,RR\n"),
            [
                line(1, Ok("GG,GG")),
                line(2, Err("standard input, line 2: not UTF-8 text")),
                line(3, Ok("RR,RR")),
            ]
        );
    }
}
