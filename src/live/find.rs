//! Finding the game, for every door: by the text given (`--window`,
//! [`by_text`]), or without one (the guided session, the desktop app,
//! [`search`]): the window remembered from the last start, else the
//! visible windows whose title or application names Nodiatis, else every
//! other visible window captured once and read, the game being a window
//! where a full board is read. Pictures stay in
//! memory, one at a time, dropped as soon as read: never saved, logged or
//! put in a report. The search is bounded in time and says what it tried.

use std::time::{Duration, Instant};

use crate::desktop::process::CommandLine;
use crate::desktop::{CaptureError, Desktop, GameWindow, WindowInfo, capture, names};
use crate::game::Board;
use crate::vision::{self, Calibration};

/// The text that names the game's own client.
pub const GAME_NAME: &str = "Nodiatis";

/// How long one search may take, however many windows there are: the
/// windows not read by then are said as not looked at.
pub const SEARCH_BUDGET: Duration = Duration::from_secs(10);

/// A window the search found to be the game, with the board read in it
/// (none when it was taken by its name and shows no board yet) and how it
/// was found.
#[derive(Clone, Debug, PartialEq)]
pub struct Found {
    pub window: WindowInfo,
    pub board: Option<Board>,
    pub by: By,
}

impl Found {
    /// Whether the player must say yes before it is played or
    /// remembered: a window found only by the board it shows may be a
    /// picture of one (an image viewer, a browser page, a chat).
    pub fn needs_a_yes(&self) -> bool {
        self.by == By::Board
    }
}

/// What a search saw: the games found, and every other window with why it
/// is not the game.
#[derive(Debug, Default)]
pub struct Search {
    pub found: Vec<Found>,
    pub tried: Vec<(WindowInfo, String)>,
    /// The bot's own terminal, or a window of its own (the app's, the
    /// hint window), where it lies over a window that showed no board: the
    /// game may be under it.
    pub covering: Option<WindowInfo>,
    /// The windows the game's name (or the text remembered) names that do
    /// not show: minimised, or on another desktop. The game is there, to
    /// wait for, not to start.
    pub hidden: Vec<WindowInfo>,
}

/// How a window was found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum By {
    /// The text remembered from the last start names it.
    Remembered,
    /// Its title or application names the game.
    Name,
    /// A full board reads in it.
    #[default]
    Board,
}

impl By {
    /// How it was found, in words: "by its name".
    pub fn words(self) -> &'static str {
        match self {
            By::Remembered => "the window remembered",
            By::Name => "its name",
            By::Board => "its board",
        }
    }
}

/// The one window whose title or application name contains `text`,
/// ignoring case, and that is not a terminal showing the bot's command
/// line (see [`capture::pick`]) nor another dustbot's own, opened to
/// watch: `--window TEXT`.
pub fn by_text(desktop: &mut dyn Desktop, text: &str) -> Result<Box<dyn GameWindow>, CaptureError> {
    let mut all = desktop.windows()?;
    all.retain(|w| !w.is_another_bots());
    let info = capture::pick(&all, text, &CommandLine::own())?;
    desktop.open(&info)
}

/// Whether a window may be the game at all: visible, not a terminal (its
/// title may hold any text, the game's name too) and not one of another
/// dustbot's own (`is_bots`). The bot's own windows are not in the list
/// ([`Desktop::windows`] leaves them out).
fn candidate(window: &WindowInfo, is_bots: &impl Fn(&WindowInfo) -> bool) -> bool {
    window.is_visible() && !window.is_terminal() && !is_bots(window)
}

