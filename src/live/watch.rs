//! Watching a board that holds still, cheaply: a [`Glance`] is a
//! signature of a few rows of pixels sampled across the board (or across
//! the window, while no board is on), taken where the board was, so that a
//! change on the screen is seen without the full capture, read and window
//! checks; and a [`Cadence`] says how often to glance and how often to do
//! the full check (the window's place, what covers it, the board read)
//! again: as fast as the settle loop right after a change, slower the
//! longer nothing changes. Pure, so that it is tested without a screen.

use std::hash::{DefaultHasher, Hasher};
use std::time::{Duration, Instant};

use image::RgbaImage;

use super::POLL;
use crate::desktop::Region;

/// How many rows of pixels a glance samples, spread evenly over the
/// rectangle watched: on the game's 8x6 board at any scale, several rows
/// cross every cell, so no cell changes unseen.
pub const ROWS: u32 = 24;

/// The longest time between glances, however long the board holds still:
/// a change is seen within it, within the game's animation of a click
/// (300 ms in the practice window), after which the reads come quick.
pub const GLANCE_AT_REST: Duration = Duration::from_millis(200);

/// The longest time between full checks while the board holds still: a
/// window moved or put in front without changing the board's pixels (on
/// the screen, hardly ever: a move changes what shows where the board
/// was, and a glance sees it) is seen within it.
pub const CHECK_AT_REST: Duration = Duration::from_secs(2);

/// The rows a glance samples of `area` (a rectangle of the client area):
/// [`ROWS`] rows one pixel high and as wide as `area`, or one per pixel
/// row of an area less high.
pub fn rows(area: Region) -> Vec<Region> {
    let count = ROWS.min(area.height);
    (0..count)
        .map(|i| Region {
            x: area.x,
            // The middle of the i-th of `count` equal bands.
            y: area.y + ((2 * i + 1) * area.height / (2 * count)) as i32,
            width: area.width,
            height: 1,
        })
        .collect()
}

/// A signature of the pixels of the sampled rows: equal glances show the
/// same pixels (but for a hash collision, one in 2^64).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Glance(u64);

impl Glance {
    /// The glance of the rows `rows(area)` captured one by one.
    pub fn of_rows(rows: &[RgbaImage]) -> Glance {
        let mut hasher = DefaultHasher::new();
        for row in rows {
            hasher.write_u32(row.width());
            hasher.write_u32(row.height());
            hasher.write(row.as_raw());
        }
        Glance(hasher.finish())
    }

    /// The glance of the rows of `image`, a capture of the whole of
    /// `area`: the same as [`Glance::of_rows`] of those rows captured
    /// alone.
    pub fn of_capture(image: &RgbaImage, area: Region) -> Glance {
        let cut: Vec<RgbaImage> = rows(Region { x: 0, y: 0, ..area })
            .iter()
            .filter(|row| (row.y as u32) < image.height() && row.width <= image.width())
            .map(|row| image::imageops::crop_imm(image, 0, row.y as u32, row.width, 1).to_image())
            .collect();
        Glance::of_rows(&cut)
    }
}

/// When to glance and when to check fully, from when the board last
/// changed: both every [`POLL`] right after a change, as the settle loop
/// reads; then further apart the longer it holds still, up to
/// [`GLANCE_AT_REST`] and [`CHECK_AT_REST`].
#[derive(Clone, Copy, Debug)]
pub struct Cadence {
    changed: Instant,
    checked: Option<Instant>,
}

impl Cadence {
    /// A board first seen (or changed) at `now`.
    pub fn new(now: Instant) -> Cadence {
        Cadence {
            changed: now,
            checked: None,
        }
    }

    /// Something changed at `at` (a glance differed, the board moved on):
    /// fast again.
    pub fn changed(&mut self, at: Instant) {
        self.changed = at;
    }

    /// A full check was made at `at`.
    pub fn checked(&mut self, at: Instant) {
        self.checked = Some(at);
    }

    /// Whether a full check is due at `now`.
    pub fn check_due(&self, now: Instant) -> bool {
        self.checked
            .is_none_or(|last| now.saturating_duration_since(last) >= self.check_gap(now))
    }

    /// How long after a glance (or a check) at `now` the next glance
    /// comes: a tenth of the time the board has held still, from [`POLL`]
    /// to [`GLANCE_AT_REST`].
    pub fn glance_gap(&self, now: Instant) -> Duration {
        (self.still(now) / 10).clamp(POLL, GLANCE_AT_REST)
    }

