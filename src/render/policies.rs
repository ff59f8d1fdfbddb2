//! The page's policy panel: the policies by group with their options, your own policy (a
//! priority expression), the predictor panel's custom configuration and the trace, engine and
//! metric options, written as HTML from a link's parameters; and what the panel's values ask
//! for: each policy's run (policy and settings) and the link that reproduces it.
//!
//! The panel's inputs are named so that the page hands them back as (name, value) pairs:
//! `tick` (a ticked policy), `opt:POLICY:KEY`, `set:KEY`, `pred:KEY`, `mine`, `mine_k` and
//! `budget`. Links keep their established parameters: `policies=A,B`, `opt=POLICY.KEY=VALUE`,
//! `set=KEY=VALUE`, `pred=KEY=VALUE` (with `base=`), `mine=`, `mine_k=` and `budget=`.

use super::html::{button, El};
use crate::keys::normalize;
use crate::policy::{family_default, family_options, PolicyInfo, POLICIES};
use crate::studies::panel::{prediction_presets, PREDICTOR_KEYS};

/// A first run compares one representative of each family, so every chart stays readable.
pub const DEFAULT_POLICIES: &[&str] =
    &["fcfs", "easy", "conservative", "easy++", "relaxed", "mq-backfill", "ss", "cplant24.nomax.all"];

/// The name the predictor panel's configuration runs under.
pub const CUSTOM: &str = "custom";
/// The name the user's own policy runs under.
pub const MINE: &str = "mine";
/// The predictor panel's base preset when the link names none (Tsafrir et al.'s EASY++).
const PAPER_BASE: &str = "easy++";
/// The paper's suggested values (Table 12), marked ★ among a select's choices.
const TABLE12: &[(&str, &str)] =
    &[("window", "2"), ("window_type", "all"), ("metric", "avg"), ("correction", "estimate")];
/// The priority a policy of your own has when none is typed: first come, first served.
const MINE_PRIORITY: &str = "-submit";
/// The examples offered for your own policy, as (label, expression).
const MINE_EXAMPLES: &[(&str, &str)] = &[
    ("EASY: first come, first served", "-submit"),
    ("SJF: shortest estimate first", "-estimate"),
    ("WFP3: long waits, short jobs, wide jobs", "(wait / estimate)^3 * procs"),
    ("F1 (RLScheduler): small, short, early jobs", "-(log10(estimate) * procs + 870 * log10(submit))"),
    ("Largest expansion factor first", "(wait + estimate) / estimate"),
];

/// (name, value) pairs: a link's parameters, or the panel's inputs.
pub type Pairs = [(String, String)];

fn all<'a>(pairs: &'a Pairs, key: &'static str) -> impl Iterator<Item = &'a str> {
    pairs.iter().filter(move |(k, _)| k == key).map(|(_, v)| v.as_str())
}

fn first<'a>(pairs: &'a Pairs, key: &'static str) -> Option<&'a str> {
    all(pairs, key).next()
}

/// A preset name as a link may spell it: an unencoded `+` arrives as a space (easy++ typed by hand).
pub fn preset_name(s: &str) -> String {
    s.trim_start().replace(' ', "+").to_ascii_lowercase().replace('_', "-")
}

/// `KEY=VALUE` split, both trimmed.
fn kv(s: &str) -> Option<(&str, &str)> {
    s.split_once('=').map(|(k, v)| (k.trim(), v.trim()))
}

/// The trace, engine and metric options the panel shows as inputs (the time budget has its own,
/// and the sacct columns are read while a file is scanned).
fn shown_settings() -> impl Iterator<Item = &'static (&'static str, &'static str, &'static str)> {
    [crate::trace::TRACE_KEYS, crate::engine::ENGINE_KEYS, crate::metrics::METRIC_KEYS]
        .into_iter()
        .flatten()
        .filter(|(k, _, _)| *k != "budget_s" && *k != "fields")
}

/// What a preset runs with for `key`: its own value, else its family's.
fn preset_value(p: &PolicyInfo, key: &str) -> &'static str {
    p.defaults.iter().find(|(k, _)| *k == key).map(|(_, v)| *v).or(family_default(p.family, key)).unwrap_or("")
}

