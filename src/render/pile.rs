//! Dust piles: one glowing, textured sprite per colour, as the game draws
//! every pile of a colour with the same picture. A pile is a wide, peaked
//! mound with a bumpy outline, lit from the top-left, paler inside with its
//! colour's texture (lumps, ridges, flecks, gloss or rock), edged with a
//! neon rim and glow in its colour, as in the game. Its pixels are then
//! shifted so that, drawn and measured as a reader measures a cell (the
//! median colour of the pixels that stand out from the board's
//! background), it has the colour measured on the real game.

use super::canvas::{Canvas, hypot, mix, nearest, oklab, pack, srgb, unpack};
use super::noise::{self, NoiseStream};

/// How a colour's piles are textured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Texture {
    /// Round lumps, like a cluster of caps (the green piles).
    Lumpy,
    /// Streaks running down from the top (orange).
    Ridged,
    /// Fine grain with pale flecks (red).
    Flecked,
    /// Smooth, with a shine (yellow).
    Glossy,
    /// Faceted like crystals, with sparkles (blue).
    Rocky,
}

/// The styles of the colours in colour order: G, O, R, Y, B; further
/// colours reuse them.
const STYLES: [Texture; 5] = [
    Texture::Lumpy,
    Texture::Ridged,
    Texture::Flecked,
    Texture::Glossy,
    Texture::Rocky,
];

/// A sprite's side, in pitches: the pile and its glow with room to spare.
const SIDE: f32 = 1.2;
/// How far the glow reaches outside the pile, in pitches.
const GLOW: f32 = 0.07;
/// The bright rim's width inside the pile, in pitches.
const RIM: f32 = 0.05;
/// Half the side of the square a reader measures a cell in, in pitches.
const WINDOW: f32 = 0.4;
/// The Oklab (a, b) distance from the background beyond which a pixel
/// stands out as part of a pile.
const STANDS_OUT: f32 = 0.02;

/// The outline of a pile, in pitches from the sprite's centre (v grows
/// downwards).
#[derive(Clone, Debug)]
struct Outline {
    half_width: f32,
    base: f32,
    height: f32,
    /// Fullness of the dome: lower is flatter-topped.
    dome: f32,
    /// How much the top is a peak rather than a dome (0..1).
    peak: f32,
    /// Where the top is, across.
    apex: f32,
    bumps: [(f32, f32); 3],
    bump_size: f32,
    /// Moves the outline so the pile's centre of mass is the sprite's
    /// centre.
    shift: (f32, f32),
}

impl Outline {
    fn random(stream: &mut NoiseStream, style: Texture) -> Outline {
        let bump_size = if style == Texture::Lumpy { 0.07 } else { 0.035 };
        Outline {
            half_width: stream.range(0.42, 0.45),
            base: stream.range(0.27, 0.31),
            height: stream.range(0.52, 0.58),
            dome: stream.range(0.38, 0.52),
            peak: stream.range(0.45, 0.7),
            apex: stream.range(-0.07, 0.07),
            bumps: [2.0, 3.0, 5.0].map(|k| (k, stream.range(0.0, std::f32::consts::TAU))),
            bump_size,
            shift: (0.0, 0.0),
        }
    }

    /// The pile's extent down the line `u`: `(top, bottom)`, the shift
    /// not applied to them, `None` where the line misses the pile.
    fn span(&self, u: f32) -> Option<(f32, f32)> {
        let u = u + self.shift.0;
        let across = u / self.half_width;
        if across.abs() >= 1.0 {
            return None;
        }
        // Measured from the apex, so the top leans to one side.
        let side = if u < self.apex {
            self.half_width + self.apex
        } else {
            self.half_width - self.apex
        };
        let t = ((u - self.apex) / side).clamp(-1.0, 1.0);
        let bumps: f32 = self
            .bumps
            .iter()
            .map(|&(k, phase)| (k * t * std::f32::consts::PI + phase).sin())
            .sum();
        let top = self.base
            - self.height
                * ((1.0 - self.peak) * (1.0 - t * t).powf(self.dome) + self.peak * (1.0 - t.abs()))
                * (1.0 + self.bump_size * bumps / 3.0);
        // Rounded bottom corners.
        let bottom = self.base - 0.12 * across.abs().powi(5);
        Some((top, bottom))
    }

