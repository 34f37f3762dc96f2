//! The bundled sample screenshots (`samples/`): each is read exactly by the
//! default calibration, and each is still what the renderer draws from its
//! recipe below. `DUSTBOT_REGENERATE_SAMPLES=1 cargo test --release --test
//! suite samples::` draws them again (boards, pictures and truths) instead of
//! comparing; `DUSTBOT_SAMPLES=DIR` points both at another folder. The
//! README's picture of the hint window (`docs/hint-window.png`) is made
//! and checked the same way.

use std::path::PathBuf;
use std::time::Duration;

use dustbot::assist::{self, Hint};
use dustbot::game::{Board, BoardRng, Cell, Rules, replay};
use dustbot::geometry::Geometry;
use dustbot::render::{self, Canvas, Look, PointerShape, Shot, Surround};
use dustbot::solver::{self, SolveOptions};
use dustbot::vision::{self, Calibration};
use image::RgbaImage;

use crate::vision_support::*;

/// How a sample is made: a random board from `seed`, with `moves` random
/// clicks played on it, drawn at `scale` with the `surround`, in the
/// `condition` of the capture.
struct Recipe {
    name: &'static str,
    seed: u64,
    moves: u32,
    scale: f32,
    surround: Surround,
    jpeg: bool,
    condition: Condition,
}

/// What a capture may show beyond the plain board: the hardest cases of
/// the stress suite (`tests/suite/vision_stress.rs`), kept as files.
#[derive(Clone, Copy)]
enum Condition {
    Plain,
    /// The pile at column 3 of the bottom row lit 40% brighter, a hand
    /// pointer on it.
    Hover,
    /// Another swamp behind the piles.
    Swamp(Swamp),
    /// The capture washed out: saturation times this.
    Washed(f32),
    /// The capture tinted: these sRGB gains.
    Tinted([f32; 3]),
}

const fn recipe(
    name: &'static str,
    seed: u64,
    moves: u32,
    scale: f32,
    surround: Surround,
    jpeg: bool,
) -> Recipe {
    Recipe {
        name,
        seed,
        moves,
        scale,
        surround,
        jpeg,
        condition: Condition::Plain,
    }
}

const fn hard(
    name: &'static str,
    seed: u64,
    moves: u32,
    scale: f32,
    surround: Surround,
    condition: Condition,
) -> Recipe {
    Recipe {
        condition,
        ..recipe(name, seed, moves, scale, surround, false)
    }
}

use Surround::{Bare, Window};

const RECIPES: [Recipe; 15] = [
    recipe("full-1x-window", 1, 0, 1.0, Window, false),
    recipe("full-1x-bare", 2, 0, 1.0, Bare, false),
    recipe("full-0.5x-window", 3, 0, 0.5, Window, false),
    recipe("full-0.75x-bare", 4, 0, 0.75, Bare, true),
    recipe("full-2x-bare", 5, 0, 2.0, Bare, true),
    recipe("mid-1x-window", 6, 4, 1.0, Window, false),
    recipe("mid-0.6x-bare", 7, 6, 0.6, Bare, false),
    recipe("mid-0.75x-window", 11, 5, 0.75, Window, false),
    recipe("mid-1.25x-window", 8, 8, 1.25, Window, true),
    recipe("late-0.5x-window", 9, 11, 0.5, Window, false),
    recipe("late-1.5x-bare", 10, 12, 1.5, Bare, false),
    hard("hover-1x-window", 12, 3, 1.0, Window, Condition::Hover),
    hard(
        "swamp-banded-0.75x-bare",
        13,
        5,
        0.75,
        Bare,
        Condition::Swamp(Swamp {
            style: 2,
            factor: 1.0,
            band_at: 0.6,
            seed: 0,
        }),
    ),
    // Nearly empty boards in odd light, which the search places by the
    // board's edges: washed out, and in a warm cast.
    hard(
        "late-washed-0.75x-window",
        14,
        14,
        0.75,
        Window,
        Condition::Washed(0.6),
    ),
    hard(
        "late-warm-1.5x-window",
        15,
        16,
        1.5,
        Window,
        Condition::Tinted([1.0, 0.92, 0.75]),
    ),
];

/// JPEG quality of the JPEG samples: what a screenshot tool might save.
const QUALITY: u8 = 85;

fn folder() -> PathBuf {
    std::env::var("DUSTBOT_SAMPLES").map_or_else(|_| repo("samples"), PathBuf::from)
}

