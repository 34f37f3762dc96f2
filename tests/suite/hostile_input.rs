//! Hostile input through the real binary: random bytes and random
//! mutations of valid board strings, calibration files and image headers;
//! special files (FIFOs, devices), files past their kind's size, closed
//! pipes, runs racing for one file name, Ctrl-C while pictures are
//! written, memory limits. Whatever comes in, the bot answers (exit 0 for
//! what happens to be valid) or refuses with exit 2 and one short line
//! that names the real cause: never a panic, an abort or a hang, and no
//! file changed that it should not touch.

use std::io::{Read, Write as _};
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use proptest::prelude::*;

use crate::vision_support::{as_posix, bot, repo, start};

/// The longest one-line error the bot may print for hostile input.
const MAX_ERROR: usize = 300;

/// Exit 0, or exit 2 with one `error:` line under [`MAX_ERROR`] characters.
fn assert_answer_or_short_refusal(out: &Output, input: &str) -> Result<(), TestCaseError> {
    let stderr = String::from_utf8_lossy(&out.stderr);
    match out.status.code() {
        Some(0) => Ok(()),
        Some(2) => {
            let errors: Vec<&str> = stderr.lines().filter(|l| l.starts_with("error:")).collect();
            prop_assert_eq!(errors.len(), 1, "{}: {}", input, stderr);
            prop_assert!(
                errors[0].chars().count() < MAX_ERROR,
                "{}: {} characters: {}",
                input,
                errors[0].chars().count(),
                errors[0]
            );
            Ok(())
        }
        code => Err(TestCaseError::fail(format!(
            "{input}: exit {code:?}: {stderr}"
        ))),
    }
}

/// One random edit of `bytes`: a byte changed, inserted, removed, or a run
/// repeated many times over.
fn mutate(bytes: &mut Vec<u8>, kind: u8, at: usize, value: u8, times: usize) {
    if bytes.is_empty() {
        bytes.push(value);
        return;
    }
    let at = at % bytes.len();
    match kind % 4 {
        0 => bytes[at] = value,
        1 => bytes.insert(at, value),
        2 => {
            bytes.remove(at);
        }
        _ => {
            let end = (at + 8).min(bytes.len());
            let run = bytes[at..end].to_vec();
            for _ in 0..times {
                bytes.splice(at..at, run.iter().copied());
            }
        }
    }
}

fn edits() -> impl Strategy<Value = Vec<(u8, usize, u8, usize)>> {
    prop::collection::vec(
        (any::<u8>(), any::<usize>(), any::<u8>(), 1..200usize),
        1..6,
    )
}

fn mutated(valid: &[u8], edits: &[(u8, usize, u8, usize)]) -> Vec<u8> {
    let mut bytes = valid.to_vec();
    for &(kind, at, value, times) in edits {
        mutate(&mut bytes, kind, at, value, times);
    }
    bytes
}

/// A board string fit for an argument: no NUL, which no argument holds.
fn as_argument(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).replace('\0', " ")
}

