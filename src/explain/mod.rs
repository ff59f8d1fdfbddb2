//! Explanations in plain sentences, read from a run's decision log
//! ([`crate::engine::decision`]): why one job started when it did ([`explain_job`]), what the
//! scheduler saw and did at one moment ([`explain_at`]), and each logged decision as a sentence
//! ([`sentence`]), as the CLI's `explain` and the page's Learn view show them; and the papers'
//! worked examples as small traces ([`examples`]).

pub mod examples;
pub mod learn;
pub mod lesson;

use serde::Serialize;

use crate::calendar::Civil;
use crate::engine::decision::{DecisionLog, Entry, LogWindow};
use crate::engine::{Decision, JobIdx, Outcome, Why};
use crate::policy::Configured;
use crate::render::axis::fmt_duration;
use crate::run::{simulate_configured, simulate_explained, Settings};
use crate::trace::Trace;

/// How sentences name the jobs, instants and durations of one trace.
pub struct Words<'a> {
    trace: &'a Trace,
}

impl<'a> Words<'a> {
    /// Words for `trace`.
    pub fn new(trace: &'a Trace) -> Self {
        Words { trace }
    }

    /// A job by its number in the trace: `job 17`.
    pub fn job(&self, idx: JobIdx) -> String {
        format!("job {}", self.trace.jobs[idx as usize].id)
    }

    /// An instant: the date and time (UTC) when the trace says when it began, else seconds
    /// from its start (`t=3600`).
    pub fn time(&self, t: i64) -> String {
        match self.trace.header.unix_start_time {
            Some(base) => {
                let c = Civil::from_unix(base + t);
                format!("{:04}-{:02}-{:02} {:02}:{:02}:{:02}", c.year, c.month, c.day, c.hour, c.minute, c.second)
            }
            None => format!("t={t}"),
        }
    }

    /// A duration as every view writes it (exact seconds up to two minutes).
    pub fn dur(&self, s: i64) -> String {
        fmt_duration(s as f64)
    }

    /// Jobs by number, as a person lists them: `job 4`, `jobs 1 and 4`, `jobs 1, 2, 4 and 9
    /// more` (ten at most, then how many more).
    pub fn jobs(&self, list: &[JobIdx]) -> String {
        let ids: Vec<String> = list.iter().take(10).map(|&j| self.trace.jobs[j as usize].id.to_string()).collect();
        match (ids.as_slice(), list.len()) {
            ([], _) => "no job".to_string(),
            ([one], 1) => format!("job {one}"),
            (_, n) if n > 10 => format!("jobs {} and {} more", ids.join(", "), n - 10),
            ([init @ .., last], _) => format!("jobs {} and {last}", init.join(", ")),
        }
    }
}

/// `1 job`, `2 jobs`: a count with its noun.
fn count(n: usize, noun: &str) -> String {
    match (n, noun.ends_with('s')) {
        (1, _) => format!("1 {noun}"),
        (_, true) => format!("{n} {noun}es"),
        _ => format!("{n} {noun}s"),
    }
}

/// `its processor is free`, `its 4 processors are free`.
fn its_free(procs: u32) -> String {
    if procs == 1 {
        "its processor is free".to_string()
    } else {
        format!("its {procs} processors are free")
    }
}

/// Capitalises the first letter of a sentence.
fn upper(s: String) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => std::iter::once(f.to_ascii_uppercase()).chain(c).collect(),
        None => s,
    }
}