/// Which windows to look at: those the remembered text names (a blank
/// text names none), else those whose title or application names the
/// game, each with how; then all the other candidates, to be read.
pub fn order(
    all: &[WindowInfo],
    remembered: Option<&str>,
    is_bots: impl Fn(&WindowInfo) -> bool,
) -> (Vec<(WindowInfo, By)>, Vec<WindowInfo>) {
    let candidates: Vec<&WindowInfo> = all.iter().filter(|w| candidate(w, &is_bots)).collect();
    let named = |text: &str| -> Vec<&WindowInfo> {
        candidates
            .iter()
            .copied()
            .filter(|w| names(&w.title, text) || names(&w.app, text))
            .collect()
    };
    let (named, by) = match remembered.filter(|text| !text.trim().is_empty()) {
        Some(text) if !named(text).is_empty() => (named(text), By::Remembered),
        _ => (named(GAME_NAME), By::Name),
    };
    let others = candidates
        .iter()
        .filter(|w| !named.iter().any(|n| n.id == w.id))
        .map(|w| (*w).clone())
        .collect();
    (named.into_iter().map(|w| (w.clone(), by)).collect(), others)
}

/// The windows among `all` that the text `remembered`, or the game's
/// name, names, and that do not show (minimised, on another desktop):
/// never a terminal, nor a window of any dustbot's.
pub fn hidden_games(all: &[WindowInfo], remembered: Option<&str>) -> Vec<WindowInfo> {
    let texts = [remembered.filter(|t| !t.trim().is_empty()), Some(GAME_NAME)];
    all.iter()
        .filter(|w| !w.is_visible() && !w.is_terminal() && !w.is_another_bots())
        .filter(|w| {
            texts
                .iter()
                .flatten()
                .any(|t| names(&w.title, t) || names(&w.app, t))
        })
        .cloned()
        .collect()
}

/// Whether a board read makes a window the game: a full board, as every
/// game starts with (a part-cleared one could be a picture of a board in
/// a chat, a forum page, a screenshot viewer).
pub fn is_the_game(board: &Board) -> bool {
    board.is_full()
}

/// How long a window that showed no game and has not changed since (its
/// title, place and size) is taken at its last reading while the search
/// is made again and again: waiting for the game among many windows then
/// reads only those that changed, and each of the others now and then.
const RECHECK: Duration = Duration::from_secs(10);

/// What the searches made so far read in each window that is not the
/// game, and when: [`search`] made again skips the windows unchanged.
#[derive(Debug, Default)]
pub struct Seen {
    windows: Vec<(WindowInfo, Instant, String)>,
}

impl Seen {
    /// Why `window` was not the game, when it was read recently as it is.
    fn recent(&self, window: &WindowInfo) -> Option<&str> {
        self.windows
            .iter()
            .find(|(w, at, _)| w == window && at.elapsed() < RECHECK)
            .map(|(_, _, why)| why.as_str())
    }

    fn read(&mut self, window: &WindowInfo, why: &str) {
        self.windows.retain(|(w, _, _)| w.id != window.id);
        self.windows
            .push((window.clone(), Instant::now(), why.to_owned()));
    }
}

/// How long a No holds for a window that still shows the board it showed
/// then: the player may have answered in haste.
pub const DECLINED_FOR: Duration = Duration::from_secs(120);

/// The windows the player said are not the game, each with the board it
/// showed then. A No holds for that window while it shows that board, for
/// [`DECLINED_FOR`] at most: a new board in it (a game started) is asked
/// about again, and so is the window once the while is over. The last
/// No can be taken back.
#[derive(Debug, Default)]
pub struct Declined {
    windows: Vec<(Found, Instant)>,
}

impl Declined {
    /// The player said `found` is not the game.
    pub fn decline(&mut self, found: &Found) {
        self.windows.retain(|(f, _)| f.window.id != found.window.id);
        self.windows.push((found.clone(), Instant::now()));
    }

    /// The window of the last No, while it holds: what a Yes while looking
    /// takes.
    pub fn last(&self) -> Option<&Found> {
        self.windows
            .last()
            .filter(|(_, at)| at.elapsed() < DECLINED_FOR)
            .map(|(found, _)| found)
    }

    /// The last No taken back: its window, to take as the game.
    pub fn take_back(&mut self) -> Option<Found> {
        let found = self.last()?.clone();
        self.windows.pop();
        Some(found)
    }

    /// Every No forgotten (Try again).
    pub fn forget(&mut self) {
        self.windows.clear();
    }