const VALID_BOARD: &str = dustbot::game::EXAMPLE_BOARD;

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn board_strings(edits in edits(), noise in prop::collection::vec(any::<u8>(), 0..400)) {
        let dir = std::env::temp_dir();
        let board = as_argument(&mutated(VALID_BOARD.as_bytes(), &edits));
        let out = bot(&dir, &["solve", "--time", "0.2", "--threads", "1", "--", &board]);
        assert_answer_or_short_refusal(&out, &board)?;
        let noise = as_argument(&noise);
        let out = bot(&dir, &["solve", "--time", "0.2", "--threads", "1", "--", &noise]);
        assert_answer_or_short_refusal(&out, &noise)?;
    }

    #[test]
    fn calibration_files(edits in edits()) {
        let dir = tempfile::tempdir().unwrap();
        let valid = std::fs::read(repo("calibration/nodiatis.toml")).unwrap();
        std::fs::write(dir.path().join("c.toml"), mutated(&valid, &edits)).unwrap();
        let sample = repo("samples/full-0.5x-window.png");
        let out = bot(dir.path(), &[
            "--dry-run", sample.to_str().unwrap(), "--calibration", "c.toml",
            "--time", "0.2", "--threads", "1", "--out", "o",
        ]);
        assert_answer_or_short_refusal(&out, "a mutated calibration")?;
    }

    #[test]
    fn image_headers(edits in edits(), jpeg in any::<bool>()) {
        let dir = tempfile::tempdir().unwrap();
        let (source, name) = if jpeg {
            ("samples/full-0.75x-bare.jpg", "x.jpg")
        } else {
            ("samples/full-0.5x-window.png", "x.png")
        };
        let valid = std::fs::read(repo(source)).unwrap();
        // The edits land in the first 64 bytes: the signature and header.
        let mut head = valid[..64].to_vec();
        let tail = &valid[64..];
        let edited: Vec<_> = edits.iter().map(|&(k, at, v, t)| (k, at % 64, v, t.min(8))).collect();
        head = mutated(&head, &edited);
        head.extend_from_slice(tail);
        std::fs::write(dir.path().join(name), head).unwrap();
        let out = bot(dir.path(), &["--dry-run", name, "--time", "0.2", "--threads", "1", "--out", "o"]);
        assert_answer_or_short_refusal(&out, name)?;
    }

    #[test]
    fn random_bytes_as_any_file(bytes in prop::collection::vec(any::<u8>(), 0..2000)) {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        for name in ["r.png", "r.jpg", "r.toml"] {
            std::fs::write(d.join(name), &bytes).unwrap();
        }
        let out = bot(d, &["--dry-run", "r.png", "r.jpg", "--out", "o", "--json"]);
        prop_assert_eq!(out.status.code(), Some(2));
        let sample = repo("samples/full-0.5x-window.png");
        let out = bot(d, &["--dry-run", sample.to_str().unwrap(), "--calibration", "r.toml", "--out", "o"]);
        assert_answer_or_short_refusal(&out, "random calibration")?;
        prop_assert_eq!(out.status.code(), Some(2));
    }
}

// The classes of the third pass: files the bot must not lose, inputs that
// must not hang it or take all its memory, messages that must say what is
// wrong. Each run has a deadline: a run past it is a hang.

/// How long any of these runs may take at most (a debug build, a loaded
/// machine): far below the minutes each took when it hung.
const DEADLINE: Duration = Duration::from_secs(60);

/// `bot ARGS` in `dir`, without a display, `stdin` given, to its end within
/// `deadline` (else killed, and the test fails: a hang).
fn run_within(dir: &Path, args: &[&str], stdin: &[u8], deadline: Duration) -> Output {
    wait_within(spawn_bot(dir, args, stdin), args, deadline)
}

/// `bot ARGS` started in `dir`, without a display, `stdin` fed from a
/// thread (a run that stops reading early closes the pipe: not an error
/// here), its output piped.
fn spawn_bot(dir: &Path, args: &[&str], stdin: &[u8]) -> Child {
    let mut child = start(
        Command::new(env!("CARGO_BIN_EXE_bot"))
            .current_dir(dir)
            .args(args)
            .env_remove("DISPLAY")
            .env_remove("WAYLAND_DISPLAY")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped()),
    );
    let mut input = child.stdin.take().unwrap();
    let stdin = stdin.to_vec();
    std::thread::spawn(move || input.write_all(&stdin));
    child
}

