//! The player's record as a picture (`bot stats --plot`). Above: each
//! game's clicks over the optimum in the order played, a dot coloured by
//! whether the game earned the reward, a cross in a row of its own at the
//! top for a game left uncleared (its clicks cleared nothing, so they are
//! over no optimum), and the mean of the last [`WINDOW`] cleared games as
//! a line: the trend. Below: the share of the last [`WINDOW`] games that
//! earned the reward, and of all games, in percent. Painted as the
//! benchmark's plot is ([`super::plot`]), on a page ([`Sheet::PAGE`]) or
//! laid out for a window's size and text ([`trend_on`]): the margins
//! follow the text, the key takes as many rows as the width needs.

use image::RgbImage;
use plotters::coord::Shift;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{Lettered, PlotError, TEXT_SIZE, picture, rgb, text_sized};
use crate::render::font;

/// The picture's size in pixels.
pub const SIZE: (u32, u32) = (960, 720);

/// How many games the trend lines average: recent enough to show
/// progress, enough to smooth one unlucky board.
pub const WINDOW: usize = 10;

/// The colours (the Okabe-Ito palette, told apart by colour-blind readers
/// too): a game with the reward, one cleared without it, one not
/// cleared, and the trend line.
const REWARD: [u8; 3] = [0, 158, 115];
const NO_REWARD: [u8; 3] = [230, 159, 0];
const NOT_CLEARED: [u8; 3] = [213, 94, 0];
const TREND: [u8; 3] = [0, 114, 178];

/// The optimum's line, and the reward rate of all games.
const GUIDE: [u8; 3] = [110, 110, 110];

/// The title's em, in pixels.
const TITLE_SIZE: f64 = 22.0;

/// The height of the title and the key above the charts, on the page:
/// at least.
const HEAD: u32 = 80;

/// The room right of the charts, for the lower one's labels (the upper
/// one keeps the same, so that a game is at one place across in both),
/// on the page.
const MARGIN_RIGHT: u32 = 130;

/// What the picture is drawn on: its size in pixels and its text's em;
/// every length of the layout follows the text (a page's lengths times
/// the text over the page's).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sheet {
    pub size: (u32, u32),
    pub text: f64,
}

impl Sheet {
    /// A page: `bot stats --plot`'s picture.
    pub const PAGE: Sheet = Sheet {
        size: SIZE,
        text: TEXT_SIZE,
    };

    /// A page's length of `pixels`, on this sheet.
    fn px(self, pixels: f64) -> i32 {
        (pixels * self.text / TEXT_SIZE).round() as i32
    }

    fn width(self) -> i32 {
        self.size.0 as i32
    }

    /// Text of this sheet's size in `colour`.
    fn text(self, colour: RGBColor) -> TextStyle<'static> {
        text_sized(colour, self.text)
    }

    /// The title's em: on a narrow sheet, little above the text's (it
    /// takes two lines there as it is).
    fn title(self) -> f64 {
        match self.narrow() {
            true => self.text * 1.1,
            false => TITLE_SIZE * self.text / TEXT_SIZE,
        }
    }

    /// A sheet as narrow as a window beside the game (the app's is 352
    /// pixels at 100%): the key and the axes in fewer words, fewer ticks.
    fn narrow(self) -> bool {
        f64::from(self.size.0) < 40.0 * self.text
    }

    /// `long` on a wide sheet, `short` on a narrow one.
    fn words(self, long: &'static str, short: &'static str) -> &'static str {
        if self.narrow() { short } else { long }
    }

    fn line(self, size: f64) -> i32 {
        font::line_height(size as f32).ceil() as i32
    }
}

/// The share of the charts' height that the upper one takes.
const UPPER: f64 = 0.58;

/// One game, as the picture shows it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Dot {
    /// Clicks over the optimum, for a cleared game.
    pub over_optimum: Option<i64>,
    pub reward: bool,
}

/// What the picture shows.
#[derive(Clone, Debug, PartialEq)]
pub struct Trend {
    pub title: String,
    /// The most clicks that earn the reward, for the lower chart's title.
    pub reward_clicks: usize,
    /// In the order played.
    pub games: Vec<Dot>,
}

/// The picture of `trend` on a page, of [`SIZE`].
pub fn trend(trend: &Trend) -> Result<RgbImage, PlotError> {
    trend_on(trend, Sheet::PAGE)
}

