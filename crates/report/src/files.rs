//! A run directory is data (issue 41): its files are read only as regular files, never
//! through a symbolic link, each up to a cap; a file written beside them goes through a
//! temporary file created exclusively under a unique name (never through a link someone
//! planted), then renamed into place, replacing the old file (never writing through it) or,
//! for a file that must never be overwritten, only where nothing exists.

use std::fs::{self, OpenOptions};
use std::io::{self, Read, Write};
use std::path::Path;

/// Most bytes of a CSV table of a run read back (`outcomes/shots.csv` of a large study
/// included): 1 GiB.
pub const MAX_CSV_BYTES: u64 = 1 << 30;
/// Most bytes of a JSON file of a run read back (`run.json`): 16 MiB.
pub const MAX_JSON_BYTES: u64 = 16 << 20;
/// Most bytes of `outcomes/replays.json` read back: 13 MiB (xtask writes at most 12 MB, its
/// note besides).
pub const MAX_REPLAYS_BYTES: u64 = 13 << 20;

/// What kind of thing a path is, for a message: `a FIFO`, `a directory`, ...
fn kind_of(t: fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_socket() {
            return "a socket";
        }
        if t.is_block_device() || t.is_char_device() {
            return "a device";
        }
    }
    if t.is_dir() {
        "a directory"
    } else if t.is_symlink() {
        "a symbolic link"
    } else {
        "not a regular file"
    }
}

/// Whether `path` names anything at all (a broken link, a FIFO included), without following a
/// link.
pub fn exists(path: &Path) -> bool {
    fs::symlink_metadata(path).is_ok()
}

/// The bytes of the regular file `path`, at most `cap` of them. A FIFO is refused without
/// being waited on, a symbolic link (the last component) without being followed, and a larger
/// file before it is read.
///
/// # Errors
/// One line (without the path, for the caller to prefix): the system's error, what the path
/// is when it is not a regular file, or its size against the cap.
pub fn read_capped(path: &Path, cap: u64) -> Result<Vec<u8>, String> {
    if let Ok(m) = fs::symlink_metadata(path) {
        if !m.file_type().is_file() {
            return Err(format!(
                "{}: only a regular file is read",
                kind_of(m.file_type())
            ));
        }
    }
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // Not blocked by a FIFO swapped in meanwhile; not through a link.
        options.custom_flags(libc::O_NONBLOCK | libc::O_NOFOLLOW);
    }
    let file = options.open(path).map_err(|e| match e.raw_os_error() {
        #[cfg(unix)]
        Some(libc::ELOOP) => "a symbolic link: only a regular file is read".into(),
        _ => e.to_string(),
    })?;
    let meta = file.metadata().map_err(|e| e.to_string())?;
    if !meta.file_type().is_file() {
        return Err(format!(
            "{}: only a regular file is read",
            kind_of(meta.file_type())
        ));
    }
    if meta.len() > cap {
        return Err(format!(
            "{} bytes, more than the {} a file of this kind may hold",
            meta.len(),
            human(cap)
        ));
    }
    #[cfg(unix)]
    {
        use std::os::unix::io::AsRawFd;
        // SAFETY: fcntl on our own descriptor: back to blocking reads of a regular file.
        unsafe {
            let fd = file.as_raw_fd();
            let flags = libc::fcntl(fd, libc::F_GETFL);
            libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK);
        }
    }
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    file.take(cap + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| e.to_string())?;
    if bytes.len() as u64 > cap {
        return Err(format!(
            "more than the {} a file of this kind may hold (it grew while read)",
            human(cap)
        ));
    }
    Ok(bytes)
}

/// A size in binary units (`16 MiB`).
pub fn human(bytes: u64) -> String {
    match bytes {
        b if b >= 1 << 30 && b % (1 << 30) == 0 => format!("{} GiB", b >> 30),
        b if b >= 1 << 20 && b % (1 << 20) == 0 => format!("{} MiB", b >> 20),
        b if b >= 1 << 20 => format!("{:.1} MiB", b as f64 / f64::from(1 << 20)),
        b => format!("{b} bytes"),
    }
}

/// Writes `path` whole, replacing what is there: a reader sees the old file or the new one,
/// never a part. The bytes go to a temporary file beside `path` created exclusively under a
/// random name (`tempfile`: `O_EXCL`, never an existing file nor a link someone planted),
/// synced, then renamed over `path`: a link at `path` is replaced, never written through.
///
/// # Errors
/// The system's (the temporary file is removed).
pub fn write_replacing(path: &Path, bytes: &[u8]) -> io::Result<()> {
    temp_beside(path, bytes)?
        .persist(path)
        .map(drop)
        .map_err(|e| e.error)
}

