//! The exact search behind `optimal`: a beam gives a first solution, then
//! iterative deepening proves, budget by budget, that nothing shorter
//! exists (or finds the shorter one). Each budget's search is a depth-first
//! search pruned by the admissible bound and by a transposition table of
//! proven bounds under canonical keys; the work below the first two moves
//! is shared out to all threads, which share the table.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

use crate::game::{Board, Cell};

use super::Search;
use super::beam;
use super::bound::{Shape, bound};
use super::key::key;
use super::table::Table;

/// Beam widths tried before the exact search, narrowest first: the first
/// gives a solution within milliseconds, the wider ones usually the optimum.
const BEAM_WIDTHS: [usize; 2] = [16, 256];

/// How often (in nodes) a worker looks at the clock.
const CLOCK_EVERY: u64 = 1024;

pub(super) fn solve(board: &Board, search: &mut Search, threads: usize, table_mb: usize) {
    let deadline = search.deadline;
    for width in BEAM_WIDTHS {
        let mut nodes = 0;
        let finished = beam::run(
            board,
            width,
            &mut nodes,
            || Instant::now() >= deadline,
            |clicks| search.offer(clicks),
        );
        search.nodes += nodes;
        if !finished || search.lower_bound >= search.best_length() {
            break;
        }
    }
    let table = Table::new(table_mb);
    let shape = Shape::of(board);
    let mut budget = search.lower_bound;
    while budget < search.best_length() {
        if Instant::now() >= deadline {
            return;
        }
        let iteration = Iteration::new(board, &shape, &table, budget as u32, deadline);
        let (result, nodes) = iteration.run(threads);
        search.nodes += nodes;
        match result {
            Some(Found::Solution(clicks)) => {
                // Every smaller budget failed: this one is optimal.
                search.offer(&clicks);
                search.raise_lower_bound(clicks.len());
                return;
            }
            Some(Found::Nothing) => {
                search.raise_lower_bound(budget + 1);
                budget += 1;
            }
            None => return,
        }
    }
}

enum Found {
    Solution(Vec<Cell>),
    Nothing,
}

/// One budget's search, shared by the threads: the boards two moves deep
/// are the tasks, taken in order.
struct Iteration<'t> {
    shape: &'t Shape,
    table: &'t Table,
    budget: u32,
    deadline: Instant,
    tasks: Vec<(Vec<Cell>, Board)>,
    next_task: AtomicUsize,
    stop: AtomicBool,
    solution: Mutex<Option<Vec<Cell>>>,
    /// Nodes spent generating the tasks.
    nodes: u64,
}

impl<'t> Iteration<'t> {
    fn new(
        board: &Board,
        shape: &'t Shape,
        table: &'t Table,
        budget: u32,
        deadline: Instant,
    ) -> Iteration<'t> {
        let mut iteration = Iteration {
            shape,
            table,
            budget,
            deadline,
            tasks: Vec::new(),
            next_task: AtomicUsize::new(0),
            stop: AtomicBool::new(false),
            solution: Mutex::new(None),
            nodes: 0,
        };
        let mut worker = Worker::new(&iteration);
        let mut solution = None;
        let mut tasks = Vec::new();
        for (cell, child) in worker.children(board, budget) {
            if child.is_cleared() {
                solution = Some(vec![cell]);
                break;
            }
            for (grand_cell, grandchild) in worker.children(&child, budget - 1) {
                if grandchild.is_cleared() {
                    solution = Some(vec![cell, grand_cell]);
                    break;
                }
                tasks.push((vec![cell, grand_cell], grandchild));
            }
            if solution.is_some() {
                break;
            }
        }
        iteration.nodes = worker.nodes;
        iteration.tasks = tasks;
        *iteration.solution.get_mut().expect("not shared yet") = solution;
        iteration
    }

    /// Runs the tasks on `threads` threads: the solution found, `Nothing`
    /// when the budget is proven too small, `None` when time ran out.
    fn run(mut self, threads: usize) -> (Option<Found>, u64) {
        if let Some(solution) = self.solution.get_mut().expect("not shared yet").take() {
            return (Some(Found::Solution(solution)), self.nodes);
        }
        let nodes = std::thread::scope(|scope| {
            let workers: Vec<_> = (0..threads).map(|_| scope.spawn(|| self.work())).collect();
            workers
                .into_iter()
                .map(|w| w.join().expect("a search thread panicked"))
                .sum::<u64>()
        });
        let nodes = nodes + self.nodes;
        let solution = self.solution.into_inner().expect("no thread panicked");
        match solution {
            Some(clicks) => (Some(Found::Solution(clicks)), nodes),
            None if self.stop.load(Ordering::Relaxed) => (None, nodes),
            None => (Some(Found::Nothing), nodes),
        }
    }

    /// One thread: takes tasks until none is left or the search stops.
    fn work(&self) -> u64 {
        let mut worker = Worker::new(self);
        let remaining = self.budget.saturating_sub(2);
        loop {
            let index = self.next_task.fetch_add(1, Ordering::Relaxed);
            let Some((prefix, board)) = self.tasks.get(index) else {
                break;
            };
            if self.stop.load(Ordering::Relaxed) {
                break;
            }
            worker.path.clone_from(prefix);
            if worker.visit(board, remaining) {
                let mut solution = self.solution.lock().expect("no thread panicked");
                if solution.is_none() {
                    *solution = Some(worker.path.clone());
                }
                self.stop.store(true, Ordering::Relaxed);
                break;
            }
        }
        worker.nodes
    }
}

