//! The desktop on Windows: the few Win32 calls that `xcap`, `enigo` and
//! `minifb` do not make for the bot. Per-monitor DPI awareness, so that
//! capture, window geometry and the cursor share one pixel space at any
//! display scaling; a window's client area (xcap gives the frame with its
//! title bar); the top-level window at a point (where a press would go);
//! the cursor put anywhere on the virtual desktop; which physical button
//! is the primary (`SM_SWAPBUTTON`) and whether it is down; the console
//! window the bot runs in and its ancestors (with their start times),
//! never to be taken for the game; whether that console closes when the
//! bot exits (started from Explorer, a shortcut or a batch file); the
//! console's close, log-off and shut-down events, which end the process
//! once handled, with the button released first; the console's modes
//! (colour, QuickEdit) and Explorer showing a file.
//! The only module with `unsafe`: each call is a plain Win32 function on
//! values this module owns.
#![allow(unsafe_code)]

use windows_sys::Win32::Foundation::{
    CloseHandle, FILETIME, HANDLE, HWND, INVALID_HANDLE_VALUE, POINT, RECT, UNICODE_STRING,
};
use windows_sys::Win32::Graphics::Gdi::ClientToScreen;
use windows_sys::Win32::System::Console::{
    CTRL_CLOSE_EVENT, CTRL_LOGOFF_EVENT, CTRL_SHUTDOWN_EVENT, GetConsoleMode,
    GetConsoleProcessList, GetConsoleWindow, GetStdHandle, STD_ERROR_HANDLE, STD_INPUT_HANDLE,
    STD_OUTPUT_HANDLE, SetConsoleCtrlHandler, SetConsoleMode,
};
use windows_sys::Win32::System::Diagnostics::ToolHelp::{
    CreateToolhelp32Snapshot, PROCESSENTRY32W, Process32FirstW, Process32NextW, TH32CS_SNAPPROCESS,
};
use windows_sys::Win32::System::Threading::{
    GetProcessTimes, OpenProcess, PROCESS_QUERY_LIMITED_INFORMATION,
};
use windows_sys::Win32::UI::HiDpi::{
    DPI_AWARENESS_CONTEXT_PER_MONITOR_AWARE_V2, DPI_AWARENESS_PER_MONITOR_AWARE,
    GetAwarenessFromDpiAwarenessContext, GetThreadDpiAwarenessContext,
    SetProcessDpiAwarenessContext,
};
use windows_sys::Win32::UI::Input::KeyboardAndMouse::{
    GetAsyncKeyState, INPUT, INPUT_0, INPUT_MOUSE, MOUSEEVENTF_LEFTUP, MOUSEEVENTF_MIDDLEUP,
    MOUSEEVENTF_RIGHTUP, MOUSEINPUT, SendInput, VK_LBUTTON, VK_MBUTTON, VK_RBUTTON,
};
use windows_sys::Win32::UI::WindowsAndMessaging::{
    GA_ROOT, GetAncestor, GetClientRect, GetSystemMetrics, SM_SWAPBUTTON, SetCursorPos,
    WindowFromPoint,
};

use enigo::Button;

use super::console::Stream;
use super::{InputError, ScreenPoint, ScreenRect};

