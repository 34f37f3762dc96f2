//! `bot practice`: the practice window on a given, seeded or random board,
//! playing the rule variant of `--rules`, drawn by the renderer in the
//! default calibration's colours.

use std::process::ExitCode;

use anyhow::{Context, Result, anyhow};

use super::args::PracticeArgs;
use super::output::excerpt;
use crate::game::{Board, BoardRng, NODIATIS_COLOURS, NODIATIS_HEIGHT, NODIATIS_WIDTH, Rules};
use crate::practice::{self, PracticeSettings};
use crate::solver::{self, SolveOptions};
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
    let settings = PracticeSettings {
        board,
        rules: args.rules.rules,
        scale: args.scale,
        anim: args.anim,
        style: args.style,
        title: args.title.clone(),
        log: args.log.clone(),
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

/// The first board drawn whose proven optimum under `rules` is `optimum`
/// clicks, saying how many were drawn.
fn level(
    rng: &mut BoardRng,
    shape: (u8, u8, u8),
    optimum: u8,
    seed: u64,
    rules: Rules,
) -> Result<Board> {
    let options = SolveOptions {
        time_limit: std::time::Duration::from_secs(10),
        rules,
        ..SolveOptions::default()
    };
    let (board, draws) =
        solver::board_with_optimum(rng, shape, usize::from(optimum), &options, MAX_DRAWS)
            .ok_or_else(|| {
                anyhow!("no board with a proven optimum of {optimum} clicks in {MAX_DRAWS} drawn from seed {seed}")
            })?;
    println!(
        "board {draws} drawn from seed {seed} has a proven optimum of {optimum} clicks under {rules}"
    );
    Ok(board)
}
