//! The pixels the renderer draws on: 0RGB words row by row (what
//! `softbuffer` shows, so a practice frame needs no conversion), with the few drawing
//! operations the renderer needs, and the colour conversions from the
//! Oklab space its pictures are made in.

use std::sync::OnceLock;

use image::{Rgba, RgbaImage};

use super::font;
use crate::colour::linear_from_oklab;

/// A picture being drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Canvas {
    pub width: usize,
    pub height: usize,
    /// 0RGB, row by row.
    pub pixels: Vec<u32>,
}

#[inline]
pub(crate) fn pack([r, g, b]: [u8; 3]) -> u32 {
    u32::from(r) << 16 | u32::from(g) << 8 | u32::from(b)
}

#[inline]
pub(crate) fn unpack(p: u32) -> [u8; 3] {
    [(p >> 16) as u8, (p >> 8) as u8, p as u8]
}

/// Steps of linear light (0..1) in the sRGB encoding's table.
const STEPS: usize = 4096;

/// Linear light -> sRGB byte, a table of `STEPS + 1` entries: the renderer
/// converts every pixel of a background, and `powf` per pixel is slow in
/// debug builds, which the tests and the practice window may run.
fn encoding() -> &'static [u8] {
    static TABLE: OnceLock<Vec<u8>> = OnceLock::new();
    TABLE.get_or_init(|| {
        (0..=STEPS)
            .map(|i| {
                let v = i as f32 / STEPS as f32;
                let s = if v <= 0.003_130_8 {
                    12.92 * v
                } else {
                    1.055 * v.powf(1.0 / 2.4) - 0.055
                };
                (s * 255.0).round() as u8
            })
            .collect()
    })
}

/// `x.round() as usize` for an `x` that is not negative (or NaN: 0),
/// without its call into libm: the baseline x86-64 has no rounding
/// instruction, and the stress suite's pictures round every pixel (under
/// Wine, `round` also takes 0.49999997 to 1). `x` less its whole part is
/// exact.
#[inline]
pub(crate) fn nearest(x: f32) -> usize {
    let whole = x as usize;
    whole + usize::from(x - whole as f32 >= 0.5)
}

/// The sRGB bytes of an Oklab colour, clipped to the gamut. Inlined, its
/// three channels written out: a swamp converts every pixel, and through
/// `array::map` each was a call.
#[inline]
pub(crate) fn srgb(oklab: [f32; 3]) -> [u8; 3] {
    let table = encoding();
    let [r, g, b] = linear_from_oklab(oklab);
    let encode = |v: f32| table[nearest(v.clamp(0.0, 1.0) * STEPS as f32)];
    [encode(r), encode(g), encode(b)]
}

/// `x.hypot(y)` as glibc computes it for `f32` (in `f64`, rounded once),
/// without its call: the swamp's strokes, a sprite's measure and the halo
/// take one a pixel. The same on every platform.
#[inline]
pub(crate) fn hypot(x: f32, y: f32) -> f32 {
    let (x, y) = (f64::from(x), f64::from(y));
    (x * x + y * y).sqrt() as f32
}

/// The Oklab colour of sRGB bytes.
pub(crate) fn oklab(rgb: [u8; 3]) -> [f32; 3] {
    crate::colour::Balance::NONE.oklab(rgb)
}

/// `over` laid on `under` with opacity `alpha` (0..=255) in sRGB bytes, as
/// games composite their sprites. Its channels written out, as in
/// [`srgb`]: every sprite's pixel is mixed, and where the build has no
/// local ThinLTO (the library's unit tests, the Windows build)
/// `array::from_fn`'s closure was a call.
#[inline]
pub(crate) fn mix(under: [u8; 3], over: [u8; 3], alpha: u32) -> [u8; 3] {
    [
        blend(under[0], over[0], alpha),
        blend(under[1], over[1], alpha),
        blend(under[2], over[2], alpha),
    ]
}

#[inline]
fn blend(under: u8, over: u8, alpha: u32) -> u8 {
    ((u32::from(under) * (255 - alpha) + u32::from(over) * alpha + 127) / 255) as u8
}

