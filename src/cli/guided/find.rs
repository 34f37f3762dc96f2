//! Finding the game without a title typed: the window remembered from the
//! last start, else the visible windows whose title or application names
//! Nodiatis, else every other visible window captured once and read, the
//! game being a window where a full board is read. Pictures stay in
//! memory, one at a time, dropped as soon as read: never saved, logged or
//! put in a report. The search is bounded in time and says what it tried.

use std::time::{Duration, Instant};

use crate::desktop::{CaptureError, Desktop, WindowInfo, capture, names};
use crate::game::Board;
use crate::vision::{self, Calibration};

/// The text that names the game's own client.
pub const GAME_NAME: &str = "Nodiatis";

/// How long one search may take, however many windows there are: the
/// windows not read by then are said as not looked at.
pub const SEARCH_BUDGET: Duration = Duration::from_secs(10);

/// A window the search found to be the game, with the board read in it
/// (none when it was taken by its name and shows no board yet).
#[derive(Clone, Debug, PartialEq)]
pub struct Found {
    pub window: WindowInfo,
    pub board: Option<Board>,
}

/// What a search saw: the games found, and every other window with why it
/// is not the game.
#[derive(Debug, Default)]
pub struct Search {
    pub found: Vec<Found>,
    pub tried: Vec<(WindowInfo, String)>,
    /// How the found ones were found: by the remembered text, by the
    /// game's name, or by their board.
    pub by: By,
}

/// How a search found its windows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum By {
    Remembered,
    Name,
    #[default]
    Board,
}

/// Which windows to look at first: those the remembered text names (when
/// any), else those whose title or application names the game, else all
/// others, to be read. The bot's own windows are not in `all`
/// ([`Desktop::windows`] leaves them out); invisible ones are skipped.
pub fn order(all: &[WindowInfo], remembered: Option<&str>) -> (By, Vec<WindowInfo>) {
    let visible: Vec<&WindowInfo> = all.iter().filter(|w| w.is_visible()).collect();
    let named = |text: &str| -> Vec<WindowInfo> {
        visible
            .iter()
            .filter(|w| names(&w.title, text) || names(&w.app, text))
            .map(|w| (*w).clone())
            .collect()
    };
    if let Some(text) = remembered {
        let windows = named(text);
        if !windows.is_empty() {
            return (By::Remembered, windows);
        }
    }
    let windows = named(GAME_NAME);
    if !windows.is_empty() {
        return (By::Name, windows);
    }
    (By::Board, visible.into_iter().cloned().collect())
}

/// Whether a board read makes a window the game: a full board, as every
/// game starts with (a part-cleared one could be a picture of a board in
/// a chat, a forum page, a screenshot viewer).
pub fn is_the_game(board: &Board) -> bool {
    board.is_full()
}

/// Searches `desktop` for the game (see [`order`]), reading windows
/// against `calibration`, for at most `budget`.
pub fn search(
    desktop: &mut dyn Desktop,
    calibration: &Calibration,
    remembered: Option<&str>,
    budget: Duration,
) -> Result<Search, CaptureError> {
    let started = Instant::now();
    let all = desktop.windows()?;
    let (by, windows) = order(&all, remembered);
    let mut search = Search {
        by,
        ..Search::default()
    };
    for window in windows {
        if started.elapsed() > budget {
            search
                .tried
                .push((window, "not looked at: the search's time was up".into()));
            continue;
        }
        let read = read_board(desktop, &window, calibration);
        match (by, read) {
            (_, Ok(board)) if is_the_game(&board) => search.found.push(Found {
                window,
                board: Some(board),
            }),
            // Named the game: it is, whatever it shows now.
            (By::Remembered | By::Name, read) => search.found.push(Found {
                window,
                board: read.ok(),
            }),
            (By::Board, Ok(_)) => search
                .tried
                .push((window, "a board part played, not a game's start".into())),
            (By::Board, Err(why)) => search.tried.push((window, why)),
        }
    }
    Ok(search)
}

/// The board `window` shows now, read against `calibration`, or why none
/// is read there. The picture is dropped here.
pub fn read_board(
    desktop: &mut dyn Desktop,
    window: &WindowInfo,
    calibration: &Calibration,
) -> Result<Board, String> {
    let picture = desktop
        .open(window)
        .and_then(|mut open| open.capture_client())
        .map_err(|e| e.to_string())?;
    let reading = vision::read(&picture, calibration, None).map_err(|_| "no board".to_owned())?;
    reading
        .board()
        .map_err(|_| "no board read whole".to_owned())
}

