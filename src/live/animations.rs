//! The settling and rule-learning logic against every animation the
//! practice window plays, under every variant of the rules, without a
//! screen: each frame the window would show at the live loop's capture
//! times (as often as the settling rule asks) is drawn, cut to the board's
//! region and read by the vision at the board's place, as the eye does, and
//! fed with its time to the rules the live loop follows (settling, pace,
//! learned rules, a lost click made again). Every click must settle on the
//! board the window plays, never on an in-between board, and the rules
//! learned must always keep the window's.

use std::time::{Duration, Instant};

use image::imageops;

use super::rules::{Explanation, Learned, RulesChoice};
use super::screen::ScreenBoard;
use super::settling::{Pace, Settling, Status};
use crate::desktop::ScreenRect;
use crate::game::{Board, Cell, Rules};
use crate::geometry::Geometry;
use crate::practice::{Look, Painter, Round, Scene, Style, layout};
use crate::render::Canvas;
use crate::vision::{self, Calibration};

/// The board: under centre-columns its fourth optimal click is a
/// lone tile whose column empties.
const BOARD: &str = "YBROGYGG,RORBOYYG,OOROOBBR,BYRORYYY,YBYYRBRR,ORBRYYYG";

/// The animation asked for (`slow` takes its own).
const ANIM: Duration = Duration::from_millis(200);

/// The clicks played of each game: the test's choice of clicks empties a
/// column whenever it can, so the variants part within them.
const CLICKS: u32 = 8;

/// From a click to the first capture, and from a board settled to the
/// next click (the aim reads the board once more).
const LAG: Duration = Duration::from_millis(20);

/// The practice window at half the real size, and what the eye sees of it.
struct Screen<'c> {
    round: Round,
    painter: Painter,
    geometry: Geometry,
    size: (usize, usize),
    calibration: &'c Calibration,
    canvas: Canvas,
    /// The last scene drawn and what the eye read on it: a window at rest
    /// shows the same scene frame after frame.
    last: Option<(Scene, Option<Board>)>,
}

impl Screen<'_> {
    /// The board the eye reads at `at`, if it reads one.
    fn read(&mut self, at: Instant) -> Option<Board> {
        let scene = self.round.scene(at);
        if let Some((last, read)) = &self.last
            && *last == scene
        {
            return *read;
        }
        self.painter.paint(&scene, &mut self.canvas);
        let board = ScreenBoard {
            geometry: self.geometry,
            client: ScreenRect {
                x: 0,
                y: 0,
                width: self.size.0 as u32,
                height: self.size.1 as u32,
            },
        };
        let region = board.region().unwrap();
        let image = self.canvas.to_image();
        let part = imageops::crop_imm(
            &image,
            region.x as u32,
            region.y as u32,
            region.width,
            region.height,
        )
        .to_image();
        let geometry = self.geometry.translated(region.x as f32, region.y as f32);
        let read = vision::read_at(&part, self.calibration, &geometry)
            .board()
            .ok();
        self.last = Some((scene, read));
        read
    }
}

/// The click the test makes on `board`: a cluster whose removal empties a
/// column under `rules` (where the variants part), else the biggest.
fn choose(board: &Board, rules: Rules) -> Cell {
    let columns = |b: &Board| {
        (0..b.width())
            .filter(|&x| (0..b.height()).any(|y| b.get(Cell::new(x, y)).is_some()))
            .count()
    };
    let clusters = board.clusters();
    let empties = clusters
        .iter()
        .find(|c| columns(&board.remove_under(c.cells, rules)) < columns(board));
    empties
        .or_else(|| clusters.iter().max_by_key(|c| c.size))
        .unwrap()
        .cell
}