/// The picture of `trend` laid out on `sheet` (a window's picture, its
/// text as big as the window's).
pub fn trend_on(trend: &Trend, sheet: Sheet) -> Result<RgbImage, PlotError> {
    picture(sheet.size, |root| draw(root, trend, sheet))
}

type Area<'a> = DrawingArea<Lettered<'a>, Shift>;
type Painted = Result<(), PlotError>;
type LinearCoords = Cartesian2d<RangedCoordf64, RangedCoordf64>;
type Chart<'a, 'b> = ChartContext<'a, Lettered<'b>, LinearCoords>;

fn draw(root: &Area<'_>, trend: &Trend, sheet: Sheet) -> Result<(), PlotError> {
    root.fill(&WHITE)?;
    let title = title_lines(&trend.title, sheet);
    let rows = key_rows(sheet);
    let (head, upper, lower) = layout(root, sheet, head_height(sheet, &title, &rows));
    let mut y = sheet.px(12.0);
    for line in &title {
        head.draw(&Text::new(
            line.clone(),
            (sheet.width() / 2, y),
            text_sized(BLACK, sheet.title()).pos(Pos::new(HPos::Center, VPos::Top)),
        ))?;
        y += sheet.line(sheet.title());
    }
    if trend.games.is_empty() {
        root.draw(&Text::new(
            "No games in the log yet: hints and play record each game",
            (sheet.width() / 2, sheet.size.1 as i32 / 2),
            sheet.text(BLACK).pos(Pos::new(HPos::Center, VPos::Center)),
        ))?;
        return Ok(());
    }
    key(&head, sheet, &rows, key_top(sheet, &title))?;
    draw_upper(root, &upper, trend, sheet)?;
    draw_lower(root, &lower, trend, sheet)?;
    Ok(())
}

/// The title above, the two charts below the title and the key, the
/// head `head` pixels tall.
fn layout<'a>(root: &Area<'a>, sheet: Sheet, head: u32) -> (Area<'a>, Area<'a>, Area<'a>) {
    let (head_area, charts) = root.split_vertically(head);
    let split = (f64::from(sheet.size.1.saturating_sub(head)) * UPPER).round() as u32;
    let (upper, lower) = charts.split_vertically(split);
    (head_area, upper, lower)
}

/// The title in lines as wide as the sheet at most, broken between words.
fn title_lines(title: &str, sheet: Sheet) -> Vec<String> {
    let size = sheet.title() as f32;
    let room = i64::from(sheet.width() - 2 * sheet.px(16.0));
    let mut lines: Vec<String> = Vec::new();
    for word in title.split(' ') {
        match lines.last_mut() {
            Some(line) if font::text_width(&format!("{line} {word}"), size) <= room => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_owned()),
        }
    }
    lines
}

/// Where the key's first row is centred across, under the title.
fn key_top(sheet: Sheet, title: &[String]) -> i32 {
    let below_title = sheet.px(12.0) + title.len() as i32 * sheet.line(sheet.title());
    // On the page, where it always was.
    (below_title + sheet.px(8.0) + sheet.line(sheet.text) / 2).max(sheet.px(58.0))
}

/// The head's height: the title, the key's rows, room under them.
fn head_height(sheet: Sheet, title: &[String], rows: &[Vec<usize>]) -> u32 {
    let last = key_top(sheet, title) + (rows.len() as i32 - 1) * key_pitch(sheet);
    let head = last + sheet.line(sheet.text) / 2 + sheet.px(10.0);
    (head.max(sheet.px(f64::from(HEAD))) as u32).min(sheet.size.1 / 3)
}

/// The distance between two rows of the key.
fn key_pitch(sheet: Sheet) -> i32 {
    sheet.line(sheet.text) + sheet.px(6.0)
}

/// The key's entries: what a dot's colour, a cross and the line mean.
fn key_entries(sheet: Sheet) -> [(Marker, String); 4] {
    let mean = match sheet.narrow() {
        true => format!("Mean of last {WINDOW}"),
        false => format!("Mean of the last {WINDOW} cleared games"),
    };
    [
        (
            Marker::Dot(REWARD),
            sheet.words("Reward earned", "Reward").to_owned(),
        ),
        (
            Marker::Dot(NO_REWARD),
            sheet.words("Cleared, no reward", "No reward").to_owned(),
        ),
        (Marker::Cross, "Not cleared".to_owned()),
        (Marker::Line, mean),
    ]
}