fn policy(name: &str) -> Option<&'static PolicyInfo> {
    POLICIES.iter().find(|p| p.name == name)
}

/// The predictor panel: its base preset and a value for every key.
#[derive(Debug, Clone, PartialEq)]
struct Predictor {
    base: String,
    values: Vec<(&'static str, String)>,
}

impl Predictor {
    /// The base `base` (the paper's when it is no prediction preset) with its preset's values,
    /// then the `given` ones that are not empty.
    fn new(base: Option<&str>, given: &[(&str, &str)]) -> Predictor {
        let base = base.map(preset_name).filter(|b| prediction_presets().contains(&b.as_str()));
        let base = base.unwrap_or_else(|| PAPER_BASE.to_string());
        let p = policy(&base);
        let values = PREDICTOR_KEYS
            .iter()
            .map(|k| {
                let own = given.iter().find(|(g, v)| g == k && !v.is_empty()).map(|(_, v)| v.to_string());
                (*k, own.unwrap_or_else(|| p.map_or("", |p| preset_value(p, k)).to_string()))
            })
            .collect();
        Predictor { base, values }
    }

    /// The panel as a link gives it (`pred=KEY=VALUE`, `base` among them).
    fn from_link(link: &Pairs) -> Predictor {
        let given: Vec<(&str, &str)> = all(link, "pred").filter_map(kv).collect();
        // Read untrimmed: a trailing space is an unencoded `+` (easy++ typed by hand).
        let base = all(link, "pred").find_map(|s| s.trim_start().strip_prefix("base=")).map(|v| v.trim_start());
        Predictor::new(base, &given)
    }

    /// The panel as its inputs give it (`pred:KEY`).
    fn from_form(form: &Pairs) -> Predictor {
        let given: Vec<(&str, &str)> =
            form.iter().filter_map(|(k, v)| Some((k.strip_prefix("pred:")?, v.trim()))).collect();
        let base = given.iter().find(|(k, _)| *k == "base").map(|(_, v)| *v);
        Predictor::new(base, &given)
    }

    /// Its values as `KEY=VALUE`, every key given so a run never depends on a default.
    fn settings(&self) -> Vec<String> {
        self.values.iter().map(|(k, v)| format!("{k}={v}")).collect()
    }

