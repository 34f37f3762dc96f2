//! The pile-coloured blobs of an image: colourful pixels above an Otsu
//! threshold on a downsampled copy, grouped 8-connected (a blob too big
//! for a pile split again at its own threshold), kept when of pile size.

use image::RgbaImage;

/// Blobs smaller than this (larger side, in pixels) are not piles: a
/// pile at half the real size is about 35 pixels across; toolbar icons are
/// usually smaller.
const MIN_PILE: f32 = 24.0;
/// Blobs larger than this are not piles: at twice the real size a pile is
/// about 140 pixels across.
const MAX_PILE: f32 = 220.0;

#[derive(Clone, Copy, Debug, Default)]
struct Blob {
    min_x: u32,
    min_y: u32,
    max_x: u32,
    max_y: u32,
    area: u32,
    sum_x: u64,
    sum_y: u64,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Pile {
    pub x: f32,
    pub y: f32,
    pub size: f32,
}

/// The downsampling factor: cells stay at least ~18 pixels wide even at
/// half the real size in a big window.
fn factor(image: &RgbaImage) -> u32 {
    (image.width().min(image.height()) / 400).clamp(1, 3)
}

pub(super) fn pile_blobs(image: &RgbaImage) -> Vec<Pile> {
    let f = factor(image);
    let (w, h) = (image.width() / f, image.height() / f);
    let mut colourful = vec![0.0f32; (w * h) as usize];
    let raw = image.as_raw();
    let stride = image.width() as usize * 4;
    let area = f * f;
    for y in 0..h {
        for x in 0..w {
            let mut sum = [0u32; 3];
            for yy in 0..f {
                let row = (y * f + yy) as usize * stride;
                for xx in 0..f {
                    let i = row + (x * f + xx) as usize * 4;
                    sum[0] += u32::from(raw[i]);
                    sum[1] += u32::from(raw[i + 1]);
                    sum[2] += u32::from(raw[i + 2]);
                }
            }
            // Colourfulness as the spread of the channels: far cheaper than
            // Oklab chroma here, and Otsu's split adapts to its scale.
            let spread = sum.iter().max().unwrap_or(&0) - sum.iter().min().unwrap_or(&0);
            colourful[(y * w + x) as usize] = spread as f32 / (255 * area) as f32;
        }
    }
    let everything: Vec<u32> = (0..w * h).collect();
    let mut found: Vec<(Blob, Vec<u32>)> = Vec::new();
    split(&colourful, (w, h, f), &everything, 0, &mut found);
    let scale = f as f32;
    found
        .into_iter()
        .filter_map(|(b, members)| {
            let bw = (b.max_x - b.min_x + 1) as f32 * scale;
            let bh = (b.max_y - b.min_y + 1) as f32 * scale;
            let size = bw.max(bh);
            // A pile whose inside is near the swamp's colour (cyan on
            // teal, in a warm light) shows as its glowing rim alone: what
            // the rim encloses is the pile's too.
            let fill = filled_area(&b, &members, w) as f32 * scale * scale / (bw * bh);
            let pile_like =
                (MIN_PILE..=MAX_PILE).contains(&size) && bw.min(bh) / size > 0.35 && fill > 0.3;
            pile_like.then(|| Pile {
                x: (b.sum_x as f32 / b.area as f32 + 0.5) * scale,
                y: (b.sum_y as f32 / b.area as f32 + 0.5) * scale,
                size,
            })
        })
        .collect()
}

/// How many times a blob too big for a pile is split again.
const SPLITS: u32 = 2;

/// The blobs of the `pixels` (indices into the downsampled image of
/// `size` = (width, height, downsampling factor)) more colourful than
/// their own Otsu threshold, into `found`. A blob too big for a pile is
/// split again at the threshold of its own pixels: under a cast the
/// board's swamp is colourful too, and the piles are only the most
/// colourful part of it.
fn split(
    colourful: &[f32],
    size: (u32, u32, u32),
    pixels: &[u32],
    depth: u32,
    found: &mut Vec<(Blob, Vec<u32>)>,
) {
    let (w, h, f) = size;
    let values: Vec<f32> = pixels.iter().map(|&i| colourful[i as usize]).collect();
    let threshold = otsu(&values);
    let mut mask = vec![false; colourful.len()];
    for (&i, &v) in pixels.iter().zip(&values) {
        mask[i as usize] = v > threshold;
    }
    for (blob, members) in blobs(&mask, w, h) {
        let side = (blob.max_x - blob.min_x).max(blob.max_y - blob.min_y) + 1;
        if depth < SPLITS && (side * f) as f32 > MAX_PILE {
            split(colourful, size, &members, depth + 1, found);
        } else {
            found.push((blob, members));
        }
    }
}

/// The pixels of `blob` (its `members`, indices into an image `w` wide)
/// and those it encloses: its bounding box less what can be reached from
/// the box's border without crossing it.
fn filled_area(blob: &Blob, members: &[u32], w: u32) -> u32 {
    let (bw, bh) = (blob.max_x - blob.min_x + 1, blob.max_y - blob.min_y + 1);
    let index = |x: u32, y: u32| (y * bw + x) as usize;
    let mut wall = vec![false; (bw * bh) as usize];
    for &i in members {
        wall[index(i % w - blob.min_x, i / w - blob.min_y)] = true;
    }
    let mut outside = vec![false; wall.len()];
    let mut stack: Vec<(u32, u32)> = (0..bw)
        .flat_map(|x| [(x, 0), (x, bh - 1)])
        .chain((0..bh).flat_map(|y| [(0, y), (bw - 1, y)]))
        .collect();
    while let Some((x, y)) = stack.pop() {
        let i = index(x, y);
        if wall[i] || outside[i] {
            continue;
        }
        outside[i] = true;
        if x > 0 {
            stack.push((x - 1, y));
        }
        if x + 1 < bw {
            stack.push((x + 1, y));
        }
        if y > 0 {
            stack.push((x, y - 1));
        }
        if y + 1 < bh {
            stack.push((x, y + 1));
        }
    }
    outside.iter().filter(|&&o| !o).count() as u32
}

/// Otsu's threshold of colourfulness values: the split that best separates the
/// grey background from the piles, whatever the capture's brightness. Never
/// below a floor, so an image of greys does not split its noise.
pub(super) fn otsu(values: &[f32]) -> f32 {
    const BINS: usize = 128;
    const TOP: f32 = 1.0;
    let mut histogram = [0u32; BINS];
    for &v in values {
        histogram[((v / TOP * BINS as f32) as usize).min(BINS - 1)] += 1;
    }
    let total = values.len() as f64;
    let sum_all: f64 = histogram
        .iter()
        .enumerate()
        .map(|(i, &n)| i as f64 * n as f64)
        .sum();
    let (mut weight_low, mut sum_low) = (0.0f64, 0.0f64);
    let (mut best, mut best_split) = (-1.0f64, 0usize);
    for (i, &n) in histogram.iter().enumerate() {
        weight_low += n as f64;
        sum_low += i as f64 * n as f64;
        let weight_high = total - weight_low;
        if weight_low == 0.0 || weight_high == 0.0 {
            continue;
        }
        let mean_low = sum_low / weight_low;
        let mean_high = (sum_all - sum_low) / weight_high;
        let between = weight_low * weight_high * (mean_low - mean_high).powi(2);
        if between > best {
            best = between;
            best_split = i;
        }
    }
    ((best_split + 1) as f32 * TOP / BINS as f32).max(0.06)
}

/// 8-connected components of a mask, each with its pixels.
fn blobs(mask: &[bool], w: u32, h: u32) -> Vec<(Blob, Vec<u32>)> {
    let mut seen = vec![false; mask.len()];
    let mut stack = Vec::new();
    let mut found = Vec::new();
    for start in 0..mask.len() {
        if !mask[start] || seen[start] {
            continue;
        }
        seen[start] = true;
        stack.push(start as u32);
        let (sx, sy) = (start as u32 % w, start as u32 / w);
        let mut blob = Blob {
            min_x: sx,
            max_x: sx,
            min_y: sy,
            max_y: sy,
            ..Blob::default()
        };
        let mut members = Vec::new();
        while let Some(i) = stack.pop() {
            members.push(i);
            let (x, y) = (i % w, i / w);
            blob.area += 1;
            blob.sum_x += u64::from(x);
            blob.sum_y += u64::from(y);
            blob.min_x = blob.min_x.min(x);
            blob.max_x = blob.max_x.max(x);
            blob.min_y = blob.min_y.min(y);
            blob.max_y = blob.max_y.max(y);
            for ny in y.saturating_sub(1)..=(y + 1).min(h - 1) {
                for nx in x.saturating_sub(1)..=(x + 1).min(w - 1) {
                    let j = (ny * w + nx) as usize;
                    if mask[j] && !seen[j] {
                        seen[j] = true;
                        stack.push(j as u32);
                    }
                }
            }
        }
        found.push((blob, members));
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pile_showing_only_its_glowing_rim_is_a_pile() {
        // A pile whose inside is the swamp's colour: only its rim, a ring,
        // is colourful, and the ring encloses it.
        let mut image = RgbaImage::from_pixel(400, 300, image::Rgba([70, 84, 82, 255]));
        let (cx, cy) = (200.0f32, 150.0f32);
        for (x, y, p) in image.enumerate_pixels_mut() {
            let r = (x as f32 - cx).hypot((y as f32 - cy) * 1.5);
            if (30.0..35.0).contains(&r) {
                *p = image::Rgba([80, 200, 240, 255]);
            }
        }
        let piles = pile_blobs(&image);
        assert_eq!(piles.len(), 1, "{piles:?}");
        assert!((piles[0].x - cx).abs() < 2.0 && (piles[0].y - cy).abs() < 2.0);
    }

    #[test]
    fn otsu_splits_two_groups() {
        let mut values = vec![0.1f32; 500];
        values.extend(std::iter::repeat_n(0.5f32, 200));
        let t = otsu(&values);
        assert!(t > 0.1 && t < 0.5, "{t}");
    }
}
