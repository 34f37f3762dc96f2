//! Shared by the vision tests: the real screenshot (read from `../shared`,
//! never copied), and the image transforms the tests put it through: a
//! game-like window around it, scaling, darkening, warm tints.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

use dustbot::game::Board;
use dustbot::render::{Look, Shot, Stage, Surround};
use image::imageops::{self, FilterType};
use image::{Rgba, RgbaImage};

pub fn shared(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared")
        .join(path)
}

pub fn repo(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(path)
}

pub fn real() -> (RgbaImage, Board) {
    let image = image::open(shared("real/dust-game.png"))
        .unwrap()
        .to_rgba8();
    (image, real_board())
}

pub fn real_board() -> Board {
    let truth = std::fs::read_to_string(shared("real/dust-game.board")).unwrap();
    truth.trim_end().parse().unwrap()
}

/// `board` scaled by `scale`, pasted at `at` in a `size` window drawn with
/// a title bar, a menu, text lines, buttons and small saturated icons.
pub fn in_window(board: &RgbaImage, scale: f32, size: (u32, u32), at: (i64, i64)) -> RgbaImage {
    let (w, h) = board.dimensions();
    let scaled = imageops::resize(
        board,
        ((w as f32 * scale).round() as u32).max(1),
        ((h as f32 * scale).round() as u32).max(1),
        FilterType::Triangle,
    );
    let mut window = RgbaImage::from_pixel(size.0, size.1, Rgba([38, 34, 30, 255]));
    let fill = |img: &mut RgbaImage, x: u32, y: u32, w: u32, h: u32, c: [u8; 3]| {
        for yy in y..(y + h).min(img.height()) {
            for xx in x..(x + w).min(img.width()) {
                img.put_pixel(xx, yy, Rgba([c[0], c[1], c[2], 255]));
            }
        }
    };
    // Title bar, menu, a column of text, buttons, icons in every dust hue.
    fill(&mut window, 0, 0, size.0, 24, [60, 70, 110]);
    fill(&mut window, 0, 24, size.0, 20, [200, 200, 200]);
    for line in 0..20 {
        for word in 0..6 {
            fill(
                &mut window,
                8 + word * 30,
                60 + line * 14,
                22,
                3,
                [220, 210, 180],
            );
        }
    }
    let icons = [
        [120, 230, 60],
        [240, 130, 110],
        [210, 50, 200],
        [240, 200, 40],
        [80, 200, 240],
    ];
    for (i, c) in icons.iter().enumerate() {
        let x = size.0 - 40 - 30 * i as u32;
        fill(&mut window, x, 60, 18, 18, *c);
        fill(&mut window, x, size.1 - 40, 22, 22, *c);
    }
    for b in 0..4 {
        fill(
            &mut window,
            20 + 110 * b,
            size.1 - 70,
            90,
            28,
            [90, 110, 160],
        );
        fill(
            &mut window,
            30 + 110 * b,
            size.1 - 60,
            60,
            4,
            [250, 250, 250],
        );
    }
    imageops::overlay(&mut window, &scaled, at.0, at.1);
    window
}

/// Every channel multiplied by `factor` (a darker capture), in sRGB.
pub fn darken(image: &RgbaImage, factor: f32) -> RgbaImage {
    tint(image, [factor; 3])
}

/// Per-channel sRGB gains, e.g. `[1.0, 0.9, 0.7]` for a warm cast.
pub fn tint(image: &RgbaImage, gains: [f32; 3]) -> RgbaImage {
    let mut out = image.clone();
    for p in out.pixels_mut() {
        for (c, g) in p.0.iter_mut().zip(gains) {
            *c = (f32::from(*c) * g).round().clamp(0.0, 255.0) as u8;
        }
    }
    out
}

/// Saturation times `factor` around each pixel's luma, in sRGB (0.6 for a
/// washed-out capture).
pub fn saturate(image: &RgbaImage, factor: f32) -> RgbaImage {
    let mut out = image.clone();
    for p in out.pixels_mut() {
        let [r, g, b] = [p[0], p[1], p[2]].map(f32::from);
        let luma = 0.299 * r + 0.587 * g + 0.114 * b;
        for c in &mut p.0[..3] {
            *c = (luma + factor * (f32::from(*c) - luma))
                .round()
                .clamp(0.0, 255.0) as u8;
        }
    }
    out
}

