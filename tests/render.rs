//! Charts: axes, the geometry of bars, cells and lines, hit-testing, the Gantt frame and raster,
//! the display list's hash, SVG output, and `schedlab run --plot`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use schedlab::calendar::days_from_civil;
use schedlab::engine::{simulate, EngineOptions};
use schedlab::metrics::categories::Grid;
use schedlab::metrics::{AccuracyHistogram, SeriesPoint};
use schedlab::policy::Configured;
use schedlab::render::axis::{linear_ticks, time_ticks, wait_ticks};
use schedlab::render::chart::{palette, series_colour, Chart, ChartOptions};
use schedlab::render::compare::{compare_chart, preferred_height, CompareChart, RunView, MAIN_METRICS};
use schedlab::render::display::{text_size, Colour, HAnchor, Primitive, VAnchor};
use schedlab::render::gantt::{gantt_frame, gantt_svg, Gantt};
use schedlab::trace::{parse, TraceOptions};

/// plotters' mapping of `v` in `[lo, hi]` onto pixels `a` (at lo) to `b` (at hi), as
/// `RangedCoordf64::map` computes it.
fn map(v: f64, lo: f64, hi: f64, a: i32, b: i32) -> i32 {
    let length = ((b - a) as f64) * (v - lo) / (hi - lo);
    if b > a {
        a + (length + 1e-3).floor() as i32
    } else {
        a + (length - 1e-3).ceil() as i32
    }
}

/// A run with the given metrics and series, the rest empty.
fn view(policy: &str, metrics: &[(&str, f64)], series: Vec<SeriesPoint>) -> RunView {
    RunView {
        policy: policy.to_string(),
        metrics: metrics.iter().map(|(k, v)| (k.to_string(), Some(*v))).collect::<BTreeMap<_, _>>(),
        stopped: None,
        clairvoyant: false,
        series,
        wait_quantiles: Vec::new(),
        categories: Grid { title: String::new(), rows: vec![], cols: vec![], count: vec![], value: vec![] },
        accuracy: AccuracyHistogram::default(),
    }
}

/// A flat series: `busy` processors and `queued` jobs in buckets of 100 s from 0 to 1000 s.
fn flat(busy: f64, queued: f64) -> Vec<SeriesPoint> {
    (0..10)
        .map(|k| SeriesPoint {
            time: k * 100,
            busy_avg: busy,
            busy_max: busy as u32,
            queued_avg: queued,
            queued_max: queued as u32,
            ..Default::default()
        })
        .collect()
}

fn opts(width: u32, height: u32) -> ChartOptions {
    ChartOptions { width, height, ..Default::default() }
}

/// The filled rectangles drawn in `colour`.
fn rects_of(chart: &Chart, colour: Colour) -> Vec<(i32, i32, i32, i32)> {
    chart
        .list
        .items
        .iter()
        .filter_map(|p| match p {
            Primitive::Rect { x0, y0, x1, y1, colour: c, fill: true, .. } if *c == colour => Some((*x0, *y0, *x1, *y1)),
            _ => None,
        })
        .collect()
}

/// The texts drawn below the plot (the x tick labels), left to right, with their x.
fn x_labels(chart: &Chart) -> Vec<(i32, String)> {
    let mut v: Vec<(i32, String)> = chart
        .list
        .items
        .iter()
        .filter_map(|p| match p {
            Primitive::Text { text, x, y, rotation: 0, .. }
                if *y > chart.plot.3 && *y < chart.plot.3 + 30 && *x >= chart.plot.0 - 20 =>
            {
                Some((*x, text.clone()))
            }
            _ => None,
        })
        .collect();
    v.sort();
    v
}

#[test]
fn linear_ticks_and_labels() {
    let t = linear_ticks(0.0, 40.0, 6);
    assert_eq!(
        t,
        vec![(0.0, "0".into()), (10.0, "10".into()), (20.0, "20".into()), (30.0, "30".into()), (40.0, "40".into())]
    );
    let t = linear_ticks(0.0, 250_000.0, 6);
    assert_eq!(t.last().unwrap(), &(250_000.0, "250,000".to_string()));
}

#[test]
fn log_wait_axis_ticks_are_round_durations() {
    let t = wait_ticks(1.0, 86_400.0, false);
    let labels: Vec<&str> = t.iter().map(|x| x.1.as_str()).collect();
    assert_eq!(labels, ["1 s", "10 s", "1 min", "10 min", "1 h", "1 d"]);
    assert_eq!(t[2].0, 60.0);
    let compact: Vec<String> = wait_ticks(1.0, 2_592_000.0, true).into_iter().map(|x| x.1).collect();
    assert_eq!(compact, ["1 s", "1 min", "1 h", "1 week"]);
}

#[test]
fn time_axis_labels_relative_days_and_dates() {
    // A week from trace time 0: one tick a day.
    let t = time_ticks(0.0, 7.0 * 86_400.0, 8, None);
    let labels: Vec<&str> = t.iter().map(|x| x.1.as_str()).collect();
    assert_eq!(labels, ["day 0", "day 1", "day 2", "day 3", "day 4", "day 5", "day 6", "day 7"]);
    // Half a day: every two hours, midnight named by its day.
    let t = time_ticks(86_400.0, 86_400.0 + 12.0 * 3600.0, 7, None);
    let labels: Vec<&str> = t.iter().map(|x| x.1.as_str()).collect();
    assert_eq!(labels, ["day 1", "02:00", "04:00", "06:00", "08:00", "10:00", "12:00"]);
    assert_eq!(t[1].0, 86_400.0 + 7200.0);
    // With a start time: UTC dates at midnight, the ticks in trace seconds.
    let start = days_from_civil(1996, 9, 23) * 86_400 + 5 * 3600; // 1996-09-23 05:00 UTC
    let t = time_ticks(0.0, 4.0 * 86_400.0, 6, Some(start));
    let labels: Vec<&str> = t.iter().map(|x| x.1.as_str()).collect();
    assert_eq!(labels, ["Sep 24", "Sep 25", "Sep 26", "Sep 27"]);
    assert_eq!(t[0].0, 19.0 * 3600.0);
    // Eleven months: calendar months, every second one.
    let t = time_ticks(0.0, 330.0 * 86_400.0, 8, Some(start));
    let labels: Vec<&str> = t.iter().map(|x| x.1.as_str()).collect();
    assert_eq!(labels, ["Nov 1996", "Jan 1997", "Mar 1997", "May 1997", "Jul 1997"]);
    assert_eq!(t[0].0, ((days_from_civil(1996, 11, 1) * 86_400) - start) as f64);
}

