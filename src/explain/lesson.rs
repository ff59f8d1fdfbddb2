//! A lesson: a small trace's run under one policy, step by step (one step per scheduling pass),
//! with what the machine held, the queue, the reservations and the shadow time at each step and
//! the pass's decisions in sentences. The Learn view draws it ([`crate::render::learn`]).

use serde::Serialize;

use super::{sentence, Words};
use crate::engine::decision::{Entry, LogWindow};
use crate::engine::{Decision, PieceEnd};
use crate::policy::Configured;
use crate::run::{simulate_explained, Settings};
use crate::trace::Trace;

/// The most jobs a lesson steps through: it is meant for traces a person reads whole.
pub const LESSON_JOBS: usize = 500;

/// One job of the lesson's trace and what became of it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LessonJob {
    /// Its number in the trace.
    pub id: u64,
    /// Submit time.
    pub submit: i64,
    /// Runtime.
    pub runtime: i64,
    /// User estimate.
    pub estimate: i64,
    /// Processors.
    pub procs: u32,
    /// User.
    pub user: i32,
    /// First start, or -1.
    pub start: i64,
    /// End, or -1.
    pub end: i64,
}

/// One piece of a job's run on its processors.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Block {
    /// Index of the job in [`Lesson::jobs`].
    pub job: usize,
    /// When the piece began.
    pub start: i64,
    /// When it ended.
    pub end: i64,
    /// When the scheduler planned it to end: its start plus the estimate still to run.
    pub planned_end: i64,
    /// Its processors, as runs (first, count).
    pub rows: Vec<(u32, u32)>,
}

/// A reservation standing after a step's pass, with processors to draw it on.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Booking {
    /// Index of the job in [`Lesson::jobs`].
    pub job: usize,
    /// Reserved start.
    pub start: i64,
    /// Its end by the job's estimate.
    pub end: i64,
    /// Processors it would take, as runs (first, count): those free by then, by plan.
    pub rows: Vec<(u32, u32)>,
}

/// The state after one scheduling pass and what the pass decided.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Step {
    /// When the pass ran.
    pub time: i64,
    /// The waiting jobs after the pass, in the policy's order (indices in [`Lesson::jobs`]).
    pub waiting: Vec<usize>,
    /// The reservations standing after the pass.
    pub bookings: Vec<Booking>,
    /// EASY's shadow time and extra processors in this pass, if any.
    pub shadow: Option<(i64, i64)>,
    /// Processors free after the pass.
    pub free: i64,
    /// The pass's decisions, in sentences.
    pub sentences: Vec<String>,
    /// The pass's decisions.
    pub decisions: Vec<Entry>,
}

/// A small trace's run under one policy, step by step.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Lesson {
    /// The policy.
    pub policy: String,
    /// Machine size.
    pub machine: u32,
    /// The jobs, in trace order.
    pub jobs: Vec<LessonJob>,
    /// Every piece of every job's run.
    pub blocks: Vec<Block>,
    /// One step per scheduling pass.
    pub steps: Vec<Step>,
    /// From the first submission to the last end or planned end.
    pub span: (i64, i64),
}

/// Processor runs (first, count) of a sorted list of processors.
fn runs(rows: &[u32]) -> Vec<(u32, u32)> {
    let mut out: Vec<(u32, u32)> = Vec::new();
    for &r in rows {
        match out.last_mut() {
            Some((first, count)) if *first + *count == r => *count += 1,
            _ => out.push((r, 1)),
        }
    }
    out
}

/// Runs `cfg` on `trace` with its decision log and processor placements, and cuts it into steps.
pub fn lesson(trace: &Trace, cfg: &Configured, settings: &Settings) -> Result<Lesson, String> {
    if trace.jobs.len() > LESSON_JOBS {
        return Err(format!(
            "the Learn view steps through small traces, of at most {LESSON_JOBS} jobs; this one has {}",
            trace.jobs.len()
        ));
    }
    let mut engine = settings.engine;
    engine.placements = true;
    let out = simulate_explained(trace, cfg, &engine, LogWindow::default());
    let w = Words::new(trace);
    let jobs: Vec<LessonJob> = trace
        .jobs
        .iter()
        .zip(&out.records)
        .map(|(j, r)| LessonJob {
            id: j.id,
            submit: j.submit,
            runtime: j.runtime,
            estimate: j.estimate,
            procs: j.procs,
            user: j.user,
            start: r.start,
            end: r.end,
        })
        .collect();
    // Work done before each piece, to plan a resumed piece with the estimate it has left.
    let mut done = vec![0i64; jobs.len()];
    let mut blocks = Vec::new();
    for p in &out.pieces {
        let i = p.job as usize;
        let rows: Vec<u32> = out.piece_procs(p).iter().flat_map(|&(f, c)| f..f + c).collect();
        let left = (trace.jobs[i].estimate - done[i]).max(1);
        blocks.push(Block { job: i, start: p.start, end: p.end, planned_end: p.start + left, rows: runs(&rows) });
        if p.ended != PieceEnd::Killed {
            done[i] += p.work;
        } else {
            done[i] = 0;
        }
    }
    let log = out.observed.decisions.clone().unwrap_or_default();
    let mut steps: Vec<Step> = Vec::new();
    let mut k = 0;
    while k < log.entries.len() {
        let pass = log.entries[k].pass;
        let first = k;
        while k < log.entries.len() && log.entries[k].pass == pass {
            k += 1;
        }
        let entries = &log.entries[first..k];
        let time = entries.last().map_or(0, |e| e.time);
        steps.push(step(trace, &blocks, &w, time, entries));
    }
    let first = jobs.iter().map(|j| j.submit).min().unwrap_or(0);
    let last = blocks
        .iter()
        .map(|b| b.end.max(b.planned_end))
        .chain(steps.iter().flat_map(|s| s.bookings.iter().map(|b| b.end)))
        .max()
        .unwrap_or(first + 1);
    Ok(Lesson {
        policy: cfg.policy.to_string(),
        machine: trace.machine,
        jobs,
        blocks,
        steps,
        span: (first, last.max(first + 1)),
    })
}