/// Every sRGB channel raised to `exponent` (below 1 lightens the shadows,
/// above 1 darkens them).
pub fn gamma(image: &RgbaImage, exponent: f32) -> RgbaImage {
    let table: Vec<u8> = (0..=255)
        .map(|v| (255.0 * (v as f32 / 255.0).powf(exponent)).round() as u8)
        .collect();
    let mut out = image.clone();
    for p in out.pixels_mut() {
        for c in &mut p.0[..3] {
            *c = table[usize::from(*c)];
        }
    }
    out
}

/// A warm overlay: every pixel mixed with orange by `alpha` (0..1).
pub fn warm_overlay(image: &RgbaImage, alpha: f32) -> RgbaImage {
    let orange = [255.0, 150.0, 40.0];
    let mut out = image.clone();
    for p in out.pixels_mut() {
        for (c, o) in p.0.iter_mut().zip(orange) {
            *c = (f32::from(*c) * (1.0 - alpha) + o * alpha).round() as u8;
        }
    }
    out
}

/// The image saved as JPEG at `quality` and decoded again.
pub fn jpeg(image: &RgbaImage, quality: u8) -> RgbaImage {
    let rgb = image::DynamicImage::ImageRgba8(image.clone()).to_rgb8();
    let mut bytes = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut bytes, quality)
        .encode_image(&rgb)
        .unwrap();
    image::load_from_memory(&bytes).unwrap().to_rgba8()
}

/// `command` with the bot's settings and data folders (its default game
/// log) in `dir`, never the player's: by both platforms' rules, since a
/// Windows bot reads `%APPDATA%` and `%LOCALAPPDATA%` and ignores XDG's
/// (under Wine the prefix's own folders keep the desktop step's games).
pub fn in_own_folders<'a>(command: &'a mut Command, dir: &Path) -> &'a mut Command {
    let (config, data) = (dir.join(".config"), dir.join(".data"));
    command
        .env("XDG_CONFIG_HOME", &config)
        .env("XDG_DATA_HOME", &data)
        .env("APPDATA", &config)
        .env("LOCALAPPDATA", &data)
}

/// Runs the real `bot` binary in `dir` with no input on stdin.
pub fn bot(dir: &Path, args: &[&str]) -> Output {
    output(
        in_own_folders(&mut Command::new(env!("CARGO_BIN_EXE_bot")), dir)
            .current_dir(dir)
            .args(args)
            .stdin(Stdio::null()),
    )
}

/// `command` run to its end, its output.
pub fn output(command: &mut Command) -> Output {
    once_more_under_wine(|| command.output())
}

/// `command` started, its child.
pub fn start(command: &mut Command) -> Child {
    once_more_under_wine(|| command.spawn())
}

/// Wine 8 now and then fails to start a process with
/// ERROR_INTERNAL_ERROR (1359), which Windows does not: the start is made
/// once more then, so that the tests' hundreds of starts judge the bot,
/// not Wine.
fn once_more_under_wine<T>(mut run: impl FnMut() -> std::io::Result<T>) -> T {
    const ERROR_INTERNAL_ERROR: i32 = 1359;
    match run() {
        Err(e) if cfg!(windows) && e.raw_os_error() == Some(ERROR_INTERNAL_ERROR) => run().unwrap(),
        started => started.unwrap(),
    }
}

/// Runs `command` with standard output on a full disk (`> /dev/full`)
/// and checks that it says so and exits 2: never 0 having written
/// nothing, never a panic.
#[cfg(unix)]
pub fn assert_full_output_fails(command: &mut Command) {
    let full = std::fs::File::options()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let out = command.stdin(Stdio::null()).stdout(full).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{command:?}: {stderr}");
    assert!(
        stderr.contains("standard output cannot be written"),
        "{command:?}: {stderr}"
    );
    assert!(!stderr.contains("panicked"), "{command:?}: {stderr}");
}

/// `jpeg` with an EXIF segment after its start marker whose orientation
/// is `orientation` (1 upright, 3 turned 180 degrees, 6 and 8 on its
/// side): how a phone or an editor stores a picture viewers show turned.
pub fn with_exif_orientation(jpeg: &[u8], orientation: u8) -> Vec<u8> {
    let mut exif = b"Exif\0\0MM\0\x2a\0\0\0\x08".to_vec();
    // One entry: tag 0x0112 (orientation), a SHORT, one value; no next IFD.
    exif.extend([0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, orientation, 0, 0]);
    exif.extend([0, 0, 0, 0]);
    let length = u16::try_from(exif.len() + 2).unwrap().to_be_bytes();
    [&jpeg[..2], &[0xFF, 0xE1], &length, &exif, &jpeg[2..]].concat()
}