/// Declares the process per-monitor DPI aware (v2); `Ok` also when it
/// already was (a manifest, an earlier call), an error naming the
/// awareness in force otherwise.
pub(super) fn prepare() -> Result<(), String> {
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
/// monitor), in physical pixels. Windows denies it while an elevated
/// window is in front (the game run as administrator): said as such.
fn set_cursor(to: ScreenPoint) -> Result<(), InputError> {
    // SAFETY: plain values.
    if unsafe { SetCursorPos(to.x, to.y) } != 0 {
        Ok(())
    } else {
        let cause = std::io::Error::last_os_error();
        Err(super::input::refused(
            &format!("cannot put the cursor at {to}"),
            &cause,
        ))
    }
}

/// The top-level window at `point` (physical pixels), as the window list
/// names it (its handle's value): what a press there would reach.
/// `WindowFromPoint` hit-tests as the mouse does, so a window that lets
/// clicks through (layered and transparent to input) is not found, and
/// it finds the windows xcap leaves out (the bot's own).
pub(super) fn window_at(point: ScreenPoint) -> Result<Option<u32>, String> {
    // SAFETY: plain values; a null handle is no window.
    let top = unsafe {
        let hwnd = WindowFromPoint(POINT {
            x: point.x,
            y: point.y,
        });
        if hwnd.is_null() {
            return Ok(None);
        }
        GetAncestor(hwnd, GA_ROOT)
    };
    Ok((!top.is_null()).then_some(top as usize as u32))
}

/// The mouse's buttons as the system has them: nothing to hold open.
pub(super) struct Buttons;

impl Buttons {
    pub(super) fn connect() -> Result<Buttons, String> {
        Ok(Buttons)
    }

    /// The physical button that is the primary now: the right one when
    /// the player swapped them (a left-handed player's setting).
    pub(super) fn primary(&self) -> Result<Button, String> {
        Ok(super::input::primary_when_swapped(buttons_swapped()))
    }

    /// Whether the button `pressed` (else the primary) is down: Windows
    /// reads the physical buttons' state, so the one pressed is asked.
    pub(super) fn primary_down(&self, pressed: Option<Button>) -> Result<bool, String> {
        Ok(button_down(pressed.map_or_else(|| self.primary(), Ok)?))
    }
}

/// Whether the player swapped the mouse's buttons (a left-handed player's
/// setting): the primary is then the physical right button.
fn buttons_swapped() -> bool {
    // SAFETY: a plain value.
    unsafe { GetSystemMetrics(SM_SWAPBUTTON) != 0 }
}

/// Moves the cursor to `to` with `SetCursorPos`: enigo's absolute moves
/// reach the primary monitor only.
pub(super) fn move_cursor(_: &mut enigo::Enigo, to: ScreenPoint) -> Result<(), InputError> {
    set_cursor(to)
}

/// Whether the physical `button` is down as the system has it now
/// (`GetAsyncKeyState` reads the physical buttons, not the swapped
/// meaning; SendInput puts the bot's own presses and releases in that
/// state at once).
fn button_down(button: Button) -> bool {
    let key = match button {
        Button::Right => VK_RBUTTON,
        Button::Middle => VK_MBUTTON,
        _ => VK_LBUTTON,
    };
    // SAFETY: a plain value; the high bit is the button's state now.
    (unsafe { GetAsyncKeyState(i32::from(key)) } as u16) & 0x8000 != 0
}

/// Releases the primary button with SendInput: for the console handler,
/// which runs on a thread of its own, away from the pointer the click
/// holds.
fn release_primary() {
    let flags = match super::input::primary_when_swapped(buttons_swapped()) {
        Button::Right => MOUSEEVENTF_RIGHTUP,
        Button::Middle => MOUSEEVENTF_MIDDLEUP,
        _ => MOUSEEVENTF_LEFTUP,
    };
    let input = INPUT {
        r#type: INPUT_MOUSE,
        Anonymous: INPUT_0 {
            mi: MOUSEINPUT {
                dx: 0,
                dy: 0,
                mouseData: 0,
                dwFlags: flags,
                time: 0,
                dwExtraInfo: 0,
            },
        },
    };
    // SAFETY: one input of the size given.
    unsafe { SendInput(1, &input, std::mem::size_of::<INPUT>() as i32) };
}

/// Whether a console event ends the process once its handlers return:
/// the console's close button, log-off and shut-down do; Ctrl-C and
/// Ctrl-Break are ctrlc's, a stop request.
fn ends_the_process(event: u32) -> bool {
    matches!(
        event,
        CTRL_CLOSE_EVENT | CTRL_LOGOFF_EVENT | CTRL_SHUTDOWN_EVENT
    )
}

/// Handles the console events that end the process (see
/// [`ends_the_process`]): a stop is asked for, and a press in progress is
/// released before the handler returns and Windows ends the process (the
/// click's own release, else this one). Set after ctrlc's handler, so
/// that Windows calls it first; the other events go on to ctrlc's.
/// Windows does not send log-off and shut-down to a console program
/// that has windows (user32): those end the session and its input too.
pub(super) fn catch_console_end() -> Result<(), String> {
    unsafe extern "system" fn on_event(event: u32) -> windows_sys::core::BOOL {
        if !ends_the_process(event) {
            return 0;
        }
        super::stop::ending(release_primary);
        1
    }
    // SAFETY: a handler that lives as long as the program.
    if unsafe { SetConsoleCtrlHandler(Some(on_event), 1) } != 0 {
        Ok(())
    } else {
        Err(format!(
            "cannot handle the console's close: {}",
            std::io::Error::last_os_error()
        ))
    }
}

/// The console window the bot runs in, if it has one: its title holds
/// the command line, which names the game.
pub(super) fn console_window() -> Option<u32> {
    // SAFETY: no arguments.
    let hwnd = unsafe { GetConsoleWindow() };
    (!hwnd.is_null()).then_some(hwnd as usize as u32)
}

/// Drops the keys in the console's input buffer not read yet.
pub(super) fn drop_typed_ahead() {
    use windows_sys::Win32::System::Console::{
        FlushConsoleInputBuffer, GetStdHandle, STD_INPUT_HANDLE,
    };
    // SAFETY: a standard handle, checked; no console makes the flush fail,
    // which leaves nothing to drop.
    unsafe {
        let input = GetStdHandle(STD_INPUT_HANDLE);
        if !input.is_null() && input != INVALID_HANDLE_VALUE {
            FlushConsoleInputBuffer(input);
        }
    }
}

/// Brings window `id` to the front; where Windows refuses (a process
/// may take the foreground only in some cases), its taskbar button
/// flashes until the player looks.
pub(super) fn bring_to_front(id: u32) -> Result<(), String> {
    use windows_sys::Win32::UI::WindowsAndMessaging::{
        FLASHW_TIMERNOFG, FLASHW_TRAY, FLASHWINFO, FlashWindowEx, SetForegroundWindow,
    };
    let hwnd = handle(id);
    // SAFETY: a window handle (a stale one makes the calls fail); the
    // structure's size is set as the API asks.
    unsafe {
        if SetForegroundWindow(hwnd) != 0 {
            return Ok(());
        }
        let flash = FLASHWINFO {
            cbSize: std::mem::size_of::<FLASHWINFO>() as u32,
            hwnd,
            dwFlags: FLASHW_TRAY | FLASHW_TIMERNOFG,
            uCount: 0,
            dwTimeout: 0,
        };
        FlashWindowEx(&flash);
    }
    Err("Windows kept another window in front: its taskbar button flashes".into())
}

/// How many processes share the bot's console: 1 when Windows made the
/// console for it (a double-click in Explorer, a shortcut), which closes
/// when it exits.
pub(super) fn console_processes() -> u32 {
    let mut processes = [0u32; 4];
    // SAFETY: the buffer and its length agree.
    unsafe { GetConsoleProcessList(processes.as_mut_ptr(), processes.len() as u32) }
}

/// The command line of the bot's parent process (the batch file's
/// `cmd.exe /c "run.bat"`).
pub(super) fn parent_command_line() -> Option<String> {
    command_line_of(parent_of(std::process::id())?)
}

/// The command line of process `pid`, where Windows tells it (8.1 and
/// later, and a process the bot may query).
pub(super) fn command_line_of(pid: u32) -> Option<String> {
    use windows_sys::Wdk::System::Threading::{
        NtQueryInformationProcess, ProcessCommandLineInformation,
    };
    // A UNICODE_STRING and the text it points to, in one buffer of u64s
    // (aligned for it); a command line holds at most 32767 characters.
    let mut buffer = vec![0u64; 8 + 32768 * 2 / 8];
    let bytes = (buffer.len() * 8) as u32;
    let mut written = 0u32;
    // SAFETY: a handle this function owns and closes; the buffer and its
    // length agree, and on success it starts with the UNICODE_STRING
    // whose text lies within the buffer.
    unsafe {
        let process = OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, 0, pid);
        if process.is_null() {
            return None;
        }
        let status = NtQueryInformationProcess(
            process,
            ProcessCommandLineInformation,
            buffer.as_mut_ptr().cast(),
            bytes,
            &mut written,
        );
        CloseHandle(process);
        if status < 0 {
            return None;
        }
        let text = &*buffer.as_ptr().cast::<UNICODE_STRING>();
        if text.Buffer.is_null() {
            return None;
        }
        let units = std::slice::from_raw_parts(text.Buffer, usize::from(text.Length) / 2);
        Some(String::from_utf16_lossy(units))
    }
}

