//! The desktop app, `dustbot`: the guided session's door with a window
//! instead of a console. Its window (one of the bot's own, drawn with the
//! renderer and its font) shows the board read in the game's look with the
//! plan numbered on it, a status (the window found, the calibration, the
//! proven optimum, what the bot does, each game's line, the run's summary)
//! and buttons; the guided session's keys work in it (1 hints, 2 play, 3
//! calibrate, 4 the record, Escape stops, q quits). Calibrating shows the
//! board read from the game's window in the board's place, the player's
//! clicks on its cells correct it ([`correct`]), and the run floor learns,
//! saves and reads back the calibration ([`crate::app::calibrate`]). It
//! finds the game as the guided session does ([`find::search`], on a
//! thread: the window keeps answering), asking Yes or No for a window
//! found only by its board, and looks again every 2 s while none is found.
//! Hints and play are the commands' own runs, game after game until Stop,
//! on a thread of their own ([`worker`]); the settings, the game log, the
//! record, the calibration and the report are the guided session's files. Once the game is found the window goes
//! beside it, never over it. Every line the window says is also written
//! on standard output (nowhere, for a GUI program on Windows), for the
//! tests and for a player who starts it from a terminal. What no window
//! shows, an error before the window or a panic, goes to the app's log
//! and a message box ([`faults`]).

mod correct;
pub mod faults;
mod instance;
pub mod layout;
mod worker;

use std::cell::RefCell;
use std::collections::VecDeque;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::rc::Rc;
use std::sync::atomic::Ordering;
use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use anyhow::Result;

use super::args::{PlayArgs, StatsArgs};
use crate::app::calibrate::Calibrating;
use crate::app::settings::{self, Choice};
use crate::app::{Mode, Target};
use crate::assist::{Border, place_sized};
use crate::desktop::stop::{self, Asker};
use crate::desktop::{
    self, Desktop as _, Key, OwnWindow, ScreenPoint, ScreenRect, WindowInfo, folders,
};
use crate::files;
use crate::game::{Board, NODIATIS_HEIGHT, NODIATIS_WIDTH};
use crate::live::find::{self, Found, Search, Seen};
use crate::render::{Canvas, HintPainter, font};
use crate::solver::{self, Strategy};
use crate::vision::Calibration;
use layout::{Button, CALIBRATING, FAILED, Layout, MENU, QUESTION};
use worker::{Note, Shown};

/// The window's title.
pub const TITLE: &str = "dustbot";
/// How often the windows are looked at again while no game is found.
const LOOK_AGAIN: Duration = Duration::from_secs(2);
/// The window's frame rate: a click shows within a frame, and where the
/// platform gives no presses (`OwnWindow::press`), the button's state
/// still sees a 40 ms one.
const RATE: usize = 60;

const BACKGROUND: [u8; 3] = [28, 26, 24];
const TEXT: [u8; 3] = [232, 228, 214];
const ERROR: [u8; 3] = [255, 140, 120];
const BUTTON: [u8; 3] = [70, 64, 56];
const BUTTON_EDGE: [u8; 3] = [150, 140, 120];

/// Runs the desktop app until its window is closed or Quit; 0 then, 2
/// when it could not start (no display, no settings folder).
pub fn main() -> ExitCode {
    faults::catch_panics();
    let prepared = desktop::prepare();
    let _bars = super::init_logging(0, 1);
    if let Err(cause) = prepared {
        log::warn!("{cause}: on a scaled display the pixels read and the clicks may disagree");
    }
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            // Before the window, or with it gone: no window says it.
            faults::say(&format!("error: {error:#}"));
            ExitCode::from(2)
        }
    }
}

/// The painter of the window's board: the board in the game's look as
/// `calibration` knows it, at the window's `scale`.
fn painter(calibration: &Calibration, scale: f32) -> HintPainter {
    HintPainter::new(CELLS.0, CELLS.1, &crate::app::look_of(calibration), scale)
}

/// Says `text` on standard output; a line that cannot be written is
/// dropped (the window shows it).
fn echo(text: &str) {
    let mut out = std::io::stdout().lock();
    writeln!(out, "{text}").and_then(|()| out.flush()).ok();
}

/// The status lines.
#[derive(Debug, Default)]
struct Status {
    window: String,
    calibration: String,
    optimum: String,
    doing: String,
    game: String,
    summary: String,
    /// The record's table, or an error's lines.
    more: Vec<String>,
}

impl Status {
    fn lines(&self) -> Vec<&str> {
        [
            &self.window,
            &self.calibration,
            &self.optimum,
            &self.doing,
            &self.game,
            &self.summary,
        ]
        .into_iter()
        .map(String::as_str)
        .filter(|l| !l.is_empty())
        .chain(self.more.iter().map(String::as_str))
        .collect()
    }
}

/// Says `text`, and shows its first line as one status line (a plan's
/// or a board's lines after it are on standard output only).
fn set(line: &mut String, text: String) {
    for part in text.lines() {
        echo(part);
    }
    *line = text.lines().next().unwrap_or_default().to_owned();
}

/// Where the app is.
enum Phase {
    /// Looking for the game: a search under way, or the time of the next.
    Looking {
        search: Option<Receiver<(Search, Seen)>>,
        next: Instant,
        said_none: bool,
    },
    /// A window found by its board alone: is it the game?
    Asking(Found),
    /// The game found: the menu.
    Ready,
    /// Hints or play, the Pause key the bot's while they go on.
    Running {
        notes: Receiver<Note>,
        worker: JoinHandle<()>,
        _stop_key: stop::StopKey,
    },
    /// An error shown, with Try again and Save a report.
    Failed,
    /// The board read from the game's window, shown for the player to
    /// confirm or correct (`board`), then Save or Cancel.
    Calibrating {
        calibrating: Box<Calibrating>,
        board: Board,
    },
}

