"""The one set of warnings every pgpk C target is built with."""

PGPK_COPTS = [
    "-Wall",
    "-Wextra",
    "-Werror",
    "-Wshadow",
    "-Wmissing-prototypes",
    "-Wstrict-prototypes",
    "-Wpointer-arith",
    "-Wformat=2",
    "-Wundef",
    "-Wvla",
    "-Wcast-align",
    "-Wwrite-strings",
    "-Wno-unused-parameter",
    "-fno-strict-aliasing",
    "-D_GNU_SOURCE",
]
