//! The exact search behind `optimal`: a narrow beam gives a first
//! solution, then iterative deepening proves, budget by budget, that
//! nothing shorter exists (or finds the shorter one), while a thread of
//! ever wider beams looks for shorter solutions. Each budget's search is a
//! depth-first search pruned by two admissible bounds (the colours left,
//! see `bound`, under every variant of the rules; and the halves' relaxed
//! games, see `halves`, under the variants where no tile crosses the
//! middle; a move that cannot lower the halves' bound enough is cut
//! before it is played, see [`Halves::at_most_down`], and in long budgets
//! so is one that stays on a side its relaxed game shows it leaves too
//! high, see [`Halves::is_beyond`]), by a transposition
//! table of proven bounds under canonical keys, and under `centre-rows` by
//! taking moves that commute across the middle in one order only (see
//! [`Came`]); the work below the first two moves is shared out to all
//! threads, which share the tables.
//! `left-columns` is searched as `centre-columns`, the same game (see
//! [`searched`]), so that the halves bound serves it too.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use crate::game::{Board, Cell, MAX_COLOURS, Rules};

use super::beam;
use super::bound::bound_against;
use super::halves::{BeyondMemo, Halves, Touched};
use super::key::{Key, key};
use super::planes::{Bits, Planes, Shape};
use super::table::Table;
use super::{Deadline, Search};

/// How often (in nodes) a worker looks at the clock.
const CLOCK_EVERY: u64 = 1024;

/// The first beam's width: a solution within milliseconds.
const FIRST_BEAM: usize = 16;

/// The beams that run beside the proof, narrowest first: each costs about
/// four times the one before, and finds the optimum on more boards (the
/// widest in one or two seconds, within about 25 MiB: a peak resident
/// size of 29 MB with a 1 MiB table, `/usr/bin/time -v`).
const SIDE_BEAMS: [usize; 4] = [256, 1_024, 4_096, 16_384];

pub(super) fn solve(board: &Board, search: &mut Search, threads: usize, table_mb: usize) {
    // A word holds the real game's 48 cells: plane operations on it take
    // half the instructions they take on two.
    if board.size() <= 64 {
        solve_on::<u64>(board, search, threads, table_mb, Plan::FULL);
    } else {
        solve_on::<u128>(board, search, threads, table_mb, Plan::FULL);
    }
}

/// The rules the search plays for a game of `rules`. `left-columns`
/// plays the same game as `centre-columns`: under both, what a move does
/// to the tiles depends only on the order of the non-empty columns, which
/// both keep side by side and in order, so every board needs as many
/// moves under the one as under the other. And under `centre-columns` no
/// tile crosses the middle, so the halves bound holds there. A solution
/// found on its boards is played back as the same tiles' clicks (see
/// [`scan_order`]); `tests/suite/solver_correctness.rs` checks the optima
/// against a breadth-first search under `left-columns` itself.
fn searched(rules: Rules) -> Rules {
    match rules {
        Rules::LeftColumns => Rules::CentreColumns,
        other => other,
    }
}

/// What runs beside the proof, and how it prunes: the search always runs
/// [`Plan::FULL`]; the tests take the beams away, so that the proof's own
/// budgets must find the optimum, and compare its pruning with none.
#[derive(Clone, Copy, Debug)]
struct Plan {
    beams: bool,
    prune: bool,
    /// The nodes of a budget after which the next ones keep a
    /// [`BeyondMemo`].
    memo_from: u64,
}

impl Plan {
    const FULL: Plan = Plan {
        beams: true,
        prune: true,
        memo_from: MEMO_FROM_NODES,
    };
}

/// [`solve`] on planes of `T`, which hold the board, as `plan` says.
fn solve_on<T: Bits>(
    board: &Board,
    search: &mut Search,
    threads: usize,
    table_mb: usize,
    plan: Plan,
) {
    let (deadline, rules) = (search.deadline, searched(search.rules));
    let shape = Shape::<T>::of(board, rules);
    let progress = Progress {
        searching: AtomicUsize::new(0),
        best: AtomicUsize::new(search.best_length()),
        beams_over: AtomicBool::new(!plan.beams),
    };
    let search = Mutex::new(search);
    let halt = Halt {
        deadline,
        now: AtomicBool::new(false),
    };
    let first = plan.beams.then(|| {
        run_beam(
            board,
            &shape,
            FIRST_BEAM,
            &search,
            (&halt, &progress),
            || {},
        )
    });
    // The first beam's solution may be as short as the colours' bound:
    // then nothing is left to prove, nor any table or thread to make.
    if first == Some(BeamEnd::Halted) || halt.is_set() {
        return;
    }
    let halves = Halves::new(board, rules, HALVES_FIRST_MB.min(table_mb), deadline);
    let root_halves = halves
        .as_ref()
        .map_or([0; 2], |h| h.of(&Planes::<T>::of(board)));
    {
        let mut search = lock(&search);
        search.raise_lower_bound(Halves::bound(root_halves) as usize);
        if search.best_length() <= search.lower_bound {
            return;
        }
    }
    // The proof improves the solution only at its last budget, which may
    // be seconds away, and even that one may take long to find it:
    // meanwhile a thread of ever wider beams looks for a shorter one. One
    // as short as the proven bound ends the search.
    std::thread::scope(|scope| {
        // A thread the system refuses (a memory limit) leaves the proof to
        // search alone.
        let beams = std::thread::Builder::new().spawn_scoped(scope, || {
            let mut last_budget_since = None;
            let widths = if first == Some(BeamEnd::Finished) {
                &SIDE_BEAMS[..]
            } else {
                &[]
            };
            for &width in widths {
                let wait = || last_budget_alone(&search, &progress, &halt, &mut last_budget_since);
                let together = (&halt, &progress);
                if run_beam(board, &shape, width, &search, together, wait) != BeamEnd::Finished {
                    break;
                }
            }
            progress.beams_over.store(true, Ordering::Relaxed);
        });
        if beams.is_err() {
            progress.beams_over.store(true, Ordering::Relaxed);
        }
        prove::<T>(
            board,
            &search,
            halves.map(|h| (h, root_halves)),
            (&halt, &progress),
            (threads, table_mb),
            plan,
        );
        halt.set();
        // The beams may be waiting on the last budget, which is over.
        match &beams {
            Ok(beams) => beams.thread().unpark(),
            Err(error) => {
                log::debug!("no thread for the beams ({error}): the proof searched alone")
            }
        }
    });
}

