//! Live play and assist mode on the scripted desktop (`desktop::fake`):
//! their real loops, no screen, on any platform; and the front door that
//! both faces drive (`app::door`), from the search to the record. The game window is drawn
//! by the practice window's painter; clicks go to a game that plays them.
//! Display scaling of 100% to 200% and a second monitor left of the first
//! check that the pixels read and the points clicked are one space.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use dustbot::app::door::{Action, Door, Face, Flow, Offer, Outside, Places};
use dustbot::app::runner::{self, Handle};
use dustbot::app::{GameLogChoice, Mode, Options, Run, Target};
use dustbot::assist::{self, Assist, Hints};
use dustbot::desktop::fake::{Click, Content, Cover, FakeDesktop, Scale};
use dustbot::desktop::{Desktop, InputError, ScreenPoint, ScreenRect};
use dustbot::game::{Board, Rules};
use dustbot::geometry::{Geometry, PixelPoint};
use dustbot::live::find::{self, Search, Seen};
use dustbot::live::session::{self, Event, Session};
use dustbot::live::{LiveError, LiveSettings, RulesChoice};
use dustbot::play::{self, Play};
use dustbot::practice::{self, Look, Painter};
use dustbot::record::{self, End, GameLog};
use dustbot::render::{self, Canvas};
use dustbot::solver::SolveOptions;
use dustbot::vision::Calibration;
use image::RgbaImage;

/// The README's example board: 11 clicks, proven.
const EXAMPLE: &str = dustbot::game::EXAMPLE_BOARD;

/// A practice game without animation: a click plays at once. An empty
/// board shows a few frames, then the next game's board, if any.
struct Game {
    board: Board,
    next: Vec<Board>,
    /// Frames drawn of the empty board.
    empty_frames: u32,
    rules: Rules,
    /// The board in the scene's logical pixels, where clicks land.
    geometry: Geometry,
    /// Draws at the desktop's scale.
    painter: Painter,
    clicks: Rc<RefCell<u32>>,
}

impl Game {
    /// The game of `boards[0]`, and the next ones after it, at `scale`.
    fn new(boards: &[&str], scale: Scale) -> (Game, (u32, u32), Rc<RefCell<u32>>) {
        let mut boards: Vec<Board> = boards.iter().map(|b| b.parse().unwrap()).collect();
        let board = boards.remove(0);
        let (geometry, size) = practice::layout(&board, 1.0);
        let (drawn, drawn_size) = practice::layout(&board, scale.0);
        let clicks = Rc::new(RefCell::new(0));
        let game = Game {
            board,
            next: boards,
            empty_frames: 0,
            rules: Rules::CentreRows,
            geometry,
            painter: Painter::new(&drawn, drawn_size, &Look::nodiatis()),
            clicks: Rc::clone(&clicks),
        };
        (game, (size.0 as u32, size.1 as u32), clicks)
    }
}

impl Content for Game {
    fn frame(&mut self, _now: Instant, size: (u32, u32)) -> RgbaImage {
        // Long enough for the empty board to be read as settled.
        if self.board.is_cleared() && !self.next.is_empty() {
            self.empty_frames += 1;
            if self.empty_frames > 6 {
                self.board = self.next.remove(0);
                self.empty_frames = 0;
            }
        }
        let mut canvas = Canvas::new(size.0 as usize, size.1 as usize, [0, 0, 0]);
        let scene = practice::Scene {
            drawn: practice::Drawn {
                tiles: render::tiles(&self.board),
                ..practice::Drawn::default()
            },
            clicks: *self.clicks.borrow(),
            cleared: self.board.is_cleared(),
        };
        self.painter.paint(&scene, &mut canvas);
        canvas.to_image()
    }

    fn click(&mut self, at: (f32, f32), _now: Instant) {
        *self.clicks.borrow_mut() += 1;
        if let Some(cell) = self.geometry.cell_at(PixelPoint::new(at.0, at.1))
            && let Ok((after, _)) = self.board.play_under(cell, self.rules)
        {
            self.board = after;
        }
    }
}

/// A desktop whose second monitor, 2560x1600 at `scale`, is left of the
/// first (x < 0), with the game's window on it.
fn desktop(board: &str, scale: Scale) -> (FakeDesktop, Rc<RefCell<u32>>) {
    games(&[board], scale)
}

/// The desktop of [`desktop`] with the games of `boards`, one after another.
fn games(boards: &[&str], scale: Scale) -> (FakeDesktop, Rc<RefCell<u32>>) {
    let (game, size, clicks) = Game::new(boards, scale);
    (on_the_second_monitor(Box::new(game), size, scale), clicks)
}

/// The desktop of [`desktop`] with `scene` in the game's window, `size`
/// pixels.
fn on_the_second_monitor(scene: Box<dyn Content>, size: (u32, u32), scale: Scale) -> FakeDesktop {
    let monitor = ScreenRect {
        x: -2560,
        y: 0,
        width: 2560,
        height: 1600,
    };
    FakeDesktop::new("Nodiatis", (-2400, 100), size, scale, monitor, scene)
}

/// The settings both drivers share, for the window "Nodiatis".
fn live() -> LiveSettings {
    LiveSettings {
        calibration: Calibration::load(&Calibration::default_path()).unwrap(),
        solve: SolveOptions {
            time_limit: Duration::from_secs(10),
            ..SolveOptions::default()
        },
        rules: RulesChoice::Auto,
        settle_limit: Duration::from_millis(3000),
        anim: None,
        debug_dir: std::env::temp_dir().join("dustbot-fake-desktop"),
        query: "Nodiatis".to_owned(),
        proof: None,
    }
}

fn settings() -> Play {
    Play {
        live: live(),
        max_replans: 0,
        max_moves: None,
        dry_run: false,
    }
}

