//! `bot --dry-run IMAGE|DIR...`: reads the board in each image with the
//! calibration, prints it with the lowest cell confidence and solves it,
//! printing the solution as `bot solve` does; writes into `--out` the
//! image annotated with the grid, the letters read and the click order
//! (`NAME-annotated.png`), and a storyboard of the board after each move
//! (`NAME-storyboard.png`). Every output name is settled before any work:
//! two inputs never share one, and a run that would write over an input
//! is refused. With `--json`, one object per image: the reading and `bot
//! solve --json`'s object. An image that cannot be read is reported (its
//! unsure cells marked in its annotated picture when it has a board) and
//! the run exits 2 at the end.

use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use image::RgbaImage;
use serde_json::json;

use super::args::PlayArgs;
use super::{exit_code, report_failure, show};
use crate::app::look_of;
use crate::app::words::{describe, improvement_line, outcome_json};
use crate::game::Cell;
use crate::render;
use crate::solver::{self, SolveOptions, Strategy};
use crate::vision::{self, Calibration};

/// What the outputs' names end with; a folder's listing skips files that
/// end so, which are an earlier run's outputs, not screenshots.
const ANNOTATED: &str = "-annotated.png";
const STORYBOARD: &str = "-storyboard.png";

pub fn run(args: &PlayArgs) -> Result<ExitCode> {
    // Ctrl-C never leaves a temporary file behind.
    crate::files::exit_on_ctrl_c().context("cannot catch Ctrl-C")?;
    if args.images.is_empty() {
        bail!("--dry-run needs images or folders of images (or --window TEXT)");
    }
    let calibration = crate::app::calibration_now(args.calibration.as_deref())?
        .0
        .calibration;
    let options = args.solver.options(Strategy::Optimal, args.rules.start());
    let json = args.images_out.json;
    let images = expand(&args.images);
    let outputs = plan_outputs(&args.images_out.out, &images).context("--out")?;
    let mut failed = false;
    for ((image, listed), output) in images.iter().zip(&outputs) {
        let result = match listed {
            Ok(()) => dry_run(image, output, &calibration, &options, json),
            Err(error) => Err(anyhow::anyhow!("{error}")),
        };
        let open = match result {
            Ok(object) => !json || show(&format!("{object}\n")),
            Err(error) => {
                failed = true;
                report_failure(json, ("image", &image.display().to_string()), &error)
            }
        };
        if !open {
            // No one reads the answers any more.
            break;
        }
    }
    Ok(exit_code(failed))
}

/// The images named: files as given, folders as their PNG and JPEG files
/// in name order (less an earlier run's outputs). A folder that cannot be
/// listed or holds no image stays as an error, reported with the rest.
fn expand(paths: &[PathBuf]) -> Vec<(PathBuf, Result<(), String>)> {
    let mut images = Vec::new();
    for path in paths {
        if !path.is_dir() {
            images.push((path.clone(), Ok(())));
            continue;
        }
        let listing = match fs::read_dir(path) {
            Ok(listing) => listing,
            Err(e) => {
                let error = format!("{}: cannot list the folder: {e}", path.display());
                images.push((path.clone(), Err(error)));
                continue;
            }
        };
        let mut found: Vec<PathBuf> = listing
            .filter_map(|entry| entry.ok().map(|e| e.path()))
            .filter(|p| is_screenshot(p))
            .collect();
        found.sort();
        if found.is_empty() {
            let error = format!("{}: no PNG or JPEG image in the folder", path.display());
            images.push((path.clone(), Err(error)));
        }
        images.extend(found.into_iter().map(|p| (p, Ok(()))));
    }
    images
}

/// A PNG or JPEG file that is not one of our outputs.
fn is_screenshot(path: &Path) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    let image = [".png", ".jpg", ".jpeg"].iter().any(|e| name.ends_with(e));
    image && !name.ends_with(ANNOTATED) && !name.ends_with(STORYBOARD)
}

/// Where one image's pictures go.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Output {
    annotated: PathBuf,
    storyboard: PathBuf,
}

/// Makes sure `out` is a folder the run can write into, and names each
/// image's outputs there, all different, none of them an input (by the
/// files they are, through links): an error before any work otherwise,
/// so that nothing is lost, neither a file nor a long run's answers.
fn plan_outputs(out: &Path, images: &[(PathBuf, Result<(), String>)]) -> Result<Vec<Output>> {
    let display = out.display();
    if out.exists() && !out.is_dir() {
        bail!("{display}: not a folder");
    }
    fs::create_dir_all(out).with_context(|| format!("{display}: cannot create the folder"))?;
    crate::files::probe_folder(out)
        .with_context(|| format!("{display}: cannot write into the folder"))?;
    let folder = fs::canonicalize(out).with_context(|| format!("{display}: cannot resolve"))?;
    let paths: Vec<&Path> = images.iter().map(|(p, _)| p.as_path()).collect();
    let inputs: Vec<(PathBuf, &Path)> = paths
        .iter()
        .filter_map(|p| Some((fs::canonicalize(p).ok()?, *p)))
        .collect();
    let outputs: Vec<Output> = output_names(&paths)
        .into_iter()
        .map(|name| Output {
            annotated: out.join(format!("{name}{ANNOTATED}")),
            storyboard: out.join(format!("{name}{STORYBOARD}")),
        })
        .collect();
    for output in &outputs {
        for path in [&output.annotated, &output.storyboard] {
            // An existing output may be a link to an input; a new one is a
            // new name in the folder.
            let file = fs::canonicalize(path).unwrap_or_else(|_| {
                folder.join(path.file_name().expect("an output has a file name"))
            });
            if let Some((_, input)) = inputs.iter().find(|(real, _)| *real == file) {
                bail!(
                    "{} would replace the input {}: nothing done, choose another folder",
                    path.display(),
                    input.display()
                );
            }
        }
    }
    Ok(outputs)
}

