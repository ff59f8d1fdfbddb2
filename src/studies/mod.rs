//! The papers' studies, one file per paper, built on the layers below them: they configure
//! policies, run simulations through [`crate::run`] and compare the metrics the way each paper
//! does. Nothing in the engine, the policies or the metrics depends on them.
//!
//! - [`findings`]: the qualitative claims of Tsafrir, Etsion & Feitelson (2007) and of Ward,
//!   Mahood & West (2002), checked on any trace and reported as holding or not.
//! - [`sweep`]: grids of option values ranked by average degradation (Tsafrir et al. section 7).
//! - [`lawson`]: multiple-queue backfilling against its single-queue baseline: slowdown
//!   ratios, transient batches, missed reservations (Lawson & Smirni 2002).
//! - [`kettimuthu`]: selective preemption compared by category and load (Kettimuthu et al. 2003).
//! - [`loadsweep`]: the classic figure, each policy's slowdown and wait against the offered
//!   load, with where it saturates.
//! - [`panel`]: a study as the page shows it, its form, runs and report as data.
//! - [`leung`]: the nine CPlant policies compared by fair-start misses, turnaround and loss of
//!   capacity, per width and length class (Leung, Sabin & Sadayappan 2010).

pub mod findings;
pub mod kettimuthu;
pub mod lawson;
pub mod leung;
pub mod loadsweep;
pub mod panel;
pub mod sweep;