/// True when `click`'s press and release are the same point, inside the
/// window's board (the practice layout's margin is half a pitch).
fn on_the_board(click: &Click, desktop: &FakeDesktop, scale: Scale) -> bool {
    let w = desktop.window();
    let margin = (40.0 * scale.0) as i32;
    let p = click.press;
    click.press == click.release
        && p.x >= w.x + margin
        && p.y >= w.y + margin
        && p.x < w.x + w.width as i32 - margin
        && p.y < w.y + w.height as i32 - margin
}

#[test]
fn live_play_clears_in_the_optimum_at_every_display_scaling() {
    for scale in [1.0, 1.25, 1.5, 2.0].map(Scale) {
        let (mut desktop, game_clicks) = desktop(EXAMPLE, scale);
        let mut window = dustbot::live::find::by_text(&mut desktop, "nodiatis").unwrap();
        assert_eq!(window.info().width, scale.physical(720));
        let report = session::game(&mut settings(), &mut desktop, &mut window, &mut |_| {})
            .unwrap_or_else(|stop| panic!("at {}: {stop}", scale.0));
        assert_eq!(report.end(), Some(End::Cleared), "at {}", scale.0);
        assert_eq!(report.clicks(), 11, "at {}", scale.0);
        assert_eq!(report.optimum(), Some((11, true)), "at {}", scale.0);
        let clicks = desktop.clicks();
        assert_eq!(clicks.len(), 11);
        assert_eq!(*game_clicks.borrow(), 11, "every click reached the game");
        for click in &clicks {
            assert!(
                on_the_board(click, &desktop, scale),
                "{click:?} at {}",
                scale.0
            );
        }
    }
}

#[test]
fn the_user_moving_the_mouse_stops_before_the_next_click() {
    let (mut desktop, game_clicks) = desktop(EXAMPLE, Scale(1.0));
    let control = desktop.clone();
    let mut window = dustbot::live::find::by_text(&mut desktop, "Nodiatis").unwrap();
    let stopped = session::game(&mut settings(), &mut desktop, &mut window, &mut |event| {
        if let Event::Driver(play::Event::Click { number: 3, .. }) = event {
            control.move_pointer(ScreenPoint::new(-10, 10));
        }
    })
    .unwrap_err();
    assert!(
        matches!(
            stopped.error,
            LiveError::Input(InputError::UserMoved { .. } | InputError::Moved { .. })
        ),
        "{stopped}"
    );
    assert_eq!(stopped.report.clicks(), 3);
    assert_eq!(desktop.clicks().len(), 3);
    assert_eq!(*game_clicks.borrow(), 3);
}

#[test]
fn a_window_over_the_board_stops_play_without_a_click() {
    let (mut desktop, game_clicks) = desktop(EXAMPLE, Scale(1.5));
    let w = desktop.window();
    desktop.cover(
        "Chat",
        ScreenRect {
            x: w.x + 300,
            y: w.y + 300,
            width: 200,
            height: 100,
        },
    );
    let mut window = dustbot::live::find::by_text(&mut desktop, "Nodiatis").unwrap();
    let stopped =
        session::game(&mut settings(), &mut desktop, &mut window, &mut |_| {}).unwrap_err();
    assert!(
        matches!(stopped.error, LiveError::Covered { .. }),
        "{stopped}"
    );
    assert!(desktop.clicks().is_empty());
    assert_eq!(*game_clicks.borrow(), 0);
}

/// A transparent overlay that lets clicks through (a GPU vendor's, a
/// recorder's) over the whole game window does not stop play.
#[test]
fn a_click_through_overlay_over_the_board_is_played_through() {
    let (mut desktop, game_clicks) = desktop(EXAMPLE, Scale(1.25));
    let w = desktop.window();
    desktop.cover_with("Overlay", w.area().grown(10), Cover::ClickThrough);
    let mut window = dustbot::live::find::by_text(&mut desktop, "Nodiatis").unwrap();
    let report = session::game(&mut settings(), &mut desktop, &mut window, &mut |_| {})
        .unwrap_or_else(|stop| panic!("{stop}"));
    assert_eq!(report.end(), Some(End::Cleared));
    assert_eq!(report.clicks(), 11);
    assert_eq!(*game_clicks.borrow(), 11);
}

/// A window the window list leaves out (on Windows, the bot's own hint
/// window: xcap never lists its process's windows) in front of a cell:
/// the window system's answer for the point stops the click.
#[test]
fn a_window_the_list_does_not_show_stops_the_click_it_would_take() {
    let (mut desktop, game_clicks) = desktop(EXAMPLE, Scale(1.0));
    let w = desktop.window();
    // The whole board: the first click's cell is under it.
    desktop.cover_with(
        "Dust Hint",
        ScreenRect {
            x: w.x + 30,
            y: w.y + 30,
            width: 660,
            height: 500,
        },
        Cover::Unlisted,
    );
    let mut window = dustbot::live::find::by_text(&mut desktop, "Nodiatis").unwrap();
    let stopped =
        session::game(&mut settings(), &mut desktop, &mut window, &mut |_| {}).unwrap_err();
    match &stopped.error {
        LiveError::Covered { by, .. } => {
            assert!(by.contains("does not show"), "{stopped}");
        }
        _ => panic!("{stopped}"),
    }
    assert!(desktop.clicks().is_empty());
    assert_eq!(*game_clicks.borrow(), 0);
}

/// Assist mode's settings, as live play's.
fn assisting() -> Assist {
    Assist {
        live: live(),
        // No hint window: the terminal's hints are enough here; and no
        // marks, which are on the real screen, not the scripted one.
        look: None,
        hints: Hints::Beside,
        stop: |_| {},
    }
}