/// The text that finds `window` again among `all` and only it, and stays
/// while the game goes on: the title's first part (a title's tail often
/// changes as it goes: "Dust Practice - 3 clicks", a browser's page
/// before its name), else the whole title, else its application's name;
/// `None` when none tells it from the others (two windows of one title).
pub fn text_that_finds(all: &[WindowInfo], window: &WindowInfo) -> Option<String> {
    let command = capture::CommandLine::own();
    let title = window.title.as_str();
    let head = [" - ", " \u{2014} ", " | "]
        .iter()
        .filter_map(|separator| title.find(separator))
        .min()
        .map_or(title, |at| &title[..at])
        .trim()
        .to_owned();
    [head, window.title.clone(), window.app.clone()]
        .into_iter()
        .filter(|text| !text.trim().is_empty())
        .find(|text| capture::pick(all, text, &command).is_ok_and(|w| w.id == window.id))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn window(id: u32, title: &str, app: &str) -> WindowInfo {
        WindowInfo {
            id,
            pid: Some(id),
            title: title.into(),
            app: app.into(),
            x: 0,
            y: 0,
            width: 800,
            height: 600,
            minimised: false,
        }
    }

    #[test]
    fn the_games_name_goes_before_reading_every_window() {
        let all = [
            window(1, "Inbox", "mail"),
            window(2, "Nodiatis - Ana", "java"),
            window(3, "Wiki", "browser"),
        ];
        let (by, windows) = order(&all, None);
        assert_eq!(by, By::Name);
        assert_eq!(windows, vec![all[1].clone()]);
        // The application's name counts as the title does.
        let by_app = [window(1, "Inbox", "mail"), window(4, "Ana", "NODIATIS")];
        assert_eq!(order(&by_app, None).1, vec![by_app[1].clone()]);
    }

    #[test]
    fn without_the_games_name_every_visible_window_is_read() {
        let mut minimised = window(3, "Hidden", "x");
        minimised.minimised = true;
        let mut empty = window(4, "Zero", "x");
        empty.width = 0;
        let all = [
            window(1, "Inbox", "mail"),
            window(2, "Dust Practice", "bot"),
            minimised,
            empty,
        ];
        let (by, windows) = order(&all, None);
        assert_eq!(by, By::Board);
        let ids: Vec<u32> = windows.iter().map(|w| w.id).collect();
        assert_eq!(ids, [1, 2]);
    }

    #[test]
    fn the_remembered_window_is_offered_first_while_it_is_there() {
        let all = [
            window(1, "Dust Practice", "bot"),
            window(2, "Nodiatis", "java"),
        ];
        let (by, windows) = order(&all, Some("dust practice"));
        assert_eq!((by, windows), (By::Remembered, vec![all[0].clone()]));
        // Gone: the search goes on as if nothing were remembered.
        assert_eq!(order(&all, Some("Gone")).0, By::Name);
    }

    #[test]
    fn only_a_full_board_is_a_games_start() {
        let full: Board = crate::game::EXAMPLE_BOARD.parse().unwrap();
        assert!(is_the_game(&full));
        let played = crate::game::replay(&full, &[crate::game::Cell::new(7, 0)])
            .unwrap()
            .last()
            .unwrap()
            .board_after;
        assert!(!is_the_game(&played));
    }

    #[test]
    fn the_text_remembered_finds_the_window_and_only_it() {
        let all = [
            window(1, "Dust Practice", "bot"),
            window(2, "Notes", "editor"),
            window(3, "Notes", "editor"),
        ];
        assert_eq!(
            text_that_finds(&all, &all[0]).as_deref(),
            Some("Dust Practice")
        );
        // Two windows of one title and one application: none tells them apart.
        assert_eq!(text_that_finds(&all, &all[1]), None);
        let apps = [window(1, "Notes", "editor"), window(2, "Notes", "viewer")];
        assert_eq!(text_that_finds(&apps, &apps[1]).as_deref(), Some("viewer"));
        // A title's changing tail is left out while its head tells it apart.
        let counted = [
            window(1, "Dust Practice - 3 clicks", "bot"),
            window(2, "Nodiatis - Wiki | Browser", "browser"),
            window(3, "Nodiatis - Ana", "java"),
        ];
        assert_eq!(
            text_that_finds(&counted, &counted[0]).as_deref(),
            Some("Dust Practice")
        );
        assert_eq!(
            text_that_finds(&counted, &counted[2]).as_deref(),
            Some("Nodiatis - Ana")
        );
    }
}