fn wait_within(mut child: Child, args: &[&str], deadline: Duration) -> Output {
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > deadline {
            child.kill().unwrap();
            let out = child.wait_with_output().unwrap();
            panic!(
                "bot {:?} still running after {deadline:?}: {}",
                short(args),
                String::from_utf8_lossy(&out.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

/// The arguments, each cut for a message.
fn short(args: &[&str]) -> Vec<String> {
    args.iter().map(|a| a.chars().take(80).collect()).collect()
}

/// Exit 2 and one `error:` line holding `what`, short enough to read.
fn refused(out: &Output, what: &str) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    let errors: Vec<&str> = stderr.lines().filter(|l| l.starts_with("error:")).collect();
    assert_eq!(errors.len(), 1, "{stderr}");
    assert!(
        as_posix(errors[0]).contains(what),
        "{:?} should say {what:?}",
        errors[0]
    );
    assert!(errors[0].chars().count() < MAX_ERROR, "{}", errors[0]);
}

fn calibration_text() -> String {
    std::fs::read_to_string(repo("calibration/nodiatis.toml")).unwrap()
}

#[cfg(unix)]
fn mkfifo(path: &Path) {
    let status = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(status.success());
}

// Its runs fail at once for want of a display, which Windows and a Mac
// always have.
#[cfg(all(unix, not(target_os = "macos")))]
#[test]
fn a_log_never_empties_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let calibration = calibration_text();
    std::fs::write(d.join("c.toml"), &calibration).unwrap();
    std::fs::write(d.join("h.jsonl"), "an earlier run's line\n").unwrap();
    let assist = |log: &str| {
        let args = [
            "--window",
            "X",
            "--assist",
            "--calibration",
            "c.toml",
            "--hint-log",
            log,
        ];
        run_within(d, &args, b"", DEADLINE)
    };
    // A log typed over the calibration the run reads.
    refused(&assist("c.toml"), "one of the run's inputs");
    // Runs that fail at once (no display) leave an earlier log as it was.
    let out = assist("h.jsonl");
    refused(&out, "DISPLAY");
    let out = run_within(
        d,
        &["practice", "--seed", "1", "--log", "h.jsonl"],
        b"",
        DEADLINE,
    );
    refused(&out, "cannot open the window");
    assert_eq!(
        std::fs::read_to_string(d.join("c.toml")).unwrap(),
        calibration
    );
    assert_eq!(
        std::fs::read_to_string(d.join("h.jsonl")).unwrap(),
        "an earlier run's line\n"
    );
}

#[cfg(unix)]
// FIFOs, devices, /proc, ulimit and signals are Unix's.
#[cfg(unix)]
#[test]
fn special_files_are_refused_not_waited_on() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    mkfifo(&d.join("fifo.png"));
    mkfifo(&d.join("fifo.toml"));
    mkfifo(&d.join("fifo.jsonl"));
    std::fs::create_dir(d.join("shots")).unwrap();
    std::fs::copy(repo("samples/full-0.5x-window.png"), d.join("shots/x.png")).unwrap();
    mkfifo(&d.join("shots/x.board"));
    let sample = repo("samples/full-0.5x-window.png");
    let sample = sample.to_str().unwrap();
    let cases: [(&[&str], &str); 8] = [
        (
            &["--dry-run", "fifo.png", "--out", "o"],
            "not a regular file (a FIFO)",
        ),
        (
            &["--dry-run", "/dev/zero", "--out", "o"],
            "not a regular file (a device)",
        ),
        (
            &[
                "--dry-run",
                sample,
                "--calibration",
                "fifo.toml",
                "--out",
                "o",
            ],
            "not a regular file (a FIFO)",
        ),
        (
            &[
                "--dry-run",
                sample,
                "--calibration",
                "/dev/zero",
                "--out",
                "o",
            ],
            "not a regular file (a device)",
        ),
        (&["calibrate", "fifo.png", "--board", VALID_BOARD], "a FIFO"),
        (&["calibrate", "shots"], "a FIFO"),
        (
            &["--window", "X", "--assist", "--hint-log", "fifo.jsonl"],
            "not a regular file (a FIFO)",
        ),
        (
            &["practice", "--log", "fifo.jsonl"],
            "not a regular file (a FIFO)",
        ),
    ];
    for (args, what) in cases {
        let out = run_within(d, args, b"", DEADLINE);
        // The dry runs report the image, then exit 2.
        if args[0] == "--dry-run" && !args.contains(&"--calibration") {
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{stderr}");
            assert!(stderr.contains(what), "{args:?}: {stderr}");
        } else {
            refused(&out, what);
        }
    }
}

#[test]
fn files_beyond_their_kinds_limit_are_refused_unread() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Two gigabytes that take no disk (a sparse file).
    let big = std::fs::File::create(d.join("big.png")).unwrap();
    big.set_len(2 << 30).unwrap();
    let out = run_within(
        d,
        &["--dry-run", "big.png", "--out", "o", "--json"],
        b"",
        DEADLINE,
    );
    assert_eq!(out.status.code(), Some(2));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("too big for a screenshot"), "{stdout}");
    // A dry run of a sample with `text` as its calibration.
    let sample = repo("samples/full-0.5x-window.png");
    let with_calibration = |text: String| {
        std::fs::write(d.join("c.toml"), text).unwrap();
        let args = [
            "--dry-run",
            sample.to_str().unwrap(),
            "--calibration",
            "c.toml",
            "--out",
            "o",
        ];
        run_within(d, &args, b"", DEADLINE)
    };
    // A valid calibration after megabytes of comments is no calibration.
    let mut text = "# padding\n".repeat(200_000);
    text.push_str(&calibration_text());
    refused(&with_calibration(text), "too big for a calibration");
    // An array of a thousand numbers where three belong: refused.
    let numbers = vec!["0.5"; 1_000].join(", ");
    let text =
        calibration_text().replacen("linear_rgb = [", &format!("linear_rgb = [{numbers}, "), 1);
    let out = with_calibration(text);
    refused(&out, "expected 3 numbers");
}

