//! A paper's qualitative findings checked on any trace: each claim is computed from fresh runs
//! and reported as holding or not, never hidden.
//!
//! Tsafrir, Etsion & Feitelson (2007): EASY+ improves on EASY, EASY++ on EASY+ and PERFECT++ on
//! EASY++ in average bounded slowdown (Tables 2-3); EASY+'s accuracy is far above EASY's
//! (Table 2: +28% to +100%); and doubling (X2) amplifies the heel-and-toe effect (Table 10).

use serde::Serialize;

use crate::policy::PolicyError;
use crate::run::{configure, run_one, PolicyResult, Settings};
use crate::trace::Trace;

/// The policies the Tsafrir et al. study runs, in table order.
pub const TSAFRIR_POLICIES: &[&str] = &["easy", "easy-sjbf", "easy+", "easy++", "perfect++", "x2"];

/// EASY+'s accuracy must be at least this many times EASY's to count as "far above".
pub const FAR_ABOVE: f64 = 1.2;

/// One claim of a paper and whether this trace bears it out.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Finding {
    /// The claim, as the paper makes it.
    pub claim: &'static str,
    /// Whether it holds on this trace.
    pub holds: bool,
    /// The numbers behind the verdict.
    pub detail: String,
}

/// The runs of a study and the findings drawn from them.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Study {
    /// One result per policy, in [`TSAFRIR_POLICIES`] order.
    pub results: Vec<PolicyResult>,
    /// EASY+ and EASY++ with section 4's predictor (the last two jobs only if both have the new
    /// job's estimate: `window_type=immediate fullness=full`), which Tables 4-5 use; named
    /// `easy+ (sec. 4)` and `easy++ (sec. 4)`.
    pub section4: Vec<PolicyResult>,
    /// The claims checked.
    pub findings: Vec<Finding>,
}

impl Study {
    /// The result of `policy`.
    pub fn get(&self, policy: &str) -> Option<&PolicyResult> {
        self.results.iter().find(|r| r.policy == policy)
    }
}

/// Runs the Tsafrir et al. policies on `trace` and checks the paper's findings.
pub fn tsafrir(trace: &Trace, settings: &Settings) -> Result<Study, PolicyError> {
    let configs = configure(&TSAFRIR_POLICIES.join(","), settings)?;
    let results: Vec<PolicyResult> = configs.iter().map(|c| run_one(trace, c, settings).1).collect();
    let m = |p: &str| &results.iter().find(|r| r.policy == p).expect("policy ran").metrics;
    let better = |claim: &'static str, a: &str, b: &str| {
        let (x, y) = (m(a).avg_bsld, m(b).avg_bsld);
        Finding { claim, holds: x < y, detail: format!("{a} {x:.2} vs {b} {y:.2} ({:+.1}%)", 100.0 * (x - y) / y) }
    };
    let (acc_plus, acc_easy) = (m("easy+").accuracy_pct, m("easy").accuracy_pct);
    let (st_x2, st_easy) = (m("x2").stalled_pct, m("easy").stalled_pct);
    let findings = vec![
        better("EASY+ improves on EASY (avg bounded slowdown)", "easy+", "easy"),
        better("EASY++ improves on EASY+ (avg bounded slowdown)", "easy++", "easy+"),
        better("PERFECT++ improves on EASY++ (avg bounded slowdown)", "perfect++", "easy++"),
        Finding {
            claim: "EASY+'s accuracy is far above EASY's (at least 1.2x)",
            holds: acc_plus >= FAR_ABOVE * acc_easy,
            detail: format!("easy+ {acc_plus:.1}% vs easy {acc_easy:.1}% ({:.2}x)", acc_plus / acc_easy.max(1e-9)),
        },
        Finding {
            claim: "X2 amplifies heel and toe: more stalled jobs than EASY (Table 10)",
            holds: st_x2 > st_easy,
            detail: format!("x2 {st_x2:.1}% vs easy {st_easy:.1}% of reserved jobs stalled"),
        },
    ];
    let mut s4 = settings.clone();
    s4.policy.push(("window_type".into(), "immediate".into()));
    s4.policy.push(("fullness".into(), "full".into()));
    let mut section4 = Vec::new();
    for name in ["easy+", "easy++"] {
        let cfg = configure(name, &s4)?;
        let (_, mut r) = run_one(trace, &cfg[0], &s4);
        r.policy = format!("{name} (sec. 4)");
        section4.push(r);
    }
    Ok(Study { results, section4, findings })
}
