//! Darkened, warm-tinted, washed-out and gamma-changed captures: the real
//! screenshot (and every sample, when present) still reads exactly under
//! the lighting changes a capture can bring. `cargo test --test suite vision_light:: -- --nocapture`
//! prints the margins: how far each change can go before the read fails.

use crate::vision_support::*;
use dustbot::game::Board;
use dustbot::vision::{self, Calibration};
use image::RgbaImage;

fn calibration() -> Calibration {
    Calibration::load(&repo("calibration/nodiatis.toml")).unwrap()
}

fn reads_exactly(image: &RgbaImage, truth: &Board, calibration: &Calibration) -> bool {
    vision::read(image, calibration, None)
        .ok()
        .and_then(|r| r.board().ok())
        .is_some_and(|b| b == *truth)
}

/// The strongest level of `change` (levels in order, mildest first) up to
/// which every level reads exactly, or `None` when the mildest fails.
fn margin(
    image: &RgbaImage,
    truth: &Board,
    levels: &[f32],
    change: impl Fn(&RgbaImage, f32) -> RgbaImage,
) -> Option<f32> {
    let calibration = calibration();
    let mut last = None;
    for &level in levels {
        if !reads_exactly(&change(image, level), truth, &calibration) {
            break;
        }
        last = Some(level);
    }
    last
}

/// The levels tried, mildest first; the checks below say which must read.
const DARKEN: [f32; 11] = [0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.25, 0.2, 0.15, 0.1];
const WARM_GAINS: [f32; 9] = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9];
const WARM_OVERLAY: [f32; 10] = [0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5];

fn warm(image: &RgbaImage, level: f32) -> RgbaImage {
    // Red kept, green a little lower, blue much lower: a warm cast.
    tint(image, [1.0, 1.0 - 0.35 * level, 1.0 - level])
}

fn check(name: &str, image: &RgbaImage, truth: &Board) {
    let dark = margin(image, truth, &DARKEN, darken);
    let gains = margin(image, truth, &WARM_GAINS, warm);
    let overlay = margin(image, truth, &WARM_OVERLAY, warm_overlay);
    println!(
        "{name}: reads exactly down to brightness x{dark:?}, warm gains up to {gains:?} (blue x{:?}), orange overlay up to {overlay:?}",
        gains.map(|g| 1.0 - g)
    );
    assert!(
        dark.is_some_and(|d| d <= 0.5),
        "{name}: darkened to half: {dark:?}"
    );
    assert!(
        gains.is_some_and(|g| g >= 0.4),
        "{name}: warm tint: {gains:?}"
    );
    assert!(overlay.is_some(), "{name}: orange overlay: {overlay:?}");
    // Both at once, in a window.
    let both = warm(&darken(image, 0.6), 0.3);
    // Big enough for the biggest sample (a 2x board) with room around it.
    let size = (both.width().max(1000) + 280, both.height().max(700) + 200);
    let window = in_window(&both, 1.0, size, (200, 100));
    assert!(
        reads_exactly(&window, truth, &calibration()),
        "{name}: darkened, warm, in a window"
    );
}

#[test]
fn the_real_screenshot_reads_in_dim_and_warm_light() {
    let (image, truth) = real();
    check("real", &image, &truth);
}

#[test]
fn every_sample_reads_in_dim_and_warm_light() {
    for (path, image, truth) in samples() {
        check(&path.display().to_string(), &image, &truth);
    }
}

/// Washed-out and gamma-changed captures, mildest first.
const SATURATION: [f32; 7] = [0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3];
const GAMMA_DOWN: [f32; 5] = [0.9, 0.8, 0.7, 0.6, 0.5];
const GAMMA_UP: [f32; 6] = [1.2, 1.4, 1.6, 1.8, 2.0, 2.2];

/// How far saturation and gamma can go before `image` no longer reads
/// exactly: (saturation, gamma down, gamma up).
fn photometric_margins(name: &str, image: &RgbaImage, truth: &Board) -> [Option<f32>; 3] {
    let margins = [
        margin(image, truth, &SATURATION, saturate),
        margin(image, truth, &GAMMA_DOWN, gamma),
        margin(image, truth, &GAMMA_UP, gamma),
    ];
    println!(
        "{name}: reads exactly down to saturation x{:?}, gamma down to {:?} and up to {:?}",
        margins[0], margins[1], margins[2]
    );
    margins
}

#[test]
fn the_real_screenshot_reads_washed_out_and_at_other_gammas() {
    let (image, truth) = real();
    let [washed, lighter, darker] = photometric_margins("real", &image, &truth);
    assert!(washed.is_some_and(|s| s <= 0.6), "saturation {washed:?}");
    assert!(lighter.is_some_and(|g| g <= 0.7), "gamma {lighter:?}");
    assert!(darker.is_some_and(|g| g >= 1.4), "gamma {darker:?}");
    // Every sample's margins, for BENCHMARKS.md: the lit pile under the
    // pointer is the weakest (see there).
    for (path, image, truth) in samples() {
        photometric_margins(&path.display().to_string(), &image, &truth);
    }
}
