//! Reading one cell: robust colour statistics of the pile's pixels (the
//! share of the cell that is pile-coloured, and the per-channel median
//! Oklab colour of those pixels), the white balance that undoes a tinted or
//! darkened capture, and the match against the calibration's colour models
//! with a confidence.

use image::RgbaImage;

use super::calibration::Calibration;
use crate::colour::{self, Balance};

use crate::game::Colour;
use crate::geometry::{Geometry, PixelPoint};

/// Half the side of the square window a cell is measured in, in pitches:
/// wide enough for the whole pile, clear of the neighbours' piles.
pub(crate) const WINDOW: f32 = 0.4;
/// At most this many samples along each side of the window: plenty for a
/// median, and it keeps a read of big boards as fast as small ones.
const SAMPLES_PER_SIDE: f32 = 20.0;
/// Half the side of the window's central part, in pitches.
const CORE: f32 = 0.25;

/// What a cell's window looks like.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct CellStats {
    /// Share of the window's central part (within [`CORE`] of the centre)
    /// that is pile-coloured: a pile fills it, while the glow of the
    /// neighbours, which reaches the window's rim, does not.
    pub fraction: f32,
    /// Median Oklab `[L, a, b]` of the pile-coloured samples.
    pub colour: Option<[f32; 3]>,
    /// Centre of mass of the pile-coloured samples relative to the window's
    /// centre, in pitches.
    pub offset: [f32; 2],
    /// Share of the window that lies inside the image.
    pub coverage: f32,
    /// Share of the window's samples inside the image that are
    /// pile-coloured: a whole pile fills most of it, the glow of the
    /// neighbours little, a pile half in from the next cell about half.
    pub mass: f32,
}

/// Reusable sample buffers, so a read allocates once.
#[derive(Debug, Default)]
pub(crate) struct Scratch {
    channels: [Vec<f32>; 3],
}

/// A pixel darker than this share of the background's lightness (Oklab)
/// is a shadow of the swamp, never dust: the dust glows, its piles'
/// median pixel is at 0.84 to 1.27 of the background on the real
/// screenshot and at least 0.47 for 19 in 20 of their pixels, while a
/// trunk's, lifted by a capture's gamma of 0.7, is at 0.44 at most.
const SHADOW: f32 = 0.5;

/// How pixels are judged: balanced, then a pixel belongs to a pile when
/// its Oklab colour (a, b) is farther than `threshold` from the board's
/// background colour. The background is a tinted grey (teal in the real
/// game) and the cyan piles share its hue, so the distance from it
/// separates them better than chroma (distance from grey) does.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Judge {
    pub balance: Balance,
    /// The board's background, Oklab.
    pub background: [f32; 3],
    pub threshold: f32,
}

impl Judge {
    /// Oklab of a pixel and whether it is pile-coloured.
    #[inline]
    pub fn judge(&self, rgb: [u8; 3]) -> ([f32; 3], f32) {
        let lab = self.balance.oklab(rgb);
        let [l, a, b] = self.background;
        // A shadow of the background (a tree trunk, dark grass, black) has
        // its hue at less chroma, down to none at black: it is compared
        // with the background's colour at its own lightness, so that no
        // dark pixel passes for dust. Lighter pixels (fog) keep the
        // background's own chroma as the reference.
        let shade = (lab[0] / l.max(1e-3)).clamp(0.0, 1.0);
        if shade < SHADOW {
            return (lab, 0.0);
        }
        let distance = (lab[1] - shade * a).hypot(lab[2] - shade * b);
        (lab, distance)
    }
}