impl Phase {
    /// The line shown where the board goes while there is none to show.
    fn headline(&self) -> &'static str {
        match self {
            Phase::Asking(_) => "is this window the game?",
            Phase::Failed => "stopped: the error is below",
            _ => "looking for the game...",
        }
    }
}

/// What the player asked for.
enum Flow {
    Go,
    Quit,
}

struct App {
    window: OwnWindow,
    layout: Layout,
    painter: HintPainter,
    frame: Canvas,
    keys: Rc<RefCell<VecDeque<Key>>>,
    dirty: bool,
    shown: Option<Shown>,
    status: Status,
    phase: Phase,
    args: PlayArgs,
    settings_path: PathBuf,
    calibration: Calibration,
    calibration_path: PathBuf,
    /// Between searches: the windows read lately.
    seen: Option<Seen>,
    /// Whether a search's readings are kept for the next: not the first
    /// search's. It starts as the window opens, and the window manager
    /// may not yet have moved the window to its corner: under Wine, one
    /// start in five read only the half of the game's board that the
    /// window's width leaves, and the game, kept as showing none, was
    /// read again only 10 s later.
    keep_seen: bool,
    /// Windows the player said are not the game.
    declined: find::Declined,
    /// The game's window and the text that finds it again.
    game: Option<(WindowInfo, String)>,
    /// When the window asked about, or the game's, was last looked for
    /// in the window list: one that closed is neither.
    checked: Instant,
    /// The record's plot, shown where the board goes until the next
    /// button.
    plot: Option<Canvas>,
    /// Troubles said once and shown under the status while they hold (a
    /// folder that cannot be written, a calibration that could not be
    /// read).
    notices: Vec<String>,
    /// The lock that keeps a second app from starting, where the window's
    /// id is told.
    lock: Option<instance::Lock>,
    last_error: Option<String>,
}

fn run() -> Result<()> {
    // One app at a time: a second start brings the first forward.
    let lock = folders::data_folder()
        .map_err(|e| e.to_string())
        .and_then(|data| instance::take(&instance::path_in(&data)));
    let lock = match lock {
        Ok(instance::Start::First(lock)) => Some(lock),
        Ok(instance::Start::Running(window)) => {
            let raised = window.map(desktop::bring_to_front);
            echo(&match raised {
                Some(Ok(())) => "dustbot runs already: its window brought to the front".to_owned(),
                Some(Err(why)) => {
                    format!("dustbot runs already (its window not brought to the front: {why})")
                }
                None => "dustbot runs already, its window still opening".to_owned(),
            });
            return Ok(());
        }
        Err(why) => {
            log::warn!("a second start is not kept from making a second app: {why}");
            None
        }
    };
    let settings_path = settings::settings_path()?;
    // A saved calibration that is gone or broken, or settings that cannot
    // be read: said in the window, the default read with meanwhile, and
    // Calibrate makes a new one (the guided session's `d` and `3`).
    let (calibration, calibration_path, unread) = match crate::app::calibration(None) {
        Ok((calibration, path)) => (calibration, path, None),
        Err(error) => {
            let path = Calibration::default_path();
            let line = format!(
                "error: {error:#} ({}): reading with the default calibration; 3 calibrates on the game's board",
                settings_path.display()
            );
            (Calibration::load_default(&path)?, path, Some(line))
        }
    };
    stop::catch()?;
    // The first screen, asked once: the window's scale and corner.
    let first_screen = desktop::screens().ok().and_then(|s| s.into_iter().next());
    let layout = Layout::new(CELLS, start_scale(first_screen));
    let window = open_window(&layout)?;
    let mut app = App {
        window,
        layout,
        painter: painter(&calibration, layout.scale),
        frame: Canvas::new(layout.size.0, layout.size.1, BACKGROUND),
        keys: Rc::default(),
        dirty: true,
        shown: None,
        status: Status::default(),
        phase: looking(),
        args: PlayArgs::defaults(),
        settings_path,
        calibration,
        calibration_path,
        seen: Some(Seen::default()),
        keep_seen: false,
        declined: find::Declined::default(),
        game: None,
        checked: Instant::now(),
        plot: None,
        notices: Vec::new(),
        lock,
        last_error: None,
    };
    app.tell_window();
    app.listen();
    echo(&format!(
        "dustbot {}: window {}x{} at scale {}",
        env!("CARGO_PKG_VERSION"),
        layout.size.0,
        layout.size.1,
        layout.scale
    ));
    set(
        &mut app.status.calibration,
        format!(
            "calibration: {}",
            crate::app::calibration_name(&app.calibration_path)
        ),
    );
    app.check_folders();
    if let Some(line) = unread {
        app.notice(line);
    }
    app.place_at_the_side(first_screen);
    app.run();
    Ok(())
}

/// The scale the window opens at: the first screen's (150% makes it one
/// and a half times as big, as every window there), smaller only where
/// the screen has no room for it with its frame.
fn start_scale(first_screen: Option<(ScreenRect, f32)>) -> f32 {
    let Some((screen, scale)) = first_screen else {
        return 1.0;
    };
    let frame = Border::at_scale(scale);
    let fits = |&s: &f32| {
        let (w, h) = Layout::new(CELLS, s).size;
        w as i32 + 2 * frame.side <= screen.width as i32
            && h as i32 + frame.top + frame.side <= screen.height as i32
    };
    let scales = crate::assist::scales(scale);
    scales
        .into_iter()
        .find(fits)
        .unwrap_or(scales[scales.len() - 1])
}

/// The board size the window is drawn for: the game's.
const CELLS: (u8, u8) = (NODIATIS_WIDTH, NODIATIS_HEIGHT);

fn open_window(layout: &Layout) -> Result<OwnWindow> {
    let mut window = OwnWindow::open(TITLE, layout.size, false)
        .map_err(|e| anyhow::anyhow!("cannot open the window: {e}"))?;
    window.set_rate(RATE);
    Ok(window)
}

