//! The files the bot touches outside its own memory. What it writes for
//! people to keep (calibrations, pictures: the dry run's, the saved
//! frames, the benchmark's plot) is written whole or not at all, through
//! a temporary file of its own that nothing else can have planted, and
//! that no way out (an error, a panic, Ctrl-C) leaves behind; a file that
//! must not be replaced is never replaced, even by a run beside this one.
//! What it reads (screenshots, calibrations, board files) is read only
//! from regular files, through a limit fitting the kind of file, so that
//! a FIFO, a device or a huge file is a clear error instead of a hang or
//! all the memory. Logs are appended to, never emptied. A folder that
//! cannot be written into is found before a long run, not after it.

use std::fs::{self, File, OpenOptions};
use std::hash::{BuildHasher, Hasher};
use std::io::{self, Cursor, Read, Write};
use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

use image::{EncodableLayout, ImageBuffer, ImageFormat, PixelWithColorType};
use thiserror::Error;

/// The folder `path` is in: `.` for a bare file name.
pub fn folder_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_owned(),
        _ => PathBuf::from("."),
    }
}

/// Whether an existing file may be replaced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Existing {
    /// Replaced whole (a reader sees the old file or the new one).
    Replace,
    /// Refused: the write fails with [`io::ErrorKind::AlreadyExists`], and
    /// of two runs writing one name at once, exactly one succeeds.
    Keep,
}

/// Writes `picture` to `path` as a PNG, whole or not at all (see
/// [`write_whole`]).
pub fn save_png<P, C>(
    path: &Path,
    picture: &ImageBuffer<P, C>,
    existing: Existing,
) -> io::Result<()>
where
    P: PixelWithColorType,
    [P::Subpixel]: EncodableLayout,
    C: Deref<Target = [P::Subpixel]>,
{
    let mut png = Vec::new();
    picture
        .write_to(&mut Cursor::new(&mut png), ImageFormat::Png)
        .map_err(io::Error::other)?;
    write_whole(path, &png, existing)
}

/// Writes `bytes` to `path` whole: into a temporary file beside it, then
/// renamed into place ([`Existing::Replace`]) or linked there, which fails
/// when the name exists ([`Existing::Keep`]). The folder must exist.
pub fn write_whole(path: &Path, bytes: &[u8], existing: Existing) -> io::Result<()> {
    let mut temporary = Temporary::beside(path)?;
    temporary.file.write_all(bytes)?;
    temporary.file.sync_all()?;
    match existing {
        Existing::Replace => fs::rename(&temporary.path, path),
        // A link is made only where no name is: the test and the write are
        // one step, so two runs cannot both pass the test.
        Existing::Keep => fs::hard_link(&temporary.path, path),
    }
    // The temporary's name goes with it (renamed, or one of two links).
}

/// Ctrl-C and the temporary files: the process ends once no temporary
/// file exists (each renamed into place or removed), never between.
#[derive(Debug)]
struct Interrupts {
    interrupted: AtomicBool,
    /// How many temporary files exist now, or are being made.
    temporaries: AtomicUsize,
}

impl Interrupts {
    const fn new() -> Interrupts {
        Interrupts {
            interrupted: AtomicBool::new(false),
            temporaries: AtomicUsize::new(0),
        }
    }

    /// Records Ctrl-C; whether the process may end now (no temporary
    /// exists: the last one's [`Interrupts::end`] says so otherwise).
    fn interrupt(&self) -> bool {
        self.interrupted.store(true, Ordering::SeqCst);
        self.temporaries.load(Ordering::SeqCst) == 0
    }

    /// Counts a temporary about to be made; whether it may be (not after
    /// Ctrl-C). Counted before Ctrl-C is looked at, so that a Ctrl-C that
    /// saw no temporary is seen here. Each call is matched by one
    /// [`Interrupts::end`].
    fn begin(&self) -> bool {
        self.temporaries.fetch_add(1, Ordering::SeqCst);
        !self.interrupted.load(Ordering::SeqCst)
    }

    /// A temporary is gone; whether the process must end now (Ctrl-C came
    /// and it was the last).
    fn end(&self) -> bool {
        let left = self.temporaries.fetch_sub(1, Ordering::SeqCst) - 1;
        left == 0 && self.interrupted.load(Ordering::SeqCst)
    }
}

static INTERRUPTS: Interrupts = Interrupts::new();

