//! `bot stats FILE...`: the player's record from game logs, as the app
//! floor words it ([`crate::app::record_view`]): a short table of the games, or
//! with `--json` one JSON object; with `--plot FILE.png`, the record as a
//! picture, its path checked before the logs are read.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result, bail};

use super::args::StatsArgs;
use super::show;
use crate::app::record_view::record_text;
use crate::files;

pub fn run(args: &StatsArgs) -> Result<ExitCode> {
    if args.plot.is_some() {
        // Ctrl-C never leaves a temporary file behind.
        files::exit_on_ctrl_c().context("cannot catch Ctrl-C")?;
    }
    let plot = args.plot.as_deref().map(|path| (path, "--plot"));
    show(&record_text(&logs(args)?, plot, args.json)?);
    Ok(ExitCode::SUCCESS)
}

/// The logs `args` names, or the default game log when it names none
/// (an error naming it while it does not exist).
fn logs(args: &StatsArgs) -> Result<Vec<PathBuf>> {
    if !args.logs.is_empty() {
        return Ok(args.logs.clone());
    }
    let log = crate::app::settings::default_game_log()?;
    if !log.exists() {
        bail!(
            "{}: no games recorded yet (live play and assist mode record there; or name a log: bot stats FILE)",
            log.display()
        );
    }
    Ok(vec![log])
}