    /// Whether it shows anything but the paper's EASY++ (then a link keeps it).
    fn edited(&self) -> bool {
        *self != Predictor::new(None, &[])
    }
}

/// One policy's row: its box to tick, its name and summary, and its options folded away (empty
/// meaning the preset's value, shown as the placeholder; open when the link sets one).
fn policy_row(name: &str, summary: &str, ticked: bool, options: Option<(&PolicyInfo, &Pairs)>) -> El {
    let tick =
        El::new("input").attr("type", "checkbox").attr("name", "tick").attr("value", name).flag("checked", ticked);
    let label =
        El::new("label").kid(tick).kid(El::new("b").text(name)).kid(El::new("span").text(format!(" — {summary}")));
    let row = El::new("div").attr("class", "policy").kid(label);
    let Some((p, link)) = options else { return row };
    let docs = family_options(p.family);
    if docs.is_empty() {
        return row;
    }
    let given = |key: &str| {
        all(link, "opt").find_map(|v| {
            let (at, kv) = v.split_once('.')?;
            let (k, value) = kv.split_once('=')?;
            (preset_name(at) == p.name && normalize(k) == key).then(|| value.trim())
        })
    };
    let mut open = false;
    let inputs: Vec<El> = docs
        .iter()
        .map(|o| {
            let value = given(o.key);
            open |= value.is_some();
            let input = El::new("input")
                .attr("name", format!("opt:{}:{}", p.name, o.key))
                .attr("placeholder", preset_value(p, o.key))
                .attr("size", "7")
                .attr("data-policy", p.name)
                .attr("data-opt", o.key)
                .some("value", value.unwrap_or(""));
            El::new("label")
                .attr("class", "opt")
                .attr("title", format!("{} ({})", o.doc, o.values))
                .text(format!(" {} ", o.key))
                .kid(input)
        })
        .collect();
    row.kid(El::new("details").flag("open", open).kid(El::new("summary").text("options")).kids(inputs))
}

/// Your own policy's group: its box, the expression with its variables and functions listed,
/// the reservation depth and examples to start from.
fn mine_group(link: &Pairs, ticked: bool) -> El {
    let row = policy_row(MINE, "backfilling in the order of your priority, highest first", ticked, None);
    let priority = El::new("input")
        .attr("id", "mine-priority")
        .attr("name", "mine")
        .attr("spellcheck", "false")
        .attr("autocomplete", "off")
        .attr("placeholder", MINE_PRIORITY)
        .attr("aria-describedby", "mine-error mine-help")
        .some("value", first(link, "mine").unwrap_or(""));
    let k = El::new("input").attr("id", "mine-k").attr("name", "mine_k").attr("size", "3").attr("placeholder", "1");
    let k = k.some("value", first(link, "mine_k").unwrap_or(""));
    let depth = "how many waiting jobs hold a reservation: 0 (none), 1 (as EASY), inf (conservative)";
    let examples = El::new("select").attr("id", "mine-examples").attr("aria-label", "start from an example");
    let examples = examples
        .kid(El::new("option").attr("value", "").text("examples…"))
        .kids(MINE_EXAMPLES.iter().map(|(label, e)| El::new("option").attr("value", e).text(format!("{label}: {e}"))));
    let vars = crate::policy::expr::VARIABLES.iter().map(|(n, _, doc)| El::new("code").attr("title", doc).text(n));
    let functions: Vec<&str> = crate::policy::expr::FUNCTIONS.iter().map(|(n, _)| *n).collect();
    let help = El::new("div")
        .attr("id", "mine-help")
        .attr("class", "mine-help")
        .text("Variables: ")
        .kid(El::new("span").joined(vars, ", "))
        .text(". Functions: ")
        .kid(El::new("span").text(functions.join(", ")))
        .text(". Operators + - * / ^ and comparisons; ties go to the earlier job.");
    let field = El::new("div")
        .attr("class", "mine-field")
        .kid(El::new("label").text("priority = ").kid(priority))
        .text(" ")
        .kid(El::new("label").attr("title", depth).text(" reservations k = ").kid(k))
        .text(" ")
        .kid(examples)
        .kid(
            El::new("div")
                .attr("id", "mine-error")
                .attr("class", "mine-error")
                .attr("role", "alert")
                .flag("hidden", true),
        )
        .kid(help);
    El::new("fieldset")
        .attr("class", "group")
        .attr("id", "mine")
        .kid(El::new("legend").text("Your own policy"))
        .kid(row)
        .kid(field)
}

/// The policies a link ticks: `policies=A,B` (`all`: every one), else the defaults.
fn ticked_by(link: &Pairs) -> Vec<String> {
    let chosen: Vec<String> = match first(link, "policies") {
        Some(list) => list.split(',').map(preset_name).collect(),
        None => DEFAULT_POLICIES.iter().map(|s| s.to_string()).collect(),
    };
    if chosen.iter().any(|n| n == "all") {
        return POLICIES.iter().map(|p| p.name.to_string()).collect();
    }
    chosen
}

/// The list of policies: your own first, then each group with buttons ticking or clearing it
/// (the prediction presets' group ends with the predictor panel's configuration).
pub fn policy_list(link: &Pairs) -> String {
    let ticked = ticked_by(link);
    let on = |n: &str| ticked.iter().any(|t| t == n);
    let mut out = mine_group(link, on(MINE)).to_string();
    let predictions = policy(PAPER_BASE).map_or("", |p| p.group);
    let mut groups: Vec<&str> = Vec::new();
    for p in POLICIES {
        if !groups.contains(&p.group) {
            groups.push(p.group);
        }
    }
    for group in groups {
        let legend = El::new("legend")
            .text(format!("{group} "))
            .kid(button("all").attr("data-tick", "all"))
            .kid(button("none").attr("data-tick", "none"));
        let mut fs = El::new("fieldset").attr("class", "group").kid(legend);
        for p in POLICIES.iter().filter(|p| p.group == group) {
            fs = fs.kid(policy_row(p.name, p.summary, on(p.name), Some((p, link))));
        }
        if group == predictions {
            let summary = "the predictor panel below: its values on top of its base preset";
            fs = fs.kid(policy_row(CUSTOM, summary, on(CUSTOM), None));
        }
        out.push_str(&fs.to_string());
    }
    out
}

/// The predictor panel's controls: the base preset, a select or number per key (labels whose
/// value differs from the base preset's are marked `changed`), and the Table 12 button.
fn predictor_controls(pred: &Predictor) -> String {
    let family = policy(PAPER_BASE).map_or("", |p| p.family);
    let preset = Predictor::new(Some(&pred.base), &[]);
    let base = El::new("select").attr("data-pred", "base").attr("name", "pred:base").kids(
        prediction_presets()
            .into_iter()
            .map(|n| El::new("option").attr("value", n).flag("selected", n == pred.base).text(n)),
    );
    let title = "the preset whose reservation depth (k) and backfill order the custom configuration keeps";
    let mut out = El::new("label").attr("title", title).text("base preset ").kid(base).to_string();
    for ((key, value), (_, preset_value)) in pred.values.iter().zip(&preset.values) {
        let Some(o) = family_options(family).iter().find(|o| o.key == *key) else { continue };
        let control = if o.values.contains('|') {
            let starred = |v: &str| TABLE12.contains(&(*key, v));
            El::new("select").kids(o.values.split('|').map(str::trim).map(|v| {
                let text = if starred(v) { format!("{v} ★") } else { v.to_string() };
                El::new("option").attr("value", v).flag("selected", v == value).text(text)
            }))
        } else {
            let window = *key == "window";
            let number = El::new("input").attr("type", "number").attr("min", if window { "1" } else { "0.1" });
            let number = number.attr("step", if window { "1" } else { "any" });
            let number = if window { number.attr("max", "30") } else { number };
            number.attr("size", "4").attr("value", value)
        };
        let control = control.attr("data-pred", key).attr("name", format!("pred:{key}"));
        let label = El::new("label")
            .attr("title", format!("{} ({})", o.doc, o.values))
            .attr("data-key", key)
            .attr("data-preset", preset_value)
            .some("class", if value != preset_value { "changed" } else { "" });
        out.push_str(&label.text(format!("{key} ")).kid(control).to_string());
    }
    let table12 = button("Table 12 (EASY++)")
        .attr("id", "pred-table12")
        .attr("title", "the paper's suggested EASY++ configuration");
    out + &table12.to_string()
}

/// The predictor panel's controls as the link gives them.
pub fn predictor_from_link(link: &Pairs) -> String {
    predictor_controls(&Predictor::from_link(link))
}

/// The predictor panel's controls after an edit: `form` its inputs as they are (a new base alone
/// brings that preset's values; none at all, the paper's configuration).
pub fn predictor_from_form(form: &Pairs) -> String {
    predictor_controls(&Predictor::from_form(form))
}

/// The trace, engine and metric options as inputs, each empty unless the link sets it.
pub fn option_inputs(link: &Pairs) -> String {
    shown_settings()
        .map(|(key, default, doc)| {
            let given = all(link, "set").filter_map(kv).find(|(k, _)| normalize(k) == *key).map_or("", |(_, v)| v);
            let input = El::new("input")
                .attr("name", format!("set:{key}"))
                .attr("placeholder", default)
                .attr("size", "9")
                .attr("data-setting", key)
                .some("value", given);
            El::new("label").attr("title", doc).text(format!("{key} ")).kid(input).to_string()
        })
        .collect()
}

/// What the engine runs for one of the panel's names.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    /// The name it shows under.
    pub name: String,
    /// The policy the engine runs (a preset, the predictor's base, or your own as a `custom:` spec).
    pub policy: String,
    /// Its settings: the shared ones, then its own.
    pub settings: Vec<String>,
    /// Its own settings alone (the options typed for it, or the predictor panel's values).
    pub own: Vec<String>,
}