/// The state after the pass at `time` whose decisions are `entries`.
fn step(trace: &Trace, blocks: &[Block], w: &Words, time: i64, entries: &[Entry]) -> Step {
    let machine = trace.machine as usize;
    // Each processor's planned free time: the planned end of the piece running on it.
    let mut free_at = vec![time; machine];
    let mut busy = 0i64;
    for b in blocks.iter().filter(|b| b.start <= time && (b.end < 0 || b.end > time)) {
        for &(f, c) in &b.rows {
            for r in f..f + c {
                if let Some(slot) = free_at.get_mut(r as usize) {
                    *slot = (*slot).max(b.planned_end.max(time + 1));
                }
                busy += 1;
            }
        }
    }
    let mut waiting: Vec<usize> = Vec::new();
    let mut reservations: Vec<(u32, i64)> = Vec::new();
    let mut shadow = None;
    for e in entries {
        match &e.decision {
            Decision::Queue { order, .. } => waiting = order.iter().map(|&j| j as usize).collect(),
            Decision::Plan { reservations: r } => reservations.clone_from(r),
            Decision::Shadow { shadow: s, extra, .. } => shadow = Some((*s, *extra)),
            _ => {}
        }
    }
    // The jobs that started in the pass are no longer waiting; jobs that arrived after the
    // pass's queue was listed are not shown until the next pass.
    waiting.retain(|&j| {
        !blocks.iter().any(|b| b.job == j && b.start <= time && (b.end < 0 || b.end > time))
            && !entries.iter().any(|e| matches!(e.decision, Decision::Started { job, .. } if job as usize == j))
    });
    // Reservations take, in order, the processors planned free by their start, latest first
    // (so earlier holes stay for backfilling), then any.
    let mut bookings = Vec::new();
    for &(j, start) in &reservations {
        let job = &trace.jobs[j as usize];
        let end = start + job.estimate.max(1);
        let mut order: Vec<u32> = (0..machine as u32).collect();
        // `order` starts in row order, so the stable sort breaks ties by row.
        crate::sorting::by_key(&mut order, |&r| {
            let f = free_at[r as usize];
            if f <= start {
                (0, !f)
            } else {
                (1, !-f)
            }
        });
        let mut rows: Vec<u32> = order.into_iter().take(job.procs as usize).collect();
        rows.sort_unstable();
        for &r in &rows {
            free_at[r as usize] = end;
        }
        bookings.push(Booking { job: j as usize, start, end, rows: runs(&rows) });
    }
    Step {
        time,
        waiting,
        bookings,
        shadow,
        free: trace.machine as i64 - busy,
        sentences: entries.iter().map(|e| sentence(w, &e.decision)).collect(),
        decisions: entries.to_vec(),
    }
}

/// The lessons of a trace under several policies, and what was wrong in the trace.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Lessons {
    /// One lesson per policy, in the order asked.
    pub lessons: Vec<Lesson>,
    /// The trace's malformed or dropped lines, each with its line number and reason.
    pub problems: Vec<String>,
}

/// The lessons of `policies` on the SWF text `swf`, as the Learn view asks for them: the
/// settings (`KEY=VALUE`) that none of the chosen policies takes are left out rather than
/// refused, since an example's settings (omega, starve_h) belong to some of its policies only.
pub fn lessons(swf: &str, policies: &[String], settings: &[String]) -> Result<Lessons, String> {
    let all = Settings::parse(settings).map_err(|e| e.to_string())?;
    let families: Vec<&str> = policies
        .iter()
        .filter_map(|p| crate::policy::find(crate::policy::split_inline(p).map_or(p.as_str(), |(base, _)| base)))
        .map(|i| i.family)
        .collect();
    let taken = |key: &str| families.iter().any(|f| crate::policy::family_options(f).iter().any(|d| d.key == key));
    let kept: Vec<String> = settings
        .iter()
        .filter(|kv| {
            let key = crate::keys::normalize(kv.split('=').next().unwrap_or(""));
            !all.policy.iter().any(|(k, _)| *k == key) || taken(&key)
        })
        .cloned()
        .collect();
    let s = Settings::parse(&kept).map_err(|e| e.to_string())?;
    let trace = crate::trace::parse(swf.as_bytes(), &s.trace).map_err(|e| e.message)?;
    let configs = crate::run::configure(&policies.join(","), &s).map_err(|e| e.to_string())?;
    let lessons = configs.iter().map(|cfg| lesson(&trace, cfg, &s)).collect::<Result<Vec<_>, _>>()?;
    let mut problems: Vec<String> = trace.report.errors.iter().map(|e| e.to_string()).collect();
    problems.extend(trace.report.warnings.iter().cloned());
    Ok(Lessons { lessons, problems })
}