    /// The share of each pixel of a `side` x `side` sprite inside the
    /// pile, from 4x4 samples; pixel `(x, y)` is centred at
    /// `(position(x), position(y))`, `px` pitches wide. The samples of a
    /// column share their span, found once for the whole column: the
    /// sprites of every stage drawn are most of its drawing time.
    fn coverage(&self, side: usize, position: impl Fn(usize) -> f32, px: f32) -> Vec<f32> {
        let offset = |k: usize| (k as f32 - 1.5) * px / 4.0;
        let spans: Vec<[Option<(f32, f32)>; 4]> = (0..side)
            .map(|x| std::array::from_fn(|i| self.span(position(x) + offset(i))))
            .collect();
        (0..side * side)
            .map(|k| {
                let (columns, v) = (&spans[k % side], position(k / side));
                let mut n = 0;
                for span in columns {
                    for j in 0..4 {
                        let v = v + offset(j) + self.shift.1;
                        n += u32::from(
                            span.is_some_and(|(top, bottom)| (top..=bottom).contains(&v)),
                        );
                    }
                }
                n as f32 / 16.0
            })
            .collect()
    }
}

/// A pile's picture: straight-alpha sRGB pixels, `side` x `side`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Sprite {
    side: usize,
    pixels: Vec<[u8; 4]>,
}

/// Chamfer distances (in pixels) from every pixel to the nearest pixel
/// where `target` is true; far when there is none.
fn distances(target: &[bool], side: usize) -> Vec<f32> {
    const FAR: f32 = 1e6;
    let mut d: Vec<f32> = target.iter().map(|&t| if t { 0.0 } else { FAR }).collect();
    let diagonal = std::f32::consts::SQRT_2;
    let at = |x: usize, y: usize| y * side + x;
    for y in 0..side {
        for x in 0..side {
            let mut best = d[at(x, y)];
            if x > 0 {
                best = best.min(d[at(x - 1, y)] + 1.0);
            }
            if y > 0 {
                best = best.min(d[at(x, y - 1)] + 1.0);
                if x > 0 {
                    best = best.min(d[at(x - 1, y - 1)] + diagonal);
                }
                if x + 1 < side {
                    best = best.min(d[at(x + 1, y - 1)] + diagonal);
                }
            }
            d[at(x, y)] = best;
        }
    }
    for y in (0..side).rev() {
        for x in (0..side).rev() {
            let mut best = d[at(x, y)];
            if x + 1 < side {
                best = best.min(d[at(x + 1, y)] + 1.0);
            }
            if y + 1 < side {
                best = best.min(d[at(x, y + 1)] + 1.0);
                if x + 1 < side {
                    best = best.min(d[at(x + 1, y + 1)] + diagonal);
                }
                if x > 0 {
                    best = best.min(d[at(x - 1, y + 1)] + diagonal);
                }
            }
            d[at(x, y)] = best;
        }
    }
    d
}

/// The surface relief a style adds to the mound, in pitches.
fn relief(style: Texture, lumps: &[(f32, f32, f32)], seed: u64, u: f32, v: f32, apex: f32) -> f32 {
    match style {
        Texture::Lumpy => {
            lumps
                .iter()
                .map(|&(lu, lv, r)| {
                    let d2 = ((u - lu).powi(2) + (v - lv).powi(2)) / (r * r);
                    0.06 * (-d2).exp()
                })
                .sum::<f32>()
                + 0.012 * noise::fbm(seed, u * 7.0, v * 7.0, 2)
        }
        Texture::Ridged => {
            let angle = (u - apex).atan2(v + 0.45);
            0.014 * (angle * 18.0 + 3.0 * noise::fbm(seed, u * 4.0, v * 4.0, 2)).sin()
        }
        Texture::Flecked => 0.025 * noise::fbm(seed, u * 9.0, v * 9.0, 3),
        Texture::Glossy => 0.02 * noise::fbm(seed, u * 3.0, v * 3.0, 2),
        Texture::Rocky => {
            let ridge = 1.0 - (2.0 * noise::fbm(seed, u * 6.0, v * 6.0, 3) - 1.0).abs();
            0.035 * ridge * ridge
        }
    }
}

