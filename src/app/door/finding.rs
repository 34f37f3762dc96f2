//! The door's steps from looking for the game to the menu: a search's
//! result said (the game found, a question, or the windows tried), the
//! game remembered and its board shown with the proven optimum, the game's
//! window looked for while the menu or a question waits, and read again
//! after a run.

use std::time::{Duration, Instant};

use super::{Action, Door, Empty, LOOK_AGAIN, Phase, Slot, looking, looking_with};
use crate::app::runner::Shown;
use crate::app::words::{optimum_caption, still_proving_line};
use crate::desktop;
use crate::game::Board;
use crate::live::find::{self, Found, Search};
use crate::live::{Proof, Proven, STILL_PROVING_AFTER};
use crate::solver::Outcome;

impl Door {
    /// The window asked about, or the game's at the menu, closed: the
    /// question withdrawn, the menu gone, the game looked for again.
    pub(super) fn still_there(&mut self) {
        let window = match (&self.phase, &self.game) {
            (Phase::Asking { found, .. }, _) => &found.window,
            (Phase::Ready { .. }, Some((window, _))) => window,
            _ => return,
        };
        let Ok(all) = self.outside.desktop().windows() else {
            return;
        };
        if all.iter().any(|w| w.id == window.id) {
            return;
        }
        let line = format!("{window} closed: looking for the game");
        self.status.summary.clear();
        self.look_again(line);
    }

    /// The game forgotten (its window, its board, what was said of it)
    /// and looked for again, `line` said.
    pub(super) fn look_again(&mut self, line: String) {
        self.status.window.clear();
        self.status.optimum.clear();
        self.status.more.clear();
        self.game = None;
        self.shown = None;
        self.proving = false;
        self.proof = None;
        self.enter(looking());
        self.say(Slot::Doing, line);
    }

    /// A search's result: the game found, a question, or the windows
    /// tried said and another search in [`LOOK_AGAIN`].
    /// Yes to the window asked about, or a No taken back while looking.
    pub(super) fn yes(&mut self) {
        let found = match &self.phase {
            Phase::Asking { found, .. } => Some(found.clone()),
            Phase::Looking { .. } => self.declined.take_back(),
            _ => None,
        };
        if let Some(found) = found {
            let line = format!("found the game by its board: {}", found.window);
            self.say(Slot::Doing, line);
            self.found(found);
        }
    }

    /// No to the window asked about: looked for again, without it.
    pub(super) fn no(&mut self) {
        if let Phase::Asking {
            found,
            calibrate_when_found,
            ..
        } = &self.phase
        {
            self.declined.decline(found);
            let line = format!(
                "you said {} is not the game: {} takes it back",
                found.window,
                self.face.label(Action::Yes)
            );
            let calibrate_when_found = *calibrate_when_found;
            self.say(Slot::Doing, line);
            self.proof = None;
            self.enter(looking_with(true, calibrate_when_found));
        }
    }

    pub(super) fn searched(&mut self, mut search: Search) {
        self.declined.leave_out(&mut search);
        // Of several, the ones found by name first (the search's order);
        // each found by its board alone is asked about in turn.
        match std::mem::take(&mut search.found).into_iter().next() {
            Some(one) if !one.needs_a_yes() => {
                let line = format!("found the game by {}: {}", one.by.words(), one.window);
                self.say(Slot::Doing, line);
                self.found(one);
            }
            Some(one) => {
                self.status.more.clear();
                let line = format!(
                    "a full board shows in {}: is this window the game? (it may be a picture of a board)",
                    one.window
                );
                self.say(Slot::Doing, line);
                // Its board proven while the player answers: on a yes the
                // optimum is there, or sooner than from the yes.
                self.proof = one
                    .board
                    .map(|board| Proof::start(board, &self.options.solve));
                self.proving = false;
                let calibrate_when_found = self.calibrate_when_found();
                self.enter(Phase::Asking {
                    found: one,
                    checked: Instant::now(),
                    calibrate_when_found,
                });
            }
            None => self.found_none(&search),
        }
    }

