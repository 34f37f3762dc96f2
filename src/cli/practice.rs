//! `bot practice`: the practice window on a given, seeded or random board,
//! drawn by the renderer in the default calibration's colours.

use std::process::ExitCode;

use anyhow::{Context, Result};

use super::args::PracticeArgs;
use super::output::excerpt;
use crate::game::{Board, BoardRng, NODIATIS_COLOURS, NODIATIS_HEIGHT, NODIATIS_WIDTH};
use crate::practice::{self, PracticeSettings};
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
            BoardRng::new(seed).board(NODIATIS_WIDTH, NODIATIS_HEIGHT, NODIATIS_COLOURS)?
        }
    };
    let path = Calibration::default_path();
    let calibration = Calibration::load(&path)?;
    let settings = PracticeSettings {
        board,
        scale: args.scale,
        anim: args.anim,
        title: args.title.clone(),
        log: args.log.clone(),
        look: super::look_of(&calibration),
    };
    println!("{board}");
    let summary = practice::run(&settings)?;
    if !summary.cleared {
        println!("closed after {} clicks", summary.clicks);
    }
    Ok(ExitCode::SUCCESS)
}
