//! Vision speed on a 1280x800 window capture: the real screenshot in a
//! game-like window (and each bundled sample, if any). Reports medians of
//! finding + reading (no geometry known), reading at the stored
//! geometry (the live fast path), and the swamp check live play adds to
//! each frame.
//!
//!     cargo bench --bench vision

#[path = "../tests/suite/vision_support/mod.rs"]
mod vision_support;

use std::time::{Duration, Instant};

use dustbot::vision::{self, Calibration};
use image::RgbaImage;
use vision_support::*;

const RUNS: usize = 200;

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn time(mut work: impl FnMut()) -> Duration {
    work(); // warm-up: tables and caches
    median(
        (0..RUNS)
            .map(|_| {
                let start = Instant::now();
                work();
                start.elapsed()
            })
            .collect(),
    )
}

fn bench(name: &str, capture: &RgbaImage, calibration: &Calibration) {
    let reading = vision::read(capture, calibration, None).expect("a board");
    assert!(reading.board().is_ok(), "{name}: reads exactly");
    let geometry = reading.geometry;
    let find = time(|| {
        vision::read(capture, calibration, None).unwrap();
    });
    let stored = time(|| {
        vision::read(capture, calibration, Some(&geometry)).unwrap();
    });
    // What live play and assist mode add to each frame: the board's
    // corners held against the swamp the game showed at its start.
    let swamp = vision::Swamp::of(capture, &geometry);
    assert_eq!(swamp.seen_in(capture, &geometry), 1.0, "{name}");
    let corners = time(|| {
        swamp.seen_in(capture, &geometry);
    });
    println!(
        "{name} ({}x{}): find + read median {:.2} ms, read at stored geometry median {:.2} ms, swamp check median {:.3} ms ({RUNS} runs)",
        capture.width(),
        capture.height(),
        find.as_secs_f64() * 1e3,
        stored.as_secs_f64() * 1e3,
        corners.as_secs_f64() * 1e3
    );
}

fn main() {
    let calibration = Calibration::load(&repo("calibration/nodiatis.toml")).unwrap();
    let (image, _) = real();
    bench(
        "real screenshot in a 1280x800 window",
        &in_window(&image, 1.0, (1280, 800), (320, 150)),
        &calibration,
    );
    bench(
        "real screenshot at 0.5x in a 1280x800 window",
        &in_window(&image, 0.5, (1280, 800), (500, 300)),
        &calibration,
    );
    for (path, sample, _) in samples() {
        let capture = if sample.dimensions() == (1280, 800) {
            sample
        } else {
            in_window(
                &sample,
                1.0,
                (1280.max(sample.width()), 800.max(sample.height())),
                (0, 0),
            )
        };
        bench(&path.display().to_string(), &capture, &calibration);
    }
}
