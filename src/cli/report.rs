//! The report a player attaches to a question: `bot report`, or "save a
//! report" after an error in a guided session. One HTML file that any
//! browser shows, so that the player sees what they would share: the
//! version, the OS and its screens' display scales, the window list
//! (titles escaped), the settings file, the session's log (the lines the
//! log showed, the error that stopped it) and its last frames (the debug
//! folder's newest pictures, which the bot saved of the game's board), and
//! nothing else from the disk.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};

use super::{progress, say, settings};
use crate::desktop::{self, Desktop as _};
use crate::files::{self, Existing};

/// How many of the debug folder's pictures, newest first, go in.
const LAST_FRAMES: usize = 6;

/// The most bytes of one picture that go in: a frame of the board is
/// tens of kilobytes; a bigger file is no frame of the bot's.
const MAX_FRAME_BYTES: u64 = 4 << 20;

/// `bot report`: writes the report into the data folder and says where.
pub fn run(debug_dir: &Path) -> Result<ExitCode> {
    let path = save(None, debug_dir)?;
    say!(
        "wrote the report {}: attach it to your question",
        path.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// Writes the report, with `error` (what stopped the session, if
/// something did), into the data folder as `report-TIME.html`; its path.
pub fn save(error: Option<&str>, debug_dir: &Path) -> Result<PathBuf> {
    let folder = settings::data_folder()?;
    std::fs::create_dir_all(&folder)
        .with_context(|| format!("{}: cannot make the folder", folder.display()))?;
    let stamp = crate::record::now_rfc3339().replace(':', "-");
    let path = folder.join(format!("report-{stamp}.html"));
    let text = html(&gather(error, debug_dir));
    files::write_whole(&path, text.as_bytes(), Existing::Keep)
        .with_context(|| format!("{}: cannot write the report", path.display()))?;
    Ok(path)
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
    let screens = match desktop::screens() {
        Ok(screens) => screens
            .iter()
            .map(|(area, scale)| {
                format!(
                    "{}x{} at {},{}, display scale {:.0}%",
                    area.width,
                    area.height,
                    area.x,
                    area.y,
                    scale * 100.0
                )
            })
            .collect::<Vec<_>>()
            .join("\n"),
        Err(error) => format!("cannot list the screens: {error}"),
    };
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
    let settings = settings::settings_path()
        .ok()
        .and_then(|path| {
            files::read_bounded(&path, files::MAX_CALIBRATION_BYTES, "the settings").ok()
        })
        .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
        .unwrap_or_else(|| "(no settings file)".into());
    sections.push(("settings".into(), settings));
    sections.push((
        "the session's log".into(),
        progress::session_log().join("\n"),
    ));
    Gathered {
        sections,
        frames: last_frames(debug_dir),
    }
}

/// The newest PNG pictures of `debug_dir` (not its subfolders), at most
/// [`LAST_FRAMES`].
fn last_frames(debug_dir: &Path) -> Vec<(String, Vec<u8>)> {
    let Ok(entries) = std::fs::read_dir(debug_dir) else {
        return Vec::new();
    };
    let mut pictures: Vec<(std::time::SystemTime, PathBuf)> = entries
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "png"))
        .filter_map(|e| {
            let meta = e.metadata().ok()?;
            let small_file = meta.is_file() && meta.len() <= MAX_FRAME_BYTES;
            small_file.then_some((meta.modified().ok()?, e.path()))
        })
        .collect();
    pictures.sort_by_key(|(modified, _)| std::cmp::Reverse(*modified));
    pictures
        .into_iter()
        .take(LAST_FRAMES)
        .filter_map(|(_, path)| {
            let bytes = files::read_bounded(&path, MAX_FRAME_BYTES, "a frame").ok()?;
            let name = path.file_name()?.to_string_lossy().into_owned();
            Some((name, bytes))
        })
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

    #[test]
    fn the_last_frames_are_the_newest_pictures_and_only_pictures() {
        let dir = tempfile::tempdir().unwrap();
        for n in 0..8 {
            std::fs::write(dir.path().join(format!("frame-{n}.png")), [n]).unwrap();
            // Times a file system tells apart.
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        std::fs::write(dir.path().join("notes.txt"), b"private").unwrap();
        let frames = last_frames(dir.path());
        let names: Vec<&str> = frames.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names,
            [
                "frame-7.png",
                "frame-6.png",
                "frame-5.png",
                "frame-4.png",
                "frame-3.png",
                "frame-2.png"
            ]
        );
        assert!(last_frames(&dir.path().join("none")).is_empty());
    }
}
