//! Build script: for a Windows target only, bot.exe's resources, compiled
//! with MinGW's `windres` and linked into the `bot` binary: the
//! application manifest (`windows/bot.manifest`: asInvoker, per-monitor
//! DPI awareness v2, the supported systems) and the version information
//! Explorer's Properties and SmartScreen show (product, version,
//! description). A native build does nothing here and needs no MinGW.

use std::path::PathBuf;
use std::process::Command;

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=windows/bot.manifest");
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

    let manifest = std::fs::read_to_string("windows/bot.manifest")
        .expect("windows/bot.manifest")
        .replace("@VERSION@", &dotted.join("."));
    let manifest_path = out.join("bot.manifest");
    std::fs::write(&manifest_path, manifest).expect("write the manifest");

    let description = std::env::var("CARGO_PKG_DESCRIPTION").unwrap_or_default();
    let resources = format!(
        r#"// Made by build.rs.
1 24 "{manifest}"
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
      VALUE "FileDescription", "{description}"
      VALUE "FileVersion", "{version}"
      VALUE "InternalName", "bot"
      VALUE "LegalCopyright", "MIT License, see LICENSE"
      VALUE "OriginalFilename", "bot.exe"
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
        manifest = manifest_path.display().to_string().replace('\\', "/"),
        commas = numbers
            .iter()
            .map(u16::to_string)
            .collect::<Vec<_>>()
            .join(","),
        description = description.replace('"', "'"),
    );
    let rc = out.join("bot.rc");
    std::fs::write(&rc, resources).expect("write bot.rc");
    let object = out.join("bot-resources.o");
    let windres = std::env::var("WINDRES").unwrap_or_else(|_| "x86_64-w64-mingw32-windres".into());
    let status = Command::new(&windres)
        .arg("--input")
        .arg(&rc)
        .args(["--input-format=rc", "--output-format=coff", "--output"])
        .arg(&object)
        .status()
        .unwrap_or_else(|e| {
            panic!("{windres} (MinGW's binutils, scripts/install-deps --windows): {e}")
        });
    assert!(status.success(), "{windres} failed on {}", rc.display());
    println!("cargo::rustc-link-arg-bin=bot={}", object.display());
}