/// Why a job could start, as the end of a sentence.
fn why_started(w: &Words, why: &Why, procs: u32) -> String {
    match why {
        Why::First => format!("{} and no job ahead of it holds a reservation", its_free(procs)),
        Why::Reservation => "its reservation's time has come".to_string(),
        Why::Free => its_free(procs),
        Why::BeforeShadow { end, shadow } => format!(
            "backfilled: it ends by {}, no later than the shadow time {}, so it cannot delay the reserved job",
            w.time(*end),
            w.time(*shadow)
        ),
        Why::ExtraProcessors { end, extra } => format!(
            "backfilled: it runs until {}, past the shadow time, but fits in the {extra} extra processors",
            w.time(*end)
        ),
        Why::NoDelay { reservations: 1 } => "backfilled: it does not delay the reservation ahead of it".to_string(),
        Why::NoDelay { reservations } => {
            format!("backfilled: it delays none of the {reservations} reservations ahead of it")
        }
        Why::WithinWindow { length, window } => format!(
            "backfilled: its runtime of {} is within the backfill window of {}",
            w.dur(*length),
            window.map_or("unbounded length".to_string(), |x| w.dur(x))
        ),
        Why::SmallDelay { delay, allowed } => format!(
            "backfilled: it delays the first job by {}, within the {} allowed",
            w.dur(*delay),
            allowed.map_or("unbounded delay".to_string(), |x| w.dur(x))
        ),
        Why::Partition { partition, rule: 'a', .. } => format!(
            "backfilled by rule a: it uses idle processors of its partition {partition} and ends before the pivot's start"
        ),
        Why::Partition { partition, rule: 'b', .. } => format!(
            "backfilled by rule b: it uses idle processors of its partition {partition} that the pivot will not need"
        ),
        Why::Partition { partition, borrowed: 0, .. } => {
            format!("backfilled by rule c: it fits in partition {partition} without delaying any pivot")
        }
        Why::Partition { partition, borrowed, .. } => format!(
            "backfilled by rule c: it borrows {} from other partitions for its partition {partition}, delaying no pivot",
            count(*borrowed as usize, "processor")
        ),
        Why::Pivot { partition, .. } => format!("it is the pivot of partition {partition} and its time has come"),
        Why::Speculative { limit } => {
            format!("as a speculative run: it is killed if it has not ended within {}", w.dur(*limit))
        }
        Why::Preempting { xfactor } => {
            format!("its xfactor {xfactor:.2} is high enough to suspend running jobs for its {procs} processors")
        }
        other => why_waits(w, other),
    }
}

/// Why a job waits, as the end of a sentence.
fn why_waits(w: &Words, why: &Why) -> String {
    match why {
        Why::TooWide { procs, free } => {
            format!(
                "it needs {} and {free} {} free",
                count(*procs as usize, "processor"),
                if *free == 1 { "is" } else { "are" }
            )
        }
        Why::WouldDelay { job, by } => {
            format!("started now, it would delay {}'s reservation by {}", w.job(*job), w.dur(*by))
        }
        Why::BehindFirst { first } => {
            format!("no backfilling: no job starts before {}, which waits", w.job(*first))
        }
        Why::BeyondWindow { length, window } => {
            format!("its runtime of {} exceeds the backfill window of {}", w.dur(*length), w.dur(*window))
        }
        Why::LargeDelay { delay, allowed } => {
            format!("it would delay the first job by {}, more than the {} allowed", w.dur(*delay), w.dur(*allowed))
        }
        Why::Pivot { partition, start } if *start == i64::MAX => {
            format!("it is the pivot of partition {partition}, and the plan has no start for it yet")
        }
        Why::Pivot { partition, start } => {
            format!("it is the pivot of partition {partition}, reserved for {}", w.time(*start))
        }
        Why::Other { text } => text.clone(),
        other => why_started(w, other, 0),
    }
}

