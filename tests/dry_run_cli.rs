//! `bot --dry-run` through the real binary: reads the real screenshot with
//! the default calibration, writes the annotated picture, speaks JSON, and
//! turns every kind of bad input into a one-line error and exit 2.

mod vision_support;

use vision_support::*;

#[test]
fn reads_the_real_screenshot_and_writes_the_annotated_picture() {
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
    let annotated = image::open(out_dir.join("dust-game.png")).unwrap();
    assert_eq!((annotated.width(), annotated.height()), (643, 470));
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
    assert_eq!(lines[0]["board"], real_board().to_string());
    assert!(lines[0]["min_confidence"].as_f64().unwrap() > 0.5);
    let pitch = lines[0]["geometry"]["pitch_x"].as_f64().unwrap();
    assert!((pitch - 80.0).abs() < 2.0, "{pitch}");
    assert_eq!(lines[1]["image"], "bad.png");
    assert!(lines[1]["error"].as_str().unwrap().contains("bad.png"));
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
    assert!(!d.join("o").exists(), "nothing written");
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
        dir.path().join("o/sixth.png").exists(),
        "the debug picture marks it"
    );
}
