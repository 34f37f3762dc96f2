//! The report a player attaches to a question: `bot report`, "save a
//! report" after an error in the guided session, the app's Save a report. One HTML file that any
//! browser shows, so that the player sees what they would share: the
//! version, the OS and its screens' display scales and HDR (on, the
//! captures are washed out), the window list
//! (titles escaped), the settings file, the session's log (the lines the
//! log showed, the error that stopped it) and its last frames (the debug
//! folder's newest pictures, which the bot saved of the game's board), and
//! nothing else from the disk.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use super::logging;
use crate::app::settings;
use crate::desktop::{self, Desktop as _};
use crate::files::{self, Existing};

/// How many of the debug folder's frames, newest first, go in.
const LAST_FRAMES: usize = 6;

/// The most bytes of one picture that go in: a frame of the board is
/// tens of kilobytes; a bigger file is no frame of the bot's.
const MAX_FRAME_BYTES: u64 = 4 << 20;

/// The most bytes of all the frames together: a page a forum or a mail
/// takes.
const FRAMES_BUDGET: u64 = 6 << 20;

/// Writes the report, with `error` (what stopped the session, if
/// something did), into `folder` (the data folder) as
/// `report-TIME.html`; its path.
pub fn save(folder: &Path, error: Option<&str>, debug_dir: &Path) -> Result<PathBuf> {
    std::fs::create_dir_all(folder)
        .with_context(|| format!("{}: cannot make the folder", folder.display()))?;
    let stamp = crate::record::now_rfc3339().replace(':', "-");
    let text = html(&gather(error, debug_dir));
    // Two reports in one second are named apart.
    for n in 1..100 {
        let name = match n {
            1 => format!("report-{stamp}.html"),
            n => format!("report-{stamp}-{n}.html"),
        };
        let path = folder.join(name);
        match files::write_whole(&path, text.as_bytes(), Existing::Keep) {
            Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => continue,
            written => {
                return written
                    .map(|()| path.clone())
                    .with_context(|| format!("{}: cannot write the report", path.display()));
            }
        }
    }
    anyhow::bail!("{}: a hundred reports in one second", folder.display())
}

/// What a report holds.
#[derive(Debug, Default)]
struct Gathered {
    sections: Vec<(String, String)>,
    /// The pictures: their file names and PNG bytes.
    frames: Vec<(String, Vec<u8>)>,
}

fn gather(error: Option<&str>, debug_dir: &Path) -> Gathered {
    let mut sections = vec![(
        "dustbot".to_owned(),
        format!(
            "version {}\nOS {} ({})",
            env!("CARGO_PKG_VERSION"),
            std::env::consts::OS,
            std::env::consts::ARCH
        ),
    )];
    if let Some(error) = error {
        sections.push(("the error".into(), error.to_owned()));
    }
    let screens = screens_text();
    sections.push(("screens".into(), screens));
    let windows = match desktop::system().windows() {
        Ok(windows) => windows
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("\n"),
        Err(error) => format!("cannot list the windows: {error}"),
    };
    sections.push(("windows".into(), windows));
    let settings = match settings::settings_path() {
        Ok(path) => settings_text(&path),
        Err(error) => format!("(no settings folder: {error})"),
    };
    sections.push(("settings".into(), settings));
    sections.push((
        "the session's log".into(),
        logging::session_log().join("\n"),
    ));
    if let Some(faults) = logging::tail() {
        sections.push(("the app's log (its errors and faults)".into(), faults));
    }
    let frames = last_frames(debug_dir);
    let names: Vec<&str> = frames.iter().map(|(name, _)| name.as_str()).collect();
    sections.push((
        "frames".into(),
        format!(
            "the {} newest frames the bot saved in {} (its own names, PNG only; only captures that showed the game's board){}{}",
            frames.len(),
            debug_dir.display(),
            if names.is_empty() { "" } else { ": " },
            names.join(", ")
        ),
    ));
    Gathered { sections, frames }
}