/// One thread's search state.
struct Worker<'i, 't> {
    iteration: &'i Iteration<'t>,
    path: Vec<Cell>,
    nodes: u64,
    /// When `nodes` reaches this, look at the clock again.
    next_check: u64,
}

impl<'i, 't> Worker<'i, 't> {
    fn new(iteration: &'i Iteration<'t>) -> Worker<'i, 't> {
        Worker {
            iteration,
            path: Vec::new(),
            nodes: 0,
            next_check: CLOCK_EVERY,
        }
    }

    /// The children of `board` worth searching with `budget` moves left,
    /// best first; a clearing move comes alone.
    fn children(&mut self, board: &Board, budget: u32) -> Vec<(Cell, Board)> {
        let shape = self.iteration.shape;
        let mut children = Vec::new();
        for cluster in board.clusters().iter() {
            self.nodes += 1;
            let child = board.remove(cluster.cells);
            if child.is_cleared() {
                return vec![(cluster.cell, child)];
            }
            let need = bound(shape, &child);
            if need < budget {
                children.push((need, std::cmp::Reverse(cluster.size), cluster.cell, child));
            }
        }
        children.sort_unstable_by_key(|&(need, size, cell, _)| (need, size, cell.x, cell.y));
        children
            .into_iter()
            .map(|(_, _, cell, child)| (cell, child))
            .collect()
    }

    /// True when `board` can be cleared within `budget` moves (then `path`
    /// ends with the clicks); false when it cannot, or the search stopped.
    fn visit(&mut self, board: &Board, budget: u32) -> bool {
        let iteration = self.iteration;
        if self.nodes >= self.next_check {
            self.next_check = self.nodes + CLOCK_EVERY;
            if iteration.stop.load(Ordering::Relaxed) {
                return false;
            }
            if Instant::now() >= iteration.deadline {
                iteration.stop.store(true, Ordering::Relaxed);
                return false;
            }
        }
        let key = key(board);
        if iteration.table.bound(key) > budget {
            return false;
        }
        for (cell, child) in self.children(board, budget) {
            self.path.push(cell);
            if child.is_cleared() || self.visit(&child, budget - 1) {
                return true;
            }
            self.path.pop();
            if iteration.stop.load(Ordering::Relaxed) {
                return false;
            }
        }
        iteration.table.store(key, budget + 1);
        false
    }
}

#[cfg(test)]
mod tests {
    use super::super::{SolveOptions, solve};
    use crate::game::Board;

    #[test]
    fn proves_the_real_board_in_eleven() {
        let board: Board = "GGGGBOYO,RORGYGBY,RRBGOORG,BRBOBYRG,BRYBBRGG,OYGGRORG"
            .parse()
            .unwrap();
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
