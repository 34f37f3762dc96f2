//! The hint on the game's own board: a ring around the next click's cell,
//! and quieter, shorter ones around the tiles the two clicks after it
//! remove, drawn by the desktop floor's marks window ([`BoardMarks`]),
//! which takes no click and no focus. The bot reads the board through the
//! marks (a capture shows them on X11, and may on Windows), so they are
//! drawn only where no read looks: in the band between cells, clear of
//! every cell's reading window and of the inner corners' background
//! patches, with no straight edge as long as a covering window's; they
//! are taken off while the board settles after a click, while it cannot
//! be read, and before the window moves are followed (so no board search
//! ever sees them). A probe when the hints start reads the board with and
//! without them: a read they change sends the hints beside the board.

use serde::{Deserialize, Serialize};

use crate::desktop::{BoardMarks, Mark, ScreenRect};
use crate::game::{Board, Cell, Rules, Step};
use crate::geometry::Geometry;
use crate::live::eye::Eye;
use crate::live::{LiveError, Moment};
use crate::vision::{CELL_WINDOW, CORNER_PATCH};

use super::follow::clicks_on;

/// Where the hints show.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Hints {
    /// Marked on the game's own board.
    Board,
    /// In the hint window beside the game.
    Beside,
    /// Both: the marks where the platform shows them.
    #[default]
    Both,
}

impl Hints {
    pub fn on_board(self) -> bool {
        matches!(self, Hints::Board | Hints::Both)
    }

    pub fn beside(self) -> bool {
        matches!(self, Hints::Beside | Hints::Both)
    }
}

/// One ring: how far from the cell's centre its band lies (inner and
/// outer edge) and how far its sides reach along the cell's edges, in
/// pitches, and its colour.
#[derive(Clone, Copy, Debug)]
struct Ring {
    inner: f32,
    outer: f32,
    reach: f32,
    colour: [u8; 3],
}

/// The next click's ring, then the quieter ones of the clicks after it:
/// thinner, shorter and dimmer. Every band lies between the cell's reading
/// window (0.4 pitch) and its neighbour's (0.6); every side stops short of
/// the corners' background patches (0.44 from the centre), so the corners
/// stay open and two rings side by side never join into one long edge.
const RINGS: [Ring; 3] = [
    Ring {
        inner: 0.43,
        outer: 0.55,
        reach: 0.36,
        colour: [255, 214, 0],
    },
    Ring {
        inner: 0.46,
        outer: 0.52,
        reach: 0.22,
        colour: [205, 160, 40],
    },
    Ring {
        inner: 0.46,
        outer: 0.52,
        reach: 0.14,
        colour: [150, 120, 60],
    },
];

// Every band clear of the cell's reading window and its neighbour's, and
// every side short of the corners' patches: checked when compiling.
const _: () = {
    let mut i = 0;
    while i < RINGS.len() {
        let ring = RINGS[i];
        assert!(ring.inner > CELL_WINDOW && ring.outer < 1.0 - CELL_WINDOW);
        assert!(ring.reach + CORNER_PATCH < 0.5 && ring.inner < ring.outer);
        i += 1;
    }
};

/// The marks of `clicks` (cells of the board on the screen `g`, the next
/// click first): a ring around each of the first [`RINGS`].
pub fn layout(g: &Geometry, clicks: &[Cell]) -> Vec<Mark> {
    clicks
        .iter()
        .zip(RINGS)
        .map(|(&cell, ring)| Mark {
            rects: ring_rects(g, cell, ring),
            colour: ring.colour,
        })
        .collect()
}

/// The four sides of `ring` around `cell`, each the whole pixels inside
/// its band (so none reaches nearer the centre than the band's inner
/// edge); sides too thin for a pixel are left out.
fn ring_rects(g: &Geometry, cell: Cell, ring: Ring) -> Vec<ScreenRect> {
    let c = g.cell_centre(cell);
    let (px, py) = (g.pitch_x, g.pitch_y);
    // (left, top, right, bottom) in the screen's pixels.
    let sides = [
        // Above and below: across the cell, in the band of rows.
        (
            -ring.reach * px,
            -ring.outer * py,
            ring.reach * px,
            -ring.inner * py,
        ),
        (
            -ring.reach * px,
            ring.inner * py,
            ring.reach * px,
            ring.outer * py,
        ),
        // Left and right.
        (
            -ring.outer * px,
            -ring.reach * py,
            -ring.inner * px,
            ring.reach * py,
        ),
        (
            ring.inner * px,
            -ring.reach * py,
            ring.outer * px,
            ring.reach * py,
        ),
    ];
    sides
        .into_iter()
        .filter_map(|(l, t, r, b)| {
            let (l, t) = ((c.x + l).ceil() as i32, (c.y + t).ceil() as i32);
            let (r, b) = ((c.x + r).floor() as i32, (c.y + b).floor() as i32);
            (r > l && b > t).then(|| ScreenRect {
                x: l,
                y: t,
                width: (r - l) as u32,
                height: (b - t) as u32,
            })
        })
        .collect()
}

