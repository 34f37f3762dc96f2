//! Capture: finds the game window among the visible windows (`xcap`'s
//! list) and grabs its pixels through the platform's `Pixels` (X11's kept
//! connection, Windows' GDI, macOS' window server), with `xcap`'s monitor
//! capture where that cannot connect. It owns the window list
//! (what is visible, which one the user means, which are the bot's own,
//! as its process tree tells, [`super::process`])
//! and the window's fresh geometry (its client area), which live play
//! checks before every click. It knows nothing of boards.

use std::time::Instant;

use image::RgbaImage;

use super::input;
use super::platform;
use super::process::{
    CommandLine, bots_own, own_processes, own_terminal_among, own_window, terminal_app,
};
use super::screen::{MonitorArea, Region, ScreenPoint, ScreenRect};
use super::traits::{Desktop, GameWindow, Pointer, parts_of_one_capture};
use super::words::{CaptureError, InputError, WindowInfo};

/// What capture tells of a window beside its geometry.
impl WindowInfo {
    fn matches(&self, query: &str) -> bool {
        names(&self.title, query) || names(&self.app, query)
    }

    /// Whether the window is a terminal's (its application is a known
    /// terminal program): one that shows a command line in its title.
    pub fn is_terminal(&self) -> bool {
        terminal_app(&self.app)
    }

    /// Whether the window is one of this process's own (the app's, the
    /// hint window, the practice window), as they were opened.
    pub fn is_ours(&self) -> bool {
        super::own::is_ours(self.id)
    }

    /// Whether the window is one of another dustbot process's own (its
    /// hint window, its marks, its app's window), by its process: never
    /// the game, whatever it shows or is named. A practice window is a
    /// game, whoever runs it.
    pub fn is_another_bots(&self) -> bool {
        self.pid
            .and_then(platform::command_line_of)
            .is_some_and(|command| bots_own(&command))
    }

    /// Whether `--window QUERY`, run as `command`, must never take this
    /// window: its title holds the bot's own command line (a terminal
    /// that names the running command, Windows Terminal's tab), or it is
    /// a terminal's whose title holds the search text.
    fn is_the_bots_terminal(&self, query: &str, command: &CommandLine) -> bool {
        command.is_in(&self.title) || (self.is_terminal() && names(&self.title, query))
    }
}

/// Whether `query` names a window called `text`: it is part of it,
/// ignoring case.
pub fn names(text: &str, query: &str) -> bool {
    text.to_lowercase().contains(&query.to_lowercase())
}

/// The system's desktop: windows through `xcap`, the mouse through
/// `enigo` on X11, Win32 on Windows.
#[derive(Debug, Default)]
pub struct SystemDesktop {
    _private: (),
}

impl SystemDesktop {
    pub fn new() -> SystemDesktop {
        SystemDesktop::default()
    }
}

impl Desktop for SystemDesktop {
    fn windows(&mut self) -> Result<Vec<WindowInfo>, CaptureError> {
        let all = list_all()?;
        let own = own_processes();
        let console = own_window();
        Ok(all
            .iter()
            .filter_map(|w| info(w).ok())
            .filter(|w| w.pid.is_none_or(|pid| !own.contains(&pid)))
            .filter(|w| Some(w.id) != console)
            .filter(|w| !w.is_ours())
            .collect())
    }

    fn own_terminal(&mut self) -> Result<Option<WindowInfo>, CaptureError> {
        let all: Vec<WindowInfo> = list_all()?.iter().filter_map(|w| info(w).ok()).collect();
        Ok(own_terminal_among(&all).cloned())
    }

    fn open(&mut self, info: &WindowInfo) -> Result<Box<dyn GameWindow>, CaptureError> {
        let window = xcap::Window::all()
            .ok()
            .and_then(|list| list.into_iter().find(|w| w.id().ok() == Some(info.id)))
            .ok_or_else(|| gone(&info.title))?;
        Ok(Box::new(SystemWindow {
            window,
            info: info.clone(),
            screen: None,
            pixels: platform::Pixels::connect()
                .map_err(|cause| log::debug!("capturing through xcap: {cause}"))
                .ok(),
        }))
    }

