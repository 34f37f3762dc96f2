//! `bot solve BOARD...`: solves board strings (or one per line from standard
//! input with `-`), printing the board's shape and grid, each improving
//! solution as it is found, then the moves; or one JSON object per board
//! with `--json`.

use std::io::{BufRead, Read as _};
use std::process::ExitCode;

use anyhow::{Context, Result, anyhow};

use super::args::SolveArgs;
use super::output::{describe, excerpt, improvement_line, outcome_json};
use super::show;
use crate::game::Board;
use crate::solver;

/// The longest line `bot solve -` reads: the longest board string the
/// parser accepts is 255 characters (128 one-cell rows and their commas),
/// so a longer line is no board, and is not read whole (an endless stream
/// costs no more than this).
const MAX_LINE: usize = 1024;

pub fn run(args: &SolveArgs) -> Result<ExitCode> {
    let options = args.solver.options(args.strategy.into(), args.rules.rules);
    for source in boards(&args.boards) {
        let (name, text) = source?;
        let board: Board = text
            .parse()
            .with_context(|| format!("{name} {}", excerpt(&text)))?;
        if !args.json {
            show(&format!(
                "{}x{} board, rules {}\n{}",
                board.width(),
                board.height(),
                options.rules,
                board.grid()
            ));
        }
        let outcome = solver::solve(&board, &options, &mut |found| {
            if !args.json {
                show(&format!("{}\n", improvement_line(found)));
            }
        });
        if args.json {
            show(&format!("{}\n", outcome_json(&board, &outcome)));
        } else {
            show(&describe(&outcome, args.show_boards));
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The board strings given, each with the name its errors use ("board 2",
/// "standard input, line 7"), `-` standing for the lines of standard input
/// (blank lines skipped). Stops at the first error.
fn boards(args: &[String]) -> impl Iterator<Item = Result<(String, String)>> + '_ {
    let mut position = 0;
    args.iter()
        .flat_map(
            move |arg| -> Box<dyn Iterator<Item = Result<(String, String)>>> {
                if arg == "-" {
                    Box::new(Lines::new(std::io::stdin().lock()))
                } else {
                    position += 1;
                    Box::new(std::iter::once(Ok((
                        format!("board {position}"),
                        arg.clone(),
                    ))))
                }
            },
        )
        .scan(false, |failed, item| {
            // Nothing after an error: the run ends on it.
            if *failed {
                return None;
            }
            *failed = item.is_err();
            Some(item)
        })
}

/// The non-blank lines of a reader, each at most [`MAX_LINE`] bytes of
/// UTF-8; an input with none is an error, so that `bot solve -` on an empty
/// pipe does not pass for a success.
struct Lines<R> {
    reader: R,
    line: usize,
    boards: usize,
    done: bool,
}

impl<R: BufRead> Lines<R> {
    fn new(reader: R) -> Lines<R> {
        Lines {
            reader,
            line: 0,
            boards: 0,
            done: false,
        }
    }

    /// The next line (without its end), `None` at the end of the input.
    fn read_line(&mut self) -> Result<Option<String>> {
        let mut bytes = Vec::new();
        let limit = MAX_LINE as u64 + 1;
        let read = (&mut self.reader)
            .take(limit)
            .read_until(b'\n', &mut bytes)
            .map_err(|e| anyhow!("cannot read boards from standard input: {e}"))?;
        if read == 0 {
            return Ok(None);
        }
        self.line += 1;
        let line = self.line;
        if bytes.last() == Some(&b'\n') {
            bytes.pop();
        } else if bytes.len() > MAX_LINE {
            return Err(anyhow!(
                "standard input, line {line}: longer than {MAX_LINE} bytes, so not a board"
            ));
        }
        if bytes.last() == Some(&b'\r') {
            bytes.pop();
        }
        String::from_utf8(bytes)
            .map(Some)
            .map_err(|_| anyhow!("standard input, line {line}: not UTF-8 text"))
    }
}

impl<R: BufRead> Iterator for Lines<R> {
    type Item = Result<(String, String)>;

    fn next(&mut self) -> Option<Self::Item> {
        while !self.done {
            match self.read_line() {
                Ok(Some(text)) if text.trim().is_empty() => {}
                Ok(Some(text)) => {
                    self.boards += 1;
                    return Some(Ok((format!("standard input, line {}", self.line), text)));
                }
                Ok(None) => {
                    self.done = true;
                    if self.boards == 0 {
                        return Some(Err(anyhow!("no board on standard input")));
                    }
                }
                Err(error) => {
                    self.done = true;
                    return Some(Err(error));
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8]) -> Vec<Result<(String, String), String>> {
        Lines::new(input)
            .map(|r| r.map_err(|e| e.to_string()))
            .collect()
    }

    #[test]
    fn lines_skip_blanks_and_name_their_place() {
        assert_eq!(
            lines(b"GG,GG\r\n\n  \nRR,BB"),
            [
                Ok(("standard input, line 1".into(), "GG,GG".into())),
                Ok(("standard input, line 4".into(), "RR,BB".into())),
            ]
        );
    }

    #[test]
    fn no_line_is_an_error() {
        assert_eq!(lines(b""), [Err("no board on standard input".into())]);
        assert_eq!(lines(b"\n \n"), [Err("no board on standard input".into())]);
    }

    #[test]
    fn a_line_longer_than_any_board_is_refused_unread() {
        let mut input = b"GG,GG\n".to_vec();
        input.extend(std::iter::repeat_n(b'G', 10 * MAX_LINE));
        let read = lines(&input);
        assert_eq!(read.len(), 2);
        assert_eq!(
            read[1],
            Err(format!(
                "standard input, line 2: longer than {MAX_LINE} bytes, so not a board"
            ))
        );
        // The longest line allowed is still read.
        let longest = "G".repeat(MAX_LINE);
        assert_eq!(
            lines(longest.as_bytes()),
            [Ok(("standard input, line 1".into(), longest))]
        );
    }

    #[test]
    fn bytes_that_are_not_text_are_refused() {
        assert_eq!(
            lines(b"GG,GG\n\xff\xfe\n"),
            [
                Ok(("standard input, line 1".into(), "GG,GG".into())),
                Err("standard input, line 2: not UTF-8 text".into()),
            ]
        );
    }
}