#[test]
fn a_closed_output_stops_the_solving() {
    let dir = std::env::temp_dir();
    // A 12-click board: about a second each on one thread of a debug build.
    let board = "OOYOOBOB,OYGBGBGG,BYGOGRRB,GYRBRROB,BRYGBYGG,GORYBOGY\n";
    let args = ["solve", "-", "--json", "--threads", "1"];
    let mut child = spawn_bot(&dir, &args, board.repeat(200).as_bytes());
    // `| head -1`: one byte of the first answer, then the reader is gone.
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0; 1];
    stdout.read_exact(&mut first).unwrap();
    drop(stdout);
    // 200 boards would take minutes.
    let out = wait_within(child, &args, Duration::from_secs(30));
    assert!(out.status.code().is_some(), "no signal: {:?}", out.status);
}

#[test]
fn a_board_argument_of_the_longest_size_is_refused_at_once() {
    let dir = std::env::temp_dir();
    // The longest argument Linux passes; quadratic, this took 18 s.
    for board in [",".repeat(128 * 1024 - 1), "G,GG,".repeat(26_000)] {
        let out = run_within(&dir, &["solve", "--", &board], b"", Duration::from_secs(10));
        refused(&out, "more than 128");
    }
}

#[test]
fn a_rare_optimum_says_how_the_drawing_goes_and_ends() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "practice",
        "--optimum",
        "9",
        "--rules",
        "gravity",
        "--seed",
        "1",
        "--draw-for",
        "6",
    ];
    // Six seconds of drawing (a line on how it goes every five), the last
    // board's proof, and margin.
    let out = run_within(dir.path(), &args, b"", Duration::from_secs(60));
    refused(
        &out,
        "no board with a proven optimum of 9 clicks under gravity",
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("boards drawn in"), "{stdout}");
    // It gave up at --draw-for's six seconds, not the default sixty (the
    // last board's proof takes 10 s at most).
    let stderr = String::from_utf8_lossy(&out.stderr);
    let seconds: f64 = stderr
        .split_once(" s)")
        .and_then(|(head, _)| head.rsplit_once('(')?.1.parse().ok())
        .unwrap_or_else(|| panic!("no drawing time in {stderr}"));
    assert!((6.0..=20.0).contains(&seconds), "{stderr}");
}