    fn pointer(&mut self) -> Result<Box<dyn Pointer>, InputError> {
        Ok(Box::new(input::SystemPointer::new()?))
    }
}

/// A window titled `title` that can no longer be found: gone, or the
/// whole display with it ([`display_lost`]), never taken for a
/// game window closed.
fn gone(title: &str) -> CaptureError {
    if display_lost() {
        CaptureError::DisplayClosed
    } else {
        CaptureError::Gone {
            title: title.to_owned(),
        }
    }
}

/// Every window `xcap` lists, front-most first, once the platform says
/// there is a desktop to list.
fn list_all() -> Result<Vec<xcap::Window>, CaptureError> {
    platform::check_display()?;
    xcap::Window::all().map_err(|e| CaptureError::NoDesktop {
        cause: e.to_string(),
    })
}

/// Chooses the window `query` names among `all`, for the bot run as
/// `command`: exactly one visible match, else an error that lists the
/// candidates. A terminal that shows the bot's command line, or a
/// terminal's window whose title holds `query`, is never a match: on
/// Windows 11 the tab that runs `bot --window Nodiatis` is titled
/// `...cmd.exe - bot --window Nodiatis`, and Windows Terminal is not the
/// bot's ancestor.
pub(crate) fn pick(
    all: &[WindowInfo],
    query: &str,
    command: &CommandLine,
) -> Result<WindowInfo, CaptureError> {
    let matches: Vec<&WindowInfo> = all
        .iter()
        .filter(|w| w.matches(query) && !w.is_the_bots_terminal(query, command))
        .collect();
    let visible: Vec<&WindowInfo> = matches.iter().copied().filter(|w| w.is_visible()).collect();
    match (visible.as_slice(), matches.as_slice()) {
        ([one], _) => Ok((*one).clone()),
        ([], [hidden]) => Err(unusable(hidden)),
        ([], _) => Err(CaptureError::NoMatch {
            query: crate::text::excerpt(query),
            candidates: list(all.iter().filter(|w| w.is_visible())),
        }),
        (several, _) => Err(CaptureError::Several {
            query: crate::text::excerpt(query),
            count: several.len(),
            candidates: list(several.iter().copied()),
        }),
    }
}

fn unusable(w: &WindowInfo) -> CaptureError {
    let title = w.title.clone();
    if w.minimised {
        CaptureError::Minimised { title }
    } else if w.hidden {
        CaptureError::Hidden { title }
    } else {
        CaptureError::ZeroSize { title }
    }
}

/// The windows for a message, each as [`WindowInfo`] shows it; two that
/// would read the same (one program's twin windows, one on the other) are
/// told apart by their ids.
fn list<'a>(windows: impl Iterator<Item = &'a WindowInfo>) -> String {
    let windows: Vec<&WindowInfo> = windows.collect();
    let shown: Vec<String> = windows.iter().map(ToString::to_string).collect();
    let names: Vec<String> = windows
        .iter()
        .zip(&shown)
        .map(|(w, text)| {
            if shown.iter().filter(|other| *other == text).count() > 1 {
                format!("{text} (window id {:#x})", w.id)
            } else {
                text.clone()
            }
        })
        .collect();
    if names.is_empty() {
        "none".into()
    } else {
        names.join("; ")
    }
}

/// What the window system says of `w`.
fn info(w: &xcap::Window) -> Result<WindowInfo, xcap::XCapError> {
    let (id, area, (minimised, hidden)) = geometry(w)?;
    let title = w.title().ok().filter(|t| !t.is_empty());
    Ok(WindowInfo {
        id,
        pid: w.pid().ok(),
        title: title.or_else(|| plain_title(id)).unwrap_or_default(),
        app: w.app_name().unwrap_or_default(),
        x: area.x,
        y: area.y,
        width: area.width,
        height: area.height,
        minimised,
        hidden,
    })
}

/// The title of window `id` where `xcap` reads none: on X11 a window that
/// sets only the ICCCM `WM_NAME` as Latin-1 text (xterm, older toolkits
/// and games), which xcap reads as compound text only.
fn plain_title(id: u32) -> Option<String> {
    platform::wm_name(id)
}