/// The exit code of a run ended by Ctrl-C (128 + SIGINT, as a shell says).
const INTERRUPTED_EXIT: i32 = 130;

/// Makes Ctrl-C end the process (exit code 130) without leaving a
/// temporary file: at once when none exists, else when the last is gone.
/// For the commands that have no Ctrl-C of their own (live play and
/// assist mode stop their loop on it instead).
pub fn exit_on_ctrl_c() -> Result<(), ctrlc::Error> {
    ctrlc::set_handler(|| {
        if INTERRUPTS.interrupt() {
            std::process::exit(INTERRUPTED_EXIT);
        }
    })
}

/// A temporary file of this process beside a destination: created new
/// (never an existing file or link) under a name no one can guess, and
/// removed when dropped, on every way out.
#[derive(Debug)]
struct Temporary {
    path: PathBuf,
    file: File,
}

impl Temporary {
    fn beside(destination: &Path) -> io::Result<Temporary> {
        let name = destination
            .file_name()
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "not a file name"))?;
        let may = INTERRUPTS.begin();
        let counted = Counted;
        if !may {
            return Err(io::Error::new(io::ErrorKind::Interrupted, "interrupted"));
        }
        let folder = folder_of(destination);
        let mut tries = 0;
        loop {
            let path = folder.join(format!(
                ".{}.{:016x}.tmp",
                name.to_string_lossy(),
                unguessable()
            ));
            match File::create_new(&path) {
                Ok(file) => {
                    std::mem::forget(counted);
                    return Ok(Temporary { path, file });
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists && tries < 8 => tries += 1,
                Err(e) => return Err(e),
            }
        }
    }
}

impl Drop for Temporary {
    fn drop(&mut self) {
        let _ = fs::remove_file(&self.path);
        drop(Counted);
    }
}

/// One temporary file counted in [`INTERRUPTS`]; uncounted when dropped,
/// which ends the process if Ctrl-C came meanwhile.
struct Counted;

impl Drop for Counted {
    fn drop(&mut self) {
        if INTERRUPTS.end() {
            std::process::exit(INTERRUPTED_EXIT);
        }
    }
}

/// 64 bits no other process can predict: the standard library seeds each
/// hasher's keys from the system's random source.
fn unguessable() -> u64 {
    static COUNT: AtomicU64 = AtomicU64::new(0);
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u64(COUNT.fetch_add(1, Ordering::Relaxed));
    hasher.write_u32(std::process::id());
    hasher.finish()
}

/// Whether a file can be created in `folder`, found by creating and
/// removing one: permissions alone do not tell (a read-only mount, root).
pub fn probe_folder(folder: &Path) -> io::Result<()> {
    let probe = folder.join(format!(".bot-write-test-{:016x}", unguessable()));
    fs::File::create_new(&probe)?;
    fs::remove_file(&probe)
}

/// Whether files can be written into `folder` once it is made: it is a
/// folder that can be written into, or the nearest folder above it that
/// exists can (nothing is created).
pub fn check_folder(folder: &Path) -> io::Result<()> {
    let mut existing = folder;
    while existing.symlink_metadata().is_err() {
        match existing.parent() {
            Some(p) if !p.as_os_str().is_empty() => existing = p,
            _ => {
                existing = Path::new(".");
                break;
            }
        }
    }
    if !existing.is_dir() {
        return Err(io::Error::new(
            io::ErrorKind::NotADirectory,
            format!("{} is not a folder", existing.display()),
        ));
    }
    probe_folder(existing)
}

/// The most a calibration file may hold: the default one is 2 KiB.
pub const MAX_CALIBRATION_BYTES: u64 = 1 << 20;
/// The most a board file (`NAME.board`) may hold: the longest board
/// string is 255 characters.
pub const MAX_BOARD_BYTES: u64 = 4096;

