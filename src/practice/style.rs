//! How the practice window animates a move (`--anim-style`): nobody here
//! knows how the real game does it, so the window plays the kinds of
//! animation a game may have, and live play must hold on every one: a
//! board that pauses between the fall and the slide, a cluster removed at
//! once or blinking before it goes, a long animation, input ignored after
//! the board looks final, a score or dust drawn over the board. Each frame
//! is a pure function of the move and the time since the click, so that
//! tests can draw any frame without a window.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use crate::game::{Board, Cell, CellSet, Cluster, Colour, Rules};
use crate::render::Tile;

/// How a move is animated.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Style {
    /// The cluster fades, then the tiles fall and close up together.
    #[default]
    Smooth,
    /// Fade, fall, slide, each a third of the time, and the board after the
    /// fall held still between the fall and the slide.
    Phases,
    /// The cluster goes at once, then the tiles fall and close up.
    Pop,
    /// The cluster blinks, then goes; then the tiles move.
    Flash,
    /// Smooth, over [`SLOW`] whatever the time asked for.
    Slow,
    /// Smooth, then the window ignores clicks for [`IDLE`] more while the
    /// board already looks final.
    Idle,
    /// Smooth, with "+N" (the cluster's size) floating up from the clicked
    /// cell for [`SCORE`].
    Score,
    /// Smooth, with small specks of the cluster's dust rising over its
    /// cells for [`DUST`].
    Dust,
}

/// The `slow` style's animation.
pub const SLOW: Duration = Duration::from_millis(1500);
/// How long the `idle` style ignores clicks after the tiles have stopped.
pub const IDLE: Duration = Duration::from_millis(500);
/// How long the `score` style's text floats over the board.
pub const SCORE: Duration = Duration::from_millis(600);
/// How long the `dust` style's specks rise.
pub const DUST: Duration = Duration::from_millis(500);

/// Share of a smooth animation spent fading the cluster; the rest is the
/// fall and the contraction.
const FADE: f32 = 0.4;
/// How many times the `flash` style shows and hides the cluster.
const BLINKS: f32 = 3.0;
/// The specks over each removed cell.
const SPECKS: u32 = 6;

impl Style {
    pub const ALL: [Style; 8] = [
        Style::Smooth,
        Style::Phases,
        Style::Pop,
        Style::Flash,
        Style::Slow,
        Style::Idle,
        Style::Score,
        Style::Dust,
    ];

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Style::Smooth => "smooth",
            Style::Phases => "phases",
            Style::Pop => "pop",
            Style::Flash => "flash",
            Style::Slow => "slow",
            Style::Idle => "idle",
            Style::Score => "score",
            Style::Dust => "dust",
        }
    }

    /// What the style does, for `--help`.
    pub fn describe(self) -> &'static str {
        match self {
            Style::Smooth => "the cluster fades, then the tiles fall and close up",
            Style::Phases => {
                "fade, fall, slide, each a third, the board after the fall held for half the time"
            }
            Style::Pop => "the cluster goes at once, then the tiles fall and close up",
            Style::Flash => "the cluster blinks before it goes",
            Style::Slow => "smooth, over 1.5 s whatever --anim-ms says",
            Style::Idle => "smooth, then clicks are ignored for 500 ms while the board looks final",
            Style::Score => "smooth, with \"+N\" floating over the board for 600 ms",
            Style::Dust => "smooth, with specks of dust rising over the cells for 500 ms",
        }
    }

    /// How long the tiles move when `anim` is asked for.
    fn motion(self, anim: Duration) -> Duration {
        match self {
            Style::Slow => SLOW,
            _ => anim,
        }
    }

    /// How long the board after the fall is held still, in `phases`.
    fn hold(self, anim: Duration) -> Duration {
        match self {
            Style::Phases => anim / 2,
            _ => Duration::ZERO,
        }
    }

    /// From the click until the window takes clicks again.
    pub fn deaf(self, anim: Duration) -> Duration {
        match self {
            Style::Idle => self.motion(anim) + IDLE,
            _ => Duration::ZERO,
        }
    }

    /// From the click until the frame is the board at rest.
    pub fn length(self, anim: Duration) -> Duration {
        let tiles = self.motion(anim) + self.hold(anim);
        match self {
            Style::Score => tiles.max(SCORE),
            Style::Dust => tiles.max(DUST),
            _ => tiles,
        }
    }
}

impl fmt::Display for Style {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is none of the styles'.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown animation style {0:?}: one of smooth, phases, pop, flash, slow, idle, score, dust"
)]
pub struct UnknownStyle(pub String);

impl FromStr for Style {
    type Err = UnknownStyle;

    fn from_str(text: &str) -> Result<Style, UnknownStyle> {
        Style::ALL
            .into_iter()
            .find(|s| s.name() == text)
            .ok_or_else(|| UnknownStyle(text.to_owned()))
    }
}

/// "+N" over the board: its centre, in cells (fractional).
#[derive(Clone, Debug, PartialEq)]
pub struct Score {
    pub text: String,
    pub x: f32,
    pub y: f32,
}