/// Three runs of a count metric: bars from the plot's left edge to each value, first run on top.
#[test]
fn bar_chart_geometry_and_hits() {
    let runs = vec![
        view("fcfs", &[("jobs_backfilled", 10.0)], vec![]),
        view("easy", &[("jobs_backfilled", 20.0)], vec![]),
        view("conservative", &[("jobs_backfilled", 40.0)], vec![]),
    ];
    let chart =
        compare_chart(&runs, &CompareChart::MetricBars { metric: "jobs_backfilled".into() }, &opts(640, 360)).unwrap();
    let (px0, py0, px1, py1) = chart.plot;
    // The value axis ends on its last tick label.
    let labels = x_labels(&chart);
    assert_eq!(labels.first().unwrap().1, "0");
    let xmax: f64 = labels.last().unwrap().1.replace(',', "").parse().unwrap();
    assert!(xmax >= 40.0, "{labels:?}");
    // Each policy in its own colour: conservative's is the fourth (easy++ takes the third).
    let own = [0, 1, 3];
    for (i, v) in [10.0, 20.0, 40.0].into_iter().enumerate() {
        let bars = rects_of(&chart, series_colour(own[i]));
        assert_eq!(bars.len(), 1, "one bar for run {i}");
        let (x0, y0, x1, y1) = bars[0];
        assert_eq!(x0, px0, "bars start at 0");
        assert_eq!(x1, map(v, 0.0, xmax, px0, px1 - 1), "bar {i} ends at its value");
        // Row i of 3, counted from the top.
        let centre = map(3.0 - i as f64 - 0.5, 0.0, 3.0, py1 - 1, py0);
        assert!(((y0 + y1) / 2 - centre).abs() <= 1, "bar {i} centred on its row");
        let hit = chart.hit(((x0 + x1) / 2) as f64, ((y0 + y1) / 2) as f64).expect("a bar under the pointer");
        assert_eq!(hit.series, i);
        assert_eq!(hit.rect, (x0, y0, x1, y1));
        assert!(hit.text.contains(&runs[i].policy) && hit.text.contains(&format!("{v}")), "{}", hit.text);
    }
    // Beside the shortest bar, but not on it: nothing.
    let (_, y0, x1, y1) = rects_of(&chart, series_colour(0))[0];
    assert!(chart.hit((x1 + 60) as f64, ((y0 + y1) / 2) as f64).is_none());
    assert!(chart.hit(5.0, 5.0).is_none());
    // The table holds the numbers.
    assert_eq!(chart.table.columns, ["policy", "Jobs backfilled"]);
    // Counts are whole, in the table too.
    assert_eq!(chart.table.rows[2], ["conservative", "40"]);
}

#[test]
fn heatmap_cells_are_hit_with_their_counts() {
    let mut r = view("easy", &[], vec![]);
    r.categories = Grid {
        title: "mean bounded slowdown".into(),
        rows: ["VS", "S", "L", "VL"].map(String::from).to_vec(),
        cols: ["Seq", "N", "W", "VW"].map(String::from).to_vec(),
        count: (0..4).map(|i| (0..4).map(|j| (i * 4 + j) as u64 * 10).collect()).collect(),
        value: (0..4).map(|i| (0..4).map(|j| 1.0 + (i * 4 + j) as f64).collect()).collect(),
    };
    let chart = compare_chart(&[r], &CompareChart::Categories { run: 0 }, &opts(640, 400)).unwrap();
    let (px0, py0, px1, py1) = chart.plot;
    // Row 1 (S), column 2 (W): x from 2 to 3 of 4, y from 3 down to 2 of 4.
    let (cx0, cx1) = (map(2.0, 0.0, 4.0, px0, px1 - 1), map(3.0, 0.0, 4.0, px0, px1 - 1));
    let (cy0, cy1) = (map(3.0, 0.0, 4.0, py1 - 1, py0), map(2.0, 0.0, 4.0, py1 - 1, py0));
    let hit = chart.hit(((cx0 + cx1) / 2) as f64, ((cy0 + cy1) / 2) as f64).expect("a cell");
    assert_eq!(hit.index, 4 + 2);
    assert_eq!(hit.rect, (cx0, cy0, cx1, cy1));
    assert!(hit.text.contains("S × W") && hit.text.contains("7.00") && hit.text.contains("60 jobs"), "{}", hit.text);
    // The empty cell (0 jobs) says so.
    let first = chart.hit((px0 + 3) as f64, (py0 + 3) as f64).expect("top-left cell");
    assert_eq!(first.index, 0);
    assert!(first.text.contains("no jobs"), "{}", first.text);
    assert_eq!(chart.table.rows.len(), 16);
    assert_eq!(chart.table.rows[6], ["S", "W", "60", "7.000"]);
}

#[test]
fn line_chart_hits_the_nearest_point_within_reach() {
    let runs = vec![view("fcfs", &[], flat(10.0, 0.0)), view("easy", &[], flat(30.0, 0.0))];
    let chart = compare_chart(&runs, &CompareChart::Busy, &opts(640, 360)).unwrap();
    // Each bucket is drawn at its middle: the point of bucket 5 of run 1 is at (550, 30).
    let points: Vec<_> = chart.hits.iter().filter(|h| h.series == 1 && h.index == 5).collect();
    assert_eq!(points.len(), 1);
    let (x, y, _, _) = points[0].rect;
    let hit = chart.hit(x as f64 + 3.0, y as f64 - 4.0).expect("near the point");
    assert_eq!((hit.series, hit.index), (1, 5));
    assert!(hit.text.starts_with("easy: 30 busy processors at day 0 00:09"), "{}", hit.text);
    // Halfway between the two lines (20 busy), far from both: nothing.
    let fcfs_y = chart.hits.iter().find(|h| h.series == 0 && h.index == 5).unwrap().rect.1;
    assert!((fcfs_y - y) > 40);
    assert!(chart.hit(x as f64, ((fcfs_y + y) / 2) as f64).is_none());
    // A line per run in its colour.
    for i in 0..2 {
        let c = series_colour(i);
        assert!(chart
            .list
            .items
            .iter()
            .any(|p| matches!(p, Primitive::Path { colour, points, .. } if *colour == c && points.len() >= 10)));
    }
    // The window keeps only what is in it.
    let zoom = ChartOptions { x_range: Some((200.0, 400.0)), ..opts(640, 360) };
    let chart = compare_chart(&runs, &CompareChart::Busy, &zoom).unwrap();
    let idx: Vec<usize> = chart.hits.iter().filter(|h| h.series == 0).map(|h| h.index).collect();
    assert_eq!(idx, vec![1, 2, 3, 4]); // the cut at 200 (bucket 1's segment), 250, 350, the cut at 400
    assert_eq!(chart.table.columns, ["time", "fcfs", "easy"]);
}

