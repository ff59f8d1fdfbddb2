//! SchedLab: a parallel-job-scheduling simulator for Standard Workload Format traces.
//!
//! The data flows one way, each stage a plain value:
//!
//! ```text
//! bytes --trace::Loader--> packed --trace::parse--> Trace --engine::simulate(Policy)--> Outcome --metrics::summarize--> Metrics
//! ```
//!
//! Where things are:
//!
//! - [`trace`]: SWF parsing (plain or gzip), Slurm `sacct` output and PBS and Grid Engine
//!   accounting logs read as a trace (docs/ACCOUNTING.md), the trace options (machine size, load scaling, runtime source,
//!   overrun, wide jobs) and the report of what was dropped or altered, each
//!   reason with its first line. [`trace::Loader`] reads a file in chunks into a packed trace of
//!   about 20 bytes a job, which `trace::parse` reads like the file (how the page and the CLI
//!   take files of a gigabyte); docs/ROBUSTNESS.md lists every kind of bad input it reports.
//! - [`engine`]: the discrete-event loop, the machine (processor identities when a policy
//!   suspends jobs or placements are drawn, counts otherwise), the
//!   [`engine::Policy`] trait every scheduler implements, and the [`engine::Observer`]s that
//!   measure what a study needs (prediction accuracy, first reservations, heel and toe) without
//!   the loop paying for them when nobody asks.
//! - [`explain`]: why a job started when it did, what one moment looked like, and each
//!   scheduling decision in a sentence, read from the decision log
//!   ([`engine::decision`]: each policy family's reasons in its own terms, kept by an observer
//!   attached only when asked for); the papers' worked examples as small traces, and lessons
//!   (a small trace's run step by step) for the page's Learn view.
//! - [`predict`]: runtime predictions from user history and their correction (Tsafrir et al.).
//! - [`profile`]: the availability profile (free processors over future time) that all
//!   backfilling policies plan with.
//! - [`policy`]: one file per policy family and the registry of named presets
//!   (`fcfs`, `easy`, `conservative`, the prediction variants `easy+`, `easy++`, `perfect++`, ...).
//! - [`metrics`]: per-job records, aggregates (wait, response, bounded slowdown,
//!   utilization, loss of capacity) and compressed time series.
//! - [`render`]: every chart, laid out by plotters into a display list that the page paints on
//!   a canvas and the CLI writes as SVG or PNG (the same picture, the same hash), with hit
//!   regions and the numbers drawn; the comparison charts, the Gantt chart, generic charts for
//!   the studies, the Learn view's step chart, and the answer in words on the page's first
//!   screen.
//! - [`fairstart`]: the hybrid fair start time of Leung et al., an observer of any policy's run.
//! - [`studies`]: the papers' studies, one file per paper, above everything else: Tsafrir's
//!   and Ward's findings, parameter sweeps, Lawson & Smirni's multiple queues, Kettimuthu's
//!   selective preemption, Leung's CPlant fairshare policies.
//! - [`check`]: the invariants every completed simulation keeps, checked on its outcome (tests,
//!   property tests and fuzz targets share it).
//! - [`run`]: `KEY=VALUE` settings and the whole flow in one call, as the CLI uses it.
//! - [`keys`]: how names and keys are matched (case-insensitive, `-` = `_`).
//!
//! - `web` (wasm32 only): the functions the page's Web Workers call (structured values through
//!   serde-wasm-bindgen) and the charts painted on the page's canvases.
//!
//! The command-line tool lives in `src/bin/schedlab/`. The library does no I/O and starts
//! no threads, so it compiles unchanged to WebAssembly.
//!
//! ```
//! let swf = b"; MaxProcs: 4\n1 0 -1 100 4 -1 -1 4 100 -1 1 1 1 -1 1 -1 -1 -1\n";
//! let trace = schedlab::trace::parse(swf, &Default::default()).unwrap();
//! let settings = schedlab::run::Settings::default();
//! let cfg = schedlab::run::configure("easy", &settings).unwrap();
//! let (_, result) = schedlab::run::run_one(&trace, &cfg[0], &settings);
//! assert_eq!(result.metrics.avg_wait_s, 0.0);
//! ```

#![warn(missing_docs)]

pub mod calendar;
pub mod check;
pub mod cluster;
pub mod engine;
pub mod explain;
pub mod fairstart;
pub mod keys;
pub mod metrics;
pub mod policy;
pub mod predict;
pub mod profile;
pub mod random;
pub mod render;
pub mod rlenv;
pub mod run;
pub(crate) mod sorting;
pub mod studies;
pub mod trace;
#[cfg(target_arch = "wasm32")]
pub mod web;
pub mod workload;