/// An entry's width on `sheet`, its marker's room and the gap after it
/// left out.
fn entry_width(name: &str, sheet: Sheet) -> i32 {
    font::text_size(name, sheet.text as f32).0 as i32
}

/// The key's entries in rows as wide as the sheet at most (one row on
/// the page), by their index.
fn key_rows(sheet: Sheet) -> Vec<Vec<usize>> {
    let (marker, gap) = (sheet.px(26.0), sheet.px(30.0));
    let room = sheet.width() - 2 * sheet.px(8.0);
    let mut rows: Vec<(Vec<usize>, i32)> = Vec::new();
    for (i, (_, name)) in key_entries(sheet).iter().enumerate() {
        let width = marker + entry_width(name, sheet);
        match rows.last_mut() {
            Some((row, used)) if *used + gap + width <= room => {
                row.push(i);
                *used += gap + width;
            }
            _ => rows.push((vec![i], width)),
        }
    }
    rows.into_iter().map(|(row, _)| row).collect()
}

/// The key, its rows centred under the title, the first at `top`.
fn key(head: &Area<'_>, sheet: Sheet, rows: &[Vec<usize>], top: i32) -> Result<(), PlotError> {
    let entries = key_entries(sheet);
    let (marker, gap) = (sheet.px(26.0), sheet.px(30.0));
    let mut y = top;
    for row in rows {
        let widths: Vec<i32> = row
            .iter()
            .map(|&i| entry_width(&entries[i].1, sheet))
            .collect();
        let total = widths.iter().sum::<i32>() + (marker + gap) * row.len() as i32 - gap;
        let mut x = (sheet.width() - total) / 2;
        for (&i, width) in row.iter().zip(widths) {
            let (kind, name) = &entries[i];
            kind.draw(head, (x + sheet.px(8.0), y), sheet.px(5.0).max(2))?;
            head.draw(&Text::new(
                name.clone(),
                (x + marker, y),
                sheet.text(BLACK).pos(Pos::new(HPos::Left, VPos::Center)),
            ))?;
            x += marker + width + gap;
        }
        y += key_pitch(sheet);
    }
    Ok(())
}

/// How a game or a line is marked.
#[derive(Clone, Copy)]
enum Marker {
    Dot([u8; 3]),
    Cross,
    Line,
}

impl Marker {
    /// Draws the marker centred at `(x, y)` of `area`, `radius` pixels
    /// from its centre.
    fn draw(self, area: &Area<'_>, (x, y): (i32, i32), radius: i32) -> Result<(), PlotError> {
        match self {
            Marker::Dot(colour) => {
                area.draw(&Circle::new((x, y), radius, rgb(colour).filled()))?;
            }
            Marker::Cross => {
                area.draw(&Cross::new(
                    (x, y),
                    radius,
                    rgb(NOT_CLEARED).stroke_width(2),
                ))?;
            }
            Marker::Line => {
                area.draw(&PathElement::new(
                    vec![(x - 2 * radius, y), (x + 2 * radius, y)],
                    rgb(TREND).stroke_width(3),
                ))?;
            }
        }
        Ok(())
    }
}

/// The clicks over the optimum that the upper chart's rows span, lowest
/// and highest: the games' and 0 to 2 at least (a player who always hits
/// the optimum still sees what above it would look like). Uncleared
/// games have the row above the highest.
fn over_range(trend: &Trend) -> (i64, i64) {
    let over = trend.games.iter().filter_map(|g| g.over_optimum);
    let low = over.clone().min().unwrap_or(0).min(0);
    let high = over.max().unwrap_or(0).max(2);
    (low, high)
}

/// The row of the uncleared games.
fn not_cleared_row(trend: &Trend) -> f64 {
    over_range(trend).1 as f64 + 1.0
}

/// The games across, from 1, as `plotters` is asked to tick them: every
/// game while they are few, steps of 2, 5, 10... when many.
fn game_axis(trend: &Trend) -> (std::ops::Range<f64>, usize) {
    let games = trend.games.len().max(1);
    (0.5..games as f64 + 0.5, games.min(12))
}

