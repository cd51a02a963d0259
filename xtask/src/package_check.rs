//! `cargo xtask package-check`: what we would publish tests itself.
//!
//! 1. `cargo package -p utf8-codec -p utf8-dfa --allow-dirty --no-verify` writes
//!    `$CARGO_TARGET_DIR/package/utf8-{codec,dfa}-VERSION.crate`.
//! 2. Both archives are unpacked into a fresh directory under the system's temporary
//!    directory (outside this workspace, so cargo sees two lone packages).
//! 3. `cargo test` runs in the unpacked utf8-dfa with
//!    `--config 'patch.crates-io.utf8-codec.path="<unpacked utf8-codec>"'` (the codec is not
//!    on crates.io yet), with the workspace's `Cargo.lock` copied in (the same versions as
//!    here) and its own target directory `$CARGO_TARGET_DIR/package-check` (kept between
//!    runs, so only the first one compiles every dependency), optimized as the workspace's
//!    `[profile.test]` is.

use std::path::Path;
use std::time::Instant;

use flate2::read::GzDecoder;

use crate::workspace::{self, Result, target_dir};

/// The packages that are published together, the tested one last.
const PACKAGES: [&str; 2] = ["utf8-codec", "utf8-dfa"];

/// Runs the check; prints what it does and how long it took.
///
/// # Errors
///
/// When a cargo command fails or an archive cannot be unpacked.
pub fn run(root: &Path) -> Result<()> {
    let started = Instant::now();
    let target = target_dir(root);
    let mut package = workspace::cargo(root);
    package.arg("package");
    for p in PACKAGES {
        package.args(["-p", p]);
    }
    package.args(["--allow-dirty", "--no-verify"]);
    workspace::status(&mut package, "cargo package")?;

    let version = env!("CARGO_PKG_VERSION");
    let unpacked = std::env::temp_dir().join(format!("utf8-package-check-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&unpacked);
    std::fs::create_dir_all(&unpacked)?;
    let result = (|| {
        let mut dirs = Vec::new();
        for p in PACKAGES {
            let krate = target.join("package").join(format!("{p}-{version}.crate"));
            let file = std::fs::File::open(&krate)
                .map_err(|e| format!("cannot open {}: {e}", krate.display()))?;
            tar::Archive::new(GzDecoder::new(file)).unpack(&unpacked)?;
            dirs.push(unpacked.join(format!("{p}-{version}")));
        }
        let (codec, dfa) = (&dirs[0], &dirs[1]);
        std::fs::copy(root.join("Cargo.lock"), dfa.join("Cargo.lock"))?;
        println!("package-check: cargo test in {}", dfa.display());
        let mut test = workspace::cargo(root);
        test.current_dir(dfa)
            .env("CARGO_TARGET_DIR", target.join("package-check"))
            .arg("test")
            .arg("--config")
            .arg(patch(codec))
            // As the workspace's `[profile.test]`: the exhaustive tests take minutes unoptimized.
            .args(["--config", "profile.test.opt-level=3"]);
        workspace::status(&mut test, "cargo test in the unpacked utf8-dfa")
    })();
    let _ = std::fs::remove_dir_all(&unpacked);
    result?;
    println!(
        "package-check: the packaged utf8-dfa passes its tests alone ({:.0} s)",
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// The `--config` value that points utf8-codec at the unpacked copy.
fn patch(codec: &Path) -> String {
    let path = codec
        .to_string_lossy()
        .replace('\\', "\\\\")
        .replace('"', "\\\"");
    format!("patch.crates-io.utf8-codec.path=\"{path}\"")
}
