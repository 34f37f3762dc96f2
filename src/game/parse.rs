//! The board string format of `RULES.md`: rows from the top, comma-separated,
//! a space for an empty cell. Errors name the row and column.

use std::str::FromStr;

use thiserror::Error;

use super::MAX_CELLS;
use super::board::Board;
use super::cell::{Cell, Colour};

/// Why a board string (or a set of cells) is not a board. Rows are counted
/// from 1 at the top, as they are written; `y` and `x` are board coordinates.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum BoardError {
    #[error("the board string is empty")]
    Empty,
    #[error("a {width}x{height} board has no cells or more than {MAX_CELLS}")]
    Size { width: usize, height: usize },
    #[error("expected {expected} rows separated by commas, found {found}")]
    RowCount { expected: usize, found: usize },
    #[error("row {row} (y={y}) has {found} cells, expected {expected}")]
    RowWidth {
        row: usize,
        y: usize,
        found: usize,
        expected: usize,
    },
    #[error("row {row} (y={}), column {} (x={}): unknown letter {letter:?}, expected one of {} or a space", cell.y, cell.x + 1, cell.x, Colour::LETTERS.iter().collect::<String>())]
    UnknownLetter { row: u8, cell: Cell, letter: char },
    #[error("row {row} (y={}), column {} (x={}): the tile floats above an empty cell", cell.y, cell.x + 1, cell.x)]
    Floating { row: u8, cell: Cell },
}

impl Board {
    /// Parses a board string whose shape must be `width` x `height`.
    pub fn parse_sized(text: &str, width: u8, height: u8) -> Result<Board, BoardError> {
        let rows = split_rows(text);
        if rows.len() != height as usize {
            return Err(BoardError::RowCount {
                expected: height as usize,
                found: rows.len(),
            });
        }
        parse_rows(&rows, width)
    }
}

impl FromStr for Board {
    type Err = BoardError;

    /// Parses a board string, taking its shape from the string: as many rows
    /// as it has, as wide as most of them (so that the row that differs is
    /// the one blamed, even when it is the first).
    fn from_str(text: &str) -> Result<Board, BoardError> {
        let rows = split_rows(text);
        if rows.len() == 1 && rows[0].is_empty() {
            return Err(BoardError::Empty);
        }
        let width = usual_width(&rows);
        let height = rows.len();
        if width == 0 || width * height > MAX_CELLS {
            return Err(BoardError::Size { width, height });
        }
        parse_rows(&rows, width as u8)
    }
}

/// The width most rows have; on a tie, the first such row's. Linear in
/// the rows (a pasted megabyte of commas is refused at once).
fn usual_width(rows: &[Vec<char>]) -> usize {
    let mut counts = std::collections::HashMap::new();
    for row in rows {
        *counts.entry(row.len()).or_insert(0usize) += 1;
    }
    let mut best = rows[0].len();
    for row in rows {
        if counts[&row.len()] > counts[&best] {
            best = row.len();
        }
    }
    best
}

fn split_rows(text: &str) -> Vec<Vec<char>> {
    text.trim_end_matches(['\n', '\r'])
        .split(',')
        .map(|row| row.chars().collect())
        .collect()
}

fn parse_rows(rows: &[Vec<char>], width: u8) -> Result<Board, BoardError> {
    let height = rows.len();
    if width == 0 || width as usize * height > MAX_CELLS {
        return Err(BoardError::Size {
            width: width.into(),
            height,
        });
    }
    for (i, row) in rows.iter().enumerate() {
        if row.len() != width as usize {
            return Err(BoardError::RowWidth {
                row: i + 1,
                y: height - 1 - i,
                found: row.len(),
                expected: width as usize,
            });
        }
    }
    let height = height as u8;
    let mut unknown = None;
    let board = Board::from_fn(width, height, |cell| {
        let row = height - cell.y;
        let letter = rows[row as usize - 1][cell.x as usize];
        if letter == ' ' {
            return None;
        }
        let colour = Colour::from_letter(letter);
        if colour.is_none() && unknown.is_none() {
            unknown = Some(BoardError::UnknownLetter { row, cell, letter });
        }
        colour
    });
    // An unknown letter is the first thing to report: it can also make a
    // tile above it look as if it floats.
    match unknown {
        Some(error) => Err(error),
        None => board,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const REAL: &str = crate::game::EXAMPLE_BOARD;

    #[test]
    fn round_trips_the_real_board() {
        let board: Board = REAL.parse().unwrap();
        assert_eq!((board.width(), board.height()), (8, 6));
        assert_eq!(board.to_string(), REAL);
        assert_eq!(board.get(Cell::new(0, 5)), Colour::from_letter('G'));
        assert_eq!(board.get(Cell::new(7, 0)), Colour::from_letter('G'));
        assert_eq!(board.get(Cell::new(0, 0)), Colour::from_letter('O'));
    }

    #[test]
    fn empty_board_parses() {
        let text = "        ,        ,        ,        ,        ,        ";
        let board: Board = text.parse().unwrap();
        assert!(board.is_cleared());
        assert_eq!(board.to_string(), text);
    }

    #[test]
    fn errors_name_row_and_column() {
        let err = "GGGGBOYO,RORGYXBY,RRBGOORG,BRBOBYRG,BRYBBRGG,OYGGRORG"
            .parse::<Board>()
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "row 2 (y=4), column 6 (x=5): unknown letter 'X', expected one of GORYBCPW or a space"
        );
        let err = "GGGGBOYO,RORGYGB,RRBGOORG".parse::<Board>().unwrap_err();
        assert_eq!(
            err,
            BoardError::RowWidth {
                row: 2,
                y: 1,
                found: 7,
                expected: 8
            }
        );
        let err = "GG,G ,GG".parse::<Board>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "row 1 (y=2), column 2 (x=1): the tile floats above an empty cell"
        );
        let err = Board::parse_sized("GG,GG", 2, 3).unwrap_err();
        assert_eq!(
            err,
            BoardError::RowCount {
                expected: 3,
                found: 2
            }
        );
        assert_eq!("".parse::<Board>(), Err(BoardError::Empty));
        let long = ["GGGGGGGGGGGGGGGG"; 9].join(",");
        assert!(matches!(
            long.parse::<Board>(),
            Err(BoardError::Size { .. })
        ));
    }

    #[test]
    fn the_row_that_differs_is_blamed_even_the_first() {
        let err = "GGGGBOYOG,RORGYGBY,RRBGOORG,BRBOBYRG,BRYBBRGG,OYGGRORG"
            .parse::<Board>()
            .unwrap_err();
        assert_eq!(
            err,
            BoardError::RowWidth {
                row: 1,
                y: 5,
                found: 9,
                expected: 8
            }
        );
    }

    #[test]
    fn a_megabyte_of_rows_is_refused_at_once() {
        // Quadratic in the rows, this took hours.
        let text = ",".repeat(1 << 20);
        assert!(matches!(
            text.parse::<Board>(),
            Err(BoardError::Size { .. })
        ));
        let text = "G,GG,".repeat(1 << 18);
        assert!(matches!(
            text.parse::<Board>(),
            Err(BoardError::Size { .. })
        ));
    }

    #[test]
    fn a_long_row_is_called_by_its_length() {
        let err = "G".repeat(1000).parse::<Board>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "a 1000x1 board has no cells or more than 128"
        );
        let tall = vec!["G"; 300].join(",");
        assert_eq!(
            tall.parse::<Board>().unwrap_err().to_string(),
            "a 1x300 board has no cells or more than 128"
        );
    }
}