    /// How long after a full check the next one comes: a quarter of the
    /// time the board has held still, from [`POLL`] to [`CHECK_AT_REST`].
    fn check_gap(&self, now: Instant) -> Duration {
        (self.still(now) / 4).clamp(POLL, CHECK_AT_REST)
    }

    fn still(&self, now: Instant) -> Duration {
        now.saturating_duration_since(self.changed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(ms: u64) -> Duration {
        Duration::from_millis(ms)
    }

    fn picture(width: u32, height: u32) -> RgbaImage {
        RgbaImage::from_fn(width, height, |x, y| {
            image::Rgba([(x * 7) as u8, (y * 13) as u8, (x ^ y) as u8, 255])
        })
    }

    #[test]
    fn the_rows_spread_over_the_area_and_stay_inside() {
        let area = Region {
            x: 10,
            y: 20,
            width: 640,
            height: 480,
        };
        let rows = rows(area);
        assert_eq!(rows.len(), ROWS as usize);
        assert_eq!(rows[0].y, 30);
        assert_eq!(rows[ROWS as usize - 1].y, 490);
        // No two rows are more than a band (20 px) apart: a change of a
        // cell (80 px) crosses several.
        for pair in rows.windows(2) {
            assert_eq!(pair[1].y - pair[0].y, 20);
        }
        assert!(
            rows.iter()
                .all(|r| (r.x, r.width, r.height) == (10, 640, 1))
        );
        // An area lower than the rows: every pixel row once.
        let low = super::rows(Region { height: 5, ..area });
        let ys: Vec<i32> = low.iter().map(|r| r.y).collect();
        assert_eq!(ys, [20, 21, 22, 23, 24]);
    }

    #[test]
    fn a_glance_of_the_rows_alone_is_the_glance_of_the_whole_capture() {
        let image = picture(120, 90);
        let area = Region {
            x: 35,
            y: 12,
            width: 120,
            height: 90,
        };
        let alone: Vec<RgbaImage> = rows(area)
            .iter()
            .map(|r| {
                let y = (r.y - area.y) as u32;
                image::imageops::crop_imm(&image, 0, y, r.width, 1).to_image()
            })
            .collect();
        assert_eq!(Glance::of_rows(&alone), Glance::of_capture(&image, area));
    }

    #[test]
    fn a_glance_changes_with_a_pixel_of_a_sampled_row_only() {
        let area = Region::whole(120, 90);
        let image = picture(120, 90);
        let before = Glance::of_capture(&image, area);
        assert_eq!(Glance::of_capture(&image.clone(), area), before);
        let sampled = rows(area)[3].y as u32;
        let mut changed = image.clone();
        changed.put_pixel(77, sampled, image::Rgba([1, 2, 3, 255]));
        assert_ne!(Glance::of_capture(&changed, area), before);
        // A pixel between the rows is not looked at.
        let mut between = image.clone();
        between.put_pixel(77, sampled + 1, image::Rgba([1, 2, 3, 255]));
        assert_eq!(Glance::of_capture(&between, area), before);
        // A capture cut short (the window smaller) is another glance.
        let cut = image::imageops::crop_imm(&image, 0, 0, 120, 60).to_image();
        assert_ne!(Glance::of_capture(&cut, area), before);
    }

    #[test]
    fn the_cadence_is_fast_after_a_change_and_backs_off_while_still() {
        let t = Instant::now();
        let mut cadence = Cadence::new(t);
        assert!(cadence.check_due(t));
        assert_eq!(cadence.glance_gap(t), POLL);
        cadence.checked(t);
        assert!(!cadence.check_due(t + ms(40)));
        // Within 200 ms of the change, every glance checks fully.
        assert!(cadence.check_due(t + ms(50)));
        cadence.checked(t + ms(150));
        assert!(cadence.check_due(t + ms(200)));
        // Held still 2 s: glances every 200 ms, checks some 0.7 s apart.
        cadence.checked(t + ms(2000));
        assert_eq!(cadence.glance_gap(t + ms(2000)), GLANCE_AT_REST);
        assert!(!cadence.check_due(t + ms(2600)));
        assert!(cadence.check_due(t + ms(2700)));
        // Held still a minute: a check two seconds after the last.
        cadence.checked(t + ms(60_000));
        assert!(!cadence.check_due(t + ms(61_900)));
        assert!(cadence.check_due(t + ms(62_000)));
        assert_eq!(cadence.glance_gap(t + ms(62_000)), GLANCE_AT_REST);
        // A change: fast again.
        cadence.changed(t + ms(62_020));
        assert_eq!(cadence.glance_gap(t + ms(62_030)), POLL);
        assert!(cadence.check_due(t + ms(62_050)));
    }
}