impl Canvas {
    pub fn new(width: usize, height: usize, rgb: [u8; 3]) -> Canvas {
        Canvas {
            width,
            height,
            pixels: vec![pack(rgb); width * height],
        }
    }

    /// The RGB of an image (its alpha dropped).
    pub fn from_image(image: &RgbaImage) -> Canvas {
        Canvas {
            width: image.width() as usize,
            height: image.height() as usize,
            pixels: image.pixels().map(|p| pack([p[0], p[1], p[2]])).collect(),
        }
    }

    #[inline]
    pub fn get(&self, x: usize, y: usize) -> [u8; 3] {
        unpack(self.pixels[y * self.width + x])
    }

    /// Fills the rectangle, clipped to the canvas.
    pub fn fill(&mut self, x: i64, y: i64, w: i64, h: i64, rgb: [u8; 3]) {
        let (x0, y0) = (x.max(0) as usize, y.max(0) as usize);
        let x1 = (x + w).clamp(0, self.width as i64) as usize;
        let y1 = (y + h).clamp(0, self.height as i64) as usize;
        if x0 >= x1 {
            return;
        }
        for row in y0..y1 {
            self.pixels[row * self.width + x0..row * self.width + x1].fill(pack(rgb));
        }
    }

    /// Draws the rectangle's border, `thickness` pixels wide inside it.
    pub fn outline(&mut self, x: i64, y: i64, w: i64, h: i64, thickness: i64, rgb: [u8; 3]) {
        let t = thickness.min(w).min(h);
        self.fill(x, y, w, t, rgb);
        self.fill(x, y + h - t, w, t, rgb);
        self.fill(x, y, t, h, rgb);
        self.fill(x + w - t, y, t, h, rgb);
    }

    /// Lays `rgb` over the rectangle with opacity `alpha` (0..=255).
    pub fn shade(&mut self, x: i64, y: i64, w: i64, h: i64, rgb: [u8; 3], alpha: u32) {
        for py in y.max(0)..(y + h).min(self.height as i64) {
            for px in x.max(0)..(x + w).min(self.width as i64) {
                let i = py as usize * self.width + px as usize;
                self.pixels[i] = pack(mix(unpack(self.pixels[i]), rgb, alpha));
            }
        }
    }

    /// Writes `text` in the font at `size` (the em, in pixels) with its
    /// top-left at `(x, y)`, its edges blended with what is under them.
    pub fn text(&mut self, x: i64, y: i64, text: &str, size: f32, rgb: [u8; 3]) {
        font::coverage(text, size, |cx, cy, c| {
            let (px, py) = (x + cx, y + cy);
            if (0..self.width as i64).contains(&px) && (0..self.height as i64).contains(&py) {
                let i = py as usize * self.width + px as usize;
                let alpha = nearest(c * 255.0) as u32;
                self.pixels[i] = pack(mix(unpack(self.pixels[i]), rgb, alpha));
            }
        });
    }

    /// Copies `other` with its top-left at `(x, y)`, clipped.
    pub fn paste(&mut self, other: &Canvas, x: i64, y: i64) {
        for oy in 0..other.height {
            let ty = y + oy as i64;
            if !(0..self.height as i64).contains(&ty) {
                continue;
            }
            let x0 = x.max(0);
            let x1 = (x + other.width as i64).min(self.width as i64);
            if x0 >= x1 {
                continue;
            }
            let src = oy * other.width + (x0 - x) as usize;
            let dst = ty as usize * self.width + x0 as usize;
            let n = (x1 - x0) as usize;
            self.pixels[dst..dst + n].copy_from_slice(&other.pixels[src..src + n]);
        }
    }

