//! `bot calibrate SCREENSHOT...`: learns a calibration from screenshots of
//! known boards (each with its `--board`, or folders of `NAME.png` with
//! `NAME.board`), or from one screenshot by grouping the pile colours and
//! asking; checks it by re-reading every screenshot, and only then writes
//! `calibration/NAME.toml` whole (with `--window`, and the window's
//! screenshot, both or neither), never over a file without `--force`.

use std::io::{BufRead, Read};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};

use super::args::CalibrateArgs;
use super::{say, show};
use crate::game::{Board, NODIATIS_HEIGHT, NODIATIS_WIDTH};
use crate::{files, vision};

pub fn run(args: &CalibrateArgs) -> Result<ExitCode> {
    // Ctrl-C never leaves a temporary file behind.
    crate::files::exit_on_ctrl_c().context("cannot catch Ctrl-C")?;
    let path = destination(&args.name)?;
    let kept = args.window.as_ref().map(|_| window_shot(&args.name));
    // Every file the run writes is settled before the work; the write
    // itself refuses a name taken meanwhile (see `save`).
    check_written(args, std::iter::once(&path).chain(&kept))?;
    files::check_folder(&files::folder_of(&path))
        .with_context(|| format!("{}: cannot write it", path.display()))?;
    let shots = screenshots(args)?;
    let shots: Vec<(PathBuf, image::RgbaImage, Board)> =
        if shots.iter().all(|(_, _, truth)| truth.is_some()) {
            shots
                .into_iter()
                .filter_map(|(path, image, truth)| Some((path, image, truth?)))
                .collect()
        } else {
            let [(path, image, _)] = <[_; 1]>::try_from(shots).map_err(|_| {
                anyhow::anyhow!("several screenshots need a --board each (or NAME.board files)")
            })?;
            let screenshot = path.display();
            let board = vision::propose(&image, None, NODIATIS_WIDTH, NODIATIS_HEIGHT)
                .with_context(|| screenshot.to_string())?;
            say!(
                "Board read from {screenshot} (colours named by hue):\n{}",
                board.grid()
            );
            say!("{board}");
            if !args.yes && !confirm("Is this the board in the screenshot?")? {
                bail!("not confirmed: nothing written (give the true board with --board)");
            }
            vec![(path, image, board)]
        };
    let known: Vec<(&image::RgbaImage, &Board)> = shots
        .iter()
        .map(|(_, image, truth)| (image, truth))
        .collect();
    let calibration = vision::learn_from(&known).context(names(&shots))?;
    let mut lowest: f32 = 1.0;
    for (path, image, board) in &shots {
        let screenshot = path.display();
        let reading = vision::read(image, &calibration, None)
            .with_context(|| format!("{screenshot}: re-reading with the new calibration"))?;
        say!(
            "{screenshot}: cell confidences with the new calibration (threshold {}):",
            reading.threshold
        );
        show(&reading.confidence_grid().to_string());
        let read = reading.board().with_context(|| {
            format!("{screenshot}: the new calibration does not read it back; nothing written")
        })?;
        if read != *board {
            bail!("{screenshot}: the new calibration reads {read}, not {board}; nothing written");
        }
        lowest = lowest.min(reading.min_confidence());
    }
    save(
        &calibration,
        &path,
        kept.map(|kept| (kept, &shots[0].1)),
        args.force,
    )?;
    say!("wrote {} (lowest confidence {lowest:.2})", path.display());
    Ok(ExitCode::SUCCESS)
}

/// Refuses a file the run would write over (without `--force`), or one
/// that is an input.
fn check_written<'a>(
    args: &CalibrateArgs,
    written: impl Iterator<Item = &'a PathBuf>,
) -> Result<()> {
    for written in written {
        // A link counts, even one to nothing: it is someone's file name.
        if written.symlink_metadata().is_ok() && !args.force {
            bail!(
                "{}: already exists (use --force to overwrite it)",
                written.display()
            );
        }
        if let Some(input) = args
            .screenshots
            .iter()
            .find(|input| files::same_file(written, input))
        {
            bail!(
                "{} would replace the input {}: nothing done, choose another --name",
                written.display(),
                input.display()
            );
        }
    }
    Ok(())
}

/// Writes the calibration and the window's screenshot (kept for a later
/// calibration with more screenshots), both or neither: the screenshot
/// first, removed again when the calibration cannot be written.
fn save(
    calibration: &vision::Calibration,
    path: &Path,
    kept: Option<(PathBuf, &image::RgbaImage)>,
    force: bool,
) -> Result<()> {
    let existing = if force {
        files::Existing::Replace
    } else {
        files::Existing::Keep
    };
    if let Some((kept, image)) = &kept {
        std::fs::create_dir_all(files::folder_of(kept))
            .and_then(|()| files::save_png(kept, image, existing))
            .with_context(|| {
                format!(
                    "{}: cannot keep the window's screenshot; nothing written",
                    kept.display()
                )
            })?;
    }
    if let Err(error) = calibration.save(path, force) {
        if let Some((kept, _)) = &kept {
            // A replaced screenshot is gone either way; a new one goes.
            if !force {
                let _ = std::fs::remove_file(kept);
            }
        }
        return Err(error).context("nothing written");
    }
    if let Some((kept, _)) = &kept {
        say!("kept the window's screenshot as {}", kept.display());
    }
    Ok(())
}

/// Where `--window`'s screenshot is kept: `calibration/NAME-window.png`.
fn window_shot(name: &str) -> PathBuf {
    Path::new("calibration").join(format!("{name}-window.png"))
}

