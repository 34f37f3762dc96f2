//! Writing the files people keep (calibrations, pictures: the dry run's,
//! the saved frames, the benchmark's plot) so that a crash or Ctrl-C never
//! leaves half of one, and finding out before a long run that a folder
//! cannot be written into, not after it.

use std::fs;
use std::io::{self, Cursor, Write};
use std::ops::Deref;
use std::path::{Path, PathBuf};

use image::{EncodableLayout, ImageBuffer, ImageFormat, PixelWithColorType};

/// The folder `path` is in: `.` for a bare file name.
pub fn folder_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_owned(),
        _ => PathBuf::from("."),
    }
}

/// Writes `picture` to `path` as a PNG, whole or not at all (see
/// [`write_atomically`]).
pub fn save_png<P, C>(path: &Path, picture: &ImageBuffer<P, C>) -> io::Result<()>
where
    P: PixelWithColorType,
    [P::Subpixel]: EncodableLayout,
    C: Deref<Target = [P::Subpixel]>,
{
    let mut png = Vec::new();
    picture
        .write_to(&mut Cursor::new(&mut png), ImageFormat::Png)
        .map_err(io::Error::other)?;
    write_atomically(path, &png)
}

/// Writes `bytes` to `path` atomically: into a temporary file beside it,
/// then renamed into place, so a reader sees the old file or the new one,
/// whole. The folder must exist.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let file_name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "not a file name"))?;
    let temporary = folder_of(path).join(format!(
        ".{}.{}.tmp",
        file_name.to_string_lossy(),
        std::process::id()
    ));
    let written = (|| {
        let mut file = fs::File::create(&temporary)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        fs::rename(&temporary, path)
    })();
    if written.is_err() {
        let _ = fs::remove_file(&temporary);
    }
    written
}

/// Whether a file can be created in `folder`, found by creating and
/// removing one: permissions alone do not tell (a read-only mount, root).
pub fn probe_folder(folder: &Path) -> io::Result<()> {
    let probe = folder.join(format!(".bot-write-test-{}", std::process::id()));
    fs::File::create_new(&probe)?;
    fs::remove_file(&probe)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_whole_files_and_leaves_nothing_beside_them() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.png");
        write_atomically(&path, b"first").unwrap();
        write_atomically(&path, b"second").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"second");
        probe_folder(dir.path()).unwrap();
        let names: Vec<_> = fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 1, "no temporary or probe file is left");
        let missing = dir.path().join("no-such-folder");
        assert!(write_atomically(&missing.join("x.png"), b"x").is_err());
        assert!(probe_folder(&missing).is_err());
        assert_eq!(folder_of(Path::new("x.png")), Path::new("."));
        assert_eq!(folder_of(Path::new("a/x.png")), Path::new("a"));
    }

    #[test]
    fn a_picture_is_saved_whole_as_a_png() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("picture.png");
        let picture =
            image::RgbaImage::from_fn(5, 3, |x, y| image::Rgba([x as u8, y as u8, 7, 255]));
        save_png(&path, &picture).unwrap();
        let read = image::open(&path).unwrap().to_rgba8();
        assert_eq!(read, picture);
        let names: Vec<_> = fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 1, "no temporary file is left");
        assert!(save_png(&dir.path().join("none/picture.png"), &picture).is_err());
    }
}