    /// The canvas as an opaque RGBA image.
    pub fn to_image(&self) -> RgbaImage {
        RgbaImage::from_fn(self.width as u32, self.height as u32, |x, y| {
            let [r, g, b] = self.get(x as usize, y as usize);
            Rgba([r, g, b, 255])
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Against the answer each value is built to have, not the platform's
    /// rounding: under Wine, `round` takes 0.49999997 to 1 in f32 and f64.
    #[test]
    fn nearest_rounds_half_away_from_zero_at_every_half() {
        for k in 0..=4096u32 {
            let whole = k as f32;
            let mut cases = vec![
                (whole, k),
                (whole.next_up(), k),
                (whole + 0.25, k),
                ((whole + 0.5).next_down(), k),
                (whole + 0.5, k + 1),
                ((whole + 0.5).next_up(), k + 1),
                (whole + 0.75, k + 1),
            ];
            if k > 0 {
                cases.push((whole.next_down(), k));
            }
            for (x, expected) in cases {
                assert_eq!(super::nearest(x), expected as usize, "{x}");
            }
        }
        assert_eq!(super::nearest(f32::NAN), 0);
    }

    /// Where the distance is known exactly, and where squares in `f32`
    /// would overflow or vanish: the same answer on every platform.
    #[test]
    fn hypot_is_exact_where_the_answer_is_known() {
        for (x, y, d) in [
            (3.0, 4.0, 5.0),
            (-5.0, 12.0, 13.0),
            (0.0, -0.0, 0.0),
            (8.0, -15.0, 17.0),
        ] {
            assert_eq!(hypot(x, y), d, "{x} {y}");
        }
        for scale in [2f32.powi(100), 2f32.powi(-100)] {
            assert_eq!(hypot(3.0 * scale, 4.0 * scale), 5.0 * scale, "{scale}");
        }
    }

    #[test]
    fn oklab_round_trips_through_srgb_bytes() {
        for rgb in [[0u8, 0, 0], [255, 255, 255], [91, 115, 109], [200, 60, 190]] {
            assert_eq!(srgb(oklab(rgb)), rgb);
        }
    }

    #[test]
    fn drawing_is_clipped_and_mixes_by_alpha() {
        let mut c = Canvas::new(4, 3, [0, 0, 0]);
        c.fill(-2, 1, 4, 9, [200, 100, 0]);
        assert_eq!(c.get(1, 2), [200, 100, 0]);
        assert_eq!(c.get(2, 2), [0, 0, 0]);
        assert_eq!(c.get(0, 0), [0, 0, 0]);
        c.shade(0, 0, 1, 1, [255, 255, 255], 255);
        assert_eq!(c.get(0, 0), [255, 255, 255]);
        assert_eq!(mix([0, 0, 0], [255, 255, 255], 128), [128, 128, 128]);
        let mut big = Canvas::new(6, 6, [1, 2, 3]);
        big.paste(&c, 4, -1);
        assert_eq!(big.get(5, 0), c.get(1, 1));
        assert_eq!(big.get(3, 0), [1, 2, 3]);
        let image = big.to_image();
        assert_eq!(image.get_pixel(5, 0).0, [200, 100, 0, 255]);
        assert_eq!(Canvas::from_image(&image), big);
        let mut framed = Canvas::new(5, 5, [0, 0, 0]);
        framed.outline(0, 0, 5, 5, 1, [9, 9, 9]);
        assert_eq!((framed.get(0, 2), framed.get(4, 4)), ([9, 9, 9], [9, 9, 9]));
        assert_eq!(framed.get(2, 2), [0, 0, 0]);
    }

    #[test]
    fn text_is_blended_in_where_the_font_covers() {
        let mut c = Canvas::new(40, 30, [0, 0, 0]);
        c.text(-2, 1, "I", 20.0, [200, 100, 50]);
        c.text(10, 1, "I", 20.0, [200, 100, 50]);
        // The full pixels of the stem are the text's colour, its edges a
        // blend, and nothing is drawn left of where the text starts.
        let row: Vec<[u8; 3]> = (10..20).map(|x| c.get(x, 12)).collect();
        assert!(row.contains(&[200, 100, 50]), "{row:?}");
        assert!(row.iter().any(|p| p[0] > 0 && p[0] < 200), "{row:?}");
        assert!((0..30).all(|y| c.get(9, y) == [0, 0, 0]));
    }
}