impl Recipe {
    fn path(&self) -> PathBuf {
        folder().join(format!(
            "{}.{}",
            self.name,
            if self.jpeg { "jpg" } else { "png" }
        ))
    }

    /// The board: random, then `moves` clicks on random clusters (fewer
    /// when it clears first, which no recipe does).
    fn board(&self) -> Board {
        let mut rng = BoardRng::new(self.seed);
        let mut board = rng.board(8, 6, 5).unwrap();
        for _ in 0..self.moves {
            let clusters = board.clusters();
            if clusters.is_empty() {
                break;
            }
            let pick = clusters[rng.below(clusters.len() as u64) as usize];
            board = board.play(pick.cell).unwrap().0;
        }
        board
    }

    fn draw(&self, board: &Board) -> (RgbaImage, Geometry) {
        let shot = Shot {
            scale: self.scale,
            surround: self.surround,
            seed: self.seed,
        };
        if let Condition::Plain = self.condition {
            let (canvas, placement) = render::screenshot(board, &Look::nodiatis(), &shot);
            return (canvas.to_image(), placement);
        }
        let mut stage = stage(board, self.scale, self.surround == Window, self.seed);
        if let Condition::Swamp(swamp) = &self.condition {
            restyle(&mut stage, swamp);
        }
        let tiles = render::tiles(board);
        let mut canvas = Canvas::new(0, 0, [0, 0, 0]);
        stage.paint(&tiles, &mut canvas);
        if let Condition::Hover = self.condition {
            let lit = tiles
                .iter()
                .find(|t| t.x == 3.0 && t.y == 0.0)
                .expect("the bottom row is full");
            stage.paint_hover(lit, 1.4, 0.75, &mut canvas);
            let at = stage.geometry().point(3.1, 0.1);
            let (x, y) = (at.x, at.y);
            render::pointer(&mut canvas, PointerShape::Hand, (x, y), self.scale.max(1.0));
        }
        let image = canvas.to_image();
        let image = match self.condition {
            Condition::Washed(factor) => saturate(&image, factor),
            Condition::Tinted(gains) => tint(&image, gains),
            _ => image,
        };
        (image, stage.geometry())
    }
}

fn write(recipe: &Recipe) {
    let board = recipe.board();
    let (image, _) = recipe.draw(&board);
    std::fs::create_dir_all(folder()).unwrap();
    let path = recipe.path();
    if recipe.jpeg {
        let rgb = image::DynamicImage::ImageRgba8(image).to_rgb8();
        let file = std::fs::File::create(&path).unwrap();
        image::codecs::jpeg::JpegEncoder::new_with_quality(file, QUALITY)
            .encode_image(&rgb)
            .unwrap();
    } else {
        save_png(image, &path);
    }
    std::fs::write(path.with_extension("board"), format!("{board}\n")).unwrap();
}

/// Saves `image` as an RGB PNG at the best compression: the pictures live
/// in the repository.
fn save_png(image: RgbaImage, path: &std::path::Path) {
    let rgb = image::DynamicImage::ImageRgba8(image).to_rgb8();
    let file = std::fs::File::create(path).unwrap();
    let encoder = image::codecs::png::PngEncoder::new_with_quality(
        file,
        image::codecs::png::CompressionType::Best,
        image::codecs::png::FilterType::Adaptive,
    );
    rgb.write_with_encoder(encoder).unwrap();
}

/// Draws the samples again when asked to, once, before either test looks
/// at them.
fn regenerate_if_asked() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    if std::env::var_os("DUSTBOT_REGENERATE_SAMPLES").is_some_and(|v| v == "1") {
        ONCE.call_once(|| RECIPES.iter().for_each(write));
    }
}

/// Mean absolute difference per channel between two images of one size.
fn mean_difference(a: &RgbaImage, b: &RgbaImage) -> f64 {
    assert_eq!(a.dimensions(), b.dimensions());
    let sum: u64 = a
        .pixels()
        .zip(b.pixels())
        .map(|(p, q)| (0..3).map(|k| u64::from(p[k].abs_diff(q[k]))).sum::<u64>())
        .sum();
    sum as f64 / (3 * a.width() * a.height()) as f64
}

