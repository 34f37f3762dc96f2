//! Fitting into the app's window: a status line wrapped to its width,
//! between words, and a word wider than the window (a path, a board
//! string) broken at its separators; the record's table set out in the
//! window's font, turned to fit a narrow window; the record's plot laid
//! out for the board's place, at the window's text size.

use crate::chart::trend::{Sheet, Trend, trend_on};
use crate::render::{Canvas, font};

/// The record's plot of `trend` laid out for the board's place in the
/// window (`size`, width and height), its text as big as the status's
/// (`text`): a page's plot made small would have text of a few pixels.
pub(super) fn plot_for(trend: &Trend, size: (u32, u32), text: f32) -> Result<Canvas, String> {
    let sheet = Sheet {
        size,
        text: f64::from(text),
    };
    let picture = trend_on(trend, sheet).map_err(|e| e.to_string())?;
    Ok(Canvas::from_image(
        &image::DynamicImage::ImageRgb8(picture).to_rgba8(),
    ))
}

/// `text` in lines no wider than `width` at `size`, broken between words;
/// a word wider than that (a path, a board string) broken within it
/// ([`pieces`]).
pub(super) fn wrap(text: &str, size: f32, width: i64) -> Vec<String> {
    let mut lines = Vec::new();
    for paragraph in text.lines() {
        let mut line = String::new();
        for word in paragraph.split(' ') {
            if font::text_width(word, size) > width {
                let mut pieces = pieces(word, size, width);
                let last = pieces.pop().unwrap_or_default();
                lines.extend((!line.is_empty()).then(|| std::mem::take(&mut line)));
                lines.extend(pieces);
                line = last;
                continue;
            }
            let longer = if line.is_empty() {
                word.to_owned()
            } else {
                format!("{line} {word}")
            };
            if !line.is_empty() && font::text_width(&longer, size) > width {
                lines.push(std::mem::replace(&mut line, word.to_owned()));
            } else {
                line = longer;
            }
        }
        lines.push(line);
    }
    lines
}

/// A line of the status as the window draws it: text from the left, or
/// a row of the record's table, each cell at its place across (pixels
/// from the left).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Row {
    Text(String),
    Cells(Vec<(i64, String)>),
}

/// The status `lines` as drawn at `size` in `width`: each wrapped
/// ([`wrap`]), and the record's table (set out in a terminal's cells,
/// which a proportional font sets adrift) turned, what each column counts
/// down the left and a column for each group of games (a narrow window
/// has room for a few groups, not for seven columns), its cells at places
/// measured in the window's font: the names from the left, the numbers
/// flush right.
pub(super) fn status_rows(lines: &[&str], size: f32, width: i64) -> Vec<Row> {
    let wrapped = |lines: &[&str]| -> Vec<Row> {
        lines
            .iter()
            .flat_map(|line| wrap(line, size, width))
            .map(Row::Text)
            .collect()
    };
    let Some((head, count, cells)) = crate::app::record_view::table_in(lines) else {
        return wrapped(lines);
    };
    let mut rows = wrapped(&lines[..head]);
    let turned: Vec<Vec<&str>> = (0..cells[0].len())
        .map(|c| cells.iter().map(|row| row[c].as_str()).collect())
        .collect();
    let widths: Vec<i64> = (0..cells.len())
        .map(|k| {
            turned
                .iter()
                .map(|row| font::text_width(row[k], size))
                .max()
                .unwrap_or(0)
        })
        .collect();
    // An em between columns.
    let gap = size.round() as i64;
    for row in turned {
        let mut x = 0;
        let mut placed = Vec::new();
        for (k, cell) in row.into_iter().enumerate() {
            let at = match k {
                0 => x,
                _ => x + widths[k] - font::text_width(cell, size),
            };
            placed.push((at, cell.to_owned()));
            x += widths[k] + gap;
        }
        rows.push(Row::Cells(placed));
    }
    rows.extend(wrapped(&lines[head + count..]));
    rows
}