/// One logged decision as a sentence.
pub fn sentence(w: &Words, d: &Decision) -> String {
    match d {
        Decision::Queue { order, free } if order.is_empty() => {
            format!(
                "No job waits; {} free.",
                if *free == 1 { "1 processor is".to_string() } else { format!("{free} processors are") }
            )
        }
        Decision::Queue { order, free } => {
            let free = match free {
                1 => "1 processor is".to_string(),
                n => format!("{n} processors are"),
            };
            format!("Waiting, in priority order: {}; {free} free.", w.jobs(order))
        }
        Decision::Reserved { job, start, was: None, procs } => {
            let procs = if *procs == 1 { "1 processor".to_string() } else { format!("{procs} processors") };
            format!("{} gets a reservation for {procs} at {}.", upper(w.job(*job)), w.time(*start))
        }
        Decision::Reserved { job, start, was: Some(was), .. } => format!(
            "{}'s reservation moves {}, from {} to {}.",
            upper(w.job(*job)),
            if start < was { "earlier" } else { "later" },
            w.time(*was),
            w.time(*start)
        ),
        Decision::Shadow { job, shadow, extra } => format!(
            "The shadow time is {} ({}'s reservation); {} left then.",
            w.time(*shadow),
            w.job(*job),
            match extra {
                0 => "no extra processors are".to_string(),
                1 => "1 extra processor is".to_string(),
                n => format!("{n} extra processors are"),
            }
        ),
        Decision::Started { job, why } => {
            let procs = w.trace.jobs[*job as usize].procs;
            format!("{} starts: {}.", upper(w.job(*job)), why_started(w, why, procs))
        }
        Decision::Waits { job, why } => format!("{} waits: {}.", upper(w.job(*job)), why_waits(w, why)),
        Decision::Window { job, hpwait, omega, window } => format!(
            "{} could start in {} (hpwait); with omega = {omega} the backfill window is {}.",
            upper(w.job(*job)),
            if *hpwait == i64::MAX { "no time the plan knows".to_string() } else { w.dur(*hpwait) },
            window.map_or("unbounded".to_string(), |x| w.dur(x))
        ),
        Decision::Plan { reservations } => {
            let list: Vec<String> =
                reservations.iter().take(10).map(|&(j, s)| format!("{} at {}", w.job(j), w.time(s))).collect();
            let more =
                if reservations.len() > 10 { format!(" and {} more", reservations.len() - 10) } else { String::new() };
            format!("Reservations after this pass: {}{more}.", list.join(", "))
        }
        Decision::Full { left: 1 } => "No processor is free: the other waiting job is not looked at.".to_string(),
        Decision::Full { left } => format!("No processor is free: the other {left} waiting jobs are not looked at."),
        Decision::Suspended { job, xfactor, for_job, for_xfactor } => format!(
            "{} (xfactor {xfactor:.2}) is suspended to make room for {} (xfactor {for_xfactor:.2}).",
            upper(w.job(*job)),
            w.job(*for_job)
        ),
        Decision::Resumed { job, xfactor } => {
            format!("{} resumes on its own processors (xfactor {xfactor:.2}).", upper(w.job(*job)))
        }
        Decision::Corrected { job, prediction } => format!(
            "{} ran past its predicted runtime: the scheduler now plans it with {}.",
            upper(w.job(*job)),
            w.dur(*prediction)
        ),
        Decision::Ended { job, procs } => {
            format!("{} ends, freeing {}.", upper(w.job(*job)), count(*procs as usize, "processor"))
        }
        Decision::Killed { job, checkpointed: true } => format!(
            "{} reached the maximum runtime: the segment ends, its work is kept, and it waits to run the next one.",
            upper(w.job(*job))
        ),
        Decision::Killed { job, checkpointed: false } => {
            format!("{} reached its run limit and is killed; it waits to start again.", upper(w.job(*job)))
        }
        Decision::Starving { job, waited } => format!(
            "{} has waited {}: it enters the starvation queue, ahead of the fairshare order.",
            upper(w.job(*job)),
            w.dur(*waited)
        ),
    }
}

/// A logged decision with its sentence, as explanations show them.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Said {
    /// The decision.
    #[serde(flatten)]
    pub entry: Entry,
    /// It in words.
    pub sentence: String,
}

/// Why one job started when it did.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct JobExplanation {
    /// Its number in the trace.
    pub job: u64,
    /// The policy.
    pub policy: String,
    /// Submit time, start time (or -1) and end time (or -1), seconds.
    pub submit: i64,
    /// First start, or -1 if it never started.
    pub start: i64,
    /// End, or -1.
    pub end: i64,
    /// Processors.
    pub procs: u32,
    /// The explanation, sentence by sentence.
    pub sentences: Vec<String>,
    /// Every logged decision about it, from its submission to its start.
    pub decisions: Vec<Said>,
    /// Set when its log outgrew the bound: the time from which nothing was kept.
    pub truncated_at: Option<i64>,
}

