//! `bot solve`.

use std::process::ExitCode;

use anyhow::Result;

use super::args::SolveArgs;

pub fn run(_args: &SolveArgs) -> Result<ExitCode> {
    anyhow::bail!("`bot solve` is not built yet")
}