/// How a sprite pixel is lit, whatever the pile's colour: outside the pile
/// the glow's strength; inside, the lightness its slope takes from the
/// light, the shine of a glossy pile, whether it is a pale fleck, and its
/// depth into the rim (below 1 within it).
#[derive(Clone, Copy)]
enum Shading {
    Glow(f32),
    Pile {
        shade: f32,
        gloss: Option<f32>,
        fleck: bool,
        rim: f32,
    },
}

/// Colour and opacity of each sprite pixel before the final shift, in
/// Oklab.
struct Layers {
    colour: Vec<[f32; 3]>,
    alpha: Vec<f32>,
}

impl Sprite {
    /// The pile of colour number `index` in colour `centre` (Oklab) over a
    /// background of colour `background` (Oklab), for cells `pitch` pixels
    /// wide.
    pub fn new(
        index: usize,
        centre: [f32; 3],
        background: [f32; 3],
        pitch: f32,
        seed: u64,
    ) -> Sprite {
        let style = STYLES[index % STYLES.len()];
        let seed = noise::hash(seed, index as i32, 0x91e);
        let mut stream = NoiseStream::new(seed);
        let side = ((SIDE * pitch).ceil() as usize).max(8);
        let px = 1.0 / pitch;
        let position = |i: usize| ((i as f32 + 0.5) - side as f32 / 2.0) * px;
        let mut outline = Outline::random(&mut stream, style);
        // Centre the pile's mass: a reader takes the centre of mass of a
        // cell's pile as the cell's centre.
        let first = outline.coverage(side, position, px);
        let mass: f32 = first.iter().sum::<f32>().max(1e-6);
        let moment = |f: &dyn Fn(usize) -> f32| {
            first.iter().enumerate().map(|(i, c)| c * f(i)).sum::<f32>() / mass
        };
        outline.shift = (
            moment(&|i| position(i % side)),
            moment(&|i| position(i / side)),
        );
        let cover = outline.coverage(side, position, px);
        let inside: Vec<bool> = cover.iter().map(|&c| c >= 0.5).collect();
        let outside: Vec<bool> = inside.iter().map(|&i| !i).collect();
        let depth = distances(&outside, side);
        let away = distances(&inside, side);
        let lumps: Vec<(f32, f32, f32)> = (0..6)
            .map(|_| {
                (
                    stream.range(-0.3, 0.3),
                    stream.range(-0.15, 0.2),
                    stream.range(0.08, 0.14),
                )
            })
            .collect();
        // A mound: steep at the rim, flat on top, with the style's relief.
        let height: Vec<f32> = (0..side * side)
            .map(|i| {
                if !inside[i] {
                    return 0.0;
                }
                let (u, v) = (position(i % side), position(i / side));
                let d = (depth[i] * px).min(0.16) / 0.16;
                0.16 * d.sqrt() + relief(style, &lumps, seed, u, v, outline.apex) * d
            })
            .collect();
        // The light on every pixel, which the colour's shift below does not
        // change: worked out once, not once a shift.
        let light = normalise([-0.45, -0.65, 0.6]);
        let half = normalise([light[0], light[1], light[2] + 1.0]);
        let fleck_rate = match style {
            Texture::Flecked => 0.06,
            Texture::Rocky => 0.03,
            _ => 0.0,
        };
        let shading: Vec<Shading> = (0..side * side)
            .map(|i| {
                let (x, y) = (i % side, i / side);
                if !inside[i] {
                    let d = away[i] * px / GLOW;
                    return Shading::Glow(if d >= 1.0 { 0.0 } else { (1.0 - d).powi(2) });
                }
                let h = |x: usize, y: usize| height[y.min(side - 1) * side + x.min(side - 1)];
                let du = (h(x + 1, y) - h(x.saturating_sub(1), y)) / (2.0 * px);
                let dv = (h(x, y + 1) - h(x, y.saturating_sub(1))) / (2.0 * px);
                let normal = normalise([-du, -dv, 1.0]);
                let lambert = dot(normal, light).max(0.0);
                let gloss =
                    (style == Texture::Glossy).then(|| 0.12 * dot(normal, half).max(0.0).powi(24));
                Shading::Pile {
                    shade: 0.2 * (lambert - 0.75),
                    gloss,
                    fleck: noise::unit(seed, x as i32, y as i32) < fleck_rate,
                    rim: depth[i] * px / RIM,
                }
            })
            .collect();
        let layers = |shift: [f32; 3]| -> Layers {
            let [l0, a0, b0] = [
                centre[0] + shift[0],
                centre[1] + shift[1],
                centre[2] + shift[2],
            ];
            let mut colour = vec![[0.0; 3]; side * side];
            let mut alpha = vec![0.0; side * side];
            // A neon edge: the rim and the glow are far more colourful
            // than the pile's pale, textured inside.
            let rim_colour = [l0 + 0.1, a0 * 1.5, b0 * 1.5];
            let glow_colour = [l0 + 0.1, a0 * 1.5, b0 * 1.5];
            for (i, shading) in shading.iter().enumerate() {
                let (pile, glow) = match *shading {
                    Shading::Glow(glow) => (rim_colour, glow),
                    Shading::Pile {
                        shade,
                        gloss,
                        fleck,
                        rim,
                    } => {
                        let mut l = l0 + shade;
                        if let Some(gloss) = gloss {
                            l += gloss;
                        }
                        let mut chroma = 0.85 * (1.0 + 1.5 * (l - l0));
                        if fleck {
                            l += 0.16;
                            chroma *= 0.4;
                        }
                        if rim < 1.0 {
                            l += 0.1 * (1.0 - rim);
                            chroma += (1.5 - chroma) * (1.0 - rim).powi(2);
                        }
                        ([l, a0 * chroma, b0 * chroma], 0.0)
                    }
                };
                // The pile's edge pixels over its own glow.
                let c = cover[i];
                let a = c + (1.0 - c) * glow;
                if a > 0.0 {
                    let w = c / a;
                    colour[i] = std::array::from_fn(|k| pile[k] * w + glow_colour[k] * (1.0 - w));
                }
                alpha[i] = a;
            }
            Layers { colour, alpha }
        };
        // Shift the colours until the pile, as drawn (clipped to the
        // gamut, composited in sRGB bytes), measures as the centre.
        let mut shift = [0.0f32; 3];
        let mut pixels = to_pixels(&layers(shift));
        for _ in 0..4 {
            let measured = measure(&pixels, background, side, pitch);
            for k in 0..3 {
                shift[k] += centre[k] - measured[k];
            }
            pixels = to_pixels(&layers(shift));
        }
        Sprite { side, pixels }
    }

