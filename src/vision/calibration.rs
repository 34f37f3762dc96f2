//! The calibration: what `bot calibrate` learns from a screenshot and every
//! read uses. A versioned TOML file (`calibration/NAME.toml`) holding the
//! board size, the geometry relative to the screenshot, each colour's model
//! (centre and spread in CIELAB), the empty-cell model, the background the
//! colours were seen on, and the thresholds. Saving is atomic: the file is
//! written beside its destination and renamed into place.

use std::fs;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::files;
use crate::game::{Colour, MAX_CELLS, MAX_COLOURS};
use crate::geometry::Geometry;

/// The least CIEDE2000 distance between two colours' centres (the real
/// game's nearest two, lime and gold, are about 20 apart).
const MIN_COLOUR_DISTANCE: f32 = 8.0;

/// The calibration format this bot reads and writes.
pub const VERSION: u32 = 1;

/// The default calibration, `calibration/nodiatis.toml`, compiled in: what
/// the bot reads with when no file of it can be read (the bot alone in a
/// folder, as Explorer runs an exe opened inside a zip).
const BUILT_IN: &str = include_str!("../../calibration/nodiatis.toml");

/// A calibration file's contents. See `calibration/nodiatis.toml`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Calibration {
    pub version: u32,
    pub board: BoardShape,
    pub geometry: StoredGeometry,
    pub background: BackgroundModel,
    pub piles: PileModel,
    pub empty: EmptyModel,
    pub thresholds: Thresholds,
    #[serde(rename = "colour")]
    pub colours: Vec<ColourModel>,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardShape {
    pub width: u8,
    pub height: u8,
}

/// The board's place in the screenshot the calibration came from: a live
/// read of a window of that size tries it before searching.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StoredGeometry {
    pub image_width: u32,
    pub image_height: u32,
    pub x: f32,
    pub y: f32,
    pub pitch_x: f32,
    pub pitch_y: f32,
}

/// The board's background as seen between the piles, in linear sRGB: reads
/// balance a capture so that its background matches this one.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BackgroundModel {
    #[serde(deserialize_with = "three")]
    pub linear_rgb: [f32; 3],
}

/// How a pile looks at the pixel level.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PileModel {
    /// Typical share of a cell's central window that is pile-coloured.
    pub fraction: f32,
    /// A pile's larger side as a share of the pitch.
    pub size: f32,
}

/// How an empty cell looks: some glow of the neighbours spills in.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EmptyModel {
    /// Typical share of an empty cell's central window that is
    /// pile-coloured.
    pub fraction: f32,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Thresholds {
    /// A cell read below this confidence (0..1) makes the read no board.
    pub confidence: f32,
    /// Oklab (a, b) distance from the background colour above which a
    /// (balanced) pixel belongs to a pile.
    pub pile_distance: f32,
    /// CIEDE2000 distance from a colour's centre at which the confidence
    /// reaches 0: a pile farther from every colour is a kind not seen.
    pub max_delta_e: f32,
    /// The most the white balance may scale a channel, either way.
    pub balance_limit: f32,
}

/// One dust colour: the centre and spread of its piles' median colours.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ColourModel {
    pub letter: char,
    pub name: String,
    /// CIELAB (D65) centre.
    #[serde(deserialize_with = "three")]
    pub lab: [f32; 3],
    /// RMS CIEDE2000 distance of the calibration's piles from the centre.
    pub spread: f32,
}

/// Why a calibration cannot be loaded or saved. Every message names the file.
#[derive(Debug, Error)]
pub enum CalibrationError {
    #[error("calibration {path}: cannot read it: {cause}")]
    Read {
        path: PathBuf,
        cause: files::FileError,
    },
    #[error("calibration {path}: not valid TOML ({message})")]
    Syntax { path: PathBuf, message: String },
    #[error("calibration {path}: format version {found}, this bot reads version {VERSION}")]
    Version { path: PathBuf, found: String },
    #[error("calibration {path}: {message}")]
    Invalid { path: PathBuf, message: String },
    #[error("calibration {path} already exists")]
    Exists { path: PathBuf },
    #[error("calibration {path}: cannot write it: {cause}")]
    Write {
        path: PathBuf,
        cause: std::io::Error,
    },
}

