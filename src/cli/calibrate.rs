//! `bot calibrate SCREENSHOT`: learns a calibration from a screenshot (from
//! the true board with `--board`, else by grouping the pile colours and
//! asking), checks it by re-reading the screenshot, and only then writes
//! `calibration/NAME.toml` atomically, never over a file without `--force`.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};

use super::args::CalibrateArgs;
use crate::game::{Board, NODIATIS_HEIGHT, NODIATIS_WIDTH};
use crate::vision;

pub fn run(args: &CalibrateArgs) -> Result<ExitCode> {
    let path = destination(&args.name)?;
    // A link counts, even one to nothing: it is someone's file name.
    if path.symlink_metadata().is_ok() && !args.force {
        bail!(
            "{}: already exists (use --force to overwrite it)",
            path.display()
        );
    }
    let image = vision::load(&args.screenshot)?;
    let screenshot = args.screenshot.display();
    let (calibration, board) = match &args.board {
        Some(text) => {
            let truth = Board::parse_sized(text, NODIATIS_WIDTH, NODIATIS_HEIGHT)
                .with_context(|| format!("--board {text:?}"))?;
            let calibration =
                vision::learn(&image, &truth).with_context(|| screenshot.to_string())?;
            (calibration, truth)
        }
        None => {
            let (calibration, board) =
                vision::cluster_colours(&image, NODIATIS_WIDTH, NODIATIS_HEIGHT)
                    .with_context(|| screenshot.to_string())?;
            println!(
                "Board read from {screenshot} (colours named by hue):\n{}",
                board.grid()
            );
            println!("{board}");
            if !args.yes && !confirm("Is this the board in the screenshot?")? {
                bail!("not confirmed: nothing written (give the true board with --board)");
            }
            (calibration, board)
        }
    };
    let reading = vision::read(&image, &calibration, None)
        .with_context(|| format!("{screenshot}: re-reading with the new calibration"))?;
    println!(
        "Cell confidences with the new calibration (threshold {}):",
        reading.threshold
    );
    print!("{}", reading.confidence_grid());
    let read = reading.board().with_context(|| {
        format!("{screenshot}: the new calibration does not read it back; nothing written")
    })?;
    if read != board {
        bail!("{screenshot}: the new calibration reads {read}, not {board}; nothing written");
    }
    calibration.save(&path, args.force)?;
    println!(
        "wrote {} (lowest confidence {:.2})",
        path.display(),
        reading.min_confidence()
    );
    Ok(ExitCode::SUCCESS)
}

/// `calibration/NAME.toml` in the current folder; NAME is a plain file name.
fn destination(name: &str) -> Result<PathBuf> {
    let plain = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if !plain {
        bail!("--name {name:?}: use letters, digits, '-' and '_' only");
    }
    Ok(Path::new("calibration").join(format!("{name}.toml")))
}

/// Asks a yes/no question on stdin; anything but "y" or "yes" is no.
fn confirm(question: &str) -> Result<bool> {
    print!("{question} [y/N] ");
    std::io::stdout().flush()?;
    let mut answer = String::new();
    std::io::stdin()
        .lock()
        .read_line(&mut answer)
        .context("reading the answer from stdin")?;
    Ok(matches!(
        answer.trim().to_ascii_lowercase().as_str(),
        "y" | "yes"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_stay_in_the_calibration_folder() {
        assert_eq!(
            destination("nodiatis").unwrap(),
            Path::new("calibration/nodiatis.toml")
        );
        for bad in ["", "../x", "a/b", "x.toml", "a b"] {
            assert!(destination(bad).is_err(), "{bad:?}");
        }
    }
}
