//! `bot --dry-run` through the real binary: reads the real screenshot and
//! every bundled sample with the default calibration (the one built in
//! when the bot is alone in a folder), prints the board and the solution
//! as `bot solve` does, writes the annotated picture and the storyboard,
//! speaks JSON with `bot solve --json`'s object inside, and turns every
//! kind of bad input into a one-line error and exit 2.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::{Command, Stdio};

use dustbot::game::{Board, Cell, replay};

use crate::vision_support::*;

/// The clicks of a `bot solve --json` object.
fn clicks(solution: &serde_json::Value) -> Vec<Cell> {
    solution["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            Cell::new(
                m["x"].as_u64().unwrap() as u8,
                m["y"].as_u64().unwrap() as u8,
            )
        })
        .collect()
}

fn keys(object: &serde_json::Value) -> BTreeSet<String> {
    object.as_object().unwrap().keys().cloned().collect()
}

#[test]
fn reads_the_real_screenshot_solves_it_and_writes_the_pictures() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("pictures");
    let out = bot(
        dir.path(),
        &["--dry-run", &real_png(), "--out", out_dir.to_str().unwrap()],
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains(&real_board().to_string()), "{stdout}");
    assert!(stdout.contains("lowest confidence"), "{stdout}");
    // The grid with coordinates, then the solution as `bot solve` prints
    // it: the article proved 11 optimal for this board.
    assert!(stdout.contains("5 | G G G G B O Y O"), "{stdout}");
    assert!(stdout.contains("11 moves, proven optimal"), "{stdout}");
    let solve = bot(dir.path(), &["solve", &real_board().to_string()]);
    let moves = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| l.contains(". click "))
            .map(str::to_owned)
            .collect()
    };
    let listed = moves(&stdout);
    assert_eq!(listed.len(), 11, "{stdout}");
    assert_eq!(
        listed.len(),
        moves(&String::from_utf8_lossy(&solve.stdout)).len()
    );
    let annotated = image::open(out_dir.join("dust-game-annotated.png")).unwrap();
    assert_eq!((annotated.width(), annotated.height()), (643, 470));
    let story = image::open(out_dir.join("dust-game-storyboard.png")).unwrap();
    // Twelve panels (the start and 11 boards) side by side in rows.
    assert!(story.width() > 3 * 8 * 20 && story.height() > 2 * 6 * 20);
}

#[test]
fn json_gives_one_object_per_image_and_errors_in_line() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bad.png"), "no").unwrap();
    let out = bot(
        dir.path(),
        &["--dry-run", &real_png(), "bad.png", "--json", "--out", "o"],
    );
    assert_eq!(out.status.code(), Some(2));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2, "{stdout}");
    let read = &lines[0];
    assert_eq!(
        keys(read),
        [
            "annotated",
            "board",
            "geometry",
            "image",
            "min_confidence",
            "solution",
            "storyboard"
        ]
        .map(String::from)
        .into(),
    );
    assert_eq!(read["board"], real_board().to_string());
    assert!(read["min_confidence"].as_f64().unwrap() > 0.5);
    let pitch = read["geometry"]["pitch_x"].as_f64().unwrap();
    assert!((pitch - 80.0).abs() < 2.0, "{pitch}");
    // "solution" is the object `bot solve --json` prints for the board.
    let solve = bot(dir.path(), &["solve", "--json", &real_board().to_string()]);
    let solved: serde_json::Value =
        serde_json::from_str(String::from_utf8_lossy(&solve.stdout).trim()).unwrap();
    let solution = &read["solution"];
    assert_eq!(keys(solution), keys(&solved));
    for key in ["board", "length", "proven_optimal", "lower_bound"] {
        assert_eq!(solution[key], solved[key], "{key}");
    }
    let steps = replay(&real_board(), &clicks(solution)).unwrap();
    assert!(steps.last().unwrap().board_after.is_cleared());
    assert_eq!(lines[1]["image"], "bad.png");
    assert_eq!(keys(&lines[1]), ["error", "image"].map(String::from).into());
    assert!(lines[1]["error"].as_str().unwrap().contains("bad.png"));
}

#[test]
fn every_sample_in_the_folder_reads_exactly_and_its_plan_clears_it() {
    let dir = tempfile::tempdir().unwrap();
    let samples_dir = repo("samples");
    let out = bot(
        dir.path(),
        &[
            "--dry-run",
            samples_dir.to_str().unwrap(),
            "--json",
            "--time",
            "5",
            "--out",
            "o",
        ],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let samples = samples();
    assert!(samples.len() >= 9, "the bundled samples");
    let lines: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), samples.len(), "{stdout}");
    for ((path, _, truth), line) in samples.iter().zip(&lines) {
        assert_eq!(line["board"], truth.to_string(), "{}", path.display());
        let board: Board = line["board"].as_str().unwrap().parse().unwrap();
        let steps = replay(&board, &clicks(&line["solution"])).unwrap();
        assert!(
            steps.last().is_some_and(|s| s.board_after.is_cleared()),
            "{}",
            path.display()
        );
        let stem = path.file_stem().unwrap().to_string_lossy();
        for suffix in ["-annotated", "-storyboard"] {
            let picture = dir.path().join(format!("o/{stem}{suffix}.png"));
            assert!(picture.exists(), "{}", picture.display());
        }
    }
}

