//! `bot practice`.

use std::process::ExitCode;

use anyhow::Result;

use super::args::PracticeArgs;

pub fn run(_args: &PracticeArgs) -> Result<ExitCode> {
    anyhow::bail!("`bot practice` is not built yet")
}
