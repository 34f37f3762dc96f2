//! The guided session end to end: `bot` alone on a real terminal (a tmux
//! pane, driven from the test with send-keys and read with capture-pane)
//! beside the practice window on a real X server, no title given. The
//! player is the test: keys on the terminal, clicks with xdotool where
//! the hints say. Judged from the terminal's screen, the practice window's
//! click log, the settings and the game log in the test's folders.
// X11: Xvfb, openbox, xdotool, tmux.
#![cfg(unix)]

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::x11_support::*;

/// A title that names no game: the practice window is found by its board.
const GAME: &str = "Dust Practice";

/// The bot in a tmux pane on the test's display, its folders in the
/// test's; the pane stays after the bot ends, with its exit code.
pub(crate) struct Pane {
    socket: PathBuf,
    display: String,
}

impl Pane {
    /// Starts `bot ARGS` in a new tmux server of its own.
    pub(crate) fn start(desktop: &Desktop, args: &[&str]) -> Pane {
        // A server of its own each: the last one may still be ending.
        static PANES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = PANES.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let socket = desktop.path(&format!("tmux-{n}.sock"));
        let mut line = format!("'{}'", bot_path());
        for arg in args {
            line += &format!(" '{arg}'");
        }
        // The exit code shown, and the pane kept for the test to read.
        let script = format!("{line}; echo \"[bot exited $?]\"; sleep 600");
        let status = desktop
            .on_this_display(
                "tmux",
                &[
                    "-u",
                    "-S",
                    socket.to_str().unwrap(),
                    "-f",
                    "/dev/null",
                    "new-session",
                    "-d",
                    "-x",
                    "250",
                    "-y",
                    "50",
                    &script,
                ],
            )
            .env_remove("TMUX")
            .status()
            .expect("tmux (scripts/install-deps installs it)");
        assert!(status.success(), "tmux new-session");
        Pane {
            socket,
            display: desktop.display.clone(),
        }
    }

    fn tmux(&self, args: &[&str]) -> String {
        let out = Command::new("tmux")
            .args(["-u", "-S"])
            .arg(&self.socket)
            .args(args)
            .env("DISPLAY", &self.display)
            .output()
            .unwrap();
        assert!(out.status.success(), "tmux {args:?}: {out:?}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Everything the pane showed, its history included, lines joined.
    pub(crate) fn screen(&self) -> String {
        self.tmux(&["capture-pane", "-p", "-J", "-S", "-", "-t", "0"])
    }

    /// The bot's process: the one child of the pane's shell.
    fn bot_pid(&self) -> String {
        let shell = self.tmux(&["display-message", "-p", "-t", "0", "#{pane_pid}"]);
        wait_for("the bot's process in the pane", || child_of(shell.trim()))
    }

    /// Sends `signal` ("TERM", "HUP") to the bot.
    fn signal_bot(&self, signal: &str) {
        let pid = self.bot_pid();
        let status = Command::new("kill")
            .args([format!("-{signal}"), pid.clone()])
            .status()
            .unwrap();
        assert!(status.success(), "kill -{signal} {pid}");
    }

    /// Types `keys` as they are.
    pub(crate) fn keys(&self, keys: &str) {
        self.tmux(&["send-keys", "-t", "0", "-l", keys]);
    }

    /// Presses the key tmux names `key` ("Enter", "Escape").
    fn key(&self, key: &str) {
        self.tmux(&["send-keys", "-t", "0", key]);
    }

    /// Presses q, which quits at the menu; the screen once the bot has
    /// exited.
    fn quit(&self) -> String {
        self.keys("q");
        self.wait_for("[bot exited 0]", 1)
    }

    /// Says yes to the window found by its board: the practice window is
    /// named for no game, so the bot asks first.
    fn yes_it_is_the_game(&self) {
        self.wait_for("is this window the game?", 1);
        self.keys("y");
    }

    /// Waits until the screen holds `text` `times` times; the screen.
    pub(crate) fn wait_for(&self, text: &str, times: usize) -> String {
        let started = std::time::Instant::now();
        loop {
            let last = self.screen();
            if last.matches(text).count() >= times {
                return last;
            }
            assert!(
                started.elapsed() < std::time::Duration::from_secs(60),
                "no {text:?} x{times} on the terminal:\n{last}"
            );
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
    }
}

impl Drop for Pane {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .arg("-S")
            .arg(&self.socket)
            .arg("kill-server")
            .status();
    }
}

/// The first child process of `pid`, if it has one.
fn child_of(pid: &str) -> Option<String> {
    let out = Command::new("pgrep").args(["-P", pid]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    text.lines().next().map(str::to_owned)
}

/// Whether the process `pid` is gone (or a zombie, ended but not waited
/// for).
fn ended(pid: &str) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).map_or(true, |stat| {
        stat.rsplit(')')
            .next()
            .is_some_and(|rest| rest.trim_start().starts_with('Z'))
    })
}

/// Ends, when dropped, the processes whose command line names the path.
struct EndedByName<'a>(&'a Path);

