//! The desktop app, `dustbot`: the front door ([`crate::app::door`]) with a
//! window for its face. Its window (one of the bot's own, drawn with the
//! renderer and its font) shows the board read in the game's look with the
//! plan numbered on it, the door's status lines (the window found, the
//! calibration, the proven optimum, what the bot does, each game's line,
//! the run's summary) and the door's offer as a row of buttons; the guided
//! session's keys work in it (1 hints, 2 play, 3 calibrate, 4 the record,
//! y, n, Escape stops, q quits). Calibrating shows the board read from the
//! game's window in the board's place, and the player's clicks on its cells
//! correct it ([`correct`]). The window opens clear of the windows on the
//! screen, and once the game is found goes beside it, never over it, at
//! the scale of its screen; on a small one smaller, or partly off the
//! screen ([`room`]). Every line the door says
//! is also written on standard output (nowhere, for a GUI program on
//! Windows), for the tests and for a player who starts it from a terminal.
//! What no window shows, an error before the window or a panic, goes to
//! the app's log and a message box ([`faults`]); one app runs at a time
//! ([`instance`]).

mod correct;
pub mod faults;
mod fit;
mod instance;
pub mod layout;
mod room;

use std::cell::RefCell;
use std::collections::VecDeque;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::rc::Rc;
use std::time::{Duration, Instant};

use anyhow::Result;

use crate::app::door::{self, Action, Door, Flow, Offer};
use crate::app::{Options, look_of};
use crate::desktop::place::place_sized;
use crate::desktop::stop::{self, Asker};
use crate::desktop::{
    self, Desktop as _, Key, MonitorArea, OwnWindow, ScreenPoint, ScreenRect, Standing, WindowInfo,
    folders,
};
use crate::game::{NODIATIS_HEIGHT, NODIATIS_WIDTH};
use crate::render::{Canvas, HintPainter, font};
use crate::vision::Calibration;
use fit::{Row, plot_for, status_rows, wrap};
use layout::Layout;

/// The window's title.
pub const TITLE: &str = "dustbot";
/// The window's frame rate while something happens: a click or a key
/// shows within a frame.
const RATE: usize = 60;
/// The frame rate once nothing changed for [`QUIET`] (the menu waiting,
/// hints watching a player who thinks): a key or a click waits at most a
/// frame, 67 ms, to be taken, and is never lost (the window's thread
/// queues each press), and an app left open costs a quarter of the
/// wake-ups at rest.
const REST_RATE: usize = 15;
const QUIET: Duration = Duration::from_secs(2);

const BACKGROUND: [u8; 3] = [28, 26, 24];
const TEXT: [u8; 3] = [232, 228, 214];
const ERROR: [u8; 3] = [255, 140, 120];
const BUTTON: [u8; 3] = [70, 64, 56];
const BUTTON_EDGE: [u8; 3] = [150, 140, 120];

/// The board size the window is drawn for: the game's.
const CELLS: (u8, u8) = (NODIATIS_WIDTH, NODIATIS_HEIGHT);

/// Runs the desktop app until its window is closed or Quit; 0 then, 2
/// when it could not start (no display, no settings folder).
pub fn main() -> ExitCode {
    faults::catch_panics();
    let prepared = desktop::prepare();
    let _bars = crate::app::logging::init(0, 1, true);
    if let Err(cause) = prepared {
        log::warn!("{cause}: on a scaled display the pixels read and the clicks may disagree");
    }
    let code = match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            // Before the window, or with it gone: no window says it.
            faults::say(&format!("error: {error:#}"));
            ExitCode::from(2)
        }
    };
    desktop::end_windows();
    code
}

/// The painter of the window's board: the board in the game's look as
/// `calibration` knows it, at the window's `scale`.
fn painter(calibration: &Calibration, scale: f32) -> HintPainter {
    HintPainter::new(CELLS.0, CELLS.1, &look_of(calibration), scale)
}

