//! The RLScheduler-compatible environment (`schedlab::rlenv`) against the numbers of
//! `../shared/models/rlscheduler-env.md` (measured on the original code) and small traces
//! worked out by hand.

mod common;

use std::sync::{Arc, OnceLock};

use schedlab::rlenv::sampler::{gym021, gym021_words};
use schedlab::rlenv::{
    evaluate, evaluation_starts, Env, Heuristic, Options, RlError, ScoreType, Unrunnable, VecEnv, Workload, OBS_LEN,
};

fn sdsc() -> Arc<Workload> {
    static W: OnceLock<Arc<Workload>> = OnceLock::new();
    W.get_or_init(|| {
        let bytes = common::read_shared("traces/SDSC-SP2-1998-4.2-cln.swf.gz");
        Arc::new(Workload::parse(&bytes).expect("SDSC-SP2 reads"))
    })
    .clone()
}

fn workload(text: &str) -> Arc<Workload> {
    Arc::new(Workload::parse(text.as_bytes()).expect("hand-made trace reads"))
}

#[test]
fn sdsc_reads_as_rlscheduler_reads_it() {
    let w = sdsc();
    assert_eq!(w.len(), 59_705);
    assert_eq!(w.job_lines, 59_715);
    assert_eq!((w.max_nodes, w.max_procs), (128, 128));
    assert_eq!(w.max_exec_time, 510_209);
    assert_eq!((w.max_user_id, w.max_group_id, w.max_executable_number), (437, 158, 65_889));
    assert_eq!(w.max_requested_memory, 0);
    assert_eq!(w.jobs.iter().filter(|j| j.request == -1).count(), 31);
    assert_eq!(w.jobs[35_696].id, 49_031);
    assert_eq!(w.jobs[1339].id, 1350);
}

#[test]
fn gym021_seeding_draws_the_originals_windows() {
    assert_eq!(gym021_words(0), vec![547_404_849, 309_914_516]);
    let w = sdsc();
    let mut env = Env::new(w.clone(), Options::default()).unwrap();
    env.seed(0);
    let starts: Vec<usize> = (0..5).map(|_| env.draw_start().unwrap()).collect();
    assert_eq!(starts, vec![35_696, 23_118, 56_646, 1339, 2493]);
    let table = Options { window: 1024, batch_job_slice: 10_000, ..Options::default() };
    assert_eq!(evaluation_starts(&w, &table, 1, 10), vec![1981, 2756, 4299, 8850, 3316, 2714, 5228, 7762, 4022, 7085]);
    // NumPy's legacy RandomState(seed=[5489]) begins like the reference MT19937 (init_by_array
    // with {0x123, 0x234, 0x345, 0x456} gives 1067595299 first).
    let mut mt = schedlab::rlenv::sampler::Mt19937::by_array(&[0x123, 0x234, 0x345, 0x456]);
    assert_eq!(mt.next_u32(), 1_067_595_299);
    assert_eq!(mt.next_u32(), 955_945_823);
    let _ = gym021(1);
}

/// (start, steps, reward, SJF, F1) for backfil off, then on: the specification's table.
/// Steps, reward, SJF total, F1 total.
type Outcome = (usize, f64, f64, f64);

const REFERENCE: [(usize, [Outcome; 2]); 5] = [
    (
        35696,
        [
            (256, -156.66327398947743, 100.48606075770593, 45.729513153497926),
            (122, -33.256496985064366, 69.03198258070226, 24.097781637093846),
        ],
    ),
    (
        23118,
        [
            (256, -26.91489755432447, 25.065594234336075, 545.6949669237856),
            (247, -22.18724105326731, 22.08548821961193, 22.76663909027936),
        ],
    ),
    (
        56646,
        [
            (256, -1010.7680385864236, 375.43931455705575, 318.2281891573649),
            (114, -217.86983246424273, 189.85757546889081, 204.47954016768762),
        ],
    ),
    (
        1339,
        [
            (256, -7.0457383870769625, 8.298132805786507, 6.295657191659674),
            (244, -5.154627920621171, 5.401686668174907, 5.782281598125666),
        ],
    ),
    (
        2493,
        [
            (256, -294.6745088805854, 147.98765421788036, 93.36969702719637),
            (136, -47.0366154148939, 31.90176731852341, 29.045038004483917),
        ],
    ),
];