/// A screenshot, its pixels and its board when known.
type Screenshot = (PathBuf, image::RgbaImage, Option<Board>);

/// The screenshots named, loaded, each with its board: the `--board`s in
/// order for the files given, `NAME.board` for the images of a folder.
fn screenshots(args: &CalibrateArgs) -> Result<Vec<Screenshot>> {
    let files = args.screenshots.iter().filter(|p| !p.is_dir()).count()
        + usize::from(args.window.is_some());
    if !args.board.is_empty() && args.board.len() != files {
        bail!(
            "{} --board for {files} screenshot file(s): give one after each",
            args.board.len()
        );
    }
    let mut boards = args.board.iter();
    let mut shots = Vec::new();
    if let Some(query) = &args.window {
        let truth = boards
            .next()
            .map(|text| board(text, "--board"))
            .transpose()?;
        shots.push((
            window_shot(&args.name),
            window_image(query, args.countdown)?,
            truth,
        ));
    }
    for path in &args.screenshots {
        if path.is_dir() {
            shots.extend(folder(path)?);
            continue;
        }
        let truth = boards
            .next()
            .map(|text| board(text, "--board"))
            .transpose()?;
        shots.push((path.clone(), vision::load(path)?, truth));
    }
    Ok(shots)
}

/// A picture of the live window's client area, after a countdown for the
/// user to move the mouse off the board (the pile under it may be lit).
fn window_image(query: &str, countdown: u64) -> Result<image::RgbaImage> {
    let mut desktop = crate::desktop::system();
    let mut window = crate::live::find::by_text(&mut desktop, query)?;
    for left in (1..=countdown).rev() {
        say!(
            "taking the screenshot of {:?} in {left} s: move the mouse off the board",
            window.info().title
        );
        std::thread::sleep(std::time::Duration::from_secs(1));
    }
    Ok(window.capture_client()?)
}

/// The PNG and JPEG images of `dir` that have a `NAME.board` beside them,
/// in name order.
fn folder(dir: &Path) -> Result<Vec<Screenshot>> {
    let listing =
        std::fs::read_dir(dir).with_context(|| format!("{}: cannot list it", dir.display()))?;
    let mut images: Vec<PathBuf> = listing
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.extension().is_some_and(|e| {
                matches!(
                    e.to_string_lossy().to_ascii_lowercase().as_str(),
                    "png" | "jpg" | "jpeg"
                )
            })
        })
        .collect();
    images.sort();
    // An image without its board is not learned from: said, not hidden.
    images.retain(|p| {
        let truth = p.with_extension("board");
        let known = truth.symlink_metadata().is_ok();
        if !known {
            log::warn!(
                "{}: skipped, no {} beside it",
                p.display(),
                truth.file_name().unwrap_or_default().to_string_lossy()
            );
        }
        known
    });
    if images.is_empty() {
        bail!("{}: no image with a NAME.board beside it", dir.display());
    }
    images
        .into_iter()
        .map(|path| {
            let truth_path = path.with_extension("board");
            let text = files::read_text(&truth_path, files::MAX_BOARD_BYTES, "a board file")
                .with_context(|| format!("{}: cannot read it", truth_path.display()))?;
            let truth = board(text.trim_end(), &truth_path.display().to_string())?;
            Ok((path.clone(), vision::load(&path)?, Some(truth)))
        })
        .collect()
}

/// A board string of the real game's shape; errors name `source`.
fn board(text: &str, source: &str) -> Result<Board> {
    Board::parse_sized(text, NODIATIS_WIDTH, NODIATIS_HEIGHT)
        .with_context(|| format!("{source} {}", crate::text::excerpt(text)))
}

/// The screenshots' names, for an error about them all.
fn names<T>(shots: &[(PathBuf, image::RgbaImage, T)]) -> String {
    shots
        .iter()
        .map(|(p, _, _)| p.display().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The longest calibration name: with `-window.png` after it, a file name
/// every file system takes.
const MAX_NAME: usize = 64;

/// `calibration/NAME.toml` in the current folder; NAME is a plain file name.
fn destination(name: &str) -> Result<PathBuf> {
    let plain = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if !plain {
        bail!(
            "--name {}: use letters, digits, '-' and '_' only",
            crate::text::excerpt(name)
        );
    }
    if name.len() > MAX_NAME {
        bail!(
            "--name {}: at most {MAX_NAME} characters",
            crate::text::excerpt(name)
        );
    }
    Ok(Path::new("calibration").join(format!("{name}.toml")))
}

/// The longest answer read: a "yes" and room for spaces; more is no
/// answer (and an endless standard input is not read to its end).
const MAX_ANSWER: u64 = 64;

/// Asks a yes/no question on stdin; anything but "y" or "yes" is no.
fn confirm(question: &str) -> Result<bool> {
    if !show(&format!("{question} [y/N] ")) {
        bail!("cannot ask {question:?}: standard output cannot be written");
    }
    let mut answer = Vec::new();
    std::io::stdin()
        .lock()
        .take(MAX_ANSWER)
        .read_until(b'\n', &mut answer)
        .context("reading the answer from stdin")?;
    let answer = String::from_utf8_lossy(&answer);
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
        for bad in [
            "",
            "../x",
            "a/b",
            "x.toml",
            "a b",
            &"n".repeat(MAX_NAME + 1),
        ] {
            assert!(destination(bad).is_err(), "{bad:?}");
        }
        assert!(destination(&"n".repeat(MAX_NAME)).is_ok());
    }
}
