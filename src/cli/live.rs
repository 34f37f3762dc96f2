//! `bot --window TEXT [--dry-run]`.

use std::process::ExitCode;

use anyhow::Result;

use super::args::PlayArgs;

pub fn run(_args: &PlayArgs) -> Result<ExitCode> {
    anyhow::bail!("`bot --window` is not built yet")
}