/// Where `w` is and whether it is minimised or hidden, with its id: what
/// changes while a game is watched, and all that is read of it every
/// capture (its title and application cost a round trip each, and on
/// Windows a read of the program's file). On Windows `xcap` gives the
/// frame (title bar and borders included): the place and size are the
/// client area's, where the game draws and the bot reads and clicks.
/// Hidden: a window on another desktop keeps its place, and the screen
/// there shows another window's pixels.
fn geometry(w: &xcap::Window) -> Result<(u32, ScreenRect, (bool, bool)), xcap::XCapError> {
    let id = w.id()?;
    let minimised = w.is_minimized().unwrap_or(false);
    let hidden = !minimised && !platform::shown(id);
    if let Some(client) = platform::client_area(id) {
        return Ok((id, client, (minimised, hidden)));
    }
    let area = ScreenRect {
        x: w.x()?,
        y: w.y()?,
        width: w.width()?,
        height: w.height()?,
    };
    Ok((id, area, (minimised, hidden)))
}

/// A window of the system's desktop, watched by live play or assist mode.
#[derive(Debug)]
pub struct SystemWindow {
    window: xcap::Window,
    info: WindowInfo,
    /// The monitor the last region capture used and its place on the
    /// desktop: looking it up costs several round trips to the display.
    screen: Option<(xcap::Monitor, MonitorArea)>,
    /// The screen's pixels through the platform: on X11 one connection
    /// kept open (`xcap` opens three a capture, which cost the X server
    /// more than the pixels), on Windows GDI asked for the desktop's
    /// rectangle (`xcap` reads the monitor's place with
    /// `EnumDisplaySettingsW`, which fails under Remote Desktop); `None`
    /// where that cannot serve.
    pixels: Option<platform::Pixels>,
}

impl GameWindow for SystemWindow {
    fn info(&self) -> &WindowInfo {
        &self.info
    }

    // Read only for a message: a round trip each time.
    fn title_now(&self) -> String {
        self.window
            .title()
            .ok()
            .filter(|t| !t.is_empty())
            .or_else(|| plain_title(self.info.id))
            .unwrap_or_else(|| self.info.title.clone())
    }

    // The title, process and application stay those found.
    fn refresh(&mut self) -> Result<&WindowInfo, CaptureError> {
        let (_, area, (minimised, hidden)) =
            geometry(&self.window).map_err(|_| gone(&self.info.title))?;
        let fresh = WindowInfo {
            x: area.x,
            y: area.y,
            width: area.width,
            height: area.height,
            minimised,
            hidden,
            ..self.info.clone()
        };
        if !fresh.is_visible() {
            return Err(unusable(&fresh));
        }
        self.info = fresh;
        Ok(&self.info)
    }

    // All windows count, the bot's own terminal included; only those over
    // the region are read whole.
    fn covering(&self, region: Region) -> Result<Vec<WindowInfo>, CaptureError> {
        let on_desktop = region.on_screen(self.info.area().origin());
        let all = list_all()?;
        Ok(all
            .iter()
            .filter_map(|w| Some((w, geometry(w).ok()?)))
            .take_while(|(_, (id, ..))| *id != self.info.id)
            .filter(|(_, (_, area, (minimised, hidden)))| {
                !minimised && !hidden && area.intersection(&on_desktop).is_some()
            })
            .filter_map(|(w, _)| info(w).ok())
            .filter(WindowInfo::is_visible)
            .collect())
    }

    // Windows in front included, because that is where a click would land.
    fn capture_region(&mut self, region: Region) -> Result<(RgbaImage, Region), CaptureError> {
        let started = Instant::now();
        let origin = self.info.area().origin();
        let on_desktop = region.on_screen(origin);
        let (monitor, bounds) = self.screen_of(&on_desktop)?;
        let part = on_desktop
            .intersection(&bounds)
            .ok_or_else(|| CaptureError::OffScreen {
                title: self.info.title.clone(),
            })?;
        let grab = |cause: String| CaptureError::Grab {
            title: self.info.title.clone(),
            cause,
        };
        let kept = self.pixels.as_ref().map(|pixels| pixels.grab(part));
        let image = match kept {
            Some(image) => image.map_err(grab)?,
            None => monitor
                .capture_region(
                    (part.x - bounds.x) as u32,
                    (part.y - bounds.y) as u32,
                    part.width,
                    part.height,
                )
                .map_err(|e| grab(e.to_string()))?,
        };
        log::debug!(
            "captured a {}x{} region in {:.1} ms",
            image.width(),
            image.height(),
            started.elapsed().as_secs_f64() * 1000.0
        );
        Ok((image, part.in_client(origin)))
    }

