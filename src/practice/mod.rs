//! The practice window: a real window of the bot's own that plays like the game,
//! under any variant of the rules. It draws the board, takes clicks on
//! cells, animates the removal, the fall and the second step (rows or
//! columns closing up) in one of the styles of [`Style`], counts the
//! clicks, shows the result, and logs every click it receives as a JSON
//! line, so that live play can be watched and tested against a window
//! whose truth is known (and whose rules and animation may not be the ones
//! the bot expects). What it shows is a pure function of the game and the
//! time ([`Round::scene`]), so tests draw any frame without a window.

mod paint;
mod style;

use std::fmt;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::Arc;
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::desktop::{Key, OwnWindow, Standing};
use crate::game::{Board, Cell, Rules};
use crate::geometry::{Geometry, PixelPoint};
use crate::render::{self, Canvas};

pub use crate::render::{Look, Tile};
pub use paint::{Painter, Scene};
pub use style::{Drawn, Move, Style};

/// What `bot practice` was asked for.
#[derive(Debug)]
pub struct PracticeSettings {
    /// The first game's board; every next one takes its width and height.
    pub board: Board,
    /// Where the boards after the first come from.
    pub next_board: NextBoard,
    /// How long a cleared board stays before the next starts by itself;
    /// `None`: only a key starts it.
    pub next_after: Option<Duration>,
    /// The rules the window plays by.
    pub rules: Rules,
    /// 1.0 draws the real game's 80-pixel cells.
    pub scale: f32,
    /// How long the removal, fall and contraction take.
    pub anim: Duration,
    /// How a move is animated.
    pub style: Style,
    pub title: String,
    /// Where every click received, and every board after the first, goes,
    /// one JSON line each: the file, open to append to, and its name for
    /// errors.
    pub log: Option<(PathBuf, File)>,
    pub look: Look,
}

/// Why the practice window cannot run.
#[derive(Debug, Error)]
pub enum PracticeError {
    #[error("window scale {0}: must be between 0.25 and 4")]
    Scale(f32),
    #[error("cannot open the window: {0}")]
    Window(String),
    #[error("no board for game {game}: {cause}")]
    NextBoard { game: u32, cause: String },
}

/// Game k's board, for k from 2 (the caller's sequence: a pure function
/// of k, so tests know each board). It runs on a thread of its own, as a
/// board of a given optimum may take a minute to find; the message of an
/// error says why there is no board.
#[derive(Clone)]
pub struct NextBoard(pub Arc<dyn Fn(u32) -> Result<Board, String> + Send + Sync>);

impl fmt::Debug for NextBoard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("NextBoard(..)")
    }
}

/// How the last practice game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Summary {
    pub clicks: u32,
    pub cleared: bool,
}

/// The click log's line for a click, fields in this order: `t_ms`,
/// `game`, `px`, `cell`, `size`, `board_after`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClickLog {
    /// Since the window opened.
    pub t_ms: u64,
    /// The game the click was in, from 1.
    pub game: u32,
    /// In the window's client area.
    pub px: [i64; 2],
    /// `null` when off the board.
    pub cell: Option<[u8; 2]>,
    /// The cluster removed; 0 when nothing was.
    pub size: u8,
    pub board_after: String,
}

/// The click log's line for a board that starts after the first (the
/// first is the one asked for), fields in this order: `t_ms`, `game`,
/// `new_board`. It has no `board_after`, which tells it from a click's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NewBoardLog {
    /// Since the window opened.
    pub t_ms: u64,
    /// The game that starts, from 2.
    pub game: u32,
    /// Its board.
    pub new_board: String,
}

/// The keys that start the next board at once, the board in play given
/// up: N, as the end of a game says, and Space or either Enter.
pub const NEW_BOARD_KEYS: [Key; 4] = [Key::Char('n'), Key::Space, Key::Enter, Key::NumPadEnter];

/// The window scales the practice window draws: from a quarter to four
/// times the real game's size.
pub const SCALES: std::ops::RangeInclusive<f32> = 0.25..=4.0;

/// Room around the board, in pitches.
const MARGIN: f32 = 0.5;

/// The board's place in a practice window at `scale`, and the window size.
pub fn layout(board: &Board, scale: f32) -> (Geometry, (usize, usize)) {
    let pitch = (render::PITCH * scale).round();
    let margin = (MARGIN * pitch).round();
    let geometry = Geometry {
        x: margin,
        y: margin,
        pitch_x: pitch,
        pitch_y: pitch,
        width: board.width(),
        height: board.height(),
    };
    let (w, h) = geometry.size();
    let size = ((w + 2.0 * margin) as usize, (h + 2.0 * margin) as usize);
    (geometry, size)
}