#[test]
fn highlight_draws_the_series_on_top_and_names_it() {
    let runs: Vec<RunView> = (0..5).map(|i| view(&format!("p{i}"), &[], flat(10.0 * i as f64, 1.0))).collect();
    let chart =
        compare_chart(&runs, &CompareChart::Busy, &ChartOptions { highlight: Some(2), ..opts(640, 360) }).unwrap();
    let paths: Vec<(Colour, u32)> = chart
        .list
        .items
        .iter()
        .filter_map(|p| match p {
            Primitive::Path { colour, width, points } if points.len() >= 10 => Some((*colour, *width)),
            _ => None,
        })
        .collect();
    assert_eq!(paths.len(), 5);
    let (last, width) = *paths.last().unwrap();
    assert_eq!((last.r, last.g, last.b, last.a), (palette(2).0, palette(2).1, palette(2).2, 255));
    assert_eq!(width, 3);
    assert!(paths[..4].iter().all(|(c, w)| c.a < 255 && *w < 3), "the others are faded");
    assert!(chart.list.items.iter().any(|p| matches!(p, Primitive::Text { text, bold: true, .. } if text == "p2")));
}

#[test]
fn many_series_keep_the_plot_and_name_every_run() {
    let runs: Vec<RunView> = (0..9).map(|i| view(&format!("policy-number-{i}"), &[], flat(i as f64, 1.0))).collect();
    let which = CompareChart::Queue;
    let few = compare_chart(&runs[..2], &which, &opts(390, 230)).unwrap();
    // However many rows the legend takes, the plot keeps its height at the preferred height.
    let narrow = |n: usize| {
        let o = opts(390, 230);
        let h = preferred_height(&runs[..n], &which, &o).unwrap().max(230);
        compare_chart(&runs[..n], &which, &opts(390, h)).unwrap()
    };
    let height = |c: &Chart| c.plot.3 - c.plot.1;
    let many = narrow(9);
    assert!(many.height > 230, "the chart asks for room for its legend: {}", many.height);
    assert!(height(&many) >= height(&few), "{} vs {}", height(&many), height(&few));
    let texts = many.list.texts();
    for r in &runs {
        assert!(texts.contains(&r.policy.as_str()), "{} in the legend", r.policy);
    }
    assert!(!texts.iter().any(|t| t.contains(" more")), "{texts:?}");
}

/// Machine 4: job 1 on processors 0-1 over [0, 100), job 2 on all four over [100, 150).
fn small_gantt() -> Gantt {
    let swf = "; MaxProcs: 4\n1 0 -1 100 2 -1 -1 2 100 -1 1 1 1 -1 1 -1 -1 -1\n2 0 -1 50 4 -1 -1 4 50 -1 1 2 1 -1 1 -1 -1 -1\n";
    let trace = parse(swf.as_bytes(), &TraceOptions::default()).unwrap();
    let mut p = Configured::new("fcfs", &[]).unwrap().build(&trace);
    let out = simulate(&trace, p.as_mut(), &EngineOptions { placements: true, ..Default::default() });
    Gantt::new(&trace, &out)
}

#[test]
fn gantt_frame_and_raster_line_up() {
    let g = small_gantt();
    let chart = gantt_frame(&g, "fcfs: schedule", &opts(640, 360));
    let (x0, y0, x1, y1) = chart.plot;
    let (w, h) = ((x1 - x0) as u32, (y1 - y0) as u32);
    assert!(w > 400 && h > 150, "{:?}", chart.plot);
    // The raster of the plot area: job 2 runs from 100 s of [0, 150), over every processor.
    let px = g.render(0.0, 150.0, w, h);
    let at = |x: u32, y: u32| px[((y * w + x) * 4) as usize..((y * w + x) * 4 + 4) as usize].to_vec();
    let first_col = (100.0 * w as f64 / 150.0).floor() as u32;
    let white = vec![255u8; 4];
    assert_ne!(at(first_col, h - 1), white, "job 2 starts at column {first_col}");
    assert_eq!(at(first_col - 1, h - 1), white, "processor 3 is idle before 100 s");
    assert_ne!(at(first_col - 1, 0), white, "job 1 holds processor 0 before 100 s");
    // The time axis puts 100 s where the raster's column starts (within plotters' rounding).
    let tick = x_labels(&chart);
    assert!(!tick.is_empty());
    let frame_x = map(100.0, 0.0, 150.0, x0, x1 - 1);
    assert!((frame_x - (x0 + first_col as i32)).abs() <= 1);
    // Processor 0 at the top: its tick label sits at the plot's top edge.
    let zero = chart.list.items.iter().find_map(|p| match p {
        Primitive::Text { text, x, y, .. } if text == "0" && *x < x0 => Some(*y),
        _ => None,
    });
    assert_eq!(zero, Some(y0));
    // The highlighted job is outlined in black.
    let hl = g.render_highlighted(0.0, 150.0, w, h, Some(1));
    assert_eq!(hl[((h - 1) * w + first_col) as usize * 4..][..4], [0, 0, 0, 255]);
    // Natively, the SVG embeds the raster over the plot area.
    let svg = gantt_svg(&g, "fcfs: schedule", &opts(640, 360));
    assert!(svg.contains(&format!("<image x=\"{x0}\" y=\"{y0}\" width=\"{w}\" height=\"{h}\"")));
    assert!(svg.contains("data:image/png;base64,iVBORw0KGgo"));
}

fn hash_runs() -> Vec<RunView> {
    vec![
        view("fcfs", &[("avg_wait_s", 7200.0)], flat(50.0, 3.0)),
        view("easy", &[("avg_wait_s", 1800.0)], flat(60.0, 1.0)),
    ]
}

#[test]
fn hash_is_stable_and_follows_the_data() {
    let which = CompareChart::MetricBars { metric: "avg_wait_s".into() };
    let a = compare_chart(&hash_runs(), &which, &opts(400, 240)).unwrap();
    let b = compare_chart(&hash_runs(), &which, &opts(400, 240)).unwrap();
    assert_eq!(a.hash(), b.hash());
    assert_eq!(a.hash().len(), 16);
    // Pinned: any change to the geometry, colours or text of this small chart shows here.
    assert_eq!(a.hash(), "42c8b201d04c318a");
    let mut changed = hash_runs();
    changed[1].metrics.insert("avg_wait_s".into(), Some(1900.0));
    assert_ne!(compare_chart(&changed, &which, &opts(400, 240)).unwrap().hash(), a.hash());
    let busy = compare_chart(&hash_runs(), &CompareChart::Busy, &opts(400, 240)).unwrap();
    assert_eq!(busy.hash(), "92a84d9f4eca5015");
}

/// Tags open and close in order (a small well-formedness check without an XML parser).
fn assert_balanced(svg: &str) {
    let mut stack: Vec<String> = Vec::new();
    let mut rest = svg;
    while let Some(i) = rest.find('<') {
        rest = &rest[i + 1..];
        let end = rest.find('>').expect("tag closes");
        let tag = &rest[..end];
        rest = &rest[end + 1..];
        if tag.starts_with('?') || tag.starts_with('!') || tag.ends_with('/') {
            continue;
        }
        if let Some(name) = tag.strip_prefix('/') {
            assert_eq!(stack.pop().as_deref(), Some(name), "closing {name}");
        } else {
            stack.push(tag.split_whitespace().next().unwrap().to_string());
        }
    }
    assert!(stack.is_empty(), "unclosed {stack:?}");
}

