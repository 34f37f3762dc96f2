//! What a Mac decides differently from X11 and Windows, as plain
//! arithmetic and text that compiles and is tested on every platform
//! (`desktop::macos` calls it on a Mac): points against pixels (the
//! window list, the monitors and the clicks are in points, a capture may
//! come back at the backing scale, 2 pixels a point on a Retina screen),
//! AppKit's flipped frames, the window found under a point in the window
//! server's list, the permissions' words (which, where in System
//! Settings, when the app must be started again), the app a permission
//! goes to (the terminal for `bot`), the stop key's chord as Carbon's hot
//! keys take it, and the process table's records (`sysctl`'s
//! `kinfo_proc` and `KERN_PROCARGS2`). Its tests check the app bundle's
//! `Info.plist` (`docs/dist/Info.plist`, which `scripts/dist` fills in)
//! too.

use image::RgbaImage;

use super::screen::{ScreenPoint, ScreenRect};

/// A picture of `area` (desktop points) in points, one pixel a point:
/// as it came when it is that size already (a nominal-resolution
/// capture), else shrunk by the whole factor its size is of the area's
/// (2 on a Retina screen, 3 on some), each point the mean of its pixels.
/// An error for any other size: the crop that follows reads client
/// coordinates as pixels, and a picture at another scale would be cut in
/// the wrong place.
pub(super) fn to_points(image: RgbaImage, area: ScreenRect) -> Result<RgbaImage, String> {
    let (width, height) = image.dimensions();
    if (width, height) == (area.width, area.height) {
        return Ok(image);
    }
    let scale = match (area.width, area.height) {
        (0, _) | (_, 0) => None,
        (w, h) if width % w == 0 && width / w == height / h && height % h == 0 => Some(width / w),
        _ => None,
    }
    .ok_or_else(|| {
        format!(
            "a capture of {width}x{height} pixels for {}x{} points: no whole scale",
            area.width, area.height
        )
    })?;
    let count = scale * scale;
    Ok(RgbaImage::from_fn(area.width, area.height, |x, y| {
        let mut sum = [0u32; 4];
        for dy in 0..scale {
            for dx in 0..scale {
                let pixel = image.get_pixel(x * scale + dx, y * scale + dy);
                for (total, &channel) in sum.iter_mut().zip(&pixel.0) {
                    *total += u32::from(channel);
                }
            }
        }
        // Rounded to the nearest: the colours' means stay where they were.
        image::Rgba(sum.map(|total| ((total + count / 2) / count) as u8))
    }))
}

/// AppKit's frame of `rect` (desktop points, y down from the main
/// screen's top): its origin at the bottom-left, y up from the main
/// screen's bottom (`main_height` points high), as `NSWindow`'s
/// `setFrame:display:` takes it.
pub(super) fn appkit_frame(rect: ScreenRect, main_height: f64) -> [f64; 4] {
    let bottom = f64::from(rect.y) + f64::from(rect.height);
    [
        f64::from(rect.x),
        main_height - bottom,
        f64::from(rect.width),
        f64::from(rect.height),
    ]
}

/// One window as the window server lists it (`CGWindowListCopyWindowInfo`,
/// front-most first): its number, its process, its level (0 for a
/// document window, 3 floating, 20 the Dock's, 24 and up the menu bar's,
/// 2000 and up the cursor's), its alpha and its bounds in points.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct ListedWindow {
    pub(super) id: u32,
    pub(super) pid: u32,
    pub(super) layer: i32,
    pub(super) alpha: f64,
    pub(super) bounds: ScreenRect,
}

/// `kCGDockWindowLevel`: the windows at and above it (the Dock, the menu
/// bar, status items, the cursor) take no click meant for an app.
const DOCK_LEVEL: i32 = 20;

/// The window a press at `point` would go to, among `windows` listed
/// front-most first: the first of an app's levels (below the Dock's),
/// seen (alpha above 0: screenshot tools and helpers leave invisible
/// windows over the screen) and holding the point, the bot's own
/// process's left out (the marks take no click).
pub(super) fn window_at(windows: &[ListedWindow], point: ScreenPoint, own_pid: u32) -> Option<u32> {
    windows
        .iter()
        .find(|w| {
            w.pid != own_pid && w.layer < DOCK_LEVEL && w.alpha > 0.0 && w.bounds.contains(point)
        })
        .map(|w| w.id)
}

