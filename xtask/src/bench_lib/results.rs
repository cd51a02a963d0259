//! Criterion's results on disk, read into GiB/s per benchmark, and how a throughput or a
//! ratio is shown.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use crate::workspace::Result;

/// GiB/s of every benchmark: `results[group][name]`, e.g. `["count/cjk"]["utf8_codec::count"]`
/// or `["validate/cjk"]["utf8_codec::valid_up_to/avx512"]`.
#[derive(Debug, Default)]
pub struct Results(pub BTreeMap<String, BTreeMap<String, f64>>);

impl Results {
    /// The GiB/s of benchmark `name` in `group`.
    pub fn get(&self, group: &str, name: &str) -> Option<f64> {
        self.0.get(group)?.get(name).copied()
    }
}

/// Reads every `new/` result under `dir` (criterion's output), skipping those written before
/// `since`.
///
/// # Errors
///
/// A result file that cannot be read or parsed.
pub fn read_results(dir: &Path, since: Option<SystemTime>) -> Result<Results> {
    let mut found = Vec::new();
    find_new(dir, &mut found)?;
    let mut r = Results::default();
    for d in found {
        let est = d.join("estimates.json");
        if let Some(t) = since
            && std::fs::metadata(&est)?.modified()? < t
        {
            continue;
        }
        let parse = |p: &Path| -> Result<serde_json::Value> {
            let text = std::fs::read_to_string(p)?;
            serde_json::from_str(&text).map_err(|e| format!("{}: {e}", p.display()).into())
        };
        let b = parse(&d.join("benchmark.json"))?;
        let e = parse(&est)?;
        let (Some(group), Some(function), Some(bytes), Some(ns)) = (
            b.pointer("/group_id")
                .and_then(|v| v.as_str().map(str::to_owned)),
            b.pointer("/function_id")
                .and_then(|v| v.as_str().map(str::to_owned)),
            b.pointer("/throughput/Bytes").and_then(|v| v.as_f64()),
            e.pointer("/median/point_estimate").and_then(|v| v.as_f64()),
        ) else {
            return Err(
                format!("{}: not a criterion result with a throughput", d.display()).into(),
            );
        };
        let name = match b.get("value_str").and_then(|v| v.as_str()) {
            Some(v) => format!("{function}/{v}"),
            None => function,
        };
        let gibs = bytes / ns * 1e9 / f64::from(1u32 << 30);
        r.0.entry(group).or_default().insert(name, gibs);
    }
    Ok(r)
}

/// The `new` directories below `dir` that hold an `estimates.json`.
fn find_new(dir: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if !path.is_dir() {
            continue;
        }
        if path.file_name().is_some_and(|n| n == "new") {
            if path.join("estimates.json").is_file() {
                out.push(path);
            }
        } else {
            find_new(&path, out)?;
        }
    }
    Ok(())
}

/// A throughput for a table: `8.25` GiB/s, or `80 M` (MiB/s) below 0.1 GiB/s; `—` if absent.
pub fn gibs(x: Option<f64>) -> String {
    match x {
        None => "—".to_owned(),
        Some(x) if x >= 0.1 => format!("{x:.2}"),
        Some(x) => format!("{:.0} M", x * 1024.0),
    }
}

/// `a / b`, absent when either is.
pub fn ratio(a: Option<f64>, b: Option<f64>) -> Option<f64> {
    Some(a? / b?)
}

/// A ratio with two decimals, `—` when absent.
pub fn fmt_ratio(r: Option<f64>) -> String {
    r.map_or_else(|| "—".to_owned(), |r| format!("{r:.2}"))
}
/// The name of the validate benchmark of kernel `k`.
pub fn kernel_bench(k: &str) -> String {
    format!("utf8_codec::valid_up_to/{k}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_criterion_results() {
        let dir = tempfile::tempdir().unwrap();
        let write = |rel: &str, bench: &str, median: f64| {
            let d = dir.path().join(rel).join("new");
            std::fs::create_dir_all(&d).unwrap();
            std::fs::write(d.join("benchmark.json"), bench).unwrap();
            std::fs::write(
                d.join("estimates.json"),
                format!("{{\"median\": {{\"point_estimate\": {median}}}, \"mean\": {{}}}}"),
            )
            .unwrap();
        };
        // 1 GiB in 0.5 s: 2 GiB/s.
        write(
            "count_cjk/utf8_codec__count",
            r#"{"group_id":"count/cjk","function_id":"utf8_codec::count","value_str":null,"throughput":{"Bytes":1073741824}}"#,
            5e8,
        );
        write(
            "validate_cjk/utf8_codec__valid_up_to/avx2",
            r#"{"group_id":"validate/cjk","function_id":"utf8_codec::valid_up_to","value_str":"avx2","throughput":{"Bytes":1048576}}"#,
            1e6,
        );
        let r = read_results(dir.path(), None).unwrap();
        assert_eq!(r.get("count/cjk", "utf8_codec::count"), Some(2.0));
        let v = r
            .get("validate/cjk", "utf8_codec::valid_up_to/avx2")
            .unwrap();
        assert!((v - 1e9 / 1024.0 / 1e6).abs() < 1e-9, "{v}");
        // Results older than the run are not taken.
        let later = SystemTime::now() + std::time::Duration::from_secs(3600);
        assert!(read_results(dir.path(), Some(later)).unwrap().0.is_empty());
    }
}