/// When process `pid` started, in 100 ns since 1601; `None` when it is
/// gone or may not be looked at.
pub(super) fn started_at(pid: u32) -> Option<u64> {
    let zero = || FILETIME {
        dwLowDateTime: 0,
        dwHighDateTime: 0,
    };
    let (mut created, mut exited, mut kernel, mut user) = (zero(), zero(), zero(), zero());
    // SAFETY: a handle this function owns and closes; the times are
    // written into locals.
    let read = unsafe {
        let process = OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, 0, pid);
        if process.is_null() {
            return None;
        }
        let read = GetProcessTimes(process, &mut created, &mut exited, &mut kernel, &mut user);
        CloseHandle(process);
        read
    };
    (read != 0).then(|| u64::from(created.dwHighDateTime) << 32 | u64::from(created.dwLowDateTime))
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

/// Whether the bot was started on a console of its own (see
/// [`super::own_console`]).
pub(super) fn own_console() -> bool {
    console_processes() == 1
}

/// Whether the console the bot runs in closes when it exits (see
/// [`super::closes_at_exit`]).
pub(super) fn console_closes_at_exit() -> bool {
    super::closes_at_exit(console_processes(), parent_command_line().as_deref())
}

/// The console handle of standard `stream`, if it is a console.
fn std_handle(stream: Stream) -> Option<HANDLE> {
    let which = match stream {
        Stream::Input => STD_INPUT_HANDLE,
        Stream::Output => STD_OUTPUT_HANDLE,
        Stream::Error => STD_ERROR_HANDLE,
    };
    // SAFETY: a plain value; the handle is the process's, not to close.
    let handle = unsafe { GetStdHandle(which) };
    (!handle.is_null() && handle != INVALID_HANDLE_VALUE).then_some(handle)
}