/// Looking for the game, at once.
fn looking() -> Phase {
    Phase::Looking {
        search: None,
        next: Instant::now(),
        said_none: false,
    }
}

impl App {
    /// The window's keys, as pressed, however short.
    fn listen(&mut self) {
        let keys = Rc::clone(&self.keys);
        self.window.on_keys(move |key, down| {
            if down {
                keys.borrow_mut().push_back(key);
            }
        });
    }

    /// The window's loop, until it is closed or Quit.
    fn run(&mut self) {
        while self.window.is_open() {
            // Ctrl-C or a request to end (no window's button asked):
            // the app ends as its window's close ends it.
            if stop::requested().load(Ordering::SeqCst) && stop::asker().is_none() {
                break;
            }
            self.advance();
            let mut flow = Flow::Go;
            let keys: Vec<Key> = self.keys.borrow_mut().drain(..).collect();
            for key in keys {
                if let Flow::Quit = self.key(key) {
                    flow = Flow::Quit;
                }
            }
            if let Some(point) = self.clicked()
                && let Flow::Quit = self.click(point)
            {
                flow = Flow::Quit;
            }
            if let Flow::Quit = flow {
                break;
            }
            // Moved to a monitor of another scale: drawn at that scale.
            if let Some(by) = self.window.rescaled() {
                self.rescale(self.layout.scale * by);
            }
            if self.dirty {
                self.paint();
                let size = (self.frame.width, self.frame.height);
                if let Err(error) = self.window.show(&self.frame.pixels, size) {
                    log::warn!("the window cannot be drawn: {error}");
                }
                self.dirty = false;
            } else {
                self.window.pump();
            }
        }
        self.stop_run();
        echo("dustbot: closed");
    }

    /// The point of the window clicked since the last look, if any.
    fn clicked(&mut self) -> Option<(i64, i64)> {
        let (x, y) = self.window.press()?;
        Some((x.floor() as i64, y.floor() as i64))
    }

    /// A click at `point`: its button pressed, or, while calibrating, its
    /// cell's colour changed.
    fn click(&mut self, point: (i64, i64)) -> Flow {
        if let Some(button) = self.layout.button_at(self.row(), point) {
            return self.press(button);
        }
        if let Some(cell) = self.layout.cell_at(point)
            && let Phase::Calibrating { board, .. } = &mut self.phase
        {
            let line = match correct::cycle(board, cell) {
                Ok((changed, state)) => {
                    *board = changed;
                    format!(
                        "calibrate: column {} row {} is now {}",
                        cell.x,
                        cell.y,
                        correct::said(state)
                    )
                }
                Err(refused) => format!("calibrate: {refused}"),
            };
            self.dirty = true;
            set(&mut self.status.doing, line);
        }
        Flow::Go
    }

