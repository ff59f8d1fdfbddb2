//! Slurm's scheduler on nodes, GPUs and memory: hand-made cases worked out in comments, each
//! start time derived from the rules of src/policy/slurm.rs and Slurm's documentation.

mod common;

use common::{run, starts, swf, trace};
use schedlab::cluster::{Cluster, Node, Partition};
use schedlab::trace::Trace;

/// A job of a hand-made case: submit, runtime, CPUs, estimate, GPUs, memory MB, and what else.
#[derive(Clone, Copy, Default)]
struct J {
    submit: i64,
    run: i64,
    cpus: u32,
    est: i64,
    gpus: u32,
    mem_mb: i64,
    nodes: u32,
    exclusive: bool,
    user: i32,
    /// Partition, by number (`Queue: N name` in the header), 0 for the default.
    part: i32,
    qos: i32,
}

fn job(submit: i64, run: i64, cpus: u32, est: i64) -> J {
    J { submit, run, cpus, est, user: 1, ..Default::default() }
}

fn node(name: &str, cpus: u32, gpus: u32, memory_mb: u64) -> Node {
    Node { name: name.into(), cpus, gpus, memory_mb }
}

fn partition(name: &str, nodes: &[usize]) -> Partition {
    Partition::of(name, nodes.to_vec())
}

/// A trace of `jobs` on `cluster`, the partitions named in its header as queues 1, 2, ...
fn on(cluster: Cluster, jobs: &[J]) -> Trace {
    let rows: Vec<(i64, i64, u32, i64)> = jobs.iter().map(|j| (j.submit, j.run, j.cpus, j.est)).collect();
    let mut t = trace(&swf(cluster.cpus() as u32, &rows));
    for (k, p) in cluster.partitions.iter().enumerate() {
        t.header.queues.push((k as i64 + 1, p.name.clone()));
    }
    for (tj, j) in t.jobs.iter_mut().zip(jobs) {
        tj.gpus = j.gpus;
        tj.memory_kb = if j.mem_mb > 0 { j.mem_mb * 1024 / j.cpus as i64 } else { -1 };
        tj.nodes = j.nodes;
        tj.exclusive = j.exclusive;
        tj.user = j.user;
        tj.queue = j.part;
        tj.qos = j.qos;
    }
    t.cluster = Some(Box::new(cluster));
    t
}

fn one_node(cpus: u32, gpus: u32, memory_mb: u64) -> Cluster {
    Cluster { nodes: vec![node("n0", cpus, gpus, memory_mb)], ..Default::default() }
}

/// EASY on every resource, each decision at its event (no backfill interval).
const EASY: &str = "easy-cluster";

#[test]
fn a_gpu_bound_job_waits_while_cores_are_free() {
    // One node of 8 CPUs and 2 GPUs. A holds 2 CPUs and both GPUs until 100.
    // B asks 1 CPU and 1 GPU at 1: 6 CPUs are free, no GPU, so it waits until A ends at 100.
    // C asks 1 CPU and no GPU at 2 and runs 10 s: it starts at once (it ends at 12, before
    // B's reservation at 100, and takes no GPU anyway).
    let jobs = [J { gpus: 2, ..job(0, 100, 2, 100) }, J { gpus: 1, ..job(1, 10, 1, 10) }, job(2, 10, 1, 10)];
    let t = on(one_node(8, 2, 0), &jobs);
    assert_eq!(starts(&run(&t, EASY, &[])), vec![0, 100, 2]);
    assert_eq!(starts(&run(&t, "slurm", &["bf_interval=0"])), vec![0, 100, 2]);
    // The papers' EASY counts processors only: B starts at once, as if GPUs never ran out.
    assert_eq!(starts(&run(&t, "easy", &[])), vec![0, 1, 2]);
}