    // Where a connection is kept (X11), the parts are small requests on
    // it, asked for together.
    fn capture_parts(&mut self, parts: &[Region]) -> Result<Vec<RgbaImage>, CaptureError> {
        if let (Some(pixels), Some((_, MonitorArea { bounds, .. }))) = (&self.pixels, &self.screen)
        {
            let origin = self.info.area().origin();
            let on_desktop: Vec<ScreenRect> = parts.iter().map(|p| p.on_screen(origin)).collect();
            if on_desktop
                .iter()
                .any(|part| part.intersection(bounds) != Some(*part))
            {
                return Err(CaptureError::OffScreen {
                    title: self.info.title.clone(),
                });
            }
            return pixels
                .grab_all(&on_desktop)
                .map_err(|cause| CaptureError::Grab {
                    title: self.info.title.clone(),
                    cause,
                });
        }
        parts_of_one_capture(self, parts)
    }

    fn screen(&self) -> Option<ScreenRect> {
        self.screen.as_ref().map(|(_, area)| area.bounds)
    }

    fn work_area(&self) -> Option<ScreenRect> {
        self.screen.as_ref().map(|(_, area)| area.work)
    }

    fn screen_scale(&self) -> f32 {
        self.screen
            .as_ref()
            .and_then(|(monitor, _)| monitor.scale_factor().ok())
            .filter(|scale| scale.is_finite() && *scale >= 1.0)
            .unwrap_or(1.0)
    }

    fn window_at(&self, point: ScreenPoint) -> Result<Option<u32>, CaptureError> {
        platform::window_at(point).map_err(|cause| CaptureError::NoDesktop { cause })
    }
}

impl SystemWindow {
    /// The monitor that shows the most of `area` (desktop coordinates),
    /// cached while it holds the whole area.
    fn screen_of(
        &mut self,
        area: &ScreenRect,
    ) -> Result<(xcap::Monitor, ScreenRect), CaptureError> {
        if let Some((monitor, found)) = &self.screen
            && found.bounds.intersection(area) == Some(*area)
        {
            return Ok((monitor.clone(), found.bounds));
        }
        let grab = |e: xcap::XCapError| CaptureError::Grab {
            title: self.info.title.clone(),
            cause: e.to_string(),
        };
        let mut monitors = monitors().map_err(grab)?;
        let bounds: Vec<ScreenRect> = monitors.iter().map(|(_, a)| a.bounds).collect();
        let best = screen_for(area, &bounds, &self.info.title)?;
        let found = monitors.swap_remove(best);
        let bounds = found.1.bounds;
        self.screen = Some(found.clone());
        Ok((found.0, bounds))
    }
}

/// Which of `monitors` a capture of `area` (of the window `title`) is
/// on: the one that shows most of it ([`most_of`]); none listed is said
/// as such, never as the window off screen.
fn screen_for(
    area: &ScreenRect,
    monitors: &[ScreenRect],
    title: &str,
) -> Result<usize, CaptureError> {
    if monitors.is_empty() {
        return Err(CaptureError::NoMonitor {
            cause: "none listed".into(),
        });
    }
    most_of(area, monitors).ok_or_else(|| CaptureError::OffScreen {
        title: title.to_owned(),
    })
}

/// The monitors with their place on the desktop and their work area.
fn monitors() -> Result<Vec<(xcap::Monitor, MonitorArea)>, xcap::XCapError> {
    let own = |m: &xcap::Monitor| {
        Some(ScreenRect {
            x: m.x().ok()?,
            y: m.y().ok()?,
            width: m.width().ok()?,
            height: m.height().ok()?,
        })
    };
    Ok(with_areas(
        xcap::Monitor::all()?,
        platform::monitor_areas(),
        own,
    ))
}