/// Once the best solution is one move above the budget the proof searches
/// (see [`Progress`]), the proof's last budget runs: it finds a shorter
/// solution or proves the best. Often the best is the optimum and that
/// budget is short, so it runs alone for `LAST_BUDGET_ALONE` (the beams
/// wait, counting from the first time `since` they saw it run) before the
/// beams share the cores with it again. The beams' thread is unparked when
/// the proof ends, so that the search returns at once rather than after
/// the rest of a wait.
fn last_budget_alone(
    search: &Mutex<&mut Search>,
    progress: &Progress,
    halt: &Halt,
    since: &mut Option<Instant>,
) {
    loop {
        let last_budget = {
            let budget = progress.searching.load(Ordering::Relaxed);
            budget > 0 && lock(search).best_length() <= budget + 1
        };
        if !last_budget || halt.is_set() {
            return;
        }
        let Some(left) =
            LAST_BUDGET_ALONE.checked_sub(since.get_or_insert_with(Instant::now).elapsed())
        else {
            return;
        };
        std::thread::park_timeout(left.min(Duration::from_millis(5)));
    }
}

/// How long the last budget runs without the beams; the real board's
/// takes about 120 ms (`bot solve -v`).
const LAST_BUDGET_ALONE: Duration = Duration::from_millis(250);

/// Iterative deepening from the lower bound, until a budget finds a
/// solution or the best one is proven optimal; the budget before the last
/// is skipped until the last finds a solution. `halves` come with the
/// root's values; `plan` says whether to prune moves that commute, where
/// that is sound (see [`Came`]), and when to keep a memo.
fn prove<T: Bits>(
    board: &Board,
    search: &Mutex<&mut Search>,
    halves: Option<(Halves, [u32; 2])>,
    (halt, progress): (&Halt, &Progress),
    (threads, table_mb): (usize, usize),
    plan: Plan,
) {
    let (mut halves, root_halves) = match halves {
        Some((halves, root)) => (Some(halves), root),
        None => (None, [0; 2]),
    };
    let (start, mut budget, rules) = {
        let search = lock(search);
        (search.start, search.lower_bound, searched(search.rules))
    };
    let shape = Shape::<T>::of(board, rules);
    // Moves that commute are pruned under `centre-rows`, where each half
    // plays on its own, with keys that tell a board from its mirror image
    // (see [`Came`]); the example board's proof visits 21 nodes more in
    // 360 k without the mirror.
    let prune = plan.prune && rules == Rules::CentreRows;
    let shape = if prune { shape.oriented() } else { shape };
    let mut table = Table::new(FIRST_TABLE_MB.min(table_mb));
    // No memo until a budget is long enough to meet its halves again: the
    // memo of a budget after one of `nodes` nodes.
    let memo_after = |nodes: u64| {
        (nodes >= plan.memo_from).then(|| {
            ((nodes / NODES_PER_MEMO_SLOT) as usize)
                .next_power_of_two()
                .clamp(MIN_MEMO_SLOTS, MAX_MEMO_SLOTS)
        })
    };
    let mut memo_slots = memo_after(0);
    // The nodes of the budget searched last, and how many times those of
    // the one before it.
    let mut last: Option<(u64, u64)> = None;
    loop {
        let best = lock(search).best_length();
        if budget >= best || halt.check() {
            return;
        }
        // The budget one below the best is the one that proves it. The one
        // below that costs some twentieth of it, and its failure would
        // prove nothing the last one needs: once the beams are over (no
        // shorter solution is coming from them), it is skipped, or left
        // when they end while it runs, the tables sized as if it had run.
        // Should the last one find a solution, the budget skipped is
        // searched after it, with the bounds it stored.
        let skip = progress.skips(budget);
        let searched = if skip { budget + 1 } else { budget };
        if let Some((nodes, growth)) = last {
            // The next budget searches a tree many times bigger: give the
            // tables room (dropping what they hold, mostly bounds it will
            // not meet).
            let nodes = if skip {
                nodes.saturating_mul(growth)
            } else {
                nodes
            };
            let wanted_mb =
                |bytes_per_node: u64| (nodes.saturating_mul(bytes_per_node) >> 20) as usize;
            table.grow(wanted_mb(TABLE_BYTES_PER_NODE).min(table_mb));
            memo_slots = memo_slots.max(memo_after(nodes));
            if let Some(halves) = &mut halves {
                halves.grow(
                    wanted_mb(HALVES_BYTES_PER_NODE)
                        .min(HALVES_MAX_MB)
                        .min(table_mb),
                );
            }
        }
        progress.searching.store(searched, Ordering::Relaxed);
        let iteration = Iteration::new(
            board,
            &shape,
            halves.as_ref().map(|h| (h, root_halves)),
            &table,
            searched as u32,
            (halt, progress),
            (prune, memo_slots),
        );
        let (result, nodes) = iteration.run(threads);
        let mut search = lock(search);
        search.nodes += nodes;
        log::debug!(
            "budget {searched}: {nodes} nodes, {} MiB table, {:.1} ms",
            table.mb(),
            start.elapsed().as_secs_f64() * 1e3
        );
        match result {
            Some(Found::Solution(clicks)) => {
                progress.offer(&mut search, board, &clicks);
                if !skip {
                    // Every smaller budget failed: this one is optimal.
                    search.raise_lower_bound(clicks.len());
                    return;
                }
                // The budget skipped is still to search, its tables sized.
                continue;
            }
            Some(Found::Nothing) => {
                search.raise_lower_bound(searched + 1);
                budget = searched + 1;
            }
            None if halt.is_set() => return,
            // Left for the budget above it.
            None => continue,
        }
        let growth = last.map_or(FIRST_GROWTH, |(before, _)| {
            (nodes / before.max(1)).clamp(1, FIRST_GROWTH * 4)
        });
        last = Some((nodes, growth));
    }
}

