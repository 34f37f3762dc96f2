//! The benchmark's plot (`bot bench --plot`): each strategy's time to
//! proof against the solution's length, a point per board and strategy on
//! a log time axis, hollow where the strategy did not prove the board
//! within the time cap (drawn at the cap), with the cap as a line, axis
//! titles, tick labels and a legend. `plotters` lays out the chart and
//! draws it on its bitmap backend; its text goes through the bundled font
//! ([`super::font`]), so no font file or system font is needed.

use std::collections::HashMap;

use image::RgbImage;
use plotters::coord::Shift;
use plotters::coord::combinators::WithKeyPoints;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{Lettered, PlotError, TEXT_SIZE, picture, rgb, text};
use crate::render::font;

/// The picture's size in pixels.
pub const SIZE: (u32, u32) = (960, 640);

/// The series' colours, in order (the Okabe-Ito palette: told apart by
/// colour-blind readers too).
const COLOURS: [[u8; 3]; 4] = [[0, 114, 178], [230, 159, 0], [0, 158, 115], [204, 121, 167]];

/// The colour of the cap line and its label.
const CAP: [u8; 3] = [0, 0, 0];

/// The legend's example of a hollow point.
const UNPROVEN: [u8; 3] = [110, 110, 110];

/// Points' radius in pixels.
const RADIUS: u32 = 5;

/// The quickest time the axis shows: a proof may take no measurable time,
/// and a log axis has no 0.
const QUICKEST: f64 = 1e-6;

/// The fraction of a length's column that the series' lanes share; the
/// rest keeps neighbouring lengths apart.
const COLUMN: f64 = 0.8;

/// One board's result for one strategy.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    /// The solution's length in clicks.
    pub length: usize,
    /// The time to proof; the cap for a board left unproven.
    pub seconds: f64,
    pub proven: bool,
}

/// One strategy's points, a point per board.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    pub name: String,
    pub points: Vec<Point>,
}

/// What the plot shows.
#[derive(Clone, Debug, PartialEq)]
pub struct Plot {
    pub title: String,
    /// The time cap, in seconds.
    pub cap: f64,
    pub series: Vec<Series>,
}

/// The plot as a picture of [`SIZE`].
pub fn plot(plot: &Plot) -> Result<RgbImage, PlotError> {
    picture(SIZE, |root| draw(root, plot))
}

/// The chart's coordinates: lengths across, seconds up on a log scale
/// with a tick at every power of ten.
type LogCoords = Cartesian2d<RangedCoordf64, WithKeyPoints<LogCoord<f64>>>;

fn draw(root: &DrawingArea<Lettered<'_>, Shift>, plot: &Plot) -> Result<(), PlotError> {
    root.fill(&WHITE)?;
    let mut chart = axes(root, plot)?;
    let (left, right) = (chart.x_range().start, chart.x_range().end);
    // As many ticks as lengths: plotters then ticks every length, no
    // halves (it takes the finest step of 1, 2 or 5 that fits).
    let lengths = (right - left).round() as usize;
    chart
        .configure_mesh()
        .x_desc("solution length (clicks)")
        .y_desc("time to proof")
        .x_labels(lengths)
        .x_max_light_lines(0)
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| seconds(*y))
        .label_style(text(BLACK))
        .axis_desc_style(text(BLACK))
        .draw()?;

    let cap = rgb(CAP);
    chart.draw_series(std::iter::once(PathElement::new(
        vec![(left, plot.cap), (right, plot.cap)],
        cap.stroke_width(2),
    )))?;
    // At the left: the short, quick boards stay below the cap, and the
    // unproven ones that sit on it are the long ones, on the right.
    let (x, y) = chart.backend_coord(&(left, plot.cap));
    root.draw(&Text::new(
        format!("cap {}", seconds(plot.cap)),
        (x + 8, y - 4),
        text(cap).pos(Pos::new(HPos::Left, VPos::Bottom)),
    ))?;

    for (s, places) in placed(plot).into_iter().enumerate() {
        let colour = rgb(colour(s));
        for (x, y, proven) in places {
            mark(chart.plotting_area(), (x, y), colour, proven)?;
        }
    }
    let (across, down) = chart.plotting_area().get_pixel_range();
    legend(root, plot, (across.end, down.end))?;
    Ok(())
}