#[test]
fn svg_names_every_series_and_draws_each() {
    let runs = hash_runs();
    let busy = compare_chart(&runs, &CompareChart::Busy, &opts(640, 360)).unwrap();
    let svg = busy.svg();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    assert!(svg.contains("viewBox=\"0 0 640 360\""));
    assert_balanced(&svg);
    for (i, r) in runs.iter().enumerate() {
        assert!(
            svg.contains(&format!(">\n{}\n</text>", r.policy)) || svg.contains(&format!(">{}<", r.policy)),
            "{}",
            r.policy
        );
        let (red, green, blue) = palette(i);
        let colour = format!("#{red:02X}{green:02X}{blue:02X}");
        assert!(
            svg.contains(&format!("<polyline fill=\"none\" opacity=\"1\" stroke=\"{colour}\"")),
            "line of {colour}"
        );
    }
    let bars =
        compare_chart(&runs, &CompareChart::MetricBars { metric: "avg_wait_s".into() }, &opts(640, 360)).unwrap();
    let svg = bars.svg();
    assert_balanced(&svg);
    for i in 0..runs.len() {
        let (red, green, blue) = palette(i);
        assert!(svg.contains(&format!("fill=\"#{red:02X}{green:02X}{blue:02X}\"")), "bar {i}");
    }
    // Text sizes are CSS pixels in the SVG too (plotters writes size / 1.24).
    assert!(svg.contains("font-size=\"15\""), "the title at 15 px");
}