/// Measures the window around `centre`.
pub(crate) fn measure(
    image: &RgbaImage,
    centre: PixelPoint,
    pitch: (f32, f32),
    judge: &Judge,
    scratch: &mut Scratch,
) -> CellStats {
    let (width, height) = (image.width() as i64, image.height() as i64);
    let half = (WINDOW * pitch.0, WINDOW * pitch.1);
    let step_x = (2.0 * half.0 / SAMPLES_PER_SIDE).max(1.0);
    let step_y = (2.0 * half.1 / SAMPLES_PER_SIDE).max(1.0);
    let (mut total, mut inside, mut sum_x, mut sum_y) = (0u32, 0u32, 0.0f32, 0.0f32);
    let (mut core, mut core_piles) = (0u32, 0u32);
    let core_half = (CORE * pitch.0, CORE * pitch.1);
    for channel in &mut scratch.channels {
        channel.clear();
    }
    let mut dy = -half.1 + step_y / 2.0;
    while dy < half.1 {
        let py = (centre.y + dy).floor() as i64;
        let mut dx = -half.0 + step_x / 2.0;
        while dx < half.0 {
            let px = (centre.x + dx).floor() as i64;
            total += 1;
            if (0..width).contains(&px) && (0..height).contains(&py) {
                inside += 1;
                let in_core = dx.abs() < core_half.0 && dy.abs() < core_half.1;
                core += u32::from(in_core);
                let p = image.get_pixel(px as u32, py as u32).0;
                let (lab, distance) = judge.judge([p[0], p[1], p[2]]);
                if distance > judge.threshold {
                    core_piles += u32::from(in_core);
                    for (channel, v) in scratch.channels.iter_mut().zip(lab) {
                        channel.push(v);
                    }
                    sum_x += dx;
                    sum_y += dy;
                }
            }
            dx += step_x;
        }
        dy += step_y;
    }
    let piles = scratch.channels[0].len();
    let colour = (piles > 0).then(|| {
        let mut median = [0.0; 3];
        for (m, channel) in median.iter_mut().zip(&mut scratch.channels) {
            let mid = channel.len() / 2;
            *m = *channel.select_nth_unstable_by(mid, f32::total_cmp).1;
        }
        median
    });
    let n = piles.max(1) as f32;
    CellStats {
        fraction: if core == 0 {
            0.0
        } else {
            core_piles as f32 / core as f32
        },
        colour,
        offset: [sum_x / n / pitch.0, sum_y / n / pitch.1],
        coverage: if total == 0 {
            0.0
        } else {
            inside as f32 / total as f32
        },
        mass: piles as f32 / inside.max(1) as f32,
    }
}

/// How far from an inner cell corner its patch's samples reach, in
/// pitches.
pub(crate) const CORNER_PATCH: f32 = 0.06;

/// The pixels of small patches at the inner cell corners, where no pile
/// reaches (the outer corners may show the window around the board).
pub(crate) fn corner_pixels(image: &RgbaImage, geometry: &Geometry) -> Vec<[u8; 3]> {
    let corners = inner_corners(geometry);
    patch_pixels(image, &corners, (geometry.pitch_x, geometry.pitch_y))
}

/// The inner cell corners of the board at `geometry`, column by column.
pub(crate) fn inner_corners(geometry: &Geometry) -> Vec<PixelPoint> {
    (1..geometry.width)
        .flat_map(|i| (1..geometry.height).map(move |j| (i, j)))
        .map(|(i, j)| {
            PixelPoint::new(
                geometry.x + f32::from(i) * geometry.pitch_x,
                geometry.y + f32::from(j) * geometry.pitch_y,
            )
        })
        .collect()
}

/// The pixels of a small patch around each of `corners`.
pub(crate) fn patch_pixels(
    image: &RgbaImage,
    corners: &[PixelPoint],
    pitch: (f32, f32),
) -> Vec<[u8; 3]> {
    let mut pixels = Vec::new();
    let offsets = [-CORNER_PATCH, 0.0, CORNER_PATCH];
    for corner in corners {
        for ox in offsets {
            for oy in offsets {
                let x = (corner.x + ox * pitch.0).floor();
                let y = (corner.y + oy * pitch.1).floor();
                if x < 0.0 || y < 0.0 || x >= image.width() as f32 || y >= image.height() as f32 {
                    continue;
                }
                let p = image.get_pixel(x as u32, y as u32).0;
                pixels.push([p[0], p[1], p[2]]);
            }
        }
    }
    pixels
}