/// The legend, its lower right corner near `corner` (the plotting area's):
/// the series' markers and names, and what a hollow point means. Drawn
/// here, not by `plotters`, which sizes it from a font file's metrics.
fn legend(
    root: &DrawingArea<Lettered<'_>, Shift>,
    plot: &Plot,
    corner: (i32, i32),
) -> Result<(), PlotError> {
    let mut entries: Vec<(&str, RGBColor, bool)> = plot
        .series
        .iter()
        .enumerate()
        .map(|(s, series)| (series.name.as_str(), rgb(colour(s)), true))
        .collect();
    entries.push(("hollow: not proven within the cap", rgb(UNPROVEN), false));
    let size = TEXT_SIZE as f32;
    let line = font::line_height(size).round() as i32 + 2;
    let widest = entries
        .iter()
        .map(|(name, ..)| font::text_size(name, size).0 as i32)
        .max()
        .unwrap_or(0);
    let (pad, indent) = (10, 24);
    let size = (
        widest + indent + 2 * pad,
        line * entries.len() as i32 + 2 * pad,
    );
    // Long boards take long: the lower right stays empty.
    let top_left = (corner.0 - 12 - size.0, corner.1 - 12 - size.1);
    let bottom_right = (top_left.0 + size.0, top_left.1 + size.1);
    root.draw(&Rectangle::new([top_left, bottom_right], WHITE.filled()))?;
    root.draw(&Rectangle::new([top_left, bottom_right], BLACK))?;
    for (i, (name, colour, proven)) in entries.into_iter().enumerate() {
        let y = top_left.1 + pad + i as i32 * line + line / 2;
        mark(root, (top_left.0 + pad + 6, y), colour, proven)?;
        root.draw(&Text::new(
            name,
            (top_left.0 + pad + indent, y),
            text(BLACK).pos(Pos::new(HPos::Left, VPos::Center)),
        ))?;
    }
    Ok(())
}

/// Draws a point's marker: a dot, or a ring with a white inside for a
/// board left unproven (it shows over the cap line that such points sit
/// on).
fn mark<C: CoordTranslate>(
    area: &DrawingArea<Lettered<'_>, C>,
    at: C::From,
    colour: RGBColor,
    proven: bool,
) -> Result<(), PlotError>
where
    C::From: Clone,
{
    if proven {
        area.draw(&Circle::new(at, RADIUS, colour.filled()))?;
    } else {
        area.draw(&Circle::new(at.clone(), RADIUS, WHITE.filled()))?;
        area.draw(&Circle::new(at, RADIUS, colour.stroke_width(2)))?;
    }
    Ok(())
}

/// Series `s`'s colour.
fn colour(s: usize) -> [u8; 3] {
    COLOURS[s % COLOURS.len()]
}

/// The chart's frame and coordinates on `root`, the title above.
fn axes<'a, 'b>(
    root: &'a DrawingArea<Lettered<'b>, Shift>,
    plot: &Plot,
) -> Result<ChartContext<'a, Lettered<'b>, LogCoords>, PlotError> {
    let lengths = plot.series.iter().flat_map(|s| &s.points).map(|p| p.length);
    let shortest = lengths.clone().min().unwrap_or(0);
    let longest = lengths.max().unwrap_or(shortest);
    let x = shortest as f64 - 0.5..longest as f64 + 0.5;
    let (low, high) = decades(plot);
    let y = (10f64.powi(low)..10f64.powi(high))
        .log_scale()
        .with_key_points((low..=high).map(|d| 10f64.powi(d)).collect());
    Ok(ChartBuilder::on(root)
        .caption(&plot.title, text(BLACK))
        .margin(16)
        .x_label_area_size(56)
        .y_label_area_size(112)
        .build_cartesian_2d(x, y)?)
}

/// The powers of ten the time axis spans: from below the quickest proof
/// to above the cap, with room for a point's marker at either end.
fn decades(plot: &Plot) -> (i32, i32) {
    let quickest = plot
        .series
        .iter()
        .flat_map(|s| &s.points)
        .map(|p| p.seconds)
        .fold(plot.cap, f64::min)
        .max(QUICKEST);
    let slowest = plot
        .series
        .iter()
        .flat_map(|s| &s.points)
        .map(|p| p.seconds)
        .fold(plot.cap, f64::max);
    let low = (quickest.log10() - 0.25).floor() as i32;
    let high = (slowest.log10() + 0.25).ceil() as i32;
    (low, high.max(low + 1))
}