#[test]
fn every_compare_chart_draws_for_real_runs() {
    let swf = "; MaxProcs: 4\n1 0 -1 100 2 -1 -1 2 100 -1 1 7 1 -1 1 -1 -1 -1\n2 10 -1 50 4 -1 -1 4 50 -1 1 8 1 -1 1 -1 -1 -1\n3 20 -1 30 2 -1 -1 2 40 -1 1 7 1 -1 2 -1 -1 -1\n4 30 -1 10 1 -1 -1 1 10 -1 1 9 1 -1 1 -1 -1 -1\n";
    let trace = parse(swf.as_bytes(), &TraceOptions::default()).unwrap();
    // As the page runs them: every observer attached, so the accuracy histogram has data.
    let settings = schedlab::run::Settings::parse(&["observe=all"]).unwrap();
    let views: Vec<RunView> = schedlab::run::configure("fcfs,easy", &settings)
        .unwrap()
        .iter()
        .map(|cfg| {
            let (out, res) = schedlab::run::run_one(&trace, cfg, &settings);
            RunView::new(&trace, &out, &res, settings.metrics.tau, 400)
        })
        .collect();
    assert_eq!(views[0].wait_quantiles.len(), 201);
    assert_eq!(views[0].metric("avg_wait_s"), Some(85.0)); // fcfs: waits 0, 90, 130, 120
                                                           // The views cross the wasm boundary as JSON and come back the same.
    let json = serde_json::to_string(&views).unwrap();
    let back: Vec<RunView> = serde_json::from_str(&json).unwrap();
    assert_eq!(back.len(), 2);
    assert_eq!(
        (&back[1].policy, &back[1].wait_quantiles, &back[1].categories.count),
        (&views[1].policy, &views[1].wait_quantiles, &views[1].categories.count)
    );
    assert_eq!(back[1].series.len(), views[1].series.len());
    let kinds: Vec<CompareChart> = MAIN_METRICS
        .iter()
        .map(|m| CompareChart::MetricBars { metric: m.to_string() })
        .chain([
            CompareChart::WaitCdf,
            CompareChart::Busy,
            CompareChart::Queue,
            CompareChart::Categories { run: 1 },
            CompareChart::Accuracy { run: 0 },
        ])
        .collect();
    for k in &kinds {
        let c = compare_chart(&views, k, &ChartOptions::default()).unwrap_or_else(|e| panic!("{k:?}: {e}"));
        assert_eq!((c.width, c.height), (640, 360));
        assert!(!c.hits.is_empty(), "{k:?} has something to point at");
        assert!(!c.table.rows.is_empty(), "{k:?} has numbers");
        let compact =
            compare_chart(&views, k, &ChartOptions { compact: true, width: 300, height: 200, ..Default::default() });
        assert!(compact.is_ok(), "{k:?} compact");
    }
    // The kinds read from the page's JSON.
    let k: CompareChart = serde_json::from_str(r#"{"kind": "metric-bars", "metric": "avg_bsld"}"#).unwrap();
    assert_eq!(k, CompareChart::MetricBars { metric: "avg_bsld".into() });
    let k: CompareChart = serde_json::from_str(r#"{"kind": "wait-cdf"}"#).unwrap();
    assert_eq!(k, CompareChart::WaitCdf);
    let o: ChartOptions = serde_json::from_str(r#"{"width": 300, "x_range": [0, 10], "compact": true}"#).unwrap();
    assert_eq!((o.width, o.height, o.x_range, o.compact), (300, 0, Some((0.0, 10.0)), true));
    assert!(compare_chart(&views, &CompareChart::Categories { run: 5 }, &ChartOptions::default()).is_err());
    assert!(compare_chart(&[], &CompareChart::WaitCdf, &ChartOptions::default()).is_err());
}

/// A scratch directory removed when dropped.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn scratch(name: &str) -> Scratch {
    let d = std::env::temp_dir().join(format!("schedlab-render-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    Scratch(d)
}

/// Runs `schedlab run TRACE --policy POLICIES --plot DIR` and checks every picture.
fn plot_run(trace: &str, policies: &[&str], dir: &Path) {
    let plots = dir.join("plots");
    let o = Command::new(env!("CARGO_BIN_EXE_schedlab"))
        .args(["run", trace, "--policy", &policies.join(","), "--plot", plots.to_str().unwrap()])
        .output()
        .expect("schedlab runs");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    let mut stems: Vec<String> = MAIN_METRICS.iter().map(|m| format!("compare-{m}")).collect();
    stems.extend(["wait-cdf", "busy", "queue"].map(String::from));
    for p in policies {
        stems.push(format!("categories-{p}"));
        stems.push(format!("gantt-{p}"));
    }
    for stem in &stems {
        let svg_path = plots.join(format!("{stem}.svg"));
        assert!(err.contains(&format!("wrote {}", svg_path.display())), "{stem} on stderr: {err}");
        let svg = std::fs::read_to_string(&svg_path).unwrap_or_else(|e| panic!("{stem}.svg: {e}"));
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"), "{stem}");
        assert_balanced(&svg);
        let named: Vec<&&str> = match stem.split_once('-') {
            Some(("categories" | "gantt", p)) => policies.iter().filter(|x| **x == p).collect(),
            _ => policies.iter().collect(),
        };
        for p in named {
            assert!(svg.contains(&format!("{p}\n</text>")) || svg.contains(&format!("{p}: ")), "{stem} names {p}");
        }
        let png = std::fs::read(plots.join(format!("{stem}.png"))).unwrap();
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "{stem}.png");
        // 800 x 450 in the IHDR chunk.
        assert_eq!(&png[16..24], &[0, 0, 3, 0x20, 0, 0, 1, 0xc2], "{stem}.png size");
    }
    assert!(std::fs::read_to_string(plots.join(format!("gantt-{}.svg", policies[0]))).unwrap().contains("<image "));
}

#[test]
fn cli_plot_writes_every_picture() {
    let d = scratch("small");
    let trace = d.0.join("t.swf");
    std::fs::write(
        &trace,
        "; MaxProcs: 4\n1 0 -1 100 2 -1 -1 2 100 -1 1 7 1 -1 1 -1 -1 -1\n2 10 -1 50 4 -1 -1 4 50 -1 1 8 1 -1 1 -1 -1 -1\n3 20 -1 30 2 -1 -1 2 40 -1 1 7 1 -1 2 -1 -1 -1\n4 30 -1 10 1 -1 -1 1 10 -1 1 9 1 -1 1 -1 -1 -1\n",
    )
    .unwrap();
    plot_run(trace.to_str().unwrap(), &["fcfs", "easy"], &d.0);
}

#[test]
fn cli_plot_on_kth() {
    let d = scratch("kth");
    let kth = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/traces/KTH-SP2-1996-2.1-cln.swf.gz");
    plot_run(kth, &["fcfs", "easy"], &d.0);
    // Plotting records processor placements, which changes no schedule, and observes what the
    // page shows, as `observe=all` does.
    let plain = Command::new(env!("CARGO_BIN_EXE_schedlab"))
        .args(["run", kth, "--policy", "fcfs,easy", "--format", "json", "--set", "observe=all"])
        .output()
        .unwrap();
    let with = Command::new(env!("CARGO_BIN_EXE_schedlab"))
        .args(["run", kth, "--policy", "fcfs,easy", "--format", "json", "--plot", d.0.join("again").to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&plain.stdout), String::from_utf8_lossy(&with.stdout));
}

#[test]
fn stopped_runs_are_marked_and_missing_values_said() {
    let mut runs = hash_runs();
    runs[1].stopped = Some("stopped at the time budget of 1 s".into());
    runs.push(view("sjf", &[], vec![]));
    let chart =
        compare_chart(&runs, &CompareChart::MetricBars { metric: "avg_wait_s".into() }, &opts(640, 360)).unwrap();
    let texts: Vec<&str> = chart.list.texts();
    assert!(texts.contains(&"easy (stopped)"), "{texts:?}");
    assert!(texts.contains(&"n/a"), "a run without the metric says so");
    assert!(texts.iter().any(|t| t.contains("faded bars: runs stopped early")));
    // The stopped run's bar is faded and outlined.
    let c = series_colour(1);
    assert!(chart
        .list
        .items
        .iter()
        .any(|p| matches!(p, Primitive::Rect { colour, fill: true, .. } if colour.r == c.r && colour.a < 255)));
    assert!(chart.list.items.iter().any(|p| matches!(p, Primitive::Rect { colour, fill: false, .. } if *colour == c)));
    let hit = chart.hits.iter().find(|h| h.series == 1).unwrap();
    assert!(hit.text.contains("stopped at the time budget"), "{}", hit.text);
    assert_eq!(chart.table.columns, ["policy", "Mean wait (hours)", "note"]);
    assert_eq!(chart.table.rows[2], ["sjf", "n/a", ""]);
}

/// The studies' `--plot DIR` writes their main figures.
#[test]
fn study_plots_are_written() {
    let d = scratch("studies");
    let trace = d.0.join("small.swf");
    std::fs::write(
        &trace,
        "; MaxProcs: 4\n1 0 -1 100 2 -1 -1 2 100 -1 1 7 1 -1 1 -1 -1 -1\n2 10 -1 50 4 -1 -1 4 50 -1 1 8 1 -1 1 -1 -1 -1\n3 20 -1 30 2 -1 -1 2 40 -1 1 7 1 -1 2 -1 -1 -1\n4 30 -1 10 1 -1 -1 1 10 -1 1 9 1 -1 1 -1 -1 -1\n",
    )
    .unwrap();
    let plots = d.0.join("plots");
    for (cmd, stems) in [
        ("lawson", vec!["lawson-small-r"]),
        ("kettimuthu", vec!["kettimuthu-small-categories", "kettimuthu-small-loads"]),
        ("leung", vec!["leung-1-small-fst-by-width"]),
    ] {
        let o = Command::new(env!("CARGO_BIN_EXE_schedlab"))
            .args([cmd, trace.to_str().unwrap(), "--plot", plots.to_str().unwrap()])
            .output()
            .unwrap();
        assert!(o.status.success(), "{cmd}: {}", String::from_utf8_lossy(&o.stderr));
        for stem in stems {
            let svg =
                std::fs::read_to_string(plots.join(format!("{stem}.svg"))).unwrap_or_else(|e| panic!("{stem}: {e}"));
            assert_balanced(&svg);
            assert!(svg.contains("small"), "{stem} names the trace");
            assert_eq!(&std::fs::read(plots.join(format!("{stem}.png"))).unwrap()[..4], b"\x89PNG");
        }
    }
}

/// The studies' chart specs, as the page sends them (JSON), each drawn with its hit regions,
/// its numbers and a well-formed SVG; the hash follows the data.
#[test]
fn study_specs_from_the_pages_json_draw() {
    use schedlab::render::generic::{draw, Spec};
    let specs = [
        (
            r#"{"kind": "heatmaps", "labels": {"title": "Average bsld, all jobs", "x": "processors", "y": "runtime",
                "log": true, "value": "average bounded slowdown"}, "rows": ["VS", "S"], "cols": ["Seq", "N"],
                "panels": [{"name": "NS", "values": [[1.5, 12], [null, 3]], "counts": [[10, 4], [0, 2]]},
                           {"name": "IS", "values": [[1.1, 2], [null, 30]], "counts": [[10, 4], [0, 2]]}]}"#,
            "IS: S × N: average bounded slowdown 30 over 2 jobs",
            vec!["runtime", "processors", "jobs", "NS", "IS"],
        ),
        (
            r#"{"kind": "heatmap", "labels": {"title": "Processor-hours", "value": "processor-hours"},
                "rows": ["0-1 h", "1-4 h"], "cols": ["1", "2", "3-4"], "values": [[1, 2, 3], [40, 50, null]],
                "counts": [[1, 2, 3], [4, 5, 0]], "range": [1, 100]}"#,
            "1-4 h × 2: processor-hours 50 over 5 jobs",
            vec!["row", "column", "jobs", "processor-hours"],
        ),
        (
            r#"{"kind": "bars", "labels": {"title": "Loss of capacity (Fig. 13)", "x": "loss of capacity", "y": "policy",
                "value": "loss of capacity"}, "bars": [{"name": "cons.nomax", "value": 0.1348, "colour": 5},
                {"name": "consdyn.72max", "value": 0.272, "colour": 8}]}"#,
            "consdyn.72max: loss of capacity 0.272",
            vec!["policy", "loss of capacity"],
        ),
        (
            r#"{"kind": "error-bars", "labels": {"title": "Degradation by window (Fig. 10)", "x": "window", "unit": "%",
                "count": "configurations"}, "categories": ["1", "2"],
                "series": [{"name": "easy++", "means": [4.5, 5.75], "spreads": [0.25, 1], "counts": [2, 2]}]}"#,
            "easy++, window 2: 5.75% ± 1.00% over 2 configurations",
            vec!["window", "mean", "±", "configurations"],
        ),
        (
            r#"{"kind": "lines", "labels": {"title": "Total wait against ω", "x": "ω", "unit": " h"}, "xs": [0, 1, 2],
                "x_labels": ["0", "4", "∞"], "series": [{"name": "Est", "values": [300, 120, 100]},
                {"name": "Act", "values": [250, 90, 95], "pale": true}]}"#,
            "Act at ω = ∞: 95.0 h",
            vec!["ω", "Est", "Act"],
        ),
        (
            r#"{"kind": "lines", "labels": {"title": "R over time (Figs. 4, 7, 9)", "y": "R"}, "xs": [3600, 90000],
                "x_scale": "time", "series": [{"name": "load 1", "values": [0.25, -0.5], "colour": 0}]}"#,
            "load 1 at day 1 01:00: -0.500",
            vec!["time since the trace's start", "load 1"],
        ),
        (
            r#"{"kind": "grouped-bars", "labels": {"title": "R per class (Figs. 3, 5)", "x": "jobs", "value": "R"},
                "categories": ["all", "short"], "series": [{"name": "load 1 high", "values": [0.5, -0.25], "colour": 1},
                {"name": "load 1 low", "values": [-0.125, null], "colour": 1, "pale": true}]}"#,
            "load 1 low, all: -0.125",
            vec!["jobs", "load 1 high", "load 1 low"],
        ),
    ];
    for (json, said, columns) in specs {
        let spec: Spec = serde_json::from_str(json).unwrap_or_else(|e| panic!("{e}: {json}"));
        let chart = draw(&spec, &opts(640, 360)).unwrap();
        let hit = chart.hits.iter().find(|h| h.text == said).unwrap_or_else(|| {
            panic!("no hit says {said:?}: {:?}", chart.hits.iter().map(|h| &h.text).collect::<Vec<_>>())
        });
        // The pointer in the middle of the region (or on the point) finds it.
        let (x, y) = (((hit.rect.0 + hit.rect.2) / 2) as f64, ((hit.rect.1 + hit.rect.3) / 2) as f64);
        assert_eq!(chart.hit(x, y).map(|h| h.text.as_str()), Some(said));
        assert_eq!(chart.table.columns, columns);
        assert_balanced(&chart.svg());
        // The same spec draws the same picture; other numbers another.
        assert_eq!(draw(&spec, &opts(640, 360)).unwrap().hash(), chart.hash());
        let changed: Spec = serde_json::from_str(&json.replacen('5', "6", 1)).unwrap();
        assert_ne!(draw(&changed, &opts(640, 360)).unwrap().hash(), chart.hash(), "{json}");
    }
}