/// The game state the window shows: the board and, while a move animates,
/// the move and when it was clicked.
#[derive(Debug)]
pub struct Round {
    board: Board,
    rules: Rules,
    style: Style,
    anim: Duration,
    clicks: u32,
    animation: Option<(Move, Instant)>,
}

impl Round {
    /// A game of `board` under `rules`, each move animated in `style` over
    /// `anim`, no click yet.
    pub fn new(board: Board, rules: Rules, style: Style, anim: Duration) -> Round {
        Round {
            board,
            rules,
            style,
            anim,
            clicks: 0,
            animation: None,
        }
    }

    /// The board once the last move has played out.
    pub fn board(&self) -> Board {
        self.board
    }

    /// Plays a click on `cell` (if any) and returns the cluster size
    /// removed, 0 when nothing happens. A click while the style ignores
    /// input changes nothing, not even the count.
    pub fn click(&mut self, cell: Option<Cell>, now: Instant) -> u8 {
        if let Some((_, started)) = &self.animation
            && now.saturating_duration_since(*started) < self.style.deaf(self.anim)
        {
            return 0;
        }
        self.clicks += 1;
        let Some((clicked, (after, cluster))) =
            cell.and_then(|c| Some((c, self.board.play_under(c, self.rules).ok()?)))
        else {
            return 0;
        };
        self.animation = Some((Move::new(&self.board, clicked, &cluster, self.rules), now));
        self.board = after;
        cluster.size
    }

    /// Whether the frame at `now` differs from the board at rest.
    pub fn animating(&self, now: Instant) -> bool {
        self.at_rest_from().is_some_and(|end| now < end)
    }

    /// When the last move's animation ends, once there was a move.
    fn at_rest_from(&self) -> Option<Instant> {
        self.animation
            .as_ref()
            .map(|(_, started)| *started + self.style.length(self.anim))
    }

    /// What the window shows at `now`.
    pub fn scene(&self, now: Instant) -> Scene {
        let drawn = match &self.animation {
            Some((shown, started)) => shown.draw(
                self.style,
                self.anim,
                now.saturating_duration_since(*started),
            ),
            None => Drawn {
                tiles: render::tiles(&self.board),
                ..Drawn::default()
            },
        };
        Scene {
            drawn,
            clicks: self.clicks,
            cleared: self.board.is_cleared() && !self.animating(now),
        }
    }
}

/// The window's games, one after another: the one in play, its number,
/// and when the next board is due.
#[derive(Debug)]
struct Games {
    round: Round,
    /// The game in play, from 1.
    game: u32,
    /// When it began.
    began: Instant,
    /// Whether the player asked for the next board since it began.
    asked: bool,
    /// How long a cleared board stays before the next is due by itself.
    next_after: Option<Duration>,
}

impl Games {
    /// Game 1, `round`, begun at `now`.
    fn new(round: Round, next_after: Option<Duration>, now: Instant) -> Games {
        Games {
            round,
            game: 1,
            began: now,
            asked: false,
            next_after,
        }
    }

    /// The player asks for the next board, giving up this one if it is
    /// not cleared.
    fn ask(&mut self) {
        self.asked = true;
    }

    /// Whether the next board is due at `now`: asked for, or the board
    /// shown cleared for `next_after`.
    fn next_due(&self, now: Instant) -> bool {
        self.asked
            || self
                .next_after
                .zip(self.cleared_from())
                .and_then(|(after, from)| from.checked_add(after))
                .is_some_and(|due| now >= due)
    }

    /// When the window shows the board cleared: once the last move's
    /// animation ends, or from the start for a board given empty.
    fn cleared_from(&self) -> Option<Instant> {
        let round = &self.round;
        round
            .board
            .is_cleared()
            .then(|| round.at_rest_from().unwrap_or(self.began))
    }

    /// The next game, on `board` from `now`: the same rules and animation,
    /// no click yet.
    fn next(&mut self, board: Board, now: Instant) {
        let old = &self.round;
        self.round = Round::new(board, old.rules, old.style, old.anim);
        self.game += 1;
        self.began = now;
        self.asked = false;
    }
}