/// The console mode of standard `stream`; `None` when it is no console
/// (a pipe, a file, mintty's pty).
pub(super) fn console_mode(stream: Stream) -> Option<u32> {
    let handle = std_handle(stream)?;
    let mut mode = 0;
    // SAFETY: writes into a local; fails on a handle that is no console.
    (unsafe { GetConsoleMode(handle, &mut mode) } != 0).then_some(mode)
}

/// Sets the console mode of standard `stream`; whether Windows took it.
pub(super) fn set_console_mode(stream: Stream, mode: u32) -> bool {
    // SAFETY: plain values; fails on a handle that is no console, or a
    // mode this console does not know (VT before Windows 10).
    std_handle(stream).is_some_and(|handle| unsafe { SetConsoleMode(handle, mode) } != 0)
}

/// Opens an Explorer window with `path` selected; not waited for.
pub(super) fn show_in_explorer(path: &std::path::Path) {
    use std::os::windows::process::CommandExt as _;
    if let Err(cause) = std::process::Command::new("explorer.exe")
        .raw_arg(super::console::select_argument(path))
        .spawn()
    {
        log::debug!("explorer.exe /select: {cause}");
    }
}

// What X11 alone needs, which Windows has no use for: the same names, so
// that the floor above calls one platform.

/// A desktop is always there to list.
pub(super) fn check_display() -> Result<(), super::CaptureError> {
    Ok(())
}

/// `xcap` reads every title there is.
pub(super) fn wm_name(_id: u32) -> Option<String> {
    None
}

/// minifb keeps a window on top itself, asked in its options.
pub(super) fn keep_above(_id: u32) -> Result<(), String> {
    Ok(())
}

/// A window destroyed from outside is a closed window to minifb here,
/// not an error that ends the process.
pub(super) fn survive_window_errors() -> Result<(), String> {
    Ok(())
}

/// See [`survive_window_errors`]: minifb tells it as closed.
pub(super) fn lost(_id: u32) -> bool {
    false
}

/// No kept connection for pixels: `xcap` captures with GDI, which holds
/// nothing open between captures. No value of this type exists.
#[derive(Debug)]
pub(crate) enum Pixels {}

impl Pixels {
    pub(crate) fn connect() -> Result<Pixels, String> {
        Err("xcap captures on Windows".into())
    }

    pub(crate) fn grab(&self, _: ScreenRect) -> Result<image::RgbaImage, String> {
        match *self {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_console_mode_bits_are_windows_own() {
        use super::super::console;
        use windows_sys::Win32::System::Console::{
            ENABLE_EXTENDED_FLAGS, ENABLE_PROCESSED_OUTPUT, ENABLE_QUICK_EDIT_MODE,
            ENABLE_VIRTUAL_TERMINAL_PROCESSING,
        };
        assert_eq!(
            console::VIRTUAL_TERMINAL,
            ENABLE_VIRTUAL_TERMINAL_PROCESSING
        );
        assert_eq!(console::PROCESSED_OUTPUT, ENABLE_PROCESSED_OUTPUT);
        assert_eq!(console::QUICK_EDIT, ENABLE_QUICK_EDIT_MODE);
        assert_eq!(console::EXTENDED_FLAGS, ENABLE_EXTENDED_FLAGS);
    }

    #[test]
    fn the_console_closing_ends_the_process_and_ctrl_c_does_not() {
        use windows_sys::Win32::System::Console::{CTRL_BREAK_EVENT, CTRL_C_EVENT};
        for event in [CTRL_CLOSE_EVENT, CTRL_LOGOFF_EVENT, CTRL_SHUTDOWN_EVENT] {
            assert!(ends_the_process(event), "{event}");
        }
        assert!(!ends_the_process(CTRL_C_EVENT));
        assert!(!ends_the_process(CTRL_BREAK_EVENT));
    }
}