/// Writes `path` whole where nothing exists yet, never over anything, a race with another
/// writer included (the temporary file of [`write_replacing`], renamed only if nothing is at
/// `path`: `renameat2(RENAME_NOREPLACE)` on Linux, or a hard link).
///
/// # Errors
/// `AlreadyExists` when something is at `path`; the system's otherwise (the temporary file is
/// removed).
pub fn write_new(path: &Path, bytes: &[u8]) -> io::Result<()> {
    if exists(path) {
        return Err(io::Error::from(io::ErrorKind::AlreadyExists));
    }
    temp_beside(path, bytes)?
        .persist_noclobber(path)
        .map(drop)
        .map_err(|e| e.error)
}

/// `bytes` in a temporary file beside `path` (`.<name>.<random>.tmp`, created exclusively,
/// mode 0666 less the umask as `fs::write` gives), synced; removed when dropped unless
/// persisted.
fn temp_beside(path: &Path, bytes: &[u8]) -> io::Result<tempfile::NamedTempFile> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .map_or_else(|| "file".into(), |n| n.to_string_lossy().into_owned());
    let prefix = format!(".{name}.");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp");
    #[cfg(unix)]
    {
        // A file of the run is shared as any other written with fs::write: 0666 less the
        // umask (tempfile's default, 0600, is for secrets).
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(fs::Permissions::from_mode(0o666));
    }
    let mut tmp = builder.tempfile_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    Ok(tmp)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn temp(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("report-files-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn files_are_read_whole_below_the_cap_and_refused_otherwise() {
        let d = temp("read");
        let f = d.join("a.csv");
        fs::write(&f, b"0123456789").unwrap();
        assert_eq!(read_capped(&f, 10).unwrap(), b"0123456789");
        assert!(read_capped(&f, 9)
            .unwrap_err()
            .contains("more than the 9 bytes"));
        assert!(read_capped(&d, 10).unwrap_err().contains("a directory"));
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(&f, d.join("link.csv")).unwrap();
            let e = read_capped(&d.join("link.csv"), 10).unwrap_err();
            assert!(e.contains("a symbolic link"), "{e}");
            let fifo = d.join("fifo.csv");
            let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
            // SAFETY: mkfifo on a valid path.
            assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
            let e = read_capped(&fifo, 10).unwrap_err();
            assert!(e.contains("a FIFO"), "{e}");
        }
    }

    #[test]
    fn writes_never_go_through_a_planted_link() {
        let d = temp("write");
        let victim = d.join("victim");
        fs::write(&victim, b"keep").unwrap();
        let page = d.join("report.html");
        #[cfg(unix)]
        {
            // A link at the page, and at the temporary name earlier versions used.
            std::os::unix::fs::symlink(&victim, &page).unwrap();
            std::os::unix::fs::symlink(&victim, d.join(".report.html.tmp")).unwrap();
        }
        write_replacing(&page, b"page").unwrap();
        write_replacing(&page, b"page").unwrap();
        assert_eq!(fs::read(&victim).unwrap(), b"keep");
        assert_eq!(fs::read(&page).unwrap(), b"page");
        assert!(!fs::symlink_metadata(&page)
            .unwrap()
            .file_type()
            .is_symlink());
        // A new file is never written over anything, however many writers race.
        let new = &d.join("new.toml");
        let wrote: Vec<bool> = std::thread::scope(|s| {
            let hs: Vec<_> = (0..8u8)
                .map(|k| s.spawn(move || write_new(new, &[b'0' + k]).is_ok()))
                .collect();
            hs.into_iter().map(|h| h.join().unwrap()).collect()
        });
        assert_eq!(wrote.iter().filter(|w| **w).count(), 1, "{wrote:?}");
        let e = write_new(&d.join("new.toml"), b"again").unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::AlreadyExists);
        // Nothing left behind.
        let left: Vec<_> = fs::read_dir(&d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with('.') && n != ".report.html.tmp")
            .collect();
        assert!(left.is_empty(), "{left:?}");
    }

    #[cfg(unix)]
    #[test]
    fn files_written_whole_have_the_mode_of_any_other_file() {
        use std::os::unix::fs::PermissionsExt;
        let d = temp("mode");
        let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
        // fs::write's mode is 0666 less this process's umask, whatever it is here.
        fs::write(d.join("plain.csv"), b"x").unwrap();
        write_replacing(&d.join("report.html"), b"page").unwrap();
        write_new(&d.join("LATEST"), b"run").unwrap();
        let plain = mode(&d.join("plain.csv"));
        assert_eq!(mode(&d.join("report.html")), plain);
        assert_eq!(mode(&d.join("LATEST")), plain);
        assert_ne!(
            plain & 0o044,
            0,
            "a umask this test does not expect: {plain:o}"
        );
    }
}