/// Exactly three numbers: serde's arrays take the first three of a longer
/// list and drop the rest without a word.
fn three<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<[f32; 3], D::Error> {
    struct Three;
    impl<'de> serde::de::Visitor<'de> for Three {
        type Value = [f32; 3];

        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("3 numbers")
        }

        fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<[f32; 3], A::Error> {
            let mut values = [0.0; 3];
            for (i, value) in values.iter_mut().enumerate() {
                *value = seq
                    .next_element()?
                    .ok_or_else(|| serde::de::Error::invalid_length(i, &self))?;
            }
            let mut count = 3;
            while seq.next_element::<serde::de::IgnoredAny>()?.is_some() {
                count += 1;
            }
            if count > 3 {
                return Err(serde::de::Error::invalid_length(count, &self));
            }
            Ok(values)
        }
    }
    deserializer.deserialize_seq(Three)
}

impl Calibration {
    /// Loads and checks a calibration file.
    pub fn load(path: &Path) -> Result<Calibration, CalibrationError> {
        let text = files::read_text(path, files::MAX_CALIBRATION_BYTES, "a calibration").map_err(
            |cause| CalibrationError::Read {
                path: path.to_owned(),
                cause,
            },
        )?;
        Calibration::parse(&text).map_err(|e| e.at(path))
    }

    /// Loads the default calibration from `path` (see [`default_path`]),
    /// else, when that file cannot be read (it is not there), the one
    /// compiled in, and says so (a warning): the bot reads the real game
    /// with either. A file that is there but broken is an error, as any
    /// calibration's: the player's edit is not silently replaced.
    ///
    /// [`default_path`]: Calibration::default_path
    pub fn load_default(path: &Path) -> Result<Calibration, CalibrationError> {
        match Calibration::load(path) {
            Err(CalibrationError::Read { cause, .. }) => {
                log::warn!(
                    "calibration {}: cannot read it ({cause}): reading with the default calibration built into the bot",
                    path.display()
                );
                Ok(Calibration::built_in())
            }
            loaded => loaded,
        }
    }

    /// The default calibration as compiled in (see [`BUILT_IN`]).
    pub fn built_in() -> Calibration {
        Calibration::parse(BUILT_IN)
            .expect("the built-in calibration parses (a unit test checks it)")
    }

    /// Parses a calibration from TOML text; errors carry an empty path.
    pub fn parse(text: &str) -> Result<Calibration, CalibrationError> {
        let syntax = |e: toml::de::Error| CalibrationError::Syntax {
            path: PathBuf::new(),
            message: one_line(text, &e),
        };
        let table: toml::Table = toml::from_str(text).map_err(syntax)?;
        match table.get("version") {
            Some(toml::Value::Integer(v)) if *v == i64::from(VERSION) => {}
            Some(other) => {
                return Err(CalibrationError::Version {
                    path: PathBuf::new(),
                    found: other.to_string(),
                });
            }
            None => {
                return Err(CalibrationError::Version {
                    path: PathBuf::new(),
                    found: "missing".into(),
                });
            }
        }
        let calibration: Calibration = toml::from_str(text).map_err(syntax)?;
        calibration
            .check()
            .map_err(|message| CalibrationError::Invalid {
                path: PathBuf::new(),
                message,
            })?;
        Ok(calibration)
    }

