//! Capture: finds the game window among the visible windows and grabs its
//! pixels with `xcap`. It owns the window list (what is visible, which one
//! the user means) and the window's fresh geometry, which live play checks
//! before every click. It knows nothing of boards.

use std::time::Instant;

use image::RgbaImage;
use thiserror::Error;

/// A window as the window system reports it; the position is the top-left
/// of its client area on the screen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WindowInfo {
    pub id: u32,
    pub pid: Option<u32>,
    pub title: String,
    pub app: String,
    pub x: i32,
    pub y: i32,
    pub width: u32,
    pub height: u32,
    pub minimised: bool,
}

impl WindowInfo {
    /// Neither minimised nor of zero size.
    pub fn is_visible(&self) -> bool {
        !self.minimised && self.width > 0 && self.height > 0
    }

    /// The client area on the desktop.
    pub fn area(&self) -> Region {
        Region {
            x: self.x,
            y: self.y,
            width: self.width,
            height: self.height,
        }
    }

    fn matches(&self, query: &str) -> bool {
        names(&self.title, query) || names(&self.app, query)
    }
}

impl std::fmt::Display for WindowInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Titles are other programs' text: quoted, escaped and cut.
        write!(
            f,
            "{} ({}) at {},{} size {}x{}",
            crate::text::excerpt(&self.title),
            crate::text::printable(&self.app),
            self.x,
            self.y,
            self.width,
            self.height
        )
    }
}

/// Why no window or no picture of it.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum CaptureError {
    #[error("cannot list the windows (is there a display? DISPLAY={display:?}): {cause}")]
    NoDisplay { display: String, cause: String },
    #[error(
        "a Wayland session without X11 (WAYLAND_DISPLAY={wayland:?}, no DISPLAY): the bot sees and clicks windows through X11 only; run the game client under XWayland and give the bot its DISPLAY (e.g. DISPLAY=:0)"
    )]
    WaylandOnly { wayland: String },
    #[error(
        "no visible window's title or application contains {query}; visible windows: {candidates}"
    )]
    NoMatch { query: String, candidates: String },
    #[error("{count} windows match {query}: {candidates}; give a longer TEXT")]
    Several {
        query: String,
        count: usize,
        candidates: String,
    },
    #[error("the window {title:?} is minimised")]
    Minimised { title: String },
    #[error("the window {title:?} has zero size")]
    ZeroSize { title: String },
    #[error("the window {title:?} is gone (closed)")]
    Gone { title: String },
    #[error("cannot capture the window {title:?}: {cause}")]
    Grab { title: String, cause: String },
    #[error("the window {title:?} is not on any screen")]
    OffScreen { title: String },
}

/// A rectangle of a window's client area, in its pixels (x to the right,
/// y down, from the client area's top-left).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Region {
    pub x: i32,
    pub y: i32,
    pub width: u32,
    pub height: u32,
}

impl Region {
    /// The part of `self` inside `other`, if any.
    pub fn intersection(&self, other: &Region) -> Option<Region> {
        let left = self.x.max(other.x);
        let top = self.y.max(other.y);
        let right = (self.x + self.width as i32).min(other.x + other.width as i32);
        let bottom = (self.y + self.height as i32).min(other.y + other.height as i32);
        (right > left && bottom > top).then(|| Region {
            x: left,
            y: top,
            width: (right - left) as u32,
            height: (bottom - top) as u32,
        })
    }

    /// The same rectangle seen from an origin at `(dx, dy)`.
    fn shifted(&self, dx: i32, dy: i32) -> Region {
        Region {
            x: self.x - dx,
            y: self.y - dy,
            ..*self
        }
    }
}

/// Whether `query` names a window called `text`: it is part of it,
/// ignoring case.
pub fn names(text: &str, query: &str) -> bool {
    text.to_lowercase().contains(&query.to_lowercase())
}

/// Every window the window system lists, front-most first, except the bot's
/// own process and the processes it runs in (its terminal).
pub fn windows() -> Result<Vec<WindowInfo>, CaptureError> {
    // Without an X11 display there is nothing to list: say what works
    // instead of what the window system's library makes of it.
    if let Some(display) = std::env::var_os("DISPLAY").filter(|d| d.to_str().is_none()) {
        return Err(CaptureError::NoDisplay {
            display: display.to_string_lossy().into_owned(),
            cause: "DISPLAY is not UTF-8 text, so no display name".into(),
        });
    }
    let variable = |name| std::env::var(name).ok().filter(|v: &String| !v.is_empty());
    if variable("DISPLAY").is_none() {
        return Err(match variable("WAYLAND_DISPLAY") {
            Some(wayland) => CaptureError::WaylandOnly { wayland },
            None => CaptureError::NoDisplay {
                display: String::new(),
                cause: "DISPLAY is not set".into(),
            },
        });
    }
    let own = own_processes();
    let all = xcap::Window::all().map_err(|e| CaptureError::NoDisplay {
        display: std::env::var("DISPLAY").unwrap_or_default(),
        cause: e.to_string(),
    })?;
    Ok(all
        .iter()
        .filter_map(|w| info(w).ok())
        .filter(|w| w.pid.is_none_or(|pid| !own.contains(&pid)))
        .collect())
}

