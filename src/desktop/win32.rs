//! The desktop on Windows: the Win32 calls that `xcap` and `winit` do
//! not make for the bot. Per-monitor DPI awareness, so that capture,
//! window geometry and the cursor share one pixel space at any display
//! scaling; a window's client area (xcap gives the frame with its title
//! bar); the top-level window at a point (where a press would go); the
//! mouse: the cursor read and put anywhere on the virtual desktop, the
//! presses sent with `SendInput`, which physical button is the primary
//! (`SM_SWAPBUTTON`) and whether it is down; the console
//! window the bot runs in and its ancestors (with their start times),
//! never to be taken for the game; whether that console closes when the
//! bot exits (started from Explorer, a shortcut or a batch file); the
//! console's close, log-off and shut-down events, which end the process
//! once handled, with the button released first; the console's modes
//! (colour, QuickEdit) and Explorer showing a file; the marks window of
//! assist mode's hints on the board (a layered, click-through, topmost
//! tool window kept out of screen captures).
//! The only module with `unsafe`: each call is a plain Win32 function on
//! values this module owns.
#![allow(unsafe_code)]

use windows_sys::Win32::Foundation::{
    CloseHandle, FILETIME, GetLastError, HANDLE, HWND, INVALID_HANDLE_VALUE, LPARAM, LRESULT,
    POINT, RECT, SIZE, UNICODE_STRING, WPARAM,
};
use windows_sys::Win32::Graphics::Gdi::{
    AC_SRC_ALPHA, AC_SRC_OVER, BI_RGB, BITMAPINFO, BITMAPINFOHEADER, BLENDFUNCTION, ClientToScreen,
    CreateCompatibleDC, CreateDIBSection, DIB_RGB_COLORS, DeleteDC, DeleteObject, GetDC, HDC,
    ReleaseDC, SelectObject,
};
use windows_sys::Win32::System::Console::{
    CTRL_CLOSE_EVENT, CTRL_LOGOFF_EVENT, CTRL_SHUTDOWN_EVENT, GetConsoleMode,
    GetConsoleProcessList, GetConsoleWindow, GetStdHandle, STD_ERROR_HANDLE, STD_INPUT_HANDLE,
    STD_OUTPUT_HANDLE, SetConsoleCtrlHandler, SetConsoleMode,
};
use windows_sys::Win32::System::Diagnostics::ToolHelp::{
    CreateToolhelp32Snapshot, PROCESSENTRY32W, Process32FirstW, Process32NextW, TH32CS_SNAPPROCESS,
};
use windows_sys::Win32::System::LibraryLoader::GetModuleHandleW;
use windows_sys::Win32::System::Threading::{
    GetCurrentThreadId, GetProcessTimes, OpenProcess, PROCESS_QUERY_LIMITED_INFORMATION,
};
use windows_sys::Win32::UI::HiDpi::{
    DPI_AWARENESS_CONTEXT_PER_MONITOR_AWARE_V2, DPI_AWARENESS_PER_MONITOR_AWARE,
    GetAwarenessFromDpiAwarenessContext, GetThreadDpiAwarenessContext,
    SetProcessDpiAwarenessContext,
};
use windows_sys::Win32::UI::Input::KeyboardAndMouse::{
    GetAsyncKeyState, INPUT, INPUT_0, INPUT_MOUSE, MOUSEEVENTF_LEFTDOWN, MOUSEEVENTF_LEFTUP,
    MOUSEEVENTF_MIDDLEDOWN, MOUSEEVENTF_MIDDLEUP, MOUSEEVENTF_RIGHTDOWN, MOUSEEVENTF_RIGHTUP,
    MOUSEINPUT, RegisterHotKey, SendInput, UnregisterHotKey, VK_LBUTTON, VK_MBUTTON, VK_RBUTTON,
};
use windows_sys::Win32::UI::WindowsAndMessaging::{
    CreateWindowExW, DefWindowProcW, DestroyWindow, DispatchMessageW, GA_ROOT, GetAncestor,
    GetClientRect, GetCursorPos, GetMessageW, GetSystemMetrics, GetWindowDisplayAffinity,
    HWND_TOPMOST, IDC_ARROW, LoadCursorW, MSG, PM_NOREMOVE, PM_REMOVE, PeekMessageW,
    PostThreadMessageW, RegisterClassExW, SM_SWAPBUTTON, SW_HIDE, SW_SHOWNOACTIVATE,
    SWP_NOACTIVATE, SWP_NOMOVE, SWP_NOSIZE, SetCursorPos, SetWindowDisplayAffinity, SetWindowPos,
    ShowWindow, ULW_ALPHA, UpdateLayeredWindow, WDA_EXCLUDEFROMCAPTURE, WINDOW_EX_STYLE,
    WINDOW_STYLE, WM_APP, WM_USER, WNDCLASSEXW, WS_EX_LAYERED, WS_EX_NOACTIVATE, WS_EX_TOOLWINDOW,
    WS_EX_TOPMOST, WS_EX_TRANSPARENT, WS_POPUP, WindowFromPoint,
};
use windows_sys::core::BOOL;

use super::answers::HotKeyMessage;
use super::screen::{MonitorArea, ScreenPoint, ScreenRect};
use super::words::{
    Asker, Button, CaptureError, GlobalKey, GrabError, InputError, Mark, Pressed, Stream,
};

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