#[test]
fn always_slot_0_matches_the_reference_episodes() {
    let w = sdsc();
    for (k, backfil) in [false, true].into_iter().enumerate() {
        let mut env = Env::new(w.clone(), Options { backfil, ..Options::default() }).unwrap();
        env.seed(0);
        for (ep, (start, rows)) in REFERENCE.iter().enumerate() {
            let (steps, reward, sjf, f1) = rows[k];
            assert_eq!(env.reset(None).unwrap(), *start, "episode {ep}");
            let mut last = None;
            while env.is_running() {
                last = Some(env.step(0).unwrap());
            }
            let last = last.unwrap();
            let what = format!("episode {ep}, backfil {backfil}");
            assert!(last.terminated, "{what}");
            assert_eq!(env.episode_len(), steps, "{what}: steps");
            assert_eq!(last.reward, reward, "{what}: reward");
            assert_eq!(env.sjf_score(), sjf, "{what}: SJF");
            assert_eq!(env.f1_score(), f1, "{what}: F1");
            assert_eq!(env.best_minus_rl(), sjf.min(f1) + reward, "{what}: best - rl");
        }
    }
}

#[test]
fn first_observation_of_episode_0() {
    let mut env = Env::new(sdsc(), Options::default()).unwrap();
    env.seed(0);
    env.reset(None).unwrap();
    let mut obs = vec![0f64; OBS_LEN];
    env.observation(&mut obs);
    let slot0 = [
        0.0,
        0.001411186396163141,
        0.0078125,
        1.0,
        0.3180778032036613,
        0.43037974683544306,
        0.1969979814536569,
        0.99999,
    ];
    assert_eq!(obs[..8], slot0);
    for slot in 1..128 {
        assert_eq!(obs[slot * 8..slot * 8 + 8], [0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0], "slot {slot}");
    }
    let mut mask = [false; 128];
    env.action_mask(&mut mask);
    assert!(mask[0] && !mask[1..].iter().any(|&m| m));
    let mut obs32 = vec![0f32; OBS_LEN];
    env.observation(&mut obs32);
    assert_eq!(obs32[1], 0.001411186396163141f64 as f32);
    let mut critic = vec![0f64; 768];
    env.critic_observation(&mut critic);
    assert_eq!(critic[..3], obs[..3]);
}

/// The heuristic columns of the paper's SDSC-SP2 table (README of the released code): mean
/// bounded slowdown of 10 windows of 1024 jobs drawn with seed 1 from the first 10,000 jobs.
#[test]
fn heuristic_columns_of_the_published_table() {
    let w = sdsc();
    let hs = [Heuristic::Fcfs, Heuristic::Wfp3, Heuristic::Uni, Heuristic::Sjf, Heuristic::F1];
    let published =
        [(false, [1727.54, 3000.88, 1848.45, 2680.55, 1232.06]), (true, [1595.12, 1083.12, 548.01, 2167.84, 1098.22])];
    for (backfil, want) in published {
        let opts = Options { backfil, window: 1024, batch_job_slice: 10_000, ..Options::default() };
        let starts = evaluation_starts(&w, &opts, 1, 10);
        for (h, want) in hs.iter().zip(want) {
            let mean = starts.iter().map(|&s| evaluate(&w, &opts, s, *h).unwrap()).sum::<f64>() / 10.0;
            assert_eq!(format!("{mean:.2}"), format!("{want:.2}"), "{} backfil {backfil}", h.name());
        }
    }
    let published_util = [(false, [0.670, 0.658, 0.688, 0.645, 0.674]), (true, [0.682, 0.681, 0.706, 0.661, 0.677])];
    for (backfil, want) in published_util {
        let opts = Options {
            backfil,
            window: 1024,
            batch_job_slice: 10_000,
            score_type: ScoreType::Utilization,
            ..Options::default()
        };
        let starts = evaluation_starts(&w, &opts, 1, 10);
        for (h, want) in hs.iter().zip(want) {
            let mean = -starts.iter().map(|&s| evaluate(&w, &opts, s, *h).unwrap()).sum::<f64>() / 10.0;
            if *h == Heuristic::Sjf && backfil {
                // The one cell of the twenty that is not reproduced to the printed digits:
                // 0.66046 here, 0.661 printed (docs/VALIDATION.md).
                assert!((mean - want).abs() < 1e-3, "SJF utilization with backfilling: {mean}");
                continue;
            }
            assert_eq!(format!("{mean:.3}"), format!("{want:.3}"), "{} utilization, backfil {backfil}", h.name());
        }
    }
}