/// Each of `all` with its area: the platform's, where it gives one for
/// each (in the same order: X11's RandR, xcap's are divided by the
/// desktop's scale; Windows' monitor API, which answers where xcap's
/// `EnumDisplaySettingsW` fails), else its `own` rectangle, all of it work
/// area; one with neither is left out.
fn with_areas<M>(
    all: Vec<M>,
    platform: Option<Vec<MonitorArea>>,
    own: impl Fn(&M) -> Option<ScreenRect>,
) -> Vec<(M, MonitorArea)> {
    match platform.filter(|areas| areas.len() == all.len()) {
        Some(areas) => all.into_iter().zip(areas).collect(),
        None => all
            .into_iter()
            .filter_map(|m| {
                let area = MonitorArea::whole(own(&m)?);
                Some((m, area))
            })
            .collect(),
    }
}

/// The screens: each one's place on the desktop, its work area (where
/// the bot's windows go) and its display scale (1.0 for 100%). An error
/// when none is listed.
pub fn screens() -> Result<Vec<(MonitorArea, f32)>, CaptureError> {
    platform::check_display()?;
    let monitors = monitors().map_err(|e| CaptureError::NoDesktop {
        cause: e.to_string(),
    })?;
    if monitors.is_empty() {
        return Err(CaptureError::NoMonitor {
            cause: "none listed".into(),
        });
    }
    Ok(monitors
        .into_iter()
        .map(|(m, area)| (area, m.scale_factor().unwrap_or(1.0)))
        .collect())
}

/// Which of `monitors` shows the most of `area`: a window whose corner
/// is off every monitor while its board is on one is read there. `None`
/// when none shows any of it.
fn most_of(area: &ScreenRect, monitors: &[ScreenRect]) -> Option<usize> {
    let shown = |m: &ScreenRect| {
        m.intersection(area)
            .map_or(0, |r| u64::from(r.width) * u64::from(r.height))
    };
    let (best, most) = monitors
        .iter()
        .enumerate()
        .map(|(i, m)| (i, shown(m)))
        .max_by_key(|&(i, shown)| (shown, std::cmp::Reverse(i)))?;
    (most > 0).then_some(best)
}