    /// `search`'s games less those declined and still holding; those
    /// left out are said in `tried`.
    pub fn leave_out(&mut self, search: &mut Search) {
        self.windows.retain(|(_, at)| at.elapsed() < DECLINED_FOR);
        let windows = &self.windows;
        let holds = |found: &Found| {
            windows
                .iter()
                .any(|(f, _)| f.window.id == found.window.id && f.board == found.board)
        };
        let (declined, asked): (Vec<Found>, Vec<Found>) =
            search.found.drain(..).partition(|f| holds(f));
        search.found = asked;
        search.tried.extend(
            declined
                .into_iter()
                .map(|f| (f.window, "you said it is not the game".to_owned())),
        );
    }
}

/// Searches `desktop` for the game (see [`order`]), reading windows
/// against `calibration`, for at most `budget`: the windows named are
/// the game whatever they show; when none of them shows a board, every
/// other window where a full board reads is offered too. A window `seen`
/// recently as it is now, and not the game then, is not read again.
pub fn search(
    desktop: &mut dyn Desktop,
    calibration: &Calibration,
    remembered: Option<&str>,
    budget: Duration,
    seen: &mut Seen,
) -> Result<Search, CaptureError> {
    let started = Instant::now();
    let all = desktop.windows()?;
    let (named, others) = order(&all, remembered, WindowInfo::is_another_bots);
    let hidden = hidden_games(&all, remembered);
    let own = desktop.own_terminal().ok().flatten();
    let mut search = Search {
        hidden,
        ..Search::default()
    };
    // Whether the bot's own terminal, or a window of this process, lies
    // over `window` (Windows' list of what is in front leaves the bot's
    // own windows out): said once found.
    let covered = |desktop: &mut dyn Desktop, window: &WindowInfo, search: &mut Search| {
        let front = desktop.in_front_of(window).unwrap_or_default();
        let over = front
            .into_iter()
            .find(|w| w.is_ours() || own.as_ref().is_some_and(|own| own.id == w.id));
        let found = over.is_some();
        search.covering = over.or(search.covering.take());
        found
    };
    let mut named_show_a_board = false;
    for (window, by) in named {
        let board = read_board(desktop, &window, calibration).ok();
        named_show_a_board |= board.is_some();
        if board.is_none() {
            covered(desktop, &window, &mut search);
        }
        search.found.push(Found { window, board, by });
    }
    if named_show_a_board {
        return Ok(search);
    }
    for window in others {
        if started.elapsed() > budget {
            search
                .tried
                .push((window, "not looked at: the search's time was up".into()));
            continue;
        }
        if let Some(why) = seen.recent(&window) {
            let why = why.to_owned();
            search.tried.push((window, why));
            continue;
        }
        let why = match read_board(desktop, &window, calibration) {
            Ok(board) if is_the_game(&board) => {
                search.found.push(Found {
                    window,
                    board: Some(board),
                    by: By::Board,
                });
                continue;
            }
            Ok(_) => "a board part played, not a game's start".to_owned(),
            Err(_) if covered(desktop, &window, &mut search) => {
                // Read again once it is moved: not kept as seen.
                search
                    .tried
                    .push((window, "the bot's own window lies over it".into()));
                continue;
            }
            Err(why) => why,
        };
        seen.read(&window, &why);
        search.tried.push((window, why));
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
/// while the game goes on: the game's name where the title holds it, else
/// the title's first part (a title's tail often
/// changes as it goes: "Dust Practice - 3 clicks", a browser's page
/// before its name), else the whole title; `None` when none tells it from
/// the others (two windows of one title), for a terminal, and for a
/// window with no title: an application's name alone would find any of
/// its windows (every terminal's, every browser's), and is never kept.
pub fn text_that_finds(all: &[WindowInfo], window: &WindowInfo) -> Option<String> {
    if window.is_terminal() {
        return None;
    }
    let command = CommandLine::own();
    let title = window.title.as_str();
    let head = [" - ", " \u{2014} ", " | "]
        .iter()
        .filter_map(|separator| title.find(separator))
        .min()
        .map_or(title, |at| &title[..at])
        .trim()
        .to_owned();
    // The game's own name where the title holds it: a browser's title
    // around it changes as tabs open ("Nodiatis and 3 more pages").
    let game = names(title, GAME_NAME).then(|| GAME_NAME.to_owned());
    game.into_iter()
        .chain([head, window.title.clone()])
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
            hidden: false,
        }
    }

    fn none(_: &WindowInfo) -> bool {
        false
    }

    fn ids(windows: &[WindowInfo]) -> Vec<u32> {
        windows.iter().map(|w| w.id).collect()
    }

    #[test]
    fn the_games_name_goes_before_reading_every_window() {
        let all = [
            window(1, "Inbox", "mail"),
            window(2, "Nodiatis - Ana", "java"),
            window(3, "Wiki", "browser"),
        ];
        let (named, others) = order(&all, None, none);
        assert_eq!(named, vec![(all[1].clone(), By::Name)]);
        // The others are still there to read, when the named show no board.
        assert_eq!(ids(&others), [1, 3]);
        // The application's name counts as the title does.
        let by_app = [window(1, "Inbox", "mail"), window(4, "Ana", "NODIATIS")];
        assert_eq!(
            order(&by_app, None, none).0,
            vec![(by_app[1].clone(), By::Name)]
        );
    }

    #[test]
    fn without_the_games_name_every_visible_window_is_read() {
        let mut minimised = window(3, "Hidden", "x");
        minimised.minimised = true;
        let mut empty = window(4, "Zero", "x");
        empty.width = 0;
        let mut away = window(5, "On desktop 2", "x");
        away.hidden = true;
        let all = [
            window(1, "Inbox", "mail"),
            window(2, "Dust Practice", "bot"),
            minimised,
            empty,
            away,
        ];
        let (named, others) = order(&all, None, none);
        assert!(named.is_empty());
        assert_eq!(ids(&others), [1, 2]);
    }

    #[test]
    fn a_terminal_or_another_bots_window_is_never_a_candidate() {
        let all = [
            window(1, "bot - Nodiatis notes", "XTerm"),
            window(2, "Dust Hint", "bot"),
            window(3, "Nodiatis", "java"),
            window(4, "Wiki", "browser"),
        ];
        let bots = |w: &WindowInfo| w.id == 2;
        let (named, others) = order(&all, Some("xterm"), bots);
        assert_eq!(named, vec![(all[2].clone(), By::Name)]);
        assert_eq!(ids(&others), [4]);
        // Not even when the remembered text names it.
        let (named, _) = order(&all, Some("Dust Hint"), bots);
        assert_eq!(named, vec![(all[2].clone(), By::Name)]);
    }

    #[test]
    fn the_remembered_window_is_offered_first_while_it_is_there() {
        let all = [
            window(1, "Dust Practice", "bot"),
            window(2, "Nodiatis", "java"),
        ];
        let (named, _) = order(&all, Some("dust practice"), none);
        assert_eq!(named, vec![(all[0].clone(), By::Remembered)]);
        // Gone: the search goes on as if nothing were remembered.
        assert_eq!(order(&all, Some("Gone"), none).0[0].1, By::Name);
        // A blank text remembers nothing: it would name every window.
        for blank in ["", "  "] {
            assert_eq!(
                order(&all, Some(blank), none).0,
                vec![(all[1].clone(), By::Name)]
            );
        }
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
        // An application's name alone would find any of its windows, and a
        // terminal's title any text: neither is kept.
        let apps = [window(1, "Notes", "editor"), window(2, "Notes", "viewer")];
        assert_eq!(text_that_finds(&apps, &apps[1]), None);
        let terminal = [window(1, "Nodiatis", "XTerm")];
        assert_eq!(text_that_finds(&terminal, &terminal[0]), None);
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
        // The game's name alone, where it finds the window alone: Edge's
        // title around it changes as tabs open.
        let edge = [
            window(
                1,
                "Nodiatis and 3 more pages - Profile 1 - Microsoft Edge",
                "msedge",
            ),
            window(2, "Inbox", "mail"),
        ];
        assert_eq!(
            text_that_finds(&edge, &edge[0]).as_deref(),
            Some("Nodiatis")
        );
    }
}
