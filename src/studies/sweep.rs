//! Parameter sweeps ranked as in Tsafrir et al. section 7: every configuration of a grid is
//! run, and each is scored by its average performance degradation over the test cases (each
//! trace x metric): 100 x P_c / P_b - 100, where P_b is the best configuration of that case.
//! Fig. 10 is the mean (and spread) of that score per window size.

use serde::Serialize;

use crate::render::generic::{Labels, Spec, Spread};

use crate::keys::{normalize, split_setting, KeyError};

/// One axis of a grid: a key and the values it takes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Axis {
    /// Option key (normalised).
    pub key: String,
    /// Values, in order.
    pub values: Vec<String>,
}

impl Axis {
    /// Parses `KEY=V1,V2,...`; an integer range `A-B` stands for every integer from A to B.
    pub fn parse(spec: &str) -> Result<Axis, KeyError> {
        let (key, v) = split_setting(spec)?;
        let mut values = Vec::new();
        for part in v.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            match part.split_once('-').map(|(a, b)| (a.trim().parse::<u32>(), b.trim().parse::<u32>())) {
                Some((Ok(a), Ok(b))) if a <= b && b - a < 1000 => values.extend((a..=b).map(|i| i.to_string())),
                _ => values.push(part.to_string()),
            }
        }
        if values.is_empty() {
            return Err(KeyError::new(&key, &v, "expected one or more values, e.g. window=1-8 or metric=avg,med"));
        }
        Ok(Axis { key, values })
    }
}

/// Every combination of the axes' values, first axis slowest, as `KEY=VALUE` settings.
pub fn grid(axes: &[Axis]) -> Vec<Vec<(String, String)>> {
    let mut out: Vec<Vec<(String, String)>> = vec![Vec::new()];
    for a in axes {
        out = out
            .into_iter()
            .flat_map(|c| {
                a.values.iter().map(move |v| {
                    let mut c = c.clone();
                    c.push((a.key.clone(), v.clone()));
                    c
                })
            })
            .collect();
    }
    out
}

/// Average degradation of each configuration; `perf[c][t]` is configuration c's value in test
/// case t, lower being better. Test cases whose best value is not positive are left out.
pub fn degradation(perf: &[Vec<f64>]) -> Vec<f64> {
    let cases = perf.iter().map(Vec::len).min().unwrap_or(0);
    let best: Vec<f64> = (0..cases).map(|t| perf.iter().map(|p| p[t]).fold(f64::INFINITY, f64::min)).collect();
    let used: Vec<usize> = (0..cases).filter(|&t| best[t] > 0.0 && best[t].is_finite()).collect();
    perf.iter()
        .map(|p| {
            if used.is_empty() {
                return 0.0;
            }
            used.iter().map(|&t| 100.0 * (p[t] / best[t]) - 100.0).sum::<f64>() / used.len() as f64
        })
        .collect()
}

/// Mean and standard deviation of the degradation per value of one key (Fig. 10).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Group {
    /// The key's value.
    pub value: String,
    /// Mean degradation of the configurations with that value.
    pub mean: f64,
    /// Their standard deviation.
    pub std: f64,
    /// How many configurations.
    pub count: usize,
}

/// Groups degradations by the value `key` has in each configuration, in first-seen order.
pub fn by_key(configs: &[Vec<(String, String)>], degradation: &[f64], key: &str) -> Vec<Group> {
    let key = normalize(key);
    let mut groups: Vec<(String, Vec<f64>)> = Vec::new();
    for (c, &d) in configs.iter().zip(degradation) {
        let Some((_, v)) = c.iter().find(|(k, _)| *k == key) else { continue };
        match groups.iter_mut().find(|(g, _)| g == v) {
            Some((_, list)) => list.push(d),
            None => groups.push((v.clone(), vec![d])),
        }
    }
    groups
        .into_iter()
        .map(|(value, v)| {
            let n = v.len() as f64;
            let mean = v.iter().sum::<f64>() / n;
            let std = (v.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / n).sqrt();
            Group { value, mean, std, count: v.len() }
        })
        .collect()
}

/// Fig. 10 of `groups` (the degradation by `key`, as [`by_key`] gives it) for the sweep of
/// `policy`, titled `title`: the mean and standard deviation per value of the key.
pub fn figure(groups: &[Group], key: &str, policy: &str, title: String) -> Spec {
    Spec::ErrorBars {
        labels: Labels {
            title,
            subtitle: format!(
                "{policy}: average performance degradation, mean ± standard deviation over the configurations with each {key}; lower is better"
            ),
            x: key.to_string(),
            y: "degradation [%]".into(),
            unit: "%".into(),
            count: "configurations".into(),
            ..Labels::default()
        },
        categories: groups.iter().map(|g| g.value.clone()).collect(),
        series: vec![Spread {
            name: policy.to_string(),
            means: groups.iter().map(|g| Some(g.mean)).collect(),
            spreads: groups.iter().map(|g| Some(g.std)).collect(),
            counts: groups.iter().map(|g| g.count as u64).collect(),
            colour: None,
        }],
    }
}

/// Configuration indices from best (lowest degradation) to worst; ties keep grid order.
pub fn ranking(degradation: &[f64]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..degradation.len()).collect();
    crate::sorting::by_key(&mut order, |&a| (crate::sorting::float(degradation[a]), 0));
    order
}

/// The default grid: the neighbourhood of Table 12 (window type all, correction to the
/// estimate) with window sizes 1-8, average or median, with and without propagation.
pub const DEFAULT_AXES: &[&str] = &["window=1-8", "metric=avg,med", "propagation=off,on"];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axes_ranges_and_grid_order() {
        let a = Axis::parse("window=1-3").unwrap();
        assert_eq!(a.values, vec!["1", "2", "3"]);
        let b = Axis::parse("Metric=avg, med").unwrap();
        assert_eq!((b.key.as_str(), b.values.len()), ("metric", 2));
        let g = grid(&[a, b]);
        assert_eq!(g.len(), 6);
        assert_eq!(g[1], vec![("window".into(), "1".into()), ("metric".into(), "med".into())]);
        assert!(Axis::parse("window=").is_err());
    }

    #[test]
    fn degradation_is_relative_to_the_best_of_each_case() {
        // Two cases; config 0 is best in case 0, config 1 in case 1.
        let d = degradation(&[vec![100.0, 30.0], vec![150.0, 20.0], vec![200.0, 40.0]]);
        // The best of a case scores exactly 0 there, whatever rounding 100 x P / P would bring.
        assert_eq!(degradation(&[vec![0.1 + 0.2], vec![0.4]]), vec![0.0, 100.0 * (0.4 / (0.1 + 0.2)) - 100.0]);
        assert_eq!(d, vec![25.0, 25.0, 100.0]);
        assert_eq!(ranking(&d), vec![0, 1, 2]);
        let cfgs = grid(&[Axis::parse("window=1,2,1").unwrap()]);
        let g = by_key(&cfgs, &d, "window");
        assert_eq!(g[0].value, "1");
        assert_eq!((g[0].mean, g[0].count), (62.5, 2));
        assert_eq!((g[1].mean, g[1].std), (25.0, 0.0));
    }
}