/// The board's background in linear light: the median of the corner
/// patches. `None` when no corner is in the image.
pub(crate) fn background(image: &RgbaImage, geometry: &Geometry) -> Option<[f32; 3]> {
    median_linear(&corner_pixels(image, geometry), 1.0)
}

/// The per-channel median, in linear light, of some pixels, their
/// saturation times `saturation`.
pub(crate) fn median_linear(pixels: &[[u8; 3]], saturation: f32) -> Option<[f32; 3]> {
    let capture = Balance::NONE.resaturated(saturation);
    let mut channels: [Vec<f32>; 3] = Default::default();
    for &rgb in pixels {
        for (channel, v) in channels.iter_mut().zip(capture.linear(rgb)) {
            channel.push(v);
        }
    }
    if channels[0].is_empty() {
        return None;
    }
    let mut median = [0.0; 3];
    for (m, channel) in median.iter_mut().zip(&mut channels) {
        let mid = channel.len() / 2;
        *m = *channel.select_nth_unstable_by(mid, f32::total_cmp).1;
    }
    Some(median)
}

/// A balance refined on the piles read surely: per channel, the affine map
/// in linear light that best takes each colour's mean measured colour (and
/// the background) to its calibrated centre. `None` with fewer than three
/// colours to fit on.
pub(crate) fn refine(
    judge: &Judge,
    reading: &super::Reading,
    stats: &[CellStats],
    calibration: &Calibration,
) -> Option<Judge> {
    let mut sums = vec![([0.0f32; 3], 0u32); calibration.colours.len()];
    for (cell, s) in reading.cells.iter().zip(stats) {
        if let (Some(c), Some(lab), true) = (cell.colour, s.colour, cell.is_sure(reading.threshold))
        {
            let linear = colour::linear_from_oklab(lab);
            let (sum, n) = &mut sums[c.index() as usize];
            for k in 0..3 {
                sum[k] += linear[k];
            }
            *n += 1;
        }
    }
    let background = calibration.background.linear_rgb;
    let mut anchors: Vec<([f32; 3], [f32; 3])> = vec![(background, background)];
    for ((sum, n), model) in sums.iter().zip(&calibration.colours) {
        if *n > 0 {
            let mean = sum.map(|v| v / *n as f32);
            anchors.push((mean, colour::linear_from_cielab(model.lab)));
        }
    }
    if anchors.len() < 4 {
        return None;
    }
    let limit = calibration.thresholds.balance_limit;
    let mut gains = [1.0f32; 3];
    let mut offsets = [0.0f32; 3];
    for k in 0..3 {
        let n = anchors.len() as f32;
        let mean_x = anchors.iter().map(|a| a.0[k]).sum::<f32>() / n;
        let mean_y = anchors.iter().map(|a| a.1[k]).sum::<f32>() / n;
        let var = anchors
            .iter()
            .map(|a| (a.0[k] - mean_x).powi(2))
            .sum::<f32>();
        let cov = anchors
            .iter()
            .map(|a| (a.0[k] - mean_x) * (a.1[k] - mean_y))
            .sum::<f32>();
        if var <= 1e-8 {
            return None;
        }
        gains[k] = (cov / var).clamp(1.0 / limit, limit);
        offsets[k] = mean_y - gains[k] * mean_x;
    }
    Some(Judge {
        balance: judge.balance.then(gains, offsets),
        ..*judge
    })
}

/// The share of a pile's lightness difference from its colour's centre
/// that does not count against it.
const LIGHTNESS_FORGIVEN: f32 = 0.6;

/// A cell's verdict: its colour (or empty) and how sure the read is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct CellVerdict {
    pub colour: Option<Colour>,
    pub confidence: f32,
    /// CIEDE2000 distance of the cell's colour from the chosen colour's
    /// centre (0 for an empty cell).
    pub delta_e: f32,
}