    /// The buttons shown now.
    fn row(&self) -> &'static [Button] {
        match self.phase {
            Phase::Asking(_) => &QUESTION,
            Phase::Failed => &FAILED,
            Phase::Calibrating { .. } => &CALIBRATING,
            _ => &MENU,
        }
    }

    fn key(&mut self, key: Key) -> Flow {
        if let (Key::Escape, Phase::Running { .. }) = (key, &self.phase) {
            self.ask_stop(Asker::Escape);
            return Flow::Go;
        }
        let button = match (key, &self.phase) {
            (Key::Q, _) => Button::Quit,
            (Key::Enter | Key::NumPadEnter, Phase::Calibrating { .. }) => Button::Save,
            (Key::Escape, Phase::Calibrating { .. }) => Button::Cancel,
            // Only Save, Cancel and Quit under the board to calibrate on.
            (_, Phase::Calibrating { .. }) => return Flow::Go,
            (Key::Y | Key::Enter | Key::NumPadEnter, Phase::Asking(_)) => Button::Yes,
            // The last No taken back.
            (Key::Y, Phase::Looking { .. }) => Button::Yes,
            (Key::N, Phase::Asking(_)) => Button::No,
            (Key::One, _) => Button::Hints,
            (Key::Two, _) => Button::Play,
            (Key::Three, _) => Button::Calibrate,
            (Key::Four, _) => Button::Record,
            _ => return Flow::Go,
        };
        self.press(button)
    }

    fn press(&mut self, button: Button) -> Flow {
        self.dirty = true;
        // The record's plot stays until another button.
        self.plot = None;
        match button {
            Button::Quit => return Flow::Quit,
            Button::Stop => self.ask_stop(Asker::StopButton),
            Button::Hints => self.start(Choice::Hints),
            Button::Play => self.start(Choice::Play),
            Button::Record => {
                if !matches!(self.phase, Phase::Running { .. }) {
                    self.record();
                }
            }
            Button::Report | Button::SaveReport => self.report(),
            Button::Calibrate => self.calibrate(),
            Button::Save => self.save_calibration(),
            Button::Cancel => {
                if let Phase::Calibrating { .. } = self.phase {
                    self.phase = Phase::Ready;
                    self.status.more.clear();
                    set(
                        &mut self.status.doing,
                        format!(
                            "calibration unchanged: {}",
                            crate::app::calibration_name(&self.calibration_path)
                        ),
                    );
                }
            }
            Button::Yes => {
                let found = match &self.phase {
                    Phase::Asking(found) => Some(found.clone()),
                    Phase::Looking { .. } => self.declined.take_back(),
                    _ => None,
                };
                if let Some(found) = found {
                    set(
                        &mut self.status.doing,
                        format!("found the game by its board: {}", found.window),
                    );
                    self.found(found);
                }
            }
            Button::No => {
                if let Phase::Asking(found) = &self.phase {
                    self.declined.decline(found);
                    set(
                        &mut self.status.doing,
                        format!("you said {} is not the game: y takes it back", found.window),
                    );
                    self.phase = looking();
                }
            }
            // As the guided session's `r`: the game looked for again (the
            // error may be its window gone).
            Button::TryAgain => {
                self.declined.forget();
                self.look_again("looking for the game".to_owned());
            }
        }
        Flow::Go
    }

    /// Moves the phase on: a search started or its result taken, the
    /// run's notes taken.
    fn advance(&mut self) {
        match &mut self.phase {
            Phase::Looking { search, next, .. } => match search {
                None if Instant::now() >= *next => {
                    let seen = self.seen.take().unwrap_or_default();
                    *search = Some(search_on_a_thread(
                        self.calibration.clone(),
                        settings::current().ok().and_then(|s| s.window),
                        seen,
                    ));
                }
                None => {}
                Some(rx) => match rx.try_recv() {
                    Ok((result, seen)) => {
                        self.seen = self.keep_seen.then_some(seen);
                        self.keep_seen = true;
                        self.searched(result);
                    }
                    Err(TryRecvError::Empty) => {}
                    Err(TryRecvError::Disconnected) => {
                        self.fail("the search for the game failed".to_owned());
                    }
                },
            },
            Phase::Running { notes, .. } => {
                let mut taken = Vec::new();
                let gone = loop {
                    match notes.try_recv() {
                        Ok(note) => taken.push(note),
                        Err(TryRecvError::Empty) => break false,
                        Err(TryRecvError::Disconnected) => break true,
                    }
                };
                for note in taken {
                    self.note(note);
                }
                // The run's thread ended without its end (a fault in the
                // bot): said, with Try again, never a run shown as going on.
                if gone && matches!(self.phase, Phase::Running { .. }) {
                    self.worker_died();
                }
            }
            Phase::Asking(_) | Phase::Ready if self.checked.elapsed() >= LOOK_AGAIN => {
                self.checked = Instant::now();
                self.still_there();
            }
            Phase::Asking(_) | Phase::Ready | Phase::Failed | Phase::Calibrating { .. } => {}
        }
    }

    /// The settings and data folders, which the app writes: one that
    /// cannot be written is said once in the window, with what goes
    /// without it.
    fn check_folders(&mut self) {
        let folders = [
            (
                "settings",
                folders::config_folder(),
                "the game's window and your calibration are not remembered for the next start",
            ),
            (
                "data",
                folders::data_folder(),
                "the games are not recorded and no report can be saved",
            ),
        ];
        for (name, folder, without) in folders {
            let checked = folder
                .map_err(|e| e.to_string())
                .and_then(|f| files::check_folder(&f).map_err(|e| format!("{}: {e}", f.display())));
            if let Err(why) = checked {
                self.notice(format!(
                    "the {name} folder cannot be written ({why}): {without}"
                ));
            }
        }
    }

    /// A trouble said once in the window (and on standard output), under
    /// the status.
    fn notice(&mut self, line: String) {
        if self.notices.contains(&line) {
            return;
        }
        echo(&line);
        self.notices.push(line);
        self.dirty = true;
    }

    /// The window asked about, or the game's at the menu, closed: the
    /// question withdrawn, the menu gone, the game looked for again.
    fn still_there(&mut self) {
        let window = match (&self.phase, &self.game) {
            (Phase::Asking(found), _) => &found.window,
            (Phase::Ready, Some((window, _))) => window,
            _ => return,
        };
        let Ok(all) = desktop::system().windows() else {
            return;
        };
        if all.iter().any(|w| w.id == window.id) {
            return;
        }
        let line = format!("{window} closed: looking for the game");
        // Its menu's line goes with it.
        self.status.summary.clear();
        self.look_again(line);
    }

    /// The game forgotten (its window, its board, what was said of it)
    /// and looked for again, `line` said.
    fn look_again(&mut self, line: String) {
        self.status.window.clear();
        self.status.optimum.clear();
        self.status.more.clear();
        self.game = None;
        self.shown = None;
        self.phase = looking();
        self.dirty = true;
        set(&mut self.status.doing, line);
    }

    /// A search's result: the game found, a question, or the windows
    /// tried said and another search in [`LOOK_AGAIN`].
    fn searched(&mut self, mut search: Search) {
        self.dirty = true;
        self.declined.leave_out(&mut search);
        // Of several, the ones found by name first (the search's order);
        // each found by its board alone is asked about in turn.
        match search.found.into_iter().next() {
            Some(one) if !one.needs_a_yes() => {
                set(
                    &mut self.status.doing,
                    format!("found the game by {}: {}", one.by.words(), one.window),
                );
                self.found(one);
            }
            Some(one) => {
                self.status.more.clear();
                set(
                    &mut self.status.doing,
                    format!(
                        "a full board shows in {}: is this window the game? (it may be a picture of a board)",
                        one.window
                    ),
                );
                self.phase = Phase::Asking(one);
            }
            None => {
                let Phase::Looking {
                    search: pending,
                    next,
                    said_none,
                } = &mut self.phase
                else {
                    return;
                };
                *pending = None;
                *next = Instant::now() + LOOK_AGAIN;
                if !*said_none {
                    *said_none = true;
                    set(
                        &mut self.status.doing,
                        format!(
                            "no game found: no window is named {} and none shows a full board; looking again every {} s",
                            find::GAME_NAME,
                            LOOK_AGAIN.as_secs()
                        ),
                    );
                    self.status.more = search
                        .tried
                        .iter()
                        .map(|(window, why)| format!("  {window}: {why}"))
                        .collect();
                    for line in &self.status.more {
                        echo(line);
                    }
                }
            }
        }
    }

    /// The game is `found`: remembered, the window placed beside it, its
    /// board shown with the proven optimum, and the menu.
    fn found(&mut self, found: Found) {
        self.status.more.clear();
        let all = desktop::system().windows().unwrap_or_default();
        let text = find::text_that_finds(&all, &found.window);
        if let Some(text) = &text
            && let Err(error) = settings::update(&self.settings_path, |s| {
                s.window = Some(text.clone());
            })
        {
            self.notice(format!("the game window is not remembered: {error}"));
        }
        set(&mut self.status.window, format!("window: {}", found.window));
        if let Some(advice) = desktop::hdr::HdrState::warn_for_game(found.window.id) {
            echo(advice);
            self.status.more.push(advice.to_owned());
        }
        self.place_beside(&found.window);
        match found.board {
            Some(board) => self.show_plan(board),
            None => set(
                &mut self.status.optimum,
                "no board read now (a game not started, or one part played)".to_owned(),
            ),
        }
        let text = text.unwrap_or_else(|| found.window.title.clone());
        self.game = Some((found.window, text));
        self.phase = Phase::Ready;
        set(
            &mut self.status.summary,
            "1 hints, 2 play for me (moving the mouse stops it), 3 calibrate, 4 the record"
                .to_owned(),
        );
    }

    /// `board` shown with its proven optimum.
    fn show_plan(&mut self, board: Board) {
        let options = self
            .args
            .solver
            .options(Strategy::Optimal, self.args.rules.start());
        let outcome = solver::solve(&board, &options, &mut |_| {});
        let caption = worker::optimum_caption(outcome.length(), outcome.proven_optimal);
        set(&mut self.status.optimum, caption.clone());
        self.shown = Some(Shown {
            board,
            clicks: crate::assist::clicks_on(&board, &outcome.moves, outcome.rules),
            caption: vec![caption],
        });
    }

    /// Calibrating on the board the game's window shows now: captured
    /// once, the board read from it shown for the player to confirm or
    /// correct.
    fn calibrate(&mut self) {
        match self.phase {
            Phase::Ready => {}
            Phase::Running { .. } | Phase::Calibrating { .. } => return,
            _ => {
                return set(
                    &mut self.status.doing,
                    "no game found yet: start the dust game so that a full board shows, then 3 calibrates on it"
                        .to_owned(),
                );
            }
        }
        let Some((window, _)) = &self.game else {
            return;
        };
        let mut desktop = desktop::system();
        match Calibrating::capture(&mut desktop, window, &self.calibration) {
            Ok(calibrating) => {
                let board = calibrating.proposed;
                self.status.more.clear();
                echo(&format!("calibrate: the board read: {board}"));
                set(
                    &mut self.status.doing,
                    format!(
                        "calibrate: is this the board in the game? Click a cell to change its colour ({}); Save or Enter calibrates on it, Cancel or Escape leaves the calibration as it is",
                        correct::order()
                    ),
                );
                self.phase = Phase::Calibrating {
                    calibrating: Box::new(calibrating),
                    board,
                };
            }
            Err(error) => self.fail(format!("{error}")),
        }
    }

    /// The board confirmed: a calibration learned on it, saved in the
    /// settings folder, read back from there, and used from now on; an
    /// error leaves the board shown, to correct or cancel.
    fn save_calibration(&mut self) {
        let Phase::Calibrating { calibrating, board } = &self.phase else {
            return;
        };
        let board = *board;
        let saved = folders::config_folder()
            .map_err(anyhow::Error::from)
            .and_then(|folder| Ok(calibrating.save(&board, &folder)?));
        let saved = match saved {
            Ok(saved) => saved,
            Err(error) => {
                let line = format!("error: {error:#}");
                echo(&line);
                self.status.more = vec![line];
                return;
            }
        };
        let remembered = match settings::update(&self.settings_path, |s| {
            s.calibration = Some(saved.path.clone());
        }) {
            Ok(_) => String::new(),
            Err(error) => format!(" (not remembered for the next start: {error})"),
        };
        // A calibration that could not be read is replaced now.
        self.notices
            .retain(|line| !line.contains("reading with the default calibration"));
        self.painter = painter(&saved.calibration, self.layout.scale);
        self.calibration = saved.calibration;
        self.calibration_path = saved.path;
        self.status.more.clear();
        self.phase = Phase::Ready;
        set(
            &mut self.status.calibration,
            format!("calibration: {}", self.calibration_path.display()),
        );
        set(
            &mut self.status.doing,
            format!(
                "saved the calibration as {}: used from now on{remembered}",
                self.calibration_path.display()
            ),
        );
        self.show_plan(board);
    }

    /// Hints or play, game after game until Stop.
    fn start(&mut self, choice: Choice) {
        let Phase::Ready = self.phase else {
            if !matches!(self.phase, Phase::Running { .. }) {
                set(
                    &mut self.status.doing,
                    "no game found yet: start the dust game so that a full board shows".to_owned(),
                );
            }
            return;
        };
        let Some((window, text)) = self.game.clone() else {
            return;
        };
        if let Err(error) = settings::update(&self.settings_path, |s| {
            s.last_choice = Some(choice);
        }) {
            self.notice(format!("your choice is not remembered: {error}"));
        }
        let mode = match choice {
            Choice::Hints => Mode::Assist,
            Choice::Play => Mode::Play,
        };
        let loaded = (self.calibration.clone(), self.calibration_path.clone());
        let mut run = match super::run_with(&self.args, mode, Target::Found(window), loaded) {
            Ok(run) => run,
            Err(error) => return self.fail(format!("{error:#}")),
        };
        run.live.query = text;
        run.games = 0;
        // A stop asked before is not carried into the run.
        stop::clear();
        // The player's keyboard is the game's once they click there: the
        // stops named are those that reach the bot wherever it is (Escape
        // reaches the game, which may close on it).
        let stop_key = stop::StopKey::grab();
        let stops = if stop_key.held() {
            format!("Stop here or {} from anywhere", stop_key.names())
        } else {
            "Stop here".to_owned()
        };
        set(
            &mut self.status.doing,
            match choice {
                Choice::Hints => format!("hints: click as the hint says; {stops} ends them"),
                Choice::Play => format!("playing: move the mouse to stop, or {stops}"),
            },
        );
        self.status.game.clear();
        self.status.more.clear();
        set(
            &mut self.status.summary,
            match stop_key.held() {
                true => stop_key.said(),
                false => format!("{}: Stop here ends the run", stop_key.said()),
            },
        );
        let (notes, worker) = worker::start(run);
        self.phase = Phase::Running {
            notes,
            worker,
            _stop_key: stop_key,
        };
    }

    fn note(&mut self, note: Note) {
        self.dirty = true;
        match note {
            Note::Picture(shown) => self.shown = Some(shown),
            Note::Doing(line) => set(&mut self.status.doing, line),
            Note::Game(line) => set(&mut self.status.game, line),
            Note::Ended { summary, error } => {
                stop::clear();
                // The Pause key's line, until the summary says the end.
                self.status.summary.clear();
                if let Some(summary) = summary {
                    set(&mut self.status.summary, summary);
                }
                if let Phase::Running { worker, .. } =
                    std::mem::replace(&mut self.phase, Phase::Ready)
                {
                    worker.join().ok();
                }
                match error {
                    Some(error) => self.fail(error),
                    None => set(
                        &mut self.status.doing,
                        "ended: 1 hints, 2 play, 3 calibrate".to_owned(),
                    ),
                }
            }
        }
    }

    /// The run's thread ended without saying its end: it panicked. Its
    /// stop key given back, the fault said with Try again.
    fn worker_died(&mut self) {
        let Phase::Running { worker, .. } = std::mem::replace(&mut self.phase, Phase::Ready) else {
            return;
        };
        let why = match worker.join() {
            Err(panic) => panic_text(panic.as_ref()),
            Ok(()) => "it ended without a word".to_owned(),
        };
        stop::clear();
        self.status.summary.clear();
        self.fail(format!(
            "the run stopped on a fault in the bot ({why}): Try again, or Save a report"
        ));
    }

    /// Shows `error` with Try again and Save a report.
    fn fail(&mut self, error: String) {
        echo(&format!("error: {error}"));
        self.status.more = vec![format!("error: {error}")];
        self.last_error = Some(error);
        self.phase = Phase::Failed;
        self.dirty = true;
    }

    /// A run under way asked to stop, by `asker`.
    fn ask_stop(&mut self, asker: Asker) {
        if let Phase::Running { .. } = self.phase {
            stop::ask(asker);
            set(&mut self.status.doing, "stopping".to_owned());
            self.dirty = true;
        }
    }

    /// A run under way asked to stop and waited for, its end said as any
    /// run's (the summary, why it ended): the window is closing (Quit,
    /// its close, a signal to end).
    fn stop_run(&mut self) {
        if let Phase::Running { notes, worker, .. } =
            std::mem::replace(&mut self.phase, Phase::Ready)
        {
            // A signal's stop is asked already, and said as one.
            if !stop::requested().load(Ordering::SeqCst) {
                stop::ask(Asker::Closing);
            }
            worker.join().ok();
            for note in notes.try_iter() {
                self.note(note);
            }
        }
    }

    /// The record of the default game log, in the window; its plot opened.
    fn record(&mut self) {
        let shown = settings::default_game_log()
            .map_err(anyhow::Error::from)
            .and_then(|log| {
                if !log.exists() {
                    let folder = files::folder_of(&log);
                    return Ok(vec![match files::check_folder(&folder) {
                        Ok(()) => format!(
                            "no games recorded yet ({}): hints and play record each game",
                            log.display()
                        ),
                        Err(why) => format!(
                            "no games recorded: the data folder {} cannot be written ({why})",
                            folder.display()
                        ),
                    }]);
                }
                let plot = folders::data_folder()?.join("record.png");
                let text = super::stats::record_text(&StatsArgs {
                    logs: vec![log],
                    plot: Some(plot.clone()),
                    json: false,
                })?;
                let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
                // In this window: a viewer the bot opened would lie over
                // the game, whose board it must read.
                let picture = self.layout.picture;
                let size = (picture.width as u32, picture.height as u32);
                lines.push(match fitted(&plot, size) {
                    Ok(drawn) => {
                        self.plot = Some(drawn);
                        format!("the plot is drawn here (saved as {})", plot.display())
                    }
                    Err(why) => format!("the plot {} cannot be shown: {why}", plot.display()),
                });
                Ok(lines)
            });
        match shown {
            Ok(lines) => {
                for line in &lines {
                    echo(line);
                }
                self.status.more = lines;
            }
            Err(error) => self.fail(format!("{error:#}")),
        }
    }

    /// The report, saved in the data folder, with the last error.
    fn report(&mut self) {
        let line =
            match super::report::save(self.last_error.as_deref(), &self.args.live.debug_dir()) {
                Ok(path) => format!(
                    "wrote the report {}: attach it to your question",
                    path.display()
                ),
                Err(error) => format!("error: {error:#}"),
            };
        set(&mut self.status.doing, line);
    }

    /// Before the game is found: in a corner of the first screen clear of
    /// the windows there (the game's board must not be covered while it is
    /// looked for), the top-right one when none is.
    fn place_at_the_side(&mut self, first_screen: Option<(ScreenRect, f32)>) {
        let Some((screen, scale)) = first_screen else {
            return;
        };
        let windows = desktop::system().windows().unwrap_or_default();
        let border = Border::at_scale(scale);
        let (w, h) = (
            self.layout.size.0 as i32 + 2 * border.side,
            self.layout.size.1 as i32 + border.top + border.side,
        );
        let (left, top) = (screen.x, screen.y);
        let right = (screen.x + screen.width as i32 - w).max(left);
        let bottom = (screen.y + screen.height as i32 - h).max(top);
        let corners = [(right, top), (left, top), (right, bottom), (left, bottom)];
        let clear = |&(x, y): &(i32, i32)| {
            let ours = ScreenRect {
                x,
                y,
                width: w as u32,
                height: h as u32,
            };
            windows
                .iter()
                .filter(|window| window.is_visible())
                .all(|window| ours.intersection(&window.area()).is_none())
        };
        let at = corners.into_iter().find(clear).unwrap_or(corners[0]);
        self.window.place(at);
    }

    /// Beside the game's window, never over it, on its screen at the
    /// biggest scale that has room; where none has, the window stays and
    /// says so.
    fn place_beside(&mut self, game: &WindowInfo) {
        let area = game.area();
        let screens = desktop::screens().unwrap_or_default();
        let centre = ScreenPoint::new(
            area.x + area.width as i32 / 2,
            area.y + area.height as i32 / 2,
        );
        let Some(&(screen, scale)) = screens
            .iter()
            .find(|(s, _)| s.contains(centre))
            .or(screens.first())
        else {
            return;
        };
        let placement = place_sized(area, area, (screen, scale), |s| Layout::new(CELLS, s).size);
        let Some(placement) = placement else {
            set(
                &mut self.status.doing,
                "no room beside the game: move this window off the board".to_owned(),
            );
            return;
        };
        if placement.scale != self.layout.scale {
            self.rescale(placement.scale);
            echo(&format!(
                "dustbot: window {}x{} at scale {}",
                self.layout.size.0, self.layout.size.1, self.layout.scale
            ));
        }
        self.window.place(placement.at);
        echo(&format!(
            "dustbot: placed beside the game at {:?}",
            placement.at
        ));
    }

    /// The window's id, for a second start to bring it forward.
    fn tell_window(&self) {
        if let Some(lock) = &self.lock {
            lock.tell(self.window.id());
        }
    }

    /// The window drawn at `scale`, resized to fit: nothing cut off.
    fn rescale(&mut self, scale: f32) {
        let layout = Layout::new(CELLS, scale);
        self.window.resize(layout.size);
        self.layout = layout;
        self.painter = painter(&self.calibration, scale);
        self.frame = Canvas::new(layout.size.0, layout.size.1, BACKGROUND);
        self.dirty = true;
    }

    /// Draws the window: the board with the plan, the status, the buttons.
    fn paint(&mut self) {
        let layout = self.layout;
        let row = self.row();
        let frame = &mut self.frame;
        frame.fill(0, 0, frame.width as i64, frame.height as i64, BACKGROUND);
        let p = layout.picture;
        let mut picture = Canvas::new(p.width as usize, p.height as usize, BACKGROUND);
        match (&self.phase, &self.shown) {
            (phase, _)
                if self.plot.is_some()
                    && !matches!(phase, Phase::Calibrating { .. } | Phase::Running { .. }) =>
            {
                if let Some(plot) = &self.plot {
                    let (w, h) = (plot.width as i64, plot.height as i64);
                    picture.paste(plot, (p.width - w).max(0) / 2, (p.height - h).max(0) / 2);
                }
            }
            (Phase::Calibrating { board, .. }, _) => self.painter.paint(
                board,
                &[],
                &[
                    "calibrate: is this the board in the game?".to_owned(),
                    "click a cell to change its colour".to_owned(),
                ],
                &mut picture,
            ),
            (_, Some(shown)) => {
                self.painter
                    .paint(&shown.board, &shown.clicks, &shown.caption, &mut picture)
            }
            (phase, None) => {
                let (headline, size) = (phase.headline(), layout.text * 1.4);
                let width = font::text_width(headline, size);
                picture.text(
                    (p.width - width).max(0) / 2,
                    p.height / 2,
                    headline,
                    size,
                    TEXT,
                );
            }
        }
        frame.paste(&picture, p.x, p.y);
        let (x, mut y) = layout.status;
        let wrapped = self
            .status
            .lines()
            .into_iter()
            .chain(self.notices.iter().map(String::as_str))
            .flat_map(|line| wrap(line, layout.text, layout.status_width()));
        for line in wrapped.take(layout::STATUS_LINES) {
            let colour = if line.starts_with("error") {
                ERROR
            } else {
                TEXT
            };
            frame.text(x, y, &line, layout.text, colour);
            y += layout.line;
        }
        for (button, rect) in layout.buttons(row) {
            frame.fill(rect.x, rect.y, rect.width, rect.height, BUTTON);
            frame.outline(rect.x, rect.y, rect.width, rect.height, 1, BUTTON_EDGE);
            let (w, h) = font::text_size(button.label(), layout.text);
            frame.text(
                rect.x + (rect.width - i64::from(w)) / 2,
                rect.y + (rect.height - i64::from(h)) / 2,
                button.label(),
                layout.text,
                TEXT,
            );
        }
    }
}

