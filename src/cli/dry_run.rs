//! `bot --dry-run IMAGE|DIR...`: reads the board in each image with the
//! calibration, prints it with the lowest cell confidence, and writes an
//! annotated copy of the image (and a storyboard) into `--out`. An image
//! that cannot be read is reported and the run exits 2 at the end.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use serde_json::json;

use super::args::PlayArgs;
use crate::game::Board;
use crate::vision::{self, Calibration, Reading};

pub fn run(images: &[PathBuf], args: &PlayArgs) -> Result<ExitCode> {
    if images.is_empty() {
        bail!("--dry-run needs images or folders of images (or --window TEXT)");
    }
    let calibration_path = args
        .calibration
        .clone()
        .unwrap_or_else(Calibration::default_path);
    let calibration = Calibration::load(&calibration_path)?;
    let mut failed = false;
    for (image, listed) in expand(images) {
        match listed.and_then(|()| dry_run(&image, &calibration, args)) {
            Ok(report) => {
                if args.json {
                    println!("{}", report.json);
                } else {
                    print!("{}", report.text);
                }
            }
            Err(error) => {
                failed = true;
                if args.json {
                    println!(
                        "{}",
                        json!({"image": image.display().to_string(), "error": format!("{error:#}")})
                    );
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

struct Report {
    text: String,
    json: serde_json::Value,
}

fn dry_run(path: &Path, calibration: &Calibration, args: &PlayArgs) -> Result<Report> {
    let image = vision::load(path)?;
    let name = path.display();
    let reading = vision::read(&image, calibration, None).with_context(|| name.to_string())?;
    let board = match reading.board() {
        Ok(board) => board,
        Err(error) => {
            let debug = write_pictures(path, &image, &reading, calibration, None, &args.out)?;
            bail!("{name}: {error} (marked in {})", debug.display());
        }
    };
    let annotated = write_pictures(path, &image, &reading, calibration, Some(&board), &args.out)?;
    let text = format!(
        "{name}: board read (lowest confidence {:.2})\n{}{board}\nwrote {}\n",
        reading.min_confidence(),
        board.grid(),
        annotated.display()
    );
    Ok(Report {
        text,
        json: reading_json(path, &reading, &board),
    })
}

fn reading_json(path: &Path, reading: &Reading, board: &Board) -> serde_json::Value {
    let g = reading.geometry;
    json!({
        "image": path.display().to_string(),
        "board": board.to_string(),
        "min_confidence": round2(reading.min_confidence()),
        "geometry": {"x": round2(g.x), "y": round2(g.y), "pitch_x": round2(g.pitch_x), "pitch_y": round2(g.pitch_y)},
    })
}

fn round2(v: f32) -> f64 {
    (f64::from(v) * 100.0).round() / 100.0
}

/// Writes `OUT/STEM.png`, the annotated image, and returns its path.
fn write_pictures(
    path: &Path,
    image: &image::RgbaImage,
    reading: &Reading,
    calibration: &Calibration,
    _board: Option<&Board>,
    out: &Path,
) -> Result<PathBuf> {
    fs::create_dir_all(out)
        .with_context(|| format!("{}: cannot create the folder", out.display()))?;
    let stem = path
        .file_stem()
        .map_or_else(|| "image".into(), |s| s.to_string_lossy().into_owned());
    let annotated_path = out.join(format!("{stem}.png"));
    vision::annotate(image, reading, calibration, &[])
        .save(&annotated_path)
        .with_context(|| format!("{}: cannot write it", annotated_path.display()))?;
    Ok(annotated_path)
}
