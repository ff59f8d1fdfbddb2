//! Fairshare at Sandia (Leung, Sabin & Sadayappan 2010) as the page shows it: the nine CPlant
//! policies of section V.E on the trace, each its own task, and the trace's length x width
//! Tables I and II for the period studied, as the paper's figures: the share of submissions that
//! missed their hybrid fair start time (Fig. 8), the mean miss (Fig. 9), the mean turnaround
//! (Fig. 11), the loss of capacity (Fig. 13), the same by width class (Figs. 6, 7, 10, 12), and
//! section VI's claims checked on the runs.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{
    plain_number, read, with_own, Block, Cell, Claim, Field, Options, Plan, Preset, Report, Row, Study, Table, Task,
};
use crate::calendar::Zone;
use crate::metrics::categories::{leung_width_labels, shape, Grid};
use crate::policy::family_default;
use crate::render::generic::{Bar, Labels, Series, Spec};
use crate::run::Settings;
use crate::studies::leung::{findings, run_policy, Summary, POLICIES};
use crate::trace::{Header, Trace};

/// The study (see the module docs).
pub struct Leung;

/// The paper's period on CPlant/Ross (section III).
const PAPER_PERIOD: (&str, &str) = ("2002-12-01", "2003-07-14");

/// The policies of the chart by width unless others are ticked: the original and the three the
/// paper's text compares it with.
const DEFAULT_SERIES: &str = "cplant24.nomax.all,cplant24.72max.all,cons.72max,consdyn.72max";

/// What one task of the plan is: Tables I and II of the period, or one policy's run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Part {
    Tables,
    Policy(String),
}

/// Tables I and II of the jobs the policies run.
#[derive(Serialize, Deserialize)]
struct Tables {
    jobs: u64,
    shape: Grid,
}

/// A policy's figures as the numbers table shows them (None: not measured).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
struct Figures {
    jobs: u64,
    submissions: u64,
    segmented_jobs: u64,
    fst_miss_share: Option<f64>,
    avg_fst_miss_s: Option<f64>,
    avg_response_submitted_s: Option<f64>,
    fst_miss_share_jobs: Option<f64>,
    avg_fst_miss_jobs_s: Option<f64>,
    avg_response_s: Option<f64>,
    loss_of_capacity: Option<f64>,
    utilization: Option<f64>,
}

/// One width class of a policy's run (see [`crate::studies::leung::WidthRow`]).
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Width {
    width: String,
    jobs: u64,
    submissions: u64,
    fst_miss_share: Option<f64>,
    avg_fst_miss_s: Option<f64>,
    avg_response_submitted_s: Option<f64>,
    avg_response_s: Option<f64>,
}

/// One policy's run, as the report reads it back.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Run {
    policy: String,
    figures: Figures,
    by_width: Vec<Width>,
}

/// A number only when it is one (NaN and infinities are not measured values).
fn finite(v: f64) -> Option<f64> {
    Some(v).filter(|v| v.is_finite())
}

impl Figures {
    /// The figure `key` of [`COLUMNS`].
    fn get(&self, key: &str) -> Option<f64> {
        match key {
            "jobs" => Some(self.jobs as f64),
            "submissions" => Some(self.submissions as f64),
            "segmented_jobs" => Some(self.segmented_jobs as f64),
            "fst_miss_share" => self.fst_miss_share,
            "avg_fst_miss_s" => self.avg_fst_miss_s,
            "avg_response_submitted_s" => self.avg_response_submitted_s,
            "fst_miss_share_jobs" => self.fst_miss_share_jobs,
            "avg_fst_miss_jobs_s" => self.avg_fst_miss_jobs_s,
            "avg_response_s" => self.avg_response_s,
            "loss_of_capacity" => self.loss_of_capacity,
            "utilization" => self.utilization,
            _ => None,
        }
    }
}

/// How a figure of the numbers table is written.
#[derive(Clone, Copy)]
enum Show {
    Count,
    Percent,
    Hours,
    Digits(usize),
}

impl Show {
    fn text(self, v: Option<f64>) -> String {
        match (self, v) {
            (_, None) => "–".into(),
            (Show::Count, Some(v)) => v.to_string(),
            (Show::Percent, Some(v)) => fixed(100.0 * v, 2),
            (Show::Hours, Some(v)) => fixed(v / 3600.0, 2),
            (Show::Digits(d), Some(v)) => fixed(v, d),
        }
    }
}

