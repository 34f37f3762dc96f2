//! The board's picture: a dark, foggy swamp in grey-teal with bare trees
//! (pale ones far away in the fog, dark ones near, with hanging moss) and
//! grass along the bottom. Everything keeps the fog's hue and changes only
//! its lightness, as in the game: the piles are the only colourful things
//! on the board. The fog between the cells' corners has the colour
//! measured on the real game.

use super::canvas::{Canvas, hypot, pack, srgb};
use super::noise::{self, NoiseStream};

/// A stroke of a tree: a tapered capsule from `a` (radius `ra`) to `b`
/// (radius `rb`), in pixels.
#[derive(Clone, Copy, Debug)]
struct Stroke {
    a: (f32, f32),
    b: (f32, f32),
    ra: f32,
    rb: f32,
}

/// A layer of silhouettes: the share of each pixel they cover.
struct Layer {
    width: usize,
    height: usize,
    cover: Vec<f32>,
}

impl Layer {
    fn new(width: usize, height: usize) -> Layer {
        Layer {
            width,
            height,
            cover: vec![0.0; width * height],
        }
    }

    fn stroke(&mut self, s: &Stroke) {
        let reach = s.ra.max(s.rb) + 1.0;
        let x0 = (s.a.0.min(s.b.0) - reach).floor().max(0.0) as usize;
        let y0 = (s.a.1.min(s.b.1) - reach).floor().max(0.0) as usize;
        let x1 = ((s.a.0.max(s.b.0) + reach).ceil().max(0.0) as usize).min(self.width);
        let y1 = ((s.a.1.max(s.b.1) + reach).ceil().max(0.0) as usize).min(self.height);
        let (dx, dy) = (s.b.0 - s.a.0, s.b.1 - s.a.1);
        let length2 = (dx * dx + dy * dy).max(1e-6);
        for y in y0..y1 {
            for x in x0..x1 {
                let (px, py) = (x as f32 + 0.5, y as f32 + 0.5);
                let t = (((px - s.a.0) * dx + (py - s.a.1) * dy) / length2).clamp(0.0, 1.0);
                let d = hypot(px - s.a.0 - t * dx, py - s.a.1 - t * dy);
                // Thin twigs still show, faintly.
                let r = (s.ra + (s.rb - s.ra) * t).max(0.35);
                let c = (r - d + 0.5).clamp(0.0, 1.0);
                let cell = &mut self.cover[y * self.width + x];
                *cell = cell.max(c);
            }
        }
    }
}

/// Grows a limb from `start` at `angle` (radians from straight up,
/// positive to the right): a wavering line that thins out and forks.
#[allow(clippy::too_many_arguments)]
fn limb(
    strokes: &mut Vec<Stroke>,
    twigs: &mut Vec<(f32, f32)>,
    stream: &mut NoiseStream,
    start: (f32, f32),
    mut angle: f32,
    length: f32,
    radius: f32,
    depth: u32,
) {
    const STEPS: usize = 7;
    let mut at = start;
    let mut r = radius;
    for step in 0..STEPS {
        angle += stream.range(-0.22, 0.22);
        if depth > 0 {
            // Side branches droop toward the horizontal as they go.
            angle += 0.05 * angle.signum();
        }
        let next = (
            at.0 + angle.sin() * length / STEPS as f32,
            at.1 - angle.cos() * length / STEPS as f32,
        );
        let r_next = radius * (1.0 - 0.75 * (step + 1) as f32 / STEPS as f32);
        strokes.push(Stroke {
            a: at,
            b: next,
            ra: r,
            rb: r_next,
        });
        if depth > 0 {
            twigs.push(next);
        }
        if depth < 3 && step >= 1 && stream.next() < 0.42 {
            let side = if stream.next() < 0.5 { -1.0 } else { 1.0 };
            let fork = angle + side * stream.range(0.5, 1.2);
            let reach = length * stream.range(0.35, 0.6);
            limb(
                strokes,
                twigs,
                stream,
                next,
                fork,
                reach,
                r_next * 0.7,
                depth + 1,
            );
        }
        at = next;
        r = r_next;
    }
}