/// A speck of dust: its centre in cells (fractional), its colour, its
/// opacity.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Speck {
    pub colour: Colour,
    pub x: f32,
    pub y: f32,
    pub alpha: f32,
}

/// What a move draws at one moment.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Drawn {
    pub tiles: Vec<Tile>,
    pub score: Option<Score>,
    pub specks: Vec<Speck>,
}

/// One move, as the window animates it.
#[derive(Clone, Debug, PartialEq)]
pub struct Move {
    before: Board,
    after: Board,
    removed: CellSet,
    clicked: Cell,
    size: u8,
    /// Every tile kept: where it was, where gravity alone puts it, and
    /// where the rules put it.
    paths: Vec<(Cell, Cell, Cell)>,
}

impl Move {
    /// The click on `clicked` that removed `cluster` from `before` under
    /// `rules`.
    pub fn new(before: &Board, clicked: Cell, cluster: &Cluster, rules: Rules) -> Move {
        let fallen = before.tile_moves_under(cluster.cells, Rules::Gravity);
        let paths = before
            .tile_moves_under(cluster.cells, rules)
            .into_iter()
            .map(|(from, to)| {
                let mid = fallen
                    .iter()
                    .find(|&&(f, _)| f == from)
                    .map_or(from, |&(_, mid)| mid);
                (from, mid, to)
            })
            .collect();
        Move {
            before: *before,
            after: before.remove_under(cluster.cells, rules),
            removed: cluster.cells,
            clicked,
            size: cluster.size,
            paths,
        }
    }

    /// What `style` draws `t` after the click, with `anim` asked for.
    pub fn draw(&self, style: Style, anim: Duration, t: Duration) -> Drawn {
        if t >= style.length(anim) {
            return Drawn {
                tiles: crate::render::tiles(&self.after),
                ..Drawn::default()
            };
        }
        let motion = style.motion(anim).as_secs_f32().max(f32::EPSILON);
        let s = t.as_secs_f32() / motion;
        let cluster_alpha = match style {
            Style::Pop => 0.0,
            Style::Phases => 1.0 - (3.0 * s).min(1.0),
            Style::Flash => {
                // Shown and hidden by turns, then gone.
                let slot = (s / FADE * 2.0 * BLINKS) as u32;
                if s < FADE && slot.is_multiple_of(2) {
                    1.0
                } else {
                    0.0
                }
            }
            _ => 1.0 - (s / FADE).min(1.0),
        };
        let mut tiles: Vec<Tile> = self
            .removed
            .indices()
            .map(|i| self.before.cell_of(i))
            .filter_map(|cell| {
                Some(Tile {
                    colour: self.before.get(cell)?,
                    x: f32::from(cell.x),
                    y: f32::from(cell.y),
                    alpha: cluster_alpha,
                })
            })
            .filter(|tile| tile.alpha > 0.0)
            .collect();
        let hold = style.hold(anim).as_secs_f32() / motion;
        tiles.extend(self.paths.iter().filter_map(|&(from, mid, to)| {
            let (start, end, travel) = match style {
                Style::Pop => (from, to, s),
                Style::Phases if s < 2.0 / 3.0 => (from, mid, 3.0 * s - 1.0),
                Style::Phases => (mid, to, 3.0 * (s - hold) - 2.0),
                _ => (from, to, (s - FADE) / (1.0 - FADE)),
            };
            let travel = travel.clamp(0.0, 1.0);
            let eased = travel * travel * (3.0 - 2.0 * travel);
            let lerp = |a: u8, b: u8| f32::from(a) + (f32::from(b) - f32::from(a)) * eased;
            Some(Tile {
                colour: self.before.get(from)?,
                x: lerp(start.x, end.x),
                y: lerp(start.y, end.y),
                alpha: 1.0,
            })
        }));
        let score = (style == Style::Score && t < SCORE).then(|| {
            let rise = t.as_secs_f32() / SCORE.as_secs_f32();
            Score {
                text: format!("+{}", self.size),
                x: f32::from(self.clicked.x),
                y: f32::from(self.clicked.y) + rise,
            }
        });
        let specks = if style == Style::Dust && t < DUST {
            self.specks(t.as_secs_f32() / DUST.as_secs_f32())
        } else {
            Vec::new()
        };
        Drawn {
            tiles,
            score,
            specks,
        }
    }