/// SWF lines from (submit, run, procs, request) rows, jobs numbered from 1, with user,
/// group and executable 1 (so their features are 1 - 1e-5 of a maximum of 1).
fn swf(nodes: i64, rows: &[(i64, i64, i64, i64)]) -> String {
    let mut s = format!("; MaxNodes: {nodes}\n; MaxProcs: {nodes}\n");
    for (i, (submit, run, procs, req)) in rows.iter().enumerate() {
        s.push_str(&format!("{} {submit} 0 {run} {procs} -1 -1 {procs} {req} -1 1 1 1 1 1 -1 -1 -1\n", i + 1));
    }
    s
}

/// Four nodes; job 1 takes three of them for 100 s, job 2 (two nodes) comes at 10, job 3
/// (one node, 10 s) at 20; job 4 lies past the window of three.
fn three_jobs(job3_request: i64) -> Arc<Workload> {
    workload(&swf(4, &[(0, 100, 3, 100), (10, 50, 2, 50), (20, 10, 1, job3_request), (1000, 10, 1, 10)]))
}

fn env_at(w: Arc<Workload>, opts: Options) -> Env {
    let mut env = Env::new(w, Options { window: 3, ..opts }).unwrap();
    env.reset(Some(0)).unwrap();
    env
}

fn bsld_total(scores: &[f64]) -> f64 {
    scores.iter().fold(0.0, |acc, s| acc + s / 3.0)
}

#[test]
fn waits_and_commits_without_backfilling() {
    let mut env = env_at(three_jobs(10), Options::default());
    // Job 1 starts at 0 (one node left); job 2 arrives at 10 and does not fit.
    assert_eq!(env.step(0).unwrap().reward, 0.0);
    assert_eq!((env.clock(), env.free_nodes(), env.queue_len()), (10, 1, 1));
    let mut obs = vec![0f64; OBS_LEN];
    env.observation(&mut obs);
    assert_eq!(obs[7], 1e-5, "job 2 cannot start now");
    // Padding slot 5: a wait. 10 + 360 is not before job 3's arrival at 20: job 3 arrives.
    env.step(5).unwrap();
    assert_eq!((env.clock(), env.queue_len()), (20, 2));
    env.observation(&mut obs);
    assert_eq!((obs[7], obs[15]), (1e-5, 1.0 - 1e-5), "job 3 fits, job 2 does not");
    assert_eq!(obs[8], 0.0, "job 2 waited 10 s: 10 / 43200 is not 0");
    // Slot 1 is job 3: it starts at 20 and ends at 30.
    env.step(1).unwrap();
    assert_eq!((env.clock(), env.free_nodes()), (20, 0));
    // A wait: nothing more arrives in the window (the next trace job, at 1000, is beyond it),
    // 380 is after job 3's end at 30: job 3 is freed at 30.
    env.step(127).unwrap();
    assert_eq!((env.clock(), env.free_nodes()), (30, 1));
    // Job 2 is committed: job 1 is freed at 100 and job 2 starts then, ending the episode.
    let last = env.step(0).unwrap();
    assert!(last.terminated);
    assert_eq!(env.episode_len(), 5);
    // Bounded slowdowns in start order: job 1: 1, job 3: 1, job 2: (90 + 50) / 50.
    assert_eq!(last.reward, -bsld_total(&[1.0, 1.0, 140.0 / 50.0]));
    // SJF commits job 2 at 100 before job 3 (no backfilling), which waits 80 s: 90 / 10.
    assert_eq!(env.sjf_score(), bsld_total(&[1.0, 140.0 / 50.0, 9.0]));
    assert_eq!(env.f1_score(), env.sjf_score());
    env.observation(&mut obs);
    assert_eq!(obs[..8], [0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0], "the terminal observation is padding");
    assert_eq!(env.step(0), Err(RlError::NotRunning));
}