    fn check(&self) -> Result<(), String> {
        let BoardShape { width, height } = self.board;
        if width == 0 || height == 0 || width as usize * height as usize > MAX_CELLS {
            return Err(format!("a {width}x{height} board is not supported"));
        }
        if self.colours.is_empty() || self.colours.len() > MAX_COLOURS as usize {
            return Err(format!(
                "{} colours: expected 1 to {MAX_COLOURS}",
                self.colours.len()
            ));
        }
        for (i, model) in self.colours.iter().enumerate() {
            let expected = Colour::new(i as u8).map(Colour::letter);
            if Some(model.letter) != expected {
                return Err(format!(
                    "colour {} has letter {:?}, expected {:?} (colours go in the order {})",
                    i + 1,
                    model.letter,
                    expected.unwrap_or('?'),
                    Colour::LETTERS.iter().collect::<String>()
                ));
            }
            let [l, ca, cb] = model.lab;
            if !((0.0..=100.0).contains(&l)
                && (-128.0..=128.0).contains(&ca)
                && (-128.0..=128.0).contains(&cb)
                && (0.0..=20.0).contains(&model.spread))
            {
                return Err(format!(
                    "colour {:?}: lab must be L 0 to 100, a and b -128 to 128, spread 0 to 20",
                    model.letter
                ));
            }
        }
        let g = &self.geometry;
        let t = &self.thresholds;
        // Every number a read trusts, with the range that keeps a read
        // safe: outside it a guess passes for a read (a low confidence, a
        // far colour reach, no pile distance), or nothing is ever read.
        let ranges: [(&str, f32, f32, f32); 11] = [
            ("thresholds.confidence", t.confidence, 0.3, 0.95),
            ("thresholds.pile_distance", t.pile_distance, 0.005, 0.1),
            ("thresholds.max_delta_e", t.max_delta_e, 5.0, 40.0),
            ("thresholds.balance_limit", t.balance_limit, 1.0, 20.0),
            ("piles.fraction", self.piles.fraction, 0.3, 1.0),
            ("piles.size", self.piles.size, 0.3, 1.2),
            ("empty.fraction", self.empty.fraction, 0.0, 0.3),
            ("geometry.pitch_x", g.pitch_x, 4.0, 2000.0),
            ("geometry.pitch_y", g.pitch_y, 4.0, 2000.0),
            ("geometry.x", g.x, -1e5, 1e5),
            ("geometry.y", g.y, -1e5, 1e5),
        ];
        for (key, value, low, high) in ranges {
            if !(low..=high).contains(&value) {
                return Err(format!("{key} = {value}: must be from {low} to {high}"));
            }
        }
        if self.empty.fraction >= self.piles.fraction {
            return Err("empty.fraction must be below piles.fraction".into());
        }
        if !self
            .background
            .linear_rgb
            .iter()
            .all(|v| (0.0..=1.0).contains(v))
        {
            return Err("background.linear_rgb: each channel must be from 0 to 1".into());
        }
        // Two colours that near each other make every pile of either a
        // coin toss.
        for (i, a) in self.colours.iter().enumerate() {
            for b in &self.colours[i + 1..] {
                let distance = crate::colour::delta_e(a.lab, b.lab);
                if distance < MIN_COLOUR_DISTANCE {
                    return Err(format!(
                        "colours {:?} and {:?} are {distance:.1} apart (CIEDE2000): at least {MIN_COLOUR_DISTANCE} is needed to tell them apart",
                        a.letter, b.letter
                    ));
                }
            }
        }
        Ok(())
    }

    /// The TOML text of this calibration.
    pub fn to_toml(&self) -> String {
        let body = toml::to_string(self).expect("a calibration always serialises");
        format!(
            "# dustbot calibration: written by `bot calibrate`, read by every board read.\n\
             # Colours are CIELAB (D65) centres with their CIEDE2000 spread.\n{body}"
        )
    }

    /// Writes the calibration to `path` whole: to a temporary file in the
    /// same folder, then renamed into place, so a crash leaves any old file
    /// whole. Refuses to replace an existing file (or link, even one to
    /// nothing: it is someone's file name) unless `overwrite`, in the same
    /// step as the write: of two runs saving one name, one is refused.
    pub fn save(&self, path: &Path, overwrite: bool) -> Result<(), CalibrationError> {
        let write_error = |cause| CalibrationError::Write {
            path: path.to_owned(),
            cause,
        };
        fs::create_dir_all(files::folder_of(path)).map_err(write_error)?;
        let existing = if overwrite {
            files::Existing::Replace
        } else {
            files::Existing::Keep
        };
        files::write_whole(path, self.to_toml().as_bytes(), existing).map_err(|cause| {
            if cause.kind() == std::io::ErrorKind::AlreadyExists {
                CalibrationError::Exists {
                    path: path.to_owned(),
                }
            } else {
                write_error(cause)
            }
        })
    }

    /// Where the default calibration lives: `calibration/nodiatis.toml` in
    /// the current folder if it is there, else in the repository the `bot`
    /// binary was built in (found by walking up from the executable, so
    /// `./target/release/bot` works from anywhere; in a Mac app, its
    /// `Contents/Resources`), else the current
    /// folder's path (so the error names it).
    pub fn default_path() -> PathBuf {
        let relative = Path::new("calibration").join("nodiatis.toml");
        if relative.is_file() {
            return relative;
        }
        let beside_binary = std::env::current_exe().ok().and_then(|exe| {
            exe.ancestors()
                .skip(1)
                .flat_map(|dir| {
                    // A Mac app's own copy goes where the app goes (moved,
                    // or run from a copy macOS makes of it elsewhere):
                    // dustbot.app/Contents/Resources/calibration/.
                    let app =
                        cfg!(target_os = "macos").then(|| dir.join("Resources").join(&relative));
                    std::iter::once(dir.join(&relative)).chain(app)
                })
                .find(|candidate| candidate.is_file())
        });
        beside_binary.unwrap_or(relative)
    }

