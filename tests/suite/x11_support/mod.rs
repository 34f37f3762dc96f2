//! Shared by the live-play and assist tests: a real X server of their own (`Xvfb` on a
//! free display, with `openbox`, which the window list needs), the practice
//! window on a fixed board with its click log, the bot run against it, and
//! `xdotool` as "the user" who moves windows and the mouse. Every process
//! started here is ended by its own handle when the test ends.

#![allow(dead_code)]

use std::ffi::OsStr;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::thread::sleep;
use std::time::{Duration, Instant};

use serde_json::Value;

/// The real game's board (`real/dust-game.board`): 11 moves, proven.
pub const REAL_BOARD: &str = dustbot::game::EXAMPLE_BOARD;

/// A board the solver proves in about a second (10 moves), for the tests
/// that stop the bot mid-game.
pub const QUICK_BOARD: &str = "OOBYRGGR,YROBRYRR,GOGOYORO,YBBGYRGG,YOYOYRGY,YYGOOOGO";

/// A board whose one optimal first click under centre-rows, (2,0) G x7,
/// takes the whole of column 2: each variant of the rules leaves another
/// board after it (found by a search over random boards), so a bot that
/// plans under centre-rows sees the game's rules at its first click.
pub const TELLING_BOARD: &str = "    B   ,  GRRBO ,YRGRRRR ,RRGGOOGR,RRGYRYRR,RRGGYGRB";

/// The screen size: room for two practice windows side by side.
const SCREEN: &str = "1600x1000x24";

/// How long to wait for a server, a window or a click before failing.
const PATIENCE: Duration = Duration::from_secs(30);

pub fn bot_path() -> &'static str {
    env!("CARGO_BIN_EXE_bot")
}

/// A process that is killed (and reaped) when dropped.
#[derive(Debug)]
pub struct Running(pub Child);

impl Drop for Running {
    /// SIGTERM first, so that Xvfb removes its lock and socket; SIGKILL
    /// when that does not end it soon.
    fn drop(&mut self) {
        let pid = self.0.id().to_string();
        let _ = Command::new("kill")
            .args(["-TERM", &pid])
            .stderr(Stdio::null())
            .status();
        let started = Instant::now();
        while started.elapsed() < Duration::from_secs(2) {
            if let Ok(Some(_)) = self.0.try_wait() {
                return;
            }
            sleep(Duration::from_millis(10));
        }
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

impl Drop for Desktop {
    /// When the test failed: the end of each file the test's programs
    /// wrote into its folder (the bot's output, the practice window's
    /// click log, the hint log), and what the bot's eyes read on each
    /// frame it saved in its debug folder there, for the report of a
    /// failure no test assertion could describe (a wait that timed out).
    fn drop(&mut self) {
        if !std::thread::panicking() {
            return;
        }
        let dir = self.dir.path();
        let mut files = files_in(dir);
        files.extend(files_in(&dir.join("debug")));
        for file in &files {
            if file.extension().is_some_and(|e| e == "png") {
                eprintln!("--- {}: {}", file.display(), what_the_bot_reads(file));
                continue;
            }
            let Ok(text) = std::fs::read_to_string(file) else {
                continue;
            };
            let lines: Vec<&str> = text.lines().collect();
            let tail = &lines[lines.len().saturating_sub(EVIDENCE_LINES)..];
            eprintln!(
                "--- {} (last {} of {} lines)\n{}",
                file.display(),
                tail.len(),
                lines.len(),
                tail.join("\n")
            );
        }
    }
}

/// The files in `dir` (not its folders), by name.
fn files_in(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|f| f.is_file())
        .collect();
    files.sort();
    files
}

/// A saved frame as the bot reads it with the default calibration: the
/// board, or why none and what it would have read.
fn what_the_bot_reads(frame: &Path) -> String {
    let image = match image::open(frame) {
        Ok(image) => image.to_rgba8(),
        Err(error) => return format!("not read: {error}"),
    };
    let path = crate::vision_support::repo("calibration/nodiatis.toml");
    let calibration = match dustbot::vision::Calibration::load(&path) {
        Ok(calibration) => calibration,
        Err(error) => return format!("no calibration: {error}"),
    };
    let size = format!("{}x{}", image.width(), image.height());
    match dustbot::vision::read(&image, &calibration, None) {
        Ok(reading) => match reading.board() {
            Ok(board) => format!(
                "{size}, read {board} (lowest confidence {:.2})",
                reading.min_confidence()
            ),
            Err(error) => format!(
                "{size}, no board: {error}; as a guess {}",
                reading
                    .guess()
                    .map_or_else(|e| format!("none: {e}"), |b| b.to_string())
            ),
        },
        Err(error) => format!("{size}, no board: {error}"),
    }
}

/// How many of a file's last lines a failed test's report shows.
const EVIDENCE_LINES: usize = 40;

impl Running {
    /// Sends `signal` ("TERM", "STOP", ...) to the process.
    pub fn signal(&self, signal: &str) {
        let status = Command::new("kill")
            .args([format!("-{signal}"), self.0.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success(), "kill -{signal} {}", self.0.id());
    }
}

/// An X server with a window manager, on a display no one else uses.
/// One desktop at a time: the tests judge timing (animations, settling)
/// and a solver on every core per test would starve the others.
#[derive(Debug)]
pub struct Desktop {
    pub display: String,
    pub dir: tempfile::TempDir,
    /// The physical button the player presses as the primary: 3 once
    /// [`Desktop::swap_buttons`] made the mouse a left-handed player's.
    primary: std::cell::Cell<u8>,
    // Dropped in order: the window manager before its server.
    wm: Running,
    _server: Running,
    _turn: MutexGuard<'static, ()>,
}

static TURN: Mutex<()> = Mutex::new(());

impl Desktop {
    pub fn start() -> Desktop {
        Desktop::start_on(SCREEN)
    }