#[test]
fn backfilling_starts_jobs_that_end_before_the_estimate() {
    // Job 2 waits for job 1's estimated end, 100: job 3 (20 + 10 < 100) is backfilled at 20
    // without costing a step; job 2 starts at 100.
    let mut env = env_at(three_jobs(10), Options { backfil: true, ..Options::default() });
    env.step(0).unwrap();
    let last = env.step(0).unwrap();
    assert!(last.terminated);
    assert_eq!(env.episode_len(), 2);
    assert_eq!(env.clock(), 100);
    assert_eq!(last.reward, -bsld_total(&[1.0, 1.0, 140.0 / 50.0]));
    // SJF with backfilling: the same schedule.
    assert_eq!(env.sjf_score(), -last.reward);

    // Job 3 asking for 80 s would end exactly at the estimate (20 + 80 = 100): the rule is
    // strict, so it is not backfilled; it starts at 100 on the third decision.
    let mut env = env_at(three_jobs(80), Options { backfil: true, ..Options::default() });
    env.step(0).unwrap();
    assert!(!env.step(0).unwrap().terminated);
    assert_eq!((env.clock(), env.queue_len(), env.free_nodes()), (100, 1, 2));
    let last = env.step(0).unwrap();
    assert!(last.terminated);
    assert_eq!(env.episode_len(), 3);
    assert_eq!(last.reward, -bsld_total(&[1.0, 140.0 / 50.0, 9.0]));
}

#[test]
fn the_skip_slot_waits_and_turns_to_all_ones_at_the_pivot() {
    let mut env = env_at(three_jobs(10), Options { skip: true, ..Options::default() });
    let mut obs = vec![0f64; OBS_LEN];
    let mut mask = [false; 128];
    env.observation(&mut obs);
    env.action_mask(&mut mask);
    assert_eq!(obs[8..16], [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0]);
    assert_eq!(obs[16..24], [0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0]);
    assert_eq!(mask[..3], [true, true, false]);
    // Skipping at 0: 360 is not before job 2's arrival at 10, so job 2 arrives.
    env.step(1).unwrap();
    assert_eq!((env.clock(), env.queue_len()), (10, 2));
    // Slot 1 is job 2 (FCFS): it starts at 10 on two nodes; job 1 (three) no longer fits.
    env.step(1).unwrap();
    assert_eq!((env.clock(), env.queue_len(), env.free_nodes()), (10, 1, 2));
    // Skip: job 3 arrives at 20 (before job 2's end at 60).
    env.step(1).unwrap();
    assert_eq!((env.clock(), env.queue_len()), (20, 2));
    env.step(1).unwrap(); // job 3 starts at 20, ends at 30
    assert_eq!(env.free_nodes(), 1);
    for _ in 0..2 {
        env.step(1).unwrap(); // skip: frees job 3 (30), then job 2 (60)
    }
    assert_eq!((env.clock(), env.free_nodes()), (60, 4));
    env.step(1).unwrap(); // skip: everything arrived, nothing runs: the pivot
    assert_eq!(env.clock(), 60);
    env.observation(&mut obs);
    env.action_mask(&mut mask);
    assert_eq!(obs[8..16], [1.0; 8]);
    assert_eq!(mask[..2], [true, false]);
    let last = env.step(0).unwrap();
    assert!(last.terminated);
    // In start order: job 2 and job 3 without waiting, then job 1: wait 60, run 100.
    assert_eq!(last.reward, -bsld_total(&[1.0, 1.0, 160.0 / 100.0]));
}