/// The numbers table's columns: metric key, heading, definition, how it is written, and its
/// group: the counts, per submission (each segment a job), per job (the original job) or the
/// machine's.
const COLUMNS: [(&str, &str, &str, Show, &str); 11] = [
    ("jobs", "jobs", "jobs in the period", Show::Count, "count"),
    (
        "submissions",
        "submissions",
        "jobs with each segment of a job run under the 72 h limit counted as one",
        Show::Count,
        "count",
    ),
    ("segmented_jobs", "segmented jobs", "jobs that ran as more than one 72 h segment", Show::Count, "count"),
    (
        "fst_miss_share",
        "% missed FST",
        "share of submissions that started after their hybrid fair start time (Fig. 8)",
        Show::Percent,
        "submission",
    ),
    (
        "avg_fst_miss_s",
        "mean miss [h]",
        "mean over all submissions of max(0, start − fair start time) (Fig. 9)",
        Show::Hours,
        "submission",
    ),
    (
        "avg_response_submitted_s",
        "turnaround [h]",
        "mean of end − submit, each segment from its own submission (Fig. 11)",
        Show::Hours,
        "submission",
    ),
    (
        "fst_miss_share_jobs",
        "% missed FST",
        "share of jobs whose first start came after their first submission’s fair start time",
        Show::Percent,
        "job",
    ),
    (
        "avg_fst_miss_jobs_s",
        "mean miss [h]",
        "mean over jobs of max(0, first start − first submission’s fair start time)",
        Show::Hours,
        "job",
    ),
    ("avg_response_s", "turnaround [h]", "mean of last end − first submission over the jobs", Show::Hours, "job"),
    (
        "loss_of_capacity",
        "loss of capacity",
        "idle processor-seconds while jobs wait / (machine size × span) (Eq. 1, Fig. 13)",
        Show::Digits(4),
        "machine",
    ),
    (
        "utilization",
        "utilization",
        "used processor-seconds / ((last end − first start) × machine size)",
        Show::Digits(3),
        "machine",
    ),
];

/// The column groups of the numbers table: key, name and what it means.
const GROUPS: [(&str, &str, &str); 4] = [
    ("count", "counts", "jobs, and submissions with each 72 h segment counted as one"),
    ("submission", "per submission (the paper’s)", "each 72 h segment counts as a job, as the paper counts"),
    (
        "job",
        "per job",
        "the original job, from its first submission to its last end; its fair start is its first segment’s",
    ),
    ("machine", "machine", "the whole machine over the schedule"),
];

/// What the table and chart by width can show.
struct View {
    key: &'static str,
    name: &'static str,
    title: &'static str,
    short: &'static str,
    /// Hours or percent from the width row's value: `value * scale`.
    scale: f64,
    unit: &'static str,
    /// Counts the original jobs (else the submissions, each 72 h segment a job).
    per_job: bool,
    figs: &'static str,
}

impl View {
    fn value(&self, w: &Width) -> Option<f64> {
        match self.key {
            "turnaround" => w.avg_response_submitted_s,
            "turnaround_jobs" => w.avg_response_s,
            "miss" => w.avg_fst_miss_s,
            _ => w.fst_miss_share,
        }
    }

    /// The value shown for a width class: none where the class has nothing to average.
    fn shown(&self, w: &Width) -> Option<f64> {
        let n = if self.per_job { w.jobs } else { w.submissions };
        self.value(w).filter(|_| n > 0).map(|v| v * self.scale)
    }
}

/// The figures by width, the first the default.
const VIEWS: [View; 4] = [
    View {
        key: "turnaround",
        name: "average turnaround per submission",
        title: "Turnaround per submission by width",
        short: "turnaround [h]",
        scale: 1.0 / 3600.0,
        unit: " h",
        per_job: false,
        figs: "Figs. 7, 12",
    },
    View {
        key: "turnaround_jobs",
        name: "average turnaround per job",
        title: "Turnaround per job by width",
        short: "turnaround per job [h]",
        scale: 1.0 / 3600.0,
        unit: " h",
        per_job: true,
        figs: "Figs. 7, 12, per job",
    },
    View {
        key: "miss",
        name: "average fair-start miss",
        title: "Fair-start miss by width",
        short: "FST miss [h]",
        scale: 1.0 / 3600.0,
        unit: " h",
        per_job: false,
        figs: "Figs. 6, 10",
    },
    View {
        key: "missed",
        name: "submissions that missed their fair start",
        title: "Missed fair starts by width",
        short: "missed FST [%]",
        scale: 100.0,
        unit: "%",
        per_job: false,
        figs: "Fig. 8 by width",
    },
];

/// `v` with `digits` decimals as JavaScript's `toFixed` writes it: a value exactly halfway
/// rounds away from zero (Rust's formatting rounds it to even), so the page reads as before.
fn fixed(v: f64, digits: usize) -> String {
    let exact = format!("{v:.0$}", digits + 30);
    let tail = &exact[exact.len() - 30..];
    if tail.starts_with('5') && tail[1..].bytes().all(|b| b == b'0') {
        // One step further from zero leaves the tie and no other rounding boundary.
        let away = if v > 0.0 { v.next_up() } else { v.next_down() };
        return format!("{away:.digits$}");
    }
    format!("{v:.digits$}")
}

/// The form's values, checked.
struct Form {
    from: String,
    to: String,
    decay: String,
    heavy: String,
}

/// A share in (0, 1] as the fairshare options take it, written as typed.
fn share(text: &str) -> Option<String> {
    let t = text.trim();
    let v = plain_number(t).filter(|_| !t.ends_with('.'))?;
    (v > 0.0 && v <= 1.0).then(|| t.to_string())
}

/// A date as the date inputs give it (`2002-12-01`), or empty for none.
fn date(key: &str, text: &str) -> Result<String, String> {
    let t = text.trim();
    let b = t.as_bytes();
    let ok = b.len() == 10
        && b.iter().enumerate().all(|(i, c)| if i == 4 || i == 7 { *c == b'-' } else { c.is_ascii_digit() });
    if t.is_empty() || ok {
        Ok(t.to_string())
    } else {
        Err(format!("{key} must be a date as YYYY-MM-DD, not \"{t}\""))
    }
}