#[test]
fn an_exclusive_job_takes_whole_nodes() {
    // Two nodes of 4 CPUs. A (1 CPU, until 100) goes to n0 (first fit). B, exclusive, 1 CPU,
    // at 1: n1 is idle, so B takes all of n1. C, exclusive, at 2: no node is idle (n0 has A,
    // n1 has B) although 3 CPUs are free on n0; C waits for B's end at 50, when n1 is idle.
    // D, 1 CPU at 3 for 10 s, shares n0 with A: it starts at once (ends at 13, before C's
    // reservation at 50, on a node C does not need).
    let c = Cluster { nodes: vec![node("n0", 4, 0, 0), node("n1", 4, 0, 0)], ..Default::default() };
    let jobs = [
        job(0, 100, 1, 100),
        J { exclusive: true, nodes: 1, ..job(1, 49, 1, 49) },
        J { exclusive: true, nodes: 1, ..job(2, 10, 1, 10) },
        job(3, 10, 1, 10),
    ];
    let t = on(c, &jobs);
    assert_eq!(starts(&run(&t, EASY, &[])), vec![0, 1, 50, 3]);
}

#[test]
fn a_reservation_holds_gpus() {
    // One node of 8 CPUs and 2 GPUs. A holds 1 GPU until 100. B needs both GPUs at 1: it is
    // reserved for 100 (both GPUs, 100 to 150). C needs 1 GPU at 2 for 200 s: a GPU is free
    // now, but C would hold it past 100 and so delay B: C waits until B ends at 150.
    // D needs 1 GPU at 3 for 90 s: it ends at 93, before B's reservation, and backfills now.
    let jobs = [
        J { gpus: 1, ..job(0, 100, 1, 100) },
        J { gpus: 2, ..job(1, 50, 1, 50) },
        J { gpus: 1, ..job(2, 200, 1, 200) },
        J { gpus: 1, ..job(3, 90, 1, 90) },
    ];
    let t = on(one_node(8, 2, 0), &jobs);
    assert_eq!(starts(&run(&t, EASY, &[])), vec![0, 100, 150, 3]);
}

#[test]
fn memory_blocks_a_job_that_cores_would_allow() {
    // One node of 8 CPUs and 1000 MB. A holds 2 CPUs and 800 MB until 100. B asks 2 CPUs and
    // 300 MB at 1: 6 CPUs are free but only 200 MB: it waits until 100. C asks 2 CPUs and
    // 100 MB at 2 for 10 s: it fits in memory, ends before B's reservation, and starts at once.
    let jobs = [
        J { mem_mb: 800, ..job(0, 100, 2, 100) },
        J { mem_mb: 300, ..job(1, 10, 2, 10) },
        J { mem_mb: 100, ..job(2, 10, 2, 10) },
    ];
    let t = on(one_node(8, 0, 1000), &jobs);
    assert_eq!(starts(&run(&t, EASY, &[])), vec![0, 100, 2]);
}

#[test]
fn nodes_of_unknown_memory_hold_any_job_and_a_reservation() {
    // Eight nodes of 2 CPUs whose memory is not known (an inferred cluster): memory limits no
    // job, however many nodes are summed. A holds 1 CPU of n0 until 100. B at 1 takes all
    // eight nodes whole: n0 is not idle, so B is reserved them all from 100 (until 110). C at
    // 2 asks 1 CPU and 100 MB for 200 s: a CPU is free, but C would hold it past 100 and so
    // delay B: C waits until B ends at 110.
    let c = Cluster { nodes: (0..8).map(|k| node(&format!("n{k}"), 2, 0, 0)).collect(), ..Default::default() };
    let jobs = [
        job(0, 100, 1, 100),
        J { exclusive: true, nodes: 8, ..job(1, 10, 16, 10) },
        J { mem_mb: 100, ..job(2, 200, 1, 200) },
    ];
    let t = on(c, &jobs);
    assert_eq!(starts(&run(&t, EASY, &[])), vec![0, 100, 110]);
}

