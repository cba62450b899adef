// statfs(2), which Swift's Glibc module leaves out: MappedFile asks which file system an
// export.xml is on before it maps it (a network one is read instead). Linux only: macOS has it
// in Darwin.
#if defined(__linux__)
#include <sys/vfs.h>
#endif
