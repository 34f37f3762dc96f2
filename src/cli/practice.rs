//! `bot practice`: the practice window on a given, seeded or random board,
//! playing the rule variant of `--rules`, drawn by the renderer in the
//! default calibration's colours; the boards after the first follow from
//! the seed (game k's from seed + k - 1), so that a seed repeats a whole
//! session.

use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

use super::args::PracticeArgs;
use super::say;
use crate::files;
use crate::game::{Board, BoardRng, NODIATIS_COLOURS, NODIATIS_HEIGHT, NODIATIS_WIDTH, Rules};
use crate::practice::{self, NextBoard, PracticeSettings};
use crate::solver::{self, SolveOptions};
use crate::text::excerpt;
use crate::vision::Calibration;

pub fn run(args: &PracticeArgs) -> Result<ExitCode> {
    let given: Option<Board> = args
        .board
        .as_ref()
        .map(|text| {
            text.parse()
                .with_context(|| format!("--board {}", excerpt(text)))
        })
        .transpose()?;
    let seed = match (given, args.seed) {
        // The boards after a given one: seeds 1, 2, ...
        (Some(_), _) => 0,
        (None, Some(seed)) => seed,
        (None, None) => std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64),
    };
    if given.is_none() {
        say!("seed {seed}");
    }
    let boards = Boards {
        given,
        seed,
        // A window keeps its size: the boards after a given one take its.
        shape: given.map_or((NODIATIS_WIDTH, NODIATIS_HEIGHT), |b| {
            (b.width(), b.height())
        }),
        optimum: args.optimum,
        drawing: args.draw_for,
        rules: args.rules.rules,
    };
    let board = boards.board(1)?;
    let path = Calibration::default_path();
    let calibration = Calibration::load_default(&path)?;
    let log = match &args.log {
        Some(log) => Some((
            log.clone(),
            files::open_log(log, &[&path])
                .with_context(|| format!("{}: cannot write the click log", log.display()))?,
        )),
        None => None,
    };
    let settings = PracticeSettings {
        board,
        next_board: NextBoard(Arc::new(move |game| {
            boards.board(game).map_err(|e| format!("{e:#}"))
        })),
        next_after: args.next_after,
        rules: args.rules.rules,
        scale: args.scale,
        anim: args.anim,
        style: args.style,
        title: args.title.clone(),
        log,
        look: crate::app::look_of(&calibration),
    };
    say!("{board}");
    say!("rules {}: {}", settings.rules, settings.rules.describe());
    say!(
        "animation {}: {}",
        settings.style,
        settings.style.describe()
    );
    // The window keeps going when its lines cannot be said: the run
    // exits 2 at its end.
    let summary = practice::run(&settings, &mut |line| {
        say!("{line}");
    })?;
    if !summary.cleared {
        say!("closed after {} clicks", summary.clicks);
    }
    Ok(ExitCode::SUCCESS)
}

/// Where a window's boards come from, game after game: each a pure
/// function of the game's number, so that a seed repeats them all.
#[derive(Clone, Copy, Debug)]
struct Boards {
    /// Game 1's board, when one is given (`--board`).
    given: Option<Board>,
    /// Game k's board is drawn from seed + (k - 1), wrapping.
    seed: u64,
    /// The width and height of the boards drawn.
    shape: (u8, u8),
    /// Draw until a board's proven optimum is this many clicks.
    optimum: Option<u8>,
    /// How long the drawing goes on at most (and the last board's proof,
    /// 10 s at most): an optimum the rules make rare (9 clicks under
    /// gravity, whose games are longer) is given up on, not searched for
    /// a quarter of an hour.
    drawing: Duration,
    /// The rules the optimum is proven under.
    rules: Rules,
}

impl Boards {
    /// Game `game`'s board (from 1).
    fn board(&self, game: u32) -> Result<Board> {
        if game == 1
            && let Some(board) = self.given
        {
            return Ok(board);
        }
        let seed = self.seed.wrapping_add(u64::from(game.saturating_sub(1)));
        let mut rng = BoardRng::new(seed);
        let shape = (self.shape.0, self.shape.1, NODIATIS_COLOURS);
        match self.optimum {
            None => Ok(rng.board(shape.0, shape.1, shape.2)?),
            Some(optimum) => level(&mut rng, shape, optimum, seed, self.rules, self.drawing),
        }
    }
}