#[test]
fn a_partitions_max_time_and_nodes_are_respected() {
    // Two nodes of 4 CPUs: partition short is n0 with MaxTime 60 s, partition long is n1.
    // A (short, 2 CPUs) asks 1000 s but the partition allows 60: the plan ends it at 60 (it
    // ends at 50). B (short, 4 CPUs) at 1 waits for A: its reservation is at 60, on n0 only,
    // though n1 is idle. C (short, 2 CPUs, 100 s, planned as 60 s) at 2 would end at 62, past
    // B's reservation: it waits. A ends at 50: B starts then, and C when B ends at 80.
    let mut short = partition("short", &[0]);
    short.max_time_s = Some(60);
    let c = Cluster {
        nodes: vec![node("n0", 4, 0, 0), node("n1", 4, 0, 0)],
        partitions: vec![short.clone(), partition("long", &[1])],
        ..Default::default()
    };
    let jobs = [
        J { part: 1, ..job(0, 50, 2, 1000) },
        J { part: 1, ..job(1, 30, 4, 30) },
        J { part: 1, ..job(2, 100, 2, 100) },
    ];
    let t = on(c.clone(), &jobs);
    assert_eq!(starts(&run(&t, EASY, &[])), vec![0, 50, 80]);
    // Without the limit the plan keeps A until 1000, B's reservation is at 1000, and C (ending
    // at 102) backfills at once; B still starts when A really ends, at 50, but C holds n0's
    // other 2 CPUs until 102, so B waits until then.
    let mut open = c;
    open.partitions[0].max_time_s = None;
    let t = on(open, &jobs);
    assert_eq!(starts(&run(&t, EASY, &[])), vec![0, 102, 2]);
}

/// Four 4-CPU jobs queued behind one that holds the node until 100, under the main scheduler
/// alone (strict priority order), and the order they then run in.
fn order_under(jobs: &[J], cluster: Cluster, settings: &[&str]) -> Vec<i64> {
    let t = on(cluster, jobs);
    let mut s = vec!["scheduler=builtin", "priority=multifactor"];
    s.extend_from_slice(settings);
    starts(&run(&t, "slurm", &s))
}

#[test]
fn each_priority_weight_alone_orders_jobs_as_documented() {
    let node4 = || one_node(4, 0, 0);
    // Job size alone: the larger the job, the greater its size factor (PriorityFavorSmall=NO).
    // A holds the node until 100; B (1 CPU) at 1, C (4 CPUs) at 2. C goes first at 100, B
    // when C ends at 200. With favor_small, B first at 100; C waits for it, until 110.
    let size = [job(0, 100, 4, 100), job(1, 10, 1, 10), job(2, 100, 4, 100)];
    assert_eq!(order_under(&size, node4(), &["weight_jobsize=1000"]), vec![0, 200, 100]);
    assert_eq!(order_under(&size, node4(), &["weight_jobsize=1000", "favor_small=yes"]), vec![0, 100, 110]);
    // Fairshare alone: user 1 has used the node (A, 4 CPUs for 100 s), user 2 nothing: 2^(-U/S)
    // is 0.25 for user 1 (U = 1, S = 1/2) and 1 for user 2, so user 2's C (submitted after
    // user 1's B) runs first.
    let fair = [job(0, 100, 4, 100), job(1, 10, 4, 10), J { user: 2, ..job(2, 10, 4, 10) }];
    assert_eq!(order_under(&fair, node4(), &["weight_fairshare=1000"]), vec![0, 110, 100]);
    // With no weight, first in, first out.
    assert_eq!(order_under(&fair, node4(), &[]), vec![0, 100, 110]);
    // Age alone: the longer a job waited, the higher, up to PriorityMaxAge: the same order as
    // submission.
    assert_eq!(order_under(&fair, node4(), &["weight_age=1000", "max_age=1"]), vec![0, 100, 110]);
    // QOS alone: C's QOS "high" has priority 100, B's "normal" 0: C first.
    let mut t =
        on(node4(), &[job(0, 100, 4, 100), J { qos: 1, ..job(1, 10, 4, 10) }, J { qos: 2, ..job(2, 10, 4, 10) }]);
    t.header.qos = vec![(1, "normal".into()), (2, "high".into())];
    let s = ["scheduler=builtin", "priority=multifactor", "weight_qos=1000", "qos_priority=high:100,normal:0"];
    assert_eq!(starts(&run(&t, "slurm", &s)), vec![0, 110, 100]);
    // Partition: jobs of a higher PriorityTier are taken first, whatever their priority (the
    // order of priority_multifactor.html: tier, then priority, then submit time).
    let mut high = partition("high", &[0]);
    high.priority_tier = 2;
    let c = Cluster {
        nodes: vec![node("n0", 4, 0, 0)],
        partitions: vec![partition("low", &[0]), high],
        ..Default::default()
    };
    let tiers =
        [J { part: 1, ..job(0, 100, 4, 100) }, J { part: 1, ..job(1, 10, 4, 10) }, J { part: 2, ..job(2, 10, 4, 10) }];
    assert_eq!(order_under(&tiers, c, &[]), vec![0, 110, 100]);
}

