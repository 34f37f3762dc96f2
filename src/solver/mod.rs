//! The solver: turns a board into the shortest sequence of clicks that
//! clears it. `optimal` is an exact search that proves its answer; the
//! article's three depth-first solvers (`standard`, `lookahead`,
//! `shortlook`) are kept as faithful baselines. Every strategy is anytime:
//! it reports each improving solution as it finds it, and when the time
//! budget runs out it returns the best found with the bound it proved,
//! rather than an error. Every strategy plays the rules it is given
//! (`SolveOptions::rules`); `bound` and `halves` say which of their lower
//! bounds hold under which variant.

mod baseline;
mod beam;
mod bound;
mod exact;
mod halves;
mod key;
mod planes;
mod table;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::time::{Duration, Instant};

use crate::game::{Board, BoardRng, Cell, Rules, Step, replay_under};

pub use bound::lower_bound;
pub use table::max_table_mb;

/// How to search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Strategy {
    /// Exact search: iterative deepening with a transposition table of
    /// proven bounds, on all threads. Proves the optimum.
    Optimal,
    /// The article's solver: biggest cluster first.
    Standard,
    /// The article's solver: cluster size + the biggest cluster it creates.
    Lookahead,
    /// The article's hybrid: lookahead ordering near the root, standard
    /// ordering deeper.
    Shortlook,
}

impl Strategy {
    pub const ALL: [Strategy; 4] = [
        Strategy::Optimal,
        Strategy::Standard,
        Strategy::Lookahead,
        Strategy::Shortlook,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Strategy::Optimal => "optimal",
            Strategy::Standard => "standard",
            Strategy::Lookahead => "lookahead",
            Strategy::Shortlook => "shortlook",
        }
    }
}

/// A flag that, once set, ends a search as its deadline does: a stop
/// asked for (Ctrl-C in live play) never waits for a proof.
#[derive(Clone, Copy, Debug)]
pub struct StopFlag(pub &'static AtomicBool);

impl PartialEq for StopFlag {
    fn eq(&self, other: &StopFlag) -> bool {
        std::ptr::eq(self.0, other.0)
    }
}

impl Eq for StopFlag {}

/// When a search stops: at a time, or at once when its stop flag is set.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Deadline {
    at: Instant,
    stop: Option<StopFlag>,
}

impl Deadline {
    /// At `at`, with no stop flag.
    #[cfg(test)]
    pub(crate) fn at(at: Instant) -> Deadline {
        Deadline { at, stop: None }
    }

    /// Whether the search must stop now; reads the clock.
    pub(crate) fn passed(&self) -> bool {
        self.stop.is_some_and(|flag| flag.0.load(Ordering::Relaxed)) || Instant::now() >= self.at
    }
}

/// The transposition table's default most size, in MiB: the longest
/// proofs (a last budget of a few hundred million boards) are faster in
/// 64 MiB than in the 256 their size asks for, whose first writes and
/// misses cost more than the bounds it keeps longer (BENCHMARKS.md,
/// "Eighth round").
pub const DEFAULT_TABLE_MB: usize = 64;

/// What a search may use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolveOptions {
    /// Default: [`Strategy::Optimal`].
    pub strategy: Strategy,
    /// The search returns the best found when this runs out. Default: 20 s.
    pub time_limit: Duration,
    /// Search threads for the proof of `optimal`, which adds one for its
    /// beams (the baselines use one). Default: all cores.
    pub threads: usize,
    /// The most the transposition table grows to, in MiB. Default:
    /// [`DEFAULT_TABLE_MB`].
    pub table_mb: usize,
    /// The rules the moves play by. Default: [`Rules::CentreRows`].
    pub rules: Rules,
    /// Ends the search as the time limit does once set. Default: none.
    pub stop: Option<StopFlag>,
}

impl Default for SolveOptions {
    fn default() -> SolveOptions {
        SolveOptions {
            strategy: Strategy::Optimal,
            time_limit: Duration::from_secs(20),
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            table_mb: DEFAULT_TABLE_MB,
            rules: Rules::default(),
            stop: None,
        }
    }
}