#[test]
fn more_than_128_waiting_interleaves_sjf_and_smallest_first() {
    // One node, held by job 1 for a long time; jobs 2..131 arrive one a second, each asking
    // for less time than the one before. SJF order is the reverse of arrival, smallest-first
    // (all one processor) is arrival order: the visible set is 131, 2, 130, 3, ... (64 of
    // each), leaving out jobs 66 and 67.
    let mut rows = vec![(0, 1_000_000, 1, 1_000_000)];
    for k in 2..=131 {
        rows.push((k as i64, 10, 1, 10_000 - k as i64));
    }
    rows.push((5000, 10, 1, 10));
    let w = workload(&swf(1, &rows));
    let mut env = Env::new(w, Options { window: 131, ..Options::default() }).unwrap();
    env.reset(Some(0)).unwrap();
    env.step(0).unwrap();
    while env.queue_len() < 130 {
        env.step(128).unwrap(); // no slot: a wait (slot 127 holds a job once 128 wait)
    }
    assert_eq!(env.visible_len(), 128);
    let ids: Vec<usize> = (0..128).map(|s| env.slot_job(s).unwrap() + 1).collect();
    assert_eq!(ids[..4], [131, 2, 130, 3]);
    assert!(!ids.contains(&66) && !ids.contains(&67));
    let mut mask = [false; 128];
    env.action_mask(&mut mask);
    assert!(mask.iter().all(|&m| m));
}

#[test]
fn jobs_the_original_cannot_run() {
    // Job 2 asks for 8 nodes of 4.
    let w = workload(&swf(4, &[(0, 100, 1, 100), (10, 50, 8, 50), (20, 10, 1, 10), (30, 10, 1, 10)]));
    let mut env =
        Env::new(w.clone(), Options { window: 3, unrunnable: Unrunnable::Error, ..Options::default() }).unwrap();
    assert_eq!(env.reset(Some(0)), Err(RlError::NeverFits { job_id: 2 }));
    assert_eq!(w.unrunnable_in(0, 3), 1);
    assert_eq!(w.unrunnable_in(2, 4), 0);
    // Negative processors (KTH-SP2's job 27313): it "fits" and adds a node; a run that never
    // frees it survives, one that frees it fails there.
    let strict = Options { window: 3, unrunnable: Unrunnable::Error, compute_baselines: false, ..Options::default() };
    let w = workload(&swf(4, &[(0, 100, -1, 100), (10, 50, 2, 50), (20, 10, 1, 10), (30, 10, 1, 10)]));
    let mut env = Env::new(w, strict).unwrap();
    env.reset(Some(0)).unwrap();
    env.step(0).unwrap();
    assert_eq!(env.free_nodes(), 5);
    env.step(0).unwrap(); // job 2 starts at 10
    assert!(env.step(0).unwrap().terminated, "job 3 starts at 20, job 1 still running");
    let w = workload(&swf(4, &[(0, 100, -1, 100), (200, 50, 2, 50), (220, 10, 1, 10), (230, 10, 1, 10)]));
    let mut env = Env::new(w, strict).unwrap();
    env.reset(Some(0)).unwrap();
    assert_eq!(env.step(0), Err(RlError::NegativeProcs { job_id: 1 }), "job 1 is freed at 100, before job 2 comes");
    assert_eq!(env.step(0), Err(RlError::NotRunning));
}

#[test]
fn resampling_skips_windows_with_unrunnable_jobs() {
    let bytes = common::read_shared("traces/KTH-SP2-1996-2.1-cln.swf.gz");
    let w = Arc::new(Workload::parse(&bytes).unwrap());
    assert_eq!(w.len(), 28_468);
    let bad = w.jobs.iter().position(|j| j.procs < 0).unwrap();
    assert_eq!(w.jobs[bad].id, 27_313);
    let mut env = Env::new(w.clone(), Options::default()).unwrap();
    env.seed(0);
    for _ in 0..300 {
        let s = env.reset(None).unwrap();
        assert!(!(s..s + 256).contains(&bad));
    }
    // Run as the original runs it, a window holding the job fails where it fails.
    let mut strict = Env::new(w, Options { unrunnable: Unrunnable::Error, ..Options::default() }).unwrap();
    assert_eq!(strict.reset(Some(bad - 10)), Err(RlError::NegativeProcs { job_id: 27_313 }));
}