/// A holds 3 of 4 CPUs for 2 h; B needs all 4 at 1; C needs 1 CPU for 10,000 s at 2.
fn window_case() -> Trace {
    let jobs = [job(0, 7200, 3, 7200), job(1, 100, 4, 100), job(2, 10_000, 1, 10_000)];
    on(one_node(4, 0, 0), &jobs)
}

#[test]
fn a_bf_window_shorter_than_the_wait_stops_the_plan() {
    // Backfill runs every 30 s: the first cycle after C's arrival is at 30. With bf_window at
    // 3 days, B is planned at 7200 and reserved; C would run past 7200 on a CPU B needs, so it
    // waits: B starts at 7200 when A ends, C at 7300 when B ends.
    let t = window_case();
    assert_eq!(starts(&run(&t, "slurm", &["bf_window=4320"])), vec![0, 7200, 7300]);
    // With bf_window at 60 minutes, shorter than A's 2 h limit, B's start (7200) is past the
    // window's end (30 + 3600): B gets no reservation, and C starts at the cycle, at 30.
    // B then waits for C as well, until 10,030.
    assert_eq!(starts(&run(&t, "slurm", &["bf_window=60"])), vec![0, 10_030, 30]);
}

#[test]
fn bf_max_job_test_looks_at_that_many_jobs() {
    // A holds 3 of 4 CPUs until 100. B1 and B2 need all 4 (at 1 and 2); C needs 1 CPU for 10 s
    // at 3. The cycle at 30 looks at B1 (reserved at 100), B2 (reserved at 200), then C,
    // which fits now and ends before both: it starts at 30.
    let jobs = [job(0, 100, 3, 100), job(1, 100, 4, 100), job(2, 100, 4, 100), job(3, 10, 1, 10)];
    let t = on(one_node(4, 0, 0), &jobs);
    assert_eq!(starts(&run(&t, "slurm", &["bf_max_job_test=3"])), vec![0, 100, 200, 30]);
    // With bf_max_job_test=2 the cycle stops after B2, and C is not looked at; it waits for
    // the main scheduler, behind B2, until 300.
    assert_eq!(starts(&run(&t, "slurm", &["bf_max_job_test=2"])), vec![0, 100, 200, 300]);
}

#[test]
fn on_one_resource_easy_cluster_is_easy_job_for_job() {
    // On an SWF trace the cluster is one node of the machine's CPUs: EASY on every resource is
    // the papers' EASY, start for start.
    let bytes = common::read_shared("traces/SDSC-SP2-1998-4.2-cln.swf.gz");
    let text = String::from_utf8(common::gunzip(&bytes)).expect("text");
    let first: String = text.lines().take(3000).map(|l| format!("{l}\n")).collect();
    let t = trace(&first);
    let a = starts(&run(&t, "easy", &[]));
    let b = starts(&run(&t, EASY, &[]));
    let same = a.iter().zip(&b).filter(|(x, y)| x == y).count();
    assert_eq!(same, a.len(), "{} of {} jobs start at the same time", same, a.len());
}