    /// The geometry stored for a screenshot of `image_size`, if it is the
    /// size the calibration came from.
    pub fn stored_geometry(&self, image_size: (u32, u32)) -> Option<Geometry> {
        let g = &self.geometry;
        (image_size == (g.image_width, g.image_height)).then_some(Geometry {
            x: g.x,
            y: g.y,
            pitch_x: g.pitch_x,
            pitch_y: g.pitch_y,
            width: self.board.width,
            height: self.board.height,
        })
    }
}

impl CalibrationError {
    /// The same error, naming `path`.
    fn at(self, path: &Path) -> CalibrationError {
        let path = path.to_owned();
        match self {
            CalibrationError::Syntax { message, .. } => CalibrationError::Syntax { path, message },
            CalibrationError::Version { found, .. } => CalibrationError::Version { path, found },
            CalibrationError::Invalid { message, .. } => {
                CalibrationError::Invalid { path, message }
            }
            other => other,
        }
    }
}

/// A TOML error on one line, with its line number.
fn one_line(text: &str, error: &toml::de::Error) -> String {
    let mut message = error.message().trim().replace('\n', " ");
    // The parser quotes what it refused, which may be a whole line of
    // anything: an error stays short.
    if message.chars().count() > MAX_MESSAGE {
        message = message.chars().take(MAX_MESSAGE).collect::<String>() + "...";
    }
    match error.span() {
        Some(span) => {
            let line = text[..span.start.min(text.len())].matches('\n').count() + 1;
            format!("line {line}: {message}")
        }
        None => message,
    }
}

/// The most characters of the TOML parser's message an error keeps.
const MAX_MESSAGE: usize = 150;