/// Hears every press of one of [`NEW_BOARD_KEYS`], however short (the
/// window tells of each, see [`OwnWindow::on_keys`]). A key held down asks
/// once.
#[derive(Debug)]
struct NewBoardKeys {
    asked: Rc<std::cell::Cell<bool>>,
    down: [bool; NEW_BOARD_KEYS.len()],
}

impl NewBoardKeys {
    fn set_key_state(&mut self, key: Key, down: bool) {
        if let Some(k) = NEW_BOARD_KEYS.iter().position(|&new| new == key) {
            if down && !self.down[k] {
                self.asked.set(true);
            }
            self.down[k] = down;
        }
    }
}

/// The click log being written, and the file's name for errors.
struct Log<'a> {
    path: &'a Path,
    out: BufWriter<&'a File>,
}

impl Log<'_> {
    /// Writes `line` as a JSON line, at once: tests read the log while the
    /// window runs.
    fn write(&mut self, line: &impl Serialize) -> std::io::Result<()> {
        let line = serde_json::to_string(line).expect("plain data serialises");
        writeln!(self.out, "{line}").and_then(|()| self.out.flush())
    }
}

/// Writes `line` to the click log, if there is one. A log that cannot be
/// written (a full disk) is said once and let go: the player's game
/// matters more than its record.
fn log_line(log: &mut Option<Log<'_>>, line: &impl Serialize) {
    if let Some(open) = log
        && let Err(error) = open.write(line)
    {
        log::warn!(
            "{}: cannot write the click log ({error}): the game goes on without it",
            open.path.display()
        );
        *log = None;
    }
}

/// A board being drawn on a thread of its own, and the game it is for.
type Drawing = (u32, JoinHandle<Result<Board, String>>);

/// Starts drawing game `game`'s board.
fn draw(next: &NextBoard, game: u32) -> Result<Drawing, PracticeError> {
    let next = Arc::clone(&next.0);
    thread::Builder::new()
        .name(format!("board {game}"))
        .spawn(move || next(game))
        .map(|thread| (game, thread))
        .map_err(|e| PracticeError::NextBoard {
            game,
            cause: format!("cannot start drawing it: {e}"),
        })
}

/// The board a finished drawing made, once it fits the window made for
/// `first`.
fn drawn((game, thread): Drawing, first: &Board) -> Result<Board, PracticeError> {
    let fail = |cause| PracticeError::NextBoard { game, cause };
    let board = thread
        .join()
        .map_err(|_| fail("its drawing failed".to_owned()))?
        .map_err(fail)?;
    let (size, window) = (
        (board.width(), board.height()),
        (first.width(), first.height()),
    );
    if size != window {
        return Err(fail(format!(
            "{}x{}, in a window for {}x{}",
            size.0, size.1, window.0, window.1
        )));
    }
    Ok(board)
}

/// Opens the window and plays game after game until it is closed (or
/// Escape); `say` takes the lines for the terminal (a game started, a
/// board cleared).
/// A press at `(px, py)` in the window, played on the board under it and
/// logged (at `t_ms` into the session).
fn click(
    session: &mut Games,
    geometry: &Geometry,
    (px, py): (f32, f32),
    (now, t_ms): (Instant, u64),
    log: &mut Option<Log<'_>>,
) {
    let cell = geometry.cell_at(PixelPoint::new(px, py));
    let size = session.round.click(cell, now);
    log_line(
        log,
        &ClickLog {
            t_ms,
            game: session.game,
            px: [px.floor() as i64, py.floor() as i64],
            cell: cell.map(|c| [c.x, c.y]),
            size,
            board_after: session.round.board.to_string(),
        },
    );
    log::debug!("click at ({px}, {py}) on {cell:?}: removed {size}");
}

