//! Slurm's host lists: `c[001-128]`, `linux[1-32,40]`, `n1,n2` and `rack[1-2]node[1-3]`, as
//! slurm.conf's `NodeName` and `Nodes` and sacct's `NodeList` write them (Slurm's documentation,
//! slurm.conf, "NodeName": "a numeric range ... enclosed in brackets", leading zeros kept).

/// The names a host list stands for, in order; an error names the part that cannot be read.
pub fn expand(list: &str) -> Result<Vec<String>, String> {
    let mut names = Vec::new();
    for item in split_top(list.trim()) {
        if item.is_empty() {
            continue;
        }
        names.extend(expand_one(item)?);
    }
    Ok(names)
}

/// Splits at the commas outside brackets.
fn split_top(list: &str) -> Vec<&str> {
    let (mut parts, mut depth, mut start) = (Vec::new(), 0i32, 0);
    for (i, c) in list.char_indices() {
        match c {
            '[' => depth += 1,
            ']' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(list[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(list[start..].trim());
    parts
}

/// One item: a name with any number of bracketed ranges, each multiplying the names.
fn expand_one(item: &str) -> Result<Vec<String>, String> {
    let bad = |why: &str| format!("{item:?}: {why}");
    let mut names = vec![String::new()];
    let mut rest = item;
    while !rest.is_empty() {
        let Some(open) = rest.find('[') else {
            if rest.contains(']') {
                return Err(bad("a ']' without its '['"));
            }
            names.iter_mut().for_each(|n| n.push_str(rest));
            break;
        };
        let close = rest[open..].find(']').map(|c| open + c).ok_or_else(|| bad("a '[' without its ']'"))?;
        let prefix = &rest[..open];
        let mut values = Vec::new();
        for range in rest[open + 1..close].split(',').map(str::trim) {
            let (lo, hi) = range.split_once('-').unwrap_or((range, range));
            let width = lo.len();
            let (a, b) = match (lo.parse::<u64>(), hi.parse::<u64>()) {
                (Ok(a), Ok(b)) if a <= b => (a, b),
                _ => return Err(bad(&format!("{range:?} is not a range like 001-128"))),
            };
            if b - a >= 1_000_000 {
                return Err(bad("a range of a million names or more"));
            }
            values.extend((a..=b).map(|v| format!("{v:0width$}")));
        }
        names = names.iter().flat_map(|n| values.iter().map(move |v| format!("{n}{prefix}{v}"))).collect();
        rest = &rest[close + 1..];
    }
    Ok(names)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_keep_their_zeros_and_multiply() {
        assert_eq!(expand("c[001-003]").unwrap(), ["c001", "c002", "c003"]);
        assert_eq!(expand("linux[1-2,10],gpu7").unwrap(), ["linux1", "linux2", "linux10", "gpu7"]);
        assert_eq!(expand("r[1-2]n[1-2]").unwrap(), ["r1n1", "r1n2", "r2n1", "r2n2"]);
        assert_eq!(expand("gqxx-01-[009-010]").unwrap(), ["gqxx-01-009", "gqxx-01-010"]);
        assert!(expand("c[1-x]").unwrap_err().contains("not a range"));
        assert!(expand("c[1-2").unwrap_err().contains("without its ']'"));
        assert!(expand("c[3-1]").is_err());
    }
}
