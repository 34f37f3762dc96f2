//! When the board has settled after a click, and how long the game
//! animates: rules alone, fed with the captures made one after another
//! (whether their pixels changed), the boards read from them and their
//! times, so that they can be tested without a screen. A capture whose
//! pixels still change is seldom read: the board moves. A board the rules
//! in force predict (the plan's next board, or in assist mode any board one
//! click can make) is settled once its pixels held still [`AGREE`] (read
//! from a capture that found them held, or confirmed by a glance after its
//! read), or once reads at least [`POLL`] apart agree on it (an overlay
//! over a board at rest, a score or specks, keeps its pixels changing). Any
//! other board, the board from before the click included, counts only once
//! it has held still longer than the longest animation seen plus a margin:
//! an animation can pause on an in-between board (the board after the fall
//! alone is exactly what `gravity` predicts, and an in-between state of
//! every variant), and the game may not have started the animation yet, or
//! may not have taken the click.
//! The rule also says when to read next: every [`POLL`] while the
//! animation is still due to run, every [`QUICK`] from when it may end,
//! and the glance at a predicted board [`AGREE`] after its read, so that
//! the click that follows waits on the game's animation and not on the
//! reads.

use std::time::{Duration, Instant};

use super::POLL;
use crate::game::Board;

/// The least time a board the rules in force did not predict must hold
/// still, before any animation has been seen.
pub const QUIET: Duration = Duration::from_millis(500);

/// How much longer than the longest animation seen such a board must hold
/// still: reads come every 50 ms, and a busy machine captures late.
pub const MARGIN: Duration = Duration::from_millis(250);

/// How often the board is read from when the animation may end: about as
/// often as a read and the check of the windows in front take (3 to 10 ms
/// here), so that the board at rest is seen as soon as it shows.
pub const QUICK: Duration = Duration::from_millis(5);

/// How long a predicted board's pixels must hold still, from its read to
/// a glance, to settle: longer than a frame of the practice window (it
/// draws at 120 Hz while it animates), so that tiles still moving in the
/// last frames of an animation, read where they end within the vision's
/// tolerance, change the pixels in between. (A game that draws less often
/// may be clicked in its last frame of motion, its tiles read where they
/// end; a click it does not take is made again, see [`Pace::took_input`].)
pub const AGREE: Duration = Duration::from_millis(10);

/// How often a capture of a board still moving is read all the same, from
/// this long after the animation may end: a board at rest under a score
/// or specks keeps its pixels changing, and settles once reads [`POLL`] or
/// more apart agree on it.
pub const READ_MOVING: Duration = Duration::from_millis(100);

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
    /// reads, how many reads the run has, and when the read before the run
    /// was made (another board or none: the board was still moving then).
    run: Option<(Board, Instant, u32, Option<Instant>)>,
    /// When the last read was made (or the last capture known moving).
    last_read: Option<Instant>,
    /// When the pixels of the last read first showed.
    shown: Option<Instant>,
    /// When the last capture read was made.
    read_at: Option<Instant>,
    /// When the last capture was made, and when the first of the captures
    /// with its pixels was.
    capture: Option<(Instant, Instant)>,
    /// When the animation may end, at the soonest: reads are
    /// [`POLL`] apart until then.
    ends: Option<Instant>,
}

impl Settling {
    pub fn new(before: Option<Board>, expected: Vec<Board>, hold: Duration) -> Settling {
        Settling {
            before,
            expected,
            hold,
            run: None,
            last_read: None,
            shown: None,
            read_at: None,
            capture: None,
            ends: None,
        }
    }

    /// The same rule, told that the animation does not end before `ends`
    /// (the click plus the longest animation seen): until then the board
    /// is read every [`POLL`] (for the checks made with each read), from
    /// then every [`QUICK`].
    pub fn ending_at(self, ends: Instant) -> Settling {
        Settling {
            ends: Some(ends),
            ..self
        }
    }

    /// When the capture after one made at `now` comes: the glance at a
    /// predicted board [`AGREE`] after its read; the capture that finds
    /// pixels held [`AGREE`] when the last two were the same; else
    /// [`QUICK`] on once the animation may have ended, and until then up
    /// to [`POLL`] on, no later than when it may end.
    pub fn next_read(&self, now: Instant) -> Instant {
        if let (Some(_), Some(shown)) = (self.to_agree(), self.shown) {
            return (shown + AGREE).max(now);
        }
        if let Some((last, since)) = self.capture
            && since < last
            && last < since + AGREE
        {
            return since + AGREE;
        }
        now + self.ends.map_or(QUICK, |ends| {
            ends.saturating_duration_since(now).clamp(QUICK, POLL)
        })
    }