pub fn run(
    settings: &PracticeSettings,
    say: &mut dyn FnMut(&str),
) -> Result<Summary, PracticeError> {
    if !SCALES.contains(&settings.scale) {
        return Err(PracticeError::Scale(settings.scale));
    }
    let mut log = settings.log.as_ref().map(|(path, file)| Log {
        path,
        out: BufWriter::new(file),
    });
    let (geometry, (width, height)) = layout(&settings.board, settings.scale);
    let mut window = OwnWindow::open(&settings.title, (width, height), Standing::Own, None)
        .map_err(PracticeError::Window)?;
    // Polling at 120 Hz: a click shows within a frame, and where the
    // platform gives no presses (`OwnWindow::press`), the button's state
    // still sees a 40 ms one.
    window.set_rate(120);
    let asked = Rc::new(std::cell::Cell::new(false));
    let mut keys = NewBoardKeys {
        asked: Rc::clone(&asked),
        down: [false; NEW_BOARD_KEYS.len()],
    };
    window.on_keys(move |key, down| keys.set_key_state(key, down));
    let started = Instant::now();
    let round = Round::new(
        settings.board,
        settings.rules,
        settings.style,
        settings.anim,
    );
    let mut session = Games::new(round, settings.next_after, started);
    let mut drawing = None;
    let painter = Painter::new(&geometry, (width, height), &settings.look);
    let mut frame = Canvas::new(width, height, [0, 0, 0]);
    // Whether the picture drawn shows the board at rest.
    let mut painted = false;
    let mut shown_clicks = None;
    while window.is_open() && !window.key_down(Key::Escape) {
        let now = Instant::now();
        let t_ms = now.duration_since(started).as_millis() as u64;
        if let Some(press) = window.press() {
            click(&mut session, &geometry, press, (now, t_ms), &mut log);
        }
        if asked.take() {
            session.ask();
        }
        // The board in play stays until the next is drawn: at once for a
        // random board, seconds for one of a given optimum.
        if drawing.is_none() && session.next_due(now) {
            drawing = Some(draw(&settings.next_board, session.game + 1)?);
        }
        if let Some(done) = drawing.take_if(|(_, thread)| thread.is_finished()) {
            let board = drawn(done, &settings.board)?;
            session.next(board, now);
            log_line(
                &mut log,
                &NewBoardLog {
                    t_ms,
                    game: session.game,
                    new_board: board.to_string(),
                },
            );
            say(&format!("game {}: {board}", session.game));
            shown_clicks = None;
        }
        let game = &session.round;
        if shown_clicks != Some(game.clicks) {
            shown_clicks = Some(game.clicks);
            painted = false;
            window.set_title(&status(&settings.title, game));
            if game.board.is_cleared() {
                say(&format!("cleared in {} clicks", game.clicks));
            }
        }
        // Draw only while something changes: a frame that takes long to
        // draw would let a short press and its release fall in one poll
        // where the button's state is all there is. (At rest the window
        // sends the picture again now and then itself.)
        let animating = game.animating(now);
        if animating || !painted {
            painter.paint(&game.scene(now), &mut frame);
            window
                .show(&frame.pixels, (width, height))
                .map_err(PracticeError::Window)?;
            painted = !animating;
        } else {
            window.pump();
        }
    }
    Ok(Summary {
        clicks: session.round.clicks,
        cleared: session.round.board.is_cleared(),
    })
}

