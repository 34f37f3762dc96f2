//! `bot --dry-run IMAGE|DIR...`: reads the board in each image with the
//! calibration, prints it with the lowest cell confidence and solves it,
//! printing the solution as `bot solve` does; writes into `--out` the
//! image annotated with the grid, the letters read and the click order,
//! and a storyboard of the board after each move. With `--json`, one
//! object per image: the reading and `bot solve --json`'s object. An image
//! that cannot be read is reported (its unsure cells marked in a debug
//! picture when it has a board) and the run exits 2 at the end.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use image::RgbaImage;
use serde_json::json;

use super::args::PlayArgs;
use super::solve::{describe, improvement_line, outcome_json};
use super::{PlaySettings, play_settings, show};
use crate::game::Cell;
use crate::render::{self, Look};
use crate::solver::{self, SolveOptions};
use crate::vision::{self, Calibration};

pub fn run(images: &[PathBuf], args: &PlayArgs) -> Result<ExitCode> {
    if images.is_empty() {
        bail!("--dry-run needs images or folders of images (or --window TEXT)");
    }
    let PlaySettings {
        calibration,
        solve: options,
        ..
    } = play_settings(args)?;
    let mut failed = false;
    for (image, listed) in expand(images) {
        match listed.and_then(|()| dry_run(&image, &calibration, &options, args)) {
            Ok(json) => {
                if args.json {
                    show(&format!("{json}\n"));
                }
            }
            Err(error) => {
                failed = true;
                if args.json {
                    let json = json!({"image": image.display().to_string(), "error": format!("{error:#}")});
                    show(&format!("{json}\n"));
                } else {
                    eprintln!("error: {error:#}");
                }
            }
        }
    }
    Ok(if failed {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    })
}

/// The images named: files as given, folders as their PNG and JPEG files
/// in name order. A folder that cannot be listed or holds no image stays as
/// an error, reported with the rest.
fn expand(paths: &[PathBuf]) -> Vec<(PathBuf, Result<()>)> {
    let mut images = Vec::new();
    for path in paths {
        if !path.is_dir() {
            images.push((path.clone(), Ok(())));
            continue;
        }
        let listing = match fs::read_dir(path) {
            Ok(listing) => listing,
            Err(e) => {
                let error = anyhow::anyhow!("{}: cannot list the folder: {e}", path.display());
                images.push((path.clone(), Err(error)));
                continue;
            }
        };
        let mut found: Vec<PathBuf> = listing
            .filter_map(|entry| entry.ok().map(|e| e.path()))
            .filter(|p| {
                p.extension().is_some_and(|e| {
                    let e = e.to_string_lossy().to_ascii_lowercase();
                    matches!(e.as_str(), "png" | "jpg" | "jpeg")
                })
            })
            .collect();
        found.sort();
        if found.is_empty() {
            let error = anyhow::anyhow!("{}: no PNG or JPEG image in the folder", path.display());
            images.push((path.clone(), Err(error)));
        }
        images.extend(found.into_iter().map(|p| (p, Ok(()))));
    }
    images
}

/// Reads, solves and draws one image, printing as it goes unless
/// `--json`; returns the image's JSON object. An image whose reading is
/// unsure gets its debug picture (the unsure cells marked) before the
/// error.
fn dry_run(
    path: &Path,
    calibration: &Calibration,
    options: &SolveOptions,
    args: &PlayArgs,
) -> Result<serde_json::Value> {
    let image = vision::load(path)?;
    let name = path.display();
    let reading = vision::read(&image, calibration, None).with_context(|| name.to_string())?;
    let board = match reading.board() {
        Ok(board) => board,
        Err(error) => {
            let debug = write(
                &args.out,
                path,
                "",
                &render::annotate(&image, &reading, &[]),
            )?;
            bail!("{name}: {error} (marked in {})", debug.display());
        }
    };
    let say = |text: &str| {
        if !args.json {
            show(text);
        }
    };
    say(&format!(
        "{name}: board read (lowest confidence {:.2})\n{}{board}\n",
        reading.min_confidence(),
        board.grid(),
    ));
    let outcome = solver::solve(&board, options, &mut |found| {
        say(&format!("{}\n", improvement_line(found)));
    });
    say(&describe(&outcome, false));
    let clicks: Vec<Cell> = outcome.moves.iter().map(|s| s.cell).collect();
    let annotated = write(
        &args.out,
        path,
        "",
        &render::annotate(&image, &reading, &clicks),
    )?;
    let look = Look::from_calibration(calibration);
    let story = write(
        &args.out,
        path,
        "-storyboard",
        &render::storyboard(&board, &outcome.moves, &look),
    )?;
    say(&format!(
        "wrote {} and {}\n",
        annotated.display(),
        story.display()
    ));
    let g = reading.geometry;
    Ok(json!({
        "image": path.display().to_string(),
        "board": board.to_string(),
        "min_confidence": round2(reading.min_confidence()),
        "geometry": {"x": round2(g.x), "y": round2(g.y), "pitch_x": round2(g.pitch_x), "pitch_y": round2(g.pitch_y)},
        "solution": outcome_json(&board, &outcome),
    }))
}

fn round2(v: f32) -> f64 {
    (f64::from(v) * 100.0).round() / 100.0
}

/// Writes `picture` as `OUT/STEM{suffix}.png` and returns its path.
fn write(out: &Path, image: &Path, suffix: &str, picture: &RgbaImage) -> Result<PathBuf> {
    fs::create_dir_all(out)
        .with_context(|| format!("{}: cannot create the folder", out.display()))?;
    let stem = image
        .file_stem()
        .map_or_else(|| "image".into(), |s| s.to_string_lossy().into_owned());
    let path = out.join(format!("{stem}{suffix}.png"));
    picture
        .save(&path)
        .with_context(|| format!("{}: cannot write it", path.display()))?;
    Ok(path)
}