/// The search, shared with the beam thread.
fn lock<'m, 's, 'a>(search: &'m Mutex<&'s mut Search<'a>>) -> MutexGuard<'m, &'s mut Search<'a>> {
    search.lock().expect("no search thread panicked")
}

/// How a beam ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BeamEnd {
    /// It offered its solution or ran out of boards.
    Finished,
    /// The search halted it.
    Halted,
    /// The system refused the memory it needed: a wider beam would need
    /// more, so none runs after it, and the proof goes on alone.
    Refused,
}

/// Runs a beam of `width`, offering its solution (see [`Progress::offer`]),
/// and halts the search when that is as short as the proven bound.
/// `wait` runs before each of the beam's boards and may hold it back.
fn run_beam<T: Bits>(
    board: &Board,
    shape: &Shape<T>,
    width: usize,
    search: &Mutex<&mut Search>,
    (halt, progress): (&Halt, &Progress),
    mut wait: impl FnMut(),
) -> BeamEnd {
    if halt.check() {
        return BeamEnd::Halted;
    }
    let mut nodes = 0;
    let end = match beam::run(
        board,
        shape,
        width,
        &mut nodes,
        || lock(search).best_length(),
        || {
            wait();
            halt.check()
        },
        |clicks| {
            let mut search = lock(search);
            progress.offer(&mut search, board, clicks);
            if search.best_length() <= search.lower_bound {
                halt.set();
            }
        },
    ) {
        Ok(true) => BeamEnd::Finished,
        Ok(false) => BeamEnd::Halted,
        Err(error) => {
            log::warn!(
                "the beam of width {width} cannot have its memory ({error}): the proof goes on without beams"
            );
            BeamEnd::Refused
        }
    };
    let mut search = lock(search);
    search.nodes += nodes;
    log::debug!(
        "beam {width}: {nodes} nodes, {:.1} ms, {end:?}",
        search.start.elapsed().as_secs_f64() * 1e3,
    );
    end
}

/// What the proof and the beams tell each other without the search's lock.
struct Progress {
    /// The budget the proof searches, once it runs.
    searching: AtomicUsize,
    /// The best solution's length.
    best: AtomicUsize,
    /// Set once no beam runs any more: the best found is the proof's to
    /// beat (see [`prove`]).
    beams_over: AtomicBool,
}

impl Progress {
    /// Offers the search's `clicks` (in the order the searches make them,
    /// see [`scan_order`]) for `board`, the best kept here too.
    fn offer(&self, search: &mut Search, board: &Board, clicks: &[Cell]) {
        let clicks = scan_order(board, clicks, search.rules);
        search.offer(&clicks);
        self.best.store(search.best_length(), Ordering::Relaxed);
    }

    /// Whether the budget before the last should be skipped at `budget`:
    /// see [`prove`].
    fn skips(&self, budget: usize) -> bool {
        self.beams_over.load(Ordering::Relaxed) && self.best.load(Ordering::Relaxed) == budget + 2
    }
}

/// When every thread of a search stops: at the deadline, or as soon as one
/// of them settles the answer.
struct Halt {
    deadline: Deadline,
    now: AtomicBool,
}

impl Halt {
    fn set(&self) {
        self.now.store(true, Ordering::Relaxed);
    }

    /// True once set; cheap.
    fn is_set(&self) -> bool {
        self.now.load(Ordering::Relaxed)
    }

    /// True once set or past the deadline (which sets it); reads the clock.
    fn check(&self) -> bool {
        if !self.is_set() && self.deadline.passed() {
            self.set();
        }
        self.is_set()
    }
}

/// The table's size before the search has measured itself: a short search
/// keeps its table in the cache.
const FIRST_TABLE_MB: usize = 1;

/// The halves' table: small, because the relaxed games probe it many
/// times per board searched and a table that stays in the cache is worth
/// more to them than room; it grows, to at most `HALVES_MAX_MB`, by
/// `HALVES_BYTES_PER_NODE` per node of the previous budget. (On the
/// example board, 1 MiB rather than 4 MiB made the proof of budget 10,
/// 360 k nodes, take about 15% less time; a budget of 1.9 M nodes took
/// 6% more.) The longest proofs need the room: the 14-click board of
/// the bench's 200 spends over half its time in the relaxed games, and
/// its last budget, 88 M nodes, took 15.7 s with at most 4 MiB, 9.7 s
/// with 32 and 9.4 s with 64. (Those were 16-byte entries; an entry is
/// now 8 bytes, and the sizes here are halved to hold as many.) A table
/// that grows drops what it holds, though a relaxed game's value holds
/// for every budget: at 100 bytes per node the table reaches its largest
/// one budget before a long proof's last (a budget before of 160 k nodes
/// or more), and the last starts with the values the one before worked
/// out rather than with none.
const HALVES_FIRST_MB: usize = 1;
const HALVES_MAX_MB: usize = 16;
const HALVES_BYTES_PER_NODE: u64 = 100;