/// Each screen: its size and place, its work area, its scale and HDR.
fn screens_text() -> String {
    match desktop::screens() {
        Ok(screens) => screens
            .iter()
            .map(|(monitor, scale)| {
                let (area, work) = (monitor.bounds, monitor.work);
                let centre = desktop::ScreenPoint::new(
                    area.x + area.width as i32 / 2,
                    area.y + area.height as i32 / 2,
                );
                format!(
                    "{}x{} at {},{} (work area {}x{} at {},{}), display scale {:.0}%, HDR {}",
                    area.width,
                    area.height,
                    area.x,
                    area.y,
                    work.width,
                    work.height,
                    work.x,
                    work.y,
                    scale * 100.0,
                    desktop::hdr::HdrState::at(centre)
                )
            })
            .collect::<Vec<_>>()
            .join("\n"),
        Err(error) => format!("cannot list the screens: {error}"),
    }
}

/// The settings file's text, when it is a regular file of its own (a
/// link may point anywhere on the disk: its target stays out).
fn settings_text(path: &Path) -> String {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.is_file() => {
            files::read_bounded(path, files::MAX_CALIBRATION_BYTES, "the settings")
                .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
                .unwrap_or_else(|error| format!("(cannot read it: {error})"))
        }
        Ok(_) => "(the settings file is a link or not a file: left out)".into(),
        Err(_) => "(no settings file)".into(),
    }
}

/// Whether `meta` is a file of one name only: a hard link's other name
/// may be a private file's.
#[cfg(unix)]
fn one_link(meta: &std::fs::Metadata) -> bool {
    std::os::unix::fs::MetadataExt::nlink(meta) == 1
}

/// Whether `meta` is a file of one name only: Windows' link count is not
/// in std's stable metadata, and its hard links need a tool to make.
#[cfg(not(unix))]
fn one_link(_: &std::fs::Metadata) -> bool {
    true
}

/// The newest frames the bot saved in `debug_dir` (not its subfolders):
/// files named as the drivers name them ([`crate::live::is_a_frame_name`]),
/// regular files of one link (not through a symlink, not a hard link to
/// another file), that decode as PNG; at most [`LAST_FRAMES`] and
/// [`FRAMES_BUDGET`] bytes in all.
fn last_frames(debug_dir: &Path) -> Vec<(String, Vec<u8>)> {
    let Ok(entries) = std::fs::read_dir(debug_dir) else {
        return Vec::new();
    };
    let mut pictures: Vec<(std::time::SystemTime, PathBuf)> = entries
        .flatten()
        .filter(|e| {
            e.file_name()
                .to_str()
                .is_some_and(crate::live::is_a_frame_name)
        })
        .filter_map(|e| {
            // The entry's own metadata: a link is not followed.
            let meta = std::fs::symlink_metadata(e.path()).ok()?;
            let own_file = meta.is_file() && one_link(&meta) && meta.len() <= MAX_FRAME_BYTES;
            own_file.then_some((meta.modified().ok()?, e.path()))
        })
        .collect();
    pictures.sort_by_key(|(modified, _)| std::cmp::Reverse(*modified));
    let mut left = FRAMES_BUDGET;
    pictures
        .into_iter()
        .filter_map(|(_, path)| {
            let bytes = files::read_bounded(&path, MAX_FRAME_BYTES, "a frame").ok()?;
            image::load_from_memory_with_format(&bytes, image::ImageFormat::Png).ok()?;
            let name = path.file_name()?.to_string_lossy().into_owned();
            Some((name, bytes))
        })
        .take_while(|(_, bytes)| {
            let fits = bytes.len() as u64 <= left;
            left = left.saturating_sub(bytes.len() as u64);
            fits
        })
        .take(LAST_FRAMES)
        .collect()
}

/// The report as one HTML page: each section as preformatted text, each
/// frame as a picture inside it.
fn html(report: &Gathered) -> String {
    let mut page = String::from(
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>dustbot report</title></head><body>\n<h1>dustbot report</h1>\n",
    );
    for (title, text) in &report.sections {
        page += &format!("<h2>{}</h2>\n<pre>{}</pre>\n", escape(title), escape(text));
    }
    page += "<h2>the last frames</h2>\n";
    if report.frames.is_empty() {
        page += "<p>(none saved)</p>\n";
    }
    for (name, png) in &report.frames {
        page += &format!(
            "<p>{}</p>\n<img alt=\"{}\" src=\"data:image/png;base64,{}\">\n",
            escape(name),
            escape(name),
            base64(png)
        );
    }
    page + "</body></html>\n"
}