#[test]
fn a_window_moved_between_clicks_is_clicked_where_it_is_now() {
    let (mut desktop, game_clicks) = desktop(EXAMPLE, Scale(1.5));
    let user = desktop.clone();
    let mut window = dustbot::live::find::by_text(&mut desktop, "Nodiatis").unwrap();
    let report = session::game(&mut settings(), &mut desktop, &mut window, &mut |event| {
        if let Event::Driver(play::Event::Click { number: 3, .. }) = event {
            user.move_window((-2300, 300));
        }
    })
    .unwrap_or_else(|stop| panic!("{stop}"));
    assert_eq!((report.end(), report.clicks()), (Some(End::Cleared), 11));
    assert_eq!(*game_clicks.borrow(), 11);
    // The clicks after the move are on the board where it is now.
    for click in &desktop.clicks()[3..] {
        assert!(on_the_board(click, &desktop, Scale(1.5)), "{click:?}");
    }
}

#[test]
fn closing_the_game_window_ends_the_assistant() {
    let (mut desktop, game_clicks) = desktop(EXAMPLE, Scale(1.0));
    let user = desktop.clone();
    let mut window = dustbot::live::find::by_text(&mut desktop, "Nodiatis").unwrap();
    let report = session::game(&mut assisting(), &mut desktop, &mut window, &mut |event| {
        if let Event::Driver(assist::Event::Hint(_)) = event {
            user.close();
        }
    })
    .unwrap();
    assert_eq!(
        (report.end(), report.clicks()),
        (Some(End::WindowClosed), 0)
    );
    assert_eq!(*game_clicks.borrow(), 0);
}

#[test]
fn assist_follows_a_player_who_clicks_every_hint() {
    let (mut desktop, game_clicks) = desktop(EXAMPLE, Scale(1.25));
    let player = desktop.clone();
    let mut window = dustbot::live::find::by_text(&mut desktop, "Nodiatis").unwrap();
    let mut hints = 0;
    let report = session::game(&mut assisting(), &mut desktop, &mut window, &mut |event| {
        if let Event::Driver(assist::Event::Hint(hint)) = event
            && let Some(at) = hint.next_at
        {
            hints += 1;
            player.player_click(at);
        }
    })
    .unwrap();
    assert_eq!(report.end(), Some(End::Cleared));
    assert_eq!((report.clicks(), report.optimum()), (11, Some((11, true))));
    assert_eq!(hints, 11);
    assert_eq!(*game_clicks.borrow(), 11);
    // The assistant never clicked.
    assert!(desktop.clicks().is_empty());
}

/// The player's clicks for every hint of a game assisted on `desktop`.
fn click_every_hint(player: &FakeDesktop) -> impl FnMut(Event<'_, assist::Event<'_>>) + '_ {
    move |event| {
        if let Event::Driver(assist::Event::Hint(hint)) = event
            && let Some(at) = hint.next_at
        {
            player.player_click(at);
        }
    }
}

#[test]
fn games_in_a_row_are_each_played_and_logged_as_they_end() {
    // The second game's board is the first's turned upside down: another
    // game, the same optimum.
    let other: String = EXAMPLE.split(',').rev().collect::<Vec<_>>().join(",");
    let (mut desktop, game_clicks) = games(&[EXAMPLE, &other], Scale(1.0));
    let mut window = dustbot::live::find::by_text(&mut desktop, "Nodiatis").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.jsonl");
    let log = GameLog::open(&path, &[]).unwrap();
    let mut session = Session::new(2, Some(log));
    let mut waits = 0;
    session
        .run(&mut settings(), &mut desktop, &mut window, &mut |event| {
            if let Event::WaitingNext = event {
                waits += 1;
            }
        })
        .unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(waits, 1);
    let played = session.played();
    assert_eq!(played.len(), 2);
    assert_eq!(played[0].board.to_string(), EXAMPLE);
    assert_eq!(played[1].board.to_string(), other);
    for game in played {
        assert!(game.cleared && game.reward, "{game:?}");
        assert_eq!(game.clicks.len() as u32, game.optimum);
        assert_eq!(game.end, End::Cleared);
    }
    assert_eq!(
        *game_clicks.borrow() as usize,
        played[0].clicks.len() + played[1].clicks.len()
    );
    let logged = record::read(&path, 10).unwrap();
    assert_eq!((logged.records.as_slice(), logged.bad_count), (played, 0));
}

#[test]
fn an_empty_board_at_the_start_is_waited_out_when_games_are_to_come() {
    let empty = Board::empty(8, 6).unwrap().to_string();
    let (mut desktop, _) = games(&[&empty, EXAMPLE], Scale(1.0));
    let mut window = dustbot::live::find::by_text(&mut desktop, "Nodiatis").unwrap();
    // Until Ctrl-C: the run ends when the window closes after a game.
    let user = desktop.clone();
    let mut session = Session::new(0, None);
    let (mut boards, mut no_game) = (Vec::new(), 0);
    session
        .run(&mut assisting(), &mut desktop, &mut window, &mut |event| {
            if let Event::Board { board, .. } = event {
                boards.push(board.to_string());
            }
            if let Event::NoGame(_) = event {
                no_game += 1;
            }
            if let Event::WaitingNext = event {
                user.close();
            }
            click_every_hint(&user)(event);
        })
        .unwrap_or_else(|error| panic!("{error}"));
    assert_eq!((no_game, boards), (1, vec![EXAMPLE.to_owned()]));
    let played = session.played();
    assert_eq!(played.len(), 1, "the empty board is no game");
    assert!(played[0].cleared && played[0].reward);
    // With one game asked, an empty board is refused.
    let (mut desktop, _) = games(&[&empty], Scale(1.0));
    let mut window = dustbot::live::find::by_text(&mut desktop, "Nodiatis").unwrap();
    let error = Session::new(1, None)
        .run(&mut assisting(), &mut desktop, &mut window, &mut |_| {})
        .unwrap_err();
    assert!(error.to_string().contains("no board read"), "{error}");
}