    /// Lays the sprite on `canvas` centred at `(x, y)` with opacity
    /// `alpha` (0..1), clipped to `clip` (x0, y0, x1, y1).
    pub fn draw(&self, canvas: &mut Canvas, x: f32, y: f32, alpha: f32, clip: [i64; 4]) {
        self.draw_lit(canvas, (x, y), alpha, 1.0, clip);
    }

    /// A soft glow of the pile's colour around `(x, y)`, reaching `radius`
    /// pixels, `strength` (0..1) opaque at the centre: the wider glow a
    /// game may give the pile under the mouse.
    pub fn halo(
        &self,
        canvas: &mut Canvas,
        (x, y): (f32, f32),
        radius: f32,
        strength: f32,
        clip: [i64; 4],
    ) {
        let solid: Vec<[u8; 4]> = self.pixels.iter().copied().filter(|p| p[3] > 200).collect();
        if solid.is_empty() || radius <= 0.0 {
            return;
        }
        let mean: [u8; 3] = std::array::from_fn(|k| {
            (solid.iter().map(|p| u32::from(p[k])).sum::<u32>() / solid.len() as u32) as u8
        });
        let x0 = ((x - radius).floor() as i64).max(clip[0]).max(0);
        let y0 = ((y - radius).floor() as i64).max(clip[1]).max(0);
        let x1 = ((x + radius).ceil() as i64)
            .min(clip[2])
            .min(canvas.width as i64);
        let y1 = ((y + radius).ceil() as i64)
            .min(clip[3])
            .min(canvas.height as i64);
        for py in y0..y1 {
            for px in x0..x1 {
                let d = hypot(px as f32 + 0.5 - x, py as f32 + 0.5 - y) / radius;
                if d >= 1.0 {
                    continue;
                }
                let a = (strength.clamp(0.0, 1.0) * (1.0 - d) * (1.0 - d) * 255.0) as u32;
                let i = py as usize * canvas.width + px as usize;
                canvas.pixels[i] = pack(mix(unpack(canvas.pixels[i]), mean, a));
            }
        }
    }

