/// Fuzz finding (files0_from): a `--files0-from` list of one NUL names one
/// empty name, as GNU wc and utf8-count's own reader say; it was read as no name.
#[test]
fn files0_from_single_nul_is_one_empty_name() {
    let dir = std::env::temp_dir().join(format!("utf8-tools-files0-{}", std::process::id()));
    std::fs::write(&dir, b"\0").unwrap();
    let got = super::inputs(&[], Some(dir.as_os_str()));
    std::fs::remove_file(&dir).unwrap();
    let msg = got.expect_err("an empty name").to_string();
    assert!(msg.contains(":1: invalid zero-length file name"), "{msg}");
}

/// A regular file is read to its size at open, in reads of any size; one that grew
/// after it was opened is read on to its end.
#[test]
fn a_regular_file_ends_at_its_size_and_is_read_on_when_it_grew() {
    use std::io::{Read, Write};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("f");
    std::fs::write(&path, b"0123456789").unwrap();
    let input = super::Input::Path(path.clone());
    for step in [1, 3, 10, 64] {
        let mut src = input.open().unwrap();
        let (mut got, mut buf) = (Vec::new(), [0u8; 64]);
        loop {
            let n = src.read(&mut buf[..step]).unwrap();
            if n == 0 {
                break;
            }
            got.extend_from_slice(&buf[..n]);
        }
        assert_eq!(got, b"0123456789", "reads of {step}");
    }
    // Reads that fill the buffer exactly to the size at open, then 5 bytes appended:
    // read on.
    let mut src = input.open().unwrap();
    let mut buf = [0u8; 5];
    assert_eq!(src.read(&mut buf).unwrap(), 5);
    assert_eq!(src.read(&mut buf).unwrap(), 5);
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .unwrap();
    f.write_all(b"abcde").unwrap();
    assert_eq!(src.read(&mut buf).unwrap(), 5);
    assert_eq!(&buf, b"abcde");
    std::fs::write(&path, b"0123456789").unwrap();
    // Opened at 10 bytes, 5 more appended before the reads.
    let mut src = input.open().unwrap();
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .unwrap();
    f.write_all(b"abcde").unwrap();
    let mut got = Vec::new();
    src.read_to_end(&mut got).unwrap();
    assert_eq!(got, b"0123456789abcde");
}

/// Chunks keep their tail where the next read starts aligned: whatever the sizes the
/// reader returns, the chunks' data is the stream, in order, and each chunk's lookahead
/// is what the next chunk begins with.
#[test]
fn chunks_reassemble_the_stream_across_short_reads() {
    struct Dribble<'a>(&'a [u8], usize);
    impl std::io::Read for Dribble<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            // 1, 2, .., 70 bytes, then a whole chunk at a time.
            self.1 += 1;
            let n = if self.1 <= 70 { self.1 } else { buf.len() }.min(buf.len());
            let n = n.min(self.0.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }
    let stream: Vec<u8> = (0..3 * super::CHUNK_SIZE as u32 + 77)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 24) as u8)
        .collect();
    let mut chunks = super::Chunks::new(Dribble(&stream, 0));
    let mut got = Vec::new();
    let mut sizes = Vec::new();
    while let Some(c) = chunks.next_chunk().unwrap() {
        assert_eq!(c.base, got.len() as u64);
        let end = c.base as usize + c.ahead.len();
        assert_eq!(c.ahead, &stream[c.base as usize..end]);
        got.extend_from_slice(c.data);
        sizes.push(c.data.len());
    }
    assert_eq!(got, stream);
    // The buffer grew from FIRST_CHUNK to whole chunks as the reads filled it.
    let first_full = sizes.iter().position(|&n| n > 70).unwrap();
    assert!(
        sizes[first_full] <= super::FIRST_CHUNK + super::READ_ALIGN,
        "{sizes:?}"
    );
    assert!(sizes.iter().any(|&n| n >= super::CHUNK_SIZE), "{sizes:?}");
}

/// A read that ends in an ASCII byte is a chunk at once, whole, without a read more (a
/// line from a terminal or a pipe is processed before the next one is written); one that
/// ends inside a character keeps its last LOOKAHEAD bytes for the next chunk.
#[test]
fn a_read_that_ends_in_ascii_is_a_chunk_at_once() {
    /// Gives its parts one read at a time; a read past them fails the test.
    struct Lines(Vec<&'static [u8]>);
    impl std::io::Read for Lines {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            assert!(!self.0.is_empty(), "read on after the last part");
            let part = self.0.remove(0);
            buf[..part.len()].copy_from_slice(part);
            Ok(part.len())
        }
    }
    let mut chunks = super::Chunks::new(Lines(vec![b"ab\n", b"c\xFFd\n"]));
    assert_eq!(chunks.next_chunk().unwrap().unwrap().data, b"ab\n");
    assert_eq!(chunks.next_chunk().unwrap().unwrap().data, b"c\xFFd\n");
    let mut chunks = super::Chunks::new(Lines(vec![b"abcdefghij\xE2\x82", b"\xAC\n", b""]));
    let c = chunks.next_chunk().unwrap().unwrap();
    assert_eq!(
        (c.data, c.ahead),
        (&b"abcd"[..], &b"abcdefghij\xE2\x82"[..])
    );
    assert_eq!(
        chunks.next_chunk().unwrap().unwrap().data,
        b"efghij\xE2\x82\xAC\n"
    );
    assert!(chunks.next_chunk().unwrap().is_none());
}