#[test]
fn bad_lines_name_their_line_and_field() {
    let e = Workload::parse(b"; MaxNodes: 4\n1 0 0 x 1 -1 -1 1 10 -1 1 1 1 1 1 -1 -1 -1\n").unwrap_err();
    assert_eq!(e.to_string(), "line 2: field 4 (run time): \"x\" is not an integer");
    let e = Workload::parse(b"; MaxNodes: 4\n1 0 0 10 1 -1 -1 1 10\n").unwrap_err();
    assert!(e.to_string().starts_with("line 2: 9 fields where 18 are needed"), "{e}");
    let e = Workload::parse(b"; MaxNodes: 4\n\n").unwrap_err();
    assert!(e.to_string().starts_with("line 2: 0 fields"), "{e}");
    let e = Workload::parse(b"1 0 0 10 1 -1 -1 1 10 -1 1 1 1 1 1 -1 -1 -1\n").unwrap_err();
    assert!(e.to_string().contains("MaxNodes"), "{e}");
    let e = Workload::parse(b"; MaxNodes: four\n").unwrap_err();
    assert_eq!(e.to_string(), "line 1: MaxNodes header: \"four\" is not an integer");
    // Field 16 may be anything; field 6 may be a float; a run time of 0 drops the job.
    let w = Workload::parse(
        b"; MaxNodes: 4\n2 5 0 0 1 1.5 -1 1 10 -1 1 1 1 1 1 x -1 -1\n1 0 0 -1 3 0.5 -1 2 -1 -1 1 1 1 1 1 y -1 -1\n3 9 0 20 1 1 -1 1 30 -1 1 1 1 1 1 1 -1 -1\n",
    )
    .unwrap();
    assert_eq!((w.len(), w.job_lines, w.max_exec_time), (2, 3, 20));
    let j = &w.jobs[0];
    assert_eq!((j.id, j.run, j.request, j.procs), (1, 10, -1, 3));
}

#[test]
fn vector_env_agrees_with_single_envs() {
    let w = sdsc();
    let opts = Options { backfil: true, ..Options::default() };
    let n = 3;
    let mut venv = VecEnv::new(w.clone(), opts, n).unwrap();
    let mut obs = vec![0f32; n * OBS_LEN];
    let mut masks = vec![false; n * 128];
    let (mut rewards, mut terms) = (vec![0.0; n], vec![false; n]);
    venv.reset(Some(7), &mut obs, &mut masks).unwrap();
    let mut singles: Vec<Env> = (0..n)
        .map(|i| {
            let mut e = Env::new(w.clone(), opts).unwrap();
            e.seed(7 + i as u64);
            e.reset(None).unwrap();
            e
        })
        .collect();
    let mut one = vec![0f32; OBS_LEN];
    let mut ended = vec![0usize; n];
    for t in 0..700 {
        // Slot t mod 3 when it holds a job, else slot 0.
        let actions: Vec<usize> = (0..n).map(|i| if masks[i * 128 + t % 3] { t % 3 } else { 0 }).collect();
        let was_done: Vec<bool> = terms.clone();
        venv.step(&actions, &mut obs, &mut masks, &mut rewards, &mut terms).unwrap();
        for i in 0..n {
            let e = &mut singles[i];
            if was_done[i] {
                e.reset(None).unwrap();
                assert_eq!((rewards[i], terms[i]), (0.0, false));
            } else {
                let s = e.step(actions[i]).unwrap();
                assert_eq!((s.reward, s.terminated), (rewards[i], terms[i]), "env {i} step {t}");
                ended[i] += s.terminated as usize;
            }
            e.observation(&mut one);
            assert_eq!(obs[i * OBS_LEN..(i + 1) * OBS_LEN], one[..], "env {i} step {t}");
            assert_eq!(venv.env(i).start_index(), e.start_index());
        }
    }
    assert!(ended.iter().all(|&k| k >= 2), "{ended:?}");
}
