//! The rules of a move's second step, after the clicked cluster is removed
//! and gravity has pulled the tiles down. The source article describes
//! the game second hand ("tiles are pulled towards the center ... or so
//! I'm told"), so the model knows the four readings of RULES.md, "Rule
//! variants", and every stage takes the one in force as a value.

use std::fmt;
use std::str::FromStr;

/// How the tiles close up after gravity.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Rules {
    /// RULES.md's rules: in each row, the left half's tiles slide right
    /// toward x = W/2-1 and the right half's slide left toward x = W/2,
    /// each keeping its order (a column can split).
    #[default]
    CentreRows,
    /// Empty columns close up toward the centre: the non-empty columns of
    /// the left half slide right toward x = W/2-1, those of the right half
    /// left toward x = W/2, whole and in order.
    CentreColumns,
    /// Empty columns close up toward the left (x = 0), whole and in order:
    /// the classic SameGame.
    LeftColumns,
    /// Nothing: only gravity.
    Gravity,
}

impl Rules {
    pub const ALL: [Rules; 4] = [
        Rules::CentreRows,
        Rules::CentreColumns,
        Rules::LeftColumns,
        Rules::Gravity,
    ];

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Rules::CentreRows => "centre-rows",
            Rules::CentreColumns => "centre-columns",
            Rules::LeftColumns => "left-columns",
            Rules::Gravity => "gravity",
        }
    }

    /// What the game does, in words a player recognises.
    pub fn describe(self) -> &'static str {
        match self {
            Rules::CentreRows => "the game slides each row's tiles toward the centre",
            Rules::CentreColumns => "the game contracts whole columns toward the centre",
            Rules::LeftColumns => "the game closes empty columns toward the left",
            Rules::Gravity => "the game only lets tiles fall",
        }
    }

    /// Whether a tile can ever cross the middle of the board (between
    /// x = W/2-1 and x = W/2): only when columns close toward the left.
    pub fn crosses_middle(self) -> bool {
        self == Rules::LeftColumns
    }

    /// Whether the mirror image of a board (`x -> W-1-x`) plays a game of
    /// the same length. Under `centre-rows` at even widths only: at an odd
    /// width the middle column belongs to the right half. Under the column
    /// variants at any width: what a move does to the tiles depends only on
    /// the order of the non-empty columns, never on where they stand (they
    /// always stand side by side once a move has closed them up), and a
    /// mirror reverses that order. Under `gravity` at any width: nothing
    /// moves sideways. (Checked against breadth-first search in
    /// `tests/suite/solver_correctness.rs`.)
    pub fn mirror_symmetric(self, width: u8) -> bool {
        match self {
            Rules::CentreRows => width.is_multiple_of(2),
            Rules::CentreColumns | Rules::LeftColumns | Rules::Gravity => true,
        }
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is none of the rules'.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown rules {0:?}: one of centre-rows, centre-columns, left-columns, gravity")]
pub struct UnknownRules(pub String);

impl FromStr for Rules {
    type Err = UnknownRules;

    fn from_str(text: &str) -> Result<Rules, UnknownRules> {
        Rules::ALL
            .into_iter()
            .find(|r| r.name() == text)
            .ok_or_else(|| UnknownRules(text.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back() {
        for rules in Rules::ALL {
            assert_eq!(rules.name().parse::<Rules>(), Ok(rules));
        }
        assert!("centre".parse::<Rules>().is_err());
        assert_eq!(Rules::default(), Rules::CentreRows);
    }
}
