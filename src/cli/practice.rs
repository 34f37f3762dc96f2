//! `bot practice`: the practice window on a given, seeded or random board,
//! playing the rule variant of `--rules`, drawn by the renderer in the
//! default calibration's colours.

use std::process::ExitCode;

use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

use super::args::PracticeArgs;
use crate::files;
use crate::game::{Board, BoardRng, NODIATIS_COLOURS, NODIATIS_HEIGHT, NODIATIS_WIDTH, Rules};
use crate::practice::{self, PracticeSettings};
use crate::solver::{self, SolveOptions};
use crate::text::excerpt;
use crate::vision::Calibration;

pub fn run(args: &PracticeArgs) -> Result<ExitCode> {
    let board: Board = match (&args.board, args.seed) {
        (Some(text), _) => text
            .parse()
            .with_context(|| format!("--board {}", excerpt(text)))?,
        (None, seed) => {
            let seed = seed.unwrap_or_else(|| {
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_nanos() as u64)
            });
            println!("seed {seed}");
            let mut rng = BoardRng::new(seed);
            let shape = (NODIATIS_WIDTH, NODIATIS_HEIGHT, NODIATIS_COLOURS);
            match args.optimum {
                None => rng.board(shape.0, shape.1, shape.2)?,
                Some(optimum) => level(&mut rng, shape, optimum, seed, args.rules.rules)?,
            }
        }
    };
    let path = Calibration::default_path();
    let calibration = Calibration::load(&path)?;
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
        rules: args.rules.rules,
        scale: args.scale,
        anim: args.anim,
        style: args.style,
        title: args.title.clone(),
        log,
        look: super::look_of(&calibration),
    };
    println!("{board}");
    println!("rules {}: {}", settings.rules, settings.rules.describe());
    println!(
        "animation {}: {}",
        settings.style,
        settings.style.describe()
    );
    let summary = practice::run(&settings)?;
    if !summary.cleared {
        println!("closed after {} clicks", summary.clicks);
    }
    Ok(ExitCode::SUCCESS)
}

/// How many boards `--optimum` draws at most: the rarest, a 9-click
/// board, was the 49th and the 40th drawn from seeds 1 and 2.
const MAX_DRAWS: u32 = 1000;

/// How long `--optimum` draws at most (and the last board's proof, 10 s at
/// most): an optimum the rules make rare (9 clicks under gravity, whose
/// games are longer) is given up on, not searched for a quarter of an
/// hour.
const MAX_DRAWING: Duration = Duration::from_secs(60);

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
            println!(
                "{draws} boards drawn in {:.0} s, none of {optimum} clicks yet{}",
                started.elapsed().as_secs_f64(),
                optima(seen)
            );
        }
        draws < MAX_DRAWS && started.elapsed() < MAX_DRAWING
    };
    let found = solver::board_with_optimum(rng, shape, usize::from(optimum), &options, &mut go_on);
    let Some((board, draws)) = found else {
        bail!(
            "no board with a proven optimum of {optimum} clicks under {rules} in {drawn} drawn from seed {seed} ({:.0} s){}: try another --optimum",
            started.elapsed().as_secs_f64(),
            optima(seen)
        );
    };
    println!(
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