/// A name for each image's outputs, in order and all different: its file's
/// stem; with the extension too when another image has the same stem
/// (`y.png`, `y.jpg`: `y-png`, `y-jpg`); with a number when that is still
/// taken (`a/x.png`, `b/x.png`: `x-png`, `x-png-2`).
fn output_names(images: &[&Path]) -> Vec<String> {
    let stem = |p: &Path| {
        p.file_stem()
            .map_or_else(|| "image".into(), |s| s.to_string_lossy().into_owned())
    };
    let stems: Vec<String> = images.iter().map(|p| stem(p)).collect();
    let bases: Vec<String> = images
        .iter()
        .zip(&stems)
        .map(|(p, s)| {
            if stems.iter().filter(|t| *t == s).count() == 1 {
                return s.clone();
            }
            let extension = p
                .extension()
                .map(|e| e.to_string_lossy().to_ascii_lowercase())
                .unwrap_or_default();
            format!("{s}-{extension}")
        })
        .collect();
    let mut taken = HashSet::new();
    bases
        .iter()
        .map(|base| {
            let mut name = base.clone();
            let mut n = 2;
            while taken.contains(&name) || (name != *base && bases.contains(&name)) {
                name = format!("{base}-{n}");
                n += 1;
            }
            taken.insert(name.clone());
            name
        })
        .collect()
}

/// Reads, solves and draws one image, printing as it goes unless
/// `--json`; returns the image's JSON object. An image whose reading is
/// unsure gets its annotated picture (the unsure cells marked) before the
/// error.
fn dry_run(
    path: &Path,
    output: &Output,
    calibration: &Calibration,
    options: &SolveOptions,
    json: bool,
) -> Result<serde_json::Value> {
    let image = vision::load(path)?;
    let name = path.display();
    let reading = vision::read(&image, calibration, None).with_context(|| name.to_string())?;
    let board = match reading.board() {
        Ok(board) => board,
        Err(error) => {
            write(&output.annotated, &annotated(&image, &reading, &[]))?;
            bail!("{name}: {error} (marked in {})", output.annotated.display());
        }
    };
    let say = |text: &str| {
        if !json {
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
    write(&output.annotated, &annotated(&image, &reading, &clicks))?;
    let look = look_of(calibration);
    write(
        &output.storyboard,
        &render::storyboard(&board, &outcome.moves, &look),
    )?;
    say(&format!(
        "wrote {} and {}\n",
        output.annotated.display(),
        output.storyboard.display()
    ));
    let g = reading.geometry;
    Ok(json!({
        "image": path.display().to_string(),
        "board": board.to_string(),
        "min_confidence": round2(reading.min_confidence()),
        "geometry": {"x": round2(g.x), "y": round2(g.y), "pitch_x": round2(g.pitch_x), "pitch_y": round2(g.pitch_y)},
        "solution": outcome_json(&board, &outcome),
        "annotated": output.annotated.display().to_string(),
        "storyboard": output.storyboard.display().to_string(),
    }))
}

/// The capture annotated with what was read and the clicks planned.
fn annotated(image: &RgbaImage, reading: &vision::Reading, clicks: &[Cell]) -> RgbaImage {
    let marks: Vec<render::CellMark> = reading.marks().map(Into::into).collect();
    render::annotate(image, &reading.geometry, &marks, clicks)
}

fn round2(v: f32) -> f64 {
    (f64::from(v) * 100.0).round() / 100.0
}

fn write(path: &Path, picture: &RgbaImage) -> Result<()> {
    crate::files::save_png(path, picture, crate::files::Existing::Replace)
        .with_context(|| format!("{}: cannot write it", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(paths: &[&str]) -> Vec<String> {
        let paths: Vec<&Path> = paths.iter().map(Path::new).collect();
        output_names(&paths)
    }

    #[test]
    fn every_image_gets_its_own_name() {
        assert_eq!(names(&["a/x.png", "b/y.jpg"]), ["x", "y"]);
        assert_eq!(names(&["y.png", "y.JPG"]), ["y-png", "y-jpg"]);
        assert_eq!(names(&["a/x.png", "b/x.png"]), ["x-png", "x-png-2"]);
        // A number never takes the name of another image.
        assert_eq!(
            names(&["a/x.png", "b/x.png", "c/x-png-2.png"]),
            ["x-png", "x-png-3", "x-png-2"]
        );
    }

    #[test]
    fn a_folder_skips_earlier_outputs() {
        assert!(is_screenshot(Path::new("d/shot.PNG")));
        assert!(is_screenshot(Path::new("d/shot.jpeg")));
        assert!(!is_screenshot(Path::new("d/shot-annotated.png")));
        assert!(!is_screenshot(Path::new("d/shot-storyboard.png")));
        assert!(!is_screenshot(Path::new("d/shot.board")));
    }
}