#[test]
fn messages_name_the_real_cause() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // A JPEG cut short is said to be so.
    let jpeg = std::fs::read(repo("samples/full-0.75x-bare.jpg")).unwrap();
    std::fs::write(d.join("cut.jpg"), &jpeg[..jpeg.len() * 2 / 3]).unwrap();
    let out = run_within(d, &["--dry-run", "cut.jpg", "--out", "o"], b"", DEADLINE);
    refused(&out, "cut short");
    // A negative number reaches its flag's check, with no tip to make it
    // an image path.
    for args in [
        &["solve", "--threads", "-5", VALID_BOARD][..],
        &["--dry-run", "x.png", "--tt-mb", "-3"],
        &["practice", "--anim-ms", "-1"],
    ] {
        let out = run_within(d, args, b"", DEADLINE);
        refused(&out, "-");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("tip"), "{stderr}");
        assert!(stderr.contains("must be"), "{stderr}");
    }
    let out = run_within(
        d,
        &["practice", "--anim-ms", "99999999999999999999"],
        b"",
        DEADLINE,
    );
    refused(&out, "must be 0 to 10000 ms");
    // A byte order mark is no part of a board.
    let out = run_within(
        d,
        &["solve", "-", "--time", "0.2", "--json"],
        format!("\u{feff}{VALID_BOARD}\n").as_bytes(),
        DEADLINE,
    );
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    // An empty window text would name every window.
    let out = run_within(d, &["--window", "", "--dry-run"], b"", DEADLINE);
    refused(&out, "give part of the window's title");
}

// FIFOs, devices, /proc, ulimit and signals are Unix's.
#[cfg(unix)]
#[test]
fn the_table_is_bounded_by_the_machine() {
    let dir = std::env::temp_dir();
    let info = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
    let total_mib = info
        .lines()
        .find_map(|l| l.strip_prefix("MemTotal:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map_or(1 << 20, |kib| kib / 1024);
    let too_much = (total_mib / 2 + 1).to_string();
    let out = run_within(&dir, &["solve", "--tt-mb", &too_much, "GG"], b"", DEADLINE);
    refused(&out, "the table must be a whole number of MiB");
}

/// Under a memory limit below `--tt-mb`, the table does not grow and the
/// search goes on: the best solution is not lost to a panic. Nor to the
/// beams beside it, which end when their memory is refused. Limits from
/// too small for anything to ample: the table's own failure never ends a
/// run (other allocations may, as in any program).
#[cfg(target_os = "linux")]
// FIFOs, devices, /proc, ulimit and signals are Unix's.
#[cfg(unix)]
#[test]
fn a_table_the_system_refuses_keeps_the_search_going() {
    let dir = std::env::temp_dir();
    // A 13-click board whose search wants a table of 8 MiB or more.
    let board = "OBORRBOY,YOGGYGBY,BOOGYYRG,RRBYROOB,RYBYBGBB,OGGORORR";
    let (mut kept, mut beams_ended) = (0, 0);
    let mut runs = Vec::new();
    // Each search runs to its proof (about 4 s here) rather than for a
    // fixed time, so that every run asks the table to grow (cut at 3 s, a
    // busy machine's search had not yet asked). The beam thread's memory
    // grows beside the table's, timed by the machine's load, and a beam
    // the system refuses ends, not the run: from 40 to 60 MiB the table
    // stayed in every run here beside four busy loops, and at 40 the
    // beams ended too; at 100 the table grows.
    for limit_mib in [40, 50, 60, 70, 100] {
        let script = format!(
            "ulimit -v {}; exec \"$0\" solve --tt-mb 4096 --threads 1 --time 50 {board}",
            limit_mib * 1024
        );
        let child = Command::new("sh")
            .args(["-c", &script, env!("CARGO_BIN_EXE_bot")])
            .current_dir(&dir)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let out = wait_within(child, &["solve", board], DEADLINE);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_ne!(out.status.code(), Some(101), "{limit_mib} MiB: {stderr}");
        let stayed = stderr.contains("cannot grow");
        let beams_refused = stderr.contains("the beam of width");
        if out.status.success() {
            kept += usize::from(stayed);
            beams_ended += usize::from(beams_refused);
        }
        runs.push(format!(
            "{limit_mib} MiB: {}, the table {}{}; {}",
            out.status,
            if stayed { "stayed" } else { "grew" },
            if beams_refused {
                ", the beams ended"
            } else {
                ""
            },
            stderr.lines().last().unwrap_or("")
        ));
    }
    let runs = runs.join("\n");
    assert!(kept > 0, "no limit made the table stay:\n{runs}");
    assert!(
        beams_ended > 0,
        "no run went on after its beams' memory was refused:\n{runs}"
    );
}

#[test]
fn solve_reports_every_bad_line_and_goes_on() {
    let dir = std::env::temp_dir();
    let input = format!("{VALID_BOARD}\nXX,GG\n\u{ff}\n{VALID_BOARD}\n");
    let out = run_within(
        &dir,
        &["solve", "-", "--json", "--time", "0.2", "--threads", "1"],
        input.as_bytes(),
        DEADLINE,
    );
    assert_eq!(out.status.code(), Some(2));
    let objects: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(objects.len(), 4, "{objects:?}");
    assert_eq!(objects[0]["board"], VALID_BOARD);
    assert_eq!(objects[1]["input"], "standard input, line 2");
    assert!(
        objects[1]["error"]
            .as_str()
            .unwrap()
            .contains("unknown letter 'X'")
    );
    assert_eq!(objects[2]["input"], "standard input, line 3");
    assert_eq!(objects[3]["board"], VALID_BOARD);
    // Without --json: an error line per bad board, the others solved.
    let out = run_within(
        &dir,
        &[
            "solve",
            "--time",
            "0.2",
            "--threads",
            "1",
            "XX",
            VALID_BOARD,
        ],
        b"",
        DEADLINE,
    );
    refused(&out, "board 1");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("  1. click ("), "{stdout}");
}

#[test]
fn folders_and_names_are_checked_before_the_work() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("file"), "").unwrap();
    let out = run_within(
        d,
        &["--window", "X", "--debug-dir", "file/debug"],
        b"",
        DEADLINE,
    );
    refused(&out, "--debug-dir file/debug");
    let name = "n".repeat(300);
    // Refused before the work: with an image it could read, and with
    // one that is not there, whose reading would be refused first had
    // it come first.
    let sample = repo("samples/full-1x-window.png");
    for image in [sample, d.join("no such image.png")] {
        let out = run_within(
            d,
            &[
                "calibrate",
                image.to_str().unwrap(),
                "--yes",
                "--name",
                &name,
            ],
            b"",
            DEADLINE,
        );
        refused(&out, "at most 64 characters");
    }
}

