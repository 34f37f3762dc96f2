//! Perceptual colour, for the vision that reads boards and the renderer
//! that draws them alike: a fast sRGB -> Oklab conversion for the many
//! pixels a read looks at, white balance, and the CIEDE2000 difference (via
//! `palette`) for the few cell colours a read compares with the
//! calibration.

use std::sync::OnceLock;

use palette::color_difference::Ciede2000;
use palette::white_point::D65;
use palette::{FromColor, Lab, LinSrgb, Oklab, Oklch};

/// sRGB byte -> linear light, computed once.
fn linear_table() -> &'static [f32; 256] {
    static TABLE: OnceLock<[f32; 256]> = OnceLock::new();
    TABLE.get_or_init(|| {
        std::array::from_fn(|i| {
            let v = i as f32 / 255.0;
            if v <= 0.04045 {
                v / 12.92
            } else {
                ((v + 0.055) / 1.055).powf(2.4)
            }
        })
    })
}

/// Cube root to ~1e-6 relative error: a bit-level first guess and two Newton
/// steps, several times faster than `f32::cbrt` on the hot path.
#[inline]
fn cbrt(x: f32) -> f32 {
    if x <= 0.0 {
        return 0.0;
    }
    let mut y = f32::from_bits(x.to_bits() / 3 + 709_921_077);
    y = (2.0 * y + x / (y * y)) * (1.0 / 3.0);
    (2.0 * y + x / (y * y)) * (1.0 / 3.0)
}

/// What undoes a capture's global change of colour: a saturation gain in
/// the capture's own (gamma-encoded) values, around each pixel's luma, as
/// a washed-out capture, a video encoder or a display's vibrance setting
/// scales the chroma of YCbCr; then a per-channel affine map in linear
/// light that undoes a global tint, darkening or coloured haze: gains from
/// the board's background (von Kries adaptation), refined with offsets
/// fitted to the piles' colours when the gains alone leave cells unsure.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Balance {
    pub saturation: f32,
    pub gains: [f32; 3],
    pub offsets: [f32; 3],
}

impl Balance {
    pub const NONE: Balance = Balance {
        saturation: 1.0,
        gains: [1.0; 3],
        offsets: [0.0; 3],
    };

    /// Gains that map the measured background onto the reference one,
    /// limited to a factor of `limit` either way.
    pub fn between(measured: [f32; 3], reference: [f32; 3], limit: f32) -> Balance {
        Balance {
            gains: std::array::from_fn(|i| {
                if measured[i] <= 1e-4 {
                    1.0
                } else {
                    (reference[i] / measured[i]).clamp(1.0 / limit, limit)
                }
            }),
            ..Balance::NONE
        }
    }

    /// This balance with the capture's chroma multiplied by `saturation`
    /// first.
    pub fn resaturated(&self, saturation: f32) -> Balance {
        Balance {
            saturation,
            ..*self
        }
    }

    /// This balance followed by `linear -> gain * linear + offset`.
    pub fn then(&self, gains: [f32; 3], offsets: [f32; 3]) -> Balance {
        Balance {
            saturation: self.saturation,
            gains: std::array::from_fn(|i| self.gains[i] * gains[i]),
            offsets: std::array::from_fn(|i| self.offsets[i] * gains[i] + offsets[i]),
        }
    }

    /// Linear light of an sRGB pixel, balanced.
    #[inline]
    pub fn linear(&self, rgb: [u8; 3]) -> [f32; 3] {
        let table = linear_table();
        let rgb = if self.saturation == 1.0 {
            rgb
        } else {
            // BT.601 luma, JPEG's and most encoders'.
            let [r, g, b] = rgb.map(f32::from);
            let luma = 0.299 * r + 0.587 * g + 0.114 * b;
            rgb.map(|c| {
                (luma + self.saturation * (f32::from(c) - luma))
                    .round()
                    .clamp(0.0, 255.0) as u8
            })
        };
        std::array::from_fn(|i| (table[rgb[i] as usize] * self.gains[i] + self.offsets[i]).max(0.0))
    }

    /// Oklab `[L, a, b]` of an sRGB pixel, balanced.
    #[inline]
    pub fn oklab(&self, rgb: [u8; 3]) -> [f32; 3] {
        oklab_from_linear(self.linear(rgb))
    }
}

/// Björn Ottosson's Oklab from linear sRGB.
#[inline]
pub(crate) fn oklab_from_linear([r, g, b]: [f32; 3]) -> [f32; 3] {
    let l = cbrt(0.412_221_46 * r + 0.536_332_55 * g + 0.051_445_995 * b);
    let m = cbrt(0.211_903_5 * r + 0.680_699_5 * g + 0.107_396_96 * b);
    let s = cbrt(0.088_302_46 * r + 0.281_718_85 * g + 0.629_978_7 * b);
    [
        0.210_454_26 * l + 0.793_617_8 * m - 0.004_072_047 * s,
        1.977_998_5 * l - 2.428_592_2 * m + 0.450_593_7 * s,
        0.025_904_037 * l + 0.782_771_77 * m - 0.808_675_77 * s,
    ]
}