/// Says `text` on standard output; a line that cannot be written is
/// dropped (the window shows it).
fn echo(text: &str) {
    let mut out = std::io::stdout().lock();
    writeln!(out, "{text}").and_then(|()| out.flush()).ok();
}

/// The line shown where the board goes while there is none to show.
fn headline(offer: Offer) -> &'static str {
    match offer {
        Offer::Looking => "looking for the game...",
        Offer::Question => "is this window the game?",
        Offer::Menu | Offer::Calibrating => "no board read now",
        Offer::Running => "reading the board...",
        Offer::Failed => "stopped: the error is below",
        Offer::Unusable => "the calibration cannot be used: choose below",
    }
}

/// The app's keymap: the door's action a key asks for, where the door
/// offers `offer`: one of its buttons then, or y taking a No back while
/// looking. The window hears keys as they are (`desktop::Key`); what
/// they mean is the app's, here.
fn action_of(key: Key, offer: Offer) -> Option<Action> {
    let action = match (key, offer) {
        (Key::Escape, Offer::Running) => return Some(Action::Stop(Asker::Escape)),
        (Key::Char('q'), _) => Action::Quit,
        (Key::Enter | Key::NumPadEnter, Offer::Calibrating) => Action::Save,
        (Key::Escape, Offer::Calibrating) => Action::Cancel,
        (Key::Char('y') | Key::Enter | Key::NumPadEnter, Offer::Question) => Action::Yes,
        // The last No taken back.
        (Key::Char('y'), Offer::Looking) => Action::Yes,
        (Key::Char('n'), Offer::Question) => Action::No,
        (Key::Enter | Key::NumPadEnter, Offer::Unusable) => Action::UseDefault,
        (Key::Char('1'), _) => Action::Hints,
        (Key::Char('2'), _) => Action::Play,
        (Key::Char('3'), _) => Action::Calibrate,
        (Key::Char('4'), _) => Action::Record,
        _ => return None,
    };
    let taken_back = (offer, action) == (Offer::Looking, Action::Yes);
    (offer.actions().contains(&action) || taken_back).then_some(action)
}

struct App {
    door: Door,
    window: OwnWindow,
    layout: Layout,
    painter: HintPainter,
    /// The calibration the painter draws in, by its file.
    painted: PathBuf,
    frame: Canvas,
    keys: Rc<RefCell<VecDeque<Key>>>,
    dirty: bool,
    /// The game's window the app was placed beside.
    beside: Option<u32>,
    /// The record's plot drawn, while the door shows it.
    plot: Option<(PathBuf, Canvas)>,
    /// The lock that keeps a second app from starting, where the window's
    /// id is told.
    lock: Option<instance::Lock>,
    /// The offer last shown (the door's count of them): a key held from
    /// before a new one answers nothing.
    turn: u32,
    /// What the door offered at the last look: a new offer's buttons are
    /// said on standard output too.
    offer: Option<Offer>,
    /// When the window's picture last changed ([`App::pace`]).
    changed: Instant,
}