/// `word` in pieces no wider than `width` at `size` (a piece of one
/// character where even that is wider), each broken after its last comma
/// or path separator where it has one: a board string breaks between
/// rows, a path between folders.
fn pieces(word: &str, size: f32, width: i64) -> Vec<String> {
    let too_wide = |text: &str| font::text_width(text, size) > width;
    let mut pieces = Vec::new();
    let mut piece = String::new();
    for c in word.chars() {
        piece.push(c);
        if piece.chars().count() > 1 && too_wide(&piece) {
            piece.pop();
            // After the separator when what follows it fits with `c`.
            let cut = piece
                .rfind([',', '/', '\\'])
                .map(|at| at + 1)
                .filter(|&cut| !too_wide(&format!("{}{c}", &piece[cut..])))
                .unwrap_or(piece.len());
            let rest = piece.split_off(cut);
            pieces.push(std::mem::replace(&mut piece, rest));
            piece.push(c);
        }
    }
    pieces.push(piece);
    pieces
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_records_table_is_turned_and_its_columns_aligned_in_the_windows_font() {
        // As the record says it (stats::record_text), two groups.
        let lines = [
            "3 games in games.jsonl",
            "rules          games cleared reward  rate over optimum median time",
            "all                3       2      1   33%        +0.33      41.2 s",
            "centre-rows        2       2      1   50%        +0.33      41.2 s",
            "reward: cleared in 12 clicks or fewer",
        ];
        // The window at scale 1: 13 px text, 336 px for the status.
        let rows = status_rows(&lines, 13.0, 336);
        assert_eq!(rows[0], Row::Text(lines[0].to_owned()));
        assert_eq!(
            rows.last(),
            Some(&Row::Text(
                "reward: cleared in 12 clicks or fewer".to_owned()
            ))
        );
        let cells: Vec<&Vec<(i64, String)>> = rows
            .iter()
            .filter_map(|row| match row {
                Row::Cells(cells) => Some(cells),
                Row::Text(_) => None,
            })
            .collect();
        // A row per column: what it counts, then each group's cell.
        assert_eq!(cells.len(), 7);
        let texts =
            |row: &Vec<(i64, String)>| row.iter().map(|(_, t)| t.clone()).collect::<Vec<_>>();
        assert_eq!(texts(cells[0]), ["rules", "all", "centre-rows"]);
        assert_eq!(texts(cells[6]), ["median time", "41.2 s", "41.2 s"]);
        // The names start at one place; each group's cells end at one
        // place (flush right), within the window, the columns apart.
        for k in 0..3 {
            let ends: Vec<i64> = cells
                .iter()
                .map(|row| {
                    row[k].0
                        + if k == 0 {
                            0
                        } else {
                            font::text_width(&row[k].1, 13.0)
                        }
                })
                .collect();
            assert!(ends.iter().all(|&e| e == ends[0]), "column {k}: {ends:?}");
            assert!(ends[0] <= 336, "{ends:?}");
        }
        for row in &cells {
            let name_end = row[0].0 + font::text_width(&row[0].1, 13.0);
            assert!(row[1].0 > name_end, "{row:?}");
        }
        // No table: the lines as they are, wrapped.
        assert_eq!(status_rows(&lines[..1], 13.0, 336), [rows[0].clone()]);
    }

    #[test]
    fn the_records_plot_is_laid_out_at_the_pictures_size_not_a_page_made_small() {
        let trend = Trend {
            title: "Your record: 2 games, 2 cleared, 1 with the reward (50%)".into(),
            reward_clicks: 12,
            games: vec![
                crate::chart::trend::Dot {
                    over_optimum: Some(0),
                    reward: true,
                },
                crate::chart::trend::Dot {
                    over_optimum: Some(3),
                    reward: false,
                },
            ],
        };
        // The board's place at 100% and at 150%: the plot fills it, where
        // a page of 960x720 made to fit it left a band and text of 6 px.
        for (size, text) in [((352, 318), 13.0), ((528, 477), 19.5)] {
            let plot = plot_for(&trend, size, text).unwrap();
            assert_eq!((plot.width as u32, plot.height as u32), size);
        }
    }

    #[test]
    fn a_long_line_wraps_between_words_within_the_width() {
        let text = "a full board shows in \"Dust Practice - 0 clicks\" at 440,229 size 720x560: is this window the game?";
        let lines = wrap(text, 13.0, 200);
        assert!(lines.len() > 2, "{lines:?}");
        for line in &lines {
            assert!(font::text_width(line, 13.0) <= 200, "{line:?}");
        }
        assert_eq!(lines.join(" "), text);
        assert_eq!(wrap("short", 13.0, 200), ["short"]);
    }

    #[test]
    fn a_word_wider_than_the_window_breaks_within_it_a_board_between_rows_a_path_between_folders() {
        let board = "BBRRYROG,GRYRYOBY,BRORYYGO,GYGBROOO,GBYBYRBG,OOOYBRBR";
        let text = format!("calibrate: the board read: {board} end");
        let width = font::text_width("GRYRYOBY,BRORYYGO,", 13.0);
        let lines = wrap(&text, 13.0, width);
        for line in &lines {
            assert!(font::text_width(line, 13.0) <= width, "{lines:?}");
        }
        assert_eq!(lines.concat().replace(' ', ""), text.replace(' ', ""));
        // The rows stay whole: each break in the board is after a comma.
        let rows = lines
            .iter()
            .filter(|l| l.contains(',') || l.contains("OOOYBRBR"));
        for line in rows {
            let piece = line.trim_end_matches(" end");
            assert!(
                piece.ends_with(',') || piece.ends_with("OOOYBRBR"),
                "{lines:?}"
            );
        }
        // Without a comma, a word breaks where the width ends; a window
        // narrower than one character holds one a line.
        let long = "abcdefghijklmnopqrstuvwxyz";
        let lines = wrap(&format!("{long} end"), 13.0, 40);
        assert!(lines.len() > 3, "{lines:?}");
        assert_eq!(lines.concat().replace(' ', ""), format!("{long}end"));
        assert_eq!(wrap("abc", 13.0, 1), ["a", "b", "c"]);
        // A path breaks after a folder's separator.
        for path in [
            "/home/a.player.with.a.long.name/.config/dustbot/calibration.toml",
            r"C:\Users\a.player.with.a.long.name\AppData\Roaming\dustbot\calibration.toml",
        ] {
            let lines = wrap(&format!("saved as {path}: used"), 13.0, 200);
            let file = lines.iter().position(|l| l.contains("calibration.toml"));
            assert!(file.is_some_and(|at| at > 1), "{lines:?}");
            for line in &lines[1..file.unwrap()] {
                assert!(line.ends_with(['/', '\\']), "{lines:?}");
            }
        }
    }
}