/// What the probe found of the marks in the bot's captures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Probe {
    /// The captures show this many pixels of the marks, and every read
    /// is the same with them as without.
    Seen(usize),
    /// The captures leave the marks out.
    Unseen,
}

/// The marks on the board, as assist mode keeps them.
#[derive(Debug)]
pub struct OnBoard {
    marks: BoardMarks,
}

impl OnBoard {
    pub fn open() -> Result<OnBoard, String> {
        Ok(OnBoard {
            marks: BoardMarks::open()?,
        })
    }

    /// Marks `plan`'s clicks (played from `board` under `rules`) on the
    /// board as `eye` last saw it, and raises them.
    pub fn show(
        &mut self,
        eye: &Eye,
        board: &Board,
        plan: &[Step],
        rules: Rules,
    ) -> Result<(), String> {
        let clicks = clicks_on(board, &plan[..plan.len().min(RINGS.len())], rules);
        self.marks.show(&layout(&eye.board.on_screen(), &clicks))
    }

    pub fn hide(&mut self) -> Result<(), String> {
        self.marks.hide()
    }

    pub fn shown(&self) -> bool {
        self.marks.shown().is_some()
    }

    /// Reads the board with the marks of `plan` shown and then without:
    /// whether the captures show them, or why they cannot stay (a read
    /// they change). Leaves them hidden.
    pub fn probe(
        &mut self,
        eye: &mut Eye,
        board: &Board,
        plan: &[Step],
        rules: Rules,
    ) -> Result<Probe, String> {
        // A window manager restacks the windows it maps as it gets to them
        // (the hint window's, opened just before): one that came over the
        // marks between their show and the capture would make them look
        // left out, so captures that show none are made once more.
        let first = self.probe_once(eye, board, plan, rules)?;
        if first != Probe::Unseen {
            return Ok(first);
        }
        self.probe_once(eye, board, plan, rules)
    }

    /// One look of [`OnBoard::probe`].
    fn probe_once(
        &mut self,
        eye: &mut Eye,
        board: &Board,
        plan: &[Step],
        rules: Rules,
    ) -> Result<Probe, String> {
        self.show(eye, board, plan, rules)?;
        let with = eye.frame();
        self.hide()?;
        let without = eye.frame();
        let unread = |e: &LiveError| format!("the board could not be read for the probe: {e}");
        let (with, without) = (
            with.map_err(|e| unread(&e))?,
            without.map_err(|e| unread(&e))?,
        );
        let board_of = |f: &crate::live::eye::Frame| f.board.as_ref().ok().copied();
        if board_of(&with) != board_of(&without) || with.confidence != without.confidence {
            return Err(format!(
                "the bot's captures show them where it reads the board (read {:?} at confidence {:.3} with them, {:?} at {:.3} without)",
                board_of(&with).map(|b| b.to_string()),
                with.confidence,
                board_of(&without).map(|b| b.to_string()),
                without.confidence
            ));
        }
        let seen = if with.image.dimensions() == without.image.dimensions() {
            with.image
                .pixels()
                .zip(without.image.pixels())
                .filter(|(a, b)| a != b)
                .count()
        } else {
            0
        };
        Ok(if seen == 0 {
            Probe::Unseen
        } else {
            Probe::Seen(seen)
        })
    }