pub fn real_png() -> String {
    shared("real/dust-game.png").display().to_string()
}

/// Exit 2, one `error:` line on stderr naming `what`.
pub fn assert_one_line_error(out: &Output, what: &str) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "stderr: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "one line: {stderr}");
    assert!(stderr.starts_with("error: "), "{stderr}");
    assert!(
        as_posix(&stderr).contains(what),
        "{stderr:?} should name {what:?}"
    );
}

/// `text` with Windows' path separators as `/`, so that one expected
/// message serves both platforms (a no-op elsewhere).
pub fn as_posix(text: &str) -> String {
    if cfg!(windows) {
        text.replace('\\', "/")
    } else {
        text.to_owned()
    }
}

/// Writes `notes.png` (text), `truncated.png` (a third of the real PNG) and
/// `grey.png` (an image with no board) into `dir`.
pub fn write_bad_images(dir: &Path) {
    std::fs::write(dir.join("notes.png"), "not an image at all").unwrap();
    let png = std::fs::read(shared("real/dust-game.png")).unwrap();
    std::fs::write(dir.join("truncated.png"), &png[..png.len() / 3]).unwrap();
    RgbaImage::from_pixel(400, 300, Rgba([90, 100, 100, 255]))
        .save(dir.join("grey.png"))
        .unwrap();
}

/// Every sample screenshot in `samples/` (or the folder `DUSTBOT_SAMPLES`
/// names) with its true board (`NAME.board`).
pub fn samples() -> Vec<(PathBuf, RgbaImage, Board)> {
    let dir = std::env::var("DUSTBOT_SAMPLES").map_or_else(|_| repo("samples"), PathBuf::from);
    let Ok(listing) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut paths: Vec<PathBuf> = listing
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "png" || e == "jpg"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|path| {
            let truth = std::fs::read_to_string(path.with_extension("board"))
                .unwrap_or_else(|e| panic!("{}: no .board beside it: {e}", path.display()));
            let image = image::open(&path).unwrap().to_rgba8();
            (
                path,
                image,
                truth.trim_end_matches(['\n', '\r']).parse().unwrap(),
            )
        })
        .collect()
}

/// A mid-game board in the real look: the pile pixels (and their glow) of
/// each colour of the real screenshot moved onto the cells of `board`, over
/// a background of the calibration's background colour with a little noise.
pub fn mid_game(board: &Board) -> RgbaImage {
    let (image, truth) = real();
    let calibration =
        dustbot::vision::Calibration::load(&repo("calibration/nodiatis.toml")).unwrap();
    let g = calibration.stored_geometry(image.dimensions()).unwrap();
    let srgb = |v: f32| {
        let s = if v <= 0.003_130_8 {
            12.92 * v
        } else {
            1.055 * v.powf(1.0 / 2.4) - 0.055
        };
        (s * 255.0).round() as u8
    };
    let background = calibration.background.linear_rgb.map(srgb);
    let mut out = RgbaImage::from_fn(image.width(), image.height(), |x, y| {
        let noise = ((x * 7 + y * 13) % 11) as i16 - 5;
        let c = |v: u8| (i16::from(v) + noise).clamp(0, 255) as u8;
        Rgba(
            background
                .map(c)
                .into_iter()
                .chain([255])
                .collect::<Vec<_>>()
                .try_into()
                .unwrap(),
        )
    });
    // A pile pixel differs from the background's colour in hue, not only
    // in lightness (trees and fog are the background's hue).
    let hue_distance = |p: &Rgba<u8>| {
        let [r, g, b] = [p[0], p[1], p[2]].map(i16::from);
        let [br, bg, bb] = background.map(i16::from);
        let (dr, dg, db) = (r - br, g - bg, b - bb);
        let mean = (dr + dg + db) / 3;
        (dr - mean).abs() + (dg - mean).abs() + (db - mean).abs()
    };
    let cells: Vec<_> = g.cells().collect();
    for &cell in &cells {
        let Some(colour) = board.get(cell) else {
            continue;
        };
        let source = *cells
            .iter()
            .find(|c| truth.get(**c) == Some(colour))
            .unwrap();
        let (from, to) = (g.cell_centre(source), g.cell_centre(cell));
        let half = (0.5 * g.pitch_x) as i64;
        let inside = |x: i64, y: i64| {
            x >= 0 && y >= 0 && x < image.width() as i64 && y < image.height() as i64
        };
        for dy in -half..half {
            for dx in -half..half {
                let (fx, fy) = (from.x as i64 + dx, from.y as i64 + dy);
                let (tx, ty) = (to.x as i64 + dx, to.y as i64 + dy);
                if inside(fx, fy) && inside(tx, ty) {
                    let p = *image.get_pixel(fx as u32, fy as u32);
                    if hue_distance(&p) > 30 {
                        out.put_pixel(tx as u32, ty as u32, p);
                    }
                }
            }
        }
    }
    out
}

