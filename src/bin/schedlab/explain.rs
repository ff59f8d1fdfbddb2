//! `schedlab explain`: why a job started when it did, what one moment looked like, or the
//! decision log, in sentences or JSON.

use schedlab::engine::decision::LogWindow;
use schedlab::explain::lesson::lesson;
use schedlab::explain::{decision_log, explain_at, explain_job, Words};
use schedlab::render::learn::learn_chart;
use schedlab::run::configure;

use crate::{load_trace, one_trace, usage, Args, Fail};

/// Runs the `explain` subcommand.
pub fn cmd_explain(a: &Args) -> Result<(), Fail> {
    let path = one_trace(a)?;
    let name = a.policy.as_deref().ok_or_else(|| usage("explain needs --policy NAME"))?;
    // A worked example runs with its own settings where the policy takes them (the user's
    // --set come after, and win).
    let mut sets: Vec<String> = path
        .strip_prefix("example:")
        .and_then(schedlab::explain::examples::find)
        .map(|e| schedlab::explain::examples::settings_for(e, &[name]))
        .unwrap_or_default();
    sets.extend(a.sets.iter().cloned());
    let s = schedlab::run::Settings::parse(&sets).map_err(|e| usage(format!("--set {e}")))?;
    let configs = configure(name, &s).map_err(|e| usage(e.to_string()))?;
    let [cfg] = configs.as_slice() else {
        return Err(usage("explain takes one policy"));
    };
    let json = match a.format.as_deref().unwrap_or("text") {
        "text" | "table" => false,
        "json" => true,
        f => return Err(usage(format!("--format {f}: expected text or json"))),
    };
    let asked = [a.job.is_some(), a.at.is_some(), a.log].iter().filter(|&&x| x).count();
    if asked != 1 {
        return Err(usage("explain needs one of --job ID, --at TIME or --log"));
    }
    let trace = load_trace(path, &s)?;
    let print_json = |v: &dyn erased::Json| -> Result<(), Fail> {
        out!("{}", v.to_json()?);
        Ok(())
    };
    if let Some(id) = a.job {
        let e = explain_job(&trace, cfg, &s, id).map_err(crate::fail)?;
        if json {
            return print_json(&e);
        }
        out!("{}", e.text(&trace));
    } else if let Some(t) = a.at {
        let m = explain_at(&trace, cfg, &s, t);
        if json {
            return print_json(&m);
        }
        let w = Words::new(&trace);
        for line in &m.sentences {
            out!("{line}");
        }
        out!("");
        out!("Running:");
        for j in &m.running {
            out!("  job {:<8} {:>6} processors  since {}  until {}", j.job, j.procs, w.time(j.start), w.time(j.end));
        }
        out!("Waiting, in priority order:");
        for j in &m.waiting {
            let mut reservation = j.reservation.map(|r| format!("  reserved for {}", w.time(r))).unwrap_or_default();
            if j.start >= 0 && j.start <= t {
                reservation.push_str(&format!("  (suspended or stopped; first started {})", w.time(j.start)));
            }
            out!("  job {:<8} {:>6} processors  submitted {}{reservation}", j.job, j.procs, w.time(j.submit));
        }
    } else if let Some(dir) = a.plot.as_deref() {
        // One picture per step of the lesson, as the page's Learn view draws it.
        let out = crate::plot::Out::new(dir)?;
        let lesson = lesson(&trace, cfg, &s).map_err(crate::fail)?;
        let opts = crate::plot::options(trace.header.unix_start_time);
        for (k, step) in lesson.steps.iter().enumerate() {
            let stem = format!("learn-{}-{:03}", crate::plot::file_name(&cfg.policy), k);
            out.chart(&stem, &learn_chart(&lesson, k, &opts))?;
            out!("{stem}: t={}", step.time);
            for line in &step.sentences {
                out!("  {line}");
            }
        }
    } else {
        let window = LogWindow { from: a.from.unwrap_or(i64::MIN), to: a.to.unwrap_or(i64::MAX), ..Default::default() };
        let (_, said, truncated) = decision_log(&trace, cfg, &s, window);
        if json {
            let v = serde_json::json!({ "policy": cfg.policy, "decisions": said, "truncated_at": truncated });
            out!("{}", serde_json::to_string_pretty(&v).map_err(|e| crate::fail(e.to_string()))?);
            return Ok(());
        }
        let w = Words::new(&trace);
        let mut pass = u64::MAX;
        for d in &said {
            if d.entry.pass != pass {
                pass = d.entry.pass;
                out!("pass {} at {}", pass, w.time(d.entry.time));
            }
            out!("  {}", d.sentence);
        }
        if let Some(t) = truncated {
            out!(
                "(the log stopped at {}: it outgrew its bound of a million items; narrow it with --from and --to)",
                w.time(t)
            );
        }
    }
    Ok(())
}

/// JSON output of the explanations, whatever their type.
mod erased {
    use crate::Fail;

    /// A value printed as pretty JSON.
    pub trait Json {
        fn to_json(&self) -> Result<String, Fail>;
    }

    impl<T: serde::Serialize> Json for T {
        fn to_json(&self) -> Result<String, Fail> {
            serde_json::to_string_pretty(self).map_err(|e| crate::fail(e.to_string()))
        }
    }
}