impl JobExplanation {
    /// The explanation as the command line prints it: its sentences, then every decision about
    /// the job at its time in `trace`'s words.
    pub fn text(&self, trace: &Trace) -> String {
        let mut out: Vec<String> = self.sentences.clone();
        if !self.decisions.is_empty() {
            let w = Words::new(trace);
            out.push(String::new());
            out.push("Every decision about it:".to_string());
            out.extend(self.decisions.iter().map(|d| format!("  {}  {}", w.time(d.entry.time), d.sentence)));
        }
        out.join("\n")
    }
}

/// How many jobs started ahead of a job are checked for having delayed it (each costs a run).
pub const COUNTERFACTUALS: usize = 20;

/// Finds a job by its number in the trace.
fn find(trace: &Trace, id: u64) -> Result<usize, String> {
    trace.jobs.iter().position(|j| j.id == id).ok_or_else(|| {
        let first = trace.jobs.first().map_or(0, |j| j.id);
        let last = trace.jobs.last().map_or(0, |j| j.id);
        format!("there is no job {id} in the trace (its {} jobs are numbered {first} to {last})", trace.jobs.len())
    })
}

/// Jobs running at `t` in a run with placements logged (its pieces: a suspended job is not
/// running), widest first: after the pass at `t`, or before it (`before_pass`: what an arriving
/// job finds).
fn running_at(trace: &Trace, out: &Outcome, t: i64, before_pass: bool) -> Vec<JobIdx> {
    let mut v: Vec<JobIdx> = out
        .pieces
        .iter()
        .filter(|p| (p.start < t || (p.start == t && !before_pass)) && (p.end < 0 || p.end > t))
        .map(|p| p.job)
        .collect();
    crate::sorting::by_key(&mut v, |&i| (!i64::from(trace.jobs[i as usize].procs), i as i64));
    v.dedup();
    v
}

/// The engine options of `settings` with placements logged, so pieces say who ran when.
fn placed(settings: &Settings) -> crate::engine::EngineOptions {
    let mut engine = settings.engine;
    engine.placements = true;
    engine
}

