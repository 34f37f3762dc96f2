//! Live play and assist mode on the scripted desktop (`desktop::fake`):
//! their real loops, no screen, on any platform. The game window is drawn
//! by the practice window's painter; clicks go to a game that plays them.
//! Display scaling of 100% to 200% and a second monitor left of the first
//! check that the pixels read and the points clicked are one space.

use std::cell::RefCell;
use std::rc::Rc;
use std::time::{Duration, Instant};

use dustbot::assist::{self, AssistSettings};
use dustbot::desktop::fake::{Click, Cover, FakeDesktop, Scale, Scene};
use dustbot::desktop::{Desktop as _, InputError, ScreenPoint, ScreenRect};
use dustbot::game::{Board, Rules};
use dustbot::geometry::{Geometry, PixelPoint};
use dustbot::live::{LiveError, LiveSettings, RulesChoice};
use dustbot::play::{self, Finish, PlaySettings};
use dustbot::practice::{self, Look, Painter};
use dustbot::render::{self, Canvas};
use dustbot::solver::SolveOptions;
use dustbot::vision::Calibration;
use image::RgbaImage;

/// The README's example board: 11 clicks, proven.
const EXAMPLE: &str = "GGGGBOYO,RORGYGBY,RRBGOORG,BRBOBYRG,BRYBBRGG,OYGGRORG";

/// A practice game without animation: a click plays at once.
struct Game {
    board: Board,
    rules: Rules,
    /// The board in the scene's logical pixels, where clicks land.
    geometry: Geometry,
    /// Draws at the desktop's scale.
    painter: Painter,
    clicks: Rc<RefCell<u32>>,
}

impl Game {
    fn new(board: Board, scale: Scale) -> (Game, (u32, u32), Rc<RefCell<u32>>) {
        let (geometry, size) = practice::layout(&board, 1.0);
        let (drawn, drawn_size) = practice::layout(&board, scale.0);
        let clicks = Rc::new(RefCell::new(0));
        let game = Game {
            board,
            rules: Rules::CentreRows,
            geometry,
            painter: Painter::new(&drawn, drawn_size, &Look::nodiatis()),
            clicks: Rc::clone(&clicks),
        };
        (game, (size.0 as u32, size.1 as u32), clicks)
    }
}

impl Scene for Game {
    fn frame(&mut self, _now: Instant, size: (u32, u32)) -> RgbaImage {
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
    let (game, size, clicks) = Game::new(board.parse().unwrap(), scale);
    let monitor = ScreenRect {
        x: -2560,
        y: 0,
        width: 2560,
        height: 1600,
    };
    let desktop = FakeDesktop::new(
        "Nodiatis",
        (-2400, 100),
        size,
        scale,
        monitor,
        Box::new(game),
    );
    (desktop, clicks)
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
    }
}

