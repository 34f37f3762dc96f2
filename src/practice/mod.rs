//! The practice window: a real window (`minifb`) that plays like the game,
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

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use minifb::{Key, MouseButton, MouseMode, Window, WindowOptions};
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::game::{Board, Cell, Rules};
use crate::geometry::{Geometry, PixelPoint};
use crate::render::{self, Canvas};

pub use crate::render::{Look, Tile};
pub use paint::{Painter, Scene};
pub use style::{Drawn, Move, Style};

/// What `bot practice` was asked for.
#[derive(Debug)]
pub struct PracticeSettings {
    pub board: Board,
    /// The rules the window plays by.
    pub rules: Rules,
    /// 1.0 draws the real game's 80-pixel cells.
    pub scale: f32,
    /// How long the removal, fall and contraction take.
    pub anim: Duration,
    /// How a move is animated.
    pub style: Style,
    pub title: String,
    /// Where every click received goes, one JSON line each: the file,
    /// open to append to, and its name for errors.
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
    #[error("{path}: cannot write the click log: {cause}")]
    Log {
        path: PathBuf,
        cause: std::io::Error,
    },
}

/// How a practice game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Summary {
    pub clicks: u32,
    pub cleared: bool,
}

/// One line of the click log, fields in this order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClickLog {
    /// Since the window opened.
    pub t_ms: u64,
    /// In the window's client area.
    pub px: [i64; 2],
    /// `null` when off the board.
    pub cell: Option<[u8; 2]>,
    /// The cluster removed; 0 when nothing was.
    pub size: u8,
    pub board_after: String,
}

/// The window scales the practice window draws: from a quarter to four
/// times the real game's size.
pub const SCALES: std::ops::RangeInclusive<f32> = 0.25..=4.0;

/// Room around the board, in pitches.
const MARGIN: f32 = 0.5;
/// How often a window at rest sends its picture again, so that whatever
/// another window covered comes back (minifb draws on no expose event);
/// seldom, as each sending takes time from the polls that must see a
/// short press.
const REPAINT: Duration = Duration::from_millis(250);

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
        self.animation.as_ref().is_some_and(|(_, started)| {
            now.saturating_duration_since(*started) < self.style.length(self.anim)
        })
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

/// Opens the window and plays until it is closed (or Escape).
pub fn run(settings: &PracticeSettings) -> Result<Summary, PracticeError> {
    if !SCALES.contains(&settings.scale) {
        return Err(PracticeError::Scale(settings.scale));
    }
    let mut log = settings
        .log
        .as_ref()
        .map(|(path, file)| (path, BufWriter::new(file)));
    let (geometry, (width, height)) = layout(&settings.board, settings.scale);
    let mut window = Window::new(&settings.title, width, height, WindowOptions::default())
        .map_err(|e| PracticeError::Window(e.to_string()))?;
    // Polling at 120 Hz sees every press of a 40 ms click.
    window.set_target_fps(120);
    let started = Instant::now();
    let mut game = Round::new(
        settings.board,
        settings.rules,
        settings.style,
        settings.anim,
    );
    let painter = Painter::new(&geometry, (width, height), &settings.look);
    let mut frame = Canvas::new(width, height, [0, 0, 0]);
    // When the picture was last sent whole, if it shows the board at rest.
    let mut painted: Option<Instant> = None;
    let mut was_down = false;
    let mut shown_clicks = None;
    while window.is_open() && !window.is_key_down(Key::Escape) {
        let now = Instant::now();
        let down = window.get_mouse_down(MouseButton::Left);
        if down && !was_down {
            // minifb asks where the pointer is before it takes the events
            // in: a press that came with a move since the last poll would
            // be placed where the pointer was before the move. Ask again.
            window.update();
        }
        if down
            && !was_down
            && let Some((px, py)) = window.get_mouse_pos(MouseMode::Discard)
        {
            let cell = geometry.cell_at(PixelPoint::new(px, py));
            let size = game.click(cell, now);
            if let Some((path, out)) = &mut log {
                let line = ClickLog {
                    t_ms: now.duration_since(started).as_millis() as u64,
                    px: [px.floor() as i64, py.floor() as i64],
                    cell: cell.map(|c| [c.x, c.y]),
                    size,
                    board_after: game.board.to_string(),
                };
                let line = serde_json::to_string(&line).expect("plain data serialises");
                writeln!(out, "{line}")
                    .and_then(|()| out.flush())
                    .map_err(|cause| PracticeError::Log {
                        path: (*path).clone(),
                        cause,
                    })?;
            }
            log::debug!("click at ({px}, {py}) on {cell:?}: removed {size}");
        }
        was_down = down;
        if shown_clicks != Some(game.clicks) {
            shown_clicks = Some(game.clicks);
            painted = None;
            window.set_title(&status(&settings.title, &game));
            if game.board.is_cleared() {
                println!("cleared in {} clicks", game.clicks);
            }
        }
        // Draw only while something changes: a frame that takes long to
        // draw would let a short press and its release fall in one poll.
        // At rest the picture drawn is sent again now and then, for the
        // parts another window covered.
        let animating = game.animating(now);
        if animating || painted.is_none() {
            painter.paint(&game.scene(now), &mut frame);
        }
        if animating || painted.is_none_or(|at| now.duration_since(at) >= REPAINT) {
            window
                .update_with_buffer(&frame.pixels, width, height)
                .map_err(|e| PracticeError::Window(e.to_string()))?;
            painted = (!animating).then_some(now);
        } else {
            window.update();
        }
    }
    Ok(Summary {
        clicks: game.clicks,
        cleared: game.board.is_cleared(),
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

    const REAL: &str = "GGGGBOYO,RORGYGBY,RRBGOORG,BRBOBYRG,BRYBBRGG,OYGGRORG";

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