/// The window title: the click count, and the result once cleared.
fn status(title: &str, game: &Round) -> String {
    if game.board.is_cleared() {
        format!("{title} - cleared in {} clicks", game.clicks)
    } else {
        format!("{title} - {} clicks", game.clicks)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const REAL: &str = crate::game::EXAMPLE_BOARD;

    fn ms(ms: u64) -> Duration {
        Duration::from_millis(ms)
    }

    #[test]
    fn clicks_play_moves_and_count() {
        let board: Board = REAL.parse().unwrap();
        let mut game = Round::new(board, Rules::CentreRows, Style::Smooth, ms(300));
        let now = Instant::now();
        assert_eq!(game.click(Some(Cell::new(7, 0)), now), 5);
        assert_eq!(
            game.board.to_string(),
            "GGGGBO  ,RORGYGY ,RRBGOOB ,BRBOBYR ,BRYBBRRO,OYGGRORY"
        );
        assert_eq!(game.click(None, now), 0);
        assert_eq!(game.clicks, 2);
        assert!(status("Dust Practice", &game).ends_with("2 clicks"));
    }

    #[test]
    fn a_round_plays_its_rules() {
        // RULES.md's vectors: the third click, (2,1) x5, closes the
        // columns toward the centre under centre-columns.
        let board: Board = "YBBGYGBB,GYOYYOYB,BBGYYYRB,YBRRBRYR,BRRGGOBG,OYYGRYGB"
            .parse()
            .unwrap();
        let mut game = Round::new(board, Rules::CentreColumns, Style::Smooth, ms(300));
        let now = Instant::now();
        for (x, y) in [(3, 3), (1, 1), (2, 1)] {
            assert!(game.click(Some(Cell::new(x, y)), now) > 0);
        }
        assert_eq!(
            game.board.to_string(),
            " Y    BB, GB  GYB, BY  ORB, YBB RYR, BBOBOBG, OYYRYGB"
        );
        // The animation ends on the board the rules make.
        let end = game.scene(now + ms(300));
        assert_eq!(end.drawn.tiles, render::tiles(&game.board));
        assert!(game.animating(now) && !game.animating(now + ms(300)));
    }

    #[test]
    fn an_idle_window_ignores_clicks_while_the_board_looks_final() {
        let board: Board = REAL.parse().unwrap();
        let mut game = Round::new(board, Rules::CentreRows, Style::Idle, ms(100));
        let start = Instant::now();
        assert_eq!(game.click(Some(Cell::new(7, 0)), start), 5);
        let after = game.board();
        // At rest from 100 ms, deaf until 600 ms.
        assert!(!game.animating(start + ms(100)));
        assert_eq!(game.click(Some(Cell::new(0, 0)), start + ms(550)), 0);
        assert_eq!((game.board(), game.clicks), (after, 1));
        assert!(game.click(Some(Cell::new(0, 0)), start + ms(600)) > 0);
        assert_eq!(game.clicks, 2);
    }

    #[test]
    fn a_scene_is_the_same_whenever_it_is_drawn() {
        let board: Board = REAL.parse().unwrap();
        let start = Instant::now();
        let mut game = Round::new(board, Rules::CentreRows, Style::Phases, ms(300));
        game.click(Some(Cell::new(7, 0)), start);
        let later = game.scene(start + ms(200));
        assert_eq!(game.scene(start + ms(100)), game.scene(start + ms(100)));
        assert_eq!(game.scene(start + ms(200)), later);
        assert!(!later.cleared && later.clicks == 1);
    }

    #[test]
    fn every_style_paints_from_the_click_to_the_board_at_rest() {
        let board: Board = REAL.parse().unwrap();
        let (geometry, size) = layout(&board, 0.5);
        let painter = Painter::new(&geometry, size, &Look::nodiatis());
        let mut frame = Canvas::new(0, 0, [0, 0, 0]);
        for style in Style::ALL {
            let start = Instant::now();
            let mut game = Round::new(board, Rules::CentreRows, style, ms(100));
            game.click(Some(Cell::new(7, 0)), start);
            // The click's own instant draws everything at full strength.
            painter.paint(&game.scene(start), &mut frame);
            let first = frame.pixels.clone();
            let rest = start + style.length(ms(100));
            painter.paint(&game.scene(rest), &mut frame);
            assert_ne!(first, frame.pixels, "{style}");
            assert_eq!(game.scene(rest).drawn.tiles, render::tiles(&game.board));
        }
    }

    /// A board one click clears: (0,0) G x2.
    const ONE_CLICK: &str = "        ,        ,        ,        ,        ,GG      ";

    #[test]
    fn a_key_starts_the_next_board_at_once_the_clicks_counted_anew() {
        let board: Board = REAL.parse().unwrap();
        let start = Instant::now();
        let round = Round::new(board, Rules::CentreColumns, Style::Pop, ms(200));
        let mut session = Games::new(round, None, start);
        session.round.click(Some(Cell::new(7, 0)), start);
        assert!(!session.next_due(start + ms(100_000)));
        session.ask();
        assert!(session.next_due(start));
        let next: Board = ONE_CLICK.parse().unwrap();
        session.next(next, start + ms(10));
        assert_eq!(session.game, 2);
        assert!(!session.next_due(start + ms(100_000)));
        let round = &session.round;
        assert_eq!((round.board(), round.clicks), (next, 0));
        // The same rules and animation carry on.
        assert_eq!(
            (round.rules, round.style, round.anim),
            (Rules::CentreColumns, Style::Pop, ms(200))
        );
        assert!(!round.scene(start + ms(10)).cleared);
    }

    #[test]
    fn a_cleared_board_gives_way_to_the_next_after_the_time_asked() {
        let board: Board = ONE_CLICK.parse().unwrap();
        for (style, at_rest) in [(Style::Smooth, 300), (Style::Slow, 1500)] {
            let start = Instant::now();
            let round = Round::new(board, Rules::CentreRows, style, ms(300));
            let mut session = Games::new(round, Some(ms(1000)), start);
            assert!(!session.next_due(start + ms(5000)), "{style}");
            assert_eq!(session.round.click(Some(Cell::new(0, 0)), start), 2);
            // From when the window shows the board cleared.
            let shown = start + ms(at_rest);
            assert!(session.round.scene(shown).cleared);
            assert!(!session.round.scene(shown - ms(1)).cleared);
            assert!(!session.next_due(shown + ms(999)), "{style}");
            assert!(session.next_due(shown + ms(1000)), "{style}");
        }
    }

    #[test]
    fn only_a_cleared_board_gives_way_by_itself() {
        let start = Instant::now();
        let real: Board = REAL.parse().unwrap();
        let round = Round::new(real, Rules::CentreRows, Style::Smooth, ms(300));
        let mut playing = Games::new(round, Some(Duration::ZERO), start);
        playing.round.click(Some(Cell::new(7, 0)), start);
        assert!(!playing.next_due(start + ms(100_000)));
        // Without --next-after, a cleared board stays.
        let one: Board = ONE_CLICK.parse().unwrap();
        let round = Round::new(one, Rules::CentreRows, Style::Smooth, ms(300));
        let mut kept = Games::new(round, None, start);
        kept.round.click(Some(Cell::new(0, 0)), start);
        assert!(!kept.next_due(start + ms(100_000)));
        // A board given empty is cleared from the start.
        let empty = Board::empty(8, 6).unwrap();
        let round = Round::new(empty, Rules::CentreRows, Style::Smooth, ms(300));
        let given = Games::new(round, Some(ms(500)), start);
        assert!(!given.next_due(start + ms(499)) && given.next_due(start + ms(500)));
    }

    #[test]
    fn a_new_board_key_asks_once_per_press() {
        let asked = Rc::new(std::cell::Cell::new(false));
        let mut keys = NewBoardKeys {
            asked: Rc::clone(&asked),
            down: [false; NEW_BOARD_KEYS.len()],
        };
        // Pressed and released before a poll: still asked.
        keys.set_key_state(Key::Char('n'), true);
        keys.set_key_state(Key::Char('n'), false);
        assert!(asked.take());
        // Held down, the key repeats: one ask.
        keys.set_key_state(Key::Enter, true);
        assert!(asked.take());
        keys.set_key_state(Key::Enter, true);
        assert!(!asked.take());
        keys.set_key_state(Key::Space, true);
        assert!(asked.take());
    }

    #[test]
    fn a_next_board_the_window_cannot_show_is_an_error_naming_the_game() {
        let real: Board = REAL.parse().unwrap();
        let small: Board = "RGB,GBR".parse().unwrap();
        let next = NextBoard(Arc::new(move |game| match game {
            2 => Ok(small),
            3 => Ok(real),
            _ => Err("no more boards".to_owned()),
        }));
        let error = drawn(draw(&next, 2).unwrap(), &real).unwrap_err();
        assert_eq!(
            error.to_string(),
            "no board for game 2: 3x2, in a window for 8x6"
        );
        assert_eq!(drawn(draw(&next, 3).unwrap(), &real).unwrap(), real);
        let error = drawn(draw(&next, 4).unwrap(), &real).unwrap_err();
        assert_eq!(error.to_string(), "no board for game 4: no more boards");
    }

    #[test]
    fn log_lines_keep_their_fields_in_order() {
        let click = ClickLog {
            t_ms: 1200,
            game: 2,
            px: [10, 20],
            cell: None,
            size: 0,
            board_after: ONE_CLICK.to_owned(),
        };
        assert_eq!(
            serde_json::to_string(&click).unwrap(),
            format!(
                r#"{{"t_ms":1200,"game":2,"px":[10,20],"cell":null,"size":0,"board_after":"{ONE_CLICK}"}}"#
            )
        );
        let new = NewBoardLog {
            t_ms: 1300,
            game: 3,
            new_board: REAL.to_owned(),
        };
        let line = serde_json::to_string(&new).unwrap();
        assert_eq!(
            line,
            format!(r#"{{"t_ms":1300,"game":3,"new_board":"{REAL}"}}"#)
        );
        // A reader of clicks does not take it for one.
        assert!(serde_json::from_str::<ClickLog>(&line).is_err());
    }

    #[test]
    fn the_layout_puts_the_board_inside_the_window() {
        let board: Board = REAL.parse().unwrap();
        let (g, (w, h)) = layout(&board, 1.0);
        assert_eq!((g.pitch_x, g.x), (80.0, 40.0));
        assert_eq!((w, h), (720, 560));
        let (g, _) = layout(&board, 0.5);
        assert_eq!(g.pitch_x, 40.0);
    }
}