    /// Takes in the marks window's events; when a window came over the
    /// marks, raises them again where the board is uncovered (the game
    /// window raised by the player's click), else hides them (another
    /// window in front of the board: the marks must not float over it).
    pub fn pump(&mut self, eye: &Eye) -> Result<(), String> {
        if !self.marks.pump()? || !self.shown() {
            return Ok(());
        }
        match eye.uncovered(Moment::Watching) {
            Ok(()) => self.marks.raise(),
            Err(_) => self.hide(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vision::MAX_STRAIGHT_EDGE;

    fn pixels(marks: &[Mark]) -> Vec<(i32, i32)> {
        marks
            .iter()
            .flat_map(|m| &m.rects)
            .flat_map(|r| {
                (r.y..r.y + r.height as i32)
                    .flat_map(move |y| (r.x..r.x + r.width as i32).map(move |x| (x, y)))
            })
            .collect()
    }

    /// Boards at the game's pitch, at half and at 1.5 times it, at
    /// fractional places.
    fn boards() -> Vec<Geometry> {
        vec![
            Geometry::square(40.0, 40.0, 80.0, 8, 6),
            Geometry::square(13.4, 7.7, 40.0, 8, 6),
            Geometry::square(101.25, 55.5, 120.0, 8, 6),
        ]
    }

    /// Every cell, and three in a row.
    fn plans() -> Vec<Vec<Cell>> {
        let mut plans: Vec<Vec<Cell>> = Geometry::square(0.0, 0.0, 1.0, 8, 6)
            .cells()
            .map(|c| vec![c])
            .collect();
        plans.push(vec![Cell::new(3, 2), Cell::new(2, 2), Cell::new(4, 2)]);
        plans.push(vec![Cell::new(3, 2), Cell::new(3, 3), Cell::new(3, 1)]);
        plans
    }

    #[test]
    fn no_mark_falls_where_a_read_looks() {
        for g in boards() {
            let (px, py) = (g.pitch_x, g.pitch_y);
            for plan in plans() {
                for (x, y) in pixels(&layout(&g, &plan)) {
                    // The pixel's square, against every cell's reading
                    // window and every inner corner's patch.
                    let (x, y) = (x as f32, y as f32);
                    for cell in g.cells() {
                        let c = g.cell_centre(cell);
                        let dx = (x + 0.5 - c.x).abs() - 0.5;
                        let dy = (y + 0.5 - c.y).abs() - 0.5;
                        assert!(
                            dx >= CELL_WINDOW * px || dy >= CELL_WINDOW * py,
                            "{g:?} {plan:?}: ({x}, {y}) in {cell}'s reading window"
                        );
                    }
                    for i in 1..g.width {
                        for j in 1..g.height {
                            let corner = (g.x + f32::from(i) * px, g.y + f32::from(j) * py);
                            let dx = (x + 0.5 - corner.0).abs() - 0.5;
                            let dy = (y + 0.5 - corner.1).abs() - 0.5;
                            assert!(
                                dx > CORNER_PATCH * px + 1.0 || dy > CORNER_PATCH * py + 1.0,
                                "{g:?} {plan:?}: ({x}, {y}) in the corner patch at {corner:?}"
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn no_marks_make_an_edge_as_long_as_a_covering_windows() {
        for g in boards() {
            for plan in plans() {
                let mut rows: std::collections::BTreeMap<i32, Vec<i32>> = Default::default();
                for (x, y) in pixels(&layout(&g, &plan)) {
                    rows.entry(y).or_default().push(x);
                }
                for (y, mut xs) in rows {
                    xs.sort_unstable();
                    xs.dedup();
                    let longest = xs
                        .windows(2)
                        .fold((1, 1), |(run, best), w| {
                            let run = if w[1] == w[0] + 1 { run + 1 } else { 1 };
                            (run, best.max(run))
                        })
                        .1;
                    assert!(
                        (longest as f32) < MAX_STRAIGHT_EDGE * g.pitch_x,
                        "{g:?} {plan:?}: a run of {longest} pixels on row {y}"
                    );
                }
            }
        }
    }

    #[test]
    fn the_next_click_is_ringed_on_four_sides_and_the_later_ones_more_quietly() {
        let g = Geometry::square(40.0, 40.0, 80.0, 8, 6);
        let plan = [
            Cell::new(3, 2),
            Cell::new(5, 4),
            Cell::new(0, 0),
            Cell::new(7, 5),
        ];
        let marks = layout(&g, &plan);
        // The fourth click is not marked.
        assert_eq!(marks.len(), 3);
        let c = g.cell_centre(plan[0]);
        let next = &marks[0].rects;
        assert_eq!(next.len(), 4);
        let (cx, cy) = (c.x as i32, c.y as i32);
        assert!(next[0].y + (next[0].height as i32) < cy && next[1].y > cy);
        assert!(next[2].x + (next[2].width as i32) < cx && next[3].x > cx);
        for side in next {
            // Within half a cell and a band of the centre.
            assert!(
                (side.x - cx).abs() <= 45 && (side.y - cy).abs() <= 45,
                "{side:?}"
            );
        }
        let area = |m: &Mark| m.rects.iter().map(|r| r.width * r.height).sum::<u32>();
        let brightness = |m: &Mark| m.colour.iter().map(|&v| u32::from(v)).sum::<u32>();
        for pair in marks.windows(2) {
            assert!(area(&pair[1]) < area(&pair[0]), "{marks:?}");
            assert!(brightness(&pair[1]) < brightness(&pair[0]), "{marks:?}");
        }
    }

    #[test]
    fn hints_default_to_both_and_read_in_kebab_case() {
        #[derive(Deserialize, Serialize)]
        struct Settings {
            hints: Hints,
        }
        assert_eq!(Hints::default(), Hints::Both);
        let read: Settings = toml::from_str("hints = \"board\"").unwrap();
        assert_eq!(read.hints, Hints::Board);
        let written = toml::to_string(&Settings {
            hints: Hints::Beside,
        })
        .unwrap();
        assert_eq!(written.trim(), "hints = \"beside\"");
        assert!(Hints::Both.on_board() && Hints::Both.beside());
        assert!(!Hints::Board.beside() && !Hints::Beside.on_board());
    }
}