#[test]
fn the_samples_are_what_the_renderer_draws() {
    regenerate_if_asked();
    for recipe in &RECIPES {
        let path = recipe.path();
        let truth = std::fs::read_to_string(path.with_extension("board"))
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let board: Board = truth.trim_end_matches('\n').parse().unwrap();
        assert_eq!(board, recipe.board(), "{}: the recipe's board", recipe.name);
        let committed = image::open(&path).unwrap().to_rgba8();
        let (drawn, placement) = recipe.draw(&board);
        // PNGs are exact up to floating-point differences between
        // machines; JPEGs also carry their compression.
        let tolerance = if recipe.jpeg { 3.0 } else { 0.5 };
        let difference = mean_difference(&committed, &drawn);
        assert!(
            difference <= tolerance,
            "{}: differs from the renderer by {difference:.2} per channel",
            recipe.name
        );
        // The reader finds the board where the renderer put it.
        let calibration = Calibration::load(&repo("calibration/nodiatis.toml")).unwrap();
        let g = vision::read(&committed, &calibration, None)
            .unwrap()
            .geometry;
        let slack = 0.05 * placement.pitch_x;
        assert!(
            (g.x - placement.x).abs() < slack
                && (g.y - placement.y).abs() < slack
                && (g.pitch_x - placement.pitch_x).abs() < slack,
            "{}: read at {g:?}, drawn at {placement:?}",
            recipe.name
        );
    }
}

#[test]
fn every_sample_reads_exactly_with_the_default_calibration() {
    regenerate_if_asked();
    let calibration = Calibration::load(&repo("calibration/nodiatis.toml")).unwrap();
    let samples = samples();
    assert_eq!(samples.len(), RECIPES.len(), "one sample per recipe");
    let mut mid_game = 0;
    for (path, image, truth) in samples {
        let reading = vision::read(&image, &calibration, None)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let board = reading
            .board()
            .unwrap_or_else(|e| panic!("{}: {e}\n{}", path.display(), reading.confidence_grid()));
        assert_eq!(board, truth, "{}", path.display());
        mid_game += usize::from(truth.tile_count() < 48);
    }
    assert!(mid_game >= 4, "mid-game samples: {mid_game}");
}

/// The board of the README's picture of the hint window, and a shortest
/// plan for it (checked below against the solver's proven optimum).
const HINT_BOARD: &str = "BBRRYROG,GRYRYOBY,BRORYYGO,GYGBROOO,GBYBYRBG,OOOYBRBR";
const HINT_PLAN: [(u8, u8); 12] = [
    (0, 0),
    (2, 0),
    (1, 2),
    (4, 1),
    (3, 0),
    (5, 4),
    (3, 1),
    (6, 0),
    (4, 0),
    (1, 0),
    (1, 0),
    (3, 0),
];

/// The hint window after the player followed the first three hints.
fn hint_window() -> RgbaImage {
    let board: Board = HINT_BOARD.parse().unwrap();
    let clicks = HINT_PLAN.map(|(x, y)| Cell::new(x, y));
    let steps = replay(&board, &clicks).unwrap();
    let hint = Hint {
        elapsed: Duration::ZERO,
        board: steps[2].board_after,
        clicks: 3,
        player_move: Some(steps[2]),
        plan: steps[3..].to_vec(),
        rules: Rules::CentreRows,
        proven_optimal: true,
        optimum: 12,
        optimum_proven: true,
        clicks_unseen: false,
        on_screen: Geometry::square(0.0, 0.0, 80.0, 8, 6),
        next_at: None,
    };
    assist::picture(&hint, &Look::nodiatis())
}

#[test]
fn the_readme_picture_of_the_hint_window_is_what_the_renderer_draws() {
    let board: Board = HINT_BOARD.parse().unwrap();
    let clicks = HINT_PLAN.map(|(x, y)| Cell::new(x, y));
    let steps = replay(&board, &clicks).unwrap();
    assert!(steps.last().unwrap().board_after.is_cleared());
    let outcome = solver::solve(&board, &SolveOptions::default(), &mut |_| {});
    assert!(outcome.proven_optimal);
    assert_eq!(
        outcome.length(),
        HINT_PLAN.len(),
        "the plan is a shortest one"
    );
    let path = repo("docs/hint-window.png");
    if std::env::var_os("DUSTBOT_REGENERATE_SAMPLES").is_some_and(|v| v == "1") {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        save_png(hint_window(), &path);
    }
    let committed = image::open(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .to_rgba8();
    let difference = mean_difference(&committed, &hint_window());
    assert!(
        difference <= 0.5,
        "{}: differs from the renderer by {difference:.2} per channel",
        path.display()
    );
}