/// `text` as HTML shows it: markup characters escaped, and the control
/// characters a title may hold written out.
fn escape(text: &str) -> String {
    crate::text::printable_lines(text)
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

/// `bytes` in base64 (RFC 4648, with padding), for a picture inside the
/// page.
fn base64(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = u32::from(b[0]) << 16 | u32::from(b[1]) << 8 | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(DIGITS[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_is_rfc_4648s() {
        for (plain, coded) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64(plain.as_bytes()), coded);
        }
    }

    #[test]
    fn a_title_cannot_write_markup_into_the_page() {
        let report = Gathered {
            sections: vec![(
                "windows".into(),
                "<script>alert(1)</script> \"Nodiatis\" \u{1b}[31m".into(),
            )],
            frames: vec![("a<b>.png".into(), vec![1, 2, 3])],
        };
        let page = html(&report);
        assert!(!page.contains("<script>"), "{page}");
        assert!(page.contains("&lt;script&gt;alert(1)&lt;/script&gt; &quot;Nodiatis&quot;"));
        assert!(!page.contains('\u{1b}'), "{page}");
        assert!(page.contains("data:image/png;base64,AQID"), "{page}");
        assert!(page.contains("alt=\"a&lt;b&gt;.png\""), "{page}");
    }

    /// A PNG of one pixel of grey `n`.
    fn png(n: u8) -> Vec<u8> {
        let mut bytes = Vec::new();
        image::GrayImage::from_pixel(1, 1, image::Luma([n]))
            .write_to(
                &mut std::io::Cursor::new(&mut bytes),
                image::ImageFormat::Png,
            )
            .unwrap();
        bytes
    }

    #[test]
    fn the_last_frames_are_the_newest_frames_the_bot_saved_and_only_those() {
        let dir = tempfile::tempdir().unwrap();
        for n in 0..8u8 {
            let name = format!("click-{n:02}-after.png");
            std::fs::write(dir.path().join(name), png(n)).unwrap();
            // Times a file system tells apart.
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        // Newer, but no frame of the bot's: another name, a text named as
        // a frame, a picture under the bot's names through a link.
        std::fs::write(dir.path().join("notes.txt"), b"private").unwrap();
        std::fs::write(dir.path().join("holiday.png"), png(9)).unwrap();
        std::fs::write(dir.path().join("changed-frame.png"), b"private text").unwrap();
        #[cfg(unix)]
        {
            let private = dir.path().join("private.png");
            std::fs::write(&private, png(10)).unwrap();
            std::os::unix::fs::symlink(&private, dir.path().join("unsettled-last.png")).unwrap();
            std::fs::hard_link(&private, dir.path().join("unreadable-frame.png")).unwrap();
        }
        let frames = last_frames(dir.path());
        let names: Vec<&str> = frames.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names,
            [
                "click-07-after.png",
                "click-06-after.png",
                "click-05-after.png",
                "click-04-after.png",
                "click-03-after.png",
                "click-02-after.png"
            ]
        );
        assert!(last_frames(&dir.path().join("none")).is_empty());
    }

    #[cfg(unix)]
    #[test]
    fn a_linked_settings_file_stays_out() {
        let dir = tempfile::tempdir().unwrap();
        let private = dir.path().join("secret.txt");
        std::fs::write(&private, "password = 1234").unwrap();
        let link = dir.path().join("settings.toml");
        std::os::unix::fs::symlink(&private, &link).unwrap();
        assert!(!settings_text(&link).contains("1234"));
        std::fs::remove_file(&link).unwrap();
        std::fs::write(&link, "window = \"Dust\"").unwrap();
        assert!(settings_text(&link).contains("Dust"));
    }
}