/// The visible windows: not minimised, not of zero size.
pub fn visible_windows() -> Result<Vec<WindowInfo>, CaptureError> {
    Ok(windows()?
        .into_iter()
        .filter(WindowInfo::is_visible)
        .collect())
}

/// The one window whose title or application name contains `query`,
/// ignoring case.
pub fn find(query: &str) -> Result<GameWindow, CaptureError> {
    let all = windows()?;
    let info = pick(&all, query)?;
    let window = xcap::Window::all()
        .ok()
        .and_then(|list| list.into_iter().find(|w| w.id().ok() == Some(info.id)))
        .ok_or_else(|| CaptureError::Gone {
            title: info.title.clone(),
        })?;
    Ok(GameWindow {
        window,
        info,
        screen: None,
    })
}

/// Chooses the window `query` names among `all`: exactly one visible match,
/// else an error that lists the candidates.
fn pick(all: &[WindowInfo], query: &str) -> Result<WindowInfo, CaptureError> {
    let matches: Vec<&WindowInfo> = all.iter().filter(|w| w.matches(query)).collect();
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
    } else {
        CaptureError::ZeroSize { title }
    }
}

fn list<'a>(windows: impl Iterator<Item = &'a WindowInfo>) -> String {
    let names: Vec<String> = windows.map(ToString::to_string).collect();
    if names.is_empty() {
        "none".into()
    } else {
        names.join("; ")
    }
}

fn info(w: &xcap::Window) -> Result<WindowInfo, xcap::XCapError> {
    Ok(WindowInfo {
        id: w.id()?,
        pid: w.pid().ok(),
        title: w.title().unwrap_or_default(),
        app: w.app_name().unwrap_or_default(),
        x: w.x()?,
        y: w.y()?,
        width: w.width()?,
        height: w.height()?,
        minimised: w.is_minimized().unwrap_or(false),
    })
}

/// This process and its ancestors (the shell and the terminal that run the
/// bot), so that `--window` never picks the terminal whose title holds the
/// command line. Where `/proc` does not exist, only this process.
fn own_processes() -> Vec<u32> {
    let mut pids = vec![std::process::id()];
    while let Some(parent) = parent_of(*pids.last().expect("never empty")) {
        if parent <= 1 || pids.contains(&parent) {
            break;
        }
        pids.push(parent);
    }
    pids
}

fn parent_of(pid: u32) -> Option<u32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name may hold spaces and parentheses: the fields after the
    // last ')' are the state, then the parent.
    stat.rsplit_once(')')?
        .1
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

/// The window live play works in.
#[derive(Debug)]
pub struct GameWindow {
    window: xcap::Window,
    info: WindowInfo,
    /// The monitor the last region capture used and its place on the
    /// desktop: looking it up costs several round trips to the display.
    screen: Option<(xcap::Monitor, Region)>,
}

impl GameWindow {
    /// The window as found (title, place, size).
    pub fn info(&self) -> &WindowInfo {
        &self.info
    }

    /// The window's geometry now: an error when it is closed, minimised or
    /// of zero size.
    pub fn refresh(&mut self) -> Result<&WindowInfo, CaptureError> {
        let fresh = info(&self.window).map_err(|_| CaptureError::Gone {
            title: self.info.title.clone(),
        })?;
        if !fresh.is_visible() {
            return Err(unusable(&fresh));
        }
        self.info = fresh;
        Ok(&self.info)
    }

    /// The windows in front of this one that overlap `region` of its client
    /// area (at its place as last refreshed), front-most first: a click
    /// there would land on them. All windows count, the bot's own terminal
    /// included.
    pub fn covering(&self, region: Region) -> Result<Vec<WindowInfo>, CaptureError> {
        let on_desktop = region.shifted(-self.info.x, -self.info.y);
        let all = xcap::Window::all().map_err(|e| CaptureError::Grab {
            title: self.info.title.clone(),
            cause: e.to_string(),
        })?;
        Ok(all
            .iter()
            .filter_map(|w| info(w).ok())
            .take_while(|w| w.id != self.info.id)
            .filter(|w| w.is_visible() && w.area().intersection(&on_desktop).is_some())
            .collect())
    }