/// A tree standing at `x` on the bottom edge, `height` tall, in pixels.
fn tree(
    layer: &mut Layer,
    moss: Option<&mut Layer>,
    stream: &mut NoiseStream,
    x: f32,
    height: f32,
    radius: f32,
) {
    let mut strokes = Vec::new();
    let mut twigs = Vec::new();
    let bottom = layer.height as f32 + radius;
    let lean = stream.range(-0.25, 0.25);
    limb(
        &mut strokes,
        &mut twigs,
        stream,
        (x, bottom),
        lean,
        height,
        radius,
        0,
    );
    // Roots flaring into the ground.
    for side in [-1.0f32, 1.0] {
        strokes.push(Stroke {
            a: (x, bottom - 0.8 * radius),
            b: (x + side * 2.5 * radius, bottom),
            ra: 0.6 * radius,
            rb: 0.2 * radius,
        });
    }
    for s in &strokes {
        layer.stroke(s);
    }
    // Moss hangs from some of the branches.
    let Some(moss) = moss else {
        return;
    };
    for &(tx, ty) in &twigs {
        if stream.next() < 0.3 {
            let length = stream.range(0.08, 0.5) * height / 4.0;
            let mut at = (tx, ty);
            for _ in 0..4 {
                let next = (at.0 + stream.range(-1.5, 1.5), at.1 + length / 4.0);
                moss.stroke(&Stroke {
                    a: at,
                    b: next,
                    ra: 0.9,
                    rb: 0.6,
                });
                at = next;
            }
        }
    }
}