#[test]
fn spare_heaps_are_the_largest_two_given_back() {
    use super::{give_back, spare_heap};
    // This test's thread starts with none: a new heap is zeroed.
    assert_eq!(spare_heap(10), [0; 10]);
    give_back(vec![1; 100]);
    give_back(vec![2; 300]);
    give_back(vec![3; 200]);
    // The smallest of three went; one large enough is found, else a new one is made.
    assert_eq!(spare_heap(250), [2; 300]);
    assert_eq!(spare_heap(250), [0; 250]);
    assert_eq!(spare_heap(0), [3; 200]);
    assert!(spare_heap(0).is_empty());
}

/// A path below a [`super::Root`] is opened relative to it: the same file as by its whole
/// path, the same error for a missing one, and a path not below it by its whole path.
#[cfg(unix)]
#[test]
fn paths_below_a_root_open_relative_to_it() {
    use std::io::Read;
    let dir = tempfile::tempdir().unwrap();
    let sub = dir.path().join("a/b");
    std::fs::create_dir_all(&sub).unwrap();
    std::fs::write(sub.join("f"), b"below").unwrap();
    std::fs::write(dir.path().join("g"), b"beside").unwrap();
    let read = |root: Option<&super::Root>, p: std::path::PathBuf| {
        let mut got = String::new();
        let r = super::Input::Path(p).open_in(root);
        r.map(|mut s| {
            s.read_to_string(&mut got).unwrap();
            got
        })
    };
    // Written as the walk writes them: the directory given, with or without its slash.
    let with_slash = format!("{}/", dir.path().join("a").display());
    for given in [dir.path().join("a"), with_slash.into()] {
        let root = super::Root::open(&given).expect("a directory opens");
        assert_eq!(read(Some(&root), given.join("b/f")).unwrap(), "below");
        let missing = read(Some(&root), given.join("b/none")).unwrap_err();
        let by_path = read(None, given.join("b/none")).unwrap_err();
        assert_eq!(missing.to_string(), by_path.to_string());
        // Not below it: by its whole path.
        assert_eq!(read(Some(&root), dir.path().join("g")).unwrap(), "beside");
        // The directory itself is no path below it.
        assert!(root.open_below(&given).is_none());
    }
    // The file is found through the descriptor, whatever the path's own directories are now.
    let root = super::Root::open(&dir.path().join("a")).unwrap();
    std::fs::rename(dir.path().join("a"), dir.path().join("moved")).unwrap();
    assert_eq!(
        read(Some(&root), dir.path().join("a/b/f")).unwrap(),
        "below"
    );
    assert!(read(None, dir.path().join("a/b/f")).is_err());
}

/// `stat_near` and `open_known` agree with `stat(2)` and `open(2)` of the whole path, path
/// after path, whether the directory held open is the path's or not: files in one
/// directory, then another, a symbolic link, a missing name, a directory, `.` and `..`,
/// a name with a trailing slash, a name without a directory.
#[test]
fn paths_near_the_previous_one_agree_with_whole_paths() {
    use super::{Input, Kind, stat_near};
    use std::io::Read;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for (name, body) in [
        ("a/f1", "one"),
        ("a/f2", "two!"),
        ("b/g", "gee"),
        ("a/f3", ""),
    ] {
        std::fs::create_dir_all(d.join(name).parent().unwrap()).unwrap();
        std::fs::write(d.join(name), body).unwrap();
    }
    #[cfg(unix)]
    std::os::unix::fs::symlink(d.join("b/g"), d.join("a/link")).unwrap();
    let by_path = |p: &std::path::Path| {
        std::fs::metadata(p).map(|m| {
            if m.is_file() {
                Kind::Regular(m.len())
            } else {
                Kind::Other
            }
        })
    };
    let names = [
        "a/f1", "a/f2", "a/f2", "a/none", "a/f3", "b/g", "a/f1", "a/link", "a/link", "a/.", "a/..",
        "a/f1/", "a", "b/g", "b/g", "b/none", "a/f2",
    ];
    for _ in 0..2 {
        for name in names {
            let p = d.join(name);
            let (near, whole) = (stat_near(&p), by_path(&p));
            match (&near, &whole) {
                (Ok(a), Ok(b)) => assert_eq!(a, b, "{name}"),
                (Err(a), Err(b)) => assert_eq!(a.kind(), b.kind(), "{name}"),
                _ => panic!("{name}: near {near:?}, whole path {whole:?}"),
            }
            if let Ok(Kind::Regular(len)) = near {
                let mut got = Vec::new();
                Input::Path(p.clone())
                    .open_known(len)
                    .unwrap()
                    .read_to_end(&mut got)
                    .unwrap();
                assert_eq!(got, std::fs::read(&p).unwrap(), "{name}");
            }
        }
    }
    // A name without a directory is looked up from the working directory.
    assert!(stat_near(std::path::Path::new("no-such-name-here")).is_err());
}
