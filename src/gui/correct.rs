//! The player's corrections to the board proposed for calibrating: a
//! click on a cell gives it the next of the game's five colours, then
//! empty, then the first colour again. The board stays one the game can
//! show (no pile floats over an empty cell): a cell under piles skips
//! empty, and an empty cell over an empty one takes no pile.

use thiserror::Error;

use crate::game::{Board, Cell, Colour, NODIATIS_COLOURS};

/// Why a cell's colour cannot change.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum Refused {
    #[error(
        "column {x} row {y}: a pile there would float over the empty cell under it: fill that one first"
    )]
    Floats { x: u8, y: u8 },
    #[error("column {x} row {y} is off the board")]
    OffTheBoard { x: u8, y: u8 },
}

/// The states a cell goes through, in turn: the game's colours, then
/// empty.
fn turns() -> impl Iterator<Item = Option<Colour>> {
    Colour::all(NODIATIS_COLOURS)
        .map(Some)
        .chain(std::iter::once(None))
}

/// `board` with `cell` in its next state (see the module's words) that
/// leaves the board one the game can show, and that state.
pub fn cycle(board: &Board, cell: Cell) -> Result<(Board, Option<Colour>), Refused> {
    let (x, y) = (cell.x, cell.y);
    if !board.contains(cell) {
        return Err(Refused::OffTheBoard { x, y });
    }
    let now = board.get(cell);
    let states: Vec<Option<Colour>> = turns().collect();
    let at = states
        .iter()
        .position(|&s| s == now)
        .unwrap_or(states.len() - 1);
    (1..states.len())
        .map(|step| states[(at + step) % states.len()])
        .find_map(|next| {
            let changed = Board::from_fn(board.width(), board.height(), |c| {
                if c == cell { next } else { board.get(c) }
            });
            changed.ok().map(|changed| (changed, next))
        })
        .ok_or(Refused::Floats { x, y })
}

/// "O orange", or "empty": a cell's state as the status line says it.
pub fn said(state: Option<Colour>) -> String {
    match state {
        Some(colour) => format!("{} {}", colour.letter(), colour.name()),
        None => "empty".to_owned(),
    }
}

/// "green, orange, red, yellow, blue, then empty": the order of a cell's
/// states.
pub fn order() -> String {
    let colours: Vec<&str> = Colour::all(NODIATIS_COLOURS).map(Colour::name).collect();
    format!("{}, then empty", colours.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board() -> Board {
        // Rows from the top: column 0 full, G at both ends; column 7
        // holds two piles, O over G.
        "GOOOOOO ,OOOOOOO ,RRRRRRR ,YYYYYYY ,BBBBBBBO,GGGGGGGG"
            .parse()
            .unwrap()
    }

    #[test]
    fn a_top_cell_goes_through_the_five_colours_and_empty_and_back() {
        let start = board();
        let top = Cell::new(0, 5);
        assert_eq!(start.get(top), Colour::new(0));
        let mut now = start;
        let mut seen = Vec::new();
        for _ in 0..6 {
            let (next, state) = cycle(&now, top).unwrap();
            assert_eq!(next.get(top), state);
            // Only that cell changes.
            for other in (0..8).flat_map(|x| (0..6).map(move |y| Cell::new(x, y))) {
                if other != top {
                    assert_eq!(next.get(other), start.get(other), "{other:?}");
                }
            }
            seen.push(said(state));
            now = next;
        }
        assert_eq!(
            seen,
            [
                "O orange", "R red", "Y yellow", "B blue", "empty", "G green"
            ]
        );
        assert_eq!(now, start);
    }

    #[test]
    fn a_cell_under_piles_skips_empty() {
        let start = board();
        let under = Cell::new(0, 0);
        assert_eq!(start.get(under), Colour::new(0));
        let mut now = start;
        let mut states = Vec::new();
        for _ in 0..5 {
            let (next, state) = cycle(&now, under).unwrap();
            states.push(state);
            now = next;
        }
        assert!(!states.contains(&None), "{states:?}");
        assert_eq!(now, start);
    }

    #[test]
    fn an_empty_cell_takes_a_pile_over_a_pile_only() {
        let start = board();
        // Column 7 is G at row 0, O at row 1, empty from row 2 up.
        let (filled, state) = cycle(&start, Cell::new(7, 2)).unwrap();
        assert_eq!(state, Colour::new(0));
        assert_eq!(filled.get(Cell::new(7, 2)), Colour::new(0));
        assert_eq!(
            cycle(&start, Cell::new(7, 3)),
            Err(Refused::Floats { x: 7, y: 3 })
        );
        assert!(matches!(
            cycle(&start, Cell::new(8, 0)),
            Err(Refused::OffTheBoard { .. })
        ));
    }

    #[test]
    fn the_order_is_said_as_the_cells_go() {
        assert_eq!(order(), "green, orange, red, yellow, blue, then empty");
    }
}
