//! `bot bench`.

use std::process::ExitCode;

use anyhow::Result;

use super::args::BenchArgs;

pub fn run(_args: &BenchArgs) -> Result<ExitCode> {
    anyhow::bail!("`bot bench` is not built yet")
}
