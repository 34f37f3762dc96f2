//! `bot bench` through the real binary, its standard error a pipe as in a
//! script or CI: plain progress lines, no bar and no terminal codes; the
//! `--plot` picture written whole; a `--plot` that could not be written
//! refused before any board is solved.

use dustbot::chart::plot::SIZE;

use crate::vision_support::{assert_one_line_error, bot};

#[test]
fn a_piped_run_logs_plain_progress_and_writes_the_plot() {
    let dir = tempfile::tempdir().unwrap();
    let plot = dir.path().join("x.png");
    let plot_arg = plot.display().to_string();
    let out = bot(
        dir.path(),
        &[
            "bench",
            "--boards",
            "3",
            "--cap",
            "1",
            "--strategies",
            "optimal,standard",
            "--plot",
            &plot_arg,
        ],
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");

    let picture = image::open(&plot).unwrap();
    assert_eq!((picture.width(), picture.height()), SIZE);
    assert!(stdout.contains(&format!("plot: {plot_arg}")), "{stdout}");
    let files: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(files.len(), 1, "nothing beside the plot: {files:?}");

    assert!(!stderr.contains('\x1b'), "no terminal codes: {stderr:?}");
    assert!(
        !stderr.contains('\r'),
        "no bar redrawn in place: {stderr:?}"
    );
    let progress: Vec<&str> = stderr.lines().filter(|l| l.contains(" done")).collect();
    assert_eq!(progress.len(), 3, "a line per board: {stderr}");
    for (k, line) in progress.iter().enumerate() {
        assert!(line.contains(&format!("{}/3 done, ", k + 1)), "{line}");
        assert!(line.contains("proven: optimal "), "{line}");
        assert!(line.contains(", standard "), "{line}");
        // The time left, for every board but the last.
        assert_eq!(line.contains(" left"), k < 2, "{line}");
    }
}

#[test]
fn a_plot_into_a_missing_folder_is_refused_before_solving() {
    let dir = tempfile::tempdir().unwrap();
    for path in ["/nonexistent/dir/x.png", "no-such-folder/x.png"] {
        let out = bot(
            dir.path(),
            &["bench", "--boards", "3", "--cap", "1", "--plot", path],
        );
        assert_one_line_error(&out, path);
        // The run's header is its first output: nothing was solved.
        assert!(out.stdout.is_empty(), "{:?}", out.stdout);
    }
    let out = bot(dir.path(), &["bench", "--plot", "plot.jpg"]);
    assert_one_line_error(&out, "PNG");
}