#[test]
fn assist_follows_the_game_into_a_window_that_replaced_it() {
    // Part played (a full board would be the next game), and no clicks
    // make it: RULES.md's board after its first move, B and Y swapped.
    const LATER: &str = "GGGGYO  ,RORGBGB ,RRYGOOY ,YRYOYBR ,YRBYYRRO,OBGGRORB";
    let (mut desktop, _) = desktop(EXAMPLE, Scale(1.0));
    let user = desktop.clone();
    let mut window = dustbot::live::find::by_text(&mut desktop, "Nodiatis").unwrap();
    let mut replaced = false;
    let mut hint = click_every_hint(&user);
    let report = session::game(
        &mut assisting(),
        &mut desktop,
        &mut window,
        &mut |event| match event {
            Event::Driver(assist::Event::Hint(_)) if !replaced => {
                replaced = true;
                let (game, _, _) = Game::new(&[LATER], Scale(1.0));
                user.replace(Box::new(game));
            }
            event => hint(event),
        },
    )
    .unwrap_or_else(|stop| panic!("{stop}"));
    assert_eq!(report.end(), Some(End::Cleared));
    assert!(report.unseen(), "the change no click explains is said");
    let record = report
        .record(dustbot::record::GameMode::Assist, None)
        .unwrap();
    assert_eq!(record.board.to_string(), EXAMPLE);
    assert!(
        record.cleared && !record.reward,
        "no reward for a count not all seen"
    );
}

/// The practice window's own game, animated in `style` over 100 ms in real
/// time (the loop waits for it), at 100%; `takes_clicks` false makes a game
/// that ignores every click, as a picture of a board does (or, on
/// Windows, a game run as administrator).
struct Animated {
    round: practice::Round,
    geometry: Geometry,
    painter: Painter,
    takes_clicks: bool,
}

impl Content for Animated {
    fn frame(&mut self, now: Instant, size: (u32, u32)) -> RgbaImage {
        let mut canvas = Canvas::new(size.0 as usize, size.1 as usize, [0, 0, 0]);
        self.painter.paint(&self.round.scene(now), &mut canvas);
        canvas.to_image()
    }

    fn click(&mut self, at: (f32, f32), now: Instant) {
        if self.takes_clicks {
            let cell = self.geometry.cell_at(PixelPoint::new(at.0, at.1));
            self.round.click(cell, now);
        }
    }
}

fn animated(style: practice::Style, takes_clicks: bool) -> FakeDesktop {
    let board: Board = EXAMPLE.parse().unwrap();
    let (geometry, size) = practice::layout(&board, 1.0);
    let game = Animated {
        round: practice::Round::new(board, Rules::CentreRows, style, Duration::from_millis(100)),
        geometry,
        painter: Painter::new(&geometry, size, &Look::nodiatis()),
        takes_clicks,
    };
    let monitor = ScreenRect {
        x: 0,
        y: 0,
        width: 1920,
        height: 1080,
    };
    let size = (size.0 as u32, size.1 as u32);
    FakeDesktop::new(
        "Nodiatis",
        (100, 100),
        size,
        Scale(1.0),
        monitor,
        Box::new(game),
    )
}

#[test]
fn a_game_that_takes_no_click_stops_play_after_one_more_try() {
    let mut desktop = animated(practice::Style::Smooth, false);
    let mut window = dustbot::live::find::by_text(&mut desktop, "Nodiatis").unwrap();
    let mut lost = Vec::new();
    let stopped = session::game(&mut settings(), &mut desktop, &mut window, &mut |event| {
        if let Event::Driver(play::Event::Lost { number, .. }) = event {
            lost.push(number);
        }
    })
    .unwrap_err();
    assert!(
        matches!(stopped.error, LiveError::NoEffect { number: 1 }),
        "{stopped}"
    );
    // Perhaps a picture of a board; the administrator's advice is
    // Windows' only.
    let said = stopped.to_string();
    assert!(said.contains("a picture of a board"), "{said}");
    assert_eq!(said.contains("administrator"), cfg!(windows), "{said}");
    assert_eq!(lost, [1]);
    // The click and the one more, both on the board; neither took, so
    // no click of a game is counted and no game is recorded.
    assert_eq!(desktop.clicks().len(), 2);
    assert_eq!(stopped.report.clicks(), 0);
    assert!(
        stopped
            .report
            .record(dustbot::record::GameMode::Play, None)
            .is_none()
    );
}

#[test]
fn a_click_the_game_ignored_is_made_again_and_the_pace_learned() {
    let mut desktop = animated(practice::Style::Idle, true);
    let mut window = dustbot::live::find::by_text(&mut desktop, "Nodiatis").unwrap();
    let mut settings = Play {
        max_moves: Some(4),
        ..settings()
    };
    let mut lost = Vec::new();
    let report = session::game(&mut settings, &mut desktop, &mut window, &mut |event| {
        if let Event::Driver(play::Event::Lost { number, .. }) = event {
            lost.push(number);
        }
    })
    .unwrap_or_else(|stop| panic!("{stop}"));
    // The second click comes as the first move's board looks final, while
    // the game ignores input: made again, then the bot waits long enough.
    assert_eq!(lost, [2]);
    assert_eq!((report.end(), report.clicks()), (Some(End::MaxMoves), 4));
    assert_eq!(desktop.clicks().len(), 5);
    assert_eq!(report.replans(), 0);
}

