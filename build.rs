//! Build script: for a Windows target only, each program's resources,
//! compiled and linked into it: `bot.exe`'s and `dustbot.exe`'s (the
//! desktop app, the front door players double-click) application manifest
//! (`windows/app.manifest`, one for both with each program's name:
//! asInvoker, per-monitor DPI awareness v2, the supported systems), their
//! icon (`windows/dustbot.ico`, drawn by the renderer: `render::icon`;
//! Explorer shows the first icon group's) and the
//! version information Explorer's Properties, SmartScreen and Task
//! Manager show (product, version, description, the file's own name).
//! MinGW's `windres` compiles them for the GNU target (the cross build
//! here); the Windows SDK's `rc.exe` for MSVC (a build on Windows, the CI's
//! Windows job), which needs no MinGW. A native Linux build does nothing
//! here.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The programs, by their binary's name (Cargo.toml's `[[bin]]`).
const PROGRAMS: [&str; 2] = ["bot", "dustbot"];

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=windows/app.manifest");
    println!("cargo::rerun-if-changed=windows/dustbot.ico");
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() != Ok("windows") {
        return;
    }
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    let version = std::env::var("CARGO_PKG_VERSION").expect("cargo sets the version");
    // Windows' versions are four numbers: 0.1.0 is 0,1,0,0.
    let mut numbers: Vec<u16> = version
        .split(['.', '-', '+'])
        .take(3)
        .map(|n| n.parse().unwrap_or(0))
        .collect();
    numbers.resize(4, 0);
    let dotted = numbers.iter().map(u16::to_string).collect::<Vec<_>>();
    let template = std::fs::read_to_string("windows/app.manifest").expect("windows/app.manifest");
    for program in PROGRAMS {
        let manifest = template
            .replace("@VERSION@", &dotted.join("."))
            .replace("@PROGRAM@", program);
        let manifest_path = out.join(format!("{program}.manifest"));
        std::fs::write(&manifest_path, manifest).expect("write the manifest");
        let rc = out.join(format!("{program}.rc"));
        std::fs::write(&rc, resources(program, &manifest_path, &version, &numbers))
            .expect("write the resource script");
        if std::env::var("CARGO_CFG_TARGET_ENV").as_deref() == Ok("msvc") {
            compile_with_rc_exe(program, &rc, &out.join(format!("{program}.res")));
        } else {
            compile_with_windres(program, &rc, &out.join(format!("{program}-resources.o")));
        }
    }
}

/// The resource script of `program`: its manifest (at `manifest`) and its
/// version information.
fn resources(program: &str, manifest: &Path, version: &str, numbers: &[u16]) -> String {
    // The FileDescription is what Task Manager shows and xcap gives as
    // the application name of every window of the bot (its hint and
    // practice windows, the app's): "dustbot", never the crate's
    // description, which names the game and would make those windows
    // match a search for it.
    format!(
        r#"// Made by build.rs.
1 24 "{manifest}"
1 ICON "{icon}"
1 VERSIONINFO
FILEVERSION {commas}
PRODUCTVERSION {commas}
FILEOS 0x40004
FILETYPE 0x1
BEGIN
  BLOCK "StringFileInfo"
  BEGIN
    BLOCK "040904B0"
    BEGIN
      VALUE "CompanyName", "dustbot"
      VALUE "FileDescription", "dustbot"
      VALUE "FileVersion", "{version}"
      VALUE "InternalName", "{program}"
      VALUE "LegalCopyright", "MIT License, see LICENSE"
      VALUE "OriginalFilename", "{program}.exe"
      VALUE "ProductName", "dustbot"
      VALUE "ProductVersion", "{version}"
    END
  END
  BLOCK "VarFileInfo"
  BEGIN
    VALUE "Translation", 0x409, 1200
  END
END
"#,
        manifest = manifest.display().to_string().replace('\\', "/"),
        icon = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("windows/dustbot.ico")
            .display()
            .to_string()
            .replace('\\', "/"),
        commas = numbers
            .iter()
            .map(u16::to_string)
            .collect::<Vec<_>>()
            .join(","),
    )
}

/// MinGW's `windres` (`WINDRES` names another): a COFF object for the GNU
/// linker, linked into `program`.
fn compile_with_windres(program: &str, rc: &Path, object: &Path) {
    let windres = std::env::var("WINDRES").unwrap_or_else(|_| "x86_64-w64-mingw32-windres".into());
    let status = Command::new(&windres)
        .arg("--input")
        .arg(rc)
        .args(["--input-format=rc", "--output-format=coff", "--output"])
        .arg(object)
        .status()
        .unwrap_or_else(|e| {
            panic!("{windres} (MinGW's binutils, scripts/install-deps --windows): {e}")
        });
    assert!(status.success(), "{windres} failed on {}", rc.display());
    println!("cargo::rustc-link-arg-bin={program}={}", object.display());
}

/// The Windows SDK's `rc.exe`: a `.res` file, which Microsoft's linker
/// takes as an input as it is, for `program`.
fn compile_with_rc_exe(program: &str, rc: &Path, res: &Path) {
    let rc_exe = rc_exe();
    let status = Command::new(&rc_exe)
        .arg("/nologo")
        .arg("/fo")
        .arg(res)
        .arg(rc)
        .status()
        .unwrap_or_else(|e| {
            panic!(
                "{} (the Windows SDK's resource compiler; RC names another): {e}",
                rc_exe.display()
            )
        });
    assert!(
        status.success(),
        "{} failed on {}",
        rc_exe.display(),
        rc.display()
    );
    println!("cargo::rustc-link-arg-bin={program}={}", res.display());
    // The manifest is the resource's: none of link.exe's own beside it
    // (bot.exe.manifest) or merged into it.
    println!("cargo::rustc-link-arg-bin={program}=/MANIFEST:NO");
}

/// Where `rc.exe` is: `RC` if set; else the newest Windows 10/11 SDK's in
/// its known folder (`Windows Kits\10\bin\10.0.*\x64`, where Visual
/// Studio's installer and the GitHub runners put it; the Developer
/// Prompt's `PATH` is not there in a plain shell); else `rc.exe` on
/// `PATH`.
fn rc_exe() -> PathBuf {
    println!("cargo::rerun-if-env-changed=RC");
    if let Some(rc) = std::env::var_os("RC") {
        return rc.into();
    }
    let kits = std::env::var_os("ProgramFiles(x86)")
        .map_or_else(|| PathBuf::from(r"C:\Program Files (x86)"), PathBuf::from)
        .join("Windows Kits")
        .join("10")
        .join("bin");
    let newest = std::fs::read_dir(&kits)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().into_string().ok()?;
            // 10.0.22621.0: compared as numbers, not as text.
            let version: Vec<u32> = name
                .split('.')
                .map(|n| n.parse().ok())
                .collect::<Option<_>>()?;
            let exe = entry.path().join("x64").join("rc.exe");
            exe.is_file().then_some((version, exe))
        })
        .max();
    newest.map_or_else(|| PathBuf::from("rc.exe"), |(_, exe)| exe)
}