/// What a panic said, from its payload: the text of `panic!`'s message.
fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "no message".to_owned())
}

/// The picture at `path` made to fit `size` (width, height), its
/// proportions kept, never enlarged.
fn fitted(path: &std::path::Path, (width, height): (u32, u32)) -> Result<Canvas, String> {
    let image = image::open(path).map_err(|e| e.to_string())?.to_rgba8();
    let scale = (width as f32 / image.width().max(1) as f32)
        .min(height as f32 / image.height().max(1) as f32)
        .min(1.0);
    let size = |side: u32| ((side as f32 * scale).round() as u32).max(1);
    let small = image::imageops::resize(
        &image,
        size(image.width()),
        size(image.height()),
        image::imageops::FilterType::Triangle,
    );
    Ok(Canvas::from_image(&small))
}

/// `text` in lines no wider than `width` at `size`, broken between words;
/// a word wider than that (a path, a board string) broken within it
/// ([`pieces`]).
fn wrap(text: &str, size: f32, width: i64) -> Vec<String> {
    let mut lines = Vec::new();
    for paragraph in text.lines() {
        let mut line = String::new();
        for word in paragraph.split(' ') {
            if font::text_width(word, size) > width {
                let mut pieces = pieces(word, size, width);
                let last = pieces.pop().unwrap_or_default();
                lines.extend((!line.is_empty()).then(|| std::mem::take(&mut line)));
                lines.extend(pieces);
                line = last;
                continue;
            }
            let longer = if line.is_empty() {
                word.to_owned()
            } else {
                format!("{line} {word}")
            };
            if !line.is_empty() && font::text_width(&longer, size) > width {
                lines.push(std::mem::replace(&mut line, word.to_owned()));
            } else {
                line = longer;
            }
        }
        lines.push(line);
    }
    lines
}

