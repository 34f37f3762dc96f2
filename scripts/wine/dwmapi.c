/* A stand-in for Windows' dwmapi.dll, for Wine 8 only: Wine 8 answers
 * DwmGetWindowAttribute with E_NOTIMPL, and xcap leaves out every window
 * whose frame bounds it cannot read, so it lists none. Without a desktop
 * compositor the frame bounds are the window's rectangle. winit calls
 * DwmSetWindowAttribute, which a stand-in without it makes an abort.
 * Loaded instead
 * of Wine's own with WINEDLLOVERRIDES=dwmapi=n,b. Never ship it. */
#include <windows.h>
#include <dwmapi.h>

__declspec(dllexport) HRESULT WINAPI DwmIsCompositionEnabled(BOOL *enabled) {
    if (!enabled) return E_INVALIDARG;
    *enabled = FALSE;
    return S_OK;
}

__declspec(dllexport) HRESULT WINAPI DwmGetWindowAttribute(HWND hwnd, DWORD attribute, PVOID out, DWORD size) {
    if (!hwnd || !IsWindow(hwnd)) return E_HANDLE;
    if (!out) return E_INVALIDARG;
    if (attribute == DWMWA_EXTENDED_FRAME_BOUNDS) {
        if (size < sizeof(RECT)) return E_INVALIDARG;
        return GetWindowRect(hwnd, (RECT *)out) ? S_OK : HRESULT_FROM_WIN32(GetLastError());
    }
    if (attribute == DWMWA_CLOAKED) {
        if (size < sizeof(DWORD)) return E_INVALIDARG;
        *(DWORD *)out = 0;
        return S_OK;
    }
    return E_NOTIMPL;
}

/* winit sets a window's DWM attributes (its corners, border, caption and
 * text colours, whether it is cloaked) and asks for blur behind a
 * transparent window: nothing to do without a compositor. */
__declspec(dllexport) HRESULT WINAPI DwmSetWindowAttribute(HWND hwnd, DWORD attribute, LPCVOID value, DWORD size) {
    (void)attribute; (void)value; (void)size;
    return hwnd && IsWindow(hwnd) ? S_OK : E_HANDLE;
}

__declspec(dllexport) HRESULT WINAPI DwmEnableBlurBehindWindow(HWND hwnd, const DWM_BLURBEHIND *blur) {
    (void)blur;
    return hwnd && IsWindow(hwnd) ? S_OK : E_HANDLE;
}
