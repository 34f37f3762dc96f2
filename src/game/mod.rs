//! The game model that every stage shares: the board, its cells and colours,
//! clusters, and what one move does (removal, gravity, contraction toward the
//! centre), exactly as `RULES.md` states them, under each of its rule
//! variants. It knows nothing of screens,
//! searches or clicks; everything above it speaks its words.

mod board;
mod cell;
mod parse;
mod random;
mod rules;

pub use board::{Board, Cluster, ClusterList, MoveError, Step, replay, replay_under};
pub use cell::{Cell, CellSet, Colour};
pub use parse::BoardError;
pub use random::BoardRng;
pub use rules::{Rules, UnknownRules};

/// The example board of RULES.md (the source article's, and the real
/// screenshot's): 11 moves, proven. A constant so that a shipped command
/// needs no file beside it.
pub const EXAMPLE_BOARD: &str = "GGGGBOYO,RORGYGBY,RRBGOORG,BRBOBYRG,BRYBBRGG,OYGGRORG";

/// The real game's board: 8 columns.
pub const NODIATIS_WIDTH: u8 = 8;
/// The real game's board: 6 rows.
pub const NODIATIS_HEIGHT: u8 = 6;
/// The real game's number of dust colours.
pub const NODIATIS_COLOURS: u8 = 5;
/// The most cells a board may have: one bit each in a [`CellSet`].
pub const MAX_CELLS: usize = 128;
/// The most colours a board may use: one letter each in [`Colour::LETTERS`].
pub const MAX_COLOURS: u8 = 8;

/// The most clicks that earn the game's reward (RULES.md: 10 to 12 is
/// "really good" and earns one).
pub const REWARD_CLICKS: usize = 12;

/// Whether a game of `clicks` clicks earns the reward: cleared within
/// [`REWARD_CLICKS`].
pub fn earns_reward(clicks: usize, cleared: bool) -> bool {
    cleared && clicks <= REWARD_CLICKS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reward_takes_a_cleared_board_within_its_clicks() {
        assert!(earns_reward(REWARD_CLICKS, true));
        assert!(earns_reward(1, true));
        assert!(!earns_reward(REWARD_CLICKS + 1, true));
        assert!(!earns_reward(5, false));
    }
}