/// The swamp picture for a board of `cells` (columns, rows) with `pitch`
/// pixel cells; `fog` is the colour of the fog between the cells' corners
/// (Oklab).
pub(crate) fn swamp(cells: (u8, u8), pitch: f32, fog: [f32; 3], seed: u64) -> Canvas {
    let width = (f32::from(cells.0) * pitch).round().max(1.0) as usize;
    let height = (f32::from(cells.1) * pitch).round().max(1.0) as usize;
    let mut stream = NoiseStream::new(noise::hash(seed, 0x5a4, 0));
    let rows = f32::from(cells.1);
    // The fog's lightness, relative: smooth, so it is computed on a coarse
    // grid and interpolated.
    let step = (pitch / 16.0).max(2.0) as usize;
    let (gw, gh) = (width / step + 2, height / step + 2);
    let coarse: Vec<f32> = (0..gw * gh)
        .map(|i| {
            let (u, v) = (
                (i % gw * step) as f32 / pitch,
                (i / gw * step) as f32 / pitch,
            );
            let clouds = noise::fbm(seed, u * 0.45, v * 0.45, 3) - 0.5;
            let mist = (-((v - 0.35 * rows) / (0.25 * rows)).powi(2)).exp();
            let ground = ((v - 0.75 * rows) / (0.25 * rows)).clamp(0.0, 1.0);
            0.09 * clouds + 0.035 * mist - 0.06 * ground * ground
        })
        .collect();
    let mut light = vec![0.0f32; width * height];
    for y in 0..height {
        let (gy, ty) = (y / step, (y % step) as f32 / step as f32);
        for x in 0..width {
            let (gx, tx) = (x / step, (x % step) as f32 / step as f32);
            let at = |i: usize, j: usize| coarse[(gy + j) * gw + gx + i];
            let top = at(0, 0) + (at(1, 0) - at(0, 0)) * tx;
            let bottom = at(0, 1) + (at(1, 1) - at(0, 1)) * tx;
            light[y * width + x] = top + (bottom - top) * ty;
        }
    }
    // Pale trees far away, dark trees near (mostly at the sides, as in the
    // game), moss, and grass along the bottom.
    let mut far = Layer::new(width, height);
    let mut near = Layer::new(width, height);
    let mut moss = Layer::new(width, height);
    let columns = f32::from(cells.0);
    for _ in 0..3 {
        let x = stream.range(0.5, columns - 0.5) * pitch;
        let h = stream.range(0.5, 0.8) * rows * pitch;
        tree(&mut far, None, &mut stream, x, h, 0.09 * pitch);
    }
    let sides = [
        stream.range(-0.2, 0.9),
        stream.range(columns - 0.9, columns + 0.2),
    ];
    for (i, &x) in sides.iter().enumerate() {
        let h = stream.range(0.7, 0.95) * rows * pitch;
        let r = stream.range(0.16, 0.26) * pitch;
        tree(&mut near, Some(&mut moss), &mut stream, x * pitch, h, r);
        if i == 0 && stream.next() < 0.6 {
            let x = stream.range(2.0, columns - 2.0) * pitch;
            let h = 0.45 * rows * pitch;
            tree(&mut near, Some(&mut moss), &mut stream, x, h, 0.1 * pitch);
        }
    }
    let blades = (columns * 9.0) as usize;
    for _ in 0..blades {
        let x = stream.range(0.0, width as f32);
        let length = stream.range(0.08, 0.4) * pitch;
        let lean = stream.range(-0.35, 0.35) * length;
        near.stroke(&Stroke {
            a: (x, height as f32 + 1.0),
            b: (x + lean, height as f32 - length),
            ra: 0.035 * pitch,
            rb: 0.3,
        });
    }
    // Lightness of every pixel, then shifted so the fog between the cells'
    // corners (where a reader samples the background) has the fog's
    // lightness.
    let [l_fog, a_fog, b_fog] = fog;
    let mut lightness = vec![0.0f32; width * height];
    let mut chroma = vec![1.0f32; width * height];
    for i in 0..width * height {
        let (x, y) = ((i % width) as f32, (i / width) as f32);
        // The bark's grain shows on the trees only: the noise is not
        // drawn where they cover nothing.
        let bark = if far.cover[i] == 0.0 && near.cover[i] == 0.0 {
            0.0
        } else {
            0.03 * (noise::value(seed ^ 0xba4c, x / pitch * 12.0, y / pitch * 3.0) - 0.5)
        };
        let mut l = l_fog + light[i];
        l += (l_fog - 0.06 + bark - l) * 0.7 * far.cover[i];
        l += (0.2 + bark - l) * near.cover[i];
        l += (0.27 - l) * 0.8 * moss.cover[i];
        lightness[i] = l;
        chroma[i] = 1.0 - 0.15 * near.cover[i].max(moss.cover[i]);
    }
    let mut corners = Vec::new();
    for i in 1..cells.0 {
        for j in 1..cells.1 {
            for (ox, oy) in [
                (-0.06, -0.06),
                (0.06, -0.06),
                (-0.06, 0.06),
                (0.06, 0.06),
                (0.0, 0.0),
            ] {
                let x = ((f32::from(i) + ox) * pitch) as usize;
                let y = ((f32::from(j) + oy) * pitch) as usize;
                if x < width && y < height {
                    corners.push(lightness[y * width + x]);
                }
            }
        }
    }
    let shift = if corners.is_empty() {
        0.0
    } else {
        let mid = corners.len() / 2;
        l_fog - *corners.select_nth_unstable_by(mid, f32::total_cmp).1
    };
    let pixels = lightness
        .iter()
        .zip(&chroma)
        .map(|(&l, &c)| pack(srgb([l + shift, a_fog * c, b_fog * c])))
        .collect();
    Canvas {
        width,
        height,
        pixels,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::canvas::oklab;

    const FOG: [u8; 3] = [91, 115, 109];

    #[test]
    fn the_swamp_has_the_fogs_hue_with_dark_trees() {
        let fog = oklab(FOG);
        let picture = swamp((8, 6), 40.0, fog, 3);
        assert_eq!((picture.width, picture.height), (320, 240));
        let labs: Vec<[f32; 3]> = picture
            .pixels
            .iter()
            .map(|&p| oklab(super::super::canvas::unpack(p)))
            .collect();
        // Nothing stands out from the fog's hue as a pile would.
        let most = labs
            .iter()
            .map(|l| (l[1] - fog[1]).hypot(l[2] - fog[2]))
            .fold(0.0f32, f32::max);
        assert!(most < 0.012, "{most}");
        let dark = labs.iter().filter(|l| l[0] < fog[0] - 0.15).count();
        let share = dark as f32 / labs.len() as f32;
        assert!((0.03..0.4).contains(&share), "trees cover {share}");
    }

    #[test]
    fn the_seed_chooses_the_picture() {
        let fog = oklab(FOG);
        assert_eq!(swamp((8, 6), 30.0, fog, 1), swamp((8, 6), 30.0, fog, 1));
        assert_ne!(swamp((8, 6), 30.0, fog, 1), swamp((8, 6), 30.0, fog, 2));
    }
}
