//! What each metric means, in one place: the page shows it next to every number and the
//! table of every metric takes its columns from here.

/// One metric: its key (as in [`super::Metrics`]), its unit and its definition.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct MetricDoc {
    /// The key, as the JSON output names it.
    pub key: &'static str,
    /// Its unit (empty: a pure number).
    pub unit: &'static str,
    /// What it is, with the paper it comes from.
    pub doc: &'static str,
}

/// Every metric of a run, in the order the page's table shows them.
pub const METRIC_DOCS: &[MetricDoc] = &[
    MetricDoc { key: "avg_wait_s", unit: "s", doc: "mean of start − submit" },
    MetricDoc { key: "median_wait_s", unit: "s", doc: "median (nearest rank) of start − submit" },
    MetricDoc { key: "p95_wait_s", unit: "s", doc: "95th percentile (nearest rank) of start − submit" },
    MetricDoc { key: "max_wait_s", unit: "s", doc: "longest wait" },
    MetricDoc { key: "avg_response_s", unit: "s", doc: "mean of end − submit" },
    MetricDoc { key: "median_response_s", unit: "s", doc: "median (nearest rank) of end − submit" },
    MetricDoc { key: "p95_response_s", unit: "s", doc: "95th percentile (nearest rank) of end − submit" },
    MetricDoc { key: "max_response_s", unit: "s", doc: "longest end − submit" },
    MetricDoc { key: "avg_bsld", unit: "", doc: "mean bounded slowdown = max(1, (wait + run) / max(τ, run)), τ = 10 s unless set" },
    MetricDoc { key: "median_bsld", unit: "", doc: "median bounded slowdown" },
    MetricDoc { key: "p95_bsld", unit: "", doc: "95th percentile bounded slowdown" },
    MetricDoc { key: "max_bsld", unit: "", doc: "largest bounded slowdown" },
    MetricDoc { key: "utilization", unit: "", doc: "used processor-seconds / ((last end − first start) × machine size)" },
    MetricDoc { key: "loss_of_capacity", unit: "", doc: "idle processor-seconds while jobs wait / (machine size × span) (Leung et al. eq. 1)" },
    MetricDoc { key: "makespan_s", unit: "s", doc: "last end − first start" },
    MetricDoc { key: "scheduling_passes", unit: "passes", doc: "scheduling passes the engine ran: one at each moment something happened (completions, then arrivals, then one pass)" },
    MetricDoc { key: "jobs_backfilled", unit: "jobs", doc: "jobs started while a job submitted before them was waiting" },
    MetricDoc { key: "jobs", unit: "jobs", doc: "jobs simulated" },
    MetricDoc { key: "jobs_measured", unit: "jobs", doc: "jobs the statistics cover (all finished jobs, or fewer under the warm-up and cool-down cut of Tsafrir et al.)" },
    MetricDoc { key: "jobs_unfinished", unit: "jobs", doc: "jobs not finished when the run stopped at its time budget (0: it ran to the end; the other figures cover the finished jobs)" },
    MetricDoc { key: "accuracy_pct", unit: "%", doc: "mean accuracy of the runtime planned with, min(P, T) / max(P, T), each job weighted over the time each prediction held (section 2)" },
    MetricDoc { key: "corrections_avg", unit: "corrections", doc: "mean number of prediction corrections per job (Table 2)" },
    MetricDoc { key: "corrections_std", unit: "corrections", doc: "standard deviation of the corrections per job" },
    MetricDoc { key: "reserved_pct", unit: "%", doc: "jobs that waited, became first in the queue and got a reservation (Table 4 rate)" },
    MetricDoc { key: "reservation_diff_avg_s", unit: "s", doc: "mean |start − first reservation| over jobs with a reservation (Table 4)" },
    MetricDoc { key: "reservation_diff_median_s", unit: "s", doc: "median |start − first reservation| (Table 4)" },
    MetricDoc { key: "reservation_diff_std_s", unit: "s", doc: "standard deviation of |start − first reservation| (Table 4)" },
    MetricDoc { key: "delayed_pct", unit: "%", doc: "jobs that started after their first reservation (Table 5 rate)" },
    MetricDoc { key: "delay_avg_s", unit: "s", doc: "mean delay past the first reservation, over delayed jobs (Table 5)" },
    MetricDoc { key: "delay_median_s", unit: "s", doc: "median delay past the first reservation (Table 5)" },
    MetricDoc { key: "delay_std_s", unit: "s", doc: "standard deviation of the delay past the first reservation (Table 5)" },
    MetricDoc { key: "stalled_pct", unit: "%", doc: "jobs with a reservation whose earliest start by true runtimes was pushed back by backfilled jobs (Table 10)" },
    MetricDoc { key: "stall_avg_s", unit: "s", doc: "mean time from that earliest start to the actual start, over stalled jobs (Table 10)" },
    MetricDoc { key: "thieves_avg", unit: "push-backs", doc: "mean number of push-backs (\"thieves\") per stalled job (Table 10)" },
    MetricDoc { key: "avg_slowdown", unit: "", doc: "mean slowdown 1 + d/v, d the wait and v the actual runtime (Lawson & Smirni Eq. 2, unbounded)" },
    MetricDoc { key: "reservations_requested", unit: "jobs", doc: "jobs that asked for an advance reservation (Lawson & Smirni section 2.2)" },
    MetricDoc { key: "missed_reservations", unit: "jobs", doc: "reservations granted later than asked (Lawson & Smirni Table 2)" },
    MetricDoc { key: "reservation_delay_avg_s", unit: "s", doc: "mean granted minus requested start over the reservation requests" },
    MetricDoc { key: "speculative_runs", unit: "runs", doc: "speculative runs started (Lawson & Smirni section 2.1)" },
    MetricDoc { key: "speculative_kills", unit: "runs", doc: "speculative runs killed at their limit" },
    MetricDoc { key: "speculative_lost_proc_h", unit: "processor-hours", doc: "processor-hours spent in killed speculative runs" },
    MetricDoc { key: "suspensions", unit: "suspensions", doc: "times a running job was suspended (Kettimuthu et al. sections 2.3, 3.2)" },
    MetricDoc { key: "suspended_jobs", unit: "jobs", doc: "jobs suspended at least once" },
    MetricDoc { key: "overhead_proc_h", unit: "processor-hours", doc: "processor-hours spent suspending and resuming jobs, memory per processor / 2 MB/s each way (overhead=on; section 4.1)" },
    MetricDoc { key: "submissions", unit: "submissions", doc: "jobs, each segment of a job run under a maximum runtime counted as one (Leung et al. section V.A)" },
    MetricDoc { key: "segmented_jobs", unit: "jobs", doc: "jobs that ran as more than one segment under a maximum runtime" },
    MetricDoc { key: "avg_response_submitted_s", unit: "s", doc: "mean turnaround per submission, each segment from its own submission to its end (Leung et al. Fig. 11); avg_response_s follows a job from its first submission to its last end" },
    MetricDoc { key: "fst_miss_share", unit: "", doc: "share of submissions that started after their hybrid fair start time (Leung et al. section IV, Fig. 8); – when not measured (fst=on measures every policy)" },
    MetricDoc { key: "avg_fst_miss_s", unit: "s", doc: "mean over all submissions of max(0, start − hybrid fair start time) (Leung et al. Fig. 9); – when not measured" },
    MetricDoc { key: "fst_miss_share_jobs", unit: "", doc: "share of jobs whose first start came after their first submission's fair start time; – when not measured" },
    MetricDoc { key: "avg_fst_miss_jobs_s", unit: "s", doc: "mean over jobs of max(0, first start − first submission's fair start time); – when not measured" },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_metric_has_a_definition_and_no_other() {
        let value = serde_json::to_value(crate::metrics::Metrics::default()).unwrap();
        let fields: Vec<&str> = value.as_object().unwrap().keys().map(String::as_str).collect();
        let documented: Vec<&str> = METRIC_DOCS.iter().map(|m| m.key).collect();
        let mut a = fields.clone();
        let mut b = documented.clone();
        a.sort_unstable();
        b.sort_unstable();
        assert_eq!(a, b, "metrics without a definition, or definitions of no metric");
        assert!(METRIC_DOCS.iter().all(|m| m.doc.len() > 10), "every definition says something");
    }
}
