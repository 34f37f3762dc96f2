//! `bot --dry-run IMAGE|DIR...`.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;

use super::args::PlayArgs;

pub fn run(_images: &[PathBuf], _args: &PlayArgs) -> Result<ExitCode> {
    anyhow::bail!("`bot --dry-run` is not built yet")
}