    /// [`Sprite::draw`] with every colour channel times `gain` (1.4 draws
    /// the pile 40% brighter, as a game may light the pile under the
    /// mouse).
    pub fn draw_lit(
        &self,
        canvas: &mut Canvas,
        (x, y): (f32, f32),
        alpha: f32,
        gain: f32,
        clip: [i64; 4],
    ) {
        let opacity = (alpha.clamp(0.0, 1.0) * 256.0) as u32;
        if opacity == 0 {
            return;
        }
        let left = (x - self.side as f32 / 2.0).round() as i64;
        let top = (y - self.side as f32 / 2.0).round() as i64;
        let x0 = left.max(clip[0]).max(0);
        let y0 = top.max(clip[1]).max(0);
        let x1 = (left + self.side as i64)
            .min(clip[2])
            .min(canvas.width as i64);
        let y1 = (top + self.side as i64)
            .min(clip[3])
            .min(canvas.height as i64);
        // Each channel's lit value, made once a draw: a practice window
        // draws every pile at each frame of an animation, and its pixels
        // took three products and roundings each.
        let lit: [u8; 256] = std::array::from_fn(|v| nearest(v as f32 * gain).min(255) as u8);
        for py in y0..y1 {
            let row = (py - top) as usize * self.side;
            for px in x0..x1 {
                let [r, g, b, a] = self.pixels[row + (px - left) as usize];
                if a == 0 {
                    continue;
                }
                let i = py as usize * canvas.width + px as usize;
                let a = (u32::from(a) * opacity) >> 8;
                let lit = [
                    lit[usize::from(r)],
                    lit[usize::from(g)],
                    lit[usize::from(b)],
                ];
                canvas.pixels[i] = pack(mix(unpack(canvas.pixels[i]), lit, a));
            }
        }
    }
}

/// A sprite's pixels: sRGB clipped to the gamut, with straight alpha.
fn to_pixels(layers: &Layers) -> Vec<[u8; 4]> {
    layers
        .colour
        .iter()
        .zip(&layers.alpha)
        .map(|(&c, &a)| {
            // Where neither the pile nor its glow reaches, nothing is drawn.
            if a <= 0.0 {
                return [0; 4];
            }
            let [r, g, b] = srgb(c);
            [r, g, b, nearest(a.clamp(0.0, 1.0) * 255.0) as u8]
        })
        .collect()
}

/// The pile's colour as a reader measures it: drawn over the background
/// (Oklab), the per-channel median Oklab of the pixels of the cell's
/// window that stand out from the background.
fn measure(pixels: &[[u8; 4]], background: [f32; 3], side: usize, pitch: f32) -> [f32; 3] {
    let under = srgb(background);
    let background = oklab(under);
    let half = WINDOW * pitch;
    let centre = side as f32 / 2.0;
    let mut channels: [Vec<f32>; 3] = Default::default();
    for (i, &[r, g, b, a]) in pixels.iter().enumerate() {
        let (x, y) = ((i % side) as f32 + 0.5, (i / side) as f32 + 0.5);
        // A pixel the pile leaves clear is the background, which does not
        // stand out from itself.
        if a == 0 || (x - centre).abs() > half || (y - centre).abs() > half {
            continue;
        }
        let lab = oklab(mix(under, [r, g, b], u32::from(a)));
        if hypot(lab[1] - background[1], lab[2] - background[2]) > STANDS_OUT {
            for (channel, v) in channels.iter_mut().zip(lab) {
                channel.push(v);
            }
        }
    }
    std::array::from_fn(|k| {
        let channel = &mut channels[k];
        if channel.is_empty() {
            return background[k];
        }
        let mid = channel.len() / 2;
        *channel.select_nth_unstable_by(mid, f32::total_cmp).1
    })
}

fn dot(a: [f32; 3], b: [f32; 3]) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn normalise(v: [f32; 3]) -> [f32; 3] {
    let n = dot(v, v).sqrt().max(1e-9);
    v.map(|c| c / n)
}