/// Matches a cell's statistics against the calibration.
pub(crate) fn classify(stats: &CellStats, calibration: &Calibration) -> CellVerdict {
    let empty = calibration.empty.fraction;
    let pile = calibration.piles.fraction;
    // The occupancy decision sits nearer the empty side: a pile in an odd
    // light loses pixels, an empty cell gains only a little glow.
    let boundary = empty + 0.3 * (pile - empty);
    let coverage = stats.coverage.clamp(0.0, 1.0);
    let colour = match stats.colour {
        Some(colour) if stats.fraction >= boundary => colour,
        _ => {
            let sure = ((boundary - stats.fraction) / (boundary - empty)).clamp(0.0, 1.0);
            return CellVerdict {
                colour: None,
                confidence: sure * coverage,
                delta_e: 0.0,
            };
        }
    };
    let occupied = ((stats.fraction - boundary) / (0.5 * (pile - boundary))).clamp(0.0, 1.0);
    let lab = colour::cielab(colour);
    let mut distances: Vec<(f32, usize)> = calibration
        .colours
        .iter()
        .enumerate()
        .map(|(i, model)| {
            // Light changes a pile's lightness most (a lit pile under the
            // pointer, a capture's gamma), its hue least, and the dust
            // colours differ in hue: most of a lightness difference is
            // forgiven.
            let [l, a, b] = model.lab;
            let l = l + LIGHTNESS_FORGIVEN * (lab[0] - l);
            (colour::delta_e(lab, [l, a, b]), i)
        })
        .collect();
    distances.sort_by(|a, b| a.0.total_cmp(&b.0));
    let (nearest, index) = distances[0];
    let second = distances.get(1).map_or(f32::INFINITY, |d| d.0);
    // Sure when the nearest colour is much nearer than the next one, and
    // the cell is within reach of that colour at all.
    // 0 halfway between two colours, 0.5 when twice as near to the
    // nearest as to the next one.
    let separation = if second.is_finite() {
        ((second - nearest) / second.max(1e-3)).clamp(0.0, 1.0)
    } else {
        1.0
    };
    let reach = calibration.thresholds.max_delta_e;
    let fit = (1.0 - nearest / reach).clamp(0.0, 1.0);
    CellVerdict {
        colour: Colour::new(index as u8),
        confidence: occupied.min(separation).min(fit) * coverage,
        delta_e: nearest,
    }
}

#[cfg(test)]
mod tests {
    use image::Rgba;

    use super::*;

    fn judge() -> Judge {
        let background_lab = Balance::NONE.oklab([70, 84, 82]);
        Judge {
            balance: Balance::NONE,
            background: background_lab,
            threshold: 0.02,
        }
    }

    #[test]
    fn measures_the_pile_not_the_background() {
        let mut image = RgbaImage::from_pixel(100, 100, Rgba([70, 84, 82, 255]));
        // A pile filling the left half of the window, with white sparkles.
        for y in 20..80 {
            for x in 20..50 {
                let sparkle = (x + y) % 7 == 0;
                let c = if sparkle {
                    [255, 255, 255, 255]
                } else {
                    [90, 190, 235, 255]
                };
                image.put_pixel(x, y, Rgba(c));
            }
        }
        let stats = measure(
            &image,
            PixelPoint::new(50.0, 50.0),
            (100.0, 100.0),
            &judge(),
            &mut Scratch::default(),
        );
        // The core is 50x50: the pile covers 25x50 of it, less the sparkles.
        assert!((stats.fraction - 0.43).abs() < 0.05, "{stats:?}");
        let expected = Balance::NONE.oklab([90, 190, 235]);
        let colour = stats.colour.unwrap();
        assert!((colour[1] - expected[1]).abs() < 1e-3 && (colour[2] - expected[2]).abs() < 1e-3);
        assert!(
            stats.offset[0] < -0.1 && stats.offset[1].abs() < 0.03,
            "{stats:?}"
        );
        assert_eq!(stats.coverage, 1.0);
    }

    #[test]
    fn windows_off_the_image_have_low_coverage() {
        let image = RgbaImage::from_pixel(100, 100, Rgba([70, 84, 82, 255]));
        let stats = measure(
            &image,
            PixelPoint::new(0.0, 50.0),
            (100.0, 100.0),
            &judge(),
            &mut Scratch::default(),
        );
        assert!((stats.coverage - 0.5).abs() < 0.05, "{stats:?}");
        assert_eq!(stats.colour, None);
    }
}