/// The boards of the article's 11-move solution (`real/seed-solution.tsv`).
pub fn seed_boards() -> Vec<Board> {
    let text = std::fs::read_to_string(shared("real/seed-solution.tsv")).unwrap();
    text.lines()
        .skip(1)
        .filter_map(|l| l.split('\t').nth(5))
        .filter_map(|b| b.parse().ok())
        .collect()
}

/// A stage at `scale`, bare or in a game window, for `board`'s shape in the
/// game's look: the screenshot's picture without piles.
pub fn stage(board: &Board, scale: f32, window: bool, seed: u64) -> Stage {
    let shot = Shot {
        scale,
        surround: if window {
            Surround::Window
        } else {
            Surround::Bare
        },
        seed,
    };
    Stage::of_shot(board.width(), board.height(), &Look::nodiatis(), &shot)
}

/// Another swamp behind the piles: `style` 0 is every pixel times
/// `factor`, 1 the picture mirrored, 2 a soft dark band across at
/// `band_at` (0..1 from the top) and a bright fog patch, 3 a grain of
/// strong contrast from `seed`.
#[derive(Clone, Copy, Debug)]
pub struct Swamp {
    pub style: u8,
    pub factor: f32,
    pub band_at: f32,
    pub seed: u32,
}

/// Changes the swamp inside the board's rectangle.
pub fn restyle(stage: &mut Stage, swamp: &Swamp) {
    let p = stage.geometry();
    let (w, h) = p.pixel_size();
    let (x0, y0) = (p.x.round().max(0.0) as usize, p.y.round().max(0.0) as usize);
    let base = stage.base_mut();
    let x1 = (x0 + w).min(base.width);
    let y1 = (y0 + h).min(base.height);
    let original = base.clone();
    for y in y0..y1 {
        for x in x0..x1 {
            let rgb = original.get(x, y);
            let (u, v) = ((x - x0) as f32 / w as f32, (y - y0) as f32 / h as f32);
            let out = match swamp.style {
                0 => scale_rgb(rgb, swamp.factor),
                1 => original.get(x1 - 1 - (x - x0), y),
                // Soft-edged, as light and fog are.
                2 => {
                    let band = (1.0 - ((v - swamp.band_at).abs() / 0.15).min(1.0)).powi(2);
                    let fog = (1.0 - ((u - 0.7).hypot(v - 0.3) / 0.25).min(1.0)).powi(2);
                    mix_rgb(
                        scale_rgb(rgb, 1.0 - 0.55 * band),
                        [190, 200, 196],
                        0.5 * fog,
                    )
                }
                _ => {
                    let grain = (x as u32).wrapping_mul(73_856_093)
                        ^ (y as u32).wrapping_mul(19_349_663)
                        ^ swamp.seed.wrapping_mul(83_492_791);
                    let grain = (grain % 1000) as f32 / 1000.0;
                    scale_rgb(rgb, 0.7 + 0.6 * grain)
                }
            };
            base.fill(x as i64, y as i64, 1, 1, out);
        }
    }
}

fn scale_rgb(rgb: [u8; 3], f: f32) -> [u8; 3] {
    rgb.map(|c| (f32::from(c) * f).round().clamp(0.0, 255.0) as u8)
}

fn mix_rgb(a: [u8; 3], b: [u8; 3], t: f32) -> [u8; 3] {
    std::array::from_fn(|i| (f32::from(a[i]) * (1.0 - t) + f32::from(b[i]) * t).round() as u8)
}