/// Table bytes given per node of the previous budget's search: the next
/// budget's tree is some twenty times larger, and stores about one entry
/// (8 bytes) for every thirty nodes. That room keeps the table closer to
/// the core than more would, and a table is written through once when it
/// is made (see `table`), so room not needed costs time too: the
/// 14-click boards' last budget takes 64 MiB. (A budget with a memo counts
/// the moves it cuts unplayed as nodes, some 1.4 times the boards it makes
/// and cuts without one.)
const TABLE_BYTES_PER_NODE: u64 = 10;

/// How many times the nodes of a budget a budget one move longer takes,
/// before two budgets have shown it: 21 to 43 on the hardest boards and
/// the example (`bot solve -v`).
const FIRST_GROWTH: u64 = 32;

/// The slots of each thread's [`BeyondMemo`]: none before a budget after
/// one of `MEMO_FROM_NODES` nodes, then one per `NODES_PER_MEMO_SLOT`
/// nodes of the budget before, up to `MAX_MEMO_SLOTS` (8 MiB). A budget
/// some twenty times that size meets its halves again often enough to
/// repay the memo's misses: the boards proven in 0.1 to 1.5 s take about
/// a twentieth less time with the memo from here than from 100 k nodes,
/// and none is slower (BENCHMARKS.md).
const MEMO_FROM_NODES: u64 = 5_000;
const NODES_PER_MEMO_SLOT: u64 = 16;
const MIN_MEMO_SLOTS: usize = 1 << 10;
const MAX_MEMO_SLOTS: usize = 1 << 18;

/// The searches click each cluster at its lowest bit, on boards of the
/// rules they search (see [`searched`]); the log and the player expect
/// clicks of the game's `rules`, each on the cell the seed names, the
/// cluster's first in scan order. Between the two column variants a
/// column is the same one when as many non-empty columns stand left of it.
fn scan_order(board: &Board, clicks: &[Cell], rules: Rules) -> Vec<Cell> {
    let (mut seen, mut played) = (*board, *board);
    clicks
        .iter()
        .map(|&click| {
            let full = |board: &Board, x: u8| board.get(Cell::new(x, 0)).is_some();
            let rank = (0..click.x).filter(|&x| full(&seen, x)).count();
            let x = (0..board.width())
                .filter(|&x| full(&played, x))
                .nth(rank)
                .expect("the same columns stand in both games");
            seen = seen
                .play_under(click, searched(rules))
                .expect("the search's clicks are on tiles")
                .0;
            let (after, cluster) = played
                .play_under(Cell::new(x, click.y), rules)
                .expect("the search's clicks are on tiles");
            played = after;
            cluster.cell
        })
        .collect()
}

enum Found {
    Solution(Vec<Cell>),
    Nothing,
}

/// One budget's search, shared by the threads: the boards two moves deep
/// are the tasks, taken best first.
struct Iteration<'t, T> {
    /// The board searched, whose cells name the clicks.
    board: &'t Board,
    shape: &'t Shape<T>,
    halves: Option<&'t Halves>,
    table: &'t Table,
    budget: u32,
    halt: &'t Halt,
    progress: &'t Progress,
    /// Whether moves that commute are taken in one order only.
    prune: bool,
    /// Each with its clicks and the board before its last one.
    tasks: Vec<(Vec<Cell>, Planes<T>, Child<T>)>,
    next_task: AtomicUsize,
    solution: Mutex<Option<Vec<Cell>>>,
    /// Set when a thread found a solution, or saw that the search skips
    /// this budget now: the threads stop, and the search goes on to the
    /// next budget, if any.
    over: AtomicBool,
    /// Nodes spent generating the tasks.
    nodes: u64,
    /// The slots of each thread's memo, if it has one.
    memo_slots: Option<usize>,
}

