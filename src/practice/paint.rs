//! Draws a practice frame: the swamp background, piles at fractional cell
//! positions with alpha (for the animation), and the cleared banner. The
//! colours come from a calibration, so the window is readable with it.
//! (A stand-in until the game-look renderer in `render` lands.)

use image::{Rgba, RgbaImage};
use palette::{FromColor, Lab, Srgb, white_point::D65};

use crate::game::Colour;
use crate::vision::{Calibration, Geometry};

/// The colours to draw with, in sRGB.
#[derive(Clone, Debug, PartialEq)]
pub struct Look {
    pub background: [u8; 3],
    /// Indexed by colour.
    pub piles: Vec<[u8; 3]>,
}

impl Look {
    /// The calibration's background and pile colours.
    pub fn from_calibration(calibration: &Calibration) -> Look {
        let to_u8 = |v: f32| (v.clamp(0.0, 1.0) * 255.0).round() as u8;
        let [r, g, b] = calibration.background.linear_rgb;
        let background: Srgb<f32> = Srgb::from_linear(palette::LinSrgb::new(r, g, b));
        let piles = calibration
            .colours
            .iter()
            .map(|c| {
                let [l, a, b] = c.lab;
                let srgb = Srgb::from_color(Lab::<D65, f32>::new(l, a, b));
                [to_u8(srgb.red), to_u8(srgb.green), to_u8(srgb.blue)]
            })
            .collect();
        Look {
            background: [
                to_u8(background.red),
                to_u8(background.green),
                to_u8(background.blue),
            ],
            piles,
        }
    }
}

/// One pile to draw: its colour, its place in cells (may be fractional),
/// and its opacity.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tile {
    pub colour: Colour,
    pub x: f32,
    pub y: f32,
    pub alpha: f32,
}

/// What a frame shows.
#[derive(Clone, Debug, PartialEq)]
pub struct Scene {
    pub tiles: Vec<Tile>,
    pub clicks: u32,
    pub cleared: bool,
}

/// The window around the board: dark wood.
const FRAME: [u8; 3] = [34, 27, 22];
/// A pile's radius, in pitches.
const RADIUS: f32 = 0.42;

/// Draws frames for one window: the frame and the board's background are
/// drawn once, the piles on every frame.
#[derive(Debug)]
pub struct Painter {
    geometry: Geometry,
    look: Look,
    width: usize,
    base: Vec<u32>,
}

impl Painter {
    /// A painter for a `size` window with the board at `geometry`.
    pub fn new(geometry: Geometry, size: (usize, usize), look: Look) -> Painter {
        let (width, height) = size;
        let mut base = vec![pack(FRAME); width * height];
        // The board's own background, with clear edges against the frame:
        // the board is found by them when some columns are empty.
        let (w, h) = geometry.size();
        let background = pack(look.background);
        for py in geometry.y as usize..((geometry.y + h) as usize).min(height) {
            let row = py * width;
            let (x0, x1) = (geometry.x as usize, ((geometry.x + w) as usize).min(width));
            base[row + x0..row + x1].fill(background);
        }
        Painter {
            geometry,
            look,
            width,
            base,
        }
    }

    /// Draws `scene` into `frame` (0RGB pixels, row by row).
    pub fn paint(&self, scene: &Scene, frame: &mut [u32]) {
        frame.copy_from_slice(&self.base);
        let g = &self.geometry;
        for tile in &scene.tiles {
            let colour = self.look.piles[tile.colour.index() as usize];
            let row_from_top = f32::from(g.height) - 1.0 - tile.y;
            let cx = g.x + (tile.x + 0.5) * g.pitch_x;
            let cy = g.y + (row_from_top + 0.5) * g.pitch_y;
            self.disc(frame, (cx, cy), RADIUS * g.pitch_x, colour, tile.alpha);
        }
        if scene.cleared {
            // A bright bar under the board: the result (the title says the
            // count).
            let (w, h) = g.size();
            let y = (g.y + h + g.y / 4.0) as usize;
            let height = frame.len() / self.width;
            for py in y..(y + 6).min(height) {
                let row = py * self.width;
                frame[row + g.x as usize..row + (g.x + w) as usize].fill(pack([240, 230, 140]));
            }
        }
    }

