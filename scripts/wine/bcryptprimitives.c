/* A stand-in for Windows' bcryptprimitives.dll, for Wine 8 only: Rust's
 * standard library (1.78 and later) takes its random numbers from
 * ProcessPrng, which Wine 8 does not have, so no Rust program starts
 * there. This one asks BCryptGenRandom, which Wine has. A real Windows
 * has the real DLL: never ship this one. */
#include <windows.h>
#include <bcrypt.h>

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) {
    while (len > 0) {
        ULONG part = len > 0x40000000 ? 0x40000000 : (ULONG)len;
        if (BCryptGenRandom(NULL, data, part, BCRYPT_USE_SYSTEM_PREFERRED_RNG) != 0)
            return FALSE;
        data += part;
        len -= part;
    }
    return TRUE;
}
