//! Renderer speed: a practice window's set-up (swamp and pile sprites)
//! and one animation frame (a full board of piles, some between cells and
//! fading), which must fit well inside the window's 120 Hz polling; a whole
//! sample screenshot; and a dry run's two pictures. Medians.
//!
//!     cargo bench --bench render

use std::time::{Duration, Instant};

use dustbot::game::{Board, Cell};
use dustbot::practice::{Drawn, Painter, Scene, layout};
use dustbot::render::{self, Canvas, Look, Shot, Surround};
use dustbot::solver::{self, SolveOptions};
use dustbot::vision::{self, Calibration};

const REAL: &str = "GGGGBOYO,RORGYGBY,RRBGOORG,BRBOBYRG,BRYBBRGG,OYGGRORG";

fn median(mut work: impl FnMut(), runs: usize) -> Duration {
    work(); // warm-up: tables and caches
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            work();
            start.elapsed()
        })
        .collect();
    times.sort();
    times[runs / 2]
}

fn report(what: &str, time: Duration, runs: usize) {
    println!(
        "{what}: median {:.2} ms ({runs} runs)",
        time.as_secs_f64() * 1e3
    );
}

fn main() {
    let board: Board = REAL.parse().unwrap();
    let look = Look::nodiatis();
    for scale in [1.0, 2.0] {
        let (geometry, size) = layout(&board, scale);
        let runs = 20;
        let setup = median(|| drop(Painter::new(&geometry, size, &look)), runs);
        report(
            &format!("practice window {scale}x {size:?}: set-up"),
            setup,
            runs,
        );
        let painter = Painter::new(&geometry, size, &look);
        // Mid-animation: every pile drawn, some between cells, some fading.
        let mut tiles = render::tiles(&board);
        for (i, tile) in tiles.iter_mut().enumerate() {
            if i % 3 == 0 {
                tile.y -= 0.4;
                tile.x += 0.3;
            }
            if i % 5 == 0 {
                tile.alpha = 0.5;
            }
        }
        let scene = Scene {
            drawn: Drawn {
                tiles,
                ..Drawn::default()
            },
            clicks: 4,
            cleared: false,
        };
        let mut frame = Canvas::new(0, 0, [0, 0, 0]);
        let runs = 200;
        let paint = median(|| painter.paint(&scene, &mut frame), runs);
        report(&format!("practice window {scale}x: one frame"), paint, runs);
    }
    let shot = Shot {
        scale: 1.0,
        surround: Surround::Window,
        seed: 1,
    };
    let runs = 20;
    let screenshot = median(|| drop(render::screenshot(&board, &look, &shot)), runs);
    report(
        "sample screenshot, 1x board in a 1280x800 window",
        screenshot,
        runs,
    );
    let image = render::screenshot(&board, &look, &shot).0.to_image();
    let calibration = Calibration::load(&Calibration::default_path()).unwrap();
    let reading = vision::read(&image, &calibration, None).unwrap();
    assert_eq!(reading.board().unwrap(), board, "the sample reads exactly");
    let outcome = solver::solve(&board, &SolveOptions::default(), &mut |_| {});
    let clicks: Vec<Cell> = outcome.moves.iter().map(|s| s.cell).collect();
    let marks: Vec<render::CellMark> = reading.marks().map(Into::into).collect();
    let annotate = median(
        || drop(render::annotate(&image, &reading.geometry, &marks, &clicks)),
        runs,
    );
    report("dry run: annotated 1280x800 picture", annotate, runs);
    let story = median(
        || drop(render::storyboard(&board, &outcome.moves, &look)),
        runs,
    );
    report(
        &format!("dry run: storyboard of {} moves", outcome.length()),
        story,
        runs,
    );
}
