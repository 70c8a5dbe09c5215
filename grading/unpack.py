#!/usr/bin/env python3
"""Unpacks one submission archive into a folder, believing nothing the archive says.

    python3 -I unpack.py ARCHIVE DEST MAX_FILES MAX_BYTES

grade.sh runs it inside the sandbox (a file-size and a wall-clock limit, the student's box as
the only writable place), so even a bug here cannot write outside DEST. ARCHIVE is a .tar.gz
(.tgz) or a .zip; DEST an empty folder. Refused, before or while unpacking:
  - a member name that is absolute, climbs out with "..", holds a control character or a
    backslash, or is empty; the same name twice;
  - anything but plain files and folders (links, devices, pipes); a zip entry whose mode has
    no file-type bits (Windows, Python's writestr) is a plain file;
  - more than MAX_FILES members, or more than MAX_BYTES bytes in all, counted as they are
    written (the sizes an archive announces are never trusted: a forged header or an owner name
    with a blank cannot hide a bomb).
Exit 0 when unpacked; exit 1 with one line saying why (for the student's feedback), and DEST
emptied; exit 2 for bad usage.
"""
import os
import shutil
import stat
import sys
import tarfile
import zipfile

CHUNK = 1 << 16


class Refused(Exception):
    pass


def check_name(name, seen):
    shown = name.encode("unicode_escape").decode("ascii")[:120]
    if not name or name.startswith("/") or "\\" in name:
        raise Refused("the archive holds a name that is not accepted: " + shown)
    if any(ord(c) < 32 or ord(c) == 127 for c in name):
        raise Refused("the archive holds a name with a control character (a line break, a tab...): " + shown)
    parts = [p for p in name.split("/") if p not in ("", ".")]
    if ".." in parts:
        raise Refused("the archive holds a path that leaves its folder: " + shown)
    if not parts:
        raise Refused("the archive holds a name that is not accepted: " + shown)
    clean = "/".join(parts)
    if clean in seen:
        raise Refused("the archive holds " + shown + " twice")
    seen.add(clean)
    return clean


class Writer:
    """Writes files under DEST, counting members and the bytes really written."""

    def __init__(self, dest, max_files, max_bytes):
        self.dest, self.max_files, self.max_bytes = dest, max_files, max_bytes
        self.files = self.bytes = 0

    def folder(self, name):
        self._count()
        os.makedirs(os.path.join(self.dest, name), exist_ok=True)

    def file(self, name, source):
        self._count()
        path = os.path.join(self.dest, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        # O_EXCL and O_NOFOLLOW: nothing already there (a link, say) is followed or replaced.
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
        with os.fdopen(fd, "wb") as out:
            while True:
                block = source.read(CHUNK)
                if not block:
                    break
                self.bytes += len(block)
                if self.bytes > self.max_bytes:
                    raise Refused("the submission unpacks to more than %d MB (at most %d MB)"
                                  % (self.max_bytes >> 20, self.max_bytes >> 20))
                out.write(block)

    def _count(self):
        self.files += 1
        if self.files > self.max_files:
            raise Refused("the submission holds more than %d files (at most %d)" % (self.max_files, self.max_files))


def unpack_tar(archive, writer):
    seen = set()
    try:
        # "r|gz": a stream, one member after another, so nothing is read ahead or trusted.
        with tarfile.open(archive, mode="r|gz") as tar:
            for member in tar:
                name = check_name(member.name, seen)
                if member.isdir():
                    writer.folder(name)
                elif member.isfile():
                    writer.file(name, tar.extractfile(member))
                elif member.issym() or member.islnk():
                    raise Refused("the archive holds a link, which is not accepted: " + name[:120])
                else:
                    raise Refused("the archive holds a special file (device, pipe or socket): " + name[:120])
    except (tarfile.TarError, EOFError, OSError) as error:
        raise Refused("the file is not a readable .tar.gz archive (%s)" % type(error).__name__)
    if writer.files == 0:
        raise Refused("the archive is empty")


def unpack_zip(archive, writer):
    seen = set()
    try:
        with zipfile.ZipFile(archive) as zf:
            members = zf.infolist()
            if not members:
                raise Refused("the archive is empty")
            for info in members:
                name = check_name(info.filename, seen)
                # The high 16 bits are a Unix st_mode where the zip was made on Unix (a link
                # S_IFLNK, a device S_IFCHR...). Without file-type bits the entry is a plain
                # file: Windows leaves those bits zero (its DOS attributes are in the low byte),
                # and Python's writestr and some LMS bulk downloads write permissions alone.
                file_type = stat.S_IFMT(info.external_attr >> 16)
                if info.is_dir():
                    writer.folder(name)
                elif file_type not in (0, stat.S_IFREG):
                    kind = "a link" if file_type == stat.S_IFLNK else "a special file (device, pipe or socket)"
                    raise Refused("the archive holds " + kind + ", which is not accepted: " + name[:120])
                else:
                    with zf.open(info) as source:
                        writer.file(name, source)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError, EOFError, OSError, RuntimeError) as error:
        raise Refused("the file is not a readable .zip archive (%s)" % type(error).__name__)


def main(argv):
    if len(argv) != 5:
        print("usage: unpack.py ARCHIVE DEST MAX_FILES MAX_BYTES", file=sys.stderr)
        return 2
    archive, dest, max_files, max_bytes = argv[1], argv[2], int(argv[3]), int(argv[4])
    writer = Writer(dest, max_files, max_bytes)
    try:
        if archive.endswith((".tar.gz", ".tgz")):
            unpack_tar(archive, writer)
        elif archive.endswith(".zip"):
            unpack_zip(archive, writer)
        else:
            raise Refused("not a .tar.gz or a .zip")
    except Refused as why:
        for entry in os.listdir(dest):
            path = os.path.join(dest, entry)
            if os.path.isdir(path) and not os.path.islink(path):
                shutil.rmtree(path)
            else:
                os.remove(path)
        print(why)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