    /// The specks over the removed cells, `age` (0..1) into their rise.
    fn specks(&self, age: f32) -> Vec<Speck> {
        self.removed
            .indices()
            .map(|i| self.before.cell_of(i))
            .filter_map(|cell| Some((cell, self.before.get(cell)?)))
            .flat_map(|(cell, colour)| {
                (0..SPECKS).map(move |k| {
                    // Spread over the cell by a fixed scramble of the cell
                    // and the speck's number: the same on every frame.
                    let h = (u32::from(cell.x) * 73 + u32::from(cell.y) * 151 + k * 97)
                        .wrapping_mul(2_654_435_761);
                    let dx = (h >> 8 & 0xFF) as f32 / 255.0 - 0.5;
                    let dy = (h >> 16 & 0xFF) as f32 / 255.0 - 0.5;
                    Speck {
                        colour,
                        x: f32::from(cell.x) + 0.8 * dx,
                        y: f32::from(cell.y) + 0.6 * dy + 0.5 * age,
                        alpha: 1.0 - age,
                    }
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const REAL: &str = crate::game::EXAMPLE_BOARD;

    fn ms(ms: u64) -> Duration {
        Duration::from_millis(ms)
    }

    fn real_move(rules: Rules) -> Move {
        let board: Board = REAL.parse().unwrap();
        let cell = Cell::new(7, 0);
        let cluster = board.cluster_at(cell).unwrap();
        Move::new(&board, cell, &cluster, rules)
    }

    fn sorted(mut tiles: Vec<Tile>) -> Vec<Tile> {
        tiles.sort_by(|a, b| (a.x, a.y).partial_cmp(&(b.x, b.y)).unwrap());
        tiles
    }

    fn at_rest(drawn: &Drawn) -> bool {
        drawn
            .tiles
            .iter()
            .all(|t| t.alpha == 1.0 && t.x.fract() == 0.0 && t.y.fract() == 0.0)
    }

    #[test]
    fn names_read_back() {
        for style in Style::ALL {
            assert_eq!(style.name().parse::<Style>(), Ok(style));
        }
        assert!("fade".parse::<Style>().is_err());
    }

    #[test]
    fn every_style_ends_on_the_board_the_rules_make() {
        let anim = ms(300);
        for rules in Rules::ALL {
            let m = real_move(rules);
            for style in Style::ALL {
                let end = m.draw(style, anim, style.length(anim));
                assert_eq!(end.tiles, crate::render::tiles(&m.after), "{style}");
                assert!(end.score.is_none() && end.specks.is_empty());
                // Every frame before the end draws each kept tile once.
                let mid = m.draw(style, anim, style.length(anim) / 2);
                assert!(mid.tiles.len() >= m.after.tile_count(), "{style}");
            }
        }
    }

    #[test]
    fn phases_hold_the_board_after_the_fall() {
        // The first cluster whose fall alone leaves a gap in a row.
        let board: Board = REAL.parse().unwrap();
        let cluster = board
            .clusters()
            .iter()
            .copied()
            .find(|c| {
                board.remove_under(c.cells, Rules::Gravity)
                    != board.remove_under(c.cells, Rules::CentreRows)
            })
            .unwrap();
        let m = Move::new(&board, cluster.cell, &cluster, Rules::CentreRows);
        let anim = ms(300);
        let fallen = m.before.remove_under(m.removed, Rules::Gravity);
        assert_ne!(fallen, m.after);
        // From the fall's end (200 ms) to the slide's start (350 ms).
        for t in [200, 260, 349] {
            let drawn = m.draw(Style::Phases, anim, ms(t));
            assert!(at_rest(&drawn), "{t} ms");
            assert_eq!(
                sorted(drawn.tiles),
                sorted(crate::render::tiles(&fallen)),
                "{t} ms"
            );
        }
        assert!(!at_rest(&m.draw(Style::Phases, anim, ms(400))));
        assert_eq!(Style::Phases.length(anim), ms(450));
    }

    #[test]
    fn pop_removes_at_once_and_flash_blinks() {
        let m = real_move(Rules::CentreRows);
        let anim = ms(300);
        let popped = m.draw(Style::Pop, anim, ms(0));
        assert_eq!(popped.tiles.len(), m.after.tile_count());
        let shown: Vec<usize> = (0..12)
            .map(|k| m.draw(Style::Flash, anim, ms(10 * k)).tiles.len())
            .collect();
        let (full, kept) = (48, m.after.tile_count());
        assert!(shown.contains(&full) && shown.contains(&kept), "{shown:?}");
        assert_eq!(m.draw(Style::Flash, anim, ms(150)).tiles.len(), kept);
    }

    #[test]
    fn slow_idle_score_and_dust_take_their_own_times() {
        let m = real_move(Rules::CentreRows);
        let anim = ms(100);
        assert_eq!(Style::Slow.length(anim), SLOW);
        assert!(!at_rest(&m.draw(Style::Slow, anim, ms(1000))));
        assert_eq!(Style::Idle.length(anim), anim);
        assert_eq!(Style::Idle.deaf(anim), anim + IDLE);
        assert_eq!(Style::Smooth.deaf(anim), Duration::ZERO);
        // Over the board at rest, the score and the specks still show.
        let score = m.draw(Style::Score, anim, ms(300));
        assert!(at_rest(&score));
        assert_eq!(score.score.unwrap().text, "+5");
        let dust = m.draw(Style::Dust, anim, ms(300));
        assert!(at_rest(&dust));
        assert_eq!(dust.specks.len(), 5 * SPECKS as usize);
        assert!(dust.specks.iter().all(|s| s.alpha > 0.0 && s.alpha < 1.0));
    }
}
