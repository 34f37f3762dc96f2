//! A board's proof worked out ahead of a run: the front door proves the
//! board it shows beside its menu (from its question whether the window
//! is the game on), and the run started on that board takes the proof's
//! plan, ended or still under way, rather than working it out again (the
//! hardest boards take seconds of the game's 60 s, a slow machine's all
//! of the solver's budget).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::RecvTimeoutError;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use super::{LiveError, STILL_PROVING_AFTER};
use crate::desktop::stop;
use crate::game::{Board, Rules};
use crate::solver::{Outcome, SolveOptions, Solving, StopFlag};

/// How long a run waits on a proof under way between two looks at its
/// own stop (Ctrl-C, a stop key): the proof's search reads its own flag,
/// not the run's, so that a run stopped leaves it to the door.
const LOOK_AT_THE_STOP: Duration = Duration::from_millis(20);

/// A search for `board`'s optimum under `rules` to the end of the
/// solver's budget, on a thread of its own, shared by whoever holds a
/// copy: the door that started it, the run started on its board. It ends
/// its search once the last copy is dropped, or once asked to
/// ([`Proof::stop`]): a search nobody waits for only takes the cores.
#[derive(Clone, Debug)]
pub struct Proof {
    pub board: Board,
    pub rules: Rules,
    search: Arc<Search>,
}

#[derive(Debug)]
struct Search {
    state: Mutex<State>,
    stop: StopFlag,
}

#[derive(Debug)]
enum State {
    UnderWay(Solving),
    /// Its plan, or none: the search was stopped before its end, found no
    /// moves that clear the board, or ended without an outcome (a fault).
    Ended(Option<Outcome>),
}

/// What a proof has come to.
#[derive(Debug)]
pub enum Proven {
    UnderWay,
    /// The plan: proven optimal, or the best found within the budget.
    Plan(Outcome),
    /// No plan (see [`Proof`]'s states).
    NoPlan,
}

impl Proof {
    /// The search for `board`'s optimum under `options` (its rules among
    /// them), started.
    pub fn start(board: Board, options: &SolveOptions) -> Proof {
        let stop = own_flag();
        let options = SolveOptions {
            stop: Some(stop),
            ..options.clone()
        };
        let state = State::UnderWay(Solving::start(&board, &options));
        Proof::of(board, options.rules, state, stop)
    }

    /// A proof that ended with `outcome`, for tests of what takes it.
    #[cfg(test)]
    pub(crate) fn ended(board: Board, rules: Rules, outcome: Outcome) -> Proof {
        let state = State::Ended(Some(outcome).filter(|o| o.clears(&board)));
        Proof::of(board, rules, state, own_flag())
    }

    fn of(board: Board, rules: Rules, state: State, stop: StopFlag) -> Proof {
        Proof {
            board,
            rules,
            search: Arc::new(Search {
                state: Mutex::new(state),
                stop,
            }),
        }
    }

    /// Whether it proves `board` under `rules`, and can still give its
    /// plan (it was not stopped).
    pub fn serves(&self, board: &Board, rules: Rules) -> bool {
        self.board == *board && self.rules == rules && !self.stopped()
    }

    /// Its search ended now, of no use any more: its plan, if it had not
    /// ended by then, is none. A plan it ended with stays.
    pub fn stop(&self) {
        let state = self
            .search
            .state
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let State::UnderWay(_) = *state {
            self.search.stop.0.store(true, Ordering::Relaxed);
        }
    }

    fn stopped(&self) -> bool {
        self.search.stop.0.load(Ordering::Relaxed)
    }

    /// What it has come to, waiting at most `wait` for its end.
    pub fn within(&self, wait: Duration) -> Proven {
        let mut state = self
            .search
            .state
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let outcome = match &*state {
            State::Ended(outcome) => outcome.clone(),
            State::UnderWay(solving) => {
                let outcome = match solving.outcome.recv_timeout(wait) {
                    Err(RecvTimeoutError::Timeout) => return Proven::UnderWay,
                    Err(RecvTimeoutError::Disconnected) => None,
                    // A search stopped ends with the best found by then,
                    // not the best within the budget: no plan to keep,
                    // unless proven all the same.
                    Ok(outcome) => Some(outcome)
                        .filter(|o| o.clears(&self.board) && (o.proven_optimal || !self.stopped())),
                };
                *state = State::Ended(outcome.clone());
                outcome
            }
        };
        match outcome {
            Some(outcome) => Proven::Plan(outcome),
            None => Proven::NoPlan,
        }
    }

    /// The length of the best solution found so far, if any.
    pub fn best(&self) -> Option<usize> {
        let state = self
            .search
            .state
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        match &*state {
            State::UnderWay(solving) => solving.best(),
            State::Ended(outcome) => outcome.as_ref().map(Outcome::length),
        }
    }

    /// Its plan, for a run that would otherwise work it out: waited for
    /// while the search goes on, `still` told once with the best found if
    /// the wait passes [`STILL_PROVING_AFTER`]; `None` when it ends with
    /// none. The plan is said as this run found it: in the time it
    /// waited, with no board of its own searched. A stop asked for ends
    /// the wait, not the search: the door may take it up again.
    pub(super) fn wait(
        &self,
        still: &mut dyn FnMut(Option<usize>),
    ) -> Result<Option<Outcome>, LiveError> {
        let began = Instant::now();
        let mut told = false;
        loop {
            match self.within(LOOK_AT_THE_STOP) {
                Proven::Plan(outcome) => {
                    return Ok(Some(Outcome {
                        elapsed: began.elapsed(),
                        nodes: 0,
                        improvements: Vec::new(),
                        ..outcome
                    }));
                }
                Proven::NoPlan => return Ok(None),
                Proven::UnderWay => {}
            }
            stop::check()?;
            if !told && began.elapsed() >= STILL_PROVING_AFTER {
                told = true;
                still(self.best());
            }
        }
    }
}

/// A stop flag of a proof's own, so that ending its search ends no other
/// (a run's, or the next board's): a byte for each board proven, kept.
fn own_flag() -> StopFlag {
    StopFlag(Box::leak(Box::new(AtomicBool::new(false))))
}

impl Drop for Search {
    fn drop(&mut self) {
        self.stop.0.store(true, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_proof_ends_its_search_when_its_last_copy_is_dropped() {
        let hard: Board = "OYGGGGOG,GOBYBOYY,ORYBOBGR,RRGRYGOB,YBBOBORY,ORYYYBGB"
            .parse()
            .unwrap();
        let proof = Proof::start(hard, &SolveOptions::default());
        let copy = proof.clone();
        let stop = proof.search.stop;
        drop(proof);
        assert!(!stop.0.load(Ordering::Relaxed));
        assert!(matches!(copy.within(Duration::ZERO), Proven::UnderWay));
        drop(copy);
        assert!(stop.0.load(Ordering::Relaxed));
    }
}