/// Explains why the job numbered `id` started when it did under `cfg`: what it waited for,
/// its reservations, the jobs started ahead of it and whether they held processors it needed.
pub fn explain_job(trace: &Trace, cfg: &Configured, settings: &Settings, id: u64) -> Result<JobExplanation, String> {
    let i = find(trace, id)?;
    let idx = i as JobIdx;
    let w = Words::new(trace);
    let job = &trace.jobs[i];
    let plain = simulate_configured(trace, cfg, &placed(settings), &mut |_| {});
    let rec = plain.records[i];
    let window =
        LogWindow { from: job.submit, to: if rec.start >= 0 { rec.start } else { i64::MAX }, ..Default::default() };
    let logged = simulate_explained(trace, cfg, &settings.engine, window);
    let log = logged.observed.decisions.clone().unwrap_or_default();
    let mine: Vec<&Entry> = log.entries.iter().filter(|e| e.decision.job() == Some(idx)).collect();
    let mut s = Vec::new();

    // What it is and what happened to it.
    let name = upper(w.job(idx));
    let shape = format!(
        "{}, estimate {}, ran {}",
        count(job.procs as usize, "processor"),
        w.dur(job.estimate),
        w.dur(job.runtime)
    );
    if rec.start < 0 {
        s.push(format!("{name} ({shape}) was submitted at {} and never started.", w.time(job.submit)));
    } else {
        let wait = rec.start - job.submit;
        let how = if rec.backfilled { " as a backfill" } else { "" };
        s.push(format!(
            "{name} ({shape}) was submitted at {} and started{how} at {}, after waiting {}.",
            w.time(job.submit),
            w.time(rec.start),
            w.dur(wait)
        ));
    }

    // The machine and the queue when it arrived.
    let busy_then = running_at(trace, &plain, job.submit, true);
    let busy: u32 = busy_then.iter().map(|&j| trace.jobs[j as usize].procs).sum();
    let ahead = (0..i).filter(|&j| plain.records[j].start < 0 || plain.records[j].start > job.submit).count();
    let waiting = match ahead {
        0 => "no job submitted before it was waiting".to_string(),
        1 => "1 job submitted before it was waiting".to_string(),
        n => format!("{n} jobs submitted before it were waiting"),
    };
    if busy_then.is_empty() {
        s.push(format!("When it arrived, all {} processors were free and {waiting}.", trace.machine));
    } else {
        s.push(format!(
            "When it arrived, {busy} of {} processors were busy ({} running) and {waiting}.",
            trace.machine,
            w.jobs(&busy_then)
        ));
    }

    // The passes that left it waiting, by reason.
    let mut too_wide = (0usize, i64::MAX, 0i64);
    let mut delays: Vec<(JobIdx, i64)> = Vec::new();
    let mut behind: Vec<JobIdx> = Vec::new();
    let mut other: Vec<String> = Vec::new();
    for e in &mine {
        if let Decision::Waits { why, .. } = &e.decision {
            match why {
                Why::TooWide { free, .. } => {
                    too_wide.0 += 1;
                    too_wide.1 = too_wide.1.min(*free);
                    too_wide.2 = too_wide.2.max(*free);
                }
                Why::WouldDelay { job, by } => delays.push((*job, *by)),
                Why::BehindFirst { first } => behind.push(*first),
                w2 => other.push(why_waits(&w, w2)),
            }
        }
    }
    let looked = mine.iter().filter(|e| matches!(e.decision, Decision::Waits { .. })).count();
    if looked > 0 {
        let mut parts = Vec::new();
        if too_wide.0 > 0 {
            parts.push(format!(
                "{} too few processors were free (it needs {}; {} were free)",
                count(too_wide.0, "time"),
                job.procs,
                if too_wide.1 == too_wide.2 {
                    too_wide.1.to_string()
                } else {
                    format!("{} to {}", too_wide.1, too_wide.2)
                }
            ));
        }
        if !delays.is_empty() {
            let mut whose: Vec<JobIdx> = delays.iter().map(|d| d.0).collect();
            whose.sort_unstable();
            whose.dedup();
            let worst = delays.iter().map(|d| d.1).max().unwrap_or(0);
            parts.push(format!(
                "{} it would have delayed the reservation of {} (by up to {})",
                count(delays.len(), "time"),
                w.jobs(&whose),
                w.dur(worst)
            ));
        }
        if !behind.is_empty() {
            behind.dedup();
            parts.push(format!(
                "{} it waited behind {} (first come, first served)",
                count(behind.len(), "time"),
                w.jobs(&behind)
            ));
        }
        if !other.is_empty() {
            parts.push(format!("{} because {}", count(other.len(), "time"), other[0]));
        }
        s.push(format!("It was looked at and left waiting in {}: {}.", count(looked, "pass"), parts.join("; ")));
    }

    // Its reservations.
    for e in &mine {
        if let Decision::Reserved { .. } = e.decision {
            s.push(format!("At {}: {}", w.time(e.time), sentence(&w, &e.decision)));
        }
    }

    if rec.start >= 0 {
        // Its start, in the policy's words, and what freed its processors.
        if let Some(e) = mine.iter().rev().find(|e| matches!(e.decision, Decision::Started { .. })) {
            s.push(format!("At {}: {}", w.time(e.time), sentence(&w, &e.decision)));
        }
        let freed: Vec<JobIdx> = (0..trace.jobs.len())
            .filter(|&j| plain.records[j].end == rec.start && j != i)
            .map(|j| j as JobIdx)
            .collect();
        if !freed.is_empty() && rec.start > job.submit {
            let procs: u32 = freed.iter().map(|&j| trace.jobs[j as usize].procs).sum();
            s.push(format!(
                "It started when {} ended, freeing {}.",
                w.jobs(&freed),
                count(procs as usize, "processor")
            ));
        }

        // Jobs submitted after it that started first, and whether they held processors it needed.
        let overtaken: Vec<JobIdx> = (i + 1..trace.jobs.len())
            .filter(|&j| {
                let r = &plain.records[j];
                r.start >= 0 && r.start < rec.start
            })
            .map(|j| j as JobIdx)
            .collect();
        if overtaken.is_empty() {
            if rec.start > job.submit {
                s.push("No job submitted after it started before it.".to_string());
            }
        } else {
            // Whether they delayed it: the same run without each of them (the first
            // `COUNTERFACTUALS`, earliest start first), compared at this job's start.
            let mut checked: Vec<JobIdx> = overtaken.clone();
            crate::sorting::by_key(&mut checked, |&j| (plain.records[j as usize].start, j as i64));
            checked.truncate(COUNTERFACTUALS);
            let mut delayed_by: Vec<(JobIdx, i64)> = Vec::new();
            for &x in &checked {
                let mut without = trace.clone();
                without.jobs.remove(x as usize);
                let out = simulate_configured(&without, cfg, &settings.engine, &mut |_| {});
                let alt = out.records[i].start;
                if alt >= 0 && alt < rec.start {
                    delayed_by.push((x, rec.start - alt));
                }
            }
            let verdict = if delayed_by.is_empty() {
                if checked.len() == 1 {
                    "without that job it would not have started earlier, so it did not delay it".to_string()
                } else {
                    format!(
                        "without any one of the {} checked it would not have started earlier, so none of them delayed it",
                        checked.len()
                    )
                }
            } else {
                let each: Vec<String> = delayed_by
                    .iter()
                    .map(|&(x, by)| format!("without {} it would have started {} earlier", w.job(x), w.dur(by)))
                    .collect();
                format!(
                    "{}, so {} delayed it",
                    each.join("; "),
                    if delayed_by.len() == 1 { "that job" } else { "those jobs" }
                )
            };
            let verdict = if overtaken.len() > checked.len() {
                format!("{verdict} (only the first {} to start were checked)", checked.len())
            } else {
                verdict
            };
            s.push(format!(
                "{} submitted after it started before it ({}); {verdict}.",
                count(overtaken.len(), "job"),
                w.jobs(&overtaken)
            ));
        }
    }
    if let Some(t) = log.truncated_at {
        s.push(format!(
            "The decision log stopped at {} (it outgrew its bound); what follows that moment is not explained.",
            w.time(t)
        ));
    }
    // A shadow time is said again at every pass that keeps it: listed once until it changes.
    let mut last_shadow = None;
    let decisions = mine
        .into_iter()
        .filter(|e| match e.decision {
            Decision::Shadow { shadow, extra, .. } => last_shadow.replace((shadow, extra)) != Some((shadow, extra)),
            _ => true,
        })
        .map(|e| Said { entry: e.clone(), sentence: sentence(&w, &e.decision) })
        .collect();
    Ok(JobExplanation {
        job: id,
        policy: cfg.policy.to_string(),
        submit: job.submit,
        start: rec.start,
        end: rec.end,
        procs: job.procs,
        sentences: s,
        decisions,
        truncated_at: log.truncated_at,
    })
}