#[test]
fn calibrate_says_which_images_it_skips() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir(d.join("shots")).unwrap();
    for name in ["a", "b"] {
        std::fs::copy(
            repo("samples/full-1x-window.png"),
            d.join(format!("shots/{name}.png")),
        )
        .unwrap();
    }
    let truth = std::fs::read_to_string(repo("samples/full-1x-window.board")).unwrap();
    // A byte order mark before the board is no part of it.
    std::fs::write(d.join("shots/a.board"), format!("\u{feff}{truth}")).unwrap();
    let out = run_within(d, &["calibrate", "shots", "--name", "s"], b"", DEADLINE);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("b.png: skipped, no b.board beside it"),
        "{stderr}"
    );
}

#[test]
fn of_two_calibrations_of_one_name_one_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let sample = repo("samples/full-1x-window.png");
    let truth = std::fs::read_to_string(repo("samples/full-1x-window.board")).unwrap();
    let args = [
        "calibrate",
        sample.to_str().unwrap(),
        "--board",
        truth.trim(),
        "--name",
        "same",
    ];
    let calibrate = || {
        start(
            Command::new(env!("CARGO_BIN_EXE_bot"))
                .current_dir(d)
                .args(args)
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped()),
        )
    };
    let (a, b) = (calibrate(), calibrate());
    let outs = [
        wait_within(a, &args, DEADLINE),
        wait_within(b, &args, DEADLINE),
    ];
    let wrote = outs
        .iter()
        .filter(|o| {
            as_posix(&String::from_utf8_lossy(&o.stdout)).contains("wrote calibration/same.toml")
        })
        .count();
    assert_eq!(wrote, 1, "{outs:?}");
    let other = outs
        .iter()
        .find(|o| !o.status.success())
        .expect("one refused");
    refused(other, "already exists");
    let names: Vec<_> = std::fs::read_dir(d.join("calibration")).unwrap().collect();
    assert_eq!(names.len(), 1, "no temporary left: {names:?}");
}