/// Bars by name: exactly from the plot's left edge to each value, in the colour each names.
#[test]
fn bars_by_name_geometry() {
    use schedlab::render::generic::{bars, Bar, Labels};
    let items: Vec<Bar> = [("a", 25.0, 3), ("b", 50.0, 4), ("c", 100.0, 5)]
        .into_iter()
        .map(|(n, v, c)| Bar { name: n.into(), value: Some(v), colour: Some(c) })
        .collect();
    let said = ["a: share 25.0%", "b: share 50.0%", "c: share 100%"];
    let labels = Labels { x: "share".into(), unit: "%".into(), ..Default::default() };
    let chart = bars(&labels, &items, &opts(640, 300)).unwrap();
    let (px0, py0, px1, py1) = chart.plot;
    let labels_x = x_labels(&chart);
    let xmax: f64 = labels_x.last().unwrap().1.replace(',', "").parse().unwrap();
    assert!(xmax >= 100.0, "{labels_x:?}");
    for (i, b) in items.iter().enumerate() {
        let r = rects_of(&chart, series_colour(b.colour.unwrap()));
        assert_eq!(r.len(), 1, "bar {i}");
        assert_eq!(r[0].0, px0);
        assert_eq!(r[0].2, map(b.value.unwrap(), 0.0, xmax, px0, px1 - 1), "bar {i} ends at its value");
        let centre = map(3.0 - i as f64 - 0.5, 0.0, 3.0, py1 - 1, py0);
        assert!(((r[0].1 + r[0].3) / 2 - centre).abs() <= 1, "bar {i} centred on its row");
        assert_eq!(chart.hits[i].text, said[i]);
    }
    assert_eq!(chart.table.rows, [["a", "25"], ["b", "50"], ["c", "100"]]);
}

