//! When the board has settled after a click, and how long the game
//! animates: rules alone, fed with the boards read one after another and
//! their times, so that they can be tested without a screen. A read that
//! agrees with the one before it and is a board the rules in force predict
//! (the plan's next board, or in assist mode any board one click can make)
//! is settled at once. Any other board, the board from before the click
//! included, counts only once it has held still longer than the longest
//! animation seen plus a margin: an animation can pause on an in-between
//! board (the board after the fall alone is exactly what `gravity`
//! predicts, and an in-between state of every variant), and the game may
//! not have started the animation yet, or may not have taken the click.

use std::time::{Duration, Instant};

use crate::game::Board;

/// The least time a board the rules in force did not predict must hold
/// still, before any animation has been seen.
pub const QUIET: Duration = Duration::from_millis(500);

/// How much longer than the longest animation seen such a board must hold
/// still: reads come every 50 ms, and a busy machine captures late.
pub const MARGIN: Duration = Duration::from_millis(250);

/// What the rule says after a read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Wait,
    Settled(Board),
}

/// The reads since a click.
#[derive(Debug)]
pub struct Settling {
    /// The board before the click, if any.
    before: Option<Board>,
    /// The boards the rules in force predict (none and no board before:
    /// any steady board).
    expected: Vec<Board>,
    /// How long any other board must hold still.
    hold: Duration,
    /// The last board read, when it was first read in this run of equal
    /// reads, and how many reads the run has.
    run: Option<(Board, Instant, u32)>,
}

impl Settling {
    pub fn new(before: Option<Board>, expected: Vec<Board>, hold: Duration) -> Settling {
        Settling {
            before,
            expected,
            hold,
            run: None,
        }
    }

    /// Takes one read (`None`: unreadable or unsure) made at `at`.
    pub fn see(&mut self, board: Option<Board>, at: Instant) -> Status {
        let Some(board) = board else {
            self.run = None;
            return Status::Wait;
        };
        let (since, count) = match self.run {
            Some((last, since, count)) if last == board => (since, count + 1),
            _ => (at, 1),
        };
        self.run = Some((board, since, count));
        if count < 2 {
            return Status::Wait;
        }
        let anything = self.before.is_none() && self.expected.is_empty();
        let predicted = anything || self.expected.contains(&board);
        if predicted || at.duration_since(since) >= self.hold {
            Status::Settled(board)
        } else {
            Status::Wait
        }
    }

    /// When the board of the last run of equal reads was first read: once
    /// settled on a board other than the one before, where the animation
    /// ended.
    pub fn steady_since(&self) -> Option<Instant> {
        self.run.map(|(_, since, _)| since)
    }

    /// The board to go on with when the time is up: the last one, if at
    /// least two reads in a row agreed on it.
    pub fn timed_out(&self) -> Option<Board> {
        self.run
            .filter(|&(_, _, count)| count >= 2)
            .map(|(board, _, _)| board)
    }
}

/// How long the game animates a move, as learned from its clicks (or given
/// by the player), and how long after a click it takes the next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pace {
    /// The longest time from a click to the last change it made.
    longest: Duration,
    /// The shortest time between clicks that the game is known to take
    /// (raised when a click made sooner was lost).
    gap: Duration,
}

impl Pace {
    /// Nothing learned yet, or the animation time the player gave.
    pub fn new(given: Option<Duration>) -> Pace {
        Pace {
            longest: given.unwrap_or_default(),
            gap: Duration::ZERO,
        }
    }

    /// How long a board the rules in force do not predict must hold still
    /// before it counts.
    pub fn hold(&self) -> Duration {
        (self.longest + MARGIN).max(QUIET)
    }

    /// A click's animation took `took`, from the click to its last change.
    pub fn animated(&mut self, took: Duration) {
        self.longest = self.longest.max(took);
    }

    /// A click made `after` the one before was taken, when one made sooner
    /// had been lost: the game ignores input for a while after a move.
    pub fn took_input(&mut self, after: Duration) {
        self.gap = self.gap.max(after);
    }