    /// A search that found no game: said once (how: no game, or the
    /// bot's own terminal over the windows), the next one in
    /// [`LOOK_AGAIN`].
    pub(super) fn found_none(&mut self, search: &Search) {
        let empty = match (&search.covering, search.hidden.first()) {
            (Some(_), _) => Empty::Covered,
            (None, Some(_)) => Empty::Hidden,
            (None, None) => Empty::NoGame,
        };
        let Phase::Looking {
            search: pending,
            next,
            said,
            ..
        } = &mut self.phase
        else {
            return;
        };
        *pending = None;
        *next = Instant::now() + LOOK_AGAIN;
        if *said == Some(empty) {
            return;
        }
        *said = Some(empty);
        let again = format!("looking again every {} s", LOOK_AGAIN.as_secs());
        match &search.covering {
            // Its own terminal or window hides what it would read: never
            // "no game", which would blame the game.
            Some(covering) => {
                let whose = if covering.is_terminal() {
                    "this terminal"
                } else {
                    "the bot's own window"
                };
                let line = format!(
                    "{whose} ({covering}) covers the windows it would read: move it aside; {again}"
                );
                self.say(Slot::Doing, line);
                self.say_more(Vec::new());
            }
            // The game is there, out of sight: never "start the game".
            None if !search.hidden.is_empty() => {
                let game = &search.hidden[0];
                let how = if game.minimised {
                    "is minimised"
                } else {
                    "is on another desktop (or hidden)"
                };
                let line =
                    format!("the game's window {game} {how}: waiting for it to show; {again}");
                self.say(Slot::Doing, line);
                self.say_more(Vec::new());
            }
            None => self.no_game(search, &again),
        }
    }

    /// No window is the game: said so, with the windows tried and why
    /// each is not.
    fn no_game(&mut self, search: &Search, again: &str) {
        let declined = if self.declined.last().is_some() {
            format!(
                " but the one you said is not the game ({} takes it back)",
                self.face.label(Action::Yes)
            )
        } else {
            String::new()
        };
        let line = format!(
            "no game found: no window is named {} and none shows a full board{declined}; start the dust game so that a full board shows: {again}",
            find::GAME_NAME,
        );
        self.say(Slot::Doing, line);
        let tried = search
            .tried
            .iter()
            .map(|(window, why)| format!("  {window}: {why}"))
            .collect();
        self.say_more(tried);
    }

    /// The game is `found`: remembered, its board shown with the proven
    /// optimum, and the menu (or the calibration chosen before).
    pub(super) fn found(&mut self, found: Found) {
        self.status.more.clear();
        let all = self.outside.desktop().windows().unwrap_or_default();
        // The text that finds it again, remembered; a window no text tells
        // from the others is played by its id, and not remembered.
        let text = find::text_that_finds(&all, &found.window);
        match &text {
            Some(text) => {
                let text = text.clone();
                if self.settings.window.as_ref() != Some(&text) {
                    self.remember("the game's window", |s| s.window = Some(text));
                }
            }
            None => self.said.push(
                "no title tells this window from the others: it is not remembered".to_owned(),
            ),
        }
        self.say(Slot::Window, format!("window: {}", found.window));
        // Once, as the game is found: a washed-out capture misreads.
        if let Some(advice) = desktop::hdr::HdrState::warn_for_game(found.window.id) {
            self.say_more(vec![advice.to_owned()]);
        }
        self.show_board(found.board);
        let text = text.unwrap_or_else(|| found.window.title.clone());
        self.game = Some((found.window, text));
        let calibrate = self.calibrate_when_found();
        self.ready();
        if calibrate {
            self.calibrate();
        }
    }

    /// Whether to calibrate once the game is found, as the phase says.
    fn calibrate_when_found(&self) -> bool {
        match self.phase {
            Phase::Looking {
                calibrate_when_found,
                ..
            }
            | Phase::Asking {
                calibrate_when_found,
                ..
            } => calibrate_when_found,
            _ => false,
        }
    }