fn upper_axes<'a, 'b>(
    area: &'a Area<'b>,
    trend: &Trend,
    sheet: Sheet,
) -> Result<Chart<'a, 'b>, PlotError> {
    let (low, _) = over_range(trend);
    let (x, _) = game_axis(trend);
    Ok(ChartBuilder::on(area)
        .margin_left(sheet.px(16.0))
        .margin_right(sheet.px(f64::from(MARGIN_RIGHT)))
        .margin_top(sheet.px(8.0))
        .x_label_area_size(sheet.px(32.0))
        .y_label_area_size(label_room(sheet))
        .build_cartesian_2d(x, low as f64 - 0.5..not_cleared_row(trend) + 0.5)?)
}

fn lower_axes<'a, 'b>(
    area: &'a Area<'b>,
    trend: &Trend,
    sheet: Sheet,
) -> Result<Chart<'a, 'b>, PlotError> {
    let (x, _) = game_axis(trend);
    Ok(ChartBuilder::on(area)
        .caption(lower_caption(trend, sheet), sheet.text(BLACK))
        .margin_left(sheet.px(16.0))
        .margin_right(sheet.px(f64::from(MARGIN_RIGHT)))
        .margin_bottom(sheet.px(8.0))
        .x_label_area_size(sheet.px(if sheet.narrow() { 32.0 } else { 56.0 }))
        .y_label_area_size(label_room(sheet))
        .build_cartesian_2d(x, -4.0..104.0)?)
}

/// The room left of the charts: the tick labels, the axis's title
/// turned up its side, and the uncleared games' row named beside them.
fn label_room(sheet: Sheet) -> i32 {
    let named = font::text_width("Not cleared", sheet.text as f32) as i32;
    sheet
        .px(120.0)
        .max(named + sheet.px(12.0) + sheet.line(sheet.text))
}

/// The lower chart's title, in fewer words where the sheet is narrow.
fn lower_caption(trend: &Trend, sheet: Sheet) -> String {
    let clicks = trend.reward_clicks;
    let long = format!("Share of games with the reward (cleared in {clicks} clicks or fewer)");
    if font::text_width(&long, sheet.text as f32) <= i64::from(sheet.width()) {
        long
    } else {
        format!("Reward rate ({clicks} clicks or fewer)")
    }
}

fn draw_upper(root: &Area<'_>, area: &Area<'_>, trend: &Trend, sheet: Sheet) -> Painted {
    let mut chart = upper_axes(area, trend, sheet)?;
    let (low, high) = over_range(trend);
    let row = not_cleared_row(trend);
    let (x, ticks) = game_axis(trend);
    chart
        .configure_mesh()
        .x_labels(ticks)
        // One tick per row while they are few (a row per click), the
        // uncleared games' row among them, unlabelled.
        .y_labels(((high - low + 2) as usize).min(if sheet.narrow() { 6 } else { 12 }))
        .x_max_light_lines(0)
        .y_max_light_lines(0)
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| {
            if *y > high as f64 + 0.5 {
                String::new()
            } else {
                signed(*y)
            }
        })
        .y_desc(sheet.words("Clicks over the optimum", "Over optimum"))
        .label_style(sheet.text(BLACK))
        .axis_desc_style(sheet.text(BLACK))
        .draw()?;
    let guide = rgb(GUIDE);
    chart.draw_series(std::iter::once(PathElement::new(
        vec![(x.start, 0.0), (x.end, 0.0)],
        guide.stroke_width(2),
    )))?;
    chart.draw_series(std::iter::once(PathElement::new(
        vec![(x.start, row - 0.5), (x.end, row - 0.5)],
        guide,
    )))?;
    let (left, at) = chart.backend_coord(&(x.start, row));
    root.draw(&Text::new(
        "Not cleared",
        (left - sheet.px(8.0), at),
        sheet
            .text(rgb(NOT_CLEARED))
            .pos(Pos::new(HPos::Right, VPos::Center)),
    ))?;
    chart.draw_series(std::iter::once(PathElement::new(
        average_line(&trend.games),
        rgb(TREND).stroke_width(3),
    )))?;
    let radius = sheet.px(f64::from(radius(trend.games.len()))).max(2);
    for (i, game) in trend.games.iter().enumerate() {
        let x = (i + 1) as f64;
        let (marker, y) = match game.over_optimum {
            Some(over) if game.reward => (Marker::Dot(REWARD), over as f64),
            Some(over) => (Marker::Dot(NO_REWARD), over as f64),
            None => (Marker::Cross, row),
        };
        marker.draw(root, chart.backend_coord(&(x, y)), radius)?;
    }
    Ok(())
}

