//! Steps per second of the RLScheduler-compatible environment's Rust core, one thread:
//! `cargo run --release --example rlenv_bench [TRACE] [EPISODES]` (SDSC-SP2 by default).
//! Times include `reset` (with its SJF and F1 runs) and writing each observation (f32) and mask.

use std::sync::Arc;
use std::time::Instant;

use schedlab::rlenv::{Env, Options, VecEnv, Workload, MAX_QUEUE_SIZE, OBS_LEN};

/// xorshift64*: the random agent's choices.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        ((self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) % n as u64) as usize
    }
}

fn pick(agent: &str, mask: &[bool], rng: &mut Rng) -> usize {
    if agent == "slot0" {
        return 0;
    }
    let valid = mask.iter().filter(|&&m| m).count();
    let k = rng.below(valid.max(1));
    mask.iter().enumerate().filter(|(_, &m)| m).nth(k).map_or(0, |(i, _)| i)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = args.get(1).cloned().unwrap_or_else(|| "../shared/traces/SDSC-SP2-1998-4.2-cln.swf.gz".into());
    let episodes: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(400);
    let bytes = std::fs::read(&path).expect("trace readable");
    let t = Instant::now();
    let w = Arc::new(Workload::parse(&bytes).expect("trace parses"));
    println!("{path}: {} jobs read in {:.3} s", w.len(), t.elapsed().as_secs_f64());
    let mut obs = vec![0f32; OBS_LEN];
    let mut mask = [false; MAX_QUEUE_SIZE];
    println!("single env, {episodes} episodes per row (window 256, score bsld)");
    println!(
        "{:<8} {:<8} {:>12} {:>12} {:>10} {:>10} {:>12}",
        "backfil", "agent", "steps/s", "step-only/s", "episodes/s", "reset ms", "mean reward"
    );
    for backfil in [false, true] {
        for agent in ["slot0", "random"] {
            let mut env = Env::new(w.clone(), Options { backfil, ..Options::default() }).unwrap();
            env.seed(0);
            let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
            let (mut steps, mut reward, mut reset_s) = (0usize, 0.0, 0.0);
            let t = Instant::now();
            for _ in 0..episodes {
                let r = Instant::now();
                env.reset(None).unwrap();
                env.observation(&mut obs);
                env.action_mask(&mut mask);
                reset_s += r.elapsed().as_secs_f64();
                loop {
                    let a = pick(agent, &mask, &mut rng);
                    let s = env.step(a).unwrap();
                    steps += 1;
                    env.observation(&mut obs);
                    env.action_mask(&mut mask);
                    if s.terminated {
                        reward += s.reward;
                        break;
                    }
                }
            }
            let all = t.elapsed().as_secs_f64();
            println!(
                "{:<8} {:<8} {:>12.0} {:>12.0} {:>10.0} {:>10.3} {:>12.1}",
                backfil,
                agent,
                steps as f64 / all,
                steps as f64 / (all - reset_s),
                episodes as f64 / all,
                1e3 * reset_s / episodes as f64,
                reward / episodes as f64
            );
        }
    }
    let n = 16;
    println!("vector env, {n} environments, {} steps each (auto-reset included)", episodes * 16);
    for backfil in [false, true] {
        let mut venv = VecEnv::new(w.clone(), Options { backfil, ..Options::default() }, n).unwrap();
        let mut obs = vec![0f32; n * OBS_LEN];
        let mut masks = vec![false; n * MAX_QUEUE_SIZE];
        let (mut rewards, mut terms) = (vec![0.0; n], vec![false; n]);
        venv.reset(Some(0), &mut obs, &mut masks).unwrap();
        let mut rng = Rng(1);
        let mut actions = vec![0usize; n];
        let t = Instant::now();
        let rounds = episodes * 16;
        for _ in 0..rounds {
            for (i, a) in actions.iter_mut().enumerate() {
                *a = pick("random", &masks[i * MAX_QUEUE_SIZE..(i + 1) * MAX_QUEUE_SIZE], &mut rng);
            }
            venv.step(&actions, &mut obs, &mut masks, &mut rewards, &mut terms).unwrap();
        }
        let all = t.elapsed().as_secs_f64();
        println!("backfil {backfil:<5} random: {:.0} env-steps/s", (rounds * n) as f64 / all);
    }
}