/// A better solution found during the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Improvement {
    pub length: usize,
    /// Since the search started.
    pub elapsed: Duration,
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The best solution found, each step with the board it leaves; empty
    /// for a board that is already cleared.
    pub moves: Vec<Step>,
    /// True when no shorter solution exists (searched exhaustively).
    pub proven_optimal: bool,
    /// No solution shorter than this exists; equals `moves.len()` when
    /// proven.
    pub lower_bound: usize,
    pub elapsed: Duration,
    /// Boards generated by the search.
    pub nodes: u64,
    /// Every improving solution, in the order found.
    pub improvements: Vec<Improvement>,
    /// The rules the moves were played by.
    pub rules: Rules,
}

impl Outcome {
    pub fn length(&self) -> usize {
        self.moves.len()
    }

    /// Whether its moves clear `board`, the board searched: a search cut
    /// short may have found none that does.
    pub fn clears(&self, board: &Board) -> bool {
        self.moves
            .last()
            .map_or(*board, |step| step.board_after)
            .is_cleared()
    }
}

/// A search ([`solve`]) on a thread of its own, for a caller that goes on
/// meanwhile: live play and the hints, which tell the player when it runs
/// long, and a proof worked out ahead (`live::Proof`: the front door's,
/// whose menu answers while it proves). Ending it early is its options'
/// stop flag's work.
#[derive(Debug)]
pub(crate) struct Solving {
    /// The outcome, sent once the search ends.
    pub(crate) outcome: Receiver<Outcome>,
    best: Arc<AtomicUsize>,
}

impl Solving {
    /// Starts solving `board` with `options`. A thread the system refuses
    /// (a memory limit) leaves the search to this one: the outcome is then
    /// there at once.
    pub(crate) fn start(board: &Board, options: &SolveOptions) -> Solving {
        let (done, outcome) = mpsc::channel();
        let best = Arc::new(AtomicUsize::new(0));
        let search = {
            let (board, options, best, done) =
                (*board, options.clone(), Arc::clone(&best), done.clone());
            move || Solving::solve(&board, &options, &best, &done)
        };
        if let Err(error) = std::thread::Builder::new().spawn(search) {
            log::debug!("no thread for the search ({error}): it runs on this one");
            Solving::solve(board, options, &best, &done);
        }
        Solving { outcome, best }
    }

    /// The search itself: each better solution's length kept in `best`,
    /// the outcome sent to `done`.
    fn solve(board: &Board, options: &SolveOptions, best: &AtomicUsize, done: &Sender<Outcome>) {
        let found = &mut |found: &Improvement| best.store(found.length, Ordering::Relaxed);
        // The send fails only when nobody waits for the outcome any more.
        let _ = done.send(solve(board, options, found));
    }

    /// The length of the best solution found so far, if any.
    pub(crate) fn best(&self) -> Option<usize> {
        let best = self.best.load(Ordering::Relaxed);
        (best > 0).then_some(best)
    }
}

/// Solves `board` with `options`, calling `on_improvement` with every
/// better solution as soon as it is found (the anytime log), from whichever
/// of the search's threads found it. Stops as soon as the optimum is
/// proven, or when the time limit runs out.
///
/// ```
/// use dustbot::game::{Board, EXAMPLE_BOARD};
/// use dustbot::solver::{SolveOptions, solve};
///
/// let board: Board = EXAMPLE_BOARD.parse()?;
/// let outcome = solve(&board, &SolveOptions::default(), &mut |_| {});
/// assert!(outcome.proven_optimal);
/// // Each step's board is the one the click leaves; the last is empty.
/// assert_eq!(outcome.length(), 11);
/// assert!(outcome.moves.last().unwrap().board_after.is_cleared());
/// # Ok::<(), dustbot::game::BoardError>(())
/// ```
pub fn solve(
    board: &Board,
    options: &SolveOptions,
    on_improvement: &mut (dyn FnMut(&Improvement) + Send),
) -> Outcome {
    let mut search = Search::new(board, options, on_improvement);
    if !board.is_cleared() {
        match options.strategy {
            Strategy::Optimal => exact::solve(
                board,
                &mut search,
                options.threads.max(1),
                options.table_mb.max(1),
            ),
            Strategy::Standard => baseline::solve(board, baseline::Order::Standard, &mut search),
            Strategy::Lookahead => baseline::solve(board, baseline::Order::Lookahead, &mut search),
            Strategy::Shortlook => baseline::solve(board, baseline::Order::Shortlook, &mut search),
        }
    } else {
        search.proven = true;
    }
    search.finish(board)
}