/// A game whose board, after the first click, never holds still: each
/// frame shows the board the click left with its bottom-left pile in
/// another colour than the frame before (neither is the board the click
/// makes), as a board would that something kept changing.
struct Flickering {
    game: Game,
    frames: u32,
}

impl Content for Flickering {
    fn frame(&mut self, now: Instant, size: (u32, u32)) -> RgbaImage {
        if *self.game.clicks.borrow() == 0 {
            return self.game.frame(now, size);
        }
        self.frames += 1;
        let after = self.game.board;
        let mut rows: Vec<String> = after.to_string().split(',').map(str::to_owned).collect();
        let bottom = rows.last_mut().unwrap();
        let other = if self.frames.is_multiple_of(2) {
            "Y"
        } else {
            "B"
        };
        bottom.replace_range(0..1, other);
        self.game.board = rows.join(",").parse().unwrap();
        let image = self.game.frame(now, size);
        self.game.board = after;
        image
    }

    fn click(&mut self, at: (f32, f32), now: Instant) {
        self.game.click(at, now);
    }
}

/// The run of `bot` with `flags` (`--window Nodiatis` and the game log
/// and frames in `dir`), as the command line builds it.
fn flags_run(flags: &[&str], dir: &std::path::Path) -> Run {
    let log = dir.join("games.jsonl");
    let debug = dir.join("debug");
    let mut args = vec!["bot", "--window", "Nodiatis", "--hints", "beside"];
    args.extend(["--game-log", log.to_str().unwrap()]);
    args.extend(["--debug-dir", debug.to_str().unwrap()]);
    args.extend(flags);
    let cli = <dustbot::cli::Cli as clap::Parser>::try_parse_from(args).unwrap();
    let options = Options::from(&cli.play);
    Run::of(&options, Mode::Play, Target::Text("Nodiatis".to_owned())).unwrap()
}

#[test]
fn the_flags_run_goes_through_the_runner_and_every_stop_is_an_error() {
    // Two games in a row, each cleared in the optimum and recorded.
    let dir = tempfile::tempdir().unwrap();
    let run = flags_run(&["--games", "2"], dir.path());
    let (mut desktop, game_clicks) = games(&[EXAMPLE, EXAMPLE], Scale(1.0));
    let code = dustbot::cli::live::games(&run, &mut desktop, None).unwrap();
    assert_eq!(code, std::process::ExitCode::SUCCESS);
    assert_eq!(*game_clicks.borrow(), 22);
    let log = std::fs::read_to_string(dir.path().join("games.jsonl")).unwrap();
    assert_eq!(log.lines().count(), 2, "{log}");
    // A game that takes no click: play stops, and the command line says
    // it as an error (exit 2), the run's own words.
    let run = flags_run(&[], dir.path());
    let mut desktop = animated(practice::Style::Smooth, false);
    let error = dustbot::cli::live::games(&run, &mut desktop, None).unwrap_err();
    let said = format!("{error:#}");
    assert!(said.contains("a picture of a board"), "{said}");
    assert_eq!(desktop.clicks().len(), 2);
}

#[test]
fn a_board_that_keeps_changing_stops_play_and_its_last_two_frames_are_kept() {
    // Its bottom-left pile is neither Y nor B before or after the first
    // click, (3,1) B x3, so that both flickering boards are unpredicted.
    let (game, size, _) = Game::new(&[EXAMPLE], Scale(1.0));
    assert_eq!(&EXAMPLE[EXAMPLE.len() - 8..EXAMPLE.len() - 7], "O");
    let scene = Flickering { game, frames: 0 };
    let mut desktop = on_the_second_monitor(Box::new(scene), size, Scale(1.0));
    let debug = tempfile::tempdir().unwrap();
    let mut settings = settings();
    settings.live.settle_limit = Duration::from_millis(800);
    settings.live.debug_dir = debug.path().to_owned();
    let mut window = dustbot::live::find::by_text(&mut desktop, "Nodiatis").unwrap();
    let stopped = session::game(&mut settings, &mut desktop, &mut window, &mut |_| {}).unwrap_err();
    assert!(
        matches!(
            stopped.error,
            LiveError::Unsettled {
                cause: dustbot::live::NoBoard::KeptChanging,
                ..
            }
        ),
        "{stopped}"
    );
    assert_eq!(desktop.clicks().len(), 1, "no click after the first");
    // The two frames show two boards, the two the game flickered between.
    let calibration = Calibration::load(&Calibration::default_path()).unwrap();
    let read = |name: &str| {
        let image = image::open(debug.path().join(name)).unwrap().to_rgba8();
        let reading = dustbot::vision::read(&image, &calibration, None).unwrap();
        reading.board().unwrap()
    };
    let (before, last) = (read("unsettled-before.png"), read("unsettled-last.png"));
    assert_ne!(before, last);
    for board in [before, last] {
        let text = board.to_string();
        assert!(
            ["Y", "B"].contains(&&text[text.len() - 8..text.len() - 7]),
            "{text}"
        );
    }
}

// The front door (`app::door`) on the scripted desktop: the steps both
// faces drive, the terminal's and the window's, with no display.

/// The door's world on the scripted desktop: a search and a run go on in
/// place, where the system's go on threads.
struct Scripted(FakeDesktop);

impl Outside for Scripted {
    fn desktop(&mut self) -> &mut dyn Desktop {
        &mut self.0
    }

    fn search(
        &mut self,
        calibration: Calibration,
        remembered: Option<String>,
        mut seen: Seen,
    ) -> mpsc::Receiver<(Search, Seen)> {
        let (tx, rx) = mpsc::channel();
        let search = find::search(
            &mut self.0,
            &calibration,
            remembered.as_deref(),
            find::SEARCH_BUDGET,
            &mut seen,
        )
        .unwrap();
        tx.send((search, seen)).unwrap();
        rx
    }