/// Where each series' points go: `(x, seconds, proven)`, x beside the
/// length so that no two points of a length coincide: each series has its
/// own lane in the length's column, and a lane's points at one length
/// spread evenly across it, in board order.
fn placed(plot: &Plot) -> Vec<Vec<(f64, f64, bool)>> {
    let lanes = plot.series.len().max(1) as f64;
    let lane = COLUMN / lanes;
    plot.series
        .iter()
        .enumerate()
        .map(|(s, series)| {
            let centre = (s as f64 + 0.5) * lane - COLUMN / 2.0;
            let mut count: HashMap<usize, usize> = HashMap::new();
            for p in &series.points {
                *count.entry(p.length).or_default() += 1;
            }
            let mut seen: HashMap<usize, usize> = HashMap::new();
            series
                .points
                .iter()
                .map(|p| {
                    let rank = seen.entry(p.length).or_default();
                    let spread =
                        ((*rank as f64 + 0.5) / count[&p.length] as f64 - 0.5) * lane * 0.8;
                    *rank += 1;
                    let y = p.seconds.max(QUICKEST);
                    (p.length as f64 + centre + spread, y, p.proven)
                })
                .collect()
        })
        .collect()
}

/// A time axis label: "10 µs", "1 ms", "100 ms", "10 s".
fn seconds(secs: f64) -> String {
    let (value, unit) = if secs >= 1.0 {
        (secs, "s")
    } else if secs >= 1e-3 {
        (secs * 1e3, "ms")
    } else {
        (secs * 1e6, "µs")
    };
    // Powers of ten and caps print whole; a fractional cap keeps its digits.
    let rounded = (value * 1e3).round() / 1e3;
    format!("{rounded} {unit}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(length: usize, seconds: f64, proven: bool) -> Point {
        Point {
            length,
            seconds,
            proven,
        }
    }

    fn sample() -> Plot {
        Plot {
            title: "bot bench: 4 boards, seed 2021, rules centre-rows, cap 10 s".into(),
            cap: 10.0,
            series: vec![
                Series {
                    name: "optimal".into(),
                    points: vec![
                        point(10, 0.001, true),
                        point(11, 0.01, true),
                        point(12, 0.1, true),
                        point(14, 10.0, false),
                    ],
                },
                Series {
                    name: "shortlook".into(),
                    points: vec![
                        point(10, 0.5, true),
                        point(11, 10.0, false),
                        point(12, 10.0, false),
                        point(13, 10.0, false),
                    ],
                },
            ],
        }
    }

    /// A point's pixel and whether it is proven.
    type Pixel = (i32, i32, bool);

    /// Where `plot`'s points land in pixels, per series, and the cap's
    /// row, through the same axes as [`plot`] draws.
    fn pixels(plot: &Plot) -> (Vec<Vec<Pixel>>, i32) {
        let mut buffer = vec![255; SIZE.0 as usize * SIZE.1 as usize * 3];
        let root = Lettered(BitMapBackend::with_buffer(&mut buffer, SIZE)).into_drawing_area();
        let chart = axes(&root, plot).unwrap();
        let points = placed(plot)
            .into_iter()
            .map(|places| {
                places
                    .into_iter()
                    .map(|(x, y, proven)| {
                        let (px, py) = chart.backend_coord(&(x, y));
                        (px, py, proven)
                    })
                    .collect()
            })
            .collect();
        let (_, cap) = chart.backend_coord(&(chart.x_range().start, plot.cap));
        (points, cap)
    }

    #[test]
    fn times_go_on_a_log_axis_and_lengths_left_to_right() {
        let (points, cap) = pixels(&sample());
        let optimal = &points[0];
        // 1 ms, 10 ms, 100 ms: a decade apart, the same height apart.
        let step = optimal[0].1 - optimal[1].1;
        assert!(step > 50, "{optimal:?}");
        assert!(
            (optimal[1].1 - optimal[2].1 - step).abs() <= 1,
            "{optimal:?}"
        );
        // 100 ms to the 10 s cap is two decades.
        assert!(
            (optimal[2].1 - cap - 2 * step).abs() <= 2,
            "{optimal:?} {cap}"
        );
        assert_eq!(optimal[3].1, cap, "an unproven board sits on the cap");
        assert!(optimal.windows(2).all(|w| w[0].0 < w[1].0), "{optimal:?}");
    }

    #[test]
    fn points_of_one_length_stand_apart() {
        let mut plot = sample();
        plot.series[0].points = vec![point(12, 0.1, true); 3];
        let places = placed(&plot);
        let xs: Vec<f64> = places[0].iter().map(|p| p.0).collect();
        assert!(xs.windows(2).all(|w| w[1] - w[0] > 0.05), "{xs:?}");
        // Each series keeps to its lane of the length's column.
        assert!(xs.iter().all(|x| (11.6..12.0).contains(x)), "{xs:?}");
        let other = places[1][2].0;
        assert!((12.0..12.4).contains(&other), "{other}");
    }

    #[test]
    fn every_point_is_drawn_in_its_series_colour_and_the_cap_as_a_line() {
        let plot = sample();
        let picture = plot_picture(&plot);
        let (points, cap) = pixels(&plot);
        for (s, series) in points.iter().enumerate() {
            let colour = colour(s);
            for &(x, y, proven) in series {
                let centre = picture.get_pixel(x as u32, y as u32).0;
                let r = RADIUS as i32;
                let ring = (-r..=r)
                    .flat_map(|dy| (-r..=r).map(move |dx| (x + dx, y + dy)))
                    .filter(|&(px, py)| picture.get_pixel(px as u32, py as u32).0 == colour)
                    .count();
                if proven {
                    assert_eq!(centre, colour, "series {s} at ({x}, {y})");
                } else {
                    assert_eq!(centre, [255, 255, 255], "hollow at ({x}, {y})");
                    assert!(ring >= 8, "series {s}'s ring at ({x}, {y}): {ring} pixels");
                }
            }
        }
        // The cap line spans the plotting area, between the points on it.
        let (left, right) = (points[0][0].0, points[0][3].0);
        let on_line = (left..right)
            .filter(|&x| picture.get_pixel(x as u32, cap as u32).0 == CAP)
            .count();
        assert!(
            on_line as i32 > (right - left) * 9 / 10,
            "{on_line} of {}",
            right - left
        );
        // Its label sits above it at the left: it inks some pixels nearly
        // in the cap's colour (the font's edges are blended).
        let label = (left..left + 100)
            .flat_map(|x| (cap - 20..cap - 4).map(move |y| (x, y)))
            .filter(|&(x, y)| {
                let pixel = picture.get_pixel(x as u32, y as u32).0;
                pixel.iter().zip(CAP).all(|(p, c)| p.abs_diff(c) < 60)
            })
            .count();
        assert!(label > 20, "{label}");
    }

    #[test]
    fn the_legend_shows_each_series_marker() {
        let picture = plot_picture(&sample());
        // The lower right quarter holds the legend and none of the points.
        for s in 0..2 {
            let found = (SIZE.0 / 2..SIZE.0)
                .flat_map(|x| (SIZE.1 * 3 / 4..SIZE.1).map(move |y| (x, y)))
                .any(|(x, y)| picture.get_pixel(x, y).0 == colour(s));
            assert!(found, "series {s}");
        }
    }

    #[test]
    fn the_time_axis_spans_the_points_and_the_cap() {
        assert_eq!(decades(&sample()), (-4, 2));
        let mut plot = sample();
        plot.series.clear();
        plot.cap = 0.5;
        assert_eq!(decades(&plot), (-1, 0));
        plot.series.push(Series {
            name: "optimal".into(),
            points: vec![point(11, 0.0, true)],
        });
        assert_eq!(decades(&plot).0, -7, "no log of 0");
        assert_eq!(seconds(1e-4), "100 µs");
        assert_eq!(seconds(0.01), "10 ms");
        assert_eq!(seconds(10.0), "10 s");
        assert_eq!(seconds(2.5), "2.5 s");
    }

    #[test]
    fn an_empty_plot_still_draws() {
        let plot = Plot {
            title: String::new(),
            cap: 1.0,
            series: Vec::new(),
        };
        assert_eq!(plot_picture(&plot).dimensions(), SIZE);
    }

    fn plot_picture(p: &Plot) -> RgbImage {
        plot(p).unwrap()
    }
}
