//! `bot calibrate` through the real binary: learns from the real screenshot,
//! never overwrites without `--force`, and rejects bad input with a
//! one-line error, exit 2, and nothing written.

use crate::vision_support::*;

fn truth() -> String {
    real_board().to_string()
}

#[test]
fn learns_from_the_true_board_and_reads_it_back() {
    let dir = tempfile::tempdir().unwrap();
    let out = bot(dir.path(), &["calibrate", &real_png(), "--board", &truth()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        as_posix(&stdout).contains("wrote calibration/nodiatis.toml"),
        "{stdout}"
    );
    // The confidence grid: six rows of eight cells.
    let rows = stdout
        .lines()
        .filter(|l| l.len() > 3 && l.as_bytes()[2] == b'|' && l.contains('.'));
    assert_eq!(rows.count(), 6, "{stdout}");
    let written = dir.path().join("calibration/nodiatis.toml");
    let calibration = dustbot::vision::Calibration::load(&written).unwrap();
    let (image, board) = real();
    let reading = dustbot::vision::read(&image, &calibration, None).unwrap();
    assert_eq!(reading.board().unwrap(), board);
}

#[test]
fn never_overwrites_without_force() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("calibration/mine.toml");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, "precious").unwrap();
    let args = [
        "calibrate",
        &real_png(),
        "--board",
        &truth(),
        "--name",
        "mine",
    ]
    .map(String::from);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = bot(dir.path(), &args);
    assert_one_line_error(&out, "calibration/mine.toml");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "precious");
    let out = bot(dir.path(), &[args.as_slice(), &["--force"]].concat());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        std::fs::read_to_string(&path)
            .unwrap()
            .contains("version = 1")
    );
}

#[test]
fn groups_colours_itself_with_yes_and_asks_without() {
    let dir = tempfile::tempdir().unwrap();
    let out = bot(dir.path(), &["calibrate", &real_png(), "--yes"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains(&truth()), "{stdout}");
    // Without --yes it asks on stdin; no answer is no, and nothing is written.
    let out = bot(dir.path(), &["calibrate", &real_png(), "--name", "asked"]);
    assert_one_line_error(&out, "not confirmed");
    assert!(String::from_utf8_lossy(&out.stdout).contains("[y/N]"));
    assert!(!dir.path().join("calibration/asked.toml").exists());
}

#[test]
fn bad_input_is_one_line_exit_2_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write_bad_images(d);
    let cases: [(&[&str], &str); 6] = [
        (
            &["calibrate", "missing.png", "--board", &truth()],
            "missing.png",
        ),
        (
            &["calibrate", "notes.png", "--board", &truth()],
            "notes.png",
        ),
        (
            &["calibrate", "truncated.png", "--board", &truth()],
            "truncated.png",
        ),
        (
            &["calibrate", "grey.png", "--board", &truth()],
            "grey.png: no board found",
        ),
        (&["calibrate", &real_png(), "--board", "GGGG"], "--board"),
        (
            &["calibrate", &real_png(), "--name", "../escape", "--yes"],
            "--name",
        ),
    ];
    for (args, what) in cases {
        assert_one_line_error(&bot(d, args), what);
    }
    assert!(!d.join("calibration").exists(), "nothing written");
}

// Windows makes links for administrators only.
#[cfg(unix)]
#[test]
fn a_link_at_the_calibration_path_is_not_replaced_without_force() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir(d.join("calibration")).unwrap();
    let link = d.join("calibration/mine.toml");
    std::os::unix::fs::symlink(d.join("nowhere.toml"), &link).unwrap();
    let out = bot(
        d,
        &[
            "calibrate",
            &real_png(),
            "--board",
            &truth(),
            "--name",
            "mine",
        ],
    );
    assert_one_line_error(&out, "already exists (use --force");
    assert!(link.symlink_metadata().unwrap().file_type().is_symlink());
    let out = bot(
        d,
        &[
            "calibrate",
            &real_png(),
            "--board",
            &truth(),
            "--name",
            "mine",
            "--force",
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(link.symlink_metadata().unwrap().is_file());
}

#[test]
fn a_board_string_with_two_colours_swapped_teaches_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let swapped: String = truth()
        .chars()
        .map(|c| match c {
            'G' => 'O',
            'O' => 'G',
            other => other,
        })
        .collect();
    let out = bot(dir.path(), &["calibrate", &real_png(), "--board", &swapped]);
    assert_one_line_error(&out, "the piles given as G look salmon, not lime");
    assert!(!dir.path().join("calibration").exists(), "nothing written");
}

/// The real screenshot and a mid-game picture in its look (after three
/// moves of the article's solution), each with its board, in `dir`.
fn two_screenshots(dir: &std::path::Path) -> [(String, String); 2] {
    let mid = seed_boards()[3];
    mid_game(&mid).save(dir.join("mid.png")).unwrap();
    [
        (real_png(), truth()),
        (dir.join("mid.png").display().to_string(), mid.to_string()),
    ]
}

#[test]
fn learns_from_several_screenshots_each_with_its_board() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let [(full, full_board), (mid, mid_board)] = two_screenshots(d);
    let out = bot(
        d,
        &[
            "calibrate",
            &full,
            "--board",
            &full_board,
            &mid,
            "--board",
            &mid_board,
            "--name",
            "two",
        ],
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Both read back with the new calibration before it is written.
    assert_eq!(stdout.matches("cell confidences").count(), 2, "{stdout}");
    let calibration = dustbot::vision::Calibration::load(&d.join("calibration/two.toml")).unwrap();
    let mid_image = image::open(&mid).unwrap().to_rgba8();
    let reading = dustbot::vision::read(&mid_image, &calibration, None).unwrap();
    assert_eq!(reading.board().unwrap().to_string(), mid_board);
    // The same from a folder of NAME.png and NAME.board.
    let shots = d.join("shots");
    std::fs::create_dir(&shots).unwrap();
    std::fs::copy(&full, shots.join("a.png")).unwrap();
    std::fs::write(shots.join("a.board"), &full_board).unwrap();
    std::fs::copy(&mid, shots.join("b.png")).unwrap();
    std::fs::write(shots.join("b.board"), &mid_board).unwrap();
    let out = bot(d, &["calibrate", "shots", "--name", "folder"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let from_folder =
        dustbot::vision::Calibration::load(&d.join("calibration/folder.toml")).unwrap();
    assert_eq!(from_folder, calibration);
}

#[test]
fn several_screenshots_need_a_board_each_and_name_the_wrong_one() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let [(full, full_board), (mid, _)] = two_screenshots(d);
    let out = bot(d, &["calibrate", &full, "--board", &full_board, &mid]);
    assert_one_line_error(&out, "1 --board for 2 screenshot file(s)");
    // The full board given for the mid-game picture.
    let out = bot(
        d,
        &[
            "calibrate",
            &full,
            "--board",
            &full_board,
            &mid,
            "--board",
            &full_board,
        ],
    );
    assert_one_line_error(&out, "screenshot 2:");
    assert!(!d.join("calibration").exists(), "nothing written");
}
