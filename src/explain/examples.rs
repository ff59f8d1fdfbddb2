//! The papers' worked examples as small traces: what the Learn view steps through and what
//! `schedlab explain example:NAME` reads. Each is a plain SWF text whose schedule under its
//! policies is worked out by hand in `tests/explain.rs`.

use serde::Serialize;

/// One worked example.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Example {
    /// Its name in links and on the command line (`tsafrir-fig1`).
    pub name: &'static str,
    /// Its title.
    pub title: &'static str,
    /// Where it comes from.
    pub source: &'static str,
    /// What to look for, in a sentence or two.
    pub lesson: &'static str,
    /// The policies it compares, side by side.
    pub policies: &'static [&'static str],
    /// Settings (`KEY=VALUE`) it runs with.
    pub settings: &'static [&'static str],
    /// The trace, as SWF text.
    pub swf: &'static str,
}

/// Every worked example, in the order the Learn view lists them.
pub const EXAMPLES: &[Example] = &[
    Example {
        name: "tsafrir-fig1",
        title: "EASY backfilling",
        source: "Tsafrir, Etsion & Feitelson 2007, Fig. 1",
        lesson: "Job 3 cannot start, so it gets a reservation when job 1 ends: the shadow time. Job 4 ends exactly then, so it is backfilled; make it one second longer and it must wait.",
        policies: &["fcfs", "easy"],
        settings: &[],
        swf: "; Computer: Tsafrir et al. Fig. 1\n; MaxProcs: 8\n\
1 0 -1 3 4 -1 -1 4 3 -1 1 1 1 -1 1 -1 -1 -1\n\
2 0 -1 6 2 -1 -1 2 6 -1 1 2 2 -1 1 -1 -1 -1\n\
3 1 -1 4 6 -1 -1 6 4 -1 1 3 3 -1 1 -1 -1 -1\n\
4 1 -1 2 2 -1 -1 2 2 -1 1 4 4 -1 1 -1 -1 -1\n",
    },
    Example {
        name: "kettimuthu-fig2",
        title: "Conservative and aggressive backfilling",
        source: "Kettimuthu et al. 2003, Figs. 2.1 and 2.2",
        lesson: "Conservative backfilling gives every job a reservation: job 5 could start at once but would delay job 4, so it is reserved after it. Aggressive (EASY) backfilling protects only the first job: job 5 fits in the extra processors and starts, and job 4 starts later.",
        policies: &["conservative", "easy"],
        settings: &[],
        swf: "; Computer: Kettimuthu et al. Figs. 2.1-2.2\n; MaxProcs: 10\n\
1 0 -1 40 4 -1 -1 4 40 -1 1 1 1 -1 1 -1 -1 -1\n\
2 0 -1 80 4 -1 -1 4 80 -1 1 2 2 -1 1 -1 -1 -1\n\
3 1 -1 20 8 -1 -1 8 20 -1 1 3 3 -1 1 -1 -1 -1\n\
4 1 -1 30 10 -1 -1 10 30 -1 1 4 4 -1 1 -1 -1 -1\n\
5 1 -1 120 2 -1 -1 2 120 -1 1 5 5 -1 1 -1 -1 -1\n",
    },
    Example {
        name: "ward-omega",
        title: "Relaxed backfilling",
        source: "Ward, Mahood & West 2002, Fig. 2",
        lesson: "Job 2 comes first but must wait 99 s for job 1 (its hpwait). Relaxed backfilling with omega = 2 lets any job no longer than 2 x 99 s backfill, even one that delays job 2: job 4 (150 s) starts and job 2 waits for it. EASY lets only job 3 through, which ends before job 2's reservation; job 5 (10 min) is too long for both.",
        policies: &["easy", "relaxed"],
        settings: &["omega=2"],
        swf: "; Computer: relaxed backfilling\n; MaxProcs: 8\n\
1 0 -1 100 6 -1 -1 6 100 -1 1 1 1 -1 1 -1 -1 -1\n\
2 1 -1 50 8 -1 -1 8 50 -1 1 2 2 -1 1 -1 -1 -1\n\
3 1 -1 60 1 -1 -1 1 60 -1 1 3 3 -1 1 -1 -1 -1\n\
4 1 -1 150 1 -1 -1 1 150 -1 1 4 4 -1 1 -1 -1 -1\n\
5 1 -1 600 1 -1 -1 1 600 -1 1 5 5 -1 1 -1 -1 -1\n",
    },
    Example {
        name: "lawson-borrow",
        title: "Multiple-queue backfilling",
        source: "Lawson & Smirni 2002, Fig. 2",
        lesson: "Three queues by estimate, each with a partition of 3 processors. Job 1 borrows 3 processors to start; job 2, the pivot of queue 1, is reserved for when job 1 ends; job 3 backfills by rule c with 2 borrowed processors. Jobs 4 and 5 have long estimates, so each first runs speculatively for 180 s: job 4 ends in time, job 5 is killed and queues again.",
        policies: &["sq-backfill", "mq-backfill"],
        settings: &[],
        swf: "; Computer: multiple-queue backfilling\n; MaxProcs: 9\n\
1 0 -1 300 6 -1 -1 6 300 -1 1 1 1 -1 1 -1 -1 -1\n\
2 0 -1 200 5 -1 -1 5 200 -1 1 2 2 -1 1 -1 -1 -1\n\
3 0 -1 100 2 -1 -1 2 100 -1 1 3 3 -1 1 -1 -1 -1\n\
4 1 -1 100 1 -1 -1 1 3000 -1 1 4 4 -1 1 -1 -1 -1\n\
5 1 -1 2000 1 -1 -1 1 3000 -1 1 5 5 -1 1 -1 -1 -1\n",
    },
    Example {
        name: "leung-starvation",
        title: "Fairshare and the starvation queue",
        source: "Leung, Sabin & Sadayappan 2010, section II.A",
        lesson: "Jobs 1 and 2 belong to user 1, who has used the machine most, so fairshare order puts user 2's jobs 3 and 4 first. Job 2 has waited 36 s by t=37 (starve_h = 0.01 h): it enters the starvation queue, gets a reservation, and starts first when job 1 ends.",
        policies: &["cplant24.nomax.all", "easy"],
        settings: &["starve_h=0.01"],
        swf: "; Computer: fairshare with a starvation queue\n; MaxProcs: 4\n\
1 0 -1 100 4 -1 -1 4 100 -1 1 1 1 -1 1 -1 -1 -1\n\
2 1 -1 100 4 -1 -1 4 100 -1 1 1 1 -1 1 -1 -1 -1\n\
3 2 -1 150 2 -1 -1 2 150 -1 1 2 2 -1 1 -1 -1 -1\n\
4 3 -1 150 2 -1 -1 2 150 -1 1 2 2 -1 1 -1 -1 -1\n",
    },
    Example {
        name: "kettimuthu-ss",
        title: "Selective suspension",
        source: "Kettimuthu et al. 2003, chapter 3",
        lesson: "Job 2 waits behind a long job. Its xfactor, (wait + estimate) / estimate, grows while it waits; once it is twice job 1's, job 2 suspends job 1, runs, and job 1 resumes on its own processors.",
        policies: &["ns", "ss"],
        settings: &[],
        swf: "; Computer: selective suspension\n; MaxProcs: 4\n\
1 0 -1 1000 4 -1 -1 4 1000 -1 1 1 1 -1 1 -1 -1 -1\n\
2 10 -1 100 4 -1 -1 4 100 -1 1 2 2 -1 1 -1 -1 -1\n",
    },
];

/// The example named `name`.
pub fn find(name: &str) -> Option<&'static Example> {
    let n = crate::keys::normalize(name);
    EXAMPLES.iter().find(|e| crate::keys::normalize(e.name) == n)
}

/// The settings of `example` that at least one of `policies` takes (omega goes with relaxed
/// backfilling, starve_h with the fairshare family): what a run of those policies on it uses.
pub fn settings_for(example: &Example, policies: &[&str]) -> Vec<String> {
    let families: Vec<&str> = policies.iter().filter_map(|p| crate::policy::find(p)).map(|i| i.family).collect();
    example
        .settings
        .iter()
        .filter(|kv| {
            let key = crate::keys::normalize(kv.split('=').next().unwrap_or(""));
            families.iter().any(|f| crate::policy::family_options(f).iter().any(|d| d.key == key))
        })
        .map(|kv| kv.to_string())
        .collect()
}