    fn run(&mut self, run: Run, hint_window: bool) -> Handle {
        let (tx, notes) = mpsc::channel();
        runner::run_told(&run, &mut self.0, hint_window, &tx);
        Handle {
            notes,
            thread: None,
        }
    }
}

/// The example game, its window closed by the player a few frames after
/// the board is cleared (the run then ends, as it does for a player who
/// closes the game).
struct ClosedWhenCleared {
    game: Game,
    cleared_frames: u32,
}

impl Content for ClosedWhenCleared {
    fn frame(&mut self, now: Instant, size: (u32, u32)) -> RgbaImage {
        if self.game.board.is_cleared() {
            self.cleared_frames += 1;
        }
        self.game.frame(now, size)
    }

    fn click(&mut self, at: (f32, f32), now: Instant) {
        self.game.click(at, now);
    }

    fn closed(&self) -> bool {
        self.cleared_frames > 10
    }
}

/// A door on a scripted desktop whose game window is titled `title`, its
/// files in a folder of the test's (the settings file holding
/// `settings`), with the options a face starts with, the game log and
/// the frames in that folder too.
fn door_on(title: &str, settings: &str) -> (Door, FakeDesktop, tempfile::TempDir) {
    door_on_board(title, settings, EXAMPLE)
}

/// [`door_on`] with the game on `board`.
fn door_on_board(
    title: &str,
    settings: &str,
    board: &str,
) -> (Door, FakeDesktop, tempfile::TempDir) {
    let (game, size, _) = Game::new(&[board], Scale(1.0));
    let scene = ClosedWhenCleared {
        game,
        cleared_frames: 0,
    };
    door_showing(title, settings, Box::new(scene), size)
}

/// A board proven in about 5 s here (the slowest of the bench's 1000),
/// within the door's 10 s either way.
const HARD: &str = "OYGGGGOG,GOBYBOYY,ORYBOBGR,RRGRYGOB,YBBOBORY,ORYYYBGB";

/// [`door_on`] with the game window drawn by `scene`, `size` logical
/// pixels.
fn door_showing(
    title: &str,
    settings: &str,
    scene: Box<dyn Content>,
    size: (u32, u32),
) -> (Door, FakeDesktop, tempfile::TempDir) {
    let monitor = ScreenRect {
        x: 0,
        y: 0,
        width: 2560,
        height: 1600,
    };
    let desktop = FakeDesktop::new(title, (100, 100), size, Scale(1.0), monitor, scene);
    let dir = tempfile::tempdir().unwrap();
    let places = Places {
        settings: dir.path().join("settings.toml"),
        config: dir.path().join("config"),
        data: dir.path().join("data"),
    };
    std::fs::create_dir_all(&places.config).unwrap();
    std::fs::create_dir_all(&places.data).unwrap();
    std::fs::write(&places.settings, settings).unwrap();
    let defaults = Options::default();
    let options = Options {
        game_log: GameLogChoice::File(places.game_log()),
        debug_dir: Some(dir.path().join("debug")),
        solve: SolveOptions {
            time_limit: Duration::from_secs(10),
            ..defaults.solve.clone()
        },
        ..defaults
    };
    let outside = Box::new(Scripted(desktop.clone()));
    // The door's lines name the actions as the window's buttons do.
    let face = Face {
        hint_window: false,
        labels: dustbot::gui::layout::label,
    };
    let door = Door::open(options, face, outside, places).unwrap();
    (door, desktop, dir)
}