    /// The menu, asked.
    pub(super) fn ready(&mut self) {
        self.enter(super::ready());
        // The face shows its menu: its keys or its buttons.
        self.status.summary.clear();
    }

    /// `board` (the one read now, if any) shown with its proven optimum:
    /// at once when the proof takes at most [`STILL_PROVING_AFTER`], else
    /// with a word that it is under way, the optimum said when
    /// [`Door::proven`] takes it. The offer is not put again then: the
    /// menu shown meanwhile stands, and a key pressed at it is answered
    /// at once, never lost behind a proof. The board proven last (read
    /// again after a run that made no click, or with a new calibration)
    /// takes up its proof, ended or under way, rather than start anew.
    pub(super) fn show_board(&mut self, board: Option<Board>) {
        self.proving = false;
        let rules = self.options.solve.rules;
        // A proof of another board is of no use any more.
        let known = self
            .proof
            .take()
            .filter(|known| board.is_some_and(|board| known.serves(&board, rules)));
        let Some(board) = board else {
            self.shown = None;
            return self.say(
                Slot::Optimum,
                "no board read now (a game not started, or one part played)".to_owned(),
            );
        };
        self.said.push(format!("board read: {board}"));
        let proof = known.unwrap_or_else(|| Proof::start(board, &self.options.solve));
        match proof.within(STILL_PROVING_AFTER) {
            Proven::Plan(outcome) => self.show_proven(board, &outcome),
            Proven::UnderWay => {
                let line = still_proving_line("the optimum", proof.best());
                self.show_without_plan(board, line);
                self.proving = true;
            }
            Proven::NoPlan => self.proof_failed(board),
        }
        self.proof = Some(proof);
    }

    /// The proof under way, if any, taken once it has ended: the board
    /// shown with its optimum.
    pub(super) fn proven(&mut self) {
        let Some(proof) = self.proof.as_ref().filter(|_| self.proving) else {
            return;
        };
        let board = proof.board;
        let proven = proof.within(Duration::ZERO);
        match proven {
            Proven::UnderWay => return,
            Proven::Plan(outcome) => self.show_proven(board, &outcome),
            Proven::NoPlan => self.proof_failed(board),
        }
        self.proving = false;
    }

    /// `board` shown with the optimum `outcome` proves (or the best found
    /// within the budget).
    fn show_proven(&mut self, board: Board, outcome: &Outcome) {
        let caption = optimum_caption(outcome.length(), outcome.proven_optimal);
        self.say(Slot::Optimum, caption.clone());
        self.shown = Some(Shown {
            board,
            clicks: crate::assist::clicks_on(&board, &outcome.moves, outcome.rules),
            caption: vec![caption],
        });
    }

    /// The search's thread ended without its outcome (it panicked): said,
    /// the board shown without a plan.
    fn proof_failed(&mut self, board: Board) {
        let line = "the optimum could not be worked out (a fault in the bot)".to_owned();
        self.show_without_plan(board, line);
    }

    /// `board` shown without a plan (one still being proven, or none),
    /// `line` said of its optimum and written under it.
    fn show_without_plan(&mut self, board: Board, line: String) {
        self.say(Slot::Optimum, line.clone());
        self.shown = Some(Shown {
            board,
            clicks: Vec::new(),
            caption: vec![line],
        });
    }

    /// After a run, however it ended: the game's window as it is now (its
    /// title may change as it goes) and its board read again.
    pub(super) fn read_again(&mut self) {
        let Some((window, _)) = &mut self.game else {
            return;
        };
        let desktop = self.outside.desktop();
        if let Some(now) = desktop
            .windows()
            .ok()
            .and_then(|all| all.into_iter().find(|w| w.id == window.id))
        {
            *window = now;
        }
        let window = window.clone();
        let board = find::read_board(desktop, &window, &self.calibration).ok();
        self.status.window = format!("window: {window}");
        self.show_board(board);
    }
}