#[cfg(unix)]
// FIFOs, devices, /proc, ulimit and signals are Unix's.
#[cfg(unix)]
#[test]
fn ctrl_c_leaves_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir(d.join("shots")).unwrap();
    for i in 0..6 {
        std::fs::copy(
            repo("samples/full-0.5x-window.png"),
            d.join(format!("shots/s{i}.png")),
        )
        .unwrap();
    }
    // Ctrl-C at many moments of a run that writes pictures all along.
    for wait_ms in (200..2000).step_by(150) {
        let out_dir = d.join(format!("o{wait_ms}"));
        let out = out_dir.to_str().unwrap();
        let args = [
            "--dry-run",
            "shots",
            "--out",
            out,
            "--time",
            "0.1",
            "--threads",
            "1",
        ];
        let child = Command::new(env!("CARGO_BIN_EXE_bot"))
            .current_dir(d)
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(wait_ms));
        Command::new("kill")
            .args(["-INT", &child.id().to_string()])
            .status()
            .unwrap();
        wait_within(child, &args, DEADLINE);
        for entry in std::fs::read_dir(&out_dir).into_iter().flatten() {
            let name = entry.unwrap().file_name();
            let name = name.to_string_lossy();
            assert!(!name.ends_with(".tmp"), "{wait_ms} ms: {name} left");
        }
    }
}

#[cfg(unix)]
// FIFOs, devices, /proc, ulimit and signals are Unix's.
#[cfg(unix)]
#[test]
fn an_endless_answer_is_no_answer() {
    let dir = tempfile::tempdir().unwrap();
    let sample = repo("samples/full-1x-window.png");
    let args = ["calibrate", sample.to_str().unwrap(), "--name", "asked"];
    let child = Command::new(env!("CARGO_BIN_EXE_bot"))
        .current_dir(dir.path())
        .args(args)
        .stdin(std::fs::File::open("/dev/zero").unwrap())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let out = wait_within(child, &args, DEADLINE);
    refused(&out, "not confirmed");
    assert!(!dir.path().join("calibration/asked.toml").exists());
}

/// `> /dev/full` (a full disk): every command that writes to standard
/// output says that it could not and exits 2, never 0 having written
/// nothing, never a panic.
#[cfg(unix)]
#[test]
fn an_output_that_cannot_be_written_is_exit_2_for_every_command() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("g.jsonl"), "").unwrap();
    let image = crate::vision_support::real_png();
    let board = dustbot::game::EXAMPLE_BOARD;
    let cases: [&[&str]; 8] = [
        &["solve", board],
        &["solve", board, "--json"],
        &["--dry-run", &image, "--out", "o"],
        &["--dry-run", &image, "--out", "o", "--json"],
        &["stats", "g.jsonl"],
        &["stats", "g.jsonl", "--json"],
        &[
            "bench",
            "--boards",
            "1",
            "--cap",
            "1",
            "--strategies",
            "optimal",
        ],
        &["--help"],
    ];
    for args in cases {
        let mut command = Command::new(env!("CARGO_BIN_EXE_bot"));
        crate::vision_support::assert_full_output_fails(command.current_dir(dir.path()).args(args));
    }
}

#[test]
fn a_hard_link_to_the_calibration_is_no_log() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let calibration = repo("calibration/nodiatis.toml");
    std::fs::copy(calibration, d.join("c.toml")).unwrap();
    let kept = std::fs::read(d.join("c.toml")).unwrap();
    std::fs::hard_link(d.join("c.toml"), d.join("link.jsonl")).unwrap();
    for log in ["--game-log", "--hint-log"] {
        let out = bot(
            d,
            &[
                "--window",
                "Nodiatis",
                "--assist",
                "--calibration",
                "c.toml",
                log,
                "link.jsonl",
            ],
        );
        crate::vision_support::assert_one_line_error(&out, "link.jsonl");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("one of the run's inputs"), "{stderr}");
    }
    assert_eq!(std::fs::read(d.join("c.toml")).unwrap(), kept);
}