/// Moves `door` on until `done` says so of it and of the lines it said
/// (kept in `said`); 30 s at most, then fails saying it waited for `what`.
fn drive(
    door: &mut Door,
    said: &mut Vec<String>,
    what: &str,
    done: impl Fn(&Door, &[String]) -> bool,
) {
    let started = Instant::now();
    loop {
        door.advance();
        said.extend(door.take_said());
        if done(door, said) {
            return;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "no {what} but {door:?}: {said:#?}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Moves `door` on until it offers `offer`.
fn until(door: &mut Door, offer: Offer, said: &mut Vec<String>) {
    drive(door, said, &format!("{offer:?}"), |door, _| {
        door.offer() == offer
    });
}

/// Moves `door` on until it said a line holding `text`: that line.
fn until_said(door: &mut Door, text: &str, said: &mut Vec<String>) -> String {
    let holds = |line: &&String| line.contains(text);
    drive(door, said, text, |_, said| said.iter().any(|l| holds(&l)));
    said.iter().find(holds).cloned().unwrap_or_default()
}

#[test]
fn the_door_asks_about_a_window_found_by_its_board_and_a_no_can_be_taken_back() {
    let (mut door, _desktop, dir) = door_on("Dust Practice", "");
    let mut said = Vec::new();
    until(&mut door, Offer::Question, &mut said);
    assert!(
        said.iter().any(|l| l.contains("is this window the game?")),
        "{said:#?}"
    );
    let turn = door.turn();
    assert_eq!(door.act(Action::No), Flow::Go);
    assert_eq!(door.offer(), Offer::Looking);
    // Looked again: the window said not to be the game is not offered.
    let line = until_said(&mut door, "no game found", &mut said);
    assert!(line.contains("Yes takes it back"), "{line}");
    assert_eq!(door.offer(), Offer::Looking);
    door.act(Action::Yes);
    assert_eq!(door.offer(), Offer::Menu);
    assert!(door.turn() > turn);
    // Said with the menu, or after it where a loaded machine takes over a
    // second to prove it.
    until_said(&mut door, "optimum 11 clicks, proven", &mut said);
    for text in ["found the game by its board", "window: \"Dust Practice\""] {
        assert!(said.iter().any(|l| l.contains(text)), "{text}: {said:#?}");
    }
    assert_eq!(door.shown().unwrap().clicks.len(), 11);
    let settings = std::fs::read_to_string(dir.path().join("settings.toml")).unwrap();
    assert!(
        settings.contains("window = \"Dust Practice\""),
        "{settings}"
    );
}

#[test]
fn a_window_found_by_its_board_has_it_proven_while_the_door_asks() {
    let (mut door, _desktop, _dir) = door_on_board("Dust Practice", "", HARD);
    let mut said = Vec::new();
    until(&mut door, Offer::Question, &mut said);
    // The player reads the question as long as the proof takes.
    let asked = Instant::now();
    drive(&mut door, &mut said, "the proof's time", |_, _| {
        asked.elapsed() > Duration::from_secs(12)
    });
    assert!(!said.iter().any(|l| l.contains("optimum")), "{said:#?}");
    // The yes finds the optimum there, with no wait and no word of one.
    door.act(Action::Yes);
    said.extend(door.take_said());
    assert!(
        said.iter().any(|l| l.contains("optimum 14 clicks")),
        "{said:#?}"
    );
    assert!(
        !said.iter().any(|l| l.contains("still proving")),
        "{said:#?}"
    );
    assert_eq!(door.offer(), Offer::Menu);
}

#[test]
fn the_door_plays_the_game_to_the_clear_and_the_record_counts_it() {
    let (mut door, _desktop, dir) = door_on("Nodiatis", "");
    let mut said = Vec::new();
    until(&mut door, Offer::Menu, &mut said);
    assert!(
        said.iter()
            .any(|l| l.contains("found the game by its name")),
        "{said:#?}"
    );
    // Nothing recorded yet.
    door.act(Action::Record);
    let line = until_said(&mut door, "no games recorded yet", &mut said);
    assert!(line.contains(&dir.path().display().to_string()), "{line}");
    // The run goes on in place here: it ends as the player closes the
    // game once it is cleared, the menu back. The board the door proved
    // is played by the plan proven there, with no search of its own.
    until_said(&mut door, "optimum 11 clicks, proven", &mut said);
    door.act(Action::Play);
    until(&mut door, Offer::Menu, &mut said);
    for text in [
        "plan: 11 moves, proven optimal in 0.0 ms (0 nodes)",
        "playing: move the mouse to stop",
        "cleared in 11 clicks",
        "1 game(s): 1 cleared",
        "ended: the game window closed",
        "no board read now",
    ] {
        assert!(said.iter().any(|l| l.contains(text)), "{text}: {said:#?}");
    }
    assert!(!said.iter().any(|l| l.starts_with("error")), "{said:#?}");
    let settings = std::fs::read_to_string(dir.path().join("settings.toml")).unwrap();
    assert!(settings.contains("last_choice = \"play\""), "{settings}");
    assert_eq!(
        door.last_choice(),
        Some(dustbot::app::settings::Choice::Play)
    );
    // The record: the game counted, its plot saved for a face to show.
    door.act(Action::Record);
    let line = until_said(&mut door, "1 game in ", &mut said);
    assert!(line.contains("games.jsonl"), "{line}");
    let plot = door.plot().unwrap().to_owned();
    assert!(plot.starts_with(dir.path()) && plot.is_file(), "{plot:?}");
    // The game's window gone: the menu is withdrawn, the game looked for.
    until(&mut door, Offer::Looking, &mut said);
    assert!(door.plot().is_none() || door.game().is_none());
    assert_eq!(door.act(Action::Quit), Flow::Quit);
}

#[test]
fn play_started_while_the_door_still_proves_takes_up_its_proof() {
    // The door says it still proves, and play started then waits for
    // that proof rather than start its own.
    let (mut door, _desktop, _dir) = door_on_board("Nodiatis", "", HARD);
    let mut said = Vec::new();
    until(&mut door, Offer::Menu, &mut said);
    until_said(&mut door, "still proving the optimum after 1 s", &mut said);
    door.act(Action::Play);
    until(&mut door, Offer::Menu, &mut said);
    let plan = said.iter().find(|l| l.contains("plan: 14 moves")).cloned();
    let plan = plan.unwrap_or_else(|| panic!("no plan of 14: {said:#?}"));
    // Proven, or under load the best found within the door's 10 s: the
    // door's search all the same, no nodes of the run's own.
    assert!(plan.contains("(0 nodes)"), "{plan}");
    assert!(
        said.iter().any(|l| l.contains("cleared in 14 clicks")),
        "{said:#?}"
    );
    assert!(!said.iter().any(|l| l.starts_with("error")), "{said:#?}");
    assert_eq!(door.act(Action::Quit), Flow::Quit);
}

/// The example game, its clicks counted in its title as the practice
/// window counts them ("Nodiatis - 3 clicks"), that takes no click after
/// its `takes`th (a game that froze mid-play).
struct FrozenAfter {
    game: Game,
    takes: u32,
}

impl Content for FrozenAfter {
    fn frame(&mut self, now: Instant, size: (u32, u32)) -> RgbaImage {
        self.game.frame(now, size)
    }

    fn click(&mut self, at: (f32, f32), now: Instant) {
        if *self.game.clicks.borrow() < self.takes {
            self.game.click(at, now);
        }
    }

    fn title(&self) -> Option<String> {
        Some(format!("Nodiatis - {} clicks", self.game.clicks.borrow()))
    }
}

#[test]
fn after_a_run_that_stopped_on_an_error_the_status_and_board_are_the_games_now() {
    let (game, size, _) = Game::new(&[EXAMPLE], Scale(1.0));
    let scene = FrozenAfter { game, takes: 3 };
    let (mut door, _desktop, _dir) = door_showing("Nodiatis", "", Box::new(scene), size);
    let mut said = Vec::new();
    until(&mut door, Offer::Menu, &mut said);
    until_said(&mut door, "optimum 11 clicks, proven", &mut said);
    let first = door.shown().unwrap().board;
    assert!(
        door.status_lines().contains(&"optimum 11 clicks, proven"),
        "{door:?}"
    );
    // Three clicks taken, the fourth not: play stops on the error.
    door.act(Action::Play);
    until(&mut door, Offer::Failed, &mut said);
    said.extend(door.take_said());
    assert!(said.iter().any(|l| l.starts_with("error: ")), "{said:#?}");
    // The game's title and board as they are now, not the first's: its
    // plan of 11 clicks on the full board is gone.
    let lines = door.status_lines();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("window: \"Nodiatis - 3 clicks\"")),
        "{lines:#?}"
    );
    assert!(
        !lines.iter().any(|l| l.contains("optimum 11 clicks")),
        "{lines:#?}"
    );
    assert!(
        door.shown().is_none_or(|shown| shown.board != first),
        "{:?}",
        door.shown()
    );
}

#[test]
fn a_failure_is_said_with_try_again_which_looks_for_the_game_anew() {
    let (mut door, desktop, _dir) = door_on("Nodiatis", "");
    let mut said = Vec::new();
    until(&mut door, Offer::Menu, &mut said);
    // The game closes before the door notices: calibrating on it fails.
    desktop.close();
    door.act(Action::Calibrate);
    assert_eq!(door.offer(), Offer::Failed);
    said.extend(door.take_said());
    assert!(said.iter().any(|l| l.starts_with("error: ")), "{said:#?}");
    assert!(door.status_lines().iter().any(|l| l.starts_with("error: ")));
    // Try again: a new window of the game is found.
    door.act(Action::TryAgain);
    assert_eq!(door.offer(), Offer::Looking);
    let (game, _, _) = Game::new(&[EXAMPLE], Scale(1.0));
    desktop.replace(Box::new(game));
    until(&mut door, Offer::Menu, &mut said);
    assert_eq!(door.game().unwrap().id, desktop.window().id);
}

#[test]
fn calibrating_is_cancelled_then_saved_and_read_with_from_then_on() {
    let (mut door, _desktop, dir) = door_on("Nodiatis", "");
    let mut said = Vec::new();
    until(&mut door, Offer::Menu, &mut said);
    door.act(Action::Calibrate);
    assert_eq!(door.offer(), Offer::Calibrating);
    let proposed = *door.calibrating().unwrap();
    assert_eq!(proposed.to_string(), EXAMPLE);
    // A correction the face makes, said; then cancelled: nothing saved.
    door.correct(|board| Ok((*board, "kept as it is".to_owned())));
    door.act(Action::Cancel);
    assert_eq!(door.offer(), Offer::Menu);
    said.extend(door.take_said());
    assert!(
        said.iter().any(|l| l == "calibrate: kept as it is"),
        "{said:#?}"
    );
    assert!(
        said.iter().any(|l| l.contains("calibration unchanged")),
        "{said:#?}"
    );
    assert_eq!(
        std::fs::read_dir(dir.path().join("config"))
            .unwrap()
            .count(),
        0
    );
    // Confirmed and saved: in the settings folder, named in the settings,
    // and read with.
    door.act(Action::Calibrate);
    door.act(Action::Save);
    assert_eq!(door.offer(), Offer::Menu);
    said.extend(door.take_said());
    assert!(
        said.iter().any(|l| l.contains("saved the calibration as")),
        "{said:#?}"
    );
    let saved = door.calibration_path().to_owned();
    assert!(
        saved.starts_with(dir.path().join("config")) && saved.is_file(),
        "{saved:?}"
    );
    let settings = std::fs::read_to_string(dir.path().join("settings.toml")).unwrap();
    assert!(settings.contains("calibration = "), "{settings}");
    assert_eq!(door.shown().unwrap().board.to_string(), EXAMPLE);
}

#[test]
fn a_saved_calibration_that_is_gone_offers_the_default_which_is_remembered() {
    let (mut door, _desktop, dir) = door_on("Nodiatis", "calibration = \"gone.toml\"\n");
    assert_eq!(door.offer(), Offer::Unusable);
    let said = door.take_said();
    let error = said.iter().find(|l| l.starts_with("error: ")).unwrap();
    assert!(
        error.contains("gone.toml") && error.contains("line 1"),
        "{error}"
    );
    door.act(Action::UseDefault);
    let mut said = Vec::new();
    until(&mut door, Offer::Menu, &mut said);
    assert!(
        said.iter().any(|l| l.contains("optimum 11 clicks, proven")),
        "{said:#?}"
    );
    let settings = std::fs::read_to_string(dir.path().join("settings.toml")).unwrap();
    assert!(!settings.contains("gone.toml"), "{settings}");
}

#[test]
fn a_game_minimised_at_the_start_is_waited_for_never_said_missing_even_after_a_key() {
    let (mut door, desktop, _dir) = door_on("Nodiatis", "");
    desktop.minimise(true);
    let mut said = Vec::new();
    let line = until_said(&mut door, "is minimised", &mut said);
    assert!(line.contains("\"Nodiatis\""), "{line}");
    assert!(line.contains("waiting for it to show"), "{line}");
    // A key for hints while it waits says nothing that blames the game.
    door.act(Action::Hints);
    said.extend(door.take_said());
    assert!(
        !said.iter().any(|l| l.contains("start the dust game")),
        "{said:#?}"
    );
    // Restored, it is found.
    desktop.minimise(false);
    until(&mut door, Offer::Menu, &mut said);
    assert!(
        said.iter()
            .any(|l| l.contains("found the game by its name")),
        "{said:#?}"
    );
}
