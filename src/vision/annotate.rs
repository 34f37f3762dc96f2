//! Pictures of a reading, for people: the capture with the grid, each
//! cell's colour, the unsure cells framed in red and the click order; and a
//! storyboard of the board after each move of a plan.

use image::{Rgba, RgbaImage};
use imageproc::drawing::{draw_filled_rect_mut, draw_hollow_rect_mut, draw_line_segment_mut};
use imageproc::rect::Rect;
use palette::{FromColor, Lab, Srgb};

use super::{Calibration, Reading};
use crate::game::{Board, Cell, Colour, Step};

const GRID: Rgba<u8> = Rgba([255, 255, 255, 255]);
const UNSURE: Rgba<u8> = Rgba([255, 32, 32, 255]);
const CLICK: Rgba<u8> = Rgba([255, 255, 255, 255]);
const BACKGROUND: Rgba<u8> = Rgba([28, 36, 38, 255]);

/// The sRGB of a colour's calibrated centre.
fn swatch(calibration: &Calibration, colour: Colour) -> Rgba<u8> {
    let Some(model) = calibration.colours.get(colour.index() as usize) else {
        return Rgba([128, 128, 128, 255]);
    };
    let [l, a, b] = model.lab;
    let rgb: Srgb = Srgb::from_color(Lab::new(l, a, b));
    let byte = |v: f32| (v.clamp(0.0, 1.0) * 255.0).round() as u8;
    Rgba([byte(rgb.red), byte(rgb.green), byte(rgb.blue), 255])
}

fn rect(x: f32, y: f32, w: f32, h: f32) -> Rect {
    Rect::at(x.round() as i32, y.round() as i32)
        .of_size(w.round().max(1.0) as u32, h.round().max(1.0) as u32)
}

/// The capture with the board's grid, a swatch of each cell's colour read,
/// unsure cells framed in red, and `clicks` marked in order (the first
/// click's cell gets one dot, the second two, ...).
pub fn annotate(
    image: &RgbaImage,
    reading: &Reading,
    calibration: &Calibration,
    clicks: &[Cell],
) -> RgbaImage {
    let mut out = image.clone();
    let g = reading.geometry;
    let (board_w, board_h) = g.size();
    for i in 0..=g.width {
        let x = g.x + f32::from(i) * g.pitch_x;
        draw_line_segment_mut(&mut out, (x, g.y), (x, g.y + board_h), GRID);
    }
    for j in 0..=g.height {
        let y = g.y + f32::from(j) * g.pitch_y;
        draw_line_segment_mut(&mut out, (g.x, y), (g.x + board_w, y), GRID);
    }
    let unit = g.pitch_x.min(g.pitch_y);
    for c in &reading.cells {
        let centre = g.cell_centre(c.cell);
        let left = centre.x - 0.5 * g.pitch_x;
        let top = centre.y - 0.5 * g.pitch_y;
        if let Some(colour) = c.colour {
            let side = 0.18 * unit;
            draw_filled_rect_mut(
                &mut out,
                rect(left + 3.0, top + 3.0, side, side),
                swatch(calibration, colour),
            );
            draw_hollow_rect_mut(&mut out, rect(left + 3.0, top + 3.0, side, side), GRID);
        }
        if !c.is_sure(reading.threshold) {
            for inset in 1..4 {
                let inset = inset as f32;
                draw_hollow_rect_mut(
                    &mut out,
                    rect(
                        left + inset,
                        top + inset,
                        g.pitch_x - 2.0 * inset,
                        g.pitch_y - 2.0 * inset,
                    ),
                    UNSURE,
                );
            }
        }
    }
    for (n, &cell) in clicks.iter().enumerate() {
        let centre = g.cell_centre(cell);
        let dot = (0.06 * unit).max(2.0);
        for k in 0..=n {
            let x = centre.x - 0.4 * g.pitch_x + 1.5 * dot * (k % 8) as f32;
            let y = centre.y + 0.3 * g.pitch_y - 1.5 * dot * (k / 8) as f32;
            draw_filled_rect_mut(&mut out, rect(x, y, dot, dot), CLICK);
        }
    }
    out
}

/// The board before the plan and after each step, left to right, each
/// drawn as coloured squares; the cluster each click removes is outlined
/// on the board it is played on.
pub fn storyboard(start: &Board, steps: &[Step], calibration: &Calibration) -> RgbaImage {
    const CELL: u32 = 14;
    const GAP: u32 = 10;
    let (w, h) = (u32::from(start.width()), u32::from(start.height()));
    let panel_w = w * CELL;
    let frames = steps.len() as u32 + 1;
    let mut out = RgbaImage::from_pixel(
        GAP + frames * (panel_w + GAP),
        h * CELL + 2 * GAP,
        BACKGROUND,
    );
    let boards = std::iter::once(*start).chain(steps.iter().map(|s| s.board_after));
    for (i, board) in boards.enumerate() {
        let left = GAP + i as u32 * (panel_w + GAP);
        let removed = steps
            .get(i)
            .and_then(|s| board.cluster_at(s.cell).ok())
            .map(|c| c.cells);
        for cell in
            (0..start.width()).flat_map(|x| (0..start.height()).map(move |y| Cell::new(x, y)))
        {
            let x = (left + u32::from(cell.x) * CELL) as f32;
            let y = (GAP + (h - 1 - u32::from(cell.y)) * CELL) as f32;
            if let Some(colour) = board.get(cell) {
                draw_filled_rect_mut(
                    &mut out,
                    rect(x + 1.0, y + 1.0, (CELL - 2) as f32, (CELL - 2) as f32),
                    swatch(calibration, colour),
                );
            }
            if removed.is_some_and(|set| set.contains(board.index(cell))) {
                draw_hollow_rect_mut(&mut out, rect(x, y, CELL as f32, CELL as f32), CLICK);
            }
        }
    }
    out
}
