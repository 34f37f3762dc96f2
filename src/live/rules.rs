//! Which rules the game plays by, learned from the boards its clicks
//! leave. The source article's rules are second hand, so live play and
//! assist mode may start with the default (`auto`) and, after every click,
//! hold the board read against what each variant predicts: the variants
//! that explain every click so far stay candidates, and when the rules
//! played by stop explaining the board, the first candidate left takes
//! over. Pure game logic, so it is tested without a screen.

use crate::game::Rules;

/// The rules live play and assist mode were asked to play by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RulesChoice {
    /// These rules: a board they do not explain is a mismatch.
    Given(Rules),
    /// The default to start with, and whichever variant the boards show.
    Auto,
}

impl RulesChoice {
    /// The rules to play by before any click.
    pub fn start(self) -> Rules {
        match self {
            RulesChoice::Given(rules) => rules,
            RulesChoice::Auto => Rules::default(),
        }
    }
}

/// What the boards seen so far say about the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Learned {
    /// The rules played by.
    current: Rules,
    /// The variants that explain every click seen, in [`Rules::ALL`]'s
    /// order; only the given rules when they were given.
    candidates: Vec<Rules>,
    /// The click after which the rules last changed.
    switched_at: Option<u32>,
}

/// What one click's board says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Explanation {
    /// The rules played by explain it.
    Explained,
    /// They do not, but other variants do (`candidates`, one or several):
    /// from now on play by `rules`, the first of them.
    Switched {
        rules: Rules,
        candidates: Vec<Rules>,
    },
    /// No variant still a candidate explains it: a mismatch.
    Unexplained,
}

impl Learned {
    pub fn new(choice: RulesChoice) -> Learned {
        Learned {
            current: choice.start(),
            candidates: match choice {
                RulesChoice::Given(rules) => vec![rules],
                RulesChoice::Auto => Rules::ALL.to_vec(),
            },
            switched_at: None,
        }
    }

    /// The rules to play by now.
    pub fn rules(&self) -> Rules {
        self.current
    }

    /// The variants that explain every click seen so far (with given
    /// rules, those alone).
    pub fn candidates(&self) -> &[Rules] {
        &self.candidates
    }

    /// The click after which the rules last changed, if they did.
    pub fn switched_at(&self) -> Option<u32> {
        self.switched_at
    }

    /// Takes the board read after click `number`: `explains(rules)` says
    /// whether a click under `rules` makes it. The candidates that do not
    /// explain it are dropped, unless none does: a board no variant
    /// explains (a misread, a second click) teaches nothing.
    pub fn see(&mut self, number: u32, explains: impl Fn(Rules) -> bool) -> Explanation {
        let fits: Vec<Rules> = self
            .candidates
            .iter()
            .copied()
            .filter(|&rules| explains(rules))
            .collect();
        if fits.is_empty() {
            return Explanation::Unexplained;
        }
        let explained = fits.contains(&self.current);
        self.candidates = fits;
        if explained {
            return Explanation::Explained;
        }
        self.current = self.candidates[0];
        self.switched_at = Some(number);
        Explanation::Switched {
            rules: self.current,
            candidates: self.candidates.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Board, Cell};

    /// RULES.md's start board for the variants.
    const START: &str = "YBBGYGBB,GYOYYOYB,BBGYYYRB,YBRRBRYR,BRRGGOBG,OYYGRYGB";

    fn board(text: &str) -> Board {
        text.parse().unwrap()
    }

    /// Plays `clicks` from `start` under `truth`, as the game would, and
    /// lets `learned` see each board.
    fn watch(
        learned: &mut Learned,
        start: &str,
        truth: Rules,
        clicks: &[(u8, u8)],
    ) -> Vec<Explanation> {
        let mut current = board(start);
        clicks
            .iter()
            .zip(1..)
            .map(|(&(x, y), number)| {
                let cell = Cell::new(x, y);
                let (read, _) = current.play_under(cell, truth).unwrap();
                let explains = |rules| current.play_under(cell, rules).unwrap().0 == read;
                let seen = learned.see(number, explains);
                current = read;
                seen
            })
            .collect()
    }

    #[test]
    fn auto_switches_when_one_variant_alone_explains_the_board() {
        // RULES.md's vectors: the first click empties column 3, which every
        // column variant closes alike; the third shows which way.
        let mut learned = Learned::new(RulesChoice::Auto);
        let seen = watch(
            &mut learned,
            START,
            Rules::LeftColumns,
            &[(3, 3), (1, 1), (2, 1)],
        );
        let columns = vec![Rules::CentreColumns, Rules::LeftColumns, Rules::Gravity];
        assert_eq!(
            seen[0],
            Explanation::Switched {
                rules: Rules::CentreColumns,
                candidates: columns
            }
        );
        assert_eq!(seen[1], Explanation::Explained);
        assert_eq!(
            seen[2],
            Explanation::Switched {
                rules: Rules::LeftColumns,
                candidates: vec![Rules::LeftColumns]
            }
        );
        assert_eq!(learned.rules(), Rules::LeftColumns);
        assert_eq!(learned.switched_at(), Some(3));
    }

    #[test]
    fn boards_the_rules_explain_keep_them_and_narrow_the_rest() {
        let mut learned = Learned::new(RulesChoice::Auto);
        let seen = watch(&mut learned, START, Rules::CentreRows, &[(3, 3), (1, 1)]);
        assert_eq!(seen, [Explanation::Explained, Explanation::Explained]);
        assert_eq!(learned.rules(), Rules::CentreRows);
        assert_eq!(learned.candidates(), [Rules::CentreRows]);
        assert_eq!(learned.switched_at(), None);
    }

    #[test]
    fn a_board_no_variant_explains_is_a_mismatch_and_teaches_nothing() {
        let mut learned = Learned::new(RulesChoice::Auto);
        assert_eq!(learned.see(1, |_| false), Explanation::Unexplained);
        assert_eq!(learned.candidates(), Rules::ALL);
        assert_eq!(learned.rules(), Rules::CentreRows);
    }

    #[test]
    fn given_rules_never_change() {
        let mut learned = Learned::new(RulesChoice::Given(Rules::CentreColumns));
        assert_eq!(learned.rules(), Rules::CentreColumns);
        let seen = watch(
            &mut learned,
            START,
            Rules::LeftColumns,
            &[(3, 3), (1, 1), (2, 1)],
        );
        assert_eq!(
            seen,
            [
                Explanation::Explained,
                Explanation::Explained,
                Explanation::Unexplained
            ]
        );
        assert_eq!(learned.rules(), Rules::CentreColumns);
        assert_eq!(learned.switched_at(), None);
    }
}
