//! `bot calibrate`.

use std::process::ExitCode;

use anyhow::Result;

use super::args::CalibrateArgs;

pub fn run(_args: &CalibrateArgs) -> Result<ExitCode> {
    anyhow::bail!("`bot calibrate` is not built yet")
}
