//! When the board has settled after a click: the rule alone, fed with the
//! boards read one after another, so that it can be tested without a
//! screen. A read that agrees with the one before it and is a board
//! predicted (the plan's next board, or in assist mode any board one click
//! can make) is settled at once; another board must hold still for a while
//! first (an animation can pause on an in-between board), and the board
//! from before the click is never taken as settled until the time is up
//! (the game may not have started the animation yet).

use std::time::{Duration, Instant};

use crate::game::Board;

/// How long a board the plan did not predict must read the same before it
/// is taken as settled.
pub const QUIET: Duration = Duration::from_millis(500);

/// What the rule says after a read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    Wait,
    Settled(Board),
}

/// The reads since a click.
#[derive(Debug)]
pub struct Settle {
    /// The board before the click, if any.
    before: Option<Board>,
    /// The boards predicted (none: any steady board).
    expected: Vec<Board>,
    /// The last board read, when it was first read in this run of equal
    /// reads, and how many reads the run has.
    run: Option<(Board, Instant, u32)>,
}

impl Settle {
    pub fn new(before: Option<Board>, expected: Vec<Board>) -> Settle {
        Settle {
            before,
            expected,
            run: None,
        }
    }

    /// Takes one read (`None`: unreadable or unsure) made at `at`.
    pub fn see(&mut self, board: Option<Board>, at: Instant) -> Progress {
        let Some(board) = board else {
            self.run = None;
            return Progress::Wait;
        };
        let (since, count) = match self.run {
            Some((last, since, count)) if last == board => (since, count + 1),
            _ => (at, 1),
        };
        self.run = Some((board, since, count));
        if count < 2 {
            return Progress::Wait;
        }
        let predicted = self.expected.is_empty() || self.expected.contains(&board);
        let steady_elsewhere = self.before != Some(board) && at.duration_since(since) >= QUIET;
        if predicted || steady_elsewhere {
            Progress::Settled(board)
        } else {
            Progress::Wait
        }
    }

    /// The board to go on with when the time is up: the last one, if at
    /// least two reads in a row agreed on it (the board from before the
    /// click included: the click had no effect).
    pub fn timed_out(&self) -> Option<Board> {
        self.run
            .filter(|&(_, _, count)| count >= 2)
            .map(|(board, _, _)| board)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn boards() -> (Board, Board, Board) {
        let before: Board = "GGGGBOYO,RORGYGBY,RRBGOORG,BRBOBYRG,BRYBBRGG,OYGGRORG"
            .parse()
            .unwrap();
        let (after, _) = before.play(crate::game::Cell::new(7, 0)).unwrap();
        let (other, _) = before.play(crate::game::Cell::new(0, 0)).unwrap();
        (before, after, other)
    }

    fn ms(start: Instant, ms: u64) -> Instant {
        start + Duration::from_millis(ms)
    }

    #[test]
    fn the_predicted_board_settles_on_the_second_agreeing_read() {
        let (before, after, _) = boards();
        let t = Instant::now();
        let mut settle = Settle::new(Some(before), vec![after]);
        assert_eq!(settle.see(Some(before), ms(t, 0)), Progress::Wait);
        assert_eq!(settle.see(None, ms(t, 50)), Progress::Wait);
        assert_eq!(settle.see(Some(after), ms(t, 100)), Progress::Wait);
        assert_eq!(settle.see(None, ms(t, 150)), Progress::Wait);
        assert_eq!(settle.see(Some(after), ms(t, 200)), Progress::Wait);
        assert_eq!(
            settle.see(Some(after), ms(t, 250)),
            Progress::Settled(after)
        );
    }

    #[test]
    fn the_board_before_the_click_never_settles_early() {
        let (before, after, _) = boards();
        let t = Instant::now();
        let mut settle = Settle::new(Some(before), vec![after]);
        for i in 0..40 {
            assert_eq!(settle.see(Some(before), ms(t, 50 * i)), Progress::Wait);
        }
        assert_eq!(settle.timed_out(), Some(before));
    }

    #[test]
    fn an_unpredicted_board_must_hold_still() {
        let (before, after, other) = boards();
        let t = Instant::now();
        let mut settle = Settle::new(Some(before), vec![after]);
        assert_eq!(settle.see(Some(other), ms(t, 0)), Progress::Wait);
        assert_eq!(settle.see(Some(other), ms(t, 50)), Progress::Wait);
        assert_eq!(settle.see(Some(other), ms(t, 450)), Progress::Wait);
        assert_eq!(
            settle.see(Some(other), ms(t, 500)),
            Progress::Settled(other)
        );
    }

    #[test]
    fn an_unreadable_board_restarts_the_count() {
        let (before, after, _) = boards();
        let t = Instant::now();
        let mut settle = Settle::new(Some(before), vec![after]);
        settle.see(Some(after), ms(t, 0));
        settle.see(None, ms(t, 50));
        assert_eq!(settle.see(Some(after), ms(t, 100)), Progress::Wait);
        assert_eq!(settle.timed_out(), None);
    }

    #[test]
    fn any_predicted_board_settles_at_once() {
        let (before, after, other) = boards();
        let t = Instant::now();
        let mut settle = Settle::new(Some(before), vec![after, other]);
        assert_eq!(settle.see(Some(other), ms(t, 0)), Progress::Wait);
        assert_eq!(settle.see(Some(other), ms(t, 50)), Progress::Settled(other));
    }

    #[test]
    fn without_a_prediction_any_steady_board_settles() {
        let (before, _, _) = boards();
        let t = Instant::now();
        let mut settle = Settle::new(None, Vec::new());
        assert_eq!(settle.see(Some(before), ms(t, 0)), Progress::Wait);
        assert_eq!(
            settle.see(Some(before), ms(t, 50)),
            Progress::Settled(before)
        );
    }
}