fn form(o: &Options) -> Result<Form, String> {
    let (from, to) = (date("from", o.get("from"))?, date("to", o.get("to"))?);
    if !from.is_empty() && !to.is_empty() && from > to {
        return Err(format!("the period ends ({to}) before it begins ({from})"));
    }
    let checked = |key: &str, name: &str| {
        share(o.get(key))
            .ok_or_else(|| format!("{name} must be a number above 0 and at most 1, not \"{}\"", o.get(key).trim()))
    };
    Ok(Form { from, to, decay: checked("decay", "decay")?, heavy: checked("heavy", "heavy_share")? })
}

/// The view fields: the figure by width, the policies ticked for its chart and Fig. 11's count.
fn view(o: &Options) -> Result<(&'static View, Vec<&'static str>, bool), String> {
    let v = o.get("view");
    let view = VIEWS.iter().find(|x| x.key == v).ok_or_else(|| format!("no figure by width \"{v}\""))?;
    let mut series = Vec::new();
    for p in o.get("series").split(',').map(str::trim).filter(|p| !p.is_empty()) {
        series.push(*POLICIES.iter().find(|x| **x == p).ok_or_else(|| format!("policies: no policy \"{p}\""))?);
    }
    let per_job = match o.get("turn") {
        "job" => true,
        "submission" => false,
        t => return Err(format!("turnaround: per submission or per job, not \"{t}\"")),
    };
    Ok((view, series, per_job))
}

/// A policy's colour (palette index) in every chart: its place among the nine.
fn colour(policy: &str) -> usize {
    POLICIES.iter().position(|p| *p == policy).unwrap_or(0)
}

/// The numbers table: per policy, the paper's figures per submission and per job.
fn numbers(runs: &[Run]) -> Table {
    let mut groups = vec![Cell::text("")];
    for (key, name, title) in GROUPS {
        let n = COLUMNS.iter().filter(|c| c.4 == key).count() as u32;
        groups.push(Cell::text(name).title(title).span(1, n));
    }
    let mut names = vec![Cell::text("policy").title("the policy (section V.E)")];
    names.extend(COLUMNS.iter().map(|(_, text, title, _, _)| Cell::text(*text).title(*title)));
    let rows = runs
        .iter()
        .map(|r| {
            let mut cells = vec![Cell::text(&r.policy).class("rt").colour(colour(&r.policy))];
            for (key, _, _, show, _) in COLUMNS {
                let v = r.figures.get(key);
                cells.push(Cell::number(show.text(v), key, v));
            }
            Row { cells, class: String::new(), data: vec![("policy".into(), r.policy.clone())] }
        })
        .collect();
    Table { id: "lg-table".into(), class: "paper".into(), head: vec![groups, names], rows, data: Vec::new() }
}

/// Table I or II as the paper prints it: a row per width class, a column per length class, with
/// the totals; `values[r][c]` by length row and width column.
fn shape_table(id: &str, g: &Grid, values: &[Vec<f64>], show: impl Fn(f64) -> String) -> Table {
    let mut head = vec![Cell::text("processors").title("width class (Table I)")];
    head.extend(g.rows.iter().map(|r| Cell::text(r).title(format!("runtime {r}"))));
    head.push(Cell::text("all").title("every length"));
    let at = |r: usize, c: usize| values.get(r).and_then(|row| row.get(c)).copied().unwrap_or(0.0);
    let line = |label: &str, value: &dyn Fn(usize) -> f64| {
        let mut cells = vec![Cell::text(label).class("rt")];
        cells.extend(g.rows.iter().enumerate().map(|(r, row)| Cell::number(show(value(r)), row, Some(value(r)))));
        let total: f64 = (0..g.rows.len()).map(value).sum();
        cells.push(Cell::number(show(total), "all", Some(total)));
        cells
    };
    let mut rows: Vec<Row> = g
        .cols
        .iter()
        .enumerate()
        .map(|(c, col)| Row {
            cells: line(col, &|r| at(r, c)),
            class: String::new(),
            data: vec![("width".into(), col.clone())],
        })
        .collect();
    let all = |r: usize| (0..g.cols.len()).map(|c| at(r, c)).sum::<f64>();
    rows.push(Row { cells: line("all", &all), class: "total".into(), data: vec![("width".into(), "all".into())] });
    Table { id: id.into(), class: "paper".into(), head: vec![head], rows, data: Vec::new() }
}

/// The figure of the view by width class for every policy, as a table.
fn width_table(runs: &[Run], view: &View) -> Table {
    let mut head = vec![Cell::text("policy").title(format!("{} by width class ({})", view.name, view.figs))];
    head.extend(leung_width_labels().into_iter().map(|w| Cell::text(w).title(format!("{w} processors"))));
    let rows = runs
        .iter()
        .map(|r| {
            let mut cells = vec![Cell::text(&r.policy).class("rt")];
            cells.extend(r.by_width.iter().map(|w| {
                let v = view.value(w);
                let text = view.shown(w).map_or("–".into(), |x| fixed(x, 2));
                Cell::number(text, &w.width, v).title(format!("{} jobs, {} submissions", w.jobs, w.submissions))
            }));
            Row { cells, class: String::new(), data: vec![("policy".into(), r.policy.clone())] }
        })
        .collect();
    Table {
        id: "lg-width-table".into(),
        class: "paper".into(),
        head: vec![head],
        rows,
        data: vec![("view".into(), view.key.into())],
    }
}