#[cfg(test)]
mod tests {
    use super::*;

    const BACKGROUND: [u8; 3] = [91, 115, 109];
    const CYAN: [u8; 3] = [90, 180, 230];

    fn sprite(pitch: f32) -> Sprite {
        Sprite::new(4, oklab(CYAN), oklab(BACKGROUND), pitch, 7)
    }

    #[test]
    fn a_pile_is_centred_and_measures_as_its_colour() {
        let pitch = 80.0;
        let s = sprite(pitch);
        let mut canvas = Canvas::new(200, 200, BACKGROUND);
        s.draw(&mut canvas, 100.0, 100.0, 1.0, [0, 0, 200, 200]);
        let (mut n, mut sx, mut sy) = (0.0, 0.0, 0.0);
        let mut labs = Vec::new();
        let bg = oklab(BACKGROUND);
        for y in 0..200 {
            for x in 0..200 {
                let lab = oklab(canvas.get(x, y));
                if (lab[1] - bg[1]).hypot(lab[2] - bg[2]) > STANDS_OUT {
                    n += 1.0;
                    sx += x as f32 + 0.5;
                    sy += y as f32 + 0.5;
                    labs.push(lab);
                }
            }
        }
        assert!((sx / n - 100.0).abs() < 3.0 && (sy / n - 100.0).abs() < 3.0);
        // Most of the central half of the cell is pile.
        let core = (80..120)
            .flat_map(|y| (80..120).map(move |x| (x, y)))
            .filter(|&(x, y)| canvas.get(x, y) != BACKGROUND)
            .count();
        assert!(core > 1400, "{core} of 1600");
        labs.sort_by(|a, b| a[0].total_cmp(&b[0]));
        let median_l = labs[labs.len() / 2][0];
        assert!((median_l - oklab(CYAN)[0]).abs() < 0.02, "{median_l}");
        // Textured: the pile is not one flat colour.
        assert!(labs[labs.len() * 9 / 10][0] - labs[labs.len() / 10][0] > 0.05);
    }

    #[test]
    fn sprites_follow_the_seed_and_the_scale() {
        assert_eq!(sprite(40.0), sprite(40.0));
        assert_ne!(
            sprite(40.0),
            Sprite::new(4, oklab(CYAN), oklab(BACKGROUND), 40.0, 8)
        );
        assert_eq!(sprite(40.0).side, 48);
        assert_eq!(sprite(160.0).side, 192);
    }

    #[test]
    fn drawing_fades_with_alpha_and_stays_in_the_clip() {
        let s = sprite(40.0);
        let mut faint = Canvas::new(60, 60, BACKGROUND);
        let mut full = faint.clone();
        s.draw(&mut faint, 30.0, 30.0, 0.3, [0, 0, 60, 60]);
        s.draw(&mut full, 30.0, 30.0, 1.0, [0, 0, 60, 60]);
        let change = |c: &Canvas| -> i32 {
            let p = c.get(30, 30);
            (0..3)
                .map(|k| (i32::from(p[k]) - i32::from(BACKGROUND[k])).abs())
                .sum()
        };
        assert!(change(&faint) > 0 && change(&faint) < change(&full));
        let mut clipped = Canvas::new(60, 60, BACKGROUND);
        s.draw(&mut clipped, 30.0, 30.0, 1.0, [0, 0, 30, 60]);
        assert_eq!(clipped.get(35, 30), BACKGROUND);
        assert_eq!(clipped.get(25, 30), full.get(25, 30));
        let mut none = Canvas::new(60, 60, BACKGROUND);
        s.draw(&mut none, 30.0, 30.0, 0.0, [0, 0, 60, 60]);
        assert_eq!(none, Canvas::new(60, 60, BACKGROUND));
    }

    #[test]
    fn distances_count_steps_to_the_target() {
        let mut target = vec![false; 25];
        target[12] = true;
        let d = distances(&target, 5);
        assert_eq!(d[12], 0.0);
        assert_eq!(d[13], 1.0);
        assert!((d[18] - std::f32::consts::SQRT_2).abs() < 1e-6);
        assert_eq!(d[14], 2.0);
    }
}