/// Why an input file was not read, or a log not opened.
#[derive(Debug, Error)]
pub enum FileError {
    #[error("not a regular file ({0})")]
    NotAFile(&'static str),
    #[error("more than {} bytes, too big for {what}", limit)]
    TooBig { limit: u64, what: &'static str },
    #[error("{0}")]
    Io(#[from] io::Error),
}

/// The whole of the regular file `path` when it holds at most `limit`
/// bytes (`what` names the kind of file for the error). A FIFO, a device
/// or a folder is refused before it is opened (opening a FIFO waits for a
/// writer), and a file is never read past its limit (a file that grows,
/// `/dev/zero` behind a link).
pub fn read_bounded(path: &Path, limit: u64, what: &'static str) -> Result<Vec<u8>, FileError> {
    regular(&fs::metadata(path)?)?;
    let file = File::open(path)?;
    // The file opened may not be the one looked at.
    regular(&file.metadata()?)?;
    let mut bytes = Vec::new();
    file.take(limit + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(FileError::TooBig { limit, what });
    }
    Ok(bytes)
}

/// The last `limit` bytes of the regular file `path` at most, and how
/// many bytes before them were left (0: the whole file). A FIFO, a
/// device or a folder is refused as by [`read_bounded`].
pub fn read_end(path: &Path, limit: u64) -> Result<(Vec<u8>, u64), FileError> {
    use std::io::{Seek as _, SeekFrom};
    regular(&fs::metadata(path)?)?;
    let mut file = File::open(path)?;
    let metadata = file.metadata()?;
    regular(&metadata)?;
    let skipped = metadata.len().saturating_sub(limit);
    file.seek(SeekFrom::Start(skipped))?;
    let mut bytes = Vec::new();
    file.take(limit).read_to_end(&mut bytes)?;
    Ok((bytes, skipped))
}

/// As [`read_bounded`], as UTF-8 text without a byte order mark.
pub fn read_text(path: &Path, limit: u64, what: &'static str) -> Result<String, FileError> {
    let bytes = read_bounded(path, limit, what)?;
    let text = String::from_utf8(bytes)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "not UTF-8 text"))?;
    Ok(without_bom(&text).to_owned())
}

/// `text` without the byte order mark some editors put first: it marks the
/// encoding, it is not part of the text.
pub fn without_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// Refuses what is not a regular file, naming what it is.
fn regular(metadata: &fs::Metadata) -> Result<(), FileError> {
    let kind = metadata.file_type();
    if kind.is_file() {
        return Ok(());
    }
    Err(FileError::NotAFile(kind_name(&kind)))
}

fn kind_name(kind: &fs::FileType) -> &'static str {
    if kind.is_symlink() {
        return "a link";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a FIFO";
        }
        if kind.is_char_device() || kind.is_block_device() {
            return "a device";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    if kind.is_dir() {
        "a folder"
    } else {
        "not a file"
    }
}

/// Opens the log `path` to append lines to (created when missing): an
/// existing file keeps what it holds. Refused: anything but a regular file
/// (a FIFO would hold the run until someone reads it; a link, which would
/// have the log written into whatever it points to), and any of
/// `inputs`, the files the run reads (a log typed over a calibration).
pub fn open_log(path: &Path, inputs: &[&Path]) -> Result<File, FileError> {
    open_appending(path, inputs, OpenOptions::new().append(true))
}

/// As [`open_log`], and readable: for a log that looks at its own end
/// before each line (the game log starts a line of its own after one cut
/// short).
pub fn open_log_readable(path: &Path, inputs: &[&Path]) -> Result<File, FileError> {
    open_appending(path, inputs, OpenOptions::new().read(true).append(true))
}

fn open_appending(
    path: &Path,
    inputs: &[&Path],
    options: &mut OpenOptions,
) -> Result<File, FileError> {
    if let Ok(metadata) = fs::symlink_metadata(path) {
        regular(&metadata)?;
        if inputs.iter().any(|input| same_file(path, input)) {
            return Err(io::Error::new(
                io::ErrorKind::AlreadyExists,
                "it is one of the run's inputs, not a log",
            )
            .into());
        }
    }
    let file = open_no_follow(options.create(true), path)?;
    regular(&file.metadata()?)?;
    Ok(file)
}

/// Opens `path` with `options`, never through a link at its last name: a
/// link planted there since it was looked at is refused, not followed.
pub fn open_no_follow(options: &mut OpenOptions, path: &Path) -> Result<File, FileError> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        options.custom_flags(libc::O_NOFOLLOW);
    }
    // The link itself is opened (FILE_FLAG_OPEN_REPARSE_POINT, as
    // CreateFileW documents it), which the caller's check of the handle
    // then refuses as a link.
    #[cfg(windows)]
    {
        use std::os::windows::fs::OpenOptionsExt as _;
        options.custom_flags(0x0020_0000);
    }
    let file = options.open(path).map_err(|e| {
        // O_NOFOLLOW's refusal of a link (open(2)).
        #[cfg(unix)]
        if e.raw_os_error() == Some(libc::ELOOP) {
            return FileError::NotAFile("a link");
        }
        FileError::Io(e)
    })?;
    if file.metadata()?.file_type().is_symlink() {
        return Err(FileError::NotAFile("a link"));
    }
    Ok(file)
}