/// A level of a chosen difficulty: random boards of `width` x `height` in
/// `colours` colours drawn from `rng`, each proven with `options`, until
/// one's proven optimum is exactly `optimum` clicks. Returns it with how
/// many boards were drawn, or `None` once `go_on` (told each board passed
/// over: how many were drawn, what its search found) says to stop. A board
/// not proven within the budget is passed over: its difficulty is not
/// known.
pub fn board_with_optimum(
    rng: &mut BoardRng,
    (width, height, colours): (u8, u8, u8),
    optimum: usize,
    options: &SolveOptions,
    go_on: &mut dyn FnMut(u32, &Outcome) -> bool,
) -> Option<(Board, u32)> {
    for draw in 1..=u32::MAX {
        let board = rng.board(width, height, colours).ok()?;
        let outcome = solve(&board, options, &mut |_| {});
        if outcome.proven_optimal && outcome.length() == optimum {
            return Some((board, draw));
        }
        if !go_on(draw, &outcome) {
            break;
        }
    }
    None
}

/// Clicks the biggest cluster until the board is clear.
fn greedy(board: &Board, rules: Rules) -> Vec<Cell> {
    let mut board = *board;
    let mut clicks = Vec::new();
    while !board.is_cleared() {
        let mut clusters = board.clusters();
        clusters.sort_biggest_first();
        let biggest = clusters[0];
        clicks.push(biggest.cell);
        board = board.remove_under(biggest.cells, rules);
    }
    clicks
}

/// The state every strategy shares: the rules, the best solution so far,
/// the proven bound, the clock and the improvement log.
struct Search<'a> {
    rules: Rules,
    start: Instant,
    deadline: Deadline,
    best: Option<Vec<Cell>>,
    lower_bound: usize,
    proven: bool,
    nodes: u64,
    improvements: Vec<Improvement>,
    on_improvement: &'a mut (dyn FnMut(&Improvement) + Send),
}

impl<'a> Search<'a> {
    fn new(
        board: &Board,
        options: &SolveOptions,
        on_improvement: &'a mut (dyn FnMut(&Improvement) + Send),
    ) -> Search<'a> {
        let start = Instant::now();
        Search {
            rules: options.rules,
            start,
            deadline: Deadline {
                // A budget too large for the clock is no budget.
                at: start
                    .checked_add(options.time_limit)
                    .unwrap_or(start + Duration::from_secs(86_400 * 365)),
                stop: options.stop,
            },
            best: None,
            lower_bound: lower_bound(board) as usize,
            proven: false,
            nodes: 0,
            improvements: Vec::new(),
            on_improvement,
        }
    }

    /// The length to beat: `usize::MAX` before any solution.
    fn best_length(&self) -> usize {
        self.best.as_ref().map_or(usize::MAX, Vec::len)
    }

    /// Records `clicks` when shorter than the best so far.
    fn offer(&mut self, clicks: &[Cell]) {
        if clicks.len() >= self.best_length() {
            return;
        }
        self.best = Some(clicks.to_vec());
        let improvement = Improvement {
            length: clicks.len(),
            elapsed: self.start.elapsed(),
        };
        self.improvements.push(improvement);
        (self.on_improvement)(&improvement);
    }

    fn raise_lower_bound(&mut self, bound: usize) {
        self.lower_bound = self.lower_bound.max(bound);
    }

    fn out_of_time(&self) -> bool {
        self.deadline.passed()
    }

    fn finish(mut self, board: &Board) -> Outcome {
        if self.best.is_none() && !board.is_cleared() {
            // Out of time before the first solution: a greedy one is better
            // than none, and takes microseconds.
            self.offer(&greedy(board, self.rules));
        }
        let clicks = self.best.unwrap_or_default();
        let moves = replay_under(board, &clicks, self.rules)
            .expect("the solver's clicks replay on its board");
        let proven = self.proven || self.lower_bound >= moves.len();
        let lower_bound = if proven {
            moves.len()
        } else {
            self.lower_bound
        };
        Outcome {
            moves,
            proven_optimal: proven,
            lower_bound,
            elapsed: self.start.elapsed(),
            nodes: self.nodes,
            improvements: self.improvements,
            rules: self.rules,
        }
    }
}

