//! Hostile input for utf8-grep: many small files under `-r`, deep directory nesting, and
//! patterns with many case variants under `-i`. These check correctness and that the run
//! finishes; they assert no time (the benchmarks watch speed) and print how long they took.
//! Ignored by default (tens of seconds of file creation): run them with
//! `cargo test -p utf8-tests --test e2e -- --ignored hostile`.

use std::path::Path;
use std::time::Instant;

use crate::util::{TestCommand, tempdir, write};

fn grep(dir: &Path) -> TestCommand {
    TestCommand::new("utf8-grep", dir)
}

/// Finds (and, beside the test executable, builds) the binaries before any clock starts:
/// the first run would otherwise print the build's time as its own.
fn built() {
    utf8_tests::cli::bin("utf8-grep");
}

#[test]
#[ignore = "creates 100,000 files: run with -- --ignored hostile"]
fn hostile_100k_small_files_recursive() {
    built();
    let dir = tempdir();
    let d = dir.path();
    let t = Instant::now();
    let mut want = 0;
    for i in 0..100 {
        let sub = d.join(format!("dir{i:03}"));
        std::fs::create_dir(&sub).unwrap();
        for j in 0..1000 {
            let hit = (i * 1000 + j) % 7 == 0;
            want += usize::from(hit);
            let body = if hit {
                format!("file {j}\nsome needle here\n")
            } else {
                format!("file {j}\nnothing\n")
            };
            std::fs::write(sub.join(format!("f{j:04}.txt")), body).unwrap();
        }
    }
    let made = t.elapsed();
    let t = Instant::now();
    let o = grep(d).args(["-rl", "needle", "."]).run();
    o.assert_code(0);
    let listed = o.out().lines().count();
    let t_l = t.elapsed();
    let t = Instant::now();
    let o = grep(d).args(["-rc", "needle", "."]).run();
    o.assert_code(0);
    let counts = o.out().lines().count();
    let total: usize = o
        .out()
        .lines()
        .map(|l| l.rsplit(':').next().unwrap().parse::<usize>().unwrap())
        .sum();
    let t_c = t.elapsed();
    eprintln!(
        "hostile_100k_small_files: created in {made:?}; -rl {t_l:?}; -rc {t_c:?}; {listed} files listed"
    );
    assert_eq!(listed, want);
    assert_eq!(counts, 100_000);
    assert_eq!(total, want);
    assert!(o.stderr.is_empty(), "{}", o.err());
}

#[test]
#[ignore = "deep trees: run with -- --ignored hostile"]
fn hostile_deep_nesting() {
    built();
    for depth in [200usize, 1000] {
        let dir = tempdir();
        let d = dir.path();
        let mut p = d.to_path_buf();
        for i in 0..depth {
            p.push("d");
            std::fs::create_dir(&p).unwrap();
            write(&p, "f.txt", format!("level {i} needle\n"));
        }
        let t = Instant::now();
        let o = grep(d).args(["-rc", "needle", "d"]).run();
        let took = t.elapsed();
        eprintln!("hostile_deep_nesting: depth {depth}: -rc in {took:?}");
        o.assert_code(0);
        assert_eq!(o.out().lines().count(), depth, "{}", o.err());
        assert!(o.out().lines().all(|l| l.ends_with(":1")));
        // --exclude-dir prunes the whole tree below the first level.
        let o = grep(d)
            .args(["-rc", "--exclude-dir=d", "needle", "."])
            .run();
        assert_eq!(o.code, 1, "{}", o.err());
    }
}

#[test]
#[ignore = "large -i automata: run with -- --ignored hostile"]
fn hostile_many_case_variants() {
    built();
    let dir = tempdir();
    let d = dir.path();
    // Letters with three or more simple case folds: s S ſ, k K K (Kelvin), σ ς Σ, θ ϑ Θ ϴ,
    // ß ẞ, µ μ Μ, and the titlecase digraphs ǆ ǅ Ǆ.
    let variants: &[&[&str]] = &[
        &["s", "S", "ſ"],
        &["k", "K", "\u{212A}"],
        &["σ", "ς", "Σ"],
        &["θ", "ϑ", "Θ", "ϴ"],
        &["ǆ", "ǅ", "Ǆ"],
        &["µ", "μ", "Μ"],
    ];
    // Patterns: 40 characters each, cycling through the letters; 30 patterns.
    let mut patterns = Vec::new();
    for p in 0..30 {
        let s: String = (0..40)
            .map(|i| variants[(i + p) % variants.len()][0])
            .collect();
        patterns.push(s);
    }
    // Text: lines with the patterns in mixed case variants, between filler lines.
    let mut text = String::new();
    let mut want = 0;
    for line in 0..20_000usize {
        if line % 10 == 0 {
            let p = line / 10 % patterns.len();
            let s: String = (0..40)
                .map(|i| {
                    let v = variants[(i + p) % variants.len()];
                    v[(i * 7 + line) % v.len()]
                })
                .collect();
            text.push_str(&format!("x {s} y\n"));
            want += 1;
        } else {
            text.push_str("filler σ k s θ text with no match ǅ\n");
        }
    }
    write(d, "t.txt", &text);
    let mut args: Vec<String> = vec!["-ic".into()];
    for p in &patterns {
        args.push("-e".into());
        args.push(p.clone());
    }
    args.push("t.txt".into());
    let t = Instant::now();
    let o = grep(d).args(&args).run();
    let took = t.elapsed();
    eprintln!("hostile_many_case_variants: 30 patterns x 40 folded chars, -ic in {took:?}");
    o.assert_code(0);
    assert_eq!(o.out().trim(), want.to_string());
    // One very long pattern of a single many-variant letter, -i -o.
    let long: String = "ϑ".repeat(500);
    let hay = format!("{}\n", "Θϴθϑ".repeat(250));
    write(d, "l.txt", &hay);
    let t = Instant::now();
    let o = grep(d).args(["-io", &long, "l.txt"]).run();
    eprintln!(
        "hostile_many_case_variants: 500-char pattern, -io in {:?}",
        t.elapsed()
    );
    o.assert_code(0);
    assert_eq!(o.out().lines().count(), 2);
}