/// A chart of one bar per policy in its colour, or why there is none.
fn bars(id: &str, labels: Labels, runs: &[Run], value: impl Fn(&Figures) -> Option<f64>, empty: &str) -> Block {
    let bars: Vec<Bar> = runs
        .iter()
        .map(|r| Bar { name: r.policy.clone(), value: value(&r.figures), colour: Some(colour(&r.policy)) })
        .collect();
    if bars.iter().all(|b| b.value.is_none()) {
        return Block::empty(id, empty);
    }
    let name = id.trim_start_matches("chart-");
    Block::figure(id, name, Spec::Bars { labels: Labels { y: "policy".into(), ..labels }, bars })
}

/// Figs. 8, 9, 11 (per submission or per job) and 13: one bar per policy.
fn figures(runs: &[Run], per_job: bool) -> Vec<Block> {
    let lower = "lower is better";
    let unmeasured = "Fair starts were not measured (the engine option fst is off).";
    let labels = |title: &str, subtitle: String, x: &str, value: &str, unit: &str| Labels {
        title: title.into(),
        subtitle,
        x: x.into(),
        value: value.into(),
        unit: unit.into(),
        ..Labels::default()
    };
    let (turn_title, turn_what) = if per_job {
        ("Turnaround per job (Fig. 11)", "last end − first submission, averaged over the jobs")
    } else {
        ("Turnaround per submission (Fig. 11)", "end − submit, averaged over the submissions")
    };
    vec![
        bars(
            "chart-lg-missed",
            labels(
                "Missed fair starts (Fig. 8)",
                format!("submissions started after their hybrid fair start time; {lower}"),
                "missed [%]",
                "missed",
                "%",
            ),
            runs,
            |f| f.fst_miss_share.map(|v| 100.0 * v),
            unmeasured,
        ),
        bars(
            "chart-lg-miss",
            labels(
                "Fair-start miss (Fig. 9)",
                format!("max(0, start − fair start time), averaged over the submissions; {lower}"),
                "miss [h]",
                "average miss",
                " h",
            ),
            runs,
            |f| f.avg_fst_miss_s.map(|v| v / 3600.0),
            unmeasured,
        ),
        bars(
            "chart-lg-turnaround",
            labels(turn_title, format!("{turn_what}; {lower}"), "turnaround [h]", "average turnaround", " h"),
            runs,
            |f| if per_job { f.avg_response_s } else { f.avg_response_submitted_s }.map(|v| v / 3600.0),
            "No turnaround was measured.",
        ),
        bars(
            "chart-lg-loc",
            labels(
                "Loss of capacity (Fig. 13)",
                format!("processors idle while jobs wait, over machine size × makespan; {lower}"),
                "loss of capacity",
                "loss of capacity",
                "",
            ),
            runs,
            |f| f.loss_of_capacity,
            "No loss of capacity was measured.",
        ),
    ]
}

/// The chart by width of the ticked policies in the view's figure.
fn width_chart(runs: &[Run], view: &View, ticked: &[&str]) -> Block {
    let id = "chart-lg-width";
    let series: Vec<Series> = runs
        .iter()
        .filter(|r| ticked.contains(&r.policy.as_str()))
        .map(|r| Series {
            colour: Some(colour(&r.policy)),
            ..Series::new(r.policy.clone(), r.by_width.iter().map(|w| view.shown(w)).collect())
        })
        .collect();
    if series.is_empty() {
        return Block::empty(id, "Tick one or more policies for the chart by width.");
    }
    // Values spread over more than a factor of 30 (the widest jobs' turnaround beside the
    // narrowest) read on a log scale.
    let values: Vec<f64> = series.iter().flat_map(|s| s.values.iter().flatten().copied()).collect();
    let (lo, hi) = values.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| (lo.min(*v), hi.max(*v)));
    let log = !values.is_empty() && values.iter().all(|v| *v > 0.0) && hi > 30.0 * lo;
    let what = if view.per_job {
        "each job from its first submission to its last end"
    } else {
        "each 72 h segment counted as a job, as the paper counts"
    };
    let spec = Spec::GroupedBars {
        labels: Labels {
            title: format!("{} ({})", view.title, view.figs),
            subtitle: if log { format!("{what}; log scale") } else { what.into() },
            x: "processors".into(),
            y: view.short.into(),
            unit: view.unit.into(),
            log,
            ..Labels::default()
        },
        categories: leung_width_labels().into_iter().map(String::from).collect(),
        series,
    };
    Block::figure(id, &format!("leung-by-width-{}", view.key), spec).in_group("lg-wide")
}