fn draw_lower(root: &Area<'_>, area: &Area<'_>, trend: &Trend, sheet: Sheet) -> Painted {
    let mut chart = lower_axes(area, trend, sheet)?;
    let (x, ticks) = game_axis(trend);
    chart
        .configure_mesh()
        .x_labels(ticks)
        .y_labels(if sheet.narrow() { 3 } else { 6 })
        .x_max_light_lines(0)
        .y_max_light_lines(0)
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| format!("{y:.0}%"))
        .x_desc(sheet.words("Dot, in the order played", ""))
        .y_desc(sheet.words("Reward rate", "Rate"))
        .label_style(sheet.text(BLACK))
        .axis_desc_style(sheet.text(BLACK))
        .draw()?;
    let games = trend.games.len();
    let all = 100.0 * trend.games.iter().filter(|g| g.reward).count() as f64 / games as f64;
    let guide = rgb(GUIDE);
    chart.draw_series(std::iter::once(PathElement::new(
        vec![(x.start, all), (x.end, all)],
        guide.stroke_width(2),
    )))?;
    let recent = reward_line(&trend.games);
    let last = recent.last().map_or(0.0, |&(_, rate)| rate);
    chart.draw_series(std::iter::once(PathElement::new(
        recent,
        rgb(REWARD).stroke_width(3),
    )))?;
    // Each line named at its right end, in the margin: no data lies
    // there. Two ends too close for two lines of text move apart.
    let (right, recent_y) = chart.backend_coord(&(x.end, last));
    let (_, all_y) = chart.backend_coord(&(x.end, all));
    let apart = sheet.line(sheet.text);
    let (recent_y, all_y) = spread(recent_y, all_y, apart);
    let label = |words: String, y: i32, colour: [u8; 3]| {
        root.draw(&Text::new(
            words,
            (right + sheet.px(8.0), y),
            sheet
                .text(rgb(colour))
                .pos(Pos::new(HPos::Left, VPos::Center)),
        ))
    };
    label(
        format!("Last {}: {last:.0}%", WINDOW.min(games)),
        recent_y,
        REWARD,
    )?;
    label(format!("All {games}: {all:.0}%"), all_y, GUIDE)?;
    Ok(())
}

/// Rows `a` and `b` moved apart, each by half, to be `apart` pixels apart
/// at least; `a` stays above `b` when it was above or level.
fn spread(a: i32, b: i32, apart: i32) -> (i32, i32) {
    let gap = (a - b).abs();
    if gap >= apart {
        return (a, b);
    }
    let push = apart - gap;
    let (up, down) = (push / 2, push - push / 2);
    if a <= b {
        (a - up, b + down)
    } else {
        (a + down, b - up)
    }
}

/// The trend: at each cleared game, the mean of the clicks over the
/// optimum of the last [`WINDOW`] cleared games up to it (of all of them
/// while there are fewer).
fn average_line(games: &[Dot]) -> Vec<(f64, f64)> {
    let mut recent: Vec<f64> = Vec::new();
    let mut line = Vec::new();
    for (i, game) in games.iter().enumerate() {
        let Some(over) = game.over_optimum else {
            continue;
        };
        recent.push(over as f64);
        let last = &recent[recent.len().saturating_sub(WINDOW)..];
        line.push(((i + 1) as f64, last.iter().sum::<f64>() / last.len() as f64));
    }
    line
}

/// At each game, the percentage of the last [`WINDOW`] games up to it
/// (of all of them while there are fewer) that earned the reward.
fn reward_line(games: &[Dot]) -> Vec<(f64, f64)> {
    (0..games.len())
        .map(|i| {
            let last = &games[(i + 1).saturating_sub(WINDOW)..=i];
            let rewards = last.iter().filter(|g| g.reward).count();
            ((i + 1) as f64, 100.0 * rewards as f64 / last.len() as f64)
        })
        .collect()
}

/// The markers' radius in pixels: smaller as the games crowd the axis.
fn radius(games: usize) -> i32 {
    match games {
        0..=100 => 5,
        101..=300 => 3,
        _ => 2,
    }
}