impl Drop for EndedByName<'_> {
    fn drop(&mut self) {
        let _ = Command::new("pkill").arg("-f").arg(self.0).status();
    }
}

/// The grid's rows as the terminal shows them ("5 | G G G G B O Y O"),
/// colours left out by the capture.
fn grid_rows(board: &str) -> Vec<String> {
    board
        .split(',')
        .enumerate()
        .map(|(n, row)| {
            let letters: Vec<String> = row.chars().map(String::from).collect();
            format!("{} | {}", 5 - n, letters.join(" "))
        })
        .collect()
}

/// The screen point of the last hint line on `screen`, and how many hints
/// there are.
fn last_hint(screen: &str) -> Option<((i64, i64), usize)> {
    let hints: Vec<&str> = screen
        .lines()
        .filter(|l| l.starts_with("hint: click"))
        .collect();
    let line = hints.last()?;
    let at = line.split(" at (").nth(1)?;
    let (x, rest) = at.split_once(", ")?;
    let y = rest.split(')').next()?;
    Some(((x.parse().ok()?, y.parse().ok()?), hints.len()))
}

#[test]
fn bot_alone_finds_the_board_hints_to_the_clear_and_shows_the_record() {
    let desktop = Desktop::start();
    let practice = desktop.practice(REAL_BOARD, 150, GAME);
    let pane = Pane::start(&desktop, &[]);
    pane.yes_it_is_the_game();
    let screen = pane.wait_for("What now?", 1);
    assert!(screen.contains("found the game by its board"), "{screen}");
    assert!(
        screen.contains(&format!("board read: {REAL_BOARD}")),
        "{screen}"
    );
    for row in grid_rows(REAL_BOARD) {
        assert!(screen.contains(&row), "no row {row:?}:\n{screen}");
    }
    assert!(screen.contains("calibration: "), "{screen}");
    // Said with the menu, or after it where a loaded machine takes over a
    // second to prove it.
    pane.wait_for("optimum 11 clicks, proven", 1);
    pane.keys("1");
    // The player follows every hint, as the terminal says it.
    let mut clicked = 0;
    loop {
        let screen = pane.screen();
        if screen.contains("cleared in ") {
            break;
        }
        if let Some((point, hints)) = last_hint(&screen)
            && hints == clicked + 1
        {
            desktop.click(point);
            clicked += 1;
            practice.wait_for_clicks(clicked);
        }
        assert!(clicked <= 11, "more clicks than the optimum:\n{screen}");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let screen = pane.wait_for("cleared in 11 clicks", 1);
    assert_eq!(practice.clicks().len(), 11, "{screen}");
    // Games until quit: q ends them with the summary, and the menu is back.
    // The q asks the door, which says it stops, as the window's Stop does.
    pane.keys("q");
    let screen = pane.wait_for("What now?", 2);
    assert!(screen.contains("\nstopping\n"), "{screen}");
    assert!(screen.contains("1 game(s): 1 cleared"), "{screen}");
    assert!(screen.contains("; stopped by q"), "{screen}");
    // The session's own lines only: no log line but a warning.
    assert!(!screen.contains("INFO"), "{screen}");
    let games = desktop.recorded();
    assert_eq!(games.len(), 1, "{screen}");
    assert_eq!(games[0]["mode"], "assist");
    assert_eq!(games[0]["cleared"], true);
    pane.keys("4");
    // The plot is written, never opened in a viewer over the game.
    let screen = pane.wait_for("record.png", 1);
    assert!(screen.contains("over optimum"), "{screen}");
    pane.wait_for("What now?", 3);
    assert!(
        screen.contains(
            &desktop
                .path("data/dustbot/games.jsonl")
                .display()
                .to_string()
        ),
        "{screen}"
    );
    assert!(
        desktop.path("data/dustbot/record.png").is_file(),
        "{screen}"
    );
    pane.keys("q");
    pane.wait_for("[bot exited 0]", 1);
}

#[test]
fn a_long_proof_at_the_door_is_said_and_the_menu_answers_meanwhile() {
    // The slowest of the bench's 1000 boards: proven in about 5 s here,
    // well past the second after which the door says it is proving.
    const HARD_BOARD: &str = "OYGGGGOG,GOBYBOYY,ORYBOBGR,RRGRYGOB,YBBOBORY,ORYYYBGB";
    let desktop = Desktop::start();
    let practice = desktop.practice(HARD_BOARD, 100, GAME);
    let pane = Pane::start(&desktop, &[]);
    pane.yes_it_is_the_game();
    let screen = pane.wait_for("What now?", 1);
    assert!(
        screen.contains("still proving the optimum after 1 s: "),
        "{screen}"
    );
    assert!(!screen.contains("optimum 14 clicks"), "{screen}");
    for row in grid_rows(HARD_BOARD) {
        assert!(screen.contains(&row), "no row {row:?}:\n{screen}");
    }
    // When the proof ends its optimum is said under the menu, which
    // stands: not put again. (Proven, or, where the tests' load stretches
    // the proof past the door's 20 s, the best found and said so.)
    let screen = pane.wait_for("optimum 14 clicks", 1);
    assert_eq!(screen.matches("What now?").count(), 1, "{screen}");
    // Calibrated on it, the same board read again: its plan shown at
    // once, not proven again.
    pane.keys("3");
    pane.wait_for("Enter if it is the board in the game", 1);
    pane.key("Enter");
    let screen = pane.wait_for("What now?", 2);
    assert_eq!(screen.matches("optimum 14 clicks").count(), 2, "{screen}");
    assert_eq!(
        screen.matches("still proving the optimum").count(),
        1,
        "{screen}"
    );
    pane.quit();
    drop(pane);

    // A second start finds the window remembered and proves again: a key
    // pressed meanwhile is taken at once, not after the proof.
    let pane = Pane::start(&desktop, &[]);
    pane.wait_for("still proving the optimum after 1 s: ", 1);
    let screen = pane.quit();
    assert!(!screen.contains("optimum 14 clicks"), "{screen}");
    assert!(practice.clicks().is_empty());
    drop(pane);

    // Play chosen while the door proves takes up the door's proof: its
    // plan comes with no search of the run's own, and clears the board.
    let pane = Pane::start(&desktop, &[]);
    pane.wait_for("still proving the optimum after 1 s: ", 1);
    pane.keys("2");
    let screen = pane.wait_for("cleared in 14 clicks", 1);
    let plan = screen.lines().find(|l| l.starts_with("plan: 14 moves"));
    assert!(plan.is_some_and(|l| l.contains("(0 nodes)")), "{screen}");
    assert_eq!(practice.clicks().len(), 14);
    pane.keys("q");
    pane.wait_for("What now?", 2);
    pane.quit();
}

#[test]
fn play_for_me_clears_in_the_optimum_and_a_second_start_remembers() {
    let desktop = Desktop::start();
    let practice = desktop.practice(REAL_BOARD, 150, GAME);
    let pane = Pane::start(&desktop, &[]);
    pane.yes_it_is_the_game();
    pane.wait_for("What now?", 1);
    pane.keys("2");
    let screen = pane.wait_for("cleared in 11 clicks", 1);
    assert!(screen.contains("move the mouse to stop"), "{screen}");
    assert_eq!(practice.clicks().len(), 11);
    pane.keys("q");
    pane.wait_for("What now?", 2);
    pane.keys("4");
    let screen = pane.wait_for("record.png", 1);
    assert!(screen.contains("1 game in "), "{screen}");
    pane.wait_for("What now?", 3);
    pane.keys("q");
    pane.wait_for("[bot exited 0]", 1);
    drop(pane);
    let settings = std::fs::read_to_string(desktop.path("config/dustbot/settings.toml")).unwrap();
    assert!(
        settings.contains("window = \"Dust Practice\""),
        "{settings}"
    );
    assert!(settings.contains("last_choice = \"play\""), "{settings}");

    // The next start says what it remembered and offers it first.
    let pane = Pane::start(&desktop, &[]);
    let screen = pane.wait_for("What now?", 1);
    assert!(screen.contains("remembered ("), "{screen}");
    assert!(screen.contains("the window \"Dust Practice\""), "{screen}");
    assert!(
        screen.contains("found the game by the window remembered"),
        "{screen}"
    );
    assert!(
        screen.contains("Enter: 2 play for me (your last choice)"),
        "{screen}"
    );
    pane.keys("q");
    pane.wait_for("[bot exited 0]", 1);
}

#[test]
fn a_game_opened_after_the_start_is_found_and_a_broken_settings_file_is_named() {
    let desktop = Desktop::start();
    let settings = desktop.path("config/dustbot/settings.toml");
    std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
    let broken = "window = \"Dust\"\nlast_choice = \"dance\"\n";
    std::fs::write(&settings, broken).unwrap();
    // Named, with the choice of the default: the file is never written
    // over.
    let pane = Pane::start(&desktop, &[]);
    let screen = pane.wait_for("d: use the default calibration", 1);
    assert!(screen.contains("line 2"), "{screen}");
    assert!(screen.contains(&settings.display().to_string()), "{screen}");
    pane.keys("q");
    pane.wait_for("[bot exited 0]", 1);
    assert_eq!(std::fs::read_to_string(&settings).unwrap(), broken);
    drop(pane);

    std::fs::remove_file(&settings).unwrap();
    let (_other, _) = desktop.plain_window("Notes");
    let pane = Pane::start(&desktop, &[]);
    let screen = pane.wait_for("looking again every 2 s", 1);
    assert!(
        screen.contains("start the dust game so that a full board shows"),
        "{screen}"
    );
    // What it tried is said: the window without a board.
    assert!(screen.contains("\"Notes\""), "{screen}");
    let _practice = desktop.practice(REAL_BOARD, 150, GAME);
    pane.yes_it_is_the_game();
    let screen = pane.wait_for("What now?", 1);
    assert!(screen.contains("found the game by its board"), "{screen}");
    assert!(
        screen.contains(&format!("board read: {REAL_BOARD}")),
        "{screen}"
    );
    pane.keys("q");
    pane.wait_for("[bot exited 0]", 1);
}

#[test]
fn a_report_holds_the_version_the_screens_the_windows_and_the_last_frames_only() {
    let desktop = Desktop::start();
    let _game = desktop.practice(REAL_BOARD, 0, GAME);
    // A frame the bot saved, and a file beside it that is no frame.
    std::fs::create_dir_all(desktop.path("debug")).unwrap();
    let frame = desktop.path("debug/unreadable-frame.png");
    image::RgbaImage::from_pixel(4, 3, image::Rgba([9, 8, 7, 255]))
        .save(&frame)
        .unwrap();
    std::fs::write(desktop.path("debug/private.txt"), "a secret of the disk").unwrap();
    let out = desktop.run_bot(&["report"]);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let path = said
        .trim()
        .strip_prefix("wrote the report ")
        .and_then(|rest| rest.split(": attach").next())
        .unwrap_or_else(|| panic!("{said}"));
    assert!(
        path.starts_with(desktop.path("data").to_str().unwrap()),
        "{said}"
    );
    let page = std::fs::read_to_string(path).unwrap();
    assert!(page.contains(&format!("version {}", env!("CARGO_PKG_VERSION"))));
    // X11 has no HDR: each screen's is said unknown.
    assert!(page.contains("display scale 100%, HDR unknown"), "{page}");
    assert!(page.contains("&quot;Dust Practice"), "{page}");
    assert!(page.contains("unreadable-frame.png"), "{page}");
    assert_eq!(page.matches("data:image/png;base64,").count(), 1, "{page}");
    assert!(!page.contains("a secret of the disk"), "{page}");
}

/// A picture of a full board in an image viewer (xloadimage), titled
/// `title`, and its id: a board that no click changes.
fn picture_of_a_board(desktop: &Desktop, title: &str) -> (Running, String) {
    let sample = format!("{}/samples/full-1x-bare.png", env!("CARGO_MANIFEST_DIR"));
    desktop.open_window(title, || {
        let mut command = std::process::Command::new("xloadimage");
        command
            .args(["-title", title, &sample])
            .env("DISPLAY", &desktop.display);
        command
    })
}

/// The settings file as the test's config folder has it.
fn settings_text(desktop: &Desktop) -> String {
    std::fs::read_to_string(desktop.path("config/dustbot/settings.toml")).unwrap_or_default()
}

/// Writes the settings file, for a session to start with.
fn write_settings(desktop: &Desktop, text: &str) {
    let settings = desktop.path("config/dustbot/settings.toml");
    std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
    std::fs::write(settings, text).unwrap();
}

#[test]
fn a_picture_of_a_board_is_never_played_nor_remembered_without_a_yes() {
    let desktop = Desktop::start();
    let (_viewer, _) = picture_of_a_board(&desktop, "screenshot.png");
    let pane = Pane::start(&desktop, &[]);
    // Found by its board only: asked, named with its application.
    let screen = pane.wait_for("is this window the game?", 1);
    assert!(screen.contains("\"screenshot.png\""), "{screen}");
    assert!(
        screen.contains("perhaps") || screen.contains("picture"),
        "{screen}"
    );
    assert!(!screen.contains("What now?"), "{screen}");
    pane.keys("n");
    // No: not offered again, nothing remembered, nothing played.
    let screen = pane.wait_for("no game found", 1);
    assert_eq!(
        screen.matches("is this window the game?").count(),
        1,
        "{screen}"
    );
    pane.keys("q");
    pane.wait_for("[bot exited 0]", 1);
    drop(pane);
    assert!(
        !settings_text(&desktop).contains("window ="),
        "{}",
        settings_text(&desktop)
    );

    // Yes, then play: two clicks change nothing, which is said as what
    // it may be; no game is recorded for it.
    let pane = Pane::start(&desktop, &[]);
    pane.yes_it_is_the_game();
    pane.wait_for("What now?", 1);
    pane.keys("2");
    let screen = pane.wait_for("r: try again", 1);
    assert!(screen.contains("a picture of a board"), "{screen}");
    assert!(!screen.contains("administrator"), "{screen}");
    assert!(desktop.recorded().is_empty(), "{screen}");
    pane.keys("q");
    pane.wait_for("[bot exited 0]", 1);
}

#[test]
fn only_a_key_pressed_at_the_question_answers_it() {
    let desktop = Desktop::start();
    let practice = desktop.practice(REAL_BOARD, 150, GAME);
    // Play remembered: an Enter typed while the bot starts would repeat it.
    write_settings(
        &desktop,
        "window = \"Dust Practice\"\nlast_choice = \"play\"\n",
    );
    let pane = Pane::start(&desktop, &[]);
    pane.key("Enter");
    pane.wait_for("What now?", 1);
    std::thread::sleep(std::time::Duration::from_secs(1));
    // Shift+Up, Alt+Up: escape sequences console cuts after three bytes,
    // whose rest ("2A", "3A") would choose play or calibrate.
    pane.keys("\x1b[1;2A");
    pane.keys("\x1b[1;3A");
    std::thread::sleep(std::time::Duration::from_secs(2));
    let screen = pane.screen();
    assert!(!screen.contains("playing:"), "{screen}");
    assert!(!screen.contains("the board read:"), "{screen}");
    assert!(practice.clicks().is_empty(), "{screen}");
    // A key pressed now answers: q quits.
    pane.keys("q");
    pane.wait_for("[bot exited 0]", 1);
}

#[test]
fn a_terminal_named_for_the_game_is_never_offered_nor_remembered() {
    let desktop = Desktop::start();
    let (_xterm, _) = desktop.terminal("Nodiatis");
    let _practice = desktop.practice(REAL_BOARD, 150, GAME);
    let pane = Pane::start(&desktop, &[]);
    pane.yes_it_is_the_game();
    let screen = pane.wait_for("What now?", 1);
    assert!(screen.contains("window: \"Dust Practice"), "{screen}");
    assert!(!screen.contains("windows may be the game"), "{screen}");
    pane.keys("q");
    pane.wait_for("[bot exited 0]", 1);
    let settings = settings_text(&desktop);
    assert!(
        settings.contains("window = \"Dust Practice\""),
        "{settings}"
    );
}

#[test]
fn a_saved_calibration_that_is_gone_is_named_and_the_default_offered() {
    let desktop = Desktop::start();
    let _practice = desktop.practice(REAL_BOARD, 150, GAME);
    let gone = desktop.path("gone.toml");
    write_settings(
        &desktop,
        &format!(
            "window = \"Dust Practice\"\n\ncalibration = {:?}\n",
            gone.display().to_string()
        ),
    );
    let pane = Pane::start(&desktop, &[]);
    let screen = pane.wait_for("d: use the default calibration", 1);
    assert!(screen.contains(&gone.display().to_string()), "{screen}");
    assert!(screen.contains("line 3"), "{screen}");
    pane.keys("d");
    pane.wait_for("What now?", 1);
    pane.wait_for("optimum 11 clicks, proven", 1);
    pane.keys("q");
    pane.wait_for("[bot exited 0]", 1);
    // The choice is kept: the next start reads with the default.
    let settings = settings_text(&desktop);
    assert!(!settings.contains("gone.toml"), "{settings}");
    assert!(
        settings.contains("window = \"Dust Practice\""),
        "{settings}"
    );
}

#[test]
fn bot_alone_in_a_terminal_over_the_board_says_its_terminal_covers_it() {
    let desktop = Desktop::start();
    let practice = desktop.practice(REAL_BOARD, 150, GAME);
    let (x, y, width, height) = desktop.window_rectangle(&practice.id);
    // A player's terminal, typed `bot` in, lying over the whole board:
    // an xterm (an ancestor of the bot) whose screen `script` copies to a
    // file for the test to read.
    let out = desktop.path("terminal.out");
    let bot = format!("'{}'", bot_path());
    let geometry = format!("{}x{}+{x}+{y}", width / 6 + 2, height / 13 + 2);
    // `script` outlives the xterm ended with the test, and so does the
    // bot waiting on the terminal `script` keeps: both ended by name.
    let _script = EndedByName(&out);
    let (_xterm, terminal) = desktop.open_window("player's terminal", || {
        let mut command = desktop.on_this_display(
            "xterm",
            &[
                "-T",
                "player's terminal",
                "-geometry",
                &geometry,
                "-e",
                "script",
                "-q",
                "-f",
                "-c",
                &bot,
                out.to_str().unwrap(),
            ],
        );
        command.env("TERM", "xterm");
        command
    });
    assert!(desktop.overlap(&terminal, &practice.id));
    let said = wait_for("the bot's words on its terminal", || {
        let text = std::fs::read_to_string(&out).unwrap_or_default();
        text.contains("looking again every").then_some(text)
    });
    assert!(said.contains("this terminal"), "{said}");
    assert!(said.contains("move it aside"), "{said}");
    assert!(!said.contains("no game found"), "{said}");
    // Put aside, the game is found.
    assert!(
        desktop
            .xdotool(&["windowminimize", &terminal])
            .status
            .success()
    );
    let said = wait_for("the game found once the terminal moved", || {
        let text = std::fs::read_to_string(&out).unwrap_or_default();
        text.contains("is this window the game?").then_some(text)
    });
    assert!(said.contains("Dust Practice"), "{said}");
}

#[test]
fn key_3_calibrates_on_the_board_confirmed_and_the_menu_reads_with_it() {
    let desktop = Desktop::start();
    let _practice = desktop.practice(REAL_BOARD, 150, GAME);
    let pane = Pane::start(&desktop, &[]);
    pane.yes_it_is_the_game();
    pane.wait_for("What now?", 1);
    pane.keys("3");
    pane.wait_for("Enter if it is the board in the game", 1);
    let saved = desktop.path("config/dustbot/calibration.toml");
    assert!(!saved.exists());
    pane.key("Enter");
    let screen = pane.wait_for("What now?", 2);
    calibration_saved(&desktop, &screen);
    // The menu's board read with it.
    pane.wait_for("optimum 11 clicks, proven", 2);
    pane.keys("q");
    pane.wait_for("[bot exited 0]", 1);
}

#[test]
fn a_request_to_end_at_the_menu_and_the_terminal_closing_in_play_end_bot_alone_said_as_such() {
    let desktop = Desktop::start();
    let practice = desktop.practice(REAL_BOARD, 300, GAME);
    // SIGTERM (`kill PID`) at the menu: the session ends, said so.
    let pane = Pane::start(&desktop, &[]);
    pane.yes_it_is_the_game();
    pane.wait_for("What now?", 1);
    pane.signal_bot("TERM");
    let screen = pane.wait_for("[bot exited 143]", 1);
    assert!(
        screen.contains("dustbot: ended by a request to end the bot"),
        "{screen}"
    );
    drop(pane);
    // SIGHUP (the terminal closing) in play: the run stops between
    // clicks, the button up, the game recorded, the summary said with
    // its reason, and the session ends.
    let pane = Pane::start(&desktop, &[]);
    pane.wait_for("What now?", 1);
    pane.keys("2");
    practice.wait_for_clicks(2);
    pane.signal_bot("HUP");
    let screen = pane.wait_for("[bot exited 129]", 1);
    assert!(
        screen.contains("stopped by the terminal closing"),
        "{screen}"
    );
    // Ended, not back at the menu.
    assert_eq!(screen.matches("What now?").count(), 1, "{screen}");
    assert!(!left_button_down(&desktop.display));
    let recorded = desktop.recorded();
    assert_eq!(recorded.len(), 1, "{recorded:?}");
    assert!(practice.clicks().len() < 11);
}

#[test]
fn bot_alone_ends_when_its_xterms_close_button_is_pressed() {
    let desktop = Desktop::start();
    let _practice = desktop.practice(REAL_BOARD, 150, GAME);
    // The bot typed in an xterm that logs its screen to a file (-l).
    let out = desktop.path("terminal.out");
    let (xterm, terminal) = desktop.open_window("player's terminal", || {
        desktop.on_this_display(
            "xterm",
            &[
                "-T",
                "player's terminal",
                "-geometry",
                "80x10+900+800",
                "-l",
                "-lf",
                out.to_str().unwrap(),
                "-e",
                bot_path(),
            ],
        )
    });
    wait_for("the bot's question on its terminal", || {
        let text = std::fs::read_to_string(&out).unwrap_or_default();
        text.contains("is this window the game?").then_some(())
    });
    let pid = child_of(&xterm.0.id().to_string()).expect("the bot under the xterm");
    // The close button (WM_DELETE_WINDOW), pressed once as a player
    // does: xterm hangs up on the terminal (SIGHUP) and waits for what
    // runs in it to end.
    close_window(&desktop.display, &terminal);
    // Within a second by hand on a quiet desktop (0.004 to 0.06 s from
    // the message to the bot's end, six closes); the machine's load is no
    // part of what is judged here: a bot that takes the hang-up as a stop
    // and stays at its menu, as it did, never ends.
    let closed = std::time::Instant::now();
    while !ended(&pid) {
        assert!(
            closed.elapsed() < std::time::Duration::from_secs(10),
            "the bot ({pid}) still runs 10 s after its terminal closed: {}\n{}",
            std::fs::read_to_string(&out).unwrap_or_default(),
            std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default()
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    wait_for("the end said on the terminal", || {
        let text = std::fs::read_to_string(&out).unwrap_or_default();
        text.contains("dustbot: ended by the terminal closing")
            .then_some(())
    });
}

#[test]
fn the_display_ending_in_play_is_said_as_such_and_ends_bot_alone() {
    let desktop = Desktop::start();
    let practice = desktop.practice(REAL_BOARD, 300, GAME);
    let pane = Pane::start(&desktop, &[]);
    pane.yes_it_is_the_game();
    pane.wait_for("What now?", 1);
    pane.keys("2");
    practice.wait_for_clicks(2);
    desktop.end_the_display();
    let screen = pane.wait_for("[bot exited 1]", 1);
    assert!(
        screen.contains("stopped by the display closing"),
        "{screen}"
    );
    assert!(
        screen.contains("dustbot: ended by the display closing"),
        "{screen}"
    );
    assert!(!screen.contains("the game window closed"), "{screen}");
    // The session's own words only: no log line (enigo's error of the
    // lost connection) on the player's terminal without -v.
    assert!(
        !screen.contains(" ERROR]") && !screen.contains(" WARN ]"),
        "{screen}"
    );
    // Recorded as stopped, never as the game's window closed.
    let recorded = desktop.recorded();
    assert_eq!(recorded.len(), 1, "{recorded:?}");
    assert_eq!(recorded[0]["end"], "interrupted", "{recorded:?}");
}