    fn disc(
        &self,
        frame: &mut [u32],
        centre: (f32, f32),
        radius: f32,
        colour: [u8; 3],
        alpha: f32,
    ) {
        if alpha <= 0.0 {
            return;
        }
        let height = frame.len() / self.width;
        let x0 = (centre.0 - radius).floor().max(0.0) as usize;
        let y0 = (centre.1 - radius).floor().max(0.0) as usize;
        let x1 = ((centre.0 + radius).ceil().max(0.0) as usize).min(self.width);
        let y1 = ((centre.1 + radius).ceil().max(0.0) as usize).min(height);
        for py in y0..y1 {
            for px in x0..x1 {
                let dx = px as f32 + 0.5 - centre.0;
                let dy = py as f32 + 0.5 - centre.1;
                let d = (dx * dx + dy * dy).sqrt() / radius;
                if d > 1.0 {
                    continue;
                }
                // A little shading toward the rim, so a pile is not flat.
                let shade = 1.08 - 0.16 * d;
                let under = unpack(frame[py * self.width + px]);
                let mut out = [0u8; 3];
                for i in 0..3 {
                    let pile = (f32::from(colour[i]) * shade).min(255.0);
                    out[i] = (f32::from(under[i]) * (1.0 - alpha) + pile * alpha).round() as u8;
                }
                frame[py * self.width + px] = pack(out);
            }
        }
    }
}

fn pack(c: [u8; 3]) -> u32 {
    u32::from(c[0]) << 16 | u32::from(c[1]) << 8 | u32::from(c[2])
}

fn unpack(p: u32) -> [u8; 3] {
    [(p >> 16) as u8, (p >> 8) as u8, p as u8]
}

/// A frame as an image, as a capture of the window shows it.
pub fn to_image(frame: &[u32], width: usize) -> RgbaImage {
    let height = frame.len() / width;
    RgbaImage::from_fn(width as u32, height as u32, |x, y| {
        let [r, g, b] = unpack(frame[y as usize * width + x as usize]);
        Rgba([r, g, b, 255])
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Board, Cell};
    use crate::practice::layout;
    use crate::vision;

    fn scene(board: &Board) -> Scene {
        let tiles = (0..board.width())
            .flat_map(|x| (0..board.height()).map(move |y| Cell::new(x, y)))
            .filter_map(|c| {
                Some(Tile {
                    colour: board.get(c)?,
                    x: f32::from(c.x),
                    y: f32::from(c.y),
                    alpha: 1.0,
                })
            })
            .collect();
        Scene {
            tiles,
            clicks: 0,
            cleared: false,
        }
    }

    #[test]
    fn the_default_calibration_reads_a_practice_frame() {
        let calibration = Calibration::load(&Calibration::default_path()).unwrap();
        let look = Look::from_calibration(&calibration);
        for (text, scale) in [
            ("GGGGBOYO,RORGYGBY,RRBGOORG,BRBOBYRG,BRYBBRGG,OYGGRORG", 1.0),
            ("        ,        ,    YB  ,  BBBYR ,  BBYRRO, OYYRORY", 1.0),
            (
                "GGGGBOYO,RORGYGBY,RRBGOORG,BRBOBYRG,BRYBBRGG,OYGGRORG",
                0.75,
            ),
        ] {
            let board: Board = text.parse().unwrap();
            let (geometry, (w, h)) = layout(&board, scale);
            let painter = Painter::new(geometry, (w, h), look.clone());
            let mut frame = vec![0; w * h];
            painter.paint(&scene(&board), &mut frame);
            let image = to_image(&frame, w);
            let reading = vision::read(&image, &calibration, None).unwrap();
            assert_eq!(reading.board().unwrap(), board, "scale {scale}");
            let g = reading.geometry;
            assert!((g.x - geometry.x).abs() < 4.0 && (g.y - geometry.y).abs() < 4.0);
        }
    }
}