/// Rounds for a readable file: four decimals are far below any threshold.
pub(crate) fn round4(v: f32) -> f32 {
    (v * 10_000.0).round() / 10_000.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_calibration_is_the_default_file() {
        let file = Calibration::load(Path::new(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/calibration/nodiatis.toml"
        )))
        .unwrap();
        assert_eq!(Calibration::built_in(), file);
    }

    #[test]
    fn a_missing_default_file_reads_with_the_built_in_one_and_a_broken_one_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("calibration").join("nodiatis.toml");
        assert_eq!(
            Calibration::load_default(&missing).unwrap(),
            Calibration::built_in()
        );
        let broken = dir.path().join("broken.toml");
        std::fs::write(&broken, "version = 1\n[board\n").unwrap();
        let error = Calibration::load_default(&broken).unwrap_err();
        assert!(matches!(error, CalibrationError::Syntax { .. }), "{error}");
        assert!(error.to_string().contains("broken.toml"), "{error}");
    }

    pub(crate) fn sample() -> Calibration {
        Calibration {
            version: VERSION,
            board: BoardShape {
                width: 8,
                height: 6,
            },
            geometry: StoredGeometry {
                image_width: 643,
                image_height: 470,
                x: 1.5,
                y: -5.0,
                pitch_x: 80.0,
                pitch_y: 79.5,
            },
            background: BackgroundModel {
                linear_rgb: [0.1, 0.12, 0.11],
            },
            piles: PileModel {
                fraction: 0.5,
                size: 0.85,
            },
            empty: EmptyModel { fraction: 0.01 },
            thresholds: Thresholds {
                confidence: 0.5,
                pile_distance: 0.02,
                max_delta_e: 20.0,
                balance_limit: 4.0,
            },
            colours: Colour::all(5)
                .map(|c| ColourModel {
                    letter: c.letter(),
                    name: c.name().into(),
                    lab: [50.0, f32::from(c.index()) * 25.0 - 50.0, 0.0],
                    spread: 1.5,
                })
                .collect(),
        }
    }

    #[test]
    fn round_trips_through_toml() {
        let calibration = sample();
        let text = calibration.to_toml();
        assert!(text.contains("[[colour]]"), "{text}");
        assert_eq!(Calibration::parse(&text).unwrap(), calibration);
    }

    #[test]
    fn values_that_disable_the_safety_are_refused_by_name() {
        let text = sample().to_toml();
        for (from, to, names) in [
            (
                "confidence = 0.5",
                "confidence = 0.0",
                "thresholds.confidence = 0: must be from 0.3",
            ),
            (
                "max_delta_e = 20.0",
                "max_delta_e = 500.0",
                "thresholds.max_delta_e = 500",
            ),
            (
                "pile_distance = 0.02",
                "pile_distance = 0.0",
                "thresholds.pile_distance = 0",
            ),
            (
                "balance_limit = 4.0",
                "balance_limit = 1000.0",
                "thresholds.balance_limit",
            ),
            ("pitch_x = 80.0", "pitch_x = 0.0", "geometry.pitch_x = 0"),
        ] {
            assert!(text.contains(from), "{from}");
            let error = Calibration::parse(&text.replace(from, to)).unwrap_err();
            assert!(error.to_string().contains(names), "{error}");
        }
        let mut twins = sample();
        twins.colours[1].lab = twins.colours[0].lab;
        let error = Calibration::parse(&twins.to_toml()).unwrap_err();
        assert!(
            error.to_string().contains("'G' and 'O' are 0.0 apart"),
            "{error}"
        );
    }

    #[test]
    fn arrays_hold_exactly_three_numbers() {
        let text = sample().to_toml();
        let lab = text
            .lines()
            .find(|l| l.starts_with("lab = ["))
            .expect("a colour's lab");
        let longer = lab.replace(']', ", 1.0, 2.0]");
        let e = Calibration::parse(&text.replacen(lab, &longer, 1)).unwrap_err();
        assert!(
            e.to_string()
                .contains("invalid length 5, expected 3 numbers"),
            "{e}"
        );
        let shorter = format!("{}]", &lab[..lab.rfind(',').unwrap()]);
        let e = Calibration::parse(&text.replacen(lab, &shorter, 1)).unwrap_err();
        assert!(
            e.to_string()
                .contains("invalid length 2, expected 3 numbers"),
            "{e}"
        );
        let rgb = text
            .lines()
            .find(|l| l.starts_with("linear_rgb = ["))
            .expect("the background");
        let many = format!("linear_rgb = [{}]", vec!["0.5"; 1000].join(", "));
        let e = Calibration::parse(&text.replacen(rgb, &many, 1)).unwrap_err();
        assert!(e.to_string().contains("invalid length 1000"), "{e}");
    }

    #[test]
    fn rejects_other_versions_and_bad_files() {
        let text = sample().to_toml().replace("version = 1", "version = 2");
        let e = Calibration::parse(&text).unwrap_err();
        assert!(matches!(e, CalibrationError::Version { .. }), "{e}");
        let e = Calibration::parse("board = [").unwrap_err();
        assert!(e.to_string().contains("line 1"), "{e}");
        assert!(!e.to_string().contains('\n'), "{e}");
        let text = sample()
            .to_toml()
            .replace("letter = \"R\"", "letter = \"Q\"");
        let e = Calibration::parse(&text).unwrap_err();
        assert!(e.to_string().contains("colour 3"), "{e}");
        let text = sample()
            .to_toml()
            .replace("confidence = 0.5", "confidence = 1.5");
        assert!(Calibration::parse(&text).is_err());
    }

    #[test]
    fn saves_atomically_and_never_overwrites_unasked() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("calibration").join("test.toml");
        let calibration = sample();
        calibration.save(&path, false).unwrap();
        assert_eq!(Calibration::load(&path).unwrap(), calibration);
        let mut other = sample();
        other.thresholds.confidence = 0.7;
        let e = other.save(&path, false).unwrap_err();
        assert!(matches!(e, CalibrationError::Exists { .. }));
        assert_eq!(Calibration::load(&path).unwrap(), calibration);
        other.save(&path, true).unwrap();
        assert_eq!(Calibration::load(&path).unwrap(), other);
        let leftovers: Vec<_> = fs::read_dir(path.parent().unwrap()).unwrap().collect();
        assert_eq!(leftovers.len(), 1, "no temporary file is left behind");
    }

    #[test]
    fn stored_geometry_fits_only_its_image_size() {
        let calibration = sample();
        assert!(calibration.stored_geometry((643, 470)).is_some());
        assert!(calibration.stored_geometry((644, 470)).is_none());
    }
}