/// How many boards `--optimum` draws at most: the rarest, a 9-click
/// board, was the 49th and the 40th drawn from seeds 1 and 2.
const MAX_DRAWS: u32 = 1000;

/// How often a long draw says how it goes.
const PROGRESS_EVERY: Duration = Duration::from_secs(5);

/// The first board drawn whose proven optimum under `rules` is `optimum`
/// clicks, saying how many were drawn, and how the drawing goes while it
/// lasts.
fn level(
    rng: &mut BoardRng,
    shape: (u8, u8, u8),
    optimum: u8,
    seed: u64,
    rules: Rules,
    drawing: Duration,
) -> Result<Board> {
    let options = SolveOptions {
        time_limit: Duration::from_secs(10),
        rules,
        ..SolveOptions::default()
    };
    let started = Instant::now();
    let mut said = started;
    let mut drawn = 0;
    // The proven optima of the boards passed over: fewest and most clicks.
    let mut seen: Option<(usize, usize)> = None;
    let mut go_on = |draws: u32, outcome: &solver::Outcome| {
        drawn = draws;
        if outcome.proven_optimal {
            let n = outcome.length();
            seen = Some(seen.map_or((n, n), |(low, high)| (low.min(n), high.max(n))));
        }
        if said.elapsed() >= PROGRESS_EVERY {
            said = Instant::now();
            say!(
                "{draws} boards drawn in {:.0} s, none of {optimum} clicks yet{}",
                started.elapsed().as_secs_f64(),
                optima(seen)
            );
        }
        draws < MAX_DRAWS && started.elapsed() < drawing
    };
    let found = solver::board_with_optimum(rng, shape, usize::from(optimum), &options, &mut go_on);
    let Some((board, draws)) = found else {
        bail!(
            "no board with a proven optimum of {optimum} clicks under {rules} in {drawn} drawn from seed {seed} ({:.0} s){}: try another --optimum",
            started.elapsed().as_secs_f64(),
            optima(seen)
        );
    };
    say!(
        "board {draws} drawn from seed {seed} has a proven optimum of {optimum} clicks under {rules}"
    );
    Ok(board)
}

/// The optima seen, for the lines about the drawing.
fn optima(seen: Option<(usize, usize)>) -> String {
    match seen {
        None => String::new(),
        Some((low, high)) if low == high => format!(" (the boards proven need {low})"),
        Some((low, high)) => format!(" (the boards proven need {low} to {high})"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn drawn(seed: u64, shape: (u8, u8)) -> Board {
        BoardRng::new(seed)
            .board(shape.0, shape.1, NODIATIS_COLOURS)
            .unwrap()
    }

    #[test]
    fn game_k_of_a_seed_is_drawn_from_the_seed_plus_k_minus_1() {
        let shape = (NODIATIS_WIDTH, NODIATIS_HEIGHT);
        let boards = Boards {
            given: None,
            seed: 40,
            shape,
            optimum: None,
            drawing: Duration::from_secs(60),
            rules: Rules::CentreRows,
        };
        for game in 1..=3 {
            assert_eq!(
                boards.board(game).unwrap(),
                drawn(39 + u64::from(game), shape)
            );
        }
        assert_ne!(boards.board(1).unwrap(), boards.board(2).unwrap());
        let last = Boards {
            seed: u64::MAX,
            ..boards
        };
        assert_eq!(last.board(2).unwrap(), drawn(0, shape));
    }

    #[test]
    fn after_a_given_board_come_random_ones_of_its_size_from_seed_1() {
        let given: Board = "RGB,GBR".parse().unwrap();
        let boards = Boards {
            given: Some(given),
            seed: 0,
            shape: (3, 2),
            optimum: None,
            drawing: Duration::from_secs(60),
            rules: Rules::CentreRows,
        };
        assert_eq!(boards.board(1).unwrap(), given);
        assert_eq!(boards.board(2).unwrap(), drawn(1, (3, 2)));
        assert_eq!(boards.board(3).unwrap(), drawn(2, (3, 2)));
    }
}