/// What the panel's values ask for.
#[derive(Debug, Clone, PartialEq)]
pub struct PanelState {
    /// The ticked policies in catalogue order (your own and the custom configuration last).
    pub ticked: Vec<String>,
    /// The settings every policy runs with, as `KEY=VALUE`.
    pub shared: Vec<String>,
    /// The time budget per policy in seconds, when one is typed.
    pub budget: Option<String>,
    /// What runs for each name asked for (the ticked ones when none are).
    pub runs: Vec<Run>,
    /// The link's parameters afterwards: with names asked for, those of a run of them; else the
    /// link with the predictor panel, your own policy and the budget as they are now.
    pub link: Vec<(String, String)>,
}

/// What the panel's inputs `form` ask for on a page whose link is `link`; `run` names the
/// policies about to run (None: only keeping the link current as the panel is edited).
pub fn panel_state(link: &Pairs, form: &Pairs, run: Option<&[String]>) -> PanelState {
    let value = |key: &'static str| first(form, key).map(str::trim).unwrap_or("");
    let shown: Vec<&str> = shown_settings().map(|(k, _, _)| *k).collect();
    // The link's settings no input shows come first, then those typed.
    let mut shared: Vec<String> = all(link, "set")
        .filter(|s| !shown.contains(&normalize(s.split('=').next().unwrap_or("")).as_str()))
        .map(str::to_string)
        .collect();
    shared.extend(form.iter().filter_map(|(k, v)| {
        let key = k.strip_prefix("set:")?;
        (!v.trim().is_empty()).then(|| format!("{key}={}", v.trim()))
    }));
    let budget = Some(value("budget")).filter(|b| b.parse::<f64>().is_ok_and(|s| s > 0.0)).map(str::to_string);
    // A slurm.conf dropped beside the trace: every run reads it, the link never holds it.
    let cluster = Some(value("cluster")).filter(|c| !c.is_empty()).map(|c| format!("cluster={c}"));
    let ticks: Vec<&str> = all(form, "tick").collect();
    let order = POLICIES.iter().map(|p| p.name).chain([MINE, CUSTOM]);
    let ticked: Vec<String> = order.filter(|n| ticks.contains(n)).map(str::to_string).collect();
    let pred = Predictor::from_form(form);
    let (priority, k) =
        (Some(value("mine")).filter(|s| !s.is_empty()), Some(value("mine_k")).filter(|s| !s.is_empty()));
    let own_of = |name: &str| -> Vec<String> {
        let prefix = format!("opt:{name}:");
        let typed = form.iter().filter_map(|(k, v)| Some((k.strip_prefix(&prefix)?, v.trim())));
        typed.filter(|(_, v)| !v.is_empty()).map(|(k, v)| format!("{k}={v}")).collect()
    };
    let run_of = |name: &str| {
        let (policy, own) = match name {
            CUSTOM => (pred.base.clone(), pred.settings()),
            MINE => {
                let spec =
                    format!("custom:priority={};k={};name={MINE}", priority.unwrap_or(MINE_PRIORITY), k.unwrap_or("1"));
                (spec, Vec::new())
            }
            _ => (name.to_string(), own_of(name)),
        };
        let settings = shared.iter().cloned().chain(cluster.iter().cloned()).chain(own.iter().cloned()).collect();
        Run { name: name.to_string(), policy, settings, own }
    };
    let names: Vec<String> = run.map_or_else(|| ticked.clone(), <[String]>::to_vec);
    let runs: Vec<Run> = names.iter().map(|n| run_of(n)).collect();

    // The link: each parameter the panel writes replaces its old values where they stood.
    let mut written: Vec<(String, Vec<String>)> = Vec::new();
    let runs_too = |n: &str| names.iter().any(|x| x == n);
    if let Some(run) = run {
        written.push(("policies".into(), vec![run.join(",")]));
        written.push(("set".into(), shared.clone()));
        let opts = runs.iter().flat_map(|r| {
            if r.name == CUSTOM {
                Vec::new()
            } else {
                r.own.iter().map(|kv| format!("{}.{kv}", r.name)).collect()
            }
        });
        written.push(("opt".into(), opts.collect()));
    }
    written.push(("budget".into(), budget.iter().cloned().collect()));
    let pred_link = if runs_too(CUSTOM) || pred.edited() {
        std::iter::once(format!("base={}", pred.base)).chain(pred.settings()).collect()
    } else {
        Vec::new()
    };
    written.push(("pred".into(), pred_link));
    let mine_runs = runs_too(MINE);
    written.push((
        "mine".into(),
        priority.filter(|p| mine_runs && *p != MINE_PRIORITY).map(str::to_string).into_iter().collect(),
    ));
    written.push(("mine_k".into(), k.filter(|k| mine_runs && *k != "1").map(str::to_string).into_iter().collect()));
    let mut out: Vec<(String, String)> = Vec::new();
    for (key, value) in link {
        match written.iter_mut().find(|(k, _)| k == key) {
            Some((k, values)) => out.extend(values.drain(..).map(|v| (k.clone(), v))),
            None => out.push((key.clone(), value.clone())),
        }
    }
    for (k, values) in written {
        out.extend(values.into_iter().map(|v| (k.clone(), v)));
    }
    shared.extend(cluster);
    PanelState { ticked, shared, budget, runs, link: out }
}