impl<'t, T: Bits> Iteration<'t, T> {
    /// `halves` come with the root's values; `prune` says whether to prune
    /// moves that commute (see [`Came`]); `memo_slots`, how big a memo
    /// each thread keeps, if one.
    fn new(
        board: &'t Board,
        shape: &'t Shape<T>,
        halves: Option<(&'t Halves, [u32; 2])>,
        table: &'t Table,
        budget: u32,
        (halt, progress): (&'t Halt, &'t Progress),
        (prune, memo_slots): (bool, Option<usize>),
    ) -> Iteration<'t, T> {
        let (halves, root_halves) = match halves {
            Some((halves, root)) => (Some(halves), root),
            None => (None, [0; 2]),
        };
        let mut iteration = Iteration {
            board,
            shape,
            halves,
            table,
            budget,
            halt,
            progress,
            prune,
            tasks: Vec::new(),
            next_task: AtomicUsize::new(0),
            solution: Mutex::new(None),
            over: AtomicBool::new(false),
            nodes: 0,
            memo_slots,
        };
        let mut worker = Worker::new(&iteration);
        let mut solution = None;
        let mut tasks = Vec::new();
        let root = Planes::of(board);
        worker.children(&root, root_halves, None, budget, 0);
        'root: for child in std::mem::take(&mut worker.levels[0]) {
            if child.planes.is_cleared() {
                solution = Some(vec![child.cell]);
                break;
            }
            let came = worker.came(&root, &child);
            worker.children(&child.planes, child.halves, came, budget - 1, 1);
            for grandchild in &worker.levels[1] {
                if grandchild.planes.is_cleared() {
                    solution = Some(vec![child.cell, grandchild.cell]);
                    break 'root;
                }
                tasks.push((vec![child.cell, grandchild.cell], child.planes, *grandchild));
            }
        }
        iteration.nodes = worker.nodes;
        // Best first across all first moves, not first move by first move:
        // a budget that has a solution finds it sooner.
        tasks.sort_by_key(|(_, _, task)| (task.need, task.halves[0] + task.halves[1]));
        iteration.tasks = tasks;
        *iteration.solution.get_mut().expect("not shared yet") = solution;
        iteration
    }

    /// Runs the tasks on `threads` threads: the solution found, `Nothing`
    /// when the budget is proven too small, `None` when halted or left for
    /// the one above.
    fn run(mut self, threads: usize) -> (Option<Found>, u64) {
        if let Some(solution) = self.solution.get_mut().expect("not shared yet").take() {
            return (Some(Found::Solution(solution)), self.nodes);
        }
        let nodes = std::thread::scope(|scope| {
            // This thread is one of the workers rather than waiting on
            // them: a thread fewer to start, and to wake on a busy
            // machine. A thread the system refuses (a memory limit) is a
            // worker fewer.
            let workers: Vec<_> = (1..threads)
                .map_while(|_| {
                    std::thread::Builder::new()
                        .spawn_scoped(scope, || self.work())
                        .ok()
                })
                .collect();
            let here = self.work();
            here + workers
                .into_iter()
                .map(|w| w.join().expect("a search thread panicked"))
                .sum::<u64>()
        });
        let nodes = nodes + self.nodes;
        let stopped = self.stopped();
        let solution = self.solution.into_inner().expect("no thread panicked");
        match solution {
            Some(clicks) => (Some(Found::Solution(clicks)), nodes),
            None if stopped => (None, nodes),
            None => (Some(Found::Nothing), nodes),
        }
    }

    /// True once the search halted or this budget is over; cheap.
    fn stopped(&self) -> bool {
        self.over.load(Ordering::Relaxed) || self.halt.is_set()
    }

    /// [`Iteration::stopped`], reading the clock; a budget the search
    /// skips since the beams ended (see [`Progress::skips`]) is over.
    fn check(&self) -> bool {
        if self.progress.skips(self.budget as usize) {
            self.over.store(true, Ordering::Relaxed);
        }
        self.stopped() || self.halt.check()
    }

    /// One thread: takes tasks until none is left or the search stops.
    fn work(&self) -> u64 {
        let mut worker = Worker::new(self);
        let remaining = self.budget.saturating_sub(2);
        loop {
            let index = self.next_task.fetch_add(1, Ordering::Relaxed);
            let Some((prefix, parent, task)) = self.tasks.get(index) else {
                break;
            };
            if self.stopped() {
                break;
            }
            worker.path.clone_from(prefix);
            if worker.visit(task, parent, remaining, 0).is_none() {
                let mut solution = self.solution.lock().expect("no thread panicked");
                if solution.is_none() {
                    *solution = Some(worker.path.clone());
                }
                self.over.store(true, Ordering::Relaxed);
                break;
            }
        }
        worker.nodes
    }
}

/// A board one move on, with what the search knows of it.
#[derive(Clone, Copy)]
struct Child<T> {
    /// Moves it needs at least: the bound, or the table's when higher.
    need: u32,
    size: u8,
    cell: Cell,
    /// The cluster the move took.
    cells: T,
    key: Key,
    /// Its halves' values (see [`Halves`]), zero without them.
    halves: [u32; 2],
    planes: Planes<T>,
}

/// A child made, with the bound that did not cut it and its halves
/// prepared: what [`Worker::children`] knows of it before its values.
struct Made<T> {
    cells: T,
    /// The bound, raised by the halves' once they are known.
    need: u32,
    planes: Planes<T>,
    touched: Option<Touched>,
    /// Its halves' values once known, zero without them.
    halves: [u32; 2],
    /// Its key, made once the halves have kept it.
    key: Key,
}

/// The move `A` into a node `X` from its parent `P`, when `A` took a
/// cluster right of the middle: then a move `B` on a cluster left of the
/// middle is not searched from `X` when the two commute, that is when `B`
/// is a whole cluster of `P` too (no tile of its colour right of the
/// middle touches it there) and `A` is one of `P` after `B` (no tile of
/// `A`'s colour left of the middle touches `A` in `X` after `B`). Each half
/// plays on its own (see `halves`), so then `P`, `B`, `A` reaches the
/// board that `P`, `A`, `B` does, with as many moves left, and the search
/// takes it from `P` that way (or from higher up, when `B` commutes with
/// the move into `P` too, and so on).
///
/// This is sound with the transposition table, whose entries say "this
/// board needs more than `n` moves", because a node that pruned a move
/// stores only `n` = its budget, never the more its other children may
/// show, and because keys tell a board from its mirror image. Suppose a
/// budget's search ends without a solution and some entry is false; take
/// one stored for a board `X` with the fewest tiles left of the middle,
/// and of those the fewest moves truly needed, `t`. A child of `X` on a
/// shortest path that was searched needs `t - 1` and has no more tiles
/// left of the middle, so its own entry or bound would be false: the path
/// goes through a pruned move `B`. Every board on the path that searches
/// `B` first, from `P` or above, has `B`'s tiles fewer left of the middle
/// than `X`, and can be cleared in the moves it has left: none is cut off
/// by a bound, nor by an entry (it would be false, and lower), so the
/// search reaches the board after `A` and `B` with the moves left to
/// clear it, and clears it, or stores a false entry with fewer tiles left
/// of the middle than `X`. Either contradicts the supposition. So every
/// entry of a budget that fails is true, and so is the failure.
struct Came<'p, T> {
    /// The board before the move.
    parent: &'p Planes<T>,
    /// The colour it took.
    colour: usize,
    /// The cells left of the middle next to its cluster.
    reach: T,
}