    /// [`Desktop::start`] on a screen of `screen` ("WIDTHxHEIGHTxDEPTH").
    pub fn start_on(screen: &str) -> Desktop {
        let turn = TURN.lock().unwrap_or_else(PoisonError::into_inner);
        let dir = tempfile::tempdir().unwrap();
        let (server, display) = start_server(screen);
        let log = dir.path().join("openbox.out");
        let ready = dir.path().join("openbox.ready");
        let mut wm = Running(
            Command::new("openbox")
                // Run once openbox manages the windows there are and takes
                // requests: a window mapped before that (its root
                // properties, which the window list needs, come earlier)
                // may stay unmapped.
                .args(["--startup", &format!("touch '{}'", ready.display())])
                .env("DISPLAY", &display)
                .stdout(File::create(&log).unwrap())
                .stderr(File::create(&log).unwrap())
                .spawn()
                .expect("openbox (scripts/install-deps installs it)"),
        );
        wait_for("openbox to manage the screen", || {
            if let Some(status) = wm.0.try_wait().unwrap() {
                let text = std::fs::read_to_string(&log).unwrap_or_default();
                panic!("openbox ended ({status}): {text}");
            }
            ready.exists().then_some(())
        });
        Desktop {
            display,
            dir,
            primary: std::cell::Cell::new(1),
            wm,
            _server: server,
            _turn: turn,
        }
    }

    /// Sends `signal` (e.g. "STOP", "CONT") to the window manager.
    pub fn signal_window_manager(&self, signal: &str) {
        self.wm.signal(signal);
    }

