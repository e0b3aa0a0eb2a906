// A stand-in for Windows' bcryptprimitives.dll, which Wine 8 lacks and Go's
// runtime loads from system32 at start-up for ProcessPrng, its source of
// random bytes. It fills the buffer from RtlGenRandom (advapi32's
// SystemFunction036). tools/internal/wine builds it with
// x86_64-w64-mingw32-gcc -shared (see dllArgs) into its Wine prefix's
// system32.
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buf, ULONG len);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len)
{
	while (len > 0) {
		ULONG n = len > 0x40000000 ? 0x40000000 : (ULONG)len;
		if (!SystemFunction036(data, n))
			return FALSE;
		data += n;
		len -= n;
	}
	return TRUE;
}