    /// A picture of `region` of the client area (at the window's place as
    /// last refreshed) as the screen shows it: windows in front of it
    /// included, because that is where a click would land. Clipped to the
    /// monitor the region starts on; returns the part captured.
    pub fn capture_region(&mut self, region: Region) -> Result<(RgbaImage, Region), CaptureError> {
        let started = Instant::now();
        let on_desktop = region.shifted(-self.info.x, -self.info.y);
        let (monitor, bounds) = self.screen_of(&on_desktop)?;
        let part = on_desktop
            .intersection(&bounds)
            .ok_or_else(|| CaptureError::OffScreen {
                title: self.info.title.clone(),
            })?;
        let image = monitor
            .capture_region(
                (part.x - bounds.x) as u32,
                (part.y - bounds.y) as u32,
                part.width,
                part.height,
            )
            .map_err(|e| CaptureError::Grab {
                title: self.info.title.clone(),
                cause: e.to_string(),
            })?;
        log::debug!(
            "captured a {}x{} region in {:.1} ms",
            image.width(),
            image.height(),
            started.elapsed().as_secs_f64() * 1000.0
        );
        Ok((image, part.shifted(self.info.x, self.info.y)))
    }

    /// The whole client area as the screen shows it now (the window's
    /// geometry refreshed first), clipped to the screen it starts on.
    pub fn capture_client(&mut self) -> Result<RgbaImage, CaptureError> {
        let info = self.refresh()?;
        let client = Region {
            x: 0,
            y: 0,
            width: info.width,
            height: info.height,
        };
        Ok(self.capture_region(client)?.0)
    }

    /// The screen (monitor) the last capture was on, in desktop
    /// coordinates.
    pub fn screen(&self) -> Option<Region> {
        self.screen.as_ref().map(|(_, bounds)| *bounds)
    }

    /// The monitor holding the top-left of `area` (desktop coordinates),
    /// cached until the area leaves it.
    fn screen_of(&mut self, area: &Region) -> Result<(xcap::Monitor, Region), CaptureError> {
        let inside = |r: &Region| {
            area.x >= r.x
                && area.y >= r.y
                && area.x < r.x + r.width as i32
                && area.y < r.y + r.height as i32
        };
        if let Some((monitor, bounds)) = &self.screen
            && inside(bounds)
        {
            return Ok((monitor.clone(), *bounds));
        }
        let grab = |e: xcap::XCapError| CaptureError::Grab {
            title: self.info.title.clone(),
            cause: e.to_string(),
        };
        let found = xcap::Monitor::all()
            .map_err(grab)?
            .into_iter()
            .filter_map(|m| {
                let bounds = Region {
                    x: m.x().ok()?,
                    y: m.y().ok()?,
                    width: m.width().ok()?,
                    height: m.height().ok()?,
                };
                Some((m, bounds))
            })
            .find(|(_, bounds)| inside(bounds))
            .ok_or_else(|| CaptureError::OffScreen {
                title: self.info.title.clone(),
            })?;
        self.screen = Some(found.clone());
        Ok(found)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        }
    }

    #[test]
    fn picks_by_title_or_application_ignoring_case() {
        let all = [
            window("Aldric the Bold", "Nodiatis", 800, false),
            window("notes.txt", "editor", 800, false),
        ];
        assert_eq!(pick(&all, "nodiatis").unwrap().title, "Aldric the Bold");
        assert_eq!(pick(&all, "ALDRIC").unwrap().title, "Aldric the Bold");
    }

    #[test]
    fn no_match_lists_the_visible_windows() {
        let all = [
            window("notes.txt", "editor", 800, false),
            window("hidden", "x", 800, true),
        ];
        let error = pick(&all, "nodiatis").unwrap_err().to_string();
        assert!(error.contains("notes.txt"), "{error}");
        assert!(!error.contains("hidden"), "{error}");
    }

    #[test]
    fn several_matches_are_an_error() {
        let all = [
            window("Dust Practice", "a", 800, false),
            window("Dust Practice 2", "b", 800, false),
        ];
        let error = pick(&all, "dust").unwrap_err();
        assert!(matches!(error, CaptureError::Several { count: 2, .. }));
    }

    #[test]
    fn minimised_and_empty_windows_are_named() {
        let all = [window("Nodiatis", "n", 800, true)];
        assert!(matches!(
            pick(&all, "nod"),
            Err(CaptureError::Minimised { .. })
        ));
        let all = [window("Nodiatis", "n", 0, false)];
        assert!(matches!(
            pick(&all, "nod"),
            Err(CaptureError::ZeroSize { .. })
        ));
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
        assert_eq!(b.shifted(80, -10).x, 0);
    }

    #[test]
    fn the_bot_runs_inside_its_own_processes() {
        let own = own_processes();
        assert_eq!(own[0], std::process::id());
        if cfg!(target_os = "linux") {
            assert_eq!(parent_of(own[0]), own.get(1).copied().or(Some(1)));
        }
    }
}