/// Whether two paths name one file: through symbolic links, other
/// spellings and hard links alike (a hard link has a path of its own, so
/// the file's identity is compared, not its path).
pub fn same_file(a: &Path, b: &Path) -> bool {
    same_file::is_same_file(a, b).unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn writes_whole_files_and_leaves_nothing_beside_them() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.png");
        write_whole(&path, b"first", Existing::Replace).unwrap();
        write_whole(&path, b"second", Existing::Replace).unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"second");
        probe_folder(dir.path()).unwrap();
        assert_eq!(names(dir.path()), ["out.png"], "no temporary or probe file");
        let missing = dir.path().join("no-such-folder");
        assert!(write_whole(&missing.join("x.png"), b"x", Existing::Replace).is_err());
        assert!(probe_folder(&missing).is_err());
        assert_eq!(folder_of(Path::new("x.png")), Path::new("."));
        assert_eq!(folder_of(Path::new("a/x.png")), Path::new("a"));
    }

    #[test]
    fn a_kept_file_is_never_replaced_and_one_of_two_writers_wins() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.toml");
        write_whole(&path, b"first", Existing::Keep).unwrap();
        let error = write_whole(&path, b"second", Existing::Keep).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::AlreadyExists);
        assert_eq!(fs::read(&path).unwrap(), b"first");
        assert_eq!(names(dir.path()), ["c.toml"]);
        // Writers racing for one new name: exactly one succeeds.
        let raced = dir.path().join("raced.toml");
        let wins: usize = std::thread::scope(|s| {
            let writers: Vec<_> = (0..8u8)
                .map(|i| {
                    let raced = &raced;
                    s.spawn(move || write_whole(raced, &[i; 4096], Existing::Keep).is_ok())
                })
                .collect();
            writers
                .into_iter()
                .map(|w| usize::from(w.join().unwrap()))
                .sum()
        });
        assert_eq!(wins, 1);
        assert_eq!(names(dir.path()), ["c.toml", "raced.toml"]);
    }

    #[cfg(unix)]
    #[test]
    fn a_planted_link_is_never_followed() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("precious");
        fs::write(&target, b"keep me").unwrap();
        // A link under the name temporaries had (the process id): it
        // is neither opened nor taken.
        let planted = dir
            .path()
            .join(format!(".out.png.{}.tmp", std::process::id()));
        std::os::unix::fs::symlink(&target, planted).unwrap();
        let path = dir.path().join("out.png");
        write_whole(&path, b"new", Existing::Replace).unwrap();
        assert_eq!(fs::read(&target).unwrap(), b"keep me");
        assert_eq!(fs::read(&path).unwrap(), b"new");
        // Two temporaries for one destination never share a name.
        let a = Temporary::beside(&path).unwrap();
        let b = Temporary::beside(&path).unwrap();
        assert_ne!(a.path, b.path);
        drop((a, b));
        assert_eq!(names(dir.path()).len(), 3, "temporaries removed");
    }

    #[test]
    fn ctrl_c_waits_for_the_temporaries() {
        let interrupts = Interrupts::new();
        // No temporary: Ctrl-C ends the process at once.
        assert!(Interrupts::new().interrupt());
        assert!(interrupts.begin());
        assert!(!interrupts.interrupt(), "not while a temporary exists");
        // None is begun after Ctrl-C; the last to end ends the process.
        assert!(!interrupts.begin());
        assert!(!interrupts.end());
        assert!(interrupts.end());
        // Without Ctrl-C, nothing ends.
        let calm = Interrupts::new();
        assert!(calm.begin());
        assert!(!calm.end());
    }

    #[test]
    fn a_picture_is_saved_whole_as_a_png() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("picture.png");
        let picture =
            image::RgbaImage::from_fn(5, 3, |x, y| image::Rgba([x as u8, y as u8, 7, 255]));
        save_png(&path, &picture, Existing::Replace).unwrap();
        let read = image::open(&path).unwrap().to_rgba8();
        assert_eq!(read, picture);
        assert_eq!(names(dir.path()), ["picture.png"]);
        let none = dir.path().join("none/picture.png");
        assert!(save_png(&none, &picture, Existing::Replace).is_err());
    }

    #[test]
    fn inputs_are_regular_files_read_within_their_limit() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.toml");
        fs::write(&path, "\u{feff}version = 1\n").unwrap();
        assert_eq!(read_text(&path, 64, "a test").unwrap(), "version = 1\n");
        let error = read_bounded(&path, 8, "a test").unwrap_err();
        assert_eq!(error.to_string(), "more than 8 bytes, too big for a test");
        let error = read_bounded(dir.path(), 8, "a test").unwrap_err();
        assert_eq!(error.to_string(), "not a regular file (a folder)");
        #[cfg(unix)]
        {
            let error = read_bounded(Path::new("/dev/zero"), 8, "a test").unwrap_err();
            assert_eq!(error.to_string(), "not a regular file (a device)");
        }
    }

    #[test]
    fn logs_are_appended_to_and_never_an_input() {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("hints.jsonl");
        let calibration = dir.path().join("c.toml");
        fs::write(&calibration, "version = 1\n").unwrap();
        fs::write(&log, "old\n").unwrap();
        writeln!(open_log(&log, &[&calibration]).unwrap(), "new").unwrap();
        assert_eq!(fs::read_to_string(&log).unwrap(), "old\nnew\n");
        assert!(open_log(&calibration, &[&calibration]).is_err());
        assert!(open_log(dir.path(), &[]).is_err());
        assert_eq!(fs::read_to_string(&calibration).unwrap(), "version = 1\n");
        // A readable log reads what it holds and still only appends.
        let mut readable = open_log_readable(&log, &[&calibration]).unwrap();
        let mut held = String::new();
        readable.read_to_string(&mut held).unwrap();
        assert_eq!(held, "old\nnew\n");
        writeln!(readable, "more").unwrap();
        assert_eq!(fs::read_to_string(&log).unwrap(), "old\nnew\nmore\n");
        assert!(open_log_readable(&calibration, &[&calibration]).is_err());
        assert!(open_log_readable(dir.path(), &[]).is_err());
    }

    #[cfg(unix)]
    #[test]
    fn a_log_linked_to_a_players_file_is_refused_and_the_file_kept() {
        let dir = tempfile::tempdir().unwrap();
        let notes = dir.path().join("notes.txt");
        fs::write(&notes, "my notes\n").unwrap();
        let log = dir.path().join("games.jsonl");
        std::os::unix::fs::symlink(&notes, &log).unwrap();
        for open in [open_log, open_log_readable] {
            let error = open(&log, &[]).unwrap_err();
            assert_eq!(error.to_string(), "not a regular file (a link)");
        }
        // Planted between the look and the open: O_NOFOLLOW refuses it.
        let error = open_no_follow(OpenOptions::new().append(true), &log).unwrap_err();
        assert_eq!(error.to_string(), "not a regular file (a link)");
        assert_eq!(fs::read_to_string(&notes).unwrap(), "my notes\n");
    }

    #[test]
    fn a_hard_link_to_an_input_is_that_input() {
        let dir = tempfile::tempdir().unwrap();
        let calibration = dir.path().join("nodiatis.toml");
        fs::write(&calibration, "[board]\n").unwrap();
        let link = dir.path().join("games.jsonl");
        fs::hard_link(&calibration, &link).unwrap();
        assert!(same_file(&link, &calibration));
        let refused = open_log(&link, &[&calibration]).unwrap_err();
        assert!(
            refused.to_string().contains("one of the run's inputs"),
            "{refused}"
        );
        assert_eq!(fs::read_to_string(&calibration).unwrap(), "[board]\n");
        // Another spelling of one path is one file; a copy is another.
        let spelled = dir.path().join(".").join("nodiatis.toml");
        assert!(same_file(&spelled, &calibration));
        let copy = dir.path().join("copy.toml");
        fs::copy(&calibration, &copy).unwrap();
        assert!(!same_file(&copy, &calibration));
        assert!(!same_file(&dir.path().join("missing"), &calibration));
    }

    #[test]
    fn a_folder_to_be_is_checked_without_making_it() {
        let dir = tempfile::tempdir().unwrap();
        check_folder(&dir.path().join("a/b")).unwrap();
        assert_eq!(names(dir.path()), Vec::<String>::new());
        let file = dir.path().join("file");
        fs::write(&file, "").unwrap();
        assert!(check_folder(&file).is_err());
        assert!(check_folder(&file.join("below")).is_err());
    }
}