/// `word` in pieces no wider than `width` at `size` (a piece of one
/// character where even that is wider), each broken after its last comma
/// or path separator where it has one: a board string breaks between
/// rows, a path between folders.
fn pieces(word: &str, size: f32, width: i64) -> Vec<String> {
    let too_wide = |text: &str| font::text_width(text, size) > width;
    let mut pieces = Vec::new();
    let mut piece = String::new();
    for c in word.chars() {
        piece.push(c);
        if piece.chars().count() > 1 && too_wide(&piece) {
            piece.pop();
            // After the separator when what follows it fits with `c`.
            let cut = piece
                .rfind([',', '/', '\\'])
                .map(|at| at + 1)
                .filter(|&cut| !too_wide(&format!("{}{c}", &piece[cut..])))
                .unwrap_or(piece.len());
            let rest = piece.split_off(cut);
            pieces.push(std::mem::replace(&mut piece, rest));
            piece.push(c);
        }
    }
    pieces.push(piece);
    pieces
}

/// One search for the game on a thread of its own (it reads every window,
/// up to [`find::SEARCH_BUDGET`]); the result, with the windows seen.
fn search_on_a_thread(
    calibration: Calibration,
    remembered: Option<String>,
    mut seen: Seen,
) -> Receiver<(Search, Seen)> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut desktop = desktop::system();
        let search = find::search(
            &mut desktop,
            &calibration,
            remembered.as_deref(),
            find::SEARCH_BUDGET,
            &mut seen,
        )
        .unwrap_or_else(|error| {
            log::warn!("no windows to look at: {error}");
            Search::default()
        });
        tx.send((search, seen)).ok();
    });
    rx
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::live::find::By;

    #[test]
    fn the_headline_asks_while_the_question_is_open() {
        let found = Found {
            window: WindowInfo::default(),
            board: None,
            by: By::Board,
        };
        assert_eq!(Phase::Asking(found).headline(), "is this window the game?");
        let looking = Phase::Looking {
            search: None,
            next: Instant::now(),
            said_none: true,
        };
        assert_eq!(looking.headline(), "looking for the game...");
        assert_eq!(Phase::Failed.headline(), "stopped: the error is below");
    }

    #[test]
    fn a_thread_that_panicked_is_said_with_its_message() {
        let worker = std::thread::spawn(|| panic!("a fault {}", 7));
        let said = panic_text(worker.join().unwrap_err().as_ref());
        assert_eq!(said, "a fault 7");
        let worker = std::thread::spawn(|| std::panic::panic_any(42u8));
        assert_eq!(
            panic_text(worker.join().unwrap_err().as_ref()),
            "no message"
        );
        let worker = std::thread::spawn(|| panic!("plain"));
        assert_eq!(panic_text(worker.join().unwrap_err().as_ref()), "plain");
    }

    #[test]
    fn a_long_line_wraps_between_words_within_the_width() {
        let text = "a full board shows in \"Dust Practice - 0 clicks\" at 440,229 size 720x560: is this window the game?";
        let lines = wrap(text, 13.0, 200);
        assert!(lines.len() > 2, "{lines:?}");
        for line in &lines {
            assert!(font::text_width(line, 13.0) <= 200, "{line:?}");
        }
        assert_eq!(lines.join(" "), text);
        assert_eq!(wrap("short", 13.0, 200), ["short"]);
    }

    #[test]
    fn a_word_wider_than_the_window_breaks_within_it_a_board_between_rows_a_path_between_folders() {
        let board = "BBRRYROG,GRYRYOBY,BRORYYGO,GYGBROOO,GBYBYRBG,OOOYBRBR";
        let text = format!("calibrate: the board read: {board} end");
        let width = font::text_width("GRYRYOBY,BRORYYGO,", 13.0);
        let lines = wrap(&text, 13.0, width);
        for line in &lines {
            assert!(font::text_width(line, 13.0) <= width, "{lines:?}");
        }
        assert_eq!(lines.concat().replace(' ', ""), text.replace(' ', ""));
        // The rows stay whole: each break in the board is after a comma.
        let rows = lines
            .iter()
            .filter(|l| l.contains(',') || l.contains("OOOYBRBR"));
        for line in rows {
            let piece = line.trim_end_matches(" end");
            assert!(
                piece.ends_with(',') || piece.ends_with("OOOYBRBR"),
                "{lines:?}"
            );
        }
        // Without a comma, a word breaks where the width ends; a window
        // narrower than one character holds one a line.
        let long = "abcdefghijklmnopqrstuvwxyz";
        let lines = wrap(&format!("{long} end"), 13.0, 40);
        assert!(lines.len() > 3, "{lines:?}");
        assert_eq!(lines.concat().replace(' ', ""), format!("{long}end"));
        assert_eq!(wrap("abc", 13.0, 1), ["a", "b", "c"]);
        // A path breaks after a folder's separator.
        for path in [
            "/home/a.player.with.a.long.name/.config/dustbot/calibration.toml",
            r"C:\Users\a.player.with.a.long.name\AppData\Roaming\dustbot\calibration.toml",
        ] {
            let lines = wrap(&format!("saved as {path}: used"), 13.0, 200);
            let file = lines.iter().position(|l| l.contains("calibration.toml"));
            assert!(file.is_some_and(|at| at > 1), "{lines:?}");
            for line in &lines[1..file.unwrap()] {
                assert!(line.ends_with(['/', '\\']), "{lines:?}");
            }
        }
    }
}