/// The studies' --plot draws the page's figures of the same numbers, and `sweep --plot` Fig. 10.
#[test]
fn study_plots_draw_the_pages_figures() {
    let d = scratch("study-figures");
    let trace = d.0.join("small.swf");
    std::fs::write(
        &trace,
        "; MaxProcs: 4\n; UnixStartTime: 844041600\n1 0 -1 100 2 -1 -1 2 100 -1 1 7 1 -1 1 -1 -1 -1\n2 10 -1 50 4 -1 -1 4 50 -1 1 8 1 -1 1 -1 -1 -1\n3 20 -1 30 2 -1 -1 2 40 -1 1 7 1 -1 2 -1 -1 -1\n4 30 -1 10 1 -1 -1 1 10 -1 1 9 1 -1 1 -1 -1 -1\n",
    )
    .unwrap();
    let plots = d.0.join("plots");
    let t = trace.to_str().unwrap();
    for (args, stems) in [
        (vec!["lawson", t], vec!["lawson-small-r-classes", "lawson-small-r-priority", "lawson-small-transient"]),
        (
            vec!["kettimuthu", t, "--loads", "1.0,1.3"],
            vec!["kettimuthu-small-categories", "kettimuthu-small-worst", "kettimuthu-small-utilization"],
        ),
        (
            vec!["leung", t],
            vec![
                "leung-1-small-missed",
                "leung-1-small-miss",
                "leung-1-small-turnaround",
                "leung-1-small-loss-of-capacity",
            ],
        ),
        (vec!["sweep", t, "--vary", "window=1-3"], vec!["sweep-window"]),
    ] {
        let o = Command::new(env!("CARGO_BIN_EXE_schedlab"))
            .args(&args)
            .args(["--plot", plots.to_str().unwrap()])
            .output()
            .unwrap();
        assert!(o.status.success(), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
        let hashes: BTreeMap<String, String> =
            serde_json::from_str(&std::fs::read_to_string(plots.join("hashes.json")).unwrap()).unwrap();
        for stem in stems {
            let svg =
                std::fs::read_to_string(plots.join(format!("{stem}.svg"))).unwrap_or_else(|e| panic!("{stem}: {e}"));
            assert_balanced(&svg);
            assert!(svg.contains("small") || stem.starts_with("sweep"), "{stem} names the trace");
            assert_eq!(&std::fs::read(plots.join(format!("{stem}.png"))).unwrap()[..4], b"\x89PNG");
            assert_eq!(hashes.get(stem).map(String::len), Some(16), "{stem} in hashes.json");
        }
    }
    // Dates on the transient chart's axis, from the trace's start (1996-09-30).
    let transient = std::fs::read_to_string(plots.join("lawson-small-transient.svg")).unwrap();
    assert!(transient.contains("date (UTC)"), "the time axis is dated");
    let sweep = std::fs::read_to_string(plots.join("sweep-window.svg")).unwrap();
    assert!(sweep.contains("window") && sweep.contains("easy++"));
}

/// `n` runs named after the catalogue's policies, with made-up but plausible numbers: waits
/// spread over decades, busy processors and queues that differ from run to run.
fn many_runs(n: usize) -> Vec<RunView> {
    let names: Vec<&str> = schedlab::policy::POLICIES.iter().map(|p| p.name).filter(|p| *p != "custom").collect();
    let frac = |x: f64| x - x.floor();
    (0..n)
        .map(|i| {
            let f = i as f64;
            let (a, b, c) = (frac(f * 0.618), frac(f * 0.377 + 0.2), frac(f * 0.271 + 0.5));
            let zero = 0.15 + 0.35 * a;
            let (mu, sigma) = ((300.0f64).ln() + 3.0 * b, 1.0 + 1.5 * c);
            let wait_quantiles: Vec<i64> = (0..=200)
                .map(|k| {
                    let p = k as f64 / 200.0;
                    if p <= zero {
                        return 0;
                    }
                    let p = ((p - zero) / (1.0 - zero)).clamp(0.001, 0.999);
                    (mu + sigma * 0.6 * (p / (1.0 - p)).ln()).exp().round() as i64
                })
                .collect();
            let series: Vec<SeriesPoint> = (0..400)
                .map(|k| {
                    let t = k as f64 / 400.0;
                    let wave = (t * 40.0 + f).sin() * 0.5 + 0.5;
                    let busy = (60.0 + 35.0 * wave * (0.6 + 0.4 * a) + 5.0 * (t * 300.0 * (1.0 + b)).sin()).min(100.0);
                    let queued = (30.0 * (1.0 - wave) * (0.5 + c) + 8.0 * (t * 170.0 + f).sin()).max(0.0);
                    SeriesPoint {
                        time: k * 71_280,
                        busy_avg: busy,
                        busy_max: busy.ceil() as u32,
                        queued_avg: queued,
                        queued_max: queued.ceil() as u32,
                        ..Default::default()
                    }
                })
                .collect();
            let mut r = view(
                names[i % names.len()],
                &[
                    ("avg_wait_s", 1800.0 + 40_000.0 * a * a),
                    ("avg_bsld", 2.0 + 300.0 * b.powi(3)),
                    ("p95_wait_s", 20_000.0 + 200_000.0 * c),
                    ("utilization", 0.6 + 0.15 * a),
                    ("jobs_backfilled", (82.0 + 3000.0 * b * b).round()),
                ],
                series,
            );
            r.wait_quantiles = wait_quantiles;
            r.categories = Grid {
                title: "mean bounded slowdown".into(),
                rows: ["VS", "S", "L", "VL"].map(String::from).to_vec(),
                cols: ["Seq", "N", "W", "VW"].map(String::from).to_vec(),
                count: (0..4)
                    .map(|i| (0..4).map(|j| ((i * 4 + j) as u64 * 137 * (i as u64 + 1)) % 4000).collect())
                    .collect(),
                value: (0..4).map(|i| (0..4).map(|j| 1.0 + (i * 4 + j) as f64 * (1.0 + 20.0 * b)).collect()).collect(),
            };
            r.accuracy = AccuracyHistogram {
                all: (0..20).map(|k| ((k * 37 + i * 11) % 90) as u64 + if k == 19 { 400 } else { 0 }).collect(),
                without_killed: (0..20).map(|k| ((k * 37 + i * 11) % 90) as u64).collect(),
            };
            r
        })
        .collect()
}

/// The compare charts the page shows for many runs, and the canvas heights it gives them.
fn page_charts(n: usize) -> Vec<(&'static str, CompareChart, u32)> {
    vec![
        ("bars", CompareChart::MetricBars { metric: "avg_bsld".into() }, 280),
        ("wait", CompareChart::MetricBars { metric: "avg_wait_s".into() }, 280),
        ("backfilled", CompareChart::MetricBars { metric: "jobs_backfilled".into() }, 280),
        ("cdf", CompareChart::WaitCdf, 300),
        ("busy", CompareChart::Busy, 230),
        ("queue", CompareChart::Queue, 230),
        ("categories", CompareChart::Categories { run: 30 % n }, 300),
        ("accuracy", CompareChart::Accuracy { run: 29 % n }, 300),
    ]
}

/// A chart drawn as the page draws it: `width` wide (compact under 480 px, as the page decides),
/// at the larger of the page's height and the chart's preferred one.
fn as_on_the_page(runs: &[RunView], which: &CompareChart, width: u32, page_h: u32) -> Chart {
    let o = ChartOptions {
        width,
        height: page_h,
        compact: width < 480,
        unix_start: Some(843_462_000),
        ..Default::default()
    };
    let h = preferred_height(runs, which, &o).expect("a chart to draw").max(page_h);
    compare_chart(runs, which, &ChartOptions { height: h, ..o }).unwrap()
}

/// Each text's box (x0, y0, x1, y1) by the layout's measure, horizontal texts only.
fn text_boxes(chart: &Chart) -> Vec<(String, (i32, i32, i32, i32))> {
    chart
        .list
        .items
        .iter()
        .filter_map(|p| match p {
            Primitive::Text { text, x, y, size, h, v, rotation: 0, .. } => {
                let (w, ht) = text_size(text, *size);
                let (w, ht) = (w as i32, ht as i32);
                let x0 = match h {
                    HAnchor::Left => *x,
                    HAnchor::Center => x - w / 2,
                    HAnchor::Right => x - w,
                };
                let y0 = match v {
                    VAnchor::Top => *y,
                    VAnchor::Center => y - ht / 2,
                    VAnchor::Bottom => y - ht,
                };
                Some((text.clone(), (x0, y0, x0 + w, y0 + ht)))
            }
            _ => None,
        })
        .collect()
}

/// Whether `t` writes a number with decimals ("82.0 jobs", not "cplant24.72max").
fn has_decimals(t: &str) -> bool {
    t.split_whitespace().any(|w| {
        let w = w.trim_matches(|c: char| ",;:()%".contains(c)).replace(',', "");
        w.contains('.') && w.parse::<f64>().is_ok()
    })
}

#[test]
fn many_runs_stay_legible_at_their_preferred_height() {
    for n in [8, 37] {
        let runs = many_runs(n);
        for width in [1400, 390] {
            for (name, which, page_h) in page_charts(n) {
                let what = format!("{name} with {n} runs at {width} px");
                let chart = as_on_the_page(&runs, &which, width, page_h);
                let texts = chart.list.texts();
                let of_all = !matches!(which, CompareChart::Categories { .. } | CompareChart::Accuracy { .. });
                // Every run named, nothing summed up as "+N more", nothing cut with an ellipsis.
                for r in runs.iter().filter(|_| of_all) {
                    assert!(texts.iter().any(|t| *t == r.policy), "{what}: {} named in {texts:?}", r.policy);
                }
                assert!(!texts.iter().any(|t| t.contains(" more") || t.ends_with('…')), "{what}: {texts:?}");
                // No two texts overlap (ticks thinned, legend in columns, titles wrapped).
                let boxes = text_boxes(&chart);
                for (i, (a, ba)) in boxes.iter().enumerate() {
                    assert!(ba.0 >= 0 && ba.2 <= width as i32 + 2, "{what}: {a:?} {ba:?} inside");
                    for (b, bb) in &boxes[i + 1..] {
                        let apart = ba.2 <= bb.0 + 1 || bb.2 <= ba.0 + 1 || ba.3 <= bb.1 + 1 || bb.3 <= ba.1 + 1;
                        assert!(apart, "{what}: {a:?} {ba:?} overlaps {b:?} {bb:?}");
                    }
                }
                // Counts are whole: no "82.0".
                let all: Vec<String> = texts
                    .iter()
                    .map(|t| t.to_string())
                    .chain(chart.hits.iter().map(|h| h.text.clone()))
                    .chain(chart.table.rows.iter().flatten().cloned())
                    .collect();
                if name == "backfilled" {
                    assert!(!all.iter().any(|t| has_decimals(t)), "{what}: {:?}", all.iter().find(|t| has_decimals(t)));
                }
                // Bars at least 9 px thick (12 px in full-size type).
                if let CompareChart::MetricBars { .. } = which {
                    let least = if width < 480 { 9 } else { 11 };
                    for h in &chart.hits {
                        assert!(h.rect.3 - h.rect.1 >= least, "{what}: bar {} is {} px", h.series, h.rect.3 - h.rect.1);
                    }
                }
                // Every run can be pointed at.
                for i in (0..n).filter(|_| of_all) {
                    assert!(chart.hits.iter().any(|h| h.series == i), "{what}: run {i} has hits");
                }
            }
        }
    }
}

#[test]
fn stopped_runs_keep_their_whole_names_on_a_phone() {
    let mut runs = many_runs(37);
    for r in &mut runs {
        r.stopped = Some("stopped at the time budget".into());
    }
    let chart = as_on_the_page(&runs, &CompareChart::MetricBars { metric: "avg_bsld".into() }, 390, 280);
    let texts = chart.list.texts();
    assert!(texts.contains(&"cplant24.nomax.fair (stopped)"), "{texts:?}");
    assert!(!texts.iter().any(|t| t.ends_with('…')), "{texts:?}");
}

#[test]
fn subtitles_wrap_rather_than_end_in_an_ellipsis() {
    let runs = many_runs(3);
    let chart = as_on_the_page(&runs, &CompareChart::WaitCdf, 390, 300);
    let lines: Vec<&str> = chart
        .list
        .items
        .iter()
        .filter_map(|p| match p {
            Primitive::Text { text, colour, y, .. } if colour.r == 0x59 && *y < chart.plot.1 => Some(text.as_str()),
            _ => None,
        })
        .collect();
    assert!(lines.len() >= 2, "{lines:?}");
    assert_eq!(
        lines.join(" "),
        "wait = start − submit, over started jobs; waits under 1 s drawn at 1 s; higher and further left is better"
    );
    // A short chart with a long subtitle shrinks its plot rather than the text.
    let wide = as_on_the_page(&runs, &CompareChart::WaitCdf, 1400, 300);
    assert!(wide.plot.1 < chart.plot.1, "the narrow chart's plot starts lower");
}

#[test]
fn counts_read_as_whole_numbers() {
    let runs = vec![
        view("fcfs", &[("jobs_backfilled", 0.0)], flat(3.0, 1.0)),
        view("easy", &[("jobs_backfilled", 82.0)], flat(2.0, 2.0)),
    ];
    let bars =
        compare_chart(&runs, &CompareChart::MetricBars { metric: "jobs_backfilled".into() }, &opts(640, 300)).unwrap();
    assert!(bars.list.texts().contains(&"82"), "{:?}", bars.list.texts());
    assert!(bars.hits[1].text.ends_with(" 82"), "{}", bars.hits[1].text);
    assert!(bars.list.texts().iter().all(|t| !t.contains('.')), "{:?}", bars.list.texts());
    // Two jobs at most: ticks at whole jobs only, in the queue and in the hits.
    let queue = compare_chart(&runs, &CompareChart::Queue, &opts(640, 300)).unwrap();
    let ticks: Vec<String> = queue
        .list
        .items
        .iter()
        .filter_map(|p| match p {
            Primitive::Text { text, x, .. } if *x < queue.plot.0 => Some(text.clone()),
            _ => None,
        })
        .collect();
    assert!(ticks.iter().all(|t| !t.contains('.')), "{ticks:?}");
    assert!(queue.hits.iter().any(|h| h.text.starts_with("easy: 2 waiting jobs at")));
    assert!(queue.table.rows.iter().flatten().all(|c| !c.ends_with(".00")), "{:?}", queue.table.rows[0]);
}

/// Writes the pictures of many runs' charts to `target/browser-screenshots/` (PNG, as the
/// page would draw them) for a person to look at: `cargo test --release --test render -- --ignored`.
#[test]
#[ignore]
fn pictures_of_many_runs() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/browser-screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    for n in [8, 37] {
        let runs = many_runs(n);
        for width in [1400, 390] {
            for (name, which, page_h) in page_charts(n) {
                let chart = as_on_the_page(&runs, &which, width, page_h);
                let suffix = if width == 1400 { String::new() } else { format!("-{width}") };
                std::fs::write(dir.join(format!("many-{name}-{n}{suffix}.png")), chart.png(1)).unwrap();
            }
        }
        // As the pointer rests on the sixth run.
        for (name, which, page_h) in page_charts(n).into_iter().filter(|c| matches!(c.1, CompareChart::WaitCdf)) {
            let o = ChartOptions { width: 1400, height: page_h, highlight: Some(5), ..Default::default() };
            let h = preferred_height(&runs, &which, &o).unwrap().max(page_h);
            let chart = compare_chart(&runs, &which, &ChartOptions { height: h, ..o }).unwrap();
            std::fs::write(dir.join(format!("many-{name}-{n}-highlight.png")), chart.png(1)).unwrap();
        }
    }
}
