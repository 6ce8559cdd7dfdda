"""python/setup.py: builds the ckernel package for pip (pyproject.toml names setuptools).

The extension ckernel._ckernel (python/src/*.c) links libckernel, found in this order:
  CKERNEL_PREFIX=<prefix>   an installed ckernel (cmake --install): <prefix>/include and the
                            library in <prefix>/lib*; the module's RUNPATH is that directory
  pkg-config ckernel        the same for a ckernel that pkg-config finds
  neither                   the library is built here from this repository with CMake (Release;
                            no tests, no program, no Python package of CMake's own) and
                            copied into the package beside the module (RUNPATH $ORIGIN), with
                            the JIT plugin when it was built
"""
import glob
import os
import re
import shutil
import subprocess

import numpy
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def version():
    text = open(os.path.join(ROOT, "include", "ckernel", "version.h")).read()
    parts = [re.search(r"#define CK_VERSION_%s (\d+)" % p, text).group(1)
             for p in ("MAJOR", "MINOR", "PATCH")]
    return ".".join(parts)


def installed():
    """(include dirs, library dir) of an installed ckernel, or None."""
    prefix = os.environ.get("CKERNEL_PREFIX")
    if prefix:
        libs = glob.glob(os.path.join(prefix, "lib*", "libckernel.so")) + \
            glob.glob(os.path.join(prefix, "lib", "*", "libckernel.so"))
        if not libs:
            raise SystemExit("CKERNEL_PREFIX=%s holds no lib*/libckernel.so" % prefix)
        return [os.path.join(prefix, "include")], os.path.dirname(libs[0])
    try:
        inc = subprocess.run(["pkg-config", "--variable=includedir", "ckernel"],
                             check=True, capture_output=True, text=True).stdout.strip()
        lib = subprocess.run(["pkg-config", "--variable=libdir", "ckernel"],
                             check=True, capture_output=True, text=True).stdout.strip()
        return [inc], lib
    except (OSError, subprocess.CalledProcessError):
        return None


class BuildExt(build_ext):
    def build_extensions(self):
        found = installed()
        bundle = found is None
        if bundle:
            found = self.build_library()
        includes, libdir = found
        for ext in self.extensions:
            ext.include_dirs[:0] = includes
            ext.library_dirs.append(libdir)
            ext.runtime_library_dirs.append("$ORIGIN" if bundle else libdir)
        super().build_extensions()
        if bundle:  # the library (by its soname) and the JIT plugin beside the module
            dest = os.path.join(self.build_lib, "ckernel")
            for f in glob.glob(os.path.join(libdir, "libckernel.so.*.*")) + \
                    glob.glob(os.path.join(libdir, "libckernel-jit.so")):
                if not re.search(r"\.so\.\d+\.\d+\.\d+$", f):  # the soname's file, not the full version
                    shutil.copy2(f, dest)

    def build_library(self):
        work = os.path.abspath(os.path.join(self.build_temp, "libckernel"))
        args = ["cmake", "-S", ROOT, "-B", work, "-DCMAKE_BUILD_TYPE=Release",
                "-DCK_BUILD_TESTS=OFF", "-DCK_BUILD_TOOLS=OFF", "-DCK_WITH_PYTHON=OFF"]
        if not os.path.exists(os.path.join(ROOT, ".deps", "jemalloc-5.3.0", "configure")):
            args.append("-DCK_WITH_JEMALLOC=OFF")  # no private allocator source: the C library's
        subprocess.run(args, check=True)
        subprocess.run(["cmake", "--build", work, "--target", "ckernel", "-j",
                        str(os.cpu_count() or 1)], check=True)
        return [os.path.join(ROOT, "include"), os.path.join(work, "include")], os.path.join(work, "src")


setup(
    version=version(),
    packages=["ckernel"],
    ext_modules=[Extension(
        "ckernel._ckernel",
        sources=sorted(glob.glob(os.path.join("src", "*.c"))),
        include_dirs=[numpy.get_include()],
        libraries=["ckernel"],
        extra_compile_args=["-std=c11"],
    )],
    cmdclass={"build_ext": BuildExt},
)