    /// How long after a click the next one may be made.
    pub fn between_clicks(&self) -> Duration {
        self.longest.max(self.gap)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn boards() -> (Board, Board, Board) {
        let before: Board = crate::game::EXAMPLE_BOARD.parse().unwrap();
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
        let mut settle = Settling::new(Some(before), vec![after], QUIET);
        assert_eq!(settle.see(Some(before), ms(t, 0)), Status::Wait);
        assert_eq!(settle.see(None, ms(t, 50)), Status::Wait);
        assert_eq!(settle.see(Some(after), ms(t, 100)), Status::Wait);
        assert_eq!(settle.see(None, ms(t, 150)), Status::Wait);
        assert_eq!(settle.see(Some(after), ms(t, 200)), Status::Wait);
        assert_eq!(settle.see(Some(after), ms(t, 250)), Status::Settled(after));
    }

    #[test]
    fn the_board_before_the_click_settles_only_after_the_hold() {
        let (before, after, _) = boards();
        let t = Instant::now();
        let hold = Duration::from_millis(800);
        let mut settle = Settling::new(Some(before), vec![after], hold);
        for i in 0..16 {
            assert_eq!(settle.see(Some(before), ms(t, 50 * i)), Status::Wait);
        }
        // Read first at 0 ms: held 800 ms at the 17th read.
        assert_eq!(
            settle.see(Some(before), ms(t, 800)),
            Status::Settled(before)
        );
        assert_eq!(settle.steady_since(), Some(t));
    }

    #[test]
    fn an_unpredicted_board_must_hold_still() {
        let (before, after, other) = boards();
        let t = Instant::now();
        let mut settle = Settling::new(Some(before), vec![after], QUIET);
        assert_eq!(settle.see(Some(other), ms(t, 0)), Status::Wait);
        assert_eq!(settle.see(Some(other), ms(t, 50)), Status::Wait);
        assert_eq!(settle.see(Some(other), ms(t, 450)), Status::Wait);
        assert_eq!(settle.see(Some(other), ms(t, 500)), Status::Settled(other));
    }

    #[test]
    fn an_unreadable_board_restarts_the_count() {
        let (before, after, _) = boards();
        let t = Instant::now();
        let mut settle = Settling::new(Some(before), vec![after], QUIET);
        settle.see(Some(after), ms(t, 0));
        settle.see(None, ms(t, 50));
        assert_eq!(settle.see(Some(after), ms(t, 100)), Status::Wait);
        assert_eq!(settle.timed_out(), None);
    }

    #[test]
    fn any_predicted_board_settles_at_once() {
        let (before, after, other) = boards();
        let t = Instant::now();
        let mut settle = Settling::new(Some(before), vec![after, other], QUIET);
        assert_eq!(settle.see(Some(other), ms(t, 0)), Status::Wait);
        assert_eq!(settle.see(Some(other), ms(t, 50)), Status::Settled(other));
    }

    #[test]
    fn without_a_prediction_any_steady_board_settles() {
        let (before, _, _) = boards();
        let t = Instant::now();
        let mut settle = Settling::new(None, Vec::new(), QUIET);
        assert_eq!(settle.see(Some(before), ms(t, 0)), Status::Wait);
        assert_eq!(settle.see(Some(before), ms(t, 50)), Status::Settled(before));
    }

    #[test]
    fn the_hold_grows_with_the_longest_animation_seen() {
        let mut pace = Pace::new(None);
        assert_eq!(pace.hold(), QUIET);
        assert_eq!(pace.between_clicks(), Duration::ZERO);
        pace.animated(Duration::from_millis(450));
        pace.animated(Duration::from_millis(300));
        assert_eq!(pace.hold(), Duration::from_millis(450) + MARGIN);
        assert_eq!(pace.between_clicks(), Duration::from_millis(450));
        // A lost click teaches how long the game stays deaf.
        pace.took_input(Duration::from_millis(1200));
        assert_eq!(pace.between_clicks(), Duration::from_millis(1200));
        assert_eq!(pace.hold(), Duration::from_millis(450) + MARGIN);
        let given = Pace::new(Some(Duration::from_millis(1500)));
        assert_eq!(given.hold(), Duration::from_millis(1500) + MARGIN);
        assert_eq!(given.between_clicks(), Duration::from_millis(1500));
    }
}