/// Plays the game in `style` under `truth` as the live loop does: the
/// clicks the window ignored, or what went wrong first.
fn play(style: Style, truth: Rules, calibration: &Calibration) -> Result<u32, String> {
    let board: Board = BOARD.parse().unwrap();
    let (geometry, size) = layout(&board, 0.5);
    let mut screen = Screen {
        round: Round::new(board, truth, style, ANIM),
        painter: Painter::new(&geometry, size, &Look::nodiatis()),
        geometry,
        size,
        calibration,
        canvas: Canvas::new(0, 0, [0, 0, 0]),
        last: None,
    };
    let game = format!("{style} under {truth}");
    let mut learned = Learned::new(RulesChoice::Auto);
    let mut pace = Pace::new(None);
    let mut now = Instant::now();
    let mut last_click: Option<Instant> = None;
    let mut current = board;
    let mut lost = 0;
    for number in 1..=CLICKS {
        if current.is_cleared() {
            break;
        }
        let cell = choose(&current, truth);
        let last_taken = last_click;
        let mut tries = 0;
        let read = loop {
            if let Some(last) = last_click {
                now = now.max(pace.next_click(last));
            }
            screen.round.click(Some(cell), now);
            let clicked = now;
            last_click = Some(clicked);
            let expected = current
                .play_under(cell, learned.rules())
                .map(|(after, _)| after)
                .into_iter()
                .collect();
            let mut settle =
                Settling::new(Some(current), expected, pace.hold()).ending_at(pace.ends(clicked));
            let mut at = clicked + LAG;
            // What the last capture showed.
            let mut last: Option<Scene> = None;
            let read = loop {
                let scene = screen.round.scene(at);
                let same = last.as_ref() == Some(&scene);
                // The glance at a predicted board just read.
                if settle.to_agree().is_some()
                    && same
                    && let Status::Settled(read) = settle.held(at)
                {
                    break read;
                }
                last = Some(scene);
                if settle.captured(at, same) {
                    let status = match settle.see(screen.read(at), at) {
                        Status::Wait => settle.held(at),
                        settled => settled,
                    };
                    if let Status::Settled(read) = status {
                        break read;
                    }
                }
                at = settle.next_read(at).max(at + Duration::from_millis(1));
                if at - clicked > Duration::from_secs(3) {
                    return Err(format!("{game}, click {number}: unsettled"));
                }
            };
            now = at + LAG;
            if read != current {
                let moving = settle.moving_until().unwrap_or(clicked);
                pace.animated(moving.saturating_duration_since(clicked));
                break read;
            }
            tries += 1;
            if tries == 2 {
                return Err(format!("{game}, click {number}: lost twice"));
            }
            now += pace.between_clicks();
        };
        if tries > 0 {
            lost += 1;
            pace.took_input(last_click.unwrap() - last_taken.unwrap());
        }
        if read != screen.round.board() {
            return Err(format!(
                "{game}, click {number} on {cell}: settled on {read}, not on the board at rest"
            ));
        }
        let seen = learned.see(number, |rules| {
            current.play_under(cell, rules).map(|(after, _)| after) == Ok(read)
        });
        if seen == Explanation::Unexplained || !learned.candidates().contains(&truth) {
            return Err(format!(
                "{game}, click {number}: the rules learned are {:?}",
                learned.candidates()
            ));
        }
        current = read;
    }
    Ok(lost)
}

#[test]
fn every_style_under_every_rules_settles_on_each_board_and_learns_them() {
    let calibration = Calibration::load(&Calibration::default_path()).unwrap();
    let games: Vec<(Style, Rules)> = Style::ALL
        .into_iter()
        .flat_map(|style| Rules::ALL.into_iter().map(move |rules| (style, rules)))
        .collect();
    // Half the games each on two threads.
    let played: Vec<(Style, Rules, Result<u32, String>)> = std::thread::scope(|scope| {
        let halves: Vec<_> = games
            .chunks(games.len().div_ceil(2))
            .map(|half| {
                let calibration = &calibration;
                scope.spawn(move || {
                    half.iter()
                        .map(|&(style, rules)| (style, rules, play(style, rules, calibration)))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        halves
            .into_iter()
            .flat_map(|half| half.join().unwrap())
            .collect()
    });
    // The idle window ignores the click made as soon as its board looks
    // final, once: the pace learned then waits long enough.
    let wrong: Vec<String> = played
        .into_iter()
        .filter_map(|(style, rules, played)| match played {
            Ok(lost) if lost == u32::from(style == Style::Idle) => None,
            Ok(lost) => Some(format!("{style} under {rules}: {lost} click(s) lost")),
            Err(error) => Some(error),
        })
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
