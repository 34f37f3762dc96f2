//! The practice window: a real window (`minifb`) that plays like the game,
//! under any variant of the rules. It draws the board, takes clicks on
//! cells, animates the removal, the fall and the second step (rows or
//! columns closing up), counts the clicks, shows the result, and logs
//! every click it receives as a JSON line, so that live play can be
//! watched and tested against a window whose truth is known (and whose
//! rules may not be the ones the bot was told).

mod paint;

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use minifb::{Key, MouseButton, MouseMode, Window, WindowOptions};
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::game::{Board, Cell, CellSet, Rules};
use crate::geometry::{Geometry, PixelPoint};
use crate::render::{self, Canvas};

pub use crate::render::{Look, Tile};
pub use paint::{Painter, Scene};

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
/// Share of the animation spent fading the removed cluster; the rest is
/// the fall and contraction.
const FADE: f32 = 0.4;

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
/// the board before it.
#[derive(Debug)]
struct Round {
    board: Board,
    rules: Rules,
    clicks: u32,
    animation: Option<Animation>,
}

#[derive(Debug)]
struct Animation {
    before: Board,
    removed: CellSet,
    moves: Vec<(Cell, Cell)>,
    started: Instant,
}

impl Round {
    /// A game of `board` under `rules`, no click yet.
    fn new(board: Board, rules: Rules) -> Round {
        Round {
            board,
            rules,
            clicks: 0,
            animation: None,
        }
    }

    /// Plays a click on `cell` (if any) and returns the cluster size
    /// removed, 0 when nothing happens.
    fn click(&mut self, cell: Option<Cell>, now: Instant) -> u8 {
        self.clicks += 1;
        let Some((after, cluster)) = cell.and_then(|c| self.board.play_under(c, self.rules).ok())
        else {
            return 0;
        };
        self.animation = Some(Animation {
            before: self.board,
            removed: cluster.cells,
            moves: self.board.tile_moves_under(cluster.cells, self.rules),
            started: now,
        });
        self.board = after;
        cluster.size
    }

    /// The tiles to draw at `now`.
    fn scene(&mut self, now: Instant, anim: Duration) -> Vec<Tile> {
        if let Some(a) = &self.animation
            && now.duration_since(a.started) >= anim
        {
            self.animation = None;
        }
        let Some(a) = &self.animation else {
            return render::tiles(&self.board);
        };
        let t = now.duration_since(a.started).as_secs_f32() / anim.as_secs_f32();
        let fade = (t / FADE).min(1.0);
        let travel = ((t - FADE) / (1.0 - FADE)).clamp(0.0, 1.0);
        let eased = travel * travel * (3.0 - 2.0 * travel);
        let before = &a.before;
        let mut tiles: Vec<Tile> = a
            .removed
            .indices()
            .map(|i| before.cell_of(i))
            .filter_map(|cell| {
                Some(Tile {
                    colour: before.get(cell)?,
                    x: f32::from(cell.x),
                    y: f32::from(cell.y),
                    alpha: 1.0 - fade,
                })
            })
            .collect();
        tiles.extend(a.moves.iter().filter_map(|&(from, to)| {
            let lerp = |a: u8, b: u8| f32::from(a) + (f32::from(b) - f32::from(a)) * eased;
            Some(Tile {
                colour: before.get(from)?,
                x: lerp(from.x, to.x),
                y: lerp(from.y, to.y),
                alpha: 1.0,
            })
        }));
        tiles
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
    let mut game = Round::new(settings.board, settings.rules);
    let painter = Painter::new(&geometry, (width, height), &settings.look);
    let mut frame = Canvas::new(width, height, [0, 0, 0]);
    let mut painted = false;
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
            painted = false;
            window.set_title(&status(&settings.title, &game));
            if game.board.is_cleared() {
                println!("cleared in {} clicks", game.clicks);
            }
        }
        // Repaint only while something changes: a frame that takes long to
        // draw would let a short press and its release fall in one poll.
        if game.animation.is_some() || !painted {
            let scene = Scene {
                tiles: game.scene(now, settings.anim),
                clicks: game.clicks,
                cleared: game.board.is_cleared() && game.animation.is_none(),
            };
            painter.paint(&scene, &mut frame);
            painted = game.animation.is_none();
            window
                .update_with_buffer(&frame.pixels, width, height)
                .map_err(|e| PracticeError::Window(e.to_string()))?;
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

    #[test]
    fn clicks_play_moves_and_count() {
        let board: Board = REAL.parse().unwrap();
        let mut game = Round::new(board, Rules::CentreRows);
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
        let mut game = Round::new(board, Rules::CentreColumns);
        let now = Instant::now();
        for (x, y) in [(3, 3), (1, 1), (2, 1)] {
            assert!(game.click(Some(Cell::new(x, y)), now) > 0);
        }
        assert_eq!(
            game.board.to_string(),
            " Y    BB, GB  GYB, BY  ORB, YBB RYR, BBOBOBG, OYYRYGB"
        );
        // The animation takes every tile where the rules put it.
        let a = game.animation.as_ref().unwrap();
        assert_eq!(a.moves.len(), game.board.tile_count());
        for &(from, to) in &a.moves {
            assert_eq!(a.before.get(from), game.board.get(to), "{from} -> {to}");
        }
    }

    #[test]
    fn the_animation_moves_tiles_then_settles() {
        let board: Board = REAL.parse().unwrap();
        let mut game = Round::new(board, Rules::CentreRows);
        let start = Instant::now();
        game.click(Some(Cell::new(7, 0)), start);
        let anim = Duration::from_millis(300);
        let early = game.scene(start, anim);
        // The removed cluster is still drawn (fully opaque) at the start.
        assert_eq!(early.len(), 48);
        assert_eq!(early.iter().filter(|t| t.alpha == 1.0).count(), 48);
        let middle = game.scene(start + Duration::from_millis(200), anim);
        assert_eq!(middle.iter().filter(|t| t.alpha == 0.0).count(), 5);
        assert!(
            middle
                .iter()
                .any(|t| t.x.fract() != 0.0 || t.y.fract() != 0.0)
        );
        let end = game.scene(start + anim, anim);
        assert_eq!(end.len(), 43);
        assert!(game.animation.is_none());
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