#[test]
fn bad_images_and_calibrations_are_one_line_errors() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write_bad_images(d);
    let calibration = std::fs::read_to_string(repo("calibration/nodiatis.toml")).unwrap();
    std::fs::write(
        d.join("v2.toml"),
        calibration.replace("version = 1", "version = 2"),
    )
    .unwrap();
    std::fs::write(d.join("broken.toml"), &calibration[..calibration.len() / 2]).unwrap();
    std::fs::create_dir(d.join("empty")).unwrap();
    let cases: [(&[&str], &str); 8] = [
        (
            &["--dry-run", "empty"],
            "empty: no PNG or JPEG image in the folder",
        ),
        (&["--dry-run", "missing.png"], "missing.png: cannot read it"),
        (&["--dry-run", "notes.png"], "notes.png: not a PNG or JPEG"),
        (
            &["--dry-run", "truncated.png"],
            "truncated.png: broken image",
        ),
        (&["--dry-run", "grey.png"], "grey.png: no board found"),
        (
            &["--dry-run", &real_png(), "--calibration", "none.toml"],
            "none.toml: cannot read it",
        ),
        (
            &["--dry-run", &real_png(), "--calibration", "v2.toml"],
            "v2.toml: format version 2",
        ),
        (
            &["--dry-run", &real_png(), "--calibration", "broken.toml"],
            "broken.toml",
        ),
    ];
    for (args, what) in cases {
        assert_one_line_error(&bot(d, &[args, &["--out", "o"]].concat()), what);
    }
    let written = std::fs::read_dir(d.join("o")).map_or(0, Iterator::count);
    assert_eq!(written, 0, "nothing written");
}

#[test]
fn a_sixth_kind_of_pile_is_refused_and_marked() {
    let dir = tempfile::tempdir().unwrap();
    let (mut image, _) = real();
    // Turn the pile at (3,3) (top-left origin ~(0,-4), pitch ~80) white-violet.
    for y in 140..220 {
        for x in 250..315 {
            let p = image.get_pixel_mut(x, y);
            let [r, g, b, _] = p.0;
            if u16::from(r).abs_diff(u16::from(g)) > 25 || u16::from(g).abs_diff(u16::from(b)) > 25
            {
                p.0 = [150, 120, 250, 255];
            }
        }
    }
    image.save(dir.path().join("sixth.png")).unwrap();
    let out = bot(dir.path(), &["--dry-run", "sixth.png", "--out", "o"]);
    assert_one_line_error(&out, "(3,3)");
    assert!(
        dir.path().join("o/sixth-annotated.png").exists(),
        "the debug picture marks it"
    );
}

/// A copy of a bundled sample at `to` (creating its folder): a mid-game
/// one, proven optimal in milliseconds, as the tests that copy it are about
/// files and arguments, not the search (a full board's proof takes
/// seconds).
fn copy_sample(to: &std::path::Path) {
    std::fs::create_dir_all(to.parent().unwrap()).unwrap();
    std::fs::copy(repo("samples/mid-0.75x-window.png"), to).unwrap();
}

