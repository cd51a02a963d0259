//! The SVG charts beside the tables of BENCHMARKS.md (README shows them): horizontal bars, one
//! per row, drawn with plotters, a colour per series and a legend.

use std::path::Path;

use plotters::coord::Shift;
use plotters::coord::ranged1d::ValueFormatter;
use plotters::coord::ranged1d::{SegmentValue, SegmentedCoord};
use plotters::coord::types::RangedCoordusize;
use plotters::prelude::*;

/// One bar: its label (left of it), the series it belongs to (its colour) and its value.
#[derive(Clone, Debug, PartialEq)]
pub struct Bar {
    /// The text left of the bar.
    pub label: String,
    /// The series (one colour and one legend entry each).
    pub series: String,
    /// The bar's length.
    pub value: f64,
}

/// What a chart shows.
pub struct Chart<'a> {
    /// The title, above the bars.
    pub title: &'a str,
    /// The line under the title: the machine, the kernel, the command.
    pub caption: &'a str,
    /// What the horizontal axis measures.
    pub axis: &'a str,
    /// A logarithmic axis (ratios), else linear from 0.
    pub log: bool,
    /// A vertical line at this value (`1×` for ratios), if any.
    pub mark: Option<f64>,
    /// The bars, top to bottom.
    pub bars: &'a [Bar],
}

/// The colours of the series, in order of first appearance.
const PALETTE: [RGBColor; 8] = [
    RGBColor(0x1f, 0x77, 0xb4),
    RGBColor(0xff, 0x7f, 0x0e),
    RGBColor(0x2c, 0xa0, 0x2c),
    RGBColor(0xd6, 0x27, 0x28),
    RGBColor(0x94, 0x67, 0xbd),
    RGBColor(0x8c, 0x56, 0x4b),
    RGBColor(0xe3, 0x77, 0xc2),
    RGBColor(0x7f, 0x7f, 0x7f),
];

/// Height of one bar's row, in pixels.
const ROW: u32 = 18;

/// Writes `c` to `path` as SVG.
///
/// # Errors
///
/// When there is nothing to draw, a value is not finite and positive on a logarithmic axis,
/// or the file cannot be written.
pub fn write_svg(path: &Path, c: &Chart) -> Result<(), String> {
    if c.bars.is_empty() {
        return Err(format!("{}: no bars to draw", path.display()));
    }
    if c.log
        && c.bars
            .iter()
            .any(|b| !(b.value.is_finite() && b.value > 0.0))
    {
        return Err(format!("{}: a ratio that is not positive", path.display()));
    }
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let label_width = c.bars.iter().map(|b| b.label.len()).max().unwrap_or(0) as u32 * 7 + 20;
    let height = ROW * c.bars.len() as u32 + 130;
    let root = SVGBackend::new(path, (label_width + 720, height)).into_drawing_area();
    draw(&root, c, label_width).map_err(|e| format!("{}: {e}", path.display()))?;
    root.present()
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// The series in order of first appearance.
fn series(bars: &[Bar]) -> Vec<&str> {
    let mut names: Vec<&str> = Vec::new();
    for b in bars {
        if !names.contains(&b.series.as_str()) {
            names.push(&b.series);
        }
    }
    names
}

fn colour(names: &[&str], series: &str) -> RGBColor {
    let i = names.iter().position(|n| *n == series).unwrap_or(0);
    PALETTE[i % PALETTE.len()]
}

/// The rows of bars, top to bottom.
type Rows = SegmentedCoord<RangedCoordusize>;

fn draw(
    root: &DrawingArea<SVGBackend<'_>, Shift>,
    c: &Chart,
    label_width: u32,
) -> Result<(), Box<dyn std::error::Error>> {
    root.fill(&WHITE)?;
    let root = root.titled(c.title, ("sans-serif", 20))?;
    let (caption, plot) = root.split_vertically(22);
    caption.draw(&Text::new(
        c.caption,
        (10, 2),
        ("sans-serif", 13).into_font().color(&BLACK),
    ))?;
    let names = series(c.bars);
    let n = c.bars.len();
    let high = c
        .bars
        .iter()
        .map(|b| b.value)
        .fold(c.mark.unwrap_or(0.0), f64::max);
    let mut builder = ChartBuilder::on(&plot);
    builder
        .margin(10)
        .x_label_area_size(35)
        .y_label_area_size(label_width);
    let rows = (0..n).into_segmented();
    if c.log {
        let low = c
            .bars
            .iter()
            .map(|b| b.value)
            .fold(c.mark.unwrap_or(1.0), f64::min);
        // Room on the right for the legend.
        let (low, high) = (low / 1.5, high * 4.0);
        let mut chart = builder.build_cartesian_2d((low..high).log_scale(), rows)?;
        bars(&mut chart, c, &names, low, &|v| format!("{v:.2}×"))
    } else {
        let mut chart = builder.build_cartesian_2d(0.0..high * 1.4, rows)?;
        bars(&mut chart, c, &names, 0.0, &|v| format!("{v}"))
    }
}

/// The mesh, the labels, the bars from `from`, the mark and the legend of `c` on `chart`,
/// whose horizontal axis (linear or logarithmic) is labelled by `x_label`.
fn bars<'a, X>(
    chart: &mut ChartContext<'a, SVGBackend<'a>, Cartesian2d<X, Rows>>,
    c: &Chart,
    names: &[&str],
    from: f64,
    x_label: &dyn Fn(&f64) -> String,
) -> Result<(), Box<dyn std::error::Error>>
where
    X: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    let n = c.bars.len();
    // Row `n - 1` is at the top: the first bar is drawn there.
    let row = |i: usize| n - 1 - i;
    let label = |v: &SegmentValue<usize>| match v {
        SegmentValue::CenterOf(i) if *i < n => c.bars[row(*i)].label.clone(),
        _ => String::new(),
    };
    chart
        .configure_mesh()
        .disable_y_mesh()
        .y_labels(n)
        .y_label_formatter(&label)
        .x_desc(c.axis)
        .x_label_formatter(x_label)
        .draw()?;
    chart.draw_series(c.bars.iter().enumerate().map(|(i, b)| {
        let mut r = Rectangle::new(
            [
                (from, SegmentValue::Exact(row(i))),
                (b.value, SegmentValue::Exact(row(i) + 1)),
            ],
            colour(names, &b.series).filled(),
        );
        r.set_margin(2, 2, 0, 0);
        r
    }))?;
    if let Some(m) = c.mark {
        chart.draw_series(std::iter::once(PathElement::new(
            vec![(m, SegmentValue::Exact(0)), (m, SegmentValue::Exact(n))],
            BLACK.stroke_width(1),
        )))?;
    }
    legend(chart, names, from, n)
}