/// One job as a moment shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct JobAt {
    /// Its number in the trace.
    pub job: u64,
    /// Processors.
    pub procs: u32,
    /// Submit time.
    pub submit: i64,
    /// Its start (running jobs: when it started; waiting jobs: when it will), or -1.
    pub start: i64,
    /// Its end, or -1.
    pub end: i64,
    /// Its reservation after the last pass, for a waiting job that holds one.
    pub reservation: Option<i64>,
}

/// What the scheduler saw and did in its last pass at or before a moment.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Moment {
    /// The moment asked about.
    pub time: i64,
    /// The time of the last pass at or before it, if there was one.
    pub pass_time: Option<i64>,
    /// Processors free after that pass.
    pub free: i64,
    /// Jobs running at the moment, by start.
    pub running: Vec<JobAt>,
    /// Jobs waiting at the moment, in the policy's priority order (a suspended job among them:
    /// its `start` is before the moment).
    pub waiting: Vec<JobAt>,
    /// The pass, decision by decision.
    pub decisions: Vec<Said>,
    /// A summary in sentences.
    pub sentences: Vec<String>,
}

/// The state of the queue and the machine at time `t` under `cfg`, with the decisions of the
/// last scheduling pass at or before it.
pub fn explain_at(trace: &Trace, cfg: &Configured, settings: &Settings, t: i64) -> Moment {
    let w = Words::new(trace);
    let window = LogWindow { to: t, last_pass: true, ..Default::default() };
    let out = simulate_explained(trace, cfg, &placed(settings), window);
    let log: DecisionLog = out.observed.decisions.clone().unwrap_or_default();
    let at = |i: usize, reservation: Option<i64>| {
        let j = &trace.jobs[i];
        JobAt {
            job: j.id,
            procs: j.procs,
            submit: j.submit,
            start: out.records[i].start,
            end: out.records[i].end,
            reservation,
        }
    };
    let mut running: Vec<JobAt> = running_at(trace, &out, t, false).into_iter().map(|j| at(j as usize, None)).collect();
    crate::sorting::by_key(&mut running, |j| (j.start, crate::sorting::unsigned(j.job)));
    let reservations: Vec<(JobIdx, i64)> = log
        .entries
        .iter()
        .rev()
        .find_map(|e| if let Decision::Plan { reservations } = &e.decision { Some(reservations.clone()) } else { None })
        .unwrap_or_default();
    let reserved = |j: JobIdx| reservations.iter().find(|r| r.0 == j).map(|r| r.1);
    // Waiting: submitted, not ended, and not running (a suspended or killed job waits again).
    let running_now: Vec<JobIdx> = running_at(trace, &out, t, false);
    let waiting_now = |i: usize| {
        let r = &out.records[i];
        trace.jobs[i].submit <= t && !(r.end >= 0 && r.end <= t) && !running_now.contains(&(i as JobIdx))
    };
    // The pass's own order, then any job that arrived after the pass but by `t`.
    let mut order: Vec<JobIdx> = log
        .entries
        .iter()
        .find_map(|e| if let Decision::Queue { order, .. } = &e.decision { Some(order.clone()) } else { None })
        .unwrap_or_default();
    order.retain(|&j| waiting_now(j as usize));
    for i in 0..trace.jobs.len() {
        if waiting_now(i) && !order.contains(&(i as JobIdx)) {
            order.push(i as JobIdx);
        }
    }
    let waiting: Vec<JobAt> = order.iter().map(|&j| at(j as usize, reserved(j))).collect();
    let busy: i64 = running.iter().map(|j| j.procs as i64).sum();
    let free = trace.machine as i64 - busy;
    let pass_time = log.entries.first().map(|e| e.time);
    let mut sentences = vec![format!(
        "At {}, {} on {busy} of {} processors and {}.",
        w.time(t),
        match running.len() {
            0 => "no job runs".to_string(),
            1 => "1 job runs".to_string(),
            n => format!("{n} jobs run"),
        },
        trace.machine,
        match waiting.len() {
            0 => "no job waits".to_string(),
            1 => "1 job waits".to_string(),
            n => format!("{n} jobs wait"),
        }
    )];
    if let Some(p) = pass_time {
        sentences.push(format!("The last scheduling pass at or before it ran at {}:", w.time(p)));
    }
    let decisions: Vec<Said> =
        log.entries.iter().map(|e| Said { entry: e.clone(), sentence: sentence(&w, &e.decision) }).collect();
    sentences.extend(decisions.iter().map(|d| d.sentence.clone()));
    Moment { time: t, pass_time, free, running, waiting, decisions, sentences }
}

/// The whole decision log of a run within `window`, each decision with its sentence.
pub fn decision_log(
    trace: &Trace,
    cfg: &Configured,
    settings: &Settings,
    window: LogWindow,
) -> (Outcome, Vec<Said>, Option<i64>) {
    let out = simulate_explained(trace, cfg, &settings.engine, window);
    let w = Words::new(trace);
    let log = out.observed.decisions.clone().unwrap_or_default();
    let said = log.entries.into_iter().map(|e| Said { sentence: sentence(&w, &e.decision), entry: e }).collect();
    (out, said, log.truncated_at)
}