#[test]
fn outputs_never_replace_an_input_even_in_its_own_folder() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    copy_sample(&d.join("o/v.png"));
    let before = std::fs::read(d.join("o/v.png")).unwrap();
    let out = bot(d, &["--dry-run", "o/v.png", "--out", "o"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(std::fs::read(d.join("o/v.png")).unwrap(), before);
    assert!(d.join("o/v-annotated.png").exists());
    assert!(d.join("o/v-storyboard.png").exists());
    // Run again on the whole folder: the earlier outputs are not read as
    // screenshots, and the input is still untouched.
    let again = bot(d, &["--dry-run", "o", "--out", "o", "--json"]);
    let stdout = String::from_utf8_lossy(&again.stdout);
    assert!(again.status.success(), "{stdout}");
    assert_eq!(stdout.lines().count(), 1, "{stdout}");
    assert_eq!(std::fs::read(d.join("o/v.png")).unwrap(), before);
}

#[test]
fn inputs_with_the_same_name_get_outputs_of_their_own() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    copy_sample(&d.join("a/x.png"));
    std::fs::copy(repo("samples/late-0.5x-window.png"), d.join("b-x.png")).unwrap();
    std::fs::create_dir(d.join("b")).unwrap();
    std::fs::rename(d.join("b-x.png"), d.join("b/x.png")).unwrap();
    std::fs::copy(repo("samples/mid-1.25x-window.jpg"), d.join("a/x.jpg")).unwrap();
    let out = bot(
        d,
        &[
            "--dry-run",
            "a/x.png",
            "b/x.png",
            "a/x.jpg",
            "--out",
            "o",
            "--json",
        ],
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    let lines: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let annotated: BTreeSet<String> = lines
        .iter()
        .map(|l| l["annotated"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(annotated.len(), 3, "{stdout}");
    for line in &lines {
        for key in ["annotated", "storyboard"] {
            let path = d.join(line[key].as_str().unwrap());
            assert!(path.exists(), "{}", path.display());
        }
    }
    // Each output is its own image's: the storyboards differ.
    let boards: BTreeSet<&str> = lines.iter().map(|l| l["board"].as_str().unwrap()).collect();
    assert_eq!(boards.len(), 3);
}

#[test]
fn an_output_that_would_replace_an_input_stops_the_run_before_any_work() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    copy_sample(&d.join("o/v.png"));
    copy_sample(&d.join("o/v-annotated.png"));
    let listing = || {
        let mut names: Vec<_> = std::fs::read_dir(d.join("o"))
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        names.sort();
        names
    };
    let before = listing();
    let out = bot(
        d,
        &[
            "--dry-run",
            "o/v.png",
            "o/v-annotated.png",
            "--out",
            "o",
            "--json",
        ],
    );
    assert_one_line_error(&out, "would replace the input o/v-annotated.png");
    assert!(out.stdout.is_empty(), "no work done");
    assert_eq!(listing(), before);
    // Through a link too (Windows makes links for administrators only).
    #[cfg(unix)]
    {
        std::fs::create_dir(d.join("p")).unwrap();
        std::os::unix::fs::symlink(d.join("o/v.png"), d.join("p/w-annotated.png")).unwrap();
        let out = bot(d, &["--dry-run", "o/v.png", "p/w.png", "--out", "p"]);
        assert_one_line_error(&out, "would replace the input o/v.png");
    }
}

#[test]
fn an_out_folder_that_cannot_be_written_is_refused_before_solving() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("file"), "a file").unwrap();
    for out_dir in ["file", "file/sub"] {
        let out = bot(d, &["--dry-run", &real_png(), "--json", "--out", out_dir]);
        assert_one_line_error(&out, out_dir);
        assert!(out.stdout.is_empty(), "no answer printed and lost");
    }
    assert_eq!(std::fs::read_to_string(d.join("file")).unwrap(), "a file");
}

#[test]
fn options_may_come_before_or_after_the_images() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let sample = repo("samples/mid-0.75x-window.png").display().to_string();
    let orders: [&[&str]; 3] = [
        &["--dry-run", "--json", "--out", "o1", &sample],
        &[&sample, "--dry-run", "--out", "o2", "--json"],
        &["--json", &sample, "--out", "o3", "--dry-run", "--time", "5"],
    ];
    for (i, args) in orders.into_iter().enumerate() {
        let out = bot(d, args);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let line: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap();
        assert!(line["board"].is_string(), "{stdout}");
        assert!(d.join(format!("o{}", i + 1)).is_dir());
    }
    // Images need --dry-run, and the help shows where they go.
    assert_one_line_error(&bot(d, &[&sample]), "--dry-run");
    let help = bot(d, &["--help"]);
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(help.contains("[IMAGE|DIR]..."), "{help}");
}