/// The legend: an invisible series per name, labelled, in the upper right corner.
fn legend<'a, X: Ranged<ValueType = f64>>(
    chart: &mut ChartContext<'a, SVGBackend<'a>, Cartesian2d<X, Rows>>,
    names: &[&str],
    x: f64,
    n: usize,
) -> Result<(), Box<dyn std::error::Error>> {
    for name in names {
        let c = colour(names, name);
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(x, SegmentValue::Exact(n)), (x, SegmentValue::Exact(n))],
                c,
            )))?
            .label(*name)
            .legend(move |(px, py)| Rectangle::new([(px, py - 5), (px + 12, py + 5)], c.filled()));
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::LowerRight)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .draw()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_bars_labels_and_legend() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.svg");
        let bars = [
            Bar {
                label: "count: wc -l".into(),
                series: "wc".into(),
                value: 1.8,
            },
            Bar {
                label: "grep: rg".into(),
                series: "rg".into(),
                value: 0.9,
            },
        ];
        let c = Chart {
            title: "Peers' time",
            caption: "AMD EPYC, avx512",
            axis: "peer time / ours",
            log: true,
            mark: Some(1.0),
            bars: &bars,
        };
        write_svg(&path, &c).unwrap();
        let svg = std::fs::read_to_string(&path).unwrap();
        for text in [
            "Peers&apos; time",
            "AMD EPYC, avx512",
            "count: wc -l",
            "grep: rg",
            "wc",
            "rg",
        ] {
            assert!(
                svg.contains(text) || svg.contains(&text.replace("&apos;", "'")),
                "{text}"
            );
        }
        assert!(svg.matches("<rect").count() >= 4, "{svg}");
        // The first bar is on top: its rectangle (the first series' colour) starts higher.
        let top = |fill: &str| -> u32 {
            let at = svg
                .find(&format!("fill=\"{fill}\""))
                .expect("a bar of that colour");
            let rect = &svg[svg[..at].rfind("<rect").expect("its rect")..at];
            let y = &rect[rect.find(" y=\"").expect("a y") + 4..];
            y[..y.find('"').expect("the y's end")]
                .parse()
                .expect("a number")
        };
        assert!(top("#1F77B4") < top("#FF7F0E"), "{svg}");
        let bad = [Bar {
            label: "x".into(),
            series: "s".into(),
            value: 0.0,
        }];
        assert!(write_svg(&path, &Chart { bars: &bad, ..c }).is_err());
    }
}