    /// A capture made at `at`, its pixels the `same` as the capture
    /// before's or not: whether to read it (then [`Settling::see`] its
    /// board at `at`). Pixels that changed since the capture before show
    /// the board still moving then: such a capture is read only from
    /// [`READ_MOVING`] after the animation may end, and no sooner than that
    /// after the last read. The same pixels are read once they held
    /// [`AGREE`], longer than a frame of the game, so that a moving board is
    /// rarely read (a read of one takes several times that of a board at
    /// rest).
    pub fn captured(&mut self, at: Instant, same: bool) -> bool {
        let since = match self.capture {
            Some((_, since)) if same => since,
            Some((before, _)) => {
                self.run = None;
                self.last_read = self.last_read.max(Some(before));
                at
            }
            None => at,
        };
        self.capture = Some((at, since));
        let read = if since < at {
            at.saturating_duration_since(since) >= AGREE
        } else {
            let ended = self.ends.is_none_or(|ends| at >= ends + READ_MOVING);
            let due = self
                .read_at
                .is_none_or(|read| at.saturating_duration_since(read) >= READ_MOVING);
            ended && due
        };
        if read {
            self.read_at = Some(at);
        }
        read
    }

    /// The board of the last read, when the rules in force predict it: it
    /// settles once its pixels hold still ([`Settling::held`]).
    pub fn to_agree(&self) -> Option<Board> {
        self.run
            .filter(|(board, _, _, _)| self.predicted(board))
            .map(|(board, _, _, _)| board)
    }

    /// A glance at `at` found the pixels of the last read unchanged: the
    /// board it read settles when the rules in force predict it and the
    /// pixels held [`AGREE`] or longer.
    pub fn held(&mut self, at: Instant) -> Status {
        match (self.to_agree(), self.shown) {
            (Some(board), Some(shown)) if at.saturating_duration_since(shown) >= AGREE => {
                Status::Settled(board)
            }
            _ => Status::Wait,
        }
    }

    fn predicted(&self, board: &Board) -> bool {
        let anything = self.before.is_none() && self.expected.is_empty();
        anything || self.expected.contains(board)
    }

    /// Takes one read (`None`: unreadable or unsure) made at `at`.
    pub fn see(&mut self, board: Option<Board>, at: Instant) -> Status {
        let read_before = self.last_read.replace(at);
        // Read from a capture whose pixels showed since an earlier one.
        let shown = match self.capture {
            Some((last, since)) if last == at => since,
            _ => at,
        };
        self.shown = Some(shown);
        let Some(board) = board else {
            self.run = None;
            return Status::Wait;
        };
        let (since, count, moving) = match self.run {
            Some((last, since, count, moving)) if last == board => (since, count + 1, moving),
            _ => (shown, 1, read_before),
        };
        self.run = Some((board, since, count, moving));
        if count < 2 {
            return Status::Wait;
        }
        let held = at.duration_since(since);
        if (self.predicted(&board) && held >= POLL) || held >= self.hold {
            Status::Settled(board)
        } else {
            Status::Wait
        }
    }

    /// When the board of the last run of equal reads was first read: once
    /// settled on a board other than the one before, where the animation
    /// ended.
    pub fn steady_since(&self) -> Option<Instant> {
        self.run.map(|(_, since, _, _)| since)
    }

    /// When the board was last read other than it is now (or not read):
    /// once settled on a board other than the one before, a time the
    /// animation was still on. `None` when every read was of this board.
    pub fn moving_until(&self) -> Option<Instant> {
        self.run.and_then(|(_, _, _, moving)| moving)
    }