/// A board of the real game's shape from `rng`, played by random clicks
/// under `rules` until at most `tiles` tiles are left: a game under way,
/// where the tests' boards are shorter and their bounds closer.
#[cfg(test)]
fn board_in_play(rng: &mut crate::game::BoardRng, rules: Rules, tiles: usize) -> Board {
    let mut board = rng.board(8, 6, 5).unwrap();
    while board.tile_count() > tiles {
        let clusters = board.clusters();
        let pick = clusters[rng.below(clusters.len() as u64) as usize];
        board = board.remove_under(pick.cells, rules);
    }
    board
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_search_on_its_own_thread_sends_its_outcome_and_keeps_the_best_found() {
        let board: Board = crate::game::EXAMPLE_BOARD.parse().unwrap();
        let search = Solving::start(&board, &SolveOptions::default());
        let outcome = search.outcome.recv().expect("the search sends its outcome");
        assert!(outcome.proven_optimal);
        assert_eq!(outcome.length(), 11);
        assert_eq!(search.best(), Some(11));
        // A stop asked for ends it at once, proven or not.
        static STOP: AtomicBool = AtomicBool::new(true);
        let hard: Board = "OYGGGGOG,GOBYBOYY,ORYBOBGR,RRGRYGOB,YBBOBORY,ORYYYBGB"
            .parse()
            .unwrap();
        let options = SolveOptions {
            stop: Some(StopFlag(&STOP)),
            ..SolveOptions::default()
        };
        let outcome = Solving::start(&hard, &options).outcome.recv().unwrap();
        assert!(!outcome.proven_optimal);
    }

    #[test]
    fn a_level_has_the_optimum_asked_for() {
        let options = SolveOptions {
            time_limit: Duration::from_secs(10),
            threads: 1,
            ..SolveOptions::default()
        };
        let mut rng = BoardRng::new(7);
        let (board, draws) =
            board_with_optimum(&mut rng, (8, 6, 5), 11, &options, &mut |_, _| true).unwrap();
        let outcome = solve(&board, &options, &mut |_| {});
        assert!(outcome.proven_optimal);
        assert_eq!(outcome.length(), 11);
        // The seed's draws, in order: the one kept is the draws-th.
        let mut again = BoardRng::new(7);
        for _ in 1..draws {
            again.board(8, 6, 5).unwrap();
        }
        assert_eq!(again.board(8, 6, 5).unwrap(), board);
        // An optimum no board of this size has: none, once told to stop.
        let mut passed = Vec::new();
        let mut go_on = |draw, outcome: &Outcome| {
            passed.push((draw, outcome.length()));
            draw < 3
        };
        assert_eq!(
            board_with_optimum(&mut rng, (8, 6, 5), 2, &options, &mut go_on),
            None
        );
        assert_eq!(passed.len(), 3);
        assert!(passed.iter().all(|&(_, length)| length > 2));
    }
}