fn run() -> Result<()> {
    // One app at a time: a second start brings the first forward.
    let lock = folders::data_folder()
        .map_err(|e| e.to_string())
        .and_then(|data| instance::take(&instance::path_in(&data)));
    let lock = match lock {
        Ok(instance::Claim::First(lock)) => Some(lock),
        Ok(instance::Claim::Running(first)) => {
            second_start(&first);
            return Ok(());
        }
        Err(why) => {
            log::warn!("a second start is not kept from making a second app: {why}");
            None
        }
    };
    stop::catch()?;
    // The app's hints show in its own window, beside the game already;
    // the door's lines name its buttons.
    let face = door::Face {
        hint_window: false,
        labels: layout::label,
    };
    let door = Door::on_this_desktop(Options::default(), face)?;
    // The first screen, asked once: the window's scale and corner.
    let first_screen = desktop::screens()
        .ok()
        .and_then(|s| s.into_iter().next())
        .map(|(area, scale)| (area.work, scale));
    // Where the window goes, found before it is made: made there (under
    // X11, see `OwnWindow::open`), it is never shown first where the
    // window manager would put it, over the game perhaps, then moved.
    let spot = first_screen.map(|screen| {
        let windows = desktop::system().windows().unwrap_or_default();
        let others: Vec<ScreenRect> = windows
            .iter()
            .filter(|window| window.is_visible() && !window.is_ours())
            .map(WindowInfo::area)
            .collect();
        side_spot(&others, screen)
    });
    let layout = Layout::new(CELLS, spot.map_or(1.0, |spot| spot.scale));
    let window = open_window(&layout, spot.map(|spot| spot.at))?;
    let mut app = App {
        painter: painter(door.calibration(), layout.scale),
        painted: door.calibration_path().to_owned(),
        door,
        window,
        layout,
        frame: Canvas::new(layout.size.0, layout.size.1, BACKGROUND),
        keys: Rc::default(),
        dirty: true,
        beside: None,
        plot: None,
        lock,
        turn: 0,
        offer: None,
        changed: Instant::now(),
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
    // The first look for the game sees the window where it stands: one
    // still where the window manager first put it could leave the board
    // clear that it will cover, and the game be asked about.
    app.window.wait_placed();
    app.run()
}

/// A second start while `first` runs: its window brought forward (a
/// minimised one restored), or why not said where a program without a
/// console shows it (a message box on Windows): another display's app, or
/// one that does not answer (stopped, hung), with how to end it.
fn second_start(first: &instance::First) {
    let process = first
        .pid
        .map_or_else(String::new, |pid| format!(" (process {pid})"));
    let said = match (first.elsewhere(), first.window) {
        (true, _) => Some(format!(
            "dustbot runs already on the display {}{process}, and one app serves one data folder: quit it there first",
            first.display.as_deref().unwrap_or_default()
        )),
        (false, Some(window)) if !desktop::answers(window, ANSWER_WAIT) => Some(format!(
            "dustbot runs already but does not answer{process}: end it ({}) and start again",
            if cfg!(windows) {
                "Task Manager, End task"
            } else {
                "kill it, or its window's close button"
            }
        )),
        (false, Some(window)) => match desktop::bring_to_front(window) {
            Ok(()) => {
                echo("dustbot runs already: its window brought to the front");
                None
            }
            Err(why) => Some(format!(
                "dustbot runs already (its window not brought to the front: {why})"
            )),
        },
        (false, None) => Some("dustbot runs already, its window still opening".to_owned()),
    };
    if let Some(text) = said {
        echo(&text);
        desktop::show_message("dustbot", &text);
    }
}

/// How long a second start waits for the first app's answer.
const ANSWER_WAIT: Duration = Duration::from_secs(1);

/// Where the window opens: on the first screen (its work area and scale,
/// `screen`), clear of the windows `others` (the game's board, whichever
/// it is, must not be covered while it is looked for), the top-right
/// corner first, at the screen's scale (150% makes it one and a half
/// times as big, as every window there), smaller or partly off the
/// screen where the screen is small ([`room::clear_of`]); where no place
/// is clear, the corner least in the way, and the search says the bot's
/// own window covers the game.
fn side_spot(others: &[ScreenRect], screen: (ScreenRect, f32)) -> room::Spot {
    let size = |s: f32| Layout::new(CELLS, s).size;
    room::clear_of(others, screen, size)
        .unwrap_or_else(|| room::least_in_the_way(others, screen, size))
}

/// The work area (the taskbar's and the docks' room left out) and scale
/// of the screen that shows `area`'s centre, else of the first screen:
/// where the app goes beside the game.
fn work_area_of(area: ScreenRect, screens: &[(MonitorArea, f32)]) -> Option<(ScreenRect, f32)> {
    let centre = ScreenPoint::new(
        area.x + area.width as i32 / 2,
        area.y + area.height as i32 / 2,
    );
    screens
        .iter()
        .find(|(s, _)| s.bounds.contains(centre))
        .or(screens.first())
        .map(|&(s, scale)| (s.work, scale))
}

fn open_window(layout: &Layout, at: Option<(i32, i32)>) -> Result<OwnWindow> {
    let mut window = OwnWindow::open(TITLE, layout.size, Standing::Own, at)
        .map_err(|e| anyhow::anyhow!("cannot open the window: {e}"))?;
    window.set_rate(RATE);
    Ok(window)
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

    /// The window's loop, until it is closed or Quit; an error when the
    /// window went with its thread.
    fn run(&mut self) -> Result<()> {
        while self.window.is_open() {
            // Ctrl-C, a request to end, the display closing: the app
            // ends as its window's close ends it.
            if stop::end_asked().is_some() {
                break;
            }
            self.door.advance();
            self.take_in();
            if self.door.turn() != self.turn {
                self.turn = self.door.turn();
                self.window.forget_held();
            }
            self.say_offer();
            let mut flow = Flow::Go;
            let keys: Vec<Key> = self.keys.borrow_mut().drain(..).collect();
            for key in keys {
                if let Some(action) = action_of(key, self.door.offer()) {
                    flow = self.act(action);
                    if flow == Flow::Quit {
                        break;
                    }
                }
            }
            if flow == Flow::Go
                && let Some(point) = self.clicked()
            {
                flow = self.click(point);
            }
            if flow == Flow::Quit {
                break;
            }
            // Moved to a monitor of another scale: drawn at that scale.
            if let Some(by) = self.window.rescaled() {
                self.rescale(self.layout.scale * by);
            }
            self.pace();
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
        self.door.close();
        self.take_in();
        // The run over, the next start may open at once.
        self.lock = None;
        match stop::end_asked() {
            Some(asker) => echo(&format!("dustbot: closed by {asker}")),
            None => echo("dustbot: closed"),
        }
        stop::face_ended();
        // A window gone with its thread (a fault there) ends the app as
        // closing it does, the run's summary said, then says why as the
        // error it is, the lock released first.
        match desktop::own::windows_ended() {
            Some(why) => Err(anyhow::anyhow!("the window is gone: {why}")),
            None => Ok(()),
        }
    }

    fn act(&mut self, action: Action) -> Flow {
        self.dirty = true;
        self.door.act(action)
    }

    /// What the door said and changed since the last look: its lines on
    /// standard output, the window beside a game just found, the painter
    /// in a new calibration's colours, the record's plot drawn.
    fn take_in(&mut self) {
        let said = self.door.take_said();
        if !said.is_empty() {
            self.dirty = true;
        }
        for line in &said {
            echo(line);
        }
        // Each frame: ids and paths compared, the game cloned only when new.
        let game = self.door.game().map(|game| game.id);
        if game != self.beside {
            self.beside = game;
            if let Some(game) = self.door.game().cloned() {
                self.place_beside(&game);
            }
        }
        if self.door.calibration_path() != self.painted {
            self.painter = painter(self.door.calibration(), self.layout.scale);
            self.painted = self.door.calibration_path().to_owned();
            self.dirty = true;
        }
        self.draw_plot();
    }

    /// The frame rate: [`RATE`] from anything that changes what the window
    /// shows (a line said, a key, a click), [`REST_RATE`] once nothing
    /// did for [`QUIET`].
    fn pace(&mut self) {
        if self.dirty {
            self.changed = Instant::now();
            self.window.set_rate(RATE);
        } else if self.changed.elapsed() >= QUIET {
            self.window.set_rate(REST_RATE);
        }
    }

    /// A new offer's buttons, said on standard output as the terminal's
    /// face prints its keys: "menu: 1 Hints, 2 Play, ...".
    fn say_offer(&mut self) {
        let offer = self.door.offer();
        if self.offer == Some(offer) {
            return;
        }
        self.offer = Some(offer);
        if offer == Offer::Menu {
            let buttons: Vec<&str> = offer.actions().iter().map(|&a| layout::label(a)).collect();
            echo(&format!("menu: {}", buttons.join(", ")));
        }
    }

    /// The record's plot drawn in the window while the door shows it: a
    /// viewer the bot opened would lie over the game, whose board it
    /// reads.
    fn draw_plot(&mut self) {
        let (Some(path), Some(trend)) = (self.door.plot(), self.door.trend()) else {
            self.plot = None;
            return;
        };
        if self.plot.as_ref().is_some_and(|(drawn, _)| drawn == path) {
            return;
        }
        let picture = self.layout.picture;
        let size = (picture.width as u32, picture.height as u32);
        match plot_for(trend, size, self.layout.text) {
            Ok(drawn) => {
                echo(&format!(
                    "the plot is drawn here (saved as {})",
                    path.display()
                ));
                self.plot = Some((path.to_owned(), drawn));
            }
            Err(why) => {
                echo(&format!(
                    "the plot {} cannot be shown: {why}",
                    path.display()
                ));
                self.plot = None;
            }
        }
        self.dirty = true;
    }

    /// The point of the window clicked since the last look, if any.
    fn clicked(&mut self) -> Option<(i64, i64)> {
        let (x, y) = self.window.press()?;
        Some((x.floor() as i64, y.floor() as i64))
    }

    /// A click at `point`: its button pressed, or, while calibrating, its
    /// cell's colour changed.
    fn click(&mut self, point: (i64, i64)) -> Flow {
        if let Some(action) = self.layout.button_at(self.door.offer().actions(), point) {
            return self.act(action);
        }
        if let Some(cell) = self.layout.cell_at(point) {
            self.door.correct(|board| {
                let (changed, state) = correct::cycle(board, cell).map_err(|r| r.to_string())?;
                let line = format!(
                    "column {} row {} is now {}",
                    cell.x,
                    cell.y,
                    correct::said(state)
                );
                Ok((changed, line))
            });
            self.dirty = true;
        }
        Flow::Go
    }

    /// The window drawn at `spot`'s scale (said, where it changes) and
    /// moved to its place.
    fn go_to(&mut self, spot: room::Spot) {
        if spot.scale != self.layout.scale {
            self.rescale(spot.scale);
            echo(&format!(
                "dustbot: window {}x{} at scale {}",
                self.layout.size.0, self.layout.size.1, self.layout.scale
            ));
        }
        self.window.place(spot.at);
    }

    /// Beside the game's window, never over it, on its screen at the
    /// biggest scale that has room; on a small screen at the smallest,
    /// partly off the screen ([`room::clear_of`]); where none has, the
    /// window stays and says so.
    fn place_beside(&mut self, game: &WindowInfo) {
        let area = game.area();
        let screens = desktop::screens().unwrap_or_default();
        let Some(work) = work_area_of(area, &screens) else {
            return;
        };
        let size = |s: f32| Layout::new(CELLS, s).size;
        // On a small screen, off the game's window partly off the screen.
        let spot = place_sized(area, area, work, size)
            .map(|placement| room::Spot {
                at: placement.at,
                scale: placement.scale,
            })
            .or_else(|| room::clear_of(&[area], work, size));
        let Some(spot) = spot else {
            // Where it stays clear of the game, it stays, unsaid.
            let ours = self.window.id();
            let over = desktop::system()
                .windows()
                .unwrap_or_default()
                .iter()
                .any(|w| w.id == ours && w.area().intersection(&area).is_some());
            if over {
                self.door
                    .notice("no room beside the game: move this window off the board".to_owned());
            }
            log::info!("no room beside the game on its screen: the window stays where it is");
            return;
        };
        self.go_to(spot);
        echo(&format!("dustbot: placed beside the game at {:?}", spot.at));
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
        self.painter = painter(self.door.calibration(), scale);
        self.frame = Canvas::new(layout.size.0, layout.size.1, BACKGROUND);
        self.plot = None;
        self.dirty = true;
    }

    /// Draws the window: the board with the plan, the status, the buttons.
    fn paint(&mut self) {
        let layout = self.layout;
        let offer = self.door.offer();
        let frame = &mut self.frame;
        frame.fill(0, 0, frame.width as i64, frame.height as i64, BACKGROUND);
        let p = layout.picture;
        let mut picture = Canvas::new(p.width as usize, p.height as usize, BACKGROUND);
        match (&self.plot, self.door.calibrating(), self.door.shown()) {
            (Some((_, plot)), _, _) if !matches!(offer, Offer::Running) => {
                let (w, h) = (plot.width as i64, plot.height as i64);
                picture.paste(plot, (p.width - w).max(0) / 2, (p.height - h).max(0) / 2);
            }
            (_, Some(board), _) => self.painter.paint(
                board,
                &[],
                &[
                    "calibrate: is this the board in the game?".to_owned(),
                    format!("click a cell to change it ({})", correct::order()),
                ],
                &mut picture,
            ),
            (_, None, Some(shown)) => {
                self.painter
                    .paint(&shown.board, &shown.clicks, &shown.caption, &mut picture)
            }
            (_, None, None) => {
                // Wrapped to the picture: a small screen's window is narrow.
                let size = layout.text * 1.4;
                let lines = wrap(headline(offer), size, p.width - 2 * layout.status.0);
                let mut y = p.height / 2 - layout.line * (lines.len() as i64 - 1) * 7 / 10;
                for line in lines {
                    let width = font::text_width(&line, size);
                    picture.text((p.width - width).max(0) / 2, y, &line, size, TEXT);
                    y += layout.line * 14 / 10;
                }
            }
        }
        frame.paste(&picture, p.x, p.y);
        self.paint_status();
        self.paint_buttons(offer);
    }

    /// The status lines under the picture, the record's table in columns.
    fn paint_status(&mut self) {
        let layout = self.layout;
        let frame = &mut self.frame;
        let (x, mut y) = layout.status;
        let lines = self.door.status_lines();
        let rows = status_rows(&lines, layout.text, layout.status_width());
        for row in rows.into_iter().take(layout::STATUS_LINES) {
            match row {
                Row::Text(line) => {
                    let colour = if line.starts_with("error") {
                        ERROR
                    } else {
                        TEXT
                    };
                    frame.text(x, y, &line, layout.text, colour);
                }
                Row::Cells(cells) => {
                    for (at, cell) in cells {
                        frame.text(x + at, y, &cell, layout.text, TEXT);
                    }
                }
            }
            y += layout.line;
        }
    }

    /// The buttons of what the door offers now.
    fn paint_buttons(&mut self, offer: Offer) {
        let layout = self.layout;
        let frame = &mut self.frame;
        for (action, rect) in layout.buttons(offer.actions()) {
            let label = layout::label(action);
            frame.fill(rect.x, rect.y, rect.width, rect.height, BUTTON);
            frame.outline(rect.x, rect.y, rect.width, rect.height, 1, BUTTON_EDGE);
            let (w, h) = font::text_size(label, layout.text);
            frame.text(
                rect.x + (rect.width - i64::from(w)) / 2,
                rect.y + (rect.height - i64::from(h)) / 2,
                label,
                layout.text,
                TEXT,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::desktop::place::Border;

    /// A 1920x1080 monitor with a taskbar of `taskbar` pixels at its
    /// bottom (48 at 100% on Windows 11, 72 at 150%).
    fn laptop(taskbar: u32) -> MonitorArea {
        let bounds = ScreenRect {
            x: 0,
            y: 0,
            width: 1920,
            height: 1080,
        };
        MonitorArea {
            bounds,
            work: ScreenRect {
                height: 1080 - taskbar,
                ..bounds
            },
        }
    }

    #[test]
    fn the_app_stays_off_the_taskbar_at_1920x1080_at_every_scale() {
        for taskbar in [48, 72] {
            for scale in [1.0, 1.25, 1.5] {
                let screens = [(laptop(taskbar), scale)];
                let work = screens[0].0.work;
                let frame = Border::at_scale(scale);
                let inside = |(x, y): (i32, i32), s: f32| {
                    let (w, h) = Layout::new(CELLS, s).size;
                    let (w, h) = (w as i32 + 2 * frame.side, h as i32 + frame.top + frame.side);
                    let outer = ScreenRect {
                        x,
                        y,
                        width: w as u32,
                        height: h as u32,
                    };
                    work.intersection(&outer) == Some(outer)
                };
                let said = format!("taskbar {taskbar} px at {scale}");
                // Opened on the first screen, its buttons (Stop, Quit)
                // above the taskbar, at the screen's scale where it fits.
                let opened = side_spot(&[], (work, scale));
                assert!(inside(opened.at, opened.scale), "{said}: {opened:?}");
                // Beside a game window whose top is 63 px down the screen
                // (the case), on its left.
                let game = ScreenRect {
                    x: 0,
                    y: 63,
                    width: (800.0 * scale) as u32,
                    height: (600.0 * scale) as u32,
                };
                let at = work_area_of(game, &screens).unwrap();
                assert_eq!(at, (work, scale), "{said}");
                let placed = place_sized(game, game, at, |s| Layout::new(CELLS, s).size)
                    .unwrap_or_else(|| panic!("{said}: no room"));
                assert!(inside(placed.at, placed.scale), "{said}: {placed:?}");
                assert!(
                    placed.at.0 >= game.x + game.width as i32,
                    "{said}: {placed:?}"
                );
            }
        }
    }

    #[test]
    fn the_keys_ask_the_door_for_what_the_buttons_offer() {
        assert_eq!(action_of(Key::Char('1'), Offer::Menu), Some(Action::Hints));
        assert_eq!(
            action_of(Key::Char('4'), Offer::Looking),
            Some(Action::Record)
        );
        assert_eq!(
            action_of(Key::Char('q'), Offer::Running),
            Some(Action::Quit)
        );
        assert_eq!(
            action_of(Key::Escape, Offer::Running),
            Some(Action::Stop(Asker::Escape))
        );
        // Yes by y or Enter at the question; y also takes a No back.
        assert_eq!(action_of(Key::Enter, Offer::Question), Some(Action::Yes));
        assert_eq!(action_of(Key::Char('y'), Offer::Looking), Some(Action::Yes));
        assert_eq!(action_of(Key::Char('n'), Offer::Menu), None);
        // Under the board to calibrate on: Save, Cancel and Quit only.
        assert_eq!(
            action_of(Key::Enter, Offer::Calibrating),
            Some(Action::Save)
        );
        assert_eq!(
            action_of(Key::Escape, Offer::Calibrating),
            Some(Action::Cancel)
        );
        assert_eq!(action_of(Key::Char('1'), Offer::Calibrating), None);
        assert_eq!(
            action_of(Key::Enter, Offer::Unusable),
            Some(Action::UseDefault)
        );
        // The menu's keys ask nothing under a question.
        assert_eq!(action_of(Key::Char('1'), Offer::Question), None);
    }

    #[test]
    fn the_headline_says_where_the_door_is_while_no_board_shows() {
        assert_eq!(headline(Offer::Question), "is this window the game?");
        assert_eq!(headline(Offer::Looking), "looking for the game...");
        assert_eq!(headline(Offer::Failed), "stopped: the error is below");
        // The game found, its board not read (a game cleared): never
        // "looking".
        assert_eq!(headline(Offer::Menu), "no board read now");
    }
}