/// The header of the trace of `about` as far as dates need it.
fn header(about: &Value) -> Header {
    let h = |key: &str| about.pointer(&format!("/header/{key}"));
    Header {
        unix_start_time: h("unix_start_time").and_then(Value::as_i64),
        time_zone: h("time_zone").and_then(Value::as_i64),
        time_zone_string: h("time_zone_string").and_then(Value::as_str).map(String::from),
        ..Header::default()
    }
}

/// The first and last submission dates of the trace of `about`, in its time zone; none without
/// a trace or its `UnixStartTime`.
fn span(about: &Value) -> Option<(String, String)> {
    let header = header(about);
    let start = header.unix_start_time?;
    let first = about.pointer("/report/first_submit")?.as_i64()?;
    let last = about.pointer("/report/last_submit")?.as_i64()?;
    let zone = Zone::from_header(&header);
    let day = |t: i64| {
        let c = zone.to_local(start.saturating_add(t));
        format!("{:04}-{:02}-{:02}", c.year, c.month, c.day)
    };
    Some((day(first), day(last)))
}

impl Study for Leung {
    fn prefix(&self) -> &'static str {
        "lg"
    }

    fn fields(&self) -> Vec<Field> {
        let default = |key: &str, or: &'static str| family_default("fairshare", key).unwrap_or(or);
        let policies: Vec<(&str, &str)> = POLICIES.iter().map(|p| (*p, *p)).collect();
        let views: Vec<(&str, &str)> = VIEWS.iter().map(|v| (v.key, v.name)).collect();
        vec![
            Field::text(
                "from",
                "lg_from",
                "from",
                "",
                "keep jobs submitted from this date on (the trace's time zone); empty: from the start",
            )
            .date(),
            Field::text(
                "to",
                "lg_to",
                "to",
                "",
                "keep jobs submitted up to the end of this date (the trace's time zone); empty: to the end",
            )
            .date(),
            Field::note("span", "the first and last submission dates of the loaded trace, in its time zone"),
            Field::text(
                "decay",
                "lg_decay",
                "decay",
                default("decay", "0.5"),
                "fairshare usage is multiplied by this every decay period (24 h); 1: no decay",
            )
            .size(4),
            Field::text(
                "heavy",
                "lg_heavy",
                "heavy_share",
                default("heavy_share", "0.1"),
                "a user is heavy while their decayed usage is more than this share of all users' (the .fair policies bar them from the starvation queue)",
            )
            .size(4),
            Field::choose(
                "turn",
                "lg_turn",
                "turnaround (Fig. 11)",
                "submission",
                "per submission: each 72 h segment from its own submission (the paper's); per job: from the job's first submission to its last end",
                &[("submission", "per submission (segments as jobs, the paper’s)"), ("job", "per job (first submission to last end)")],
            )
            .view(),
            Field::choose("view", "lg_view", "by width", "turnaround", "what the chart and table by width show", &views)
                .view(),
            Field::choose(
                "series",
                "lg_series",
                "policies by width",
                DEFAULT_SERIES,
                "the policies in the chart by width",
                &policies,
            )
            .multiple()
            .view(),
        ]
    }

    fn presets(&self) -> Vec<Preset> {
        vec![
            Preset {
                key: "paper",
                label: "the paper’s period",
                title: "2002-12-01 to 2003-07-14, the paper's period on Sandia-Ross",
                values: vec![("from", PAPER_PERIOD.0), ("to", PAPER_PERIOD.1)],
            },
            Preset {
                key: "whole",
                label: "whole trace",
                title: "no period: every job of the trace",
                values: vec![("from", ""), ("to", "")],
            },
        ]
    }

    fn notes(&self, about: &Value) -> Vec<(&'static str, String)> {
        span(about).map(|(a, b)| vec![("span", format!("(this trace: {a} to {b})"))]).unwrap_or_default()
    }

    fn plan(&self, options: &Options, settings: &[String], _about: &Value) -> Result<Plan, String> {
        let f = form(options)?;
        let own = [
            ("decay", f.decay.clone()),
            ("heavy_share", f.heavy.clone()),
            ("from", f.from.clone()),
            ("to", f.to.clone()),
        ];
        // An empty period bound is none: the shared settings' from or to is dropped, not kept.
        let mut settings = with_own(settings, &own);
        settings.retain(|kv| kv != "from=" && kv != "to=");
        let part = |p: Part| serde_json::to_value(p).unwrap_or(Value::Null);
        let mut tasks =
            vec![Task { what: "the period’s tables".into(), settings: settings.clone(), input: part(Part::Tables) }];
        tasks.extend(POLICIES.iter().map(|p| Task {
            what: p.to_string(),
            settings: settings.clone(),
            input: part(Part::Policy(p.to_string())),
        }));
        let period = if f.from.is_empty() && f.to.is_empty() {
            "the whole trace".to_string()
        } else {
            let from = if f.from.is_empty() { String::new() } else { format!(" from {}", f.from) };
            let to = if f.to.is_empty() { String::new() } else { format!(" to {}", f.to) };
            format!("the jobs submitted{from}{to}")
        };
        Ok(Plan {
            what: format!("{} policies on {period}, decay {}, heavy_share {}", POLICIES.len(), f.decay, f.heavy),
            tasks,
            noun: ("task", "tasks"),
            progressive: false,
        })
    }

    fn run(&self, trace: &Trace, settings: &Settings, input: &Value) -> Result<Value, String> {
        let value = match read::<Part>(input)? {
            Part::Tables => serde_json::to_value(Tables { jobs: trace.jobs.len() as u64, shape: shape(trace) }),
            Part::Policy(policy) => {
                let r = run_policy(trace, &policy, settings).map_err(|e| e.to_string())?;
                let m = &r.metrics;
                let figures = Figures {
                    jobs: m.jobs,
                    submissions: m.submissions,
                    segmented_jobs: m.segmented_jobs,
                    fst_miss_share: m.fst_miss_share.and_then(finite),
                    avg_fst_miss_s: m.avg_fst_miss_s.and_then(finite),
                    avg_response_submitted_s: finite(m.avg_response_submitted_s),
                    fst_miss_share_jobs: m.fst_miss_share_jobs.and_then(finite),
                    avg_fst_miss_jobs_s: m.avg_fst_miss_jobs_s.and_then(finite),
                    avg_response_s: finite(m.avg_response_s),
                    loss_of_capacity: finite(m.loss_of_capacity),
                    utilization: finite(m.utilization),
                };
                let by_width = r
                    .by_width
                    .iter()
                    .map(|w| Width {
                        width: w.width.to_string(),
                        jobs: w.jobs,
                        submissions: w.submissions,
                        fst_miss_share: w.fst_miss_share.and_then(finite),
                        avg_fst_miss_s: w.avg_fst_miss_s.and_then(finite),
                        avg_response_submitted_s: finite(w.avg_response_submitted_s),
                        avg_response_s: finite(w.avg_response_s),
                    })
                    .collect();
                serde_json::to_value(Run { policy: r.policy, figures, by_width })
            }
        };
        value.map_err(|e| e.to_string())
    }

    fn report(&self, options: &Options, values: &[Value], _about: &Value) -> Result<Report, String> {
        let f = form(options)?;
        let (view, ticked, per_job) = view(options)?;
        let Some((first, rest)) = values.split_first() else {
            return Err("no results".into());
        };
        if rest.len() != POLICIES.len() {
            return Err(format!("{} results for {} policies", rest.len(), POLICIES.len()));
        }
        let tables: Tables = read(first)?;
        let runs: Vec<Run> = rest.iter().map(read).collect::<Result<_, _>>()?;
        let summaries: Vec<Summary> = runs
            .iter()
            .map(|r| {
                let f = &r.figures;
                Summary {
                    policy: r.policy.clone(),
                    fst_miss_share: f.fst_miss_share.unwrap_or(f64::NAN),
                    avg_fst_miss_s: f.avg_fst_miss_s.unwrap_or(f64::NAN),
                    avg_response_submitted_s: f.avg_response_submitted_s.unwrap_or(f64::NAN),
                    loss_of_capacity: f.loss_of_capacity.unwrap_or(f64::NAN),
                }
            })
            .collect();
        let width_note = format!(
            "{}{}{} by the processors a job asks for; {}“–”: no jobs of that width, or not measured. The chart shows the ticked policies.",
            view.name[..1].to_uppercase(),
            &view.name[1..],
            if view.unit == "%" { " in percent" } else { " in hours" },
            if view.per_job {
                "each job followed from its first submission to its last end. "
            } else {
                "each 72 h segment counted as a job, as the paper counts. "
            }
        );
        let g = &tables.shape;
        let mut blocks = vec![
            Block::Heading { text: "Fairness, turnaround and loss of capacity per policy (Figs. 8, 9, 11, 13)".into() },
            Block::Note {
                id: "lg-count-note".into(),
                text: "Per submission, as the paper counts: under a 72 h limit each segment of a long job is a job of its own, with its own fair start and turnaround (Figs. 8, 9, 11 and the figures by width). \
                       Per job: the original job, from its first submission to its last segment’s end, its fair start its first segment’s (the turnaround choice above, the “per job” columns). \
                       Without a limit, or with no job longer than 72 h, the two agree. Loss of capacity and utilization are the machine’s.".into(),
            },
        ];
        blocks.extend(figures(&runs, per_job));
        blocks.push(Block::Table(numbers(&runs)));
        blocks.push(Block::Heading { text: "The paper’s claims on this trace (section VI)".into() });
        blocks.push(Block::Findings {
            id: "lg-findings".into(),
            findings: findings(&summaries).iter().map(Claim::from).collect(),
        });
        blocks.push(Block::Heading { text: "By width class (Figs. 6, 7, 10, 12)".into() });
        blocks.push(Block::Note { id: "lg-width-note".into(), text: width_note });
        blocks.push(width_chart(&runs, view, &ticked));
        blocks.push(Block::Table(width_table(&runs, view)));
        blocks.push(Block::Heading { text: "Jobs by length and width in the period (Table I)".into() });
        blocks.push(Block::Note {
            id: "lg-shape-note".into(),
            text: "Length by actual runtime, width by the processors asked for: the jobs the policies ran (a long job once, whole).".into(),
        });
        let counts: Vec<Vec<f64>> = g.count.iter().map(|row| row.iter().map(|&n| n as f64).collect()).collect();
        blocks.push(Block::Table(shape_table("lg-shape-jobs", g, &counts, |v| v.to_string())));
        blocks.push(Block::Heading { text: "Processor-hours by length and width in the period (Table II)".into() });
        blocks.push(Block::Table(shape_table("lg-shape-hours", g, &g.value, |v| fixed(v, 0))));
        let period = if f.from.is_empty() && f.to.is_empty() {
            String::new()
        } else {
            let or = |d: &str, none: &str| if d.is_empty() { none.to_string() } else { d.to_string() };
            format!(" submitted {} to {}", or(&f.from, "from the start"), or(&f.to, "the end"))
        };
        Ok(Report {
            status: format!("Ran {} policies on {} jobs{period} in {{time}}.", runs.len(), tables.jobs),
            blocks,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn options(given: &[&str]) -> Options {
        Options::of(&Leung, given)
    }

    #[test]
    fn fixed_rounds_ties_away_from_zero_as_the_page_did() {
        assert_eq!(fixed(2.5, 0), "3");
        assert_eq!(fixed(0.125, 2), "0.13");
        assert_eq!(fixed(3.5, 0), "4");
        assert_eq!(fixed(1.005, 2), "1.00"); // 1.005 is just below the tie as a double
        assert_eq!(fixed(0.1234, 3), "0.123");
        assert_eq!(fixed(12.0, 2), "12.00");
        assert_eq!(fixed(0.0, 4), "0.0000");
    }

    #[test]
    fn the_form_is_checked_field_by_field() {
        let f = form(&options(&[])).unwrap();
        assert_eq!((f.from.as_str(), f.to.as_str(), f.decay.as_str(), f.heavy.as_str()), ("", "", "0.5", "0.1"));
        assert_eq!(
            form(&options(&["decay=1.5"])).err().unwrap(),
            "decay must be a number above 0 and at most 1, not \"1.5\""
        );
        assert_eq!(
            form(&options(&["heavy=0"])).err().unwrap(),
            "heavy_share must be a number above 0 and at most 1, not \"0\""
        );
        assert!(form(&options(&["heavy=.2"])).is_ok());
        assert!(form(&options(&["decay=1."])).is_err());
        assert!(form(&options(&["decay=x"])).is_err());
        assert_eq!(
            form(&options(&["from=1996-10-01", "to=1996-09-01"])).err().unwrap(),
            "the period ends (1996-09-01) before it begins (1996-10-01)"
        );
        assert_eq!(form(&options(&["from=1 Oct"])).err().unwrap(), "from must be a date as YYYY-MM-DD, not \"1 Oct\"");
        let (v, series, per_job) = view(&options(&[])).unwrap();
        assert_eq!((v.key, per_job), ("turnaround", false));
        assert_eq!(series, ["cplant24.nomax.all", "cplant24.72max.all", "cons.72max", "consdyn.72max"]);
        assert_eq!(view(&options(&["series=cons.x"])).err().unwrap(), "policies: no policy \"cons.x\"");
        assert!(view(&options(&["series="])).unwrap().1.is_empty());
    }

    #[test]
    fn the_plan_runs_the_tables_and_nine_policies_with_the_panel_s_period() {
        let shared: Vec<String> = ["to=1996-10-15", "decay=0.7", "tau=10"].iter().map(|s| s.to_string()).collect();
        let plan = Leung.plan(&options(&["from=1996-10-01", "heavy=0.2"]), &shared, &Value::Null).unwrap();
        assert_eq!(plan.what, "9 policies on the jobs submitted from 1996-10-01, decay 0.5, heavy_share 0.2");
        assert_eq!(plan.tasks.len(), 10);
        assert_eq!(plan.tasks[0].input, json!("tables"));
        assert_eq!(plan.tasks[7].input, json!({"policy": "cons.72max"}));
        assert_eq!(plan.tasks[3].settings, ["tau=10", "decay=0.5", "heavy_share=0.2", "from=1996-10-01"]);
        let whole = Leung.plan(&options(&[]), &shared, &Value::Null).unwrap();
        assert_eq!(whole.what, "9 policies on the whole trace, decay 0.5, heavy_share 0.1");
    }

    #[test]
    fn the_span_is_in_the_trace_s_zone() {
        // 1996-09-30 23:30 UTC is the next day at UTC+01:00.
        let about = json!({
            "report": {"first_submit": 0, "last_submit": 86_400 * 10},
            "header": {"unix_start_time": 844_126_200, "time_zone": 3600, "time_zone_string": null},
        });
        assert_eq!(Leung.notes(&about), [("span", "(this trace: 1996-10-01 to 1996-10-11)".to_string())]);
        assert!(Leung.notes(&json!({"report": {"first_submit": 0, "last_submit": 9}, "header": {}})).is_empty());
        assert!(Leung.notes(&Value::Null).is_empty());
    }

    /// A trace of four jobs on 8 processors, one of them longer than 72 h.
    fn tiny() -> Trace {
        let swf = "; MaxProcs: 8\n\
                   1 0 -1 100 4 -1 -1 4 200 -1 1 1 1 -1 1 -1 -1 -1\n\
                   2 10 -1 300000 8 -1 -1 8 300000 -1 1 2 1 -1 1 -1 -1 -1\n\
                   3 20 -1 50 1 -1 -1 1 100 -1 1 1 1 -1 1 -1 -1 -1\n\
                   4 30 -1 4000 2 -1 -1 2 4000 -1 1 3 1 -1 1 -1 -1 -1\n";
        crate::trace::parse(swf.as_bytes(), &Default::default()).unwrap()
    }

    #[test]
    fn the_report_of_a_tiny_trace_holds_the_engine_s_numbers() {
        let trace = tiny();
        let plan = Leung.plan(&options(&[]), &[], &Value::Null).unwrap();
        let values: Vec<Value> = plan
            .tasks
            .iter()
            .map(|t| Leung.run(&trace, &Settings::parse(&t.settings).unwrap(), &t.input).unwrap())
            .collect();
        let o = options(&["view=missed", "series=cons.72max", "turn=job"]);
        let report = Leung.report(&o, &values, &Value::Null).unwrap();
        assert_eq!(report.status, "Ran 9 policies on 4 jobs in {time}.");
        let table = |id: &str| {
            report.blocks.iter().find_map(|b| match b {
                Block::Table(t) if t.id == id => Some(t.clone()),
                _ => None,
            })
        };
        let cell = |t: &Table, row: usize, key: &str| {
            t.rows[row].cells.iter().find(|c| c.key.as_deref() == Some(key)).cloned().unwrap()
        };
        // The numbers table equals the engine's run of each policy.
        let numbers = table("lg-table").unwrap();
        assert_eq!(numbers.rows.len(), 9);
        let settings = Settings::parse(&plan.tasks[7].settings).unwrap();
        let cons = run_policy(&trace, "cons.72max", &settings).unwrap();
        assert_eq!(numbers.rows[6].data, [("policy".to_string(), "cons.72max".to_string())]);
        assert_eq!(cell(&numbers, 6, "jobs").text, "4");
        assert_eq!(cons.metrics.segmented_jobs, 1);
        assert_eq!(
            cell(&numbers, 6, "submissions").value.as_deref(),
            Some(cons.metrics.submissions.to_string().as_str())
        );
        let turn = cons.metrics.avg_response_s;
        assert_eq!(cell(&numbers, 6, "avg_response_s").value, Some(turn.to_string()));
        assert_eq!(cell(&numbers, 6, "avg_response_s").text, fixed(turn / 3600.0, 2));
        // Tables I and II: the 300,000 s job on 8 processors is the one "2+ d" job of width 5-8.
        let jobs = table("lg-shape-jobs").unwrap();
        assert_eq!(jobs.rows.len(), 12);
        assert_eq!(cell(&jobs, 3, "2+ d").text, "1");
        assert_eq!(cell(&jobs, 11, "all").text, "4");
        let hours = table("lg-shape-hours").unwrap();
        assert_eq!(cell(&hours, 3, "2+ d").value.as_deref(), Some((8.0 * 300_000.0 / 3600.0).to_string().as_str()));
        assert_eq!(cell(&hours, 3, "2+ d").text, "667");
        // The view fields: missed fair starts by width, per job turnaround, one policy charted.
        let width = table("lg-width-table").unwrap();
        assert_eq!(width.data, [("view".to_string(), "missed".to_string())]);
        let w3 = &cons.by_width[3];
        assert_eq!(cell(&width, 6, "5-8").value, Some(w3.fst_miss_share.map_or("null".into(), |v| v.to_string())));
        assert_eq!(cell(&width, 6, "9-16").text, "–");
        let chart = report.blocks.iter().find_map(|b| match b {
            Block::Figure { id, spec, .. } if id == "chart-lg-width" => Some(spec.clone()),
            _ => None,
        });
        let Some(spec) = chart else { panic!("no chart by width") };
        let Spec::GroupedBars { series, labels, .. } = *spec else { panic!("not grouped bars") };
        assert_eq!(labels.title, "Missed fair starts by width (Fig. 8 by width)");
        assert_eq!(series.len(), 1);
        assert_eq!(series[0].values[3], w3.fst_miss_share.map(|v| v * 100.0));
        let turnaround = report.blocks.iter().find_map(|b| match b {
            Block::Figure { id, spec, .. } if id == "chart-lg-turnaround" => Some(spec.clone()),
            _ => None,
        });
        let Some(spec) = turnaround else { panic!("no Fig. 11") };
        let Spec::Bars { bars, labels } = *spec else { panic!("not bars") };
        assert_eq!(labels.title, "Turnaround per job (Fig. 11)");
        assert_eq!(bars[6].value, Some(turn / 3600.0));
        let claims = report.blocks.iter().find_map(|b| match b {
            Block::Findings { findings, .. } => Some(findings.len()),
            _ => None,
        });
        assert_eq!(claims, Some(3));
        // No policy ticked: the chart's place says why.
        let none = Leung.report(&options(&["series="]), &values, &Value::Null).unwrap();
        assert!(none.blocks.iter().any(|b| matches!(b, Block::Empty { id, .. } if id == "chart-lg-width")));
        assert!(Leung.report(&o, &values[..5], &Value::Null).is_err());
    }
}