/// The settings a study of the Studies view (or the Load view's sweep, `loadsweep`) runs with
/// from the panel: the shared settings, then its own. Tsafrir et al.'s sweep takes the time
/// budget and runs the predictor panel's values as the base `custom`; Ward et al.'s takes the
/// relaxed policy's options and the budget; Lawson & Smirni's mq-backfill's options (both runs
/// take them); Kettimuthu et al.'s those of ss (every scheme takes them). Leung et al.'s nine
/// presets differ in their fairshare options, so none typed for one applies to all, and the load
/// sweep's policies each bring their own.
pub fn study_settings(link: &Pairs, form: &Pairs, study: &str) -> Vec<String> {
    let state = panel_state(link, form, None);
    let budget: Vec<String> = state.budget.iter().map(|b| format!("budget_s={b}")).collect();
    let own = |name: &str| panel_state(link, form, Some(&[name.to_string()])).runs.remove(0);
    let extra = match study {
        "sweep" => {
            let custom = own(CUSTOM);
            let base = format!("custom:base={}", custom.policy);
            budget.into_iter().chain([base]).chain(custom.own.iter().map(|kv| format!("custom:{kv}"))).collect()
        }
        "ward" => own("relaxed").own.into_iter().chain(budget).collect(),
        "lawson" => own("mq-backfill").own,
        "kettimuthu" => own("ss").own,
        _ => Vec::new(),
    };
    state.shared.into_iter().chain(extra).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    #[test]
    fn the_list_ticks_the_links_policies_and_opens_the_options_it_sets() {
        let html = policy_list(&pairs(&[("policies", "easy,easy  ,mine"), ("opt", "EASY.K=3")]));
        assert!(html.starts_with("<fieldset class=\"group\" id=\"mine\"><legend>Your own policy</legend>"));
        assert!(html.contains("name=\"tick\" value=\"easy++\" checked"));
        assert!(html.contains("name=\"tick\" value=\"mine\" checked"));
        assert!(!html.contains("value=\"fcfs\" checked"));
        assert!(html.contains("<details open><summary>options</summary>"));
        assert!(html.contains(
            "name=\"opt:easy:k\" placeholder=\"1\" size=\"7\" data-policy=\"easy\" data-opt=\"k\" value=\"3\""
        ));
        assert!(html.contains("name=\"tick\" value=\"custom\""));
        assert_eq!(html.matches("<fieldset").count(), 8);
        // Without a list, the defaults; `all` ticks every preset.
        let defaults = policy_list(&[]);
        assert_eq!(defaults.matches(" checked>").count(), DEFAULT_POLICIES.len());
        assert_eq!(policy_list(&pairs(&[("policies", "all")])).matches(" checked>").count(), POLICIES.len());
    }

    #[test]
    fn the_predictor_starts_from_its_base_and_marks_what_differs() {
        let html = predictor_from_link(&pairs(&[("pred", "base=easy "), ("pred", "window=3")]));
        assert!(html.contains("<option value=\"easy+\" selected>"), "{html}");
        assert!(html.contains("data-key=\"window\" data-preset=\"2\" class=\"changed\">window <input type=\"number\""));
        assert!(html.contains("value=\"3\" data-pred=\"window\""));
        assert!(html.contains("<option value=\"avg\" selected>avg ★</option>"));
        // A new base alone brings its own values.
        let easy = predictor_from_form(&pairs(&[("pred:base", "easy")]));
        assert!(!easy.contains("class=\"changed\""));
    }

    #[test]
    fn the_state_gives_each_run_and_the_link_that_reproduces_it() {
        let link = pairs(&[("view", "jobs"), ("set", "fields=A,B"), ("set", "tau=5"), ("policies", "fcfs")]);
        let form = pairs(&[
            ("tick", "easy"),
            ("tick", "custom"),
            ("tick", "fcfs"),
            ("set:tau", "20"),
            ("set:load", ""),
            ("opt:easy:k", " 2 "),
            ("pred:base", "easy++"),
            ("pred:window", "3"),
            ("mine", ""),
            ("budget", "5"),
        ]);
        let run: Vec<String> = ["easy", "custom", "mine"].map(String::from).to_vec();
        let s = panel_state(&link, &form, Some(&run));
        assert_eq!(s.ticked, ["fcfs", "easy", "custom"]);
        assert_eq!(s.shared, ["fields=A,B", "tau=20"]);
        assert_eq!(s.budget.as_deref(), Some("5"));
        assert_eq!(
            s.runs[0],
            Run {
                name: "easy".into(),
                policy: "easy".into(),
                settings: vec!["fields=A,B".into(), "tau=20".into(), "k=2".into()],
                own: vec!["k=2".into()]
            }
        );
        assert_eq!(s.runs[1].policy, "easy++");
        assert!(s.runs[1].own.contains(&"window=3".to_string()) && s.runs[1].own.contains(&"metric=avg".to_string()));
        assert_eq!(s.runs[2].policy, "custom:priority=-submit;k=1;name=mine");
        let get = |k: &str| s.link.iter().filter(|(key, _)| key == k).map(|(_, v)| v.as_str()).collect::<Vec<_>>();
        assert_eq!(s.link[0], ("view".into(), "jobs".into()));
        assert_eq!(get("policies"), ["easy,custom,mine"]);
        assert_eq!(get("set"), ["fields=A,B", "tau=20"]);
        assert_eq!(get("opt"), ["easy.k=2"]);
        assert_eq!(get("budget"), ["5"]);
        assert!(get("pred").contains(&"base=easy++") && get("pred").contains(&"window=3"));
        assert!(get("mine").is_empty());
        // Edited without running: the link keeps the run's parameters and follows the panel.
        let s =
            panel_state(&pairs(&[("policies", "easy"), ("pred", "base=easy++")]), &pairs(&[("tick", "easy")]), None);
        assert_eq!(s.link, pairs(&[("policies", "easy")]));
        assert_eq!(s.runs.len(), 1);
    }

    #[test]
    fn each_study_takes_the_shared_settings_then_its_own() {
        let link = pairs(&[("set", "fields=A,B")]);
        let form = pairs(&[("budget", "7"), ("opt:ss:sf", "3"), ("pred:base", "easy++"), ("pred:window", "3")]);
        assert_eq!(study_settings(&link, &form, "kettimuthu"), ["fields=A,B", "sf=3"]);
        assert_eq!(study_settings(&link, &form, "leung"), ["fields=A,B"]);
        let sweep = study_settings(&link, &form, "sweep");
        assert_eq!(sweep[..3], ["fields=A,B", "budget_s=7", "custom:base=easy++"]);
        assert!(sweep.contains(&"custom:window=3".to_string()));
        assert_eq!(study_settings(&link, &form, "ward")[1..], ["budget_s=7"]);
    }
}