/// Whether the display is gone (its X server ended): asked when a
/// capture or an input fails. When it is, every run is asked to stop and
/// the faces end, as on a request to end ([`super::asked::end_asked`]).
pub fn display_lost() -> bool {
    // No display named is no display lost (the scripted desktop's runs).
    let lost = platform::check_display().is_ok() && !platform::display_alive();
    if lost {
        super::asked::display_closed();
    }
    lost
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rect(x: i32, width: u32) -> ScreenRect {
        ScreenRect {
            x,
            y: 0,
            width,
            height: 1080,
        }
    }

    #[test]
    fn every_monitor_the_monitor_api_lists_is_kept_where_xcaps_own_place_fails() {
        // xcap's EnumDisplaySettingsW failing for both (Remote Desktop):
        // no place of its own; the monitor API gives each, work areas too.
        let api = vec![
            MonitorArea {
                bounds: rect(0, 1920),
                work: ScreenRect {
                    height: 1032,
                    ..rect(0, 1920)
                },
            },
            MonitorArea::whole(rect(1920, 1280)),
        ];
        let kept = with_areas(vec!['a', 'b'], Some(api.clone()), |_| None);
        assert_eq!(kept, vec![('a', api[0]), ('b', api[1])]);
        // Without the platform's list (or one of another length), xcap's
        // own places, the whole monitor its work area; one without is
        // left out.
        let own = |m: &char| (*m == 'a').then(|| rect(0, 1920));
        let alone = vec![('a', MonitorArea::whole(rect(0, 1920)))];
        assert_eq!(with_areas(vec!['a', 'b'], None, own), alone);
        assert_eq!(
            with_areas(vec!['a', 'b'], Some(api[..1].to_vec()), own),
            alone
        );
    }

    #[test]
    fn no_monitor_listed_is_said_so_never_off_screen() {
        let area = rect(100, 200);
        assert!(matches!(
            screen_for(&area, &[], "Nodiatis"),
            Err(CaptureError::NoMonitor { .. })
        ));
        assert!(matches!(
            screen_for(&area, &[rect(5000, 100)], "Nodiatis"),
            Err(CaptureError::OffScreen { .. })
        ));
        assert_eq!(
            screen_for(&area, &[rect(5000, 100), rect(0, 1920)], "Nodiatis"),
            Ok(1)
        );
        let said = CaptureError::NoMonitor {
            cause: "none listed".into(),
        }
        .to_string();
        assert!(!said.contains("not on any screen"), "{said}");
    }

    fn window(title: &str, app: &str, width: u32, minimised: bool) -> WindowInfo {
        WindowInfo {
            id: 1,
            pid: Some(7),
            title: title.into(),
            app: app.into(),
            x: 0,
            y: 0,
            width,
            height: 100,
            minimised,
            hidden: false,
        }
    }

    /// A command line that no title shows.
    fn nobody() -> CommandLine {
        CommandLine::of(&[])
    }

    fn command(line: &[&str]) -> CommandLine {
        CommandLine::of(&line.iter().map(|a| (*a).to_owned()).collect::<Vec<_>>())
    }

    /// The windows a Windows 11 player has when they run the README's
    /// route: `cmd` typed in Explorer's address bar opens Windows
    /// Terminal, whose tab names the command running; the game; the
    /// Explorer window of the bot's folder; a browser on the game's wiki.
    fn windows_11(tab: &str) -> Vec<WindowInfo> {
        let mut all = vec![
            window(tab, "Windows Terminal", 1000, false),
            window("Nodiatis", "Nodiatis", 1024, false),
            window("Downloads - File Explorer", "Windows Explorer", 900, false),
            window("Dust guide - Google Chrome", "Google Chrome", 1200, false),
        ];
        for (id, w) in all.iter_mut().enumerate() {
            w.id = id as u32 + 1;
        }
        all
    }

    #[test]
    fn the_terminal_that_runs_the_bot_is_never_the_game() {
        let tab = r"C:\WINDOWS\system32\cmd.exe - bot  --window Nodiatis";
        let all = windows_11(tab);
        let bot = command(&["bot", "--window", "Nodiatis"]);
        assert_eq!(pick(&all, "Nodiatis", &bot).unwrap().id, 2);
        // Typed as bot.exe, .\bot or with quotes, the tab shows it so.
        for (tab, args) in [
            (
                r"C:\WINDOWS\system32\cmd.exe - bot.exe --window nodiatis",
                &["bot.exe", "--window", "nodiatis"][..],
            ),
            (
                r"Administrator: Windows PowerShell - .\bot --window Nodiatis",
                &[r"C:\dustbot\bot.exe", "--window", "Nodiatis"][..],
            ),
            (
                r#"cmd.exe - bot --window "Nodiatis" --dry-run"#,
                &["bot", "--window", "Nodiatis", "--dry-run"][..],
            ),
        ] {
            let all = windows_11(tab);
            assert_eq!(
                pick(&all, "Nodiatis", &command(args)).unwrap().id,
                2,
                "{tab}"
            );
        }
        // Whatever the text: a terminal never matches by its title.
        let all = windows_11(r"C:\WINDOWS\system32\cmd.exe - bot --window Dust");
        let bot = command(&["bot", "--window", "Dust"]);
        assert_eq!(pick(&all, "Dust", &bot).unwrap().id, 4);
        // A terminal titled with the text, running another command.
        let all = windows_11("Nodiatis notes - vim");
        assert_eq!(pick(&all, "Nodiatis", &nobody()).unwrap().id, 2);
    }

    #[test]
    fn the_monitor_is_the_one_that_shows_most_of_the_window() {
        let monitor = |x| ScreenRect {
            x,
            y: 0,
            width: 1920,
            height: 1080,
        };
        let monitors = [monitor(0), monitor(1920)];
        // The client area's corner is left of every monitor; its board
        // is on the first.
        let area = ScreenRect {
            x: -200,
            y: 100,
            width: 1000,
            height: 700,
        };
        assert_eq!(most_of(&area, &monitors), Some(0));
        let across = ScreenRect { x: 1500, ..area };
        assert_eq!(most_of(&across, &monitors), Some(1));
        let off = ScreenRect { x: -2000, ..area };
        assert_eq!(most_of(&off, &monitors), None);
    }

    #[test]
    fn picks_by_title_or_application_ignoring_case() {
        let all = [
            window("Aldric the Bold", "Nodiatis", 800, false),
            window("notes.txt", "editor", 800, false),
        ];
        let bot = CommandLine::of(&["bot".into(), "windows".into()]);
        assert_eq!(
            pick(&all, "nodiatis", &bot).unwrap().title,
            "Aldric the Bold"
        );
        assert_eq!(pick(&all, "ALDRIC", &bot).unwrap().title, "Aldric the Bold");
    }

    #[test]
    fn no_match_lists_the_visible_windows() {
        let all = [
            window("notes.txt", "editor", 800, false),
            window("hidden", "x", 800, true),
        ];
        let error = pick(&all, "nodiatis", &nobody()).unwrap_err().to_string();
        assert!(error.contains("notes.txt"), "{error}");
        assert!(!error.contains("hidden"), "{error}");
    }

    #[test]
    fn identical_windows_are_named_apart_and_long_titles_cut() {
        let long = "Nodiatis - ".to_owned() + &"x".repeat(300);
        let mut twin = window(&long, "client", 800, false);
        twin.id = 0x42;
        let all = [window(&long, "client", 800, false), twin];
        let error = pick(&all, "nodiatis", &nobody()).unwrap_err().to_string();
        assert!(error.contains("(window id 0x42)"), "{error}");
        assert_eq!(error.matches("(window id ").count(), 2, "{error}");
        assert!(!error.contains(&"x".repeat(100)), "{error}");
        let gone = CaptureError::Gone { title: long }.to_string();
        assert!(gone.contains("more characters) is gone"), "{gone}");
    }

    #[test]
    fn a_window_is_named_by_its_title_and_its_program_when_known() {
        assert_eq!(
            window("Nodiatis", "client", 800, false).to_string(),
            "\"Nodiatis\" (client) at 0,0 size 800x100"
        );
        assert_eq!(
            window("Dust Practice", "", 800, false).to_string(),
            "\"Dust Practice\" at 0,0 size 800x100"
        );
    }

    #[test]
    fn several_matches_are_an_error() {
        let all = [
            window("Dust Practice", "a", 800, false),
            window("Dust Practice 2", "b", 800, false),
        ];
        let error = pick(&all, "dust", &nobody()).unwrap_err();
        assert!(matches!(error, CaptureError::Several { count: 2, .. }));
    }

    #[test]
    fn minimised_and_empty_windows_are_named() {
        let all = [window("Nodiatis", "n", 800, true)];
        assert!(matches!(
            pick(&all, "nod", &nobody()),
            Err(CaptureError::Minimised { .. })
        ));
        let all = [window("Nodiatis", "n", 0, false)];
        assert!(matches!(
            pick(&all, "nod", &nobody()),
            Err(CaptureError::ZeroSize { .. })
        ));
        // On another desktop: its place on the screen shows other windows.
        let mut away = window("Nodiatis", "n", 800, false);
        away.hidden = true;
        let error = pick(&[away], "nod", &nobody()).unwrap_err();
        assert!(matches!(error, CaptureError::Hidden { .. }));
        assert!(error.to_string().contains("on another desktop"), "{error}");
    }

    #[test]
    fn regions_intersect_or_not() {
        let a = Region {
            x: 0,
            y: 0,
            width: 100,
            height: 50,
        };
        let b = Region {
            x: 80,
            y: -10,
            width: 40,
            height: 30,
        };
        assert_eq!(
            a.intersection(&b),
            Some(Region {
                x: 80,
                y: 0,
                width: 20,
                height: 20
            })
        );
        let far = Region { x: 100, ..b };
        assert_eq!(a.intersection(&far), None);
        let on_screen = b.on_screen(ScreenPoint::new(-80, 10));
        assert_eq!((on_screen.x, on_screen.y), (0, 0));
        assert_eq!(on_screen.in_client(ScreenPoint::new(-80, 10)), b);
        assert!(on_screen.contains(ScreenPoint::new(39, 29)));
        assert!(!on_screen.contains(ScreenPoint::new(40, 29)));
    }
}