/// One thread's search state.
struct Worker<'i, 't, T> {
    iteration: &'i Iteration<'t, T>,
    path: Vec<Cell>,
    /// One list of children per depth, reused so that the search does not
    /// allocate once warm.
    levels: Vec<Vec<Child<T>>>,
    /// The children of one board as they are made, before their values
    /// (see [`Worker::children`]), reused like `levels`.
    made: Vec<Made<T>>,
    /// The moves that stay on a side and leave its value too high (see
    /// [`Beyond`](super::halves::Beyond)), in long budgets.
    beyond: Option<BeyondMemo>,
    /// Boards made, and moves cut by [`Halves::is_beyond`] before they
    /// were made (without a memo they would have been made and cut): a
    /// budget's size, by which the tables grow, counts the moves its
    /// cheaper bounds let through (see `TABLE_BYTES_PER_NODE`).
    nodes: u64,
    /// When `nodes` reaches this, look at the clock again.
    next_check: u64,
}

impl<'i, 't, T: Bits> Worker<'i, 't, T> {
    fn new(iteration: &'i Iteration<'t, T>) -> Worker<'i, 't, T> {
        Worker {
            iteration,
            path: Vec::new(),
            levels: Vec::new(),
            made: Vec::new(),
            beyond: iteration.memo_slots.and_then(BeyondMemo::new),
            nodes: 0,
            next_check: CLOCK_EVERY,
        }
    }