    /// The board to go on with when the time is up: the last one, if at
    /// least two reads in a row agreed on it.
    pub fn timed_out(&self) -> Option<Board> {
        self.run
            .filter(|&(_, _, count, _)| count >= 2)
            .map(|(board, _, _, _)| board)
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

    /// When the animation of a click made at `clicked` may end, at the
    /// soonest: a [`POLL`] before the longest animation seen ends (as the
    /// longest is measured by quick reads, reading quick only from its end
    /// would keep it from ever shrinking to the game's own).
    pub fn ends(&self, clicked: Instant) -> Instant {
        clicked + self.longest.saturating_sub(POLL)
    }

    /// How long a board the rules in force do not predict must hold still
    /// before it counts.
    pub fn hold(&self) -> Duration {
        (self.longest + MARGIN).max(QUIET)
    }

    /// A click's animation took `took`, from the click to its last change
    /// seen (live play: to the last read that was not the board at rest,
    /// so that a read made late on a busy machine does not lengthen every
    /// wait after it).
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

    /// When the click after one made at `last` may come, at the soonest:
    /// [`Pace::between_clicks`] after it, and [`AGREE`] more, as the
    /// longest animation seen ends at its last change seen, which a read
    /// found up to a frame's hold before the tiles stopped (a window that
    /// stalls on a busy machine can look still that long while its last
    /// frames are due).
    pub fn next_click(&self, last: Instant) -> Instant {
        last + self.between_clicks() + AGREE
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
        // Read otherwise last at 150 ms (unreadable), first so at 200 ms.
        assert_eq!(settle.moving_until(), Some(ms(t, 150)));
        assert_eq!(settle.steady_since(), Some(ms(t, 200)));
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
        // Reads agreeing less than POLL apart are not enough.
        assert_eq!(settle.see(Some(other), ms(t, 20)), Status::Wait);
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
        // Quick reads from a POLL before the longest animation ends.
        let clicked = Instant::now();
        assert_eq!(pace.ends(clicked), clicked + Duration::from_millis(400));
        let given = Pace::new(Some(Duration::from_millis(1500)));
        assert_eq!(given.hold(), Duration::from_millis(1500) + MARGIN);
        assert_eq!(given.between_clicks(), Duration::from_millis(1500));
    }

    #[test]
    fn reads_come_quick_from_the_animations_end_and_agree_soon() {
        let (before, after, other) = boards();
        let t = Instant::now();
        let ends = ms(t, 300);
        let mut settle = Settling::new(Some(before), vec![after], QUIET).ending_at(ends);
        // While the animation runs: a read every POLL, none past its end.
        assert_eq!(settle.next_read(t), ms(t, 50));
        assert_eq!(settle.next_read(ms(t, 280)), ms(t, 300));
        assert_eq!(settle.next_read(ms(t, 298)), ms(t, 298) + QUICK);
        assert_eq!(settle.next_read(ms(t, 400)), ms(t, 400) + QUICK);
        // A board not predicted, read once: no hurry to agree.
        settle.see(Some(other), ms(t, 300));
        assert_eq!(settle.to_agree(), None);
        assert_eq!(settle.next_read(ms(t, 300)), ms(t, 300) + QUICK);
        // The predicted board read: the glance at it comes AGREE after
        // the read, and settles it if its pixels held that long.
        settle.see(Some(after), ms(t, 310));
        assert_eq!(settle.to_agree(), Some(after));
        assert_eq!(settle.next_read(ms(t, 312)), ms(t, 320));
        assert_eq!(settle.next_read(ms(t, 325)), ms(t, 325));
        assert_eq!(settle.held(ms(t, 315)), Status::Wait);
        assert_eq!(settle.held(ms(t, 320)), Status::Settled(after));
        // Another board read last: no glance settles it.
        settle.see(Some(other), ms(t, 330));
        assert_eq!(settle.to_agree(), None);
        assert_eq!(settle.held(ms(t, 400)), Status::Wait);
        // No animation known: quick from the start.
        let unknown = Settling::new(Some(before), vec![after], QUIET);
        assert_eq!(unknown.next_read(t), t + QUICK);
    }

    #[test]
    fn a_moving_capture_goes_unread_and_a_still_one_is_read_once_it_held() {
        let (before, after, _) = boards();
        let t = Instant::now();
        let mut settle = Settling::new(Some(before), vec![after], QUIET).ending_at(ms(t, 250));
        // Pixels that change while the animation may still run: unread.
        assert!(!settle.captured(ms(t, 40), false));
        assert!(!settle.captured(ms(t, 90), false));
        assert_eq!(settle.next_read(ms(t, 90)), ms(t, 140));
        // From READ_MOVING after it may end, one now and then.
        assert!(!settle.captured(ms(t, 349), false));
        assert!(settle.captured(ms(t, 350), false));
        assert_eq!(settle.see(None, ms(t, 350)), Status::Wait);
        assert!(!settle.captured(ms(t, 400), false));
        // The same pixels twice, less than AGREE apart: the capture that
        // finds them held AGREE is due, and read.
        assert!(!settle.captured(ms(t, 405), false));
        assert!(!settle.captured(ms(t, 409), true));
        assert_eq!(settle.next_read(ms(t, 409)), ms(t, 415));
        assert!(settle.captured(ms(t, 415), true));
        assert_eq!(settle.see(Some(after), ms(t, 415)), Status::Wait);
        // Its pixels showed from 405 ms: held AGREE, settled without a
        // glance.
        assert_eq!(settle.held(ms(t, 415)), Status::Settled(after));
        // The board was last seen moving at the capture before 405 ms: the
        // animation ran to there; at rest since 405 ms.
        assert_eq!(settle.moving_until(), Some(ms(t, 400)));
        assert_eq!(settle.steady_since(), Some(ms(t, 405)));
        // A board not predicted must hold from when its pixels showed.
        let mut other = Settling::new(Some(before), vec![after], QUIET).ending_at(ms(t, 250));
        assert!(!other.captured(ms(t, 300), false));
        assert!(other.captured(ms(t, 310), true));
        assert_eq!(other.see(Some(before), ms(t, 310)), Status::Wait);
        assert!(other.captured(ms(t, 799), true));
        assert_eq!(other.see(Some(before), ms(t, 799)), Status::Wait);
        assert!(other.captured(ms(t, 800), true));
        assert_eq!(other.see(Some(before), ms(t, 800)), Status::Settled(before));
        // No animation known (the player's clicks): a capture is read now
        // and then from the start.
        let mut unknown = Settling::new(Some(before), vec![after], QUIET);
        assert!(unknown.captured(ms(t, 0), false));
        assert!(!unknown.captured(ms(t, 5), false));
        assert!(unknown.captured(ms(t, 100), false));
    }
}