#[test]
fn threads_are_bounded_on_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let png = real_png();
    for threads in ["0", "257", "40000", "18446744073709551615"] {
        let commands: [&[&str]; 4] = [
            &["--dry-run", &png, "--threads", threads],
            &["--window", "Nodiatis", "--threads", threads],
            &["solve", "GG,RR", "--threads", threads],
            &["bench", "--boards", "1", "--threads", threads],
        ];
        for args in commands {
            let out = bot(d, args);
            assert_one_line_error(&out, "--threads");
            assert!(
                String::from_utf8_lossy(&out.stderr).contains("from 1 to 256"),
                "{args:?}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
    assert!(!d.join("dry-run").exists());
}

/// A PNG header claiming `width` x `height` grey pixels, with an empty
/// image data chunk: what a decompression bomb shows before its data.
fn png_header(width: u32, height: u32) -> Vec<u8> {
    fn crc32(bytes: &[u8]) -> u32 {
        let mut crc = 0xffff_ffffu32;
        for &byte in bytes {
            crc ^= u32::from(byte);
            for _ in 0..8 {
                crc = if crc & 1 == 1 {
                    0xedb8_8320 ^ (crc >> 1)
                } else {
                    crc >> 1
                };
            }
        }
        !crc
    }
    let chunk = |kind: &[u8], data: &[u8]| {
        let mut out = (data.len() as u32).to_be_bytes().to_vec();
        let body = [kind, data].concat();
        out.extend_from_slice(&body);
        out.extend_from_slice(&crc32(&body).to_be_bytes());
        out
    };
    let mut ihdr = width.to_be_bytes().to_vec();
    ihdr.extend_from_slice(&height.to_be_bytes());
    ihdr.extend_from_slice(&[8, 0, 0, 0, 0]);
    [
        b"\x89PNG\r\n\x1a\n".to_vec(),
        chunk(b"IHDR", &ihdr),
        chunk(b"IDAT", &[]),
        chunk(b"IEND", &[]),
    ]
    .concat()
}

#[test]
fn an_image_too_large_for_any_screen_is_refused_from_its_header() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("bomb.png"), png_header(22_000, 22_000)).unwrap();
    let out = bot(d, &["--dry-run", "bomb.png", "--out", "o"]);
    assert_one_line_error(
        &out,
        "bomb.png: 22000x22000 pixels is more than the 40 megapixels",
    );
    let board = real_board().to_string();
    let out = bot(
        d,
        &["calibrate", "bomb.png", "--board", &board, "--name", "x"],
    );
    assert_one_line_error(&out, "22000x22000 pixels");
    // An 8K screen's capture is not refused for its size (its data is
    // missing, which is the error).
    std::fs::write(d.join("8k.png"), png_header(7680, 4320)).unwrap();
    let out = bot(d, &["--dry-run", "8k.png", "--out", "o"]);
    assert_one_line_error(&out, "8k.png: broken image");
}

#[test]
fn a_calibration_that_would_disable_the_safety_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let calibration = std::fs::read_to_string(repo("calibration/nodiatis.toml")).unwrap();
    assert!(calibration.contains("confidence = 0.5"));
    std::fs::write(
        d.join("blind.toml"),
        calibration.replace("confidence = 0.5", "confidence = 0"),
    )
    .unwrap();
    let out = bot(
        d,
        &[
            "--dry-run",
            &real_png(),
            "--calibration",
            "blind.toml",
            "--out",
            "o",
        ],
    );
    assert_one_line_error(
        &out,
        "blind.toml: thresholds.confidence = 0: must be from 0.3 to 0.95",
    );
}

/// A sample stored upside down with an EXIF orientation that turns it
/// upright, as a phone or an editor saves a picture: read (and calibrated
/// from) as viewers show it, not turned 180 degrees.
#[test]
fn a_picture_is_read_as_its_exif_orientation_shows_it() {
    let dir = tempfile::tempdir().unwrap();
    let sample = repo("samples/mid-1.25x-window.jpg");
    let truth = std::fs::read_to_string(repo("samples/mid-1.25x-window.board")).unwrap();
    let truth = truth.trim_end_matches('\n');
    let stored = image::imageops::rotate180(&image::open(&sample).unwrap().to_rgb8());
    let mut jpeg = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut jpeg, 95)
        .encode_image(&stored)
        .unwrap();
    std::fs::write(
        dir.path().join("turned.jpg"),
        with_exif_orientation(&jpeg, 3),
    )
    .unwrap();
    let out = bot(
        dir.path(),
        &["--dry-run", "--json", "--time", "1", "turned.jpg"],
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_str(text.trim()).unwrap();
    assert_eq!(json["board"], truth, "{json}");
    let out = bot(
        dir.path(),
        &[
            "calibrate",
            "turned.jpg",
            "--board",
            truth,
            "--name",
            "turned",
        ],
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(dir.path().join("calibration/turned.toml").is_file());
}

#[test]
fn the_bot_alone_in_an_empty_folder_reads_with_its_built_in_calibration() {
    // As Explorer runs an exe opened inside a zip: copied alone into a
    // folder of its own, no calibration beside it or above it.
    let dir = tempfile::tempdir().unwrap();
    let built = Path::new(env!("CARGO_BIN_EXE_bot"));
    let alone = dir.path().join(built.file_name().unwrap());
    std::fs::copy(built, &alone).unwrap();
    let sample = repo("samples/mid-1x-window.png");
    let out = output(
        in_own_folders(&mut Command::new(&alone), dir.path())
            .current_dir(dir.path())
            .args(["--dry-run", "--json", sample.to_str().unwrap()])
            .stdin(Stdio::null()),
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let truth = std::fs::read_to_string(repo("samples/mid-1x-window.board")).unwrap();
    let answer: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap();
    assert_eq!(answer["board"], truth.trim_end_matches('\n'), "{stdout}");
    assert!(stderr.contains("built into the bot"), "{stderr}");
}