/// Linear sRGB of an Oklab colour (the inverse of [`oklab_from_linear`]).
#[inline]
pub(crate) fn linear_from_oklab([l, a, b]: [f32; 3]) -> [f32; 3] {
    let l_ = (l + 0.396_337_78 * a + 0.215_803_76 * b).powi(3);
    let m_ = (l - 0.105_561_346 * a - 0.063_854_17 * b).powi(3);
    let s_ = (l - 0.089_484_18 * a - 1.291_485_5 * b).powi(3);
    [
        4.076_741_7 * l_ - 3.307_711_6 * m_ + 0.230_969_94 * s_,
        -1.268_438 * l_ + 2.609_757_4 * m_ - 0.341_319_38 * s_,
        -0.004_196_086_3 * l_ - 0.703_418_6 * m_ + 1.707_614_7 * s_,
    ]
}

/// Linear sRGB of a CIELAB colour.
pub(crate) fn linear_from_cielab([l, a, b]: [f32; 3]) -> [f32; 3] {
    let rgb: LinSrgb = LinSrgb::from_color(Lab::<D65, f32>::new(l, a, b));
    [rgb.red, rgb.green, rgb.blue]
}

/// CIELAB (D65) of an Oklab colour, the space CIEDE2000 is defined in.
pub(crate) fn cielab([l, a, b]: [f32; 3]) -> [f32; 3] {
    let lab: Lab = Lab::from_color(Oklab::new(l, a, b));
    [lab.l, lab.a, lab.b]
}

/// CIEDE2000 colour difference between two CIELAB colours.
pub(crate) fn delta_e([l1, a1, b1]: [f32; 3], [l2, a2, b2]: [f32; 3]) -> f32 {
    Lab::<D65, f32>::new(l1, a1, b1).difference(Lab::new(l2, a2, b2))
}

/// Hue angle of an Oklab colour in degrees, 0..360.
pub(crate) fn hue([l, a, b]: [f32; 3]) -> f32 {
    Oklch::from_color(Oklab::new(l, a, b))
        .hue
        .into_positive_degrees()
}

#[cfg(test)]
mod tests {
    use palette::{IntoColor, Srgb};

    use super::*;

    #[test]
    fn fast_oklab_matches_palette() {
        for rgb in [
            [0u8, 0, 0],
            [255, 255, 255],
            [120, 200, 40],
            [90, 180, 230],
            [230, 110, 100],
        ] {
            let fast = Balance::NONE.oklab(rgb);
            let exact: Oklab = Srgb::new(rgb[0], rgb[1], rgb[2])
                .into_format::<f32>()
                .into_color();
            assert!((fast[0] - exact.l).abs() < 1e-4, "{rgb:?}");
            assert!((fast[1] - exact.a).abs() < 1e-4, "{rgb:?}");
            assert!((fast[2] - exact.b).abs() < 1e-4, "{rgb:?}");
        }
    }

    #[test]
    fn balance_undoes_a_tint() {
        let tinted = [0.5, 0.4, 0.2];
        let balance = Balance::between(tinted, [0.25, 0.4, 0.4], 4.0);
        assert_eq!(balance.gains, [0.5, 1.0, 2.0]);
        let limited = Balance::between([1.0, 0.0, 1.0], [0.01, 0.5, 1.0], 4.0);
        assert_eq!(limited.gains, [0.25, 1.0, 1.0]);
        let haze = balance.then([2.0, 1.0, 1.0], [-0.1, 0.0, 0.0]);
        assert_eq!(haze.gains, [1.0, 1.0, 2.0]);
        assert_eq!(haze.offsets, [-0.1, 0.0, 0.0]);
    }

    #[test]
    fn a_saturation_gain_undoes_a_washed_out_capture() {
        // Washed out as a YCbCr chroma scale does it: toward the BT.601
        // luma in the encoded values.
        let wash = |rgb: [u8; 3], factor: f32| {
            let [r, g, b] = rgb.map(f32::from);
            let luma = 0.299 * r + 0.587 * g + 0.114 * b;
            rgb.map(|c| (luma + factor * (f32::from(c) - luma)).round() as u8)
        };
        for pile in [[230u8, 190, 60], [90, 180, 230], [120, 200, 40]] {
            let washed = wash(pile, 0.6);
            let restored = Balance::NONE.resaturated(1.0 / 0.6).oklab(washed);
            let original = Balance::NONE.oklab(pile);
            let restored = delta_e(cielab(restored), cielab(original));
            let washed = delta_e(cielab(Balance::NONE.oklab(washed)), cielab(original));
            assert!(
                restored < 1.5 && washed > 4.0 * restored,
                "{pile:?}: {restored} {washed}"
            );
        }
        assert_eq!(Balance::NONE.resaturated(1.0), Balance::NONE);
    }

    #[test]
    fn oklab_and_cielab_invert_to_linear() {
        let linear = Balance::NONE.linear([90, 180, 230]);
        let back = linear_from_oklab(oklab_from_linear(linear));
        let via_lab = linear_from_cielab(cielab(oklab_from_linear(linear)));
        for i in 0..3 {
            assert!((back[i] - linear[i]).abs() < 1e-4, "{back:?} {linear:?}");
            assert!(
                (via_lab[i] - linear[i]).abs() < 1e-3,
                "{via_lab:?} {linear:?}"
            );
        }
    }

    #[test]
    fn cie_difference_orders_colours() {
        let cyan = cielab(Balance::NONE.oklab([90, 180, 230]));
        let sky = cielab(Balance::NONE.oklab([100, 190, 235]));
        let gold = cielab(Balance::NONE.oklab([230, 190, 60]));
        assert!(delta_e(cyan, sky) < 5.0);
        assert!(delta_e(cyan, gold) > 30.0);
        let h = hue(Balance::NONE.oklab([230, 190, 60]));
        assert!((60.0..110.0).contains(&h), "{h}");
    }
}
