//! `bot windows`.

use std::process::ExitCode;

use anyhow::Result;

pub fn run() -> Result<ExitCode> {
    anyhow::bail!("`bot windows` is not built yet")
}