/// A count of clicks over the optimum: `+2`, `0`, `-1`.
fn signed(value: f64) -> String {
    let whole = value.round() as i64;
    if whole > 0 {
        format!("+{whole}")
    } else {
        format!("{whole}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(over: Option<i64>, reward: bool) -> Dot {
        Dot {
            over_optimum: over,
            reward,
        }
    }

    /// Twelve games: rewarded at 0 or +1 over, two without the reward at
    /// +3 and +5, one not cleared.
    fn sample() -> Trend {
        let mut games: Vec<Dot> = (0..12).map(|i| game(Some(i % 2), true)).collect();
        games[3] = game(Some(3), false);
        games[6] = game(None, false);
        games[9] = game(Some(5), false);
        Trend {
            title: "Your record: 12 games".into(),
            reward_clicks: 12,
            games,
        }
    }

    #[test]
    fn the_trend_averages_the_last_cleared_games() {
        let games: Vec<Dot> = [Some(2), None, Some(0), Some(4)]
            .into_iter()
            .map(|o| game(o, false))
            .collect();
        assert_eq!(average_line(&games), [(1.0, 2.0), (3.0, 1.0), (4.0, 2.0)]);
        // Past the window, the oldest game leaves the mean.
        let many: Vec<Dot> = (0..=WINDOW as i64).map(|i| game(Some(i), true)).collect();
        let line = average_line(&many);
        let last = line.last().unwrap();
        let expected = (1..=WINDOW as i64).sum::<i64>() as f64 / WINDOW as f64;
        assert_eq!(*last, ((WINDOW + 1) as f64, expected));
    }

    #[test]
    fn the_reward_rate_counts_the_last_games_cleared_or_not() {
        let games = [
            game(Some(0), true),
            game(None, false),
            game(Some(4), false),
            game(Some(1), true),
        ];
        assert_eq!(
            reward_line(&games),
            [(1.0, 100.0), (2.0, 50.0), (3.0, 100.0 / 3.0), (4.0, 50.0)]
        );
        let mut many = vec![game(Some(0), true); WINDOW];
        many.push(game(None, false));
        assert_eq!(reward_line(&many).last().unwrap().1, 90.0);
    }

    #[test]
    fn labels_too_close_move_apart_in_their_order() {
        assert_eq!(spread(100, 200, 24), (100, 200));
        assert_eq!(spread(100, 110, 24), (93, 117));
        assert_eq!(spread(110, 100, 24), (117, 93));
        assert_eq!(spread(50, 50, 24), (38, 62));
    }

    #[test]
    fn the_rows_span_the_games_and_the_optimum() {
        assert_eq!(over_range(&sample()), (0, 5));
        let mut beaten = sample();
        beaten.games[0].over_optimum = Some(-1);
        assert_eq!(over_range(&beaten), (-1, 5));
        beaten.games = vec![game(None, false)];
        assert_eq!(over_range(&beaten), (0, 2));
        assert_eq!(signed(2.0), "+2");
        assert_eq!(signed(0.0), "0");
        assert_eq!(signed(-0.0), "0");
        assert_eq!(signed(-1.0), "-1");
    }

    /// Pixels of the picture, from its top left.
    type Pixels = Vec<(i32, i32)>;

    /// Where each game's marker and each point of the reward line land in
    /// pixels, through the same layout and axes as [`trend`] draws.
    fn pixels(trend: &Trend) -> (Pixels, Pixels) {
        pixels_on(trend, Sheet::PAGE)
    }

    /// [`pixels`] on `sheet`.
    fn pixels_on(trend: &Trend, sheet: Sheet) -> (Pixels, Pixels) {
        let mut found = (Vec::new(), Vec::new());
        let title = title_lines(&trend.title, sheet);
        let head = head_height(sheet, &title, &key_rows(sheet));
        picture(sheet.size, |root| {
            let (_, upper, lower) = layout(root, sheet, head);
            let chart = upper_axes(&upper, trend, sheet)?;
            let row = not_cleared_row(trend);
            found.0 = trend
                .games
                .iter()
                .enumerate()
                .map(|(i, g)| {
                    let y = g.over_optimum.map_or(row, |o| o as f64);
                    chart.backend_coord(&((i + 1) as f64, y))
                })
                .collect();
            let chart = lower_axes(&lower, trend, sheet)?;
            found.1 = reward_line(&trend.games)
                .iter()
                .map(|at| chart.backend_coord(at))
                .collect();
            Ok(())
        })
        .unwrap();
        found
    }

    /// How many pixels of `colour` lie within `reach` of `(x, y)`.
    fn near(picture: &RgbImage, (x, y): (i32, i32), colour: [u8; 3], reach: i32) -> usize {
        (-reach..=reach)
            .flat_map(|dy| (-reach..=reach).map(move |dx| (x + dx, y + dy)))
            .filter(|&(px, py)| picture.get_pixel(px as u32, py as u32).0 == colour)
            .count()
    }

    #[test]
    fn every_game_is_marked_in_its_colour_at_its_clicks() {
        let trend = sample();
        let picture = super::trend(&trend).unwrap();
        assert_eq!(picture.dimensions(), SIZE);
        let (games, rates) = pixels(&trend);
        let near = |at, colour| near(&picture, at, colour, 3);
        for (game, &at) in trend.games.iter().zip(&games) {
            let colour = match game {
                Dot {
                    over_optimum: None, ..
                } => NOT_CLEARED,
                Dot { reward: true, .. } => REWARD,
                Dot { reward: false, .. } => NO_REWARD,
            };
            assert!(near(at, colour) >= 5, "{game:?} at {at:?}");
        }
        // Games go left to right; more clicks over the optimum is higher,
        // and the uncleared game sits above every cleared one.
        assert!(games.windows(2).all(|w| w[0].0 < w[1].0), "{games:?}");
        assert!(games[3].1 < games[1].1 && games[9].1 < games[3].1);
        assert!(games.iter().all(|g| g.1 >= games[6].1), "{games:?}");
        // The reward line passes through its points, below the upper chart.
        for &at in &rates {
            assert!(near(at, REWARD) >= 5, "reward rate at {at:?}");
            assert!(at.1 > games[0].1);
        }
        // And the trend line shows between the games.
        let trend_pixels = picture.pixels().filter(|p| p.0 == TREND).count();
        assert!(trend_pixels > 500, "{trend_pixels}");
    }

    #[test]
    fn on_a_windows_sheet_the_text_is_the_windows_and_every_part_fits() {
        // The app's picture at 100%: 352 pixels across, its text 13.
        let sheet = Sheet {
            size: (352, 318),
            text: 13.0,
        };
        let mut trend = sample();
        trend.title = "Your record: 12 games, 11 cleared, 9 with the reward (75%)".into();
        let picture = trend_on(&trend, sheet).unwrap();
        assert_eq!(picture.dimensions(), sheet.size);
        // The title and the key's rows within the width, the key in two
        // rows, under a title in two lines; the page's in one each.
        let room = i64::from(sheet.size.0);
        let title = title_lines(&trend.title, sheet);
        assert_eq!(title.len(), 2, "{title:?}");
        for line in &title {
            assert!(font::text_width(line, sheet.title() as f32) <= room);
        }
        assert!(sheet.title() >= sheet.text);
        assert_eq!(key_rows(sheet).len(), 2);
        assert_eq!(key_rows(Sheet::PAGE).len(), 1);
        assert_eq!(title_lines(&trend.title, Sheet::PAGE).len(), 1);
        // Every game marked in its colour, inside the picture.
        let (games, rates) = pixels_on(&trend, sheet);
        for (game, &at) in trend.games.iter().zip(&games) {
            let colour = match (game.over_optimum, game.reward) {
                (None, _) => NOT_CLEARED,
                (_, true) => REWARD,
                (_, false) => NO_REWARD,
            };
            assert!(near(&picture, at, colour, 2) >= 3, "{game:?} at {at:?}");
        }
        assert!(games.windows(2).all(|w| w[0].0 < w[1].0), "{games:?}");
        // The lower chart has room: its line spans some height below.
        assert!(rates.iter().all(|r| r.1 > games[0].1 && r.1 < 318));
    }

    #[test]
    fn no_games_and_many_games_draw() {
        let mut trend = sample();
        trend.games.clear();
        let empty = super::trend(&trend).unwrap();
        assert_eq!(empty.dimensions(), SIZE);
        assert!(
            empty.pixels().any(|p| p.0 != [255, 255, 255]),
            "the message"
        );
        trend.games = (0..2000)
            .map(|i| game((i % 7 != 0).then_some(i % 5), i % 3 == 0))
            .collect();
        assert_eq!(super::trend(&trend).unwrap().dimensions(), SIZE);
        assert_eq!(radius(2000), 2);
        // None cleared: no trend line, every game a cross.
        trend.games = vec![game(None, false); 3];
        let picture = super::trend(&trend).unwrap();
        let crosses = picture.pixels().filter(|p| p.0 == NOT_CLEARED).count();
        assert!(crosses > 30, "{crosses}");
    }
}