fn settings() -> PlaySettings {
    PlaySettings {
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
        let mut window = desktop.find("nodiatis").unwrap();
        assert_eq!(window.info().width, scale.physical(720));
        let report = play::play(&mut desktop, window.as_mut(), &settings(), &mut |_| {})
            .unwrap_or_else(|stop| panic!("at {}: {stop}", scale.0));
        assert_eq!(report.finish, Finish::Cleared, "at {}", scale.0);
        assert_eq!((report.clicks, report.planned), (11, 11), "at {}", scale.0);
        assert!(report.proven_optimal);
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
    let mut window = desktop.find("Nodiatis").unwrap();
    let stopped = play::play(&mut desktop, window.as_mut(), &settings(), &mut |event| {
        if let play::Event::Click { number: 3, .. } = event {
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
    assert_eq!(stopped.clicks, 3);
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
    let mut window = desktop.find("Nodiatis").unwrap();
    let stopped = play::play(&mut desktop, window.as_mut(), &settings(), &mut |_| {}).unwrap_err();
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
    let mut window = desktop.find("Nodiatis").unwrap();
    let report = play::play(&mut desktop, window.as_mut(), &settings(), &mut |_| {})
        .unwrap_or_else(|stop| panic!("{stop}"));
    assert_eq!(report.finish, Finish::Cleared);
    assert_eq!(report.clicks, 11);
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
    let mut window = desktop.find("Nodiatis").unwrap();
    let stopped = play::play(&mut desktop, window.as_mut(), &settings(), &mut |_| {}).unwrap_err();
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
fn assisting() -> AssistSettings {
    AssistSettings {
        live: live(),
        // No hint window: the terminal's hints are enough here.
        look: None,
    }
}

#[test]
fn a_window_moved_between_clicks_is_clicked_where_it_is_now() {
    let (mut desktop, game_clicks) = desktop(EXAMPLE, Scale(1.5));
    let user = desktop.clone();
    let mut window = desktop.find("Nodiatis").unwrap();
    let report = play::play(&mut desktop, window.as_mut(), &settings(), &mut |event| {
        if let play::Event::Click { number: 3, .. } = event {
            user.move_window((-2300, 300));
        }
    })
    .unwrap_or_else(|stop| panic!("{stop}"));
    assert_eq!((report.finish, report.clicks), (Finish::Cleared, 11));
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
    let mut window = desktop.find("Nodiatis").unwrap();
    let report = assist::assist(&mut desktop, &mut window, &assisting(), &mut |event| {
        if let assist::Event::Hint(_) = event {
            user.close();
        }
    })
    .unwrap();
    assert_eq!(
        (report.finish, report.clicks),
        (assist::Finish::WindowClosed, 0)
    );
    assert_eq!(*game_clicks.borrow(), 0);
}

#[test]
fn assist_follows_a_player_who_clicks_every_hint() {
    let (mut desktop, game_clicks) = desktop(EXAMPLE, Scale(1.25));
    let player = desktop.clone();
    let mut window = desktop.find("Nodiatis").unwrap();
    let mut hints = 0;
    let report = assist::assist(&mut desktop, &mut window, &assisting(), &mut |event| {
        if let assist::Event::Hint(hint) = event
            && let Some(at) = hint.next_at
        {
            hints += 1;
            player.player_click(at);
        }
    })
    .unwrap();
    assert_eq!(report.finish, assist::Finish::Cleared);
    assert_eq!((report.clicks, report.optimum), (11, 11));
    assert_eq!(hints, 11);
    assert_eq!(*game_clicks.borrow(), 11);
    // The assistant never clicked.
    assert!(desktop.clicks().is_empty());
}

/// The practice window's own game, animated in `style` over 100 ms in real
/// time (the loop waits for it), at 100%; `takes_clicks` false makes a game
/// that ignores every click, as one run as administrator ignores a
/// normal process's input.
struct Animated {
    round: practice::Round,
    geometry: Geometry,
    painter: Painter,
    takes_clicks: bool,
}

impl Scene for Animated {
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
    let mut window = desktop.find("Nodiatis").unwrap();
    let mut lost = Vec::new();
    let stopped = play::play(&mut desktop, window.as_mut(), &settings(), &mut |event| {
        if let play::Event::Lost { number, .. } = event {
            lost.push(number);
        }
    })
    .unwrap_err();
    assert!(
        matches!(stopped.error, LiveError::NoEffect { number: 1 }),
        "{stopped}"
    );
    assert!(stopped.to_string().contains("administrator"), "{stopped}");
    assert_eq!(lost, [1]);
    // The click and the one more, both on the board; no move counted
    // beyond the one tried.
    assert_eq!(desktop.clicks().len(), 2);
    assert_eq!(stopped.clicks, 1);
}

#[test]
fn a_click_the_game_ignored_is_made_again_and_the_pace_learned() {
    let mut desktop = animated(practice::Style::Idle, true);
    let mut window = desktop.find("Nodiatis").unwrap();
    let settings = PlaySettings {
        max_moves: Some(4),
        ..settings()
    };
    let mut lost = Vec::new();
    let report = play::play(&mut desktop, window.as_mut(), &settings, &mut |event| {
        if let play::Event::Lost { number, .. } = event {
            lost.push(number);
        }
    })
    .unwrap_or_else(|stop| panic!("{stop}"));
    // The second click comes as the first move's board looks final, while
    // the game ignores input: made again, then the bot waits long enough.
    assert_eq!(lost, [2]);
    assert_eq!((report.finish, report.clicks), (Finish::MaxMoves, 4));
    assert_eq!(desktop.clicks().len(), 5);
    assert_eq!(report.replans, 0);
}
