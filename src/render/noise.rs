//! Seeded randomness for the renderer: smooth value noise (fog, bark, dust
//! texture) hashed from lattice coordinates, so any pixel can be computed
//! on its own and a picture depends only on its seed.

/// A 64-bit mix of `seed` and two lattice coordinates (SplitMix64's
/// finaliser): neighbouring points get unrelated values.
#[inline]
pub fn hash(seed: u64, x: i32, y: i32) -> u64 {
    let mut z = seed
        ^ (x as u32 as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
        ^ (y as u32 as u64).wrapping_mul(0xc2b2_ae3d_27d4_eb4f);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A uniform value in `[0, 1)` for a lattice point.
#[inline]
pub fn unit(seed: u64, x: i32, y: i32) -> f32 {
    (hash(seed, x, y) >> 40) as f32 / (1u64 << 24) as f32
}

/// Value noise in `[0, 1]`, smooth between the integer lattice points.
#[inline]
pub fn value(seed: u64, x: f32, y: f32) -> f32 {
    let (fx, fy) = (x.floor(), y.floor());
    let (ix, iy) = (fx as i32, fy as i32);
    let (tx, ty) = (x - fx, y - fy);
    let (sx, sy) = (tx * tx * (3.0 - 2.0 * tx), ty * ty * (3.0 - 2.0 * ty));
    let a = unit(seed, ix, iy);
    let b = unit(seed, ix + 1, iy);
    let c = unit(seed, ix, iy + 1);
    let d = unit(seed, ix + 1, iy + 1);
    let top = a + (b - a) * sx;
    let bottom = c + (d - c) * sx;
    top + (bottom - top) * sy
}

/// Fractal value noise: `octaves` layers, each twice as fine and half as
/// strong; in `[0, 1]`.
pub fn fbm(seed: u64, x: f32, y: f32, octaves: u32) -> f32 {
    let (mut sum, mut weight, mut amplitude, mut frequency) = (0.0, 0.0, 1.0, 1.0);
    for octave in 0..octaves {
        sum += amplitude
            * value(
                seed.wrapping_add(u64::from(octave)),
                x * frequency,
                y * frequency,
            );
        weight += amplitude;
        amplitude *= 0.5;
        frequency *= 2.0;
    }
    sum / weight
}

/// A sequence of seeded random numbers (for placing trees and shaping
/// piles), one stream per seed.
#[derive(Clone, Debug)]
pub struct NoiseStream {
    seed: u64,
    index: i32,
}

impl NoiseStream {
    pub fn new(seed: u64) -> NoiseStream {
        NoiseStream { seed, index: 0 }
    }

    /// The next value in `[0, 1)`.
    pub fn next(&mut self) -> f32 {
        self.index += 1;
        unit(self.seed, self.index, 0x5eed)
    }

    /// The next value in `[lo, hi)`.
    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.next()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn noise_is_seeded_bounded_and_continuous() {
        assert_eq!(value(1, 3.3, 4.7), value(1, 3.3, 4.7));
        assert_ne!(value(1, 3.3, 4.7), value(2, 3.3, 4.7));
        let mut previous = value(5, 0.0, 0.5);
        for i in 1..400 {
            let v = fbm(5, i as f32 * 0.01, 0.5, 4);
            let w = value(5, i as f32 * 0.01, 0.5);
            assert!((0.0..=1.0).contains(&v) && (0.0..=1.0).contains(&w));
            assert!((w - previous).abs() < 0.05, "smooth at {i}");
            previous = w;
        }
    }

    #[test]
    fn streams_repeat_per_seed_and_spread_over_the_range() {
        let a: Vec<f32> = (0..50)
            .scan(NoiseStream::new(9), |s, _| Some(s.next()))
            .collect();
        let b: Vec<f32> = (0..50)
            .scan(NoiseStream::new(9), |s, _| Some(s.next()))
            .collect();
        assert_eq!(a, b);
        let mean = a.iter().sum::<f32>() / 50.0;
        assert!((0.35..0.65).contains(&mean), "{mean}");
        assert!(a.iter().all(|v| (0.0..1.0).contains(v)));
        assert!((3.0..5.0).contains(&NoiseStream::new(1).range(3.0, 5.0)));
    }
}
