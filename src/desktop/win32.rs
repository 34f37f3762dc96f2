//! The desktop on Windows: the few Win32 calls that `xcap`, `enigo` and
//! `minifb` do not make for the bot. Per-monitor DPI awareness, so that
//! capture, window geometry and the cursor share one pixel space at any
//! display scaling; a window's client area (xcap gives the frame with its
//! title bar); the cursor put anywhere on the virtual desktop; the console
//! window the bot runs in and its ancestors, never to be taken for the
//! game; whether that console is the bot's alone (started from Explorer);
//! a file's identity (its volume and file index: one file under every
//! name, hard links included).
//! The only module with `unsafe`: each call is a plain Win32 function on
//! values this module owns.
#![allow(unsafe_code)]

use windows_sys::Win32::Foundation::{CloseHandle, HWND, INVALID_HANDLE_VALUE, POINT, RECT};
use windows_sys::Win32::Graphics::Gdi::ClientToScreen;
use windows_sys::Win32::System::Console::{GetConsoleProcessList, GetConsoleWindow};
use windows_sys::Win32::System::Diagnostics::ToolHelp::{
    CreateToolhelp32Snapshot, PROCESSENTRY32W, Process32FirstW, Process32NextW, TH32CS_SNAPPROCESS,
};
use windows_sys::Win32::UI::HiDpi::{
    DPI_AWARENESS_CONTEXT_PER_MONITOR_AWARE_V2, DPI_AWARENESS_PER_MONITOR_AWARE,
    GetAwarenessFromDpiAwarenessContext, GetThreadDpiAwarenessContext,
    SetProcessDpiAwarenessContext,
};
use windows_sys::Win32::UI::Input::KeyboardAndMouse::{GetAsyncKeyState, VK_LBUTTON};
use windows_sys::Win32::UI::WindowsAndMessaging::{GetClientRect, SetCursorPos};

use super::{ScreenPoint, ScreenRect};

/// Declares the process per-monitor DPI aware (v2); `Ok` also when it
/// already was (a manifest, an earlier call), an error naming the
/// awareness in force otherwise.
pub(super) fn make_dpi_aware() -> Result<(), String> {
    // SAFETY: no arguments but a constant; fails harmlessly when the
    // awareness was set before.
    let set = unsafe { SetProcessDpiAwarenessContext(DPI_AWARENESS_CONTEXT_PER_MONITOR_AWARE_V2) };
    // SAFETY: queries of this thread's own state.
    let awareness = unsafe { GetAwarenessFromDpiAwarenessContext(GetThreadDpiAwarenessContext()) };
    if awareness == DPI_AWARENESS_PER_MONITOR_AWARE {
        return Ok(());
    }
    Err(format!(
        "the process could not be made per-monitor DPI aware (set: {set}, awareness: {awareness})"
    ))
}

/// The window handle behind `xcap`'s window id (the handle's value).
fn handle(id: u32) -> HWND {
    id as usize as HWND
}

/// The client area of window `id` on the desktop, in physical pixels
/// (the process is DPI aware); `None` when the window is gone.
pub(super) fn client_area(id: u32) -> Option<ScreenRect> {
    let hwnd = handle(id);
    let mut rect = RECT {
        left: 0,
        top: 0,
        right: 0,
        bottom: 0,
    };
    let mut corner = POINT { x: 0, y: 0 };
    // SAFETY: both write into locals; a stale handle makes them fail.
    let ok =
        unsafe { GetClientRect(hwnd, &mut rect) != 0 && ClientToScreen(hwnd, &mut corner) != 0 };
    ok.then(|| ScreenRect {
        x: corner.x,
        y: corner.y,
        width: (rect.right - rect.left).max(0) as u32,
        height: (rect.bottom - rect.top).max(0) as u32,
    })
}

/// Puts the cursor at `to`, anywhere on the virtual desktop (every
/// monitor), in physical pixels.
pub(super) fn set_cursor(to: ScreenPoint) -> Result<(), String> {
    // SAFETY: plain values.
    if unsafe { SetCursorPos(to.x, to.y) } != 0 {
        Ok(())
    } else {
        Err(format!(
            "cannot put the cursor at {to}: {}",
            std::io::Error::last_os_error()
        ))
    }
}

/// Whether the left button is down as the system has it now (SendInput
/// puts the bot's own presses and releases in that state at once).
pub(super) fn left_down() -> bool {
    // SAFETY: a plain value; the high bit is the button's state now.
    (unsafe { GetAsyncKeyState(i32::from(VK_LBUTTON)) } as u16) & 0x8000 != 0
}

/// The console window the bot runs in, if it has one: its title holds
/// the command line, which names the game.
pub(super) fn console_window() -> Option<u32> {
    // SAFETY: no arguments.
    let hwnd = unsafe { GetConsoleWindow() };
    (!hwnd.is_null()).then_some(hwnd as usize as u32)
}

/// Whether the bot is the only process on its console: Windows made the
/// console for it (a double-click in Explorer) and closes it at exit.
pub(super) fn own_console() -> bool {
    let mut processes = [0u32; 4];
    // SAFETY: the buffer and its length agree.
    let count = unsafe { GetConsoleProcessList(processes.as_mut_ptr(), processes.len() as u32) };
    count == 1
}

/// The parent of process `pid`, from a snapshot of the processes.
pub(super) fn parent_of(pid: u32) -> Option<u32> {
    // SAFETY: a snapshot this function owns and closes; the entry's size
    // is set as the API asks.
    unsafe {
        let snapshot = CreateToolhelp32Snapshot(TH32CS_SNAPPROCESS, 0);
        if snapshot == INVALID_HANDLE_VALUE {
            return None;
        }
        let mut entry = PROCESSENTRY32W {
            dwSize: std::mem::size_of::<PROCESSENTRY32W>() as u32,
            ..PROCESSENTRY32W::default()
        };
        let mut parent = None;
        let mut more = Process32FirstW(snapshot, &mut entry) != 0;
        while more {
            if entry.th32ProcessID == pid {
                parent = Some(entry.th32ParentProcessID);
                break;
            }
            more = Process32NextW(snapshot, &mut entry) != 0;
        }
        CloseHandle(snapshot);
        parent
    }
}

/// The identity of the open `file`: its volume's serial number and its
/// file index, the same under every name the file has (hard links too).
pub(super) fn file_identity(file: &std::fs::File) -> Option<(u64, u64)> {
    use std::os::windows::io::AsRawHandle as _;
    use windows_sys::Win32::Storage::FileSystem::{
        BY_HANDLE_FILE_INFORMATION, GetFileInformationByHandle,
    };
    let mut info = BY_HANDLE_FILE_INFORMATION::default();
    // SAFETY: the handle is the open file's, borrowed for the call; the
    // call fills a plain struct this function owns.
    let read = unsafe { GetFileInformationByHandle(file.as_raw_handle(), &mut info) };
    (read != 0).then(|| {
        (
            u64::from(info.dwVolumeSerialNumber),
            u64::from(info.nFileIndexHigh) << 32 | u64::from(info.nFileIndexLow),
        )
    })
}