    /// Fills `levels[depth]` with the children of `planes` worth searching
    /// with `budget` moves left, best first; a clearing move comes alone.
    /// Returns the fewest moves needed by a child cut off (`u32::MAX` when
    /// none was).
    fn children(
        &mut self,
        planes: &Planes<T>,
        halves: [u32; 2],
        came: Option<Came<'_, T>>,
        budget: u32,
        depth: usize,
    ) -> (u32, bool) {
        if self.levels.len() <= depth {
            self.levels.resize_with(depth + 1, Vec::new);
        }
        let mut children = std::mem::take(&mut self.levels[depth]);
        children.clear();
        let mut made = std::mem::take(&mut self.made);
        made.clear();
        let iteration = self.iteration;
        let shape = iteration.shape;
        // With no move to spare, every move must clear a colour at once.
        let only_whole_colours = budget == planes.present.count_ones();
        let mut cut = u32::MAX;
        let mut pruned = false;
        let [_, right] = shape.halves();
        let cross = iteration.halves.map_or(0, |h| h.cross(planes));
        // With at most one half move to spare, most moves that stay on a
        // side are cut before they are played (see `Beyond`).
        let mut memo = self.beyond.take();
        let mut beyond = [None; 2];
        if let (Some(h), Some(memo)) = (iteration.halves, &memo)
            && halves[0] + halves[1] + 1 >= 2 * budget
        {
            beyond = [0, 1].map(|side| {
                // A child fits in the moves left when its two values add
                // up to no more than two half moves per move.
                let limit = (2 * budget - 2).checked_sub(halves[1 - side])?;
                Some(h.beyond(planes, side, cross, limit, memo))
            });
        }
        // The clusters a memo already knows to be beyond their side's limit
        // are cut before the floods that would find them.
        let mut known = T::default();
        if let (Some(h), Some(memo)) = (iteration.halves, &memo) {
            for b in beyond.iter().flatten() {
                known = known | h.known_beyond(b, memo);
            }
        }
        if known != T::default() {
            cut = cut.min(budget);
        }
        // First every child is made, and the halves' table asked for the
        // buckets of those the colours do not cut; then their values are
        // taken, the table's misses met together rather than one by one.
        'colours: for colour in planes.colours() {
            let plane = planes.colour[colour];
            for cells in shape.clusters(plane & !known) {
                if only_whole_colours && cells != plane {
                    // Such a move leaves as many colours as moves left.
                    cut = cut.min(budget);
                    continue 'colours;
                }
                // Where the halves' bound leaves no move to spare, a move
                // that cannot lower it enough is cut before it is played.
                if let Some(h) = iteration.halves {
                    let need = Halves::bound(h.at_most_down(halves, cells, colour, cross));
                    if need >= budget {
                        cut = cut.min(need);
                        continue;
                    }
                    if let Some(memo) = &mut memo
                        && beyond.iter().flatten().any(|b| h.is_beyond(b, memo, cells))
                    {
                        // Its side's value above the limit: `budget` at
                        // least. Counted as the board it was made before.
                        self.nodes += 1;
                        cut = cut.min(budget);
                        continue;
                    }
                }
                let mut played = None;
                if let Some(came) = &came
                    && cells & right == T::default()
                    && shape.neighbours(cells) & right & came.parent.colour[colour] == T::default()
                {
                    let commutes = came.reach == T::default() || {
                        self.nodes += 1;
                        let child = shape.remove(planes, cells);
                        played = Some(child);
                        child.colour[came.colour] & came.reach == T::default()
                    };
                    if commutes {
                        pruned = true;
                        continue;
                    }
                }
                let child = played.unwrap_or_else(|| {
                    self.nodes += 1;
                    shape.remove(planes, cells)
                });
                if child.is_cleared() {
                    made.clear();
                    children.push(Child {
                        need: 0,
                        size: cells.count_ones() as u8,
                        cell: iteration.board.cell_of(cells.trailing_zeros() as usize),
                        cells,
                        key: key(shape, &child),
                        halves: [0; 2],
                        planes: child,
                    });
                    break 'colours;
                }
                let need = bound_against(shape, &child, budget);
                if need >= budget {
                    cut = cut.min(need);
                    continue;
                }
                made.push(Made {
                    cells,
                    need,
                    planes: child,
                    touched: iteration.halves.map(|h| h.prepare(&child, cells)),
                    halves: [0; 2],
                    key: Key::default(),
                });
            }
        }
        // Then the halves' values, and for the children they keep the
        // transposition table asked for their buckets the same way.
        made.retain_mut(|child| {
            if let (Some(h), Some(touched)) = (iteration.halves, &child.touched) {
                child.halves = h.after(touched, halves, budget - 1);
                child.need = child.need.max(Halves::bound(child.halves));
            }
            if child.need >= budget {
                cut = cut.min(child.need);
                return false;
            }
            child.key = key(shape, &child.planes);
            iteration.table.prefetch(child.key);
            true
        });
        for child in &made {
            // Enhanced transposition cutoff: a child the table already
            // proved too long is never entered.
            let need = child.need.max(iteration.table.bound(child.key));
            if need < budget {
                // The click only for a child kept: most are cut.
                children.push(Child {
                    need,
                    size: child.cells.count_ones() as u8,
                    cell: iteration
                        .board
                        .cell_of(child.cells.trailing_zeros() as usize),
                    cells: child.cells,
                    key: child.key,
                    halves: child.halves,
                    planes: child.planes,
                });
            } else {
                cut = cut.min(need);
            }
        }
        self.made = made;
        self.beyond = memo;
        children.sort_unstable_by_key(|c| {
            (
                c.need,
                c.halves[0] + c.halves[1],
                std::cmp::Reverse(c.size),
                c.cell.x,
                c.cell.y,
            )
        });
        self.levels[depth] = children;
        (cut, pruned)
    }

    /// What a node one move on from `parent` needs for pruning moves that
    /// commute with the move into it, when pruning applies.
    fn came<'p>(&self, parent: &'p Planes<T>, node: &Child<T>) -> Option<Came<'p, T>> {
        let shape = self.iteration.shape;
        let [left, _] = shape.halves();
        if !self.iteration.prune || node.cells & left != T::default() {
            return None;
        }
        let colour = (0..MAX_COLOURS as usize)
            .find(|&c| parent.colour[c] & node.cells != T::default())
            .expect("a move takes tiles");
        Some(Came {
            parent,
            colour,
            reach: shape.neighbours(node.cells) & left,
        })
    }

    /// `None` when `node` can be cleared within `budget` moves (then `path`
    /// ends with the clicks); otherwise the moves it was proven to need,
    /// more than `budget` (or `budget + 1` when the search stopped).
    fn visit(
        &mut self,
        node: &Child<T>,
        parent: &Planes<T>,
        budget: u32,
        depth: usize,
    ) -> Option<u32> {
        let iteration = self.iteration;
        if self.nodes >= self.next_check {
            self.next_check = self.nodes + CLOCK_EVERY;
            if iteration.check() {
                return Some(budget + 1);
            }
        }
        if node.need > budget {
            return Some(node.need);
        }
        // A board needs one more move than its cheapest child, searched or
        // cut off.
        let came = self.came(parent, node);
        let (cut, pruned) = self.children(&node.planes, node.halves, came, budget, depth);
        let mut need = cut.saturating_add(1);
        let children = std::mem::take(&mut self.levels[depth]);
        let mut solved = false;
        for child in &children {
            self.path.push(child.cell);
            if child.planes.is_cleared() {
                solved = true;
                break;
            }
            match self.visit(child, &node.planes, budget - 1, depth + 1) {
                None => {
                    solved = true;
                    break;
                }
                Some(child_need) => need = need.min(child_need + 1),
            }
            self.path.pop();
            if iteration.stopped() {
                self.levels[depth] = children;
                return Some(budget + 1);
            }
        }
        self.levels[depth] = children;
        if solved {
            return None;
        }
        // Every child failed, so `need > budget` unless none existed. A
        // pruned move's board was left to another order of the same moves,
        // searched with as many moves left: that shows it needs more, but
        // not how many more.
        let need = if pruned {
            budget + 1
        } else {
            need.max(budget + 1)
        };
        iteration.table.store(node.key, need);
        Some(need)
    }
}

#[cfg(test)]
mod tests {
    use super::super::{SolveOptions, board_in_play, solve};
    use super::*;
    use crate::game::BoardRng;

    /// The proof's own optimum for `board`, without the beams, pruning
    /// commuting moves or not: the length, and whether it was proven.
    fn proof_alone(board: &Board, prune: bool, threads: usize) -> (usize, bool) {
        proof_with_memo(board, prune, threads, MEMO_FROM_NODES)
    }

    /// [`proof_alone`] with memos after budgets of `memo_from` nodes.
    fn proof_with_memo(
        board: &Board,
        prune: bool,
        threads: usize,
        memo_from: u64,
    ) -> (usize, bool) {
        let outcome = proof_knowing(board, &[], (prune, threads, memo_from));
        (outcome.length(), outcome.proven_optimal)
    }

    /// The proof's outcome for `board` when the solution `known` (if any
    /// clicks) was found before it starts, as a beam would have.
    fn proof_knowing(
        board: &Board,
        known: &[Cell],
        (prune, threads, memo_from): (bool, usize, u64),
    ) -> super::super::Outcome {
        let options = SolveOptions {
            table_mb: 1,
            threads,
            ..SolveOptions::default()
        };
        let mut ignore = |_: &super::super::Improvement| {};
        let mut search = Search::new(board, &options, &mut ignore);
        if !known.is_empty() {
            search.offer(known);
        }
        let plan = Plan {
            beams: false,
            prune,
            memo_from,
        };
        solve_on::<u64>(board, &mut search, threads, 1, plan);
        search.finish(board)
    }