/// The two permissions a player gives the bot in System Settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Permission {
    /// Screen Recording: to see the other apps' windows, their titles
    /// and their pixels (without it the list holds the menu bar, and a
    /// capture the wallpaper).
    ScreenRecording,
    /// Accessibility: to post the clicks (without it they are dropped
    /// without a word).
    Accessibility,
}

/// What the player is to do, for `app` (the app the permission goes to:
/// the terminal `bot` runs in, or dustbot): where in System Settings,
/// and whether the app must be started again after (a Screen Recording
/// grant reaches only a process started after it; Accessibility is read
/// live).
pub(super) fn permission_words(permission: Permission, app: &str) -> String {
    match permission {
        Permission::ScreenRecording => format!(
            "macOS has not allowed {app} to record the screen, so the bot cannot see the game: \
             open System Settings > Privacy & Security > Screen & System Audio Recording, \
             turn {app} on, then quit {app} and open it again"
        ),
        Permission::Accessibility => format!(
            "macOS has not allowed {app} to control the computer, so the bot cannot click: \
             open System Settings > Privacy & Security > Accessibility and turn {app} on \
             (no need to start it again)"
        ),
    }
}

/// The app a permission goes to, from the paths of the bot's process and
/// its ancestors (the bot first): the first that is an app's executable
/// (`NAME.app/Contents/MacOS/...`), by its name: `Terminal` for a `bot`
/// run in Terminal, `dustbot` for the app. macOS gives a grant to the
/// responsible process, the app that started the others.
pub(super) fn responsible_app<'a>(paths: impl IntoIterator<Item = &'a str>) -> Option<String> {
    paths.into_iter().find_map(|path| {
        let (bundle, _) = path.split_once(".app/Contents/MacOS/")?;
        let name = bundle.rsplit('/').next()?;
        (!name.is_empty()).then(|| name.to_owned())
    })
}

/// Carbon's modifier bits (`Events.h`): `cmdKey`, `shiftKey`,
/// `optionKey`, `controlKey`.
const CARBON_COMMAND: u32 = 256;
const CARBON_SHIFT: u32 = 512;
const CARBON_OPTION: u32 = 2048;
const CARBON_CONTROL: u32 = 4096;

/// A stop key as Carbon's `RegisterEventHotKey` takes it, from the
/// `(modifiers, virtual key)` Windows' `RegisterHotKey` takes
/// (`stop::GlobalKey::hot_key`): the modifiers Control, Alt (Option on a
/// Mac), Shift and Windows (Command), `MOD_NOREPEAT` dropped (Carbon
/// says a press once); the key by its place (`kVK_*`: Backspace is the
/// Mac's Delete). Pause does not exist on a Mac keyboard: a PC keyboard's
/// Pause arrives as F15, so it is F15. `None` for a key with no Mac place
/// here.
pub(super) fn carbon_hot_key((modifiers, key): (u32, u32)) -> Option<(u32, u32)> {
    let carbon = [
        (0x2, CARBON_CONTROL),
        (0x1, CARBON_OPTION),
        (0x4, CARBON_SHIFT),
        (0x8, CARBON_COMMAND),
    ]
    .iter()
    .filter(|(windows, _)| modifiers & windows != 0)
    .fold(0, |bits, (_, mac)| bits | mac);
    let code = match key {
        // VK_BACK: kVK_Delete.
        0x08 => 0x33,
        // VK_PAUSE: kVK_F15.
        0x13 => 0x71,
        // 'S': kVK_ANSI_S.
        0x53 => 0x01,
        _ => return None,
    };
    Some((carbon, code))
}

/// The AppleScript that shows `text` under `title` in an alert
/// (`display alert`), each quoted as AppleScript quotes: a backslash and
/// a double quote escaped with a backslash.
pub(super) fn alert_script(title: &str, text: &str) -> String {
    let quoted = |s: &str| s.replace('\\', "\\\\").replace('"', "\\\"");
    format!(
        "display alert \"{}\" message \"{}\"",
        quoted(title),
        quoted(text)
    )
}