/// The calling thread's last error.
fn last_error() -> u32 {
    // SAFETY: reads a thread-local value.
    unsafe { GetLastError() }
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
        Err(super::answers::refused(
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

/// The mouse as the system has it: nothing to hold open. The cursor is
/// put with `SetCursorPos`, which reaches every monitor (`SendInput`'s
/// absolute moves are scaled to the primary one), and the presses are
/// sent with `SendInput`.
pub(super) struct Mouse;

impl Mouse {
    pub(super) fn connect() -> Result<Mouse, String> {
        Ok(Mouse)
    }

    /// The physical button that is the primary now: the right one when
    /// the player swapped them (a left-handed player's setting).
    pub(super) fn primary(&self) -> Result<Button, String> {
        Ok(super::answers::primary_when_swapped(buttons_swapped()))
    }

    /// Whether the button `pressed` (else the primary) is down: Windows
    /// reads the physical buttons' state, so the one pressed is asked.
    pub(super) fn primary_down(&self, pressed: Option<Button>) -> Result<bool, String> {
        Ok(button_down(pressed.map_or_else(|| self.primary(), Ok)?))
    }

    /// Where the cursor is, in physical pixels (the process is DPI
    /// aware).
    pub(super) fn location(&mut self) -> Result<ScreenPoint, InputError> {
        let mut point = POINT { x: 0, y: 0 };
        // SAFETY: writes into a local.
        if unsafe { GetCursorPos(&mut point) } != 0 {
            Ok(ScreenPoint::new(point.x, point.y))
        } else {
            let cause = std::io::Error::last_os_error();
            Err(super::answers::refused("cannot read the cursor", &cause))
        }
    }

    pub(super) fn move_to(&mut self, to: ScreenPoint) -> Result<(), InputError> {
        set_cursor(to)
    }

    /// Presses (`down`) or releases the physical `button` where the
    /// cursor is.
    pub(super) fn press(&mut self, button: Button, down: bool) -> Result<(), InputError> {
        super::answers::sent(send_button(button, down), 1)
    }
}

/// Whether the player swapped the mouse's buttons (a left-handed player's
/// setting): the primary is then the physical right button.
fn buttons_swapped() -> bool {
    // SAFETY: a plain value.
    unsafe { GetSystemMetrics(SM_SWAPBUTTON) != 0 }
}

/// Whether the physical `button` is down as the system has it now
/// (`GetAsyncKeyState` reads the physical buttons, not the swapped
/// meaning; SendInput puts the bot's own presses and releases in that
/// state at once).
fn button_down(button: Button) -> bool {
    let key = match button {
        Button::Right => VK_RBUTTON,
        Button::Middle => VK_MBUTTON,
        Button::Left => VK_LBUTTON,
    };
    // SAFETY: a plain value; the high bit is the button's state now.
    (unsafe { GetAsyncKeyState(i32::from(key)) } as u16) & 0x8000 != 0
}

/// The `MOUSEEVENTF_` flag that presses (`down`) or releases the
/// physical `button` (injected presses are physical: the swap applies
/// after them).
fn button_flag(button: Button, down: bool) -> u32 {
    match (button, down) {
        (Button::Left, true) => MOUSEEVENTF_LEFTDOWN,
        (Button::Left, false) => MOUSEEVENTF_LEFTUP,
        (Button::Middle, true) => MOUSEEVENTF_MIDDLEDOWN,
        (Button::Middle, false) => MOUSEEVENTF_MIDDLEUP,
        (Button::Right, true) => MOUSEEVENTF_RIGHTDOWN,
        (Button::Right, false) => MOUSEEVENTF_RIGHTUP,
    }
}

/// Sends one press or release of `button` where the cursor is; how many
/// events Windows took in (0 or 1).
fn send_button(button: Button, down: bool) -> u32 {
    let input = INPUT {
        r#type: INPUT_MOUSE,
        Anonymous: INPUT_0 {
            mi: MOUSEINPUT {
                dx: 0,
                dy: 0,
                mouseData: 0,
                dwFlags: button_flag(button, down),
                time: 0,
                dwExtraInfo: 0,
            },
        },
    };
    // SAFETY: one input of the size given.
    unsafe { SendInput(1, &input, std::mem::size_of::<INPUT>() as i32) }
}

/// Releases the primary button with SendInput: for the console handler,
/// which runs on a thread of its own, away from the pointer the click
/// holds.
fn release_primary() {
    send_button(
        super::answers::primary_when_swapped(buttons_swapped()),
        false,
    );
}

/// Who ends the process with a console event, once its handlers return:
/// the console's close button is the terminal closing, log-off and
/// shut-down a request to end; Ctrl-C and Ctrl-Break are ctrlc's, a stop
/// request (`None`).
fn console_end_asker(event: u32) -> Option<Asker> {
    match event {
        CTRL_CLOSE_EVENT => Some(Asker::TerminalClosed),
        CTRL_LOGOFF_EVENT | CTRL_SHUTDOWN_EVENT => Some(Asker::EndRequest),
        _ => None,
    }
}

/// Handles the console events that end the process (see
/// [`console_end_asker`]): a stop is asked for, and a press in progress is
/// released before the handler returns and Windows ends the process (the
/// click's own release, else this one). Set after ctrlc's handler, so
/// that Windows calls it first; the other events go on to ctrlc's.
/// Windows does not send log-off and shut-down to a console program
/// that has windows (user32): those end the session and its input too.
pub(super) fn catch_console_end() -> Result<(), String> {
    unsafe extern "system" fn on_event(event: u32) -> windows_sys::core::BOOL {
        let Some(asker) = console_end_asker(event) else {
            return 0;
        };
        super::asked::ending(asker, release_primary);
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
/// the command line, which names the game. Under Windows Terminal (and
/// any terminal on ConPTY) `GetConsoleWindow` gives ConPTY's hidden
/// pseudo-window, whose root owner is the terminal's own window.
pub(super) fn console_window() -> Option<u32> {
    use windows_sys::Win32::UI::WindowsAndMessaging::{GA_ROOTOWNER, IsWindowVisible};
    // SAFETY: no arguments.
    let hwnd = unsafe { GetConsoleWindow() };
    if hwnd.is_null() {
        return None;
    }
    // SAFETY: window handles by value; a stale one reads as not visible
    // and has no owner.
    let (visible, owner) = unsafe {
        let owner = GetAncestor(hwnd, GA_ROOTOWNER);
        let owner =
            (!owner.is_null()).then(|| (owner as usize as u32, IsWindowVisible(owner) != 0));
        (IsWindowVisible(hwnd) != 0, owner)
    };
    terminal_window(hwnd as usize as u32, visible, owner)
}

/// The window of the terminal the bot runs in, from its console window
/// (`console`, `visible` or not) and that window's root owner (`owner`,
/// with whether it is visible): a visible console is the conhost window
/// itself; a hidden one is ConPTY's, and the terminal's is its root owner
/// when that is another, visible window; else none, never a window taken
/// for it.
fn terminal_window(console: u32, visible: bool, owner: Option<(u32, bool)>) -> Option<u32> {
    if visible {
        return Some(console);
    }
    owner
        .filter(|&(id, shown)| id != console && shown)
        .map(|(id, _)| id)
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
        FLASHW_TIMERNOFG, FLASHW_TRAY, FLASHWINFO, FlashWindowEx, IsIconic, SW_RESTORE,
        SetForegroundWindow, ShowWindow,
    };
    let hwnd = handle(id);
    // SAFETY: a window handle (a stale one makes the calls fail); the
    // structure's size is set as the API asks.
    unsafe {
        // A minimised window brought to the front stays a taskbar button
        // (SetForegroundWindow restores nothing): restored first, as
        // ShowWindow's SW_RESTORE documents for a minimised window.
        if IsIconic(hwnd) != 0 {
            ShowWindow(hwnd, SW_RESTORE);
        }
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

/// Whether the window `id` answers within `wait`: a message that does
/// nothing (WM_NULL) sent with SendMessageTimeoutW, which gives up on a
/// hung window (SMTO_ABORTIFHUNG) or after the wait.
pub(super) fn answers(id: u32, wait: std::time::Duration) -> bool {
    use windows_sys::Win32::UI::WindowsAndMessaging::{
        SMTO_ABORTIFHUNG, SendMessageTimeoutW, WM_NULL,
    };
    let mut result = 0usize;
    let millis = u32::try_from(wait.as_millis()).unwrap_or(u32::MAX);
    // SAFETY: a window handle (a stale one makes the call fail, said as
    // no answer) and a place for the result.
    unsafe {
        SendMessageTimeoutW(
            handle(id),
            WM_NULL,
            0,
            0,
            SMTO_ABORTIFHUNG,
            millis,
            &mut result,
        ) != 0
    }
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
    super::answers::closes_at_exit(console_processes(), parent_command_line().as_deref())
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
        .raw_arg(super::answers::select_argument(path))
        .spawn()
    {
        log::debug!("explorer.exe /select: {cause}");
    }
}

// What X11 alone needs, which Windows has no use for: the same names, so
// that the floor above calls one platform.

/// The desktop of a Windows session lasts as long as the session, and
/// the process with it.
pub(super) fn display_alive() -> bool {
    true
}

/// A desktop is always there to list.
pub(super) fn check_display() -> Result<(), CaptureError> {
    Ok(())
}

/// `xcap` reads every title there is.
pub(super) fn wm_name(_id: u32) -> Option<String> {
    None
}

/// Shows `text` in a message box titled `title` and waits for its OK: a
/// GUI program (dustbot.exe) has no console to say a failure on.
pub(super) fn show_message(title: &str, text: &str) {
    use windows_sys::Win32::UI::WindowsAndMessaging::{
        MB_ICONERROR, MB_OK, MB_SETFOREGROUND, MessageBoxW,
    };
    let wide = |s: &str| s.encode_utf16().chain([0]).collect::<Vec<u16>>();
    let (text, title) = (wide(text), wide(title));
    // SAFETY: two NUL-terminated UTF-16 strings that outlive the call; no
    // owner window.
    unsafe {
        MessageBoxW(
            std::ptr::null_mut(),
            text.as_ptr(),
            title.as_ptr(),
            MB_OK | MB_ICONERROR | MB_SETFOREGROUND,
        )
    };
}

/// The monitors from the monitor API, in `EnumDisplayMonitors`' order
/// (xcap's own list is that call's): each one's rectangle and work area
/// (`GetMonitorInfoW`'s `rcMonitor` and `rcWork`, the monitor less the
/// taskbar and the app bars), in the desktop's pixels for a process
/// per-monitor DPI aware (`prepare`). xcap reads a monitor's place and
/// size with `EnumDisplaySettingsW`, which can fail (as reported under
/// Remote Desktop) where the monitor API answers: no monitor is lost.
/// `None` when a monitor cannot be read.
pub(super) fn monitor_areas() -> Option<Vec<MonitorArea>> {
    use windows_sys::Win32::Graphics::Gdi::{
        EnumDisplayMonitors, GetMonitorInfoW, HDC, HMONITOR, MONITORINFO,
    };
    unsafe extern "system" fn each(monitor: HMONITOR, _: HDC, _: *mut RECT, found: LPARAM) -> BOOL {
        // SAFETY: `found` is the vector lent below, for this call only.
        let found = unsafe { &mut *(found as *mut Vec<HMONITOR>) };
        found.push(monitor);
        1
    }
    let mut monitors: Vec<HMONITOR> = Vec::new();
    // SAFETY: the callback writes to the vector, alive through the call.
    let listed = unsafe {
        EnumDisplayMonitors(
            std::ptr::null_mut(),
            std::ptr::null(),
            Some(each),
            (&raw mut monitors) as LPARAM,
        )
    };
    if listed == 0 {
        return None;
    }
    let rect = |r: RECT| ScreenRect {
        x: r.left,
        y: r.top,
        width: (r.right - r.left).max(0) as u32,
        height: (r.bottom - r.top).max(0) as u32,
    };
    monitors
        .into_iter()
        .map(|monitor| {
            let mut info = MONITORINFO {
                cbSize: std::mem::size_of::<MONITORINFO>() as u32,
                // SAFETY: plain data, all zeros is valid.
                ..unsafe { std::mem::zeroed() }
            };
            // SAFETY: writes one MONITORINFO of the size it is told.
            (unsafe { GetMonitorInfoW(monitor, &mut info) } != 0).then(|| MonitorArea {
                bounds: rect(info.rcMonitor),
                work: rect(info.rcWork),
            })
        })
        .collect()
}

/// Whether window `id`'s pixels are on the screen: visible (shown, with
/// its owners) and not cloaked, as DWM cloaks the windows of another
/// virtual desktop and suspended apps. A window whose cloak cannot be
/// read counts as not cloaked, as before Windows 8 none was.
pub(super) fn shown(id: u32) -> bool {
    use windows::Win32::Foundation::HWND;
    use windows::Win32::Graphics::Dwm::{DWMWA_CLOAKED, DwmGetWindowAttribute};
    use windows_sys::Win32::UI::WindowsAndMessaging::IsWindowVisible;
    // SAFETY: a window handle by value; a stale one reads as not visible.
    let visible = unsafe { IsWindowVisible(handle(id)) } != 0;
    let mut cloaked = 0u32;
    // SAFETY: writes one u32 into a local of that size.
    let read = unsafe {
        DwmGetWindowAttribute(
            HWND(handle(id)),
            DWMWA_CLOAKED,
            (&raw mut cloaked).cast(),
            std::mem::size_of::<u32>() as u32,
        )
    };
    is_shown(visible, read.ok().map(|()| cloaked))
}

/// Whether a window is shown, from `IsWindowVisible` and its
/// `DWMWA_CLOAKED` (any of `DWM_CLOAKED_APP`, `_SHELL`, `_INHERITED`
/// hides it; `None` when it could not be read).
fn is_shown(visible: bool, cloaked: Option<u32>) -> bool {
    visible && cloaked.unwrap_or(0) == 0
}

/// A window of the bot's own is destroyed by its own thread only (no
/// other program can call `DestroyWindow` on it): nothing to survive, and
/// winit tells its end as an event.
pub(super) fn survive_window_errors() -> Result<(), String> {
    Ok(())
}

/// The screen's pixels through GDI: each rectangle copied with `BitBlt`
/// from the screen's device context (`GetDC(NULL)`: the whole virtual
/// screen, every monitor, in desktop coordinates, which are physical
/// pixels for a process per-monitor DPI aware, as `prepare` makes it)
/// into a DIB section of the bot's own. Nothing here asks a monitor's
/// place (xcap's `Monitor::capture_region` reads it with
/// `EnumDisplaySettingsW`, which fails under Remote Desktop): the
/// rectangle is the desktop's already.
#[derive(Debug)]
pub(crate) struct Pixels;

impl Pixels {
    /// Nothing to hold open: GDI is asked each time.
    pub(crate) fn connect() -> Result<Pixels, String> {
        Ok(Pixels)
    }

    /// The pixels of `area` of the desktop, as the player sees them but
    /// for layered windows (`SRCCOPY` without `CAPTUREBLT`, BitBlt's
    /// default: "the image only contains your window"), which leaves out
    /// the marks window wherever its capture exclusion is refused.
    pub(crate) fn grab(&self, area: ScreenRect) -> Result<image::RgbaImage, String> {
        use windows_sys::Win32::Graphics::Gdi::{BitBlt, GdiFlush};
        let (w, h) = (area.width as i32, area.height as i32);
        if w <= 0 || h <= 0 {
            return Err(format!(
                "no pixels in a {}x{} area",
                area.width, area.height
            ));
        }
        let bytes = area.width as usize * area.height as usize * 4;
        // SAFETY: the section holds `w` x `h` 32-bit pixels, `bytes` in
        // all, read only after GdiFlush has finished GDI's copy into it
        // (CreateDIBSection's documentation asks it of any direct use).
        let copied = unsafe {
            with_dib_section(w, h, |screen, memory, bits| {
                if BitBlt(memory, 0, 0, w, h, screen, area.x, area.y, SCREEN_COPY) == 0 {
                    return Err(format!("BitBlt failed (error {})", last_error()));
                }
                GdiFlush();
                Ok(std::slice::from_raw_parts(bits, bytes).to_vec())
            })
        };
        let bgrx = copied.ok_or("Windows gave no bitmap to copy the screen into")??;
        Ok(rgba_from_bgrx(bgrx, area.width, area.height))
    }

    /// The pixels of each of `areas`, cut from one copy of the rectangle
    /// around them all: one read of the screen a glance, as xcap's
    /// capture of that rectangle was.
    pub(crate) fn grab_all(&self, areas: &[ScreenRect]) -> Result<Vec<image::RgbaImage>, String> {
        let Some(around) = areas.iter().copied().reduce(|a, b| {
            let (left, top) = (a.x.min(b.x), a.y.min(b.y));
            let right = (a.x + a.width as i32).max(b.x + b.width as i32);
            let bottom = (a.y + a.height as i32).max(b.y + b.height as i32);
            ScreenRect {
                x: left,
                y: top,
                width: (right - left) as u32,
                height: (bottom - top) as u32,
            }
        }) else {
            return Ok(Vec::new());
        };
        let whole = self.grab(around)?;
        Ok(areas
            .iter()
            .map(|area| {
                let (x, y) = ((area.x - around.x) as u32, (area.y - around.y) as u32);
                image::imageops::crop_imm(&whole, x, y, area.width, area.height).to_image()
            })
            .collect())
    }
}

/// The raster operation of a copy of the screen: its pixels as they are
/// (`SRCCOPY`), without `CAPTUREBLT`, which would add the layered windows
/// over them (BitBlt's documentation): the marks window is one, and
/// where Windows refuses to keep it out of captures it would be read as
/// the board.
const SCREEN_COPY: u32 = windows_sys::Win32::Graphics::Gdi::SRCCOPY;

/// The header of a 32-bit DIB of `width` x `height` pixels, rows
/// top-down (a negative height) as an image's are, uncompressed
/// (`BI_RGB`: blue, green, red and a byte not used).
fn top_down_bgrx(width: i32, height: i32) -> BITMAPINFO {
    BITMAPINFO {
        bmiHeader: BITMAPINFOHEADER {
            biSize: std::mem::size_of::<BITMAPINFOHEADER>() as u32,
            biWidth: width,
            biHeight: -height,
            biPlanes: 1,
            biBitCount: 32,
            biCompression: BI_RGB,
            ..Default::default()
        },
        ..Default::default()
    }
}

/// A 32-bit DIB's pixels (blue, green, red and a byte "not used", as
/// BITMAPINFOHEADER documents `BI_RGB` at 32 bits) as an opaque RGBA
/// image: whatever GDI left in the fourth byte (0 on some systems, as
/// xcap found before Windows 8), the screen has no transparency.
fn rgba_from_bgrx(mut pixels: Vec<u8>, width: u32, height: u32) -> image::RgbaImage {
    for pixel in pixels.chunks_exact_mut(4) {
        pixel.swap(0, 2);
        pixel[3] = 255;
    }
    image::RgbaImage::from_raw(width, height, pixels).expect("4 bytes a pixel")
}

/// Runs `draw` with the screen's device context, a memory one compatible
/// with it holding a 32-bit top-down DIB section of `width` x `height`
/// pixels, and that section's bits; all released after. `None` when
/// Windows gives no section.
///
/// # Safety
/// `draw` may use the bits only within `width * height * 4` bytes, and
/// only while the section is the memory context's.
unsafe fn with_dib_section<T>(
    width: i32,
    height: i32,
    draw: impl FnOnce(HDC, HDC, *mut u8) -> T,
) -> Option<T> {
    // SAFETY: the caller's; each handle made here is released here.
    unsafe {
        let screen = GetDC(std::ptr::null_mut());
        let memory = CreateCompatibleDC(screen);
        let info = top_down_bgrx(width, height);
        let mut bits = std::ptr::null_mut();
        let dib = CreateDIBSection(
            memory,
            &info,
            DIB_RGB_COLORS,
            &mut bits,
            std::ptr::null_mut(),
            0,
        );
        let drawn = if dib.is_null() || bits.is_null() {
            None
        } else {
            let old = SelectObject(memory, dib);
            let drawn = draw(screen, memory, bits.cast::<u8>());
            SelectObject(memory, old);
            DeleteObject(dib);
            Some(drawn)
        };
        DeleteDC(memory);
        ReleaseDC(std::ptr::null_mut(), screen);
        drawn
    }
}

/// The extended and plain styles of the marks window: layered (drawn
/// with per-pixel alpha by `UpdateLayeredWindow`) and transparent (with
/// layered, every press goes through to the window below, whatever the
/// alpha: Microsoft's "Layered Windows"), topmost, never activated
/// (`WS_EX_NOACTIVATE`: a click never makes it the foreground window),
/// out of the taskbar and Alt+Tab (`WS_EX_TOOLWINDOW`); a popup, with no
/// frame or caption.
fn overlay_styles() -> (WINDOW_EX_STYLE, WINDOW_STYLE) {
    (
        WS_EX_LAYERED | WS_EX_TRANSPARENT | WS_EX_TOPMOST | WS_EX_NOACTIVATE | WS_EX_TOOLWINDOW,
        WS_POPUP,
    )
}

/// Whether the marks window is kept out of screen captures:
/// `SetWindowDisplayAffinity`'s result (non-zero for success) and the
/// affinity then read back; why not, when it is not. A system that
/// refuses (before Windows 10 2004, without the Desktop Window Manager
/// composing, a layered window before 24H2 as reported) shows the marks
/// in captures, as X11 does: they stay, placed where no read looks, and
/// the probe checks the reads through them (`assist::marks`).
fn capture_exclusion(set: BOOL, read_back: Option<u32>, error: u32) -> Result<(), String> {
    match (set, read_back) {
        (0, _) => Err(format!(
            "Windows refused to keep them out of screen captures (SetWindowDisplayAffinity, error {error})"
        )),
        (_, Some(WDA_EXCLUDEFROMCAPTURE)) => Ok(()),
        (_, other) => Err(format!(
            "Windows did not keep them out of screen captures (display affinity {other:?})"
        )),
    }
}

/// The marks window on Windows (see `desktop::marks`): a layered popup
/// of the bot's own thread, drawn in physical pixels (the process is per
/// monitor aware) from a premultiplied BGRA picture that is transparent
/// but for the marks, kept out of screen captures.
pub(super) struct Overlay {
    window: HWND,
}

impl std::fmt::Debug for Overlay {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Overlay")
            .field("window", &(self.window as usize))
            .finish()
    }
}

/// The marks window's class name, NUL-terminated UTF-16.
fn class_name() -> Vec<u16> {
    "DustbotMarks\0".encode_utf16().collect()
}

unsafe extern "system" fn overlay_proc(
    hwnd: HWND,
    msg: u32,
    wparam: WPARAM,
    lparam: LPARAM,
) -> LRESULT {
    // SAFETY: the default handling of a message Windows passes.
    unsafe { DefWindowProcW(hwnd, msg, wparam, lparam) }
}

impl Overlay {
    pub(super) fn open() -> Result<Overlay, String> {
        let class = class_name();
        // SAFETY: the module handle of the running program.
        let instance = unsafe { GetModuleHandleW(std::ptr::null()) };
        static REGISTERED: std::sync::OnceLock<u16> = std::sync::OnceLock::new();
        let atom = *REGISTERED.get_or_init(|| {
            let info = WNDCLASSEXW {
                cbSize: std::mem::size_of::<WNDCLASSEXW>() as u32,
                lpfnWndProc: Some(overlay_proc),
                hInstance: instance,
                // SAFETY: a system cursor; without one a layered window
                // shows the hourglass.
                hCursor: unsafe { LoadCursorW(std::ptr::null_mut(), IDC_ARROW) },
                lpszClassName: class.as_ptr(),
                ..Default::default()
            };
            // SAFETY: `info` and the class name it points to live for the call.
            unsafe { RegisterClassExW(&info) }
        });
        if atom == 0 {
            return Err("Windows refused the marks window's class".into());
        }
        let (ex_style, style) = overlay_styles();
        let title: Vec<u16> = "Dust Hint marks\0".encode_utf16().collect();
        // SAFETY: a registered class, NUL-terminated strings that live for
        // the call; no parent, menu or creation data.
        let window = unsafe {
            CreateWindowExW(
                ex_style,
                class.as_ptr(),
                title.as_ptr(),
                style,
                0,
                0,
                1,
                1,
                std::ptr::null_mut(),
                std::ptr::null_mut(),
                instance,
                std::ptr::null(),
            )
        };
        if window.is_null() {
            return Err("Windows refused to make the marks window".into());
        }
        let overlay = Overlay { window };
        // SAFETY: the window is this thread's own.
        let set = unsafe { SetWindowDisplayAffinity(window, WDA_EXCLUDEFROMCAPTURE) };
        let error = last_error();
        let mut affinity = 0u32;
        // SAFETY: as above, into a local.
        let read = unsafe { GetWindowDisplayAffinity(window, &mut affinity) } != 0;
        if let Err(why) = capture_exclusion(set, read.then_some(affinity), error) {
            log::info!("the marks show in screen captures: {why}");
        }
        Ok(overlay)
    }

    /// Draws `marks` into the window, placed over them, and shows it
    /// topmost without activating it.
    pub(super) fn show(&mut self, marks: &[Mark]) -> Result<(), String> {
        let at = super::answers::bounds(marks).ok_or("no marks")?;
        let picture = premultiplied_bgra(marks, at);
        let (w, h) = (at.width as i32, at.height as i32);
        // SAFETY: the section holds `w` x `h` 32-bit pixels, as many
        // bytes as the picture, written before GDI reads them.
        let drawn = unsafe {
            with_dib_section(w, h, |screen, memory, bits| {
                std::ptr::copy_nonoverlapping(picture.as_ptr(), bits, picture.len());
                let blend = BLENDFUNCTION {
                    BlendOp: AC_SRC_OVER as u8,
                    BlendFlags: 0,
                    SourceConstantAlpha: 255,
                    AlphaFormat: AC_SRC_ALPHA as u8,
                };
                UpdateLayeredWindow(
                    self.window,
                    screen,
                    &POINT { x: at.x, y: at.y },
                    &SIZE { cx: w, cy: h },
                    memory,
                    &POINT { x: 0, y: 0 },
                    0,
                    &blend,
                    ULW_ALPHA,
                ) != 0
            })
        }
        .unwrap_or(false);
        if !drawn {
            // As under remote desktop: no marks, the side window.
            return Err("Windows refused to draw the marks (UpdateLayeredWindow)".into());
        }
        // SAFETY: the window is this thread's own.
        unsafe { ShowWindow(self.window, SW_SHOWNOACTIVATE) };
        self.raise()
    }

    pub(super) fn hide(&mut self) -> Result<(), String> {
        // SAFETY: as above.
        unsafe { ShowWindow(self.window, SW_HIDE) };
        Ok(())
    }

    /// Handles the window's messages. A topmost window stays above the
    /// game's without being told: nothing to raise.
    pub(super) fn pump(&mut self) -> Result<bool, String> {
        let mut message = MSG::default();
        // SAFETY: this thread's messages for its own window, into a local.
        while unsafe { PeekMessageW(&mut message, self.window, 0, 0, PM_REMOVE) } != 0 {
            // SAFETY: a message just taken from the queue.
            unsafe { DispatchMessageW(&message) };
        }
        Ok(false)
    }

    /// Re-asserts topmost: another topmost window (a game's, a
    /// notification) may have come over it.
    pub(super) fn raise(&mut self) -> Result<(), String> {
        let flags = SWP_NOMOVE | SWP_NOSIZE | SWP_NOACTIVATE;
        // SAFETY: as above.
        let done = unsafe { SetWindowPos(self.window, HWND_TOPMOST, 0, 0, 0, 0, flags) };
        if done == 0 {
            return Err("Windows refused to keep the marks on top".into());
        }
        Ok(())
    }
}

impl Drop for Overlay {
    fn drop(&mut self) {
        // SAFETY: the window is this thread's own, destroyed once.
        unsafe { DestroyWindow(self.window) };
    }
}

/// The DXGI colour space of the monitor window `id` mostly lies on (see
/// [`dxgi_colour_space`]).
pub(super) fn colour_space_of_window(id: u32) -> Result<Option<i32>, String> {
    use windows::Win32::Foundation::HWND;
    use windows::Win32::Graphics::Gdi::{MONITOR_DEFAULTTONULL, MonitorFromWindow};
    // SAFETY: a window handle by value; a stale one gives no monitor.
    let monitor = unsafe { MonitorFromWindow(HWND(handle(id)), MONITOR_DEFAULTTONULL) };
    dxgi_colour_space(monitor)
}

/// The DXGI colour space of the monitor at `point`.
pub(super) fn colour_space_at(point: ScreenPoint) -> Result<Option<i32>, String> {
    use windows::Win32::Foundation::POINT;
    use windows::Win32::Graphics::Gdi::{MONITOR_DEFAULTTONULL, MonitorFromPoint};
    let at = POINT {
        x: point.x,
        y: point.y,
    };
    // SAFETY: a point by value.
    let monitor = unsafe { MonitorFromPoint(at, MONITOR_DEFAULTTONULL) };
    dxgi_colour_space(monitor)
}

/// The colour space of the DXGI output that shows `monitor` (every
/// adapter's outputs looked through for the one whose description names
/// it), from `IDXGIOutput6::GetDesc1` (Windows 10 1703 and later); `None`
/// for no monitor, or none of the outputs (a remote session, Wine).
fn dxgi_colour_space(
    monitor: windows::Win32::Graphics::Gdi::HMONITOR,
) -> Result<Option<i32>, String> {
    use windows::Win32::Graphics::Dxgi::{
        CreateDXGIFactory1, DXGI_ERROR_NOT_FOUND, IDXGIFactory1, IDXGIOutput6,
    };
    use windows::core::Interface as _;
    if monitor.is_invalid() {
        return Ok(None);
    }
    let failed = |what: &str, e: windows::core::Error| format!("{what}: {e}");
    // SAFETY: a COM call that makes a factory; the crate releases it.
    let factory: IDXGIFactory1 =
        unsafe { CreateDXGIFactory1() }.map_err(|e| failed("no DXGI factory", e))?;
    for a in 0.. {
        // SAFETY: the factory's adapter `a`; past the last, NOT_FOUND.
        let adapter = match unsafe { factory.EnumAdapters1(a) } {
            Ok(adapter) => adapter,
            Err(e) if e.code() == DXGI_ERROR_NOT_FOUND => break,
            Err(e) => return Err(failed("the display adapters", e)),
        };
        for o in 0.. {
            // SAFETY: as above, the adapter's output `o`.
            let output = match unsafe { adapter.EnumOutputs(o) } {
                Ok(output) => output,
                Err(e) if e.code() == DXGI_ERROR_NOT_FOUND => break,
                Err(e) => return Err(failed("the adapter's outputs", e)),
            };
            // SAFETY: the output's description, into a value.
            let desc = unsafe { output.GetDesc() }.map_err(|e| failed("an output", e))?;
            if desc.Monitor != monitor {
                continue;
            }
            let output6: IDXGIOutput6 = output
                .cast()
                .map_err(|e| failed("no IDXGIOutput6 (before Windows 10 1703)", e))?;
            // SAFETY: as above.
            let desc1 = unsafe { output6.GetDesc1() }.map_err(|e| failed("GetDesc1", e))?;
            return Ok(Some(desc1.ColorSpace.0));
        }
    }
    Ok(None)
}

/// The key that stops a run from anywhere: a hot key registered with no
/// window, which Windows ties to the registering thread and posts as
/// `WM_HOTKEY` to that thread's queue alone. So a thread of its own
/// registers it, pumps its own messages (`GetMessageW`) and unregisters
/// it when the run ends; the run's end is a `WM_APP` posted to it.
pub(super) struct StopKeyGrab {
    thread_id: u32,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl std::fmt::Debug for StopKeyGrab {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StopKeyGrab")
            .field("thread_id", &self.thread_id)
            .finish_non_exhaustive()
    }
}

impl StopKeyGrab {
    /// Registers `key` as a hot key on a thread that calls `pressed` at
    /// each `WM_HOTKEY`; `Taken` when another program holds it
    /// (`ERROR_HOTKEY_ALREADY_REGISTERED`).
    pub(super) fn grab(key: GlobalKey, pressed: Pressed) -> Result<StopKeyGrab, GrabError> {
        let (told, registered) = std::sync::mpsc::channel();
        let thread = std::thread::spawn(move || {
            let mut message = MSG::default();
            // SAFETY: makes this thread's message queue before it is
            // told of, so that the run's end posted to it is never lost
            // (the docs' way before PostThreadMessage); into a local.
            unsafe {
                PeekMessageW(
                    &mut message,
                    std::ptr::null_mut(),
                    WM_USER,
                    WM_USER,
                    PM_NOREMOVE,
                )
            };
            let (modifiers, virtual_key) = key.hot_key;
            let id = key.id;
            // SAFETY: no window: the hot key is this thread's.
            let done =
                unsafe { RegisterHotKey(std::ptr::null_mut(), id, modifiers, virtual_key) } != 0;
            let error = last_error();
            // SAFETY: the calling thread's id.
            let thread_id = unsafe { GetCurrentThreadId() };
            let result = if done {
                Ok(thread_id)
            } else {
                Err(super::answers::hot_key_refused(error))
            };
            if told.send(result).is_err() || !done {
                if done {
                    // SAFETY: the hot key this thread registered.
                    unsafe { UnregisterHotKey(std::ptr::null_mut(), id) };
                }
                return;
            }
            // SAFETY: this thread's messages, into a local; 0 is WM_QUIT,
            // -1 an error: either ends the loop.
            while unsafe { GetMessageW(&mut message, std::ptr::null_mut(), 0, 0) } > 0 {
                match super::answers::hot_key_message(message.message, message.wParam, id) {
                    HotKeyMessage::Pressed => pressed(),
                    HotKeyMessage::End => break,
                    HotKeyMessage::Other => {}
                }
            }
            // SAFETY: the hot key this thread registered.
            unsafe { UnregisterHotKey(std::ptr::null_mut(), id) };
        });
        match registered.recv() {
            Ok(Ok(thread_id)) => Ok(StopKeyGrab {
                thread_id,
                thread: Some(thread),
            }),
            Ok(Err(refused)) => {
                thread.join().ok();
                Err(refused)
            }
            Err(_) => Err(GrabError::Failed(format!(
                "the thread of the {} key ended",
                key.name
            ))),
        }
    }
}

impl Drop for StopKeyGrab {
    fn drop(&mut self) {
        // SAFETY: a message with no pointers to the thread's queue, made
        // before its id was told.
        let posted = unsafe { PostThreadMessageW(self.thread_id, WM_APP, 0, 0) } != 0;
        if let Some(thread) = self.thread.take()
            && posted
        {
            thread.join().ok();
        }
    }
}

/// The picture of `marks` over `at`: premultiplied BGRA rows top-down,
/// transparent (all zero) but for the marks, opaque, the first on top.
fn premultiplied_bgra(marks: &[Mark], at: ScreenRect) -> Vec<u8> {
    let (w, h) = (at.width as usize, at.height as usize);
    let mut picture = vec![0u8; w * h * 4];
    for mark in marks.iter().rev() {
        let [r, g, b] = mark.colour;
        for rect in &mark.rects {
            let left = (rect.x - at.x).max(0) as usize;
            let top = (rect.y - at.y).max(0) as usize;
            let right = ((rect.x - at.x) as usize + rect.width as usize).min(w);
            let bottom = ((rect.y - at.y) as usize + rect.height as usize).min(h);
            for y in top..bottom {
                for x in left..right {
                    let i = (y * w + x) * 4;
                    picture[i..i + 4].copy_from_slice(&[b, g, r, 255]);
                }
            }
        }
    }
    picture
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_terminal_on_conpty_is_the_consoles_root_owner_or_none() {
        // conhost: the console window is the terminal's.
        assert_eq!(terminal_window(10, true, None), Some(10));
        assert_eq!(terminal_window(10, true, Some((10, true))), Some(10));
        // Windows Terminal: ConPTY's hidden window, owned by the terminal.
        assert_eq!(terminal_window(10, false, Some((20, true))), Some(20));
        // No visible owner (a hidden console, a terminal not found): none,
        // never another window taken for the terminal.
        assert_eq!(terminal_window(10, false, Some((10, false))), None);
        assert_eq!(terminal_window(10, false, Some((20, false))), None);
        assert_eq!(terminal_window(10, false, None), None);
    }

    #[test]
    fn a_cloaked_or_hidden_window_is_not_shown() {
        assert!(is_shown(true, Some(0)));
        // Another virtual desktop: DWM_CLOAKED_SHELL (2).
        assert!(!is_shown(true, Some(2)));
        assert!(!is_shown(true, Some(1)));
        assert!(!is_shown(true, Some(4)));
        assert!(!is_shown(false, Some(0)));
        // No cloak to read (before Windows 8): its visibility alone.
        assert!(is_shown(true, None));
    }

    /// Every monitor xcap lists comes from the monitor API too, in its
    /// order, with a work area inside it: where xcap's own place
    /// (`EnumDisplaySettingsW`) fails, none is lost.
    #[test]
    fn the_monitor_api_lists_every_monitor_with_its_work_area() {
        let areas = monitor_areas().expect("the monitor API answers");
        let xcaps = xcap::Monitor::all().unwrap();
        assert_eq!(areas.len(), xcaps.len());
        for (area, monitor) in areas.iter().zip(&xcaps) {
            assert_eq!(area.work.intersection(&area.bounds), Some(area.work));
            if let (Ok(x), Ok(width)) = (monitor.x(), monitor.width()) {
                assert_eq!((area.bounds.x, area.bounds.width), (x, width));
            }
        }
    }

    /// What dustbot.exe, which has no console, says of a fault or an
    /// error before its window (`gui::faults`): a message box with the
    /// text, there until its OK.
    #[test]
    fn a_fault_is_said_in_a_message_box_until_its_ok() {
        use windows_sys::Win32::UI::WindowsAndMessaging::{
            FindWindowW, GetDlgItemTextW, IDOK, PostMessageW, WM_COMMAND,
        };
        let title = "dustbot: a fault";
        let said = std::thread::spawn(move || show_message(title, "stopped on a fault: 7"));
        let wide: Vec<u16> = title.encode_utf16().chain([0]).collect();
        let asked = std::time::Instant::now();
        let mut box_window: HWND = std::ptr::null_mut();
        let mut text = [0u16; 128];
        let mut n = 0;
        // The box is found by its title as soon as it is made, and its
        // controls are made after it: waited for until its text reads.
        while n == 0 {
            assert!(
                asked.elapsed() < std::time::Duration::from_secs(10),
                "no message box, or none with a text: {box_window:?}"
            );
            std::thread::sleep(std::time::Duration::from_millis(20));
            // SAFETY: a NUL-terminated title; no class named.
            box_window = unsafe { FindWindowW(std::ptr::null(), wide.as_ptr()) };
            if !box_window.is_null() {
                // The message box's text is its static control 0xFFFF.
                // SAFETY: writes at most the buffer's length into it.
                n = unsafe { GetDlgItemTextW(box_window, 0xFFFF, text.as_mut_ptr(), 128) };
            }
        }
        assert_eq!(
            String::from_utf16_lossy(&text[..n as usize]),
            "stopped on a fault: 7"
        );
        assert!(!said.is_finished(), "the box waits for its OK");
        // SAFETY: OK pressed, as a message to the box.
        assert_ne!(
            unsafe { PostMessageW(box_window, WM_COMMAND, IDOK as usize, 0) },
            0
        );
        let closed = std::time::Instant::now();
        while !said.is_finished() {
            assert!(
                closed.elapsed() < std::time::Duration::from_secs(10),
                "the box stays"
            );
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        said.join().unwrap();
    }

    /// A 32-bit DIB's fourth byte is "not used" (BITMAPINFOHEADER): the
    /// screen's pixels come out opaque whatever GDI left there, blue and
    /// red swapped into RGBA, rows as they were.
    #[test]
    fn a_screen_copy_is_opaque_rgba_whatever_the_unused_byte() {
        let bgrx = vec![10, 20, 30, 0, 40, 50, 60, 7, 70, 80, 90, 255, 1, 2, 3, 128];
        let image = rgba_from_bgrx(bgrx, 2, 2);
        assert_eq!(image.get_pixel(0, 0).0, [30, 20, 10, 255]);
        assert_eq!(image.get_pixel(1, 0).0, [60, 50, 40, 255]);
        assert_eq!(image.get_pixel(0, 1).0, [90, 80, 70, 255]);
        assert_eq!(image.get_pixel(1, 1).0, [3, 2, 1, 255]);
    }

    /// Decided from Microsoft's documentation: the screen is copied as it
    /// is, without the layered windows over it (BitBlt's `CAPTUREBLT`
    /// would add them: the marks among them), into rows top-down, four
    /// bytes a pixel, uncompressed.
    #[test]
    fn a_screen_copy_leaves_layered_windows_out_into_top_down_rows() {
        use windows_sys::Win32::Graphics::Gdi::{CAPTUREBLT, SRCCOPY};
        assert_eq!(SCREEN_COPY & CAPTUREBLT, 0);
        assert_eq!(SCREEN_COPY, SRCCOPY);
        let header = top_down_bgrx(48, 36).bmiHeader;
        assert_eq!((header.biWidth, header.biHeight), (48, -36));
        assert_eq!((header.biBitCount, header.biCompression), (32, BI_RGB));
    }

    /// Calls to `EnumDisplaySettingsW` through this program's imports,
    /// while [`RefusedDisplaySettings`] stands in for it.
    static DISPLAY_SETTINGS_ASKED: std::sync::atomic::AtomicUsize =
        std::sync::atomic::AtomicUsize::new(0);

    /// `EnumDisplaySettingsW` failing, as reported under Remote Desktop,
    /// and counted.
    unsafe extern "system" fn refused_display_settings(
        _: *const u16,
        _: u32,
        _: *mut std::ffi::c_void,
    ) -> BOOL {
        DISPLAY_SETTINGS_ASKED.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        0
    }

    #[link(name = "kernel32")]
    unsafe extern "system" {
        fn VirtualProtect(
            address: *const std::ffi::c_void,
            size: usize,
            protection: u32,
            old: *mut u32,
        ) -> BOOL;
    }

    /// Points every entry of this program's import tables for `dll`'s
    /// `name` at `to`; the addresses they held. Read from the PE32+
    /// headers: the import directory (the optional header's data
    /// directory 1), its 20-byte descriptors (the lookup table's RVA at
    /// 0, the DLL's name at 12, the address table's at 16), and the
    /// lookup entries (an RVA of a 2-byte hint and the name, unless bit
    /// 63 says an ordinal).
    fn redirect_import(dll: &str, name: &str, to: usize) -> Vec<usize> {
        const PAGE_READWRITE: u32 = 0x04;
        let mut held = Vec::new();
        // SAFETY: reads the loaded image's own headers and tables, within
        // it; each address slot is made writable for its one write.
        unsafe {
            let base = GetModuleHandleW(std::ptr::null()).cast::<u8>();
            let at = |rva: u32| base.add(rva as usize);
            let read32 = |p: *const u8| p.cast::<u32>().read_unaligned();
            let headers = at(read32(base.add(0x3C)));
            let optional = headers.add(24);
            assert_eq!(optional.cast::<u16>().read_unaligned(), 0x20B, "PE32+");
            let imports = read32(optional.add(112 + 8));
            let mut descriptor = at(imports);
            while read32(descriptor.add(12)) != 0 {
                let named = std::ffi::CStr::from_ptr(at(read32(descriptor.add(12))).cast());
                let lookup = read32(descriptor);
                if lookup != 0 && named.to_string_lossy().eq_ignore_ascii_case(dll) {
                    let (entries, slots) =
                        (at(lookup).cast::<u64>(), at(read32(descriptor.add(16))));
                    for i in 0.. {
                        let entry = entries.add(i).read_unaligned();
                        if entry == 0 {
                            break;
                        }
                        let by_name = entry & (1 << 63) == 0;
                        if by_name
                            && std::ffi::CStr::from_ptr(at(entry as u32 + 2).cast()).to_bytes()
                                == name.as_bytes()
                        {
                            let slot = slots.cast::<usize>().add(i);
                            let mut was = 0;
                            assert_ne!(VirtualProtect(slot.cast(), 8, PAGE_READWRITE, &mut was), 0);
                            held.push(slot.replace(to));
                            VirtualProtect(slot.cast(), 8, was, &mut was);
                        }
                    }
                }
                descriptor = descriptor.add(20);
            }
        }
        held
    }

    /// `EnumDisplaySettingsW` refused and counted for this program while
    /// the value lives; the real one back after.
    struct RefusedDisplaySettings(usize);

    impl RefusedDisplaySettings {
        fn stand_in() -> RefusedDisplaySettings {
            let held = redirect_import(
                "user32.dll",
                "EnumDisplaySettingsW",
                refused_display_settings as *const () as usize,
            );
            assert!(
                !held.is_empty(),
                "this program imports no EnumDisplaySettingsW"
            );
            RefusedDisplaySettings(held[0])
        }
    }

    impl Drop for RefusedDisplaySettings {
        fn drop(&mut self) {
            redirect_import("user32.dll", "EnumDisplaySettingsW", self.0);
        }
    }

    /// A popup of this test's that paints its top left quarter in
    /// `TOP_LEFT` and the rest in `REST` (orientation and place both
    /// show in a copy).
    const TOP_LEFT: [u8; 3] = [200, 40, 30];
    const REST: [u8; 3] = [20, 150, 90];

    unsafe extern "system" fn quarters_proc(
        hwnd: HWND,
        msg: u32,
        wparam: WPARAM,
        lparam: LPARAM,
    ) -> LRESULT {
        use windows_sys::Win32::Graphics::Gdi::{
            BeginPaint, CreateSolidBrush, EndPaint, FillRect, PAINTSTRUCT,
        };
        use windows_sys::Win32::UI::WindowsAndMessaging::WM_PAINT;
        if msg != WM_PAINT {
            // SAFETY: the default handling of a message Windows passes.
            return unsafe { DefWindowProcW(hwnd, msg, wparam, lparam) };
        }
        let colour = |[r, g, b]: [u8; 3]| u32::from(r) | u32::from(g) << 8 | u32::from(b) << 16;
        // SAFETY: paints this window in its WM_PAINT, into a local
        // structure; the brushes are made and deleted here.
        unsafe {
            let mut paint = std::mem::zeroed::<PAINTSTRUCT>();
            let dc = BeginPaint(hwnd, &mut paint);
            let mut whole = RECT {
                left: 0,
                top: 0,
                right: 0,
                bottom: 0,
            };
            GetClientRect(hwnd, &mut whole);
            let quarter = RECT {
                right: whole.right / 2,
                bottom: whole.bottom / 2,
                ..whole
            };
            for (rect, rgb) in [(whole, REST), (quarter, TOP_LEFT)] {
                let brush = CreateSolidBrush(colour(rgb));
                FillRect(dc, &rect, brush);
                DeleteObject(brush);
            }
            EndPaint(hwnd, &paint);
        }
        0
    }

    /// A region of the desktop is copied as the window there paints it,
    /// with `EnumDisplaySettingsW` failing (as under Remote Desktop,
    /// where xcap's monitor capture failed with it) and never asked: the
    /// monitors come from the monitor API and the pixels from GDI by the
    /// desktop's own coordinates.
    #[test]
    fn a_region_is_copied_as_its_window_paints_it_without_enum_display_settings() {
        use std::sync::atomic::Ordering::SeqCst;
        use windows_sys::Win32::UI::WindowsAndMessaging::WS_VISIBLE;
        let at = ScreenRect {
            x: 70,
            y: 50,
            width: 48,
            height: 36,
        };
        let class: Vec<u16> = "DustbotQuarters\0".encode_utf16().collect();
        // SAFETY: a class and a window of this thread's, with strings and
        // a structure that live through the calls; destroyed at the end.
        let window = unsafe {
            let instance = GetModuleHandleW(std::ptr::null());
            let info = WNDCLASSEXW {
                cbSize: std::mem::size_of::<WNDCLASSEXW>() as u32,
                lpfnWndProc: Some(quarters_proc),
                hInstance: instance,
                lpszClassName: class.as_ptr(),
                ..Default::default()
            };
            assert_ne!(RegisterClassExW(&info), 0);
            CreateWindowExW(
                WS_EX_TOPMOST | WS_EX_TOOLWINDOW | WS_EX_NOACTIVATE,
                class.as_ptr(),
                class.as_ptr(),
                WS_POPUP | WS_VISIBLE,
                at.x,
                at.y,
                at.width as i32,
                at.height as i32,
                std::ptr::null_mut(),
                std::ptr::null_mut(),
                instance,
                std::ptr::null(),
            )
        };
        assert!(!window.is_null(), "no window to paint");
        let expected = image::RgbaImage::from_fn(at.width, at.height, |x, y| {
            let [r, g, b] = if x < at.width / 2 && y < at.height / 2 {
                TOP_LEFT
            } else {
                REST
            };
            image::Rgba([r, g, b, 255])
        });

        let refused = RefusedDisplaySettings::stand_in();
        let monitor = xcap::Monitor::all().unwrap().remove(0);
        assert!(monitor.x().is_err(), "xcap's place of a monitor fails");
        assert!(
            monitor.capture_region(0, 0, 1, 1).is_err(),
            "and xcap's capture with it"
        );
        assert!(
            DISPLAY_SETTINGS_ASKED.load(SeqCst) > 0,
            "through the stand-in"
        );
        DISPLAY_SETTINGS_ASKED.store(0, SeqCst);

        let screens = super::super::capture::screens().expect("the monitors, listed");
        assert!(
            screens
                .iter()
                .any(|(area, _)| area.bounds.intersection(&at) == Some(at)),
            "a monitor shows the window: {screens:?}"
        );
        let pixels = Pixels::connect().unwrap();
        let asked = std::time::Instant::now();
        let mut copied = pixels.grab(at).unwrap();
        while copied != expected && asked.elapsed() < std::time::Duration::from_secs(10) {
            let mut message = MSG::default();
            // SAFETY: this thread's messages, into a local.
            while unsafe { PeekMessageW(&mut message, std::ptr::null_mut(), 0, 0, PM_REMOVE) } != 0
            {
                // SAFETY: a message just taken from the queue.
                unsafe { DispatchMessageW(&message) };
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
            copied = pixels.grab(at).unwrap();
        }
        let parts = pixels.grab_all(&[
            ScreenRect {
                width: 4,
                height: 3,
                ..at
            },
            ScreenRect {
                x: at.x + 40,
                y: at.y + 30,
                width: 2,
                height: 2,
            },
        ]);
        let asked_after = DISPLAY_SETTINGS_ASKED.load(SeqCst);
        drop(refused);
        // SAFETY: the window made above, on this thread.
        unsafe { DestroyWindow(window) };
        assert!(
            copied == expected,
            "the copy is not what the window paints: its corner {:?}, its middle {:?}",
            copied.get_pixel(0, 0),
            copied.get_pixel(at.width / 2, at.height / 2)
        );
        let parts = parts.unwrap();
        assert_eq!(parts[0].get_pixel(3, 2).0, [200, 40, 30, 255]);
        assert_eq!(parts[1].dimensions(), (2, 2));
        assert_eq!(parts[1].get_pixel(1, 1).0, [20, 150, 90, 255]);
        assert_eq!(asked_after, 0, "EnumDisplaySettingsW was asked");
    }

    #[test]
    fn a_press_and_its_release_are_of_the_one_physical_button() {
        // The swap applies after SendInput: the physical right button is
        // pressed for a left-handed player's primary.
        let right = super::super::answers::primary_when_swapped(true);
        assert_eq!(button_flag(right, true), MOUSEEVENTF_RIGHTDOWN);
        assert_eq!(button_flag(right, false), MOUSEEVENTF_RIGHTUP);
        assert_eq!(button_flag(Button::Left, true), MOUSEEVENTF_LEFTDOWN);
        assert_eq!(button_flag(Button::Left, false), MOUSEEVENTF_LEFTUP);
        assert_eq!(button_flag(Button::Middle, true), MOUSEEVENTF_MIDDLEDOWN);
        assert_eq!(button_flag(Button::Middle, false), MOUSEEVENTF_MIDDLEUP);
    }

    #[test]
    fn a_monitor_without_an_output_has_an_unknown_colour_space() {
        // No monitor at all: unknown, no error.
        let none = windows::Win32::Graphics::Gdi::HMONITOR(std::ptr::null_mut());
        assert_eq!(dxgi_colour_space(none), Ok(None));
        // The primary monitor answers, whatever it is (Wine: maybe no
        // output, then unknown), without a panic.
        let answer = colour_space_at(ScreenPoint::new(0, 0));
        eprintln!("the primary monitor's colour space: {answer:?}");
    }

    #[test]
    fn the_stop_keys_are_windows_own_pause_and_ctrl_shift_backspace_and_hot_key_messages() {
        use windows_sys::Win32::Foundation::ERROR_HOTKEY_ALREADY_REGISTERED;
        use windows_sys::Win32::UI::Input::KeyboardAndMouse::{
            MOD_CONTROL, MOD_NOREPEAT, MOD_SHIFT, VK_BACK, VK_PAUSE,
        };
        use windows_sys::Win32::UI::WindowsAndMessaging::WM_HOTKEY;
        let pause = super::super::words::PAUSE.hot_key;
        assert_eq!(pause, (MOD_NOREPEAT, u32::from(VK_PAUSE)));
        let chord = super::super::words::CHORD.hot_key;
        assert_eq!(
            chord,
            (MOD_CONTROL | MOD_SHIFT | MOD_NOREPEAT, u32::from(VK_BACK))
        );
        assert_eq!(super::super::answers::WM_HOTKEY, WM_HOTKEY);
        assert_eq!(super::super::answers::WM_APP, WM_APP);
        assert_eq!(
            super::super::answers::ERROR_HOTKEY_ALREADY_REGISTERED,
            ERROR_HOTKEY_ALREADY_REGISTERED
        );
    }

    #[test]
    fn pause_comes_to_the_thread_that_registered_it_is_refused_to_another_and_given_back() {
        // One test: the key is the whole desktop's, one holder at a time.
        use windows_sys::Win32::UI::Input::KeyboardAndMouse::{
            INPUT_KEYBOARD, KEYBDINPUT, KEYEVENTF_KEYUP, VK_PAUSE,
        };
        let (pressed, presses) = std::sync::mpsc::channel();
        let pause = super::super::words::PAUSE;
        let grab = StopKeyGrab::grab(
            pause,
            Box::new(move || {
                pressed.send(()).ok();
            }),
        )
        .expect("the Pause key");
        let key = |flags| INPUT {
            r#type: INPUT_KEYBOARD,
            Anonymous: INPUT_0 {
                ki: KEYBDINPUT {
                    wVk: VK_PAUSE,
                    dwFlags: flags,
                    ..Default::default()
                },
            },
        };
        let inputs = [key(0), key(KEYEVENTF_KEYUP)];
        // SAFETY: two keyboard inputs of the size said.
        let sent = unsafe {
            SendInput(
                inputs.len() as u32,
                inputs.as_ptr(),
                std::mem::size_of::<INPUT>() as i32,
            )
        };
        assert_eq!(sent, 2);
        let came = presses.recv_timeout(std::time::Duration::from_secs(5));
        assert!(came.is_ok(), "no WM_HOTKEY for the Pause key");
        // Registered by another thread: Windows says it is taken.
        let second = StopKeyGrab::grab(pause, Box::new(|| {}));
        assert!(matches!(second, Err(GrabError::Taken)), "{second:?}");
        drop(grab);
        // Unregistered by its thread at the end: the key is free again.
        let again = StopKeyGrab::grab(pause, Box::new(|| {}));
        assert!(again.is_ok(), "{again:?}");
    }

    #[test]
    fn the_marks_window_takes_no_click_no_focus_and_no_taskbar_place() {
        let (ex, style) = overlay_styles();
        // Layered and transparent together: presses go through.
        assert_eq!(
            ex & (WS_EX_LAYERED | WS_EX_TRANSPARENT),
            WS_EX_LAYERED | WS_EX_TRANSPARENT
        );
        assert_ne!(ex & WS_EX_NOACTIVATE, 0);
        assert_ne!(ex & WS_EX_TOPMOST, 0);
        assert_ne!(ex & WS_EX_TOOLWINDOW, 0);
        // No frame, no caption, nothing to grab.
        assert_eq!(style, WS_POPUP);
    }

    #[test]
    fn marks_not_kept_out_of_captures_are_said_and_stay() {
        assert_eq!(
            capture_exclusion(1, Some(WDA_EXCLUDEFROMCAPTURE), 0),
            Ok(())
        );
        // Refused (a layered window before 24H2: ERROR_NOT_ENOUGH_MEMORY).
        let refused = capture_exclusion(0, Some(0), 8).unwrap_err();
        assert!(refused.contains("error 8"), "{refused}");
        // Said done, yet another affinity (WDA_MONITOR before 2004), or
        // none read back.
        assert!(capture_exclusion(1, Some(1), 0).is_err());
        assert!(capture_exclusion(1, None, 0).is_err());
    }

    #[test]
    fn the_marks_picture_is_transparent_but_for_the_marks() {
        let rect = |x, y, width, height| ScreenRect {
            x,
            y,
            width,
            height,
        };
        let marks = [
            Mark {
                rects: vec![rect(11, 20, 2, 1)],
                colour: [255, 0, 0],
            },
            Mark {
                rects: vec![rect(10, 20, 2, 2)],
                colour: [0, 0, 255],
            },
        ];
        let at = rect(10, 20, 3, 2);
        let picture = premultiplied_bgra(&marks, at);
        let pixel = |x: usize, y: usize| &picture[(y * 3 + x) * 4..(y * 3 + x) * 4 + 4];
        assert_eq!(pixel(0, 0), [255, 0, 0, 255]); // blue, BGRA
        // The first mark on top of the second.
        assert_eq!(pixel(1, 0), [0, 0, 255, 255]);
        assert_eq!(pixel(2, 0), [0, 0, 255, 255]);
        assert_eq!(pixel(2, 1), [0, 0, 0, 0]);
    }

    #[test]
    fn the_console_closing_ends_the_process_and_ctrl_c_does_not() {
        use windows_sys::Win32::System::Console::{CTRL_BREAK_EVENT, CTRL_C_EVENT};
        assert_eq!(
            console_end_asker(CTRL_CLOSE_EVENT),
            Some(Asker::TerminalClosed)
        );
        for event in [CTRL_LOGOFF_EVENT, CTRL_SHUTDOWN_EVENT] {
            assert_eq!(console_end_asker(event), Some(Asker::EndRequest));
        }
        assert_eq!(console_end_asker(CTRL_C_EVENT), None);
        assert_eq!(console_end_asker(CTRL_BREAK_EVENT), None);
    }
}