    #[test]
    fn pruning_commuting_moves_keeps_the_optimum() {
        // Without the beams, a budget that has a solution must find it
        // itself: a move pruned wrongly would hide it, and the proof would
        // go on to a longer one. Most boards have many shortest solutions,
        // so few show a wrong pruning. On these two, a move left of the
        // middle after one right of it must not be pruned: in the first
        // the right move took the tiles that joined it to the right side,
        // in the second it brings a tile next to the right move's cluster.
        // (Found among 30 000 random boards: with the first check of
        // `Came` dropped, the first board's optimum comes out longer, and
        // with the second check dropped, the second's.)
        for text in [
            "OGGGOO,GGORRO,OGGRRO,RGGOGO,OGGROG",
            "OORRGG,OGROOR,GOORRO,GGGROG,RRGORO",
        ] {
            let board: Board = Board::parse_sized(text, 6, 5).unwrap();
            let pruned = proof_alone(&board, true, 1);
            assert_eq!(pruned, proof_alone(&board, false, 1), "{board}");
            assert!(pruned.1, "{board}");
        }
        let mut rng = BoardRng::new(1626);
        for checked in 0..1000 {
            // An odd width too: its middle column is the right half's.
            let (w, h, c) = [(6, 4, 4), (6, 5, 3), (7, 4, 4)][checked % 3];
            let board = rng.board(w, h, c).unwrap();
            let pruned = proof_alone(&board, true, 1);
            assert_eq!(pruned, proof_alone(&board, false, 1), "{board}");
        }
        // Boards a few moves into a game, where the proofs run over
        // several budgets and reuse the table, on one thread and two.
        for checked in 0..30 {
            let board = board_in_play(&mut rng, Rules::CentreRows, 26 + checked % 15);
            let threads = 1 + checked % 2;
            let pruned = proof_alone(&board, true, threads);
            assert_eq!(pruned, proof_alone(&board, false, threads), "{board}");
            assert!(pruned.1, "{board}");
        }
    }

    #[test]
    fn cutting_moves_beyond_their_sides_limit_keeps_the_optimum() {
        // The memos cut moves only in budgets after long ones; here they
        // cut from the first. Without the beams a wrong cut would hide a
        // budget's solution, and the proof would go on to a longer one.
        let mut rng = BoardRng::new(6767);
        for checked in 0..300 {
            let (w, h, c) = [(6, 4, 4), (6, 5, 3), (7, 4, 4)][checked % 3];
            let board = rng.board(w, h, c).unwrap();
            let with_memo = proof_with_memo(&board, true, 1, 0);
            assert_eq!(with_memo, proof_alone(&board, true, 1), "{board}");
            assert!(with_memo.1, "{board}");
        }
        for checked in 0..20 {
            let board = board_in_play(&mut rng, Rules::CentreRows, 26 + checked % 12);
            let threads = 1 + checked % 2;
            let with_memo = proof_with_memo(&board, true, threads, 0);
            assert_eq!(with_memo, proof_alone(&board, true, threads), "{board}");
        }
    }

    #[test]
    fn a_budget_skipped_is_searched_when_the_one_above_finds_a_solution() {
        // Known a solution one or two moves longer than the optimum, the
        // proof skips a budget for the one above it, which has a solution:
        // the budget skipped must be searched after it (and the optimum
        // found there, or proven by its failure), never taken as failed.
        let mut rng = BoardRng::new(2412);
        let mut longer = [0; 2];
        for checked in 0..40 {
            let board = board_in_play(&mut rng, Rules::CentreRows, 24 + checked % 12);
            let threads = 1 + checked % 2;
            let alone = proof_knowing(&board, &[], (true, threads, MEMO_FROM_NODES));
            assert!(alone.proven_optimal, "{board}");
            // A first click the optimum does not start with: a solution
            // of one more move or two.
            for cluster in board.clusters().iter() {
                let (after, _) = board.play_under(cluster.cell, Rules::CentreRows).unwrap();
                let rest = proof_knowing(&after, &[], (true, 1, MEMO_FROM_NODES));
                let extra = rest.length() + 1 - alone.length();
                if extra == 0 || extra > 2 || longer[extra - 1] > checked / 2 {
                    continue;
                }
                longer[extra - 1] += 1;
                let known: Vec<Cell> = std::iter::once(cluster.cell)
                    .chain(rest.moves.iter().map(|step| step.cell))
                    .collect();
                let outcome = proof_knowing(&board, &known, (true, threads, MEMO_FROM_NODES));
                assert!(outcome.proven_optimal, "{board} knowing {known:?}");
                assert_eq!(
                    outcome.length(),
                    alone.length(),
                    "{board} knowing {known:?}"
                );
                assert!(outcome.moves.last().unwrap().board_after.is_cleared());
            }
        }
        assert!(longer.iter().all(|&boards| boards >= 10), "{longer:?}");
    }

    #[test]
    fn proves_the_real_board_in_eleven() {
        let board: Board = crate::game::EXAMPLE_BOARD.parse().unwrap();
        let options = SolveOptions {
            table_mb: 16,
            ..SolveOptions::default()
        };
        let outcome = solve(&board, &options, &mut |_| {});
        assert!(outcome.proven_optimal);
        assert_eq!(outcome.length(), 11);
        assert_eq!(outcome.lower_bound, 11);
        let last = outcome.moves.last().unwrap();
        assert!(last.board_after.is_cleared());
    }
}