/// When a process started, in microseconds since 1970, from its
/// `kinfo_proc` as `sysctl(CTL_KERN, KERN_PROC, KERN_PROC_PID)` writes
/// it: `kp_proc.p_starttime`, a `timeval` (64-bit seconds, then 32-bit
/// microseconds) at its start.
pub(super) fn start_time_of(kinfo: &[u8]) -> Option<u64> {
    let seconds = i64::from_ne_bytes(kinfo.get(0..8)?.try_into().ok()?);
    let micros = i32::from_ne_bytes(kinfo.get(8..12)?.try_into().ok()?);
    let seconds = u64::try_from(seconds).ok()?;
    let micros = u64::try_from(micros).ok()?;
    (seconds > 0).then(|| seconds * 1_000_000 + micros)
}

/// A process's command line, its words joined by spaces, from what
/// `sysctl(CTL_KERN, KERN_PROCARGS2, pid)` writes: the count of words
/// (a 32-bit int), the executable's path, NULs to align, then the words,
/// each ending in a NUL (the environment follows).
pub(super) fn command_line_of_procargs(args: &[u8]) -> Option<String> {
    let count = i32::from_ne_bytes(args.get(0..4)?.try_into().ok()?);
    let count = usize::try_from(count).ok()?;
    let rest = args.get(4..)?;
    let path_end = rest.iter().position(|&b| b == 0)?;
    let words = rest[path_end..]
        .iter()
        .position(|&b| b != 0)
        .map(|start| &rest[path_end + start..])?;
    let words: Vec<String> = words
        .split(|&b| b == 0)
        .take(count)
        .map(|w| String::from_utf8_lossy(w).into_owned())
        .collect();
    (!words.is_empty()).then(|| words.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_retina_capture_comes_to_one_pixel_a_point_each_the_mean_of_its_four() {
        // 2x2 points captured at 2 pixels a point: 4x4 pixels.
        let image = RgbaImage::from_fn(4, 4, |x, y| {
            let v = match (x / 2, y / 2) {
                (0, 0) => [10, 20, 30, 255],
                (1, 0) => [200, 100, 0, 255],
                _ => [x as u8 * 10, y as u8 * 10, 7, 255],
            };
            image::Rgba(v)
        });
        let points = to_points(image, ScreenRect::new(100, 50, 2, 2)).unwrap();
        assert_eq!(points.dimensions(), (2, 2));
        assert_eq!(points.get_pixel(0, 0).0, [10, 20, 30, 255]);
        assert_eq!(points.get_pixel(1, 0).0, [200, 100, 0, 255]);
        // x 0,1 and y 2,3: means 5 and 25, rounded to the nearest.
        assert_eq!(points.get_pixel(0, 1).0, [5, 25, 7, 255]);
        assert_eq!(points.get_pixel(1, 1).0, [25, 25, 7, 255]);
    }

    #[test]
    fn a_capture_at_one_pixel_a_point_is_kept_and_another_scale_refused() {
        let image = RgbaImage::from_pixel(30, 20, image::Rgba([1, 2, 3, 255]));
        let kept = to_points(image.clone(), ScreenRect::new(0, 0, 30, 20)).unwrap();
        assert_eq!(kept, image);
        let three = RgbaImage::new(90, 60);
        assert_eq!(
            to_points(three, ScreenRect::new(0, 0, 30, 20))
                .unwrap()
                .width(),
            30
        );
        // 1.5 pixels a point (a scaled mode) is no whole scale; nor is a
        // picture stretched one way only.
        assert!(to_points(RgbaImage::new(45, 30), ScreenRect::new(0, 0, 30, 20)).is_err());
        assert!(to_points(RgbaImage::new(60, 20), ScreenRect::new(0, 0, 30, 20)).is_err());
        assert!(to_points(RgbaImage::new(60, 40), ScreenRect::new(0, 0, 0, 20)).is_err());
    }

    #[test]
    fn appkit_frames_count_from_the_main_screens_bottom() {
        // A 1440x900-point main screen: a mark 10 points from its top.
        assert_eq!(
            appkit_frame(ScreenRect::new(100, 10, 50, 40), 900.0),
            [100.0, 850.0, 50.0, 40.0]
        );
        // On a screen above the main one (y negative), above its top.
        assert_eq!(
            appkit_frame(ScreenRect::new(0, -1080, 1920, 1080), 900.0),
            [0.0, 900.0, 1920.0, 1080.0]
        );
    }

    #[test]
    fn the_window_under_a_point_is_the_front_most_app_window_seen_there() {
        let window = |id, pid, layer, alpha, bounds| ListedWindow {
            id,
            pid,
            layer,
            alpha,
            bounds,
        };
        let windows = [
            // The menu bar, the Dock: above every app, no app's click.
            window(1, 10, 24, 1.0, ScreenRect::new(0, 0, 1440, 25)),
            window(2, 11, 20, 1.0, ScreenRect::new(0, 800, 1440, 100)),
            // An invisible helper over the whole screen.
            window(3, 12, 0, 0.0, ScreenRect::new(0, 0, 1440, 900)),
            // The bot's own marks.
            window(4, 99, 3, 1.0, ScreenRect::new(100, 100, 50, 50)),
            // A floating palette, then the game under it.
            window(5, 13, 3, 1.0, ScreenRect::new(300, 300, 100, 100)),
            window(6, 14, 0, 1.0, ScreenRect::new(0, 25, 1000, 700)),
        ];
        let at = |x, y| window_at(&windows, ScreenPoint::new(x, y), 99);
        assert_eq!(at(120, 120), Some(6));
        assert_eq!(at(350, 350), Some(5));
        assert_eq!(at(10, 10), None);
        assert_eq!(at(10, 850), None);
        assert_eq!(at(1200, 500), None);
    }

    #[test]
    fn the_permissions_say_which_where_and_whether_to_start_again() {
        let screen = permission_words(Permission::ScreenRecording, "Terminal");
        assert!(screen.contains("Privacy & Security > Screen & System Audio Recording"));
        assert!(screen.contains("turn Terminal on, then quit Terminal and open it again"));
        let clicks = permission_words(Permission::Accessibility, "dustbot");
        assert!(clicks.contains("Privacy & Security > Accessibility and turn dustbot on"));
        assert!(clicks.contains("no need to start it again"));
        assert!(!clicks.contains("quit"));
    }

    #[test]
    fn the_app_a_permission_goes_to_is_the_first_app_among_the_ancestors() {
        let bot_in_terminal = [
            "/Users/ann/dustbot/bot",
            "/bin/zsh",
            "/usr/bin/login",
            "/System/Applications/Utilities/Terminal.app/Contents/MacOS/Terminal",
        ];
        assert_eq!(responsible_app(bot_in_terminal), Some("Terminal".into()));
        let app = ["/Applications/dustbot.app/Contents/MacOS/dustbot"];
        assert_eq!(responsible_app(app), Some("dustbot".into()));
        let in_iterm = ["/x/bot", "/Applications/iTerm.app/Contents/MacOS/iTerm2"];
        assert_eq!(responsible_app(in_iterm), Some("iTerm".into()));
        assert_eq!(responsible_app(["/x/bot", "/sbin/launchd"]), None);
    }

    #[test]
    fn every_stop_key_has_a_mac_chord_macos_takes() {
        use crate::desktop::words::{GLOBAL_KEYS, PAUSE};
        for key in GLOBAL_KEYS {
            let (modifiers, _) = carbon_hot_key(key.hot_key)
                .unwrap_or_else(|| panic!("{} has no key on a Mac", key.name));
            // macOS 15 takes a hot key with modifiers only when one is
            // neither Shift nor Option.
            let neither = modifiers & (CARBON_CONTROL | CARBON_COMMAND) != 0;
            assert!(modifiers == 0 || neither, "{}: {modifiers:#x}", key.name);
        }
        // Pause, bare: kVK_F15, no modifier.
        assert_eq!(carbon_hot_key(PAUSE.hot_key), Some((0, 0x71)));
    }

    #[test]
    fn windows_chords_become_the_same_keys_places_on_a_mac() {
        let no_repeat = 0x4000;
        // Ctrl+Alt+S: controlKey | optionKey, kVK_ANSI_S.
        assert_eq!(
            carbon_hot_key((no_repeat | 0x2 | 0x1, 0x53)),
            Some((4096 | 2048, 0x01))
        );
        // Ctrl+Shift+Backspace: controlKey | shiftKey, kVK_Delete.
        assert_eq!(
            carbon_hot_key((no_repeat | 0x2 | 0x4, 0x08)),
            Some((4096 | 512, 0x33))
        );
        // The Windows key is Command.
        assert_eq!(carbon_hot_key((0x8, 0x53)), Some((256, 0x01)));
        assert_eq!(carbon_hot_key((0x2, 0x41)), None);
    }

    #[test]
    fn an_alerts_words_are_quoted_as_applescript_quotes() {
        assert_eq!(
            alert_script("dustbot", r#"no "Nodiatis" in C:\x"#),
            r#"display alert "dustbot" message "no \"Nodiatis\" in C:\\x""#
        );
    }

    /// The keys of a property list's top dictionary and their values
    /// (`<string>` text, or `true`/`false`), in order.
    fn plist_entries(plist: &str) -> Vec<(String, String)> {
        let body = plist.split_once("<dict>").unwrap().1;
        let body = body.rsplit_once("</dict>").unwrap().0;
        body.split("<key>")
            .skip(1)
            .map(|entry| {
                let (key, rest) = entry.split_once("</key>").unwrap();
                let rest = rest.trim();
                let value = match rest.strip_prefix("<string>") {
                    Some(text) => text.split_once("</string>").unwrap().0.to_owned(),
                    None => rest
                        .trim_start_matches('<')
                        .trim_end_matches("/>")
                        .to_owned(),
                };
                (key.to_owned(), value)
            })
            .collect()
    }

    #[test]
    fn the_bundles_info_plist_names_the_app_its_version_and_retina() {
        let template = include_str!("../../docs/dist/Info.plist");
        let plist = template.replace("@VERSION@", env!("CARGO_PKG_VERSION"));
        assert!(plist.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>"));
        assert_eq!(plist.matches("<dict>").count(), 1);
        let entries = plist_entries(&plist);
        let get = |key: &str| {
            let found: Vec<_> = entries.iter().filter(|(k, _)| k == key).collect();
            assert_eq!(found.len(), 1, "{key} once in {entries:?}");
            found[0].1.as_str()
        };
        // The executable in Contents/MacOS is the app's binary.
        assert_eq!(get("CFBundleExecutable"), "dustbot");
        assert_eq!(get("CFBundlePackageType"), "APPL");
        assert_eq!(get("CFBundleIdentifier"), "io.github.dustbot.dustbot");
        assert_eq!(get("CFBundleShortVersionString"), env!("CARGO_PKG_VERSION"));
        assert_eq!(get("CFBundleVersion"), env!("CARGO_PKG_VERSION"));
        // Without it a bundled app is drawn at half resolution, blurred.
        assert_eq!(get("NSHighResolutionCapable"), "true");
        assert_eq!(get("LSMinimumSystemVersion"), "14.0");
        assert!(!plist.contains('@'), "a placeholder left: {plist}");
        // Every key's value is one of the two kinds read above.
        assert!(entries.iter().all(|(_, v)| !v.contains('<')), "{entries:?}");
    }

    #[test]
    fn a_processs_start_is_read_from_the_timeval_at_kinfo_procs_start() {
        let mut kinfo = vec![0u8; 648];
        kinfo[0..8].copy_from_slice(&1_700_000_000i64.to_ne_bytes());
        kinfo[8..12].copy_from_slice(&250_000i32.to_ne_bytes());
        assert_eq!(start_time_of(&kinfo), Some(1_700_000_000_250_000));
        assert_eq!(start_time_of(&kinfo[..10]), None);
        assert_eq!(start_time_of(&[0u8; 648]), None);
    }

    #[test]
    fn a_command_line_is_read_from_procargs2() {
        let mut args = 3i32.to_ne_bytes().to_vec();
        args.extend_from_slice(b"/Users/ann/dustbot/bot\0\0\0\0");
        args.extend_from_slice(b"bot\0--window\0Nodiatis\0PATH=/usr/bin\0");
        assert_eq!(
            command_line_of_procargs(&args).as_deref(),
            Some("bot --window Nodiatis")
        );
        assert_eq!(command_line_of_procargs(&args[..3]), None);
        assert_eq!(command_line_of_procargs(&0i32.to_ne_bytes()), None);
    }
}