    /// Ends the X server (SIGTERM), as a session's end or a crash does:
    /// every window and connection on it goes.
    pub fn end_the_display(&self) {
        self._server.signal("TERM");
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// The games in the default game log (the bot's data folder here).
    pub fn recorded(&self) -> Vec<Value> {
        json_lines(&self.path("data/dustbot/games.jsonl"))
    }

    /// `bot ARGS` on this display, in the test's folder.
    pub fn command(&self, args: &[&str]) -> Command {
        self.on_this_display(bot_path(), args)
    }

    /// `PROGRAM ARGS` on this display, in the test's folder, with the
    /// bot's log at its default level, its settings and data folders
    /// (the default game log) in the test's folder too.
    pub fn on_this_display(
        &self,
        program: impl AsRef<OsStr>,
        args: &[impl AsRef<OsStr>],
    ) -> Command {
        let mut command = Command::new(program);
        command
            .args(args)
            .env("DISPLAY", &self.display)
            .env_remove("DUSTBOT_LOG")
            .env("XDG_CONFIG_HOME", self.path("config"))
            .env("XDG_DATA_HOME", self.path("data"))
            .current_dir(self.dir.path());
        command
    }

    /// Opens the practice window on `board` with animations of `anim_ms`,
    /// logging to `<title>.log`, and waits until it is on the screen and
    /// shows the board.
    pub fn practice(&self, board: &str, anim_ms: u64, title: &str) -> Practice {
        self.practice_probed(board, anim_ms, title, &[])
    }

    /// [`Desktop::practice`], the window's board looked at with `probe`
    /// added to the bot's arguments (e.g. another calibration).
    pub fn practice_probed(
        &self,
        board: &str,
        anim_ms: u64,
        title: &str,
        probe: &[&str],
    ) -> Practice {
        self.open_practice(board, anim_ms, title, &[], probe, None)
    }

    /// [`Desktop::practice`] playing the variant of the rules named `rules`.
    pub fn practice_under(&self, board: &str, anim_ms: u64, title: &str, rules: &str) -> Practice {
        self.open_practice(board, anim_ms, title, &["--rules", rules], &[], None)
    }

    /// [`Desktop::practice_under`] animating its moves in the style named
    /// `style`.
    pub fn practice_styled(
        &self,
        board: &str,
        anim_ms: u64,
        title: &str,
        rules: &str,
        style: &str,
    ) -> Practice {
        let more = ["--rules", rules, "--anim-style", style];
        self.open_practice(board, anim_ms, title, &more, &[], None)
    }

    /// [`Desktop::practice`] drawn at window scale `scale` (1 is the real
    /// game's size).
    pub fn practice_scaled(&self, board: &str, anim_ms: u64, title: &str, scale: f32) -> Practice {
        let scale = scale.to_string();
        self.open_practice(board, anim_ms, title, &["--scale", &scale], &[], None)
    }

    /// [`Desktop::practice`] with `more` arguments (e.g. `--next-after`).
    pub fn practice_with(&self, board: &str, anim_ms: u64, title: &str, more: &[&str]) -> Practice {
        self.open_practice(board, anim_ms, title, more, &[], None)
    }

    /// [`Desktop::practice`] on a disk that holds `blocks` blocks of 512
    /// bytes of each file it writes (`ulimit -f` under Debian's sh, with
    /// SIGXFSZ ignored, so that a write past them fails as on a full disk).
    pub fn practice_on_a_full_disk(
        &self,
        board: &str,
        anim_ms: u64,
        title: &str,
        blocks: u32,
    ) -> Practice {
        self.open_practice(board, anim_ms, title, &[], &[], Some(blocks))
    }

    /// The practice window with `more` arguments, its board looked at with
    /// `probe` added to the bot's, its files limited to `blocks` (see
    /// [`Desktop::practice_on_a_full_disk`]).
    fn open_practice(
        &self,
        board: &str,
        anim_ms: u64,
        title: &str,
        more: &[&str],
        probe: &[&str],
        blocks: Option<u32>,
    ) -> Practice {
        let log = self.path(&format!("{title}.log"));
        let anim_ms = anim_ms.to_string();
        let mut args = vec![
            "practice",
            "--board",
            board,
            "--anim-ms",
            &anim_ms,
            "--title",
            title,
            "--log",
            log.to_str().unwrap(),
        ];
        args.extend_from_slice(more);
        let mut look = vec!["--window", title, "--dry-run", "--time", "0.05"];
        look.extend_from_slice(probe);
        for _ in 0..3 {
            let (process, id) = self.open_window(title, || match blocks {
                None => self.command(&args),
                Some(blocks) => {
                    let script = r#"trap '' XFSZ; ulimit -f "$0"; exec "$@""#;
                    let blocks = blocks.to_string();
                    let mut limited = vec!["-c", script, &blocks, bot_path()];
                    limited.extend_from_slice(&args);
                    self.on_this_display("sh", &limited)
                }
            });
            // The board must show before the test goes on (the window
            // sends its picture again every 250 ms once mapped): looked at
            // until it does, as a machine busy with other tests paints late.
            let started = Instant::now();
            while started.elapsed() < PATIENCE / 3 {
                let probe = self.run_bot(&look);
                let empty = String::from_utf8_lossy(&probe.stderr).contains("no dust on the board");
                if probe.status.success() || empty {
                    return Practice { id, log, process };
                }
                sleep(Duration::from_millis(100));
            }
        }
        panic!("the practice window {title:?} never showed its board");
    }

    /// A window without a board (`xmessage`), titled `title`, and its id.
    pub fn plain_window(&self, title: &str) -> (Running, String) {
        self.open_window(title, || {
            let mut command = Command::new("xmessage");
            command
                .args(["-title", title, "-geometry", "640x480", "no dust here"])
                .env("DISPLAY", &self.display);
            command
        })
    }

    /// Runs `command` until it shows a visible window titled `title`, and
    /// returns it with the window id. A window created while openbox is
    /// still starting can stay unmapped (openbox drops the request): the
    /// desktop waits until openbox has started, and should one still be
    /// dropped, it is opened again rather than mapped late.
    pub fn open_window(&self, title: &str, command: impl Fn() -> Command) -> (Running, String) {
        let out = self.path(&format!("{title}.out"));
        for _ in 0..3 {
            let file = File::create(&out).unwrap();
            let child = command()
                .stdout(file.try_clone().unwrap())
                .stderr(file)
                .spawn()
                .expect("scripts/install-deps installs what the tests run");
            let mut process = Running(child);
            let started = Instant::now();
            while started.elapsed() < Duration::from_secs(3) {
                if let Some(status) = process.0.try_wait().unwrap() {
                    let text = std::fs::read_to_string(&out).unwrap_or_default();
                    panic!("{title:?} ended ({status}): {text}");
                }
                let found = self.xdotool(&["search", "--onlyvisible", "--name", title]);
                if let Some(id) = String::from_utf8_lossy(&found.stdout).lines().next() {
                    // The first frame follows the mapping.
                    sleep(Duration::from_millis(300));
                    return (process, id.to_owned());
                }
                sleep(Duration::from_millis(20));
            }
        }
        panic!("the window {title:?} never showed");
    }

    /// Starts `bot --window TEXT ARGS`, output to files.
    pub fn start_bot(&self, window: &str, args: &[&str]) -> BotRun {
        let mut all = vec!["--window", window];
        all.extend_from_slice(args);
        self.spawn_bot(self.command(&all))
    }

    /// Starts `command`, a bot, its output in `bot.out` and `bot.err`.
    fn spawn_bot(&self, mut command: Command) -> BotRun {
        let stdout = self.path("bot.out");
        let stderr = self.path("bot.err");
        let child = command
            .stdout(File::create(&stdout).unwrap())
            .stderr(File::create(&stderr).unwrap())
            .spawn()
            .unwrap();
        BotRun {
            child: Some(Running(child)),
            stdout,
            stderr,
        }
    }

    /// [`Desktop::start_bot`] in a working folder the bot cannot write: a
    /// folder of mode 555, the bot run as `nobody` when the tests run as
    /// root (whom no mode stops). It runs a copy of itself beside the
    /// calibration, where that user can read both.
    pub fn start_bot_read_only(&self, window: &str, args: &[&str]) -> BotRun {
        use std::os::unix::fs::PermissionsExt as _;
        let mode = |path: &Path, mode| {
            std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap()
        };
        let (bot, calibration) = (self.path("bin/bot"), self.path("calibration/nodiatis.toml"));
        for folder in ["bin", "calibration"] {
            std::fs::create_dir_all(self.path(folder)).unwrap();
            mode(&self.path(folder), 0o755);
        }
        std::fs::copy(bot_path(), &bot).unwrap();
        let repository = concat!(env!("CARGO_MANIFEST_DIR"), "/calibration/nodiatis.toml");
        std::fs::copy(repository, &calibration).unwrap();
        mode(&calibration, 0o644);
        mode(self.dir.path(), 0o755);
        let folder = self.path("read-only");
        std::fs::create_dir_all(&folder).unwrap();
        mode(&folder, 0o555);
        let mut all = vec!["--window", window];
        all.extend_from_slice(args);
        let uid = Command::new("id").arg("-u").output().unwrap().stdout;
        let mut command = if String::from_utf8_lossy(&uid).trim() == "0" {
            let nobody = ["--reuid=65534", "--regid=65534", "--clear-groups"];
            let mut line: Vec<&OsStr> = nobody.iter().map(OsStr::new).collect();
            line.push(bot.as_os_str());
            line.extend(all.iter().map(OsStr::new));
            self.on_this_display("setpriv", &line)
        } else {
            self.on_this_display(&bot, &all)
        };
        command.current_dir(&folder);
        self.spawn_bot(command)
    }

    /// `bot ARGS` to the end.
    pub fn run_bot(&self, args: &[&str]) -> Output {
        self.command(args).output().unwrap()
    }

    /// Swaps the mouse's first and third buttons, as a left-handed
    /// player's settings do (`xmodmap -e "pointer = 3 2 1"`): physical
    /// button 3 is then the primary, the one applications take as the
    /// left click, and the player clicks with it.
    pub fn swap_buttons(&self) {
        self.x_tool("xmodmap", &["-e", "pointer = 3 2 1"]);
        self.primary.set(3);
    }

    /// Runs the X11 tool `program` with `args` on this display, as the
    /// player's desktop would (xmodmap, xrdb, setxkbmap, xkill: all
    /// installed with Xvfb or by scripts/install-deps), and checks it did.
    pub fn x_tool(&self, program: &str, args: &[&str]) {
        let out = Command::new(program)
            .args(args)
            .env("DISPLAY", &self.display)
            .output()
            .unwrap_or_else(|e| panic!("{program} (scripts/install-deps installs it): {e}"));
        assert!(out.status.success(), "{program} {args:?}: {out:?}");
    }

    /// A click as a player makes it, at a screen point, with the primary
    /// button: pressed and released in one go, shorter than any frame of
    /// the window it lands in (the bot's own windows hear every press).
    pub fn click(&self, (x, y): (i64, i64)) {
        let (x, y) = (x.to_string(), y.to_string());
        let button = self.primary.get().to_string();
        let out = self.xdotool(&["mousemove", &x, &y, "click", &button]);
        assert!(out.status.success(), "{out:?}");
    }

    /// A terminal (xterm) titled `title`, as a shell that names the
    /// running command in the title makes it; not the bot's ancestor.
    pub fn terminal(&self, title: &str) -> (Running, String) {
        self.open_window(title, || {
            let mut command = Command::new("xterm");
            command
                .args([
                    "-T",
                    title,
                    "-geometry",
                    "80x10+0+840",
                    "-e",
                    "sleep",
                    "120",
                ])
                .env("DISPLAY", &self.display);
            command
        })
    }

    /// The id of the visible window titled exactly `title`, if any.
    pub fn visible(&self, title: &str) -> Option<String> {
        let found = self.xdotool(&["search", "--onlyvisible", "--name", &format!("^{title}$")]);
        String::from_utf8_lossy(&found.stdout)
            .lines()
            .next()
            .map(str::to_owned)
    }

    /// The window manager's frame around window `id`: its left and top
    /// widths (`_NET_FRAME_EXTENTS`), none before it has framed it.
    pub fn frame_extents(&self, id: &str) -> Option<(i64, i64)> {
        let out = self
            .on_this_display("xprop", &["-id", id, "_NET_FRAME_EXTENTS"])
            .output()
            .expect("xprop (scripts/install-deps installs x11-utils)");
        let text = String::from_utf8_lossy(&out.stdout);
        let widths: Vec<i64> = text
            .split_once(" = ")?
            .1
            .split(", ")
            .map(|w| w.trim().parse().ok())
            .collect::<Option<_>>()?;
        match widths[..] {
            [left, _, top, _] => Some((left, top)),
            _ => None,
        }
    }

    /// Whether two windows' frames overlap on the screen.
    pub fn overlap(&self, a: &str, b: &str) -> bool {
        let (ax, ay, aw, ah) = self.window_rectangle(a);
        let (bx, by, bw, bh) = self.window_rectangle(b);
        ax < bx + bw && bx < ax + aw && ay < by + bh && by < ay + ah
    }

    /// The top-left of window `id`'s client area on the screen, as the
    /// server has it (xdotool's geometry is off by the window manager's
    /// frame).
    pub fn client_place(&self, id: &str) -> (i64, i64) {
        let out = self
            .on_this_display("xwininfo", &["-id", id])
            .output()
            .expect("xwininfo (scripts/install-deps installs x11-utils)");
        let text = String::from_utf8_lossy(&out.stdout);
        let field = |name: &str| -> i64 {
            text.lines()
                .find_map(|l| l.trim().strip_prefix(name))
                .and_then(|v| v.trim().parse().ok())
                .unwrap_or_else(|| panic!("no {name} in {text}"))
        };
        (
            field("Absolute upper-left X:"),
            field("Absolute upper-left Y:"),
        )
    }

    /// Gives the keyboard to window `id`, as the player's click on it
    /// does, and checks it has it: the bot's windows hear the keys of the
    /// window that has the keyboard only (winit's), as a player types.
    pub fn focus(&self, id: &str) {
        let out = self.xdotool(&["windowactivate", "--sync", id]);
        assert!(out.status.success(), "{out:?}");
        wait_for("the keyboard to go to the window", || {
            let out = self.xdotool(&["getwindowfocus"]);
            (String::from_utf8_lossy(&out.stdout).trim() == id).then_some(())
        });
    }

    /// Types `key` (as xdotool names it) in window `id`, as the player
    /// does: the keyboard given to the window first.
    pub fn key_in(&self, id: &str, key: &str) {
        self.focus(id);
        let out = self.xdotool(&["key", key]);
        assert!(out.status.success(), "{out:?}");
    }

    pub fn xdotool(&self, args: &[&str]) -> Output {
        Command::new("xdotool")
            .args(args)
            .env("DISPLAY", &self.display)
            .output()
            .expect("xdotool (scripts/install-deps installs it)")
    }

    /// The top-left of a window's client area on the screen.
    pub fn window_place(&self, id: &str) -> (i32, i32) {
        let (x, y, _, _) = self.window_rectangle(id);
        (x, y)
    }

    /// A dock along the screen's bottom, `height` pixels tall, that
    /// reserves them as a taskbar or a panel does (EWMH's dock type and
    /// `_NET_WM_STRUT_PARTIAL`), there while the value lives: returned
    /// once the window manager's work area (`_NET_WORKAREA`) leaves it
    /// out, with that work area's bottom.
    pub fn dock_at_bottom(&self, height: u16) -> (Dock, i32) {
        use x11rb::connection::Connection as _;
        use x11rb::protocol::xproto::{
            AtomEnum, ConnectionExt as _, CreateWindowAux, PropMode, WindowClass,
        };
        use x11rb::wrapper::ConnectionExt as _;
        let (conn, screen) = x11rb::connect(Some(&self.display)).expect("the test's display");
        let (root, width, full) = {
            let s = &conn.setup().roots[screen];
            (s.root, s.width_in_pixels, s.height_in_pixels)
        };
        let atom = |name: &str| atom(&conn, name);
        let id = conn.generate_id().unwrap();
        let top = full - height;
        conn.create_window(
            0,
            id,
            root,
            0,
            top as i16,
            width,
            height,
            0,
            WindowClass::INPUT_OUTPUT,
            0,
            &CreateWindowAux::new().background_pixel(0x20_20_20),
        )
        .unwrap();
        let dock = atom("_NET_WM_WINDOW_TYPE_DOCK");
        conn.change_property32(
            PropMode::REPLACE,
            id,
            atom("_NET_WM_WINDOW_TYPE"),
            AtomEnum::ATOM,
            &[dock],
        )
        .unwrap();
        // left, right, top, bottom, then each side's start and end.
        let strut = [
            0,
            0,
            0,
            u32::from(height),
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            u32::from(width) - 1,
        ];
        conn.change_property32(
            PropMode::REPLACE,
            id,
            atom("_NET_WM_STRUT_PARTIAL"),
            AtomEnum::CARDINAL,
            &strut,
        )
        .unwrap();
        conn.map_window(id).unwrap();
        conn.flush().unwrap();
        let work_area = atom("_NET_WORKAREA");
        let bottom = wait_for("the work area to leave the dock out", || {
            let reply = conn
                .get_property(false, root, work_area, AtomEnum::CARDINAL, 0, 4)
                .ok()?
                .reply()
                .ok()?;
            let area: Vec<u32> = reply.value32()?.collect();
            let bottom = (area.get(1)? + area.get(3)?) as i32;
            (bottom == i32::from(top)).then_some(bottom)
        });
        (Dock(conn), bottom)
    }

    /// Starts watching where the window manager shows the windows' frames
    /// ([`FrameWatch::shown_at`]), from now on.
    pub fn watch_frames(&self) -> FrameWatch {
        use x11rb::connection::Connection as _;
        use x11rb::protocol::xproto::{ChangeWindowAttributesAux, ConnectionExt as _, EventMask};
        let (conn, screen) = x11rb::connect(Some(&self.display)).expect("the test's display");
        let root = conn.setup().roots[screen].root;
        let mask = ChangeWindowAttributesAux::new().event_mask(EventMask::SUBSTRUCTURE_NOTIFY);
        conn.change_window_attributes(root, &mask)
            .unwrap()
            .check()
            .unwrap();
        FrameWatch {
            conn,
            events: Vec::new(),
        }
    }

    /// A window's client area on the screen: left, top, width, height.
    pub fn window_rectangle(&self, id: &str) -> (i32, i32, i32, i32) {
        let out = self.xdotool(&["getwindowgeometry", "--shell", id]);
        let text = String::from_utf8_lossy(&out.stdout);
        let field = |name: &str| -> i32 {
            text.lines()
                .find_map(|l| l.strip_prefix(&format!("{name}=")))
                .unwrap_or_else(|| panic!("no {name} in {text}"))
                .parse()
                .unwrap()
        };
        (field("X"), field("Y"), field("WIDTH"), field("HEIGHT"))
    }

    /// `shot` (a [`screenshot`]) cut to a window's client area.
    pub fn client_pixels(&self, id: &str, shot: &image::RgbaImage) -> image::RgbaImage {
        let (x, y, w, h) = self.window_rectangle(id);
        image::imageops::crop_imm(shot, x as u32, y as u32, w as u32, h as u32).to_image()
    }
}

/// A dock window of the test's ([`Desktop::dock_at_bottom`]): gone with
/// its connection.
pub struct Dock(#[allow(dead_code)] x11rb::rust_connection::RustConnection);

/// The root window's children as the server reports them (its
/// substructure's events): the window manager's frames, where each is
/// made, moved and shown.
pub struct FrameWatch {
    conn: x11rb::rust_connection::RustConnection,
    events: Vec<x11rb::protocol::Event>,
}

impl FrameWatch {
    /// Every top-left at which the frame around window `id` (as xdotool
    /// gives it) has been seen on the screen, in turn: where it was when
    /// mapped, then each place it moved to while mapped. Empty before
    /// the frame is mapped.
    pub fn shown_at(&mut self, id: &str) -> Vec<(i16, i16)> {
        use x11rb::connection::Connection as _;
        use x11rb::protocol::Event;
        use x11rb::protocol::xproto::ConnectionExt as _;
        // A round trip: every event the server made before it is read.
        self.conn.get_input_focus().unwrap().reply().unwrap();
        while let Some(event) = self.conn.poll_for_event().unwrap() {
            self.events.push(event);
        }
        let client: u32 = id.parse().expect("a window id in decimal, as xdotool says");
        let frame = self.events.iter().find_map(|event| match event {
            Event::ReparentNotify(e) if e.window == client => Some(e.parent),
            _ => None,
        });
        let Some(frame) = frame else {
            return Vec::new();
        };
        let (mut at, mut mapped, mut shown) = ((0, 0), false, Vec::new());
        for event in &self.events {
            match event {
                Event::CreateNotify(e) if e.window == frame => at = (e.x, e.y),
                Event::ConfigureNotify(e) if e.window == frame && (e.x, e.y) != at => {
                    at = (e.x, e.y);
                    if mapped {
                        shown.push(at);
                    }
                }
                Event::MapNotify(e) if e.window == frame => {
                    mapped = true;
                    shown.push(at);
                }
                Event::UnmapNotify(e) if e.window == frame => mapped = false,
                _ => {}
            }
        }
        shown
    }
}

/// Xvfb on the first display whose lock it can take: the server's own
/// lock file settles races between tests starting at once.
fn start_server(screen: &str) -> (Running, String) {
    for number in 140..240 {
        if Path::new(&format!("/tmp/.X{number}-lock")).exists() {
            continue;
        }
        let display = format!(":{number}");
        let child = Command::new("Xvfb")
            // No reset when the last client leaves: the readiness probes
            // connect and leave before the window manager comes.
            .args([
                &display,
                "-screen",
                "0",
                screen,
                "-nolisten",
                "tcp",
                "-noreset",
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("Xvfb (scripts/install-deps installs it)");
        let mut server = Running(child);
        let pid = server.0.id().to_string();
        let started = Instant::now();
        while started.elapsed() < PATIENCE {
            if server.0.try_wait().unwrap().is_some() {
                break; // another server took the display
            }
            let lock = std::fs::read_to_string(format!("/tmp/.X{number}-lock"));
            let ours = lock.is_ok_and(|l| l.trim() == pid);
            if ours && answers(&display) {
                return (server, display);
            }
            sleep(Duration::from_millis(50));
        }
        drop(server);
    }
    panic!("no free X display in :140..:240");
}

fn answers(display: &str) -> bool {
    Command::new("xprop")
        .args(["-root", "-display", display])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Whether the pointer's left button is down on `display`, as the X
/// server has it now.
pub fn left_button_down(display: &str) -> bool {
    use x11rb::connection::Connection as _;
    use x11rb::protocol::xproto::{ConnectionExt as _, KeyButMask};
    let (conn, screen) = x11rb::connect(Some(display)).unwrap();
    let root = conn.setup().roots[screen].root;
    let reply = conn.query_pointer(root).unwrap().reply().unwrap();
    reply.mask.contains(KeyButMask::BUTTON1)
}

/// The atom `name` on the display `conn` is connected to.
fn atom(conn: &impl x11rb::connection::Connection, name: &str) -> u32 {
    use x11rb::protocol::xproto::ConnectionExt as _;
    conn.intern_atom(false, name.as_bytes())
        .unwrap()
        .reply()
        .unwrap()
        .atom
}

/// Asks the window `id` (as xdotool names it) to close, as a window
/// manager's close button does: the WM_DELETE_WINDOW message of ICCCM
/// 4.2.8.1 sent to the window.
pub fn close_window(display: &str, id: &str) {
    use x11rb::protocol::xproto::{ClientMessageEvent, ConnectionExt as _, EventMask};
    let (conn, _) = x11rb::connect(Some(display)).unwrap();
    let window: u32 = id.parse().unwrap();
    let (protocols, delete) = (atom(&conn, "WM_PROTOCOLS"), atom(&conn, "WM_DELETE_WINDOW"));
    let event = ClientMessageEvent::new(32, window, protocols, [delete, 0, 0, 0, 0]);
    conn.send_event(false, window, EventMask::NO_EVENT, event)
        .unwrap();
    // A round trip before the connection closes: a busy X server that
    // finds the connection closed before it read the request drops it
    // unsent (xterm then waited 10 s for a close that never came).
    conn.get_input_focus().unwrap().reply().unwrap();
}

/// The whole screen as the bot captures it (the root window).
pub fn screenshot(display: &str) -> image::RgbaImage {
    use x11rb::connection::Connection as _;
    use x11rb::protocol::xproto::{ConnectionExt as _, ImageFormat};
    let (conn, screen) = x11rb::connect(Some(display)).unwrap();
    let root = &conn.setup().roots[screen];
    let (w, h) = (root.width_in_pixels, root.height_in_pixels);
    let reply = conn
        .get_image(ImageFormat::Z_PIXMAP, root.root, 0, 0, w, h, u32::MAX)
        .unwrap()
        .reply()
        .unwrap();
    // Xvfb at depth 24: BGRx, least significant byte first.
    let rgba = reply
        .data
        .chunks_exact(4)
        .flat_map(|p| [p[2], p[1], p[0], 255])
        .collect();
    image::RgbaImage::from_raw(u32::from(w), u32::from(h), rgba).unwrap()
}

/// Polls `probe` until it gives a value, for at most [`PATIENCE`].
pub fn wait_for<T>(what: &str, mut probe: impl FnMut() -> Option<T>) -> T {
    let started = Instant::now();
    loop {
        if let Some(value) = probe() {
            return value;
        }
        assert!(started.elapsed() < PATIENCE, "timed out waiting for {what}");
        sleep(Duration::from_millis(20));
    }
}

/// A practice window and its click log.
#[derive(Debug)]
pub struct Practice {
    /// The X window id, for xdotool.
    pub id: String,
    pub log: PathBuf,
    process: Running,
}

impl Practice {
    /// Whether the practice window's process still runs.
    pub fn is_running(&mut self) -> bool {
        self.process.0.try_wait().unwrap().is_none()
    }

    /// The clicks the window received so far.
    pub fn clicks(&self) -> Vec<Value> {
        self.lines("board_after")
    }

    /// The boards the window started after the first, so far.
    pub fn new_boards(&self) -> Vec<Value> {
        self.lines("new_board")
    }

    /// The log's lines that have the field `key`.
    fn lines(&self, key: &str) -> Vec<Value> {
        json_lines(&self.log)
            .into_iter()
            .filter(|line| line.get(key).is_some())
            .collect()
    }

    /// Sends `signal` ("STOP", "CONT", ...) to the window's process.
    pub fn signal(&self, signal: &str) {
        self.process.signal(signal);
    }

    /// Waits until the window has received `n` clicks.
    pub fn wait_for_clicks(&self, n: usize) {
        wait_for(&format!("{n} click(s) in the practice window"), || {
            (self.clicks().len() >= n).then_some(())
        });
    }
}

/// A bot running in the background.
#[derive(Debug)]
pub struct BotRun {
    child: Option<Running>,
    stdout: PathBuf,
    stderr: PathBuf,
}

/// A finished bot run.
#[derive(Debug)]
pub struct Finished {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

impl Finished {
    /// The clicks the bot says it made.
    pub fn clicks(&self) -> usize {
        self.stdout
            .lines()
            .filter(|l| l.starts_with("click ") && l.contains(" at ("))
            .count()
    }

    /// For assertion messages.
    pub fn dump(&self) -> String {
        format!(
            "exit {:?}\n--- stdout\n{}--- stderr\n{}",
            self.code, self.stdout, self.stderr
        )
    }
}

impl BotRun {
    /// Sends SIGINT (Ctrl-C) to the bot.
    pub fn interrupt(&self) {
        self.signal("INT");
    }

    /// Sends `signal` ("TERM", "HUP", ...) to the bot.
    pub fn signal(&self, signal: &str) {
        self.child.as_ref().unwrap().signal(signal);
    }

    /// Waits for the bot to end (at most 2 minutes).
    pub fn finish(mut self) -> Finished {
        let mut running = self.child.take().unwrap();
        let started = Instant::now();
        let status = loop {
            if let Some(status) = running.0.try_wait().unwrap() {
                break status;
            }
            assert!(
                started.elapsed() < Duration::from_secs(120),
                "the bot did not end"
            );
            sleep(Duration::from_millis(20));
        };
        Finished {
            code: status.code(),
            stdout: std::fs::read_to_string(&self.stdout).unwrap(),
            stderr: std::fs::read_to_string(&self.stderr).unwrap(),
        }
    }
}

// Assist mode's hint log (`--hint-log`), as the player reads it.

/// The hint log's lines so far.
pub fn hints(path: &Path) -> Vec<Value> {
    json_lines(path)
}

/// The lines of the JSON Lines file at `path` written so far, as values:
/// a last line without its newline is still being written (a line's one
/// write can show to a reader in part, where it crosses a page) and is
/// left for a later read.
pub fn json_lines(path: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let written = text.rfind('\n').map_or("", |end| &text[..=end]);
    written
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Waits for hint line `n` (0-based) and returns it.
pub fn hint(path: &Path, n: usize) -> Value {
    wait_for(&format!("hint {n}"), || hints(path).get(n).cloned())
}

/// Where the hint says to click.
pub fn hinted_point(line: &Value) -> (i64, i64) {
    let screen = &line["next"]["screen"];
    (screen[0].as_i64().unwrap(), screen[1].as_i64().unwrap())
}

/// The screen point of cell `(x, y)`'s centre from a hint's grid.
pub fn cell_point(line: &Value, (x, y): (u8, u8), height: u8) -> (i64, i64) {
    let g = &line["geometry"];
    let f = |k: &str| g[k].as_f64().unwrap();
    let row_from_top = f64::from(height - 1 - y);
    (
        (f("x") + (f64::from(x) + 0.5) * f("pitch_x")).round() as i64,
        (f("y") + (row_from_top + 0.5) * f("pitch_y")).round() as i64,
    )
}

/// Clicks every hint from line `n` on until a line says the board is
/// cleared; returns the lines read, and the time from each click to the
/// next hint.
pub fn follow_hints(desktop: &Desktop, path: &Path, mut n: usize) -> (Vec<Value>, Vec<u128>) {
    let mut lines = Vec::new();
    let mut latencies = Vec::new();
    loop {
        let line = hint(path, n);
        lines.push(line.clone());
        if line["cleared"] == true {
            return (lines, latencies);
        }
        assert!(n < 40, "too many hints: {lines:?}");
        desktop.click(hinted_point(&line));
        let clicked = Instant::now();
        n += 1;
        hint(path, n);
        latencies.push(clicked.elapsed().as_millis());
    }
}

/// The solver's proven optimum for `board`, from `bot solve --json`.
pub fn proven_optimum(board: &str) -> usize {
    proven_optimum_under(board, "centre-rows")
}

/// The solver's proven optimum for `board` under the rules named `rules`.
pub fn proven_optimum_under(board: &str, rules: &str) -> usize {
    let out = Command::new(bot_path())
        .args(["solve", "--json", "--rules", rules, board])
        .output()
        .unwrap();
    let line: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(line["proven_optimal"], true, "{line}");
    line["length"].as_u64().unwrap() as usize
}

/// Checks that a door said it saved the calibration it made as
/// `calibration.toml` in the test's settings folder and uses it (`said`:
/// all it said), that the file loads, and that the settings name it.
pub fn calibration_saved(desktop: &Desktop, said: &str) {
    let saved = desktop.path("config/dustbot/calibration.toml");
    let shown = saved.display();
    let line = format!("saved the calibration as {shown}: used from now on");
    assert!(said.contains(&line), "{said}");
    assert!(said.contains(&format!("calibration: {shown}")), "{said}");
    let loaded = dustbot::vision::Calibration::load(&saved);
    assert!(loaded.is_ok(), "{loaded:?}");
    let settings = std::fs::read_to_string(desktop.path("config/dustbot/settings.toml")).unwrap();
    let named = format!("calibration = {:?}", shown.to_string());
    assert!(settings.contains(&named), "{settings}");
}
